"""bgcli's n-ply search side by side with GNU Backgammon 1.07's, in one run:

    python -m scripts.strength.search_vs_gnubg -o scripts/strength/search_vs_gnubg.json

1. The set: positions and rolls from games bgcli plays against itself at 0 ply (dice
   seeded; one play in ten a random one of the best three, for variety), sorted into
   openings (the first four plies), back games (the player on roll holds two points or
   more in the opponent's home board and trails by 40 pips or more), bear-ins (10 to 14
   of its checkers home) and middle games (the other contact positions); written to
   ``scripts/strength/search_positions.json`` (kept, so that a rerun uses the same set).
2. Speed, one thread each: the time to rank every play of the roll at 2 ply, bgcli
   (``rank_plays``, gnubg's normal filter) against gnubg's ``hint`` at 2 ply, cubeless,
   its default (normal) filter, measured inside gnubg. The set is timed in chunks,
   gnubg's and bgcli's in turn, so that the load of the shared machine hits both alike.
3. Agreement: the share of rolls where bgcli's top play at 0, 1 and 2 ply is gnubg 2-ply's
   top play, and the mean equity gnubg 2-ply (every play evaluated at 2 ply) says bgcli's
   choice loses.
4. Cube actions before the roll, at 2 ply: bgcli (the cubeless probabilities at 2 ply,
   then Janowski's model: ``bgcli cube --plies 2``) against gnubg's 2-ply cube analysis,
   money (centred cube, no Jacoby) and match scores, compared as No double / Double, take
   / Double, pass / Too good.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bgcli import __version__
from bgcli.notation.gnubgid import CENTERED, MatchState, format_match_id
from bgcli.notation.moves import apply_segments, parse_move
from bgcli.position import Position

HERE = Path(__file__).parent
GNUBG = "/usr/games/gnubg"
PROBE = HERE / "gnubg_search_probe.py"
POSITIONS = HERE / "search_positions.json"
TARGETS = {"opening": 50, "back game": 50, "bear-in": 60, "middle game": 90}
MONEY_ID = format_match_id(MatchState(jacoby=False))
# match scores for the cube comparison: (length, points of the player on roll, opponent's)
SCORES = [(7, 0, 0), (7, 2, 4), (7, 4, 2), (5, 1, 3), (5, 3, 1), (9, 3, 6), (3, 1, 0), (3, 0, 1)]


# ------------------------------------------------------------------------------- the set

def category(position: Position, ply: int) -> str | None:
    board = position.board
    if ply < 4:
        return "opening"
    if position.is_race():
        home = board[1, :6].sum()
        return "bear-in" if 10 <= home < 15 else None
    my_pips, their_pips = position.pips()
    points_held = int((board[1, 18:24] >= 2).sum())
    if points_held >= 2 and my_pips - their_pips >= 40:
        return "back game"
    if 10 <= board[1, :6].sum() < 15:
        return "bear-in"
    return "middle game"


def build_set(seed: int) -> list[dict]:
    """Positions and rolls from bgcli's self-play at 0 ply (see the module docstring)."""
    from bgcli.evaluation import rank_plays

    rng = np.random.default_rng(seed)
    chosen: dict[str, list[dict]] = {name: [] for name in TARGETS}
    seen = set()
    games = 0
    while any(len(chosen[c]) < n for c, n in TARGETS.items()) and games < 3000:
        games += 1
        position = Position.start()
        for ply in range(400):
            dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
            if ply == 0:
                while dice[0] == dice[1]:
                    dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
            ranked = rank_plays(position, dice, "net", 0)
            kind = category(position, ply)
            key = (position.position_id(), max(dice), min(dice))
            if (ranked and len(ranked) > 1 and kind and key not in seen
                    and len(chosen[kind]) < TARGETS[kind] and rng.random() < 0.35):
                seen.add(key)
                chosen[kind].append({"position_id": position.position_id(),
                                     "dice": [max(dice), min(dice)], "category": kind})
            if not ranked:
                position = position.swapped()
                continue
            pick = ranked[0] if rng.random() > 0.1 else ranked[int(rng.integers(min(3, len(ranked))))]
            if pick.play.result.is_game_over():
                break
            position = pick.play.result.swapped()
    items = [item for kind in TARGETS for item in chosen[kind]]
    for i, item in enumerate(items):
        length, mine, theirs = SCORES[i % len(SCORES)]
        item["match_id"] = MONEY_ID
        item["cube_match_id"] = format_match_id(MatchState(match_length=length,
                                                           score=(theirs, mine),
                                                           cube_owner=CENTERED))
    return items


