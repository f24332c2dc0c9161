"""One-sided bear-off database: rolls to bear off, effective pip counts, exact race odds.

The database covers every layout of up to 15 checkers on a side's points 1..6 (54,264
layouts, indexed as in ``bgcli.kernels.bearoff``). For each layout it holds two distributions
over the number of rolls n (the side playing each roll to minimise its expected number of
rolls, as GNU Backgammon's one-sided database does):

* ``rolls``: P(every checker is off after exactly n rolls), n = 0..31;
* ``first``: P(the first checker comes off on roll n), n = 0..15 (played to get a checker
  off as soon as possible; what a side with none off needs to save the gammon).

The arrays ship with the package as ``bgcli/data/bearoff_onesided.npz`` (distributions in
uint16 fixed point, value x 65535 rounded, as gnubg stores them, plus each layout's exact mean
as float32 so that effective pip counts carry no rounding; about 1 MB), so using them needs only numpy: no
numba compile on the ``bgcli pips`` path. If that file is missing the database is built with
the numba kernel (about 10 s with an empty numba cache, 0.6 s warm) and cached under
``$XDG_CACHE_HOME/bgcli`` (``~/.cache/bgcli``; a temporary directory if neither is writable).
Rows are renormalised to sum to 1 on load.

Definitions (gnubg's, checked against ``show onesidedrollout`` in ``tests/test_bearoff.py``):

* effective pip count EPC = mean rolls x 49/6 (gnubg prints "Avg. rolls * 8.167");
* wastage = EPC - pip count.

``race_odds`` combines two one-sided distributions: the player on roll wins when it needs no
more rolls than the opponent (it rolls first). That is exact for two sides that each bear off
to minimise their own expected rolls; best two-sided play can differ slightly (it depends on
the other side's position), which the one-sided figure ignores, as gnubg's one-sided
evaluation does.

This module imports only the standard library and numpy (and the kernel only to build).
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .cache import cache_dirs
from .position import Position

__all__ = [
    "OneSidedDatabase",
    "RaceOdds",
    "load_onesided",
    "build_onesided",
    "write_onesided",
    "layout_index",
    "home_layout",
    "onesided",
    "first_off",
    "mean_rolls",
    "effective_pips",
    "wastage",
    "race_odds",
    "race_probability",
    "bearoff_metrics",
    "TWOSIDED_CHECKERS",
    "build_twosided",
    "load_twosided",
    "in_twosided",
    "twosided_win",
]

POINTS = 6
CHECKERS = 15
POSITIONS = 54264
ROLLS = 32
FIRST_ROLLS = 16
SCALE = 65535
#: Pips per roll on average (dice total 8 1/6 counting doubles twice): 49/6.
PIPS_PER_ROLL = 49.0 / 6.0
FORMAT_VERSION = 2
DATA_FILE = Path(__file__).parent / "data" / "bearoff_onesided.npz"
CACHE_NAME = "bearoff_onesided.npz"

_COMB = np.array([[math.comb(n, k) for k in range(POINTS + 1)] for n in range(21)],
                 dtype=np.int64)


# ---------------------------------------------------------------------------- indexing


def home_layout(row) -> np.ndarray:
    """The counts on points 1..6 of a side whose checkers are all home (or borne off).

    ``row`` is a board row of 25 (points 1..24, bar) or of 6. Raises ``ValueError`` when a
    checker stands outside the home board, a count is negative, or there are more than 15.
    """
    values = np.asarray(row, dtype=np.int64).ravel()
    if values.shape[0] not in (POINTS, 25):
        raise ValueError(f"expected a row of 6 or 25 counts, got {values.shape[0]}: {row!r}")
    if (values < 0).any():
        raise ValueError(f"negative checker count in row: {values.tolist()}")
    if values[POINTS:].any():
        raise ValueError(f"not every checker is in the home board: {values.tolist()}")
    if values.sum() > CHECKERS:
        raise ValueError(f"more than 15 checkers in row: {values.tolist()}")
    return values[:POINTS].copy()


def layout_index(row) -> int:
    """Index of a home-board layout in the database (0 = all borne off)."""
    counts = home_layout(row)
    totals = np.cumsum(counts)
    return int(sum(_COMB[totals[j] + j, j + 1] for j in range(POINTS)))


def _is_home(row) -> bool:
    values = np.asarray(row)
    return bool(values.min() >= 0 and not values[POINTS:].any())


# ---------------------------------------------------------------------------- the database


@dataclass(frozen=True, eq=False)
class OneSidedDatabase:
    """The loaded arrays (float64, rows summing to 1) and each layout's mean rolls."""

    rolls: np.ndarray  # (54264, 32)
    first: np.ndarray  # (54264, 16)
    mean: np.ndarray  # (54264,) expected rolls to bear off every checker (exact, from build)
    mean_first: np.ndarray  # (54264,) expected rolls to the first checker off


