"""n-ply search: a position's probabilities looking 0 to 3 plies ahead, and every play of a
roll ranked at that depth through gnubg's move filters.

A position's n-ply probabilities (``node_probabilities``) are gnubg's: for each of the 21
distinct rolls of the player on roll (weighted 1/36 or 2/36), the play the static (0-ply)
evaluator values most is made, and the position after it is evaluated at n - 1 ply from the
other side; the 21 results are averaged. Finished games and positions in the exact two-sided
bear-off table are scored exactly, at any depth. That favourite is found as gnubg's
``FindBestMoveInEval`` finds it: when ``params`` holds a pruning net (``PRUNE_SLOT``, the
net policy) and the position is in contact, a roll with more plays than ``screen_size``
keeps has them all scored by the pruning net (``bgcli.kernels.prune``) and only the best
``5 + floor(log2(plays))`` by the full net.

Ranking a roll's plays at n ply (``rank_search``, and ``choose_play`` inside playouts) goes
through a move filter, as gnubg's ``FindnSaveBestMoves``: stage k = 0 .. n - 1 has a row
``(accept, extra, threshold)``. A stage with ``accept < 0`` is skipped; otherwise every play
still in the running is evaluated at k ply, sorted (stably) best first, and the best
``accept`` are kept plus up to ``extra`` more whose value is within ``threshold`` of the
best. The survivors are evaluated at n ply. When a stage leaves one play, the search stops
there (gnubg too): that play's figures stay those of the stage that kept it. ``depth[i]``
says how deep play i was evaluated.

Values. Every choice (the mover's play at each ply, the filters' order) maximises a LINEAR
value of the mover's five probabilities: ``values[side, 0] + values[side, 1:6] . probs``,
with ``side`` 0 for the root player (on roll at the searched position) and 1 for the
opponent. Money cubeless equity is ``MONEY_VALUES`` for both; a match score passes the
coefficients of match winning chances instead (thresholds are then in those units).

Evaluators: ``policy`` and ``params`` as ``bgcli.kernels.evaluate.evaluate``. The net policy
scores the plays of a roll incrementally (as ``net.net_choose``) with ``weights``: ``params``
itself (``folded`` False: float64, the evaluator's own numbers to ~1e-15) or, inside
playouts, ``net.playout_weights(params)`` (float32, ``folded`` True). Bear-offs go to the
tables in ``params`` through ``evaluate``.

Threads: ``rank_search`` and ``root_probabilities`` run the plays (or the 21 rolls) of the
root in parallel, each with its own buffers, and add up in a fixed order: the numbers do not
depend on the thread count.

Speed. A 2-ply look at one play makes some 460 replies (the mover's best play of a roll),
so a reply is the unit of cost: move generation, the pruning net's screen and the full net
on the plays it keeps. Each level of the search has its own scratch (``level_buffers``),
in which the position rolled from is the reference of both nets' incremental first layers
for all 21 of its rolls (its plays are a few points away from it). Everything from a node
down (``_nodeN``, ``_outcomeN``, ``_reply`` and what they call) allocates nothing and is
compiled without reference counting (numba's ``_nrt=False``): with the nested buffers
passed to every call, the counts were a third of a reply's time.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import leading_zeros

from .evaluate import (POLICY_NET, PRUNE_SLOT, ROLL_WEIGHTS, ROLLS, TWOSIDED_SLOT,
                       _bearoff_probabilities, evaluate, heuristic_probabilities, swap_sides,
                       table_start, twosided_win)
from .movegen import MAX_PLAYS, generate_plays, new_buffers
from .net import (_ALL_EXTRAS, _LEFT, _NONLINEAR_EXTRAS, _REAR, _consistent, _fill_extras,
                  _net_slot, choice_buffers, is_contact, late_net_offset, make_reference,
                  outcome, score_from_reference)
from .prune import PRUNE_HIDDEN, prune_reference, prune_values, value_weights
from .random_play import is_finished

MAX_PLIES = 3
#: Cubeless money equity, 2 W - 1 + W(g) + W(bg) - L(g) - L(bg), for both sides.
MONEY_VALUES = np.array([[-1.0, 2.0, 1.0, 1.0, -1.0, -1.0]] * 2)

_BLOCK = 2  # root plays per parallel work item (each item allocates its own buffers)
#: The most plays the full net scores after a pruning net's screen: 5 + floor(log2(plays)).
MAX_SCREENED = 5 + MAX_PLAYS.bit_length() - 1


@njit(cache=True, nogil=True)
def work_buffers(needed, weights):
    """(boards, steps, keys, table, work, probs, screened, picked, levels): move
    generation's buffers, the 0-ply probabilities (or the pruning net's values) of every
    play of a roll, the boards and indices of the plays a screen keeps, and one
    ``level_buffers`` per level of the search. Tiny (same types) when not ``needed``, so a
    playout at 0 ply allocates nothing worth counting."""
    levels = (level_buffers(weights), level_buffers(weights), level_buffers(weights),
              level_buffers(weights))
    if needed:
        boards, steps, keys, table, work = new_buffers()
        return (boards, steps, keys, table, work, np.empty((MAX_PLAYS, 5)),
                np.empty((MAX_SCREENED, 2, 25), dtype=np.int8),
                np.empty(MAX_SCREENED, dtype=np.int64), levels)
    return (np.zeros((1, 2, 25), dtype=np.int8), np.full((1, 8), -1, dtype=np.int8),
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.empty((1, 5)),
            np.empty((1, 2, 25), dtype=np.int8), np.empty(1, dtype=np.int64), levels)


@njit(cache=True, nogil=True)
def level_buffers(weights):
    """The scratch of one level of the search (a node looking ``level`` plies ahead; the
    levels of one line of search never overlap): (choice, rolled_from, known, rows,
    coefficients, chosen, pair).

    The plays of every roll of a position are a few points away from the position itself,
    so it is the reference of the incremental first layers of both nets for all 21 rolls:
    ``rolled_from`` is that position, ``known[0]`` whether the references below are its,
    ``known[1]`` the full net's reference slot in ``choice`` (``net.choice_buffers``) that
    holds it (-1: none), ``rows[0]`` the pruning net's first layer of it (``rows[1:3]``:
    the screen's scratch and value weights). ``coefficients``: the mover's value as a
    linear function of the next player's probabilities; ``chosen`` and ``pair`` the node's
    own small arrays (the play made, its probabilities before and after turning)."""
    return (choice_buffers(weights), np.zeros((2, 25), dtype=np.int8),
            np.zeros(2, dtype=np.int64), np.empty((3, PRUNE_HIDDEN)), np.empty(6), np.empty((2, 25), dtype=np.int8),
            np.empty((2, 5)))


@njit(cache=True, nogil=True, inline="always")
def value_of(values, side, probs):
    """``side``'s value of its own five probabilities."""
    return (values[side, 0] + values[side, 1] * probs[0] + values[side, 2] * probs[1]
            + values[side, 3] * probs[2] + values[side, 4] * probs[3]
            + values[side, 5] * probs[4])


