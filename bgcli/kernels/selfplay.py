"""Self-play kernels: TD(lambda) training of the net, and matches between two policies.

TD(lambda) (Sutton; Tesauro's TD-Gammon): both sides are played greedily (0-ply) by the
current net. The five values are tracked in a fixed frame, player 0's (its win, its gammon
and backgammon wins, its gammon and backgammon losses), so one set of eligibility traces
serves both players: with player 1 on roll the net's outputs ``y`` map to
``(1 - y0, y3, y4, y1, y2)``. Each ply: ``delta = A(next) - A(now)`` (the exact 0/1 outcome
at the end), ``w += alpha * sum_k delta_k * e_k``, then ``e_k = lambda * e_k + grad A_k(next)``.

Dice: game ``g`` of a run seeded ``seed`` draws from ``trial_seed(seed, g)``, so a run resumed
at game ``g`` plays exactly the games it would have played without stopping.

Exploration (``explore`` > 0): that share of the games opens with 1..``EXPLORE_PLIES``
uniformly random plays (the count drawn from the game's stream too) before the net takes
over and learning starts from the position reached. Greedy self-play keeps to the positions
the net likes; the random openings put it into the others (checkers sent back, crunched
boards, back games), which rollouts from such positions then need it to play.

Random moves (``explore_moves`` > 0): after the opening, each move with more than one play
is, with that chance, a uniformly random play instead of the greedy one. No update crosses it
(the value before it is not pulled towards a position the greedy play would not make): the
traces are cleared and learning starts afresh from the position it made, as from a training
position. Greedy self-play never learns the value of the plays it does not make, so a net
that misjudges one (running the last checker back rather than waiting for a shot, say) never
finds out; random moves put it there.

Training positions (``positions``, with ``position_share`` > 0): that share of the games
starts from one of the given positions instead (drawn from the game's stream, the player on
roll rolling first, doubles allowed), with no random opening. For the kinds of position
that even exploring games seldom reach (``positions/train_backgames.txt``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, uint64

from .dice import next_u64, roll_dice, uniform
from .evaluate import POLICY_NET, POLICY_RANDOM, equity, evaluate
from .luck import roll_values
from .movegen import generate_plays, new_buffers
from .net import (HIDDEN_ROOM, MAX_NONZERO, N_HIDDEN, N_OUTPUTS, NET_SIZE, PARAMS_SIZE,
                  add_gradient, choice_buffers, encode, forward, is_contact, net_choose,
                  outcome, playout_weights)
from .playout import trial_seed


class SelfPlaySettings(NamedTuple):
    """The scalars of one training run, in one immutable record for ``train_games``
    (``bgcli.train`` builds it; ``self_play_settings`` gives the kernels' exact types)."""

    seed: int  # game g draws from trial_seed(seed, g)
    alpha: float  # the learning rate
    lam: float  # TD(lambda)'s trace decay
    explore: float  # the share of games opening with random plies (module docstring)
    explore_moves: float  # per greedy move: the chance of a random play instead
    position_share: float  # the share of games starting from a training position


def self_play_settings(seed, alpha, lam, explore=0.0, explore_moves=0.0,
                       position_share=0.0) -> SelfPlaySettings:
    """Python helper: a ``SelfPlaySettings`` with every field converted to the kernels' type."""
    return SelfPlaySettings(int(seed), float(alpha), float(lam), float(explore),
                            float(explore_moves), float(position_share))


@njit(cache=True, nogil=True)
def _to_frame(y, player, a):
    """Raw outputs of the side on roll -> player 0's frame."""
    if player == 0:
        for k in range(5):
            a[k] = y[k]
    else:
        a[0] = 1.0 - y[0]
        a[1] = y[3]
        a[2] = y[4]
        a[3] = y[1]
        a[4] = y[2]


@njit(cache=True, nogil=True, error_model="numpy")
def _evaluate_into(params, board, player, idx, val, z, h, y, a):
    """Forward pass on ``board`` (row 1 on roll, absolute ``player``): fills the buffers and
    ``a`` (player 0's frame); returns the net's offset and the number of nonzero inputs."""
    n = encode(board, 1, idx, val)
    offset = 0 if is_contact(board, 1) else NET_SIZE
    forward(params, offset, idx, val, n, z, h, y)
    _to_frame(y, player, a)
    return offset, n


@njit(cache=True, nogil=True, error_model="numpy")
def _add_traces(params, offset, idx, val, n, z, h, y, player, traces):
    coef = np.zeros(N_OUTPUTS)
    for k in range(5):
        # A_k = c + sign * y_src: which raw output feeds frame output k, with which sign
        if player == 0:
            src, sign = k, 1.0
        elif k == 0:
            src, sign = 0, -1.0
        elif k == 1:
            src, sign = 3, 1.0
        elif k == 2:
            src, sign = 4, 1.0
        elif k == 3:
            src, sign = 1, 1.0
        else:
            src, sign = 2, 1.0
        for m in range(5):
            coef[m] = 0.0
        coef[src] = sign
        add_gradient(params, offset, idx, val, n, z, h, y, coef, traces[k])


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _td_update(params, traces, delta, lam):
    """``params += sum_k delta[k] * traces[k]``, then every trace decays by ``lam``. Takes
    the slices of the nets in use and indexes them from 0 (as ``net._row`` explains, an
    offset index would keep the loop from vectorising)."""
    for i in range(params.shape[0]):
        params[i] += (delta[0] * traces[0, i] + delta[1] * traces[1, i]
                      + delta[2] * traces[2, i] + delta[3] * traces[3, i]
                      + delta[4] * traces[4, i])
        traces[0, i] *= lam
        traces[1, i] *= lam
        traces[2, i] *= lam
        traces[3, i] *= lam
        traces[4, i] *= lam


#: The most random plays an exploring game opens with: too few to finish a game.
EXPLORE_PLIES = 10


@njit(cache=True, nogil=True)
def _random_opening(board, state, explore, boards, steps, keys, table, work):
    """With probability ``explore``, play 1..EXPLORE_PLIES uniformly random plies on
    ``board`` (row 1 on roll, swapped after each); the number played (0 when not exploring;
    then nothing is drawn from ``state``)."""
    if explore <= 0.0:
        return 0
    if uniform(state) >= explore:
        return 0
    plies = 1 + np.int64(next_u64(state) % np.uint64(EXPLORE_PLIES))
    for ply in range(plies):
        d1, d2 = roll_dice(state)
        while ply == 0 and d1 == d2:
            d1, d2 = roll_dice(state)
        count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
        choice = np.int64(next_u64(state) % np.uint64(count))
        for index in range(25):
            board[0, index] = boards[choice, 1, index]
            board[1, index] = boards[choice, 0, index]
    return plies


@njit(cache=True, nogil=True, error_model="numpy")
def train_games(params, start, first_game, n_games, settings, positions, stats):
    """Train ``params`` in place on games ``first_game .. first_game + n_games - 1`` with
    ``settings`` (a ``SelfPlaySettings``): the share ``settings.explore`` of them from a
    random opening, and (when ``positions``, an array of boards with row 1 on roll, is not
    empty) the share ``settings.position_share`` of them from one of ``positions`` (see the
    module docstring). With no positions (or a share of 0) the games are exactly those of a
    run without them.

    ``stats`` (float64[3]) accumulates plies played, player 0's points, games."""
    seed = settings.seed
    alpha = settings.alpha
    lam = settings.lam
    explore = settings.explore
    explore_moves = settings.explore_moves
    position_share = settings.position_share
    boards, steps, keys, table, work = new_buffers()
    traces = np.zeros((5, params.size))  # the weights alone: no bear-off tables here
    board = np.empty((2, 25), dtype=np.int8)
    state = np.empty(1, dtype=np.uint64)
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z = np.empty(N_HIDDEN)
    h = np.empty(HIDDEN_ROOM)
    y = np.empty(N_OUTPUTS)
    now = np.empty(5)
    nxt = np.empty(5)
    delta = np.empty(5)
    probs = np.empty(5)
    for game in range(first_game, first_game + n_games):
        state[0] = trial_seed(seed, game)
        traces[:, :] = 0.0
        opening = True  # the game starts from the opening position: no doubles first
        if positions.shape[0] > 0 and position_share > 0.0 and uniform(state) < position_share:
            board[:, :] = positions[next_u64(state) % uint64(positions.shape[0])]
            opening = False
            ply = 0
        else:
            board[:, :] = start
            ply = _random_opening(board, state, explore, boards, steps, keys, table, work)
        player = ply % 2
        offset, n = _evaluate_into(params, board, player, idx, val, z, h, y, now)
        _add_traces(params, offset, idx, val, n, z, h, y, player, traces)
        used_contact = offset == 0
        used_race = offset != 0
        while True:
            d1, d2 = roll_dice(state)
            while opening and ply == 0 and d1 == d2:
                d1, d2 = roll_dice(state)
            count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
            exploring = (explore_moves > 0.0 and count > 1
                         and uniform(state) < explore_moves)
            if exploring:  # a random play: learn what follows it, not across it
                choice = np.int64(next_u64(state) % uint64(count))
            else:  # the incremental chooser, in float64 here: the weights change every ply
                choice = net_choose(count, params, boards, probs, False)
            for index in range(25):
                board[0, index] = boards[choice, 1, index]
                board[1, index] = boards[choice, 0, index]
            ply += 1
            player = 1 - player
            over = True
            for index in range(25):
                if board[0, index] > 0:
                    over = False
                    break
            if over:
                outcome(board, 1, y)
                _to_frame(y, player, nxt)
            else:
                _evaluate_into(params, board, player, idx, val, z, h, y, nxt)
            for k in range(5):
                delta[k] = alpha * (nxt[k] - now[k])
            # only the nets this game has used have nonzero traces
            lo = 0 if used_contact else NET_SIZE
            hi = PARAMS_SIZE if used_race else NET_SIZE
            if exploring:  # the game starts afresh from the position the random play made
                traces[:, lo:hi] = 0.0
                traces[:, PARAMS_SIZE:] = 0.0  # the second layer's, if any
                used_contact = used_race = False
            else:
                _td_update(params[lo:hi], traces[:, lo:hi], delta, lam)
                if used_contact and params.size > PARAMS_SIZE:  # the contact net's 2nd layer
                    _td_update(params[PARAMS_SIZE:], traces[:, PARAMS_SIZE:], delta, lam)
            if over:
                stats[1] += nxt[0] * 2.0 - 1.0 + nxt[1] + nxt[2] - nxt[3] - nxt[4]
                break
            offset, n = _evaluate_into(params, board, player, idx, val, z, h, y, now)
            _add_traces(params, offset, idx, val, n, z, h, y, player, traces)
            if offset == 0:
                used_contact = True
            else:
                used_race = True
        stats[0] += ply
        stats[2] += 1.0


def td_train(params, start, seed, first_game, n_games, alpha, lam, explore, stats,
             positions, position_share, explore_moves):
    """Python helper: ``train_games`` with the settings as separate arguments, the form
    callers written before ``SelfPlaySettings`` use (tests/test_net.py)."""
    settings = self_play_settings(seed, alpha, lam, explore, explore_moves, position_share)
    train_games(params, start, first_game, n_games, settings, positions, stats)


@njit(cache=True, nogil=True)
def _choose(count, policy, params, choice_state, boards, probs):
    if policy == POLICY_RANDOM:
        return np.int64(next_u64(choice_state) % uint64(count))
    best = -1e9
    choice = 0
    for i in range(count):
        evaluate(boards[i], 0, policy, params, probs)
        value = -equity(probs)
        if value > best:
            best = value
            choice = i
    return choice


@njit(cache=True, nogil=True)
def play_match(start, seed, first_deal, n_deals, policy_a, params_a, policy_b, params_b, out):
    """Deal ``d`` is played twice with the same dice: A moving first, then B moving first.
    ``out[d, g]`` gets A's points (+-1, 2, 3) in game ``g``."""
    no_judge = np.empty(0)
    play_match_luck(start, seed, first_deal, n_deals, policy_a, params_a, policy_b, params_b,
                    no_judge, out, np.empty((0, 2)))


@njit(cache=True, nogil=True)
def play_match_luck(start, seed, first_deal, n_deals, policy_a, params_a, policy_b, params_b,
                    judge, out, luck_out):
    """``play_match``, and with net weights ``judge`` (not empty) A's luck in each game into
    ``luck_out[d, g]``: the sum over its rolls of the cubeless equity of the roll's best play
    less the mean over the 21 rolls, B's rolls counted against it, all valued by ``judge``
    at 0 ply (``luck.roll_values``; the opening roll, rerolled on doubles, is left out).
    Each roll's luck has expectation zero whatever the judge, so ``out - luck_out`` is an
    unbiased score of A with much of the dice's noise taken out."""
    # the luck is measured before the roll's plays are generated: it can use their buffers
    move_buffers = new_buffers()
    boards, steps, keys, table, work = move_buffers
    board = np.empty((2, 25), dtype=np.int8)
    state = np.empty(1, dtype=np.uint64)
    choice_state = np.empty(1, dtype=np.uint64)
    probs = np.empty(5)
    with_luck = judge.size > 0
    judge_weights = playout_weights(judge) if with_luck else np.empty(0, dtype=np.float32)
    luck_choice = choice_buffers(judge_weights)
    mover_value, mean_value, actual_value = np.empty(5), np.empty(5), np.empty(5)
    for d in range(n_deals):
        deal = first_deal + d
        for g in range(2):
            state[0] = trial_seed(seed, deal)
            choice_state[0] = trial_seed(seed ^ 0x5EED, deal)
            board[:, :] = start
            a_on_roll = g == 0
            ply = 0
            luck_a = 0.0
            while True:
                d1, d2 = roll_dice(state)
                while ply == 0 and d1 == d2:
                    d1, d2 = roll_dice(state)
                if with_luck and ply > 0:
                    roll_values(board, d1, d2, POLICY_NET, judge, judge_weights, move_buffers,
                                luck_choice, probs, mover_value, mean_value, actual_value)
                    luck = equity(actual_value) - equity(mean_value)
                    luck_a += luck if a_on_roll else -luck
                count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
                if a_on_roll:
                    choice = _choose(count, policy_a, params_a, choice_state, boards, probs)
                else:
                    choice = _choose(count, policy_b, params_b, choice_state, boards, probs)
                for index in range(25):
                    board[0, index] = boards[choice, 1, index]
                    board[1, index] = boards[choice, 0, index]
                ply += 1
                over = True
                for index in range(25):
                    if board[0, index] > 0:
                        over = False
                        break
                if over:
                    outcome(board, 0, probs)  # the mover (now row 0) has won
                    points = 1.0 + probs[1] + probs[2]
                    out[d, g] = points if a_on_roll else -points
                    if with_luck:
                        luck_out[d, g] = luck_a
                    break
                a_on_roll = not a_on_roll
