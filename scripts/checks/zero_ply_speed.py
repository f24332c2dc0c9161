"""0-ply rollout speed of this checkout against another (the commit before a change), in turns:

    git archive 723b5b5 | tar -x -C /tmp/base
    python -m scripts.checks.zero_ply_speed --base /tmp/base --rounds 2 -o scripts/checks/zero_ply_speed.json

Each round runs, in a fresh process for each checkout (its own numba cache), 1296 plain
cubeless games of the start position and of a middle game, one thread, best of three, and
records games per second and the equity (which must be the same: the greedy playouts are
unchanged). The machine is shared: compare the rounds side by side, not with other runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ONE_RUN = r"""
import json, time
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout
out = {}
for pid in ("4HPwATDgc/ABMA", "a5yDAQYtO4MBAw"):
    settings = RolloutSettings(trials=1296, seed=1, threads=1, bearoff_truncation=False,
                               variance_reduction=False)  # the plain 0-ply playouts
    rollout(Position.from_id(pid), RolloutSettings(trials=32, seed=1, threads=1))
    best = 1e9
    for _ in range(3):
        began = time.perf_counter()
        result = rollout(Position.from_id(pid), settings)
        best = min(best, time.perf_counter() - began)
    out[pid] = {"games_per_s": 1296 / best, "equity": result.equity}
print(json.dumps(out))
"""


def run(checkout: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", ONE_RUN], cwd=checkout, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[2]
    rounds = [{"base": run(args.base), "this": run(here)} for _ in range(args.rounds)]
    text = json.dumps({"rounds": rounds, "base": str(args.base)}, indent=2)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")


if __name__ == "__main__":
    main()
