"""Match files (.mat, .sgf) read and replayed through the rules engine, checked against what
gnubg 1.07 says of the same matches (tests/fixtures/matches/, see its README)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bgcli.errors import CollectionError
from bgcli.matchfile import detect_format, parse_match, read_match
from bgcli.notation.gnubgid import format_match_id
from cli_helpers import run

FIXTURES = Path(__file__).parent / "fixtures" / "matches"
MATCHES = sorted(p.name[:-len(".gnubg.json")] for p in FIXTURES.glob("*.gnubg.json"))
DECISIONS = ("move", "double", "take", "drop")


def gnubg_view(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.gnubg.json").read_text())


def test_there_are_fixtures_of_every_kind():
    lengths = {gnubg_view(name)["match_info"]["match-length"] for name in MATCHES}
    assert {0, 1, 3, 5, 7, 11} <= lengths


@pytest.mark.parametrize("suffix", [".mat", ".sgf"])
@pytest.mark.parametrize("name", MATCHES)
def test_every_decision_is_where_gnubg_says(name, suffix):
    """Each decision's Position ID and Match ID (before the roll) are gnubg's own, read
    with gnubg's navigation through the same match."""
    match = read_match(FIXTURES / f"{name}{suffix}")
    assert match.problems == []
    view = gnubg_view(name)
    assert len(match.games) == len(view["games"])
    compared = 0
    for game, theirs in zip(match.games, view["games"]):
        records = [r for r in theirs["records"] if r["action"] in DECISIONS]
        assert len(game.decisions) == len(records)
        assert (game.winner, game.points, game.resigned) == (
            "XO".index(theirs["info"]["winner"]), theirs["info"]["points-won"],
            theirs["info"]["resigned"])
        for decision, record in zip(game.decisions, records):
            assert decision.player == record["player"]
            action = "take" if record["action"] in ("take", "drop") else record["action"]
            assert decision.kind == action
            if record["action"] == "move":
                assert tuple(sorted(decision.dice, reverse=True)) == tuple(
                    sorted(record["dice"], reverse=True))
            shown = record["shown"] or [record["position_id"], None]
            assert decision.situation.position_id == shown[0]
            if shown[1] is not None:
                before_roll = replace(decision.situation.match, dice=(0, 0))
                assert format_match_id(before_roll) == shown[1]
                compared += 1
    assert compared > 0


@pytest.mark.parametrize("name", MATCHES)
def test_mat_and_sgf_give_the_same_decisions(name):
    mat, sgf = read_match(FIXTURES / f"{name}.mat"), read_match(FIXTURES / f"{name}.sgf")
    assert mat.names == sgf.names and mat.length == sgf.length
    assert [(d.situation.gnubg_id, d.action) for d in mat.decisions] == [
        (d.situation.gnubg_id, d.action) for d in sgf.decisions]
    assert [g.crawford for g in mat.games] == [g.crawford for g in sgf.games]


def test_the_fixtures_hold_resignations_crawford_games_and_a_money_session():
    games = [g for name in MATCHES for g in read_match(FIXTURES / f"{name}.mat").games]
    assert any(g.resigned for g in games)
    assert any(g.crawford for g in games)
    money = read_match(FIXTURES / "money.mat")
    assert money.length == 0 and money.names == ("Alice Smith", "Bob")  # gnubg quotes them


MAT = """\
; [Site "hand made"]
 3 point match

 Game 1
 Alice Smith : 0                Bob van der Berg : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 62: 13/7* 13/11             43: bar/21 13/10
  3)  Doubles => 2               Takes
  4) 66: 13/7(2) 8/2(2)          21: 13/10
"""


