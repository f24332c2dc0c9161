"""``bgcli batch``: collections in, tidy rows out, nothing lost, the same numbers everywhere.

Reading collections (CSV and plain text, bad rows with their labels); batches to CSV, JSON
lines and Parquet whose values are those of ``bgcli pips`` and ``bgcli rollout``; resuming
after a simulated kill, a real SIGKILL, Ctrl-C and SIGTERM, giving exactly the rows of an
uninterrupted run; bad rows reported and skipped with exit code 1; and a real local Dask
cluster (scheduler and worker processes on 127.0.0.1) giving the local rows, also when a
worker is killed mid-batch. Rollouts are small (36-200 games, no variance reduction).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bgcli.values import plain

from bgcli import __version__
from bgcli.batch import (DECISION_COLUMNS, RACE_COLUMNS, ROLLOUT_COLUMNS, TAIL_COLUMNS,
                         BatchPlan, columns, journal_path, lock_path, position_seed,
                         read_done)
from bgcli.cli.app import main
from cli_helpers import reaped, run, stop
from bgcli.collections import Entry, EntryError, read_collection
from bgcli.errors import CollectionError
from bgcli.position import Position
from bgcli.race import race_metrics
from bgcli.rollout import RolloutSettings

POSITIONS = [
    "4HPwATDgc/ABMA",
    "sGfwATDgc/ABMA:MAEAAAAAAAAE",
    "a5yDAQYtO4MBAw",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10",
    "OJ+bAQDYnucAAA",
    "290NAADb7g4AAA",
    "GwAAoBsAAAAAAA",
    "f42ABwC/cfAAAA",
]
SMALL_ROLLOUT = ["--rollout", "--trials", "36", "--no-variance-reduction"]
SHARED_POINT_ID = "4Dn4QDDgc/ABMA"  # parses, but both sides hold one point: impossible
OPENING_33 = "4HPwATDgc/ABMA:cIkNAAAAAAAE"  # the start with 33 rolled (money)
OPPONENT_OWNS = "OJ+bAQDYnucAAA:QQkAAAAAAAAE"  # a race, cube 2 owned by the opponent (money)
DANCING = "27Y5AADg8+ADQA"  # X on the bar against a closed board: no roll moves
CUBE_NAMES = ("cube_action", "cubeful_equity", "no_double", "double_take", "double_pass",
              "take_point", "cube_efficiency")
RATES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")




def errors(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("bgcli: error:")]


def text(value) -> str:
    """Values as CSV holds them, so rows read back from any format compare equal."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read_rows(path: Path) -> list[dict]:
    """Rows of a batch output in any format, every value as text, without the timing."""
    if path.suffix == ".csv":
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    elif path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text().splitlines()]
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
    return [{k: text(v) for k, v in row.items() if k != "elapsed_seconds"} for row in rows]


def by_id(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda row: int(row["id"]))


def write_collection(path: Path, positions: list[str]) -> Path:
    lines = ["id,name,position,notes"] + [f"{i},p{i},{p}," for i, p in enumerate(positions, 1)]
    path.write_text("\n".join(lines) + "\n")
    return path


def random_positions(count: int, seed: int) -> list[str]:
    """Distinct positions from random games, every few plies, as Position IDs."""
    from bgcli.moves import legal_plays

    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        position = Position.start()
        for ply in range(200):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            if plays:
                position = rng.choice(plays).result
            if position.is_game_over():
                break
            position = position.swapped()
            if ply % 7 == 6 and position.position_id() not in found:
                found.append(position.position_id())
                if len(found) == count:
                    break
    return found


# ----------------------------------------------------------------------------- collections


def test_help_has_an_example(capsys):
    code, out, _ = run(capsys, "batch", "--help")
    assert code == 0 and "Example" in out


def test_csv_collection_defaults_extra_columns_and_labels(tmp_path):
    path = tmp_path / "study.csv"
    path.write_text("\ufeff# a study\n\nid,name,position,notes,source\n"
                    'A,"the start",4HPwATDgc/ABMA,"two\nlines",x\n'
                    "\n"
                    ",unnamed,a5yDAQYtO4MBAw\n"
                    "B,no position,,\n"
                    "C,,OJ+bAQDYnucAAA,race\n")
    items = list(read_collection(path))
    assert items == [
        Entry("A", "the start", "4HPwATDgc/ABMA", "two\nlines", f"{path}:4"),
        Entry("7", "unnamed", "a5yDAQYtO4MBAw", "", f"{path}:7"),
        EntryError(f"{path}:8", "no position in this row"),
        Entry("C", "", "OJ+bAQDYnucAAA", "race", f"{path}:9"),
    ]


def test_plain_text_collection_with_comments(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("# positions, one a line\n\n4HPwATDgc/ABMA   # the start, before any roll\n"
                    "   \nOJ+bAQDYnucAAA\n")
    assert list(read_collection(path)) == [
        Entry("3", "", "4HPwATDgc/ABMA", "the start, before any roll", f"{path}:3"),
        Entry("5", "", "OJ+bAQDYnucAAA", "", f"{path}:5"),
    ]
    assert list(read_collection("-", io.StringIO("position\n290NAADb7g4AAA\n"))) == [
        Entry("2", "", "290NAADb7g4AAA", "", "<stdin>:2")]


def test_unreadable_collections_raise_at_once(tmp_path):
    with pytest.raises(CollectionError, match="not found"):
        read_collection(tmp_path / "missing.csv")
    with pytest.raises(CollectionError, match="directory"):
        read_collection(tmp_path)
    bad_header = tmp_path / "bad.csv"
    bad_header.write_text("id,name,pos\n1,x,4HPwATDgc/ABMA\n")
    with pytest.raises(CollectionError, match=r"bad.csv:1: the CSV header has no 'position'"):
        list(read_collection(bad_header))
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"4HPwATDgc/ABMA # caf\xe9\n")
    with pytest.raises(CollectionError, match="not UTF-8"):
        list(read_collection(latin))


