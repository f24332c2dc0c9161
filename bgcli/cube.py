"""Money-game cube analysis from cubeless outcome probabilities, the way GNU Backgammon does it
at 0-ply (``eval.c``: ``Cl2CfMoney``, ``MoneyLive``, ``FindBestCubeDecision``).

Cubeful equity follows Rick Janowski's cube-life model: a mix of the dead-cube (cubeless) equity
and the fully live-cube equity, weighted by the cube efficiency ``x``::

    E(x) = (1 - x) * E_dead + x * E_live

``E_live`` interpolates linearly in the winning chance p between the points fixed by the average
value of a won game W and of a lost game L (take point (L - 1/2) / (W + L + 1/2), cash point
(L + 1) / (W + L + 1/2)), separately for a centred cube, a cube I own and a cube the opponent
owns. gnubg picks x from the position class (``EvalEfficiency``); :func:`cube_efficiency` has its
rule and constants.

Match play (:func:`analyse_match_cube`) follows gnubg's ``Cl2CfMatch`` and ``GetPoints``: the
same mix done in match winning chances from a :class:`bgcli.match.MatchEquityTable`, with
live-cube cash points found recursively over the cube levels still alive at the score.

Probabilities come in gnubg's order and meaning, from the player on roll, cumulative:
``(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)``. Equities are normalised to
the current cube value (Double/Pass is +1), as gnubg prints them; multiply by the cube value for
points. With the Jacoby rule (money only), gammons do not count while the cube is centred. Beavers
are ignored.

Pure module: standard library only (the match table is passed in).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from bgcli.errors import BgcliError

if TYPE_CHECKING:
    from bgcli.match import MatchEquityTable

__all__ = [
    "CubeError",
    "CubeOwner",
    "CubeAction",
    "MoneyCubeAnalysis",
    "cube_efficiency",
    "cubeless_equity",
    "cubeful_equity",
    "analyse_money_cube",
    "MatchCubeAnalysis",
    "analyse_match_cube",
    "owner_from_state",
    "RACE_FACTOR_X",
    "RACE_COEFFICIENT_X",
    "RACE_MIN_X",
    "RACE_MAX_X",
    "CONTACT_X",
    "CRASHED_X",
    "BEAROFF_X",
    "HYPERGAMMON_X",
]

# gnubg's EvalEfficiency parameters (eval.c, 1.0x defaults)
RACE_FACTOR_X = 0.00125
RACE_COEFFICIENT_X = 0.55
RACE_MIN_X = 0.6
RACE_MAX_X = 0.7
CONTACT_X = 0.68
CRASHED_X = 0.68
BEAROFF_X = 0.6          # one-sided bear-off database positions (rOSCubeX), two-sided too
HYPERGAMMON_X = 0.6

_EPSILON = 0.0000001     # gnubg: below this (or above 1 - this) p, the cube is treated as dead
_OPTIONAL = 1.0e-5       # gnubg's isOptional tolerance


class CubeError(BgcliError, ValueError):
    """Probabilities, cube state or efficiency that cube analysis cannot use."""


class CubeOwner(enum.Enum):
    """Who owns the cube, seen from the player on roll."""

    CENTRED = "centred"
    ME = "me"
    THEM = "them"


class CubeAction(enum.Enum):
    """gnubg's proper cube actions for money play (``GetCubeRecommendation``), beavers aside."""

    NO_DOUBLE_TAKE = "No double, take"
    DOUBLE_TAKE = "Double, take"
    DOUBLE_PASS = "Double, pass"
    TOO_GOOD_TAKE = "Too good to double, take"
    TOO_GOOD_PASS = "Too good to double, pass"
    OPTIONAL_DOUBLE_TAKE = "Optional double, take"
    OPTIONAL_DOUBLE_PASS = "Optional double, pass"
    NO_REDOUBLE_TAKE = "No redouble, take"
    REDOUBLE_TAKE = "Redouble, take"
    REDOUBLE_PASS = "Redouble, pass"
    TOO_GOOD_REDOUBLE_TAKE = "Too good to redouble, take"
    TOO_GOOD_REDOUBLE_PASS = "Too good to redouble, pass"
    OPTIONAL_REDOUBLE_TAKE = "Optional redouble, take"
    OPTIONAL_REDOUBLE_PASS = "Optional redouble, pass"

    def __str__(self) -> str:
        return self.value


