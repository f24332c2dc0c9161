"""Is bgcli's surplus of checker-play error the cube model's or the evaluator's? Both judges
with the cube left out: gnubg 1.07's 2-ply analysis of the fixture matches with cubeless
chequer-play evaluation (``set analysis chequerplay evaluation cubeful off``, run here) and
bgcli's 2-ply cubeless errors (each play's cubeless EMG or match EMG from the ranking, the
play made at the best play's depth, as 0.6.0 judged), beside both judges' cubeful rates
(gnubg's from the fixtures, bgcli's from ``bgcli.matchfile.analysis.judge``).

    python -m scripts.checks.cubeless_judges     # writes scripts/checks/cubeless_judges.json

Needs /usr/games/gnubg (about 5 minutes on one core).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from bgcli import __version__
from bgcli.matchfile import read_match
from bgcli.matchfile.analysis import _Score, judge, player_statistics, ranked_plays
from bgcli.net import net_id
from scripts.fixtures.gen_matches import GNUBG, MATCHES

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "matches"
OUT = Path(__file__).with_suffix(".json")
PLY = 2

# Runs inside gnubg (-p): each fixture's .sgf analysed at PLY with cubeless chequer play.
GNUBG_CUBELESS = r'''
import gnubg, json, os
folder, ply, out = os.environ["FIXTURES"], int(os.environ["PLY"]), {}
for name in os.environ["NAMES"].split(","):
    gnubg.command("load match %s/%s.sgf" % (folder, name))
    gnubg.command("set analysis chequerplay evaluation plies %d" % ply)
    gnubg.command("set analysis cubedecision evaluation plies %d" % ply)
    gnubg.command("set analysis chequerplay evaluation prune off")
    gnubg.command("set analysis chequerplay evaluation cubeful off")
    gnubg.command("analyse match")
    stats = gnubg.match(analysis=1, boards=0, statistics=1)["stats"]
    out[name] = [[stats[k]["moves"]["error-skill"], stats[k]["moves"]["unforced-moves"]]
                 for k in ("X", "O")]
json.dump(out, open(os.environ["OUT"], "w"))
'''


def gnubg_cubeless(names: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        script, out = Path(tmp) / "cubeless.py", Path(tmp) / "out.json"
        script.write_text(GNUBG_CUBELESS)
        env = dict(os.environ, LC_ALL="C", LANG="C", FIXTURES=str(FIXTURES), PLY=str(PLY),
                   NAMES=",".join(names), OUT=str(out))
        subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(script)], env=env, check=True,
                       capture_output=True, timeout=3600)
        return json.loads(out.read_text())


def bgcli_rates(name: str) -> list[dict]:
    """Each player's 2-ply checker-play error rate (mEMG per unforced move), cubeless and
    cubeful."""
    match = read_match(FIXTURES / f"{name}.mat")
    judged = judge(match, PLY)
    cubeful = player_statistics(match, judged, PLY)
    totals = [[0.0, 0], [0.0, 0]]
    for j in judged:
        if not j.unforced:
            continue
        decision = j.decision
        ranked = ranked_plays(decision.situation, decision.dice, PLY)
        score = _Score(decision.situation, decision.player)
        played = next(r for r in ranked
                      if np.array_equal(r.play.result.board, decision.play.result.board))
        played = score.at_depth(played, ranked[0].plies)
        totals[decision.player][0] += max(ranked[0].value - played.value, 0.0)
        totals[decision.player][1] += 1
    return [{"cubeless": 1000 * error / moves, "cubeful": cubeful[p]["checker_error_rate"],
             "unforced": moves} for p, (error, moves) in enumerate(totals)]


def within(ours: float, theirs: float) -> bool:
    return abs(ours - theirs) <= max(0.2 * theirs, 1.5)


def main() -> None:
    names = [name for name, *_ in MATCHES]
    theirs_cubeless = gnubg_cubeless(names)
    rows = []
    for name in names:
        stats = json.loads((FIXTURES / f"{name}.gnubg.json").read_text())[
            "analysis"][str(PLY)]["match_stats"]
        for player, (key, ours) in enumerate(zip("XO", bgcli_rates(name))):
            error, moves = theirs_cubeless[name][player]
            assert moves == ours["unforced"], (name, player)
            rows.append({"match": name, "player": player, "unforced": moves,
                         "gnubg_cubeless": 1000 * error / moves,
                         "gnubg_cubeful": 1000 * stats[key]["moves"]["error-skill"] / moves,
                         "bgcli_cubeless": ours["cubeless"], "bgcli_cubeful": ours["cubeful"]})
    moves = sum(r["unforced"] for r in rows)
    summary = {f"{judge_}_{kind}_mean": sum(r[f"{judge_}_{kind}"] * r["unforced"]
                                            for r in rows) / moves
               for judge_ in ("gnubg", "bgcli") for kind in ("cubeless", "cubeful")}
    for kind in ("cubeless", "cubeful"):
        summary[f"{kind}_rates_within_aim"] = sum(within(r[f"bgcli_{kind}"],
                                                         r[f"gnubg_{kind}"]) for r in rows)
    summary["players"] = len(rows)
    record = {"command": "python -m scripts.checks.cubeless_judges", "ply": PLY,
              "bgcli_version": __version__, "net": net_id(), "summary": summary,
              "players": rows}
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
