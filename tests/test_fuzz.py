"""Property tests of the notation parsers.

Whatever text comes in, a parser either returns a value or raises a ``BgcliError`` (never
``IndexError``, ``KeyError``, a bare ``ValueError`` ...), and whatever parses survives a trip
through its formatter. Random legal boards survive the Position ID and the XGID.
"""

from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from bgcli.errors import BgcliError, ParseError
from bgcli.notation.detect import Situation, parse_situation
from bgcli.notation.dice import Dice, parse_dice
from bgcli.notation.gnubgid import (
    CENTERED,
    GameState,
    MatchState,
    format_match_id,
    format_position_id,
    parse_match_id,
    parse_position_id,
)
from bgcli.notation.moves import Segment, parse_move, point_name
from bgcli.notation.xgid import format_xgid, parse_xgid
from bgcli.position import Position, Status

BASE64 = string.ascii_letters + string.digits + "+/"
PARSERS = [parse_position_id, parse_match_id, parse_xgid, parse_situation, parse_dice,
           parse_move]

VALID_XGIDS = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-A--------BB---B-AaC-AAB--:2:0:-1:35:0:0:0:1:12",
    "XGID=a----e---------bcab--Aa---:3:-1:-1:00:0:0:0:1:10",
    "XGID=-b----E-C---eE---c-e----B-:6:0:-1:21:4:1:0:5:6",
    "XGID=--BBBBB-----------bbbbbb--:0:0:1:D:0:0:1:0:10",
]
XGID_ALPHABET = "-ABCDEFGHIJKLMNOPQabcdefghijklmnopq0123456789:=*XGIDxgid +/"

fuzz = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse_or_none(parser, text):
    """The parsed value, or None when the parser raised one of bgcli's own errors."""
    try:
        return parser(text)
    except BgcliError as exc:
        assert isinstance(exc, ParseError), f"{parser.__name__} raised {exc!r}"
        assert str(exc), "error messages must not be empty"
        return None


# ----------------------------------------------------------------------------- never crash


@pytest.mark.parametrize("parser", PARSERS, ids=lambda p: p.__name__)
@fuzz
@given(text=st.text())
def test_random_text_only_raises_parse_errors(parser, text):
    _parse_or_none(parser, text)


@pytest.mark.parametrize("parser", [parse_situation, parse_xgid], ids=lambda p: p.__name__)
@fuzz
@given(text=st.text(alphabet=XGID_ALPHABET, max_size=80))
def test_xgid_like_text_only_raises_parse_errors(parser, text):
    _parse_or_none(parser, text)


@fuzz
@given(position=st.text(alphabet=BASE64 + " :", max_size=18),
       match=st.one_of(st.none(), st.text(alphabet=BASE64 + " :\n", max_size=16)),
       prefix=st.sampled_from(["", "GNU Backgammon  ", "gnubg id ", " "]),
       gap=st.sampled_from([" ", "\n                 ", "  "]))
@example(position="4HPwATDgc/ABMA", match="cAkAAAAAAAAE", prefix="", gap=" ")
def test_pasted_gnubg_text_only_raises_parse_errors(position, match, prefix, gap):
    # gnubg's "Position ID: ... Match ID: ..." and two IDs as two words, near misses included
    texts = [f"{prefix}Position ID: {position}"
             + ("" if match is None else f"{gap}Match ID   : {match}"),
             f"{position}{gap}{match or ''}"]
    for text in texts:
        situation = _parse_or_none(parse_situation, text)
        if situation is not None:
            assert parse_situation(situation.gnubg_id) == situation


@st.composite
def near_miss_xgids(draw):
    """A valid XGID with 1..4 characters replaced, deleted or inserted."""
    chars = list(draw(st.sampled_from(VALID_XGIDS)))
    for _ in range(draw(st.integers(1, 4))):
        operation = draw(st.sampled_from(["replace", "delete", "insert"]))
        index = draw(st.integers(0, len(chars) - 1))
        if operation == "replace":
            chars[index] = draw(st.sampled_from(XGID_ALPHABET))
        elif operation == "delete":
            del chars[index]
        else:
            chars.insert(index, draw(st.sampled_from(XGID_ALPHABET)))
    return "".join(chars)