_ACTIONS = {  # (kind, redouble) -> action
    ("nodouble", False): CubeAction.NO_DOUBLE_TAKE, ("nodouble", True): CubeAction.NO_REDOUBLE_TAKE,
    ("dt", False): CubeAction.DOUBLE_TAKE, ("dt", True): CubeAction.REDOUBLE_TAKE,
    ("dp", False): CubeAction.DOUBLE_PASS, ("dp", True): CubeAction.REDOUBLE_PASS,
    ("tgt", False): CubeAction.TOO_GOOD_TAKE, ("tgt", True): CubeAction.TOO_GOOD_REDOUBLE_TAKE,
    ("tgp", False): CubeAction.TOO_GOOD_PASS, ("tgp", True): CubeAction.TOO_GOOD_REDOUBLE_PASS,
    ("odt", False): CubeAction.OPTIONAL_DOUBLE_TAKE, ("odt", True): CubeAction.OPTIONAL_REDOUBLE_TAKE,
    ("odp", False): CubeAction.OPTIONAL_DOUBLE_PASS, ("odp", True): CubeAction.OPTIONAL_REDOUBLE_PASS,
}


def owner_from_state(cube_owner: int, player_on_roll: int) -> CubeOwner:
    """Translate a Match ID / XGID cube owner (0, 1, or 3 = centred, as in
    ``bgcli.notation.gnubgid.MatchState``) to the on-roll player's point of view."""
    if cube_owner == 3:
        return CubeOwner.CENTRED
    if cube_owner not in (0, 1) or player_on_roll not in (0, 1):
        raise CubeError(f"cube owner must be 0, 1 or 3 and player on roll 0 or 1: "
                        f"{cube_owner!r}, {player_on_roll!r}")
    return CubeOwner.ME if cube_owner == player_on_roll else CubeOwner.THEM


def cube_efficiency(position_class: str, pips_on_roll: int | None = None) -> float:
    """gnubg's cube efficiency x for a position class (``EvalEfficiency``).

    ``position_class``: ``"race"`` (needs ``pips_on_roll``, the pip count of the player on roll:
    x = 0.00125 * pips + 0.55, clamped to [0.6, 0.7]), ``"contact"`` 0.68, ``"crashed"`` 0.68,
    ``"bearoff"`` (one- or two-sided database) 0.6, ``"hypergammon"`` 0.6, ``"over"`` 0.
    """
    if position_class == "race":
        if pips_on_roll is None or pips_on_roll < 0:
            raise CubeError(f"race cube efficiency needs the pip count of the player on roll: "
                            f"{pips_on_roll!r}")
        return min(RACE_MAX_X, max(RACE_MIN_X, pips_on_roll * RACE_FACTOR_X + RACE_COEFFICIENT_X))
    fixed = {"contact": CONTACT_X, "crashed": CRASHED_X, "bearoff": BEAROFF_X,
             "hypergammon": HYPERGAMMON_X, "over": 0.0}
    try:
        return fixed[position_class]
    except KeyError:
        raise CubeError(f"unknown position class for cube efficiency: {position_class!r}") from None


def consistent_rates(rates: Sequence[float]) -> tuple[float, float, float, float, float]:
    """Five estimated rates (W, W(g), W(bg), L(g), L(bg)) clipped into the bounds of
    probabilities: 0 <= W(bg) <= W(g) <= W <= 1, 0 <= L(bg) <= L(g) <= 1 - W. A
    variance-reduced rollout's means are unbiased but can stray outside them by their
    noise (a gammon rate of -2e-6 where no gammon happens)."""
    win, win_gammon, win_bg, lose_gammon, lose_bg = (float(v) for v in rates)
    win = min(max(win, 0.0), 1.0)
    win_gammon = min(max(win_gammon, 0.0), win)
    win_bg = min(max(win_bg, 0.0), win_gammon)
    lose_gammon = min(max(lose_gammon, 0.0), 1.0 - win)
    lose_bg = min(max(lose_bg, 0.0), lose_gammon)
    return win, win_gammon, win_bg, lose_gammon, lose_bg


