"""The luck of a roll, for variance-reduced playouts (``playout.play_trial``).

Before each roll the playout values the best play of each of the 21 distinct rolls with the
evaluator (the heuristic for the random policy); the luck of the roll actually played is its
value less the probability-weighted mean over the 21. Whatever the value function, the
luck's expectation given the history is exactly zero, so subtracting the summed luck from a
trial's outcome leaves the mean unbiased (a better value function removes more noise). So
every shortcut here is free to change the values, as long as the same function values all
21 rolls and the mean weighs them 1/36 and 2/36.

What makes it cheaper than 21 play choices done one by one (``net.net_choose``):

* one set of scratch arrays for the whole game, and no reference counting in the net's
  loops (``net.net_choose_into``: the counts are atomic instructions, they were a quarter
  of the time);
* the net's incremental hidden layer keeps one reference board for all 21 rolls of a
  position: every play of every roll is a few points away from the position before the
  roll, so only the first play of the first roll (per net: contact, race) is evaluated in
  full, where each roll had one full evaluation before;
* no luck at all is measured before a roll whose position is already *settled*: each of
  the evaluator's five probabilities there within ``SETTLED`` of 0 or of 1 (a race or a
  bear-off long decided, a gammon certain or impossible). Whether a ply counts depends
  only on the position before the roll, so the luck of the other plies keeps its zero
  expectation and the estimate stays unbiased; what is lost is the luck of those rolls,
  which the evaluator itself rates at almost nothing. One evaluation of the position
  decides it, against 21 play choices;
* with the net (0.8.0) each roll is valued as the n-ply search values a reply
  (``screened_roll_values``, as ``search._reply``): in contact the pruning net screens the
  roll's plays and the full net scores only those it keeps, as gnubg's
  ``FindBestMoveInEval`` does. The value is then the best of the kept plays, sometimes a
  little below the best of all: the same function for all 21 rolls, so still unbiased.
  It costs about 0.8x the unscreened luck's time per game and leaves the SD per game
  within 1% (``scripts/experiments/screened_luck.py``);
* (0.9.2) fewer plays scored in full: in contact the pruning net's best ``CONTACT_KEEP``
  (5) where the search keeps ``5 + log2(plays)``, and in races the best ``RACE_KEEP`` (2)
  by the *linearized* net: once per position, the gradient of the mover's equity with
  respect to the race net's hidden layer at the position rolled from, folded into one
  number per point, side and checker count (``linearize``); a play's screen value is a
  sum over the few points it changes (``linear_screen``). What the smaller screens miss
  adds 0.004-0.006 to a variance-reduced game's variance (0.09 and 0.043 today, about
  +6% and +10%) for 1.39x less luck time: about 0.80x and 0.85x the core-seconds to a
  standard error from the opening and the middle game
  (``scripts/experiments/linear_screen.py``, ``docs/benchmarks.md``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .evaluate import (ONESIDED_SLOT, POLICY_NET, PRUNE_SLOT, ROLL_WEIGHTS, ROLLS, both_home,
                       equity, evaluate, swap_sides, table_start)
from .movegen import generate_plays
from .net import (B2_AT, BAR, N_HIDDEN, N_SIDE, W2_AT, drop_references, extra_input,
                  is_contact, net_choose_into, slot_offset)
from .search import (MONEY_VALUES, _know, _mover_coefficients, _screen, best_child,
                     keep_best, net_children)

#: How close to 0 or 1 every probability of a settled position is (module docstring).
SETTLED = 1e-3
#: How many plays of a roll the full net scores for the luck: the best of the pruning net
#: in contact, of the linearized net in races (module docstring).
CONTACT_KEEP = 5
RACE_KEEP = 2


@njit(cache=True, nogil=True)
def best_value(count, policy, params, weights, boards, probs, mover_best, choice):
    """The probabilities, from the mover's side, of the play the evaluator values most among
    the ``count`` result boards (mover = row 1) into ``mover_best``; its index. The net
    values with ``weights`` (its float32 playout copy) and the scratch ``choice``
    (``net.choice_buffers``), except in bear-offs (both sides home after the first play, so
    after every play of a side that was home), which ``evaluate`` scores from the bear-off
    tables in ``params``: the values ``playout``'s own choice of play uses."""
    if policy == POLICY_NET and not (table_start(params, ONESIDED_SLOT) != 0
                                     and both_home(boards[0])):
        index = net_choose_into(count, weights, boards, probs, True, choice)
        swap_sides(probs, mover_best)
        return index
    best = -1e9
    index = 0
    for i in range(count):
        evaluate(boards[i], 0, policy, params, probs)  # from the next player's side
        value = -equity(probs)
        if value > best:
            best = value
            index = i
            swap_sides(probs, mover_best)
    return index