@st.composite
def field_mutated_xgids(draw):
    """A valid XGID with one of its ten fields replaced by a random small integer or word."""
    fields = draw(st.sampled_from(VALID_XGIDS)).split(":")
    index = draw(st.integers(1, 9))
    fields[index] = draw(st.one_of(st.integers(-100000, 100000).map(str),
                                   st.sampled_from(["", "x", "D", "B", "R", "00", "66", "70",
                                                    "-0", "+1", " 1", "1.5"])))
    return ":".join(fields)


@fuzz
@given(text=st.one_of(near_miss_xgids(), field_mutated_xgids()))
def test_near_miss_xgids(text):
    for parser in (parse_xgid, parse_situation):
        situation = _parse_or_none(parser, text)
        if situation is None:
            continue
        assert situation.position.status() == Status.VALID
        assert parse_xgid(format_xgid(situation)) == situation


@fuzz
@given(text=st.text(alphabet=BASE64, min_size=14, max_size=14))
@example("4HPwATDgc/ABMA")
@example("AAAAAAAAAAAAAA")  # both sides finished: impossible
@example("//////////////")  # 80 checkers
def test_position_id_round_trip(text):
    position = _parse_or_none(parse_position_id, text)
    if position is None:
        return
    assert position.status() == Status.VALID
    assert position.board.sum(axis=1).max() <= 15
    again = format_position_id(position)
    assert len(again) == 14
    assert parse_position_id(again) == position
    assert format_position_id(parse_position_id(again)) == again
    assert parse_situation(text).position == position


@fuzz
@given(text=st.text(alphabet=BASE64, min_size=12, max_size=12))
@example("cAkAAAAAAAAE")
@example("AAAAAAAAAAAA")
@example("////////////")
def test_match_id_round_trip(text):
    state = _parse_or_none(parse_match_id, text)
    if state is None:
        return
    assert state.problems() == []
    assert 1 <= state.cube_value <= 2**15
    again = format_match_id(state)
    assert len(again) == 12
    assert parse_match_id(again) == state
    situation = parse_situation(f"4HPwATDgc/ABMA:{text}")
    assert situation.match == state


@fuzz
@given(text=st.one_of(st.text(max_size=8),
                      st.text(alphabet="0123456789 -,/x", max_size=6)))
@example("3-1")
@example("6 6")
@example("00")
def test_dice_round_trip(text):
    dice = _parse_or_none(parse_dice, text)
    if dice is None:
        return
    assert isinstance(dice, Dice)
    assert 1 <= dice.die1 <= 6 and 1 <= dice.die2 <= 6
    assert parse_dice(str(dice)) == dice


def _segment_text(segment: Segment) -> str:
    parts = [point_name(segment.points[0])]
    for point, hit in zip(segment.points[1:], segment.hits):
        parts.append(point_name(point) + ("*" if hit else ""))
    return "/".join(parts)


MOVE_ALPHABET = "0123456789/*() barofBAROF,"


@fuzz
@given(text=st.one_of(st.text(alphabet=MOVE_ALPHABET, max_size=24),
                      st.lists(st.tuples(st.integers(0, 26), st.integers(-1, 26),
                                         st.booleans(), st.integers(0, 5)),
                               min_size=1, max_size=4).map(
                          lambda parts: " ".join(
                              f"{a}/{'off' if b == -1 else b}{'*' if h else ''}"
                              + (f"({n})" if n != 1 else "") for a, b, h, n in parts))))
@example("8/5(2) 6/5")
@example("bar/22*/18*")
@example("6/off 5/off")
def test_move_round_trip(text):
    segments = _parse_or_none(parse_move, text)
    if segments is None:
        return
    assert 1 <= len(segments) <= 16
    for segment in segments:
        points = segment.points
        assert len(segment.hits) == len(points) - 1
        assert all(a > b for a, b in zip(points, points[1:]))  # always forward
        assert all(1 <= p <= 25 for p in points[:-1]) and 0 <= points[-1] <= 25
    rewritten = " ".join(_segment_text(s) for s in segments)
    assert parse_move(rewritten) == segments


# ----------------------------------------------------------------------------- random boards


