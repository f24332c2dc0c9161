"""The optional late contact net (bgcli.kernels.net): its layout behind the two nets, the
positions it values (``learn.late_contact``'s), the incremental chooser and the search with
it, the weights file, and a supervised run that adds it and trains it alone."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bgcli import learn
from bgcli.errors import BgcliError
from bgcli.kernels import net
from bgcli.kernels.evaluate import TWOSIDED_SLOT, table_start, with_bearoff_tables
from bgcli.kernels.supervised import net_slots
from bgcli.net import load_params, net_shape, read_weights, save_weights, second_layer_units
from bgcli.position import Position
from test_learn import BACK_GAME
from test_net import random_game_boards
from test_second_layer import checked_choices

LATE_CONTACT = "PgAAAGuzgREIAA"  # a checker on the ace point against a side bearing in


def two_nets():
    """The shipped contact and race nets (without a late contact net, if they hold one)."""
    return load_params()[:net.PARAMS_SIZE].copy()


def late_params(seed=1, noise=0.05):
    """The shipped contact and race nets with a late contact net that is their contact net
    perturbed: another function, near enough to play sensibly."""
    params = net.with_late_net(two_nets())
    rng = np.random.default_rng(seed)
    params[-net.NET_SIZE:] += rng.normal(0, noise, net.NET_SIZE)
    return params


def game_boards():
    """Positions of random games and of the net's games from a back game: races, bear-offs,
    late contact and the rest."""
    rng = np.random.default_rng(4)
    sampled = [position.board for _ in range(2) for position, _, _ in
               learn.sample_game(Position.from_id(BACK_GAME), rng, 1.0, 200)]
    return list(random_game_boards(4, seed=9)) + sampled


def test_layout():
    shipped = two_nets()
    params = net.with_late_net(shipped)
    assert params.size == net.PARAMS_SIZE + 1 + net.NET_SIZE
    assert net.late_net_offset(params) == net.PARAMS_SIZE + 1
    assert net.late_net_offset(shipped) == -1
    assert net.has_late_net(params) and not net.has_late_net(shipped)
    assert net.weights_end(params) == params.size
    assert second_layer_units(params) == 0 and second_layer_units(params[:-1]) is None
    np.testing.assert_array_equal(params[-net.NET_SIZE:], shipped[:net.NET_SIZE])
    with pytest.raises(ValueError, match="without a late contact net"):
        net.with_late_net(params)
    grown = net.with_late_net(net.with_second_layer(shipped, 3))  # behind the second layer
    assert net.late_net_offset(grown) == net.PARAMS_SIZE + net.SECOND_SIZE + 1
    assert second_layer_units(grown) == net.N_HIDDEN2
    tables = with_bearoff_tables(params, np.full((3003, 3003), 0.25), None)
    assert table_start(tables, TWOSIDED_SLOT) == params.size + 4
    assert net.late_net_offset(tables) == net.PARAMS_SIZE + 1


def test_a_new_late_net_is_the_same_function():
    shipped = two_nets()
    params = net.with_late_net(shipped)
    out, late_out = np.zeros(5), np.zeros(5)
    for board in game_boards()[::3]:
        net.net_probabilities(board, 1, shipped, out)
        net.net_probabilities(board, 1, params, late_out)
        np.testing.assert_array_equal(out, late_out)


def test_the_late_net_values_late_contact_and_nothing_else():
    """Where ``learn.late_contact`` says so the late net values a position (its outputs move
    with it), elsewhere the contact or race net as without it; ``net_slots`` agrees."""
    shipped, params = two_nets(), late_params()
    boards = game_boards()
    late = np.array([learn.late_contact(Position(board)) for board in boards])
    assert 30 < late.sum() < len(boards) - 30
    out, late_out = np.zeros(5), np.zeros(5)
    for board, is_late in zip(boards, late):
        if Position(board).is_game_over():
            continue
        net.net_probabilities(board, 1, shipped, out)
        net.net_probabilities(board, 1, params, late_out)
        assert np.array_equal(out, late_out) != is_late
    slots = np.full(len(boards), -1, dtype=np.int64)
    net_slots(np.stack(boards), params, slots)
    contact = np.array([not Position(board).is_race() for board in boards])
    np.testing.assert_array_equal(slots == net.LATE, late)
    np.testing.assert_array_equal(slots == net.CONTACT, contact & ~late)
    net_slots(np.stack(boards), shipped, slots)
    assert not (slots == net.LATE).any()


def test_the_incremental_chooser_values_plays_as_the_full_pass():
    """net_choose with float32 folded playout weights: the late net folded too, its slot's
    reference kept beside the others, each choice's probabilities those of a full pass."""
    params = late_params(2)
    weights = net.playout_weights(params)
    assert weights.dtype == np.float32 and net.late_net_offset(weights) == net.PARAMS_SIZE + 1
    starts = [board[::-1].copy() for board in game_boards()[::4]]  # row 1 on roll: turned
    chosen = checked_choices(params, weights, starts)
    late_choices = sum(learn.late_contact(Position(board[::-1])) for board in chosen)
    assert len(chosen) > 30 and late_choices > 5


