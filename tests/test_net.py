"""The neural evaluator: encoding, forward pass, gradients, TD updates, training, weights."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bgcli.kernels import net
from bgcli.position import Position
from cli_helpers import reaped, run, stop

START = np.ascontiguousarray(Position.start().board, dtype=np.int8)


def dense(board, me=1):
    idx = np.zeros(net.MAX_NONZERO, dtype=np.int64)
    val = np.zeros(net.MAX_NONZERO)
    n = net.encode(board, me, idx, val)
    x = np.zeros(net.N_INPUTS)
    x[idx[:n]] = val[:n]
    assert len(set(idx[:n])) == n  # each input at most once
    return x, idx, val, n


def reference_forward(params, offset, x):
    """A plain numpy version of the documented layout and activations."""
    N, H = net.N_INPUTS, net.N_HIDDEN
    w1 = params[offset:offset + N * H].reshape(N, H)
    b1 = params[offset + net.B1_AT:offset + net.B1_AT + H]
    w2 = params[offset + net.W2_AT:offset + net.B2_AT].reshape(5, H)
    b2 = params[offset + net.B2_AT:offset + net.NET_SIZE]
    z = b1 + x @ w1
    h = 0.5 + 0.5 * z / (1.0 + np.abs(z))
    return 1.0 / (1.0 + np.exp(-(w2 @ h + b2)))


def a_middle_game():
    board = np.zeros((2, 25), dtype=np.int8)
    board[1, [23, 12, 7, 5, 3, 24]] = [1, 4, 3, 4, 2, 1]  # 15, one on the bar
    board[0, [23, 18, 12, 5, 4, 2]] = [2, 1, 5, 4, 1, 1]  # 14: one borne off
    return board


def test_layout_sizes():
    assert net.N_INPUTS == 234
    assert net.NET_SIZE == net.N_INPUTS * net.N_HIDDEN + 6 * net.N_HIDDEN + 5
    assert net.PARAMS_SIZE == 2 * net.NET_SIZE


def test_encoding_of_the_start_position():
    x, *_ = dense(START)
    side = np.zeros(98)
    for i, n in ((5, 5), (7, 3), (12, 5), (23, 2)):
        side[4 * i:4 * i + min(n, 3)] = 1.0
        side[4 * i + 3] = max(n - 3, 0) / 2
    # pips, exposed blots, home points, prime; escape: the back checkers face made points
    # 5, 7 and 12 pips ahead, and no roll gets past the 12th; containment: the fewest
    # escapes of an opposing checker from our 10-point back to the bar, which is none, on
    # their 24-point; no blots, no shots, no pips lost; to break contact the checkers
    # must pass the other's back checkers on our 1-point: all 167 pips;
    # timing: the anchor and two on the 6-point stay, the rest can move 5*12 + 3*7 + 3*5;
    # one point held in the other's home board is no back game
    assert [reference_escapes(START, 1, p) for p in range(15, 25)] == [
        29, 26, 18, 16, 10, 6, 4, 1, 0, 9]
    # then: the rearmost checker on the 24-point, and the rearmost made point; the most
    # forward anchor the 13-point; no blot to hit twice; the opposing back checkers are on
    # our 1-point, so the near containment is the full one; mobility: the 8, 13 and
    # 24-point checkers, by the rolls that take each past our opponent's points; the one-
    # sided moment of the 24 and 13-point checkers about the mean point 167 / 15; one
    # point of the other's home board to dance on
    mobility = sum(n * reference_escapes(START, 1, i) * (i - 5) for i, n in ((7, 3), (12, 5), (23, 2)))
    mean = 167 / 15
    moment = (2 * (24 - mean) ** 2 + 5 * (13 - mean) ** 2) / 7
    features = [167 / 167, 0.0, 1 / 6, 1 / 6, 0.0, 1.0, 0.0, 0.0, 167 / 167, 96 / 100, 0.0,
                24 / 25, 24 / 24, 1 / 6, 0.0, 1.0, mobility / 3600, moment / 400, (1 / 6) ** 2]
    expected = np.concatenate([side, side, features, features])
    np.testing.assert_allclose(x, expected)


def test_encoding_of_a_hand_built_position():
    board = a_middle_game()
    x, *_ = dense(board, me=1)
    assert x[96] == 0.5  # one on the bar / 2
    assert x[97] == 0.0  # none off
    assert x[98 + 97] == pytest.approx(1 / 15)  # the opponent has one off
    assert x[4 * 3:4 * 3 + 4].tolist() == [1, 1, 0, 0]
    assert x[4 * 12:4 * 12 + 4].tolist() == [1, 1, 1, 0.5]
    # our blot on our 24 (their 1) point can be hit by any of theirs; their blots on their
    # 19, 5 and 3 points all have checkers of ours behind them (our bar checker at least)
    assert x[196 + 1] == pytest.approx(1 / 5)
    assert x[196 + net.N_FEATURES + 1] == pytest.approx(3 / 5)
    pips_me = 1 * 24 + 4 * 13 + 3 * 8 + 4 * 6 + 2 * 4 + 25
    assert x[196] == pytest.approx(pips_me / 167)
    assert x[196 + 4] == pytest.approx(reference_escapes(board, 1, 24) / 36)  # from the bar
    # seen from the other side the halves swap
    y, *_ = dense(board, me=0)
    np.testing.assert_array_equal(y[:98], x[98:196])
    np.testing.assert_array_equal(y[196:196 + net.N_FEATURES], x[196 + net.N_FEATURES:])
    # their rearmost checker is on their 24-point, our 1-point: to pass it ours must bear
    # off, all our pips
    assert x[196 + 8] == pytest.approx(pips_me / 167)
    # timing: our 24-point blot keeps nothing; the 6 and 4 points keep two checkers each
    assert x[196 + 9] == pytest.approx((24 + 23 + 4 * 12 + 3 * 7 + 2 * 5 + 0 * 3) / 100)


def reference_escapes(board, mover, point):
    """Rolls (of 36) carrying a lone checker of ``mover`` on ``point`` past every point the
    other side made in the 12 in front of it, moved die by die."""
    def blocked(pips):
        p = point - pips
        return pips <= 12 and p >= 0 and board[1 - mover, 23 - p] >= 2

    furthest = max([k for k in range(1, 13) if blocked(k)], default=0)
    count = 0
    for a in range(1, 7):
        for b in range(1, 7):
            orders = [[a] * 4] if a == b else [[a, b], [b, a]]
            escaped = False
            for dice in orders:
                pips = 0
                for die in dice:
                    pips += die
                    if blocked(pips):
                        break
                    if pips > furthest:
                        escaped = True
                        break
            count += escaped
    return count


def reference_shots(board, side):
    """Rolls (of 36) with which the other side hits a blot of ``side``, move by move."""
    return sum(loss > 0 for loss in reference_losses(board, side))


def reference_pip_loss(board, side):
    """Pips ``side`` loses to a hit, summed over the 36 rolls: each roll hits the blot
    whose loss (pips from its point to the bar) is largest among those it can hit."""
    return sum(reference_losses(board, side))


def reference_double_shots(board, side):
    """Rolls (of 36) with which the other side can hit two different blots of ``side`` (each
    on its own, as ``reference_losses`` finds the hits)."""
    return sum(len(hit) >= 2 for hit in reference_hits(board, side))


def reference_losses(board, side):
    """Per roll (of 36), the most pips a hit of one of ``side``'s blots costs (0: no hit)."""
    return [max([1 + target for target in hit], default=0) for hit in reference_hits(board, side)]