@njit(cache=True, nogil=True, inline="always")
def mover_value(values, side, next_probs):
    """The mover's (``side``) value of a result whose probabilities ``next_probs`` are from
    the next player's side."""
    return (values[side, 0] + values[side, 1] * (1.0 - next_probs[0])
            + values[side, 2] * next_probs[3] + values[side, 3] * next_probs[4]
            + values[side, 4] * next_probs[1] + values[side, 5] * next_probs[2])


@njit(cache=True, nogil=True, _nrt=False)
def is_exact(board, params):
    """Whether the position (row 1 on roll) needs no lookahead: over, or in the table."""
    return is_finished(board) or twosided_win(board, 1, params) >= 0.0


@njit(cache=True, nogil=True, error_model="numpy")
def static_children(count, boards, policy, params, weights, folded, out):
    """``out[i]``: the 0-ply probabilities of result ``boards[i]`` (the mover still row 1)
    from the next player's side (row 0 on roll). The net scores the plays incrementally
    (``net_children``); finished games are exact and bear-offs come from the tables."""
    if policy != POLICY_NET:
        for i in range(count):
            evaluate(boards[i], 0, policy, params, out[i])
        return
    net_children(count, boards, params, weights, folded, out, choice_buffers(weights), -1)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def net_children(count, boards, params, weights, folded, out, choice, known_net):
    """``static_children`` for the net policy with its scratch ``choice``
    (``net.choice_buffers(weights)``), as ``net.net_choose_into`` scores plays: the hidden
    layer of each result from a reference board's and the inputs that differ. The
    reference of each net (contact, race) is the first result that uses it, except that
    ``known_net`` (>= 0) names a slot of ``choice`` that already holds one (the position
    rolled from, ``_know``). Compiled without reference counting: it allocates nothing."""
    extras, have_ref, y = choice[3], choice[6], choice[9]
    for slot in range(3):
        have_ref[slot] = known_net == slot
    late = late_net_offset(weights)
    tables = table_start(params, TWOSIDED_SLOT) != 0
    live = _NONLINEAR_EXTRAS if folded else _ALL_EXTRAS
    for i in range(count):
        board = boards[i]
        result = out[i]
        if tables and _bearoff_probabilities(board, 0, params, result):
            continue
        mine, theirs = _fill_extras(board, 0, extras)
        if mine[_LEFT] == 0 or theirs[_LEFT] == 0:
            outcome(board, 0, result)
            continue
        net = _net_slot(mine[_LEFT], theirs[_LEFT], mine[_REAR], theirs[_REAR], late)
        score_from_reference(board, weights, net, live, choice)
        _consistent(mine[_LEFT], theirs[_LEFT], mine[_REAR], theirs[_REAR], y, result)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _know(board, prune_at, params, weights, level):
    """Make the position rolled from (``board``) the reference of both nets in ``level``
    (``level_buffers``), unless it already is: computed once for the 21 rolls of a node.
    The references depend on the board alone, so no number depends on what the buffers
    searched before (nor, therefore, on the thread count)."""
    choice, rolled_from, known, rows, _, _, _ = level
    if known[0] == 1:
        same = True
        for side in range(2):
            for index in range(25):
                same = same and rolled_from[side, index] == board[side, index]
        if same:
            return
    for side in range(2):
        for index in range(25):
            rolled_from[side, index] = board[side, index]
    known[0] = 1
    if prune_at != 0:
        prune_reference(board, params, prune_at, rows[0])
    extras = choice[3]
    mine, theirs = _fill_extras(board, 0, extras)  # seen as the results are: row 0 on roll
    known[1] = -1
    if mine[_LEFT] > 0 and theirs[_LEFT] > 0:
        net = _net_slot(mine[_LEFT], theirs[_LEFT], mine[_REAR], theirs[_REAR],
                        late_net_offset(weights))
        make_reference(board, weights, net, choice)
        known[1] = net


