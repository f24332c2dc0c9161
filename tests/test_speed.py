"""The shortcuts taken for speed give the same results as the plain way (issue 20)."""

from __future__ import annotations

import numpy as np
import pytest

from bgcli import cache, evaluation
from bgcli.position import Position


def test_cached_params_equal_the_built_ones(tmp_path, monkeypatch):
    """The weights with the bear-off tables, memory-mapped from the cache, are the array
    built from the tables, and writable (the kernels are compiled for writable arrays)."""
    monkeypatch.setattr(cache, "cache_dirs", lambda: [tmp_path])
    build = evaluation._params.__wrapped__  # past the per-process lru_cache
    built = build("heuristic", True, None)
    assert len(list(tmp_path.glob("params-*.npy"))) == 1
    mapped = build("heuristic", True, None)
    assert type(mapped) is np.ndarray and mapped.flags.writeable
    assert mapped.base is not None and not np.shares_memory(mapped, built)
    np.testing.assert_array_equal(mapped, built)


def test_params_key_follows_the_weights():
    weights = np.zeros(10)
    other = weights.copy()
    other[3] = 1e-9
    assert evaluation._params_key(weights) == evaluation._params_key(weights.copy())
    assert evaluation._params_key(weights) != evaluation._params_key(other)


# positions of every kind the luck meets: the opening, a middle game with hits, a bear-off
# outside the two-sided table, one inside it
LUCK_POSITIONS = ["4HPwATDgc/ABMA", "a5yDAQYtO4MBAw", "tW0AAED7AQAAAA", "kgAAkAQAAAAAAA"]


@pytest.mark.parametrize("position_id", LUCK_POSITIONS)
def test_luck_values_are_each_rolls_own_best_play(position_id):
    """kernels.luck values the 21 rolls with one reference board for the net's incremental
    hidden layer and scratch kept across calls; the plain way chooses each roll's play with
    fresh buffers (net_choose). The values agree to float32 rounding, and the roll played
    gets its own roll's value."""
    from bgcli.kernels import luck, movegen, net
    from bgcli.kernels.evaluate import POLICY_NAMES

    code, params = evaluation.policy_code("net")
    weights = net.playout_weights(params)
    board = Position.from_id(position_id).board.copy()
    buffers = movegen.new_buffers()
    boards = buffers[0]
    probs, mover, mean, actual = (np.zeros(5) for _ in range(4))
    expected_mean = np.zeros(5)
    choice = net.choice_buffers(weights)
    for r, (a, b) in enumerate(luck.ROLLS):
        luck.roll_values(board, a, b, code, params, weights, buffers, choice, probs, mover,
                         mean, actual)
        count, _ = movegen.generate_plays(board, a, b, *buffers)
        plain = np.zeros(5)
        luck.best_value(count, code, params, weights, boards, probs, plain,
                        net.choice_buffers(weights))  # fresh: no reference kept
        if code == POLICY_NAMES["net"] and not luck_bearoff(params, boards):
            # the net in float64, play by play: the best value for the mover
            out = np.zeros(5)
            best = -np.inf
            for i in range(count):
                net.net_probabilities(boards[i], 0, params, out)
                best = max(best, -evaluation.cubeless_equity(out))
            assert abs(evaluation.cubeless_equity(actual) - best) < 1e-4
        np.testing.assert_allclose(actual, plain, rtol=0, atol=2e-5)
        expected_mean += luck.ROLL_WEIGHTS[r] * plain
    np.testing.assert_allclose(mean, expected_mean, rtol=0, atol=2e-5)
    assert np.array_equal(board, Position.from_id(position_id).board)  # left as it was