def test_missing_collection_is_a_usage_error(capsys, tmp_path):
    code, out, err = run(capsys, "batch", str(tmp_path / "nope.csv"))
    assert code == 2 and out == ""
    assert errors(err) == [f"bgcli: error: collection not found: {str(tmp_path / 'nope.csv')!r}"]


# ----------------------------------------------------------------------------- rows


def test_race_columns_are_exactly_the_race_metrics():
    assert [name for name, _ in RACE_COLUMNS] == list(race_metrics(Position.start()))


def test_pips_batch_matches_bgcli_pips(capsys, tmp_path):
    collection = write_collection(tmp_path / "c.csv", POSITIONS)
    code, out, err = run(capsys, "batch", str(collection))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == columns(BatchPlan())
    code, pips_out, _ = run(capsys, "pips", *POSITIONS, "-f", "csv")
    assert code == 0
    expected = list(csv.DictReader(io.StringIO(pips_out)))
    assert len(rows) == len(expected) == len(POSITIONS)
    for number, (row, pips_row) in enumerate(zip(rows, expected), start=1):
        assert {k: row[k] for k in pips_row} == pips_row
        assert (row["id"], row["name"], row["bgcli_version"]) == (str(number), f"p{number}", __version__)
    xgid_row = rows[3]
    assert (xgid_row["position_id"], xgid_row["match_id"]) == ("4HPwATDgc/ABMA", "cInlAAAAAAAE")
    assert xgid_row["xgid"] == POSITIONS[3]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_every_format_holds_the_same_rows(capsys, tmp_path, suffix):
    collection = write_collection(tmp_path / "c.csv", POSITIONS)
    code, reference, _ = run(capsys, "batch", str(collection))
    out = tmp_path / f"out{suffix}"
    code, stdout, err = run(capsys, "batch", str(collection), "-o", str(out))
    assert code == 0 and stdout == "", err
    expected = [{k: v for k, v in row.items() if k != "elapsed_seconds"}
                for row in csv.DictReader(io.StringIO(reference))]
    assert read_rows(out) == expected
    assert not journal_path(out).exists()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        schema = pq.read_schema(out)
        assert schema.names == columns(BatchPlan())
        assert str(schema.field("pips_on_roll").type) == "int64"
        assert str(schema.field("is_race").type) == "bool"


def test_rollout_rows_reproduce_with_bgcli_rollout(capsys, tmp_path):
    collection = write_collection(tmp_path / "c.csv", POSITIONS[:3])
    code, out, err = run(capsys, "batch", str(collection), *SMALL_ROLLOUT, "--seed", "11")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == columns(BatchPlan(rollout=RolloutSettings()))
    for row in rows:
        assert row["master_seed"] == "11"
        assert int(row["seed"]) == position_seed(11, row["position_id"], row["match_id"])
        code, single, _ = run(capsys, "rollout", row["input"], "--seed", row["seed"], "--trials",
                              "36", "--no-variance-reduction", "-f", "csv")
        single_row = next(csv.DictReader(io.StringIO(single)))
        for name in ("win", "win_se", "lose_backgammon", "equity", "equity_se", "equity_ci_low"):
            # the same text: both write floats to 12 significant digits (bgcli.values)
            assert row[name] == single_row[name], name
        for name in ("games", "trials", "policy", "variance_reduction", "stop_se", "min_games"):
            assert row[name] == single_row[name], name
    assert len({row["seed"] for row in rows}) == 3


def test_position_seed_is_stable_and_53_bits():
    seed = position_seed(1, "4HPwATDgc/ABMA", "cAkAAAAAAAAE")
    assert seed == position_seed(1, "4HPwATDgc/ABMA", "cAkAAAAAAAAE")
    assert seed != position_seed(2, "4HPwATDgc/ABMA", "cAkAAAAAAAAE")
    assert seed != position_seed(1, "4HPwATDgc/ABMA", "cInlAAAAAAAE")
    assert 0 <= seed < 2**53 and float(seed) == seed  # a double (jq, JavaScript) holds it exactly
    # fixed from now on: the top 53 of the 64 bits of BLAKE2b("1:4HPwATDgc/ABMA:cAkAAAAAAAAE");
    # the 63-bit seed of earlier versions was 8540862996583175722 (the same hash >> 1)
    assert seed == 8540862996583175722 >> 10 == 8340686520100757


def test_bad_rows_are_reported_by_line_and_skipped(capsys, tmp_path):
    collection = tmp_path / "mixed.csv"
    collection.write_text("id,name,position,notes\n"
                          "1,good,4HPwATDgc/ABMA,\n"
                          "2,typo,nonsense,\n"
                          "3,empty,,\n"
                          f"4,impossible,{SHARED_POINT_ID},\n"
                          "5,good,OJ+bAQDYnucAAA,\n")
    out = tmp_path / "out.csv"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), *SMALL_ROLLOUT, "--seed", "1")
    assert code == 1
    lines = errors(err)
    assert [line.split(": ")[2] for line in lines] == [f"{collection}:{n}" for n in (3, 4, 5)]
    assert "not a position" in lines[0] and "no position" in lines[1] and "impossible" in lines[2]
    assert "Traceback" not in err
    assert [row["id"] for row in read_rows(out)] == ["1", "5"]


