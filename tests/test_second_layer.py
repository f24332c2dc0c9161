"""The contact net's optional second hidden layer (bgcli.kernels.net): its forward pass and
gradient against plain numpy, the incremental chooser, the bear-off tables behind it, the
weights file and a supervised run that grows it."""

from __future__ import annotations

import numpy as np
import pytest

from bgcli import learn
from bgcli.evaluation import policy_code
from bgcli.kernels import net
from bgcli.kernels.evaluate import ONESIDED_SLOT, TWOSIDED_SLOT, table_start, with_bearoff_tables
from bgcli.net import load_params, net_id, read_weights, save_weights, second_layer_units
from test_net import START, a_middle_game, dense, random_game_boards, reference_forward

H, H2 = net.N_HIDDEN, net.N_HIDDEN2


def two_layer_params(seed, noise=0.3):
    """Random one-layer weights grown a second layer, its output weights U nonzero."""
    rng = np.random.default_rng(seed)
    params = net.init_params(seed) + rng.normal(0, noise, net.PARAMS_SIZE)
    params = net.with_second_layer(params, seed)
    params[net.C_AT:net.U_AT] = rng.normal(0, 0.5, H2)
    params[net.U_AT:net.U_AT + 5 * H2] = rng.normal(0, 0.5, 5 * H2)
    return params


def reference_forward2(params, offset, x):
    """The documented two-layer function in plain numpy (the race net has one layer)."""
    if offset != 0:
        return reference_forward(params, offset, x)
    w1 = params[:net.W1_SIZE].reshape(net.N_INPUTS, H)
    h = 0.5 + 0.5 * (b := params[net.B1_AT:net.B1_AT + H] + x @ w1) / (1.0 + np.abs(b))
    v = params[net.V_AT:net.C_AT].reshape(H, H2)
    z2 = params[net.C_AT:net.U_AT] + h @ v
    h2 = 0.5 + 0.5 * z2 / (1.0 + np.abs(z2))
    w2 = params[net.W2_AT:net.B2_AT].reshape(5, H)
    u = params[net.U_AT:net.U_AT + 5 * H2].reshape(5, H2)
    a = w2 @ h + u @ h2 + params[net.B2_AT:net.NET_SIZE]
    return 1.0 / (1.0 + np.exp(-a))


def buffers():
    return np.empty(H), np.empty(net.HIDDEN_ROOM), np.empty(5)


def test_layout():
    params = net.with_second_layer(net.init_params(1), 1)
    assert params.size == net.PARAMS_SIZE + net.SECOND_SIZE
    assert net.SECOND_SIZE == 1 + H * H2 + H2 + 5 * H2
    assert net.has_second_layer(params) and not net.has_second_layer(params[:net.PARAMS_SIZE])
    assert net.weights_end(params) == params.size
    assert second_layer_units(params) == H2 and second_layer_units(params[:net.PARAMS_SIZE]) == 0
    assert second_layer_units(params[:-1]) is None
    with pytest.raises(ValueError, match="one-layer weights"):
        net.with_second_layer(params, 1)
    late = net.with_late_net(net.init_params(1))  # a late contact net stays behind the layer
    grown = net.with_second_layer(late, 1)
    assert second_layer_units(grown) == H2 and net.has_late_net(grown)
    np.testing.assert_array_equal(grown[:net.SECOND_AT], late[:net.PARAMS_SIZE])
    np.testing.assert_array_equal(grown[net.late_net_offset(grown) - 1:], late[net.PARAMS_SIZE:])


@pytest.mark.parametrize("offset", [0, net.NET_SIZE])
def test_forward_matches_numpy_reference(offset):
    params = two_layer_params(3)
    for board in (START, a_middle_game()):
        x, idx, val, n = dense(board)
        z, h, y = buffers()
        net.forward(params, offset, idx, val, n, z, h, y)
        np.testing.assert_allclose(y, reference_forward2(params, offset, x), rtol=1e-12)
        one_layer = reference_forward(params, offset, x)
        assert (offset == 0) == (not np.allclose(y, one_layer))  # the layer counts, in contact


