"""Static evaluation: a position's outcome probabilities, and every play of a roll ranked.

The evaluator is the one a rollout plays with (``policy``: ``net``, ``heuristic`` or
``random``, whose evaluation is the heuristic's). Probabilities are gnubg's five cumulative
outputs for the side named: win, win gammon, win backgammon, lose gammon, lose backgammon;
equity is cubeless money equity.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .errors import BgcliError
from .moves import Play, legal_plays
from .notation.dice import Dice
from .position import Position
from . import search


def policy_code(policy: str, bearoff: bool = True, prune: bool = True
                ) -> tuple[int, np.ndarray]:
    """The kernel's integer for ``policy`` and the parameters its evaluator reads: the net's
    weights (zeros for the other policies) followed, with ``bearoff``, by the bear-off
    tables and the header announcing them (``bgcli.kernels.evaluate``), which every
    evaluator then uses, and for the net with ``prune`` the pruning net that screens the
    search's inner plays (``bgcli.kernels.prune``)."""
    from .kernels.evaluate import POLICY_NAMES

    if policy not in POLICY_NAMES:
        raise BgcliError(f"policy must be one of {', '.join(POLICY_NAMES)}, not {policy!r}")
    weights = None
    if policy == "net":
        from .net import weights_path

        weights = str(weights_path())  # $BGCLI_WEIGHTS is read on every call
    return POLICY_NAMES[policy], _params(policy, bearoff, weights, prune and policy == "net")


def policy_net(policy: str) -> str | None:
    """Which net weights ``policy`` plays with (``bgcli.net.net_id``) and the pruning net
    that screens its search's inner plays (``bgcli.prune.prune_id``), for results to carry;
    None for the policies without a net."""
    if policy != "net":
        return None
    from .net import net_id
    from .prune import prune_id

    return f"{net_id()}, prune {prune_id()}"


def net_params(weights_file: str, bearoff: bool = True) -> np.ndarray:
    """The net of ``weights_file`` as the evaluators read it, followed with ``bearoff`` by
    the bear-off tables: what ``policy_code`` gives for ``$BGCLI_WEIGHTS``, for callers that
    compare nets side by side (built and cached as every command's)."""
    return _params("net", bearoff, str(weights_file))


@functools.lru_cache(maxsize=8)
def _params(policy: str, bearoff: bool, weights_file: str | None,
            prune: bool = False) -> np.ndarray:
    from .kernels.net import PARAMS_SIZE

    if policy == "net":
        from .net import load_params

        weights = load_params(weights_file)
    else:
        weights = np.zeros(PARAMS_SIZE)
    pruning = None
    if prune:
        from .prune import load_prune_params

        pruning = load_prune_params()
    if not bearoff:
        if pruning is None:
            return weights
        from .kernels.evaluate import with_bearoff_tables

        return with_bearoff_tables(weights, None, None, pruning)
    key = _params_key(weights, pruning)
    cached = _read_params(key)
    if cached is not None:
        return cached
    from .bearoff import load_onesided, load_twosided
    from .kernels.evaluate import TWOSIDED_CHECKERS, with_bearoff_tables

    onesided = load_onesided()
    params = with_bearoff_tables(weights, load_twosided(TWOSIDED_CHECKERS),
                                 np.hstack([onesided.rolls, onesided.first]), pruning)
    _write_params(key, params)
    return params


# The weights with the bear-off tables make a 92 MB array: built in each process it cost a
# single-position command 0.1-0.2 s (reading both tables whole and copying them). It is
# cached as one .npy file and memory-mapped copy-on-write (writable, as the kernels are
# compiled for), so a command reads only the pages it touches.
_PARAMS_PREFIX = "params-"
_PARAMS_KEPT = 4  # params files kept in a cache folder (one per weights and policy in use)


def _params_key(weights: np.ndarray, pruning: np.ndarray | None = None) -> str | None:
    """What the cached array depends on: the weights, the pruning net and the two tables'
    formats (and the header's); None when the one-sided database is not the shipped file
    (then nothing is cached)."""
    import hashlib

    from . import bearoff
    from .kernels.evaluate import TABLES_HEADER_SIZE, TWOSIDED_CHECKERS

    try:
        shipped = bearoff.DATA_FILE.stat()
    except OSError:
        return None
    digest = hashlib.blake2b(np.ascontiguousarray(weights, dtype=np.float64).tobytes(),
                             digest_size=10)
    if pruning is not None:
        digest.update(np.ascontiguousarray(pruning, dtype=np.float64).tobytes())
    digest.update(f"{bearoff.FORMAT_VERSION} {shipped.st_size} {shipped.st_mtime_ns} "
                  f"{bearoff._twosided_name(TWOSIDED_CHECKERS)} {TABLES_HEADER_SIZE} "
                  f"{pruning is not None}".encode())
    return digest.hexdigest()


def _read_params(key: str | None) -> np.ndarray | None:
    if key is None:
        return None
    from .cache import cache_dirs

    for directory in cache_dirs():
        path = directory / f"{_PARAMS_PREFIX}{key}.npy"
        if path.exists():
            try:
                return np.asarray(np.load(path, mmap_mode="c"))
            except (OSError, ValueError):
                continue
    return None