def test_the_search_uses_the_late_net(tmp_path, monkeypatch):
    """A 1-ply ranking and a rollout with a file holding a late net differ from those of
    the two nets alone in a late contact position, and a copy of the contact net as the late
    net changes no figure of either (the same function, reached through its own slot)."""
    from bgcli.decisions import rank_plays
    from bgcli.rollout import RolloutSettings, rollout

    position = Position.from_id(LATE_CONTACT)

    def figures(path):
        monkeypatch.setenv("BGCLI_WEIGHTS", str(path))
        ranked = rank_plays(position, (4, 1), "net", 1)
        rolled = rollout(position, RolloutSettings(trials=72, seed=5, threads=1))
        return [(p.play.notation, p.equity) for p in ranked], rolled.means.tolist()

    save_weights(tmp_path / "two.npz", two_nets(), {})
    save_weights(tmp_path / "copy.npz", net.with_late_net(two_nets()), {})
    save_weights(tmp_path / "late.npz", late_params(3, noise=0.2), {})
    two = figures(tmp_path / "two.npz")
    assert figures(tmp_path / "copy.npz") == two
    other = figures(tmp_path / "late.npz")
    assert other[0] != two[0] and other[1] != two[1]


def test_weights_file_keeps_the_late_net(tmp_path):
    params = late_params(5)
    save_weights(tmp_path / "late.npz", params, {"games": 3})
    again, record = read_weights(tmp_path / "late.npz")
    np.testing.assert_array_equal(again, params)
    assert record == {"games": 3}
    assert net_shape(again) == "contact, race and late contact nets, 234-80-5 each"


@pytest.fixture(scope="module")
def two_nets_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("weights") / "two.npz"
    save_weights(path, two_nets(), {"games": 1})
    return path


@pytest.fixture(scope="module")
def late_folder(tmp_path_factory):
    """1-ply labels of late contact positions from a back game, with a roll's other plays."""
    folder = tmp_path_factory.mktemp("late") / "data"
    backs = folder.parent / "backs.txt"
    backs.write_text(f"{BACK_GAME}\n")
    settings, starts = learn.data_settings(5, 1, 12, 0.5, 200, 0.0, [str(backs)],
                                           alternatives=1, late_contact=True)
    learn.generate(folder, settings, starts, 24, progress=None)
    return folder


def test_fit_adds_the_late_net_and_trains_it_alone(late_folder, two_nets_file, tmp_path):
    """--late-net --nets late: epoch 0 is the starting function's error, only the late net's
    weights move, the record says so, and the checkpoint resumes with it."""
    shipped = two_nets()
    checkpoint = tmp_path / "late.npz"
    plain, _, _ = learn.fit([late_folder], learn.FitSettings(epochs=1, batch=2, rate=3e-3,
                                                             nets="contact"),
                            start=two_nets_file, progress=None)
    state, _, _ = learn.fit([late_folder], learn.FitSettings(
        epochs=2, batch=2, rate=3e-3, nets="late", late_net=True, checkpoint=str(checkpoint)),
        start=two_nets_file, progress=None)
    assert state.checks[0] == plain.checks[0]
    np.testing.assert_array_equal(state.params[:net.PARAMS_SIZE], shipped)
    assert state.params[net.PARAMS_SIZE] == net.LATE_NET_MARK
    assert not np.array_equal(state.params[-net.NET_SIZE:], shipped[:net.NET_SIZE])
    params, record = read_weights(checkpoint)
    assert net.has_late_net(params) and record["history"][-1]["late_net"]
    resumed, _, used = learn.fit([late_folder], learn.FitSettings(epochs=3), resume=checkpoint,
                                 progress=None)
    assert used.nets == "late" and used.late_net and net.has_late_net(resumed.params)


