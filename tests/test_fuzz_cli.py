"""Fuzzing every command: random options and inputs, valid and not, through the real entry point.

Whatever the arguments, ``bgcli`` ends with exit code 0, 1 (bad data) or 2 (usage), never a
traceback; a failure says so on stderr in a line starting ``bgcli:``; a value that cannot be
the option's type (a word for a number) is always refused. Values are drawn per option from
pools of good, odd and bad ones, kept small enough (few trials, few games) to run quickly.
"""

from __future__ import annotations

import io
import itertools
import os
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bgcli.cli.app import app
from cli_helpers import run

COMMAND = typer.main.get_command(app)
# BGCLI_FUZZ_EXAMPLES=5000 BGCLI_FUZZ_COMMANDS=best,cube hunts longer in a few commands
# compile takes no option or input: nothing to fuzz (and it compiles every kernel); bench
# runs for minutes whatever it is given (test_speed.py checks its options)
FUZZED_COMMANDS = sorted([name for name in os.environ.get("BGCLI_FUZZ_COMMANDS", "").split(",")
                          if name] or set(COMMAND.commands) - {"compile", "bench"})
START = "4HPwATDgc/ABMA"
POSITIONS = [
    START, f"{START}:cAkAAAAAAAAE", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:7:10", "0PPgAAAAAAAAAA", "tW0AAED7AQAAAA",
    "cAkAAAAAAAAE", "nonsense", "", " ", "-", "X" * 1000, "4HPwATDgc/ABMA:cAkAAAAAAAA",
    "XGID=-b----E-C---eE---c-e----B-:0:5:1:00:0:0:0:0:10",
    "4HPwATDgc/ABMA:8AngAGAAKAAE",  # the Crawford game, 2-away 1-away
]
NOT_A_NUMBER = ["x", "", "1.5e", "nan", "\uff13"]
INTS = ["0", "1", "2", "-1", "36"] + NOT_A_NUMBER
SMALL_COUNTS = ["1", "2", "36", "0", "-3", "10000001"] + NOT_A_NUMBER
FLOATS = ["0", "0.5", "1", "-1", "2", "nan", "inf", "1e309", "x", ""]
DICE = ["31", "66", "3-1", "07", "00", "x", "", "\uff13\uff11", "123"]
FILES = ["good.txt", "empty.txt", "quote.csv", "binary.bin", "missing.txt", "folder", "-"]
OUTPUTS = ["out.csv", "out.jsonl", "out.parquet", "out.txt", "missing/out.csv", "folder",
           "c.png", "c.svg", "c.jpg", "net.npz", "a" * 300 + ".csv"]

# option (long name) -> values to try; options not named here get a flag or their own pool
POOLS = {
    "--trials": SMALL_COUNTS, "--min-games": SMALL_COUNTS, "--candidates": ["1", "2", "0", "x"],
    "--games": ["1", "0", "-1", "x"], "--check-deals": ["1", "0", "x"],
    "--check-every": ["100000000", "0", "x"], "--checkpoint-every": ["100000000", "0", "x"],
    "--seed": ["0", "1", "-1", str(2**63), str(2**53), "x"], "--threads": ["1", "2", "0", "x"],
    "--truncate": ["0", "3", "-1", "x"], "--plies": INTS, "--table": ["1", "5", "0", "26", "x"],
    "--cube": ["1", "2", "3", "0", "x"], "--stop-se": FLOATS, "--efficiency": FLOATS,
    "--equity": FLOATS, "--mwc": FLOATS, "--alpha": FLOATS, "--lambda": FLOATS,
    "--explore": FLOATS, "--explore-moves": FLOATS, "--position-share": FLOATS,
    "--minutes": ["0.01", "0", "-1", "nan", "x"],
    "--count": ["1", "2", "0", "x"], "--chunk": ["1", "2", "0", "x"], "--keep": FLOATS,
    "--max-plies": ["1", "5", "0", "x"], "--opening-share": FLOATS, "--from": FILES,
    "--epochs": ["1", "2", "0", "x"], "--rate": FLOATS, "--batch": ["1", "32", "0", "x"],
    "--data": FILES + ["data"], "--start": FILES + ["net.npz"],
    "--policy": ["net", "heuristic", "random", "bogus", ""],
    "--format": ["table", "csv", "tsv", "json", "ndjson", "jsonl", "parquet", "xml", ""],
    "--to": ["gnubg", "xgid", "posid", "bogus"], "--dice": DICE,
    "--input": FILES, "--positions": FILES, "--resume": FILES + ["net.npz"],
    "--output": OUTPUTS, "--chart": OUTPUTS, "--checkpoint": OUTPUTS, "--record": OUTPUTS,
    "--id": ["1", "2", START, "nope"], "--title": ["A title", "", "é" * 200],
    "--scheduler": ["not an address", "tcp://", "tcp://host:notaport"],
    "--rows": ["player", "decision", "bogus"], "--file-format": ["csv", "jsonl", "parquet", "xml"],
    "--worst": ["1", "3", "0", "x"],
    # 1 and 2 ply rollouts take minutes even at 36 games: only the cheap and the refused here
    "--checker-plies": ["0", "3", "-1", "x"],
    "--filter": ["normal", "tiny", "2:0.1", "8:0.16,-,2:0.04", "bogus", "", "1:x", "0:0.1"],
}
ARGUMENTS = {  # positional argument name -> values
    "position": POSITIONS, "positions": POSITIONS, "dice": DICE + [None],
    "collection": FILES, "source": FILES + POSITIONS[:3] + ["match.mat"],
    "kind": ["board", "outcomes", "equity", "convergence", "pips", "bogus"],
    "folder": ["data", "good.txt", "missing/data"],
    "away_me": ["3", "1", "0", "x", None], "away_them": ["5", "1", "-2", None],
    "matches": FILES + ["match.mat", "match.sgf"],
}
NUMBER_OPTIONS = {name for name, pool in POOLS.items() if pool in (INTS, SMALL_COUNTS, FLOATS)} | {
    "--games", "--seed", "--threads", "--truncate", "--candidates", "--table", "--cube", "--worst",
    "--count", "--chunk", "--max-plies", "--epochs", "--batch"}
