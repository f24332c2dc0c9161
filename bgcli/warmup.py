"""Compile every numba kernel ahead of time, for installation scripts and Docker images.

numba compiles a kernel the first time it runs and caches it on disk (``bgcli.kernels``):
the first ``bgcli rollout`` after an install spends about a minute compiling. ``compile_all``
runs each kernel once on a small input — move generation, the evaluators and the search at
0 to 2 ply, rollouts with every policy (plain, variance-reduced, cubeful, plays searched at
1 ply), the bear-off databases and self-play training — so that the cache holds them all
and every later command starts warm. ``compiled_before`` tells whether the cache already
holds kernels of this bgcli.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

# a middle game (hits, both sides with checkers back) and a bear-off outside the two-sided
# table, so that every branch of the evaluators and playouts is typed and compiled
_MIDDLE = "a5yDAQYtO4MBAw"
_BEAROFF = "tW0AAED7AQAAAA"


def compiled_before(kernel: str | None = None) -> bool:
    """Whether numba's cache for these kernel sources holds ``kernel`` (``module.function``
    of ``bgcli.kernels``, e.g. ``playout.play_trials``; numba names its index files so), or
    anything at all without ``kernel``: ``False`` on the first run after an install or an
    upgrade. Only this installation's entries count: numba files a source's kernels in a
    subfolder named by the source's folder (another checkout of the same version compiles
    its own)."""
    from numba.core.caching import UserProvidedCacheLocator

    from . import kernels
    from .kernels import kernel_cache_dir

    folder = kernel_cache_dir()
    if not folder:
        return False
    ours = Path(folder) / UserProvidedCacheLocator.get_suitable_cache_subpath(kernels.__file__)
    pattern = f"{kernel}-*.nbi" if kernel else "*.nbi"
    return any(ours.glob(pattern))


#: What a command compiles on its first run: (what, the outermost kernel, about how many
#: seconds on two cores). Measured with an empty NUMBA_CACHE_DIR on the loaded 2-core
#: machine (CPU / wall seconds): ``moves`` 16 / 25, then ``best --evaluate-only`` 40 / 62,
#: then ``rollout`` 39 / 60 (its playouts compile their own copies of the evaluators);
#: ``python -m bgcli.bench.startup --cold`` times them again. ``report`` compiles all of
#: these and the search: the README's first command on a fresh install took 260 s to its
#: first result (0.4.0, load about 1).
COMPILES = {
    "moves": ("move generation", "movegen.generate_plays", 25),
    "evaluator": ("move generation and the evaluators", "search.rank_search", 45),
    "rollout": ("move generation, the evaluators and the playouts", "playout.play_trials", 70),
    "report": ("move generation, the evaluators, the search and the playouts",
               "playout.play_trials", 240),
    "train": ("self-play training", "selfplay.train_games", 90),
}


def _steps() -> list[tuple[str, Callable[[], object]]]:
    from .evaluation import position_probabilities, rank_plays
    from .moves import legal_plays
    from .notation.detect import parse_situation
    from .rollout import RolloutSettings, rollout
    from .train import TrainSettings, strength, train

    middle = parse_situation(_MIDDLE).position
    bearoff = parse_situation(_BEAROFF).position

    def evaluators():
        for policy in ("net", "heuristic", "random"):
            for plies in (0, 1, 2):
                rank_plays(middle, (3, 1), policy, plies)
                position_probabilities(bearoff, policy, plies)

    def rollouts():
        for policy in ("net", "heuristic", "random"):
            for variance_reduction in (False, True):
                settings = RolloutSettings(trials=8, seed=1, policy=policy,
                                           variance_reduction=variance_reduction)
                rollout(middle, settings)
                rollout(bearoff, settings)
            rollout(middle, RolloutSettings(trials=8, seed=1, policy=policy, cubeful=True))
            if policy != "random":  # plays searched at 1 ply (bgcli rollout --checker-plies)
                for cubeful in (False, True):
                    rollout(middle, RolloutSettings(trials=2, seed=1, policy=policy, truncate=2,
                                                    checker_plies=1, cubeful=cubeful))

    def training():
        state = train(TrainSettings(games=1, batch=1, check_every=10**9), progress=None)
        strength(state.params, "heuristic", deals=2)  # the matches of training's checks

    def supervised():
        import numpy as np

        from .kernels.supervised import adam_epoch, net_outputs, net_slots
        from .net import load_params

        boards = np.ascontiguousarray(np.stack([middle.board] * 2), dtype=np.int8)
        targets = np.full((2, 5), 0.1)
        size = load_params().size
        adam_epoch(load_params().copy(), boards, targets, np.arange(2), 2, 1e-4, 1.0,
                   np.array([-1, 0]), 1.0, 1.0, np.ones(size), np.zeros(size), np.zeros(size),
                   np.zeros(1, np.int64), np.zeros(2))
        net_outputs(load_params(), boards, np.zeros((2, 5)))
        net_slots(boards, load_params(), np.zeros(2, dtype=np.int64))

    return [("move generation", lambda: legal_plays(middle, (3, 1))),
            ("evaluators and bear-off databases", evaluators),
            ("rollouts", rollouts),
            ("self-play training", training),
            ("supervised training", supervised)]


def compile_all(progress: Callable[[str], None] | None = None) -> float:
    """Run every kernel once (see the module docstring); the seconds it took. ``progress``
    is told each step's name before it starts."""
    began = time.monotonic()
    for name, step in _steps():
        if progress is not None:
            progress(name)
        step()
    return time.monotonic() - began
