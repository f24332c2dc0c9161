"""Legal-move scenarios worked out by hand from shared/rules.md.

Every expected list below was derived on paper before running the generator; each test
compares the complete set of resulting positions (and, where the wording is unambiguous, the
gnubg-style notation) with ``bgcli.moves.legal_plays``.

Diagrams: X is on roll and moves from 24 down to 1 and off; points are numbered from X's
side; ``O`` marks the opponent's checkers at X's point numbers (``Position.from_points``
takes the opponent's own numbering: X's point p is O's point 25 - p). ``.`` is an empty point.
"""

from __future__ import annotations

import itertools

import pytest

from bgcli.errors import IllegalMoveError
from bgcli.moves import find_play, legal_plays
from bgcli.notation.moves import apply_segments, parse_move
from bgcli.position import Position

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def X(on_roll: dict, opponent_at_x_points: dict) -> Position:
    """Build a position with the opponent's checkers given at X's point numbers (easier to
    read against the diagrams); converted here to the opponent's own numbering."""
    opponent = {(25 - p if p != 25 else 25): n for p, n in opponent_at_x_points.items()}
    return Position.from_points(on_roll, opponent)


def board_after(position: Position, text: str) -> bytes:
    board = apply_segments(position.board, parse_move(text))
    assert board is not None, f"hand-written move {text!r} has no checker to move"
    return board.tobytes()


def assert_plays(position: Position, dice, expected: list[str], notation: bool = False):
    """The legal plays are exactly ``expected`` (compared by resulting position)."""
    plays = legal_plays(position, dice)
    got = {p.result.board.tobytes(): p.notation for p in plays}
    assert len(got) == len(plays), "two plays lead to the same position"
    want = {board_after(position, text): text for text in expected}
    assert len(want) == len(expected), "the expected list itself has duplicates"
    missing = [want[k] for k in want.keys() - got.keys()]
    extra = [got[k] for k in got.keys() - want.keys()]
    assert not missing and not extra, f"missing {missing}, unexpected {extra}"
    if notation:
        assert {p.notation for p in plays} == set(expected)
    for play in plays:  # every result is a legal, valid position with the same checkers
        assert play.result.is_valid()
        assert play.result.board[0].sum() == position.board[0].sum()
    return plays


def test_helper_converts_opponent_points():
    position = X({6: 1}, {19: 2, 25: 1})
    assert position.board[0, 5] == 2  # O's 6-point is X's 19-point
    assert position.board[0, 24] == 1  # O's bar


# ============================================================================ the bar


def test_enter_one_checker_then_play_on():
    """
        X: 25(bar) x1, 13 x2        O holds X's 24 and 23 (its 1- and 2-points)

        bar | 24  23  22  21 ...  13  12
         X  | O2  O2   .   .       X2  .          roll 3-1

    The 1 cannot enter (24 is blocked); the 3 enters on 22. The 1 is then played by any
    checker: the one just entered (22/21) or one on 13.
    """
    position = X({25: 1, 13: 2}, {24: 2, 23: 2})
    assert_plays(position, (3, 1), ["bar/21", "bar/22 13/12"], notation=True)
    assert_plays(position, (1, 3), ["bar/21", "bar/22 13/12"], notation=True)


def test_enter_two_checkers_uses_both_dice():
    """
        bar | 24  23  22  21  20  19 ... 6
        X2  |  .   .  O2   .   .  O2     X3       roll 4-2

    Both checkers on the bar must come in first: 4 enters on 21, 2 on 23. Nothing else.
    """
    position = X({25: 2, 6: 3}, {22: 2, 19: 2})
    assert_plays(position, (4, 2), ["bar/23 bar/21"], notation=True)


def test_two_on_the_bar_only_one_can_enter():
    """
        bar | 24  23  22  21 ... 6
        X2  | O2   .   .  O2     X3               roll 4-3

    The 4 (21) is blocked, the 3 enters on 22; the second checker stays on the bar, so the
    4 is lost, and the checkers on 6 may not move.
    """
    position = X({25: 2, 6: 3}, {24: 2, 21: 2})
    assert_plays(position, (4, 3), ["bar/22"], notation=True)
    assert legal_plays(position, (4, 1)) == []  # 21 and 24 both blocked: nothing enters


