"""Odd inputs a user throws at bgcli: each gets one clear line and a documented exit code
(1 bad data, 2 usage), never a traceback and never a silent exit 0 on garbage."""

from __future__ import annotations

import os

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


# ----------------------------------------------------------------------------- output paths


def _unwritable_paths(tmp_path, suffix):
    (tmp_path / f"folder{suffix}").mkdir()
    return [
        (tmp_path / "missing" / f"x{suffix}", "No such file or directory"),
        (tmp_path / f"folder{suffix}", "is a directory"),
        (tmp_path / ("a" * 300 + suffix), "File name too long"),
    ]


@pytest.mark.parametrize("name", ["x.jpg", "x.gif", "x"])
def test_best_chart_extension_is_checked_before_rolling_out(capsys, tmp_path, name):
    code, out, err = run(capsys, "best", START_ID, "31", "--trials", "32",
                         "--chart", str(tmp_path / name))
    assert (code, out) == (2, "")
    assert "name the file .png or .svg" in one_line(err)


def test_best_chart_folder_is_checked_before_rolling_out(capsys, tmp_path):
    for path, why in _unwritable_paths(tmp_path, ".png"):
        code, out, err = run(capsys, "best", START_ID, "31", "--trials", "32", "--chart", str(path))
        assert (code, out) == (2, ""), err
        assert why in one_line(err) and "--chart" in err
        assert not os.path.exists(path) or path.is_dir()


def test_best_chart_is_written_after_the_rows(capsys, tmp_path):
    chart = tmp_path / "best.svg"
    code, out, _ = run(capsys, "best", START_ID, "31", "--evaluate-only", "--chart", str(chart),
                       "-f", "csv")
    assert code == 0 and out.startswith("position_id,") and chart.read_bytes().startswith(b"<?xml")


def test_chart_output_is_checked_like_best_chart(capsys, tmp_path):
    for path, why in _unwritable_paths(tmp_path, ".svg"):
        code, _, err = run(capsys, "chart", "board", START_ID, "-o", str(path))
        assert code == 2 and why in one_line(err)


def test_train_output_is_checked_before_the_first_game(capsys, tmp_path):
    cases = _unwritable_paths(tmp_path, ".npz") + [(tmp_path / "net.txt", "name the file .npz")]
    for path, why in cases:
        code, out, err = run(capsys, "train", "--games", "10", "-o", str(path))
        assert (code, out) == (2, ""), err
        assert why in one_line(err) and "trained" not in err
    code, _, err = run(capsys, "train", "--games", "10", "-o", str(tmp_path / "net.npz"),
                       "--record", str(tmp_path / "missing" / "record.json"))
    assert code == 2 and "--record" in one_line(err)
    assert not (tmp_path / "net.npz").exists()


# ----------------------------------------------------------------------------- garbage


@pytest.mark.parametrize("equity", ["nan", "inf", "-inf", "5", "-3.5"])
def test_match_equity_out_of_range_is_refused(capsys, equity):
    code, out, err = run(capsys, "match", "3", "3", "--equity", equity)
    assert (code, out) == (2, "")
    assert "the normalised equity must be a number from -3.0000 to +3.0000 at 3-away, 3-away" in one_line(err)


def test_match_equity_range_narrows_where_mwc_would_leave_0_to_1(capsys):
    from bgcli.match import kazaross_xg2

    met = kazaross_xg2()
    high = met.mwc_to_equity(1.0, 1, 2, 1)
    assert high < 3
    code, _, err = run(capsys, "match", "1", "2", "--equity", f"{high + 0.01}")
    assert code == 2 and f"to {high:+.4f}" in err
    code, out, _ = run(capsys, "match", "1", "2", "--equity", f"{high - 0.01}", "-f", "json")
    assert code == 0 and 0.99 < __import__("json").loads(out)[0]["mwc_of_equity"] <= 1


def test_a_match_id_alone_is_named_as_one(capsys):
    code, _, err = run(capsys, "show", "cAkAAAAAAAAE")
    assert code == 1
    assert "looks like a gnubg Match ID alone" in one_line(err)


