"""Rollouts: exact answers, reproducibility, unbiased variance reduction, calibrated standard
errors, quasi-random dice, truncation, stopping on the standard error, and the command line.

Statistical checks use fixed seeds, so every run is deterministic; each tolerance below says
how likely a correct implementation would be to miss it for a random seed (the seeds were not
picked to make the tests pass). Trial counts are small so the file runs in well under a
minute on two cores once numba's cache is warm.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache

import numba
import numpy as np
import pytest

from bgcli import __version__
from cli_helpers import run
from bgcli.kernels.dice import roll_dice
from bgcli.evaluation import policy_code
from bgcli.kernels.evaluate import probabilities
from bgcli.kernels.playout import rollout_trials, trial_seed
from bgcli.moves import legal_plays
from bgcli.position import Position
from bgcli.rollout import (STOP_CHECK_EVERY, RolloutSettings, first_rolls_table, rollout)

START = Position.start()
MIDDLE = Position.from_id("a5yDAQYtO4MBAw")  # a middle game with contact on both sides
RACE = Position.from_id("f42ABwC/cfAAAA")  # 65 v 73 pips, no contact
EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def settings(**changes) -> RolloutSettings:
    base = dict(trials=72, seed=1, policy="heuristic", variance_reduction=False, quasi_random=True,
                bearoff_truncation=False)
    base.update(changes)
    return RolloutSettings(**base)


def per_trial(position: Position, n: int, seed: int, *, first: int = 0, quasi: bool = True,
              initial: bool = False, policy: str = "heuristic", truncate: int = 0,
              variance_reduction: bool = False, bearoff: bool = False,
              block_trials: int = 16) -> np.ndarray:
    """The five values of trials ``first .. first + n - 1``, straight from the kernel, with
    the parameters ``rollout`` gives it (the bear-off tables after the weights)."""
    rolls = first_rolls_table(seed, first, n, quasi, initial)
    out = np.zeros((n, 5))
    code, params = policy_code(policy, bearoff=True)
    rollout_trials(np.ascontiguousarray(position.board), first, n, seed, rolls, initial,
                   code, params, truncate, variance_reduction, bearoff, False, 0, False, out, np.zeros(n),
                   block_trials)
    return out


def equities(values: np.ndarray) -> np.ndarray:
    return values @ EQUITY_WEIGHTS - 1.0


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


# ----------------------------------------------------------------------------- exact cases


@pytest.mark.parametrize("opponent, backgammon", [
    ({13: 15}, 0.0),             # nothing in the winner's home board: gammon
    ({6: 15}, 0.0),              # all home, none off: still a gammon
    ({13: 14, 20: 1}, 1.0),      # one on their 20-point = the winner's 5-point: backgammon
    ({13: 14, 25: 1}, 1.0),      # one on the bar: backgammon
])
@pytest.mark.parametrize("variance_reduction", [False, True])
def test_every_game_a_gammon_for_the_player_on_roll(opponent, backgammon, variance_reduction):
    # The player on roll bears their last checker off with any roll.
    position = Position.from_points({1: 1}, opponent)
    result = rollout(position, settings(trials=40, variance_reduction=variance_reduction))
    expected = [1.0, 1.0, backgammon, 0.0, 0.0]
    # with variance reduction, the luck of a roll whose 21 outcomes all win is 1 - sum of the
    # 21 weights: zero up to rounding
    tolerance = 1e-12 if variance_reduction else 0.0
    np.testing.assert_allclose(result.means, expected, rtol=0, atol=tolerance)
    np.testing.assert_allclose(result.standard_errors, 0.0, rtol=0, atol=tolerance)
    assert result.equity == pytest.approx(2.0 + backgammon, abs=tolerance)
    assert result.equity_se <= tolerance
    assert result.games == 40


@pytest.mark.parametrize("on_roll, expected", [
    ({13: 15}, [0, 0, 0, 1, 0]),   # cannot bear off in one roll: gammoned
    ({20: 15}, [0, 0, 0, 1, 1]),   # most stay in the winner's home board: backgammoned
    ({6: 5}, [0, 0, 0, 0, 0]),     # needs two rolls even with a double; 10 already off
])
def test_forced_losses(on_roll, expected):
    # The opponent's last checker is on their 1-point: whatever the player on roll does, the
    # opponent bears off next turn.
    position = Position.from_points(on_roll, {1: 1})
    for policy in ("heuristic", "random"):
        result = rollout(position, settings(trials=72, policy=policy))
        np.testing.assert_array_equal(result.means, expected)
        np.testing.assert_array_equal(result.standard_errors, 0.0)
        assert result.equity == float(EQUITY_WEIGHTS @ expected - 1.0)
    # Variance reduction cannot make a forced result exact (the heuristic's race formula is
    # not), but it must stay unbiased and tight.
    reduced = rollout(position, settings(trials=72, variance_reduction=True))
    for k in range(5):
        assert abs(reduced.means[k] - expected[k]) <= 3 * reduced.standard_errors[k] + 1e-9


def _pips(roll: tuple[int, int]) -> int:
    a, b = roll
    return 4 * a if a == b else a + b


ROLLS36 = [(a, b) for a in range(1, 7) for b in range(1, 7)]


@lru_cache(maxsize=None)
def one_checker_win(p: int, q: int) -> float:
    """Exact chance that the player on roll wins a race of one checker each, needing p and
    q pips: a roll bears off when its pips reach p (a lone checker always uses all its pips,
    and the larger die played first always reaches home in time)."""
    total = 0.0
    for roll in ROLLS36:
        moved = _pips(roll)
        total += 1.0 if moved >= p else 1.0 - one_checker_win(q, p - moved)
    return total / 36.0


def _rolls_needed(pips: int, most: int = 40) -> np.ndarray:
    """Distribution of the number of rolls one side needs to cover ``pips``."""
    dist = np.zeros(most + 1)
    left = {pips: 1.0}  # pips still needed -> probability, after n rolls
    for n in range(1, most + 1):
        nxt: dict[int, float] = {}
        for need, prob in left.items():
            for roll in ROLLS36:
                rest = need - _pips(roll)
                if rest <= 0:
                    dist[n] += prob / 36
                else:
                    nxt[rest] = nxt.get(rest, 0.0) + prob / 36
        left = nxt
    return dist


def test_one_checker_dynamic_programme_is_right():
    assert one_checker_win(1, 1) == 1.0
    assert one_checker_win(3, 24) == 1.0  # every roll moves at least 3 pips
    assert one_checker_win(4, 1) == pytest.approx(34 / 36)  # 12 and 21 move 3, 11 moves 4
    assert one_checker_win(5, 1) == pytest.approx(31 / 36)  # and 11, 13, 31 move 4
    # independently: the sides need N_p and N_q rolls (independent); on roll wins if N_p <= N_q
    for p, q in [(14, 10), (8, 9), (20, 4), (24, 24), (7, 17)]:
        n_p, n_q = _rolls_needed(p), _rolls_needed(q)
        at_least = np.cumsum(n_q[::-1])[::-1]  # P(N_q >= n)
        assert one_checker_win(p, q) == pytest.approx(float(n_p @ at_least), abs=1e-12)


ONE_CHECKER_RACES = [(14, 10), (8, 9), (20, 4)]


def replay_one_checker_race(p: int, q: int, seed: int, trial: int) -> float:
    """Play trial ``trial`` of a one-checker race in plain Python from the kernel's own dice
    stream (the heuristic policy draws nothing else from it): 1.0 if the player on roll
    wins. No evaluator is involved."""
    state = np.array([trial_seed(seed, trial)], dtype=np.uint64)
    need = [p, q]
    mover = 0
    while True:
        need[mover] -= _pips(roll_dice(state))
        if need[mover] <= 0:
            return 1.0 if mover == 0 else 0.0
        mover = 1 - mover


@pytest.mark.parametrize("p, q", ONE_CHECKER_RACES)
def test_one_checker_race_matches_exact_dynamic_programme(p, q):
    assert p + q < 25  # no contact
    position = Position.from_points({p: 1}, {q: 1})
    exact = one_checker_win(p, q)
    assert 0.05 < exact < 0.95
    for policy in ("heuristic", "random"):
        for variance_reduction in (False, True):
            result = rollout(position, settings(trials=1296, seed=7, policy=policy,
                                                variance_reduction=variance_reduction))
            assert result.standard_errors[0] > 0
            # 3 SE: a correct rollout misses with chance 0.3% per check
            assert abs(result.means[0] - exact) < 3 * result.standard_errors[0], (policy, variance_reduction)
            assert result.equity == pytest.approx(2 * result.means[0] - 1, abs=1e-12)
            # one checker each: 14 off on both sides, so no gammons at all
            np.testing.assert_allclose(result.means[1:], 0.0, atol=1e-12)


def test_unreduced_trials_are_plain_game_results():
    """Without variance reduction or truncation every trial is an exact 0/1 game result, the
    same as a pure-Python game played with the kernel's dice stream (evaluator-free)."""
    p, q = 14, 10
    seed = 2024
    position = Position.from_points({p: 1}, {q: 1})
    values = per_trial(position, 200, seed, quasi=False)
    expected = [replay_one_checker_race(p, q, seed, i) for i in range(200)]
    np.testing.assert_array_equal(values[:, 0], expected)
    np.testing.assert_array_equal(values[:, 1:], 0.0)
    randomly = per_trial(position, 200, seed, quasi=False, policy="random")
    assert set(randomly[:, 0].tolist()) == {0.0, 1.0}
    np.testing.assert_array_equal(randomly[:, 1:], 0.0)


