"""The pruning net's effect on the search, bgcli alone: time and choices with and without it.

    NUMBA_NUM_THREADS=1 python -m scripts.checks.prune_speed [--plies 2] [--limit 250]
        [-o scripts/checks/prune_speed.json]

On the positions and rolls of ``scripts/strength/search_positions.json`` (the set
``search_vs_gnubg`` measures against gnubg), every play ranked at ``--plies`` with gnubg's
normal filter, the screen on and off in turn, position by position: the time of each, and
how often the top play and its equity agree (the difference the screen makes).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bgcli import __version__
from bgcli.evaluation import rank_plays
from bgcli.notation.detect import parse_situation

from scripts.strength.search_vs_gnubg import POSITIONS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--limit", type=int, default=250)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    items = json.loads(POSITIONS.read_text())[:args.limit]
    seconds = {True: [], False: []}
    same_top, equity_gaps = 0, []
    for item in items:
        position = parse_situation(item["position_id"]).position
        dice = tuple(item["dice"])
        tops = {}
        for prune in (False, True):
            begun = time.perf_counter()
            ranked = rank_plays(position, dice, "net", args.plies, prune=prune)
            seconds[prune].append(time.perf_counter() - begun)
            tops[prune] = ranked[0]
        same_top += tops[True].play.result == tops[False].play.result
        equity_gaps.append(abs(tops[True].equity - tops[False].equity))
    total = {k: float(np.sum(v)) for k, v in seconds.items()}
    record = {"positions": len(items), "plies": args.plies, "filter": "normal",
              "seconds_without_screen": total[False], "seconds_with_screen": total[True],
              "speed_up": total[False] / total[True],
              "same_top_play": same_top / len(items),
              "mean_top_equity_gap": float(np.mean(equity_gaps)),
              "bgcli_version": __version__,
              "command": "NUMBA_NUM_THREADS=1 python -m scripts.checks.prune_speed "
                         f"--plies {args.plies} --limit {args.limit}"}
    text = json.dumps(record, indent=2) + "\n"
    if args.output:
        with open(args.output, "w") as handle:
            handle.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
