"""Rerun the README examples whose output depends on the net (rollout, best, cube, analyse)
and put their output in place, for when a new net ships (then regenerate reports/example
with the README's main command too).

    python -m scripts.regen_readme_examples
"""

from __future__ import annotations

import subprocess
import sys

COMMANDS = ["bgcli rollout 4HPwATDgc/ABMA a5yDAQYtO4MBAw --seed 1",
            "bgcli best 4HPwATDgc/ABMA 43 --candidates 3 --seed 1",
            "bgcli cube pG3bAQDYtm0BAA --rollout --seed 1",
            "bgcli analyse matches/example.mat"]


def main() -> None:
    with open("README.md") as readme:
        lines = readme.read().split("\n")
    for command in COMMANDS:
        out = subprocess.run(command, shell=True, capture_output=True, text=True,
                             check=True).stdout
        start = lines.index("$ " + command) + 1
        end = start
        while not (lines[end].startswith("$ ") or lines[end].startswith("```")):
            end += 1
        lines[start:end] = out.rstrip("\n").split("\n")
        print(f"{command}: {end - start} lines replaced", file=sys.stderr)
    with open("README.md", "w") as readme:
        readme.write("\n".join(lines))


if __name__ == "__main__":
    main()
