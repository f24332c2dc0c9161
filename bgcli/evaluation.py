"""Static evaluation: a position's outcome probabilities, and every play of a roll ranked.

The evaluator is the one a rollout plays with (``policy``: ``net``, ``heuristic`` or
``random``, whose evaluation is the heuristic's). Probabilities are gnubg's five cumulative
outputs for the side named: win, win gammon, win backgammon, lose gammon, lose backgammon;
equity is cubeless money equity.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

import numpy as np

from .errors import BgcliError
from .moves import Play, legal_plays
from .notation.dice import Dice
from .position import Position


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


#: Lookahead depths the evaluator offers: 0 (static) and 1 (gnubg's 1-ply, see kernels.rank).
PLIES = (0, 1)


def _check_plies(plies: int) -> None:
    if plies not in PLIES:
        raise BgcliError(f"plies must be 0 or 1, not {plies}")


_thread = threading.local()


def _lookahead_buffers() -> tuple:
    """The move-generation arrays of the 1-ply lookahead (about 330 KB), made once per
    thread rather than on every evaluation."""
    if not hasattr(_thread, "buffers"):
        from .kernels.movegen import new_buffers

        _thread.buffers = new_buffers()
    return _thread.buffers


def position_probabilities(position: Position, policy: str = "net",
                           plies: int = 0) -> np.ndarray:
    """The evaluator's five probabilities for the player on roll, at ``plies`` (0 or 1)."""
    from .kernels.rank import probabilities_at

    _check_plies(plies)
    position.validated()
    code, params = policy_code(policy, bearoff=_needs_bearoff(position))
    out = np.zeros(5)
    probabilities_at(np.array(position.board, dtype=np.int8), plies, code, params,
                     _lookahead_buffers(), out)
    return out


def _needs_bearoff(position: Position) -> bool:
    """Whether the position or one a ply or two after it can be in a bear-off table
    (loading them takes a second or two, so they are loaded only then): both sides have at
    most the two-sided table's number of checkers left, a number no play or hit ever
    raises, or each side is all home or one roll from it (at most 4 checkers outside,
    at most 24 pips from home)."""
    from .kernels.evaluate import TWOSIDED_CHECKERS

    board = position.board
    left = board.sum(axis=1)
    if left.max() <= TWOSIDED_CHECKERS:
        return True
    outside = board[:, 6:]
    pips_to_home = outside @ np.arange(1, outside.shape[1] + 1)
    return bool((outside.sum(axis=1) <= 4).all() and (pips_to_home <= 24).all())


@dataclass(frozen=True)
class RankedPlay:
    """A legal play with the evaluator's probabilities after it, from the mover's side."""

    play: Play
    probabilities: np.ndarray
    equity: float


def rank_plays(position: Position, dice: Dice | tuple[int, int],
               policy: str = "net", plies: int = 0) -> list[RankedPlay]:
    """Every legal play of ``dice``, best first by the evaluator's cubeless equity at
    ``plies`` (0 or 1) of lookahead (ties keep the move generator's order). Empty when no
    checker can move."""
    from .kernels.rank import score_boards

    _check_plies(plies)
    plays = legal_plays(position, dice)
    if not plays:
        return []
    code, params = policy_code(policy, bearoff=_needs_bearoff(position))
    boards = np.stack([play.result.board for play in plays]).astype(np.int8)
    scores = np.zeros((len(plays), 5))
    score_boards(len(plays), plies, code, params, boards, _lookahead_buffers(), scores)
    ranked = [RankedPlay(play, scores[i], cubeless_equity(scores[i])) for i, play in enumerate(plays)]
    order = sorted(range(len(ranked)), key=lambda i: -ranked[i].equity)
    return [ranked[i] for i in order]