@st.composite
def positions(draw):
    """A legal board: up to 15 checkers a side, no point held by both, not both finished."""
    board = np.zeros((2, 25), dtype=np.int8)
    for side in (1, 0):
        for index in draw(st.lists(st.integers(0, 24), max_size=15)):
            # my index i (point i+1) faces the opponent's index 23 - i
            facing = 23 - index
            if index < 24 and board[1 - side, facing] > 0:
                continue  # the other side holds it: this checker counts as borne off
            board[side, index] += 1
    assume(board.sum() > 0)
    return Position(board)


@st.composite
def match_states(draw):
    """Match states an XGID can express (game being played, no resignation pending)."""
    match_length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 25, 64]))
    cube_log2 = draw(st.integers(0, 12))
    player = draw(st.integers(0, 1))
    double_offered = draw(st.booleans())
    dice = (0, 0) if double_offered else draw(
        st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))))
    if match_length:
        score = (draw(st.integers(0, match_length - 1)), draw(st.integers(0, match_length - 1)))
        crawford = match_length - 1 in score and draw(st.booleans())
        jacoby = False
    else:
        score = (0, 0)
        crawford = False
        jacoby = draw(st.booleans())
    return MatchState(
        cube_value=1 << cube_log2,
        cube_owner=draw(st.sampled_from([0, 1, CENTERED])),
        player_on_roll=player,
        crawford=crawford,
        game_state=GameState.PLAYING,
        turn=1 - player if double_offered else player,
        double_offered=double_offered,
        dice=dice,
        match_length=match_length,
        score=score,
        jacoby=jacoby,
    )


@settings(max_examples=200, deadline=None)
@given(position=positions())
def test_random_positions_round_trip_position_id(position):
    assert position.status() == Status.VALID
    text = format_position_id(position)
    assert len(text) == 14 and set(text) <= set(BASE64)
    assert parse_position_id(text) == position
    assert Position.from_id(text).pips() == position.pips()
    assert parse_position_id(format_position_id(position.swapped())) == position.swapped()


@settings(max_examples=200, deadline=None)
@given(position=positions(), state=match_states())
def test_random_situations_round_trip_xgid_and_gnubg_id(position, state):
    situation = Situation(position, state)
    xgid = format_xgid(situation)
    assert xgid.startswith("XGID=") and xgid.count(":") == 9
    assert parse_xgid(xgid) == situation
    assert parse_situation(xgid) == situation
    gnubg_id = situation.gnubg_id
    assert parse_situation(gnubg_id) == situation
    # and across: XGID -> gnubg ID -> XGID
    assert parse_situation(parse_situation(xgid).gnubg_id).xgid == xgid


def test_positions_strategy_reaches_bar_and_borne_off():
    """The board strategy is not degenerate: it does reach the bar and near-empty sides."""
    seen_bar = seen_empty = False

    @settings(max_examples=100, deadline=None, database=None)
    @given(position=positions())
    def collect(position):
        nonlocal seen_bar, seen_empty
        seen_bar |= bool(position.board[:, 24].any())
        seen_empty |= bool((position.board.sum(axis=1) == 0).any())

    collect()
    assert seen_bar and seen_empty


# ----------------------------------------------------------------------------- field ranges
# Scores outside the Match ID's 15-bit fields were once accepted and silently wrapped
# (-3 became 32765, 99999 became 1695); they are refused now.


@pytest.mark.parametrize("xgid", [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-3:0:0:0:10",  # money game
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:-1:0:5:10",  # 5-point match
])
def test_xgid_negative_score_is_rejected(xgid):
    with pytest.raises(ParseError):
        parse_situation(xgid)


def test_xgid_money_score_out_of_match_id_range_is_rejected_or_converted_faithfully():
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:99999:0:0:0:10"
    try:
        situation = parse_situation(xgid)
    except ParseError:
        return
    assert parse_situation(situation.gnubg_id) == situation


def test_xgid_match_length_is_limited_to_what_gnubg_accepts():
    with pytest.raises(ParseError, match="match length"):
        parse_situation("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:40000:10")


@pytest.mark.parametrize("cube_log2", [12, 13, 15])
def test_big_cube_match_id_converts_to_a_readable_xgid(cube_log2):
    match_id = format_match_id(MatchState(cube_value=2**cube_log2))
    try:
        situation = parse_situation(f"4HPwATDgc/ABMA:{match_id}")
    except ParseError:
        return  # refusing a cube gnubg refuses is fine too
    assert parse_situation(situation.xgid) == situation