@pytest.mark.parametrize("position_id", LUCK_POSITIONS)
def test_screened_luck_values_are_the_best_of_the_plays_the_screen_keeps(position_id):
    """The net's luck in rollouts (kernels.luck.screened_roll_values) values each roll by
    the best of the plays a screen keeps: in contact the pruning net's (none without it: then
    every play's best, roll_values' value), in races the linearized net's. Never above the
    best of all plays, and the mean is the roll-weighted sum of the 21 rolls' values: one
    function for every roll, so the luck's expectation stays zero."""
    from bgcli.kernels import luck, net, search

    board = Position.from_id(position_id).board.copy()
    contact = position_id in LUCK_POSITIONS[:2]
    probs, mover, mean, actual, full_mean, full = (np.zeros(5) for _ in range(6))
    screened_means = []
    for prune in (False, True):
        code, params = evaluation.policy_code("net", prune=prune)
        weights = net.playout_weights(params)
        work = search.work_buffers(True, weights)
        expected_mean = np.zeros(5)
        for r, (a, b) in enumerate(luck.ROLLS):
            luck.screened_roll_values(board, a, b, params, weights, work,
                                      luck.linear_buffers(), probs, mover, mean, actual)
            luck.roll_values(board, a, b, code, params, weights, new_buffers(),
                             net.choice_buffers(weights), probs, mover, full_mean, full)
            if contact and not prune:
                np.testing.assert_allclose(actual, full, rtol=0, atol=2e-5)
            assert (evaluation.cubeless_equity(actual)
                    <= evaluation.cubeless_equity(full) + 1e-5)
            expected_mean += luck.ROLL_WEIGHTS[r] * actual
        np.testing.assert_allclose(mean, expected_mean, rtol=0, atol=1e-12)
        if contact and not prune:
            np.testing.assert_allclose(mean, full_mean, rtol=0, atol=2e-5)
        screened_means.append(mean.copy())
    # the pruning net screens in contact only: there it may lower the mean, never raise it
    gap = evaluation.cubeless_equity(screened_means[0]) - evaluation.cubeless_equity(
        screened_means[1])
    assert (0 <= gap < 0.02) if contact else gap == 0
    assert np.array_equal(board, Position.from_id(position_id).board)  # left as it was


@pytest.mark.parametrize("position_id", ["tW0AAED7AQAAAA", "kgAAkAQAAAAAAA",
                                         "2+4OAADb9gAAAA"])
def test_the_linearized_net_ranks_race_plays_as_the_net_does(position_id):
    """kernels.luck.linearize: a race play's screen value is the first-order change of the
    mover's equity from the position rolled from. It must track the net's own value of the
    plays (their differences within a roll) and keep the net's best play of most rolls
    among its RACE_KEEP, the others close (the bear-off, where the net is least linear,
    loses most: 0.009 a roll on average), and linear_screen must keep exactly its highest
    values, in the move generator's order."""
    from bgcli.kernels import luck, movegen, net, search
    from bgcli.kernels.evaluate import ROLLS

    position = Position.from_id(position_id)
    board = position.board.copy()
    assert not net.is_contact(board, 0)
    code, params = evaluation.policy_code("net", bearoff=False)
    weights = net.playout_weights(params)
    work = search.work_buffers(True, weights)
    level, linear = work[8][1], luck.linear_buffers()
    search._know(board, 0, params, weights, level)
    assert luck.linearize(weights, level, linear)
    hits, rolls, lost, screen_gaps, net_gaps = 0, 0, 0.0, [], []
    for a, b in ROLLS:
        boards = work[0]
        count, _ = movegen.generate_plays(board, a, b, *work[:5])
        if count < 2:
            continue
        keep = min(count, luck.RACE_KEEP)
        luck.linear_screen(count, keep, board, boards, linear[0], work)
        scores = work[5][:count, 0].copy()
        kept = work[6][:keep].copy()
        values = np.empty(count)
        out = np.zeros(5)
        for i in range(count):
            net.net_probabilities(boards[i], 0, params, out)
            values[i] = -evaluation.cubeless_equity(out)
        top = sorted(range(count), key=lambda i: (-scores[i], i))[:keep]
        np.testing.assert_array_equal(kept, boards[sorted(top)][:count])
        rolls += 1
        hits += any(np.array_equal(boards[int(np.argmax(values))], play) for play in kept)
        lost += values.max() - values[top].max()
        screen_gaps.extend(scores - scores.mean())
        net_gaps.extend(values - values.mean())
    assert rolls >= 10
    assert hits >= 0.65 * rolls
    assert lost / rolls < 0.015
    assert np.corrcoef(screen_gaps, net_gaps)[0, 1] > 0.75  # 0.82 in the bear-off


