"""Benchmark: rollouts on all threads against one thread, and the same numbers on both.

    bgcli bench --part scaling
    python -m bgcli.bench.scaling [--trials-plain 2592] [--trials-vr 288] [--repeat 3]

For each position, with variance reduction off and on, the same rollout (seed, trials,
quasi-random dice, every game played out) runs on 1 thread and on all of numba's threads,
taking turns ``--repeat`` times (so that a change of the machine's load hits both alike);
the median wall times give the speed-up. The results must be identical whatever the thread
count (each trial has its own dice stream): the record says whether they were. On a shared
machine the other users' load takes from the second core: check ``uptime`` first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

import numba

from ..position import Position
from ..rollout import RolloutSettings, rollout
from .rollout import POSITIONS
from .save import report_and_save

TARGET = 1.85


def _timed(position: Position, settings: RolloutSettings) -> tuple[float, object]:
    began = time.perf_counter()
    result = rollout(position, settings)
    return time.perf_counter() - began, result


def measure(positions=POSITIONS, trials_plain: int = 2592, trials_vr: int = 288,
            seed: int = 1, repeat: int = 3) -> dict:
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    load_before = os.getloadavg()[0]
    for position_id in positions:
        position = Position.from_id(position_id)
        for vr in (False, True):
            settings = {threads: RolloutSettings(
                trials=trials_vr if vr else trials_plain, seed=seed, variance_reduction=vr,
                quasi_random=True, truncate=0, bearoff_truncation=False, threads=threads)
                for threads in (1, all_threads)}
            rollout(position, replace(settings[all_threads], trials=32))  # warm-up
            times = {threads: [] for threads in settings}
            results = {}
            for _ in range(repeat):
                for threads, chosen in settings.items():
                    seconds, results[threads] = _timed(position, chosen)
                    times[threads].append(seconds)
            one, many = (statistics.median(times[1]), statistics.median(times[all_threads]))
            rows.append(dict(position=position_id, variance_reduction=vr,
                             trials=settings[1].trials, threads=all_threads,
                             seconds_1_thread=one, seconds_all_threads=many,
                             speedup=one / many, times=times,
                             same_results=bool((results[1].means
                                                == results[all_threads].means).all())))
    return dict(benchmark="scaling", rows=rows, target=TARGET, seed=seed, repeat=repeat,
                load_average_before=load_before, load_average_after=os.getloadavg()[0])


def report(record: dict) -> None:
    for row in record["rows"]:
        print(f"  {row['position']:<15} VR {'on ' if row['variance_reduction'] else 'off'} "
              f"{row['trials']:>5} trials: 1 thread {row['seconds_1_thread']:6.2f} s, "
              f"{row['threads']} threads {row['seconds_all_threads']:6.2f} s: "
              f"{row['speedup']:.2f}x (target {record['target']}x), same results: "
              f"{'yes' if row['same_results'] else 'NO'}")
    print(f"  (load average {record['load_average_before']:.2f} before, "
          f"{record['load_average_after']:.2f} after)")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials-plain", type=int, default=2592)
    parser.add_argument("--trials-vr", type=int, default=288)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    record = measure(trials_plain=args.trials_plain, trials_vr=args.trials_vr,
                     repeat=args.repeat)
    return report_and_save(record, report, args.json)


if __name__ == "__main__":
    main()
