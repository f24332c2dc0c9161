"""bgcli's cube actions from its own numbers against gnubg's cube analysis.

    python -m scripts.checks.cube_vs_gnubg [--trials 1296] [--seed 1] [--limit 40]
        [-o scripts/checks/cube_vs_gnubg.json]

Reference: ``tests/fixtures/cube_money.jsonl`` (gnubg 1.07's 0-ply cube analysis, made by
``scripts/fixtures/gen_cube.py``). Given gnubg's own probabilities bgcli reproduces every
action exactly (``tests/test_cube.py``, ``tests/test_decisions.py``); this script measures
the whole chain instead: for the fixture's money positions (centred cube, Jacoby off), bgcli's
cube action from (a) its evaluator at 0 and at 1 ply, (b) a cubeless rollout and (c) cubeful
rollouts, compared with gnubg's action on the double / no double and take / pass questions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bgcli import __version__
from bgcli.decisions import cube_decision, cubeful_cube_decision
from bgcli.evaluation import position_probabilities
from bgcli.notation.detect import parse_situation
from bgcli.rollout import RolloutSettings, rollout

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "cube_money.jsonl"


def verdict(action: str) -> tuple[bool, bool]:
    """(doubles, the opponent takes) from an action in gnubg's words."""
    doubles = action.startswith(("Double", "Redouble", "Optional"))
    return doubles, action.endswith("take")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--no-cubeful", action="store_true")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    rows = [r for r in rows if r["cube"] == "centred" and r["class"] != "bearoff_ts"]
    rows = rows[::2][:args.limit]  # every other one: all classes and actions, half the time
    settings = RolloutSettings(trials=args.trials, seed=args.seed)
    out = []
    for r in rows:
        began = time.time()
        situation = parse_situation(f"{r['position_id']}:{r['match_id']}")
        gnubg = r["gnubg"]["action"]
        found = {source: cube_decision(situation, position_probabilities(
                     situation.position, plies=plies)).action
                 for source, plies in (("evaluator", 0), ("evaluator_1ply", 1))}
        result = rollout(situation.position, settings)
        found["rollout"] = cube_decision(situation, result.means).action
        if not args.no_cubeful:
            found["cubeful"] = cubeful_cube_decision(situation, settings).action
        row = {"position_id": r["position_id"], "class": r["class"], "gnubg": gnubg,
               "gnubg_probs": r["gnubg"]["probs"], "rollout_probs": [round(x, 4) for x in result.means]}
        for source, action in found.items():
            row[source] = action
            row[f"{source}_same_action"] = action == gnubg
            row[f"{source}_same_double_take"] = verdict(action) == verdict(gnubg)
        row["seconds"] = round(time.time() - began, 1)
        out.append(row)
        print(f"{r['class']:8} {r['position_id']}  gnubg {gnubg!r:28} "
              + "  ".join(f"{k} {v!r}" for k, v in found.items()), file=sys.stderr)
    summary = {"positions": len(out)}
    for source in ("evaluator", "evaluator_1ply", "rollout", "cubeful"):
        if f"{source}_same_action" in out[0]:
            summary[f"{source}_same_action"] = sum(r[f"{source}_same_action"] for r in out)
            summary[f"{source}_same_double_take"] = sum(r[f"{source}_same_double_take"] for r in out)
    summary.update(trials=args.trials, seed=args.seed, policy=settings.policy,
                   bgcli_version=__version__)
    print(json.dumps(summary, indent=1))
    if args.output:
        Path(args.output).write_text(json.dumps({"summary": summary, "positions": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
