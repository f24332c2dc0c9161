"""A match file as written, before any move is checked: games of actions (what each player
did, with the line it is written on). The readers (``mat``, ``sgf``) make these; ``replay``
plays them through the rules engine."""

from __future__ import annotations

from dataclasses import dataclass, field

#: The kinds of action a match file records.
MOVE, DOUBLE, TAKE, DROP, WIN = "move", "double", "take", "drop", "win"


@dataclass(frozen=True)
class Action:
    """One thing a player did: a roll and its move (``move`` text in gnubg's notation, ""
    when the roll could not be played), a double (``value``: the cube it turns to), a take,
    a drop, or the game's end (``value``: the points won)."""

    line: int
    player: int  # 0: the first player of the file (the left column of a .mat), 1: the other
    kind: str
    dice: tuple[int, int] | None = None
    move: str | None = None
    value: int | None = None


@dataclass
class RawGame:
    number: int
    line: int
    score: tuple[int, int]
    crawford: bool | None = None  # None: the file does not say, infer it from the scores
    actions: list[Action] = field(default_factory=list)
    result: tuple[int, int, bool] | None = None  # (winner, points, resigned) when the file says
    problem: str | None = None  # "LINE: what is wrong" when the game could not be read whole


@dataclass
class RawMatch:
    path: str
    format: str  # "mat" or "sgf"
    length: int  # 0: a money session
    names: tuple[str, str]
    length_line: int = 1  # the line that gives the length
    games: list[RawGame] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "LINE: what is wrong", file-wide
    jacoby: bool = False  # money sessions: the Jacoby rule, when the file says it is on
