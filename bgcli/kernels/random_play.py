"""Uniformly random play: for tests, teaching and benchmark positions."""

from __future__ import annotations

import numpy as np
from numba import njit

from .dice import next_u64, roll_dice
from .movegen import generate_plays


@njit(cache=True, nogil=True)
def is_finished(board):
    return board[0].sum() == 0 or board[1].sum() == 0


@njit(cache=True, nogil=True)
def random_game_positions(board, state, max_plies, out_boards, out_dice,
                          boards, steps, keys, table, work):
    """Play random legal moves from ``board`` (modified in place, swapped after each move),
    storing the position before each roll and the roll in ``out_boards``/``out_dice``.
    Returns the number of plies played."""
    ply = 0
    while ply < max_plies and ply < out_boards.shape[0] and not is_finished(board):
        d1, d2 = roll_dice(state)
        out_boards[ply] = board
        out_dice[ply, 0] = d1
        out_dice[ply, 1] = d2
        count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
        choice = np.int64(next_u64(state) % np.uint64(count))
        board[0, :] = boards[choice, 1, :]  # swap: the opponent is now on roll
        board[1, :] = boards[choice, 0, :]
        ply += 1
    return ply