def _check_probs(probs: Sequence[float]) -> tuple[float, float, float, float, float]:
    try:
        p = tuple(float(v) for v in probs)
    except (TypeError, ValueError):
        raise CubeError(f"probabilities must be five numbers: {probs!r}") from None
    if len(p) != 5:
        raise CubeError(f"probabilities must be five numbers (W, Wg, Wbg, Lg, Lbg): {probs!r}")
    w, wg, wbg, lg, lbg = p
    tol = 1e-6
    if not (-tol <= wbg <= wg + tol and wg <= w + tol and w <= 1 + tol
            and -tol <= lbg <= lg + tol and lg <= 1 - w + tol):
        raise CubeError(f"probabilities must be cumulative and within 0..1 "
                        f"(Wbg <= Wg <= W, Lbg <= Lg <= 1 - W): {probs!r}")
    return p  # type: ignore[return-value]


def cubeless_equity(probs: Sequence[float], gammons_count: bool = True) -> float:
    """Money cubeless equity per unit cube; gammons and backgammons count 0 when
    ``gammons_count`` is false (Jacoby rule, cube centred)."""
    w, wg, wbg, lg, lbg = _check_probs(probs)
    price = 1.0 if gammons_count else 0.0
    return 2.0 * w - 1.0 + (wg - lg) * price + (wbg - lbg) * price


def _live(rw: float, rl: float, p: float, owner: CubeOwner, jacoby: bool) -> float:
    if owner is CubeOwner.CENTRED:
        tp = (rl - 0.5) / (rw + rl + 0.5)
        cp = (rl + 1.0) / (rw + rl + 0.5)
        if p < tp:
            return -1.0 if jacoby else -rl + (-1.0 + rl) * p / tp
        if p < cp:
            return -1.0 + 2.0 * (p - tp) / (cp - tp)
        return 1.0 if jacoby else 1.0 + (rw - 1.0) * (p - cp) / (1.0 - cp)
    if owner is CubeOwner.ME:
        cp = (rl + 1.0) / (rw + rl + 0.5)
        if p < cp:
            return -rl + (1.0 + rl) * p / cp
        return 1.0 + (rw - 1.0) * (p - cp) / (1.0 - cp)
    tp = (rl - 0.5) / (rw + rl + 0.5)
    if p < tp:
        return -rl + (-1.0 + rl) * p / tp
    return -1.0 + (rw + 1.0) * (p - tp) / (1.0 - tp)


def cubeful_equity(probs: Sequence[float], x: float, owner: CubeOwner = CubeOwner.CENTRED,
                   jacoby: bool = False) -> float:
    """Janowski cubeful money equity, normalised to the current cube (gnubg's ``Cl2CfMoney``).

    ``x`` = 0 gives the cubeless (dead cube) equity, ``x`` = 1 the fully live cube.
    ``jacoby`` only matters with a centred cube.
    """
    w, wg, wbg, lg, lbg = _check_probs(probs)
    if not 0.0 <= x <= 1.0:
        raise CubeError(f"cube efficiency must be within 0..1: {x!r}")
    if not isinstance(owner, CubeOwner):
        raise CubeError(f"cube owner must be a CubeOwner: {owner!r}")
    jacoby = jacoby and owner is CubeOwner.CENTRED
    dead = cubeless_equity(probs, gammons_count=not jacoby)
    if w <= _EPSILON or w >= 1.0 - _EPSILON:
        return dead
    rw = 1.0 + (wg + wbg) / w
    rl = 1.0 + (lg + lbg) / (1.0 - w)
    return dead * (1.0 - x) + _live(rw, rl, w, owner, jacoby) * x


