"""GNU Backgammon Position IDs (14 characters) and Match IDs (12 characters).

Both are base64 (standard alphabet, no padding) of a little-endian bit string: bit ``k`` is bit
``k % 8`` of byte ``k // 8``. The formats are specified in the "Technical Notes" of the GNU
Backgammon manual; ``tests/fixtures/`` holds pairs produced by gnubg itself.

Position ID (80 bits): for the opponent (``board[0]``) then the player on roll (``board[1]``),
for points 1..24 then the bar, one 1-bit per checker followed by a 0-bit; zero-padded.

Match ID (72 bits), field (first bit, width):
cube log2 (0, 4), cube owner (4, 2: 0/1 player, 3 centred), player on roll (6, 1),
Crawford (7, 1), game state (8, 3), turn (11, 1), double offered (12, 1), resignation (13, 2),
die 1 (15, 3), die 2 (18, 3), match length (21, 15), score of player 0 (36, 15),
score of player 1 (51, 15), Jacoby not in use (66, 1).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from ..errors import ParseError
from ..position import Position
# POSITION_ID_LENGTH is re-exported: the gnubg IDs' lengths are read from here
from .position_id import (POSITION_ID_LENGTH, bits_of, bytes_of, decode_base64,  # noqa: F401
                          encode_base64, encode_position_id)

MATCH_ID_LENGTH = 12


# ------------------------------------------------------------------ Position ID


def parse_position_id(text: str) -> Position:
    """Parse a gnubg Position ID into a ``Position`` (raises ``ParseError`` on any defect,
    including an impossible position).

    >>> parse_position_id("4HPwATDgc/ABMA") == Position.start()
    True
    """
    return Position.from_id(text)


def format_position_id(position: Position) -> str:
    """The gnubg Position ID of a position (player on roll as the second half of the key)."""
    return encode_position_id(position.board)


# ------------------------------------------------------------------ Match ID


class GameState(enum.IntEnum):
    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


CENTERED = 3  # cube owner value meaning "centred"
MAX_15_BITS = (1 << 15) - 1  # match length and scores are 15-bit fields

_FIELDS = (  # name, first bit, width
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("player_on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("jacoby_off", 66, 1),
)


@dataclass(frozen=True)
class MatchState:
    """Everything in a gnubg Match ID, in absolute terms (players 0 and 1).

    ``cube_owner`` is 0, 1 or ``CENTERED``; ``dice`` is ``(0, 0)`` when not yet rolled;
    ``match_length`` 0 means a money game, where ``jacoby`` applies. Dice are kept higher
    die first, as gnubg writes them.
    """

    cube_value: int = 1
    cube_owner: int = CENTERED
    player_on_roll: int = 1
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 1
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        # gnubg always stores the higher die first; so do we, so equal states compare equal
        d1, d2 = self.dice
        object.__setattr__(self, "dice", (max(d1, d2), min(d1, d2)))

    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    @property
    def dice_rolled(self) -> bool:
        return self.dice != (0, 0)

    def with_dice(self, dice: tuple[int, int]) -> "MatchState":
        return replace(self, dice=dice)

    def problems(self) -> list[str]:
        """Reasons this state cannot occur (empty when it can)."""
        problems = []
        if self.cube_value < 1 or self.cube_value & (self.cube_value - 1):
            problems.append(f"cube value {self.cube_value} is not a power of two")
        elif self.cube_value > 1 << 15:
            problems.append(f"cube value {self.cube_value} is above 32768")
        for name, value in (("match length", self.match_length), ("score", self.score[0]),
                            ("score", self.score[1])):
            if not 0 <= value <= MAX_15_BITS:
                problems.append(f"{name} {value} is not 0..{MAX_15_BITS}")
        if self.cube_owner not in (0, 1, CENTERED):
            problems.append(f"cube owner {self.cube_owner} is not 0, 1 or centred")
        d1, d2 = self.dice
        if (d1 == 0) != (d2 == 0) or not (0 <= d1 <= 6 and 0 <= d2 <= 6):
            problems.append(f"dice {d1}{d2} are not two dice 1..6 (or 00)")
        if self.match_length:
            for player, points in enumerate(self.score):
                if points >= self.match_length:
                    problems.append(
                        f"player {player} has {points} points in a {self.match_length}-point match"
                    )
        elif self.crawford:
            problems.append("Crawford flag set in a money game")
        if self.game_state not in set(GameState):
            problems.append(f"game state {self.game_state} is unknown")
        return problems


def parse_match_id(text: str) -> MatchState:
    """Parse a gnubg Match ID (raises ``ParseError`` on any defect).

    >>> parse_match_id("cAkAAAAAAAAE").is_money
    True
    """
    what = "Match ID"
    bits = bits_of(decode_base64(text, MATCH_ID_LENGTH, 9, what))
    value = {
        name: sum(bits[first + k] << k for k in range(width)) for name, first, width in _FIELDS
    }
    if value["game_state"] > max(GameState):
        raise ParseError(f"{what} has an unknown game state {value['game_state']}: {text!r}")
    for die in ("die1", "die2"):
        if value[die] > 6:
            raise ParseError(f"{what} has a die of {value[die]}: {text!r}")
    if value["cube_owner"] == 2:
        raise ParseError(f"{what} has cube owner 2 (must be 0, 1 or 3 for centred): {text!r}")
    # like gnubg, a Crawford flag while nobody is one point away is dropped
    crawford = bool(value["crawford"]) and value["match_length"] - 1 in (value["score0"], value["score1"])
    state = MatchState(
        cube_value=1 << value["cube_log2"],
        cube_owner=value["cube_owner"],
        player_on_roll=value["player_on_roll"],
        crawford=crawford,
        game_state=GameState(value["game_state"]),
        turn=value["turn"],
        double_offered=bool(value["double_offered"]),
        resignation=value["resignation"],
        dice=(value["die1"], value["die2"]),
        match_length=value["match_length"],
        score=(value["score0"], value["score1"]),
        jacoby=not value["jacoby_off"],
    )
    problems = state.problems()
    if problems:
        raise ParseError(f"{what} describes an impossible match state ({'; '.join(problems)}): {text!r}")
    return state


def format_match_id(state: MatchState) -> str:
    """The gnubg Match ID of a match state."""
    problems = state.problems()
    if problems:
        raise ValueError("; ".join(problems))
    value = {
        "cube_log2": state.cube_value.bit_length() - 1,
        "cube_owner": state.cube_owner,
        "player_on_roll": state.player_on_roll,
        "crawford": int(state.crawford),
        "game_state": int(state.game_state),
        "turn": state.turn,
        "double_offered": int(state.double_offered),
        "resignation": state.resignation,
        "die1": state.dice[0],
        "die2": state.dice[1],
        "match_length": state.match_length,
        "score0": state.score[0],
        "score1": state.score[1],
        "jacoby_off": int(not state.jacoby),
    }
    bits = [0] * 72
    for name, first, width in _FIELDS:
        for k in range(width):
            bits[first + k] = (value[name] >> k) & 1
    return encode_base64(bytes_of(bits, 9), MATCH_ID_LENGTH)
