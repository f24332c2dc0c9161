"""Monte Carlo playouts and the parallel rollout loop, entirely inside numba.

A trial plays the position out from the side on roll (the "root" player) to the end of the
game, or to a truncation ply, and writes five numbers from the root player's side: win, win
gammon, win backgammon, lose gammon, lose backgammon (cumulative, gnubg's order). A finished
game gives 0/1 indicators; a truncated one the evaluator's probabilities.

Dice: trial ``i`` of a rollout seeded ``seed`` draws from its own SplitMix64 stream seeded by
``trial_seed(seed, i)``, so a trial's result depends on nothing but (seed, i): not on the
number of threads, nor on how the trials are split into batches. With quasi-random dice the
first two rolls of trial ``i`` come from two seed-shuffled tables instead (``first_rolls``):
the first roll cycles through all 36 (or the 30 non-doubles with ``initial``), the second
through all 36 for each first roll, so each block of 1296 (1080) trials holds every pair of
opening rolls exactly once.

Settings: the scalars a rollout plays every trial with travel as one ``PlayoutSettings``
record, built by ``bgcli.rollout``; arrays (the position, the first rolls, ``params``, work
buffers, outputs) stay separate arguments.

Variance reduction (luck adjustment): before each roll, the evaluator values the best play
of each of the 21 rolls; the luck of the roll actually played is its value minus the
probability-weighted mean over the 21, whose expectation given the history is exactly zero,
so subtracting the summed luck from the trial's outcome leaves the mean unbiased while
removing most of the dice's noise. How the values are computed cheaply: ``kernels.luck``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange, uint64

from .cube import CENTRED, OWN, THEIRS, cubeful_equity, doubles_and_takes, efficiency
from .match_cube import cubeful_mwc, match_doubles_and_takes, mwc_after
from .dice import next_u64, roll_dice
from .evaluate import POLICY_NET, POLICY_RANDOM, evaluate, twosided_win
from .luck import (ROLL_WEIGHTS, ROLLS, best_value, linear_buffers,  # noqa: F401 (scripts)
                   roll_values, screened_roll_values, swap_sides)
from .net import choice_buffers, drop_references, playout_weights
from .movegen import MAX_PLAYS, generate_plays, new_buffers
from .search import MONEY_VALUES, choose_play, node_probabilities, work_buffers

NO_TRUNCATION = 0


class PlayoutSettings(NamedTuple):
    """The scalars every trial of one rollout plays with, in one immutable record (numba
    passes a NamedTuple to the kernels as a struct of scalars). ``bgcli.rollout`` builds it
    from ``RolloutSettings``; ``playout_settings`` gives the exact types the kernels are
    compiled for (another mix of types would compile another copy)."""

    policy: int  # POLICY_RANDOM, POLICY_HEURISTIC or POLICY_NET (bgcli.kernels.evaluate)
    initial: bool  # the opening roll: the first roll is no double
    truncate: int  # plies; NO_TRUNCATION plays every game to the end
    variance_reduction: bool  # subtract the luck of the rolls (module docstring)
    bearoff_truncation: bool  # stop once both sides are in the two-sided bear-off table
    cubeful: bool  # money cube decisions inside the playouts
    cube_owner: int  # at the start, from the root player's side: 0 centred, 1 root, 2 opponent
    jacoby: bool  # gammons count single while the cube is centred (cubeful only)
    # cubeful at a match score (bgcli.kernels.match_cube, the table in play_trial's ``met``):
    match: bool
    away_root: int  # points the root player still needs
    away_opponent: int
    crawford: bool  # this game is the Crawford game: no doubling
    cube_value: int  # the cube's value at the start
    # each play (and cubeful, each cube decision) at this depth (bgcli.kernels.search), 0 greedy
    checker_plies: int = 0
    # the move filter of those plays, stages 0 and 1 (bgcli.kernels.search), as scalars:
    # numba's parallel loop takes no tuple inside the record
    accept0: float = 0.0
    extra0: float = 0.0
    threshold0: float = 0.0
    accept1: float = 0.0
    extra1: float = 0.0
    threshold1: float = 0.0


def playout_settings(policy, initial=False, truncate=NO_TRUNCATION, variance_reduction=False,
                     bearoff_truncation=False, cubeful=False, cube_owner=0,
                     jacoby=False, match=False, away_root=0, away_opponent=0, crawford=False,
                     cube_value=1, checker_plies=0, move_filter=None) -> PlayoutSettings:
    """Python helper: a ``PlayoutSettings`` with every field converted to the kernels' type
    (``move_filter``: up to two (accept, extra, threshold) stages)."""
    stages = [0.0] * 6
    for k, value in enumerate(np.asarray(move_filter if move_filter is not None else [],
                                         dtype=float).ravel()[:6]):
        stages[k] = float(value)
    return PlayoutSettings(int(policy), bool(initial), int(truncate), bool(variance_reduction),
                           bool(bearoff_truncation), bool(cubeful), int(cube_owner),
                           bool(jacoby), bool(match), int(away_root), int(away_opponent),
                           bool(crawford), int(cube_value), int(checker_plies), *stages)


@njit(cache=True, nogil=True)
def search_buffers(settings, weights):
    """What a playout searching at ``settings.checker_plies`` works with (tiny arrays at 0):
    the search's buffers, its (2, 3) filter stages, per-play scores and depths, and the
    luck's linearized net (``luck.linear_buffers``)."""
    needed = settings.checker_plies > 0
    size = MAX_PLAYS if needed else 1
    # the net's luck measures each roll with the search's reply (kernels.luck)
    replies = needed or (settings.variance_reduction and settings.policy == POLICY_NET)
    stages = np.zeros((2, 3))
    stages[0, 0], stages[0, 1], stages[0, 2] = settings.accept0, settings.extra0, settings.threshold0
    stages[1, 0], stages[1, 1], stages[1, 2] = settings.accept1, settings.extra1, settings.threshold1
    return (work_buffers(replies, weights), stages, np.empty((size, 5)),
            np.zeros(size, dtype=np.int64), linear_buffers())


