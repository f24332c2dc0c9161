"""The one-sided bear-off database (bgcli.bearoff, bgcli.kernels.bearoff): indexing, cases
worked by hand, an independent brute force over the full move generator, GNU Backgammon's own
effective pip counts (tests/fixtures/bearoff.jsonl, made by scripts/fixtures/gen_bearoff.py;
gnubg is not needed here) and race odds against an exact two-sided recursion."""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bgcli import bearoff
from bgcli.bearoff import (
    effective_pips,
    first_off,
    layout_index,
    load_onesided,
    mean_rolls,
    onesided,
    race_odds,
    race_probability,
    wastage,
)
from bgcli.position import Position

FIXTURE = Path(__file__).parent / "fixtures" / "bearoff.jsonl"
RECORDS = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _weight(a: int, b: int) -> Fraction:
    return Fraction(1 if a == b else 2, 36)


def _home(counts) -> dict[int, int]:
    return {point: count for point, count in enumerate(counts, start=1) if count}


def _position(on_roll, opponent) -> Position:
    return Position.from_points(_home(on_roll), _home(opponent))


def _all_layouts(max_checkers: int = 15, points: int = 6):
    """Every tuple of ``points`` counts summing to at most ``max_checkers``."""
    if points == 0:
        yield ()
        return
    for first in range(max_checkers + 1):
        for rest in _all_layouts(max_checkers - first, points - 1):
            yield (first, *rest)


# ---------------------------------------------------------------------------- indexing


def test_index_is_a_bijection_onto_all_54264_layouts():
    indices = sorted(layout_index(c) for c in _all_layouts())
    assert indices == list(range(bearoff.POSITIONS))
    assert layout_index([0] * 6) == 0
    assert layout_index([0] * 25) == 0


def test_kernel_unrank_and_rank_round_trip():
    from bgcli.kernels.bearoff import all_layouts, rank_all

    layouts = all_layouts()
    assert layouts.shape == (bearoff.POSITIONS, 6)
    assert (rank_all(layouts.astype(np.int64)) == np.arange(bearoff.POSITIONS)).all()
    for index in (0, 1, 777, 30000, bearoff.POSITIONS - 1):
        assert layout_index(layouts[index]) == index


@pytest.mark.parametrize("row", [[1] * 7, [0] * 6 + [1] + [0] * 18, [-1, 0, 0, 0, 0, 0],
                                 [16, 0, 0, 0, 0, 0], [0] * 24 + [1]])
def test_rows_outside_the_database_are_refused(row):
    with pytest.raises(ValueError):
        layout_index(row)


# ---------------------------------------------------------------------------- distributions


def test_distributions_sum_to_one_and_match_their_means():
    database = load_onesided()
    assert np.allclose(database.rolls.sum(axis=1), 1.0)
    assert np.allclose(database.first.sum(axis=1), 1.0)
    assert (database.rolls >= 0).all() and (database.first >= 0).all()
    # the stored means are exact; means of the 16-bit distributions agree to rounding
    assert np.abs(database.rolls @ np.arange(bearoff.ROLLS) - database.mean).max() < 2e-3
    assert np.abs(database.first @ np.arange(bearoff.FIRST_ROLLS)
                  - database.mean_first).max() < 2e-3


def test_cases_worked_by_hand():
    # one checker on the 1-point, two on the 1-point, one on the 2-point: always one roll
    for counts in ([1, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]):
        assert onesided(counts)[1] == pytest.approx(1.0)
        assert mean_rolls(counts) == pytest.approx(1.0)
    # one checker on the 6-point fails with 11, 21, 31, 41, 32: 9 of 36 rolls
    distribution = onesided([0, 0, 0, 0, 0, 1])
    assert distribution[1] == pytest.approx(27 / 36, abs=2e-5)
    assert distribution[2] == pytest.approx(9 / 36, abs=2e-5)
    assert effective_pips([0, 0, 0, 0, 0, 1]) == pytest.approx(1.25 * 49 / 6)
    assert wastage([0, 0, 0, 0, 0, 1]) == pytest.approx(1.25 * 49 / 6 - 6)
    # all borne off: zero rolls
    assert onesided([0] * 6)[0] == 1.0 and mean_rolls([0] * 6) == 0.0
    # fifteen on the 6-point: the first checker comes off at once with any 6 (11 rolls),
    # 51, 42 (exactly 6 pips, 4 rolls), 33 or 22 (2 rolls): 17 of 36; 44, 55, 11 cannot
    assert first_off([0, 0, 0, 0, 0, 15])[1] == pytest.approx(17 / 36, abs=2e-5)
    # fifteen on the 1-point: 7 rolls unless doubles help; the first checker at once
    assert first_off([15, 0, 0, 0, 0, 0])[1] == pytest.approx(1.0)


