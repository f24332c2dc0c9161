"""gnubg Position IDs, Match IDs and XGIDs against pairs produced by GNU Backgammon itself
(tests/fixtures/match_ids.jsonl, xgids.jsonl, bad_ids.jsonl; see tests/fixtures/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bgcli.errors import ParseError
from bgcli.notation.detect import Situation, parse_situation
from bgcli.notation.gnubgid import (
    CENTERED,
    GameState,
    MatchState,
    format_match_id,
    format_position_id,
    parse_match_id,
    parse_position_id,
)
from bgcli.notation.xgid import format_xgid, parse_xgid
from bgcli.position import Position

FIXTURES = Path(__file__).parent / "fixtures"


def _load(name):
    with open(FIXTURES / name) as stream:
        return [json.loads(line) for line in stream if line.strip()]


MATCH_ROWS = _load("match_ids.jsonl")
XGID_ROWS = _load("xgids.jsonl")
BAD_ROWS = _load("bad_ids.jsonl")


def _expected_state(fields: dict) -> dict:
    """gnubg's view of a match state, in MatchState's terms."""
    owner = fields["cube_owner"]
    return {
        "cube_value": fields["cube_value"],
        "cube_owner": CENTERED if owner == -1 else owner,
        "player_on_roll": fields["player_on_roll"],
        "crawford": bool(fields["crawford"]),
        "game_state": GameState(fields["game_state"]),
        "turn": fields["turn"],
        "double_offered": bool(fields["double_offered"]),
        "resignation": fields["resignation"],
        "dice": tuple(sorted((fields["die1"], fields["die2"]))),
        "match_length": fields["match_length"],
        "score": (fields["score0"], fields["score1"]),
    }


def _actual_state(state: MatchState) -> dict:
    return {
        "cube_value": state.cube_value,
        "cube_owner": state.cube_owner,
        "player_on_roll": state.player_on_roll,
        "crawford": state.crawford,
        "game_state": state.game_state,
        "turn": state.turn,
        "double_offered": state.double_offered,
        "resignation": state.resignation,
        "dice": tuple(sorted(state.dice)),
        "match_length": state.match_length,
        "score": state.score,
    }


def _board(row) -> np.ndarray:
    return np.array([row["board"]["opponent"], row["board"]["on_roll"]], dtype=np.int8)


EMPTY_BOARD = "AAAAAAAAAAAAAA"  # gnubg's board when no game is in progress


@pytest.mark.parametrize(
    "row", [r for r in MATCH_ROWS + XGID_ROWS if r["position_id"] != EMPTY_BOARD],
    ids=lambda r: r["position_id"],
)
def test_position_id_matches_gnubg(row):
    position = parse_position_id(row["position_id"])
    assert np.array_equal(position.board, _board(row))
    assert format_position_id(position) == row["position_id"]


@pytest.mark.parametrize("row", MATCH_ROWS, ids=lambda r: r["match_id"])
def test_match_id_fields_match_gnubg(row):
    state = parse_match_id(row["match_id"])
    assert _actual_state(state) == _expected_state(row["fields"])
    if row["fields"]["match_length"] == 0:
        assert state.jacoby == bool(row["fields"]["jacoby"])
    assert format_match_id(state) == row["match_id"]


# gnubg reads an empty board; we refuse it as impossible (test_empty_board_is_...)
XGID_ROWS = [r for r in XGID_ROWS if not r["xgid"].startswith("XGID=" + "-" * 26)]


def _gnubg_guesses(row) -> bool:
    """gnubg reads a cube position outside -1..1 as centred and a turn other than 1 as -1."""
    fields = row["xgid"].split(":")
    return fields[2] not in ("-1", "0", "1") or fields[3] not in ("-1", "1")


GUESSED_ROWS = [r for r in XGID_ROWS if _gnubg_guesses(r)]
XGID_ROWS = [r for r in XGID_ROWS if not _gnubg_guesses(r)]


def test_fixture_holds_xgids_that_gnubg_guesses_at():
    assert len(GUESSED_ROWS) >= 2


@pytest.mark.parametrize("row", GUESSED_ROWS, ids=lambda r: r["xgid"])
def test_xgid_fields_gnubg_guesses_at_are_refused(row):
    with pytest.raises(ParseError, match="cube position|turn"):
        parse_xgid(row["xgid"])


@pytest.mark.parametrize("xgid, problem", [
    ("XGID=-b----E-C---eE---c-e----B-:0:5:1:00:0:0:0:0:10", "cube position must be one of"),
    ("XGID=-b----E-C---eE---c-e----B-:0:-2:1:00:0:0:0:0:10", "cube position must be one of"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn must be one of"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10", "turn must be one of"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:\uff17:10", "match length must be an integer"),
])
def test_xgid_out_of_range_fields_are_refused(xgid, problem):
    with pytest.raises(ParseError, match=problem):
        parse_xgid(xgid)


@pytest.mark.parametrize("row", XGID_ROWS, ids=lambda r: r["xgid"])
def test_xgid_reads_as_gnubg_reads_it(row):
    situation = parse_xgid(row["xgid"])
    assert situation.position_id == row["position_id"]
    assert _actual_state(situation.match) | {"turn": None, "double_offered": None} == (
        _expected_state(row["fields"]) | {"turn": None, "double_offered": None}
    )
    if row["fields"]["match_length"] == 0:
        assert situation.match.jacoby == bool(row["fields"]["jacoby"])
    if not situation.match.double_offered:
        # gnubg 1.07 drops a pending double when it imports an XGID; we keep it
        assert situation.match_id == row["match_id"]


@pytest.mark.parametrize("row", XGID_ROWS, ids=lambda r: r["xgid"])
def test_xgid_round_trip(row):
    situation = parse_xgid(row["xgid"])
    again = parse_xgid(format_xgid(situation))
    assert again == situation
    # the gnubg IDs carry the same information: XGID -> gnubg -> XGID is stable
    via_gnubg = parse_situation(situation.gnubg_id)
    assert via_gnubg.xgid == situation.xgid


def test_start_position_xgid_is_the_well_known_one():
    start = Situation(Position.start())
    assert start.xgid == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert start.gnubg_id == "4HPwATDgc/ABMA:cAkAAAAAAAAE"


def test_empty_board_is_reported_as_impossible():
    with pytest.raises(ParseError, match="both sides have borne off"):
        parse_position_id(EMPTY_BOARD)
    with pytest.raises(ParseError, match="both sides have borne off"):
        parse_xgid("XGID=" + "-" * 26 + ":0:0:1:00:0:0:0:0:10")


def test_jacoby_bit_is_the_67th():
    assert parse_match_id("cAkAAAAAAAAA").jacoby is True
    assert parse_match_id("cAkAAAAAAAAE").jacoby is False


REJECTED = [r for r in BAD_ROWS if r["outcome"] in ("rejected", "crash")]


@pytest.mark.parametrize("row", REJECTED, ids=lambda r: r["input"])
def test_what_gnubg_rejects_we_reject(row):
    with pytest.raises(ParseError):
        parse_situation(row["input"])


@pytest.mark.parametrize("row", BAD_ROWS, ids=lambda r: r["input"])
def test_questionable_ids_never_crash(row):
    try:
        parse_situation(row["input"])
    except ParseError as error:
        assert repr(row["input"].strip())[:20].strip("'")[:10] in str(error) or str(error)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/AB!A", "may only contain"),
        ("//////////////", "more than 15 checkers"),
        (format_position_id(Position.from_points({6: 1}, {19: 1})), "held by both sides"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAA", "14 and 12"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:x:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:3:0:10", "beaver"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:07:0:0:0:0:10", "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:5:10", "5-point match"),
        ("hello", "not a position"),
    ],
)
def test_errors_say_what_is_wrong(text, problem):
    with pytest.raises(ParseError, match=problem) as caught:
        parse_situation(text)
    assert text.strip() in str(caught.value)
