"""Score every play of a roll with an evaluator, in one call (used to rank plays), at 0 or
1 ply of lookahead.

A 1-ply evaluation is gnubg's: the position is evaluated as the average, over the 21
distinct rolls of the player on roll (weighted 1/36 or 2/36), of the 0-ply evaluation after
the play the evaluator picks for that roll. Finished games and positions in the exact
two-sided bear-off table need no lookahead and are scored exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .evaluate import equity, evaluate, twosided_win
from .movegen import generate_plays
from .playout import ROLL_WEIGHTS, ROLLS, swap_sides
from .random_play import is_finished


@njit(cache=True, nogil=True)
def one_ply(board, policy, params, buffers, out):
    """The five probabilities of the player on roll (row 1 of ``board``) at 1 ply: over
    the 21 rolls, the 0-ply evaluation after the evaluator's best play, averaged."""
    boards, steps, keys, table, work = buffers
    probs = np.empty(5)
    best_probs = np.empty(5)
    for k in range(5):
        out[k] = 0.0
    for r in range(21):
        count, _ = generate_plays(board, ROLLS[r, 0], ROLLS[r, 1], boards, steps, keys, table,
                                  work)
        best = -1e9
        for i in range(count):
            evaluate(boards[i], 0, policy, params, probs)  # the opponent is on roll there
            value = -equity(probs)
            if value > best:
                best = value
                swap_sides(probs, best_probs)
        for k in range(5):
            out[k] += ROLL_WEIGHTS[r] * best_probs[k]


@njit(cache=True, nogil=True)
def probabilities_at(board, plies, policy, params, buffers, out):
    """The evaluator's probabilities for the player on roll (row 1) at ``plies`` (0 or 1)."""
    if plies == 0 or is_finished(board) or twosided_win(board, 1, params) >= 0.0:
        evaluate(board, 1, policy, params, out)  # exact when over or in the table
    else:
        one_ply(board, policy, params, buffers, out)


@njit(cache=True, nogil=True)
def score_boards(count, plies, policy, params, boards, buffers, out):
    """``out[i]``: the five cumulative probabilities after the play that led to ``boards[i]``
    (the mover still row 1), from the mover's side, at ``plies`` (0 or 1) of lookahead.
    ``buffers`` (``movegen.new_buffers()``, not holding ``boards``) serve the lookahead."""
    probs = np.empty(5)
    turned = np.empty((2, 25), dtype=np.int8)
    for i in range(count):
        turned[0, :] = boards[i, 1]  # the opponent now on roll (row 1)
        turned[1, :] = boards[i, 0]
        probabilities_at(turned, plies, policy, params, buffers, probs)
        swap_sides(probs, out[i])