def _brute_force_means(max_checkers: int) -> dict[tuple, Fraction]:
    """Expected rolls to bear off, minimised over the plays bgcli's full move generator
    lists (an independent path through the rules), for layouts of few checkers."""
    from bgcli.moves import legal_plays

    @functools.lru_cache(maxsize=None)
    def mean(counts: tuple) -> Fraction:
        if sum(counts) == 0:
            return Fraction(0)
        position = Position.from_points(_home(counts), {1: 1})
        total = Fraction(1)
        for a, b in ROLLS:
            outcomes = [tuple(int(x) for x in play.result.board[1][:6])
                        for play in legal_plays(position, (a, b))]
            total += _weight(a, b) * min(mean(o) for o in outcomes)
        return total

    return {counts: mean(counts) for counts in _all_layouts(max_checkers)}


def test_means_agree_with_a_brute_force_over_the_full_move_generator():
    for counts, expected in _brute_force_means(3).items():
        assert mean_rolls(counts) == pytest.approx(float(expected), abs=1e-5), counts


@pytest.mark.slow
def test_the_shipped_file_is_what_the_kernel_builds():
    from bgcli.kernels.bearoff import build_onesided

    rolls, first, _ = build_onesided()
    database = load_onesided()
    # the longest bear-off takes 30 rolls at worst (fifteen on the 6-point rolling 21 every
    # time); the stored width, 32, holds it
    assert rolls[:, 30].any() and not rolls[:, 31:].any()
    assert rolls[layout_index([0, 0, 0, 0, 0, 15]), 30] > 0
    assert np.abs(rolls[:, :bearoff.ROLLS] - database.rolls).max() < 1e-4
    assert np.abs(first[:, :bearoff.FIRST_ROLLS] - database.first).max() < 1e-4
    assert np.allclose(rolls @ np.arange(rolls.shape[1]), database.mean, rtol=1e-6)


# ---------------------------------------------------------------------------- gnubg


@pytest.mark.parametrize("record", RECORDS, ids=[r["position_id"] for r in RECORDS])
def test_effective_pip_counts_match_gnubg(record):
    # gnubg prints three decimals from its 16-bit database: agree to 0.002 pips (max seen
    # 0.0014)
    gnubg = record["gnubg"]
    for side in ("on_roll", "opponent"):
        assert effective_pips(record[side]) == pytest.approx(gnubg[f"epc_{side}"], abs=2e-3)
        assert wastage(record[side]) == pytest.approx(gnubg[f"wastage_{side}"], abs=2e-3)
    # gnubg's "one sided rollout" line combines the same one-sided distributions
    position = _position(record["on_roll"], record["opponent"])
    assert race_probability(position) == pytest.approx(gnubg["win_rollout"], abs=2e-3)


def test_the_fixture_is_varied():
    assert len(RECORDS) >= 50
    assert len({sum(r["on_roll"]) for r in RECORDS}) >= 8


# ---------------------------------------------------------------------------- race odds


@functools.lru_cache(maxsize=None)
def _plays(counts: tuple, a: int, b: int) -> list[tuple]:
    """The home layouts a roll can leave, from bgcli's full move generator."""
    from bgcli.moves import legal_plays

    position = Position.from_points(_home(counts), {1: 1})
    return [tuple(int(x) for x in p.result.board[1][:6]) for p in legal_plays(position, (a, b))]


def _race_solver(policy, exact: bool = True):
    """win(me, them): P(the side on roll, with layout ``me``, bears off first) by recursion
    over both sides' layouts, each side choosing its play with ``policy(mine, theirs,
    outcomes, win)``; in fractions, or in floats when not ``exact``."""
    number = Fraction if exact else float

    @functools.lru_cache(maxsize=None)
    def win(mine: tuple, theirs: tuple):
        if sum(theirs) == 0:
            return number(0)
        if sum(mine) == 0:
            return number(1)
        total = number(0)
        for a, b in ROLLS:
            after = policy(mine, theirs, _plays(mine, a, b), win)
            total += number(_weight(a, b)) * (1 if sum(after) == 0 else 1 - win(theirs, after))
        return total

    return win


def _exact_race(me: tuple, them: tuple, policy, exact: bool = True):
    return _race_solver(policy, exact)(me, them)