def reference_hits(board, side):
    """Per roll (of 36), the blots of ``side`` (as the hitter's points) it can hit."""
    other = 1 - side
    starts = [24] if board[other, 24] > 0 else [p for p in range(25) if board[other, p] > 0]
    targets = [23 - t for t in range(24) if board[side, t] == 1]

    def open_(q):  # the hitter's point q
        return board[side, 23 - q] < 2

    def hits(a, b, distance, start):
        if distance in (a, b):
            return True
        if a != b:
            return a + b == distance and (open_(start - a) or open_(start - b))
        steps = distance // a
        return (distance % a == 0 and steps <= 4
                and all(open_(start - k * a) for k in range(1, steps)))

    # a blot on side's point t is the hitter's point 23 - t: hit, it loses 24 - t pips
    return [{target for start in starts for target in targets
             if target < start and hits(a, b, start - target, start)}
            for a in range(1, 7) for b in range(1, 7)]


def test_escape_and_shot_counts_by_hand():
    # a lone blot and a lone hitter d pips away, nothing between: the standard shot table
    table = [11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1]
    for d, expected in enumerate(table, start=1):
        board = np.zeros((2, 25), dtype=np.int8)
        board[0, 23] = 1  # side 0's blot, on the hitter's 1-point (index 0)
        board[1, d] = 1  # d = 24: from the bar
        made = 0
        rolls, lost = net.shots(board, 0, made)
        assert rolls == expected == reference_shots(board, 0), d
        assert lost == expected  # hit on the hitter's 1-point, the blot loses just 1 pip
    # a point made 3 pips in front of a hitter 6 away stops only 3-3 of its 17 shots
    board[1] = 0
    board[1, 6] = 1
    board[0, 20] = 2  # the hitter's point 3
    made = 1 << 20
    assert net.shots(board, 0, made)[0] == 16 == reference_shots(board, 0)
    # two blots, 6 and 12 pips in front of the hitter: a roll that can hit either takes the
    # one on the hitter's 6-point, which loses 7 pips; the other loses 1
    board[0, 17] = 1
    board[1, 6] = 0
    board[1, 12] = 1
    rolls, lost = net.shots(board, 0, made)
    losses = reference_losses(board, 0)
    near, far_only = losses.count(7), losses.count(1)
    assert near > 0 and far_only > 0 and rolls == near + far_only
    assert lost == 7 * near + far_only == reference_pip_loss(board, 0)
    # from the bar against the opening position's home board: 2 blocks, 6 and 8 pips ahead
    assert net.escapes(sum(1 << j for j in range(24) if START[0, j] >= 2), 24) == 9
    assert reference_escapes(START, 1, 24) == 9


