"""bgcli's match analysis against gnubg 1.07's analysis of the same matches, at the same ply
(tests/fixtures/matches/, made by scripts/fixtures/gen_matches.py).

    python -m scripts.checks.matches_vs_gnubg            # writes scripts/checks/matches_vs_gnubg.json
    python -m scripts.checks.matches_vs_gnubg -o scripts/checks/matches_vs_gnubg_0.9.1.json

For every fixture match and ply 0, 1 and 2, per player: the checker-play error rate (mEMG per
unforced move) of bgcli and of gnubg (its ``error-skill`` over its unforced moves); the moves
each marks bad or very bad and their overlap (the share of gnubg's that bgcli marks too, and
the other way round); the decisions each finds a cube error on (gnubg: a ``cube-skill`` mark
on a move, or a mark on a double, take or drop). The issue's aims: error rates within 20%
(or 1.5 mEMG), overlap of at least 80%, cube errors on the same decisions. Needs no gnubg.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from bgcli import __version__
from bgcli.matchfile import read_match
from bgcli.matchfile.analysis import judge, player_statistics, skill_mark
from bgcli.net import net_id

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "matches"
OUT = Path(__file__).with_suffix(".json")
DECISIONS = ("move", "double", "take", "drop")
PLIES = (0, 1, 2)  # the plies of gnubg's analyses in the fixtures
BAD = ("bad", "very bad")


def gnubg_marks(view: dict, ply: int) -> tuple[set, set]:
    """gnubg's bad-or-worse checker plays and its cube errors, keyed (game, index) with the
    index counting decisions only."""
    bad, cube = set(), set()
    analysis = view["analysis"][str(ply)]["games"]
    for g, (game, judged) in enumerate(zip(view["games"], analysis), start=1):
        k = 0
        for record, verdict in zip(game["records"], judged["records"]):
            if record["action"] not in DECISIONS:
                continue
            if record["action"] == "move" and verdict.get("skill") in BAD:
                bad.add((g, k))
            if verdict.get("cube-skill") or (record["action"] != "move" and verdict.get("skill")):
                cube.add((g, k))
            k += 1
    return bad, cube


def paired_errors(view: dict, ply: int, judged) -> list[tuple[float, float, str]]:
    """(bgcli's error, gnubg's error, gnubg's mark) of every unforced checker play."""
    records = []
    for game, verdicts in zip(view["games"], view["analysis"][str(ply)]["games"]):
        records += [(r, v) for r, v in zip(game["records"], verdicts["records"])
                    if r["action"] in DECISIONS]
    return [(j.error or 0.0, v["error"], v.get("skill", ""))
            for j, (r, v) in zip(judged, records)
            if r["action"] == "move" and j.unforced and "error" in v]


def ours_marks(judged) -> tuple[set, set]:
    bad, cube, index = set(), set(), {}
    for j in judged:
        k = index.get(j.decision.game, 0)
        index[j.decision.game] = k + 1
        if j.unforced and skill_mark(j.error) in BAD:
            bad.add((j.decision.game, k))
        if j.cube_error and skill_mark(j.cube_error):
            cube.add((j.decision.game, k))
    return bad, cube


def share(part: set, whole: set) -> float | None:
    return len(part & whole) / len(whole) if whole else None


def compare(name: str, ply: int) -> dict:
    match = read_match(FIXTURES / f"{name}.mat")
    view = json.loads((FIXTURES / f"{name}.gnubg.json").read_text())
    began = time.perf_counter()
    judged = judge(match, ply)
    seconds = time.perf_counter() - began
    stats = player_statistics(match, judged, ply)
    theirs = view["analysis"][str(ply)]["match_stats"]
    players = []
    for player, key in ((0, "X"), (1, "O")):
        moves = theirs[key]["moves"]
        gnubg_rate = 1000 * moves["error-skill"] / moves["unforced-moves"] if moves["unforced-moves"] else None
        ours_rate = stats[player]["checker_error_rate"]
        within = (gnubg_rate is not None and ours_rate is not None
                  and (abs(ours_rate - gnubg_rate) <= max(0.2 * gnubg_rate, 1.5)))
        cube, dice = theirs[key]["cube"], theirs[key]["dice"]
        players.append({"player": player, "bgcli_rate": ours_rate, "gnubg_rate": gnubg_rate,
                        "bgcli_unforced": stats[player]["unforced_moves"],
                        "gnubg_unforced": moves["unforced-moves"], "rate_within_aim": within,
                        "bgcli_cube_decisions": stats[player]["cube_decisions"],
                        "gnubg_cube_decisions": cube["total-cube"],
                        "bgcli_close_cube": stats[player]["close_cube_decisions"],
                        "gnubg_close_cube": cube["close-cube"],
                        "bgcli_luck": stats[player]["luck"], "gnubg_luck": dice["luck"]})
    our_bad, our_cube = ours_marks(judged)
    their_bad, their_cube = gnubg_marks(view, ply)
    pairs = paired_errors(view, ply, judged)
    return {"match": name, "ply": ply, "decisions": len(judged), "seconds": round(seconds, 2),
            "errors": pairs,
            "players": players,
            "bad": {"bgcli": len(our_bad), "gnubg": len(their_bad), "both": len(our_bad & their_bad),
                    "share_of_gnubg": share(our_bad, their_bad),
                    "share_of_bgcli": share(their_bad, our_bad)},
            "cube_errors": {"bgcli": sorted(our_cube), "gnubg": sorted(their_cube),
                            "both": len(our_cube & their_cube),
                            "share_of_gnubg": share(our_cube, their_cube),
                            "share_of_bgcli": share(their_cube, our_cube)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=OUT, help="the JSON record to write")
    out = parser.parse_args().output
    names = sorted(p.name[:-len(".gnubg.json")] for p in FIXTURES.glob("*.gnubg.json"))
    rows = [compare(name, ply) for ply in PLIES for name in names]
    summary = {}
    for ply in PLIES:
        mine = [r for r in rows if r["ply"] == ply]
        players = [p for r in mine for p in r["players"]]
        bad_both = sum(r["bad"]["both"] for r in mine)
        summary[str(ply)] = {
            "rates_within_aim": sum(p["rate_within_aim"] for p in players),
            "players": len(players),
            "bad_share_of_gnubg": bad_both / max(sum(r["bad"]["gnubg"] for r in mine), 1),
            "bad_share_of_bgcli": bad_both / max(sum(r["bad"]["bgcli"] for r in mine), 1),
            "cube_share_of_gnubg": sum(r["cube_errors"]["both"] for r in mine)
            / max(sum(len(r["cube_errors"]["gnubg"]) for r in mine), 1),
            "cube_share_of_bgcli": sum(r["cube_errors"]["both"] for r in mine)
            / max(sum(len(r["cube_errors"]["bgcli"]) for r in mine), 1)}
        pairs = np.array([p[:2] for r in mine for p in r["errors"]])
        gnubg_bad = [p for r in mine for p in r["errors"] if p[2] in BAD]
        summary[str(ply)].update(
            unforced_moves_paired=len(pairs),
            error_correlation=float(np.corrcoef(pairs[:, 0], pairs[:, 1])[0, 1]),
            mean_error_bgcli=float(pairs[:, 0].mean()), mean_error_gnubg=float(pairs[:, 1].mean()),
            gnubg_bad_marked_doubtful_or_worse=sum(p[0] >= 0.03 for p in gnubg_bad) / len(gnubg_bad),
            cube_decisions_equal=sum(p["bgcli_cube_decisions"] == p["gnubg_cube_decisions"]
                                     for p in players),
            close_cube_equal=sum(p["bgcli_close_cube"] == p["gnubg_close_cube"] for p in players),
            luck_correlation=float(np.corrcoef([p["bgcli_luck"] for p in players],
                                               [p["gnubg_luck"] for p in players])[0, 1]))
    for row in rows:  # the pairs went into the summary; the record keeps the counts
        row["unforced_moves_paired"] = len(row.pop("errors"))
    command = "python -m scripts.checks.matches_vs_gnubg" + (f" -o {out}" if out != OUT else "")
    record = {"command": command, "bgcli_version": __version__,
              "net": net_id(), "summary": summary, "matches": rows}
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
