"""Odd inputs a user throws at bgcli: each gets one clear line and a documented exit code
(1 bad data, 2 usage), never a traceback and never a silent exit 0 on garbage."""

from __future__ import annotations

import pytest

from bgcli.collections import Entry, EntryError, read_collection
from bgcli.errors import CollectionError, MESSAGE_LIMIT, ParseError
from bgcli.notation.detect import parse_situation
from cli_helpers import run

START_ID = "4HPwATDgc/ABMA"


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# ----------------------------------------------------------------------------- collections


def test_csv_with_two_position_columns_is_refused(tmp_path):
    path = tmp_path / "two.csv"
    path.write_text(f"id,position,name,position\n1,{START_ID},x,nonsense\n")
    with pytest.raises(CollectionError, match=r"names 'position' more than once \(columns 2 and 4\)"):
        list(read_collection(path))


def test_unterminated_quote_is_reported_as_such_where_it_opens(tmp_path):
    path = tmp_path / "quote.csv"
    path.write_text(f'id,position\n1,{START_ID}\n2,"{START_ID}\n3,{START_ID}\n')
    items = read_collection(path)
    assert isinstance(next(items), Entry)
    with pytest.raises(CollectionError) as caught:
        next(items)
    assert caught.value.where == f"{path}:3"
    assert "opens a quote" in caught.value.reason and "never closed" in caught.value.reason


def test_a_collection_that_breaks_off_keeps_the_rows_before_it(capsys, tmp_path):
    path = tmp_path / "quote.csv"
    path.write_text(f'id,position\n1,{START_ID}\n2,"{START_ID}"x\n3,{START_ID}\n')
    code, out, err = run(capsys, "pips", "-i", str(path), "-f", "csv")
    assert code == 1
    assert out.splitlines()[1].startswith(f"{START_ID},{START_ID},")
    line = one_line(err)
    assert line.startswith(f"bgcli: error: {path}:3: cannot read this CSV row")
    assert line.endswith("the rest of the file is not read")


@pytest.mark.parametrize("content", ["", "\n\n# only a comment\n", "id,position\n"])
def test_an_empty_input_file_is_named(capsys, tmp_path, content):
    path = tmp_path / "empty.txt"
    path.write_text(content)
    for command in ("pips", "convert", "rollout"):
        code, out, err = run(capsys, command, "-i", str(path))
        assert (code, out) == (2, "")
        assert one_line(err) == (f"bgcli: error: no positions in {str(path)!r}: it holds no "
                                 "position (only blank lines, comments or a CSV header)")


def test_empty_stdin_is_named(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, err = run(capsys, "pips", "-")
    assert code == 2
    assert one_line(err).startswith("bgcli: error: no positions on standard input")


def test_no_positions_at_all_is_still_a_usage_error(capsys):
    code, _, err = run(capsys, "convert")
    assert code == 2
    assert "usage error" in one_line(err) and "give positions as arguments" in err


# ----------------------------------------------------------------------------- long inputs


def test_a_huge_bad_input_is_not_echoed_whole(capsys):
    huge = "A" * 100_000
    code, _, err = run(capsys, "show", huge)
    assert code == 1
    line = one_line(err)
    assert len(line) < MESSAGE_LIMIT + 100
    assert line.endswith("[cut: 100,098 characters in all]")  # the message, the input quoted


def test_a_huge_bad_option_value_is_not_echoed_whole(capsys):
    code, _, err = run(capsys, "moves", START_ID, "3" * 100_000)
    assert code == 2
    line = one_line(err)
    assert len(line) < MESSAGE_LIMIT + 150 and "characters in all]" in line


def test_parse_errors_are_cut_but_short_ones_kept_whole():
    with pytest.raises(ParseError) as caught:
        parse_situation("x" * 5000)
    assert len(str(caught.value)) < MESSAGE_LIMIT + 50
    with pytest.raises(ParseError) as caught:
        parse_situation("hello")
    assert str(caught.value).endswith("'hello'")


# ----------------------------------------------------------------------------- trials


@pytest.mark.parametrize("trials", ["10000001", "1000000000000", "1" + "0" * 21])
def test_trials_are_bounded_before_anything_is_allocated(capsys, trials):
    for command in (["rollout", START_ID], ["best", START_ID, "31"], ["cube", START_ID, "-r"]):
        code, out, err = run(capsys, *command, "--trials", trials)
        assert (code, out) == (2, "")
        assert "trials must be at most 10,000,000 (each game's outcome is kept in memory" in one_line(err)


def test_collection_entry_errors_are_still_rows(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text(f"id,position\n1,{START_ID}\n2,\n")
    items = list(read_collection(path))
    assert isinstance(items[0], Entry) and isinstance(items[1], EntryError)