@njit(cache=True, nogil=True, inline="always")
def screen_size(count):
    """How many of ``count`` plays the full net scores after the pruning net's screen
    (gnubg's ``5 + floor(log2(count))``); all of them when that is not fewer."""
    return min(count, 5 + 63 - leading_zeros(np.uint64(count)))


@njit(cache=True, nogil=True, inline="always")
def _mover_coefficients(values, side, out):
    """``mover_value`` as coefficients: ``out[0] + out[1:6] . next_probs``."""
    out[0] = values[side, 0] + values[side, 1]
    out[1] = -values[side, 1]
    out[2] = values[side, 4]
    out[3] = values[side, 5]
    out[4] = values[side, 2]
    out[5] = values[side, 3]


@njit(cache=True, nogil=True, _nrt=False)
def keep_best(count, keep, boards, scores, picked, out):
    """Copy the ``keep`` of ``boards[:count]`` with the highest ``scores[:, 0]`` to ``out``
    in the move generator's order (ties: the earlier play), their indices to ``picked``:
    the selection of every screen (this module's pruning net, ``luck.linear_screen``)."""
    kept = 0  # picked[0:kept]: the best so far, best first (insertion: keep is at most 17)
    for i in range(count):
        value = scores[i, 0]
        if kept < keep:
            at = kept
            kept += 1
        elif value > scores[picked[kept - 1], 0]:
            at = kept - 1
        else:
            continue
        while at > 0 and value > scores[picked[at - 1], 0]:
            picked[at] = picked[at - 1]
            at -= 1
        picked[at] = i
    for n in range(1, keep):  # back into the move generator's order
        index = picked[n]
        at = n
        while at > 0 and picked[at - 1] > index:
            picked[at] = picked[at - 1]
            at -= 1
        picked[at] = index
    for n in range(keep):
        play = boards[picked[n]]
        for side_row in range(2):
            for index in range(25):
                out[n, side_row, index] = play[side_row, index]


