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
same resulting position reached in different orders) are removed with a hash table keyed by
an additive hash (the sum of a random weight per checker, updated in O(1) per step); a key
match is confirmed by comparing the boards, so no two distinct positions can ever merge.

Speed notes: kernels index ``board[side, i]`` directly instead of taking row views, and pass
few arrays, because numba reference-counts every array view and argument. Every kernel here
but ``new_buffers`` is compiled with ``_NO_REFCOUNT`` (numba's ``_nrt=False``): they never
allocate, and the callers own every array for the whole call, so reference counts would only
cost. Each count is an atomic instruction, and the helpers inlined into the search loops
passed arrays around so often that counting was 85 % of the time (measured with ``perf`` on
the 2-core machine: 9.7 µs per mid-game position with it, 1.9 µs without).
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: More than the largest number of distinct plays any position can have (gnubg allows 3,060;
#: the most in our gnubg fixture is 2,127, fifteen single checkers rolling 11).
MAX_PLAYS = 4096
_TABLE_SIZE = 8192  # power of two, at least twice MAX_PLAYS
_TABLE_MASK = _TABLE_SIZE - 1
_SLOT_BITS = 16  # a table entry is stamp << _SLOT_BITS | index of the stored play

# Layout of MoveBuffers.work (int64): search state, the current path, the doubles stack.
_STAMP, _BEST_DICE, _BEST_PIPS, _COUNT = 0, 1, 2, 3
_PATH = 8  # 8 entries: (from, to) point pairs of the steps played so far, -1 when unused
_SOURCE, _TARGET, _HIT, _NEXT, _LOWEST, _MOVED, _KEY = 16, 21, 26, 31, 36, 41, 46  # 5 each
_OCCUPIED = 51  # 25 entries: occupied source indices, highest first
_WORK_SIZE = 80

#: A random weight per (side, board index + 1); index 0 (borne off) weighs nothing. The key of
#: a board is the sum of its checkers' weights. Seeded, so keys agree across processes.
WEIGHT = np.random.default_rng(0xB6C11).integers(0, 2**60, size=(2, 26), dtype=np.int64)
WEIGHT[:, 0] = 0

#: numba's option that leaves out reference counting (see "Speed notes" above): only for
#: kernels that allocate nothing and keep no array beyond the call.
_NO_REFCOUNT = False


@njit(cache=True, nogil=True)
def new_buffers():
    """(boards, steps, keys, table, work): the arrays ``generate_plays`` writes into."""
    return (np.zeros((MAX_PLAYS, 2, 25), dtype=np.int8),
            np.full((MAX_PLAYS, 8), -1, dtype=np.int8),
            np.zeros(MAX_PLAYS, dtype=np.int64),
            np.zeros(_TABLE_SIZE, dtype=np.int64),
            np.zeros(_WORK_SIZE, dtype=np.int64))


class MoveBuffers:
    """Preallocated output and scratch arrays for ``generate_plays``, from Python."""

    def __init__(self):
        self.boards, self.steps, self.keys, self.table, self.work = new_buffers()

    def arrays(self):
        return self.boards, self.steps, self.keys, self.table, self.work


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT)
def board_key(board):
    """The additive key of a board."""
    key = np.int64(0)
    for side in range(2):
        for index in range(25):
            key += board[side, index] * WEIGHT[side, index + 1]
    return key


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _destination(board, source, die):
    """Index the checker at ``source`` reaches with ``die``; -1 means borne off, -2 illegal."""
    if board[1, source] == 0:
        return -2
    target = source - die
    if target >= 0:
        # the mover's point target+1 is the opponent's point 24-target, index 23-target
        return target if board[0, 23 - target] <= 1 else -2
    for index in range(6, 25):  # bearing off: every checker must be home
        if board[1, index] > 0:
            return -2
    if target == -1:
        return -1
    for index in range(source + 1, 6):  # overshooting: only from the highest point
        if board[1, index] > 0:
            return -2
    return -1


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _same_board(boards, other, board):
    for side in range(2):
        for index in range(25):
            if boards[other, side, index] != board[side, index]:
                return False
    return True


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _record(board, depth, pips, key, boards, steps, keys, table, work):
    """Store the position reached after ``depth`` dice unless a better or equal play exists."""
    best_dice = work[_BEST_DICE]
    if depth < best_dice or (depth == best_dice and pips < work[_BEST_PIPS]):
        return
    if depth > best_dice or pips > work[_BEST_PIPS]:
        # every play found so far used fewer dice or pips: they are all illegal
        work[_BEST_DICE] = depth
        work[_BEST_PIPS] = pips
        work[_COUNT] = 0
        work[_STAMP] += 1
    stamp = work[_STAMP]
    slot = key & _TABLE_MASK
    while (table[slot] >> _SLOT_BITS) == stamp:
        other = table[slot] & ((1 << _SLOT_BITS) - 1)
        if keys[other] == key and _same_board(boards, other, board):
            return
        slot = (slot + 1) & _TABLE_MASK
    count = work[_COUNT]
    if count >= boards.shape[0]:
        return  # cannot happen with MAX_PLAYS; never write out of bounds
    table[slot] = (stamp << _SLOT_BITS) | count
    keys[count] = key
    for side in range(2):
        for index in range(25):
            boards[count, side, index] = board[side, index]
    for i in range(8):
        steps[count, i] = work[_PATH + i]
    work[_COUNT] = count + 1


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _apply(board, source, target, key):
    """Move a checker from index ``source`` to ``target`` (-1 = off), hitting a blot there.
    Returns the new key and whether it hit."""
    key += WEIGHT[1, target + 1] - WEIGHT[1, source + 1]
    board[1, source] -= 1
    hit = False
    if target >= 0:
        facing = 23 - target
        if board[0, facing] == 1:
            hit = True
            key += WEIGHT[0, 25] - WEIGHT[0, facing + 1]
            board[0, facing] = 0
            board[0, 24] += 1
        board[1, target] += 1
    return key, hit


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _undo(board, source, target, hit):
    if target >= 0:
        board[1, target] -= 1
        if hit:
            board[0, 24] -= 1
            board[0, 23 - target] = 1
    board[1, source] += 1


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _sources(board, highest):
    """The range of source indices to try, as (top, bottom): only the bar while a checker
    is on it (and nothing at all if ``highest`` already excludes the bar)."""
    if board[1, 24] > 0:
        return (24, 24) if highest >= 24 else (-1, 0)
    return highest, 0


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _set_step(work, depth, source, target):
    work[_PATH + 2 * depth] = source + 1 if source >= 0 else -1
    work[_PATH + 2 * depth + 1] = target + 1 if source >= 0 else -1


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT, inline="always")
def _play_second(board, source_b, die_a, die_b, key_a, boards, steps, keys, table, work):
    """Play ``die_b`` from ``source_b`` after the first die, record the result and undo it.
    Returns whether the step was legal."""
    target_b = _destination(board, source_b, die_b)
    if target_b == -2:
        return False
    key_b, hit_b = _apply(board, source_b, target_b, key_a)
    _set_step(work, 1, source_b, target_b)
    _record(board, 2, die_a + die_b, key_b, boards, steps, keys, table, work)
    _undo(board, source_b, target_b, hit_b)
    return True


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT)
def _search_two(board, die_a, die_b, key, same_checker_only, boards, steps, keys, table, work):
    """Non-doubles: play ``die_a`` then ``die_b``. With ``same_checker_only`` the second die
    may only move the checker the first die moved."""
    # the occupied source points, highest first (only the bar while checkers are on it)
    count = 0
    if board[1, 24] > 0:
        work[_OCCUPIED] = 24
        count = 1
    else:
        for index in range(23, -1, -1):
            if board[1, index] > 0:
                work[_OCCUPIED + count] = index
                count += 1
    moved_a = False
    for i in range(count):
        source_a = work[_OCCUPIED + i]
        target_a = _destination(board, source_a, die_a)
        if target_a == -2:
            continue
        moved_a = True
        key_a, hit_a = _apply(board, source_a, target_a, key)
        _set_step(work, 0, source_a, target_a)
        moved_b = False
        if same_checker_only or source_a == 24:
            # the same checker again, or (after entering) anything: scan what is needed
            top_b, bottom_b = _sources(board, 24)
            if same_checker_only:
                top_b, bottom_b = target_a, max(target_a, 0)
            for source_b in range(top_b, bottom_b - 1, -1):
                if _play_second(board, source_b, die_a, die_b, key_a, boards, steps, keys,
                                table, work):
                    moved_b = True
        else:
            # the occupied points, plus the first checker's landing point if it was empty
            extra = target_a >= 0 and board[1, target_a] == 1
            for j in range(count + extra):
                source_b = work[_OCCUPIED + j] if j < count else target_a
                if _play_second(board, source_b, die_a, die_b, key_a, boards, steps, keys,
                                table, work):
                    moved_b = True
        _set_step(work, 1, -1, -1)
        if not moved_b:
            _record(board, 1, die_a, key_a, boards, steps, keys, table, work)
        _undo(board, source_a, target_a, hit_a)
    _set_step(work, 0, -1, -1)
    if not moved_a:
        _record(board, 0, 0, key, boards, steps, keys, table, work)


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT)
def _search_doubles(board, die, key, boards, steps, keys, table, work):
    """Doubles: up to four steps of ``die``, sources never increasing along the path so that
    each set of checker steps is tried in one order only. Iterative, with the stack of
    choices in ``work`` (numba's on-disk cache breaks on recursive functions)."""
    top, bottom = _sources(board, 24)
    work[_NEXT], work[_LOWEST], work[_KEY], work[_MOVED] = top, bottom, key, 0
    depth = 0
    while depth >= 0:
        if depth == 4:
            _record(board, 4, 4 * die, work[_KEY + 4], boards, steps, keys, table, work)
            depth -= 1
            _undo(board, work[_SOURCE + depth], work[_TARGET + depth], work[_HIT + depth])
            _set_step(work, depth, -1, -1)
            continue
        source = work[_NEXT + depth]
        target = -2
        while source >= work[_LOWEST + depth] and target == -2:
            target = _destination(board, source, die)
            source -= 1
        work[_NEXT + depth] = source
        if target == -2:
            if not work[_MOVED + depth]:
                _record(board, depth, depth * die, work[_KEY + depth], boards, steps, keys,
                        table, work)
            depth -= 1
            if depth >= 0:
                _undo(board, work[_SOURCE + depth], work[_TARGET + depth], work[_HIT + depth])
                _set_step(work, depth, -1, -1)
            continue
        source += 1  # the loop stepped past the source it found
        work[_MOVED + depth] = 1
        new_key, hit = _apply(board, source, target, work[_KEY + depth])
        work[_SOURCE + depth] = source
        work[_TARGET + depth] = target
        work[_HIT + depth] = hit
        _set_step(work, depth, source, target)
        depth += 1
        work[_KEY + depth] = new_key
        if depth < 4:
            top, bottom = _sources(board, source)
            work[_NEXT + depth], work[_LOWEST + depth], work[_MOVED + depth] = top, bottom, 0


