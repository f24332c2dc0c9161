"""Cubeful rollouts: money cube decisions inside the playouts, and cube analysis by rolling
out No double against Double/take with the same dice."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bgcli.cube import CubeOwner, cubeful_equity
from bgcli.decisions import cube_decision, cubeful_cube_decision
from bgcli.notation.detect import parse_situation
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout
from cli_helpers import run

WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])
SETTINGS = RolloutSettings(trials=144, seed=4, cubeful=True, bearoff_truncation=False,
                           threads=1)


def test_kernel_janowski_equals_the_library():
    from bgcli.kernels.cube import CENTRED, OWN, THEIRS
    from bgcli.kernels.cube import cubeful_equity as kernel

    rng = np.random.default_rng(5)
    owners = {CENTRED: CubeOwner.CENTRED, OWN: CubeOwner.ME, THEIRS: CubeOwner.THEM}
    for _ in range(500):
        w = rng.uniform(0.01, 0.99)
        wg = rng.uniform(0, w)
        lg = rng.uniform(0, 1 - w)
        probs = np.array([w, wg, rng.uniform(0, wg), lg, rng.uniform(0, lg)])
        x = rng.uniform(0, 1)
        for code, owner in owners.items():
            for jacoby in (False, True):
                assert kernel(probs, x, code, jacoby) == pytest.approx(
                    cubeful_equity(list(probs), x, owner, jacoby), abs=1e-12)


def test_game_points_are_cube_multiples_of_game_values():
    result = rollout(Position.from_id("4HPwATDgc/ABMA"), SETTINGS)
    points = np.abs(result.cube_points)
    cubes = 2.0 ** np.floor(np.log2(points / np.array([3 if p % 3 == 0 else 1 for p in points])))
    # every game ends with the cube at some power of two times a single, gammon or backgammon
    assert all(any(math.isclose(p, c * k) for c in (1, 2, 4, 8, 16, 32, 64) for k in (1, 2, 3))
               for p in points)
    assert cubes.min() >= 1
    assert result.cubeful_equity == pytest.approx(result.cube_points.mean())
    assert result.cubeful_equity_se == pytest.approx(result.cube_points.std(ddof=1) / 12)


def test_too_good_to_double_plays_for_the_gammon():
    # three checkers left on the 1-point against fifteen on the opponent's midpoint, past
    # them: the root wins a gammon in every game (the opponent gets one roll, too few to bear
    # a checker off). Too good to double, it never turns the cube, and the opponent, with no
    # chance, never wants to: every game is worth its cubeless +2.
    gammon = Position.from_points({1: 3}, {13: 15})
    result = rollout(gammon, SETTINGS)
    np.testing.assert_array_equal(result.values @ WEIGHTS - 1.0, np.full(144, 2.0))
    np.testing.assert_array_equal(result.cube_points, np.full(144, 2.0))
    # had it doubled (and been passed), games would be worth +1
    assert cube_decision(parse_situation(gammon.position_id()),
                         [1, 1, 0, 0, 0]).action == "Too good to double, pass"


def test_a_pass_ends_the_game_at_the_cube_value():
    # two checkers on the 6-point against a long way home with one checker off (no gammon):
    # if the first roll does not win, the root doubles at its next turn and the opponent,
    # with no chance left, passes: every game is worth +1 whatever the cube owner at start
    cashing = Position.from_points({6: 2}, {13: 7, 18: 7})
    result = rollout(cashing, SETTINGS)
    np.testing.assert_array_equal(result.cube_points, np.ones(144))
    # with the cube owned by the opponent the root cannot double: it plays the game out
    owned = rollout(cashing, SETTINGS, cube_owner="opponent")
    np.testing.assert_array_equal(owned.cube_points, owned.values @ WEIGHTS - 1.0)


def test_cubeful_rollouts_refuse_variance_reduction():
    assert any("variance reduction" in p for p in
               RolloutSettings(cubeful=True, variance_reduction=True).problems())


def test_cube_decision_by_cubeful_rollouts():
    start = cubeful_cube_decision(parse_situation("4HPwATDgc/ABMA"),
                                  RolloutSettings(trials=144, seed=1, threads=1))
    assert start.action == "No double, take"
    assert start.no_double_se > 0 and start.difference_se > 0
    assert math.isfinite(start.double_take) and start.double_pass == 1.0
    # at a match score too (tests/test_cubeful_match.py), in MWC
    match = cubeful_cube_decision(parse_situation("4HPwATDgc/ABMA:cAngAFAAGAAE"),
                                  RolloutSettings(trials=36, seed=1, threads=1))
    assert match.score == "4-away 2-away" and 0 < match.match_winning_chances["no_double_mwc"] < 1


def test_cli_rollout_and_cube_cubeful(capsys):
    code, out, err = run(capsys, "rollout", "4HPwATDgc/ABMA", "--cubeful", "-n", "72", "-s", "3",
                         "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["cubeful"] is True and "cubeful_equity" in row and "cubeful_equity_se" in row
    code, out, err = run(capsys, "cube", "4HPwATDgc/ABMA", "--cubeful", "-n", "72", "-s", "3",
                         "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["source"] == "cubeful rollouts, 72 games each"
    assert row["double_take_se"] > 0 and row["double_pass"] == 1.0
    # 72 games are too few to tell No double from Double, take at the start: both are fine
    assert row["cube_action"] in ("No double, take", "Double, take")
    code, out, err = run(capsys, "rollout", "4HPwATDgc/ABMA:cAngAFAAGAAE", "--cubeful", "-n", "36",
                         "-f", "json")
    assert code == 0 and 0 < json.loads(out)[0]["cubeful_mwc"] < 1, err
    code, _, err = run(capsys, "cube", "4HPwATDgc/ABMA", "--cubeful", "--efficiency", "0.5")
    assert code == 2