def test_usage_errors(capsys, tmp_path):
    collection = write_collection(tmp_path / "c.csv", POSITIONS[:1])
    existing = tmp_path / "out.csv"
    existing.write_text("keep me\n")
    for argv, needle in [
        (["-o", str(tmp_path / "out.txt")], "cannot tell the format"),
        (["-f", "parquet"], "Parquet cannot go to stdout"),
        (["--resume"], "need -o OUT"),
        (["--trials", "36"], "--trials only apply with --rollout"),
        (["--rollout", "--policy", "clever"], "policy must be one of"),
        (["-o", str(existing)], "exists: --resume continues it, --overwrite replaces it"),
        (["--policy", "clever"], "policy must be one of"),  # --policy applies without --rollout
        (["--dice", "71"], "1..6"),
        (["-o", str(tmp_path / "x.csv"), "-f", "parquet"], "x.csv' names a csv file and --format says parquet"),
        (["-o", str(tmp_path / "x.parquet"), "-f", "jsonl"], "names a parquet file and --format says jsonl"),
        (["--cluster-timeout", "5"], "--cluster-timeout only applies with --scheduler"),
    ]:
        code, out, err = run(capsys, "batch", str(collection), *argv)
        assert code == 2 and out == "", argv
        assert len(err.splitlines()) == 1 and needle in err, err
    assert existing.read_text() == "keep me\n"
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "x.parquet").exists()
    code, _, err = run(capsys, "batch", str(collection), "-o", str(existing), "--overwrite")
    assert code == 0 and len(read_rows(existing)) == 1
    assert "bgcli batch: 1 row written to" in err  # one row, not "1 rows"


@pytest.mark.parametrize("content", ["", "\n# nothing yet\n", "id,name,position,notes\n"])
def test_a_collection_without_positions_is_a_usage_error_as_in_report(capsys, tmp_path,
                                                                      monkeypatch, content):
    collection = tmp_path / "c.csv"
    collection.write_text(content)
    out = tmp_path / "out.csv"
    code, stdout, err = run(capsys, "batch", str(collection), "-o", str(out))
    assert (code, stdout, errors(err)) == (2, "", [f"bgcli: error: no positions in {str(collection)!r}"])
    assert not out.exists()
    code, _, report_err = run(capsys, "report", str(collection), "-o", str(tmp_path / "r"))
    assert code == 2 and errors(report_err) == errors(err)
    monkeypatch.setattr(sys, "stdin", io.StringIO(content))
    code, stdout, err = run(capsys, "batch", "-")
    assert (code, stdout, errors(err)) == (2, "", ["bgcli: error: no positions on standard input"])


def _read_only_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root may write anywhere: then /sys)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        (folder / "probe").touch()
    except PermissionError:
        return folder
    if _cannot_touch("/sys/probe"):  # Linux's sysfs takes no new files
        return Path("/sys")
    pytest.skip("no folder here is read-only to this user")


def _cannot_touch(path: str) -> bool:
    try:
        open(path, "a").close()
    except OSError:
        return True
    os.unlink(path)
    return False


def test_an_output_that_cannot_be_written_is_refused_before_computing(capsys, tmp_path,
                                                                     monkeypatch):
    import bgcli.batch

    def never(*_):
        raise AssertionError("computed a position for an output it cannot write")

    monkeypatch.setattr(bgcli.batch.outcomes, "analyse", never)
    collection = write_collection(tmp_path / "c.csv", POSITIONS[:2])
    (tmp_path / "folder.csv").mkdir()
    full = tmp_path / "full.csv"
    full.symlink_to("/dev/full")
    long_name = "x" * 300 + ".csv"
    for output, argv, needle in [
        (tmp_path / long_name, [], "cannot write this file (its name is too long: 255 bytes at most here)"),
        (tmp_path / ("x" * 245 + ".parquet"), [], "(its name is too long, with '.lock' beside it: 255 bytes at most here)"),
        (tmp_path / ("x" * 300) / "out.csv", [], "cannot write this file (File name too long)"),
        (tmp_path / "folder.csv", ["--overwrite"], f"(it is a directory): {str(tmp_path / 'folder.csv')!r}"),
        (tmp_path / "no" / "such" / "out.csv", [], "(No such file or directory): "),
        (_read_only_folder(tmp_path) / "out.csv", [], "(Permission denied): "),
        (full, ["--overwrite"], f"(No space left on device): {str(full)!r}"),
        (collection, ["--overwrite"], "c.csv' is INPUT itself: write the rows to another file"),
        (collection, ["--resume"], "c.csv' is INPUT itself"),
    ]:
        code, out, err = run(capsys, "batch", str(collection), "-o", str(output), "--rollout", *argv)
        assert code == 2 and out == "", err
        assert len(err.splitlines()) == 1 and needle in err, err
    assert len(list(read_collection(collection))) == 2  # the collection is as it was


def test_stdin_collection(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(POSITIONS[:2]) + "\n"))
    code, out, err = run(capsys, "batch", "-", "-f", "jsonl")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["position_id"]) for r in rows] == [("1", "4HPwATDgc/ABMA"),
                                                           ("2", "sGfwATDgc/ABMA")]


# ----------------------------------------------------------------------------- decisions


def decision_rows(capsys, positions: list[str], *argv: str) -> list[dict]:
    """JSON lines rows (exact floats) of a batch of ``positions``."""
    listing = "\n".join(positions) + "\n"
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(listing)
    try:
        code, out, err = run(capsys, "batch", "-", "-f", "jsonl", *argv)
    finally:
        sys.stdin = old_stdin
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_decision_columns_come_after_the_rollout_columns():
    names = [name for name, _ in DECISION_COLUMNS]
    assert names == ["cube_action", "cubeful_equity", "no_double", "double_take", "double_pass",
                     "take_point", "cube_efficiency", "cube_source", "best_play",
                     "best_play_equity", "best_play_dice", "evaluator_policy", "evaluator_plies",
                     "evaluator_filter", "dice_option"]
    tail = [name for name, _ in TAIL_COLUMNS]
    with_rollout = columns(BatchPlan(rollout=RolloutSettings()))
    assert with_rollout[-len(names) - len(tail):] == names + tail
    assert with_rollout.index("cube_action") == with_rollout.index(ROLLOUT_COLUMNS[-1][0]) + 1
    assert columns(BatchPlan())[-len(names) - len(tail):] == names + tail