@njit(cache=True, nogil=True)
def settled(board, policy, params, probs):
    """Whether the position (row 1 on roll) is settled: each of the evaluator's five
    probabilities for it (into ``probs``) within ``SETTLED`` of 0 or of 1."""
    evaluate(board, 1, policy, params, probs)
    for k in range(5):
        if SETTLED < probs[k] < 1.0 - SETTLED:
            return False
    return True


@njit(cache=True, nogil=True)
def roll_values(board, d1, d2, policy, params, weights, buffers, choice, probs, mover_value,
                mean_value, actual_value):
    """Before rolling ``d1``-``d2`` on ``board`` (row 1 on roll): the mover's value of the
    roll into ``actual_value`` and the mean value of the 21 rolls into ``mean_value`` (five
    probabilities each, mover's side); both zero when the position is ``settled``. ``buffers`` is ``movegen.new_buffers()``, ``choice``
    ``net.choice_buffers(weights)``, ``probs`` and ``mover_value`` scratch of 5."""
    boards, steps, keys, table, work = buffers
    if settled(board, policy, params, probs):  # no luck worth measuring: zero
        for k in range(5):
            mean_value[k] = 0.0
            actual_value[k] = 0.0
        return
    drop_references(choice)  # a new position: a new reference board (module docstring)
    for k in range(5):
        mean_value[k] = 0.0
    for r in range(21):
        a = ROLLS[r, 0]
        b = ROLLS[r, 1]
        count, _ = generate_plays(board, a, b, boards, steps, keys, table, work)
        best_value(count, policy, params, weights, boards, probs, mover_value, choice)
        for k in range(5):
            mean_value[k] += ROLL_WEIGHTS[r] * mover_value[k]
        if (a == d1 and b == d2) or (a == d2 and b == d1):
            for k in range(5):
                actual_value[k] = mover_value[k]


@njit(cache=True, nogil=True, error_model="numpy")
def screened_roll_values(board, d1, d2, params, weights, work, linear, probs, mover_value,
                         mean_value, actual_value):
    """``roll_values`` for the net policy, each roll valued by the best of the plays the
    full net scores after a screen (module docstring): in contact, with the pruning net in
    ``params``, the pruning net's best ``CONTACT_KEEP``; in races the linearized net's
    best ``RACE_KEEP``. ``work``: ``search.work_buffers(True, weights)``; ``linear``:
    ``linear_buffers()``; ``weights`` the playout's folded float32 copy."""
    if settled(board, POLICY_NET, params, probs):  # no luck worth measuring: zero
        for k in range(5):
            mean_value[k] = 0.0
            actual_value[k] = 0.0
        return
    level = work[8][1]
    prune_at = table_start(params, PRUNE_SLOT)
    _know(board, prune_at, params, weights, level)
    contact = is_contact(board, 0)
    linearized = not contact and linearize(weights, level, linear)
    for k in range(5):
        mean_value[k] = 0.0
    for r in range(21):
        a = ROLLS[r, 0]
        b = ROLLS[r, 1]
        _screened_best(board, a, b, contact, linearized, params, prune_at, weights, work,
                       linear[0], mover_value)
        for k in range(5):
            mean_value[k] += ROLL_WEIGHTS[r] * mover_value[k]
        if (a == d1 and b == d2) or (a == d2 and b == d1):
            for k in range(5):
                actual_value[k] = mover_value[k]


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _screened_best(board, a, b, contact, linearized, params, prune_at, weights, work, table,
                   out):
    """The mover's probabilities (``out``) after the best play of roll ``a``-``b`` among
    those the screen of ``screened_roll_values`` keeps."""
    plays, steps, keys, moves_table, moves, probs, screened, _, levels = work
    level = levels[1]
    count, _ = generate_plays(board, a, b, plays, steps, keys, moves_table, moves)
    keep = min(count, CONTACT_KEEP if contact else RACE_KEEP)
    candidates = plays
    if keep < count and contact and prune_at != 0:
        _screen(count, keep, board, plays, 0, MONEY_VALUES, params, prune_at, work, level)
        candidates = screened
        count = keep
    elif keep < count and linearized:
        linear_screen(count, keep, board, plays, table, work)
        candidates = screened
        count = keep
    net_children(count, candidates, params, weights, True, probs, level[0], level[2][1])
    swap_sides(probs[best_child(count, MONEY_VALUES, 0, probs)], out)