#: ``met`` for money rollouts, which never read it
NO_MATCH_TABLE = np.zeros((2, 1))


@njit(cache=True, nogil=True)
def trial_seed(seed, trial):
    """A well-mixed 64-bit seed for one trial's dice stream."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = uint64(seed) ^ (uint64(trial) * uint64(0xD1B54A32D192ED03))
    next_u64(state)
    return next_u64(state)


@njit(cache=True, nogil=True)
def _choose_play(count, policy, params, weights, state, boards, probs, mover_best, choice):
    """Index of the play the policy picks: uniformly at random, or greedily (0-ply) by the
    values the luck uses (``luck.best_value``, its net scratch ``choice`` without reference
    boards, so that each roll's choice is evaluated afresh as before)."""
    if policy == POLICY_RANDOM:
        return np.int64(next_u64(state) % uint64(count))
    drop_references(choice)
    return best_value(count, policy, params, weights, boards, probs, mover_best, choice)


@njit(cache=True, nogil=True)
def _searched_choice(count, boards, settings, params, weights, search):
    """The play the filtered search at ``settings.checker_plies`` picks (money values)."""
    work, stages, scores, depth, _ = search
    return choose_play(count, boards, settings.checker_plies, stages, MONEY_VALUES,
                       settings.policy, params, weights, True, work, scores, depth)


@njit(cache=True, nogil=True)
def _cube_probabilities(board, settings, params, weights, search, probs):
    """The probabilities a cube decision reads: at ``settings.checker_plies``."""
    if settings.checker_plies > 0:
        node_probabilities(board, settings.checker_plies, 0, MONEY_VALUES, settings.policy,
                           params, weights, True, search[0], probs)
    else:
        evaluate(board, 1, settings.policy, params, probs)


@njit(cache=True, nogil=True)
def play_trial(board, state, first_rolls, settings, params, weights, buffers, scratch, out,
               met, search):
    """Play one game from ``board`` (modified; row 1 on roll) with ``settings`` (a
    ``PlayoutSettings``) and write the root player's five outcome values, less the summed
    luck with ``settings.variance_reduction``, into ``out``. ``first_rolls`` holds the first
    two roll indices (0..35, -1 for random ones), ``buffers`` is ``movegen.new_buffers()``,
    ``scratch`` a (5, 5) float array and ``search`` ``search_buffers(settings, weights)``.
    With ``settings.checker_plies`` > 0 (not the random policy) each play is the one the
    filtered n-ply search ranks first (``bgcli.kernels.search.choose_play``, money
    equity, ``settings.move_filter``), and cubeful decisions read the probabilities at that
    depth; the luck of variance reduction is still measured at 0 ply (any measure keeps
    the estimate unbiased).
    With ``settings.bearoff_truncation`` a game ends as soon as both sides are in the
    two-sided bear-off table held in ``params``, scored with its exact chances (gnubg's
    bear-off truncation). The net policy chooses plays with ``weights``
    (``net.playout_weights(params)``) and evaluates positions (truncation, cube decisions)
    with ``params``.

    With ``settings.cubeful`` (money play) the player on roll may double before each roll
    when the cube is centred or theirs: the evaluator's probabilities go through Janowski's
    model (``bgcli.kernels.cube``); a pass ends the game. The root player does not double before
    the first roll: that decision is what cube analysis rolls out (No double against
    Double/take). ``settings.cube_owner`` is the cube's owner at the start from the root
    player's side (0 centred, 1 root, 2 opponent). Returns the root player's cubeful points in
    units of the starting cube (0.0 when not cubeful); a game cut short (truncation, bear-off
    table) is scored with the cubeful equity there.

    With ``settings.match`` too, the cube decisions are the match's (``bgcli.kernels.match_cube``
    with the table ``met``, at the score and Crawford rule of the settings: no doubling in the
    Crawford game, none by a side the cube already gives the match), and the value returned is
    the root player's match winning chance after the game (a game cut short: its cubeful MWC
    there)."""
    boards, steps, keys, table, work = buffers
    policy = settings.policy  # the two settings read most, by short names
    jacoby = settings.jacoby
    luck = scratch[0]  # root player's side, accumulated
    probs = scratch[1]
    mover_value = scratch[2]
    mean_value = scratch[3]
    actual_value = scratch[4]
    luck_choice = choice_buffers(weights)  # the net's choice scratch (kernels.luck, plays)
    for k in range(5):
        luck[k] = 0.0
    ply = 0
    root_on_roll = True
    cube = 1.0
    owner = settings.cube_owner  # from the root player's side
    points = 0.0
    finished = False  # the game ended on the board (not cut short, not passed)
    passed = False
    while True:
        if settings.bearoff_truncation and twosided_win(board, 1, params) >= 0.0:
            break  # scored below with the table's exact chances
        # the first decision is the caller's: the game starts rolling
        if settings.cubeful and ply > 0:
            mover_owner = _mover_owner(owner, root_on_roll)
            if mover_owner != THEIRS:
                _cube_probabilities(board, settings, params, weights, search, probs)
                if settings.match:
                    doubles, takes = _match_cube_action(probs, board, settings, met, cube,
                                                        mover_owner, root_on_roll)
                else:
                    doubles, takes = doubles_and_takes(probs, efficiency(board, 1), mover_owner,
                                                       jacoby)
                if doubles and takes:
                    cube *= 2.0
                    owner = 2 if root_on_roll else 1
                elif doubles:  # a pass: the doubler wins the cube as it was, a single game
                    for k in range(5):
                        out[k] = 0.0
                    out[0] = 1.0 if root_on_roll else 0.0
                    points = cube if root_on_roll else -cube
                    if settings.match:
                        points = _root_mwc(settings, met, cube, 1.0, root_on_roll)
                    passed = True
                    break
        # --- the roll
        if ply < 2 and first_rolls[ply] >= 0:
            d1 = first_rolls[ply] // 6 + 1
            d2 = first_rolls[ply] % 6 + 1
        else:
            d1, d2 = roll_dice(state)
            while settings.initial and ply == 0 and d1 == d2:
                d1, d2 = roll_dice(state)
        # --- the luck of that roll, measured before it is played
        if settings.variance_reduction:  # (kernels.luck)
            if policy == POLICY_NET:  # the search's reply: the pruning net screens plays
                screened_roll_values(board, d1, d2, params, weights, search[0], search[4],
                                     probs, mover_value, mean_value, actual_value)
            else:
                roll_values(board, d1, d2, policy, params, weights, buffers, luck_choice,
                            probs, mover_value, mean_value, actual_value)
            if not (settings.initial and ply == 0):
                _add_luck(luck, actual_value, mean_value, root_on_roll)
        # --- the play
        count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
        if settings.checker_plies > 0 and policy != POLICY_RANDOM and count > 1:
            choice = _searched_choice(count, boards, settings, params, weights, search)
        else:
            choice = _choose_play(count, policy, params, weights, state, boards, probs,
                                  mover_value, luck_choice)
        mover_done = True
        for index in range(25):
            if boards[choice, 1, index] > 0:
                mover_done = False
                break
        for index in range(25):  # swap: the opponent is now on roll
            board[0, index] = boards[choice, 1, index]
            board[1, index] = boards[choice, 0, index]
        ply += 1
        root_on_roll = not root_on_roll
        if mover_done or (settings.truncate > 0 and ply >= settings.truncate):
            finished = mover_done
            break
    if not passed:
        evaluate(board, 1, policy, params, probs)  # exact when the game is over or in the table
        if root_on_roll:
            for k in range(5):
                out[k] = probs[k]
        else:
            swap_sides(probs, out)
        if settings.cubeful and settings.match:
            points = _match_end_mwc(board, probs, out, settings, met, cube, owner, root_on_roll,
                                    finished)
        elif settings.cubeful and finished:
            points = cube * _game_points(out, jacoby and owner == 0)
        elif settings.cubeful:
            points = _cut_short_points(board, probs, cube, owner, jacoby, root_on_roll)
    if settings.variance_reduction:
        for k in range(5):
            out[k] -= luck[k]
    return points


@njit(cache=True, nogil=True)
def _mover_owner(owner, root_on_roll):
    """The cube owner (root's side: 0 centred, 1 root, 2 opponent) from the mover's side."""
    if owner == 0:
        return CENTRED
    return OWN if (owner == 1) == root_on_roll else THEIRS


@njit(cache=True, nogil=True)
def _game_points(root_values, single_only):
    """The root player's points in a finished game from its 0/1 indicators."""
    if root_values[0] > 0.5:
        return 1.0 if single_only else 1.0 + root_values[1] + root_values[2]
    return -1.0 if single_only else -(1.0 + root_values[3] + root_values[4])


@njit(cache=True, nogil=True)
def _cut_short_points(board, probs, cube, owner, jacoby, root_on_roll):
    """Root's cubeful points for a game stopped with ``probs`` for the player on roll."""
    value = cube * cubeful_equity(probs, efficiency(board, 1), _mover_owner(owner, root_on_roll),
                                  jacoby)
    return value if root_on_roll else -value


@njit(cache=True, nogil=True)
def _aways(settings, root_on_roll):
    """(away of the player on roll, away of the other) at the settings' score."""
    if root_on_roll:
        return settings.away_root, settings.away_opponent
    return settings.away_opponent, settings.away_root


@njit(cache=True, nogil=True)
def _match_cube_action(probs, board, settings, met, cube, mover_owner, root_on_roll):
    """(doubles, takes) for the player on roll at the match score; ``cube`` is in units of
    the starting cube."""
    mine, theirs = _aways(settings, root_on_roll)
    value = int(cube) * settings.cube_value
    return match_doubles_and_takes(probs, efficiency(board, 1), met, mine, theirs,
                                   settings.crawford, value, mover_owner)


@njit(cache=True, nogil=True)
def _root_mwc(settings, met, cube, game_points, root_wins):
    """The root player's MWC once a game worth ``game_points`` times the cube ends."""
    points = int(cube) * settings.cube_value * int(game_points + 0.5)
    return mwc_after(met, settings.away_root, settings.away_opponent, points, root_wins,
                     settings.crawford)


@njit(cache=True, nogil=True)
def _match_end_mwc(board, probs, root_values, settings, met, cube, owner, root_on_roll,
                   finished):
    """The root player's MWC at the end of a game: from the result of a finished one, else
    the cubeful MWC of the player on roll where it was cut short (``probs`` theirs)."""
    if finished:
        if root_values[0] > 0.5:
            return _root_mwc(settings, met, cube, 1.0 + root_values[1] + root_values[2], True)
        return _root_mwc(settings, met, cube, 1.0 + root_values[3] + root_values[4], False)
    mine, theirs = _aways(settings, root_on_roll)
    value = cubeful_mwc(probs, efficiency(board, 1), met, mine, theirs, settings.crawford,
                        int(cube) * settings.cube_value, _mover_owner(owner, root_on_roll))
    return value if root_on_roll else 1.0 - value


@njit(cache=True, nogil=True)
def _add_luck(luck, actual, mean, root_on_roll):
    """Add the mover's luck (actual - mean, mover's side) to the root player's total."""
    if root_on_roll:
        for k in range(5):
            luck[k] += actual[k] - mean[k]
    else:
        luck[0] -= actual[0] - mean[0]
        luck[1] += actual[3] - mean[3]
        luck[2] += actual[4] - mean[4]
        luck[3] += actual[1] - mean[1]
        luck[4] += actual[2] - mean[2]


_BLOCK = 16  # the most trials per parallel work item; each item has its own buffers


@njit(cache=True, nogil=True, parallel=True)
def play_trials(start, first_trial, n_trials, seed, first_rolls, settings, params, out,
                cube_out, met, block_trials):
    """Trials ``first_trial .. first_trial + n_trials - 1`` of a rollout seeded ``seed`` from
    ``start`` with ``settings`` (a ``PlayoutSettings``) into ``out[0:n_trials]`` (and with
    ``settings.cubeful`` their cubeful points, or at a match score their MWC with the table
    ``met``, into ``cube_out[0:n_trials]``; see ``play_trial``). ``first_rolls[i]`` holds
    trial i's first two roll indices (0..35), or -1 for random ones. The threads take
    ``block_trials`` trials at a time (1 to ``_BLOCK``; the numbers do not depend on it)."""
    block_trials = min(max(block_trials, 1), _BLOCK)
    n_blocks = (n_trials + block_trials - 1) // block_trials
    if settings.policy == POLICY_NET:
        weights = playout_weights(params)
    else:
        weights = np.zeros(1, np.float32)
    for block in prange(n_blocks):
        buffers = new_buffers()
        scratch = np.zeros((5, 5))
        search = search_buffers(settings, weights)
        board = np.empty((2, 25), dtype=np.int8)
        state = np.empty(1, dtype=np.uint64)
        rolls = np.empty(2, dtype=np.int64)
        for t in range(block * block_trials, min(n_trials, (block + 1) * block_trials)):
            trial = first_trial + t
            board[:, :] = start
            state[0] = trial_seed(seed, trial)
            rolls[0] = first_rolls[t, 0]
            rolls[1] = first_rolls[t, 1]
            cube_out[t] = play_trial(board, state, rolls, settings, params, weights, buffers,
                                     scratch, out[t], met, search)


def rollout_trials(start, first_trial, n_trials, seed, first_rolls, initial, policy, params,
                   truncate, variance_reduction, bearoff_truncation, cubeful, cube_owner,
                   jacoby, out, cube_out, block_trials=_BLOCK):
    """Python helper: ``play_trials`` with the settings as separate arguments, the form
    callers written before ``PlayoutSettings`` use (tests/test_rollout.py,
    scripts/bench_net.py); new code builds the record and calls ``play_trials``."""
    settings = playout_settings(policy, initial, truncate, variance_reduction,
                                bearoff_truncation, cubeful, cube_owner, jacoby)
    play_trials(start, first_trial, n_trials, seed, first_rolls, settings, params, out,
                cube_out, NO_MATCH_TABLE, block_trials)
