"""Benchmark: how long single-position commands take from a fresh process, against ``pips``.

    bgcli bench --part startup
    python -m scripts.bench_startup [--repeat 5] [--cold] [--json FILE]

Each run is a fresh process (``python -m bgcli ...``, output to /dev/null). "Warm" runs use the
kernel cache as it is (filled once first, so compile time is excluded); the commands take
turns, round after round, so that a change of the machine's load hits them all alike. For
each command it prints the median wall time and the median CPU time (user + system of the
child, from ``os.wait4``): on a shared machine the CPU time is the steadier figure, and the
one a quiet machine's wall time comes close to. ``bgcli pips`` (no numba) is the baseline.

With ``--cold`` each command also runs once with an empty numba cache (NUMBA_CACHE_DIR pointed
at a fresh temporary folder): it compiles the kernels that command needs (30-60 s each).

Python's bytecode cache is allowed (``PYTHONDONTWRITEBYTECODE`` is dropped from the children's
environment): pip compiles bytecode at install, and without it every run recompiles bgcli.
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

from .save import report_and_save

MIDDLE = "a5yDAQYtO4MBAw"
COMMANDS = {
    "pips": ["pips", "4HPwATDgc/ABMA"],
    "moves": ["moves", "4HPwATDgc/ABMA", "31"],
    "best --evaluate-only": ["best", MIDDLE, "31", "--evaluate-only"],
    "cube": ["cube", MIDDLE],
    "rollout --trials 36": ["rollout", MIDDLE, "--trials", "36"],
}
TARGET_S = 1.0


def child_env(cache_dir: str | None = None) -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    return env


def run(arguments: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``python -m bgcli ARGUMENTS``."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "bgcli", *arguments], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    error = process.stderr.read().decode()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"bgcli {' '.join(arguments)} failed: {error.strip()}")
    return wall, usage.ru_utime + usage.ru_stime


def measure(repeat: int = 5, cold: bool = False) -> dict:
    """The record: a row per command (``COMMANDS``), with the load average around it."""
    load = os.getloadavg()[0]
    rows = _rows(repeat, cold)
    return dict(benchmark="startup", rows=rows, load_average_before=load,
                load_average_after=os.getloadavg()[0], target_s=TARGET_S,
                worst_over_target=max(r["warm_wall_s"] for r in rows) > TARGET_S)


def _rows(repeat: int, cold: bool) -> list[dict]:
    env = child_env()
    for arguments in COMMANDS.values():  # fill the cache (and Python's bytecode cache)
        run(arguments, env)
    times = {name: [] for name in COMMANDS}
    for _ in range(repeat):
        for name, arguments in COMMANDS.items():
            times[name].append(run(arguments, env))
    rows = []
    for name, arguments in COMMANDS.items():
        walls = [w for w, _ in times[name]]
        cpus = [c for _, c in times[name]]
        row = dict(command=name, arguments=arguments, repeat=repeat,
                   warm_wall_s=statistics.median(walls), warm_cpu_s=statistics.median(cpus),
                   warm_wall_all=walls, warm_cpu_all=cpus)
        if cold:
            cache_dir = tempfile.mkdtemp(prefix="bgcli-numba-")
            try:
                row["cold_wall_s"], row["cold_cpu_s"] = run(arguments, child_env(cache_dir))
            finally:
                shutil.rmtree(cache_dir, ignore_errors=True)
        rows.append(row)
    return rows


def report(record: dict) -> None:
    rows = record["rows"]
    base = rows[0]
    print(f"{'command':<22} {'wall':>6} {'CPU':>6} {'CPU - pips':>10} {'cold':>7}")
    for row in rows:
        cold = f"{row['cold_wall_s']:6.1f}s" if "cold_wall_s" in row else ""
        print(f"{row['command']:<22} {row['warm_wall_s']:5.2f}s {row['warm_cpu_s']:5.2f}s "
              f"{row['warm_cpu_s'] - base['warm_cpu_s']:+9.2f}s {cold:>7}")
    print(f"(medians of {base['repeat']} warm runs each; target {TARGET_S:.1f} s warm)")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time a run with an empty cache")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    record = measure(args.repeat, args.cold)
    return report_and_save(record, report, args.json)


if __name__ == "__main__":
    main()
