"""A small neural evaluator: input encoding, forward pass, gradients and TD(lambda) updates.

Two one-hidden-layer networks share one input encoding: a *contact* net and a *race* net,
picked by whether the two sides' checkers have passed each other (the same test as the
heuristic). Both see the position from the side on roll (``board[me]``) and give five
sigmoid outputs in gnubg's order (win, win gammon, win backgammon, lose gammon, lose
backgammon). At evaluation the outputs are made consistent: a gammon is at most a win, a
backgammon at most a gammon, and a gammon that can no longer happen (the loser has borne a
checker off) is zero. Training works on the raw sigmoids.

Input encoding (``N_INPUTS`` = 204 values), for side ``s`` = 0 (on roll) and 1 (opponent),
``base = 98 * s``, each side in its own point numbering (index 0 = its 1-point):

* ``base + 4 * i + u``, point ``i`` 0..23, Tesauro's units for ``n`` checkers:
  ``u=0``: n >= 1, ``u=1``: n >= 2, ``u=2``: n >= 3, ``u=3``: (n - 3) / 2 when n > 3;
* ``base + 96``: checkers on the bar / 2;  ``base + 97``: checkers borne off / 15;
* ``196 + 4 * s + f``: hand-made features: ``f=0`` pip count / 167, ``f=1`` blots exposed to
  an opposing checker behind them / 5, ``f=2`` home-board points made / 6,
  ``f=3`` longest prime (consecutive made points) / 6.

Weight layout: ``params`` is one flat float64 array holding the contact net then the race net,
``NET_SIZE`` values each (``N_HIDDEN`` = H hidden units, N inputs):

* ``[0, N*H)``: W1, input-major (``W1[i, j]`` at ``i * H + j``: input i -> hidden j), so the
  sparse forward pass adds one contiguous row per nonzero input;
* ``[N*H, N*H + H)``: b1;
* ``[N*H + H, N*H + 6H)``: W2, output-major (``W2[k, j]`` at ``k * H + j``);
* ``[N*H + 6H, N*H + 6H + 5)``: b2.

Hidden units use a rational sigmoid ``0.5 + 0.5 * z / (1 + |z|)`` (no ``exp``; it
vectorises); the five outputs use the logistic function.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

N_SIDE = 98
N_FEATURES = 4
N_INPUTS = 2 * N_SIDE + 2 * N_FEATURES  # 204
N_HIDDEN = 80
N_OUTPUTS = 5
W1_SIZE = N_INPUTS * N_HIDDEN
B1_AT = W1_SIZE
W2_AT = B1_AT + N_HIDDEN
B2_AT = W2_AT + N_OUTPUTS * N_HIDDEN
NET_SIZE = B2_AT + N_OUTPUTS
CONTACT, RACE = 0, 1
PARAMS_SIZE = 2 * NET_SIZE
MAX_NONZERO = N_INPUTS

_PIP_SCALE = 1.0 / 167.0


@njit(cache=True, nogil=True, inline="always")
def _hidden_act(z):
    return 0.5 + 0.5 * z / (1.0 + abs(z))


@njit(cache=True, nogil=True, inline="always")
def _logistic(z):
    return 1.0 / (1.0 + math.exp(-z))


@njit(cache=True, nogil=True)
def is_contact(board, me):
    """Whether some checker of one side still has an opposing checker in front of it."""
    my_rear = -1
    your_rear = -1
    for index in range(25):
        if board[me, index] > 0:
            my_rear = index
        if board[1 - me, index] > 0:
            your_rear = index
    return not (my_rear + 1 < 24 - your_rear)


@njit(cache=True, nogil=True)
def encode(board, me, idx, val):
    """Write the nonzero inputs of ``board`` seen by ``me`` into ``idx``/``val``; their count."""
    n = 0
    for s in range(2):
        side = me if s == 0 else 1 - me
        other = 1 - side
        base = s * N_SIDE
        left = 0
        pips = 0
        blots = 0
        home = 0
        prime = 0
        best_prime = 0
        for i in range(24):
            c = np.int64(board[side, i])
            left += c
            pips += c * (i + 1)
            if c >= 1:
                idx[n] = base + 4 * i
                val[n] = 1.0
                n += 1
                if c >= 2:
                    idx[n] = base + 4 * i + 1
                    val[n] = 1.0
                    n += 1
                    prime += 1
                    if prime > best_prime:
                        best_prime = prime
                    if i < 6:
                        home += 1
                    if c >= 3:
                        idx[n] = base + 4 * i + 2
                        val[n] = 1.0
                        n += 1
                        if c > 3:
                            idx[n] = base + 4 * i + 3
                            val[n] = (c - 3) * 0.5
                            n += 1
                else:
                    prime = 0
                    # a blot: exposed when an opposing checker is behind it (their index
                    # 24 - i .. bar, i.e. our points below it)
                    for facing in range(24 - i, 25):
                        if board[other, facing] > 0:
                            blots += 1
                            break
            else:
                prime = 0
        bar = np.int64(board[side, 24])
        left += bar
        pips += 25 * bar
        if bar > 0:
            idx[n] = base + 96
            val[n] = bar * 0.5
            n += 1
        if left < 15:
            idx[n] = base + 97
            val[n] = (15 - left) / 15.0
            n += 1
        f = 2 * N_SIDE + s * N_FEATURES
        if pips > 0:
            idx[n] = f
            val[n] = pips * _PIP_SCALE
            n += 1
        if blots > 0:
            idx[n] = f + 1
            val[n] = blots / 5.0
            n += 1
        if home > 0:
            idx[n] = f + 2
            val[n] = home / 6.0
            n += 1
        if best_prime > 0:
            idx[n] = f + 3
            val[n] = best_prime / 6.0
            n += 1
    return n


@njit(cache=True, nogil=True, error_model="numpy")
def forward(params, offset, idx, val, n, z, h, y):
    """One net (at ``params[offset:]``) on the sparse input: pre-activations ``z``, hidden
    ``h`` and raw outputs ``y``."""
    for j in range(N_HIDDEN):
        z[j] = params[offset + B1_AT + j]
    for t in range(n):
        row = offset + idx[t] * N_HIDDEN
        v = val[t]
        for j in range(N_HIDDEN):
            z[j] += v * params[row + j]
    _outputs(params, offset, z, h, y)


@njit(cache=True, nogil=True, error_model="numpy")
def _outputs(params, offset, z, h, y):
    """Hidden activations ``h`` and raw outputs ``y`` from the pre-activations ``z``."""
    for j in range(N_HIDDEN):
        h[j] = 0.5 + 0.5 * z[j] / (1.0 + abs(z[j]))
    for k in range(N_OUTPUTS):
        a = params[offset + B2_AT + k]
        w = offset + W2_AT + k * N_HIDDEN
        for j in range(N_HIDDEN):
            a += params[w + j] * h[j]
        y[k] = _logistic(a)


@njit(cache=True, nogil=True)
def outcome(board, me, out):
    """A finished game's five 0/1 indicators for ``me`` (the side with no checkers won)."""
    winner = me
    for index in range(25):
        if board[me, index] > 0:
            winner = 1 - me
            break
    loser = 1 - winner
    left = 0
    in_home = 0
    for index in range(25):
        left += board[loser, index]
        if index >= 18:
            in_home += board[loser, index]
    gammon = 1.0 if left == 15 else 0.0
    backgammon = 1.0 if left == 15 and in_home > 0 else 0.0
    for k in range(5):
        out[k] = 0.0
    if winner == me:
        out[0], out[1], out[2] = 1.0, gammon, backgammon
    else:
        out[3], out[4] = gammon, backgammon


