"""The output of ``bgcli analyse -o FILE``: rows written a whole match at a time, so a
killed or interrupted run keeps every match it finished, and ``--resume`` goes on with the
matches not in the file yet (the file's ``file`` column names them).

CSV and JSON lines are appended to and flushed after each match. Parquet rows wait in a JSON
lines journal beside the file (``FILE.journal.jsonl``) and are merged into the Parquet file
on close (also on Ctrl-C); after a hard kill ``--resume`` takes the journal up. On resuming,
the last match in the file (or journal) is cut off and done again: it may be incomplete.
The rows must have been written with the same settings (``plies``, ``net``,
``bgcli_version``) and columns, else ``--resume`` refuses.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..errors import OutputError
from ..values import plain

SETTINGS = ("plies", "net", "bgcli_version")


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + ".journal.jsonl")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _read_lines(path: Path, fmt: str, names: list[str]) -> tuple[list[dict], int]:
    """The rows of a CSV or JSON lines file with their file's settings as text, and the byte
    offset where the rows of its last match begin (where the file is cut)."""
    data = path.read_bytes()
    complete = data[:data.rfind(b"\n") + 1]  # a half-written last line is dropped
    lines = complete.decode("utf-8").splitlines(keepends=True)
    rows, offsets, offset = [], [], 0
    if fmt == "csv":
        if not lines:
            return [], 0
        header = next(csv.reader([lines[0]]))
        if header != names:
            raise OutputError(f"cannot resume {str(path)!r}: its columns are not this "
                              f"command's (another --rows, or another bgcli version)")
        offset = len(lines[0].encode("utf-8"))
        lines = lines[1:]
    for line in lines:
        if fmt == "csv":
            values = next(csv.reader([line]))
            rows.append(dict(zip(names, values)))
        else:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise OutputError(f"cannot resume {str(path)!r}: not a JSON lines file") from None
            if list(row) != names:
                raise OutputError(f"cannot resume {str(path)!r}: its columns are not this "
                                  f"command's (another --rows, or another bgcli version)")
            rows.append({k: _cell(v) for k, v in row.items()})
        offsets.append(offset)
        offset += len(line.encode("utf-8"))
    if not rows:
        return [], offset
    last = rows[-1]["file"]
    cut = len(rows)
    while cut and rows[cut - 1]["file"] == last:
        cut -= 1
    return rows[:cut], offsets[cut] if cut < len(offsets) else offset


class MatchOutput:
    """``write_match(rows)`` appends one match's rows; ``done`` holds the match files the
    output already has (on ``resume``); ``close()`` finishes the file."""

    def __init__(self, path: Path, fmt: str, columns: list[tuple[str, str]], settings: dict,
                 resume: bool):
        self.path, self.fmt, self.columns = path, fmt, columns
        self.names = [name for name, _ in columns]
        self.done: set[str] = set()
        try:
            self._open(settings, resume)
        except OSError as exc:
            raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(path)!r}") from None

    def _check(self, rows: list[dict], settings: dict) -> None:
        if not rows:
            return
        for name in SETTINGS:
            had, has = rows[0].get(name), _cell(settings[name])
            if _cell(had) != has:
                raise OutputError(f"cannot resume {str(self.path)!r}: it was written with "
                                  f"{name} {had}, this run has {has}")
        self.done = {row["file"] for row in rows}

    def _open(self, settings: dict, resume: bool) -> None:
        if self.fmt == "parquet":
            journal = journal_path(self.path)
            if not resume:
                for stale in (self.path, journal):
                    if stale.exists():
                        stale.unlink()
                self.kept: list[dict] = []
            else:
                self.kept = self._read_parquet()
                journal_rows = []
                if journal.exists():  # a killed run's rows: its last match is done again
                    journal_rows, cut = _read_lines(journal, "jsonl", self.names)
                    with open(journal, "r+b") as handle:
                        handle.truncate(cut)
                self._check(self.kept + journal_rows, settings)
            self.stream = open(journal, "a", encoding="utf-8")
            return
        if resume and self.path.exists():
            rows, cut = _read_lines(self.path, self.fmt, self.names)
            self._check(rows, settings)
            with open(self.path, "r+b") as handle:
                handle.truncate(cut)
            self.stream = open(self.path, "a", encoding="utf-8", newline="")
            if cut == 0 and self.fmt == "csv":
                self._header()
            return
        self.stream = open(self.path, "w", encoding="utf-8", newline="")
        if self.fmt == "csv":
            self._header()

    def _read_parquet(self) -> list[dict]:
        if not self.path.exists():
            return []
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(self.path)
        except Exception as exc:
            raise OutputError(f"cannot resume {str(self.path)!r}: not a readable Parquet "
                              f"file: {exc}") from None
        if table.schema.names != self.names:
            raise OutputError(f"cannot resume {str(self.path)!r}: its columns are not this "
                              f"command's (another --rows, or another bgcli version)")
        return table.to_pylist()

    def _header(self) -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(self.names)
        self.stream.write(buffer.getvalue())
        self.stream.flush()

    def write_match(self, rows: list[dict]) -> None:
        """One match's rows, in one write (flushed), so a kill leaves whole matches."""
        buffer = io.StringIO()
        if self.fmt == "csv":
            writer = csv.writer(buffer, lineterminator="\n")
            for row in rows:
                writer.writerow([_cell(plain(row.get(n))) for n in self.names])
        else:
            for row in rows:
                buffer.write(json.dumps({n: plain(row.get(n)) for n in self.names},
                                        ensure_ascii=False) + "\n")
        try:
            self.stream.write(buffer.getvalue())
            self.stream.flush()
        except OSError as exc:
            raise OutputError(f"cannot write this file ({exc.strerror or exc}): "
                              f"{str(self.path)!r}") from None

    def close(self) -> None:
        self.stream.close()
        if self.fmt != "parquet":
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        journal = journal_path(self.path)
        with open(journal, encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.endswith("\n")]
        kinds = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_()}
        schema = pa.schema([(n, kinds[k]) for n, k in self.columns])
        temporary = self.path.with_name(f".{self.path.name}.tmp")
        try:
            pq.write_table(pa.Table.from_pylist(self.kept + rows, schema=schema), temporary)
            temporary.replace(self.path)
        except OSError as exc:
            raise OutputError(f"cannot write this file ({exc.strerror or exc}; its rows wait in "
                              f"its journal, which --resume takes up): {str(self.path)!r}") from None
        journal.unlink()
