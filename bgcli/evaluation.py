"""Static evaluation: a position's outcome probabilities, and every play of a roll ranked.

The evaluator is the one a rollout plays with (``policy``: ``net``, ``heuristic`` or
``random``, whose evaluation is the heuristic's). Probabilities are gnubg's five cumulative
outputs for the side named: win, win gammon, win backgammon, lose gammon, lose backgammon;
equity is cubeless money equity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import BgcliError
from .moves import Play, legal_plays
from .notation.dice import Dice
from .position import Position


def policy_code(policy: str) -> tuple[int, np.ndarray]:
    """The kernel's integer for ``policy`` and the parameters it needs."""
    from .kernels.evaluate import POLICY_NAMES, POLICY_NET

    if policy not in POLICY_NAMES:
        raise BgcliError(f"policy must be one of {', '.join(POLICY_NAMES)}, not {policy!r}")
    code = POLICY_NAMES[policy]
    if code == POLICY_NET:
        from .net import load_params

        return code, load_params()
    return code, np.zeros(1)


def cubeless_equity(probs) -> float:
    """Cubeless money equity from the five cumulative probabilities."""
    return float(2.0 * probs[0] - 1.0 + probs[1] - probs[3] + probs[2] - probs[4])


def position_probabilities(position: Position, policy: str = "net") -> np.ndarray:
    """The evaluator's five probabilities for the player on roll."""
    from .kernels.evaluate import evaluate

    position.validated()
    code, params = policy_code(policy)
    out = np.zeros(5)
    evaluate(np.ascontiguousarray(position.board, dtype=np.int8), 1, code, params, out)
    return out


@dataclass(frozen=True)
class RankedPlay:
    """A legal play with the evaluator's probabilities after it, from the mover's side."""

    play: Play
    probabilities: np.ndarray
    equity: float


def rank_plays(position: Position, dice: Dice | tuple[int, int],
               policy: str = "net") -> list[RankedPlay]:
    """Every legal play of ``dice``, best first by the evaluator's cubeless equity (ties keep
    the move generator's order). Empty when no checker can move."""
    from .kernels.rank import score_boards

    plays = legal_plays(position, dice)
    if not plays:
        return []
    code, params = policy_code(policy)
    boards = np.stack([play.result.board for play in plays]).astype(np.int8)
    scores = np.zeros((len(plays), 5))
    score_boards(len(plays), code, params, boards, scores)
    ranked = [RankedPlay(play, scores[i], cubeless_equity(scores[i])) for i, play in enumerate(plays)]
    order = sorted(range(len(ranked)), key=lambda i: -ranked[i].equity)
    return [ranked[i] for i in order]