def test_unreduced_trials_hold_only_game_outcomes():
    values = per_trial(MIDDLE, 300, 5, policy="random")
    outcomes = {tuple(row) for row in values}
    legal = {(1, 0, 0, 0, 0), (1, 1, 0, 0, 0), (1, 1, 1, 0, 0),
             (0, 0, 0, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 1, 1)}
    assert outcomes <= legal
    assert len(outcomes) >= 4  # the random policy gets gammoned and gammons


# ----------------------------------------------------------------------------- reproducibility


def test_same_seed_same_numbers_different_seed_different():
    for variance_reduction in (False, True):
        s = settings(trials=100, seed=123, variance_reduction=variance_reduction)
        a, b = rollout(MIDDLE, s), rollout(MIDDLE, s)
        np.testing.assert_array_equal(a.means, b.means)
        np.testing.assert_array_equal(a.standard_errors, b.standard_errors)
        assert (a.equity, a.equity_se) == (b.equity, b.equity_se)
        c = rollout(MIDDLE, settings(trials=100, seed=124, variance_reduction=variance_reduction))
        assert not np.array_equal(a.values, c.values)  # other games (the means may tie)


def test_random_seed_is_drawn_and_reported():
    result = rollout(RACE, RolloutSettings(trials=36, variance_reduction=False))
    assert result.settings.seed is not None and 0 <= result.settings.seed < 2**53
    again = rollout(RACE, result.settings)
    np.testing.assert_array_equal(result.means, again.means)


