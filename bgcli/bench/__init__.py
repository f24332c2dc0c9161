"""bgcli's benchmarks, side by side with GNU Backgammon when it is installed (issue 20).

``bgcli bench`` runs the parts named (all by default) and writes one JSON record of them:

* ``movegen``: legal-move generation, µs per random mid-game position, one thread
  (``bench.movegen``; target 2.0 µs);
* ``startup``: single-position commands (``moves``, ``best --evaluate-only``, ``cube``,
  ``rollout --trials 36``) from a fresh process, against ``pips`` (``bench.startup``;
  target 1.0 s warm);
* ``rollout``: core-seconds to bring the equity's standard error to 0.005, bgcli against
  gnubg 0-ply, variance reduction off and on, the opening and a middle game
  (``bench.rollout``; target: bgcli's best setting 3x faster than gnubg's);
* ``scaling``: rollouts on all threads against one, and identical results
  (``bench.scaling``; target 1.85x on 2 threads).

Each part is a module with ``measure`` (the record) and ``report`` (the printout), and a
``main`` for ``python -m bgcli.bench.PART`` with the part's own options. The machines are
shared and noisy: the ratios inside one run mean more than any absolute figure.
"""

from __future__ import annotations

import json
import os
import platform
import time
from typing import Callable

from .. import __version__

PARTS = ("movegen", "startup", "rollout", "scaling")


def _run_part(name: str, quick: bool, gnubg: str) -> tuple:
    if name == "movegen":
        from . import movegen as part

        return part, part.measure(100_000 if quick else 1_000_000)
    if name == "startup":
        from . import startup as part

        return part, part.measure(repeat=2 if quick else 5, cold=False)
    if name == "rollout":
        from . import rollout as part

        return part, part.measure(list(part.POSITIONS), 324 if quick else 1296,
                                  72 if quick else 648, seed=1, repeat=1 if quick else 2,
                                  gnubg=gnubg)
    from . import scaling as part

    return part, part.measure(trials_plain=648 if quick else 2592,
                              trials_vr=72 if quick else 288, repeat=1 if quick else 3)


def run(parts: list[str], quick: bool = False, gnubg: str = "/usr/games/gnubg",
        progress: Callable[[str], None] | None = None) -> dict:
    """Run ``parts`` (names from ``PARTS``) one after the other, printing each part's
    report as it ends; the record of them all."""
    record = dict(bgcli_version=__version__, machine=platform.machine(),
                  cpus=os.cpu_count(), started=time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                             time.gmtime()),
                  quick=quick, load_average_before=os.getloadavg()[0], parts={})
    for name in parts:
        if progress is not None:
            progress(name)
        module, result = _run_part(name, quick, gnubg)
        module.report(result)
        record["parts"][name] = result
    record["load_average_after"] = os.getloadavg()[0]
    return record


def write(record: dict, path: str) -> None:
    with open(path, "w") as handle:
        json.dump(record, handle, indent=1)