@njit(cache=True, nogil=True, _nrt=False)
def best_child(count, values, side, probs):
    """The index of the play whose probabilities (``probs[:count]``, from the side that
    moves next) the mover values most (``mover_value``; ties: the earlier play)."""
    best = -1e300
    choice = 0
    for i in range(count):
        value = mover_value(values, side, probs[i])
        if value > best:
            best = value
            choice = i
    return choice


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _screen(count, keep, board, boards, side, values, params, prune_at, work, level):
    """Score every play of a roll from ``board`` with the pruning net and copy the best
    ``keep`` (ties: the earlier play) to ``screened`` in the move generator's order, their
    indices to ``picked``."""
    _, _, _, _, _, probs, screened, picked, _ = work
    rows, coefficients = level[3], level[4]
    _mover_coefficients(values, side, coefficients)
    constant = value_weights(coefficients, params, prune_at, rows[2])
    prune_values(count, boards, board, rows[0], params, prune_at, constant, rows[2], rows[1],
                 probs)
    keep_best(count, keep, boards, probs, picked, screened)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _reply(board, r, scratch, side, values, policy, params, weights, folded, work, chosen,
           next_probs):
    """The player on roll (row 1 of ``board``, ``side``) at a node of the search
    (``scratch``: its level's ``level_buffers``) rolls ``ROLLS[r]`` and makes the play it
    values most at 0 ply: ``chosen`` = the result turned (the next player on roll in row
    1), ``next_probs`` = its 0-ply probabilities from the next player's side. With a
    pruning net in ``params`` (the net policy) the full net scores only the plays its
    screen keeps, as gnubg's ``FindBestMoveInEval``."""
    boards, steps, keys, table, moves, probs, screened, _, _ = work
    count, _ = generate_plays(board, ROLLS[r, 0], ROLLS[r, 1], boards, steps, keys, table,
                              moves)
    net_policy = policy == POLICY_NET
    prune_at = table_start(params, PRUNE_SLOT) if net_policy else 0
    if net_policy:
        _know(board, prune_at, params, weights, scratch)
    # only rolls in contact are screened: the pruning net is trained on those, a race's
    # plays differ too little for it, and a play that ends the game is never screened out
    keep = screen_size(count)
    candidates = boards
    if prune_at != 0 and keep < count and is_contact(board, 0):
        _screen(count, keep, board, boards, side, values, params, prune_at, work, scratch)
        candidates = screened
        count = keep
    if net_policy:
        net_children(count, candidates, params, weights, folded, probs, scratch[0],
                     scratch[2][1])
    else:
        _heuristic_children(count, candidates, params, probs)
    choice = best_child(count, values, side, probs)
    for index in range(25):
        chosen[0, index] = candidates[choice, 1, index]
        chosen[1, index] = candidates[choice, 0, index]
    for k in range(5):
        next_probs[k] = probs[choice, k]


