"""Money cube decisions inside playouts: Janowski's cube-life model, as ``bgcli.cube`` has it
(gnubg's 0-ply ``Cl2CfMoney``), on the evaluator's probabilities.

Owners are seen from the player on roll: ``CENTRED`` 0, ``OWN`` 1 (the player on roll holds
the cube), ``THEIRS`` 2. Equities are normalised to the current cube value.
"""

from __future__ import annotations

from numba import njit

CENTRED, OWN, THEIRS = 0, 1, 2
_EPSILON = 0.0000001


@njit(cache=True, nogil=True)
def _live(rw, rl, p, owner, jacoby):
    if owner == CENTRED:
        tp = (rl - 0.5) / (rw + rl + 0.5)
        cp = (rl + 1.0) / (rw + rl + 0.5)
        if p < tp:
            return -1.0 if jacoby else -rl + (-1.0 + rl) * p / tp
        if p < cp:
            return -1.0 + 2.0 * (p - tp) / (cp - tp)
        return 1.0 if jacoby else 1.0 + (rw - 1.0) * (p - cp) / (1.0 - cp)
    if owner == OWN:
        cp = (rl + 1.0) / (rw + rl + 0.5)
        if p < cp:
            return -rl + (1.0 + rl) * p / cp
        return 1.0 + (rw - 1.0) * (p - cp) / (1.0 - cp)
    tp = (rl - 0.5) / (rw + rl + 0.5)
    if p < tp:
        return -rl + (-1.0 + rl) * p / tp
    return -1.0 + (rw + 1.0) * (p - tp) / (1.0 - tp)


@njit(cache=True, nogil=True)
def cubeful_equity(probs, x, owner, jacoby):
    """Janowski cubeful money equity of the player on roll (``bgcli.cube.cubeful_equity``)."""
    w = probs[0]
    jacoby = jacoby and owner == CENTRED
    if jacoby:
        dead = 2.0 * w - 1.0
    else:
        dead = 2.0 * w - 1.0 + probs[1] - probs[3] + probs[2] - probs[4]
    if w <= _EPSILON or w >= 1.0 - _EPSILON:
        return dead
    rw = 1.0 + (probs[1] + probs[2]) / w
    rl = 1.0 + (probs[3] + probs[4]) / (1.0 - w)
    return dead * (1.0 - x) + _live(rw, rl, w, owner, jacoby) * x


@njit(cache=True, nogil=True)
def efficiency(board, me):
    """gnubg's cube efficiency for ``board`` with ``me`` on roll: 0.6 when both sides are
    home (bear-off), by the pip count in a race, 0.68 with contact."""
    my_rear = -1
    your_rear = -1
    pips = 0
    for index in range(25):
        if board[me, index] > 0:
            my_rear = index
            pips += board[me, index] * (index + 1)
        if board[1 - me, index] > 0:
            your_rear = index
    if my_rear < 6 and your_rear < 6:
        return 0.6
    if my_rear + 1 < 24 - your_rear:  # no contact
        return min(0.7, max(0.6, pips * 0.00125 + 0.55))
    return 0.68


@njit(cache=True, nogil=True)
def doubles_and_takes(probs, x, owner, jacoby):
    """(the player on roll doubles, the opponent takes): double when Double/Take and
    Double/Pass are both at least No double (not when too good), take when Double/Take is
    at most Double/Pass."""
    no_double = cubeful_equity(probs, x, owner, jacoby)
    double_take = 2.0 * cubeful_equity(probs, x, THEIRS, False)
    doubles = double_take >= no_double and 1.0 >= no_double
    return doubles, double_take <= 1.0