def _write_params(key: str | None, params: np.ndarray) -> None:
    import os

    from .cache import cache_dirs

    if key is None:
        return
    for directory in cache_dirs():
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / f"{_PARAMS_PREFIX}{key}.npy"
            temporary = path.with_name(path.name + f".{os.getpid()}.tmp.npy")
            np.save(temporary, params)
            os.replace(temporary, path)
        except OSError:
            continue
        # the oldest go: every new weights file (training) would otherwise add 92 MB
        older = sorted(directory.glob(f"{_PARAMS_PREFIX}*.npy"), key=os.path.getmtime)
        for stale in older[:-_PARAMS_KEPT]:
            stale.unlink(missing_ok=True)
        return


def cubeless_equity(probs) -> float:
    """Cubeless money equity from the five cumulative probabilities."""
    return float(2.0 * probs[0] - 1.0 + probs[1] - probs[3] + probs[2] - probs[4])


#: Lookahead depths the evaluator offers: 0 (static) to 3 (gnubg's n-ply, see kernels.search).
PLIES = search.PLIES


def _check_plies(plies: int) -> None:
    if plies not in PLIES:
        raise BgcliError(f"plies must be 0, 1, 2 or 3, not {plies}")


def value_coefficients(values=None) -> np.ndarray:
    """The (2, 6) linear value functions the search maximises (``bgcli.kernels.search``):
    row 0 the root player's, row 1 the opponent's, ``value = c[0] + c[1:6] . probs`` of
    the side's own five probabilities. None: cubeless money equity for both. One row of 6
    is used for both sides."""
    from .kernels.search import MONEY_VALUES

    if values is None:
        return MONEY_VALUES.copy()
    array = np.array(values, dtype=float)
    if array.shape == (6,):
        array = np.stack([array, array])
    if array.shape != (2, 6) or not np.isfinite(array).all():
        raise BgcliError(f"values must be 6 finite coefficients or (2, 6) of them, "
                         f"not shape {array.shape}")
    return np.ascontiguousarray(array)


def position_probabilities(position: Position, policy: str = "net", plies: int = 0,
                           values=None, prune: bool = True) -> np.ndarray:
    """The evaluator's five probabilities for the player on roll, at ``plies`` (0..3): for
    each roll, the play the mover values most (``values``: see ``value_coefficients``) at
    0 ply, the result looked at one ply less, averaged over the 21 rolls. No move filter
    applies: each ply's choice is the static one, as gnubg's, found among the plays the
    pruning net keeps (``prune``, the net in contact positions; ``bgcli.kernels.prune``)."""
    return probabilities_with_rolls(position, policy, plies, values, prune)[0]


def roll_probabilities(position: Position, policy: str = "net", plies: int = 1,
                       values=None, prune: bool = True) -> np.ndarray:
    """(21, 5): for each roll (``bgcli.kernels.evaluate.ROLLS`` order, weights
    ``ROLL_WEIGHTS``) the five probabilities of the player on roll after its play of the
    roll, looked at one ply less: the terms that :func:`position_probabilities` at
    ``plies`` (1..3) averages. NaN rows where a position is scored without rolls (an exact
    bear-off)."""
    if plies < 1:
        raise BgcliError(f"roll probabilities need plies >= 1, not {plies}")
    return probabilities_with_rolls(position, policy, plies, values, prune)[1]