@njit(cache=True, nogil=True, _nrt=False)
def _heuristic_children(count, boards, params, out):
    """``static_children`` of the other policies (their evaluator is the heuristic), with
    nothing allocated."""
    for i in range(count):
        if not _bearoff_probabilities(boards[i], 0, params, out[i]):
            heuristic_probabilities(boards[i], 0, out[i])


@njit(cache=True, nogil=True, _nrt=False)
def _roll_outcome(board, r, plies, side, values, policy, params, weights, folded, work, out):
    """The mover's probabilities after rolling ``ROLLS[r]`` and playing its 0-ply best,
    the result looked at ``plies - 1`` ply (1 <= plies <= 3). Written out per depth rather
    than recursively: numba compiles each level as its own function."""
    levels = work[8]
    if plies == 1:  # a constant index: a tuple indexed at run time is copied whole
        scratch = levels[1]
    elif plies == 2:
        scratch = levels[2]
    else:
        scratch = levels[3]
    chosen, theirs = scratch[5], scratch[6][0]
    _reply(board, r, scratch, side, values, policy, params, weights, folded, work, chosen,
           theirs)
    if plies >= 2 and not is_exact(chosen, params):
        if plies == 2:
            _node1(chosen, 1 - side, values, policy, params, weights, folded, work, theirs)
        else:
            _node2(chosen, 1 - side, values, policy, params, weights, folded, work, theirs)
    swap_sides(theirs, out)


@njit(cache=True, nogil=True, _nrt=False)
def _outcome1(board, r, side, values, policy, params, weights, folded, work, out):
    scratch = work[8][1]
    chosen, theirs = scratch[5], scratch[6][0]
    _reply(board, r, scratch, side, values, policy, params, weights, folded, work, chosen,
           theirs)
    swap_sides(theirs, out)


@njit(cache=True, nogil=True, _nrt=False)
def _node1(board, side, values, policy, params, weights, folded, work, out):
    """1-ply probabilities of the player on roll (``side``), the position not exact."""
    rolled = work[8][1][6][1]
    for k in range(5):
        out[k] = 0.0
    for r in range(21):
        _outcome1(board, r, side, values, policy, params, weights, folded, work, rolled)
        for k in range(5):
            out[k] += ROLL_WEIGHTS[r] * rolled[k]


@njit(cache=True, nogil=True, _nrt=False)
def _outcome2(board, r, side, values, policy, params, weights, folded, work, out):
    scratch = work[8][2]
    chosen, theirs = scratch[5], scratch[6][0]
    _reply(board, r, scratch, side, values, policy, params, weights, folded, work, chosen, theirs)
    if not is_exact(chosen, params):
        _node1(chosen, 1 - side, values, policy, params, weights, folded, work, theirs)
    swap_sides(theirs, out)


@njit(cache=True, nogil=True, _nrt=False)
def _node2(board, side, values, policy, params, weights, folded, work, out):
    rolled = work[8][2][6][1]
    for k in range(5):
        out[k] = 0.0
    for r in range(21):
        _outcome2(board, r, side, values, policy, params, weights, folded, work, rolled)
        for k in range(5):
            out[k] += ROLL_WEIGHTS[r] * rolled[k]


@njit(cache=True, nogil=True, _nrt=False)
def _outcome3(board, r, side, values, policy, params, weights, folded, work, out):
    scratch = work[8][3]
    chosen, theirs = scratch[5], scratch[6][0]
    _reply(board, r, scratch, side, values, policy, params, weights, folded, work, chosen, theirs)
    if not is_exact(chosen, params):
        _node2(chosen, 1 - side, values, policy, params, weights, folded, work, theirs)
    swap_sides(theirs, out)


@njit(cache=True, nogil=True, _nrt=False)
def _node3(board, side, values, policy, params, weights, folded, work, out):
    rolled = work[8][3][6][1]
    for k in range(5):
        out[k] = 0.0
    for r in range(21):
        _outcome3(board, r, side, values, policy, params, weights, folded, work, rolled)
        for k in range(5):
            out[k] += ROLL_WEIGHTS[r] * rolled[k]