def test_nothing_enters_against_a_closed_board():
    """
        bar | 24  23  22  21  20  19 ... 13
         X  | O2  O2  O2  O2  O2  O2     X3

    Every one of the 21 rolls loses the whole turn, even though the 13s could move.
    """
    position = X({25: 1, 13: 3}, {24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2})
    for roll in ALL_ROLLS:
        assert legal_plays(position, roll) == [], roll


def test_two_enter_with_doubles_then_only_the_home_checkers_can_move():
    """
        bar | 24  23  22  21  20  19 ...  6   5   4   3
        X2  |  .   .   .   .   .  O2      X2  .   .   .        roll 3-3

    Both enter on 22; 22/19 is blocked, bearing off is not allowed (22 is outside), so the
    last two 3s go 6/3 6/3.
    """
    position = X({25: 2, 6: 2}, {19: 2})
    assert_plays(position, (3, 3), ["bar/22(2) 6/3(2)"], notation=True)


def test_enter_with_doubles_then_spread_the_rest():
    """
        bar | 24  23 ... 18 ... 8                          roll 2-2
         X  |  .   .     O2     X2

    Enter on 23, then three more 2s over the entered checker (23, 21, 19, 17 are open) and
    the two on 8 (6, 4, 2 open):
      k = moves of the entered checker: 3 -> bar/17; 2 -> bar/19 8/6;
      1 -> bar/21 8/4 | bar/21 8/6(2); 0 -> bar/23 8/2 | bar/23 8/6 8/4.
    """
    position = X({25: 1, 8: 2}, {18: 2})
    assert_plays(position, (2, 2), [
        "bar/17", "bar/19 8/6", "bar/21 8/4", "bar/21 8/6(2)", "bar/23 8/2", "bar/23 8/6 8/4",
    ])


def test_bar_checker_blocks_bear_off():
    """
        bar | 24 ... 19 18 ... 3                           roll 6-1
         X  |  .     O2  .     X

    6 cannot enter (19); 1 enters on 24 and the 6 must then be played 24/18 — bearing the
    3 off is not allowed while a checker is outside the home board.
    """
    position = X({25: 1, 3: 1}, {19: 2})
    assert_plays(position, (6, 1), ["bar/18"], notation=True)


# ============================================================================ hitting


def test_hitting_on_the_way_is_a_different_play():
    """
        24  23  22  21  20  19  18 ... 15
         X   .   .   O   .  O3   .      .          roll 6-3

    One checker, 9 pips. Via 21 it hits the blot (24/21*/15); via 18 it does not (24/15).
    Same landing point, different positions: both are listed.
    """
    position = X({24: 1}, {21: 1, 19: 3})
    plays = assert_plays(position, (6, 3), ["24/21*/15", "24/15"], notation=True)
    hit = next(p for p in plays if "*" in p.notation)
    assert hit.result.board[0, 24] == 1  # the blot is on O's bar
    quiet = next(p for p in plays if "*" not in p.notation)
    assert quiet.result.board[0, 24] == 0


def test_hit_on_the_way_to_18():
    """
        24  23  22  21  20  19  18                         roll 4-2
         X   .   O   .   .   .   .

    2 first: 24/22*/18 hits; 4 first: 24/20/18 does not. Both end on 18: two plays.
    """
    position = X({24: 1}, {22: 1, 6: 2})
    assert_plays(position, (4, 2), ["24/22*/18", "24/18"], notation=True)


def test_hits_on_landing_and_on_the_way():
    """
         8   7   6   5   4   3                         roll 2-1
         X   .   X   O   .   .

    By hand (first die, then the second):
      2: 8/6, then 1: 6/5*        -> X on 6,5, O hit
      2: 6/4, then 1: 8/7 or 4/3  -> X on 7,4  |  X on 8,3
      1: 6/5*, then 2: 5/3        -> X on 8,3, O hit (different from 6/4/3)
      (1: 8/7 then 2: 7/5* and 1: 6/5* then 2: 8/6 repeat the first result)
    """
    position = X({8: 1, 6: 1}, {5: 1})
    assert_plays(position, (2, 1), ["8/6 6/5*", "8/7 6/4", "6/4/3", "6/5*/3"])


