"""Learning from search: labelled data (bgcli.learn.generate) and the supervised trainer
(bgcli.kernels.supervised, bgcli.learn.fit), through the API and the CLI."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from bgcli import learn
from bgcli.evaluation import position_probabilities
from bgcli.kernels.net import MAX_NONZERO, N_HIDDEN, NET_SIZE, encode, forward, is_contact
from bgcli.kernels.supervised import EQUITY, adam_epoch, net_outputs
from bgcli.net import load_params, read_weights, weights_path
from bgcli.position import Position
from cli_helpers import run

BACK_GAME = "s3M9AABmzmDAGA"


def _raw(params, board):
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z, h, y = np.empty(N_HIDDEN), np.empty(N_HIDDEN), np.empty(5)
    n = encode(board, 1, idx, val)
    forward(params, 0 if is_contact(board, 1) else NET_SIZE, idx, val, n, z, h, y)
    return y


def _loss(params, boards, targets, equity_weight=1.0, partner=None, pair_weight=0.0):
    """The summed loss: squared errors of the five outputs and (weighted) of their equity,
    and (weighted) of each row's equity difference from its partner's (no pair here is
    ordered the other way round by the net, so ``misrank_weight`` does not count)."""
    total = 0.0
    for board, target in zip(boards, targets):
        error = target - _raw(params, board)
        total += (error ** 2).sum() + equity_weight * (error @ EQUITY) ** 2
    for i, j in enumerate([] if partner is None else partner):
        if j >= 0:
            error_i = (targets[i] - _raw(params, boards[i])) @ EQUITY
            error_j = (targets[j] - _raw(params, boards[j])) @ EQUITY
            total += pair_weight * (error_i - error_j) ** 2
    return total


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """Two chunks of three positions, labelled at 1 ply (fast), from the opening and a
    one-position collection; and a folder of one chunk from another seed."""
    folder = tmp_path_factory.mktemp("learn")
    (folder / "backs.txt").write_text(f"{BACK_GAME}\n")
    settings, starts = learn.data_settings(7, 1, 3, 0.5, 20, 0.5, [str(folder / "backs.txt")])
    learn.generate(folder / "data", settings, starts, 6, progress=None)
    other, starts = learn.data_settings(8, 1, 3, 0.5, 20, 0.5, [str(folder / "backs.txt")])
    learn.generate(folder / "data8", other, starts, 3, progress=None)
    return folder


@pytest.mark.parametrize("equity_weight, pair_weight", [(0.0, 0.0), (1.0, 0.0), (1.0, 3.0)])
def test_adam_first_step_is_the_rate_against_the_sign_of_the_loss_gradient(equity_weight,
                                                                            pair_weight):
    params = load_params().copy()
    boards = np.stack([Position.from_id(BACK_GAME).board, Position.start().board])
    targets = np.array([[0.3, 0.1, 0.01, 0.3, 0.02], [0.5, 0.15, 0.01, 0.12, 0.005]])
    partner = np.array([-1, 0])  # the second row is another play of the first's roll
    rate = 1e-3
    after = params.copy()
    m, v, step, stats = (np.zeros(params.size), np.zeros(params.size),
                         np.zeros(1, np.int64), np.zeros(2))
    adam_epoch(after, boards, targets, np.arange(2), 2, rate, equity_weight, partner,
               pair_weight, 4.0, np.ones(params.size), m, v, step, stats)
    assert step[0] == 1 and stats[1] == 2
    assert stats[0] == pytest.approx(_loss(params, boards, targets, 0.0))
    # only the weights that these boards' inputs reach move
    moved = np.flatnonzero(after != params)
    assert 0 < moved.size < params.size
    # Adam's first step is the rate against the sign of the gradient: check a few weights
    # by finite differences of the loss
    checked = 0
    for j in moved[::97]:
        up, down = params.copy(), params.copy()
        up[j] += 1e-5
        down[j] -= 1e-5
        slope = (_loss(up, boards, targets, equity_weight, partner, pair_weight)
                 - _loss(down, boards, targets, equity_weight, partner, pair_weight)) / 2e-5
        if abs(slope) > 1e-3 and checked < 8:
            assert after[j] - params[j] == pytest.approx(-rate * np.sign(slope), rel=1e-3)
            checked += 1
    assert checked == 8
    # and a small enough such step lowers the loss (a step of 1e-3 on every weight may
    # overshoot: it is a sign step, not one along the gradient)
    small = params.copy()
    adam_epoch(small, boards, targets, np.arange(2), 2, 1e-6, equity_weight, partner,
               pair_weight, 4.0, np.ones(params.size), np.zeros(params.size),
               np.zeros(params.size), np.zeros(1, np.int64), np.zeros(2))
    assert (_loss(small, boards, targets, equity_weight, partner, pair_weight)
            < _loss(params, boards, targets, equity_weight, partner, pair_weight))


@pytest.mark.parametrize("misranked", [False, True])
def test_a_pair_the_net_orders_the_other_way_round_weighs_misrank_weight_more(misranked):
    from bgcli.kernels.net import HIDDEN_ROOM
    from bgcli.kernels.supervised import _add_row_descent

    params = load_params().copy()
    boards = np.stack([Position.from_id(BACK_GAME).board, Position.start().board])
    # the net values the second board higher by about 0.6; the first targets agree
    second = [0.2, 0.05, 0.0, 0.3, 0.02] if misranked else [0.5, 0.15, 0.01, 0.12, 0.005]
    targets = np.array([[0.3, 0.1, 0.01, 0.3, 0.02], second])
    outputs = np.array([_raw(params, board) for board in boards]) @ EQUITY
    assert ((targets @ EQUITY)[1] - (targets @ EQUITY)[0] < 0) == misranked
    assert outputs[1] > outputs[0]

    def descent(misrank_weight):
        grad = np.zeros(params.size)
        _add_row_descent(params, boards, targets, 1, 0, 1.0, 3.0, misrank_weight, grad,
                         np.empty(2 * MAX_NONZERO, dtype=np.int64), np.empty(2 * MAX_NONZERO),
                         np.empty(2 * N_HIDDEN), np.empty(2 * HIDDEN_ROOM), np.empty(10),
                         np.empty(10))
        return grad

    def pair_term(p):
        gap = (targets[1] - targets[0]) @ EQUITY - (_raw(p, boards[1]) - _raw(p, boards[0])) @ EQUITY
        return gap ** 2

    extra = descent(4.0) - descent(0.0)
    if not misranked:
        assert not extra.any()
        return
    # the extra descent is 4 times the pair term's (3.0 times its squared gap): minus half
    # the gradient, checked by finite differences at some of the weights it moves
    moved = np.flatnonzero(extra)
    assert moved.size > 0
    for j in moved[::max(1, moved.size // 8)]:
        up, down = params.copy(), params.copy()
        up[j] += 1e-6
        down[j] -= 1e-6
        slope = (pair_term(up) - pair_term(down)) / 2e-6
        assert extra[j] == pytest.approx(-0.5 * 4.0 * 3.0 * slope, rel=1e-3, abs=1e-9)


def test_net_outputs_are_the_evaluator_at_0_ply_away_from_the_tables():
    board = Position.from_id(BACK_GAME).board
    out = np.zeros((1, 5))
    net_outputs(load_params(), np.ascontiguousarray(board[None], dtype=np.int8), out)
    np.testing.assert_allclose(out[0], position_probabilities(Position(board), "net", 0),
                               atol=1e-12)


def test_data_are_labelled_by_the_search_and_resume_to_the_same_chunks(data_dir, tmp_path):
    arrays, record = learn.read_data(data_dir / "data")
    assert record["chunks"] == 2 and arrays["boards"].shape == (6, 2, 25)
    for board, target in zip(arrays["boards"][:3], arrays["targets"][:3]):
        np.testing.assert_allclose(target, position_probabilities(Position(board), "net", 1))
    settings, starts = learn.data_settings(7, 1, 3, 0.5, 20, 0.5, [str(data_dir / "backs.txt")])
    learn.generate(tmp_path / "d", settings, starts, 2, command="first -n 2",
                   progress=None)  # one chunk, then the second
    summary = learn.generate(tmp_path / "d", settings, starts, 6, command="then -n 6",
                             progress=None)
    assert summary["command"] == "first -n 2"
    assert summary["commands"] == ["first -n 2", "then -n 6"]  # every run that grew it
    again, _ = learn.read_data(tmp_path / "d")
    for key in arrays:
        np.testing.assert_array_equal(again[key], arrays[key])
    settings_file = tmp_path / "d" / learn.SETTINGS_FILE  # a folder from before the list:
    old_record = json.loads(settings_file.read_text())
    del old_record["commands"]
    settings_file.write_text(json.dumps(old_record))
    summary = learn.generate(tmp_path / "d", settings, starts, 9, command="last -n 9",
                             progress=None)
    assert summary["commands"] == ["first -n 2", "last -n 9"]
    other = learn.DataSettings(**{**learn.asdict(settings), "seed": 8,
                                  "sources": settings.sources})
    with pytest.raises(learn.BgcliError, match="other settings"):
        learn.generate(tmp_path / "d", other, starts, 9, progress=None)


def test_alternatives_add_the_rolls_next_best_plays_without_changing_the_games(data_dir):
    """With alternatives the games are the same (the same positions at rank 0, in order)
    and each kept ply adds the results of the roll's next best plays by the net at 0 ply,
    the opponent on roll: worth no more to the mover than the play made, in rank order."""
    from bgcli.evaluation import cubeless_equity

    backs = [str(data_dir / "backs.txt")]
    plain, starts = learn.data_settings(5, 1, 40, 0.5, 20, 0.5, backs)
    wide, _ = learn.data_settings(5, 1, 160, 0.5, 20, 0.5, backs, alternatives=3)
    no_labels = lambda position, row: np.zeros(5)  # noqa: E731 -- labels are tested above
    before = learn.make_chunk(plain, starts, 0, no_labels)
    after = learn.make_chunk(wide, starts, 0, no_labels)
    played = np.flatnonzero(after["rank"] == 0)
    count = min(played.size, 40)
    np.testing.assert_array_equal(after["boards"][played][:count], before["boards"][:count])
    assert after["rank"].max() == 3 and (after["rank"] > 0).sum() > played.size
    groups = np.split(np.arange(after["rank"].size), played[1:])
    for group in groups[:12]:
        assert list(after["rank"][group]) == list(range(group.size))
        assert len({after["boards"][i].tobytes() for i in group}) == group.size
        # the opponent's equity on roll: the mover's best play leaves the least
        theirs = [cubeless_equity(position_probabilities(Position(after["boards"][i]), "net"))
                  for i in group]
        assert theirs == sorted(theirs) or np.allclose(theirs, sorted(theirs), atol=1e-12)
    # a folder made before the option existed (no "alternatives" in its settings) goes on
    learn.generate(data_dir / "old", plain, starts, 40, progress=None)
    recorded = json.loads((data_dir / "old" / "settings.json").read_text())
    del recorded["settings"]["alternatives"]
    (data_dir / "old" / "settings.json").write_text(json.dumps(recorded))
    assert learn.generate(data_dir / "old", plain, starts, 80, progress=None)["chunks"] == 2
    with pytest.raises(learn.BgcliError, match="other settings"):
        learn.generate(data_dir / "old", wide, starts, 400, progress=None)
    with pytest.raises(learn.BgcliError, match="alternatives must be 0..10"):
        learn.generate(data_dir / "bad", replace(wide, alternatives=11), starts, 3,
                       progress=None)


def _board(on_roll: dict, opponent: dict) -> Position:
    """A position from {point: checkers} of each side (its own numbering, 25 the bar)."""
    board = np.zeros((2, 25), dtype=np.int8)
    for row, side in ((1, on_roll), (0, opponent)):
        for point, count in side.items():
            board[row, point - 1] = count
    return Position(board).validated()


def test_late_contact_is_contact_with_a_side_coming_home_or_bearing_off():
    holding = {2: 5, 3: 2, 4: 2, 5: 2, 6: 2, 24: 2}  # all but an anchor home
    assert not learn.late_contact(Position.start())
    assert learn.late_contact(Position.from_id("bJsFRiA+AAAAAA"))  # a lone checker back
    assert learn.late_contact(_board({6: 5, 5: 4, 4: 4, 3: 2}, holding))  # all home, none off
    assert learn.late_contact(_board({6: 5, 5: 4, 4: 4}, holding))  # two borne off
    assert not learn.late_contact(_board({6: 5, 5: 4, 4: 4, 13: 2}, holding))  # still out
    assert not learn.late_contact(_board({6: 5, 5: 4, 4: 4}, {6: 5, 5: 5, 8: 3}))  # a race


def test_rollout_labels_keep_late_contact_and_share_a_rolls_dice(tmp_path):
    """``rollouts``: each label is the rates of a rollout of the position seeded by the
    chunk and the row of the play made, so a roll's plays are rolled out on the same dice;
    with ``late_contact`` every position kept is late contact."""
    from bgcli.rollout import RolloutSettings, rollout

    (tmp_path / "backs.txt").write_text(f"{BACK_GAME}\n")
    settings, starts = learn.data_settings(3, 0, 8, 0.5, 200, 0.0, [str(tmp_path / "backs.txt")],
                                           alternatives=2, rollouts=36, late_contact=True)
    learn.generate(tmp_path / "late", settings, starts, 8, progress=None)
    arrays, record = learn.read_data(tmp_path / "late")
    assert record["settings"]["rollouts"] == 36 and record["settings"]["late_contact"]
    assert (arrays["rank"] > 0).any()
    played = learn.played_rows(arrays["rank"])
    for row, (board, target) in enumerate(zip(arrays["boards"], arrays["targets"])):
        position = Position(board)
        assert learn.late_contact(position) or arrays["rank"][row] > 0
        group = row if played[row] < 0 else played[row]
        seed = int(np.random.SeedSequence([3, 0, group]).generate_state(1)[0])
        again = rollout(position, RolloutSettings(trials=36, seed=seed, threads=1,
                                                  variance_reduction=False))
        np.testing.assert_array_equal(target, again.means)
    assert learn.data_summary(tmp_path / "late")["positions"] == 8
    search, _ = learn.data_settings(3, 1, 8, 0.5, 200, 0.0, [str(tmp_path / "backs.txt")],
                                    alternatives=2, late_contact=True)
    with pytest.raises(learn.BgcliError, match="other settings"):
        learn.generate(tmp_path / "late", search, starts, 16, progress=None)
    assert "plies must be 0 with rollouts" in replace(settings, plies=2).problems()[0]


def test_fit_resumed_gives_the_straight_run_and_keeps_the_best_epoch(data_dir, tmp_path):
    folders = [data_dir / "data", data_dir / "data8"]
    settings = learn.FitSettings(epochs=3, batch=2, rate=3e-3)
    straight, summaries, _ = learn.fit(folders, settings, progress=None)
    assert [s["positions"] for s in summaries] == [6, 3]
    first = tmp_path / "a.npz"
    learn.fit(folders, replace(settings, epochs=1, checkpoint=str(first)), progress=None)
    resumed, _, used = learn.fit(folders, learn.FitSettings(epochs=3, rate=0.5, checkpoint=str(
        tmp_path / "b.npz")), resume=first, progress=None)
    assert used.rate == 3e-3 and used.batch == 2  # the checkpoint's
    np.testing.assert_array_equal(resumed.params, straight.params)
    np.testing.assert_array_equal(resumed.best_params, straight.best_params)
    assert resumed.adam_step == straight.adam_step == 3 * 4  # 8 training positions, batch 2
    assert not np.array_equal(straight.params, load_params())
    # the checkpoint plays the epoch with the lowest held-out error
    kept, record = read_weights(tmp_path / "b.npz")
    errors = [c["held_out"]["mean_abs_equity_error"] for c in record["supervised"]["checks"]]
    assert [c["epoch"] for c in record["supervised"]["checks"]] == [0, 1, 2, 3]
    assert record["supervised"]["best_epoch"] == resumed.best_epoch == int(np.argmin(errors))
    np.testing.assert_array_equal(kept, resumed.best_params)
    shipped = read_weights(weights_path())[1]
    assert record["history"][:-1] == shipped["history"]
    assert record["history"][-1]["epochs"] == [0, 3]
    assert [f["folder"] for f in record["history"][-1]["data"]] == ["data", "data8"]
    with pytest.raises(learn.BgcliError, match="already has 3 epochs"):
        learn.fit(folders, learn.FitSettings(epochs=3), resume=tmp_path / "b.npz", progress=None)
    with pytest.raises(learn.BgcliError, match="not a checkpoint of bgcli train --data"):
        learn.fit(folders, learn.FitSettings(epochs=5), resume=weights_path(), progress=None)
    with pytest.raises(learn.BgcliError, match="trained on other data"):
        learn.fit(folders[:1], learn.FitSettings(epochs=5), resume=tmp_path / "b.npz",
                  progress=None)


def test_played_rows_and_trained_partners():
    rank = np.array([0, 1, 2, 0, 0, 1, 2, 3])
    partner = learn.played_rows(rank)
    assert list(partner) == [-1, 0, 0, -1, -1, 4, 4, 4]
    # a pair needs both rows trained on: row 6's own row, row 4's partner rows held out
    trained = np.array([1, 2, 3, 5, 7])
    assert list(learn.trained_partners(partner, trained)) == [-1, -1, -1, -1, -1, -1, -1, -1]
    trained = np.array([0, 1, 2, 4, 5, 7])
    assert list(learn.trained_partners(partner, trained)) == [-1, 0, 0, -1, -1, 4, -1, 4]
    # cross pairs: a trained row's partner need only be among ``partners`` (not held out)
    assert list(learn.trained_partners(partner, np.array([1, 2, 5]), trained)) == [
        -1, 0, 0, -1, -1, 4, -1, -1]


def test_pair_weight_fits_a_rolls_plays_apart_and_resumes_with_its_weight(data_dir, tmp_path):
    settings, starts = learn.data_settings(15, 1, 24, 0.5, 20, 0.5, [str(data_dir / "backs.txt")],
                                           alternatives=3)
    learn.generate(tmp_path / "alt", settings, starts, 48, progress=None)
    data = learn.read_training_data([data_dir / "data", tmp_path / "alt"])
    rank = learn.read_data(tmp_path / "alt")[0]["rank"]
    assert (data.partner[:6] == -1).all()  # no alternatives in the first folder
    others = np.flatnonzero(data.partner >= 0)
    assert others.size == (rank > 0).sum() > 0 and (others >= 6).all()
    assert (rank[data.partner[others] - 6] == 0).all() and (data.partner[others] < others).all()
    plain = learn.FitSettings(epochs=2, batch=4, rate=3e-3)
    folders = [data_dir / "data", tmp_path / "alt"]
    without, _, _ = learn.fit(folders, plain, progress=None)
    first = tmp_path / "pair.npz"
    learn.fit(folders, replace(plain, epochs=1, pair_weight=2.0, checkpoint=str(first)),
              progress=None)
    paired, _, used = learn.fit(folders, learn.FitSettings(epochs=2), resume=first,
                                progress=None)
    assert used.pair_weight == 2.0
    straight, _, _ = learn.fit(folders, replace(plain, pair_weight=2.0), progress=None)
    np.testing.assert_array_equal(paired.params, straight.params)
    assert not np.array_equal(paired.params, without.params)
    assert read_weights(first)[1]["history"][-1]["pair_weight"] == 2.0
    # the held-out plays' differences are measured, and what the kept epoch minimises
    check = paired.checks[-1]
    held_pairs = data.held & (data.partner >= 0)
    assert check["held_out_pairs"]["pairs"] == held_pairs.sum() > 1
    expected = learn.difference_errors(paired.params, data, np.flatnonzero(held_pairs))
    assert check["held_out_pairs"] == pytest.approx(expected)
    assert learn._held_error(check, used) == pytest.approx(
        check["held_out"]["mean_abs_equity_error"] + expected["mean_abs_difference_error"])
    assert learn.FitSettings(pair_weight=-1).problems() == ["pair-weight must be in [0, 100], not -1"]
    assert learn.FitSettings(pair_weight=1, stop_weight=101).problems() == [
        "stop-weight must be in [0, 100], not 101"]


def test_stop_weight_sets_what_the_kept_epoch_minimises_and_is_resumed(data_dir, tmp_path):
    settings, starts = learn.data_settings(15, 1, 24, 0.5, 20, 0.5, [str(data_dir / "backs.txt")],
                                           alternatives=3)
    learn.generate(tmp_path / "alt", settings, starts, 48, progress=None)
    folders = [data_dir / "data", tmp_path / "alt"]
    for weight in (0.0, 30.0):
        first = tmp_path / f"stop{weight}.npz"
        fitted = replace(learn.FitSettings(epochs=2, batch=4, rate=3e-4, pair_weight=2.0,
                                           stop_weight=weight), checkpoint=str(first))
        learn.fit(folders, replace(fitted, epochs=1), progress=None)
        state, _, used = learn.fit(folders, learn.FitSettings(epochs=3), resume=first,
                                   progress=None)
        assert used.stop_weight == weight
        criterion = [c["held_out"]["mean_abs_equity_error"]
                     + weight * c["held_out_pairs"]["mean_abs_difference_error"]
                     for c in state.checks]
        assert state.best_epoch == int(np.argmin(criterion))
        assert read_weights(first)[1]["history"][-1]["stop_weight"] == weight
    # two epochs' checks that the weight ranks the other way round
    checks = [{"held_out": {"mean_abs_equity_error": 0.020},
               "held_out_pairs": {"mean_abs_difference_error": 0.030}},
              {"held_out": {"mean_abs_equity_error": 0.025},
               "held_out_pairs": {"mean_abs_difference_error": 0.020}}]
    for weight, better in ((0.0, 0), (1.0, 1), (30.0, 1)):
        settings = learn.FitSettings(pair_weight=2.0, stop_weight=weight)
        errors = [learn._held_error(check, settings) for check in checks]
        assert int(np.argmin(errors)) == better
        assert errors[1] == pytest.approx(0.025 + weight * 0.020)


def test_fit_groups_the_held_out_positions_by_source_across_folders(data_dir):
    state, _, _ = learn.fit([data_dir / "data", data_dir / "data8"],
                            learn.FitSettings(epochs=1), progress=None)
    by_source = state.checks[0]["held_out_by_source"]
    data = learn.read_training_data([data_dir / "data", data_dir / "data8"])
    assert data.held.sum() == 2 and set(data.source) <= {"opening", "backs.txt"}
    counts = {name: int((data.held & (data.source == name)).sum()) for name in set(data.source)}
    assert set(by_source) == {name for name, n in counts.items() if n > 1}  # SE needs two
    for name, entry in by_source.items():
        assert entry["positions"] == int((data.held & (data.source == name)).sum())
    with pytest.raises(learn.BgcliError, match="given twice"):
        learn.read_training_data([data_dir / "data", data_dir / "data"])


def test_every_tenth_position_is_held_out():
    assert list(np.flatnonzero(learn.held_out(25))) == [0, 10, 20]


def test_cli_train_data_then_train_from_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "train-data", "d", "-n", "2", "--chunk", "2", "--plies", "1")
    assert code == 0, err
    assert json.loads(out)["positions"] == 2 and json.loads(out)["per_source"]["opening"] == 2
    code, out, err = run(capsys, "train-data", "e", "-n", "2", "--chunk", "2", "--plies", "1",
                         "--seed", "2")
    assert code == 0, err
    code, out, err = run(capsys, "train", "--data", "d", "--data", "e", "--epochs", "2",
                         "-o", "n.npz")
    assert code == 0, err
    last_run = json.loads(out)["history"][-1]
    assert last_run["method"] == "supervised on n-ply search targets"
    assert [f["folder"] for f in last_run["data"]] == ["d", "e"]
    assert "--data d --data e" in last_run["command"]
    code, out, err = run(capsys, "train", "--data", "d", "--data", "e", "--epochs", "3",
                         "-o", "n.npz", "--resume", "n.npz")
    assert code == 0 and json.loads(out)["supervised"]["epochs"] == 3, err


@pytest.mark.parametrize("argv, message", [
    (["train", "--data", "nowhere"], "no such file or folder"),
    (["train", "--data", ".", "--explore", "0.1"], "not with --data"),
    (["train", "--data", "."], "not a bgcli train-data folder"),
    (["train", "--data", ".", "--rate", "2"], "rate must be in (0, 1]"),
    (["train", "--data", ".", "--misrank-weight", "4"], "give pair-weight too"),
    (["train", "--data", ".", "--resume", "n.npz"], "no such file or folder"),
    (["train", "--games", "10", "--second-layer"], "for --data (supervised) runs"),
    (["train", "--games", "10", "--cross-pairs"], "for --data (supervised) runs"),
    (["train", "--data", ".", "--cross-pairs", "--pair-weight", "1"], "of one net"),
    (["train", "--data", ".", "--cross-pairs", "--nets", "late"], "of one net"),
    (["train-data", "d", "--plies", "0"], "plies must be"),
    (["train-data", "d", "--rollouts", "36", "--plies", "2"], "leave --plies out"),
    (["train-data", "no/such/d"], "no folder to make"),
    (["train-data", "d", "--from", "missing.txt"], "no such file"),
])
def test_cli_refusals(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code in (1, 2) and message in err and "Traceback" not in err


def test_equity_errors_of_no_positions_are_nan_without_a_warning(recwarn):
    """A data folder too small to hold any position out measures nothing (NaN), quietly."""
    result = learn.equity_errors(load_params(), np.zeros((0, 2, 25), dtype=np.int8),
                                 np.zeros((0, 5)))
    assert result["positions"] == 0
    assert all(np.isnan(result[k]) for k in ("mean_abs_equity_error", "se", "mse"))
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


RACE = "2NsGAAD/gc0AAA"  # a race: no contact, the race net values it


def data_race_positions(folder) -> int:
    boards = learn.read_data(folder)[0]["boards"]
    return sum(not is_contact(board, 1) for board in boards)


def test_nets_trains_one_net_and_leaves_the_other_as_it_starts(data_dir, tmp_path):
    race_board, back_board = Position.from_id(RACE).board, Position.from_id(BACK_GAME).board
    assert not is_contact(race_board, 1) and is_contact(back_board, 1)
    data = learn.TrainingData(boards=np.stack([back_board, race_board, back_board, race_board]),
                              targets=np.zeros((4, 5)), source=np.array(["x"] * 4),
                              held=np.array([True, False, False, False]), folders=[])
    start = load_params()
    assert list(data.trained_by("contact", start)) == [2]
    assert list(data.trained_by("race", start)) == [1, 3]
    assert list(data.trained_by("both", start)) == [1, 2, 3]
    checkpoint = tmp_path / "c.npz"
    state, _, _ = learn.fit([data_dir / "data"], learn.FitSettings(
        epochs=1, rate=3e-3, nets="contact", checkpoint=str(checkpoint)), progress=None)
    np.testing.assert_array_equal(state.params[NET_SIZE:], start[NET_SIZE:])
    assert not np.array_equal(state.params[:NET_SIZE], start[:NET_SIZE])
    _, _, used = learn.fit([data_dir / "data"], learn.FitSettings(epochs=2), resume=checkpoint,
                           progress=None)
    assert used.nets == "contact"
    assert data_race_positions(data_dir / "data") == 0  # 20 plies from the opening: no race
    with pytest.raises(learn.BgcliError, match="none of the training positions"):
        learn.fit([data_dir / "data"], learn.FitSettings(nets="race"), progress=None)
    assert "nets must be one of" in learn.FitSettings(nets="crashed").problems()[0]


def test_drop_lates_vectorised_test_agrees_with_late_contact():
    """``drop_late.late_contact_rows`` (the experiment script's numpy form, for millions of
    rows) says of every position what ``learn.late_contact`` says, over whole games from a
    back game and from the opening (races, bear-offs, positions on the bar included)."""
    from scripts.experiments.learn_from_search.drop_late import late_contact_rows

    rng = np.random.default_rng(5)
    positions = [position for start in (Position.from_id(BACK_GAME), Position.start())
                 for _ in range(3)
                 for position, _, _ in learn.sample_game(start, rng, 1.0, 300, alternatives=1)]
    expected = np.array([learn.late_contact(position) for position in positions])
    assert 20 < expected.sum() < len(expected) - 20  # both kinds, plenty of each
    boards = np.stack([position.board for position in positions]).astype(np.int8)
    np.testing.assert_array_equal(late_contact_rows(boards), expected)
