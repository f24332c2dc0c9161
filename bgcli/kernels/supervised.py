"""Supervised training of the net on labelled positions (``bgcli.learn``).

Each position (a board with row 1 on roll) comes with five target probabilities, the
player on roll's, from a deeper judgement than the net's own (bgcli's n-ply search). The
loss is the squared error of the net's five raw sigmoid outputs against them, summed over
the outputs; a mini-batch's mean gradient is one step of plain SGD. The same gradient form
as TD(lambda)'s updates (``selfplay``), which moves the net's outputs towards a target
instead of towards the next position's value.

The contact or race net is picked per position as at evaluation (``net.is_contact``). One
thread, positions in the order given: the result does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .net import (MAX_NONZERO, N_HIDDEN, N_OUTPUTS, NET_SIZE, add_gradient, encode, forward,
                  is_contact, make_consistent)


@njit(cache=True, nogil=True, error_model="numpy")
def _one(params, board, target, weight, grad, idx, val, z, h, y, coef):
    """Add one position's gradient (towards lower squared error) to ``grad``; its error."""
    n = encode(board, 1, idx, val)
    offset = 0 if is_contact(board, 1) else NET_SIZE
    forward(params, offset, idx, val, n, z, h, y)
    error = 0.0
    for k in range(N_OUTPUTS):
        coef[k] = weight * (target[k] - y[k])
        error += (target[k] - y[k]) ** 2
    add_gradient(params, offset, idx, val, n, z, h, y, coef, grad)
    return error


@njit(cache=True, nogil=True, error_model="numpy")
def fit_epoch(params, boards, targets, weights, order, batch, rate, stats):
    """One pass over ``order`` (indices into ``boards``/``targets``/``weights``) in
    mini-batches of ``batch``: ``params += rate * mean gradient`` after each. ``stats[0]``
    gets the sum of squared errors (each before its batch's step), ``stats[1]`` the count."""
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z = np.empty(N_HIDDEN)
    h = np.empty(N_HIDDEN)
    y = np.empty(N_OUTPUTS)
    coef = np.empty(N_OUTPUTS)
    grad = np.zeros(params.size)
    total = order.size
    for first in range(0, total, batch):
        last = min(first + batch, total)
        grad[:] = 0.0
        for t in range(first, last):
            i = order[t]
            stats[0] += _one(params, boards[i], targets[i], weights[i], grad, idx, val, z, h,
                             y, coef)
        stats[1] += last - first
        step = rate / (last - first)
        for j in range(params.size):
            params[j] += step * grad[j]


@njit(cache=True, nogil=True, error_model="numpy")
def net_outputs(params, boards, out):
    """``out[i]``: the net's five consistent probabilities for row 1 on roll in
    ``boards[i]`` (no bear-off tables: the net alone, the function being trained)."""
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z = np.empty(N_HIDDEN)
    h = np.empty(N_HIDDEN)
    y = np.empty(N_OUTPUTS)
    for i in range(boards.shape[0]):
        board = boards[i]
        n = encode(board, 1, idx, val)
        offset = 0 if is_contact(board, 1) else NET_SIZE
        forward(params, offset, idx, val, n, z, h, y)
        make_consistent(board, 1, y, out[i])
