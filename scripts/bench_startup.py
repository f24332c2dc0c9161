"""Benchmark: how long the CLI takes to start, with an empty and a populated numba cache.

    python -m scripts.bench_startup [--repeat 5]

Each run is a fresh process (`python -m bgcli ...`). The numba cache is pointed at a temporary
folder (NUMBA_CACHE_DIR): "cold" runs start with it empty (the kernels compile), "warm" runs
reuse it. Prints the median wall time of each.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "pips": ["pips", "4HPwATDgc/ABMA"],
    "moves": ["moves", "4HPwATDgc/ABMA", "31"],
}


def run(arguments: list[str], cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bgcli", *arguments], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name, arguments in COMMANDS.items():
        cache_dir = tempfile.mkdtemp(prefix="bgcli-numba-")
        try:
            cold = run(arguments, cache_dir)
            warm = statistics.median(run(arguments, cache_dir) for _ in range(args.repeat))
        finally:
            shutil.rmtree(cache_dir, ignore_errors=True)
        print(f"bgcli {' '.join(arguments)}: cold {cold:.2f} s, warm {warm:.2f} s "
              f"(median of {args.repeat})")


if __name__ == "__main__":
    main()
