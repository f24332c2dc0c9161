"""Evaluators: a position -> the five cumulative outcome probabilities of the side on roll.

Every evaluator fills ``out[0:5]`` with gnubg's outputs, cumulative, for the side whose row
is ``me`` (``board[me]`` on roll, ``board[1 - me]`` the opponent):
``out[0]`` win, ``out[1]`` win a gammon or better, ``out[2]`` win a backgammon, ``out[3]`` lose
a gammon or worse, ``out[4]`` lose a backgammon. Taking ``me`` as an argument lets a playout
score a result board (the mover still ``board[1]``) from the next player's side without
swapping rows.

Policies are small integers so that kernels can switch on them without Python objects:

* ``POLICY_RANDOM``: uniformly random legal plays (tests, teaching); evaluation still uses
  the heuristic (for truncation and variance reduction);
* ``POLICY_HEURISTIC``: greedy over the hand-written heuristic below (gnubg's "0-ply");
* ``POLICY_NET``: greedy over the trained neural net (``bgcli.kernels.net``), its weights
  flattened in ``params`` (see ``bgcli.net.load_params``).

Nothing here imports bgcli outside ``bgcli.kernels`` (``tests/test_imports.py``): the
weights and tables come in as arrays from the Python layer (``bgcli.evaluation``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .net import (PARAMS_SIZE, SECOND_SIZE, net_probabilities, outcome, second_layer_units,
                  weights_end)

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_NET = 2
POLICY_NAMES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "net": POLICY_NET}

WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = 0, 1, 2, 3, 4

_PIPS_PER_ROLL = 8.1667  # the mean pips of one roll (doubles count four times)

# The bear-off tables ride behind the net's weights in ``params``, announced by a header of
# TABLES_HEADER_SIZE values right after the weights (see ``with_bearoff_tables``), at
# ``at = net.weights_end(params)`` (PARAMS_SIZE, or after the contact net's second layer and
# the late contact net, where the weights hold them):
#
#   params[at]      TABLES_MARK: the header is there
#   params[at + 1]  where the two-sided table starts (TWOSIDED_SLOT), 0: absent
#   params[at + 2]  where the one-sided database starts (ONESIDED_SLOT), 0: absent
#   params[at + 3]  where the pruning net starts (PRUNE_SLOT, ``bgcli.kernels.prune``),
#                   0: absent (the search then scores every play with the net)
#
# An array without the header (the net's weights alone, ``np.zeros(1)`` for the heuristic)
# holds no tables, and every evaluator then scores bear-offs like any other position.
TABLES_HEADER_SIZE = 4
TABLES_MARK = 7.25e11  # no weight comes near it
TWOSIDED_SLOT = 1
ONESIDED_SLOT = 2
PRUNE_SLOT = 3

# The exact two-sided bear-off table (``bgcli.bearoff.load_twosided``: up to 8 checkers a
# side, all home): ``params[start + a * TWOSIDED_SIZE + b]`` is P(the side on roll wins) with
# layout index a on roll and b opposite. Every evaluator returns those exact chances (no
# gammon is possible there) when ``params`` holds the table.
TWOSIDED_CHECKERS = 8
TWOSIDED_SIZE = math.comb(TWOSIDED_CHECKERS + 6, 6)  # 3003 layouts a side
_COMB = np.array([[math.comb(n, k) for k in range(7)] for n in range(22)], dtype=np.int64)

# The one-sided bear-off database (``bgcli.bearoff.load_onesided``: every layout of up to 15
# checkers home), one row of ``ONESIDED_ROW`` values per layout: P(bear off every checker in
# exactly n rolls), n < ONESIDED_ROLLS, then P(first checker off on exactly roll n),
# n < ONESIDED_FIRST. With it, every evaluator scores a position with both sides all home
# but outside the two-sided table from the two sides' distributions, as gnubg does (its
# "BEAROFF1" class): the chances hold for two sides that each bear off to minimise their
# expected rolls (gnubg's approximation too), and choosing plays by them beat the race net,
# which missed the best play in 30% of sampled bear-offs. It is used only with the two-sided
# table (which scores the bear-offs it covers).
ONESIDED_SIZE = math.comb(15 + 6, 6)  # 54264 layouts
ONESIDED_ROLLS = 32
ONESIDED_FIRST = 16
ONESIDED_ROW = ONESIDED_ROLLS + ONESIDED_FIRST


def with_bearoff_tables(weights: np.ndarray, twosided: np.ndarray | None,
                        onesided: np.ndarray | None, prune: np.ndarray | None = None
                        ) -> np.ndarray:
    """Python helper: one ``params`` array, the net's ``weights`` (PARAMS_SIZE values, zeros
    for the policies without a net, or more with a second layer or a late contact net), then
    the header and whichever of the two bear-off tables (the two-sided table as
    (TWOSIDED_SIZE, TWOSIDED_SIZE) chances, the one-sided
    database as (ONESIDED_SIZE, ONESIDED_ROW) rows) and the pruning net in its kernel layout
    (``bgcli.prune``) are given, laid out as the comment above says. One array, writable
    like the weights alone, so that the kernels compile once for both."""
    if second_layer_units(weights) is None:
        raise ValueError(f"expected {PARAMS_SIZE} weights (or {PARAMS_SIZE + SECOND_SIZE} with "
                         f"a second layer, and a late contact net behind either), got shape "
                         f"{weights.shape}")
    if twosided is not None and twosided.shape != (TWOSIDED_SIZE, TWOSIDED_SIZE):
        raise ValueError(f"expected a {TWOSIDED_SIZE}-square two-sided table, got {twosided.shape}")
    if onesided is not None and onesided.shape != (ONESIDED_SIZE, ONESIDED_ROW):
        raise ValueError(f"expected ({ONESIDED_SIZE}, {ONESIDED_ROW}) one-sided rows, "
                         f"got {onesided.shape}")
    header = np.zeros(TABLES_HEADER_SIZE)
    header[0] = TABLES_MARK
    parts = [np.asarray(weights, dtype=np.float64), header]
    at = weights.size + TABLES_HEADER_SIZE
    for slot, table in ((TWOSIDED_SLOT, twosided), (ONESIDED_SLOT, onesided),
                        (PRUNE_SLOT, prune)):
        if table is not None:
            header[slot] = at
            parts.append(np.asarray(table, dtype=np.float64).ravel())
            at += table.size
    return np.concatenate(parts)


@njit(cache=True, nogil=True, inline="always")
def table_start(params, slot):
    """Where the table of header ``slot`` (TWOSIDED_SLOT, ONESIDED_SLOT, PRUNE_SLOT) starts
    in ``params``, or 0 when ``params`` has no such table (or no header at all)."""
    header = weights_end(params)
    if params.shape[0] < header + TABLES_HEADER_SIZE:
        return 0  # the weights alone (or less): no room for a header
    if params[header] != TABLES_MARK:
        return 0
    return np.int64(params[header + slot])


#: The 21 distinct rolls and their weights out of 36 (every kernel that averages over rolls).
ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
ROLL_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0


@njit(cache=True, nogil=True, inline="always")
def swap_sides(probs, out):
    """Probabilities of the other side: its win is our loss, its gammons ours lost."""
    out[0] = 1.0 - probs[0]
    out[1] = probs[3]
    out[2] = probs[4]
    out[3] = probs[1]
    out[4] = probs[2]


@njit(cache=True, nogil=True, inline="always")
def _sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


@njit(cache=True, nogil=True)
def equity(probs):
    """Cubeless money equity of the side the probabilities belong to."""
    return (2.0 * probs[0] - 1.0 + probs[1] - probs[3] + probs[2] - probs[4])


@njit(cache=True, nogil=True)
def _side_summary(board, side):
    """(pips, checkers left, checkers outside home, rearmost point index or -1)."""
    pips = 0
    left = 0
    outside = 0
    rearmost = -1
    for index in range(25):
        count = board[side, index]
        if count > 0:
            pips += count * (index + 1)
            left += count
            if index >= 6:
                outside += count
            rearmost = index
    return pips, left, outside, rearmost


@njit(cache=True, nogil=True)
def _gammon_chance(rolls_to_finish, loser_rolls_to_save):
    """Chance that the leader finishes before the trailer bears a checker off."""
    return _sigmoid(1.6 * (loser_rolls_to_save - rolls_to_finish) - 0.8)


@njit(cache=True, nogil=True)
def _race_probabilities(board, me, out):
    """No contact: Kleinman's normal approximation of the pip race, with gammons from how
    many rolls the leader needs to finish against the trailer's to get a checker off."""
    you = 1 - me
    my_pips, my_left, my_outside, _ = _side_summary(board, me)
    your_pips, your_left, your_outside, _ = _side_summary(board, you)
    difference = your_pips - my_pips + 4.0  # being on roll is worth about 4 pips
    total = max(my_pips + your_pips - 4.0, 1.0)
    win = 0.5 * (1.0 + math.erf(difference / (2.0 * math.sqrt(total))))
    my_rolls = my_pips / _PIPS_PER_ROLL
    your_rolls = your_pips / _PIPS_PER_ROLL
    out[:] = 0.0
    out[0] = win
    if your_left == 15:
        # they save the gammon once every checker is home and one is off
        your_save = 1.0 + your_outside * 0.5
        out[1] = min(win, _gammon_chance(my_rolls, your_save))
    if my_left == 15:
        my_save = 1.0 + my_outside * 0.5
        out[3] = min(1.0 - win, _gammon_chance(your_rolls - 0.5, my_save))