def test_cube_columns_are_cube_decision_of_the_rollout_rates(capsys):
    from bgcli.decisions import cube_decision, match_score, rank_plays_at
    from bgcli.notation.detect import parse_situation

    positions = [POSITIONS[0], POSITIONS[2], POSITIONS[4], OPPONENT_OWNS, OPENING_33, POSITIONS[3]]
    rows = decision_rows(capsys, positions, "--rollout", "--trials", "72", "--policy",
                         "heuristic", "--no-variance-reduction", "--seed", "3")
    assert [row["input"] for row in rows] == positions
    for row in rows:
        situation = parse_situation(row["input"])
        assert (row["evaluator_policy"], row["evaluator_plies"], row["dice_option"]) == (
            "heuristic", 1, None)
        if situation.match.dice_rolled:  # a cube decision comes before the roll
            assert all(row[name] is None for name in CUBE_NAMES + ("cube_source",)), row
            # at a match score ranked in MWC, the equity in EMG (tests/test_matchplay.py)
            top = rank_plays_at(situation.position, situation.match.dice, "heuristic", 1,
                                match_score(situation))[0]
            assert (row["best_play"], row["best_play_equity"]) == (top.play.notation,
                                                                   plain(top.equity))
            continue
        # computed again, independently, from the row's own five rates
        expected = cube_decision(situation, [row[name] for name in RATES]).row()
        # rows hold floats to 12 significant digits, as every output does (bgcli.values),
        # so the rates recomputed from differ from the rollout's in the 12th digit
        for name in CUBE_NAMES:
            assert row[name] == (pytest.approx(expected[name], rel=1e-9, abs=1e-11)
                                 if isinstance(expected[name], float) else expected[name]), name
        assert row["cube_source"] == "rollout"
        assert row["best_play"] is row["best_play_equity"] is row["best_play_dice"] is None
    by_input = {row["input"]: row for row in rows}
    owned = by_input[OPPONENT_OWNS]
    assert owned["cube_action"] == "No double: the opponent owns the cube"
    assert owned["double_take"] is owned["double_pass"] is None
    assert owned["cubeful_equity"] == owned["no_double"]
    assert by_input[OPENING_33]["best_play_dice"] == "33"
    assert by_input[POSITIONS[3]]["best_play_dice"] == "31"
    # the cube actions are gnubg's words
    from bgcli.cube import CubeAction

    assert {row["cube_action"] for row in rows} - {None} <= {str(a) for a in CubeAction} | {
        "No double: the opponent owns the cube", "No double: the cube is dead or not available"}


def test_without_rollouts_the_evaluator_decides(capsys):
    from bgcli.decisions import cube_decision
    from bgcli.evaluation import position_probabilities, rank_plays
    from bgcli.notation.detect import parse_situation

    positions = [POSITIONS[2], OPPONENT_OWNS, OPENING_33]
    for policy, plies in (("net", 1), ("heuristic", 1), ("net", 0)):
        argv = [] if policy == "net" else ["--policy", policy]  # net is the default
        argv += [] if plies == 1 else ["--plies", str(plies)]  # and 1-ply
        rows = decision_rows(capsys, positions, *argv)
        for row in rows:
            assert "equity" not in row and row["evaluator_policy"] == policy
            assert row["evaluator_plies"] == plies
            situation = parse_situation(row["input"])
            if situation.match.dice_rolled:
                assert row["cube_source"] is None and row["cube_action"] is None
                top = rank_plays(situation.position, situation.match.dice, policy, plies)[0]
                assert (row["best_play"], row["best_play_equity"]) == (top.play.notation,
                                                                       plain(top.equity))
                continue
            rates = position_probabilities(situation.position, policy, plies)
            expected = cube_decision(situation, rates).row()
            assert {n: row[n] for n in CUBE_NAMES} == {n: plain(expected[n]) for n in CUBE_NAMES}
            assert row["cube_source"] == "evaluator"
        assert rows[1]["cube_action"] == "No double: the opponent owns the cube"


def test_dice_option_fills_positions_without_dice(capsys):
    from bgcli.evaluation import rank_plays
    from bgcli.notation.detect import parse_situation

    positions = [POSITIONS[2], OPENING_33, DANCING, POSITIONS[4]]
    rows = decision_rows(capsys, positions, "--dice", "1-3", "--policy", "heuristic")
    assert [row["dice_option"] for row in rows] == ["31"] * 4
    assert [row["best_play_dice"] for row in rows] == ["31", "33", "31", "31"]  # its own 33 wins
    for row in (rows[0], rows[1], rows[3]):
        situation = parse_situation(row["input"])
        dice = situation.match.dice if situation.match.dice_rolled else (3, 1)
        top = rank_plays(situation.position, dice, "heuristic", plies=1)[0]
        assert (row["best_play"], row["best_play_equity"]) == (top.play.notation, plain(top.equity))
    # rolling dice to try does not roll them: the cube action is still the one before the roll
    assert rows[0]["cube_source"] == rows[3]["cube_source"] == "evaluator"
    assert rows[0]["cube_action"] and rows[1]["cube_action"] is None
    # no checker can come in from the bar: the position stays as it is, the opponent to roll
    assert rows[2]["best_play"] == "cannot move"
    from bgcli.evaluation import cubeless_equity, position_probabilities

    opponent = position_probabilities(Position.from_id(DANCING).swapped(), "heuristic", plies=1)
    assert rows[2]["best_play_equity"] == pytest.approx(-cubeless_equity(opponent))


