"""Invariants over random games, and the move generator checked against a slow, independent
reference written here from shared/rules.md.

The games come from ``bgcli.kernels.random_play.random_game_positions`` with fixed seeds, so a
failure always reproduces. Each ply is checked for checker conservation, valid positions and
pip-count bookkeeping; a few hundred positions from those games (and from a hypothesis
strategy aimed at the bar and the bear-off) are compared, as complete sets of resulting
boards, with ``reference_results`` below.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.kernels.dice import new_state
from bgcli.kernels.movegen import MoveBuffers, generate_plays
from bgcli.kernels.random_play import random_game_positions
from bgcli.moves import legal_plays
from bgcli.notation.moves import apply_segments, parse_move
from bgcli.position import Position, Status

GAMES = 200
MAX_PLIES = 3000
REFERENCE_SAMPLES = 200
PIP_WEIGHTS = np.arange(1, 26)


# ----------------------------------------------------------------------------- reference


def _successors(state, die):
    """Every position one checker step of ``die`` can reach (player on roll = ``mine``).

    ``state`` is (mine, theirs), each a 25-tuple in its own numbering (index 24 = bar).
    My point t faces the opponent's index 24 - t.
    """
    mine, theirs = state
    if mine[24] > 0:
        sources = [25]  # a checker on the bar must enter first
    else:
        sources = [p for p in range(1, 25) if mine[p - 1] > 0]
    all_home = sum(mine[6:]) == 0  # nothing on points 7..24 or the bar
    for point in sources:
        target = point - die
        if target >= 1:
            facing = 24 - target
            if theirs[facing] >= 2:
                continue  # blocked
            new_mine = list(mine)
            new_theirs = list(theirs)
            new_mine[point - 1] -= 1
            new_mine[target - 1] += 1
            if theirs[facing] == 1:  # hit
                new_theirs[facing] = 0
                new_theirs[24] += 1
            yield tuple(new_mine), tuple(new_theirs)
        else:
            if not all_home:
                continue
            if target < 0 and any(mine[q - 1] for q in range(point + 1, 7)):
                continue  # a higher checker exists: no bearing off with a larger die
            new_mine = list(mine)
            new_mine[point - 1] -= 1
            yield tuple(new_mine), theirs


def reference_results(board: np.ndarray, die1: int, die2: int) -> tuple[set[bytes], int]:
    """(set of result boards as bytes, number of dice used), straight from the rules."""
    start = (tuple(int(n) for n in board[1]), tuple(int(n) for n in board[0]))
    if die1 == die2:
        frontier, used = {start}, 0
        for depth in range(1, 5):
            following = {s for state in frontier for s in _successors(state, die1)}
            if not following:
                break
            frontier, used = following, depth
        results = frontier if used else set()
    else:
        one = {die: set(_successors(start, die)) for die in (die1, die2)}
        two = {s for first, second in ((die1, die2), (die2, die1))
               for mid in one[first] for s in _successors(mid, second)}
        high, low = max(die1, die2), min(die1, die2)
        if two:
            results, used = two, 2
        elif one[high]:
            results, used = one[high], 1
        elif one[low]:
            results, used = one[low], 1
        else:
            results, used = set(), 0
    as_bytes = {np.array([theirs, mine], dtype=np.int8).tobytes() for mine, theirs in results}
    return as_bytes, used


def kernel_results(buffers: MoveBuffers, board: np.ndarray, die1: int, die2: int):
    """(list of result boards as bytes, dice used) from the numba generator."""
    work = np.ascontiguousarray(board, dtype=np.int8).copy()
    count, used = generate_plays(work, die1, die2, *buffers.arrays())
    assert np.array_equal(work, board), "generate_plays must restore the board"
    if used == 0:
        return [], 0
    return [buffers.boards[i].tobytes() for i in range(count)], int(used)


def test_reference_agrees_with_hand_examples():
    """The reference itself, on positions worked by hand (see test_scenarios.py)."""
    start = Position.start().board
    results, used = reference_results(start, 3, 1)
    assert used == 2 and len(results) == 16
    assert len(reference_results(start, 6, 5)[0]) == 7
    # X 24 alone behind O on X's 16: 6-2 plays only the 6
    position = Position.from_points({24: 1}, {9: 2})
    results, used = reference_results(position.board, 6, 2)
    assert used == 1 and results == {Position.from_points({18: 1}, {9: 2}).board.tobytes()}
    # closed board, checker on the bar: nothing
    closed = Position.from_points({25: 1}, {p: 2 for p in range(1, 7)})
    assert reference_results(closed.board, 6, 6) == (set(), 0)


# ----------------------------------------------------------------------------- games


@pytest.fixture(scope="module")
def games():
    """[(positions before each roll + the final one, the rolls)] for GAMES seeded games."""
    buffers = MoveBuffers()
    played = []
    for seed in range(GAMES):
        board = Position.start().board.copy()
        out_boards = np.zeros((MAX_PLIES, 2, 25), dtype=np.int8)
        out_dice = np.zeros((MAX_PLIES, 2), dtype=np.int64)
        plies = random_game_positions(board, new_state(1000 + seed), MAX_PLIES, out_boards,
                                      out_dice, *buffers.arrays())
        sequence = np.concatenate([out_boards[:plies], board[None]], axis=0)
        played.append((sequence, out_dice[:plies].copy()))
    return played


def test_games_are_reproducible():
    buffers = MoveBuffers()
    runs = []
    for _ in range(2):
        board = Position.start().board.copy()
        out_boards = np.zeros((MAX_PLIES, 2, 25), dtype=np.int8)
        out_dice = np.zeros((MAX_PLIES, 2), dtype=np.int64)
        plies = random_game_positions(board, new_state(7), MAX_PLIES, out_boards, out_dice,
                                      *buffers.arrays())
        runs.append((plies, out_boards[:plies].copy(), out_dice[:plies].copy()))
    assert runs[0][0] == runs[1][0]
    assert np.array_equal(runs[0][1], runs[1][1]) and np.array_equal(runs[0][2], runs[1][2])


def test_every_game_ends_with_one_side_borne_off(games):
    for seed, (sequence, dice) in enumerate(games):
        assert len(dice) < MAX_PLIES, f"game {seed} did not finish"
        final = sequence[-1]
        # the last mover is now board[0]: all 15 borne off; the other still has checkers
        assert final[0].sum() == 0, f"game {seed}"
        assert final[1].sum() > 0, f"game {seed}"
        assert all(sequence[k].sum(axis=1).min() > 0 for k in range(len(dice)))
        assert ((dice >= 1) & (dice <= 6)).all()


def test_every_position_is_valid_with_at_most_15_a_side(games):
    for sequence, _ in games:
        for board in sequence:
            assert (board >= 0).all()
            assert board.sum(axis=1).max() <= 15
            position = Position(board)
            assert position.status() == Status.VALID
            # no point held by both sides (status checks it; say it outright too)
            assert not ((board[1, :24] > 0) & (board[0, 23::-1] > 0)).any()


def test_ply_bookkeeping(games):
    """Between consecutive plies: the mover's checkers only go forward or off (pips drop by
    what the dice allow, by exactly the dice used unless a checker was borne off); the
    other side loses checkers only to the bar, gaining exactly the hit checkers' pips; the
    played result is one the generator lists, and the generator lists no duplicates."""
    buffers = MoveBuffers()
    hits_seen = bear_offs_seen = passes_seen = 0
    for seed, (sequence, dice) in enumerate(games):
        for ply, (d1, d2) in enumerate(dice.tolist()):
            before, after = sequence[ply], sequence[ply + 1]
            mover_before, mover_after = before[1], after[0]
            other_before, other_after = before[0], after[1]
            where = f"game {seed} ply {ply} roll {d1}{d2}"

            results, used = kernel_results(buffers, before, d1, d2)
            assert len(set(results)) == len(results), where
            played = np.stack([other_after, mover_after]).tobytes()
            if used == 0:
                assert np.array_equal(after, before[::-1]), where
                passes_seen += 1
                continue
            assert played in results, where

            # the mover: borne-off count never decreases, pips fall by the dice
            off_now = 15 - int(mover_after.sum())
            off_before = 15 - int(mover_before.sum())
            assert off_now >= off_before, where
            drop = int(mover_before @ PIP_WEIGHTS) - int(mover_after @ PIP_WEIGHTS)
            if d1 == d2:
                dice_pips = used * d1
            elif used == 2:
                dice_pips = d1 + d2
            else:
                dice_pips = None  # one die: d1 or d2
            if off_now == off_before:
                if dice_pips is None:
                    assert drop in (d1, d2), where
                else:
                    assert drop == dice_pips, where
            else:
                bear_offs_seen += 1
                assert 0 < drop <= (dice_pips if dice_pips is not None else max(d1, d2)), where

            # the other side: same number of checkers; changes only by hits to the bar
            assert other_after.sum() == other_before.sum(), where
            hit = int(other_after[24]) - int(other_before[24])
            assert hit >= 0, where
            emptied = np.nonzero(other_before[:24] != other_after[:24])[0]
            assert len(emptied) == hit, where
            assert (other_before[emptied] == 1).all() and (other_after[emptied] == 0).all(), where
            gain = int(other_after @ PIP_WEIGHTS) - int(other_before @ PIP_WEIGHTS)
            assert gain == sum(24 - int(i) for i in emptied), where
            hits_seen += hit
    # the games exercise what the checks are about
    assert hits_seen > 1000 and bear_offs_seen > 1000 and passes_seen > 10


# ----------------------------------------------------------------------------- reference check


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _sample_from_games(games, count, seed):
    """``count`` (board, roll) pairs drawn from the games: the roll that was played there."""
    rng = np.random.default_rng(seed)
    pairs = [(sequence[ply], dice[ply]) for sequence, dice in games for ply in range(len(dice))]
    picks = rng.choice(len(pairs), size=count, replace=False)
    return [(pairs[i][0], (int(pairs[i][1][0]), int(pairs[i][1][1]))) for i in picks]


def test_generator_matches_reference_on_game_positions(games):
    """REFERENCE_SAMPLES positions from the games, each with all 21 rolls (the non-doubles in
    both orders): the complete set of results and the number of dice used agree."""
    buffers = MoveBuffers()
    kinds = {"bar": 0, "bear-off": 0, "one die": 0, "none": 0}
    for board, _ in _sample_from_games(games, REFERENCE_SAMPLES, seed=1):
        for d1, d2 in ALL_ROLLS:
            expected, expected_used = reference_results(board, d1, d2)
            orders = [(d1, d2)] if d1 == d2 else [(d1, d2), (d2, d1)]
            for a, b in orders:
                got, used = kernel_results(buffers, board, a, b)
                where = f"{Position(board).position_id()} {a}{b}"
                assert used == expected_used, where
                assert len(set(got)) == len(got), where
                assert set(got) == expected, where
            kinds["one die"] += d1 != d2 and expected_used == 1
            kinds["none"] += expected_used == 0
        kinds["bar"] += bool(board[1, 24])
        kinds["bear-off"] += bool(board[1, 6:].sum() == 0)
    assert all(n >= 5 for n in kinds.values()), kinds


def test_legal_plays_notation_replays_to_the_result(games):
    """Each Play's notation, read back and applied to the board, gives its result (so hits
    on the way are marked), and find_play-style matching is unambiguous."""
    for board, roll in _sample_from_games(games, 60, seed=2):
        position = Position(board)
        plays = legal_plays(position, roll)
        results = [p.result.board.tobytes() for p in plays]
        assert len(set(results)) == len(results)
        assert len({p.notation for p in plays}) == len(plays)
        for play in plays:
            replayed = apply_segments(position.board, parse_move(play.notation))
            assert replayed is not None and np.array_equal(replayed, play.result.board), \
                f"{position.position_id()} {roll}: {play.notation}"
            assert 1 <= len(play.steps) <= (4 if roll[0] == roll[1] else 2)


@st.composite
def endgame_positions(draw):
    """Positions near the bar and the bear-off: the player on roll has most checkers in the
    home board, sometimes some on the bar or just outside; the opponent holds points and
    leaves blots in and around that home board."""
    mine = np.zeros(25, dtype=np.int8)
    for _ in range(draw(st.integers(1, 15))):
        index = draw(st.one_of(st.integers(0, 5), st.integers(0, 5), st.integers(6, 11),
                               st.just(24)))
        mine[index] += 1
    theirs = np.zeros(25, dtype=np.int8)
    for _ in range(draw(st.integers(1, 15))):
        index = draw(st.one_of(st.integers(18, 23), st.integers(12, 23), st.integers(0, 23),
                               st.just(24)))
        facing = 23 - index
        if index < 24 and mine[facing] > 0:
            continue
        theirs[index] += 1
    return Position(np.stack([theirs, mine]))


def _blocked_positions(rng: np.random.Generator, count: int) -> list[Position]:
    """One to three checkers for the player on roll (sometimes on the bar) against two to
    seven made points: the shapes where only one die, only the larger die, or nothing at all
    can be played."""
    positions = []
    while len(positions) < count:
        theirs = np.zeros(25, dtype=np.int8)
        theirs[rng.choice(24, size=int(rng.integers(2, 8)), replace=False)] = 2
        mine = np.zeros(25, dtype=np.int8)
        for index in rng.integers(0, 25, size=int(rng.integers(1, 4))):
            if index == 24 or theirs[23 - index] == 0:
                mine[index] += 1
        if mine.sum():
            positions.append(Position(np.stack([theirs, mine])))
    return positions


def test_generator_matches_reference_when_dice_are_forced():
    """300 seeded sparse, blocked positions with every roll in both orders; the forced-play
    rules (larger die, one die, no play) must each come up many times."""
    buffers = MoveBuffers()
    forced = {"larger die chosen": 0, "one die only": 0, "no play": 0, "partial doubles": 0}
    for position in _blocked_positions(np.random.default_rng(5), 300):
        board = position.board
        start = (tuple(int(n) for n in board[1]), tuple(int(n) for n in board[0]))
        for d1, d2 in ALL_ROLLS:
            expected, expected_used = reference_results(board, d1, d2)
            for a, b in ([(d1, d2)] if d1 == d2 else [(d1, d2), (d2, d1)]):
                got, used = kernel_results(buffers, board, a, b)
                where = f"{position.position_id()} {a}{b}"
                assert used == expected_used, where
                assert len(set(got)) == len(got) and set(got) == expected, where
            if d1 != d2 and expected_used == 1:
                both_playable = all(any(_successors(start, d)) for d in (d1, d2))
                forced["larger die chosen" if both_playable else "one die only"] += 1
            forced["no play"] += expected_used == 0
            forced["partial doubles"] += d1 == d2 and 0 < expected_used < 4
    assert all(n >= 100 for n in forced.values()), forced


@settings(max_examples=150, deadline=None)
@given(position=endgame_positions(), die1=st.integers(1, 6), die2=st.integers(1, 6))
def test_generator_matches_reference_near_bar_and_bear_off(position, die1, die2):
    expected, expected_used = reference_results(position.board, die1, die2)
    got, used = kernel_results(_BUFFERS, position.board, die1, die2)
    assert used == expected_used
    assert len(set(got)) == len(got)
    assert set(got) == expected


_BUFFERS = MoveBuffers()