def reference_encoding(board, me):
    """The documented inputs, written out plainly (blot exposure by looking behind)."""
    x = np.zeros(net.N_INPUTS)
    for s, side in enumerate((me, 1 - me)):
        other, base = 1 - side, 98 * s
        pips = blots = home = prime = best_prime = timing = back = back_points = 0
        for i in range(24):
            n = int(board[side, i])
            pips += n * (i + 1)
            keep = 2 if n >= 2 and (i < 6 or i >= 18) else 0
            timing += (n - keep) * i
            back += n if i >= 18 else 0
            back_points += n >= 2 and i >= 18
            x[base + 4 * i:base + 4 * i + 3] = [n >= 1, n >= 2, n >= 3]
            x[base + 4 * i + 3] = (n - 3) / 2 if n > 3 else 0.0
            prime = prime + 1 if n >= 2 else 0
            best_prime = max(best_prime, prime)
            home += n >= 2 and i < 6
            blots += n == 1 and any(board[other, 24 - i:] > 0)
        bar = int(board[side, 24])
        x[base + 96] = bar / 2
        x[base + 97] = (15 - int(board[side].sum())) / 15
        rear = max([p for p in range(25) if board[side, p] > 0], default=-1)
        escape = reference_escapes(board, side, rear) / 36 if rear >= 0 else 0.0
        contain = 1 - min(reference_escapes(board, other, p) for p in range(15, 25)) / 36
        # the other's rearmost checker (on the bar: as if on its 24-point), in our numbering
        rear_at = 23 - min(max(p for p in range(25) if board[other, p] > 0), 23)
        to_break = sum(int(board[side, p]) * (p + 1 - rear_at) for p in range(rear_at, 25))
        made = [i for i in range(24) if board[side, i] >= 2]
        forward = [i for i in made if i >= 12]
        other_rear = max([p for p in range(25) if board[other, p] > 0], default=-1)
        near = [reference_escapes(board, other, p) for p in range(15, other_rear + 1)]
        mobility = sum(int(board[side, i]) * reference_escapes(board, side, i) * (i - 5)
                       for i in range(6, 25))
        where = [p + 1 for p in range(25) for _ in range(int(board[side, p]))]
        mean = sum(where) / len(where) if where else 0.0
        behind = [w - mean for w in where if w > mean]
        moment = sum(d * d for d in behind) / len(behind) if behind else 0.0
        other_home = sum(board[other, i] >= 2 for i in range(6))
        x[196 + net.N_FEATURES * s:196 + net.N_FEATURES * (s + 1)] = [
            (pips + 25 * bar) / 167, blots / 5, home / 6, best_prime / 6, escape, contain,
            reference_shots(board, side) / 36, reference_pip_loss(board, side) / (36 * 12),
            to_break / 167, (timing + 24 * bar) / 100, back / 6 if back_points >= 2 else 0.0,
            (rear + 1) / 25, (max(made) + 1) / 24 if made else 0.0,
            (min(forward) - 11) / 6 if forward else 0.0,
            reference_double_shots(board, side) / 36, 1 - min(near, default=36) / 36,
            mobility / 3600, moment / 400, (other_home / 6) ** 2]
    return x


def random_game_boards(games, seed):
    """Positions (row 1 on roll) from uniformly random games: every phase of a game."""
    from bgcli.kernels.movegen import new_buffers
    from bgcli.kernels.random_play import random_game_positions
    buffers = new_buffers()
    state = np.array([seed], dtype=np.uint64)
    found = []
    for _ in range(games):
        out = np.zeros((400, 2, 25), dtype=np.int8)
        dice = np.zeros((400, 2), dtype=np.int64)
        plies = random_game_positions(START.copy(), state, 400, out, dice, *buffers)
        found.extend(out[:plies])
    return found


def test_encoding_matches_a_plain_reference_in_random_games():
    boards = random_game_boards(20, seed=5)
    assert len(boards) > 1000
    seen = np.zeros(net.N_INPUTS, dtype=int)
    for board in boards[::3]:
        for me in (0, 1):
            x, *_ = dense(board, me)
            np.testing.assert_allclose(x, reference_encoding(board, me), rtol=1e-15)
            seen += x != 0
    features = seen[196:].reshape(2, net.N_FEATURES)
    assert (features > 20).all()  # every feature of both sides was checked nonzero, often