@njit(cache=True, nogil=True)
def _contact_score(board, me):
    """A linear judgement of a contact position for the side on roll, in logit units."""
    you = 1 - me
    my_pips, _, _, _ = _side_summary(board, me)
    your_pips, _, _, _ = _side_summary(board, you)
    score = (your_pips - my_pips + 8.0) / 22.0
    for side, sign in ((me, 1.0), (you, -1.0)):
        other = 1 - side
        blots = 0.0
        home_points = 0.0
        prime = 0
        best_prime = 0
        for index in range(24):
            count = board[side, index]
            if count >= 2:
                prime += 1
                best_prime = max(best_prime, prime)
                if index < 6:
                    home_points += 1.0
            else:
                prime = 0
            if count == 1:
                # a blot in front of opposing checkers is exposed; deeper in their zone, worse
                opposing_behind = 0
                for facing in range(24 - index, 25):
                    opposing_behind += board[other, facing]
                if opposing_behind > 0:
                    blots += 1.0 + index / 24.0
        score += sign * (0.18 * home_points + 0.12 * best_prime * best_prime / 6.0
                         - 0.22 * blots - 0.45 * board[side, 24])
    return score


@njit(cache=True, nogil=True)
def heuristic_probabilities(board, me, out):
    """The heuristic evaluator (see module docstring for ``out``)."""
    you = 1 - me
    _, my_left, _, my_rear = _side_summary(board, me)
    _, your_left, _, your_rear = _side_summary(board, you)
    if my_left == 0 or your_left == 0:
        outcome(board, me, out)  # a finished game, exactly
        return
    if my_rear + 1 < 24 - your_rear:
        _race_probabilities(board, me, out)
        return
    win = _sigmoid(_contact_score(board, me))
    # gammons: likelier when the loser has checkers back and on the bar, none off
    my_back = 0.0
    your_back = 0.0
    for index in range(18, 25):
        my_back += board[me, index]
        your_back += board[you, index]
    out[0] = win
    out[1] = win * (0.08 + 0.05 * your_back) if your_left == 15 else 0.0
    out[1] = min(out[1], win * 0.6)
    out[2] = out[1] * 0.05 * your_back
    out[3] = (1.0 - win) * (0.08 + 0.05 * my_back) if my_left == 15 else 0.0
    out[3] = min(out[3], (1.0 - win) * 0.6)
    out[4] = out[3] * 0.05 * my_back