# ----------------------------------------------------------------------------- resume


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """Six positions and the rows of an uninterrupted small-rollout batch in every format."""
    folder = tmp_path_factory.mktemp("study")
    collection = write_collection(folder / "c.csv", POSITIONS[:6])
    full = {}
    for suffix in (".csv", ".jsonl", ".parquet"):
        out = folder / f"full{suffix}"
        try:
            main(["batch", str(collection), "-o", str(out), *SMALL_ROLLOUT, "--seed", "5"])
        except SystemExit as exc:
            assert exc.code in (0, None)
        full[suffix] = read_rows(out)
    assert full[".csv"] == full[".jsonl"] == full[".parquet"]
    return collection, full[".csv"], folder


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_resume_after_a_kill_in_mid_line(capsys, tmp_path, study, suffix):
    collection, expected, folder = study
    out = tmp_path / f"out{suffix}"
    lines = (folder / f"full{suffix}").read_bytes().splitlines(keepends=True)
    keep = 3 if suffix == ".csv" else 2  # the CSV header and two rows
    out.write_bytes(b"".join(lines[:keep]) + lines[keep][:25])  # half a row at the end
    # no --seed: the master seed is taken from the file
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume",
                       *SMALL_ROLLOUT)
    assert code == 0, err
    assert "4 rows written" in err and "2 already there" in err
    assert read_rows(out) == expected


def test_resume_parquet_from_file_and_journal(capsys, tmp_path, study):
    collection, expected, folder = study
    out = tmp_path / "out.parquet"
    first_two = write_collection(tmp_path / "first.csv", POSITIONS[:2])
    code, _, err = run(capsys, "batch", str(first_two), "-o", str(out), *SMALL_ROLLOUT, "--seed", "5")
    assert code == 0, err
    # then a run killed hard: one row in the journal, half of the next
    journal_lines = (folder / "full.jsonl").read_text().splitlines(keepends=True)
    journal_path(out).write_text(journal_lines[2] + journal_lines[3][:40])
    done = read_done(out, "parquet")
    assert len(done.keys) == 3 and done.master_seed == 5
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *SMALL_ROLLOUT)
    assert code == 0, err
    assert read_rows(out) == expected
    assert not journal_path(out).exists()


def test_resume_refuses_other_settings(capsys, study):
    collection, expected, folder = study
    out = folder / "full.csv"
    before = out.read_bytes()
    for argv, needle in [
        (SMALL_ROLLOUT + ["--seed", "6"], "written with master_seed=5, this run has master_seed=6"),
        (["--rollout", "--trials", "72", "--no-variance-reduction"], "trials=36, this run has trials=72"),
        ([], "it has rollout columns and this run has no --rollout"),
        (SMALL_ROLLOUT + ["--dice", "31"], "dice_option=, this run has dice_option=31"),
    ]:
        code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *argv)
        assert code == 2 and errors(err) and needle in err, err
    assert out.read_bytes() == before


def _garbled(folder: Path) -> list[tuple[str, bytes, str]]:
    """(name, content, what the error must say) of outputs that bgcli batch did not write."""
    csv_lines = (folder / "full.csv").read_bytes().splitlines(keepends=True)
    json_lines = (folder / "full.jsonl").read_bytes().splitlines(keepends=True)
    short_row = csv_lines[3].rsplit(b",", 1)[0] + b"\n"  # the last field lost
    fields = columns(BatchPlan(rollout=RolloutSettings()))
    return [
        ("short.csv", b"".join(csv_lines[:3] + [short_row] + csv_lines[4:]),
         f"line 4 has {len(fields) - 1} fields where the header has {len(fields)}"),
        ("interleaved.csv", b"".join(csv_lines[:2]) + csv_lines[2][:30] + b"".join(csv_lines[3:]),
         "line 3 has"),
        ("torn.jsonl", b"".join(json_lines[:1]) + json_lines[1][:30] + b"".join(json_lines[2:]),
         "line 2 is not JSON"),
        ("list.jsonl", b"".join(json_lines[:2]) + b"[1, 2]\n", "line 3 is not a JSON object"),
        ("random.csv", random.Random(1).randbytes(3000), "it is not UTF-8 text"),
        ("one-line.jsonl", b"not a row, no newline", "it does not begin as a bgcli batch output"),
        ("parquet.csv", (folder / "full.parquet").read_bytes(), "it is a Parquet file, not csv"),
    ]


def test_resume_refuses_a_file_bgcli_batch_did_not_write(capsys, tmp_path, study):
    """Rows with the wrong number of fields, lines that are not JSON, bytes that are not text,
    a Parquet file under a .csv name: refused, naming the file and line, and left as they are
    (the half-written last line a kill leaves is still cut off: test_resume_after_a_kill_in_mid_line)."""
    collection, _, folder = study
    for name, content, needle in _garbled(folder):
        out = tmp_path / name
        out.write_bytes(content)
        code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *SMALL_ROLLOUT)
        assert code == 2 and len(err.splitlines()) == 1, err
        assert f"cannot resume {str(out)!r}: {needle}" in err, err
        assert "Traceback" not in err and "already there" not in err
        assert out.read_bytes() == content, name


def test_resume_refuses_a_garbled_parquet_journal(capsys, tmp_path, study):
    collection, _, folder = study
    out = tmp_path / "out.parquet"
    out.write_bytes((folder / "full.parquet").read_bytes())
    journal_lines = (folder / "full.jsonl").read_text().splitlines(keepends=True)
    for content, needle in [("not json at all\n", "line 1 is not JSON"),
                            (journal_lines[0].replace('"id"', '"ident"'),
                             "line 1 has other columns than the rows before it")]:
        journal_path(out).write_text(content)
        code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *SMALL_ROLLOUT)
        assert code == 2 and f"cannot resume {str(journal_path(out))!r}: {needle}" in err, err
        assert journal_path(out).read_text() == content
    assert read_rows(out) == read_rows(folder / "full.parquet")


def test_resume_refuses_another_evaluator_or_dice(capsys, tmp_path):
    collection = write_collection(tmp_path / "c.csv", POSITIONS[:2])
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--dice", "42")
    assert code == 0, err
    before = out.read_bytes()
    for argv, needle in [
        (["--dice", "42", "--policy", "heuristic"],
         "written with evaluator_policy=net, this run has evaluator_policy=heuristic"),
        (["--dice", "42", "--plies", "0"],
         "written with evaluator_plies=1, this run has evaluator_plies=0"),
        ([], "written with dice_option=42, this run has dice_option="),
    ]:
        code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *argv)
        assert code == 2 and needle in err, err
    assert out.read_bytes() == before
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", "--dice", "24")
    assert code == 0 and "2 already there" in err, err