@dataclass(frozen=True)
class MoneyCubeAnalysis:
    """The cube decision of the player on roll, equities normalised to the current cube.

    ``cubeless``: the money cubeless equity with gammons counted, as gnubg prints it (also under
    the Jacoby rule). ``take_point``: the smallest winning chance with which the opponent can take, in this
    model, keeping the gammon ratios of the position and the cube efficiency fixed.
    """

    no_double: float
    double_take: float
    double_pass: float
    action: CubeAction
    cubeless: float
    efficiency: float
    owner: CubeOwner
    cube_value: int
    jacoby: bool
    take_point: float

    @property
    def optimal(self) -> float:
        """Equity of the proper action (gnubg's ``arDouble[OUTPUT_OPTIMAL]``)."""
        return proper_value(self.no_double, self.double_take, self.double_pass)

    @property
    def is_double(self) -> bool:
        """True when the proper action offers the cube (including optional doubles)."""
        return self.action.value.startswith(("Double", "Redouble", "Optional"))

    @property
    def is_take(self) -> bool:
        """True when the opponent should take if doubled."""
        return self.double_take <= self.double_pass


def _decide(nd: float, dt: float, dp: float, win_gammon: bool, redouble: bool,
            jacoby: bool) -> CubeAction:
    def act(kind: str) -> CubeAction:
        return _ACTIONS[(kind, redouble)]

    if dt >= nd and dp >= nd:
        if dp > dt:
            return act("odt" if abs(dt - nd) <= _OPTIONAL else "dt")
        optional = abs(nd - dp) <= _OPTIONAL and win_gammon and (redouble or not jacoby)
        return act("odp" if optional else "dp")
    if nd > dt:
        if dt > dp:
            return act("tgp" if win_gammon else "dp")
        if nd > dp:
            return act("tgt" if win_gammon else "nodouble")
        return act("nodouble")
    return act("tgp" if win_gammon else "dp")


def _take_point(probs: tuple[float, ...], double_take, double_pass: float) -> float:
    """Smallest taker's winning chance 1 - p with ``double_take(probabilities at p)`` <=
    ``double_pass`` (the doubler's side: where taking is no worse than passing), the gammon
    ratios of ``probs`` fixed."""
    w, wg, wbg, lg, lbg = probs
    gw = (wg / w, wbg / w) if w > 0 else (0.0, 0.0)
    gl = (lg / (1 - w), lbg / (1 - w)) if w < 1 else (0.0, 0.0)

    def dt(p: float) -> float:
        q = 1.0 - p
        return double_take((p, p * gw[0], p * gw[1], q * gl[0], q * gl[1]))

    lo, hi = 0.0, 1.0
    if dt(hi) <= double_pass:
        return 0.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if dt(mid) <= double_pass:
            lo = mid
        else:
            hi = mid
    return 1.0 - lo


def analyse_money_cube(probs: Sequence[float], x: float, owner: CubeOwner = CubeOwner.CENTRED,
                       cube_value: int = 1, jacoby: bool = False) -> MoneyCubeAnalysis:
    """No double / Double, take / Double, pass equities and gnubg's proper action for the player
    on roll before rolling (gnubg's 0-ply cube analysis, beavers off).

    No double is the cubeful equity with the cube as it is; Double, take is twice the cubeful
    equity with the cube owned by the opponent; Double, pass is +1. Raises :class:`CubeError`
    when the opponent owns the cube (no double is possible).
    """
    p = _check_probs(probs)
    if not isinstance(cube_value, int) or cube_value < 1 or cube_value & (cube_value - 1):
        raise CubeError(f"cube value must be a power of two: {cube_value!r}")
    if owner is CubeOwner.THEM:
        raise CubeError("the player on roll cannot double: the opponent owns the cube")
    if owner is CubeOwner.CENTRED and cube_value != 1:
        raise CubeError(f"a centred cube in a money game is on 1: {cube_value!r}")
    nd = cubeful_equity(p, x, owner, jacoby)
    dt = 2.0 * cubeful_equity(p, x, CubeOwner.THEM)
    dp = 1.0
    redouble = owner is CubeOwner.ME
    action = _decide(nd, dt, dp, p[1] > 0.0, redouble, jacoby and owner is CubeOwner.CENTRED)
    return MoneyCubeAnalysis(
        no_double=nd, double_take=dt, double_pass=dp, action=action,
        cubeless=cubeless_equity(p),
        efficiency=x, owner=owner, cube_value=cube_value, jacoby=jacoby,
        take_point=_take_point(p, lambda pr: 2.0 * cubeful_equity(pr, x, CubeOwner.THEM), 1.0))