@pytest.mark.parametrize("content", [b"\x00garbage" * 100, b"PK\x03\x04broken zip"])
def test_a_random_weights_file_is_named_plainly(capsys, monkeypatch, tmp_path, content):
    path = tmp_path / "weights.npz"
    path.write_bytes(content)
    monkeypatch.setenv("BGCLI_WEIGHTS", str(path))
    code, _, err = run(capsys, "best", START_ID, "31", "--evaluate-only")
    assert code == 1
    line = one_line(err)
    assert line.startswith("bgcli: error: BGCLI_WEIGHTS: ") and str(path) in line
    assert "pickle" not in line


def test_an_npz_of_other_arrays_is_not_weights(capsys, monkeypatch, tmp_path):
    import numpy as np

    path = tmp_path / "other.npz"
    np.savez(path, x=np.zeros(3))
    monkeypatch.setenv("BGCLI_WEIGHTS", str(path))
    code, _, err = run(capsys, "cube", START_ID)
    assert code == 1 and "not a net weights file" in one_line(err)


@pytest.mark.parametrize("kind", ["pips", "equity", "board", "outcomes"])
def test_chart_of_an_empty_file_says_so(capsys, tmp_path, kind):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    code, _, err = run(capsys, "chart", kind, str(empty), "-o", str(tmp_path / "c.png"))
    assert code == 2
    assert one_line(err) == f"bgcli: error: no positions in {str(empty)!r}: nothing to draw"


def test_chart_of_only_bad_rows_says_why_and_that_nothing_was_drawn(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("nonsense\n")
    code, _, err = run(capsys, "chart", "pips", str(bad), "-o", str(tmp_path / "c.png"))
    assert code == 1
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"bgcli: error: {bad}:1: not a position")
    assert lines[1] == f"bgcli: error: no position of {str(bad)!r} could be drawn"


def test_cubeful_cube_with_variance_reduction_is_a_usage_error(capsys):
    # found by tests/test_fuzz_cli.py: the check ran on settings without the cubeful flag
    code, out, err = run(capsys, "cube", START_ID, "--cubeful", "--variance-reduction")
    assert (code, out) == (2, "")
    assert "cannot be combined with cubeful rollouts" in one_line(err)


def test_one_game_rollout_table_shows_no_nan(capsys):
    code, out, err = run(capsys, "rollout", START_ID, "-n", "1", "--seed", "3")
    assert code == 0
    assert "nan" not in out and "nan" not in err


@pytest.mark.parametrize("away", ["26", "64"])
def test_match_scores_beyond_the_table_are_usage_errors(capsys, away):
    code, out, err = run(capsys, "match", away, "3")
    assert (code, out) == (2, "")
    assert "less than or equal to 25" in one_line(err)


def test_a_batch_whose_collection_breaks_off_keeps_the_rows_before_it(capsys, tmp_path):
    path = tmp_path / "broken.csv"
    path.write_text(f'id,position\n1,{START_ID}\n2,"{START_ID}"x\n3,{START_ID}\n')
    out_file = tmp_path / "out.csv"
    code, _, err = run(capsys, "batch", str(path), "-o", str(out_file))
    assert code == 1
    assert f"bgcli: error: {path}:3: cannot read this CSV row" in err
    assert f"1 row written to {out_file}, 1 failed" in err
    lines = out_file.read_text().splitlines()
    assert len(lines) == 2 and lines[1].startswith(f"1,,{START_ID},")


def test_a_batch_whose_collection_is_unreadable_from_its_start_is_a_usage_error(capsys, tmp_path):
    path = tmp_path / "broken.csv"
    path.write_text(f'id,position\n1,"{START_ID}\n')
    code, out, err = run(capsys, "batch", str(path))
    assert (code, out) == (2, "")
    assert one_line(err) == f'bgcli: error: {path}:2: this CSV row opens a quote (") that is never closed'


# ----------------------------------------------------------------------------- first run


def test_the_first_run_says_it_is_compiling(capsys, monkeypatch):
    import bgcli.cli.common
    import bgcli.warmup

    monkeypatch.setattr(bgcli.warmup, "compiled_before", lambda kernel=None: False)
    monkeypatch.setattr(bgcli.cli.common, "_ANNOUNCED", [])
    code, out, err = run(capsys, "moves", START_ID, "31", "-f", "csv")
    assert code == 0 and out.startswith("play,move,")
    assert one_line(err).startswith("bgcli: first run of this version: compiling move generation")
    code, _, err = run(capsys, "moves", START_ID, "31")  # once a process
    assert code == 0 and err == ""


