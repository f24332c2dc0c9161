"""Match cube decisions inside playouts: ``bgcli.cube.analyse_match_cube`` (gnubg's 0-ply
``Cl2CfMatch`` and ``GetPoints``: Janowski's cube-life mix done in match winning chances) on
the evaluator's probabilities.

The match equity table travels as one array ``met`` of shape (n + 1, n): rows 0..n-1 the
pre-Crawford table (``met[i, j]``: MWC of a player (i+1)-away against (j+1)-away), row n the
post-Crawford one (``met[n, j]``: MWC of the trailer (j+1)-away against a 1-away leader);
``bgcli.rollout`` builds it from a ``bgcli.match.MatchEquityTable``. Away-scores count the
points a side still needs (at most n, checked by the caller); ``crawford`` says the game
played is the Crawford game (no doubling; the next game is post-Crawford). Owners are seen
from the player on roll, as in ``bgcli.kernels.cube``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cube import CENTRED, OWN, THEIRS


@njit(cache=True, nogil=True)
def mwc_after(met, away_me, away_them, points, i_win, crawford):
    """MWC of 'me' once ``points`` go to me (``i_win``) or to the opponent
    (``MatchEquityTable.mwc_after``): 1 or 0 once a side has won the match, so a gammon
    is worth no more than the points needed."""
    n = met.shape[1]
    me = away_me - points if i_win else away_me
    them = away_them if i_win else away_them - points
    if me <= 0:
        return 1.0
    if them <= 0:
        return 0.0
    if crawford or away_me == 1 or away_them == 1:  # the next game is post-Crawford
        if me == 1:
            return 1.0 - met[n, them - 1]
        return met[n, me - 1]
    return met[me - 1, them - 1]


@njit(cache=True, nogil=True)
def _ratios(probs, out):
    """Gammon and backgammon shares of the wins (out[0], out[1]) and losses (out[2], out[3])
    of the player on roll, single gammons apart from backgammons."""
    w = probs[0]
    out[0] = (probs[1] - probs[2]) / w if w > 0.0 else 0.0
    out[1] = probs[2] / w if w > 0.0 else 0.0
    out[2] = (probs[3] - probs[4]) / (1.0 - w) if w < 1.0 else 0.0
    out[3] = probs[4] / (1.0 - w) if w < 1.0 else 0.0


@njit(cache=True, nogil=True)
def _win(met, a, b, crawford, cube, g, bg):
    """MWC of the side a-away against b-away when it wins with these gammon shares."""
    return ((1.0 - g - bg) * mwc_after(met, a, b, cube, True, crawford)
            + g * mwc_after(met, a, b, 2 * cube, True, crawford)
            + bg * mwc_after(met, a, b, 3 * cube, True, crawford))


@njit(cache=True, nogil=True)
def _lose(met, a, b, crawford, cube, g, bg):
    return ((1.0 - g - bg) * mwc_after(met, a, b, cube, False, crawford)
            + g * mwc_after(met, a, b, 2 * cube, False, crawford)
            + bg * mwc_after(met, a, b, 3 * cube, False, crawford))


@njit(cache=True, nogil=True)
def _cube_prime(i, j, cube):
    # gnubg's GetCubePrimeValue (i, j are away - 1): an automatic redouble by the side i
    return 2 * cube if i < 2 * cube and j >= 2 * cube else cube


@njit(cache=True, nogil=True)
def cash_points(ratios, met, away_me, away_them, crawford, cube):
    """gnubg's GetPoints: the live-cube cash points of the player on roll and of the
    opponent, over the cube levels still alive at the score (``bgcli.cube._cash_points``)."""
    i = away_me - 1
    j = away_them - 1
    dead = cube
    top = 0
    while i >= 2 * dead and j >= 2 * dead:
        top += 1
        dead *= 2
    live = np.zeros((2, top + 2))
    value = dead
    for n in range(top, -1, -1):
        for k in range(2):
            a = away_me if k == 0 else away_them
            b = away_them if k == 0 else away_me
            gk = ratios[2 * k]
            bk = ratios[2 * k + 1]
            go = ratios[2 - 2 * k]
            bo = ratios[3 - 2 * k]
            if i < 2 * value or j < 2 * value:
                prime = _cube_prime(i, j, value) if k == 0 else _cube_prime(j, i, value)
                dtl = _lose(met, a, b, crawford, 2 * prime, go, bo)
                dp = mwc_after(met, a, b, value, True, crawford)
                dtw = _win(met, a, b, crawford, 2 * prime, gk, bk)
                live[k, n] = (dtl - dp) / (dtl - dtw)
            else:
                rdp = mwc_after(met, a, b, 2 * value, False, crawford)
                dp = mwc_after(met, a, b, value, True, crawford)
                dtw = _win(met, a, b, crawford, 2 * value, gk, bk)
                live[k, n] = 1.0 - live[1 - k, n + 1] * (dp - dtw) / (rdp - dtw)
        value //= 2
    return live[0, 0], live[1, 0]


@njit(cache=True, nogil=True)
def cubeful_mwc(probs, x, met, away_me, away_them, crawford, cube, owner):
    """Cubeful MWC of the player on roll with ``cube`` (its value) and ``owner``
    (``bgcli.cube._match_cubeful_mwc``): the cubeless MWC when the cube is dead (the Crawford
    game, 2-away 2-away, or neither side can use a higher cube), else Janowski's mix with
    cube efficiency ``x``."""
    ratios = np.empty(4)
    _ratios(probs, ratios)
    w = probs[0]
    win_all = _win(met, away_me, away_them, crawford, cube, ratios[0], ratios[1])
    lose_all = _lose(met, away_me, away_them, crawford, cube, ratios[2], ratios[3])
    dead_mwc = w * win_all + (1.0 - w) * lose_all
    i = away_me - 1
    j = away_them - 1
    if (i + 1 <= cube and j + 1 <= cube) or (i == 1 and j == 1) or crawford:
        return dead_mwc
    cp_me, cp_them = cash_points(ratios, met, away_me, away_them, crawford, cube)
    cash = mwc_after(met, away_me, away_them, cube, True, crawford)
    opp_cash = mwc_after(met, away_me, away_them, cube, False, crawford)
    if owner == CENTRED:
        opp_tg = 1.0 - cp_them
        tg = cp_me
        if w <= opp_tg:
            live = lose_all + (opp_cash - lose_all) * w / opp_tg if opp_tg > 0.0 else lose_all
        elif w < tg:
            live = opp_cash + (cash - opp_cash) * (w - opp_tg) / (tg - opp_tg)
        else:
            live = cash + (win_all - cash) * (w - tg) / (1.0 - tg) if tg < 1.0 else win_all
    elif owner == OWN:
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


@njit(cache=True, nogil=True)
def can_double(away_me, crawford, cube, owner):
    """Whether the player on roll may usefully turn the cube: not in the Crawford game, not
    when the cube already gives it the match (so never a post-Crawford leader), and only a
    cube it owns or a centred one."""
    return not crawford and away_me > cube and owner != THEIRS


@njit(cache=True, nogil=True)
def match_doubles_and_takes(probs, x, met, away_me, away_them, crawford, cube, owner):
    """(the player on roll doubles, the opponent takes) at the score: double when
    Double/Take and Double/Pass are both at least No double, take when Double/Take is at
    most Double/Pass, all in the doubler's MWC (``bgcli.kernels.cube.doubles_and_takes``)."""
    if not can_double(away_me, crawford, cube, owner):
        return False, False
    no_double = cubeful_mwc(probs, x, met, away_me, away_them, crawford, cube, owner)
    double_take = cubeful_mwc(probs, x, met, away_me, away_them, crawford, 2 * cube, THEIRS)
    double_pass = mwc_after(met, away_me, away_them, cube, True, crawford)
    return double_take >= no_double and double_pass >= no_double, double_take <= double_pass