def money_proper_equity(probs: Sequence[float], x: float, owner: CubeOwner = CubeOwner.CENTRED,
                        jacoby: bool = False) -> float:
    """The cubeful equity of the player on roll before rolling with the proper cube action
    taken (Double when it gains, the opponent then answering at their best), normalised to
    the current cube: gnubg's 0-ply cubeful value of a position, by which it judges the play
    that led to it. :func:`analyse_money_cube`'s ``optimal`` without the rest of the analysis."""
    p = _check_probs(probs)
    no_double = cubeful_equity(p, x, owner, jacoby)
    if owner is CubeOwner.THEM:
        return no_double
    return proper_value(no_double, 2.0 * cubeful_equity(p, x, CubeOwner.THEM), 1.0)


def proper_value(no_double: float, double_take: float, double_pass: float) -> float:
    """The value of the proper action (gnubg's ``arDouble[OUTPUT_OPTIMAL]``): doubling when
    both answers leave the doubler no worse than not doubling, the opponent choosing the
    answer."""
    if double_take >= no_double and double_pass >= no_double:
        return min(double_take, double_pass)
    return no_double


# ---------------------------------------------------------------------------------- match play
#
# gnubg's Cl2CfMatch (eval.c) and GetPoints (matchequity.c): the same cube-life mix, done in
# match winning chances. 'Me' is the player on roll; away-scores count what each side needs.


def _ratios(probs: tuple[float, ...]) -> tuple[float, float, float, float]:
    w, wg, wbg, lg, lbg = probs
    if w > 0.0:
        g0, b0 = (wg - wbg) / w, wbg / w
    else:
        g0 = b0 = 0.0
    if w < 1.0:
        g1, b1 = (lg - lbg) / (1.0 - w), lbg / (1.0 - w)
    else:
        g1 = b1 = 0.0
    return g0, b0, g1, b1


def _cube_prime(i: int, j: int, cube: int) -> int:
    # gnubg's GetCubePrimeValue: i, j are away - 1; an automatic redouble by the side i
    return 2 * cube if i < 2 * cube and j >= 2 * cube else cube


class _MatchCube:
    """MWC look-ups for one game at a score, from the point of view of either side
    (side 0 = the player on roll)."""

    def __init__(self, met: MatchEquityTable, away: tuple[int, int], crawford: bool) -> None:
        self.met = met
        self.away = away
        self.crawford = crawford

    def after(self, side: int, points: int, side_wins: bool) -> float:
        """MWC of ``side`` once ``points`` go to ``side`` (``side_wins``) or to the other."""
        a, b = self.away[side], self.away[1 - side]
        return self.met.mwc_after(a, b, points, side_wins, self.crawford)

    def win(self, side: int, cube: int, g: float, b: float) -> float:
        return ((1.0 - g - b) * self.after(side, cube, True) + g * self.after(side, 2 * cube, True)
                + b * self.after(side, 3 * cube, True))

    def lose(self, side: int, cube: int, g: float, b: float) -> float:
        return ((1.0 - g - b) * self.after(side, cube, False) + g * self.after(side, 2 * cube, False)
                + b * self.after(side, 3 * cube, False))


