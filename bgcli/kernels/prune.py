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
"""

from __future__ import annotations

import numpy as np
from numba import njit

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


@njit(cache=True, nogil=True, error_model="numpy")
def prune_outputs(count, boards, params, start, out):
    """``out[i]``: the pruning net's five (linear) outputs for result ``boards[i]`` (the
    mover still row 1) from the next player's side (row 0 on roll). The first layer is
    summed in full for the first board, then by each board's changed points."""
    z_first = np.empty(_H)
    z = np.empty(_H)
    h = np.empty(_H)
    first = boards[0]
    for j in range(_H):
        z_first[j] = params[start + B1_AT + j]
    for s in range(2):
        left = 0
        for i in range(25):
            c = np.int64(first[s, i])
            left += c
            row = _point_row(start, s, i, c)
            for j in range(_H):
                z_first[j] += params[row + j]
        for j in range(_H):
            z_first[j] += (15 - left) * params[start + OFF_AT + s * _H + j]
    for b in range(count):
        board = boards[b]
        for j in range(_H):
            z[j] = z_first[j]
        if b > 0:
            for s in range(2):
                fewer = 0  # checkers fewer than on the first board: borne off since
                for i in range(25):
                    c = np.int64(board[s, i])
                    r = np.int64(first[s, i])
                    if c != r:
                        fewer += r - c
                        now = _point_row(start, s, i, c)
                        was = _point_row(start, s, i, r)
                        for j in range(_H):
                            z[j] += params[now + j] - params[was + j]
                if fewer != 0:
                    for j in range(_H):
                        z[j] += fewer * params[start + OFF_AT + s * _H + j]
        for j in range(_H):
            h[j] = 0.5 + 0.5 * z[j] / (1.0 + abs(z[j]))
        for k in range(5):
            total = params[start + B2_AT + k]
            row = start + W2_AT + k * _H
            for j in range(_H):
                total += params[row + j] * h[j]
            out[b, k] = total