# ------------------------------------------------------------------------------- gnubg

def run_gnubg(mode: str, queries: list[dict]) -> tuple[list[dict], str]:
    """gnubg's answers to ``queries`` (``gnubg_search_probe.py``) and its printed output."""
    with tempfile.TemporaryDirectory() as folder:
        given = Path(folder) / "in.json"
        answers = Path(folder) / "out.jsonl"
        given.write_text(json.dumps(queries))
        env = dict(os.environ, LC_ALL="C", LANG="C", PROBE_MODE=mode, PROBE_IN=str(given),
                   PROBE_OUT=str(answers))
        done = subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(PROBE)], env=env, cwd=folder,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=3600)
        rows = [json.loads(line) for line in answers.read_text().splitlines()] \
            if answers.exists() else []
    return rows, done.stdout


def gnubg_cube_actions(text: str) -> dict[int, dict]:
    """The 2-ply cube analyses gnubg printed between the probe's markers, by query."""
    found = {}
    for block in re.finditer(r"@@CUBE (\d+) (\S+)\n(.*?)@@END ([\d.]+)", text, re.S):
        action = re.search(r"Proper cube action: ([^\n(]+)", block.group(3))
        equities = dict(re.findall(r"\d\. (No double|No redouble|Double, take|Redouble, take|"
                                   r"Double, pass|Redouble, pass)\s+([-+]\d+\.\d+)", block.group(3)))
        found[int(block.group(1))] = {"action": action.group(1).strip() if action else None,
                                      "equities": equities, "seconds": float(block.group(4))}
    return found


def cube_class(action: str | None) -> str | None:
    """No double / Double, take / Double, pass / Too good, from gnubg's (or bgcli's) words."""
    if not action:
        return None
    text = action.lower()
    if text.startswith("too good"):
        return "too good"
    if text.startswith("no double") or text.startswith("no redouble") \
            or "never" in text:
        return "no double"
    if "pass" in text or "drop" in text:
        return "double, pass"
    if "take" in text or "beaver" in text:
        return "double, take"
    return text


# ------------------------------------------------------------------------------- bgcli

def gnubg_board(position: Position, move: str):
    board = apply_segments(position.board, parse_move(move))
    return None if board is None else board.tobytes()


def bgcli_ranking(items: list[dict], plies: int) -> tuple[list[bytes], list[float]]:
    """bgcli's top play (its result board) for each item at ``plies``, and the seconds."""
    from bgcli.evaluation import rank_plays

    tops, seconds = [], []
    for item in items:
        position = Position.from_id(item["position_id"])
        began = time.perf_counter()
        ranked = rank_plays(position, tuple(item["dice"]), "net", plies)
        seconds.append(time.perf_counter() - began)
        tops.append(ranked[0].play.result.board.tobytes())
    return tops, seconds


def bgcli_cube(position_id: str, match_id: str) -> str:
    from bgcli.decisions import cube_decision
    from bgcli.evaluation import position_probabilities
    from bgcli.notation.detect import parse_situation

    situation = parse_situation(f"{position_id}:{match_id}")
    probabilities = position_probabilities(situation.position, "net", 2)
    return cube_decision(situation, probabilities).action


def summary(values) -> dict:
    values = np.asarray(values, dtype=float)
    return {"n": int(values.size), "mean": float(values.mean()),
            "median": float(np.median(values)),
            "se": float(values.std(ddof=1) / math.sqrt(values.size)) if values.size > 1 else None}


