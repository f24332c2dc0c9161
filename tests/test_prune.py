"""The pruning net (bgcli.kernels.prune, bgcli.prune): its inputs are the full net's first 196,
its incremental outputs equal a plain dense forward pass, the packed layout round-trips, and
the shipped net screens well enough to keep the search's choices."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bgcli.kernels import net
from bgcli.kernels.movegen import MoveBuffers, generate_plays
from bgcli.kernels.prune import (N_PRUNE_INPUTS, PRUNE_HIDDEN, kernel_layout, prune_inputs,
                                 prune_outputs, prune_reference, prune_values, value_weights)
from bgcli.prune import (DEFAULT_PRUNE_WEIGHTS, load_prune_params, pack_prune_net,
                         read_prune_weights, save_prune_weights, unpack_prune_net)
from bgcli.position import Position
from test_search import POSITIONS, random_positions, ref_prune_outputs

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def roll_results(position, dice):
    moves = MoveBuffers()
    count, _ = generate_plays(np.array(position.board, dtype=np.int8), dice[0], dice[1],
                              *moves.arrays())
    return moves.boards[:count].copy()


def test_inputs_are_the_full_nets_first_196():
    for position in random_positions(3, 5):
        for board in roll_results(position, (6, 4)):
            idx = np.zeros(net.MAX_NONZERO, dtype=np.int64)
            val = np.zeros(net.MAX_NONZERO)
            n = net.encode(board, 0, idx, val)
            dense = np.zeros(net.N_INPUTS)
            dense[idx[:n]] = val[:n]
            mine = np.zeros(N_PRUNE_INPUTS)
            prune_inputs(board, mine)
            np.testing.assert_array_equal(mine, dense[:N_PRUNE_INPUTS])


def random_net(seed):
    rng = np.random.default_rng(seed)
    return {"w1": rng.normal(size=(196, PRUNE_HIDDEN)), "b1": rng.normal(size=PRUNE_HIDDEN),
            "w2": rng.normal(size=(PRUNE_HIDDEN, 5)), "b2": rng.normal(size=5)}


def test_incremental_outputs_equal_a_dense_forward_pass():
    """The kernel's tables and its play-by-play changes give the plain net's outputs, hits,
    bar entries and bear-offs included."""
    packed = pack_prune_net(random_net(2))
    params = np.concatenate([np.zeros(7), kernel_layout(*unpack_prune_net(packed))])
    weights = unpack_prune_net(packed)
    checked = 0
    positions = POSITIONS + random_positions(5, 6) + [
        Position.from_points({6: 5, 5: 4, 3: 3, 2: 2, 18: 1}, {24: 2, 6: 5, 8: 3, 13: 5})]
    for position in positions:
        for dice in ((6, 6), (2, 1), (5, 3), (1, 1)):
            boards = roll_results(position, dice)
            out = np.zeros((len(boards), 5))
            prune_outputs(len(boards), boards, params, 7, out)
            expected = [ref_prune_outputs(b, weights) for b in boards]
            np.testing.assert_allclose(out, expected, rtol=0, atol=1e-9)
            checked += len(boards)
    assert checked > 100


def test_screen_values_from_the_position_rolled_from_equal_a_dense_pass():
    """What the search's screen ranks by (``prune_values``): each play's first layer from
    the position rolled from and the points the play changes, the output layer folded into
    one linear value (``value_weights``), equals that value of a plain dense pass; hits,
    bar entries and bear-offs included."""
    packed = pack_prune_net(random_net(3))
    weights = unpack_prune_net(packed)
    params = np.concatenate([np.zeros(7), kernel_layout(*weights)])
    coefficients = np.array([0.3, -2.0, 1.0, 0.5, -1.5, 0.25])
    w, z_reference, z = np.empty(PRUNE_HIDDEN), np.empty(PRUNE_HIDDEN), np.empty(PRUNE_HIDDEN)
    constant = value_weights(coefficients, params, 7, w)
    checked = 0
    positions = POSITIONS + random_positions(7, 6) + [
        Position.from_points({6: 5, 5: 4, 3: 3, 2: 2, 18: 1}, {24: 2, 6: 5, 8: 3, 13: 5})]
    for position in positions:
        board = np.array(position.board, dtype=np.int8)
        prune_reference(board, params, 7, z_reference)
        for dice in ((6, 6), (2, 1), (5, 3), (1, 1)):
            boards = roll_results(position, dice)
            out = np.zeros((len(boards), 5))
            prune_values(len(boards), boards, board, z_reference, params, 7, constant, w, z,
                         out)
            expected = [coefficients[0] + coefficients[1:] @ ref_prune_outputs(b, weights)
                        for b in boards]
            np.testing.assert_allclose(out[:, 0], expected, rtol=0, atol=1e-9)
            checked += len(boards)
    assert checked > 100


def test_pack_and_save_round_trip(tmp_path):
    net_weights = random_net(1)
    packed = pack_prune_net(net_weights)
    assert packed[0] == PRUNE_HIDDEN and packed.shape == (1 + 196 * 16 + 6 * 16 + 5,)
    w1, b1, w2, b2 = unpack_prune_net(packed)
    np.testing.assert_array_equal(w2, net_weights["w2"].T)  # stored output-major
    np.testing.assert_array_equal(w1, net_weights["w1"])
    path = tmp_path / "p.npz"
    save_prune_weights(path, packed, {"made": "here"})
    np.testing.assert_array_equal(read_prune_weights(path), packed)
    np.testing.assert_array_equal(load_prune_params(str(path)), kernel_layout(w1, b1, w2, b2))
    assert json.loads(path.with_suffix(".json").read_text()) == {"made": "here"}
    with pytest.raises(ValueError, match="196-16-5"):
        pack_prune_net({**net_weights, "w1": net_weights["w1"][:100]})
    with pytest.raises(ValueError, match="packed"):
        save_prune_weights(path, packed[:-1], {})


def test_the_shipped_net_keeps_the_full_nets_choice_mostly():
    """The shipped screen keeps the full net's favourite in most rolls of random contact
    positions (the record's held-out check says how often, on self-play positions)."""
    from bgcli.evaluation import policy_code
    from bgcli.kernels.search import MONEY_VALUES, mover_value, screen_size, static_children

    record = json.loads(DEFAULT_PRUNE_WEIGHTS.with_suffix(".json").read_text())
    assert record["check"]["best_kept"] > 0.9
    code, params = policy_code("net", prune=False)
    prune = load_prune_params()
    screened = kept = 0
    for position in random_positions(11, 30):
        if not net.is_contact(np.array(position.board, dtype=np.int8), 0):
            continue
        for dice in ROLLS[::4]:
            boards = roll_results(position, dice)
            keep = screen_size(len(boards))
            if keep == len(boards):
                continue
            full = np.zeros((len(boards), 5))
            static_children(len(boards), boards, code, params, params, False, full)
            cheap = np.zeros((len(boards), 5))
            prune_outputs(len(boards), boards, prune, 0, cheap)
            value = [mover_value(MONEY_VALUES, 0, p) for p in full]
            guess = [mover_value(MONEY_VALUES, 0, p) for p in cheap]
            survivors = np.argsort(-np.array(guess), kind="stable")[:keep]
            screened += 1
            kept += int(np.argmax(value)) in survivors
    assert screened > 20 and kept / screened > 0.8