def build_onesided() -> dict[str, np.ndarray]:
    """Build the database with the numba kernel: ``rolls`` and ``first`` as uint16 fixed
    point, and the exact means (``mean``, ``mean_first``) as float32."""
    from .kernels.bearoff import build_onesided as kernel

    rolls, first, _ = kernel()
    if first[:, FIRST_ROLLS:].any():
        raise RuntimeError("first-checker distribution longer than expected")
    to_fixed = lambda a: np.rint(a * SCALE).astype(np.uint16)  # noqa: E731
    return {"rolls": to_fixed(rolls[:, :ROLLS]), "first": to_fixed(first[:, :FIRST_ROLLS]),
            "mean": (rolls @ np.arange(rolls.shape[1])).astype(np.float32),
            "mean_first": (first @ np.arange(first.shape[1])).astype(np.float32)}


def write_onesided(path: Path, arrays: dict[str, np.ndarray] | None = None) -> Path:
    """Save the database (built now unless ``arrays`` is given) as a compressed .npz."""
    arrays = build_onesided() if arrays is None else arrays
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + f".{os.getpid()}.tmp.npz")
    np.savez_compressed(temporary, **arrays, version=np.array(FORMAT_VERSION),
                        scale=np.array(SCALE))
    os.replace(temporary, path)
    return path


_SHAPES = {"rolls": (POSITIONS, ROLLS), "first": (POSITIONS, FIRST_ROLLS),
           "mean": (POSITIONS,), "mean_first": (POSITIONS,)}


def _read(path: Path) -> dict[str, np.ndarray] | None:
    try:
        with np.load(path) as data:
            if int(data["version"]) != FORMAT_VERSION:
                return None
            arrays = {name: data[name] for name in _SHAPES}
    except (OSError, KeyError, ValueError):
        return None
    if any(arrays[name].shape != shape for name, shape in _SHAPES.items()):
        return None
    return arrays


def _locate() -> dict[str, np.ndarray]:
    found = _read(DATA_FILE) if DATA_FILE.exists() else None
    if found is not None:
        return found
    for directory in cache_dirs():
        path = directory / CACHE_NAME
        if path.exists() and (found := _read(path)) is not None:
            return found
    arrays = build_onesided()
    for directory in cache_dirs():
        try:
            write_onesided(directory / CACHE_NAME, arrays)
            break
        except OSError:
            continue
    return arrays


@functools.lru_cache(maxsize=1)
def load_onesided() -> OneSidedDatabase:
    """The one-sided database (loaded once per process)."""
    arrays = _locate()
    rolls = arrays["rolls"].astype(np.float64)
    rolls /= rolls.sum(axis=1, keepdims=True)
    first = arrays["first"].astype(np.float64)
    first /= first.sum(axis=1, keepdims=True)
    mean = arrays["mean"].astype(np.float64)
    mean_first = arrays["mean_first"].astype(np.float64)
    for array in (rolls, first, mean, mean_first):
        array.setflags(write=False)
    return OneSidedDatabase(rolls, first, mean, mean_first)


# ---------------------------------------------------------------------------- one side


def onesided(row) -> np.ndarray:
    """P(bear off every checker in exactly n rolls), n = 0..31, for a home-board row."""
    return load_onesided().rolls[layout_index(row)].copy()


