"""The command line, run in-process through the real ``bgcli.cli.app.main`` wrapper (so the
one-line error handling and exit codes are what a shell sees), plus two subprocess checks."""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bgcli import __version__
from cli_helpers import run
from bgcli.errors import ParseError
from bgcli.notation.detect import parse_situation
from bgcli.notation.gnubgid import parse_match_id, parse_position_id
from bgcli.notation.xgid import parse_xgid
from bgcli.position import Position

START_ID = "4HPwATDgc/ABMA"
START_GNUBG = "4HPwATDgc/ABMA:cAkAAAAAAAAE"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
# Race positions with pip counts printed by GNU Backgammon (tests/fixtures/race.jsonl).
RACE_65_73 = "f42ABwC/cfAAAA"
RACE_133_67 = "b1abAABQvu0BAA"
# A gnubg ID with dice rolled (4-1), made by gnubg itself (tests/fixtures/match_ids.jsonl).
ROLLED_GNUBG = "DwbA4nACxqqGCQ:EgHmAFAAEAAE"
# The start position, money game, 3-1 rolled.
ROLLED_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
# Well-formed IDs of impossible positions.
SHARED_POINT_ID = "4Dn4QDDgc/ABMA"  # an opponent checker on a point the player on roll holds
SIXTEEN_CHECKERS_ID = "4Dn4ABjwOfgAWA"  # 16 checkers for the player on roll

COMMANDS = ["show", "pips", "moves", "convert"]




def assert_one_line_error(err: str, kind: str = "error") -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"bgcli: {kind}: "), err
    assert "Traceback" not in err
    return lines[0]


# ----------------------------------------------------------------------------- help, version


@pytest.mark.parametrize("command", COMMANDS)
def test_command_help_has_an_example(capsys, command):
    code, out, err = run(capsys, command, "--help")
    assert code == 0, err
    assert "Example" in out
    assert f"bgcli {command}" in out