def test_learning_mask_covers_the_nets_named_and_no_mark():
    params = late_params()
    late = net.late_net_offset(params)
    contact, race, both = (learn.learning_mask(n, params) for n in ("contact", "race", "both"))
    assert contact.sum() == race.sum() == learn.learning_mask("late", params).sum() == net.NET_SIZE
    assert contact[:net.NET_SIZE].all() and race[net.NET_SIZE:net.PARAMS_SIZE].all()
    assert learn.learning_mask("late", params)[late:].all()
    assert list(np.flatnonzero(both == 0.0)) == [net.PARAMS_SIZE]  # the late net's mark
    layered = net.with_second_layer(two_nets(), 1)
    mask = learn.learning_mask("contact", layered)
    assert mask[net.SECOND_AT] == 0.0 and mask[net.SECOND_AT + 1:].all()
    assert mask.sum() == net.NET_SIZE + net.SECOND_SIZE - 1


def test_cross_pairs_add_the_pairs_whose_other_play_another_net_values():
    """Row 1 (contact) is another play of row 0's roll (late contact), row 3 (late contact)
    of row 2's (contact): --nets late trains on rows 0 and 3, and with cross pairs on row 1
    too (its pair with row 0 teaches the late net); row 3's pair needs cross pairs."""
    late_board, contact_board = (Position.from_id(p).board for p in (LATE_CONTACT, BACK_GAME))
    data = learn.TrainingData(
        boards=np.stack([late_board, contact_board, contact_board, late_board, late_board]),
        targets=np.zeros((5, 5)), source=np.array(["x"] * 5),
        held=np.array([False, False, False, False, True]), folders=[],
        partner=np.array([-1, 0, -1, 2, 0]))
    params = late_params()
    assert list(data.trained_by("late", params)) == [0, 3]
    trained = data.trained_by("late", params, cross_pairs=True)
    assert list(trained) == [0, 1, 3]
    assert list(learn.trained_partners(data.partner, trained, data.train_index)) == [
        -1, 0, -1, 2, -1]
    assert list(data.trained_by("contact", params, cross_pairs=True)) == [1, 2, 3]


def test_a_cross_pair_moves_only_the_learning_net():
    """adam_epoch on a contact play paired with a late contact one, the late net learning:
    the contact row's own loss and its side of the pair reach only frozen weights, so only
    the late net moves."""
    from bgcli.kernels.supervised import adam_epoch

    params = late_params()
    boards = np.stack([Position.from_id(p).board for p in (LATE_CONTACT, BACK_GAME)])
    targets = np.array([[0.3, 0.1, 0.01, 0.3, 0.02], [0.5, 0.15, 0.01, 0.12, 0.005]])
    after = params.copy()
    adam_epoch(after, boards, targets, np.array([1]), 1, 1e-3, 1.0, np.array([-1, 0]), 5.0,
               0.0, learn.learning_mask("late", params), np.zeros(params.size),
               np.zeros(params.size), np.zeros(1, np.int64), np.zeros(2))
    moved = np.flatnonzero(after != params)
    assert moved.size > 0 and moved.min() >= net.late_net_offset(params)


def test_a_fit_with_cross_pairs_trains_the_late_net_alone_and_resumes_with_them(
        late_folder, two_nets_file, tmp_path):
    checkpoint = tmp_path / "cross.npz"
    settings = learn.FitSettings(epochs=1, batch=2, rate=3e-3, nets="late", late_net=True,
                                 pair_weight=5.0, checkpoint=str(checkpoint))
    plain, _, _ = learn.fit([late_folder], settings, start=two_nets_file, progress=None)
    cross, _, _ = learn.fit([late_folder], replace(settings, cross_pairs=True),
                            start=two_nets_file, progress=None)
    np.testing.assert_array_equal(cross.params[:net.PARAMS_SIZE], two_nets())
    assert not np.array_equal(cross.params, plain.params)  # the folder has cross pairs
    _, record = read_weights(checkpoint)
    assert record["history"][-1]["cross_pairs"] and record["supervised"]["cross_pairs"]
    _, _, used = learn.fit([late_folder], learn.FitSettings(epochs=2), resume=checkpoint,
                           progress=None)
    assert used.cross_pairs and used.nets == "late"


def test_late_net_options_are_checked(late_folder, two_nets_file):
    with pytest.raises(BgcliError, match="no late contact net"):
        learn.fit([late_folder], learn.FitSettings(epochs=1, nets="late"), start=two_nets_file,
                  progress=None)
    both = learn.FitSettings(late_net=True, second_layer=True).problems()
    assert both == ["a late contact net and a second layer cannot be added in one run"]


def test_self_play_refuses_weights_with_a_late_net(tmp_path):
    from bgcli.train import TrainSettings, train
    save_weights(tmp_path / "late.npz", late_params(), {"games": 10})
    with pytest.raises(BgcliError, match="late contact net is not supported"):
        train(TrainSettings(games=20), resume=tmp_path / "late.npz", progress=None)