@njit(cache=True, nogil=True)
def node_probabilities(board, plies, side, values, policy, params, weights, folded, work, out):
    """The five probabilities of the player on roll (row 1 of ``board``, ``side`` 0 root or
    1 opponent) at ``plies`` (0..3), in one thread with ``work`` (``work_buffers``)."""
    if plies <= 0 or is_exact(board, params):
        evaluate(board, 1, policy, params, out)
    elif plies == 1:
        _node1(board, side, values, policy, params, weights, folded, work, out)
    elif plies == 2:
        _node2(board, side, values, policy, params, weights, folded, work, out)
    else:
        _node3(board, side, values, policy, params, weights, folded, work, out)


@njit(cache=True, nogil=True, parallel=True)
def root_probabilities(board, plies, values, policy, params, weights, folded, out, rolled):
    """``node_probabilities`` of the root player (side 0) on roll in ``board``, the 21
    rolls in parallel and summed in order (the same numbers for any thread count);
    ``rolled[r]`` (21, 5): the root player's probabilities after its play of roll ``r``
    (``ROLLS``), looked at one ply less (NaN where the position is scored without rolls:
    0 ply, or exact)."""
    if plies <= 0 or is_exact(board, params):
        evaluate(board, 1, policy, params, out)
        rolled[:] = np.nan
        return
    for r in prange(21):
        work = work_buffers(True, weights)
        mine = board.copy()  # move generation plays on the board and takes back: one each
        _roll_outcome(mine, r, plies, 0, values, policy, params, weights, folded, work,
                      rolled[r])
    out[:] = 0.0
    for r in range(21):
        for k in range(5):
            out[k] += ROLL_WEIGHTS[r] * rolled[r, k]


@njit(cache=True, nogil=True)
def _score_one(boards, i, plies, values, policy, params, weights, folded, work, out, rolled):
    """``out``: the mover's (side 0) probabilities after result ``boards[i]`` at ``plies``.
    ``rolled`` (count, 21, 5), or of length 0 when not wanted: its row ``i`` the terms
    averaged, the opponent's probabilities after its play of each roll (``ROLLS``), looked
    at one ply less (``root_probabilities``' ``rolled``; NaN where they are not rolled:
    0 ply, or exact)."""
    turned = np.empty((2, 25), dtype=np.int8)
    theirs = np.empty(5)
    turned[0, :] = boards[i, 1]
    turned[1, :] = boards[i, 0]
    if rolled.shape[0] == 0:
        node_probabilities(turned, plies, 1, values, policy, params, weights, folded, work,
                           theirs)
    elif plies <= 0 or is_exact(turned, params):
        rolled[i, :, :] = np.nan
        evaluate(turned, 1, policy, params, theirs)
    else:  # node_probabilities' sum, each roll's term kept
        theirs[:] = 0.0
        for r in range(21):
            _roll_outcome(turned, r, plies, 1, values, policy, params, weights, folded, work,
                          rolled[i, r])
            for k in range(5):
                theirs[k] += ROLL_WEIGHTS[r] * rolled[i, r, k]
    swap_sides(theirs, out)


@njit(cache=True, nogil=True, parallel=True)
def _score_parallel(alive, n_alive, boards, plies, values, policy, params, weights, folded,
                    out, rolled):
    """Score plays ``alive[0:n_alive]`` at ``plies`` (>= 1) into ``out``, in parallel."""
    n_blocks = (n_alive + _BLOCK - 1) // _BLOCK
    for block in prange(n_blocks):
        work = work_buffers(True, weights)
        for j in range(block * _BLOCK, min(n_alive, (block + 1) * _BLOCK)):
            i = alive[j]
            _score_one(boards, i, plies, values, policy, params, weights, folded, work, out[i],
                       rolled)