# where no value was drawn, few games: the defaults (1296 trials, 10,000 training games) are
# for real work, not for a fuzzing run
_ROLLOUTS = {"--trials": "36"}
FAST = {"rollout": _ROLLOUTS, "best": _ROLLOUTS, "cube": _ROLLOUTS, "chart": _ROLLOUTS,
        "report": _ROLLOUTS,
        "train": {"--games": "2", "--check-every": "100000000", "--check-deals": "1"},
        "train-data": {"--count": "1", "--chunk": "1", "--plies": "1"}}
_SHORT = {"--trials": "-n", "--games": "-n", "--count": "-n"}


def _option_values(param) -> list:
    long_name = next((o for o in param.opts if o.startswith("--")), param.opts[0])
    if param.is_flag:
        return [[long_name]] + [[name] for name in param.secondary_opts]
    return [[param.opts[-1] if len(param.opts) > 1 else long_name, value]
            for value in POOLS.get(long_name, ["x", "", "1"])]


# values no option takes: a run drawn "sane" leaves them out, so that it gets past the
# option checks into the real work (rollouts, files written, reports) more often
INSANE = set(NOT_A_NUMBER) | {"-1", "-3", "-2", "bogus", "nope", "xml", "", " ", "X" * 1000,
                              "nonsense", "missing.txt", "binary.bin", "folder", "c.jpg",
                              "missing/out.csv", "a" * 300 + ".csv", "10000001", "26",
                              "1e309", "inf", "nan", "not an address", "tcp://",
                              "tcp://host:notaport", str(2**63)}


def _sane(values: list) -> list:
    kept = [v for v in values if not (set(v) if isinstance(v, list) else {v}) & INSANE]
    return kept or values


@st.composite
def command_lines(draw):
    name = draw(st.sampled_from(FUZZED_COMMANDS))
    sane = draw(st.booleans())
    pick = (lambda values: _sane(values)) if sane else (lambda values: values)
    argv = [name]
    for param in COMMAND.commands[name].params:
        if param.param_type_name == "argument":
            value = draw(st.sampled_from(pick(ARGUMENTS.get(param.name, POSITIONS))))
            if value is not None:
                argv.append(value)
        elif param.required or draw(st.integers(0, 3)) == 0:  # others one time in four
            argv.extend(draw(st.sampled_from(pick(_option_values(param)))))
    fast = FAST.get(name, _ROLLOUTS if "--rollout" in argv else {})  # batch --rollout
    for option, value in fast.items():  # few games where none were drawn
        if option not in argv and _SHORT.get(option) not in argv:
            argv += [option, value]
    return argv


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "good.txt").write_text(f"{START}\ntW0AAED7AQAAAA # a bear-off\n")
    (folder / "empty.txt").write_text("# nothing here\n")
    (folder / "quote.csv").write_text(f'id,position\n1,{START}\n2,"{START}\n')
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (folder / "folder").mkdir()
    matches = Path(__file__).parent / "fixtures" / "matches"
    for suffix in (".mat", ".sgf"):  # a short match (one game)
        (folder / f"match{suffix}").write_bytes((matches / f"match1{suffix}").read_bytes())
    return folder


RUNS = itertools.count()
_FRESH = {"out.csv", "out.jsonl", "out.parquet"}


def _given_a_word_for_a_number(argv: list[str]) -> bool:
    return any(option in NUMBER_OPTIONS and value in ("x", "", "1.5e", "\uff13")
               for option, value in zip(argv, argv[1:]))


@settings(max_examples=int(os.environ.get("BGCLI_FUZZ_EXAMPLES", "200")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(argv=command_lines())
def test_every_command_ends_cleanly_whatever_it_is_given(capsys, monkeypatch, workdir, argv):
    monkeypatch.chdir(workdir)
    # a fresh output file for every run (the file existing already is fuzzed by --resume)
    run_number = next(RUNS)
    argv = [f"{v[:3]}{run_number}{v[3:]}" if v in _FRESH else v for v in argv]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{START}\nnonsense\n"))
    code, out, err = run(capsys, *argv)
    event(f"{argv[0]} exit {code}")
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 1, 2), (argv, code, err)
    if code != 0:  # said why (progress lines on stderr may follow the error line)
        assert any(line.startswith("bgcli:") for line in err.splitlines()), (argv, err)
    if _given_a_word_for_a_number(argv):
        assert code == 2, (argv, out, err)
    assert os.path.isdir(workdir / "folder")  # nothing wrote over an input