@pytest.mark.slow
@pytest.mark.usefixtures("restore_threads")
def test_thread_count_does_not_change_results():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here")
    runs = {}
    for threads in (1, 2):
        numba.set_num_threads(threads)
        runs[threads] = [per_trial(MIDDLE, 100, 99, variance_reduction=variance_reduction, policy=policy, quasi=quasi)
                         for variance_reduction in (False, True) for policy in ("heuristic", "random")
                         for quasi in (False, True) if not (variance_reduction and policy == "random")]
    for one, two in zip(runs[1], runs[2]):
        np.testing.assert_array_equal(one, two)
    results = [rollout(MIDDLE, settings(trials=100, seed=3, threads=t, variance_reduction=True))
               for t in (1, 2)]
    np.testing.assert_array_equal(results[0].means, results[1].means)
    np.testing.assert_array_equal(results[0].standard_errors, results[1].standard_errors)
    assert results[0].equity == results[1].equity


@pytest.mark.parametrize("variance_reduction", [False, True])
def test_trials_per_work_item_do_not_change_results(variance_reduction):
    """The rollout sizes its work items from a trial's measured time; each trial's numbers
    depend only on its index, whatever the items (and out-of-range sizes are clamped)."""
    from bgcli.rollout import _trials_per_item

    runs = [per_trial(MIDDLE, 37, 5, variance_reduction=variance_reduction, block_trials=b)
            for b in (16, 1, 3, 0, 99)]
    for other in runs[1:]:
        np.testing.assert_array_equal(runs[0], other)
    assert _trials_per_item(0.0003, 16) == 13  # a plain game: 13 make about 4 ms
    assert _trials_per_item(0.006, 16) == 1  # a variance-reduced one: one at a time
    assert _trials_per_item(0.0, 16) == 16


