"""Learning from search: labelled data (bgcli.learn.generate) and the supervised trainer
(bgcli.kernels.supervised, bgcli.learn.fit), through the API and the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bgcli import learn
from bgcli.evaluation import position_probabilities
from bgcli.kernels.net import MAX_NONZERO, N_HIDDEN, NET_SIZE, encode, forward, is_contact
from bgcli.kernels.supervised import fit_epoch, net_outputs
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


def _loss(params, boards, targets):
    return sum(((t - _raw(params, b)) ** 2).sum() for b, t in zip(boards, targets))


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """Two chunks of three positions, labelled at 1 ply (fast), from the opening and a
    one-position collection."""
    folder = tmp_path_factory.mktemp("learn")
    (folder / "backs.txt").write_text(f"{BACK_GAME}\n")
    settings, starts = learn.data_settings(7, 1, 3, 0.5, 20, 0.5, [str(folder / "backs.txt")])
    learn.generate(folder / "data", settings, starts, 6, progress=None)
    return folder


def test_one_step_follows_the_gradient_of_the_squared_error():
    params = load_params().copy()
    boards = np.stack([Position.from_id(BACK_GAME).board, Position.start().board])
    targets = np.array([[0.3, 0.1, 0.01, 0.3, 0.02], [0.5, 0.15, 0.01, 0.12, 0.005]])
    rate = 1e-3
    after = params.copy()
    stats = np.zeros(2)
    fit_epoch(after, boards, targets, np.ones(2), np.arange(2), 2, rate, stats)
    step = after - params
    assert stats[1] == 2 and stats[0] == pytest.approx(_loss(params, boards, targets))
    # the step is rate * mean of -1/2 d loss / d w: check a few weights by finite differences
    checked = np.flatnonzero(np.abs(step) > 1e-7)[::97][:6]
    assert len(checked) == 6
    for j in checked:
        up, down = params.copy(), params.copy()
        up[j] += 1e-5
        down[j] -= 1e-5
        slope = (_loss(up, boards, targets) - _loss(down, boards, targets)) / 2e-5
        assert step[j] == pytest.approx(-rate * slope / 4, rel=1e-3, abs=1e-12)
    assert _loss(after, boards, targets) < _loss(params, boards, targets)


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
    learn.generate(tmp_path / "d", settings, starts, 2, progress=None)  # one chunk, then
    learn.generate(tmp_path / "d", settings, starts, 6, progress=None)  # the second
    again, _ = learn.read_data(tmp_path / "d")
    for key in arrays:
        np.testing.assert_array_equal(again[key], arrays[key])
    other = learn.DataSettings(**{**learn.asdict(settings), "seed": 8,
                                  "sources": settings.sources})
    with pytest.raises(learn.BgcliError, match="other settings"):
        learn.generate(tmp_path / "d", other, starts, 9, progress=None)


def test_fit_resumed_gives_the_straight_run_and_keeps_the_history(data_dir, tmp_path):
    data = data_dir / "data"
    straight, _, _ = learn.fit(data, learn.FitSettings(epochs=3, batch=2), progress=None)
    first = tmp_path / "a.npz"
    learn.fit(data, learn.FitSettings(epochs=1, batch=2, checkpoint=str(first)), progress=None)
    resumed, _, used = learn.fit(data, learn.FitSettings(epochs=3, rate=5.0, checkpoint=str(
        tmp_path / "b.npz")), resume=first, progress=None)
    assert used.rate == 0.1 and used.batch == 2  # the checkpoint's
    np.testing.assert_array_equal(resumed.params, straight.params)
    assert not np.array_equal(straight.params, load_params())
    _, record = read_weights(tmp_path / "b.npz")
    shipped = read_weights(weights_path())[1]
    assert record["history"][:-1] == shipped["history"]
    assert record["history"][-1]["epochs"] == [0, 3]
    assert [c["epoch"] for c in record["supervised"]["checks"]] == [0, 1, 2, 3]
    with pytest.raises(learn.BgcliError, match="already has 3 epochs"):
        learn.fit(data, learn.FitSettings(epochs=3), resume=tmp_path / "b.npz", progress=None)


def test_split_holds_out_every_tenth():
    train, held = learn.split(25)
    assert list(held) == [0, 10, 20] and len(train) == 22 and not set(train) & set(held)


def test_cli_train_data_then_train_from_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "train-data", "d", "-n", "2", "--chunk", "2", "--plies", "1")
    assert code == 0, err
    assert json.loads(out)["positions"] == 2 and json.loads(out)["per_source"]["opening"] == 2
    code, out, err = run(capsys, "train", "--data", "d", "--epochs", "2", "-o", "n.npz")
    assert code == 0, err
    assert json.loads(out)["history"][-1]["method"] == "supervised on n-ply search targets"
    code, out, err = run(capsys, "train", "--data", "d", "--epochs", "3", "-o", "n.npz",
                         "--resume", "n.npz")
    assert code == 0 and json.loads(out)["supervised"]["epochs"] == 3, err


@pytest.mark.parametrize("argv, message", [
    (["train", "--data", "nowhere"], "no such file or folder"),
    (["train", "--data", ".", "--explore", "0.1"], "not with --data"),
    (["train", "--data", "."], "not a bgcli train-data folder"),
    (["train-data", "d", "--plies", "0"], "plies must be"),
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