def new_buffers():
    from bgcli.kernels import movegen

    return movegen.new_buffers()


def luck_bearoff(params, boards) -> bool:
    from bgcli.kernels.evaluate import ONESIDED_SLOT, both_home, table_start

    return table_start(params, ONESIDED_SLOT) != 0 and both_home(boards[0])


@pytest.mark.parametrize("argv, message", [
    (["bench", "--part", "nope"], "'nope' is no part"),
    (["bench", "--json", "record.txt"], "name the file .json"),
])
def test_bench_refuses_bad_options_in_one_line(capsys, tmp_path, monkeypatch, argv, message):
    from cli_helpers import run

    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_bench_part_writes_the_record_it_reports(capsys, tmp_path):
    """``python -m bgcli.bench.PART --json FILE``: the report on stdout, the same record in FILE."""
    import json

    from bgcli.bench import movegen

    path = tmp_path / "movegen.json"
    record = movegen.main(["--positions", "500", "--json", str(path)])
    assert json.loads(path.read_text()) == record
    assert record["positions"] == 500 and record["plays_per_position"] > 1
    assert capsys.readouterr().out.startswith("movegen: ")


def test_compile_notice_names_what_a_command_compiles(monkeypatch):
    """The first run's notice is per kernel: a cache holding move generation only still
    announces the playouts' compilation to a rollout."""
    from bgcli import warmup

    names = {"movegen.generate_plays"}
    monkeypatch.setattr(warmup, "compiled_before", lambda kernel=None: kernel in names)
    from bgcli.cli import common

    for needs, expected in (("moves", False), ("rollout", True)):
        monkeypatch.setattr(common, "_ANNOUNCED", [])
        said = []
        monkeypatch.setattr(common.typer, "echo", lambda text, err=False: said.append(text))
        common.announce_compiling(needs)
        assert bool(said) == expected
        if said:
            assert "playouts" in said[0] and "about" in said[0]


def test_compile_table_names_kernels_as_numba_caches_them():
    import importlib

    from bgcli import warmup
    from bgcli.moves import legal_plays

    for _, kernel, _ in warmup.COMPILES.values():
        module, function = kernel.split(".")
        assert hasattr(importlib.import_module(f"bgcli.kernels.{module}"), function)
    legal_plays(Position.start(), (3, 1))
    assert warmup.compiled_before("movegen.generate_plays")


@pytest.mark.parametrize("position_id, is_settled", [
    ("4HPwATDgc/ABMA", False), ("a5yDAQYtO4MBAw", False),
    ("AQAA/P8BAAAAAA", True),  # on roll with 15 checkers on the 1-point against one
])
def test_a_settled_position_has_no_luck_and_another_its_full_luck(position_id, is_settled):
    """The settled shortcut: before a roll whose position the evaluator has decided (every
    probability within SETTLED of 0 or 1) the luck is zero; elsewhere it is measured."""
    from bgcli.kernels import luck, movegen, net

    code, params = evaluation.policy_code("net")
    weights = net.playout_weights(params)
    position = Position.from_id(position_id)
    probs, mover, mean, actual = (np.zeros(5) for _ in range(4))
    assert luck.settled(position.board.copy(), code, params, probs) == is_settled
    reached = evaluation.position_probabilities(position, "net")
    assert np.all(np.minimum(reached, 1 - reached) <= luck.SETTLED) == is_settled
    luck.roll_values(position.board.copy(), 6, 6, code, params, weights,
                     movegen.new_buffers(), net.choice_buffers(weights), probs, mover, mean,
                     actual)
    assert (not mean.any() and not actual.any()) == is_settled