# ============================================================================ blocks


def test_trapped_behind_a_six_prime():
    """
        24 | 23  22  21  20  19  18 | ...  6   5   4
         X | O2  O2  O2  O2  O2  O2 |      X2  .   .           roll 2-1

    The back checker cannot move at all; the 2-1 is played by the 6s.
    With 6-6 nothing moves (18 is blocked, no bearing off with a checker on 24).
    """
    prime = {p: 2 for p in range(18, 24)}
    position = X({24: 1, 6: 2}, prime)
    assert_plays(position, (2, 1), ["6/3", "6/5 6/4"], notation=True)
    assert legal_plays(position, (6, 6)) == []


def test_every_roll_blocked_for_a_checker_behind_a_full_prime():
    """X on 24 alone, O holds 23..18: no roll moves it."""
    position = X({24: 1}, {p: 2 for p in range(18, 24)})
    for roll in ALL_ROLLS:
        assert legal_plays(position, roll) == [], roll


# ============================================================================ doubles


def test_doubles_are_played_four_times():
    """
        13 ... 24(O2)                                      roll 2-2
        X2

    Four 2s over two checkers: 4+0 -> 13/5, 3+1 -> 13/7 13/11, 2+2 -> 13/9(2).
    """
    position = X({13: 2}, {24: 2})
    plays = assert_plays(position, (2, 2), ["13/5", "13/7 13/11", "13/9(2)"])
    for play in plays:
        assert play.result.pips()[0] == position.pips()[0] - 8


def test_partial_doubles_play_as_many_as_possible():
    """
        13  12  11  10   9   8   7   6   5   4   3   2     roll 2-2
         X   .   .   .   .   .   .   .  O2   X   .  O2

    13/11/9/7 then 7/5 is blocked; 4/2 is blocked: only three 2s can be played.
    """
    position = X({13: 1, 4: 1}, {5: 2, 2: 2})
    assert_plays(position, (2, 2), ["13/7"], notation=True)


# ============================================================================ forced play


def test_larger_die_when_only_one_can_be_played():
    """
        24 ... 22 ... 18 ... 16                            roll 6-2
         X      .      .     O2

    24/18 or 24/22 alone, but 16 is blocked so no checker can use both: play the 6.
    """
    position = X({24: 1}, {16: 2})
    assert_plays(position, (6, 2), ["24/18"], notation=True)
    assert_plays(position, (2, 6), ["24/18"], notation=True)
    with pytest.raises(IllegalMoveError):
        find_play(position, (6, 2), "24/22")


def test_smaller_die_when_the_larger_cannot_be_played():
    """
        24  23 | 22  21  20  19  18  17                    roll 6-1
         X   . | O2  O2  O2  O2  O2  O2

    The 6 is blocked (18), and after 24/23 so is 23/17: the only play is 24/23.
    """
    position = X({24: 1}, {p: 2 for p in range(17, 23)})
    assert_plays(position, (6, 1), ["24/23"], notation=True)


def test_both_dice_must_be_played_when_possible():
    """
        24  23 ... 18  17 ...  3   2                       roll 6-1
         X   .     O2   .      X   .

    3/2 would leave the 6 unplayable (24/18 blocked, no bearing off), so it is not legal:
    the only play using both dice is 24/23/17.
    """
    position = X({24: 1, 3: 1}, {18: 2})
    assert_plays(position, (6, 1), ["24/17"], notation=True)
    with pytest.raises(IllegalMoveError):
        find_play(position, (6, 1), "3/2")


# ============================================================================ bearing off


def test_bear_off_exact_and_with_the_higher_die():
    """
         6   5   4   3   2   1                             roll 6-4
         X   .   X   .   .   .

    6/off and 4/off; or 6/2 with the 4, after which the 6 bears off the 4 (now the highest).
    """
    position = X({6: 1, 4: 1}, {19: 3})
    assert_plays(position, (6, 4), ["6/off 4/off", "6/2 4/off"], notation=True)


