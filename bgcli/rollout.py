"""Rollouts: settings in, outcome rates with standard errors out.

``rollout(position, settings)`` plays ``settings.trials`` games with the numba kernels in
``bgcli.kernels.playout`` (all cores unless ``settings.threads`` says otherwise) and reports,
for the player on roll, gnubg's five cumulative rates — Win, W(g), W(bg), L(g), L(bg) — and
the cubeless money equity 2·Win − 1 + W(g) − L(g) + W(bg) − L(bg), each with its standard
error (the sample standard deviation of the per-game values over √games) and a 95% interval.

Every result carries the settings that produced it, the seed included (a random one is drawn
and reported when none is given), and the bgcli version: the same settings give the same
numbers on any machine and any number of threads. Games run in batches so that progress can
be shown, the run can stop once the equity's standard error is small enough, and Ctrl-C
returns the games finished so far, marked partial.
"""

from __future__ import annotations

import contextlib
import math
import secrets
import signal
import threading
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Callable

import numpy as np

from . import __version__
from .match import MatchScore
from .position import Position

OUTPUT_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
Z95 = 1.959963984540054

#: Seeds bgcli draws or derives have 53 bits: JSON readers that hold numbers as doubles (jq,
#: JavaScript, spreadsheets) keep every digit of them, so a copied seed reproduces its row.
SEED_BITS = 53
MAX_SEED = 2**SEED_BITS - 1


def draw_seed() -> int:
    """A fresh random seed of ``SEED_BITS`` bits (a rollout's, or a study's master seed)."""
    return secrets.randbits(SEED_BITS)

_BATCH_SECONDS = 0.5  # aim for progress (and Ctrl-C) at least this often
# A parallel work item's length: its buffers' set-up is lost in it, yet the threads still end
# a batch together (with 16 variance-reduced games an item, a thread waited for the other
# for most of an item at the end of each batch: 10% of a 2-thread rollout)
_ITEM_SECONDS = 0.004

# Each game's five outcome values stay in memory for the standard errors and paired
# comparisons (40 bytes a game): 10 million games hold 400 MB and take hours on one core.
MAX_TRIALS = 10_000_000


def _trials_per_item(seconds_per_trial: float, most: int) -> int:
    """How many trials make a work item of about ``_ITEM_SECONDS`` (1 to ``most``)."""
    return int(min(max(_ITEM_SECONDS / max(seconds_per_trial, 1e-9), 1), most))