def _cash_points(probs: tuple[float, ...], mc: _MatchCube, cube: int) -> tuple[float, float]:
    """gnubg's GetPoints: live-cube cash points of side 0 (on roll) and side 1."""
    g0, b0, g1, b1 = _ratios(probs)
    gam = ((g0, b0), (g1, b1))            # side k's own gammon/backgammon ratios
    i, j = mc.away[0] - 1, mc.away[1] - 1
    dead, top = cube, 0
    while i >= 2 * dead and j >= 2 * dead:
        top += 1
        dead *= 2
    live: dict[tuple[int, int], float] = {}
    value = dead
    for n in range(top, -1, -1):
        primes = (_cube_prime(i, j, value), _cube_prime(j, i, value))
        for k in (0, 1):
            gk, bk = gam[k]
            go, bo = gam[1 - k]
            if i < 2 * value or j < 2 * value:
                prime = primes[k]
                dtl = mc.lose(k, 2 * prime, go, bo)
                dp = mc.after(k, value, True)
                dtw = mc.win(k, 2 * prime, gk, bk)
                live[(k, n)] = (dtl - dp) / (dtl - dtw)
            else:
                rdp = mc.after(k, 2 * value, False)
                dp = mc.after(k, value, True)
                dtw = mc.win(k, 2 * value, gk, bk)
                live[(k, n)] = 1.0 - live[(1 - k, n + 1)] * (dp - dtw) / (rdp - dtw)
        value //= 2
    return live[(0, 0)], live[(1, 0)]


def _match_cubeful_mwc(probs: tuple[float, ...], x: float, mc: _MatchCube, cube: int,
                       owner: CubeOwner) -> float:
    """gnubg's Cl2CfMatch: cubeful MWC of the player on roll with this cube."""
    w = probs[0]
    g0, b0, g1, b1 = _ratios(probs)
    dead_mwc = w * mc.win(0, cube, g0, b0) + (1.0 - w) * mc.lose(0, cube, g1, b1)
    i, j = mc.away[0] - 1, mc.away[1] - 1
    cube_dead = (i + 1 <= cube and j + 1 <= cube) or (i == 1 and j == 1) or mc.crawford
    if cube_dead:
        return dead_mwc
    cp_me, cp_them = _cash_points(probs, mc, cube)
    cash = mc.after(0, cube, True)
    opp_cash = mc.after(0, cube, False)
    win_all = mc.win(0, cube, g0, b0)
    lose_all = mc.lose(0, cube, g1, b1)
    if owner is CubeOwner.CENTRED:
        opp_tg, tg = 1.0 - cp_them, cp_me
        if w <= opp_tg:
            live = lose_all + (opp_cash - lose_all) * w / opp_tg if opp_tg > 0.0 else lose_all
        elif w < tg:
            live = opp_cash + (cash - opp_cash) * (w - opp_tg) / (tg - opp_tg)
        else:
            live = cash + (win_all - cash) * (w - tg) / (1.0 - tg) if tg < 1.0 else win_all
    elif owner is CubeOwner.ME:
        tg = cp_me
        if w <= tg:
            live = lose_all + (cash - lose_all) * w / tg if tg > 0.0 else lose_all
        else:
            live = cash + (win_all - cash) * (w - tg) / (1.0 - tg) if tg < 1.0 else win_all
    else:
        opp_tg = 1.0 - cp_them
        if w <= opp_tg:
            live = lose_all + (opp_cash - lose_all) * w / opp_tg if opp_tg > 0.0 else lose_all
        else:
            live = opp_cash + (win_all - opp_cash) * (w - opp_tg) / (1.0 - opp_tg)
    return dead_mwc * (1.0 - x) + live * x


@dataclass(frozen=True)
class MatchCubeAnalysis:
    """The cube decision of the player on roll in a match, as gnubg's 0-ply cube analysis.

    Equities are gnubg's normalised match equities (MWC mapped linearly so that losing the
    current cube value is -1 and winning it +1); the ``*_mwc`` fields are the match winning
    chances themselves. ``action`` is None when the cube is dead or cannot be turned by the
    player on roll (Crawford game, post-Crawford leader, cube already past what is needed).
    ``take_point``: the opponent's winning chance at which taking and passing give the same
    MWC (gnubg's take point, here in this model: the position's gammon ratios and the cube
    efficiency kept), None without a double to take.
    """

    no_double: float
    double_take: float
    double_pass: float
    no_double_mwc: float
    double_take_mwc: float
    double_pass_mwc: float
    action: CubeAction | None
    efficiency: float
    take_point: float | None = None


