"""bgcli's rollouts against GNU Backgammon's own, position by position.

    python -m scripts.strength.rollouts_vs_gnubg [--trials 1296] [--seed 1]
        [--variance-reduction] [--theme backgame ...] [-o scripts/strength/rollouts_vs_gnubg.json]

The reference is ``tests/fixtures/gnubg_rollouts.jsonl`` (made by
``scripts/fixtures/gen_rollouts.py``): gnubg 1.07, 0-ply, cubeless, 1296 quasi-random trials
with variance reduction, every game played to the end. bgcli rolls the same positions out
with its default settings (net policy, 1296 trials, quasi-random dice) unless told otherwise,
and this prints, per position and per theme, the differences in equity, W and W(g), with
both standard errors, then the summary the strength issue asks for: mean and maximum
|delta equity|, and the largest |delta W| and |delta W(g)|.

A difference is partly noise: with standard errors s1 and s2 the expected |delta| of two
unbiased rollouts is about 0.8 * sqrt(s1^2 + s2^2). The summary gives that noise floor too,
and counts the positions whose difference exceeds 3 combined standard errors (real
disagreements in play, not luck).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

from bgcli import __version__
from bgcli.net import weights_record
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout

from scripts.strength.vs_gnubg import parse_args  # the strength scripts' shared options

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "gnubg_rollouts.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="net")
    parser.add_argument("--variance-reduction", action="store_true")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--theme", action="append",
                        help="only the positions of this theme (repeatable), e.g. backgame")
    args = parse_args(parser)

    references = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    if args.theme:
        themes = {ref["theme"] for ref in references}
        unknown = sorted(set(args.theme) - themes)
        if unknown:
            parser.error(f"unknown theme {', '.join(unknown)}; "
                         f"the themes are {', '.join(sorted(themes))}")
        references = [ref for ref in references if ref["theme"] in args.theme]
    settings = RolloutSettings(trials=args.trials, seed=args.seed, policy=args.policy,
                               variance_reduction=args.variance_reduction, threads=args.threads)
    rows = []
    began = time.time()
    for ref in references:
        g = ref["gnubg"]
        result = rollout(Position.from_id(ref["position_id"]), settings)
        ours = dict(zip(["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"],
                        result.means))
        se = math.hypot(result.equity_se, g["equity_se"])
        row = {"position_id": ref["position_id"], "theme": ref["theme"], "name": ref.get("name"),
               "gnubg_equity": g["equity"], "gnubg_equity_se": g["equity_se"],
               "bgcli_equity": result.equity, "bgcli_equity_se": result.equity_se,
               "delta_equity": result.equity - g["equity"], "combined_se": se,
               "delta_win": ours["win"] - g["win"], "delta_win_gammon": ours["win_gammon"] - g["win_gammon"],
               "seconds": round(result.elapsed_seconds, 1)}
        row["z"] = row["delta_equity"] / se if se > 0 else (0.0 if row["delta_equity"] == 0 else math.inf)
        rows.append(row)
        print(f"{ref['theme']:9} {ref['position_id']}  gnubg {g['equity']:+.4f}±{g['equity_se']:.4f}"
              f"  bgcli {result.equity:+.4f}±{result.equity_se:.4f}  delta {row['delta_equity']:+.4f}"
              f"  dW {row['delta_win']:+.4f}  dWg {row['delta_win_gammon']:+.4f}", file=sys.stderr)
    deltas = [abs(r["delta_equity"]) for r in rows]
    themes = defaultdict(list)
    for r in rows:
        themes[r["theme"]].append(abs(r["delta_equity"]))
    summary = {
        "positions": len(rows),
        "mean_abs_delta_equity": sum(deltas) / len(deltas),
        "max_abs_delta_equity": max(deltas),
        "max_abs_delta_win": max(abs(r["delta_win"]) for r in rows),
        "max_abs_delta_win_gammon": max(abs(r["delta_win_gammon"]) for r in rows),
        "noise_floor_mean_abs_delta": sum(0.7979 * r["combined_se"] for r in rows) / len(rows),
        "beyond_3_se": sum(abs(r["z"]) > 3 for r in rows),
        "mean_abs_delta_by_theme": {t: sum(v) / len(v) for t, v in sorted(themes.items())},
        "settings": {"trials": args.trials, "seed": args.seed, "policy": args.policy,
                     "variance_reduction": args.variance_reduction,
                     "bearoff_truncation": settings.bearoff_truncation, "themes": args.theme},
        "net_games": weights_record().get("games"), "bgcli_version": __version__,
        "seconds": round(time.time() - began, 1),
    }
    text = json.dumps({"summary": summary, "positions": rows}, indent=1)
    print(json.dumps(summary, indent=1))
    if args.output:
        Path(args.output).write_text(text + "\n")


if __name__ == "__main__":
    main()