@dataclass(frozen=True)
class RolloutSettings:
    trials: int = 1296
    seed: int | None = None
    policy: str = "net"
    truncate: int = 0  # plies; 0 plays every game to the end
    # None: on for the net's cubeless rollouts, which reach a given standard error in about
    # half the core-seconds with it (docs/benchmarks.md); off for cubeful ones (the luck
    # measured is cubeless) and for the heuristic and random policies, whose luck estimates
    # cut the variance too little to pay for 10-25x the work a game
    variance_reduction: bool | None = None
    quasi_random: bool = True
    # end a game once both sides are in the exact two-sided bear-off table, scored exactly
    bearoff_truncation: bool = True
    # money cube decisions inside the playouts (Janowski on the evaluator); adds cubeful equity
    cubeful: bool = False
    initial: bool = False
    stop_se: float | None = None  # stop once the equity's SE is below this...
    min_games: int = 324  # ...after at least this many games
    threads: int | None = None  # None: all cores
    # each play chosen by the n-ply search (bgcli.kernels.search) through the move filter
    # (bgcli.search); cubeful rollouts decide the cube at that depth too. 0: greedy, 0-ply
    checker_plies: int = 0
    move_filter: str = "normal"

    def __post_init__(self) -> None:
        if self.variance_reduction is None:  # frozen: set the resolved default once
            object.__setattr__(self, "variance_reduction", default_variance_reduction(
                self.policy, self.cubeful))

    def with_seed(self) -> "RolloutSettings":
        """These settings with a concrete seed (a fresh random one if none was given)."""
        if self.seed is not None:
            return self
        return replace(self, seed=draw_seed())

    def problems(self) -> list[str]:
        from .kernels.evaluate import POLICY_NAMES

        problems = []
        if self.trials < 1:
            problems.append(f"trials must be at least 1, not {self.trials}")
        elif self.trials > MAX_TRIALS:
            problems.append(f"trials must be at most {MAX_TRIALS:,} (each game's outcome is kept "
                            f"in memory, 40 bytes a game), not {self.trials:,}")
        if self.policy not in POLICY_NAMES:
            problems.append(f"policy must be one of {', '.join(POLICY_NAMES)}, not {self.policy!r}")
        if self.truncate < 0:
            problems.append(f"truncation must be 0 (none) or a number of plies, not {self.truncate}")
        if self.stop_se is not None and self.stop_se <= 0:
            problems.append(f"the standard error to stop at must be positive, not {self.stop_se}")
        if self.threads is not None and self.threads < 1:
            problems.append(f"threads must be at least 1, not {self.threads}")
        if self.checker_plies not in CHECKER_PLIES:
            problems.append(f"checker plies must be 0, 1 or 2, not {self.checker_plies}")
        elif self.checker_plies and self.policy == "random":
            problems.append("the random policy plays at random: it has no checker plies")
        problems += _filter_problems(self.move_filter)
        if self.cubeful and self.variance_reduction:
            problems.append("variance reduction measures cubeless luck: it cannot be combined "
                            "with cubeful rollouts")
        # up to 63 bits: rows written before seeds were kept to 53 bits still replay
        if self.seed is not None and not 0 <= self.seed < 2**63:
            problems.append(f"seed must be 0 .. 2**63-1, not {self.seed}")
        return problems


def default_variance_reduction(policy: str, cubeful: bool) -> bool:
    """Whether a rollout measures luck unless told: with the net, cubeless (as gnubg's
    rollouts do by default; ``RolloutSettings.variance_reduction``)."""
    return policy == "net" and not cubeful


#: The depths a rollout's checker play can search (gnubg's rollouts offer 0..2 as well).
CHECKER_PLIES = (0, 1, 2)


def _filter_problems(spec: str) -> list[str]:
    from .errors import BgcliError
    from .search import move_filter

    try:
        move_filter(spec)
    except BgcliError as exc:
        return [str(exc)]
    return []


@dataclass
class RolloutResult:
    position_id: str
    games: int
    means: np.ndarray  # the five rates, gnubg's order
    standard_errors: np.ndarray
    equity: float
    equity_se: float
    settings: RolloutSettings
    elapsed_seconds: float
    partial: bool = False  # stopped by Ctrl-C (or SIGTERM) before all the trials were played
    # a stop was asked for while it ran, also when the games in flight were the last ones (so
    # the result is complete): a caller must stop too, or the user's Ctrl-C is lost
    interrupted: bool = False
    version: str = __version__
    net: str | None = None  # the net weights played with (bgcli.net.net_id); None without
    equity_trace: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    # each game's five outcome values (games x 5), for paired comparisons of rollouts
    values: np.ndarray = field(default_factory=lambda: np.zeros((0, 5)), repr=False)
    # cubeful rollouts: each game's points in units of the starting cube, their mean and SE
    cube_points: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    cubeful_equity: float = math.nan
    cubeful_equity_se: float = math.nan
    # cubeful at a match score: cube_points hold each game's MWC of the player on roll, whose
    # mean and SE these are; cubeful_equity is then the same in EMG (normalised to the cube
    # at the start)
    score: MatchScore | None = None
    cubeful_mwc: float = math.nan
    cubeful_mwc_se: float = math.nan

    @property
    def equity_interval(self) -> tuple[float, float]:
        return self.equity - Z95 * self.equity_se, self.equity + Z95 * self.equity_se

    def row(self) -> dict:
        """A flat table row: rates with SEs and intervals, equity, settings, version."""
        row: dict = {"position_id": self.position_id}
        for name, mean, se in zip(OUTPUT_NAMES, self.means, self.standard_errors):
            row[name] = float(mean)
            row[f"{name}_se"] = float(se)
        low, high = self.equity_interval
        row.update(equity=self.equity, equity_se=self.equity_se, equity_ci_low=low,
                   equity_ci_high=high, games=self.games, partial=self.partial)
        if self.settings.cubeful:
            row.update(cubeful_equity=self.cubeful_equity, cubeful_equity_se=self.cubeful_equity_se)
        if self.settings.cubeful and self.score is not None:
            row.update(cubeful_mwc=self.cubeful_mwc, cubeful_mwc_se=self.cubeful_mwc_se,
                       score=self.score.name)
        settings = asdict(self.settings)
        settings.pop("threads")  # results do not depend on it
        row.update({f"{key}": value for key, value in settings.items()})
        row.update(net=self.net, bgcli_version=self.version,
                   elapsed_seconds=round(self.elapsed_seconds, 3))
        return row