@njit(cache=True, nogil=True)
def linear_buffers():
    """The scratch of ``linearize``: (table, gradient, coefficients)."""
    return np.zeros((2, 25, 16)), np.empty(N_HIDDEN), np.empty(6)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def linearize(weights, level, linear):
    """``linear[0][s, i, c]``: the mover's value, linearized at the position rolled from
    (the reference that ``search._know`` made in ``level``), of ``c`` checkers of board
    row ``s`` on point ``i`` (24: the bar), with the folded float32 ``weights`` (whose
    point rows hold the borne-off, pip and timing inputs too). False when the position has
    no net reference (a side has no checker left). For races only (``screened_roll_values``): the
    one-layer race net's gradient (a contact net's second layer is not followed)."""
    table, gradient, coefficients = linear
    choice, known = level[0], level[2]
    net = known[1]
    if net < 0:
        return False
    z = choice[5][net]  # the reference's hidden pre-activations
    offset = slot_offset(weights, net)
    _mover_coefficients(MONEY_VALUES, 0, coefficients)
    for j in range(N_HIDDEN):
        gradient[j] = 0.0
    for k in range(5):  # d(mover's value)/d(hidden unit), through the logistic outputs
        a = weights[offset + B2_AT + k]
        for j in range(N_HIDDEN):
            a += weights[offset + W2_AT + k * N_HIDDEN + j] * (0.5 + 0.5 * z[j] / (1.0 + abs(z[j])))
        y = 1.0 / (1.0 + np.exp(-a))
        scale = coefficients[1 + k] * y * (1.0 - y)
        for j in range(N_HIDDEN):
            gradient[j] += scale * weights[offset + W2_AT + k * N_HIDDEN + j]
    for j in range(N_HIDDEN):  # ... and through the rational sigmoid: d/dz = 0.5 / (1+|z|)^2
        slope = 1.0 + abs(z[j])
        gradient[j] *= 0.5 / (slope * slope)
    for s in range(2):
        for i in range(24):  # four inputs a point: 1, 2, 3 checkers, (c - 3) / 2 above
            row = offset + (s * N_SIDE + 4 * i) * N_HIDDEN
            one = _dot(weights, row, gradient)
            two = _dot(weights, row + N_HIDDEN, gradient)
            three = _dot(weights, row + 2 * N_HIDDEN, gradient)
            more = _dot(weights, row + 3 * N_HIDDEN, gradient)
            table[s, i, 0] = 0.0
            table[s, i, 1] = one
            table[s, i, 2] = one + two
            for c in range(3, 16):
                table[s, i, c] = one + two + three + (c - 3) * 0.5 * more
        bar = _dot(weights, offset + extra_input(s, BAR) * N_HIDDEN, gradient)
        for c in range(16):  # the bar input: checkers / 2
            table[s, 24, c] = c * 0.5 * bar
    return True


@njit(cache=True, nogil=True, inline="always")
def _dot(weights, row, gradient):
    total = 0.0
    for j in range(N_HIDDEN):
        total += weights[row + j] * gradient[j]
    return total


@njit(cache=True, nogil=True, _nrt=False)
def linear_screen(count, keep, board, plays, table, work):
    """Copy the ``keep`` plays of highest linearized value (``table``, ``linearize``) to
    ``screened`` in the move generator's order, as ``search._screen`` does with the pruning
    net (ties: the earlier play); the values go to column 0 of ``work``'s ``probs``."""
    _, _, _, _, _, scores, screened, picked, _ = work
    linear_scores(count, board, plays, table, scores)
    keep_best(count, keep, plays, scores, picked, screened)


@njit(cache=True, nogil=True, _nrt=False)
def linear_scores(count, board, plays, table, scores):
    """``scores[b, 0]``: the linearized value (``table``) of play ``b`` from ``board``, a
    sum over the points it changes."""
    for b in range(count):
        total = 0.0
        for s in range(2):
            changed = np.int64(0)  # bit i: point i differs from the position rolled from
            for i in range(25):
                changed |= np.int64(plays[b, s, i] != board[s, i]) << i
            while changed:
                i = trailing_zeros(changed)
                changed &= changed - 1
                total += table[s, i, plays[b, s, i]] - table[s, i, board[s, i]]
        scores[b, 0] = total