@pytest.mark.usefixtures("restore_threads")
def test_default_threads_means_all_cores_even_after_an_explicit_count():
    rollout(RACE, settings(trials=36, threads=1))
    assert numba.get_num_threads() == 1
    rollout(RACE, settings(trials=36))  # threads=None: all cores, not the previous call's 1
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS


@pytest.mark.parametrize("quasi, initial, variance_reduction", [(True, False, False), (False, False, False),
                                                (True, True, True), (False, True, False)])
def test_splitting_trials_into_chunks_does_not_change_them(quasi, initial, variance_reduction):
    n, k = 111, 37
    whole = per_trial(START, n, 8, quasi=quasi, initial=initial, variance_reduction=variance_reduction)
    head = per_trial(START, k, 8, quasi=quasi, initial=initial, variance_reduction=variance_reduction)
    tail = per_trial(START, n - k, 8, first=k, quasi=quasi, initial=initial, variance_reduction=variance_reduction)
    np.testing.assert_array_equal(whole, np.vstack([head, tail]))


# ----------------------------------------------------------------------------- variance reduction


@pytest.mark.slow
@pytest.mark.parametrize("position, games", [(START, 648), (MIDDLE, 648), (RACE, 1296)],
                         ids=["start", "middle", "race"])
def test_variance_reduction_is_unbiased_and_cuts_the_error(position, games):
    plain = rollout(position, settings(trials=games, seed=41, variance_reduction=False))
    reduced = rollout(position, settings(trials=games, seed=42, variance_reduction=True))
    # independent seeds: |difference| < 4 combined SE fails a correct pair 0.006% of the time
    combined = math.hypot(plain.equity_se, reduced.equity_se)
    assert abs(plain.equity - reduced.equity) < 4 * combined
    combined = math.hypot(plain.standard_errors[0], reduced.standard_errors[0])
    assert abs(plain.means[0] - reduced.means[0]) < 4 * combined
    assert reduced.equity_se < plain.equity_se
    assert reduced.standard_errors[0] < plain.standard_errors[0]


@pytest.mark.slow
def test_subtracted_luck_averages_zero():
    """Paired: the same trials with and without the luck adjustment play identical games, so
    the per-trial difference is exactly the summed luck, whose mean must be zero."""
    for position in (MIDDLE, RACE):
        plain = per_trial(position, 360, 77, quasi=False)
        reduced = per_trial(position, 360, 77, quasi=False, variance_reduction=True)
        luck = equities(plain) - equities(reduced)
        assert np.abs(luck).max() > 0.01
        assert abs(luck.mean()) < 4 * luck.std(ddof=1) / math.sqrt(len(luck))


# ----------------------------------------------------------------------------- SE calibration


# A short race, three checkers a side: cheap enough for thousands of reduced games.
SHORT_RACE = Position.from_points({12: 1, 8: 1, 6: 1}, {11: 1, 9: 1, 5: 1})