def first_rolls_table(seed: int, first_trial: int, count: int, quasi_random: bool,
                      initial: bool) -> np.ndarray:
    """Each trial's first two roll indices (0..35, -1 for random): the quasi-random tables.

    Trial i takes the (i mod n1)-th entry of a seed-shuffled list of first rolls (all 36, or
    the 30 non-doubles with ``initial``) and the ((i mod n1 + i div n1) mod 36)-th of a
    shuffled list of second rolls: every block of n1 x 36 trials holds each pair exactly
    once, and any n1 consecutive trials have n1 different second rolls.
    """
    table = np.full((count, 2), -1, dtype=np.int64)
    if not quasi_random:
        return table
    rng = np.random.default_rng([seed, 0x51A7])
    first = np.array([k for k in range(36) if not initial or k // 6 != k % 6])
    first = rng.permutation(first)
    second = rng.permutation(36)
    trials = np.arange(first_trial, first_trial + count)
    table[:, 0] = first[trials % len(first)]
    # rotate the second roll within every run of first rolls too (a Latin square), so that
    # even a short rollout is not clustered on one second roll
    table[:, 1] = second[(trials % len(first) + trials // len(first)) % 36]
    return table


def _summarise(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    games = len(values)
    means = values.mean(axis=0)
    equities = values @ np.array([2.0, 1.0, 1.0, -1.0, -1.0]) - 1.0
    if games > 1:
        ses = values.std(axis=0, ddof=1) / math.sqrt(games)
        equity_se = float(equities.std(ddof=1) / math.sqrt(games))
    else:
        ses = np.full(5, np.nan)
        equity_se = math.nan
    return means, ses, float(equities.mean()), equity_se


STOP_CHECK_EVERY = 36  # games: where --stop-se may stop, whatever the batch sizes


def _first_checkpoint_below(values: np.ndarray, previous: int, done: int,
                            settings: RolloutSettings) -> int | None:
    """The first multiple of STOP_CHECK_EVERY in (previous, done], at least min_games, where
    the equity's SE is below ``stop_se``. Checking at fixed game counts (not at batch ends,
    which depend on timing) keeps a stopped rollout reproducible."""
    equities = values[:done] @ np.array([2.0, 1.0, 1.0, -1.0, -1.0]) - 1.0
    sums = np.cumsum(equities)
    squares = np.cumsum(equities**2)
    first = (previous // STOP_CHECK_EVERY + 1) * STOP_CHECK_EVERY
    for games in range(max(first, 2), done + 1, STOP_CHECK_EVERY):
        if games < settings.min_games:
            continue
        variance = (squares[games - 1] - sums[games - 1] ** 2 / games) / (games - 1)
        if math.sqrt(max(variance, 0.0) / games) < settings.stop_se:
            return games
    return None


Progress = Callable[[int, int, float, float, float], None]  # done, total, games/s, eq, se


CUBE_OWNERS = {"centred": 0, "on roll": 1, "opponent": 2}


@contextlib.contextmanager
def _ctrl_c_stops():
    """Ctrl-C asks the rollout to stop once the batch in flight is done, rather than raising
    KeyboardInterrupt wherever the main thread happens to be (inside numba's thread pool's
    bookkeeping that can leave the process hanging at exit). A second Ctrl-C interrupts at
    once. SIGTERM is treated the same way when the caller has a Python handler for it (the
    commands' ``sigterm_as_interrupt``); a signal the process ignores stays ignored. Outside
    the main thread (Dask workers) signals cannot be caught: nothing changes."""
    requested = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield requested
        return
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    # only signals that would interrupt anyway: not SIG_IGN, and SIGTERM's default kills
    caught = [signum for signum, handler in previous.items() if callable(handler)]

    def handler(signum, frame):
        if requested.is_set():
            previous[signum](signum, frame)  # the second one: interrupt now
        requested.set()

    for signum in caught:
        signal.signal(signum, handler)
    try:
        yield requested
    finally:
        for signum in caught:
            signal.signal(signum, previous[signum])


def _playout_settings(settings: RolloutSettings, policy: int, cube_owner: str,
                      jacoby: bool, score: MatchScore | None):
    """The kernels' record of ``settings`` (``bgcli.kernels.playout.PlayoutSettings``):
    built here only, from the validated settings and the policy's kernel code."""
    from .kernels.playout import playout_settings

    match = {}
    if score is not None:
        match = dict(match=True, away_root=score.away_me, away_opponent=score.away_them,
                     crawford=score.crawford, cube_value=score.cube_value, jacoby=False)
    return playout_settings(policy, initial=settings.initial, truncate=settings.truncate,
                            variance_reduction=settings.variance_reduction,
                            bearoff_truncation=settings.bearoff_truncation,
                            cubeful=settings.cubeful, cube_owner=CUBE_OWNERS[cube_owner],
                            checker_plies=settings.checker_plies,
                            move_filter=_filter_stages(settings),
                            **({"jacoby": jacoby} | match))


def match_table_array() -> np.ndarray:
    """The match equity table as the kernels take it (``bgcli.kernels.match_cube``): the
    pre-Crawford rows, then the post-Crawford row."""
    from .match import kazaross_xg2

    met = kazaross_xg2()
    return np.vstack([np.array(met.pre_crawford), np.array(met.post_crawford)[None, :]])


def check_match_score(score: MatchScore, cube_owner: str) -> None:
    """Refuse a score the cubeful match playouts cannot play (``MatchError``)."""
    from .match import MatchError, kazaross_xg2

    length = kazaross_xg2().length
    for away in (score.away_me, score.away_them):
        if not 1 <= away <= length:
            raise MatchError(f"cubeful match rollouts need both sides 1 to {length} away (the "
                             f"match equity table reaches {length}), not {score.away_me}-away "
                             f"and {score.away_them}-away")
    if score.crawford and 1 not in (score.away_me, score.away_them):
        raise MatchError("the Crawford game needs a side 1-away")
    if score.crawford and (score.cube_value != 1 or cube_owner != "centred"):
        raise MatchError("the cube is not turned in the Crawford game")


def _filter_stages(settings: RolloutSettings) -> np.ndarray:
    """The filter's first two stages (all a rollout at 2 ply or less reads)."""
    from .search import move_filter

    return move_filter(settings.move_filter).rows(2)


def rollout(position: Position, settings: RolloutSettings = RolloutSettings(),
            progress: Progress | None = None, *, cube_owner: str = "centred",
            jacoby: bool = False, score: MatchScore | None = None) -> RolloutResult:
    """Roll ``position`` out (player on roll). See the module docstring. ``cube_owner``
    ("centred", "on roll", "opponent") and ``jacoby`` matter only to cubeful rollouts, whose
    equity is in units of the cube at the start. With a match ``score`` (its cube value the
    cube at the start) a cubeful rollout makes the match's cube decisions and scores each
    game in MWC (``cubeful_mwc``; ``cubeful_equity`` in EMG); cubeless rollouts ignore it."""
    import numba

    from .evaluation import policy_code, policy_net
    from .kernels.playout import _BLOCK, play_trials

    problems = settings.problems()
    if problems:
        raise ValueError("; ".join(problems))
    position.validated()
    if not settings.cubeful:
        score = None
    if score is not None:
        check_match_score(score, cube_owner)
    settings = settings.with_seed()
    # None means all cores: set it every time, or an earlier call's count would stick
    numba.set_num_threads(min(settings.threads or numba.config.NUMBA_NUM_THREADS,
                              numba.config.NUMBA_NUM_THREADS))
    start = np.ascontiguousarray(position.board, dtype=np.int8)
    values = np.zeros((settings.trials, 5))
    cube_points = np.zeros(settings.trials)
    policy, params = policy_code(settings.policy, bearoff=True)
    kernel_settings = _playout_settings(settings, policy, cube_owner, jacoby, score)
    from .kernels.playout import NO_MATCH_TABLE

    met = NO_MATCH_TABLE if score is None else match_table_array()
    net = policy_net(settings.policy)
    done = 0
    # after the first, at least 4 work items a thread in every batch, handed out one at a
    # time: games vary in length, so a batch of a few items left one thread waiting for
    # the other
    threads = numba.get_num_threads()
    block = _BLOCK  # trials per work item, until the first batch measures a trial's time
    batch = 32
    began = time.perf_counter()
    partial = False
    trace: list[float] = []
    try:
        with _ctrl_c_stops() as stop_requested:
            while done < settings.trials and not stop_requested.is_set():
                count = min(batch, settings.trials - done)
                rolls = first_rolls_table(settings.seed, done, count, settings.quasi_random,
                                          settings.initial)
                t0 = time.perf_counter()
                with numba.parallel_chunksize(1):
                    play_trials(start, done, count, settings.seed, rolls, kernel_settings,
                                params, values[done:done + count],
                                cube_points[done:done + count], met, block)
                elapsed = time.perf_counter() - t0
                done += count
                _, _, eq, eq_se = _summarise(values[:done])
                trace.append(eq)
                if progress is not None:
                    progress(done, settings.trials, done / (time.perf_counter() - began), eq, eq_se)
                if settings.stop_se is not None:
                    stop_at = _first_checkpoint_below(values, done - count, done, settings)
                    if stop_at is not None:
                        done = stop_at
                        break
                # size the next batch for about _BATCH_SECONDS of work
                rate = count / max(elapsed, 1e-6)
                block = _trials_per_item(threads / rate, _BLOCK)
                batch = int(min(max(4 * block * threads, rate * _BATCH_SECONDS), 1 << 16))
        if stop_requested.is_set() and done < settings.trials:
            raise KeyboardInterrupt  # handled below, like an immediate one
    except KeyboardInterrupt:  # a Ctrl-C (first, second, or outside the main thread)
        partial = True
        if done == 0:
            raise
    interrupted = partial or stop_requested.is_set()
    means, ses, eq, eq_se = _summarise(values[:done])
    cubeful = (float(cube_points[:done].mean()),
               float(cube_points[:done].std(ddof=1) / math.sqrt(done)) if done > 1 else math.nan)
    mwc = (math.nan, math.nan)
    if score is not None:  # each game's MWC: the EMG at the starting cube is linear in it
        from .match import kazaross_xg2

        mwc = cubeful
        per_equity = score.mwc_per_equity(kazaross_xg2())
        cubeful = (score.equity_of_mwc(kazaross_xg2(), mwc[0]), mwc[1] / per_equity)
    return RolloutResult(
        position_id=position.position_id(),
        games=done,
        means=means,
        standard_errors=ses,
        equity=eq,
        equity_se=eq_se,
        settings=settings,
        elapsed_seconds=time.perf_counter() - began,
        partial=partial,
        interrupted=interrupted,
        net=net,
        equity_trace=np.array(trace),
        values=values[:done],
        cube_points=cube_points[:done] if settings.cubeful else np.zeros(0),
        cubeful_equity=cubeful[0] if settings.cubeful else math.nan,
        cubeful_equity_se=cubeful[1] if settings.cubeful else math.nan,
        score=score, cubeful_mwc=mwc[0], cubeful_mwc_se=mwc[1],
    )
