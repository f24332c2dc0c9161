"""Legal move generation: every distinct position a roll can lead to.

Kernel conventions (see ``bgcli.position`` for the board layout):

* ``board`` is an ``int8[2, 25]`` array, ``board[1]`` the player to move. Kernels work on it in
  place and always restore it before returning.
* Results are written into a ``MoveBuffers`` set of preallocated arrays, so a playout can call
  ``generate_plays`` in a tight loop without allocating. A result board is NOT swapped: the
  player who moved is still ``board[1]``.
* A play is up to four checker steps ``(from_point, to_point)`` in the mover's own numbering:
  25 is the bar, 0 is off, -1 marks an unused step.

Rules (``shared/rules.md``): enter from the bar first; land on empty, own or single-opponent
points; play both dice if possible, else the larger one; doubles as many times as possible;
bear off only with all checkers home, from a higher point only when no checker stands above.

The search keeps only the plays that use the most dice and, among those, the most pips, so a
single playable die is the larger one whenever the larger one can be played. Duplicates (the
same resulting position reached in different orders) are removed with a Zobrist-keyed hash
table whose hits are confirmed by comparing boards, so no two distinct positions can merge.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: More than the largest number of distinct plays any position has (about 900 are known).
MAX_PLAYS = 4096
_TABLE_SIZE = 8192  # power of two, at least twice MAX_PLAYS
_TABLE_MASK = _TABLE_SIZE - 1

# state slots in MoveBuffers.state
_STAMP, _BEST_DICE, _BEST_PIPS, _COUNT = 0, 1, 2, 3

#: Random 63-bit numbers per (side, point, checker count): the key of a board is the XOR of
#: its entries. Seeded, so keys are the same in every process.
ZOBRIST = np.random.default_rng(0xB6C11).integers(0, 2**62, size=(2, 25, 16), dtype=np.int64)


class MoveBuffers:
    """Preallocated output and scratch arrays for ``generate_plays``."""

    def __init__(self, capacity: int = MAX_PLAYS):
        self.boards = np.zeros((capacity, 2, 25), dtype=np.int8)
        self.steps = np.full((capacity, 8), -1, dtype=np.int8)
        self.keys = np.zeros(capacity, dtype=np.int64)
        self.table_slot = np.zeros(_TABLE_SIZE, dtype=np.int32)
        self.table_stamp = np.zeros(_TABLE_SIZE, dtype=np.int64)
        self.state = np.zeros(4, dtype=np.int64)
        self.path = np.full(8, -1, dtype=np.int8)

    def arrays(self):
        return (self.boards, self.steps, self.keys, self.table_slot, self.table_stamp,
                self.state, self.path)


@njit(cache=True, nogil=True)
def board_key(board):
    """The Zobrist key of a board."""
    key = np.int64(0)
    for side in range(2):
        for index in range(25):
            key ^= ZOBRIST[side, index, board[side, index]]
    return key


@njit(cache=True, nogil=True, inline="always")
def _destination(board, source, die):
    """Index the checker at ``source`` reaches with ``die``; -1 means borne off, -2 illegal."""
    mine = board[1]
    if mine[source] == 0:
        return -2
    target = source - die
    if target >= 0:
        # the mover's point target+1 is the opponent's point 24-target, index 23-target
        return target if board[0, 23 - target] <= 1 else -2
    for index in range(6, 25):  # bearing off: every checker must be home
        if mine[index] > 0:
            return -2
    if target == -1:
        return -1
    for index in range(source + 1, 6):  # overshooting: only from the highest point
        if mine[index] > 0:
            return -2
    return -1


@njit(cache=True, nogil=True, inline="always")
def _same_board(a, b):
    for side in range(2):
        for index in range(25):
            if a[side, index] != b[side, index]:
                return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _record(board, depth, pips, key, boards, steps, keys, table_slot, table_stamp, state, path):
    """Store the position reached after ``depth`` dice unless a better or equal play exists."""
    best_dice = state[_BEST_DICE]
    best_pips = state[_BEST_PIPS]
    if depth < best_dice or (depth == best_dice and pips < best_pips):
        return
    if depth > best_dice or pips > best_pips:
        # every play found so far used fewer dice or pips: they are all illegal
        state[_BEST_DICE] = depth
        state[_BEST_PIPS] = pips
        state[_COUNT] = 0
        state[_STAMP] += 1
    stamp = state[_STAMP]
    slot = key & _TABLE_MASK
    while table_stamp[slot] == stamp:
        other = table_slot[slot]
        if keys[other] == key and _same_board(boards[other], board):
            return
        slot = (slot + 1) & _TABLE_MASK
    count = state[_COUNT]
    if count >= boards.shape[0]:
        return  # cannot happen with MAX_PLAYS; never write out of bounds
    table_stamp[slot] = stamp
    table_slot[slot] = count
    keys[count] = key
    for side in range(2):
        for index in range(25):
            boards[count, side, index] = board[side, index]
    for i in range(8):
        steps[count, i] = path[i]
    state[_COUNT] = count + 1


@njit(cache=True, nogil=True, inline="always")
def _apply(board, source, target, key):
    """Move a checker from index ``source`` to ``target`` (-1 = off), hitting a blot there.
    Returns the new key and whether it hit."""
    mine = board[1]
    theirs = board[0]
    key ^= ZOBRIST[1, source, mine[source]] ^ ZOBRIST[1, source, mine[source] - 1]
    mine[source] -= 1
    hit = False
    if target >= 0:
        facing = 23 - target
        if theirs[facing] == 1:
            hit = True
            key ^= ZOBRIST[0, facing, 1] ^ ZOBRIST[0, facing, 0]
            key ^= ZOBRIST[0, 24, theirs[24]] ^ ZOBRIST[0, 24, theirs[24] + 1]
            theirs[facing] = 0
            theirs[24] += 1
        key ^= ZOBRIST[1, target, mine[target]] ^ ZOBRIST[1, target, mine[target] + 1]
        mine[target] += 1
    return key, hit


@njit(cache=True, nogil=True, inline="always")
def _undo(board, source, target, hit):
    if target >= 0:
        board[1, target] -= 1
        if hit:
            board[0, 24] -= 1
            board[0, 23 - target] = 1
    board[1, source] += 1


@njit(cache=True, nogil=True, inline="always")
def _sources(board, highest):
    """The range of source indices to try, as (top, bottom): only the bar while a checker
    is on it (and nothing at all if ``highest`` already excludes the bar)."""
    if board[1, 24] > 0:
        return (24, 24) if highest >= 24 else (-1, 0)
    return highest, 0


@njit(cache=True, nogil=True)
def _search_two(board, die_a, die_b, key, same_checker_only,
                boards, steps, keys, table_slot, table_stamp, state, path):
    """Non-doubles: play ``die_a`` then ``die_b``. With ``same_checker_only`` the second die
    may only move the checker the first die moved."""
    moved_a = False
    top, bottom = _sources(board, 24)
    for source_a in range(top, bottom - 1, -1):
        target_a = _destination(board, source_a, die_a)
        if target_a == -2:
            continue
        moved_a = True
        key_a, hit_a = _apply(board, source_a, target_a, key)
        path[0] = source_a + 1
        path[1] = target_a + 1
        moved_b = False
        top_b, bottom_b = _sources(board, 24)
        if same_checker_only:
            top_b, bottom_b = target_a, max(target_a, 0)
        for source_b in range(top_b, bottom_b - 1, -1):
            target_b = _destination(board, source_b, die_b)
            if target_b == -2:
                continue
            moved_b = True
            key_b, hit_b = _apply(board, source_b, target_b, key_a)
            path[2] = source_b + 1
            path[3] = target_b + 1
            _record(board, 2, die_a + die_b, key_b, boards, steps, keys, table_slot,
                    table_stamp, state, path)
            _undo(board, source_b, target_b, hit_b)
        path[2] = -1
        path[3] = -1
        if not moved_b:
            _record(board, 1, die_a, key_a, boards, steps, keys, table_slot, table_stamp,
                    state, path)
        _undo(board, source_a, target_a, hit_a)
    path[0] = -1
    path[1] = -1
    if not moved_a:
        _record(board, 0, 0, key, boards, steps, keys, table_slot, table_stamp, state, path)


@njit(cache=True, nogil=True)
def _search_doubles(board, die, depth, highest, key,
                    boards, steps, keys, table_slot, table_stamp, state, path):
    """Doubles: play the remaining ``4 - depth`` dice, sources never above ``highest`` so
    that each set of checker steps is tried in one order only. Iterative over depth with
    the chosen sources kept in ``path``; no recursion (numba's cache dislikes it)."""
    chosen_source = np.empty(4, dtype=np.int64)
    chosen_target = np.empty(4, dtype=np.int64)
    chosen_hit = np.zeros(4, dtype=np.bool_)
    next_source = np.empty(5, dtype=np.int64)
    lowest = np.empty(5, dtype=np.int64)
    moved = np.zeros(5, dtype=np.bool_)
    keys_at = np.empty(5, dtype=np.int64)
    top, bottom = _sources(board, highest)
    next_source[depth], lowest[depth], keys_at[depth] = top, bottom, key
    start = depth
    while depth >= start:
        if depth == 4:
            _record(board, 4, 4 * die, keys_at[4], boards, steps, keys, table_slot,
                    table_stamp, state, path)
            depth -= 1
            _undo(board, chosen_source[depth], chosen_target[depth], chosen_hit[depth])
            path[2 * depth] = -1
            path[2 * depth + 1] = -1
            continue
        source = next_source[depth]
        target = -2
        while source >= lowest[depth] and target == -2:
            target = _destination(board, source, die)
            source -= 1
        next_source[depth] = source
        if target == -2:
            if not moved[depth]:
                _record(board, depth, depth * die, keys_at[depth], boards, steps, keys,
                        table_slot, table_stamp, state, path)
            moved[depth] = False
            depth -= 1
            if depth >= start:
                _undo(board, chosen_source[depth], chosen_target[depth], chosen_hit[depth])
                path[2 * depth] = -1
                path[2 * depth + 1] = -1
            continue
        source += 1  # the loop stepped past the source it found
        moved[depth] = True
        keys_at[depth + 1], chosen_hit[depth] = _apply(board, source, target, keys_at[depth])
        chosen_source[depth] = source
        chosen_target[depth] = target
        path[2 * depth] = source + 1
        path[2 * depth + 1] = target + 1
        depth += 1
        if depth < 4:
            top, bottom = _sources(board, source)
            next_source[depth], lowest[depth] = top, bottom
            moved[depth] = False


@njit(cache=True, nogil=True)
def generate_plays(board, die1, die2, boards, steps, keys, table_slot, table_stamp, state, path):
    """Write every distinct legal result of rolling ``die1``-``die2`` into ``boards`` and
    ``steps``; return how many there are and the number of dice they use.

    When no checker can move the single result is the unchanged board (dice used: 0).
    """
    state[_BEST_DICE] = -1
    state[_BEST_PIPS] = -1
    state[_COUNT] = 0
    state[_STAMP] += 1
    for i in range(8):
        path[i] = -1
    key = board_key(board)
    if die1 == die2:
        _search_doubles(board, die1, 0, 24, key, boards, steps, keys, table_slot,
                        table_stamp, state, path)
        return state[_COUNT], state[_BEST_DICE]
    _search_two(board, die1, die2, key, False, boards, steps, keys, table_slot, table_stamp,
                state, path)
    # The other order only adds plays where one checker moves twice, unless the first die
    # changes what the second may do: entering from the bar, or bringing the last checker
    # home so bearing off becomes legal. (Landing points never close during a play.)
    outside = 0
    for index in range(6, 25):
        outside += board[1, index]
    same_checker_only = board[1, 24] == 0 and outside >= 2
    _search_two(board, die2, die1, key, same_checker_only, boards, steps, keys, table_slot,
                table_stamp, state, path)
    return state[_COUNT], state[_BEST_DICE]
