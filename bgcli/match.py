"""Match play arithmetic: the match equity table, match winning chances (MWC), equity <-> MWC
and gammon values, following GNU Backgammon's definitions (``matchequity.c``).

Scores are given as *away* counts: ``away_me`` points still needed by the player whose point of
view is taken, ``away_them`` by the opponent. A game is in one of three phases:

* before the Crawford game (neither side is 1-away),
* the Crawford game (a side has just reached 1-away: no doubling in that game),
* post-Crawford (a later game with a side 1-away; the cube is live again).

The table shipped is Kazaross-XG2 (``bgcli/data/kazaross_xg2.json``), converted by
``scripts/fixtures/gen_met.py`` from GNU Backgammon 1.07's ``met/Kazaross-XG2.xml``:
Copyright (C) 2011 Neil Kazaross, transcribed for GNUbg by Michael Petch; "Copying and
distribution of this file, with or without modification, are permitted in any medium without
royalty provided the copyright notice and this notice are preserved. This file is offered as-is,
without any warranty." The full notice travels in the JSON file.

Like gnubg, the post-Crawford entry at 25-away (the last one) is not read from the file but
extended from the 21- and 23-away entries with a gammon rate of 0.25 (gnubg's
``initPostCrawfordMET``): 0.001181 instead of the file's 0.00123.

Pure module: standard library only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from bgcli.errors import BgcliError

__all__ = [
    "MatchEquityTable",
    "MatchError",
    "MatchScore",
    "MONEY_COEFFICIENTS",
    "GammonValues",
    "kazaross_xg2",
    "GNUBG_POST_CRAWFORD_GAMMON_RATE",
]

#: gnubg's GAMMONRATE, used to extend the post-Crawford table beyond the file.
GNUBG_POST_CRAWFORD_GAMMON_RATE = 0.25


class MatchError(BgcliError, ValueError):
    """A match score or cube that the table cannot answer (e.g. an away-score out of range)."""


@dataclass(frozen=True)
class GammonValues:
    """gnubg's gammon and backgammon prices at a score and cube (``getGammonPrice``).

    Each is in units of the cube at stake, relative to a single game: a gammon won by me is worth
    ``1 + my_gammon`` normalised points, a backgammon ``1 + my_gammon + my_backgammon``. In a
    money game all four are 1. gnubg's comment: "twice the usual gammon value", i.e.
    ``my_gammon = 2 * (MWC(win gammon) - MWC(win)) / (MWC(win) - MWC(lose))``.
    """

    my_gammon: float
    their_gammon: float
    my_backgammon: float
    their_backgammon: float


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table.

    ``pre_crawford[i][j]``: MWC of a player (i+1)-away against (j+1)-away at the start of a game
    that is not post-Crawford (row/column 0 is the Crawford game). ``post_crawford[j]``: MWC of
    the trailer (j+1)-away against a 1-away leader in a post-Crawford game (``post_crawford[0]``
    is 1-away/1-away, 0.5).
    """

    name: str
    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]
    source: str = ""

    @property
    def length(self) -> int:
        """The longest away-score the table covers."""
        return len(self.pre_crawford)

    @classmethod
    def from_json(cls, text: str) -> MatchEquityTable:
        """Read a table in the layout of ``bgcli/data/kazaross_xg2.json`` and extend its last
        post-Crawford entry as gnubg does."""
        d = json.loads(text)
        pre = tuple(tuple(float(v) for v in row) for row in d["pre_crawford"])
        post = [float(v) for v in d["post_crawford"]]
        n = len(pre)
        if any(len(r) != n for r in pre) or len(post) != n:
            raise MatchError(f"match equity table is not square {n}x{n} with {n} post-Crawford entries")
        # gnubg copies post-Crawford entries 0..n-2 and extends from n-1 on.
        g = GNUBG_POST_CRAWFORD_GAMMON_RATE
        i = n - 1
        four = post[i - 4] if i >= 4 else 1.0
        two = post[i - 2] if i >= 2 else 1.0
        post[i] = g * 0.5 * four + (1.0 - g) * 0.5 * two
        return cls(name=d.get("name", ""), pre_crawford=pre, post_crawford=tuple(post),
                   source=d.get("source", ""))

    # ---- match winning chances -------------------------------------------------------------

    def _check(self, away: int, what: str) -> None:
        if not isinstance(away, int) or isinstance(away, bool) or away < 1:
            raise MatchError(f"{what} must be an integer 1..{self.length}: {away!r}")
        if away > self.length:
            raise MatchError(f"{away}-away is beyond the match equity table ({self.name}), "
                             f"which reaches {self.length}-away")

    def mwc(self, away_me: int, away_them: int, crawford: bool = False,
            post_crawford: bool | None = None) -> float:
        """MWC of 'me' at the start of a game at this score (gnubg's ``getMEAtScore``).

        ``crawford``: this game is the Crawford game (one side is 1-away, no doubling).
        ``post_crawford``: defaults to "one side is 1-away and this is not the Crawford game".
        At 1-away/1-away both readings give 0.5.
        """
        self._check(away_me, "away_me")
        self._check(away_them, "away_them")
        if crawford and post_crawford:
            raise MatchError("a game cannot be both the Crawford game and post-Crawford")
        one_away = away_me == 1 or away_them == 1
        if (crawford or post_crawford) and not one_away:
            raise MatchError(f"Crawford and post-Crawford games need a side 1-away: "
                             f"{away_me}-away, {away_them}-away")
        if post_crawford is None:
            post_crawford = one_away and not crawford
        if post_crawford:
            if away_me == 1:
                return 1.0 - self.post_crawford[away_them - 1]
            return self.post_crawford[away_me - 1]
        return self.pre_crawford[away_me - 1][away_them - 1]

    def mwc_after(self, away_me: int, away_them: int, points: int, i_win: bool,
                  crawford: bool = False) -> float:
        """MWC of 'me' after the game now played (at this score) ends with ``points`` going to
        me (``i_win``) or to the opponent (gnubg's ``getME``). ``crawford``: the game now played
        is the Crawford game, so the next one is post-Crawford."""
        self._check(away_me, "away_me")
        self._check(away_them, "away_them")
        if points < 1:
            raise MatchError(f"points must be at least 1: {points!r}")
        me = away_me - points if i_win else away_me
        them = away_them if i_win else away_them - points
        if me <= 0:
            return 1.0
        if them <= 0:
            return 0.0
        if crawford or away_me == 1 or away_them == 1:
            # the next game is post-Crawford
            if me == 1:
                return 1.0 - self.post_crawford[them - 1]
            return self.post_crawford[me - 1]
        return self.pre_crawford[me - 1][them - 1]

    def mwc_from_probabilities(self, probs, away_me: int, away_them: int, cube: int = 1,
                               crawford: bool = False) -> float:
        """Cubeless MWC of 'me' (on roll) from gnubg's five cumulative probabilities: each
        result (single, gammon, backgammon, won or lost) weighted by the MWC after it."""
        w, wg, wbg, lg, lbg = (float(p) for p in probs)
        results = ((w - wg, cube, True), (wg - wbg, 2 * cube, True), (wbg, 3 * cube, True),
                   (1.0 - w - lg, cube, False), (lg - lbg, 2 * cube, False), (lbg, 3 * cube, False))
        return sum(p * self.mwc_after(away_me, away_them, points, won, crawford)
                   for p, points, won in results)

    # ---- equity <-> MWC ---------------------------------------------------------------------

    def _win_lose(self, away_me: int, away_them: int, cube: int, crawford: bool) -> tuple[float, float]:
        if cube < 1:
            raise MatchError(f"cube value must be at least 1: {cube!r}")
        return (self.mwc_after(away_me, away_them, cube, True, crawford),
                self.mwc_after(away_me, away_them, cube, False, crawford))

    def equity_to_mwc(self, equity: float, away_me: int, away_them: int, cube: int = 1,
                      crawford: bool = False) -> float:
        """gnubg's ``eq2mwc``: a normalised equity (+1 = I win the cube value, -1 = I lose it)
        to MWC, linear through MWC(lose cube) at -1 and MWC(win cube) at +1."""
        win, lose = self._win_lose(away_me, away_them, cube, crawford)
        return 0.5 * (equity * (win - lose) + (win + lose))

    def mwc_to_equity(self, mwc: float, away_me: int, away_them: int, cube: int = 1,
                      crawford: bool = False) -> float:
        """gnubg's ``mwc2eq``, the inverse of :meth:`equity_to_mwc`."""
        win, lose = self._win_lose(away_me, away_them, cube, crawford)
        if win == lose:
            raise MatchError(f"equity is undefined when winning and losing {cube} point(s) give "
                             f"the same MWC at {away_me}-away, {away_them}-away")
        return (2.0 * mwc - (win + lose)) / (win - lose)

    def gammon_values(self, away_me: int, away_them: int, cube: int = 1) -> GammonValues:
        """gnubg's gammon prices (``getGammonPrice``) at this score and cube, from my side.

        gnubg computes them with the outcomes of a non-Crawford game; in the Crawford game and
        post-Crawford the outcomes are the same (the next game is post-Crawford either way).
        Negative values from rounding are clipped to 0, as gnubg does.
        """
        if cube < 1:
            raise MatchError(f"cube value must be at least 1: {cube!r}")

        def after(points: int, i_win: bool) -> float:
            return self.mwc_after(away_me, away_them, points, i_win)

        win, lose = after(cube, True), after(cube, False)
        center = (win + lose) / 2.0
        if abs(win - center) <= 1e-7:
            return GammonValues(0.0, 0.0, 0.0, 0.0)
        half = win - center
        g0 = (after(2 * cube, True) - center) / half - 1.0
        g1 = (center - after(2 * cube, False)) / half - 1.0
        b0 = (after(3 * cube, True) - center) / half - (g0 + 1.0)
        b1 = (center - after(3 * cube, False)) / half - (g1 + 1.0)
        return GammonValues(*(max(0.0, v) for v in (g0, g1, b0, b1)))