@njit(cache=True, nogil=True, _nrt=_NO_REFCOUNT)
def generate_plays(board, die1, die2, boards, steps, keys, table, work):
    """Write every distinct legal result of rolling ``die1``-``die2`` into ``boards`` and
    ``steps``; return how many there are and the number of dice they use.

    When no checker can move the single result is the unchanged board (dice used: 0).
    """
    work[_BEST_DICE] = -1
    work[_BEST_PIPS] = -1
    work[_COUNT] = 0
    work[_STAMP] += 1
    for i in range(8):
        work[_PATH + i] = -1
    key = board_key(board)
    if die1 == die2:
        _search_doubles(board, die1, key, boards, steps, keys, table, work)
        return work[_COUNT], work[_BEST_DICE]
    # np.bool_(False), not False: numba compiles a function once per literal argument, and
    # a second copy of _search_two would ride along in every kernel that generates moves
    # (a larger cache entry to load at each start)
    _search_two(board, die1, die2, key, np.bool_(False), boards, steps, keys, table, work)
    # The other order only adds plays where one checker moves twice, unless the first die
    # changes what the second may do: entering from the bar, or bringing the last checker
    # home so bearing off becomes legal. (Landing points never close during a play.)
    outside = 0
    for index in range(6, 25):
        outside += board[1, index]
    same_checker_only = board[1, 24] == 0 and outside >= 2
    _search_two(board, die2, die1, key, same_checker_only, boards, steps, keys, table, work)
    return work[_COUNT], work[_BEST_DICE]
