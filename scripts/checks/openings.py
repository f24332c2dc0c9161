"""The 15 opening rolls: bgcli's best play (evaluator at 0 and 1 ply, then rollouts of the
1-ply evaluator's candidates with common random numbers) against the published consensus.

    python -m scripts.checks.openings [--candidates 4] [--trials 1296] [--seed 1]
        [-o scripts/checks/openings.json]

The consensus table (main play and close alternatives, money, cube centred) is the one
``tests/test_decisions.py`` checks the evaluator against; here every roll's top candidates
are rolled out and the rollout's pick is compared too. Writes one JSON object per roll.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from pathlib import Path

from bgcli import __version__
from bgcli.decisions import best_plays
from bgcli.evaluation import rank_plays
from bgcli.position import Position
from bgcli.rollout import RolloutSettings


def _consensus_table() -> dict:
    """The ``OPENINGS`` table of ``tests/test_decisions.py``, read as a literal (importing the
    test module would need the tests' own import path)."""
    source = (Path(__file__).resolve().parents[2] / "tests" / "test_decisions.py").read_text()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "OPENINGS" for target in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("tests/test_decisions.py has no OPENINGS table")


OPENINGS = _consensus_table()  # the consensus table the tests use


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variance-reduction", action="store_true")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    settings = RolloutSettings(trials=args.trials, seed=args.seed,
                               variance_reduction=args.variance_reduction)
    start = Position.start()
    rows = []
    for dice in sorted(OPENINGS):
        began = time.time()
        evaluator = rank_plays(start, dice)[0].play.notation
        one_ply = rank_plays(start, dice, plies=1)[0].play.notation
        result = best_plays(start, dice, args.candidates, settings, plies=1)
        best = result.candidates[0]
        consensus = OPENINGS[dice]
        row = {"roll": f"{dice[0]}{dice[1]}", "consensus": sorted(consensus),
               "evaluator_pick": evaluator, "evaluator_agrees": evaluator in consensus,
               "evaluator_1ply_pick": one_ply, "evaluator_1ply_agrees": one_ply in consensus,
               "rollout_pick": best.play, "rollout_agrees": best.play in consensus,
               "candidates": [{"play": c.play, "equity": round(c.equity, 4),
                               "equity_se": round(c.equity_se, 4),
                               "difference": round(c.difference, 4),
                               "difference_se": round(c.difference_se, 4)}
                              for c in result.candidates],
               "seconds": round(time.time() - began, 1)}
        rows.append(row)
        print(f"{row['roll']}: evaluator {evaluator!r} {'ok' if row['evaluator_agrees'] else 'MISS'}"
              f"  1-ply {one_ply!r} {'ok' if row['evaluator_1ply_agrees'] else 'MISS'}"
              f"  rollout {best.play!r} {'ok' if row['rollout_agrees'] else 'MISS'}", file=sys.stderr)
    summary = {"rolls": len(rows), "evaluator_agrees": sum(r["evaluator_agrees"] for r in rows),
               "evaluator_1ply_agrees": sum(r["evaluator_1ply_agrees"] for r in rows),
               "rollout_agrees": sum(r["rollout_agrees"] for r in rows),
               "settings": {"candidates": args.candidates, "trials": args.trials,
                            "seed": args.seed, "variance_reduction": args.variance_reduction,
                            "policy": settings.policy, "candidates_ranked_at_plies": 1},
               "bgcli_version": __version__}
    print(json.dumps(summary, indent=1))
    if args.output:
        Path(args.output).write_text(json.dumps({"summary": summary, "rolls": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
