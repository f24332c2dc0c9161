"""Supervised training of the net on labelled positions (``bgcli.learn``).

Each position (a board with row 1 on roll) comes with five target probabilities, the
player on roll's, from a deeper judgement than the net's own (bgcli's n-ply search). The
loss per position is the squared error of the net's five raw sigmoid outputs against them
plus ``equity_weight`` times the squared error of the cubeless equity they make
(2W - 1 + W(g) - L(g) + W(bg) - L(bg)): a position's outputs may err in ways that cancel in
the equity, and the equity is what chooses plays. With ``pair_weight`` > 0 a position that is
one of a roll's other plays (``bgcli train-data --alternatives``) also adds ``pair_weight``
times the squared error of its equity *difference* from the play the game made (its
``partner``): the ranking of a roll's plays, which is what chooses among them, is learnt
directly and not only through each play's own value. ``misrank_weight`` > 0 weighs that
term ``1 + misrank_weight`` times where the net now orders the two plays the other way
round from the targets: the pairs on which a 0-ply choice would go wrong. Steps are Adam's
(beta1 0.9, beta2 0.999, eps 1e-8) on a mini-batch's mean gradient: plain SGD on the same
loss did not move the net towards its 2-ply judgement at all (docs/net.md, sessions 10 and
11).

The contact, race or late contact net is picked per position as at evaluation
(``net.net_offset``). One thread, positions in the order given: the result does not depend
on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .net import (CONTACT, HIDDEN_ROOM, LATE, MAX_NONZERO, N_HIDDEN, N_OUTPUTS, NET_SIZE, RACE,
                  add_gradient, encode, forward, is_contact, make_consistent, net_offset)

EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])  # d equity / d (W, Wg, Wbg, Lg, Lbg)
BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8


@njit(cache=True, nogil=True, error_model="numpy")
def _forward(params, board, idx, val, z, h, y):
    """Evaluate ``board`` (row 1 on roll) into ``y``; its encoding's length and net offset,
    which the backward pass needs."""
    n = encode(board, 1, idx, val)
    offset = net_offset(board, 1, params)
    forward(params, offset, idx, val, n, z, h, y)
    return n, offset


@njit(cache=True, nogil=True, error_model="numpy")
def _equity(y):
    """The cubeless equity of five outputs less its constant -1 (only differences of it
    matter here)."""
    total = 0.0
    for k in range(N_OUTPUTS):
        total += EQUITY[k] * y[k]
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def _add_row_descent(params, boards, targets, i, j, equity_weight, pair_weight, misrank_weight,
                     grad, idx, val, z, h, y, coef):
    """Add row ``i``'s descent direction (minus half its loss gradient) to ``grad``; with a
    partner ``j`` >= 0 the pair term's too. Returns row ``i``'s squared output error.

    The pair term's gradient at row ``i`` goes into the same output coefficients as its own
    loss, so the row is evaluated and back-propagated once; the partner needs one more
    forward and backward pass (room for it: the second half of ``idx``, ``val``, ``z``, ``h``
    and ``y``)."""
    target = targets[i]
    n, offset = _forward(params, boards[i], idx, val, z, h, y)
    equity_gap = _equity(target) - _equity(y[:N_OUTPUTS])  # target equity - the outputs'
    error = 0.0
    for k in range(N_OUTPUTS):
        error += (target[k] - y[k]) ** 2
        coef[k] = (target[k] - y[k]) + equity_weight * EQUITY[k] * equity_gap
    if j >= 0:
        n2, offset2 = _forward(params, boards[j], idx[MAX_NONZERO:], val[MAX_NONZERO:],
                               z[N_HIDDEN:], h[HIDDEN_ROOM:], y[N_OUTPUTS:])
        # (target difference) - (output difference) between the two plays of one roll
        target_difference = _equity(target) - _equity(targets[j])
        output_difference = _equity(y[:N_OUTPUTS]) - _equity(y[N_OUTPUTS:])
        pair_gap = target_difference - output_difference
        weight = pair_weight
        if target_difference * output_difference < 0.0:  # ordered the other way round
            weight *= 1.0 + misrank_weight
        for k in range(N_OUTPUTS):
            coef[k] += weight * EQUITY[k] * pair_gap
            coef[N_OUTPUTS + k] = -weight * EQUITY[k] * pair_gap
        add_gradient(params, offset2, idx[MAX_NONZERO:], val[MAX_NONZERO:], n2, z[N_HIDDEN:],
                     h[HIDDEN_ROOM:], y[N_OUTPUTS:], coef[N_OUTPUTS:], grad)
    add_gradient(params, offset, idx, val, n, z, h, y, coef, grad)
    return error


@njit(cache=True, nogil=True, error_model="numpy")
def adam_epoch(params, boards, targets, order, batch, rate, equity_weight, partner,
               pair_weight, misrank_weight, learning, m, v, step, stats):
    """One pass over ``order`` (indices into ``boards``/``targets``) in mini-batches of
    ``batch``: an Adam step on each batch's mean loss gradient. ``partner[i]``: the row of
    the play the game made with the roll of which ``i`` is another play, or -1 (the pair
    term is skipped; so is every pair when ``pair_weight`` is 0; ``misrank_weight``: the
    module's docstring). ``learning``: 1.0 for each parameter that learns, 0.0 for those
    that keep their values (the nets ``bgcli train --nets`` leaves alone; a pair whose
    other play such a net values teaches the learning net against that value held fixed).
    ``m``, ``v``: the moment estimates and ``step[0]`` the steps so far (all three go on
    across epochs and runs); ``stats[0]`` gets the sum of squared output errors (each
    before its batch's step), ``stats[1]`` the count."""
    idx = np.empty(2 * MAX_NONZERO, dtype=np.int64)  # two positions' room, for pairs
    val = np.empty(2 * MAX_NONZERO)
    z = np.empty(2 * N_HIDDEN)
    h = np.empty(2 * HIDDEN_ROOM)
    y = np.empty(2 * N_OUTPUTS)
    coef = np.empty(2 * N_OUTPUTS)
    grad = np.zeros(params.size)
    for first in range(0, order.size, batch):
        last = min(first + batch, order.size)
        grad[:] = 0.0
        for t in range(first, last):
            i = order[t]
            j = partner[i] if pair_weight > 0.0 else -1
            stats[0] += _add_row_descent(params, boards, targets, i, j, equity_weight,
                                         pair_weight, misrank_weight, grad, idx, val, z, h,
                                         y, coef)
        stats[1] += last - first
        step[0] += 1
        scale = 1.0 / (last - first)
        correct1 = 1.0 - BETA1 ** step[0]
        correct2 = 1.0 - BETA2 ** step[0]
        for j in range(params.size):
            if learning[j] == 0.0:
                continue  # a net that keeps its weights
            g = grad[j] * scale
            if g == 0.0 and m[j] == 0.0:
                continue  # an input no position so far has set: leave it alone
            m[j] = BETA1 * m[j] + (1.0 - BETA1) * g
            v[j] = BETA2 * v[j] + (1.0 - BETA2) * g * g
            params[j] += rate * (m[j] / correct1) / (np.sqrt(v[j] / correct2) + EPSILON)


@njit(cache=True, nogil=True, error_model="numpy")
def net_outputs(params, boards, out):
    """``out[i]``: the net's five consistent probabilities for row 1 on roll in
    ``boards[i]`` (no bear-off tables: the net alone, the function being trained)."""
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z = np.empty(N_HIDDEN)
    h = np.empty(HIDDEN_ROOM)
    y = np.empty(N_OUTPUTS)
    for i in range(boards.shape[0]):
        board = boards[i]
        n = encode(board, 1, idx, val)
        forward(params, net_offset(board, 1, params), idx, val, n, z, h, y)
        make_consistent(board, 1, y, out[i])


@njit(cache=True, nogil=True)
def net_slots(boards, params, out):
    """``out[i]``: the slot (``net.CONTACT``, ``RACE``, ``LATE``) of the net of ``params``
    that values ``boards[i]`` (row 1 on roll)."""
    for i in range(boards.shape[0]):
        offset = net_offset(boards[i], 1, params)
        out[i] = CONTACT if offset == 0 else RACE if offset == NET_SIZE else LATE


@njit(cache=True, nogil=True)
def contact_flags(boards, out):
    """``out[i]``: whether ``boards[i]`` (row 1 on roll) is a contact position (valued by the
    contact net, or by the late contact net where the weights have one)."""
    for i in range(boards.shape[0]):
        out[i] = is_contact(boards[i], 1)