def test_names_with_spaces_and_move_styles():
    match = parse_match(MAT + "                                 Drops\n", "hand.mat")
    assert match.names == ("Alice Smith", "Bob van der Berg")
    assert match.problems == [
        "hand.mat:10: 'drop' without a double"]  # the drop comes with no double
    game = match.games[0]
    plays = [d.action for d in game.decisions if d.kind == "move"]
    assert plays[:3] == ["8/5 6/5", "24/18 13/9", "13/11 13/7*"]
    assert plays[4] == "13/7(2) 8/2(2)"
    assert [d.kind for d in game.decisions].count("double") == 1


def test_a_resignation_ends_the_game_and_the_next_score_is_checked():
    text = MAT + "                                 Wins 2 points\n\n Game 2\n Alice Smith : 0" \
                 "                Bob van der Berg : 2\n  1) 31: 8/5 6/5\n"
    match = parse_match(text, "hand.mat")
    first, second = match.games
    assert (first.winner, first.points, first.resigned) == (1, 2, True)
    assert second.crawford  # Bob is 1-away for the first time
    assert match.problems == ["hand.mat:14: the game ends without a result (a truncated file?)"]


def test_an_illegal_move_is_reported_and_the_rest_is_read():
    bad = MAT.replace("62: 13/7* 13/11", "62: 13/4") + "                                 Wins 2 points\n"
    text = bad + "\n Game 2\n Alice Smith : 0   Bob van der Berg : 2\n" \
                 "  1) 31: 8/5 6/5                 Drops\n"
    match = parse_match(text, "hand.mat")
    assert len(match.problems) == 2
    assert match.problems[0].startswith("hand.mat:7: '13/4' is not a legal play of 62")
    assert len(match.games[0].decisions) == 2  # the decisions before the fault are kept
    assert match.games[1].decisions and "hand.mat:14:" in match.problems[1]


def test_a_move_left_out_when_the_roll_can_be_played_is_an_error():
    match = parse_match(MAT.replace("64: 24/18 13/9", "64:"), "hand.mat")
    assert match.problems[0].startswith("hand.mat:6: no move written for 64")


