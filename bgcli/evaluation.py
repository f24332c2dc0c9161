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


def policy_code(policy: str, bearoff: bool = True) -> tuple[int, np.ndarray]:
    """The kernel's integer for ``policy`` and the parameters its evaluator reads: the net's
    weights (zeros for the other policies) followed, with ``bearoff``, by the bear-off
    tables and the header announcing them (``bgcli.kernels.evaluate``), which every
    evaluator then uses."""
    from .kernels.evaluate import POLICY_NAMES

    if policy not in POLICY_NAMES:
        raise BgcliError(f"policy must be one of {', '.join(POLICY_NAMES)}, not {policy!r}")
    weights = None
    if policy == "net":
        from .net import weights_path

        weights = str(weights_path())  # $BGCLI_WEIGHTS is read on every call
    return POLICY_NAMES[policy], _params(policy, bearoff, weights)


def policy_net(policy: str) -> str | None:
    """Which net weights ``policy`` plays with (``bgcli.net.net_id``), for results to carry;
    None for the policies without a net."""
    if policy != "net":
        return None
    from .net import net_id

    return net_id()


@functools.lru_cache(maxsize=8)
def _params(policy: str, bearoff: bool, weights_file: str | None) -> np.ndarray:
    from .kernels.net import PARAMS_SIZE

    if policy == "net":
        from .net import load_params

        weights = load_params(weights_file)
    else:
        weights = np.zeros(PARAMS_SIZE)
    if not bearoff:
        return weights
    from .bearoff import load_onesided, load_twosided
    from .kernels.evaluate import TWOSIDED_CHECKERS, with_bearoff_tables

    onesided = load_onesided()
    return with_bearoff_tables(weights, load_twosided(TWOSIDED_CHECKERS),
                               np.hstack([onesided.rolls, onesided.first]))


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
                           values=None) -> np.ndarray:
    """The evaluator's five probabilities for the player on roll, at ``plies`` (0..3): for
    each roll, the play the mover values most (``values``: see ``value_coefficients``) at
    0 ply, the result looked at one ply less, averaged over the 21 rolls. No move filter
    applies: each ply's choice is the static one, as gnubg's."""
    from .kernels.search import root_probabilities

    _check_plies(plies)
    position.validated()
    code, params = policy_code(policy, bearoff=_needs_bearoff(position, plies))
    out = np.zeros(5)
    root_probabilities(np.array(position.board, dtype=np.int8), plies,
                       value_coefficients(values), code, params, params, False, out)
    return out


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
    were given), ``equity``: their cubeless money equity."""

    play: Play
    probabilities: np.ndarray
    equity: float
    plies: int = 0
    value: float = math.nan


def rank_plays(position: Position, dice: Dice | tuple[int, int], policy: str = "net",
               plies: int = 0, move_filter=None, values=None) -> list[RankedPlay]:
    """Every legal play of ``dice``, best first by the search at ``plies`` (0..3) through
    ``move_filter`` (``bgcli.search.move_filter``'s spec or a ``MoveFilter``; None:
    gnubg's "normal"): the plays evaluated deepest first, each depth by value (ties keep
    the move generator's order). ``values``: the linear value functions of the two sides
    (``value_coefficients``; None: money). Empty when no checker can move."""
    from .kernels.search import rank_search
    from .search import move_filter as filter_of

    _check_plies(plies)
    stages = filter_of(move_filter).rows(plies)
    coefficients = value_coefficients(values)
    plays = legal_plays(position, dice)
    if not plays:
        return []
    code, params = policy_code(policy, bearoff=_needs_bearoff(position, plies))
    boards = np.stack([play.result.board for play in plays]).astype(np.int8)
    scores = np.zeros((len(plays), 5))
    depth = np.zeros(len(plays), dtype=np.int64)
    rank_search(len(plays), boards, plies, stages, coefficients, code, params, params, False,
                scores, depth)
    ranked = [RankedPlay(play, scores[i], cubeless_equity(scores[i]), int(depth[i]),
                         float(coefficients[0, 0] + coefficients[0, 1:] @ scores[i]))
              for i, play in enumerate(plays)]
    order = sorted(range(len(ranked)), key=lambda i: (-ranked[i].plies, -ranked[i].value))
    return [ranked[i] for i in order]