@njit(cache=True, nogil=True)
def _home_layout_index(board, side):
    """The side's home-board layout index (the combinatorial rank of bgcli.bearoff, shared
    by both tables) and its checkers left, or (-1, 0) when a checker is outside home."""
    for index in range(6, 25):
        if board[side, index] > 0:
            return -1, 0
    total = 0
    rank = 0
    for j in range(6):
        total += board[side, j]
        rank += _COMB[total + j, j + 1]
    return rank, total


@njit(cache=True, nogil=True)
def _small_bearoff_index(board, side):
    """The side's layout index in the two-sided table, or -1 when it is not all home with
    at most ``TWOSIDED_CHECKERS`` checkers."""
    rank, total = _home_layout_index(board, side)
    return rank if total <= TWOSIDED_CHECKERS else -1


@njit(cache=True, nogil=True)
def twosided_win(board, me, params):
    """Exact P(``me`` on roll wins) from the two-sided table in ``params``, or -1.0 when the
    table is absent or the position is not in it (or the game is over)."""
    twosided_at = table_start(params, TWOSIDED_SLOT)
    if twosided_at == 0:
        return -1.0
    mine = _small_bearoff_index(board, me)
    if mine <= 0:
        return -1.0
    theirs = _small_bearoff_index(board, 1 - me)
    if theirs <= 0:
        return -1.0
    return params[twosided_at + mine * TWOSIDED_SIZE + theirs]