def test_die_larger_than_the_highest_point():
    """
         6   5   4   3   2   1                             roll 6-5
         .   .   .   X   X   .

    No checker on 6 or 5: each die bears off from the highest point: 3/off 2/off.
    """
    position = X({3: 1, 2: 1}, {19: 3})
    assert_plays(position, (6, 5), ["3/off 2/off"], notation=True)


def test_higher_checker_must_move_instead_of_bearing_off():
    """
         6   5   4   3   2   1                             roll 3-1
         X   .   .   .   X   .

    The 3 cannot bear off the 2 while the 6 stands above it: the 6 must move.
    3 then 1: 6/3/2 or 6/3 2/1.  1 then 3: 6/5/2 (= 6/2) or 2/1 6/3.
    """
    position = X({6: 1, 2: 1}, {19: 3})
    assert_plays(position, (3, 1), ["6/2", "6/3 2/1"], notation=True)
    with pytest.raises(IllegalMoveError):
        find_play(position, (3, 1), "2/off 6/5")


def test_one_checker_bears_off_with_both_dice():
    """
         6   5   4   3   2   1                             roll 6-2
         .   X   .   .   .   X

    6: 5/off (highest), then 2: 1/off.  Or 2: 5/3, then 6: 3/off (now the highest) — the
    checker on 1 stays. 1/off with the 2 is never allowed while the 5 is there.
    """
    position = X({5: 1, 1: 1}, {19: 3})
    assert_plays(position, (6, 2), ["5/off 1/off", "5/3/off"])


def test_no_bear_off_until_the_last_checker_is_home():
    """
         9   8   7 |  6   5   4   3   2   1                roll 6-2
         X   .   . |  .   .   .   .   X   .

    6 first: 9/3 brings the last checker home, so the 2 may then bear off 2/off, or move 3/1.
    2 first: 9/7 is still outside, so the 6 must be 7/1 (= 9/1). 2/off first is illegal.
    """
    position = X({9: 1, 2: 1}, {24: 2})
    assert_plays(position, (6, 2), ["9/1", "9/3 2/off"], notation=True)


def test_checker_hit_during_bear_off_must_come_around():
    """
        bar | 24  23  22 ... 19 ... 16 ... 13 ...  5   3   1
         X  |  .   .   .     O2      .     O2     X3  X2  O2       roll 6-3

    X was hit while bearing off. The 6 cannot enter (19); the 3 enters on 22 and the 6 must
    move it on to 16 — no checker can be borne off while it is outside.
    """
    position = X({25: 1, 5: 3, 3: 2}, {1: 2, 19: 2, 13: 2})
    assert_plays(position, (6, 3), ["bar/16"], notation=True)


def test_bearing_off_is_not_compulsory():
    """
         6   5   4   3   2   1                             roll 2-1
         .   .   X   X   .   .

    Neither die matches an occupied point and higher checkers exist, so at first each die
    must move a checker inside; a checker that lands on the 2 or 1 may then bear off exactly.
      2 then 1: 4/2 3/2 -> {2,2};  4/2 2/1 -> {3,1};  3/1 4/3 -> {3,1};  3/1 1/off -> {4}
      1 then 2: 4/3 3/1 -> {3,1};  3/2 4/2 -> {2,2};  3/2 2/off -> {4}
    Three results; the two that bear nothing off are legal too.
    """
    position = X({4: 1, 3: 1}, {19: 3})
    assert_plays(position, (2, 1), ["4/2 3/2", "4/1", "3/off"])


# ============================================================================ gnubg cases