def test_rows_name_the_net_and_resume_refuses_another(capsys, tmp_path, monkeypatch):
    from bgcli.evaluation import policy_net
    from bgcli.kernels.net import init_params
    from bgcli.net import net_id, save_weights

    collection = write_collection(tmp_path / "c.csv", POSITIONS[:2])
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out))
    assert code == 0, err
    shipped = policy_net("net")
    assert shipped.startswith(net_id() + ", prune sha256:")  # the pruning net too
    assert {row["net"] for row in read_rows(out)} == {shipped}
    heuristic = tmp_path / "heuristic.jsonl"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(heuristic), "--policy", "heuristic")
    assert code == 0 and {row["net"] for row in read_rows(heuristic)} == {""}, err  # null
    mine = tmp_path / "mine.npz"
    save_weights(mine, init_params(7), {"games": 0})
    monkeypatch.setenv("BGCLI_WEIGHTS", str(mine))
    before = out.read_bytes()
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume")
    assert code == 2 and f"written with net={shipped}, this run has net={policy_net('net')}" in err, err
    assert net_id(mine) in policy_net("net")
    assert out.read_bytes() == before


def test_ctrl_c_keeps_the_rows_written(capsys, tmp_path, study, monkeypatch):
    import bgcli.batch

    collection, expected, _ = study
    real_analyse, calls = bgcli.batch.outcomes.analyse, []

    def interrupted_at_the_third(entry, plan, progress=None):
        calls.append(entry.id)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_analyse(entry, plan, progress)

    for suffix in (".csv", ".parquet"):
        calls.clear()
        out = tmp_path / f"out{suffix}"
        monkeypatch.setattr(bgcli.batch.outcomes, "analyse", interrupted_at_the_third)
        code, _, err = run(capsys, "batch", str(collection), "-o", str(out), *SMALL_ROLLOUT, "--seed", "5")
        assert code == 130 and "--resume continues" in err
        assert read_rows(out) == expected[:2]  # Parquet: written properly on the way out
        monkeypatch.setattr(bgcli.batch.outcomes, "analyse", real_analyse)
        code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *SMALL_ROLLOUT)
        assert code == 0, err
        assert read_rows(out) == expected


def test_ctrl_c_in_a_positions_last_games_stops_the_batch(capsys, tmp_path, study, monkeypatch):
    """The rollout finishes the games in flight on Ctrl-C: when they are its last ones, the
    rollout is complete, and the batch must stop all the same (once, it went on)."""
    from bgcli.cli.batch import _BatchProgress

    collection, expected, _ = study
    positions_done = []

    def ctrl_c_at_the_second_positions_end(self, done, total, *_):
        if done == total:
            positions_done.append(1)
            if len(positions_done) == 2:
                signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(_BatchProgress, "on_games", ctrl_c_at_the_second_positions_end)
    out = tmp_path / "out.csv"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), *SMALL_ROLLOUT, "--seed", "5")
    assert code == 130, err
    assert read_rows(out) == expected[:1]  # the second one is computed again by --resume
    assert "1 row written" in err and "--resume continues" in err


@pytest.fixture(scope="module")
def signal_study(tmp_path_factory):
    """Thirty positions at 200 games: a few seconds, mostly spent in positions' last games."""
    folder = tmp_path_factory.mktemp("signals")
    collection = write_collection(folder / "c.csv", random_positions(30, seed=5))
    return collection, ["--rollout", "--trials", "200", "--no-variance-reduction", "--seed", "4"]


@pytest.mark.slow
@pytest.mark.parametrize("signal_name, rows, delay", [
    ("SIGINT", 1, 0.0), ("SIGINT", 2, 0.05), ("SIGINT", 3, 0.12), ("SIGTERM", 1, 0.03),
    ("SIGTERM", 2, 0.1)])
def test_a_signal_at_any_moment_stops_the_batch(tmp_path, signal_study, signal_name, rows, delay):
    """Ctrl-C or SIGTERM, wherever it lands in a position: exit 130 at once, every row written
    complete and in order (none lost before it, none half-written)."""
    collection, settings = signal_study
    out = tmp_path / "out.csv"
    process = _start_batch(collection, out, *settings)
    with reaped(process):
        _wait_for_rows(out, rows + 1, process)  # the header and ``rows`` rows
        time.sleep(delay)
        stderr = stop(process, getattr(signal, signal_name), timeout=30)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "--resume continues" in stderr
    written = read_rows(out)
    assert rows <= len(written) < 30, "the batch was not stopped"
    assert [row["id"] for row in written] == [str(n) for n in range(1, len(written) + 1)]
    assert {row["games"] for row in written} == {"200"}
    assert f"{len(written)} row" in stderr


