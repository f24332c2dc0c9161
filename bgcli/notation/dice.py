"""Dice as users type them: ``31``, ``3-1``, ``3 1``, ``3,1``."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import ParseError

_DICE = re.compile(r"^\s*([0-9])\s*[-,/ ]?\s*([0-9])\s*$")  # ASCII: \d also matches "３"


class Dice(NamedTuple):
    die1: int
    die2: int

    @property
    def is_double(self) -> bool:
        return self.die1 == self.die2

    def __str__(self) -> str:
        return f"{self.die1}{self.die2}"


def parse_dice(text: str) -> Dice:
    """Two dice 1..6, written ``31``, ``3-1``, ``3 1`` or ``3,1``.

    >>> parse_dice("3-1")
    Dice(die1=3, die2=1)
    """
    match = _DICE.match(text)
    if not match:
        raise ParseError(f"dice must be two digits 1..6 such as 31 or 3-1: {text!r}")
    dice = Dice(int(match.group(1)), int(match.group(2)))
    if not (1 <= dice.die1 <= 6 and 1 <= dice.die2 <= 6):
        raise ParseError(f"each die must be 1..6: {text!r}")
    return dice