def analyse_match_cube(probs: Sequence[float], x: float, met: MatchEquityTable,
                       away_me: int, away_them: int,
                       cube_value: int = 1, owner: CubeOwner = CubeOwner.CENTRED,
                       crawford: bool = False) -> MatchCubeAnalysis:
    """gnubg's 0-ply match cube analysis for the player on roll before rolling.

    No double is the cubeful MWC with the cube as it is, Double/Take the cubeful MWC with the
    cube doubled and owned by the opponent, Double/Pass the MWC after winning the current cube
    value; all three are also given as gnubg's normalised equities. gnubg treats the cube as
    dead (cubeless MWC) in the Crawford game, at 2-away 2-away and when neither side can use a
    higher cube. ``x`` as for money (:func:`cube_efficiency`).
    """
    p = _check_probs(probs)
    if not isinstance(cube_value, int) or cube_value < 1 or cube_value & (cube_value - 1):
        raise CubeError(f"cube value must be a power of two: {cube_value!r}")
    if not 0.0 <= x <= 1.0:
        raise CubeError(f"cube efficiency must be within 0..1: {x!r}")
    if crawford and 1 not in (away_me, away_them):
        raise CubeError("the Crawford game needs a side 1-away")
    mc = _MatchCube(met, (away_me, away_them), crawford)
    nd_mwc = _match_cubeful_mwc(p, x, mc, cube_value, owner)
    dt_mwc = _match_cubeful_mwc(p, x, mc, 2 * cube_value, CubeOwner.THEM)
    dp_mwc = mc.after(0, cube_value, True)
    win, lose = mc.after(0, cube_value, True), mc.after(0, cube_value, False)

    def eq(m: float) -> float:
        return (2.0 * m - (win + lose)) / (win - lose)

    nd, dt, dp = eq(nd_mwc), eq(dt_mwc), eq(dp_mwc)
    action, take_point = None, None
    if may_double(away_me, away_them, cube_value, owner, crawford):
        action = _decide(nd, dt, dp, p[1] > 0.0, owner is CubeOwner.ME, False)
        take_point = _take_point(
            p, lambda pr: _match_cubeful_mwc(pr, x, mc, 2 * cube_value, CubeOwner.THEM), dp_mwc)
    return MatchCubeAnalysis(nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, x, take_point)


def may_double(away_me: int, away_them: int, cube_value: int, owner: CubeOwner,
               crawford: bool) -> bool:
    """Whether the player on roll may turn the cube at this score: not in the Crawford
    game, not as the post-Crawford leader, not past what they need, not the opponent's."""
    post_crawford = not crawford and 1 in (away_me, away_them)
    return (not crawford and away_me > cube_value and not (post_crawford and away_me == 1)
            and owner is not CubeOwner.THEM)


def match_proper_mwc(probs: Sequence[float], x: float, met: MatchEquityTable, away_me: int,
                     away_them: int, cube_value: int = 1, owner: CubeOwner = CubeOwner.CENTRED,
                     crawford: bool = False) -> float:
    """The cubeful match winning chances of the player on roll before rolling with the proper
    cube action taken: :func:`money_proper_equity` at a match score (gnubg's 0-ply cubeful
    value of a position in match play), in MWC."""
    p = _check_probs(probs)
    mc = _MatchCube(met, (away_me, away_them), crawford)
    no_double = _match_cubeful_mwc(p, x, mc, cube_value, owner)
    if not may_double(away_me, away_them, cube_value, owner, crawford):
        return no_double
    return proper_value(no_double, _match_cubeful_mwc(p, x, mc, 2 * cube_value, CubeOwner.THEM),
                        mc.after(0, cube_value, True))