def first_off(row) -> np.ndarray:
    """P(first checker off on exactly roll n), n = 0..15 (1 at n = 0 when none are left)."""
    return load_onesided().first[layout_index(row)].copy()


def mean_rolls(row) -> float:
    """Expected number of rolls to bear off every checker."""
    return float(load_onesided().mean[layout_index(row)])


def effective_pips(row) -> float:
    """Effective pip count: expected rolls x 49/6 (gnubg's EPC)."""
    return mean_rolls(row) * PIPS_PER_ROLL


def wastage(row) -> float:
    """EPC minus the pip count."""
    counts = home_layout(row)
    return effective_pips(counts) - float(counts @ np.arange(1, POINTS + 1))


# ---------------------------------------------------------------------------- both sides


@dataclass(frozen=True)
class RaceOdds:
    """Cubeless chances of the player on roll (cumulative: ``win`` includes gammons)."""

    win: float
    win_gammon: float
    lose_gammon: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless money equity (no backgammons are possible with every checker home)."""
        return 2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon


def race_odds_from(mine: np.ndarray, theirs: np.ndarray, first_mine: np.ndarray | None,
                   first_theirs: np.ndarray | None) -> RaceOdds:
    """Odds from distributions: ``mine``/``theirs`` over rolls to finish; ``first_*`` over
    rolls to the first checker off, or None for a side that already has one off."""
    n = max(len(mine), len(theirs))
    a = np.zeros(n)
    a[:len(mine)] = mine
    b = np.zeros(n)
    b[:len(theirs)] = theirs
    # on roll finishing on its roll k wins when the opponent needs k rolls or more
    theirs_at_least = 1.0 - np.concatenate(([0.0], np.cumsum(b)[:-1]))
    win = float(a @ theirs_at_least)
    win_gammon = lose_gammon = 0.0
    if first_theirs is not None:
        g = np.zeros(n)
        g[:min(n, len(first_theirs))] = first_theirs[:n]
        g_at_least = 1.0 - np.concatenate(([0.0], np.cumsum(g)[:-1]))
        win_gammon = float(a @ g_at_least)
    if first_mine is not None:
        g = np.zeros(n)
        g[:min(n, len(first_mine))] = first_mine[:n]
        g_more = 1.0 - np.cumsum(g)  # on roll's first checker comes after roll k
        lose_gammon = float(b @ g_more)
    return RaceOdds(min(max(win, 0.0), 1.0), max(win_gammon, 0.0), max(lose_gammon, 0.0))


def race_odds(position: Position) -> RaceOdds:
    """Cubeless odds of the player on roll when both sides have every checker home.

    Raises ``ValueError`` if a checker of either side is outside its home board."""
    database = load_onesided()
    mine, theirs = position.board[1], position.board[0]
    i, j = layout_index(mine), layout_index(theirs)
    return race_odds_from(
        database.rolls[i], database.rolls[j],
        database.first[i] if int(mine.sum()) == CHECKERS else None,
        database.first[j] if int(theirs.sum()) == CHECKERS else None,
    )


def race_probability(position: Position) -> float:
    """P(the player on roll bears off first), both sides all home (see ``race_odds``)."""
    return race_odds(position).win


def bearoff_metrics(position: Position) -> dict:
    """Bear-off fields for a ``bgcli pips`` row: ``epc_*`` and ``wastage_*`` for each side
    whose checkers are all home (None otherwise); ``race_win_exact``,
    ``race_win_gammon_exact`` and ``race_lose_gammon_exact`` when both sides are."""
    row: dict = {}
    home = []
    for name, side in (("on_roll", position.board[1]), ("opponent", position.board[0])):
        if _is_home(side) and int(side.sum()) <= CHECKERS:
            epc = effective_pips(side)
            row[f"epc_{name}"] = epc
            row[f"wastage_{name}"] = epc - float(side[:POINTS] @ np.arange(1, POINTS + 1))
            home.append(True)
        else:
            row[f"epc_{name}"] = row[f"wastage_{name}"] = None
            home.append(False)
    odds = race_odds(position) if all(home) else None
    row["race_win_exact"] = odds.win if odds else None
    row["race_win_gammon_exact"] = odds.win_gammon if odds else None
    row["race_lose_gammon_exact"] = odds.lose_gammon if odds else None
    return row


# ---------------------------------------------------------------------------- two-sided
#
# Exact cubeless chances for small bear-offs: every pair of layouts of at most
# ``TWOSIDED_CHECKERS`` checkers a side (C(14, 6) = 3,003 layouts a side, 9.0 M pairs), both
# sides playing each roll to maximise their chance of bearing off first (see
# ``bgcli.kernels.bearoff``). With 8 or fewer checkers left each side has 7 or more off, so
# no gammon is possible and these are the exact cubeless winning chances; gnubg's own
# two-sided database covers 6 checkers a side. Building takes about 6 s (plus a one-time numba
# compile); the table (float32, 36 MB) is cached as
# ``$XDG_CACHE_HOME/bgcli/bearoff_twosided_v1_n8.npy`` and memory-mapped when loaded.
# Index: ``table[layout_index(on roll), layout_index(opponent)]``.

TWOSIDED_CHECKERS = 8
_TWOSIDED_VERSION = 1


def build_twosided(checkers: int = TWOSIDED_CHECKERS) -> np.ndarray:
    """The two-sided table for at most ``checkers`` (1..10) a side, float64 (m, m) with
    m = C(checkers + 6, 6): P(the side on roll bears off first)."""
    if not 1 <= checkers <= 10:
        raise ValueError(f"two-sided tables hold 1..10 checkers a side: {checkers!r}")
    from .kernels.bearoff import ROLL_D1, ROLL_D2, build_twosided as kernel, successors

    size = math.comb(checkers + POINTS, POINTS)
    weights = np.where(ROLL_D1 == ROLL_D2, 1.0 / 36.0, 2.0 / 36.0)
    start, target = successors(size, ROLL_D1, ROLL_D2)
    return kernel(size, start, target, weights)


def _twosided_name(checkers: int) -> str:
    return f"bearoff_twosided_v{_TWOSIDED_VERSION}_n{checkers}.npy"


@functools.lru_cache(maxsize=4)
def load_twosided(checkers: int = TWOSIDED_CHECKERS) -> np.ndarray:
    """The two-sided table (float32, read-only), from the cache or built and cached now."""
    size = math.comb(checkers + POINTS, POINTS)
    for directory in cache_dirs():
        path = directory / _twosided_name(checkers)
        if path.exists():
            try:
                table = np.load(path, mmap_mode="r")
            except (OSError, ValueError):
                continue
            if table.shape == (size, size) and table.dtype == np.float32:
                return table
    table = build_twosided(checkers).astype(np.float32)
    for directory in cache_dirs():
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / _twosided_name(checkers)
            temporary = path.with_name(path.name + f".{os.getpid()}.tmp.npy")
            np.save(temporary, table)
            os.replace(temporary, path)
            break
        except OSError:
            continue
    table.setflags(write=False)
    return table


def in_twosided(position: Position, checkers: int = TWOSIDED_CHECKERS) -> bool:
    """True when both sides are all home with at most ``checkers`` each, not both off."""
    mine, theirs = position.board[1], position.board[0]
    return (_is_home(mine) and _is_home(theirs) and int(mine.sum()) <= checkers
            and int(theirs.sum()) <= checkers and int(mine.sum() + theirs.sum()) > 0)


def twosided_win(position: Position, checkers: int = TWOSIDED_CHECKERS) -> float:
    """Exact cubeless P(the player on roll wins) from the two-sided table. Raises
    ``ValueError`` unless ``in_twosided(position, checkers)``."""
    if not in_twosided(position, checkers):
        raise ValueError(f"not a bear-off of at most {checkers} checkers a side, every one "
                         f"home: {position.board.tolist()}")
    table = load_twosided(checkers)
    return float(table[layout_index(position.board[1]), layout_index(position.board[0])])