def _start_batch(collection: Path, out: Path, *argv: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bgcli", "batch", str(collection), "-o", str(out),
                             *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _wait_for_rows(path: Path, rows: int, process: subprocess.Popen | None, timeout: float = 120) -> int:
    """Wait until ``path`` holds at least ``rows`` complete lines; return how many it holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            count = path.read_bytes().count(b"\n")
            if count >= rows:
                return count
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the batch ended early: {process.stderr.read()}")
        time.sleep(0.02)
    raise AssertionError(f"{path} never reached {rows} lines")


@pytest.fixture(scope="module")
def long_study(tmp_path_factory):
    """Ten positions at 200 games each: long enough to be stopped in the middle."""
    folder = tmp_path_factory.mktemp("long")
    collection = write_collection(folder / "c.csv", random_positions(10, seed=3))
    return collection, ["--rollout", "--trials", "200", "--no-variance-reduction"]


@pytest.mark.slow
def test_sigkill_then_resume_gives_the_uninterrupted_rows(capsys, tmp_path, long_study):
    collection, settings = long_study
    out = tmp_path / "out.csv"
    process = _start_batch(collection, out, *settings)  # no --seed: a random master seed
    try:
        _wait_for_rows(out, 3, process)  # the header and two rows
    finally:
        process.kill()
        process.wait()
        process.stderr.close()
    written = read_rows(out)
    assert 2 <= len(written) < 10
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *settings)
    assert code == 0, err
    resumed = read_rows(out)
    master_seed = resumed[0]["master_seed"]
    assert {row["master_seed"] for row in resumed} == {master_seed}
    uninterrupted = tmp_path / "uninterrupted.csv"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(uninterrupted), *settings,
                       "--seed", master_seed)
    assert code == 0, err
    assert resumed == read_rows(uninterrupted)


@pytest.mark.slow
def test_sigterm_closes_a_parquet_file_properly(capsys, tmp_path, long_study):
    collection, settings = long_study
    out = tmp_path / "out.parquet"
    process = _start_batch(collection, out, *settings, "--seed", "9")
    with reaped(process):
        _wait_for_rows(journal_path(out), 2, process)
        stderr = stop(process, signal.SIGTERM)
    assert process.returncode == 130, stderr
    assert not journal_path(out).exists()
    assert 2 <= len(read_rows(out)) < 10
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *settings)
    assert code == 0, err
    rows = read_rows(out)
    assert len(rows) == 10 and len({row["id"] for row in rows}) == 10


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_second_writer_on_one_output_is_refused(capsys, tmp_path, signal_study, suffix):
    """--resume or --overwrite while another bgcli batch writes OUT: refused (exit 2, naming
    the other's pid), OUT untouched; the first finishes with every row once. After a SIGKILL
    the kernel has released the lock: --resume takes over."""
    collection, settings = signal_study
    out = tmp_path / f"out{suffix}"
    first = _start_batch(collection, out, *settings)
    with reaped(first):
        _wait_for_rows(journal_path(out) if suffix == ".parquet" else out, 2, first)
        for argv in (["--resume"], ["--overwrite"]):
            code, _, err = run(capsys, "batch", str(collection), "-o", str(out), *argv, *settings)
            assert code == 2 and errors(err) == [
                f"bgcli: error: {str(out)!r} is being written by another bgcli batch "
                f"(pid {first.pid}); wait for it to end, or write to another file"], err
        assert first.wait(timeout=120) == 0, first.stderr.read()
    rows = read_rows(out)
    assert [row["id"] for row in rows] == [str(n) for n in range(1, 31)]
    assert not lock_path(out).exists() and not journal_path(out).exists()
    # a writer killed hard leaves its lock file, but no lock
    out.unlink()
    killed = _start_batch(collection, out, *settings)
    with reaped(killed):
        _wait_for_rows(journal_path(out) if suffix == ".parquet" else out, 2, killed)
        killed.kill()
        killed.wait()
    assert lock_path(out).exists()
    half_written = tmp_path / f".{out.name}.{killed.pid}.tmp"  # as if killed while closing
    half_written.write_bytes(b"PAR1")
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), "--resume", *settings)
    assert code == 0, err
    assert read_rows(out) == rows
    assert sorted(tmp_path.iterdir()) == [out]  # no lock, journal or temporary file left


# ----------------------------------------------------------------------------- Dask


def _dask(*argv: str, environment: dict | None = None, **kwargs) -> subprocess.Popen:
    environment = dict(os.environ, NUMBA_NUM_THREADS="1") | (environment or {})
    return subprocess.Popen([sys.executable, "-m", "dask", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=environment, **kwargs)


def _worker(scheduler_file: Path, environment: dict | None = None) -> subprocess.Popen:
    return _dask("worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                 # --no-dashboard still serves health pages there, on every interface by default
                 "--dashboard-address", "127.0.0.1:0", environment=environment)


def _stop(processes: list[subprocess.Popen]) -> None:
    """Workers are killed (they hold nothing to save; a terminated worker may linger trying
    to reach a scheduler that is gone), then the scheduler is terminated."""
    scheduler, workers = processes[0], processes[1:]
    for process in workers:
        if process.poll() is None:
            process.kill()
    if scheduler.poll() is None:
        scheduler.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    with Client(address, timeout="60s", set_as_default=False) as client:
        client.wait_for_workers(count, timeout=120)


@contextlib.contextmanager
def _local_cluster(folder: Path, workers: int):
    """``dask scheduler`` and ``workers`` ``dask worker --nthreads 1`` processes, on
    127.0.0.1 only. Yields (address, scheduler file, processes list)."""
    scheduler_file = folder / "scheduler.json"
    processes = [_dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                       "--dashboard-address", "127.0.0.1:0",
                       "--scheduler-file", str(scheduler_file))]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            assert processes[0].poll() is None, "the Dask scheduler exited"
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        processes += [_worker(scheduler_file) for _ in range(workers)]
        _wait_for_workers(address, workers)
        yield address, scheduler_file, processes
    finally:
        _stop(processes)


SCHEDULER, WORKER = 0, 1  # the processes of _local_cluster(workers=1)


def _kill_mid_batch(tmp_path, long_study, out, victim: int, timeout: int) -> tuple[int, str]:
    """A batch on a one-worker cluster with --cluster-timeout ``timeout``, the ``victim``
    process killed after the first row: (exit code, stderr)."""
    collection, settings = long_study
    with _local_cluster(tmp_path, workers=1) as (address, _, processes):
        batch = _start_batch(collection, out, *settings, "--seed", "21", "--scheduler", address,
                             "--cluster-timeout", str(timeout))
        with reaped(batch):
            _wait_for_rows(out, 2, batch)
            processes[victim].kill()
            batch.wait(timeout=60)
            return batch.returncode, batch.stderr.read()


@pytest.mark.slow
def test_a_lost_scheduler_is_one_error_and_the_rows_are_kept(tmp_path, long_study):
    """The scheduler killed after the first row: the batch gives up within --cluster-timeout
    of losing it, with one line per position it took along and one for the cluster (no
    traceback from the Dask client), exit 1, the rows written kept."""
    out = tmp_path / "dask.csv"
    code, err = _kill_mid_batch(tmp_path, long_study, out, SCHEDULER, timeout=3)
    assert code == 1, err
    assert "Traceback" not in err and "distributed.client" not in err, err
    assert errors(err)[-1].startswith((  # found lost waiting for a row, or sending one
        "bgcli: error: the Dask cluster has had no scheduler to reach for 3 s (--cluster-timeout)",
        "bgcli: error: lost the Dask scheduler: ")), err
    assert all("the cluster could not run it" in line for line in errors(err)[:-1]), err
    rows = read_rows(out)
    assert 1 <= len(rows) < 10 and f"{len(rows)} row" in err


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A real local cluster of two workers, shared by the Dask tests."""
    with _local_cluster(tmp_path_factory.mktemp("dask"), workers=2) as cluster:
        yield cluster


@pytest.mark.slow
def test_a_cluster_that_loses_every_worker_gives_up(tmp_path, long_study, local_rows):
    """Its only worker killed after the first row: after --cluster-timeout seconds without a
    worker the batch says so and exits 1, every row written kept (and right). (It used to
    wait forever: hence a process, and a time limit.)"""
    out = tmp_path / "dask.csv"
    code, err = _kill_mid_batch(tmp_path, long_study, out, WORKER, timeout=2)
    assert code == 1, err
    assert errors(err) == ["bgcli: error: the Dask cluster has had no worker for 2 s "
                           "(--cluster-timeout): start it again and --resume"]
    rows = read_rows(out)
    assert 1 <= len(rows) < 10 and f"{len(rows)} row" in err
    expected = {row["id"]: row for row in local_rows}
    assert [expected[row["id"]] for row in rows] == rows


@pytest.fixture(scope="module")
def local_rows(tmp_path_factory, long_study):
    collection, settings = long_study
    out = tmp_path_factory.mktemp("local") / "local.jsonl"
    try:
        main(["batch", str(collection), "-o", str(out), *settings, "--seed", "21"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    return read_rows(out)


@pytest.mark.slow
def test_dask_cluster_gives_the_local_rows(capsys, tmp_path, long_study, local_rows, dask_cluster):
    collection, settings = long_study
    address, _, _ = dask_cluster
    out = tmp_path / "dask.jsonl"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), *settings, "--seed", "21",
                       "--scheduler", address)
    assert code == 0, err
    rows = read_rows(out)
    assert list(rows[0]) == list(local_rows[0])  # the same columns in the same order
    assert by_id(rows) == by_id(local_rows)
    # pips only: chunks of positions per task
    code, out_pips, err = run(capsys, "batch", str(collection), "--scheduler", address)
    assert code == 0, err
    code, out_local, _ = run(capsys, "batch", str(collection))
    strip = lambda text: by_id([{k: v for k, v in row.items() if k != "elapsed_seconds"}
                                for row in csv.DictReader(io.StringIO(text))])
    assert strip(out_pips) == strip(out_local)


@pytest.mark.slow
def test_a_worker_lost_mid_batch_loses_and_duplicates_nothing(capsys, tmp_path, long_study,
                                                             local_rows, dask_cluster):
    collection, settings = long_study
    address, scheduler_file, processes = dask_cluster
    doomed = _worker(scheduler_file)  # a third worker, killed once the first row is in
    processes.append(doomed)
    _wait_for_workers(address, 3)
    out = tmp_path / "dask.csv"
    rows_at_kill: list[int] = []

    def kill_after_first_row():
        rows_at_kill.append(_wait_for_rows(out, 2, None) - 1)
        doomed.kill()

    watcher = threading.Thread(target=kill_after_first_row, daemon=True)
    watcher.start()
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), *settings, "--seed", "21",
                       "--scheduler", address)
    watcher.join(timeout=30)
    assert code == 0, err
    assert doomed.wait(timeout=10) == -signal.SIGKILL
    assert rows_at_kill and rows_at_kill[0] < 10, "the batch finished before the worker was killed"
    rows = read_rows(out)
    assert len(rows) == 10 and len({row["id"] for row in rows}) == 10
    assert by_id(rows) == by_id(local_rows)
    # and the lost worker did take work with it, which the scheduler ran again elsewhere
    assert any(key.startswith("bgcli-batch-") and start == "processing"
               for key, start, stimulus in _scheduler_transitions(address)
               if "worker-cleanup" in stimulus)


