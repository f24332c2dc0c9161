"""The n-ply search (bgcli.kernels.search) against a plain-Python reference of the same
search, on random positions: the probabilities at 1..3 ply, the filtered ranking of a
roll's plays, other value functions, any thread count; and the move filters' spellings."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from bgcli.errors import BgcliError
from bgcli.evaluation import policy_code, position_probabilities, rank_plays
from bgcli.kernels.dice import next_u64
from bgcli.kernels.evaluate import POLICY_NAMES, PRUNE_SLOT, evaluate, table_start, twosided_win
from bgcli.kernels.movegen import MoveBuffers, generate_plays
from bgcli.kernels.random_play import random_game_positions
from bgcli.moves import legal_plays
from bgcli.position import Position
from bgcli.prune import read_prune_weights, unpack_prune_net
from bgcli.search import PRESETS, SKIP, move_filter

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
MONEY = np.array([-1.0, 2.0, 1.0, 1.0, -1.0, -1.0])


# ------------------------------------------------------------------ the plain-Python reference

def swap(p):
    return np.array([1.0 - p[0], p[3], p[4], p[1], p[2]])


def value(c, p):
    return c[0] + sum(c[k + 1] * p[k] for k in range(5))


def static(board, me, code, params):
    out = np.zeros(5)
    evaluate(np.ascontiguousarray(board, dtype=np.int8), me, code, params, out)
    return out


def turned(board):
    return np.ascontiguousarray(board[::-1])


def exact(board, params):
    return board[0].sum() == 0 or board[1].sum() == 0 or twosided_win(board, 1, params) >= 0


def results(board, dice):
    moves = MoveBuffers()
    count, _ = generate_plays(board, dice[0], dice[1], *moves.arrays())
    return [moves.boards[i].copy() for i in range(count)]


def prune_start(code, params):
    """Where the pruning net starts in ``params`` (0: none, or not the net's search)."""
    return int(table_start(params, PRUNE_SLOT)) if code == POLICY_NAMES["net"] else 0


def ref_prune_outputs(board, net):
    """The pruning net's five linear outputs for a result (next player row 0), written
    out plainly from its weights (``bgcli.prune.unpack_prune_net``)."""
    w1, b1, w2, b2 = net
    x = np.zeros(196)
    for s in (0, 1):
        for i in range(24):
            n = int(board[s, i])
            x[98 * s + 4 * i:98 * s + 4 * i + 4] = [n >= 1, n >= 2, n >= 3,
                                                    (n - 3) / 2 if n > 3 else 0.0]
        x[98 * s + 96] = board[s, 24] / 2
        x[98 * s + 97] = (15 - int(board[s].sum())) / 15
    z = x @ w1 + b1
    return w2 @ (0.5 + 0.5 * z / (1 + np.abs(z))) + b2


def in_contact(board):
    rears = [max([p for p in range(25) if board[s, p] > 0], default=-1) for s in (0, 1)]
    return not rears[0] + 1 < 24 - rears[1]


def screened(board, plays, side, values, code, params):
    """The plays the full net scores: all of them, or (the net with a pruning net, the
    position in contact) the best 5 + floor(log2(n)) by the pruning net, in their order."""
    start = prune_start(code, params)
    keep = min(len(plays), 5 + int(np.floor(np.log2(len(plays)))))
    if start == 0 or keep == len(plays) or not in_contact(board):
        return plays
    net = unpack_prune_net(read_prune_weights())
    scores = [value(values[side], swap(ref_prune_outputs(b, net))) for b in plays]
    best = sorted(range(len(plays)), key=lambda i: (-scores[i], i))[:keep]
    return [plays[i] for i in sorted(best)]


def ref_node(board, plies, side, values, code, params):
    """The probabilities of the player on roll (row 1, ``side``) at ``plies``: for each
    roll, the mover's 0-ply favourite among the plays the pruning screen keeps, the result
    looked at one ply less, averaged."""
    if plies == 0 or exact(board, params):
        return static(board, 1, code, params)
    total = np.zeros(5)
    for dice in ROLLS:
        best, best_value = None, -np.inf
        for result in screened(board, results(board, dice), side, values, code, params):
            mine = swap(static(result, 0, code, params))
            if value(values[side], mine) > best_value:
                best, best_value = result, value(values[side], mine)
        theirs = ref_node(turned(best), plies - 1, 1 - side, values, code, params) \
            if plies > 1 else static(best, 0, code, params)
        total += (1 if dice[0] == dice[1] else 2) / 36 * swap(theirs)
    return total


def ref_rank(board, dice, plies, stages, values, code, params):
    """(probabilities, depth) of each play of ``dice``, in the move generator's order,
    after the filtered search: stage by stage, evaluate the survivors, sort, keep."""
    boards = results(board, dice)
    scores = [swap(static(b, 0, code, params)) for b in boards]
    depth = [0] * len(boards)
    alive = list(range(len(boards)))
    for stage in range(plies + 1):
        if stage < plies and stages[stage][0] < 0:
            continue
        if stage > 0:
            for i in alive:
                scores[i] = swap(ref_node(turned(boards[i]), stage, 1, values, code, params))
                depth[i] = stage
        if stage == plies:
            break
        alive.sort(key=lambda i: -value(values[0], scores[i]))
        accept, extra, threshold = stages[stage]
        best = value(values[0], scores[alive[0]])
        kept, added = min(max(int(accept), 0), len(alive)), 0
        while kept < len(alive) and added < extra and \
                value(values[0], scores[alive[kept]]) >= best - threshold:
            kept, added = kept + 1, added + 1
        alive = alive[:max(kept, 1)]
        if len(alive) == 1:
            break
    return scores, depth


def random_positions(seed: int, count: int) -> list[Position]:
    """Positions from random games (their middles and ends), the player on roll row 1."""
    state = np.array([seed], dtype=np.uint64)
    positions = []
    while len(positions) < count:
        boards = np.zeros((400, 2, 25), dtype=np.int8)
        dice = np.zeros((400, 2), dtype=np.int64)
        n = random_game_positions(Position.start().board.astype(np.int8), state, 400, boards,
                                  dice, *MoveBuffers().arrays())
        ply = int(next_u64(state) % np.uint64(max(n, 1)))
        position = Position(boards[ply].copy())
        if not position.is_game_over():
            positions.append(position)
    return positions


def params_for(policy: str):
    code, params = policy_code(policy, bearoff=True)
    return code, params


# ------------------------------------------------------------------------------- the checks

POSITIONS = random_positions(17, 6)


@pytest.mark.parametrize("policy", ["heuristic", "net"])
@pytest.mark.parametrize("index", range(3))
def test_two_ply_probabilities_equal_the_reference(policy, index):
    position = POSITIONS[index]
    code, params = params_for(policy)
    expected = ref_node(position.board.astype(np.int8), 2, 0, np.stack([MONEY, MONEY]), code,
                        params)
    got = position_probabilities(position, policy, plies=2)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    assert not np.allclose(got, position_probabilities(position, policy, plies=1), atol=1e-4)


def test_the_pruning_screen_is_part_of_the_search_and_can_be_left_out():
    """The net's 1-ply probabilities with the pruning net's screen (the default) and without
    it each equal the reference of that search, and the screen changes a choice (a
    probability) somewhere in these positions (random ones, and a back game, where many
    plays are close)."""
    from bgcli.evaluation import _needs_bearoff

    values = np.stack([MONEY, MONEY])
    changed = 0
    for position in POSITIONS + [Position.from_id("5u42AADAzJwBMw")]:
        board = position.board.astype(np.int8)
        got = {}
        for prune in (True, False):
            code, params = policy_code("net", bearoff=_needs_bearoff(position, 1), prune=prune)
            assert (prune_start(code, params) > 0) == prune
            got[prune] = position_probabilities(position, "net", plies=1, prune=prune)
            np.testing.assert_allclose(got[prune], ref_node(board, 1, 0, values, code, params),
                                       rtol=0, atol=1e-9)
        changed += bool(np.abs(got[True] - got[False]).max() > 1e-9)
    assert changed >= 1


def test_one_ply_without_the_screen_is_the_mean_of_every_rolls_best_play():
    """What luck is measured against (match analysis, vs_gnubg): the 1-ply value with
    prune=False is the weighted mean of each roll's 0-ply best play of all its plays."""
    for position in (POSITIONS[0], POSITIONS[5]):
        mean = sum((1 if a == b else 2) / 36 * rank_plays(position, (a, b), "net", 0)[0].equity
                   for a, b in ROLLS)
        one_ply = position_probabilities(position, "net", plies=1, prune=False)
        assert mean == pytest.approx(2 * one_ply[0] - 1 + one_ply[1] + one_ply[2] - one_ply[3]
                                     - one_ply[4], abs=1e-9)


def test_roll_probabilities_are_the_terms_the_search_averages():
    """Each roll's probabilities after the mover's play, looked at one ply less: at 1 ply
    the 0-ply value of the roll's best play (without the screen, of all plays), and their
    weighted mean is the position's probabilities at every depth."""
    from bgcli.evaluation import roll_probabilities
    from bgcli.kernels.evaluate import ROLL_WEIGHTS

    position = POSITIONS[1]
    for plies in (1, 2):
        rolled = roll_probabilities(position, "net", plies)
        assert rolled.shape == (21, 5)
        np.testing.assert_allclose(ROLL_WEIGHTS @ rolled,
                                   position_probabilities(position, "net", plies),
                                   rtol=0, atol=1e-12)
    rolled = roll_probabilities(position, "net", 1, prune=False)
    for r, (a, b) in enumerate(ROLLS):
        np.testing.assert_allclose(rolled[r], rank_plays(position, (a, b), "net", 0)[0]
                                   .probabilities, rtol=0, atol=1e-9)
    with pytest.raises(BgcliError):
        roll_probabilities(position, "net", 0)


def test_ranked_plays_keep_the_terms_of_their_last_look():
    """``rank_plays(..., replies=True)``: each play evaluated at 1 ply or more carries the
    opponent's 21 roll terms at its depth (the roll probabilities of the position after
    it, from the mover's side), whose weighted mean is its probabilities; plays the filter
    left at 0 ply carry none."""
    from bgcli.evaluation import flipped, roll_probabilities
    from bgcli.kernels.evaluate import ROLL_WEIGHTS

    position = POSITIONS[2]
    ranked = (rank_plays(position, (6, 4), "net", 1, replies=True)
              + rank_plays(position, (6, 4), "net", 2, replies=True))
    assert {r.plies for r in ranked} == {0, 1, 2}, "the normal filter leaves plays at 0 ply"
    for r in ranked:
        if r.plies == 0:
            assert r.replies is None
            continue
        assert r.replies.shape == (21, 5)
        np.testing.assert_allclose(ROLL_WEIGHTS @ r.replies, r.probabilities, rtol=0,
                                   atol=1e-12)
        np.testing.assert_allclose(
            r.replies, flipped(roll_probabilities(r.play.result.swapped(), "net", r.plies)),
            rtol=0, atol=1e-9)
    assert all(r.replies is None for r in rank_plays(position, (6, 4), "net", 2))


@pytest.mark.parametrize("index", range(3, 6))
def test_filtered_ranking_equals_the_reference(index):
    position = POSITIONS[index]
    code, params = params_for("net")
    dice = ROLLS[(7 * index) % 21]
    values = np.stack([MONEY, MONEY])
    spec = "3:0.3,2:0.1"
    stages = move_filter(spec).rows(2)
    scores, depth = ref_rank(position.board.astype(np.int8), dice, 2, stages, values, code,
                             params)
    ranked = rank_plays(position, dice, "net", plies=2, move_filter=spec)
    plays = legal_plays(position, dice)
    by_board = {p.result.board.tobytes(): i for i, p in enumerate(plays)}
    assert len(ranked) == len(plays)
    for r in ranked:
        i = by_board[r.play.result.board.tobytes()]
        assert r.plies == depth[i]
        np.testing.assert_allclose(r.probabilities, scores[i], rtol=0, atol=1e-9)
    # the deepest first, each depth best first
    keys = [(-r.plies, -r.equity) for r in ranked]
    assert keys == sorted(keys)


def test_other_value_functions_change_choices_as_the_reference_says():
    """Value functions that weigh gammons their own way: the reference and the kernels
    agree, and the choices (so the probabilities) differ from money's."""
    position = Position.from_points({24: 2, 13: 4, 8: 3, 6: 4, 4: 2},
                                    {24: 1, 13: 5, 8: 3, 6: 4, 5: 2})
    code, params = params_for("heuristic")
    values = np.array([[0.0, 0.0, 1.0, 0.0, -1.0, 0.0], [0.3, 1.0, 0.5, 0.0, -0.7, -0.2]])
    expected = ref_node(position.board.astype(np.int8), 2, 0, values, code, params)
    got = position_probabilities(position, "heuristic", plies=2, values=values)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    money = position_probabilities(position, "heuristic", plies=2)
    assert not np.allclose(got, money, atol=1e-6)
    np.testing.assert_array_equal(
        position_probabilities(position, "heuristic", plies=2, values=MONEY), money)


def test_three_ply_probabilities_equal_the_reference():
    race = Position.from_points({6: 3, 5: 3, 4: 2, 9: 2}, {6: 2, 5: 3, 3: 3, 12: 2, 2: 2})
    code, params = params_for("net")
    expected = ref_node(race.board.astype(np.int8), 3, 0, np.stack([MONEY, MONEY]), code,
                        params)
    np.testing.assert_allclose(position_probabilities(race, "net", plies=3), expected,
                               rtol=0, atol=1e-9)


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_a_play_that_ends_the_game_is_ranked_first(plies):
    """Bearing off the last checkers can do no worse than any other play: it comes first
    where the others value the same (a certain single win: 2/1 1/off ties 2/off 1/off) and
    where the net would value a play that leaves a checker behind a little higher (a
    gammon now, against a race the opponent cannot be backgammoned in)."""
    from bgcli.notation.detect import parse_situation

    for position_id, dice in (("rjMAABQAAAAAAA", (1, 2)), ("dPK2AgBEAAAAAA", (3, 6)),
                              ("dPK2AgBEAAAAAA", (5, 6))):
        position = parse_situation(position_id).position
        ranked = rank_plays(position, dice, "net", plies)
        assert any(not r.play.result.is_game_over() for r in ranked)
        assert ranked[0].play.result.is_game_over(), (position_id, dice, plies)


def test_results_do_not_depend_on_the_thread_count():
    position = POSITIONS[4]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = [r.probabilities for r in rank_plays(position, (6, 3), plies=2)]
        one_p = position_probabilities(position, plies=2)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = [r.probabilities for r in rank_plays(position, (6, 3), plies=2)]
        many_p = position_probabilities(position, plies=2)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(np.array(one), np.array(many))
    np.testing.assert_array_equal(one_p, many_p)


def test_a_filter_that_keeps_one_play_stops_there():
    ranked = rank_plays(Position.start(), (3, 1), plies=2, move_filter="1:0")
    assert ranked[0].play.notation == "8/5 6/5"
    assert [r.plies for r in ranked] == [0] * len(ranked)  # nothing left to compare deeper


def test_every_play_reaches_the_depth_with_a_wide_filter():
    ranked = rank_plays(Position.start(), (2, 1), plies=1, move_filter="99:9")
    assert {r.plies for r in ranked} == {1}
    normal = rank_plays(Position.start(), (2, 1), plies=1)
    assert normal[0].plies == 1 and {r.plies for r in normal} == {0, 1}
    assert sum(r.plies == 1 for r in normal) <= 8


# --------------------------------------------------------------------------- filter spellings

def test_presets_are_gnubgs():
    assert PRESETS == ("tiny", "narrow", "normal", "large", "huge")
    normal = move_filter()
    assert normal.name == "normal"
    assert normal.rows(2).tolist() == [[0, 8, 0.16], list(SKIP)]
    assert normal.rows(3).tolist() == [[0, 8, 0.16], list(SKIP), [0, 2, 0.04]]
    assert move_filter("Large").rows(1).tolist() == [[0, 16, 0.32]]


def test_user_filters():
    custom = move_filter(" 2+6:0.2, -,3:.05 ")
    assert custom.name == "2+6:0.2,-,3:0.05"
    assert custom.rows(3).tolist() == [[2, 6, 0.2], list(SKIP), [0, 3, 0.05]]
    assert move_filter("8:0.16").rows(2).tolist() == [[0, 8, 0.16], list(SKIP)]
    assert move_filter(custom) is custom


@pytest.mark.parametrize("bad", ["", "wide", "8", "8:x", "0:0.1", "1:0.1,1:0.1,1:0.1,1:0.1",
                                 "-1:0.2", "8:inf"])
def test_bad_filters_are_one_line_errors(bad):
    with pytest.raises(BgcliError, match="move filter"):
        move_filter(bad)


def test_bad_plies_and_values():
    with pytest.raises(BgcliError, match="plies must be 0, 1, 2 or 3"):
        rank_plays(Position.start(), (6, 2), plies=4)
    with pytest.raises(BgcliError, match="values must be"):
        position_probabilities(Position.start(), plies=1, values=[1.0, 2.0])
    assert set(POLICY_NAMES) == {"net", "heuristic", "random"}


# ------------------------------------------------------------------- rollouts at checker plies

def test_a_one_ply_rollout_plays_the_searchs_choices():
    """Truncated after the first play, 36 quasi-random games hold each first roll once: the
    mean is the static evaluation after the play the 1-ply search picks, over 36 rolls.
    The position is one where the 1-ply search and the 0-ply net disagree on several rolls
    (13, 22, 44 and 66 with 0.9.8's net; from the opening position they agree on all)."""
    from bgcli.rollout import RolloutSettings, rollout

    start = Position.from_id("jOfgASTgc+FBAg")
    settings = RolloutSettings(trials=36, seed=3, truncate=1, checker_plies=1, threads=1)
    expected = np.zeros(5)
    for a in range(1, 7):
        for b in range(1, 7):
            top = rank_plays(start, (a, b), "net", plies=1)[0]
            expected += swap(position_probabilities(top.play.result.swapped(), "net")) / 36
    result = rollout(start, settings)
    np.testing.assert_allclose(result.means, expected, rtol=0, atol=1e-12)
    greedy = rollout(start, RolloutSettings(trials=36, seed=3, truncate=1, threads=1))
    assert not np.allclose(greedy.means, result.means, atol=1e-6)
    # variance reduction subtracts luck that sums to zero over the 36 first rolls
    reduced = rollout(start, RolloutSettings(trials=36, seed=3, truncate=1, checker_plies=1,
                                             variance_reduction=True, threads=1))
    np.testing.assert_allclose(reduced.means, result.means, rtol=0, atol=1e-12)
    assert result.row()["checker_plies"] == 1 and result.row()["move_filter"] == "normal"


def test_searched_rollouts_do_not_depend_on_the_thread_count():
    from bgcli.rollout import RolloutSettings, rollout

    middle = Position.from_id("a5yDAQYtO4MBAw")
    runs = [rollout(middle, RolloutSettings(trials=8, seed=5, truncate=6, checker_plies=1,
                                            move_filter="tiny", cubeful=cubeful,
                                            threads=threads))
            for cubeful in (False, True) for threads in (1, 2)]
    np.testing.assert_array_equal(runs[0].values, runs[1].values)
    np.testing.assert_array_equal(runs[2].cube_points, runs[3].cube_points)


def test_bad_rollout_search_settings():
    from bgcli.rollout import RolloutSettings

    assert "checker plies must be 0, 1 or 2" in RolloutSettings(checker_plies=3).problems()[0]
    assert "random policy" in RolloutSettings(checker_plies=1, policy="random").problems()[0]
    assert "move filter" in RolloutSettings(move_filter="wide").problems()[0]


# ------------------------------------------------------------------------ the command line

def test_best_names_its_filter_and_depths(capsys):
    import json

    from cli_helpers import run

    code, out, err = run(capsys, "best", "4HPwATDgc/ABMA", "43", "--evaluate-only", "--plies",
                         "2", "--filter", "tiny", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert {r["plies"] for r in rows} == {2} and {r["move_filter"] for r in rows} == {"tiny"}
    ranked = rank_plays(Position.start(), (4, 3), plies=2, move_filter="tiny")
    assert [r["play"] for r in rows] == [r.play.notation for r in ranked]
    assert [r["evaluator_plies"] for r in rows] == [r.plies for r in ranked]
    assert rows[0]["evaluator_plies"] == 2 and rows[-1]["evaluator_plies"] == 0


def test_cube_at_two_ply(capsys):
    import json

    from cli_helpers import run

    code, out, err = run(capsys, "cube", "a5yDAQYtO4MBAw", "--plies", "2", "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["source"] == "evaluator (net, 2-ply)" and row["plies"] == 2
    np.testing.assert_allclose([row[k] for k in ("win", "win_gammon", "win_backgammon",
                                                 "lose_gammon", "lose_backgammon")],
                               position_probabilities(Position.from_id("a5yDAQYtO4MBAw"),
                                                      plies=2), rtol=0, atol=1e-12)


def test_batch_rows_carry_the_filter(capsys, tmp_path):
    import json

    from cli_helpers import run

    collection = tmp_path / "positions.txt"
    collection.write_text("4HPwATDgc/ABMA\n")
    code, out, err = run(capsys, "batch", str(collection), "--dice", "31", "--plies", "0",
                         "--filter", "2:0.1", "-f", "jsonl")
    assert code == 0, err
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert row["evaluator_filter"] == "2:0.1" and row["evaluator_plies"] == 0
    assert row["best_play"] == "8/5 6/5"


def test_rollout_command_names_the_depth(capsys):
    import json

    from cli_helpers import run

    code, out, err = run(capsys, "rollout", "f42ABwC/cfAAAA", "--trials", "4", "--seed", "1",
                         "--checker-plies", "1", "--filter", "tiny", "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["checker_plies"] == 1 and row["move_filter"] == "tiny"
    code, _, err = run(capsys, "rollout", "f42ABwC/cfAAAA", "--checker-plies", "3")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "rollout", "f42ABwC/cfAAAA", "--checker-plies", "1",
                       "--policy", "random")
    assert code == 2 and "random policy" in err
