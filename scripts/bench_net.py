"""Benchmark: games/s of playouts on the start position with the net policy, one thread.

    python -m scripts.bench_net [--trials 2000] [--repeat 3] [--weights FILE]

Plays ``--trials`` complete games (no truncation, no variance reduction) from the opening
position with ``rollout_trials`` on one numba thread, after a warm-up call (compilation and
cache loading excluded), and prints the median games/s for the net policy and, for
comparison, the heuristic policy.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np

from bgcli.kernels.evaluate import POLICY_HEURISTIC, POLICY_NET
from bgcli.kernels.playout import rollout_trials
from bgcli.net import load_params
from bgcli.position import Position


def games_per_second(policy: int, params: np.ndarray, trials: int, repeat: int) -> float:
    start = np.ascontiguousarray(Position.start().board, dtype=np.int8)
    rates = []
    for r in range(repeat + 1):
        rolls = np.full((trials, 2), -1, dtype=np.int64)
        out = np.zeros((trials, 5))
        t0 = time.perf_counter()
        rollout_trials(start, r * trials, trials, 1, rolls, True, policy, params, 0, False, False,
                       False, 0, False, out, np.zeros(trials))
        if r:  # the first call is a warm-up
            rates.append(trials / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--weights", default=None)
    args = parser.parse_args()
    numba.set_num_threads(1)
    params = load_params(args.weights)
    for name, policy, p in (("net", POLICY_NET, params),
                            ("heuristic", POLICY_HEURISTIC, np.zeros(1))):
        rate = games_per_second(policy, p, args.trials, args.repeat)
        print(f"{name:10s} {rate:8.0f} games/s on 1 thread (start position, full games)")


if __name__ == "__main__":
    main()