def test_a_warm_cache_says_nothing(capsys, monkeypatch):
    import bgcli.cli.common
    from bgcli.warmup import compiled_before

    run(capsys, "moves", START_ID, "31")  # compiled (and cached) by now, if it was not
    assert compiled_before()
    monkeypatch.setattr(bgcli.cli.common, "_ANNOUNCED", [])
    code, _, err = run(capsys, "moves", START_ID, "31")
    assert code == 0 and err == ""


def test_another_checkouts_cache_does_not_count_as_compiled(tmp_path, monkeypatch):
    """numba files each source folder's kernels apart: entries another installation of the
    same version compiled do not spare this one its compiling (nor its note)."""
    import bgcli.kernels
    from numba.core.caching import UserProvidedCacheLocator

    from bgcli import warmup

    monkeypatch.setattr(bgcli.kernels, "kernel_cache_dir", lambda: str(tmp_path))
    elsewhere = tmp_path / UserProvidedCacheLocator.get_suitable_cache_subpath(
        "/elsewhere/bgcli/kernels/movegen.py")
    elsewhere.mkdir()
    (elsewhere / "movegen.generate_plays-300.py311.nbi").write_bytes(b"")
    assert not warmup.compiled_before("movegen.generate_plays") and not warmup.compiled_before()
    ours = tmp_path / UserProvidedCacheLocator.get_suitable_cache_subpath(bgcli.kernels.__file__)
    ours.mkdir()
    (ours / "movegen.generate_plays-300.py311.nbi").write_bytes(b"")
    assert warmup.compiled_before("movegen.generate_plays") and warmup.compiled_before()
    assert not warmup.compiled_before("playout.play_trials")


def test_usage_errors_come_before_the_compiling_note(capsys, monkeypatch):
    import bgcli.cli.common
    import bgcli.warmup

    monkeypatch.setattr(bgcli.warmup, "compiled_before", lambda kernel=None: False)
    monkeypatch.setattr(bgcli.cli.common, "_ANNOUNCED", [])
    code, _, err = run(capsys, "rollout", START_ID, "--trials", "10000001")
    assert code == 2 and "trials must be at most" in err and "compiling" not in err


@pytest.mark.slow
def test_compile_compiles_every_kernel_and_names_the_cache(capsys):
    from bgcli.kernels import kernel_cache_dir

    code, out, err = run(capsys, "compile")
    assert code == 0 and out.strip() == kernel_cache_dir()
    steps = [line for line in err.splitlines() if line.startswith("bgcli compile: ")]
    assert [s.removeprefix("bgcli compile: ") for s in steps[:5]] == [
        "move generation", "evaluators and bear-off databases", "rollouts", "self-play training",
        "supervised training"]
    assert "every kernel compiled and cached in" in steps[-1]


def test_parallel_first_runs_do_not_share_a_cache_file(tmp_path, monkeypatch):
    """numba reads a kernel's cache index, adds an entry and writes it back: two processes
    compiling at once once gave two kernels one data file (a segfault at every later run).
    bgcli.kernels locks each save: here eight savers who all read the index before anyone
    writes it (without the lock) each still find their own entry."""
    import threading
    import time

    import bgcli.kernels  # noqa: F401  (installs the lock)
    from numba.core.caching import IndexDataCacheFile

    load_index = IndexDataCacheFile._load_index

    def slow_load(self):  # widen the window between reading and writing the index
        overloads = load_index(self)
        time.sleep(0.05)
        return overloads

    monkeypatch.setattr(IndexDataCacheFile, "_load_index", slow_load)
    cache = IndexDataCacheFile(str(tmp_path), "kernel", "stamp")
    keys = [(f"signature {n}", "machine") for n in range(8)]
    savers = [threading.Thread(target=cache.save, args=(key, ("code for", key)))
              for key in keys]
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join()
    assert [cache.load(key) for key in keys] == [("code for", key) for key in keys]
