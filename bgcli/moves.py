"""Legal plays for a position and a roll: the Python face of ``bgcli.kernels.movegen``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .errors import IllegalMoveError
from .notation.dice import Dice
from .notation.moves import apply_segments, format_move, parse_move
from .position import Position


@dataclass(frozen=True)
class Play:
    """One legal play: its checker steps, gnubg-style text and the resulting position.

    ``result`` is seen from the player who moved (not swapped); ``result.swapped()`` is the
    position the opponent now rolls from.
    """

    steps: tuple[tuple[int, int], ...]
    notation: str
    result: Position


@lru_cache(maxsize=1)
def _buffers():
    from .kernels.movegen import MoveBuffers

    return MoveBuffers()


def _generate(position: Position, dice) -> tuple[object, int]:
    """The move generator's buffers after generating the plays of ``dice``, and how many
    plays they hold (0 when no checker can move)."""
    from .kernels.movegen import generate_plays

    position.validated()
    die1, die2 = tuple(dice)
    buffers = _buffers()
    board = np.ascontiguousarray(position.board, dtype=np.int8).copy()
    count, dice_used = generate_plays(board, die1, die2, *buffers.arrays())
    return buffers, (count if dice_used else 0)


def legal_plays(position: Position, dice: Dice | tuple[int, int]) -> list[Play]:
    """Every distinct legal play of ``dice`` in ``position`` (player on roll moves).

    When no checker can move, the list is empty.
    """
    buffers, count = _generate(position, dice)
    plays = []
    for i in range(count):
        steps = tuple(
            (int(buffers.steps[i, 2 * k]), int(buffers.steps[i, 2 * k + 1]))
            for k in range(4)
            if buffers.steps[i, 2 * k] >= 0
        )
        plays.append(Play(steps, format_move(position.board, steps), Position(buffers.boards[i])))
    return plays


def result_boards(position: Position, dice: Dice | tuple[int, int]) -> np.ndarray:
    """The boards after each legal play of ``dice``, in ``legal_plays``' order, without the
    plays' notation (which costs most of ``legal_plays``' time): shape (n, 2, 25) int8,
    n = 0 when no checker can move."""
    buffers, count = _generate(position, dice)
    return np.array(buffers.boards[:count], dtype=np.int8)


def find_play(position: Position, dice: Dice | tuple[int, int], text: str) -> Play:
    """The legal play that ``text`` describes (any notation that reaches its result)."""
    segments = parse_move(text)
    target = apply_segments(position.board, segments)
    plays = legal_plays(position, dice)
    if target is not None:
        for play in plays:
            if np.array_equal(play.result.board, target):
                return play
    d1, d2 = tuple(dice)
    raise IllegalMoveError(f"{text!r} is not a legal play of {d1}{d2} in {position.position_id()}")
