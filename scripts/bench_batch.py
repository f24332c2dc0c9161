"""Benchmark: ``bgcli batch`` speed, memory and CPU use.

    python -m scripts.bench_batch [--sizes 1000 10000] [--rollout-positions 10] [--trials 1296]
                                  [--variance-reduction] [--no-dask]

(a) Race metrics only: a collection of N positions (distinct positions from random games,
    repeated under new ids to reach N) through ``bgcli batch coll.csv -o out.csv`` in a fresh
    process; wall time and the process's peak RSS. Rows are streamed, so the peak RSS should
    not grow with N.
(b) Rollouts: ``--rollout-positions`` positions at ``--trials`` games each (otherwise
    ``bgcli rollout``'s defaults: the net, variance reduction on since 0.4.0): positions per
    minute and CPU utilisation = CPU time of every process doing the work / (wall time x
    cores), run here in one process and on a local Dask cluster of one scheduler and two
    ``dask worker --nthreads 1`` processes, each with half the cores for its kernel
    (NUMBA_NUM_THREADS; 127.0.0.1 only; the workers are warmed up first, so numba's
    start-up is not counted there; the local figure includes the process start).
    It also prints the share of the wall time spent inside the analyses (the rows'
    ``elapsed_seconds``): what the batch machinery leaves idle, whatever else the machine runs.

Each run is a fresh ``python -m bgcli`` process; figures depend on what else the machine is
doing, so the load average is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def random_positions(count: int, seed: int) -> list[str]:
    """Distinct positions met in random games, as Position IDs."""
    from bgcli.moves import legal_plays
    from bgcli.position import Position

    rng = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        position = Position.start()
        for _ in range(300):
            plays = legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)))
            if plays:
                position = rng.choice(plays).result
            if position.is_game_over():
                break
            position = position.swapped()
            found[position.position_id()] = None
            if len(found) == count:
                break
    return list(found)


def write_collection(path: Path, pool: list[str], count: int) -> Path:
    with open(path, "w") as handle:
        handle.write("id,name,position,notes\n")
        for number in range(1, count + 1):
            handle.write(f"{number},,{pool[(number - 1) % len(pool)]},\n")
    return path


def run_measured(arguments: list[str]) -> tuple[float, float, float]:
    """Run ``python -m bgcli ARGS``; (wall seconds, CPU seconds, peak RSS in MiB)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "bgcli", *arguments],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"bgcli {' '.join(arguments)} failed:\n{stderr}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def pips_only(folder: Path, sizes: list[int], pool: list[str]) -> None:
    print(f"(a) race metrics only, CSV out ({len(pool)} distinct positions, repeated):")
    print(f"    {'positions':>10} {'wall s':>8} {'positions/s':>12} {'peak RSS MiB':>13}")
    for size in sizes:
        collection = write_collection(folder / f"pips{size}.csv", pool, size)
        out = folder / f"pips{size}.out.csv"
        wall, _, rss = run_measured(["batch", str(collection), "-o", str(out), "--overwrite"])
        print(f"    {size:>10,} {wall:>8.2f} {size / wall:>12,.0f} {rss:>13.0f}")


def analysis_seconds(path: Path) -> float:
    """The time spent inside the analyses: the rows' elapsed_seconds added up."""
    import csv

    with open(path, newline="") as handle:
        return sum(float(row["elapsed_seconds"]) for row in csv.DictReader(handle))


def cpu_seconds(pids: list[int]) -> float:
    import psutil

    total = 0.0
    for pid in pids:
        times = psutil.Process(pid).cpu_times()
        total += times.user + times.system
    return total


def rollouts(folder: Path, positions: list[str], trials: int, variance_reduction: bool,
             use_dask: bool) -> None:
    import multiprocessing

    cores = multiprocessing.cpu_count()
    collection = write_collection(folder / "rollout.csv", positions, len(positions))
    settings = ["--rollout", "--trials", str(trials), "--seed", "1"]
    if variance_reduction:
        settings.append("--variance-reduction")
    from bgcli.rollout import RolloutSettings

    defaults = RolloutSettings()
    reduction = "on" if variance_reduction or defaults.variance_reduction else "off"
    print(f"(b) rollouts: {len(positions)} positions x {trials} games ({defaults.policy} policy, "
          f"variance reduction {reduction}), {cores} cores")
    wall, cpu, _ = run_measured(["batch", str(collection), "-o", str(folder / "local.csv"),
                                 "--overwrite", *settings])
    busy = analysis_seconds(folder / "local.csv")
    print(f"    local, one process:        {len(positions) / wall * 60:7.1f} positions/min, "
          f"CPU utilisation {cpu / (wall * cores):5.0%}  ({wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"{busy / wall:.0%} of the wall inside analyses, {busy:.1f} s)")
    if not use_dask:
        return
    scheduler_file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard",
                                  "--dashboard-address", "127.0.0.1:0",  # its health pages
                                  "--scheduler-file",
                                  str(scheduler_file)], **quiet)
    workers: list[subprocess.Popen] = []
    try:
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        # two workers share this machine: each gets half the cores for its rollout kernel
        environment = dict(os.environ, NUMBA_NUM_THREADS=str(max(1, cores // 2)))
        workers = [subprocess.Popen([sys.executable, "-m", "dask", "worker", "--scheduler-file",
                                     str(scheduler_file), "--nthreads", "1", "--no-nanny",
                                     "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
                                     "--host", "127.0.0.1"], env=environment,
                                    **quiet)
                   for _ in range(2)]
        warm = write_collection(folder / "warm.csv", positions[:4], 4)
        run_measured(["batch", str(warm), "-o", str(folder / "warm.csv.out.csv"), "--overwrite",
                      "--scheduler", address, "--rollout", "--trials", "36"])
        before = cpu_seconds([scheduler.pid] + [w.pid for w in workers])
        wall, client_cpu, _ = run_measured(["batch", str(collection), "-o", str(folder / "dask.csv"),
                                            "--overwrite", "--scheduler", address, *settings])
        cpu = cpu_seconds([scheduler.pid] + [w.pid for w in workers]) - before + client_cpu
        busy = analysis_seconds(folder / "dask.csv")
        print(f"    Dask, 2 local workers:     {len(positions) / wall * 60:7.1f} positions/min, "
              f"CPU utilisation {cpu / (wall * cores):5.0%}  ({wall:.1f} s wall, {cpu:.1f} s CPU, "
              f"of it the client's {client_cpu:.1f} s; workers {busy / (2 * wall):.0%} of the "
              f"wall inside analyses, {busy:.1f} s)")
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
        scheduler.terminate()
        scheduler.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rollout-positions", type=int, default=10)
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--variance-reduction", action="store_true")
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    pool = random_positions(1000, seed=1)
    with tempfile.TemporaryDirectory(prefix="bgcli-bench-") as name:
        folder = Path(name)
        pips_only(folder, args.sizes, pool)
        step = max(1, len(pool) // args.rollout_positions)
        rollouts(folder, pool[::step][:args.rollout_positions], args.trials,
                 args.variance_reduction, not args.no_dask)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