@njit(cache=True, nogil=True)
def _keep(alive, n_alive, scores, values, accept, extra, threshold):
    """Sort ``alive[0:n_alive]`` best first by the root's value of ``scores`` (stably) and
    return how many the filter stage keeps: the best ``accept``, then up to ``extra`` more
    within ``threshold`` of the best."""
    keys = np.empty(n_alive)
    for j in range(n_alive):
        keys[j] = -value_of(values, 0, scores[alive[j]])
    order = np.argsort(keys, kind="mergesort")
    sorted_alive = alive[:n_alive][order]
    alive[:n_alive] = sorted_alive
    best = -keys[order[0]]
    kept = min(max(accept, 0), n_alive)
    added = 0
    while kept < n_alive and added < extra and \
            value_of(values, 0, scores[alive[kept]]) >= best - threshold:
        kept += 1
        added += 1
    return max(kept, 1)


@njit(cache=True, nogil=True)
def _static_roots(count, boards, policy, params, weights, folded, out):
    """The mover's 0-ply probabilities after each of ``count`` results."""
    theirs = np.empty((count, 5))
    static_children(count, boards, policy, params, weights, folded, theirs)
    for i in range(count):
        swap_sides(theirs[i], out[i])


@njit(cache=True, nogil=True)
def _filtered(count, boards, plies, filters, values, policy, params, weights, folded, out,
              depth, work, parallel, rolled):
    """The filtered search of ``rank_search`` (see the module docstring); ``parallel``
    scores the survivors of a stage in parallel, else in this thread with ``work``."""
    alive = np.arange(count)
    n_alive = count
    _static_roots(count, boards, policy, params, weights, folded, out)
    depth[:count] = 0
    for stage in range(plies + 1):
        if stage < plies and filters[stage, 0] < 0:
            continue  # a skipped stage
        if stage > 0:
            if parallel:
                _score_parallel(alive, n_alive, boards, stage, values, policy, params, weights,
                                folded, out, rolled)
            else:
                for j in range(n_alive):
                    _score_one(boards, alive[j], stage, values, policy, params, weights,
                               folded, work, out[alive[j]], rolled)
            for j in range(n_alive):
                depth[alive[j]] = stage
        if stage == plies:
            break
        n_alive = _keep(alive, n_alive, out, values, np.int64(filters[stage, 0]),
                        np.int64(filters[stage, 1]), filters[stage, 2])
        if n_alive == 1:
            break  # one play left: no deeper look changes the choice (gnubg stops too)


@njit(cache=True, nogil=True)
def rank_search(count, boards, plies, filters, values, policy, params, weights, folded, out,
                depth, rolled):
    """Every play of a roll (``boards[0:count]``, results with the mover still row 1)
    scored by the filtered search at ``plies`` (0..3): ``out[i]`` the mover's five
    probabilities at ``depth[i]`` ply, and unless ``rolled`` has length 0, ``rolled[i]``
    (21, 5) the opponent's 21 terms they average (``_score_one``; untouched at 0 ply).
    ``filters``: (plies, 3) stage rows (module docstring). Survivors of each stage are
    scored in parallel."""
    work = work_buffers(False, weights)
    _filtered(count, boards, plies, filters, values, policy, params, weights, folded, out,
              depth, work, True, rolled)


@njit(cache=True, nogil=True)
def choose_play(count, boards, plies, filters, values, policy, params, weights, folded, work,
                out, depth):
    """The index of the play the filtered search at ``plies`` ranks first, in this thread
    (playouts: ``work`` must not hold ``boards``; ``out`` and ``depth`` hold at least
    ``count`` rows)."""
    _filtered(count, boards, plies, filters, values, policy, params, weights, folded, out,
              depth, work, False, np.empty((0, 21, 5)))
    # the survivors of the last stage were evaluated deepest; the best of them
    deepest = 0
    for i in range(count):
        deepest = max(deepest, depth[i])
    top = -1e300
    choice = 0
    for i in range(count):
        if depth[i] == deepest:
            value = value_of(values, 0, out[i])
            if value > top:
                top = value
                choice = i
    return choice
