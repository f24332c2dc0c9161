"""Where the warm start-up of a single-position command goes, phase by phase, for this
checkout and another (the commit before a change), in turns:

    git archive ed61613 | tar -x -C /tmp/base
    python -m scripts.checks.startup_phases --base /tmp/base --rounds 5 -o docs/records/startup_phases.json

Each run is a fresh ``python -m bgcli`` process, for the commands of ``bgcli.bench.startup``,
with timers on: importing the bgcli package, numpy, the command line (typer and bgcli.cli),
typer building the commands and importing its pydantic adapters (it builds one
for every parameter of the command run), importing numba, numba's first use in the process
(its target context refreshed: every typing and lowering module imported and registered,
which even loading a cached kernel needs), loading the cached kernels, and the interpreter's
exit after the command. ``rest`` is bgcli's own code: the kernel modules' imports (a numba
dispatcher for each kernel), reading the weights, the work. Each phase leaves out the phases
inside it (numpy's import inside the command line's, say). ``gc`` is the time the garbage
collector ran, inside the other phases. Each checkout runs with its own numba cache, filled
by a first round that is not counted; figures are medians over the rounds.

The numba timers wrap two of numba's internals (``numba.core.caching.Cache.load_overload``
and ``numba.core.base.BaseContext.refresh``), for measuring only; bgcli does not use them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bgcli.bench.startup import COMMANDS

# runs ``python -m bgcli ARGS`` with the timers; prints the phases as JSON on stderr
CHILD = r'''
import builtins, gc, json, os, runpy, sys, time
began = time.perf_counter()
phases = {}
stack = []  # the phases running, innermost last: each phase's time excludes those inside it
collecting = {}

def add(name, seconds):
    phases[name] = phases.get(name, 0.0) + seconds

class timer:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        stack.append(self.name)
        self.start = time.perf_counter()
    def __exit__(self, *exc):
        elapsed = time.perf_counter() - self.start
        stack.pop()
        add(self.name, elapsed)
        if stack:
            add(stack[-1], -elapsed)

def on_gc(phase, info):  # apart: the collector runs inside the other phases
    if phase == "start":
        collecting["t"] = time.perf_counter()
    else:
        add("gc", time.perf_counter() - collecting["t"])

gc.callbacks.append(on_gc)
TIMED = {"bgcli": "bgcli package", "numpy": "numpy import",
         "bgcli.cli.app": "command line (typer, bgcli.cli)",
         "typer._adapters": "typer: pydantic adapters", "numba": "numba import"}
real_import = builtins.__import__

def timed_import(name, globals=None, locals=None, fromlist=(), level=0):
    absolute = name
    if level and globals is not None:  # a relative import: the absolute name
        package = globals.get("__package__") or ""
        base = package.rsplit(".", level - 1)[0] if level > 1 else package
        absolute = f"{base}.{name}" if name else base
    targets = [absolute] + [f"{absolute}.{item}" for item in fromlist or ()]
    fresh = [t for t in targets if t in TIMED and t not in sys.modules and TIMED[t] not in phases]
    if not fresh:
        return real_import(name, globals, locals, fromlist, level)
    phases[TIMED[fresh[0]]] = 0.0
    try:
        with timer(TIMED[fresh[0]]):
            return real_import(name, globals, locals, fromlist, level)
    finally:
        if "numba" in fresh:
            time_numba()
        if "bgcli.cli.app" in fresh:
            time_typer()

def time_typer():
    import typer.main
    build = typer.main.get_command
    def get_command(*args, **kwargs):
        with timer("typer: building the commands"):
            return build(*args, **kwargs)
    typer.main.get_command = get_command

def time_numba():
    from numba.core import base, caching
    load, refresh = caching.Cache.load_overload, base.BaseContext.refresh
    def timed_refresh(self):
        if "numba first use" in stack:  # refresh calls itself
            return refresh(self)
        with timer("numba first use"):
            return refresh(self)
    def timed_load(self, sig, target_context):
        phases.setdefault("kernels", []).append(self._name.split()[1])  # "<function NAME at"
        with timer("kernel cache loads"):
            return load(self, sig, target_context)
    caching.Cache.load_overload, base.BaseContext.refresh = timed_load, timed_refresh

builtins.__import__ = timed_import
sys.argv = ["bgcli"] + sys.argv[1:]
code = 0
try:
    runpy.run_module("bgcli", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
phases["in process"] = time.perf_counter() - began
phases["ended at"] = time.time()
os.write(2, ("PHASES " + json.dumps(phases) + "\n").encode())
sys.exit(code)
'''

PHASES = ["python start-up", "bgcli package", "numpy import", "command line (typer, bgcli.cli)",
          "typer: building the commands", "typer: pydantic adapters", "numba import",
          "numba first use", "kernel cache loads", "rest", "exit"]


def run_once(checkout: Path, arguments: list[str]) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as bench.startup: bytecode cached
    start = time.perf_counter()
    began_at = time.time()
    done = subprocess.run([sys.executable, "-c", CHILD, *arguments], cwd=checkout, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    ended = time.time()
    lines = [line for line in done.stderr.splitlines() if line.startswith("PHASES ")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"bgcli {' '.join(arguments)} in {checkout}: {done.stderr.strip()}")
    phases = json.loads(lines[-1][len("PHASES "):])
    phases["exit"] = ended - phases.pop("ended at")
    phases["python start-up"] = (ended - began_at) - phases["in process"] - phases["exit"]
    named = sum(phases.get(name, 0.0) for name in PHASES[1:9])
    phases["rest"] = phases["in process"] - named
    phases["wall"] = wall
    return phases


def summary(runs: list[dict]) -> dict:
    row = {name: statistics.median(run.get(name, 0.0) for run in runs)
           for name in PHASES + ["gc", "wall"]}
    row["kernels"] = runs[0].get("kernels", [])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="another checkout, measured in turns")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    checkouts = {"this": Path(__file__).resolve().parents[2]}
    if args.base is not None:
        checkouts = {"base": args.base.resolve(), **checkouts}
    load_before = os.getloadavg()[0]
    runs = {(name, command): [] for name in checkouts for command in COMMANDS}
    for round_ in range(args.rounds + 1):  # round 0 fills the caches
        for command, arguments in COMMANDS.items():
            for name, checkout in checkouts.items():
                phases = run_once(checkout, arguments)
                if round_:
                    runs[(name, command)].append(phases)
    record = {"rounds": args.rounds, "load_average_before": load_before,
              "load_average_after": os.getloadavg()[0],
              "checkouts": {name: str(path) for name, path in checkouts.items()},
              "medians": {name: {command: summary(runs[(name, command)])
                                 for command in COMMANDS} for name in checkouts},
              "runs": {f"{name} {command}": value for (name, command), value in runs.items()}}
    for name in checkouts:
        print(f"{name} ({checkouts[name]}), medians of {args.rounds} runs, seconds:")
        print(f"  {'phase':<34}" + "".join(f"{c.split()[0]:>9}" for c in COMMANDS))
        for phase in PHASES + ["wall", "gc"]:
            print(f"  {phase:<34}" + "".join(
                f"{record['medians'][name][command][phase]:9.3f}" for command in COMMANDS))
    if args.output:
        Path(args.output).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