def test_a_truncated_sgf_is_reported(tmp_path):
    text = (FIXTURES / "match5.sgf").read_text()
    path = tmp_path / "cut.sgf"
    path.write_text(text[:len(text) // 2])
    match = read_match(path)
    assert match.problems and all(p.startswith(f"{path}:") for p in match.problems)
    assert match.games[0].decisions


def test_format_is_told_by_content_not_name(tmp_path):
    assert detect_format((FIXTURES / "match3.sgf").read_text()) == "sgf"
    assert detect_format((FIXTURES / "match3.mat").read_text()) == "mat"
    path = tmp_path / "match.txt"
    path.write_text((FIXTURES / "match3.sgf").read_text())
    assert read_match(path).format == "sgf"
    with pytest.raises(CollectionError, match="not a match file"):
        parse_match("4HPwATDgc/ABMA\n", "x.txt")
    with pytest.raises(CollectionError, match="cannot read match file"):
        read_match(tmp_path / "missing.mat")


SERVER_STYLE = (  # the styles other programs and servers write: CRLF, bar/off words, 'and the match'
    "; [Site \"a server\"]\r\n; [Jacoby \"On\"]\r\n\r\n 0 point match\r\n\r\n Game 1\r\n"
    " Ann Lee : 0                  Zoë : 0\r\n"
    "  1) 31: 8/5 6/5                 64: 24/18 13/9\r\n"
    "  2) 62: 13/7* 13/11             43: bar/21 13/10\r\n"
    "  3) 54:                         Wins 1 point\r\n")


def test_the_styles_servers_write():
    match = parse_match(SERVER_STYLE.replace("54:   ", "54: 13/8 8/4*"), "server.mat")
    assert match.names == ("Ann Lee", "Zoë") and match.length == 0 and match.jacoby
    assert match.problems == []
    game = match.games[0]
    assert (game.winner, game.points, game.resigned) == (1, 1, True)
    assert all(d.situation.match.jacoby for d in game.decisions)
    assert game.decisions[-1].play.result.board[0][24] == 1  # the hit


def test_latin1_files_and_beavers(tmp_path):
    path = tmp_path / "old.mat"
    path.write_bytes(SERVER_STYLE.replace("54:   ", "54: 13/8 8/4*").encode("latin-1"))
    assert read_match(path).names == ("Ann Lee", "Zoë")
    beaver = MAT + "  5)  Doubles => 4                Beavers => 8\n"
    match = parse_match(beaver, "b.mat")
    assert match.problems == ["b.mat:10: beavers are not supported (bgcli reads beaver-free "
                              "sessions)"]


def test_the_match_winning_line():
    text = MAT.replace("  4) 66: 13/7(2) 8/2(2)          21: 13/10\n",
                       "  4)                             Wins 2 points and the match\n")
    match = parse_match(text, "w.mat")
    assert match.problems == [] and match.games[0].winner == 1


def test_a_file_without_games_is_reported():
    assert parse_match(" 5 point match\n", "empty.mat").problems == [
        "empty.mat:1: no game in this file"]


def test_what_xg_and_other_programs_write_instead():
    """The variants gnubg 1.07's importer reads (its import.c): 'Cannot Move' for a roll that
    cannot be played, 'Doubles' without the cube, 'Take' / 'Drop', a rating after a name."""
    text = MAT.replace("Alice Smith : 0", "Alice Smith, 1612.5 : 0").replace(
        "Bob van der Berg : 0", "Bob van der Berg, 1480 : 0").replace(
        "Doubles => 2               Takes", "Double                      Take").replace(
        "21: 13/10", "Doubles") + "  5) Drop\n"
    match = parse_match(text, "xg.mat")
    assert match.problems == []
    assert match.names == ("Alice Smith", "Bob van der Berg")
    game = match.games[0]
    assert [(d.player, d.action) for d in game.decisions if d.kind == "take"] == [
        (1, "take"), (0, "drop")]
    assert (game.winner, game.points, game.resigned) == (1, 2, False)
    # match7's player 0 dances with 61 on its line 13: written 'Cannot Move', the same match
    original = (FIXTURES / "match7.mat").read_text()
    dance = "  7) 61:                         62:"
    assert dance in original
    xg = parse_match(original.replace(dance, "  7) 61: Cannot Move             62:"), "m.mat")
    assert xg.problems == []
    assert [(d.situation.gnubg_id, d.action) for d in xg.decisions] == [
        (d.situation.gnubg_id, d.action) for d in read_match(FIXTURES / "match7.mat").decisions]
    # 'Cannot Move' is checked like an empty move: a roll that can be played is an error
    bad = parse_match(MAT.replace("64: 24/18 13/9", "64: Cannot Move"), "xg.mat")
    assert bad.problems[0].startswith("xg.mat:6: no move written for 64")


def test_a_resignation_after_rolling():
    """XG writes '???' after a roll its player resigned on: the roll has plays, no move is
    written and the opponent's 'Wins' follows. No decision is made of that roll."""
    text = MAT + "  5) 52: ???                     Wins 2 points\n"
    match = parse_match(text, "xg.mat")
    assert match.problems == []
    game = match.games[0]
    assert (game.winner, game.points, game.resigned) == (1, 2, True)
    assert game.decisions[-1].action == "13/10"  # Bob's 21 stays the last decision
    # without the opponent's 'Wins' next, a roll with plays and no move is still an error
    cut = parse_match(MAT + "  5) 52: ???                     21: 24/23 6/5\n", "xg.mat")
    assert cut.problems[0].startswith("xg.mat:10: no move written for 52")


def test_resigns_lines_and_one_action_in_a_narrow_right_column():
    """'Resigns' changes nothing until 'Wins'; an action alone on its line belongs to the
    right column when it follows the first double space from the 16th column (gnubg's rule),
    however narrow the left column."""
    narrow = (" 3 point match\n\n Game 1\n Ann : 0   Bo : 0\n"
              "  1)                 64: 24/18 13/9\n"
              "  2) 31: 8/5 6/5     Resigns\n"
              "  3)                 Wins 1 point\n")
    match = parse_match(narrow, "narrow.mat")
    assert match.problems == []
    game = match.games[0]
    assert [d.player for d in game.decisions] == [1, 0]
    assert (game.winner, game.points, game.resigned) == (1, 1, True)


def test_snowie_illegal_plays_and_set_positions_are_refused():
    illegal = MAT.replace("64: 24/18 13/9", "64: Illegal play (4HPwATDgc/ABMA)")
    assert parse_match(illegal, "s.mat").problems == [
        "s.mat:6: Snowie's 'Illegal play' records are not supported"]
    set_pos = MAT.replace("  1) 31:", "; Set Pos=-b----E-C---eE---c-e----B-/0\n  1) 31:")
    assert parse_match(set_pos, "s.mat").problems == [
        "s.mat:6: a game from a set position (XG's '; Set Pos=') is not supported"]


def test_lengths_and_scores_out_of_range_are_reported_not_raised(tmp_path):
    """A match longer than gnubg's 64 points, a score that leaves nothing to play for, and a
    session score beyond a Match ID's 15 bits are each a FILE:LINE problem; the other games
    of the file are still read."""
    long = parse_match(MAT.replace(" 3 point match", " 99999999999999999999 point match"), "l.mat")
    assert long.problems == ["l.mat:2: a 99999999999999999999-point match: matches of at most "
                             "64 points are read (gnubg's limit)"]
    assert not long.games
    game2 = "\n Game 2\n Alice Smith : 0   Bob van der Berg : 2\n  1) 31: 8/5 6/5   Drops\n"
    over = MAT.replace("Alice Smith : 0    ", "Alice Smith : 3    ") + "   Wins 2 points\n" + game2
    match = parse_match(over, "s.mat")
    assert match.problems[0] == "s.mat:4: the score 3-0 leaves nothing to play for in a 3-point match"
    assert not match.games[0].decisions and match.games[1].decisions  # the next game is read
    session = parse_match(MAT.replace(" 3 point match", " 0 point match")
                          .replace("Alice Smith : 0", "Alice Smith : 40000"), "m.mat")
    assert session.problems[0] == ("m.mat:4: the score 40000-0 is beyond 32767, the most a "
                                   "Match ID holds")
    path = tmp_path / "long.sgf"
    path.write_text((FIXTURES / "match5.sgf").read_text().replace("length:5", "length:65", 1))
    assert read_match(path).problems[0].startswith(f"{path}:1: a 65-point match")
    text = (FIXTURES / "match5.sgf").read_text()
    second = text.index("length:5", text.index("length:5") + 1)
    path.write_text(text[:second] + "length:7" + text[second + len("length:5"):])
    mixed = read_match(path)
    assert [p.split(": ", 1)[1] for p in mixed.problems] == ["a 7-point match in a 5-point match's file"]
    assert mixed.games[0].decisions and not mixed.games[1].decisions


def test_a_match_longer_than_the_match_equity_table_is_refused_by_analyse(tmp_path, capsys):
    """bgcli reads up to 64 points; the analysis needs the MET, which reaches 25 points: the
    longer match is one error line, and the other files are analysed."""
    long = tmp_path / "long.mat"
    long.write_text(MAT.replace(" 3 point match", " 30 point match"))
    code, out, err = run(capsys, "analyse", str(long), str(FIXTURES / "match1.mat"),
                         "--plies", "0", "-f", "csv")
    assert code == 1
    assert (f"bgcli: error: {long}: a 30-point match: the match equity table (Kazaross XG2 25 "
            "point MET) reaches matches of at most 25 points") in err
    assert out.count("\n") == 3  # the header and match1's two players
    assert "Traceback" not in err