def test_race_odds_equal_an_exact_recursion_with_the_same_play():
    means = _brute_force_means(3)

    def least_mean(mine, theirs, outcomes, win):
        return min(outcomes, key=lambda o: means[o])

    layouts = [c for c in _all_layouts(3) if sum(c)]
    rng = np.random.default_rng(7)
    for _ in range(25):
        me = layouts[rng.integers(len(layouts))]
        them = layouts[rng.integers(len(layouts))]
        expected = _exact_race(me, them, least_mean)
        assert race_probability(_position(me, them)) == pytest.approx(float(expected),
                                                                      abs=1e-4), (me, them)


def test_race_odds_are_close_to_best_two_sided_play():
    def best_for_race(mine, theirs, outcomes, win):
        return max(outcomes, key=lambda o: 1 if sum(o) == 0 else 1 - win(theirs, o))

    for me, them in [((0, 0, 0, 0, 1, 1), (0, 1, 0, 0, 0, 1)), ((1, 1, 0, 0, 0, 1), (0, 0, 2, 0, 0, 0)),
                     ((0, 0, 0, 0, 0, 2), (0, 0, 0, 1, 1, 0))]:
        expected = _exact_race(me, them, best_for_race)
        assert race_probability(_position(me, them)) == pytest.approx(float(expected), abs=0.01)


def test_gammons():
    # on roll one roll from done, opponent with fifteen checkers still on: a sure gammon
    odds = race_odds(_position([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 15]))
    assert (odds.win, odds.win_gammon, odds.lose_gammon) == pytest.approx((1, 1, 0))
    # the reverse: on roll loses a gammon unless its first roll takes a checker off
    odds = race_odds(_position([0, 0, 0, 0, 0, 15], [1, 0, 0, 0, 0, 0]))
    assert odds.win == pytest.approx(0)
    assert odds.lose_gammon == pytest.approx(19 / 36, abs=1e-4)
    assert odds.equity == pytest.approx(-1 - 19 / 36, abs=1e-4)
    # a side with a checker off cannot lose a gammon
    odds = race_odds(_position([0, 0, 0, 0, 0, 14], [1, 0, 0, 0, 0, 0]))
    assert odds.lose_gammon == 0


def test_race_odds_refuse_checkers_outside_the_home_board():
    with pytest.raises(ValueError):
        race_probability(Position.from_points({7: 1}, {1: 1}))


# ---------------------------------------------------------------------------- bgcli pips


def test_pips_command_shows_bearoff_fields():
    from bgcli.cli.app import app

    runner = CliRunner()
    result = runner.invoke(app, ["pips", "2+4OAADb5gEAAA", "4HPwATDgc/ABMA", "-f", "json"])
    assert result.exit_code == 0, result.output
    home, start = json.loads(result.output)
    assert home["epc_on_roll"] == pytest.approx(55.775, abs=2e-3)  # gnubg: 55.775
    assert home["epc_opponent"] == pytest.approx(66.467, abs=2e-3)  # gnubg: 66.467
    assert home["wastage_on_roll"] == pytest.approx(11.775, abs=2e-3)
    assert home["race_win_exact"] == pytest.approx(0.904, abs=2e-3)
    for key in ("epc_on_roll", "epc_opponent", "wastage_on_roll", "wastage_opponent",
                "race_win_exact"):
        assert start[key] is None
    table = runner.invoke(app, ["pips", "2+4OAADb5gEAAA"])
    assert "EPC" in table.output.splitlines()[0] and "55.7746" in table.output


def test_pips_with_one_side_home():
    from bgcli.bearoff import bearoff_metrics

    row = bearoff_metrics(Position.from_points({6: 5, 1: 3}, {13: 2, 2: 4}))
    assert row["epc_on_roll"] == pytest.approx(effective_pips([3, 0, 0, 0, 0, 5]))
    assert row["epc_opponent"] is None and row["race_win_exact"] is None


# ---------------------------------------------------------------------------- two-sided

TWOSIDED_FIXTURE = Path(__file__).parent / "fixtures" / "bearoff_twosided.jsonl"
TWOSIDED_RECORDS = [json.loads(line) for line in TWOSIDED_FIXTURE.read_text().splitlines()
                    if line.strip()]


def _best_for_race(mine, theirs, outcomes, win):
    return max(outcomes, key=lambda o: 1 if sum(o) == 0 else 1 - win(theirs, o))