def probabilities_with_rolls(position: Position, policy: str = "net", plies: int = 1,
                             values=None, prune: bool = True
                             ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`position_probabilities` and :func:`roll_probabilities` from one search (the
    rolls all NaN at 0 ply)."""
    from .kernels.search import root_probabilities

    _check_plies(plies)
    position.validated()
    code, params = policy_code(policy, bearoff=_needs_bearoff(position, plies), prune=prune)
    out = np.zeros(5)
    rolled = np.zeros((21, 5))
    root_probabilities(np.array(position.board, dtype=np.int8), plies,
                       value_coefficients(values), code, params, params, False, out, rolled)
    return out, rolled


def _needs_bearoff(position: Position, plies: int = 1) -> bool:
    """Whether the position or one a ply or two after it can be in a bear-off table
    (loading them takes a second or two, so they are loaded only then): both sides have at
    most the two-sided table's number of checkers left, a number no play or hit ever
    raises, or each side is all home or one roll from it (at most 4 checkers outside,
    at most 24 pips from home). A search to 2 ply or more always loads them."""
    from .kernels.evaluate import TWOSIDED_CHECKERS

    if plies >= 2:
        return True  # too many positions ahead to rule out: load them (once a process)
    board = position.board
    left = board.sum(axis=1)
    if left.max() <= TWOSIDED_CHECKERS:
        return True
    outside = board[:, 6:]
    pips_to_home = outside @ np.arange(1, outside.shape[1] + 1)
    return bool((outside.sum(axis=1) <= 4).all() and (pips_to_home <= 24).all())


@dataclass(frozen=True)
class RankedPlay:
    """A legal play with the evaluator's probabilities after it, from the mover's side,
    evaluated at ``plies`` (less than asked when the move filter dropped it earlier);
    ``value``: the search's value of them (cubeless money equity unless other ``values``
    were given), ``equity``: their cubeless money equity. ``replies`` (21, 5), when asked
    for and ``plies`` >= 1: the terms the probabilities average, the mover's after each of
    the opponent's rolls (``bgcli.kernels.evaluate.ROLLS``) and its play, looked at one ply
    less (NaN rows where the position is scored without rolls: an exact bear-off)."""

    play: Play
    probabilities: np.ndarray
    equity: float
    plies: int = 0
    value: float = math.nan
    replies: np.ndarray | None = None


def rank_plays(position: Position, dice: Dice | tuple[int, int], policy: str = "net",
               plies: int = 0, move_filter=None, values=None,
               prune: bool = True, replies: bool = False) -> list[RankedPlay]:
    """Every legal play of ``dice``, best first by the search at ``plies`` (0..3) through
    ``move_filter`` (``bgcli.search.move_filter``'s spec or a ``MoveFilter``; None:
    gnubg's "normal"): the plays evaluated deepest first, each depth by value (among equal
    values, to 1e-12, a play that ends the game first, then the move generator's order).
    ``values``: the linear value functions of the two sides (``value_coefficients``; None:
    money); ``prune``: screen the lookahead's plays with the pruning net (as
    ``position_probabilities``); ``replies``: keep each play's per-roll terms
    (``RankedPlay.replies``). Empty when no checker can move."""
    _check_plies(plies)
    plays = legal_plays(position, dice)
    if not plays:
        return []
    boards = np.stack([play.result.board for play in plays]).astype(np.int8)
    scores, depth, value, rolled = _search_plays(position, boards, policy, plies, move_filter,
                                                 values, prune, replies)
    ranked = [RankedPlay(play, scores[i], cubeless_equity(scores[i]), int(depth[i]), value[i],
                         flipped(rolled[i]) if replies and depth[i] >= 1 else None)
              for i, play in enumerate(plays)]
    order = _best_first(depth, value, [play.result.is_game_over() for play in plays])
    return [ranked[i] for i in order]


def best_result(position: Position, dice: Dice | tuple[int, int], policy: str = "net",
                plies: int = 0) -> np.ndarray | None:
    """The board after the play that ``rank_plays(position, dice, policy, plies)`` ranks
    first, found without the plays' notation (for self-play loops in Python, such as
    ``bgcli train-data``'s sampling); None when no checker can move."""
    ranked = ranked_results(position, dice, policy, plies)
    return ranked[0] if ranked.shape[0] else None


def ranked_results(position: Position, dice: Dice | tuple[int, int], policy: str = "net",
                   plies: int = 0) -> np.ndarray:
    """The boards after every play of ``dice``, in the order ``rank_plays`` gives them (an
    empty array when no checker can move)."""
    from .moves import result_boards

    _check_plies(plies)
    boards = result_boards(position, dice)
    if boards.shape[0] == 0:
        return boards
    _, depth, value, _ = _search_plays(position, boards, policy, plies, None, None, True,
                                       False)
    game_over = (boards.astype(np.int64).sum(axis=2) == 0).any(axis=1)  # a side all off
    return boards[_best_first(depth, value, game_over)]


def _search_plays(position, boards, policy, plies, move_filter, values, prune, replies):
    """The search of ``rank_plays`` over the plays' result ``boards``: (their five
    probabilities, the depth each was evaluated at, their values, per-roll terms)."""
    from .kernels.search import rank_search
    from .search import move_filter as filter_of

    stages = filter_of(move_filter).rows(plies)
    coefficients = value_coefficients(values)
    code, params = policy_code(policy, bearoff=_needs_bearoff(position, plies), prune=prune)
    count = boards.shape[0]
    scores = np.zeros((count, 5))
    depth = np.zeros(count, dtype=np.int64)
    rolled = np.full((count if replies else 0, 21, 5), np.nan)
    rank_search(count, boards, plies, stages, coefficients, code, params, params, False,
                scores, depth, rolled)
    value = [float(coefficients[0, 0] + coefficients[0, 1:] @ scores[i]) for i in range(count)]
    return scores, depth, value, rolled


def _best_first(depth, value, game_over) -> list[int]:
    """The plays' order: deepest first, then by value; among values equal to 1e-12 (averages
    over the rolls round a certain value by an ulp or two) a play that ends the game can
    do no worse than any other, so it comes first; then the move generator's order."""
    return sorted(range(len(value)), key=lambda i: (-depth[i], -round(value[i], 12),
                                                    not game_over[i]))


def flipped(probs) -> np.ndarray:
    """Five probabilities (or rows of five) of the other side."""
    p = np.asarray(probs, dtype=float)
    return np.stack([1.0 - p[..., 0], p[..., 3], p[..., 4], p[..., 1], p[..., 2]], axis=-1)