@pytest.mark.parametrize("position, policy, variance_reduction, games", [
    (MIDDLE, "random", False, 100),      # random play: equities spread over -3..3
    (SHORT_RACE, "heuristic", True, 60),  # luck-adjusted values
], ids=["plain", "reduced"])
@pytest.mark.slow
def test_reported_standard_errors_match_the_spread_of_independent_rollouts(position, policy,
                                                                           variance_reduction, games):
    """200 independent rollouts (quasi-random dice off, so games are independent): the
    standard deviation of their equities must match the SE each one reports.

    Tolerance: for k replicas the sample SD of their means has a relative standard error of
    about sqrt(1/(2(k-1))) (means of 60-100 games are close to normal), 5.0% for k = 200, so
    the 20% window is 4 of those standard errors wide (a correct SE fails about 1 in 15,000
    seeds) while an SE off by a factor sqrt(2) (41%) fails for certain. The reported SEs are
    pooled as a root mean square (an unbiased average of variances) so that the comparison
    is not biased by Jensen's inequality. With k = 50 the same window would be only 2
    standard errors wide (a correct SE would fail about 1 seed in 20).
    """
    replicas = 200
    master = np.random.default_rng(20240611)
    seeds = master.integers(0, 2**63 - 1, size=replicas)
    means, ses = [], []
    for seed in seeds:
        result = rollout(position, settings(trials=games, seed=int(seed), quasi_random=False,
                                            variance_reduction=variance_reduction, policy=policy))
        means.append(result.equity)
        ses.append(result.equity_se)
    spread = np.std(means, ddof=1)
    reported = math.sqrt(np.mean(np.square(ses)))
    assert 0.8 < spread / reported < 1.2, (spread, reported)


# ----------------------------------------------------------------------------- quasi-random dice


def test_quasi_random_first_two_rolls_cover_every_pair_once():
    for seed in (0, 1, 987654321):
        table = first_rolls_table(seed, 0, 1296, True, False)
        assert table.min() >= 0 and table.max() <= 35
        pairs = table[:, 0] * 36 + table[:, 1]
        assert sorted(pairs) == list(range(1296))
        # the next block repeats the same pairs
        np.testing.assert_array_equal(first_rolls_table(seed, 1296, 1296, True, False), table)
        # and the first 36 trials see all 36 first rolls
        assert sorted(table[:36, 0]) == list(range(36))
    assert not np.array_equal(first_rolls_table(1, 0, 1296, True, False),
                              first_rolls_table(2, 0, 1296, True, False))