@pytest.mark.slow
def test_twosided_table_equals_an_exact_recursion_over_the_full_move_generator():
    from bgcli.bearoff import build_twosided

    table = build_twosided(2)
    solve = _race_solver(_best_for_race, exact=False)
    layouts = [c for c in _all_layouts(2)]
    assert table.shape == (len(layouts), len(layouts)) == (28, 28)
    for me in layouts:
        for them in layouts:
            if sum(them) == 0 or sum(me) == 0:
                continue
            expected = solve(me, them)
            assert table[layout_index(me), layout_index(them)] == pytest.approx(
                expected, abs=1e-12), (me, them)
    table3 = build_twosided(3)
    rng = np.random.default_rng(3)
    three = [c for c in _all_layouts(3) if sum(c)]
    for _ in range(40):
        me, them = (three[k] for k in rng.integers(len(three), size=2))
        assert table3[layout_index(me), layout_index(them)] == pytest.approx(
            solve(me, them), abs=1e-12)


def test_twosided_cached_table_is_what_the_kernel_builds_and_nests():
    from bgcli.bearoff import TWOSIDED_CHECKERS, build_twosided, load_twosided

    table = load_twosided()
    assert TWOSIDED_CHECKERS == 8 and table.shape == (3003, 3003)
    small = build_twosided(4)
    assert np.abs(table[:210, :210] - small).max() < 1e-6
    assert (table[1:, 0] == 0).all() and (table[0, 1:] == 1).all()
    assert ((table >= 0) & (table <= 1)).all()


@pytest.mark.parametrize("record", TWOSIDED_RECORDS,
                         ids=[r["position_id"] for r in TWOSIDED_RECORDS])
def test_twosided_matches_gnubg(record):
    # gnubg's two-sided database stores 16-bit equities: agree to 1e-4 (max seen 3.5e-5)
    from bgcli.bearoff import twosided_win

    assert record["gnubg"]["evaluator"] == "Bearoff2"
    position = _position(record["on_roll"], record["opponent"])
    assert twosided_win(position) == pytest.approx(record["gnubg"]["win"], abs=1e-4)


def test_twosided_is_close_to_the_one_sided_odds():
    from bgcli.bearoff import twosided_win

    rng = np.random.default_rng(11)
    eight = [c for c in _all_layouts(8) if sum(c)]
    for _ in range(300):
        me, them = (eight[k] for k in rng.integers(len(eight), size=2))
        position = _position(me, them)
        assert twosided_win(position) == pytest.approx(race_probability(position), abs=0.02)


def test_twosided_refuses_positions_outside_it():
    from bgcli.bearoff import in_twosided, twosided_win

    assert in_twosided(_position([0, 0, 0, 0, 0, 8], [8, 0, 0, 0, 0, 0]))
    for position in (_position([0, 0, 0, 0, 0, 9], [1, 0, 0, 0, 0, 0]),
                     Position.from_points({7: 1}, {1: 1}), Position.start()):
        assert not in_twosided(position)
        with pytest.raises(ValueError):
            twosided_win(position)


# ------------------------------------------- the two-sided table inside evaluators and rollouts

def _random_small_bearoff(rng, most=8):
    a = rng.multinomial(int(rng.integers(1, most + 1)), np.ones(6) / 6)
    b = rng.multinomial(int(rng.integers(1, most + 1)), np.ones(6) / 6)
    return Position.from_points({j + 1: int(a[j]) for j in range(6) if a[j]},
                                {j + 1: int(b[j]) for j in range(6) if b[j]})


def test_kernel_reads_the_two_sided_table_like_the_library():
    from bgcli.evaluation import policy_code
    from bgcli.kernels.evaluate import twosided_win as kernel_win

    _, params = policy_code("heuristic", bearoff=True)
    rng = np.random.default_rng(11)
    for _ in range(400):
        position = _random_small_bearoff(rng)
        board = np.ascontiguousarray(position.board, dtype=np.int8)
        assert kernel_win(board, 1, params) == pytest.approx(bearoff.twosided_win(position), abs=1e-7)
        assert kernel_win(board, 0, params) == pytest.approx(bearoff.twosided_win(position.swapped()), abs=1e-7)
    # outside the table, or without it, the kernel says so
    nine = Position.from_points({1: 9}, {1: 2})
    assert kernel_win(np.ascontiguousarray(nine.board), 1, params) == -1.0
    assert kernel_win(np.ascontiguousarray(Position.from_points({1: 2}, {1: 2}).board), 1,
                      np.zeros(10)) == -1.0


@pytest.mark.parametrize("policy", ["net", "heuristic"])
def test_evaluators_are_exact_in_small_bearoffs(policy):
    from bgcli.evaluation import position_probabilities

    rng = np.random.default_rng(12)
    for _ in range(50):
        position = _random_small_bearoff(rng)
        probs = position_probabilities(position, policy)
        assert probs[0] == pytest.approx(bearoff.twosided_win(position), abs=1e-7)
        assert list(probs[1:]) == [0, 0, 0, 0]


