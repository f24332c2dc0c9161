"""Score every play of a roll with an evaluator, in one call (used to rank plays)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .evaluate import evaluate


@njit(cache=True, nogil=True)
def score_boards(count, policy, params, boards, out):
    """``out[i]``: the five cumulative probabilities after the play that led to ``boards[i]``
    (the mover still row 1), from the mover's side."""
    probs = np.empty(5)
    for i in range(count):
        evaluate(boards[i], 0, policy, params, probs)  # the next player is on roll
        out[i, 0] = 1.0 - probs[0]
        out[i, 1] = probs[3]
        out[i, 2] = probs[4]
        out[i, 3] = probs[1]
        out[i, 4] = probs[2]