#: Cubeless money equity as a linear value of gnubg's five cumulative probabilities:
#: ``c[0] + c[1:] . (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)``.
MONEY_COEFFICIENTS = (-1.0, 2.0, 1.0, 1.0, -1.0, -1.0)


@dataclass(frozen=True)
class MatchScore:
    """A game at a match score from the side on roll: what each side still needs, whether
    this is the Crawford game, and the cube value (cubeless play at this cube).

    Cubeless MWC is linear in gnubg's five cumulative probabilities (a single, a gammon and a
    backgammon won or lost each lead to one score), so a play is valued at a score by six
    coefficients, like money's :data:`MONEY_COEFFICIENTS`; a gammon is worth no more than the
    points needed, since every win past the match is an MWC of 1.
    """

    away_me: int
    away_them: int
    crawford: bool = False
    cube_value: int = 1

    @property
    def post_crawford(self) -> bool:
        return not self.crawford and 1 in (self.away_me, self.away_them)

    @property
    def name(self) -> str:
        """e.g. "4-away 2-away", "2-away 1-away (Crawford)", "2-away 1-away (post-Crawford)"."""
        phase = " (Crawford)" if self.crawford else " (post-Crawford)" if self.post_crawford else ""
        cube = f", cube {self.cube_value}" if self.cube_value != 1 else ""
        return f"{self.away_me}-away {self.away_them}-away{phase}{cube}"

    def swapped(self) -> MatchScore:
        """The same game from the opponent's side."""
        return MatchScore(self.away_them, self.away_me, self.crawford, self.cube_value)

    def mwc_coefficients(self, met: MatchEquityTable) -> tuple[float, ...]:
        """Cubeless MWC of the side on roll as ``c[0] + c[1:] . probabilities`` (its own
        five): each cumulative rate weighted by the MWC step it adds."""
        def after(points: int, won: bool) -> float:
            return met.mwc_after(self.away_me, self.away_them, points * self.cube_value, won,
                                 self.crawford)

        win, gammon, backgammon = after(1, True), after(2, True), after(3, True)
        lose, lose_gammon, lose_backgammon = after(1, False), after(2, False), after(3, False)
        return (lose, win - lose, gammon - win, backgammon - gammon, lose_gammon - lose,
                lose_backgammon - lose_gammon)

    def equity_coefficients(self, met: MatchEquityTable) -> tuple[float, ...]:
        """The same for gnubg's normalised match equity (EMG): MWC mapped linearly so that
        losing the cube is -1 and winning it +1 (:meth:`MatchEquityTable.mwc_to_equity`).
        Plays rank alike by either; at a money-like score these are the money ones."""
        c = self.mwc_coefficients(met)
        win, lose = c[0] + c[1], c[0]
        scale = 2.0 / (win - lose)  # winning always beats losing: never zero
        return ((2.0 * c[0] - (win + lose)) / (win - lose),) + tuple(scale * v for v in c[1:])

    def mwc_of_equity(self, met: MatchEquityTable, equity: float) -> float:
        """MWC of a normalised equity at this score and cube."""
        return met.equity_to_mwc(equity, self.away_me, self.away_them, self.cube_value,
                                 self.crawford)

    def equity_of_mwc(self, met: MatchEquityTable, mwc: float) -> float:
        """Normalised equity (EMG) of an MWC at this score and cube."""
        return met.mwc_to_equity(mwc, self.away_me, self.away_them, self.cube_value,
                                 self.crawford)

    def mwc_per_equity(self, met: MatchEquityTable) -> float:
        """d MWC / d EMG: half the MWC between winning and losing the cube (for SEs)."""
        c = self.mwc_coefficients(met)
        return c[1] / 2.0


@lru_cache(maxsize=1)
def kazaross_xg2() -> MatchEquityTable:
    """The Kazaross-XG2 table shipped with bgcli (gnubg's default MET)."""
    text = resources.files("bgcli.data").joinpath("kazaross_xg2.json").read_text(encoding="utf-8")
    return MatchEquityTable.from_json(text)
