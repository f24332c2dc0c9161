"""Race metrics with GNU Backgammon's exact definitions and verdicts.

Six rules of thumb for racing cube decisions, computed the way GNU Backgammon 1.07 computes
them for ``show pipcount``, ``show keith``, ``show thorp``, ``show 8912``, ``show kleinman`` and
``show isight``, and worded the way it prints them. ``tests/fixtures/race.jsonl`` holds gnubg's
own output for several hundred positions; ``tests/test_race.py`` checks every number and
verdict here against it.

Conventions (shared by every function below):

* gnubg's "Leader" is always the **player on roll** and "Trailer" the opponent, whoever is
  actually ahead. The fields here are named ``on_roll`` / ``opponent`` to say so.
* gnubg computes the rules in single precision (C ``float``); the arithmetic here is done in
  ``numpy.float32`` so that every threshold comparison falls the same way. Float fields are
  returned as Python floats holding the float32 value; format them as gnubg does (``.1f`` for
  the adjusted counts, the 8-9-12 lead and the Isight GWC, ``.4f`` for the Kleinman chance,
  ``%8.4g`` for the Kleinman K) to get its printed text.
* Nothing checks that the position is a race. gnubg prints every count and verdict for any
  position, contact or not (a checker on the bar counts 25 pips, as in its pip count), and so
  do these functions; ``race_metrics`` adds an ``is_race`` flag so a caller can tell.
* Verdicts: ``verdict`` is gnubg's text before the parenthesis (e.g. ``"Double, Drop"``,
  ``"NoDouble"``), ``reason`` the parenthetical (e.g. ``"since L <= T+2"``), ``text`` the
  whole line as printed. ``action`` is one of ``"double"``, ``"redouble"``, ``"no double"``;
  ``response`` is ``"take"``, ``"drop"`` (gnubg's word for a pass) or ``None`` where gnubg
  names none (the 8-9-12 "NoDouble"). The thresholds and wording are gnubg's, including its
  quirks (see each function).

This module imports only the standard library, numpy and ``bgcli.position``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .position import Position

__all__ = [
    "PipResult",
    "KeithResult",
    "ThorpResult",
    "EightNineTwelveResult",
    "KleinmanResult",
    "IsightResult",
    "pip_count",
    "keith",
    "thorp",
    "eight_nine_twelve",
    "kleinman",
    "isight",
    "race_metrics",
]

_F = np.float32


def _rows(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """(player on roll, opponent) rows as plain int64 arrays of 25 (index 24 = bar)."""
    board = np.asarray(position.board, dtype=np.int64)
    return board[1], board[0]


def _pips(row: np.ndarray) -> int:
    return int(row @ np.arange(1, 26))


def _split(text: str) -> tuple[str, str]:
    """``"Double, Drop (since L <= T+2)"`` -> ``("Double, Drop", "since L <= T+2")``."""
    head, _, tail = text.partition(" (")
    return head, tail[:-1] if tail.endswith(")") else tail


def _action_response(verdict: str) -> tuple[str, str | None]:
    words = [w.strip().lower() for w in verdict.split(",")]
    action = "no double" if words[0] in ("no double", "nodouble") else words[0]
    return action, (words[1] if len(words) > 1 else None)


class _Verdict:
    """Properties derived from a result's ``text`` (gnubg's verdict line)."""

    text: str

    @property
    def verdict(self) -> str:
        return _split(self.text)[0]

    @property
    def reason(self) -> str:
        return _split(self.text)[1]

    @property
    def action(self) -> str:
        return _action_response(self.verdict)[0]

    @property
    def response(self) -> str | None:
        return _action_response(self.verdict)[1]


# ---------------------------------------------------------------------------- pip count


@dataclass(frozen=True)
class PipResult:
    """Pip counts. ``difference`` = opponent - on roll (positive: the player on roll leads)."""

    on_roll: int
    opponent: int

    @property
    def difference(self) -> int:
        return self.opponent - self.on_roll


def pip_count(position: Position) -> PipResult:
    """gnubg's ``show pipcount``: for each side, the sum over its checkers of the point number
    it stands on (its own numbering, 1..24), a checker on the bar counting 25. Borne-off
    checkers count 0. gnubg prints "The pip counts are: <on roll> N, <opponent> M."
    """
    mine, theirs = _rows(position)
    return PipResult(_pips(mine), _pips(theirs))


# ---------------------------------------------------------------------------- Keith


@dataclass(frozen=True)
class KeithResult(_Verdict):
    """Keith counts, the player on roll's count raised by a seventh, and gnubg's verdict."""

    on_roll: int
    opponent: int
    leader_adjusted: float
    text: str


# gnubg multiplies by 8/7 rounded to float32 (1.14285719...), a hair above 8/7, and rounds the
# product to float32: 98 x 8/7 comes out as 112.0000076, not 112, which moves the verdict
# when T is exactly 110 (= L - 2). Multiplying by 8 then dividing by 7 would not reproduce it.
_EIGHT_SEVENTHS = _F(8.0) / _F(7.0)


def _keith_count(row: np.ndarray) -> int:
    count = _pips(row)
    count += 2 * max(row[0] - 1, 0)  # each checker beyond the first on the 1-point: +2
    count += max(row[1] - 1, 0)  # each checker beyond the first on the 2-point: +1
    count += max(row[2] - 3, 0)  # each checker beyond the third on the 3-point: +1
    count += int(np.count_nonzero(row[3:6] == 0))  # each empty 4-, 5-, 6-point: +1
    return int(count)


def keith(position: Position) -> KeithResult:
    """gnubg's ``show keith`` (Tom Keith's count).

    Count, for each side: pip count, plus 2 for each checker beyond the first on the 1-point,
    plus 1 for each checker beyond the first on the 2-point, plus 1 for each checker beyond the
    third on the 3-point, plus 1 for each of the 4-, 5- and 6-points that is empty. (gnubg
    applies it to any position, bar checkers at 25 pips.)

    Leader = player on roll. L = leader's count x 8/7, in float32 with 8/7 itself rounded to
    float32 first (so L is a hair above the exact value for some multiples of 7; printed
    ``.1f``); T = the opponent's count. Verdict, first match:

    * T >= L - 2: "Double, Drop (since L <= T+2)"
    * T >= L - 3: "Redouble, Take (since L <= T+3)"
    * T >= L - 4: "Double, Take (since L <= T + 4)"
    * otherwise:  "No Double, Take (since L > T + 4)"

    (gnubg 1.07 prints this verdict without a final newline.)
    """
    mine, theirs = _rows(position)
    lead, trail = _keith_count(mine), _keith_count(theirs)
    adjusted = _F(lead) * _EIGHT_SEVENTHS
    t = _F(trail)
    if t >= adjusted - _F(2.0):
        text = "Double, Drop (since L <= T+2)"
    elif t >= adjusted - _F(3.0):
        text = "Redouble, Take (since L <= T+3)"
    elif t >= adjusted - _F(4.0):
        text = "Double, Take (since L <= T + 4)"
    else:
        text = "No Double, Take (since L > T + 4)"
    return KeithResult(lead, trail, float(adjusted), text)


# ---------------------------------------------------------------------------- Thorp


@dataclass(frozen=True)
class ThorpResult(_Verdict):
    """Thorp counts, the player on roll's count raised by a tenth (above 30), gnubg's verdict."""

    on_roll: int
    opponent: int
    leader_adjusted: float
    text: str


def _thorp_count(row: np.ndarray) -> int:
    count = _pips(row)
    count += 2 * int(row.sum())  # 2 for each checker left (bar included)
    count += int(row[0])  # 1 more for each checker on the 1-point
    count -= int(np.count_nonzero(row[:6]))  # 1 less for each occupied home point
    return int(count)


def thorp(position: Position) -> ThorpResult:
    """gnubg's ``show thorp`` (Edward Thorp's count).

    Count, for each side: pip count, plus 2 for each checker still on the board (bar
    included), plus 1 for each checker on the 1-point, minus 1 for each of the points 1..6
    holding at least one of its checkers.

    Leader = player on roll. L = leader's count x 1.1 when the count is above 30, else the
    count itself (float32, printed ``.1f``); T = the opponent's count. Verdict, first match:

    * T >= L + 2: "Double, Drop (since L <= T - 2)"
    * T >= L - 1: "Redouble, Take (since L <= T + 1 )"   (sic: gnubg's spacing)
    * T >= L - 2: "Double, Take (since L <= T + 2)"
    * otherwise:  "No Double, Take (since L > T + 2)"
    """
    mine, theirs = _rows(position)
    lead, trail = _thorp_count(mine), _thorp_count(theirs)
    adjusted = _F(lead) * _F(1.1) if lead > 30 else _F(lead)
    t = _F(trail)
    if t >= adjusted + _F(2.0):
        text = "Double, Drop (since L <= T - 2)"
    elif t >= adjusted - _F(1.0):
        text = "Redouble, Take (since L <= T + 1 )"
    elif t >= adjusted - _F(2.0):
        text = "Double, Take (since L <= T + 2)"
    else:
        text = "No Double, Take (since L > T + 2)"
    return ThorpResult(lead, trail, float(adjusted), text)


# ---------------------------------------------------------------------------- 8-9-12


@dataclass(frozen=True)
class EightNineTwelveResult(_Verdict):
    """The 8-9-12 rule: the on-roll player's lead in percent of its pip count, gnubg's verdict."""

    pips_on_roll: int
    pips_opponent: int
    ahead_percent: float
    text: str


def eight_nine_twelve(position: Position) -> EightNineTwelveResult:
    """gnubg's ``show 8912`` (the 8-9-12 rule on raw pip counts).

    ahead = (opponent pips - on-roll pips) / on-roll pips x 100 (float32, printed ``.1f``;
    "Leader is X percent ahead", negative when the player on roll trails; NaN when the player
    on roll has no pips left, which gnubg prints as ``-nan``). Verdict, first match:

    * ahead > 12: "Double, Drop (ahead > 12 percent)"
    * ahead > 9:  "Double, Take (12 percent > ahead > 9 percent)"
    * ahead > 8:  "Redouble, Take (12 percent > ahead > 8 percent)"
    * otherwise:  "NoDouble (8 percent > ahead)"

    Quirk kept from gnubg: the usual statement of the rule is "double at 8%, redouble at 9%,
    pass at 12%", but gnubg labels the 8-9% band "Redouble, Take" and the 9-12% band
    "Double, Take". A lead of exactly 8, 9 or 12 percent falls in the lower band (the
    float32 quotient never lands above the threshold for such pip counts).
    """
    pips = pip_count(position)
    with np.errstate(divide="ignore", invalid="ignore"):
        ahead = (_F(pips.opponent) - _F(pips.on_roll)) / _F(pips.on_roll) * _F(100.0)
    if ahead > _F(12.0):
        text = "Double, Drop (ahead > 12 percent)"
    elif ahead > _F(9.0):
        text = "Double, Take (12 percent > ahead > 9 percent)"
    elif ahead > _F(8.0):
        text = "Redouble, Take (12 percent > ahead > 8 percent)"
    else:
        text = "NoDouble (8 percent > ahead)"
    return EightNineTwelveResult(pips.on_roll, pips.opponent, float(ahead), text)


# ---------------------------------------------------------------------------- Kleinman


@dataclass(frozen=True)
class KleinmanResult:
    """Kleinman's race formula: sum, difference, K and the cubeless winning chance."""

    pips_on_roll: int
    pips_opponent: int
    k: float
    win_probability: float

    @property
    def sum(self) -> int:
        return self.pips_on_roll + self.pips_opponent

    @property
    def diff(self) -> int:
        return self.pips_opponent - self.pips_on_roll


def kleinman(position: Position) -> KleinmanResult:
    """gnubg's ``show kleinman`` (Kleinman's formula; no cube verdict is printed).

    With sum = both pip counts added and diff = opponent pips - on-roll pips:

    * K = (diff + 4) / (2 sqrt(sum - 4)), in double precision (printed ``%8.4g``). When
      sum = 4 this is +inf, -inf or NaN by the sign of diff + 4; when sum < 4 it is NaN
      (gnubg prints ``inf`` / ``-inf`` / ``-nan``).
    * Cubeless winning chance of the player on roll = (1 + erf(K)) / 2, computed in float32
      (printed ``.4f``); gnubg returns 0 when sum <= 4.

    The "+4" is the allowance for being on roll. gnubg prints no cube verdict for this rule.
    (Kleinman's count is often quoted as (diff + 4)^2 / (sum - 4), which is 4 K^2.)
    """
    pips = pip_count(position)
    total, diff = pips.on_roll + pips.opponent, pips.opponent - pips.on_roll
    numerator = float(diff + 4)
    if total > 4:
        k = numerator / (2.0 * math.sqrt(total - 4))
        k32 = _F(diff + 4) / (_F(2.0) * np.sqrt(_F(total - 4)))
        chance = _F(0.5) * (_F(1.0) + _F(math.erf(float(k32))))
    else:
        if total == 4 and numerator != 0.0:
            k = math.copysign(math.inf, numerator)
        else:
            k = math.nan
        chance = _F(0.0)
    return KleinmanResult(pips.on_roll, pips.opponent, k, float(chance))


# ---------------------------------------------------------------------------- Isight


@dataclass(frozen=True)
class IsightResult(_Verdict):
    """Isight counts, the estimated game winning chance (percent) and gnubg's verdict."""

    on_roll: int
    opponent: int
    gwc_percent: float
    text: str


def _isight_counts(mine: np.ndarray, theirs: np.ndarray) -> tuple[int, int]:
    rows = (mine, theirs)
    left = [int(r.sum()) for r in rows]
    # crossovers: each checker counts the quadrants it must still cross (points 1-6: 0,
    # 7-12: 1, 13-18: 2, 19-24: 3, bar: 4)
    quadrant = np.arange(25) // 6
    cross = [int(r @ quadrant) for r in rows]
    counts = []
    for i, row in enumerate(rows):
        other = rows[1 - i]
        count = _pips(row)
        count += max(left[i] - left[1 - i], 0)  # 1 per checker more than the other side has
        count += 2 * max(int(row[0]) - 2, 0)  # 2 per checker beyond the second on the 1-point
        count += max(int(row[1]) - 2, 0)  # 1 per checker beyond the second on the 2-point
        count += max(int(row[2]) - 3, 0)  # 1 per checker beyond the third on the 3-point
        # 1 per empty 4-, 5- or 6-point where the other side has its same point occupied
        count += int(np.count_nonzero((row[3:6] == 0) & (other[3:6] != 0)))
        count += max(cross[i] - cross[1 - i], 0)  # 1 per crossover more than the other side
        counts.append(int(count))
    return counts[0], counts[1]


def isight(position: Position) -> IsightResult:
    """gnubg's ``show isight`` (the Isight count, a refinement of Keith's).

    Count, for each side (the other side is the comparison): pip count, plus 1 for each
    checker it has left beyond the other side's number, plus 2 for each checker beyond the
    second on the 1-point, plus 1 for each beyond the second on the 2-point, plus 1 for each
    beyond the third on the 3-point, plus 1 for each of its 4-, 5-, 6-points that is empty
    while the other side holds its own same-numbered point, plus 1 for each crossover it has
    beyond the other side's (a checker's crossovers: 0 in the home board, 1 on points 7-12,
    2 on 13-18, 3 on 19-24, 4 on the bar).

    Leader = player on roll, L its count, T the opponent's. Estimated GWC (percent, float32,
    printed ``.1f``) = 80 - L/3 + 2 (T - L). (gnubg 1.07 labels it "80 - L/3 + 2*(L-T)" but
    computes T - L.) Verdict, first match:

    * GWC > 76:  "Double, Drop (since est. GWC > 76%)"
    * GWC >= 70: "Redouble, Take (since 70% <= est. GWC <= 76%)"
    * GWC >= 68: "Double, Take (since 68% <= est. GWC <= 70%)"
    * otherwise: "No Double, Take (est. GWC < 68%)"
    """
    mine, theirs = _rows(position)
    lead, trail = _isight_counts(mine, theirs)
    gwc = _F(80.0) - _F(lead) / _F(3.0) + _F(2.0) * _F(trail - lead)
    if gwc > _F(76.0):
        text = "Double, Drop (since est. GWC > 76%)"
    elif gwc >= _F(70.0):
        text = "Redouble, Take (since 70% <= est. GWC <= 76%)"
    elif gwc >= _F(68.0):
        text = "Double, Take (since 68% <= est. GWC <= 70%)"
    else:
        text = "No Double, Take (est. GWC < 68%)"
    return IsightResult(lead, trail, float(gwc), text)


# ---------------------------------------------------------------------------- all at once


def race_metrics(position: Position) -> dict:
    """Every metric above as one flat dict (snake_case keys, plain Python values), for a table
    row. "on_roll" is gnubg's "Leader", "opponent" its "Trailer"; ``pip_difference`` is
    opponent pips - on-roll pips (positive when the player on roll leads);
    ``kleinman_count`` is the K that gnubg prints, ``kleinman_win_probability`` its cubeless
    winning chance for the player on roll; ``is_race`` is False for positions with contact,
    where every number is still computed exactly as gnubg computes it."""
    pips = pip_count(position)
    k, t, e, kl, i = (
        keith(position),
        thorp(position),
        eight_nine_twelve(position),
        kleinman(position),
        isight(position),
    )
    row: dict = {
        "is_race": bool(position.is_race()),
        "pips_on_roll": pips.on_roll,
        "pips_opponent": pips.opponent,
        "pip_difference": pips.difference,
    }
    for name, result in (("keith", k), ("thorp", t), ("isight", i)):
        row[f"{name}_on_roll"] = result.on_roll
        row[f"{name}_opponent"] = result.opponent
        if name == "isight":
            row["isight_gwc_percent"] = result.gwc_percent
        else:
            row[f"{name}_leader_adjusted"] = result.leader_adjusted
        row[f"{name}_verdict"] = result.verdict
        row[f"{name}_action"] = result.action
        row[f"{name}_response"] = result.response
    row.update(
        {
            "eight_nine_twelve_ahead_percent": e.ahead_percent,
            "eight_nine_twelve_verdict": e.verdict,
            "eight_nine_twelve_action": e.action,
            "eight_nine_twelve_response": e.response,
            "kleinman_sum": kl.sum,
            "kleinman_diff": kl.diff,
            "kleinman_count": kl.k,
            "kleinman_win_probability": kl.win_probability,
        }
    )
    return row
