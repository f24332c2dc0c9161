"""Rollouts with 1-ply checker play, bgcli against GNU Backgammon 1.07, in one run:

    python -m scripts.strength.rollout_plies_vs_gnubg --trials 144 -o scripts/strength/rollout_plies_vs_gnubg.json

For each position, gnubg and bgcli roll it out ``--trials`` games, cubeless, quasi-random
dice, every game played to the end (no bear-off truncation), variance reduction off, each
play at 1 ply through the normal move filter, on one thread: gnubg as
``scripts.bench_rollout.gnubg_rollout`` sets it up (``set rollout chequerplay plies 1`` and
per player), bgcli ``bgcli rollout --checker-plies 1 --threads 1``. Games per second per
core, and their ratio; the engines alternate position by position (the machine is shared:
only the ratio means much). ``--plies 0`` measures the greedy rollouts the same way.
"""

from __future__ import annotations

import argparse
import json
import sys

from bgcli import __version__
from bgcli.position import Position
from bgcli.bench.rollout import GNUBG, bgcli_rollout, gnubg_rollout

POSITIONS = ["4HPwATDgc/ABMA", "a5yDAQYtO4MBAw"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=144)
    parser.add_argument("--plies", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", nargs="+", default=POSITIONS)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    position = Position.from_id(args.positions[0])
    bgcli_rollout(position, 4, args.seed, False, 1, 1, "net", args.plies)  # compile, warm
    rows = []
    for position_id in args.positions:
        theirs = gnubg_rollout(GNUBG, position_id, args.trials, args.seed, False, args.plies)
        ours = bgcli_rollout(Position.from_id(position_id), args.trials, args.seed, False, 1, 1,
                             "net", args.plies)
        for row in (theirs, ours):
            row.update(position_id=position_id, games_per_s=row["games"] / row["seconds"])
            rows.append(row)
        ratio = ours["games_per_s"] / theirs["games_per_s"]
        print(f"{position_id}: gnubg {theirs['games_per_s']:.2f} games/s, bgcli "
              f"{ours['games_per_s']:.2f} games/s: {ratio:.2f}x", file=sys.stderr)
    ratios = {pid: next(r for r in rows if r["position_id"] == pid and r["engine"] == "bgcli")
              ["games_per_s"] / next(r for r in rows if r["position_id"] == pid
                                     and r["engine"] == "gnubg")["games_per_s"]
              for pid in args.positions}
    record = {"checker_plies": args.plies, "move_filter": "normal", "trials": args.trials,
              "seed": args.seed, "threads": 1, "rows": rows,
              "bgcli_over_gnubg_games_per_s": ratios, "bgcli_version": __version__,
              "note": "one thread each, shared 2-core machine; engines alternate"}
    text = json.dumps(record, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main()