@njit(cache=True, nogil=True)
def both_home(board):
    """Whether every checker of both sides is in its home board (or borne off)."""
    return _home_layout_index(board, 0)[0] >= 0 and _home_layout_index(board, 1)[0] >= 0


@njit(cache=True, nogil=True)
def _bearoff_probabilities(board, me, params, out):
    """The five probabilities of ``me`` on roll from the bear-off tables in ``params`` when
    both sides are all home and neither has finished: exact from the two-sided table when
    both have at most ``TWOSIDED_CHECKERS`` checkers, else from the one-sided database.
    False (``out`` untouched) when the tables are absent or the position is not a bear-off.
    Each side's layout is read once for both tables."""
    twosided_at = table_start(params, TWOSIDED_SLOT)
    if twosided_at == 0:
        return False
    mine, my_left = _home_layout_index(board, me)
    if mine <= 0:
        return False
    theirs, their_left = _home_layout_index(board, 1 - me)
    if theirs <= 0:
        return False
    if my_left <= TWOSIDED_CHECKERS and their_left <= TWOSIDED_CHECKERS:
        out[0] = params[twosided_at + mine * TWOSIDED_SIZE + theirs]
        for k in range(1, 5):
            out[k] = 0.0
        return True
    onesided_at = table_start(params, ONESIDED_SLOT)
    if onesided_at == 0:
        return False
    _onesided_chances(params, onesided_at, mine, my_left, theirs, their_left, out)
    return True


@njit(cache=True, nogil=True)
def _onesided_chances(params, onesided_at, mine, my_left, theirs, their_left, out):
    """The five probabilities of the side on roll (layout ``mine``, ``my_left`` checkers)
    against the other (``theirs``, ``their_left``) from the one-sided database, which starts
    at ``params[onesided_at]``.

    The side on roll wins when it finishes in k rolls and the other side needs k or more; it
    wins a gammon when it finishes before the other's first checker comes off (the other
    has all 15 left), and loses one when the other finishes before its own first checker
    comes off. No backgammon is possible with every checker home."""
    my_row = onesided_at + mine * ONESIDED_ROW
    their_row = onesided_at + theirs * ONESIDED_ROW
    win = 0.0
    win_gammon = 0.0
    lose_gammon = 0.0
    theirs_before = 0.0  # P(they finish in fewer than k rolls)
    their_first_before = 0.0  # P(their first checker is off in fewer than k rolls)
    my_first_by = 0.0  # P(my first checker is off within k rolls)
    for k in range(ONESIDED_ROLLS):
        mine_k = params[my_row + k]
        theirs_k = params[their_row + k]
        win += mine_k * (1.0 - theirs_before)
        if k < ONESIDED_FIRST:
            my_first_by += params[my_row + ONESIDED_ROLLS + k]
            if their_left == 15:
                win_gammon += mine_k * (1.0 - their_first_before)
                their_first_before += params[their_row + ONESIDED_ROLLS + k]
        else:
            my_first_by = 1.0
        if my_left == 15:
            lose_gammon += theirs_k * (1.0 - my_first_by)
        theirs_before += theirs_k
    out[0] = min(max(win, 0.0), 1.0)
    out[1] = min(max(win_gammon, 0.0), out[0])
    out[2] = 0.0
    out[3] = min(max(lose_gammon, 0.0), 1.0 - out[0])
    out[4] = 0.0


@njit(cache=True, nogil=True)
def evaluate(board, me, policy, params, out):
    """The evaluator behind ``policy`` (``params``: the net's weights for ``POLICY_NET``,
    then optionally the header and the bear-off tables: the two-sided table's exact chances
    take precedence, the one-sided database scores the other bear-offs)."""
    if _bearoff_probabilities(board, me, params, out):
        return
    if policy == POLICY_NET:
        net_probabilities(board, me, params, out)
    else:
        heuristic_probabilities(board, me, out)


def probabilities(board: np.ndarray, policy: int = POLICY_HEURISTIC,
                  params: np.ndarray | None = None) -> np.ndarray:
    """Python helper: the evaluator's five probabilities for the player on roll. The net
    policy needs its weights in ``params`` (``bgcli.net.load_params()``, or
    ``bgcli.evaluation.policy_code``'s with the bear-off tables): loading them is the
    Python layer's job, not the kernels'."""
    if params is None:
        if policy == POLICY_NET:
            raise ValueError("the net policy evaluates with the net's weights: pass them as "
                             "params (bgcli.net.load_params())")
        params = np.zeros(1)
    out = np.zeros(5)
    evaluate(np.ascontiguousarray(board, dtype=np.int8), 1, policy, params, out)
    return out