def test_bearoff_truncation_scores_games_exactly():
    from bgcli.rollout import RolloutSettings, rollout

    inside = Position.from_points({1: 2, 2: 2, 4: 1}, {3: 2, 5: 2, 6: 1})
    exact = bearoff.twosided_win(inside)
    stopped = rollout(inside, RolloutSettings(trials=72, seed=1))
    assert stopped.means[0] == pytest.approx(exact, abs=1e-7) and stopped.equity_se == 0
    # played out plainly (variance reduction would value the rolls with the same table)
    played = rollout(inside, RolloutSettings(trials=1296, seed=1, bearoff_truncation=False,
                                             variance_reduction=False))
    assert abs(played.means[0] - exact) < 3 * played.standard_errors[0]
    # a bear-off that starts outside the table: games are cut once they enter it, unbiased
    outside = Position.from_points({1: 3, 2: 3, 3: 2, 5: 2, 6: 2}, {2: 3, 3: 3, 4: 3, 6: 3})
    cut = rollout(outside, RolloutSettings(trials=2592, seed=2, policy="heuristic"))
    full = rollout(outside, RolloutSettings(trials=2592, seed=2, policy="heuristic",
                                            bearoff_truncation=False))
    assert cut.equity_se < full.equity_se
    assert abs(cut.means[0] - full.means[0]) < 3 * full.standard_errors[0]


# ------------------------------------- the one-sided database inside evaluators and rollouts

def _random_bearoff(rng):
    """Both sides all home, at least one beyond the two-sided table; a side has all 15
    checkers (gammons possible) a third of the time."""
    while True:
        left = [15 if rng.random() < 1 / 3 else int(rng.integers(1, 16)) for _ in range(2)]
        if max(left) > bearoff.TWOSIDED_CHECKERS:
            break
    a, b = (rng.multinomial(n, np.ones(6) / 6) for n in left)
    return _position(a, b)


def _odds_vector(position: Position) -> np.ndarray:
    odds = race_odds(position)
    return np.array([odds.win, odds.win_gammon, 0.0, odds.lose_gammon, 0.0])


@pytest.mark.parametrize("policy", ["net", "heuristic"])
def test_evaluators_score_larger_bearoffs_from_the_one_sided_database(policy):
    from bgcli.evaluation import position_probabilities

    rng = np.random.default_rng(13)
    heavy = [0, 0, 0, 0, 5, 10]  # 15 checkers, none on the low points: gammons both ways
    fixed = [_position(heavy, [1, 2, 0, 0, 0, 0]), _position([1, 2, 0, 0, 0, 0], heavy)]
    gammons = np.zeros(5)
    for position in fixed + [_random_bearoff(rng) for _ in range(60)]:
        probs = position_probabilities(position, policy)
        np.testing.assert_allclose(probs, _odds_vector(position), rtol=0, atol=1e-12)
        gammons += probs > 0
    assert gammons[1] > 0 and gammons[3] > 0  # both gammon formulas were exercised


def test_plays_into_a_bearoff_are_ranked_by_the_one_sided_database():
    # one checker still to come home: every play ends in a bear-off beyond the two-sided
    # table, and is ranked by its one-sided odds (the tables load for such a position)
    from bgcli.evaluation import rank_plays

    position = Position.from_points({8: 1, 6: 4, 5: 3, 4: 3, 2: 2}, {6: 5, 5: 4, 3: 3, 1: 2})
    ranked = rank_plays(position, (6, 1), "net", 0)
    assert len(ranked) > 3
    for entry in ranked:
        mover = race_odds(entry.play.result.swapped())
        assert entry.probabilities[0] == pytest.approx(1.0 - mover.win, abs=1e-12)
    values = [-race_odds(entry.play.result.swapped()).equity for entry in ranked]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("policy", ["net", "heuristic"])
def test_rollouts_play_larger_bearoffs_by_the_one_sided_database(policy):
    # Truncated after one ply, 36 quasi-random trials hold each roll once: the mean equity
    # is that, over the 36 rolls, of the play the one-sided odds rank first.
    from bgcli.moves import legal_plays
    from bgcli.rollout import RolloutSettings, rollout

    position = Position.from_id("tW0AAED7AQAAAA")  # 9 checkers against 10, all home
    expected = []
    for a in range(1, 7):
        for b in range(1, 7):
            expected.append(max(-race_odds(play.result.swapped()).equity
                                for play in legal_plays(position, (a, b))))
    result = rollout(position, RolloutSettings(trials=36, seed=1, policy=policy, truncate=1))
    assert result.equity == pytest.approx(np.mean(expected), abs=1e-12)