# shared/movegen-cases.md: Position ID, roll, every legal play as GNU Backgammon 1.07 lists it.
GNUBG_CASES = [
    ("9k0SARIBAAAAAA", "65", ["1/off"]),
    ("1EhpSxABAAAAAA", "32", ["1/off"]),
    ("E1SCCXUQAAAAAA", "63", ["5/2*/off"]),
    ("0c2xAAAEAAAAAA", "63", ["5/off"]),
    ("raUKAGipagQcCA", "43", ["bar/22* 6/2", "bar/22* 9/5", "bar/22* 8/4", "bar/22* 19/15*",
                              "bar/22*/18*", "bar/22* 12/8", "bar/22* 5/1", "bar/22* 7/3"]),
    ("rbqaAQBqMxgABA", "64", ["bar/21*/15", "bar/21* 12/6", "bar/21* 7/1"]),
    ("hnVpAEBTtwggDA", "65", ["bar/20"]),
    ("j6MEACQxWssABg", "21", ["bar/23"]),
    ("CEkr4mRDAQAAAA", "52", ["6/1 5/3"]),
    ("2lclSABhAQAAAA", "52", ["6/4 5/off", "5/3 5/off", "6/1 5/3"]),
    ("KdW2AEDjkAUAAQ", "52", ["bar/18*", "bar/23 9/4", "bar/23 12/7", "bar/20 11/9",
                              "bar/20 9/7", "bar/23 11/6", "bar/20 12/10", "bar/20 5/3"]),
    ("OdSrAYA1ZfQAIA", "65", ["bar/14*", "bar/20 11/5", "bar/20 12/6", "bar/20 8/2",
                              "bar/19 11/6", "bar/19 12/7", "bar/19 6/1", "bar/19 8/3"]),
]


@pytest.mark.parametrize("position_id,roll,gnubg_plays", GNUBG_CASES,
                         ids=[f"{p}-{r}" for p, r, _ in GNUBG_CASES])
def test_gnubg_regression_cases(position_id, roll, gnubg_plays):
    position = Position.from_id(position_id)
    dice = (int(roll[0]), int(roll[1]))
    plays = assert_plays(position, dice, gnubg_plays, notation=True)
    for text in gnubg_plays:  # find_play accepts gnubg's text and finds the same result
        found = find_play(position, dice, text)
        assert found.notation == text
    # the roll in the other order is the same roll
    swapped = {p.result.board.tobytes() for p in legal_plays(position, dice[::-1])}
    assert swapped == {p.result.board.tobytes() for p in plays}


# ============================================================================ opening


def test_opening_65():
    """
        24  ...  19  18  17 ...  13  12 ...   8   7   6 ...   3   2   1
        X2       O5   .  O3      X5  O5      X3   .  X5       .   .  O2     roll 6-5

    6s: 24/18, 13/7, 8/2 (6/off is not allowed).  5s: 13/8, 8/3 (24/19 and 6/1 blocked).
    One checker: 24/18/13 = 24/13, 13/7/2 = 13/2.  Two checkers: every 6 with every 5, where
    8/2 13/8 lands exactly like 13/2. Seven distinct plays.
    """
    start = Position.start()
    expected = ["24/13", "13/2", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "8/3 8/2"]
    assert_plays(start, (6, 5), expected, notation=True)
    assert_plays(start, (5, 6), expected, notation=True)


def test_every_opening_roll_moves_exactly_the_dice():
    start = Position.start()
    for d1, d2 in itertools.combinations(range(1, 7), 2):
        plays = legal_plays(start, (d1, d2))
        assert plays
        assert {p.notation for p in plays} == {p.notation for p in legal_plays(start, (d2, d1))}
        assert all(p.result.pips() == (167 - d1 - d2, 167) for p in plays)
    assert len(legal_plays(start, (3, 1))) == 16


def test_notation_does_not_depend_on_step_order():
    """gnubg sorts a play's steps (highest source first) before joining one checker's steps
    into a path, so 5-1 played 8/7 then 13/8 is written 13/7, like 13/8 then 8/7."""
    from bgcli.notation.moves import format_move

    board = Position.start().board
    assert format_move(board, [(13, 8), (8, 7)]) == "13/7"
    assert format_move(board, [(8, 7), (13, 8)]) == "13/7"
    assert format_move(board, [(6, 5), (24, 18), (13, 7), (24, 18)]) == "24/18(2) 13/7 6/5"
    assert {p.notation for p in legal_plays(Position.start(), (1, 5))} == \
        {p.notation for p in legal_plays(Position.start(), (5, 1))}
    # a hit on the way is kept whatever the order: X 24, O blot on X's 21
    position = X({24: 1}, {21: 1, 19: 3})
    assert format_move(position.board, [(21, 15), (24, 21)]) == "24/21*/15"