def _scheduler_transitions(address: str) -> list[tuple[str, str, str]]:
    """(key, from state, stimulus) of the scheduler's recent task transitions."""
    from distributed import Client

    def transitions(dask_scheduler):
        return [(str(entry[0]), entry[1], entry[4]) for entry in dask_scheduler.transition_log]

    with Client(address, timeout="30s", set_as_default=False) as client:
        return client.run_on_scheduler(transitions)


@pytest.mark.slow
def test_a_worker_with_another_net_is_refused(capsys, tmp_path, long_study, dask_cluster):
    """Last of the Dask tests: it adds a worker that plays with other weights, then stops it."""
    from bgcli.kernels.net import init_params
    from bgcli.net import net_id, save_weights

    collection, settings = long_study
    address, scheduler_file, processes = dask_cluster
    mine = tmp_path / "mine.npz"
    save_weights(mine, init_params(7), {"games": 0})
    odd = _worker(scheduler_file, {"BGCLI_WEIGHTS": str(mine)})
    processes.append(odd)
    try:
        _wait_for_workers(address, 3)
        code, _, err = run(capsys, "batch", str(collection), "-o", str(tmp_path / "d.csv"),
                           *settings, "--scheduler", address)
        assert code == 2, err
        assert f"plays with net weights {net_id(mine)}, this is {net_id()}" in err, err
        assert not (tmp_path / "d.csv").exists()
    finally:
        odd.kill()
        odd.wait(timeout=10)