def main() -> None:
    import numba

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--chunk", type=int, default=50, help="positions per timed chunk")
    parser.add_argument("-o", "--output", help="write the record as JSON here too")
    args = parser.parse_args()
    numba.set_num_threads(1)
    if POSITIONS.exists():
        items = json.loads(POSITIONS.read_text())
    else:
        items = build_set(args.seed)
        POSITIONS.write_text(json.dumps(items, indent=0) + "\n")
    print(f"{len(items)} positions and rolls", file=sys.stderr)
    bgcli_ranking(items[:2], 2)  # compile / warm before timing

    # 2. speed, in turns of chunks; 3. gnubg's own 2-ply choices come with its timing
    hints: list[dict] = []
    tops2: list[bytes] = []
    bgcli_seconds: list[float] = []
    for start in range(0, len(items), args.chunk):
        chunk = items[start:start + args.chunk]
        answers, _ = run_gnubg("hint", chunk)
        hints += answers
        tops, seconds = bgcli_ranking(chunk, 2)
        tops2 += tops
        bgcli_seconds += seconds
        print(f"timed {start + len(chunk)}: gnubg {sum(a['seconds'] for a in hints):.1f} s, "
              f"bgcli {sum(bgcli_seconds):.1f} s", file=sys.stderr)
    gnubg_seconds = [a["seconds"] for a in hints]
    full, _ = run_gnubg("all2", items)
    tops0, _ = bgcli_ranking(items, 0)
    tops1, _ = bgcli_ranking(items, 1)

    agreement = {}
    for plies, tops in ((0, tops0), (1, tops1), (2, tops2)):
        same, lost = [], []
        by_category: dict[str, list[int]] = {}
        for item, top, hint, every in zip(items, tops, hints, full):
            position = Position.from_id(item["position_id"])
            gnubg_top = gnubg_board(position, hint["moves"][0]["move"])
            equities = {gnubg_board(position, m["move"]): m["equity"] for m in every["moves"]}
            same.append(int(top == gnubg_top))
            by_category.setdefault(item["category"], []).append(same[-1])
            lost.append(max(equities.values()) - equities[top])
        agreement[f"{plies}-ply"] = {
            "same_top_play": float(np.mean(same)),
            "equity_lost": summary(lost),
            "same_top_play_by_category": {k: float(np.mean(v)) for k, v in by_category.items()}}
        print(f"{plies}-ply: {np.mean(same):.1%} agree, {np.mean(lost):.4f} lost", file=sys.stderr)
    hint_vs_full = np.mean([gnubg_board(Position.from_id(i["position_id"]), h["moves"][0]["move"])
                            == gnubg_board(Position.from_id(i["position_id"]), f["moves"][0]["move"])
                            for i, h, f in zip(items, hints, full)])

    # 4. cube actions before the roll
    cube_queries = [{"position_id": i["position_id"], "match_id": m, "kind": kind}
                    for i in items for kind, m in (("money", i["match_id"]),
                                                   ("match", i["cube_match_id"]))]
    _, printed = run_gnubg("cube", cube_queries)
    gnubg_cube = gnubg_cube_actions(printed)
    cube_rows = []
    for k, query in enumerate(cube_queries):
        theirs = gnubg_cube.get(k, {}).get("action")
        ours = bgcli_cube(query["position_id"], query["match_id"])
        cube_rows.append({"kind": query["kind"], "gnubg": theirs, "bgcli": ours,
                          "same": cube_class(theirs) == cube_class(ours)})
    cube = {}
    for kind in ("money", "match"):
        rows = [r for r in cube_rows if r["kind"] == kind and r["gnubg"]]
        cube[kind] = {"positions": len(rows), "agreement": float(np.mean([r["same"] for r in rows])),
                      "gnubg_doubles": int(sum(cube_class(r["gnubg"]) != "no double" for r in rows)),
                      "bgcli_doubles": int(sum(cube_class(r["bgcli"]) != "no double" for r in rows))}
    answered = [r for r in cube_rows if r["gnubg"]]

    record = {
        "positions": len(items),
        "categories": {k: sum(i["category"] == k for i in items) for k in TARGETS},
        "ranking_seconds": {"gnubg_hint_2ply": summary(gnubg_seconds),
                            "bgcli_rank_2ply": summary(bgcli_seconds),
                            "gnubg_over_bgcli_total": sum(gnubg_seconds) / sum(bgcli_seconds)},
        "agreement_with_gnubg_2ply": agreement,
        "gnubg_hint_top_is_its_all_plays_2ply_top": float(hint_vs_full),
        "cube_2ply": cube | {"all": float(np.mean([r["same"] for r in answered]))},
        "cube_disagreements": [r for r in cube_rows if not r["same"]][:40],
        "settings": {"bgcli": "rank_plays(net, 2 ply, filter normal), 1 thread; cube: "
                              "position_probabilities(2 ply) + Janowski",
                     "gnubg": "gnubg 1.07 hint, 2 ply cubeless, filter normal, prune on, 1 "
                              "thread; cube: 2-ply cubeful cube analysis",
                     "chunk": args.chunk, "seed": args.seed},
        "bgcli_version": __version__,
        "note": "timings from a shared 2-core machine, gnubg and bgcli in alternating chunks",
    }
    text = json.dumps(record, indent=2)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")


if __name__ == "__main__":
    main()