def test_top_level_help_lists_every_command(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in COMMANDS:
        assert command in out


def test_help_shows_flags_without_a_value_metavar(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "--version" in out and "--install-completion" in out and "--show-completion" in out
    assert "<bool>" not in out
    code, out, _ = run(capsys, "best", "--help")
    assert code == 0 and "--evaluate-only" in out and "<bool>" not in out
    assert "<int range>" in out  # options that take a value keep theirs


def test_shell_completion_answers_with_commands(capsys, monkeypatch):
    # what the script of --install-completion / --show-completion asks for on <Tab>
    monkeypatch.setenv("_BGCLI_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "bgcli ro")
    monkeypatch.setenv("COMP_CWORD", "1")
    code, out, err = run(capsys)
    assert code == 0, err
    assert out.split() == ["rollout"]


def test_completion_script_is_shown_and_installed(capsys, monkeypatch, tmp_path):
    # typer asks shellingham which shell runs bgcli; a test run started by nohup or a CI
    # runner has none it knows, so the shell is given
    import shellingham

    monkeypatch.setattr(shellingham, "detect_shell", lambda *args, **kwargs: ("bash", "/bin/bash"))
    code, out, err = run(capsys, "--show-completion", "bash")
    assert code == 0, err
    assert "_BGCLI_COMPLETE=complete_bash" in out and "complete -o default -F _bgcli_completion bgcli" in out
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out, err = run(capsys, "--install-completion", "bash")
    assert code == 0, err
    script = tmp_path / ".bash_completions" / "bgcli.sh"
    assert "_BGCLI_COMPLETE=complete_bash" in script.read_text()
    assert str(script) in (tmp_path / ".bashrc").read_text()


def test_version(capsys, monkeypatch, tmp_path):
    from bgcli.net import DEFAULT_WEIGHTS, net_id
    from bgcli.prune import DEFAULT_PRUNE_WEIGHTS, prune_id

    code, out, err = run(capsys, "--version")
    assert code == 0
    assert out.splitlines() == [f"bgcli {__version__}", f"net weights: {net_id()}, {DEFAULT_WEIGHTS}",
                                f"pruning net: {prune_id()}, {DEFAULT_PRUNE_WEIGHTS}"]
    assert err == ""
    monkeypatch.setenv("BGCLI_WEIGHTS", str(tmp_path / "missing.npz"))
    code, out, err = run(capsys, "--version")
    assert code == 0
    assert out.splitlines()[1] == f"net weights: BGCLI_WEIGHTS: no such net weights file: '{tmp_path / 'missing.npz'}'"


def test_no_arguments_shows_help_and_a_usage_error(capsys):
    code, out, err = run(capsys)
    assert code == 2
    assert "Usage" in out and "show" in out
    line = assert_one_line_error(err, "usage error")
    assert "missing command" in line


def test_unknown_command_is_a_usage_error(capsys):
    code, out, err = run(capsys, "frobnicate")
    assert code == 2
    assert out == ""
    assert_one_line_error(err, "usage error")


# ----------------------------------------------------------------------------- show


def test_show_start_position(capsys):
    code, out, err = run(capsys, "show", START_ID)
    assert code == 0, err
    assert err == ""
    assert f"Position ID: {START_ID}" in out
    assert "Match ID: cAkAAAAAAAAE" in out
    assert START_XGID in out
    assert "X  pips 167" in out and "O  pips 167" in out
    assert "money game" in out and "not yet rolled" in out
    # the board frame with both point-number rows
    assert "+13-14-15-16-17-18-+---+19-20-21-22-23-24-+" in out
    assert "+12-11-10--9--8--7-+---+-6--5--4--3--2--1-+" in out
    # five X checkers on the 13-point are drawn in the column under "13"
    top_rows = out.splitlines()[1:6]
    assert all(row.startswith(" | X ") for row in top_rows)


@pytest.mark.parametrize("text", [START_ID, START_GNUBG, START_XGID, f"  {START_ID}  "])
def test_show_accepts_every_notation(capsys, text):
    code, out, _ = run(capsys, "show", text)
    assert code == 0
    assert f"Position ID: {START_ID}" in out


GNUBG_BOARD_TEXT = (" GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n"
                    "                 Match ID   : cAn3AAAAAAAE\n")  # as gnubg 1.07 prints it


@pytest.mark.parametrize("text, gnubg_id", [
    ("4HPwATDgc/ABMA cAkAAAAAAAAE", START_GNUBG),
    ("  4HPwATDgc/ABMA \t cAn3AAAAAAAE ", "4HPwATDgc/ABMA:cAn3AAAAAAAE"),
    ("Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAAE", START_GNUBG),
    (GNUBG_BOARD_TEXT, "4HPwATDgc/ABMA:cAn3AAAAAAAE"),
    ("position id: 4HPwATDgc/ABMA", START_GNUBG),  # no Match ID: money, as a bare Position ID
    ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", START_GNUBG),
])
def test_parse_situation_reads_what_players_paste(text, gnubg_id):
    assert parse_situation(text).gnubg_id == gnubg_id


@pytest.mark.parametrize("text, message", [
    ("4HPwATDgc/ABM cAkAAAAAAAAE", "got 13 and 12 characters"),
    ("Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAA", "got 14 and 7 characters"),
    ("Position ID: 4HPwATDgc/ABMA Match ID: cAkAAAAAAAA!", "Match ID"),
    ("two words", "not a position"),
])
def test_pasted_ids_with_a_mistake_say_what_is_wrong(text, message):
    with pytest.raises(ParseError, match=message):
        parse_situation(text)


def test_bare_xgid_starting_with_a_dash_is_a_position_not_an_option(capsys):
    bare = START_XGID.removeprefix("XGID=")
    assert bare.startswith("-")
    code, out, err = run(capsys, "convert", bare, "--to", "gnubg")
    assert (code, out, err) == (0, START_GNUBG + "\n", "")
    code, out, err = run(capsys, "show", bare, "-f", "json")
    assert code == 0 and json.loads(out)[0]["position_id"] == START_ID
    code, out, err = run(capsys, "pips", "-q")  # a real unknown option stays a usage error
    assert code == 2 and "No such option" in assert_one_line_error(err, "usage error")


def test_gnubg_text_in_a_file_is_one_position(capsys, tmp_path):
    from bgcli.collections import Entry, read_collection

    path = tmp_path / "pasted.txt"
    path.write_text(GNUBG_BOARD_TEXT + "Position ID: 4HPwATDgc/ABMA  # alone\n"
                    "4HPwATDgc/ABMA cAkAAAAAAAAE\n")
    assert list(read_collection(path)) == [
        Entry("1", "", GNUBG_BOARD_TEXT.split("\n")[0].strip() + " Match ID   : cAn3AAAAAAAE",
              "", f"{path}:1"),
        Entry("3", "", "Position ID: 4HPwATDgc/ABMA", "alone", f"{path}:3"),
        Entry("4", "", "4HPwATDgc/ABMA cAkAAAAAAAAE", "", f"{path}:4"),
    ]
    code, out, err = run(capsys, "convert", "--input", str(path), "--to", "gnubg")
    assert code == 0, err
    assert out.splitlines() == ["4HPwATDgc/ABMA:cAn3AAAAAAAE", START_GNUBG, START_GNUBG]


def test_show_with_dice_option(capsys):
    code, out, _ = run(capsys, "show", START_ID, "--dice", "6-5")
    assert code == 0
    assert "Dice: 65." in out


def test_show_json_fields(capsys):
    code, out, err = run(capsys, "show", RACE_65_73, "-f", "json")
    assert code == 0, err
    [row] = json.loads(out)
    assert row["position_id"] == RACE_65_73
    assert (row["pips_on_roll"], row["pips_opponent"]) == (65, 73)
    assert row["cube_owner"] == "centred"
    assert parse_situation(row["xgid"]).position == parse_position_id(RACE_65_73)
    on_roll = [int(n) for n in row["board_on_roll"].split()]
    assert len(on_roll) == 25
    assert on_roll == Position.from_id(RACE_65_73).board[1].tolist()


# ----------------------------------------------------------------------------- pips

PIP_POSITIONS = [(START_ID, 167, 167), (RACE_65_73, 65, 73), (RACE_133_67, 133, 67),
                 (START_XGID, 167, 167)]


def test_pips_csv(capsys):
    code, out, err = run(capsys, "pips", *[p for p, _, _ in PIP_POSITIONS], "--format", "csv")
    assert code == 0, err
    assert err == ""
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(PIP_POSITIONS)
    header = out.splitlines()[0].split(",")
    for column in ("input", "position_id", "pips_on_roll", "pips_opponent", "pip_difference",
                   "keith_verdict", "thorp_verdict", "kleinman_win_probability"):
        assert column in header
    for row, (text, on_roll, opponent) in zip(rows, PIP_POSITIONS):
        assert row["input"] == text
        assert int(row["pips_on_roll"]) == on_roll
        assert int(row["pips_opponent"]) == opponent
        assert int(row["pip_difference"]) == opponent - on_roll  # how far on roll is ahead
    assert rows[3]["position_id"] == START_ID  # the XGID was read as the start position
    assert float(rows[0]["kleinman_win_probability"]) == pytest.approx(0.5619, abs=1e-4)


def test_pips_tsv(capsys):
    code, out, _ = run(capsys, "pips", START_ID, RACE_65_73, "-f", "tsv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
    assert [(r["position_id"], int(r["pips_on_roll"])) for r in rows] == [
        (START_ID, 167), (RACE_65_73, 65)]
    assert all("\t" in line for line in out.splitlines())


def test_pips_json_and_ndjson_agree(capsys):
    ids = [p for p, _, _ in PIP_POSITIONS]
    code, out, _ = run(capsys, "pips", *ids, "-f", "json")
    assert code == 0
    array = json.loads(out)
    code, out, _ = run(capsys, "pips", *ids, "-f", "ndjson")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert array == lines
    assert [(r["pips_on_roll"], r["pips_opponent"]) for r in lines] == [
        (a, b) for _, a, b in PIP_POSITIONS]
    assert isinstance(lines[0]["is_race"], bool) and lines[0]["is_race"] is False


def test_pips_table(capsys):
    code, out, _ = run(capsys, "pips", START_ID, RACE_65_73)
    assert code == 0
    lines = out.splitlines()
    header = lines[0].split()
    assert header[0] == "position_id"
    assert "pips" in header and "opp_pips" in header
    assert set(lines[1]) <= {"-", " "}
    assert len(lines) == 4
    on_roll, opponent = header.index("pips"), header.index("opp_pips")
    for line, (position_id, a, b) in zip(lines[2:], [(START_ID, "167", "167"),
                                                      (RACE_65_73, "65", "73")]):
        cells = line.split()  # the first columns hold no spaces
        assert (cells[0], cells[on_roll], cells[opponent]) == (position_id, a, b)


def test_pips_table_fits_an_80_column_terminal(capsys, monkeypatch):
    import bgcli.cli.output

    positions = [START_ID, RACE_65_73, "290NAADb7g4AAA"]
    code, whole, err = run(capsys, "pips", *positions)  # not a terminal: the whole table
    assert code == 0 and err == "" and max(map(len, whole.splitlines())) > 80
    assert whole.split()[:13] == ["position_id", "race", "pips", "opp_pips", "lead", "Keith",
                                  "Thorp", "8-9-12", "Isight", "Kleinman", "EPC", "opp_EPC",
                                  "exact_win"]
    monkeypatch.setattr(bgcli.cli.output, "terminal_width", lambda out: 80)
    code, out, err = run(capsys, "pips", *positions)
    assert code == 0 and max(map(len, out.splitlines())) <= 80
    header = out.splitlines()[0].split()
    assert header[:5] == ["position_id", "race", "pips", "opp_pips", "lead"]
    assert "Kleinman" in header and "Keith" in header
    left_out = assert_one_line_error(err, "left out to fit 80 columns")
    for column in ("Thorp", "8-9-12", "Isight"):
        assert column in left_out and column not in header
    # the kept cells are the whole table's
    assert out.splitlines()[2].split()[:5] == whole.splitlines()[2].split()[:5]
    code, csv_out, err = run(capsys, "pips", *positions, "-f", "csv")  # CSV: every field
    assert err == "" and "thorp_verdict" in csv_out.splitlines()[0]


def test_pips_input_file_skips_comments_and_blank_lines(capsys, tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text(f"# a header comment\n\n{START_ID}   # the start\n   \n{RACE_65_73}\n"
                    "#" + RACE_133_67 + "\n")
    code, out, err = run(capsys, "pips", "--input", str(path), "-f", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["position_id"] for r in rows] == [START_ID, RACE_65_73]


def test_pips_reads_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{RACE_133_67}\n\n{START_GNUBG}\n"))
    code, out, err = run(capsys, "pips", "-", "-f", "ndjson")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["pips_on_roll"], r["pips_opponent"]) for r in rows] == [(133, 67), (167, 167)]


def test_pips_input_dash_reads_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{START_ID}\n"))
    code, out, _ = run(capsys, "pips", "-i", "-", "-f", "json")
    assert code == 0
    assert [r["position_id"] for r in json.loads(out)] == [START_ID]


def test_pips_bad_line_in_file_reports_file_and_line(capsys, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{START_ID}\n# comment\nnot-a-position\n{RACE_65_73}\n")
    code, out, err = run(capsys, "pips", "-i", str(path), "-f", "csv")
    assert code == 1
    line = assert_one_line_error(err)
    assert f"{path}:3" in line
    assert "not-a-position" in line
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["position_id"] for r in rows] == [START_ID, RACE_65_73]


def test_pips_bad_argument_reports_argument_number(capsys):
    code, out, err = run(capsys, "pips", START_ID, SHARED_POINT_ID, "-f", "json")
    assert code == 1
    line = assert_one_line_error(err)
    assert "argument 2" in line and SHARED_POINT_ID in line
    assert [r["position_id"] for r in json.loads(out)] == [START_ID]


def test_pips_missing_file_is_a_usage_error(capsys, tmp_path):
    missing = tmp_path / "nope.txt"
    code, out, err = run(capsys, "pips", "-i", str(missing))
    assert code == 2
    assert out == ""
    line = assert_one_line_error(err)
    assert "nope.txt" in line


def test_pips_with_nothing_to_do_is_a_usage_error(capsys):
    code, out, err = run(capsys, "pips")
    assert code == 2
    assert_one_line_error(err, "usage error")


@pytest.mark.parametrize("fmt", ["csv", "json", "ndjson", "tsv"])
def test_stdout_carries_only_data(capsys, fmt, tmp_path):
    """Every byte of stdout belongs to the data, even when a row fails (stderr then)."""
    path = tmp_path / "in.txt"
    path.write_text(f"{START_ID}\nbogus\n{RACE_65_73}\n")
    code, out, err = run(capsys, "pips", "-i", str(path), "-f", fmt)
    assert code == 1
    assert "bogus" in err and "bogus" not in out
    if fmt == "json":
        data = json.loads(out)
    elif fmt == "ndjson":
        data = [json.loads(line) for line in out.splitlines()]
    else:
        data = list(csv.DictReader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
        assert len(out.splitlines()) == 3  # header + two rows, nothing else
    assert [row["position_id"] for row in data] == [START_ID, RACE_65_73]


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize("dice", ["07", "7", "abc", "00", "77", "3-9", "\uff13\uff11", "\uff13-1"])
def test_bad_dice_are_usage_errors(capsys, dice):
    code, out, err = run(capsys, "moves", START_ID, dice)
    assert code == 2
    assert out == ""
    line = assert_one_line_error(err, "usage error")
    assert repr(dice) in line


@pytest.mark.parametrize("dice", ["07", "abc"])
def test_bad_dice_option_of_show(capsys, dice):
    code, out, err = run(capsys, "show", START_ID, "-d", dice)
    assert code == 2
    assert_one_line_error(err, "usage error")


def test_moves_without_dice_and_none_rolled(capsys):
    code, out, err = run(capsys, "moves", START_ID)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, "usage error")


@pytest.mark.parametrize("command", ["show", "moves", "pips", "convert"])
@pytest.mark.parametrize("text", [
    "4HPwATDgc/ABM",  # 13 characters
    "4HPwATDgc/AB!A",  # not base64
    "hello world",
    "4HPwATDgc/ABMA:cAkAAAAAAAA",  # match ID too short
    "XGID=-b----E-C---eE---c-e----Q-:0:0:1:00:0:0:0:0:10",  # 'Q' on the board
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",  # dice 77
    SHARED_POINT_ID,
    SIXTEEN_CHECKERS_ID,
])
def test_bad_ids_exit_1_with_one_line(capsys, command, text):
    argv = [command, text] + (["31"] if command == "moves" else [])
    code, out, err = run(capsys, *argv)
    assert code == 1, err
    line = assert_one_line_error(err)
    assert repr(text) in line
    if command in ("show", "moves"):
        assert out == ""


def test_impossible_position_names_the_problem(capsys):
    _, _, err = run(capsys, "show", SHARED_POINT_ID)
    assert "held by both sides" in err
    _, _, err = run(capsys, "show", SIXTEEN_CHECKERS_ID)
    assert "more than 15 checkers" in err


# ----------------------------------------------------------------------------- moves


def test_moves_opening_31(capsys):
    code, out, err = run(capsys, "moves", START_ID, "31", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert len(rows) == 16
    assert [r["play"] for r in rows] == list(range(1, 17))
    notations = {r["move"] for r in rows}
    assert len(notations) == 16
    assert {"8/5 6/5", "24/20", "13/9", "6/2", "24/23 24/21", "13/10 6/5"} <= notations
    results = set()
    for row in rows:
        position_id, match_id = row["result_id"].split(":")
        position = parse_position_id(position_id)
        state = parse_match_id(match_id)
        assert position_id == row["result_position_id"]
        assert state.player_on_roll == 0 and not state.dice_rolled
        # the opponent is on roll: still 167 pips for them, 163 for the mover
        assert position.pips() == (167, 163)
        results.add(position_id)
    assert len(results) == 16


def test_moves_8_5_6_5_result(capsys):
    code, out, _ = run(capsys, "moves", START_ID, "3-1", "-f", "csv")
    assert code == 0
    row = next(r for r in csv.DictReader(io.StringIO(out)) if r["move"] == "8/5 6/5")
    after = parse_position_id(row["result_position_id"]).swapped()  # mover's view
    expected = Position.from_points({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert after == expected


def test_moves_table_default(capsys):
    code, out, _ = run(capsys, "moves", START_ID, "66")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["play", "move", "result_id", "result_position_id"]
    assert any("24/18(2) 13/7(2)" in line for line in lines)


def test_moves_dice_from_xgid(capsys):
    code, out, err = run(capsys, "moves", ROLLED_XGID, "-f", "ndjson")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 16
    assert "8/5 6/5" in {r["move"] for r in rows}


def test_moves_dice_from_match_id(capsys):
    code, out, err = run(capsys, "moves", ROLLED_GNUBG, "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    from bgcli.moves import legal_plays

    expected = legal_plays(Position.from_id(ROLLED_GNUBG.split(":")[0]), (4, 1))
    assert [r["move"] for r in rows] == [p.notation for p in expected]
    assert rows
    for row in rows:  # the roll is spent and the other player (1) is on roll
        state = parse_match_id(row["result_id"].split(":")[1])
        assert state.player_on_roll == 1 and state.dice == (0, 0)
        assert state.match_length == 7 and state.score == (5, 2) and state.cube_value == 4


def test_moves_argument_dice_override_rolled_dice(capsys):
    code, out, err = run(capsys, "moves", ROLLED_XGID, "66", "-f", "json")
    assert code == 0
    assert "24/18(2) 13/7(2)" in {r["move"] for r in json.loads(out)}
    held = parse_xgid(ROLLED_XGID).match.dice
    assert err.strip() == f"bgcli: note: DICE 66 replaces the {held[0]}{held[1]} rolled in the position"


def test_moves_argument_dice_equal_to_rolled_dice_need_no_note(capsys):
    held = parse_xgid(ROLLED_XGID).match.dice
    code, _, err = run(capsys, "moves", ROLLED_XGID, f"{held[1]}{held[0]}")
    assert code == 0 and err == ""


def test_moves_no_legal_play(capsys):
    # X has one checker on the bar; O holds all six home points: nothing can enter.
    closed = Position.from_points({25: 1, 6: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    code, out, err = run(capsys, "moves", closed.position_id(), "64", "-f", "json")
    assert code == 0, err
    [row] = json.loads(out)
    assert row["play"] == 0 and "no legal play" in row["move"]
    assert parse_position_id(row["result_position_id"]) == closed.swapped()


# ----------------------------------------------------------------------------- convert

CONVERT_CASES = [
    START_GNUBG,
    ROLLED_GNUBG,
    "GIQFmzUYAySwAA:cQlgAaAAIAAE",  # 11-point match, cube 2, from gnubg
    "cGBABwA+BuA9AA:QQlgAQAACAAE",  # cube owned by player 0, from gnubg
    f"{RACE_65_73}:cAkAAAAAAAAE",
    f"{RACE_133_67}:cAn7ACAAGAAE",  # 7-point match at 2-3 with 66 rolled
]


@pytest.mark.parametrize("gnubg_id", CONVERT_CASES)
def test_convert_round_trip_gnubg_xgid_gnubg(capsys, gnubg_id):
    code, out, err = run(capsys, "convert", gnubg_id, "--to", "xgid")
    assert code == 0, err
    xgid = out.strip()
    assert xgid.startswith("XGID=") and "\n" not in xgid
    code, out, err = run(capsys, "convert", xgid, "--to", "gnubg")
    assert code == 0, err
    assert out.strip() == gnubg_id
    assert parse_situation(xgid) == parse_situation(gnubg_id)


def test_convert_start_to_xgid_and_posid(capsys):
    code, out, _ = run(capsys, "convert", START_GNUBG)
    assert code == 0
    assert out == START_XGID + "\n"
    code, out, _ = run(capsys, "convert", START_XGID, "-t", "posid")
    assert out == START_ID + "\n"


def test_convert_csv_has_input_and_output(capsys):
    code, out, _ = run(capsys, "convert", START_ID, RACE_65_73, "-t", "gnubg", "-f", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows == [{"input": START_ID, "output": START_GNUBG},
                    {"input": RACE_65_73, "output": f"{RACE_65_73}:cAkAAAAAAAAE"}]


def test_convert_bad_row_keeps_good_rows(capsys):
    code, out, err = run(capsys, "convert", START_ID, "junk", RACE_65_73, "-t", "posid")
    assert code == 1
    assert out.split() == [START_ID, RACE_65_73]
    assert "argument 2" in assert_one_line_error(err)


def test_convert_bad_target_is_a_usage_error(capsys):
    code, _, err = run(capsys, "convert", START_ID, "--to", "fen")
    assert code == 2
    assert_one_line_error(err, "usage error")


# ----------------------------------------------------------------------------- subprocess


def _subprocess(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgcli", *args], capture_output=True,
                          text=True, timeout=120)


def test_python_m_bgcli_help():
    result = _subprocess("--help")
    assert result.returncode == 0, result.stderr
    for command in COMMANDS:
        assert command in result.stdout
    assert "Traceback" not in result.stderr


def test_python_m_bgcli_bad_id_has_no_traceback():
    result = _subprocess("show", "not/an/id")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("bgcli: error: ") and "'not/an/id'" in result.stderr
    assert result.stdout == ""


def test_a_process_of_its_own_is_set_up_for_start_up():
    """``python -m bgcli`` and the ``bgcli`` script run ``bgcli.cli.process.run``: the
    collector's first threshold raised, everything frozen at exit, one OpenBLAS thread
    unless the environment says otherwise (``bgcli.cli.process``)."""
    code = ("import atexit, gc, os, sys\n"
            "atexit.register(lambda: print(gc.get_freeze_count() > 0, gc.get_threshold()[0],\n"
            "                              os.environ['OPENBLAS_NUM_THREADS']))\n"
            "from bgcli.cli.process import GC_THRESHOLD, run\n"
            "print(GC_THRESHOLD, 'numpy' in sys.modules)\n"
            "sys.argv = ['bgcli', 'pips', '4HPwATDgc/ABMA', '-f', 'csv']\n"
            "run()\n")
    for given, threads in ((None, "1"), ("2", "2")):
        environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        if given is not None:
            environment["OPENBLAS_NUM_THREADS"] = given
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                timeout=120, env=environment)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        threshold, numpy_before = lines[0].split()
        assert numpy_before == "False"  # imported after the process is set up
        assert lines[1].startswith("input,position_id,")  # the command's output, complete
        assert lines[-1] == f"True {threshold} {threads}"


WRITERS = [["show", "4HPwATDgc/ABMA"], ["pips", "4HPwATDgc/ABMA"], ["moves", "4HPwATDgc/ABMA", "31"],
           ["rollout", "4HPwATDgc/ABMA", "--trials", "36", "--seed", "1"],
           ["batch", "positions/examples.txt", "-f", "jsonl"]]
REPOSITORY = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("argv", WRITERS, ids=lambda argv: argv[0])
def test_a_reader_that_went_away_is_not_an_error(argv):
    """stdout a pipe whose reader has closed it (as `| head` does once it has its lines):
    exit 0, nothing on stderr (no "Exception ignored ... BrokenPipeError" at exit either)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-m", "bgcli", *argv], stdout=write_end,
                                stderr=subprocess.PIPE, text=True, timeout=120, cwd=REPOSITORY)
    finally:
        os.close(write_end)
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if "games" not in line] == []


def test_head_takes_the_first_row_of_a_batch():
    script = ("set -o pipefail; " + shlex.join([sys.executable, "-m", "bgcli", "batch",
                                                "positions/examples.txt", "-f", "jsonl"])
              + " | head -1")
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                            timeout=120, cwd=REPOSITORY)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["id"] == "3"
    assert result.stderr == ""


@pytest.mark.parametrize("argv", WRITERS, ids=lambda argv: argv[0])
def test_a_full_device_is_one_line_and_exit_1(argv):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "bgcli", *argv], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=120, cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    lines = [line for line in result.stderr.splitlines() if "games" not in line]
    assert lines == ["bgcli: error: cannot write to standard output: No space left on device"]


# ----------------------------------------------------------------------------- output


@pytest.mark.parametrize("fmt", ["csv", "json", "ndjson"])
def test_floats_are_written_without_binary_noise(fmt):
    from bgcli.cli.output import OutputFormat, emit

    out = io.StringIO()
    emit([{"a": 0.8098799999999999, "b": 1.0000000000000002, "c": 0.925773135551069,
           "seed": 2**53 - 1}], OutputFormat(fmt), out=out)
    text = out.getvalue()
    assert "0.80988" in text and "0.8098799" not in text
    assert "1.0000000000000002" not in text and "0.925773135551" in text
    assert "0.925773135551069" not in text  # 12 significant digits
    assert str(2**53 - 1) in text  # integers are never rounded
    if fmt == "csv":
        row = next(csv.DictReader(io.StringIO(text)))
        assert float(row["b"]) == 1.0
    else:
        row = json.loads(text)[0] if fmt == "json" else json.loads(text.splitlines()[0])
        assert row["b"] == 1.0 and row["c"] == pytest.approx(0.925773135551069, rel=1e-12)


def test_match_json_gammon_values_have_twelve_digits(capsys):
    code, out, _ = run(capsys, "match", "3", "5", "--cube", "2", "-f", "json")
    (row,) = json.loads(out)
    assert code == 0
    assert row["gammon_value_them"] == 1.46733374294  # 1.4673337429415723 in full


@pytest.mark.parametrize("argv", [
    ["rollout", START_ID], ["best", START_ID, "31"], ["cube", START_ID], ["batch", "-", "--rollout"],
    ["report", "positions/examples.txt", "-o", "unused"], ["chart", "board", START_ID, "-o", "x.png"],
    ["train", "--games", "1"],
])
def test_seeds_are_bounded_to_53_bits(capsys, argv):
    """A seed above 2^53-1 would lose digits in JSON readers (jq 1.6 holds numbers as doubles)."""
    code, out, err = run(capsys, *argv, "--seed", str(2**53))
    assert code == 2 and out == ""
    assert "--seed" in assert_one_line_error(err, "usage error")
    code, out, _ = run(capsys, *argv[:1], "--help")
    assert "2^53-1" in out


def test_the_console_script_entry_point_exists():
    """The ``bgcli`` script pyproject.toml installs names a function that exists (a
    misnamed one installs fine and fails on every run)."""
    import importlib
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    module, _, function = project["project"]["scripts"]["bgcli"].partition(":")
    assert callable(getattr(importlib.import_module(module), function))