@njit(cache=True, nogil=True)
def _game_over(board):
    for side in range(2):
        done = True
        for index in range(25):
            if board[side, index] > 0:
                done = False
                break
        if done:
            return True
    return False


@njit(cache=True, nogil=True)
def make_consistent(board, me, y, out):
    """Raw outputs -> consistent cumulative probabilities (see module docstring)."""
    my_left = 0
    your_left = 0
    for index in range(25):
        my_left += board[me, index]
        your_left += board[1 - me, index]
    win = y[0]
    out[0] = win
    out[1] = min(y[1], win) if your_left == 15 else 0.0
    out[2] = min(y[2], out[1])
    out[3] = min(y[3], 1.0 - win) if my_left == 15 else 0.0
    out[4] = min(y[4], out[3])


@njit(cache=True, nogil=True)
def net_probabilities(board, me, params, out):
    """The net's five consistent probabilities for ``me`` on roll (exact when over)."""
    if _game_over(board):
        outcome(board, me, out)
        return
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    buf = np.empty(MAX_NONZERO + 2 * N_HIDDEN + N_OUTPUTS)  # one allocation, then views
    val = buf[:MAX_NONZERO]
    z = buf[MAX_NONZERO:MAX_NONZERO + N_HIDDEN]
    h = buf[MAX_NONZERO + N_HIDDEN:MAX_NONZERO + 2 * N_HIDDEN]
    y = buf[MAX_NONZERO + 2 * N_HIDDEN:]
    n = encode(board, me, idx, val)
    offset = 0 if is_contact(board, me) else NET_SIZE
    forward(params, offset, idx, val, n, z, h, y)
    make_consistent(board, me, y, out)


