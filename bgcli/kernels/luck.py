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
  (``screened_roll_values``, ``search._outcome1``): in contact the pruning net screens the
  roll's plays and the full net scores only those it keeps, as gnubg's
  ``FindBestMoveInEval`` does. The value is then the best of the kept plays, sometimes a
  little below the best of all: the same function for all 21 rolls, so still unbiased.
  It costs about 0.8x the unscreened luck's time per game and leaves the SD per game
  within 1% (``scripts/experiments/screened_luck.py``).
"""

from __future__ import annotations

from numba import njit

from .evaluate import (ONESIDED_SLOT, POLICY_NET, ROLL_WEIGHTS, ROLLS, both_home,
                       equity, evaluate, swap_sides, table_start)
from .movegen import generate_plays
from .net import drop_references, net_choose_into
from .search import MONEY_VALUES, _outcome1

#: How close to 0 or 1 every probability of a settled position is (module docstring).
SETTLED = 1e-3


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


@njit(cache=True, nogil=True)
def screened_roll_values(board, d1, d2, policy, params, weights, work, probs, mover_value,
                         mean_value, actual_value):
    """``roll_values`` by the n-ply search's reply (``search._outcome1``): in contact, with
    the pruning net in ``params``, the full net scores only the plays its screen keeps
    (gnubg's ``FindBestMoveInEval``), the rest as ``roll_values``. ``work``:
    ``search.work_buffers(True, weights)``; ``weights`` the playout's folded float32 copy."""
    if settled(board, policy, params, probs):  # no luck worth measuring: zero
        for k in range(5):
            mean_value[k] = 0.0
            actual_value[k] = 0.0
        return
    for k in range(5):
        mean_value[k] = 0.0
    for r in range(21):
        _outcome1(board, r, 0, MONEY_VALUES, policy, params, weights, True, work, mover_value)
        for k in range(5):
            mean_value[k] += ROLL_WEIGHTS[r] * mover_value[k]
        a = ROLLS[r, 0]
        b = ROLLS[r, 1]
        if (a == d1 and b == d2) or (a == d2 and b == d1):
            for k in range(5):
                actual_value[k] = mover_value[k]
