"""TD(lambda) self-play training of the net (see ``bgcli.kernels.selfplay``).

``train`` runs games in batches inside one numba kernel call each (training is sequential:
every game's updates feed the next), and between batches reports progress, writes a
checkpoint every ``checkpoint_every`` games and measures strength every ``check_every``
games: ``check_deals`` deals each played twice with the same dice and the sides swapped, the
net against the heuristic and against random play, as points per game for the net with its
standard error (over deals, each deal's two games averaged).

A run is a pure function of (seed, alpha, lambda, exploration shares, training positions
and their share, starting weights, games): game ``g`` draws its dice (and its random
opening or training position) from its own stream, so resuming from a checkpoint at game
``g`` gives the same weights as running straight through.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .errors import BgcliError
from .net import net_shape, read_weights, save_weights
from .position import Position

CHECK_SEED = 0xC0FFEE  # strength checks always use the same deals, so runs compare


@dataclass(frozen=True)
class TrainSettings:
    games: int = 10_000
    seed: int = 1
    alpha: float = 0.1
    lam: float = 0.7
    explore: float = 0.0
    explore_moves: float = 0.0  # per greedy move: the chance of a random play instead
    minutes: float | None = None
    checkpoint: str | None = None
    checkpoint_every: int = 5_000
    check_every: int = 10_000
    check_deals: int = 500
    batch: int = 100
    positions: str | None = None  # a collection of training positions (see td_train)
    position_share: float = 0.25

    def problems(self) -> list[str]:
        out = []
        if self.games < 0:
            out.append(f"games must be >= 0, not {self.games}")
        if not 0.0 < self.alpha <= 1.0:
            out.append(f"alpha must be in (0, 1], not {self.alpha}")
        if not 0.0 <= self.lam <= 1.0:
            out.append(f"lambda must be in [0, 1], not {self.lam}")
        if not 0.0 <= self.explore <= 1.0:
            out.append(f"explore must be in [0, 1], not {self.explore}")
        if not 0.0 <= self.explore_moves <= 1.0:
            out.append(f"explore-moves must be in [0, 1], not {self.explore_moves}")
        if not 0.0 <= self.position_share <= 1.0:
            out.append(f"position-share must be in [0, 1], not {self.position_share}")
        for name in ("checkpoint_every", "check_every", "batch"):
            if getattr(self, name) <= 0:
                out.append(f"{name.replace('_', '-')} must be > 0")
        if self.check_deals < 2:
            out.append("check-deals must be >= 2")
        return out


@dataclass
class TrainState:
    params: np.ndarray
    games: int = 0
    wall_s: float = 0.0
    plies: float = 0.0
    checks: list[dict] = field(default_factory=list)
    seed: int = 1
    alpha: float = 0.1
    lam: float = 0.7
    explore: float = 0.0
    explore_moves: float = 0.0
    # learning-rate changes made on resuming: [{"from_games": g, "alpha": a}, ...]
    alpha_changes: list[dict] = field(default_factory=list)
    # the runs that made the starting weights, oldest first, and this run's first game
    history: list[dict] = field(default_factory=list)
    run_from: int = 0
    # this run's training positions: {"file", "sha256", "count", "share"} (None: none)
    positions: dict | None = None


def strength(params: np.ndarray, opponent: str, deals: int, seed: int = CHECK_SEED) -> dict:
    """Net vs ``opponent`` ("heuristic" or "random"): points per game for the net ± SE."""
    from .kernels.evaluate import POLICY_NAMES, POLICY_NET
    from .kernels.selfplay import play_match

    start = np.ascontiguousarray(Position.start().board, dtype=np.int8)
    out = np.zeros((deals, 2))
    play_match(start, seed, 0, deals, POLICY_NET, params, POLICY_NAMES[opponent],
               np.zeros(1), out)
    per_deal = out.mean(axis=1)
    se = float(per_deal.std(ddof=1) / math.sqrt(deals))
    return {"opponent": opponent, "games": 2 * deals, "ppg": float(per_deal.mean()), "se": se}


Progress = Callable[[str], None]


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def train(settings: TrainSettings, resume: str | Path | None = None,
          command: str = "", progress: Progress | None = _stderr,
          resume_alpha: float | None = None, resume_explore: float | None = None,
          resume_explore_moves: float | None = None) -> TrainState:
    """Train until ``settings.games`` games in all (or ``settings.minutes`` pass). A resumed
    run keeps the checkpoint's seed, alpha, lambda and exploration share, except that
    ``resume_alpha`` sets a new learning rate from here on (recorded in ``alpha_changes``)
    and ``resume_explore`` / ``resume_explore_moves`` new exploration shares (recorded in
    the run's ``history`` entry)."""
    from .kernels.net import has_late_net, init_params

    problems = settings.problems()
    if problems:
        raise ValueError("; ".join(problems))
    if resume is not None:
        params, record = read_weights(resume)
        if has_late_net(params):  # TD's eligibility traces know the contact and race nets only
            raise BgcliError(f"{resume}: self-play training of weights with a late contact net "
                             "is not supported (train it with --data)")
        state = TrainState(params=params.copy(), games=record["games"],
                           wall_s=record.get("wall_s", 0.0), plies=record.get("plies", 0.0),
                           checks=record.get("checks", []), seed=record["seed"],
                           alpha=record["alpha"], lam=record["lambda"],
                           alpha_changes=record.get("alpha_changes", []),
                           history=record.get("history", []), run_from=record["games"],
                           explore=record.get("explore", 0.0),
                           explore_moves=record.get("explore_moves", 0.0))
        if settings.games <= state.games:  # --games counts all games, the earlier ones too
            raise BgcliError(f"{resume} already has {state.games} games: --games counts them "
                             f"too, so give more than {state.games}")
        if resume_alpha is not None and resume_alpha != state.alpha:
            state.alpha = resume_alpha
            state.alpha_changes.append({"from_games": state.games, "alpha": resume_alpha})
        if resume_explore is not None:
            state.explore = resume_explore
        if resume_explore_moves is not None:
            state.explore_moves = resume_explore_moves
    else:
        state = TrainState(params=init_params(settings.seed), seed=settings.seed,
                           alpha=settings.alpha, lam=settings.lam, explore=settings.explore,
                           explore_moves=settings.explore_moves)
    start = np.ascontiguousarray(Position.start().board, dtype=np.int8)
    positions = np.zeros((0, 2, 25), dtype=np.int8)
    if settings.positions is not None:
        positions, state.positions = read_training_positions(settings.positions)
        state.positions["share"] = settings.position_share
    began = time.perf_counter()
    wall0 = state.wall_s
    deadline = None if settings.minutes is None else began + 60.0 * settings.minutes
    try:
        _run(state, settings, start, positions, began, wall0, deadline, command, progress)
    except KeyboardInterrupt:
        if settings.checkpoint:  # keep what the finished batches learnt
            save_weights(settings.checkpoint, state.params, make_record(state, command))
        raise
    if settings.checkpoint:
        save_weights(settings.checkpoint, state.params, make_record(state, command))
    return state


def read_training_positions(path: str | Path) -> tuple[np.ndarray, dict]:
    """The boards of a collection of positions (any notation, as ``bgcli batch`` reads
    them), and ``{"file", "sha256", "count"}`` for the record. Every row must be a legal
    position with the game still on: otherwise ``BgcliError`` naming the first bad row."""
    import hashlib

    from .collections import EntryError, read_collection
    from .notation.detect import parse_situation

    boards = []
    for entry in read_collection(str(path)):
        if isinstance(entry, EntryError):
            raise BgcliError(f"{entry.label}: {entry.message}")
        try:
            position = parse_situation(entry.position).position.validated(entry.position)
        except BgcliError as exc:
            raise BgcliError(f"{entry.label}: {exc}") from None
        if position.is_game_over():
            raise BgcliError(f"{entry.label}: {entry.position!r}: the game is already over")
        boards.append(position.board)
    if not boards:
        raise BgcliError(f"{path}: no positions in it")
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return (np.ascontiguousarray(np.stack(boards), dtype=np.int8),
            {"file": Path(path).name, "sha256": digest, "count": len(boards)})


def _run(state: TrainState, settings: TrainSettings, start: np.ndarray, positions: np.ndarray,
         began: float, wall0: float, deadline: float | None, command: str,
         progress: Progress | None) -> None:
    from .kernels.selfplay import train_games

    stats = np.zeros(3)
    run_settings = _self_play_settings(state, settings)
    last_report = 0.0
    report_games = state.games
    report_time = began
    while state.games < settings.games:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        count = min(settings.batch, settings.games - state.games)
        stats[:] = 0.0
        params = state.params.copy()  # an interrupted batch leaves the state as it was
        train_games(params, start, state.games, count, run_settings, positions, stats)
        before = state.games
        state.params, state.games = params, state.games + count
        state.plies += stats[0]
        now = time.perf_counter()
        state.wall_s = wall0 + now - began
        if not np.all(np.isfinite(state.params)):
            raise BgcliError(f"weights diverged by game {state.games}: try a lower --alpha")
        if progress and (now - last_report > 5.0 or state.games >= settings.games):
            rate = (state.games - report_games) / max(now - report_time, 1e-9)
            progress(f"trained {state.games} games, {rate:.0f} games/s, "
                     f"{stats[0] / count:.1f} plies/game, {state.wall_s:.0f} s")
            last_report, report_games, report_time = now, state.games, now
        if state.games // settings.check_every > before // settings.check_every:
            _check(state, settings, progress)
        if settings.checkpoint and (state.games // settings.checkpoint_every
                                    > before // settings.checkpoint_every):
            save_weights(settings.checkpoint, state.params, make_record(state, command))


def _self_play_settings(state: TrainState, settings: TrainSettings):
    """The kernels' record of this run's training scalars (``SelfPlaySettings``): the
    state's (a resumed run keeps its checkpoint's) and the settings' training-position
    share."""
    from .kernels.selfplay import self_play_settings

    return self_play_settings(state.seed, state.alpha, state.lam, explore=state.explore,
                              explore_moves=state.explore_moves,
                              position_share=settings.position_share)


def _check(state: TrainState, settings: TrainSettings, progress: Progress | None) -> None:
    t0 = time.perf_counter()
    entry = {"games": state.games}
    for opponent in ("heuristic", "random"):
        entry[opponent] = strength(state.params, opponent, settings.check_deals)
    state.checks.append(entry)
    if progress:
        h, r = entry["heuristic"], entry["random"]
        progress(f"strength at {state.games} games: vs heuristic {h['ppg']:+.3f} ± "
                 f"{h['se']:.3f} ppg, vs random {r['ppg']:+.3f} ± {r['se']:.3f} ppg "
                 f"({h['games']} games each, {time.perf_counter() - t0:.0f} s)")


def make_record(state: TrainState, command: str) -> dict:
    """The weights' record. ``history`` lists every run that made them, oldest first, as
    ``{"command", "games": [first, last], "alpha"}``: a resumed run adds itself to the
    checkpoint's list."""
    from . import __version__

    this_run = {"command": command, "games": [state.run_from, state.games], "alpha": state.alpha,
                "explore": state.explore, "explore_moves": state.explore_moves}
    if state.positions is not None:
        this_run["positions"] = state.positions

    return {"method": "TD(lambda) self-play, both sides greedy 0-ply by the net being trained",
            "net": net_shape(state.params),
            "command": command, "bgcli_version": __version__, "games": state.games,
            "seed": state.seed, "alpha": state.alpha, "lambda": state.lam,
            "explore": state.explore, "explore_moves": state.explore_moves,
            "wall_s": round(state.wall_s, 1), "plies": state.plies, "checks": state.checks,
            "alpha_changes": state.alpha_changes, "history": state.history + [this_run]}