@njit(cache=True, nogil=True, error_model="numpy")
def add_gradient(params, offset, idx, val, n, z, h, y, coef, grad):
    """``grad += sum_k coef[k] * d y_k / d weights`` for one net (``grad`` is laid out like
    ``params``; only the net at ``offset`` is touched)."""
    dh = np.zeros(N_HIDDEN)
    for k in range(N_OUTPUTS):
        c = coef[k] * y[k] * (1.0 - y[k])  # through the logistic output
        if c == 0.0:
            continue
        grad[offset + B2_AT + k] += c
        w = offset + W2_AT + k * N_HIDDEN
        for j in range(N_HIDDEN):
            grad[w + j] += c * h[j]
            dh[j] += c * params[w + j]
    for j in range(N_HIDDEN):
        d = 1.0 + abs(z[j])
        dh[j] *= 0.5 / (d * d)  # d h / d z of the rational sigmoid
        grad[offset + B1_AT + j] += dh[j]
    for t in range(n):
        row = offset + idx[t] * N_HIDDEN
        v = val[t]
        for j in range(N_HIDDEN):
            grad[row + j] += v * dh[j]


def init_params(seed: int) -> np.ndarray:
    """Fresh random weights (small, seeded); output biases start at typical outcome rates."""
    rng = np.random.default_rng(seed)
    params = np.zeros(PARAMS_SIZE)
    for net in (CONTACT, RACE):
        o = net * NET_SIZE
        params[o:o + W1_SIZE] = rng.uniform(-0.1, 0.1, W1_SIZE)
        params[o + W2_AT:o + B2_AT] = rng.uniform(-0.1, 0.1, N_OUTPUTS * N_HIDDEN)
        params[o + B2_AT:o + NET_SIZE] = [0.0, -1.5, -4.0, -1.5, -4.0]
    return params


@njit(cache=True, nogil=True, error_model="numpy")
def net_choose(count, params, boards, probs):
    """Greedy choice among ``count`` result boards (the mover still row 1): the index of the
    play the net values most for the mover, and ``probs`` = the net's probabilities of that
    result from the next player's side (row 0 on roll), as ``net_probabilities`` gives them.

    The plays of one roll differ in a few points only, so each hidden layer is computed
    incrementally: the first result of each net (contact, race) is evaluated in full, and
    every later one from it, adding ``(x - x_ref) * W1`` only for the inputs that differ
    (typically 10-20 of about 50 nonzero ones). Same function, about half the work."""
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    x = np.zeros(N_INPUTS)
    x_ref = np.zeros((2, N_INPUTS))
    z_ref = np.empty((2, N_HIDDEN))
    have_ref = np.zeros(2, dtype=np.bool_)
    z = np.empty(N_HIDDEN)
    h = np.empty(N_HIDDEN)
    y = np.empty(N_OUTPUTS)
    candidate = np.empty(5)
    best = -1e9
    choice = 0
    for i in range(count):
        board = boards[i]
        if _game_over(board):
            outcome(board, 0, candidate)
        else:
            net = CONTACT if is_contact(board, 0) else RACE
            offset = net * NET_SIZE
            n = encode(board, 0, idx, val)
            for t in range(N_INPUTS):
                x[t] = 0.0
            for t in range(n):
                x[idx[t]] = val[t]
            if not have_ref[net]:
                forward(params, offset, idx, val, n, z, h, y)
                for j in range(N_HIDDEN):
                    z_ref[net, j] = z[j]
                for t in range(N_INPUTS):
                    x_ref[net, t] = x[t]
                have_ref[net] = True
            else:
                for j in range(N_HIDDEN):
                    z[j] = z_ref[net, j]
                for t in range(N_INPUTS):
                    d = x[t] - x_ref[net, t]
                    if d != 0.0:
                        row = offset + t * N_HIDDEN
                        for j in range(N_HIDDEN):
                            z[j] += d * params[row + j]
                _outputs(params, offset, z, h, y)
            make_consistent(board, 0, y, candidate)
        value = -(2.0 * candidate[0] - 1.0 + candidate[1] - candidate[3] + candidate[2]
                  - candidate[4])
        if value > best:
            best = value
            choice = i
            for k in range(5):
                probs[k] = candidate[k]
    return choice