def test_a_new_second_layer_is_the_same_function():
    """U = 0: every output is bit for bit the one-layer net's, so growing the layer on a
    trained net loses nothing."""
    params = load_params()[:net.PARAMS_SIZE]  # the contact and race nets
    grown = net.with_second_layer(params, 5)
    out, grown_out = np.zeros(5), np.zeros(5)
    for board in random_game_boards(3, seed=8)[::4]:
        net.net_probabilities(board, 0, params, out)
        net.net_probabilities(board, 0, grown, grown_out)
        np.testing.assert_array_equal(out, grown_out)


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(5)
    params = two_layer_params(6)
    x, idx, val, n = dense(a_middle_game())
    coef = rng.normal(size=5)
    z, h, y = buffers()
    net.forward(params, 0, idx, val, n, z, h, y)
    grad = np.zeros(params.size)
    net.add_gradient(params, 0, idx, val, n, z, h, y, coef, grad)
    assert not grad[net.NET_SIZE:net.PARAMS_SIZE].any()  # the race net is untouched
    assert grad[net.SECOND_AT] == 0.0  # the mark is no weight
    inputs = np.flatnonzero(x)
    checks = [int(i) * H + int(j) for i, j in zip(rng.choice(inputs, 5), rng.integers(0, H, 5))]
    checks += [net.B1_AT + 3, net.W2_AT + 2 * H + 7, net.B2_AT + 4]
    checks += [net.V_AT + int(k) for k in rng.integers(0, H * H2, 6)]
    checks += [net.C_AT + 4, net.U_AT + 3 * H2 + 11, net.U_AT + 7]
    eps = 1e-6
    for i in checks:
        plus, minus = params.copy(), params.copy()
        plus[i] += eps
        minus[i] -= eps
        numeric = (coef @ reference_forward2(plus, 0, x)
                   - coef @ reference_forward2(minus, 0, x)) / (2 * eps)
        assert grad[i] == pytest.approx(numeric, rel=1e-5, abs=1e-9), i
    # the race net's gradient ignores the contact net's second layer
    race = np.zeros(params.size)
    net.forward(params, net.NET_SIZE, idx, val, n, z, h, y)
    net.add_gradient(params, net.NET_SIZE, idx, val, n, z, h, y, coef, race)
    assert not race[:net.NET_SIZE].any() and not race[net.PARAMS_SIZE:].any()


def test_the_incremental_chooser_values_plays_as_the_full_pass():
    """net_choose with float32 folded playout weights (the second layer carried along)
    picks the play of highest value and reports its probabilities, as net_probabilities
    values each play in full."""
    params = two_layer_params(4, noise=0.1)
    weights = net.playout_weights(params)
    assert weights.dtype == np.float32 and net.has_second_layer(weights)
    assert len(checked_choices(params, weights, random_game_boards(4, seed=3)[::5])) > 30


def checked_choices(params, weights, starts):
    """For a random roll from each of ``starts`` (the side on roll in row 0), check that
    ``net_choose`` with ``weights`` picks the play ``net_probabilities`` with ``params``
    values most and reports its probabilities; the result boards of the choices checked
    (near ties and single plays are skipped)."""
    from bgcli.kernels.movegen import generate_plays, new_buffers
    plays = new_buffers()
    probs, full = np.zeros(5), np.zeros(5)
    rng = np.random.default_rng(2)
    chosen = []
    for board in starts:
        count, _ = generate_plays(board, *rng.integers(1, 7, 2), *plays)
        boards = plays[0]
        if count < 2:
            continue
        choice = net.net_choose(count, weights, boards, probs, True)
        values = []
        for i in range(count):
            net.net_probabilities(boards[i], 0, params, full)
            values.append(-(2 * full[0] - 1 + full[1] - full[3] + full[2] - full[4]))
        order = np.argsort(values)[::-1]
        if values[order[0]] - values[order[1]] < 1e-5:
            continue  # a near tie: float32 may pick either
        assert choice == order[0]
        net.net_probabilities(boards[choice], 0, params, full)
        np.testing.assert_allclose(probs, full, atol=2e-6)
        chosen.append(boards[choice].copy())
    return chosen


