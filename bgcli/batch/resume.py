"""Resuming a batch: what an earlier run left in its output (``read_done``: the keys of the
rows written, a half-written last line cut off) and whether this run may append to it
(``check_resumable``: the same columns and settings)."""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterator

from ..analysis import AnalysisPlan, columns
from ..columns import ID_COLUMNS
from ..errors import OutputError
from .layout import cell_text, journal_path

# what must match for --resume to append to a file: everything that changes the numbers
SETTING_COLUMNS = ("trials", "policy", "truncate", "variance_reduction", "quasi_random",
                   "bearoff_truncation", "initial", "stop_se", "min_games", "master_seed",
                   "evaluator_policy", "evaluator_plies", "evaluator_filter",
                   "dice_option", "net", "bgcli_version")


@dataclass
class Done:
    """What an earlier run left in an output file."""

    keys: set = field(default_factory=set)  # (id, position_id) of every row written
    columns: list[str] | None = None  # None: nothing there yet
    first_row: dict | None = None
    parquet_keys: set = field(default_factory=set)  # the part already in the Parquet file

    @property
    def master_seed(self) -> int | None:
        value = (self.first_row or {}).get("master_seed")
        return None if value in (None, "") else int(value)


def _drop_partial_last_line(path: Path) -> None:
    """A run killed in mid-write may leave half a line at the end: cut it off."""
    with open(path, "rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return
        end = size
        while end > 0:
            start = max(0, end - 65536)
            handle.seek(start)
            block = handle.read(end - start)
            newline = block.rfind(b"\n")
            if newline >= 0:
                handle.truncate(start + newline + 1)
                return
            end = start
        handle.truncate(0)


# how every file bgcli batch writes begins: its header's first columns, or the first row's
_FIRST_WORDS = {"csv": ",".join(name for name, _ in ID_COLUMNS) + ",", "jsonl": '{"id": '}


def _complete_lines(handle: IO[str]) -> Iterator[str]:
    """The lines of a file but a half-written last one (a killed run's, cut off later)."""
    for line in handle:
        if line.endswith("\n"):
            yield line


def _not_ours(path: Path, fmt: str, why: str) -> OutputError:
    return OutputError(f"cannot resume {str(path)!r}: {why}; it is not {fmt} as bgcli batch "
                       "writes it (mend or remove it, or --overwrite)")


def _add_row(done: Done, row: dict, path: Path, fmt: str, line: int) -> None:
    if not row.get("id") or not row.get("position_id"):
        raise _not_ours(path, fmt, f"line {line} has no id or position_id")
    if done.first_row is None:
        done.first_row = row
    done.keys.add((str(row["id"]), row["position_id"]))


def _read_csv_done(lines: Iterator[str], path: Path, done: Done) -> None:
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is None:
            return
        done.columns = header
        for fields in reader:
            if not fields:  # a blank line holds no row
                continue
            if len(fields) != len(header):
                raise _not_ours(path, "csv", f"line {reader.line_num} has {len(fields)} fields "
                                f"where the header has {len(header)}")
            _add_row(done, dict(zip(header, fields)), path, "csv", reader.line_num)
    except csv.Error as exc:
        raise _not_ours(path, "csv", f"line {reader.line_num}: {exc}") from None


def _read_jsonl_done(lines: Iterator[str], path: Path, done: Done) -> None:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise _not_ours(path, "jsonl", f"line {number} is not JSON: {exc}") from None
        if not isinstance(row, dict):
            raise _not_ours(path, "jsonl", f"line {number} is not a JSON object")
        if done.columns is not None and list(row) != done.columns:
            raise _not_ours(path, "jsonl", f"line {number} has other columns than the rows "
                            "before it")
        done.columns = list(row)
        _add_row(done, row, path, "jsonl", number)


def _read_lines_done(path: Path, fmt: str, done: Done) -> None:
    """Read what ``path`` holds into ``done``, every complete line checked; only then cut
    off a half-written last line (a file that is not a batch's is left as it is)."""
    with open(path, "rb") as handle:
        if handle.read(4) == b"PAR1":
            raise OutputError(f"cannot resume {str(path)!r}: it is a Parquet file, not {fmt}: "
                              "name it .parquet or give --format parquet")
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            reader = _read_csv_done if fmt == "csv" else _read_jsonl_done
            reader(_complete_lines(handle), path, done)
            if done.columns is None:  # no complete line: the start of one, from a killed run?
                handle.seek(0)
                head, start = handle.read(len(_FIRST_WORDS[fmt])), _FIRST_WORDS[fmt]
                if not start.startswith(head):
                    raise _not_ours(path, fmt, "it does not begin as a bgcli batch output")
    except UnicodeDecodeError:
        raise _not_ours(path, fmt, "it is not UTF-8 text") from None
    _drop_partial_last_line(path)


def read_done(path: Path, fmt: str) -> Done:
    """The rows already in ``path`` (and, for Parquet, in its journal). Cuts a half-written
    last line off a CSV or JSON lines file. Holds only the (id, position_id) keys."""
    done = Done()
    try:
        if fmt == "parquet":
            if path.exists():
                import pyarrow.parquet as pq

                try:
                    parquet = pq.ParquetFile(path)
                except Exception as exc:
                    raise OutputError(f"cannot resume {str(path)!r}: not a readable Parquet file: {exc}") from None
                done.columns = parquet.schema_arrow.names
                for batch in parquet.iter_batches(batch_size=65536):
                    if done.first_row is None and batch.num_rows:
                        done.first_row = batch.slice(0, 1).to_pylist()[0]
                    done.keys.update(zip(batch.column("id").to_pylist(),
                                         batch.column("position_id").to_pylist()))
                done.parquet_keys = set(done.keys)
            journal = journal_path(path)
            if journal.exists():
                columns_before = done.columns
                _read_lines_done(journal, "jsonl", done)
                done.columns = columns_before or done.columns
        elif path.exists():
            _read_lines_done(path, fmt, done)
    except OSError as exc:
        raise OutputError(f"cannot read {str(path)!r} to resume it: {exc}") from None
    return done


def check_resumable(done: Done, plan: AnalysisPlan, path: Path) -> None:
    """Raise ``OutputError`` unless rows of ``plan`` may be appended to what ``done`` found:
    the same columns, settings and bgcli version, so the file ends up as one uninterrupted
    run would have written it."""
    if done.columns is not None and done.columns != columns(plan):
        had, has = "equity" in done.columns, plan.rollout is not None
        why = ("it has rollout columns and this run has no --rollout" if had and not has else
               "it has no rollout columns and this run has --rollout" if has and not had else
               "its columns differ from this bgcli version's")
        raise OutputError(f"cannot resume {str(path)!r}: {why}; use the same analyses or --overwrite")
    if done.first_row is None:
        return
    expected = plan.settings_row()
    for name in SETTING_COLUMNS:
        if name in expected and cell_text(done.first_row.get(name)) != cell_text(expected[name]):
            raise OutputError(
                f"cannot resume {str(path)!r}: it was written with {name}="
                f"{cell_text(done.first_row.get(name))}, this run has {name}={cell_text(expected[name])}; "
                "use the same settings or --overwrite")

