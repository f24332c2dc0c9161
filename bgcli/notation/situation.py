"""A position with its match context: what every notation parser returns.

Its own module so that the parsers (``bgcli.notation.detect``, ``bgcli.notation.xgid``) can
import it without importing each other; ``bgcli.notation.detect`` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..position import Position
from .gnubgid import MatchState, format_match_id, format_position_id
from .xgid_format import format_xgid


@dataclass(frozen=True)
class Situation:
    """A position together with its match context (cube, score, dice, who is on roll)."""

    position: Position
    match: MatchState = MatchState()

    @property
    def position_id(self) -> str:
        return format_position_id(self.position)

    @property
    def match_id(self) -> str:
        return format_match_id(self.match)

    @property
    def gnubg_id(self) -> str:
        return f"{self.position_id}:{self.match_id}"

    @property
    def xgid(self) -> str:
        return format_xgid(self)

    def with_dice(self, dice: tuple[int, int]) -> "Situation":
        return replace(self, match=self.match.with_dice(tuple(dice)))