def test_bearoff_tables_ride_behind_the_second_layer():
    code, one_layer = policy_code("net", bearoff=True)
    weights = net.with_second_layer(load_params()[:net.PARAMS_SIZE], 2)
    both = with_bearoff_tables(weights, np.full((3003, 3003), 0.25), None)
    assert table_start(both, TWOSIDED_SLOT) == weights.size + 4
    assert table_start(both, ONESIDED_SLOT) == 0
    assert table_start(weights, TWOSIDED_SLOT) == 0
    assert table_start(one_layer, TWOSIDED_SLOT) == load_params().size + 4
    with pytest.raises(ValueError, match="with a second layer"):
        with_bearoff_tables(weights[:-1], None, None)


def test_weights_file_keeps_the_layer_and_one_layer_ids_stay(tmp_path):
    params = two_layer_params(9)
    path = tmp_path / "two.npz"
    save_weights(path, params, {"games": 3})
    again, record = read_weights(path)
    np.testing.assert_array_equal(again, params)
    assert record == {"games": 3}
    with np.load(path) as data:
        assert int(data["n_hidden2"]) == H2
    one = tmp_path / "one.npz"
    shipped = load_params()
    save_weights(one, shipped, {})
    assert net_id(one).split()[0] == net_id().split()[0]  # the id hashes the weights alone
    assert net_id(path) != net_id(one)


def test_fit_grows_the_layer_and_learns_it(tmp_path):
    """--second-layer: the run starts from the same function (epoch 0's error equals the
    one-layer start's), trains the new weights, and its checkpoint resumes as two-layer."""
    from test_learn import BACK_GAME
    folder = tmp_path / "data"
    (tmp_path / "backs.txt").write_text(f"{BACK_GAME}\n")
    settings, starts = learn.data_settings(7, 1, 3, 0.5, 20, 0.5, [str(tmp_path / "backs.txt")])
    learn.generate(folder, settings, starts, 9, progress=None)
    checkpoint = tmp_path / "grown.npz"
    plain, _, _ = learn.fit([folder], learn.FitSettings(epochs=1, batch=2, rate=3e-3),
                            progress=None)
    grown, _, _ = learn.fit([folder], learn.FitSettings(
        epochs=2, batch=2, rate=3e-3, second_layer=True, checkpoint=str(checkpoint)),
        progress=None)
    assert grown.checks[0] == plain.checks[0]
    assert net.has_second_layer(grown.params)
    assert grown.params[net.U_AT:net.U_AT + 5 * H2].any()
    assert second_layer_units(plain.params) == 0
    params, record = read_weights(checkpoint)
    assert record["history"][-1]["second_layer_units"] == H2 == second_layer_units(params)
    resumed, _, used = learn.fit([folder], learn.FitSettings(epochs=3), resume=checkpoint,
                                 progress=None)
    assert used.second_layer and net.has_second_layer(resumed.params)


def test_td_self_play_trains_the_second_layer_too():
    """TD(lambda) games update the second layer with the contact net it belongs to (its
    traces sit behind the race net's), and only through contact positions."""
    from bgcli.kernels.selfplay import td_train
    start = np.ascontiguousarray(START)
    params = two_layer_params(11, noise=0.05)
    before = params.copy()
    stats = np.zeros(3)
    td_train(params, start, 3, 0, 4, 0.1, 0.7, 0.0, stats, np.zeros((0, 2, 25), np.int8),
             0.0, 0.0)
    assert stats[2] == 4 and np.all(np.isfinite(params))
    assert params[net.SECOND_AT] == net.SECOND_LAYER_MARK  # the mark is no weight
    changed = params != before
    assert changed[net.V_AT:].any() and changed[:net.NET_SIZE].any()
    again = two_layer_params(11, noise=0.05)
    td_train(again, start, 3, 0, 4, 0.1, 0.7, 0.0, np.zeros(3), np.zeros((0, 2, 25), np.int8),
             0.0, 0.0)
    np.testing.assert_array_equal(again, params)  # the same seed, the same games
