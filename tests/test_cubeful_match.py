"""Cubeful rollouts at a match score: the match cube model inside the playouts
(bgcli.kernels.match_cube) is bgcli.cube's (gnubg's Cl2CfMatch, checked against gnubg in
tests/test_cube.py), and the rules of match play hold game by game: no doubling in the Crawford
game, a dead cube for a side it already gives the match, 1-away 1-away, gammons worth only the
points needed; results do not depend on the thread count."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from bgcli.cube import CubeOwner, _match_cubeful_mwc, _MatchCube, analyse_match_cube
from bgcli.decisions import cubeful_cube_decision, match_score
from bgcli.kernels.cube import CENTRED, OWN, THEIRS
from bgcli.kernels.match_cube import cubeful_mwc, match_doubles_and_takes, mwc_after
from bgcli.match import MatchScore, kazaross_xg2
from bgcli.notation.detect import parse_situation
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, match_table_array, rollout
from cli_helpers import run

MET = kazaross_xg2()
TABLE = match_table_array()
OWNERS = {CENTRED: CubeOwner.CENTRED, OWN: CubeOwner.ME, THEIRS: CubeOwner.THEM}
# a middle game from gnubg's hint fixture, then its Match IDs (player 1 on roll, 7-point match)
POSITION = "jOfgASTgc+FBAg"
AT = {"4-away 2-away": "cAngAFAAGAAE", "2-away 1-away Crawford": "8AngAGAAKAAE",
      "2-away 1-away post-Crawford": "cAngAGAAKAAE", "1-away 1-away": "cAngAGAAMAAE"}
SETTINGS = RolloutSettings(trials=72, seed=11, policy="heuristic", threads=1, cubeful=True)


def random_probabilities(rng) -> np.ndarray:
    w = rng.uniform(0.02, 0.98)
    wg = rng.uniform(0, w * 0.6)
    lg = rng.uniform(0, (1 - w) * 0.6)
    return np.array([w, wg, rng.uniform(0, wg * 0.2), lg, rng.uniform(0, lg * 0.2)])


def test_mwc_after_is_the_tables():
    for a in range(1, 26):
        for b in range(1, 26):
            for points in (1, 2, 3, 4, 6, 8, 16):
                for won in (True, False):
                    for crawford in ((False, True) if 1 in (a, b) else (False,)):
                        assert mwc_after(TABLE, a, b, points, won, crawford) == \
                            MET.mwc_after(a, b, points, won, crawford)


SCORES = [(a, b, cube, crawford) for a, b in [(7, 7), (4, 2), (2, 4), (3, 5), (9, 4), (2, 2),
                                               (3, 3), (5, 1), (1, 5), (1, 1)]
          for cube in (1, 2, 4) for crawford in ((False, True) if 1 in (a, b) and cube == 1
                                                 else (False,))]


@pytest.mark.parametrize("away_me,away_them,cube,crawford", SCORES)
def test_kernel_cube_model_is_bgcli_cubes(away_me, away_them, cube, crawford):
    rng = np.random.default_rng(away_me * 100 + away_them * 10 + cube)
    mc = _MatchCube(MET, (away_me, away_them), crawford)
    for _ in range(10):
        p = random_probabilities(rng)
        x = rng.choice([0.6, 0.68, 0.7])
        for owner, py_owner in OWNERS.items():
            want = _match_cubeful_mwc(tuple(p), x, mc, cube, py_owner)
            assert cubeful_mwc(p, x, TABLE, away_me, away_them, crawford, cube, owner) == \
                pytest.approx(want, abs=1e-12)
        for owner in (CENTRED, OWN):
            if owner == CENTRED and cube != 1:
                continue
            doubles, takes = match_doubles_and_takes(p, x, TABLE, away_me, away_them, crawford,
                                                     cube, owner)
            a = analyse_match_cube(p, x, MET, away_me, away_them, cube, OWNERS[owner], crawford)
            if a.action is None:  # no double possible: Crawford, or the cube gives the match
                assert not doubles
                continue
            assert doubles == (a.double_take >= a.no_double and a.double_pass >= a.no_double)
            assert takes == (a.double_take <= a.double_pass)


def test_who_may_double():
    p = np.array([0.7, 0.3, 0.02, 0.05, 0.0])
    # the Crawford game: nobody
    assert match_doubles_and_takes(p, 0.68, TABLE, 2, 1, True, 1, CENTRED) == (False, False)
    # the post-Crawford leader never; nor a side the cube at 2 already gives the match
    assert match_doubles_and_takes(p, 0.68, TABLE, 1, 3, False, 1, CENTRED) == (False, False)
    assert match_doubles_and_takes(p, 0.68, TABLE, 2, 4, False, 2, OWN) == (False, False)
    assert match_doubles_and_takes(p, 0.68, TABLE, 1, 1, False, 1, CENTRED) == (False, False)
    # the post-Crawford trailer doubles an even game at once, and it is a take
    even = np.array([0.5, 0.12, 0.005, 0.12, 0.005])
    assert match_doubles_and_takes(even, 0.68, TABLE, 3, 1, False, 1, CENTRED) == (True, True)
    # a huge favourite at 4-away 4-away: double, pass
    big = np.array([0.85, 0.0, 0.0, 0.0, 0.0])
    assert match_doubles_and_takes(big, 0.68, TABLE, 4, 4, False, 1, CENTRED) == (True, False)


def _mover_linear(score: MatchScore, values: np.ndarray) -> np.ndarray:
    c = np.array(score.mwc_coefficients(MET))
    return c[0] + values @ c[1:]


@pytest.mark.parametrize("name", ["2-away 1-away Crawford", "1-away 1-away"])
def test_no_cube_turns_where_it_is_dead(name):
    """In the Crawford game and at 1-away 1-away no cube is turned: every game's MWC is the
    cubeless one of its result (cut-short games: of their probabilities)."""
    situation = parse_situation(f"{POSITION}:{AT[name]}")
    score = match_score(situation)
    result = rollout(situation.position, SETTINGS, score=score)
    assert result.cube_points == pytest.approx(_mover_linear(score, result.values), abs=1e-12)
    assert result.cubeful_mwc == pytest.approx(result.cube_points.mean())
    if name == "1-away 1-away":  # only winning counts
        assert result.cube_points == pytest.approx(result.values[:, 0], abs=1e-12)


def test_a_cube_that_gives_the_leader_the_match_stays_put():
    """2-away against 4-away with the cube on 2 owned by the leader: the leader gains nothing
    by redoubling and the trailer cannot double, so every game is the cubeless one at cube 2
    (a single win already wins the match)."""
    situation = parse_situation(f"{POSITION}:UQngADAAKAAE")
    score = match_score(situation)
    assert score == MatchScore(2, 4, False, 2)
    result = rollout(situation.position, SETTINGS, cube_owner="on roll", score=score)
    assert result.cube_points == pytest.approx(_mover_linear(score, result.values), abs=1e-12)
    assert MatchScore(2, 4, False, 2).mwc_coefficients(MET)[2:4] == (0.0, 0.0)


def test_post_crawford_games_are_doubled_and_worth_the_match():
    """Post-Crawford the 2-away trailer doubles: a single game won after the take wins the
    match (MWC 1), where in the Crawford game at the same score it only reaches 1-away 1-away
    (0.5); a pass gives 0.5 too. Every game is played out here."""
    from dataclasses import replace

    settings = replace(SETTINGS, bearoff_truncation=False)
    situation = parse_situation(f"{POSITION}:{AT['2-away 1-away post-Crawford']}")
    post = rollout(situation.position, settings, score=match_score(situation))
    crawford = parse_situation(f"{POSITION}:{AT['2-away 1-away Crawford']}")
    same_dice = rollout(crawford.position, settings, score=match_score(crawford))
    for result in (post, same_dice):
        assert set(np.round(result.cube_points, 12)) <= {0.0, 0.5, 1.0}
    single_wins = (post.values[:, 0] == 1) & (post.values[:, 1] == 0)
    assert (post.cube_points[single_wins] == 1.0).sum() > 0
    single_wins = (same_dice.values[:, 0] == 1) & (same_dice.values[:, 1] == 0)
    assert (same_dice.cube_points[single_wins] == 0.5).all()


def test_gammonish_score_is_scored_in_mwc_and_emg():
    situation = parse_situation(f"{POSITION}:{AT['4-away 2-away']}")
    score = match_score(situation)
    result = rollout(situation.position, SETTINGS, score=score)
    games = result.cube_points
    assert result.cubeful_mwc == pytest.approx(games.mean())
    assert result.cubeful_mwc_se == pytest.approx(games.std(ddof=1) / math.sqrt(len(games)))
    assert result.cubeful_equity == pytest.approx(MET.mwc_to_equity(result.cubeful_mwc, 4, 2))
    assert result.cubeful_equity_se == pytest.approx(result.cubeful_mwc_se * 2 / (
        MET.mwc_after(4, 2, 1, True) - MET.mwc_after(4, 2, 1, False)))
    # every game ends at an MWC the table has at this score (or a cut-short one in between)
    assert ((0.0 <= games) & (games <= 1.0)).all()
    row = result.row()
    assert row["score"] == "4-away 2-away" and row["cubeful_mwc"] == result.cubeful_mwc


def test_match_rollouts_do_not_depend_on_the_thread_count():
    situation = parse_situation(f"{POSITION}:{AT['4-away 2-away']}")
    score = match_score(situation)
    from dataclasses import replace

    one = rollout(situation.position, replace(SETTINGS, threads=1), score=score)
    two = rollout(situation.position, replace(SETTINGS, threads=2), score=score)
    assert np.array_equal(one.cube_points, two.cube_points)


def test_cubeful_cube_decisions_at_match_scores():
    settings = RolloutSettings(trials=72, seed=5, policy="heuristic", threads=1)
    decision = cubeful_cube_decision(parse_situation(f"{POSITION}:{AT['4-away 2-away']}"),
                                     settings)
    mwc = decision.match_winning_chances
    assert decision.score == "4-away 2-away"
    assert mwc["double_pass_mwc"] == MET.mwc_after(4, 2, 1, True)
    assert decision.double_pass == pytest.approx(1.0)
    assert decision.no_double == pytest.approx(MET.mwc_to_equity(mwc["no_double_mwc"], 4, 2))
    assert decision.double_take == pytest.approx(MET.mwc_to_equity(mwc["double_take_mwc"], 4, 2))
    assert decision.difference_se > 0 and decision.action
    crawford = cubeful_cube_decision(parse_situation(f"{POSITION}:{AT['2-away 1-away Crawford']}"),
                                     settings)
    assert crawford.action.startswith("No double") and crawford.double_take is None


def test_cli_cubeful_at_a_match_score(capsys):
    code, out, err = run(capsys, "rollout", f"{POSITION}:{AT['4-away 2-away']}", "--cubeful",
                         "-n", "36", "-s", "2", "--policy", "heuristic", "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["score"] == "4-away 2-away" and row["cubeful_mwc_se"] > 0
    code, out, err = run(capsys, "cube", f"{POSITION}:{AT['2-away 1-away Crawford']}", "--cubeful",
                         "-n", "36", "-s", "2", "--policy", "heuristic", "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["cube_action"].startswith("No double") and "(Crawford)" in row["score"]
    # 31-away 31-away: past the table's 25-away, one line naming the input
    code, out, err = run(capsys, "rollout", f"{POSITION}:cAngAwAAAAAE", "--cubeful", "-n", "36")
    assert code == 1 and "Traceback" not in err
    assert "the match equity table reaches 25), not 31-away and 31-away" in err
    code, out, err = run(capsys, "cube", f"{POSITION}:cAngAwAAAAAE", "--cubeful", "-n", "36")
    assert code == 1 and "31-away" in err and "Traceback" not in err


GNUBG_ROLLOUTS = Path(__file__).parent / "fixtures" / "gnubg_match_rollouts.jsonl"


@pytest.mark.slow
@pytest.mark.parametrize("row", [json.loads(line) for line in
                                 GNUBG_ROLLOUTS.read_text().splitlines()],
                         ids=lambda row: f"{row['position_id']} {row['score']}")
def test_cubeful_match_rollouts_near_gnubgs(row):
    """bgcli's cubeful MWC at a score against gnubg's cubeful rollout of the same position
    (its EMG through the same table). The nets differ, so the allowance is the combined
    standard error's 4 times plus 0.03 MWC; the measured differences are in
    docs/cube-and-match.md."""
    score = MatchScore(row["away_me"], row["away_them"], row["crawford"], row["cube_value"])
    settings = RolloutSettings(trials=1296, seed=1, cubeful=True, bearoff_truncation=False)
    ours = rollout(Position.from_id(row["position_id"]), settings, score=score)
    gnubg = score.mwc_of_equity(MET, row["gnubg"]["cubeful"])
    gnubg_se = row["gnubg"]["cubeful_se"] * score.mwc_per_equity(MET)
    assert abs(ours.cubeful_mwc - gnubg) <= 4 * math.hypot(ours.cubeful_mwc_se, gnubg_se) + 0.03