def test_quasi_random_initial_tables_have_no_opening_doubles():
    table = first_rolls_table(5, 0, 1080, True, True)
    first, second = table[:, 0], table[:, 1]
    assert not np.any(first // 6 == first % 6)
    pairs = set(zip(first.tolist(), second.tolist()))
    non_doubles = [k for k in range(36) if k // 6 != k % 6]
    assert pairs == {(a, b) for a in non_doubles for b in range(36)}
    assert len(pairs) == 1080


# Once the second roll stayed the same for 36 trials in a row, so rollouts shorter than 1296
# trials were clustered on it and their SE understated (12-20% at 72 games); now it rotates
# within each block, as gnubg's does (a Latin square).
def test_every_36_quasi_random_trials_hold_36_different_second_rolls():
    for initial, block in ((False, 36), (True, 30)):
        table = first_rolls_table(3, 0, 1296, True, initial)
        for start in range(0, 1296 - block + 1, block):
            assert len(set(table[start:start + block, 1].tolist())) == block


def test_pseudo_random_tables_are_empty():
    assert (first_rolls_table(5, 0, 50, False, True) == -1).all()


def test_quasi_random_tables_chunk_consistently():
    whole = first_rolls_table(9, 0, 500, True, True)
    parts = np.vstack([first_rolls_table(9, 0, 123, True, True),
                       first_rolls_table(9, 123, 377, True, True)])
    np.testing.assert_array_equal(whole, parts)


# Four checkers on the 1-point against an opponent who bears off next turn: only a double on
# the first roll wins (and then not a gammon: the loser has 14 off).
DOUBLE_WINS = Position.from_points({1: 4}, {1: 1})


def test_a_double_on_the_first_roll_decides_this_position():
    result = rollout(DOUBLE_WINS, settings(trials=1296))  # quasi-random: exactly 36 per roll
    assert result.means[0] == pytest.approx(6 / 36, abs=1e-15)
    np.testing.assert_array_equal(result.means[1:], 0.0)


@pytest.mark.parametrize("quasi", [True, False])
@pytest.mark.parametrize("variance_reduction", [False, True])
def test_initial_rollouts_never_start_with_a_double(quasi, variance_reduction):
    result = rollout(DOUBLE_WINS, settings(trials=720, initial=True, quasi_random=quasi,
                                           variance_reduction=variance_reduction))
    # the second roll (the opponent's) always bears off: no luck in it to subtract
    assert result.means[0] == pytest.approx(0.0, abs=1e-12)
    assert result.standard_errors[0] == pytest.approx(0.0, abs=1e-12)
    if not quasi:
        # ... while the same pseudo-random dice without --initial do start with doubles
        plain = rollout(DOUBLE_WINS, settings(trials=720, quasi_random=False))
        assert 0.1 < plain.means[0] < 0.25


# ----------------------------------------------------------------------------- truncation


def _swap_sides(probs: np.ndarray) -> np.ndarray:
    return np.array([1 - probs[0], probs[3], probs[4], probs[1], probs[2]])


def _greedy(position: Position, roll: tuple[int, int]) -> tuple[Position, np.ndarray]:
    """The heuristic's play (first best, as the kernel breaks ties) and the evaluator's
    probabilities of the result from the side now on roll."""
    plays = legal_plays(position, roll)
    if not plays:  # no legal move: the turn passes
        after = position.swapped()
        return after, probabilities(after.board)
    best_value, best = -math.inf, None
    for play in plays:
        after = play.result.swapped()
        probs = probabilities(after.board)
        value = -(probs @ EQUITY_WEIGHTS - 1.0)
        if value > best_value:
            best_value, best = value, (after, probs)
    return best


def one_ply_expectation(position: Position) -> np.ndarray:
    """Mean over the 36 rolls of the heuristic's value after its best play, for the player
    on roll: what a 1-ply truncated rollout estimates."""
    return np.mean([_swap_sides(_greedy(position, roll)[1]) for roll in ROLLS36], axis=0)


def two_ply_expectation(position: Position) -> np.ndarray:
    total = np.zeros(5)
    for first in ROLLS36:
        after, _ = _greedy(position, first)
        for second in ROLLS36:
            total += _greedy(after, second)[1]  # the root is on roll again
    return total / 36**2


@pytest.mark.parametrize("position", [START, MIDDLE, RACE], ids=["start", "middle", "race"])
def test_one_ply_truncation_is_the_evaluators_expectation(position):
    expected = one_ply_expectation(position)
    # quasi-random: 36 trials hold each first roll once, so the mean is the exact expectation
    result = rollout(position, settings(trials=36, truncate=1))
    np.testing.assert_allclose(result.means, expected, rtol=0, atol=1e-12)
    values = per_trial(position, 36, 1, truncate=1)
    assert np.any((values[:, 0] > 0) & (values[:, 0] < 1))  # fractional, not game results
    # With variance reduction every trial is value - (value - mean) = the expectation itself.
    reduced = per_trial(position, 50, 3, truncate=1, variance_reduction=True, quasi=False)
    np.testing.assert_allclose(reduced, np.tile(expected, (50, 1)), rtol=0, atol=1e-12)


def test_two_ply_truncation_is_the_evaluators_expectation():
    expected = two_ply_expectation(MIDDLE)
    result = rollout(MIDDLE, settings(trials=1296, truncate=2))  # each pair of rolls once
    np.testing.assert_allclose(result.means, expected, rtol=0, atol=1e-12)
    reduced = rollout(MIDDLE, settings(trials=1296, truncate=2, variance_reduction=True))
    np.testing.assert_allclose(reduced.means, expected, rtol=0, atol=1e-12)
    assert reduced.equity_se < result.equity_se


def test_truncated_rollouts_of_finished_games_stay_exact():
    # a game that ends before the truncation ply is scored exactly, not by the heuristic
    position = Position.from_points({1: 1}, {13: 15})
    result = rollout(position, settings(trials=36, truncate=5))
    np.testing.assert_array_equal(result.means, [1, 1, 0, 0, 0])


# ----------------------------------------------------------------------------- stop on SE


def _expected_stop(values: np.ndarray, stop_se: float, min_games: int) -> int:
    eq = equities(values)
    for games in range(STOP_CHECK_EVERY, len(values) + 1, STOP_CHECK_EVERY):
        if games >= min_games and eq[:games].std(ddof=1) / math.sqrt(games) < stop_se:
            return games
    return len(values)


@pytest.mark.usefixtures("restore_threads")
def test_stop_on_standard_error_is_reproducible_and_at_a_checkpoint():
    s = settings(trials=3000, seed=17, stop_se=0.06, min_games=324)
    first = rollout(START, s)
    assert first.games % STOP_CHECK_EVERY == 0
    assert 324 <= first.games < 3000
    assert first.equity_se < 0.06
    values = per_trial(START, 3000, 17)
    assert first.games == _expected_stop(values, 0.06, 324)
    np.testing.assert_allclose(first.equity, equities(values[:first.games]).mean(), atol=1e-12)
    # independent of threads (hence of batch sizes and timing)
    for threads in (1, 2):
        again = rollout(START, RolloutSettings(**{**s.__dict__, "threads": threads}))
        assert again.games == first.games
        assert again.equity == first.equity


def test_stop_on_standard_error_waits_for_min_games():
    # an SE limit that any sample meets: stop at the first checkpoint at or above min_games
    result = rollout(MIDDLE, settings(trials=1000, stop_se=10.0, min_games=100))
    assert result.games == 108
    never = rollout(MIDDLE, settings(trials=200, stop_se=1e-6, min_games=36))
    assert never.games == 200


# ----------------------------------------------------------------------------- command line




def test_variance_reduction_is_on_by_default_for_the_nets_cubeless_rollouts():
    from dataclasses import replace

    assert RolloutSettings().variance_reduction is True
    assert RolloutSettings(policy="heuristic").variance_reduction is False
    assert RolloutSettings(policy="random").variance_reduction is False
    assert RolloutSettings(cubeful=True).variance_reduction is False
    assert RolloutSettings(cubeful=True).problems() == []
    # asked for, it is kept, and refused where it cannot run
    assert RolloutSettings(policy="heuristic", variance_reduction=True).variance_reduction
    assert RolloutSettings(variance_reduction=False).variance_reduction is False
    assert RolloutSettings(cubeful=True, variance_reduction=True).problems()
    # the resolved setting is a plain bool that travels with the result
    assert replace(RolloutSettings(), trials=36).variance_reduction is True


def test_a_cube_decision_takes_a_variance_reduced_rollouts_means():
    """A variance-reduced rollout's means are unbiased but may stray a noise's width outside
    the bounds of probabilities (no gammon can happen, the mean gammon rate is -2e-6):
    cube decisions clip them into the bounds rather than refuse them."""
    from bgcli.cube import consistent_rates
    from bgcli.decisions import cube_decision
    from bgcli.notation.detect import parse_situation

    assert consistent_rates([0.6, -1e-6, 0.0, 0.41, 0.5]) == (0.6, 0.0, 0.0, 0.4, 0.4)
    assert consistent_rates([1.0000001, 0.2, 0.01, 0.0, -2e-7]) == (1.0, 0.2, 0.01, 0.0, 0.0)
    situation = parse_situation("4HPwATDgc/ABMA")
    strayed = cube_decision(situation, [0.62, -1.7e-5, 0.0, -1.7e-5, 0.0])
    clipped = cube_decision(situation, [0.62, 0.0, 0.0, 0.0, 0.0])
    assert strayed.action == clipped.action and strayed.no_double == clipped.no_double


def test_cli_rollout_json_carries_the_settings(capsys):
    code, out, _ = run(capsys, "rollout", "a5yDAQYtO4MBAw", "--seed", "1", "--trials", "72",
                       "-f", "json")
    assert code == 0
    [row] = json.loads(out)
    assert row["seed"] == 1 and row["trials"] == 72 and row["games"] == 72
    assert row["policy"] == "net"  # the trained net plays by default
    assert row["truncate"] == 0
    assert row["variance_reduction"] is True  # on by default with the net: cheaper to an SE
    assert row["bgcli_version"] == __version__
    library = rollout(MIDDLE, RolloutSettings(trials=72, seed=1))
    for name, mean in zip(["win", "win_gammon", "win_backgammon", "lose_gammon",
                           "lose_backgammon"], library.means):
        assert row[name] == pytest.approx(mean, abs=1e-12)
    assert row["equity"] == pytest.approx(library.equity, abs=1e-12)


def test_cli_rollout_table_fits_an_80_column_terminal(capsys, monkeypatch):
    import bgcli.cli.output

    # a 16-digit seed, as the random ones are
    args = ["rollout", "4HPwATDgc/ABMA", "a5yDAQYtO4MBAw", "--trials", "36", "--seed", str(2**53 - 1)]
    code, whole, _ = run(capsys, *args)  # not a terminal: every rate with its SE
    assert code == 0 and max(map(len, whole.splitlines())) > 80
    assert whole.splitlines()[2].split()[2].startswith("±")  # Win's standard error
    monkeypatch.setattr(bgcli.cli.output, "terminal_width", lambda out: 80)
    code, out, err = run(capsys, *args)
    lines = out.splitlines()
    assert code == 0 and max(map(len, lines)) <= 80 and len(lines) == 4
    header = lines[0].split()
    assert header == ["position_id", "Win", "W(g)", "L(g)", "Equity", "games", "seed"]
    assert "left out to fit 80 columns: W(bg), L(bg)" in err
    code, out_json, _ = run(capsys, *args, "-f", "json")
    row = json.loads(out_json)[0]
    cells = lines[2].split()
    assert cells[0] == "4HPwATDgc/ABMA" and cells[1] == f"{row['win']:.3f}"
    assert cells[4:6] == [f"{row['equity']:+.3f}", f"±{row['equity_se']:.3f}"]
    assert cells[-1] == str(2**53 - 1)


def test_cli_rollout_reports_a_seed_that_reproduces_it(capsys):
    args = ["rollout", "f42ABwC/cfAAAA", "--trials", "72", "--no-variance-reduction",
            "-f", "json"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    [row] = json.loads(out)
    seed = row["seed"]
    assert isinstance(seed, int)
    code, out, _ = run(capsys, *args, "--seed", str(seed))
    assert code == 0
    [again] = json.loads(out)
    for key in ("win", "win_gammon", "lose_gammon", "equity", "equity_se"):
        assert again[key] == row[key]


@pytest.mark.parametrize("bad", [["--trials", "0"], ["--policy", "nonsense"],
                                 ["--truncate", "-1"], ["--threads", "0"],
                                 ["--stop-se", "0"], ["--seed", str(2**53)],
                                 ["--seed", "-1"]])
def test_cli_rollout_bad_options_exit_2_with_one_line(capsys, bad):
    code, out, err = run(capsys, "rollout", "4HPwATDgc/ABMA", *bad)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("bgcli: usage error: ")
    assert "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_ctrl_c_or_sigterm_prints_the_partial_result_marked_partial(signal_name):
    """SIGINT (Ctrl-C) or SIGTERM during a long rollout: the games so far are printed, marked
    partial, exit 130."""
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "bgcli", "rollout", "4HPwATDgc/ABMA", "--trials", "10000000",
         "--seed", "3", "-f", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the first progress line means the kernels are loaded and games are being played
        line = process.stderr.readline()
        assert "games" in line, line
        time.sleep(1.0)
        process.send_signal(getattr(signal, signal_name))
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    rows = json.loads(out)
    assert len(rows) == 1 and rows[0]["partial"] is True
    assert 0 < rows[0]["games"] < 10000000 and rows[0]["equity_se"] > 0
    assert "partial" in err and "Traceback" not in err


def test_a_stop_in_the_last_games_is_reported_not_lost():
    """Ctrl-C during the last batch of games: they are finished (the result is complete, not
    partial), but the result says a stop was asked for, so that the caller stops too."""
    import signal

    def ctrl_c(done, total, *_):  # progress comes after each batch: as if it came during it
        signal.raise_signal(signal.SIGINT)

    first_batch = RolloutSettings(trials=64, seed=1, policy="heuristic")  # 32 games, then 32
    result = rollout(Position.start(), first_batch, ctrl_c)
    assert result.games == 32 and result.partial and result.interrupted
    last_batch = RolloutSettings(trials=32, seed=1, policy="heuristic")  # one batch of 32
    result = rollout(Position.start(), last_batch, ctrl_c)
    assert result.games == 32 and not result.partial and result.interrupted
    quiet = rollout(Position.start(), last_batch)
    assert quiet.games == 32 and not quiet.partial and not quiet.interrupted
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back
