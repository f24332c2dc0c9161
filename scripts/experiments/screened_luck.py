"""Variance reduction's luck with and without the pruning net's screen: the same trials,
one thread, the luck of each roll measured by the search's reply (``kernels.luck.
screened_roll_values``) with the pruning net in the parameters (the full net scores only
the plays the screen keeps, in contact) and without it (every play). Prints games per
second, the SD per game and the core-seconds to SE 0.005 of each, interleaved runs.

    python -m scripts.experiments.screened_luck [--trials 648] [--repeat 2] [-o FILE.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numba
import numpy as np

from bgcli.evaluation import policy_code
from bgcli.kernels.playout import rollout_trials
from bgcli.notation.detect import parse_situation
from bgcli.rollout import first_rolls_table

POSITIONS = ("4HPwATDgc/ABMA", "a5yDAQYtO4MBAw")  # the benchmark's opening and middle game
EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def run(position, trials: int, prune: bool) -> tuple[float, float]:
    """(seconds, SD per game) of a variance-reduced rollout of ``trials`` (seed 1)."""
    code, params = policy_code("net", bearoff=True, prune=prune)
    out = np.zeros((trials, 5))
    rolls = first_rolls_table(1, 0, trials, True, False)
    start = time.process_time()
    rollout_trials(np.ascontiguousarray(position.board), 0, trials, 1, rolls, False, code,
                   params, 0, True, True, False, 0, False, out, np.zeros(trials))
    seconds = time.process_time() - start
    return seconds, float((out @ EQUITY - 1.0).std(ddof=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=648)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("-o", "--output", help="also write the runs to this JSON record")
    args = parser.parse_args()
    runs = []
    numba.set_num_threads(1)
    for position_id in POSITIONS:
        position = parse_situation(position_id).position
        for prune in (True, False):
            run(position, 8, prune)  # compile, load the caches
        for _ in range(args.repeat):
            for prune in (True, False):
                seconds, sd = run(position, args.trials, prune)
                rate = args.trials / seconds
                to_se = (sd / 0.005) ** 2 / rate
                print(f"{position_id} luck {'screened' if prune else 'all plays'}: "
                      f"{rate:6.1f} games/s, SD {sd:.4f}, {to_se:6.1f} core-s to SE 0.005",
                      flush=True)
                runs.append({"position": position_id, "screened": prune, "trials": args.trials,
                             "games_per_s": rate, "sd": sd, "core_s_to_se_0.005": to_se})
    if args.output:
        record = {"command": "python -m scripts.experiments.screened_luck --trials "
                             f"{args.trials} --repeat {args.repeat} -o {args.output}",
                  "machine": platform.machine(), "seed": 1, "threads": 1, "runs": runs}
        with open(args.output, "w") as handle:
            json.dump(record, handle, indent=1)


if __name__ == "__main__":
    main()