def test_folding_the_linear_extras_keeps_the_function():
    """``fold_linear_extras``: pips, borne off and timing are linear in the point and bar
    inputs, so their rows fold into those rows and b1; every output stays the same, and the
    incremental chooser skipping those rows picks the same plays."""
    from bgcli.kernels.movegen import generate_plays, new_buffers
    params = net.init_params(4) + np.random.default_rng(4).normal(0, 0.2, net.PARAMS_SIZE)
    folded = net.fold_linear_extras(params)
    for k in net.LINEAR_EXTRAS:
        for s in range(2):
            row = net.extra_input(s, k) * net.N_HIDDEN
            assert not folded[row:row + net.N_HIDDEN].any() and params[row:row + net.N_HIDDEN].any()
    buffers = new_buffers()
    probs, chosen = np.zeros(5), np.zeros(5)
    boards = random_game_boards(4, seed=21)
    for ply, board in enumerate(boards[::4]):
        x, *_ = dense(board)
        for which in (net.CONTACT, net.RACE):
            o = which * net.NET_SIZE
            np.testing.assert_allclose(reference_forward(folded, o, x),
                                       reference_forward(params, o, x), rtol=1e-10)
        count, _ = generate_plays(board, 1 + ply % 6, 1 + (ply // 6) % 6, *buffers)
        plays = buffers[0][:count]
        assert (net.net_choose(count, folded, plays, chosen, True)
                == net.net_choose(count, params, plays, probs, False))
        np.testing.assert_allclose(chosen, probs, rtol=1e-10)


def test_incremental_float32_choice_is_the_float64_evaluation():
    """``net_choose`` (float32 weights, hidden layer updated from point differences) picks
    the play the full float64 evaluation values most, with its probabilities."""
    from bgcli.kernels.movegen import generate_plays, new_buffers
    from bgcli.net import load_params
    params = load_params(None)
    weights = net.playout_weights(params)
    assert weights.dtype == np.float32 and weights.size == net.weights_end(params)
    buffers = new_buffers()
    chosen, probs, full = np.zeros(5), np.zeros(5), np.zeros(5)
    plies = races = 0
    for board in random_game_boards(8, seed=9):
        dice = (1 + plies % 6, 1 + (plies // 6) % 6)
        count, _ = generate_plays(board, *dice, *buffers)
        boards = buffers[0][:count]
        choice = net.net_choose(count, weights, boards, chosen, True)
        values = []
        for result in boards:
            net.net_probabilities(result, 0, params, probs)
            values.append(-(2 * probs[0] - 1 + probs[1] - probs[3] + probs[2] - probs[4]))
        order = np.argsort(values)[::-1]
        if count > 1 and values[order[0]] - values[order[1]] < 1e-5:
            continue  # a near tie: float32 may pick either
        assert choice == order[0]
        net.net_probabilities(boards[choice], 0, params, full)
        np.testing.assert_allclose(chosen, full, atol=2e-6)
        plies += 1
        races += not net.is_contact(boards[choice], 0)
    assert plies > 500 and races > 50  # both nets, every phase


@pytest.mark.parametrize("offset", [0, net.NET_SIZE])
def test_forward_matches_numpy_reference(offset):
    params = net.init_params(3)
    params += np.random.default_rng(4).normal(0, 0.3, params.size)
    for board in (START, a_middle_game()):
        x, idx, val, n = dense(board)
        z, h, y = np.empty(net.N_HIDDEN), np.empty(net.N_HIDDEN), np.empty(5)
        net.forward(params, offset, idx, val, n, z, h, y)
        np.testing.assert_allclose(y, reference_forward(params, offset, x), rtol=1e-12)


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(5)
    params = net.init_params(6) + rng.normal(0, 0.3, net.PARAMS_SIZE)
    board = a_middle_game()
    x, idx, val, n = dense(board)
    coef = rng.normal(size=5)
    z, h, y = np.empty(net.N_HIDDEN), np.empty(net.N_HIDDEN), np.empty(5)
    net.forward(params, 0, idx, val, n, z, h, y)
    grad = np.zeros(net.PARAMS_SIZE)
    net.add_gradient(params, 0, idx, val, n, z, h, y, coef, grad)
    assert not grad[net.NET_SIZE:].any()  # the race net is untouched
    inputs = np.flatnonzero(x)
    checks = [int(i) * net.N_HIDDEN + int(j) for i, j in
              zip(rng.choice(inputs, 10), rng.integers(0, net.N_HIDDEN, 10))]
    checks += [net.B1_AT + 3, net.W2_AT + 2 * net.N_HIDDEN + 7, net.B2_AT + 4,
               5 * net.N_HIDDEN + 1]  # the last: an input that is zero here
    eps = 1e-6
    for i in checks:
        plus, minus = params.copy(), params.copy()
        plus[i] += eps
        minus[i] -= eps
        numeric = (coef @ reference_forward(plus, 0, x) - coef @ reference_forward(minus, 0, x)) / (2 * eps)
        assert grad[i] == pytest.approx(numeric, rel=1e-5, abs=1e-9), i


def test_td_update_on_a_terminal_target_moves_the_outputs_toward_it():
    params = net.init_params(7)
    board = np.zeros((2, 25), dtype=np.int8)
    board[1, 0] = 1  # we bear off our last checker next roll; they have all 15 at home
    board[0, [0, 1, 2]] = [5, 5, 5]
    x, idx, val, n = dense(board)
    offset = net.NET_SIZE  # a race
    assert not net.is_contact(board, 1)
    target = np.array([1.0, 1.0, 0.0, 0.0, 0.0])  # a gammon win
    z, h, y = np.empty(net.N_HIDDEN), np.empty(net.N_HIDDEN), np.empty(5)
    net.forward(params, offset, idx, val, n, z, h, y)
    before = y.copy()
    grad = np.zeros(net.PARAMS_SIZE)
    net.add_gradient(params, offset, idx, val, n, z, h, y, target - y, grad)
    params += 0.1 * grad
    net.forward(params, offset, idx, val, n, z, h, y)
    # a step along the gradient of the squared error lowers it; the outputs far from their
    # targets move toward them (those already near may shift a little through the shared
    # hidden layer)
    assert ((target - y) ** 2).sum() < ((target - before) ** 2).sum()
    assert np.all(np.abs(target - y)[:2] < np.abs(target - before)[:2])


def test_probabilities_are_consistent_and_exact_when_over():
    params = net.init_params(8) + np.random.default_rng(8).normal(0, 1.0, net.PARAMS_SIZE)
    out = np.empty(5)
    for board in (START, a_middle_game()):
        for me in (0, 1):
            net.net_probabilities(board, me, params, out)
            assert 0 <= out[2] <= out[1] <= out[0] <= 1
            assert 0 <= out[4] <= out[3] <= 1 - out[0]
    board = a_middle_game()
    net.net_probabilities(board, 0, params, out)
    assert out[3] == out[4] == 0.0  # row 0 has borne a checker off: it cannot be gammoned
    over = np.zeros((2, 25), dtype=np.int8)
    over[0, 20] = 15
    net.net_probabilities(over, 1, params, out)
    assert out.tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]


def test_no_backgammon_in_a_race_without_a_checker_in_the_winners_home():
    """Past contact, a side with no checker in the other's home board can be gammoned but
    never backgammoned (nothing sends a checker back): the net's probability of it is 0,
    by the full evaluation and by the incremental one of the play choice alike; with a
    checker still there it is not."""
    params = net.init_params(3)
    params[net.B2_AT:net.B2_AT + net.N_OUTPUTS] = 4.0  # every raw output near 1
    params[net.NET_SIZE + net.B2_AT:net.NET_SIZE + net.B2_AT + net.N_OUTPUTS] = 4.0
    race = np.zeros((2, 25), dtype=np.int8)
    race[0, 0:5] = 3   # row 0 all home, none borne off
    race[1, 6:11] = 3  # row 1 on its 7- to 11-points: outside row 0's home, past contact
    out = np.empty(5)
    net.net_probabilities(race, 0, params, out)
    assert out[1] > 0.5 and out[2] == 0.0  # row 0 may gammon row 1, never backgammon it
    net.net_probabilities(race, 1, params, out)
    assert out[3] > 0.0 and out[4] == 0.0
    straggler = race.copy()
    straggler[1, 10] -= 1
    straggler[1, 18] += 1  # one checker of row 1 still in row 0's home board (its 19-point)
    net.net_probabilities(straggler, 0, params, out)
    assert out[2] > 0.5
    # the play choice (the mover in row 1, valued from row 0's side) applies the same rule
    boards = np.stack([race[::-1], straggler[::-1]])
    probs = np.empty(5)
    for weights, folded in ((params, False), (net.playout_weights(params), True)):
        for i in range(2):
            net.net_choose(1, weights, boards[i:i + 1], probs, folded)
            assert (probs[4] == 0.0) == (i == 0)


@pytest.mark.slow
def test_training_is_reproducible_and_resumable(tmp_path):
    from bgcli.train import TrainSettings, train

    settings = TrainSettings(games=200, seed=11, batch=50, check_every=10**9)
    first = train(settings, progress=None)
    second = train(settings, progress=None)
    np.testing.assert_array_equal(first.params, second.params)
    assert not np.array_equal(first.params, net.init_params(11))
    # stopping at 100 and resuming from the checkpoint gives the same weights
    path = tmp_path / "half.npz"
    half = TrainSettings(games=100, seed=11, batch=50, check_every=10**9,
                         checkpoint=str(path))
    train(half, progress=None)
    resumed = train(settings, resume=path, progress=None)
    np.testing.assert_array_equal(resumed.params, first.params)
    assert resumed.games == 200 and resumed.alpha_changes == []
    # a new learning rate on resuming changes the weights from there on, and is recorded
    annealed = train(settings, resume=path, progress=None, resume_alpha=0.02)
    assert not np.array_equal(annealed.params, first.params)
    assert annealed.alpha == 0.02 and annealed.alpha_changes == [{"from_games": 100, "alpha": 0.02}]


@pytest.mark.slow
def test_exploring_games_open_randomly_and_stay_reproducible(tmp_path):
    from bgcli.kernels.movegen import new_buffers
    from bgcli.kernels.selfplay import EXPLORE_PLIES, _random_opening
    from bgcli.train import TrainSettings

    buffers = new_buffers()
    state = np.array([12345], dtype=np.uint64)
    board = START.copy()
    assert _random_opening(board, state, 0.0, *buffers) == 0
    assert state[0] == 12345 and np.array_equal(board, START)  # nothing drawn, nothing played
    counts = []
    for seed in range(40):
        state[0] = seed + 1
        board = START.copy()
        plies = _random_opening(board, state, 1.0, *buffers)
        counts.append(plies)
        assert 1 <= plies <= EXPLORE_PLIES and not np.array_equal(board, START)
        assert board[0].sum() == board[1].sum() == 15  # none borne off so soon
    assert len(set(counts)) > 5
    # training with exploration: reproducible, resumable, recorded, and not plain training
    resumed = _train_resumed_like_straight(tmp_path, explore=0.5)
    assert resumed.explore == 0.5
    assert TrainSettings(explore=1.5).problems() == ["explore must be in [0, 1], not 1.5"]


def _train_resumed_like_straight(tmp_path, **option):
    """Train 120 games with ``option`` straight through, and again from a 40-game checkpoint:
    asserts the two give the same weights, unlike 120 games without the option; the resumed
    run's state."""
    from bgcli.train import TrainSettings, train

    settings = TrainSettings(games=120, seed=5, batch=40, check_every=10**9, **option)
    first = train(settings, progress=None)
    plain = train(TrainSettings(games=120, seed=5, batch=40, check_every=10**9), progress=None)
    assert not np.array_equal(first.params, plain.params)
    path = tmp_path / "half.npz"
    train(TrainSettings(games=40, seed=5, batch=40, check_every=10**9, checkpoint=str(path),
                        **option), progress=None)
    resumed = train(settings, resume=path, progress=None)
    np.testing.assert_array_equal(resumed.params, first.params)
    return resumed


@pytest.mark.slow
def test_training_with_random_moves(tmp_path):
    """--explore-moves: some greedy moves are random ones; reproducible, resumable, recorded,
    and not plain training; learning restarts after each, so games from a position with a
    single legal play at every turn (nothing to explore) train exactly as without."""
    from bgcli.kernels.selfplay import td_train
    from bgcli.train import TrainSettings, make_record

    resumed = _train_resumed_like_straight(tmp_path, explore_moves=0.2)
    assert resumed.explore_moves == 0.2
    record = make_record(resumed, "test")
    assert record["explore_moves"] == 0.2 and record["history"][-1]["explore_moves"] == 0.2
    assert TrainSettings(explore_moves=-0.1).problems() == [
        "explore-moves must be in [0, 1], not -0.1"]
    # a one-checker race: every roll has one play (or bears off), so nothing is explored
    race = Position.from_points({6: 1}, {6: 1})
    boards = np.ascontiguousarray(race.board[None], dtype=np.int8)
    a, b = net.init_params(4), net.init_params(4)
    td_train(a, START, 3, 0, 30, 0.1, 0.7, 0.0, np.zeros(3), boards, 1.0, 0.0)
    td_train(b, START, 3, 0, 30, 0.1, 0.7, 0.0, np.zeros(3), boards, 1.0, 1.0)
    np.testing.assert_array_equal(a, b)


@pytest.mark.slow
def test_training_from_given_positions(tmp_path):
    from bgcli.errors import BgcliError
    from bgcli.kernels.selfplay import td_train
    from bgcli.train import TrainSettings, read_training_positions, train

    # one checker each on its 1-point: whoever is on roll bears off at once, a 1-ply game
    last = Position.from_points({1: 1}, {1: 1})
    boards = np.ascontiguousarray(last.board[None], dtype=np.int8)
    params = net.init_params(3)
    stats = np.zeros(3)
    td_train(params, START, 3, 0, 50, 0.1, 0.7, 0.0, stats, boards, 1.0, 0.0)
    assert stats[0] == 50 and stats[2] == 50  # every game started there
    stats[:] = 0.0
    td_train(params, START, 3, 0, 200, 0.1, 0.7, 0.0, stats, boards, 0.5, 0.0)
    assert 200 + 60 * 20 < stats[0]  # about half the games from the opening, 50+ plies each
    # no positions, or a share of 0, plays exactly the games of a run without them
    plain, none, unused = (net.init_params(4) for _ in range(3))
    td_train(plain, START, 3, 0, 20, 0.1, 0.7, 0.0, np.zeros(3), boards[:0], 0.5, 0.0)
    td_train(unused, START, 3, 0, 20, 0.1, 0.7, 0.0, np.zeros(3), boards, 0.0, 0.0)
    np.testing.assert_array_equal(plain, unused)
    # from a collection file: reproducible, resumable, recorded
    collection = tmp_path / "train.txt"
    collection.write_text(f"# training positions\n{last.position_id()}\n4HPwATDgc/ABMA\n")
    read, about = read_training_positions(collection)
    assert read.shape == (2, 2, 25) and about["count"] == 2 and len(about["sha256"]) == 64
    settings = TrainSettings(games=80, seed=6, batch=40, check_every=10**9,
                             positions=str(collection), position_share=0.5)
    first = train(settings, progress=None)
    path = tmp_path / "half.npz"
    train(TrainSettings(games=40, seed=6, batch=40, check_every=10**9, checkpoint=str(path),
                        positions=str(collection), position_share=0.5), progress=None)
    resumed = train(settings, resume=path, progress=None)
    np.testing.assert_array_equal(resumed.params, first.params)
    assert not np.array_equal(first.params, train(TrainSettings(
        games=80, seed=6, batch=40, check_every=10**9), progress=None).params)
    from bgcli.train import make_record
    assert make_record(resumed, "")["history"][-1]["positions"] == dict(about, share=0.5)
    # a bad row stops training before it starts, naming the row
    bad = tmp_path / "bad.txt"
    bad.write_text("4HPwATDgc/ABMA\nnot-a-position\n")
    with pytest.raises(BgcliError, match="bad.txt:2: "):
        read_training_positions(bad)
    over = Position.from_points({}, {1: 1})
    bad.write_text(f"{over.position_id()}\n")
    with pytest.raises(BgcliError, match="bad.txt:1: .*the game is already over"):
        read_training_positions(bad)
    bad.write_text("# nothing\n")
    with pytest.raises(BgcliError, match="no positions"):
        read_training_positions(bad)
    assert TrainSettings(position_share=2).problems() == ["position-share must be in [0, 1], not 2"]


@pytest.mark.parametrize("name, min_anchors, min_pips_behind",
                         [("train_backgames.txt", 2, 40), ("train_anchors.txt", 1, 60)])
def test_shipped_training_positions_meet_their_rule(name, min_anchors, min_pips_behind):
    from bgcli.train import read_training_positions

    path = Path(__file__).resolve().parents[1] / "positions" / name
    boards, about = read_training_positions(path)
    assert about["count"] == len(boards) > 1000
    assert len({board.tobytes() for board in boards}) == len(boards)  # no repeats
    header = path.read_text().splitlines()[0]
    assert f"holds {min_anchors}+ points" in header and f"trails by {min_pips_behind}+ pips" in header
    for board in boards.astype(np.int64):
        pips = (board * np.arange(1, 26)).sum(axis=1)
        anchors = (board[:, 18:24] >= 2).sum(axis=1)
        assert any(anchors[s] >= min_anchors and pips[s] - pips[1 - s] >= min_pips_behind
                   for s in range(2))


def test_shipped_race_starts_are_races_outside_the_bearoff():
    from bgcli.position import Position
    from bgcli.train import read_training_positions

    path = Path(__file__).resolve().parents[1] / "positions" / "train_races.txt"
    boards, about = read_training_positions(path)
    assert about["count"] == len(boards) > 1000
    assert len({board.tobytes() for board in boards}) == len(boards)  # no repeats
    assert "the first ply where the sides have passed each other" in path.read_text().splitlines()[0]
    for board in boards:
        assert Position(board).is_race()
        assert not Position(board).is_bearoff()


def test_weights_round_trip(tmp_path):
    from bgcli.errors import BgcliError
    from bgcli.net import load_params, read_weights, save_weights

    params = net.init_params(12)
    path = tmp_path / "w.npz"
    save_weights(path, params, {"games": 0, "note": "test"})
    loaded, record = read_weights(path)
    np.testing.assert_array_equal(loaded, params)
    assert record == {"games": 0, "note": "test"}
    np.testing.assert_array_equal(load_params(path), params)
    bad = tmp_path / "bad.npz"
    np.savez(bad, params=np.zeros(3), n_inputs=1, n_hidden=2, record="{}")
    with pytest.raises(BgcliError, match="1-2-5 net"):
        read_weights(bad)
    old_layout = tmp_path / "old.npz"  # an earlier 210-input net: the error says what to do
    np.savez(old_layout, params=np.zeros(3), n_inputs=210, n_hidden=net.N_HIDDEN, record="{}")
    with pytest.raises(BgcliError, match="widen_net_inputs.py in bgcli's source carries 210-input"):
        read_weights(old_layout)
    np.savez(old_layout, params=np.zeros(3), n_inputs=250, n_hidden=net.N_HIDDEN, record="{}")
    with pytest.raises(BgcliError, match="250-80-5 net") as wider:
        read_weights(old_layout)
    assert "widen" not in str(wider.value)  # nothing carries a wider net over


def test_shipped_weights_load_and_have_a_record():
    from bgcli.net import DEFAULT_WEIGHTS, load_params, second_layer_units, weights_record

    assert DEFAULT_WEIGHTS.stat().st_size < 2_000_000
    params = load_params()
    assert second_layer_units(params) is not None and np.all(np.isfinite(params))
    record = weights_record()
    assert record["games"] > 0 and "seed" in record and record["checks"]
    beside = json.loads(DEFAULT_WEIGHTS.with_suffix(".json").read_text())
    assert beside == record


def test_rollout_with_the_net_policy(capsys):
    code, out, err = run(capsys, "rollout", "4HPwATDgc/ABMA", "--policy", "net",
                         "--trials", "36", "--seed", "3", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows[0]["games"] == 36 and 0 < rows[0]["win"] < 1
    # the same dice with the heuristic must be played differently: the net is really used
    code, out, err = run(capsys, "rollout", "4HPwATDgc/ABMA", "--policy", "heuristic",
                         "--trials", "36", "--seed", "3", "--format", "json")
    assert code == 0, err
    heuristic = json.loads(out)[0]
    assert (heuristic["win"], heuristic["equity"]) != (rows[0]["win"], rows[0]["equity"])


def test_net_id_names_the_weights_not_the_file(tmp_path):
    from bgcli.net import DEFAULT_WEIGHTS, load_params, net_id, save_weights, weights_record

    shipped = net_id()
    assert shipped.startswith("sha256:") and f"({weights_record()['games']} games)" in shipped
    assert net_id(DEFAULT_WEIGHTS) == shipped
    copy = tmp_path / "copy.npz"  # the same weights with another record: the same net
    save_weights(copy, load_params(), {"games": weights_record()["games"], "note": "a copy"})
    assert net_id(copy) == shipped
    other = tmp_path / "other.npz"
    save_weights(other, net.init_params(7), {"games": 0})
    assert net_id(other).endswith("(0 games)") and net_id(other)[:19] != shipped[:19]


def test_bgcli_weights_picks_the_net_of_every_command(capsys, tmp_path, monkeypatch):
    from bgcli.net import net_id, save_weights
    from bgcli.prune import prune_id

    def named(weights_id):  # results name the pruning net beside the net
        return f"{weights_id}, prune {prune_id()}"

    mine = tmp_path / "mine.npz"
    save_weights(mine, net.init_params(7), {"games": 0})
    argv = ("rollout", "4HPwATDgc/ABMA", "--trials", "36", "--seed", "3", "-f", "json")
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    shipped = json.loads(out)[0]
    assert shipped["net"] == named(net_id())
    monkeypatch.setenv("BGCLI_WEIGHTS", str(mine))
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    row = json.loads(out)[0]
    assert row["net"] == named(net_id(mine)) != shipped["net"]
    assert (row["win"], row["equity"]) != (shipped["win"], shipped["equity"])
    code, out, err = run(capsys, "best", "4HPwATDgc/ABMA", "31", "--evaluate-only", "-f", "json")
    assert code == 0 and json.loads(out)[0]["net"] == named(net_id(mine)), err
    code, out, err = run(capsys, "rollout", "4HPwATDgc/ABMA", "--trials", "36", "--policy",
                         "heuristic", "-f", "json")
    assert code == 0 and json.loads(out)[0]["net"] is None, err
    monkeypatch.setenv("BGCLI_WEIGHTS", str(tmp_path / "missing.npz"))
    chart = ("chart", "outcomes", "4HPwATDgc/ABMA", "-o", str(tmp_path / "c.svg"))
    for command in (argv, ("cube", "4HPwATDgc/ABMA"), ("batch", "-", "--rollout"), chart):
        code, out, err = run(capsys, *command)
        assert code == 1 and out == "", err
        assert err.splitlines() == [f"bgcli: error: BGCLI_WEIGHTS: no such net weights file: "
                                    f"'{tmp_path / 'missing.npz'}'"]


def test_kernel_cache_follows_every_kernel_source(tmp_path, monkeypatch):
    """numba only notices changes to a function's own file; the cache folder is keyed by a
    hash of all kernel sources instead, so editing one kernel never leaves stale code."""
    import bgcli.kernels as kernels

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    folder = kernels.kernel_cache_dir()
    assert folder.startswith(str(tmp_path)) and len(Path(folder).name) == 16
    assert kernels.kernel_cache_dir() == folder  # stable while the sources are


@pytest.mark.slow
def test_train_command(capsys, tmp_path):
    path = tmp_path / "ck.npz"
    code, out, err = run(capsys, "train", "--games", "40", "--seed", "2", "-o", str(path),
                         "--checkpoint-every", "20", "--check-every", "40",
                         "--check-deals", "4")
    assert code == 0, err
    record = json.loads(out)
    assert record["games"] == 40 and record["seed"] == 2
    assert record["checks"][0]["heuristic"]["games"] == 8
    assert "strength at 40 games" in err and path.exists()
    code, out, err = run(capsys, "train", "--games", "60", "--resume", str(path), "-o",
                         str(path), "--check-every", "1000")
    assert code == 0, err
    resumed = json.loads(out)
    assert resumed["games"] == 60 and resumed["alpha"] == 0.1 and "--alpha" not in resumed["command"]
    code, out, err = run(capsys, "train", "--games", "70", "--resume", str(path), "--alpha", "0.05",
                         "-o", str(path), "--check-every", "1000")
    assert code == 0, err
    record = json.loads(out)
    assert record["alpha"] == 0.05 and record["alpha_changes"] == [{"from_games": 60, "alpha": 0.05}]
    # each run, resumed or not, is in the history
    assert [(run["games"], run["alpha"]) for run in record["history"]] == [
        ([0, 40], 0.1), ([40, 60], 0.1), ([60, 70], 0.05)]
    assert record["explore"] == 0.0
    code, out, err = run(capsys, "train", "--games", "80", "--resume", str(path), "--explore",
                         "0.25", "-o", str(path), "--check-every", "1000")
    assert code == 0, err
    record = json.loads(out)
    assert record["explore"] == 0.25 and record["history"][-1]["explore"] == 0.25
    assert "--explore 0.25" in record["command"]
    # --games counts the checkpoint's games: asking for no more is an error, not a no-op run
    code, out, err = run(capsys, "train", "--games", "80", "--resume", str(path), "-o", str(path))
    assert code != 0 and out == "" and "already has 80 games" in err and "Traceback" not in err
    assert json.loads(str(np.load(path)["record"]))["history"] == record["history"]
    collection = tmp_path / "train.txt"
    collection.write_text("4HPwATDgc/ABMA\n")
    code, out, err = run(capsys, "train", "--games", "90", "--resume", str(path), "--positions",
                         str(collection), "-o", str(path), "--check-every", "1000")
    assert code == 0, err
    record = json.loads(out)
    assert "--positions" in record["command"] and record["history"][-1]["positions"]["count"] == 1
    code, _, err = run(capsys, "train", "--positions", str(tmp_path / "none.txt"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "train", "--explore", "2")
    assert code == 2 and "explore" in err
    assert all(run["command"].startswith("bgcli train --games") for run in record["history"])
    code, _, err = run(capsys, "train", "--alpha", "0")
    assert code == 2 and "alpha" in err


@pytest.mark.slow
def test_sigterm_saves_the_checkpoint_of_the_games_finished(tmp_path):
    """A training stopped by SIGTERM (a scheduler, ``kill``) keeps what it learnt."""
    import signal
    import subprocess
    import sys

    path = tmp_path / "ck.npz"
    process = subprocess.Popen(
        [sys.executable, "-m", "bgcli", "train", "--games", "100000000", "-o", str(path),
         "--checkpoint-every", "100000000", "--check-every", "100000000"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    with reaped(process):
        for line in process.stderr:  # the first progress line: games are being played
            if line.startswith("trained"):
                break
        assert not path.exists()  # no periodic checkpoint is due
        stderr = stop(process, signal.SIGTERM)
    assert process.returncode == 130, stderr
    from bgcli.net import read_weights
    _, record = read_weights(path)
    assert record["games"] > 0 and record["history"][-1]["games"] == [0, record["games"]]


def test_the_net_policy_is_the_default_and_the_heuristic_selectable():
    from bgcli.kernels.evaluate import POLICY_NAMES, POLICY_NET, probabilities
    from bgcli.net import load_params
    from bgcli.rollout import RolloutSettings

    assert POLICY_NAMES == {"random": 0, "heuristic": 1, "net": POLICY_NET} and POLICY_NET == 2
    assert RolloutSettings().policy == "net"
    probs = probabilities(START, POLICY_NET, load_params())  # the kernels load nothing
    assert 0.3 < probs[0] < 0.7  # the shipped net, on the symmetric start position


@pytest.mark.parametrize("features", [4, 7])  # the 204- and 210-input layouts
def test_widened_weights_are_the_same_function(features):
    """scripts/widen_net_inputs.py: an earlier, narrower net pair, carried over, gives the
    same outputs on the new encoding (its new inputs weigh nothing)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "widen", Path(__file__).parents[1] / "scripts" / "widen_net_inputs.py")
    widen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(widen)
    H, n_old = net.N_HIDDEN, 196 + 2 * features
    old_size = n_old * H + 6 * H + 5
    old = np.random.default_rng(3).normal(0, 0.3, 2 * old_size)
    assert widen.old_features(old.size) == features
    new = widen.widen(old)
    kept = [i for i in range(net.N_INPUTS)  # the old inputs' places in the new layout
            if i < 196 or (i - 196) % net.N_FEATURES < features]
    assert len(kept) == n_old
    for board in random_game_boards(3, seed=11)[::10]:
        x, *_ = dense(board)
        for which in (net.CONTACT, net.RACE):
            o = which * old_size
            w1 = old[o:o + n_old * H].reshape(n_old, H)
            z = old[o + n_old * H:o + n_old * H + H] + x[kept] @ w1
            h = 0.5 + 0.5 * z / (1.0 + np.abs(z))
            w2 = old[o + n_old * H + H:o + n_old * H + 6 * H].reshape(5, H)
            y_old = 1.0 / (1.0 + np.exp(-(w2 @ h + old[o + old_size - 5:o + old_size])))
            np.testing.assert_allclose(reference_forward(new, which * net.NET_SIZE, x), y_old,
                                       rtol=1e-12)
    with pytest.raises(ValueError, match="expected"):
        widen.widen(new)


def test_build_train_backgames_races_header_names_the_net(monkeypatch, capsys):
    from bgcli.net import net_id
    from bgcli.position import Position
    from positions import build_train_backgames

    argv = ["build_train_backgames", "--races", "--games", "25", "--seed", "5"]
    monkeypatch.setattr("sys.argv", argv)
    build_train_backgames.main()
    header, *ids = capsys.readouterr().out.splitlines()
    assert header.startswith("# ") and f"({net_id()})" in header
    assert "--games 25 --seed 5 --races" in header
    assert 0 < len(ids) <= 25 and len(set(ids)) == len(ids)
    for position_id in ids:
        position = Position.from_id(position_id)
        assert position.is_race() and not position.is_bearoff()
