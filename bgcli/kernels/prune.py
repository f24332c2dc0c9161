"""The pruning net: a cheap first look at every play of a roll inside the search.

Inside an n-ply search the player on roll makes the play the full 0-ply net values most.
gnubg finds it without scoring every play with its full net: a small *pruning* net scores
them all, and the full net only the best ``5 + floor(log2(plays))`` (``FindBestMoveInEval``).
bgcli does the same for rolls of positions in contact (``bgcli.kernels.search``); this
module holds the pruning net.

The net: one hidden layer on the 196 point, bar and borne-off inputs of the full net's
encoding (``bgcli.kernels.net``; no hand-made features, which are most of what an evaluation
costs), ``PRUNE_HIDDEN`` units with the full net's rational sigmoid, and five LINEAR outputs
approximating the full net's five probabilities: a screen ranks by a linear value of them,
so nothing more is needed. ``scripts/ship_prune_net.py`` makes it; ``bgcli.prune`` stores it
as plain weights (W1, b1, W2, b2).

The kernel's layout (``kernel_layout``), from ``start`` in ``params``, folds the first layer
into tables so that a point costs one row of ``PRUNE_HIDDEN`` values whatever its count:

* ``POINT_ROWS[s, i, c]``: (2, 25, 16) rows, the first layer's sum over point ``i``'s
  inputs for ``c`` checkers of side ``s`` (``i`` = 24: the bar);
* ``OFF_ROWS[s]``: 2 rows, the change per checker of side ``s`` borne off;
* b1 (one row), W2 output-major (5 rows), b2 (5 values).

The search scores a roll's plays with ``prune_values``: each play's first layer from the
position rolled from (``prune_reference``, made once for its 21 rolls) and the points the
play changes, and the output layer folded into one linear value (``value_weights``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .net import N_SIDE, point_unit

N_PRUNE_INPUTS = 2 * N_SIDE  # 196: per side 24 points x 4 units, bar, borne off
PRUNE_HIDDEN = 16
_COUNTS = 16  # checkers a point can hold: 0..15
_H = PRUNE_HIDDEN
OFF_AT = 2 * 25 * _COUNTS * _H
B1_AT = OFF_AT + 2 * _H
W2_AT = B1_AT + _H
B2_AT = W2_AT + 5 * _H
KERNEL_SIZE = B2_AT + 5


def kernel_layout(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """Python helper: the kernel's layout (module doc) of a net with W1 (196, H) input-major,
    b1 (H,), W2 (5, H) output-major and b2 (5,), H = ``PRUNE_HIDDEN``."""
    if w1.shape != (N_PRUNE_INPUTS, _H) or b1.shape != (_H,) or w2.shape != (5, _H) \
            or b2.shape != (5,):
        raise ValueError(f"a pruning net must be {N_PRUNE_INPUTS}-{_H}-5")
    rows = np.zeros((2, 25, _COUNTS, _H))
    for s in range(2):
        base = s * N_SIDE
        for c in range(_COUNTS):
            for i in range(24):
                units = np.array([point_unit(c, u) for u in range(4)])
                rows[s, i, c] = units @ w1[base + 4 * i:base + 4 * i + 4]
            rows[s, 24, c] = c / 2 * w1[base + 96]
    off = np.stack([w1[97] / 15.0, w1[N_SIDE + 97] / 15.0])
    return np.concatenate([rows.ravel(), off.ravel(), b1, w2.ravel(), b2]).astype(np.float64)


@njit(cache=True, nogil=True)
def prune_inputs(board, out):
    """``out[0:196]``: the pruning net's inputs of ``board`` seen by row 0 (on roll): the
    first 196 inputs of the full net's encoding (points' units, bar / 2, off / 15)."""
    for s in range(2):
        base = s * N_SIDE
        left = 0
        for i in range(25):
            c = np.int64(board[s, i])
            left += c
            if i < 24:
                for u in range(4):
                    out[base + 4 * i + u] = point_unit(c, u)
        out[base + 96] = board[s, 24] * 0.5
        out[base + 97] = (15 - left) / 15.0


@njit(cache=True, nogil=True, inline="always")
def _point_row(start, s, i, c):
    return start + ((s * 25 + i) * _COUNTS + c) * _H


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def prune_reference(board, params, start, z):
    """``z``: the pruning net's first layer (before the sigmoid) for ``board`` in full, the
    reference that ``_add_changes`` updates for the boards near it."""
    for j in range(_H):
        z[j] = params[start + B1_AT + j]
    for s in range(2):
        left = 0
        for i in range(25):
            c = np.int64(board[s, i])
            left += c
            row = _point_row(start, s, i, c)
            for j in range(_H):
                z[j] += params[row + j]
        for j in range(_H):
            z[j] += (15 - left) * params[start + OFF_AT + s * _H + j]


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _add_changes(board, reference, params, start, z):
    """``z`` += the first layer's change from ``reference`` to ``board``: a row difference
    per point that differs (gathered into a bit mask without a branch first, as the full
    net's ``_add_point_changes``), and the checkers borne off since."""
    for s in range(2):
        changed = np.int64(0)
        for i in range(25):
            changed |= np.int64(board[s, i] != reference[s, i]) << i
        fewer = 0  # checkers fewer than on the reference: borne off since
        while changed:
            i = trailing_zeros(changed)
            changed &= changed - 1
            c = np.int64(board[s, i])
            r = np.int64(reference[s, i])
            fewer += r - c
            now = _point_row(start, s, i, c)
            was = _point_row(start, s, i, r)
            for j in range(_H):
                z[j] += params[now + j] - params[was + j]
        if fewer != 0:
            for j in range(_H):
                z[j] += fewer * params[start + OFF_AT + s * _H + j]


@njit(cache=True, nogil=True, inline="always")
def _hidden(x):
    return 0.5 + 0.5 * x / (1.0 + abs(x))


@njit(cache=True, nogil=True, error_model="numpy")
def prune_outputs(count, boards, params, start, out):
    """``out[i]``: the pruning net's five (linear) outputs for result ``boards[i]`` (the
    mover still row 1) from the next player's side (row 0 on roll), each from the first
    board's first layer and its changed points (tests and training tools; the search
    scores with ``prune_values``)."""
    z_first = np.empty(_H)
    z = np.empty(_H)
    prune_reference(boards[0], params, start, z_first)
    for b in range(count):
        z[:] = z_first
        _add_changes(boards[b], boards[0], params, start, z)
        for k in range(5):
            total = params[start + B2_AT + k]
            row = start + W2_AT + k * _H
            for j in range(_H):
                total += params[row + j] * _hidden(z[j])
            out[b, k] = total


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def value_weights(coefficients, params, start, w):
    """A linear value of the five outputs, ``coefficients[0] + coefficients[1:6] . outputs``,
    as one of the hidden units: ``w`` = its weight on each unit; returns its constant. The
    output layer folds away (a screen needs only the value)."""
    constant = coefficients[0]
    for k in range(5):
        constant += coefficients[1 + k] * params[start + B2_AT + k]
    for j in range(_H):
        total = 0.0
        for k in range(5):
            total += coefficients[1 + k] * params[start + W2_AT + k * _H + j]
        w[j] = total
    return constant


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def prune_values(count, boards, reference, z_reference, params, start, constant, w, z, out):
    """``out[i, 0]``: the value ``constant + w . hidden`` (``value_weights``) of result
    ``boards[i]``, its first layer from ``z_reference`` (``prune_reference`` of
    ``reference``, a board a few points away: the position rolled from) and its changes.
    ``z`` is scratch of ``PRUNE_HIDDEN`` values."""
    for b in range(count):
        for j in range(_H):
            z[j] = z_reference[j]
        _add_changes(boards[b], reference, params, start, z)
        total = constant
        for j in range(_H):
            total += w[j] * _hidden(z[j])
        out[b, 0] = total
