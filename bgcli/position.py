"""The checker layout, seen from the player on roll.

A board is a ``numpy.int8`` array of shape ``(2, 25)``, the same layout GNU Backgammon uses:

* ``board[1]`` is the player on roll, ``board[0]`` the opponent;
* ``board[side][i]`` for ``i`` in 0..23 is the number of that side's checkers on its own
  point ``i + 1`` (each side counts from its own home board: point 1 is deepest);
* ``board[side][24]`` is that side's bar.

So the player on roll's point ``p`` is the opponent's point ``25 - p``: index ``p - 1`` in
``board[1]`` faces index ``24 - p`` in ``board[0]``. Checkers not on the board are borne off.
After a move the rows are swapped (``Position.swapped``), so there is never a "whose turn"
field to keep in step with the board.

This module imports only the standard library, numpy and, for Position IDs, the board codec
``bgcli.notation.position_id`` (which imports nothing of bgcli's but its errors).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from .errors import IllegalPositionError, ParseError
from .notation.position_id import decode_position_id, encode_position_id

CHECKERS = 15
BAR = 24
POINTS = 24

#: The starting layout of one side: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6.
START_ROW = np.zeros(25, dtype=np.int8)
START_ROW[[23, 12, 7, 5]] = [2, 5, 3, 5]


class Status(enum.Flag):
    """What is impossible about a position; ``Status.VALID`` (no flag) when nothing is."""

    VALID = 0
    NEGATIVE_COUNT = enum.auto()
    TOO_MANY_ON_ROLL = enum.auto()
    TOO_MANY_OPPONENT = enum.auto()
    SHARED_POINT = enum.auto()
    BOTH_FINISHED = enum.auto()

    def describe(self) -> str:
        """A readable sentence listing every problem."""
        texts = {
            Status.NEGATIVE_COUNT: "a point holds a negative number of checkers",
            Status.TOO_MANY_ON_ROLL: "the player on roll has more than 15 checkers",
            Status.TOO_MANY_OPPONENT: "the opponent has more than 15 checkers",
            Status.SHARED_POINT: "a point is held by both sides",
            Status.BOTH_FINISHED: "both sides have borne off all their checkers",
        }
        problems = [text for flag, text in texts.items() if flag in self]
        return "; ".join(problems) if problems else "valid"


@dataclass(frozen=True, eq=False)
class Position:
    """A checker layout from the point of view of the player on roll (immutable)."""

    board: np.ndarray

    def __post_init__(self) -> None:
        board = np.array(self.board, dtype=np.int8).reshape(2, 25)
        board.setflags(write=False)
        object.__setattr__(self, "board", board)

    # ----------------------------------------------------------------- constructors
    @classmethod
    def start(cls) -> "Position":
        """The opening position."""
        return cls(np.stack([START_ROW, START_ROW]))

    @classmethod
    def from_points(cls, on_roll: dict[int, int], opponent: dict[int, int]) -> "Position":
        """Build a position from ``{point: count}`` maps, each side counting from its own
        home board; point 25 (or the key ``"bar"``) is the bar.

        >>> Position.from_points({6: 2}, {6: 2}).pips()
        (12, 12)
        """
        board = np.zeros((2, 25), dtype=np.int8)
        for side, points in ((1, on_roll), (0, opponent)):
            for point, count in points.items():
                index = BAR if point in ("bar", 25) else int(point) - 1
                if not 0 <= index <= BAR:
                    raise IllegalPositionError(f"point must be 1..25 or 'bar': {point!r}")
                board[side, index] += count
        return cls(board)

    @classmethod
    def from_id(cls, position_id: str) -> "Position":
        """Parse a gnubg Position ID (14 characters); see ``bgcli.notation.gnubgid``.
        Raises ``ParseError`` on any defect, including an impossible position."""
        position = cls(decode_position_id(position_id))
        status = position.status()
        if status:
            raise ParseError(f"Position ID describes an impossible position "
                             f"({status.describe()}): {position_id!r}")
        return position

    # ----------------------------------------------------------------- views
    @property
    def on_roll(self) -> np.ndarray:
        return self.board[1]

    @property
    def opponent(self) -> np.ndarray:
        return self.board[0]

    def position_id(self) -> str:
        """The gnubg Position ID (14 characters)."""
        return encode_position_id(self.board)

    def swapped(self) -> "Position":
        """The same layout with the other player on roll."""
        return Position(self.board[::-1])

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return CHECKERS - int(self.board[1].sum()), CHECKERS - int(self.board[0].sum())

    def pips(self) -> tuple[int, int]:
        """Pip counts: (player on roll, opponent). A checker on the bar counts 25."""
        weights = np.arange(1, 26)
        return int(self.board[1] @ weights), int(self.board[0] @ weights)

    def is_race(self) -> bool:
        """True when no contact is left: every checker of each side has passed the other's."""
        mine = np.nonzero(self.board[1])[0]
        theirs = np.nonzero(self.board[0])[0]
        if len(mine) == 0 or len(theirs) == 0:
            return True
        # My rearmost checker is at my point mine.max()+1; their rearmost is at my point
        # 25 - (theirs.max()+1). No contact when mine is below (closer to home).
        return (mine.max() + 1) < (24 - theirs.max())

    def is_bearoff(self) -> bool:
        """True when both sides have every checker left in their home boards (the bear-off
        databases and one-sided distributions value such positions, not the nets)."""
        return bool(self.board[:, 6:].sum() == 0)

    def is_game_over(self) -> bool:
        return self.borne_off()[0] == CHECKERS or self.borne_off()[1] == CHECKERS

    def status(self) -> Status:
        """Every reason why this layout cannot occur in a game (``Status.VALID`` if none)."""
        board = self.board.astype(np.int16)
        status = Status.VALID
        if (board < 0).any():
            status |= Status.NEGATIVE_COUNT
        if board[1].sum() > CHECKERS:
            status |= Status.TOO_MANY_ON_ROLL
        if board[0].sum() > CHECKERS:
            status |= Status.TOO_MANY_OPPONENT
        # my point p (index p-1) faces the opponent's index 24-p, i.e. reversed order
        if ((board[1, :24] > 0) & (board[0, 23::-1] > 0)).any():
            status |= Status.SHARED_POINT
        if board[1].sum() == 0 and board[0].sum() == 0:
            status |= Status.BOTH_FINISHED
        return status

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    def validated(self, source: str | None = None) -> "Position":
        """Return self, or raise ``IllegalPositionError`` naming every problem."""
        status = self.status()
        if status != Status.VALID:
            where = f": {source!r}" if source is not None else ""
            raise IllegalPositionError(f"impossible position ({status.describe()}){where}")
        return self

    # ----------------------------------------------------------------- dunder
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and np.array_equal(self.board, other.board)

    def __hash__(self) -> int:
        return hash(self.board.tobytes())

    def __repr__(self) -> str:
        return f"Position.from_id({self.position_id()!r})"
