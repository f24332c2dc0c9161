"""Two nets head to head on the same dice, and the luck taken out of the score
(``kernels.selfplay.play_match_luck``, ``scripts/experiments/head_to_head.py --luck``)."""

import numpy as np
import pytest

from bgcli.evaluation import net_params
from bgcli.kernels.evaluate import POLICY_NET
from bgcli.kernels.selfplay import play_match, play_match_luck
from bgcli.net import weights_path
from bgcli.position import Position

START = np.ascontiguousarray(Position.start().board, dtype=np.int8)


@pytest.fixture(scope="module")
def nets():
    shipped = net_params(weights_path())
    rng = np.random.default_rng(7)
    weaker = shipped.copy()
    weaker[:2000] += rng.normal(0.0, 0.15, 2000)  # some contact input rows disturbed
    return shipped, weaker


def _luck_match(a, b, judge, deals, seed=3):
    out, luck = np.zeros((deals, 2)), np.zeros((deals, 2))
    play_match_luck(START, seed, 0, deals, POLICY_NET, a, POLICY_NET, b, judge, out, luck)
    return out, luck


def test_the_luck_leaves_the_games_as_they_were(nets):
    a, b = nets
    plain = np.zeros((30, 2))
    play_match(START, 3, 0, 30, POLICY_NET, a, POLICY_NET, b, plain)
    out, luck = _luck_match(a, b, b, 30)
    np.testing.assert_array_equal(out, plain)
    assert np.all(np.isfinite(luck)) and np.any(luck != 0.0)
    _, none = _luck_match(a, b, np.empty(0), 30)
    assert np.all(none == 0.0)  # no judge: no luck measured


def test_a_net_against_itself_scores_exactly_zero_either_way(nets):
    a, _ = nets
    out, luck = _luck_match(a, a, a, 20)
    # the same dice, the sides swapped: the second game is the first seen from the other side
    np.testing.assert_array_equal(out[:, 0], -out[:, 1])
    np.testing.assert_allclose(luck[:, 0], -luck[:, 1], atol=1e-9)


def test_the_luck_takes_most_of_the_noise_out_and_keeps_the_sign(nets):
    a, b = nets
    out, luck = _luck_match(a, b, b, 150)
    raw, adjusted = out.mean(axis=1), (out - luck).mean(axis=1)
    assert adjusted.std() < 0.5 * raw.std()
    se = adjusted.std(ddof=1) / np.sqrt(adjusted.size)
    assert adjusted.mean() > 3 * se  # the undisturbed net is the stronger


def test_the_luck_is_the_judges_not_the_players(nets):
    a, b = nets
    _, luck_judged_by_a = _luck_match(a, b, a, 10)
    _, luck_judged_by_b = _luck_match(a, b, b, 10)
    assert not np.allclose(luck_judged_by_a, luck_judged_by_b)
