"""Writing a batch's rows as they come: CSV, JSON lines or Parquet (``open_output``), each
row flushed at once so a killed run loses at most the positions in flight."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..analysis import AnalysisPlan, columns
from ..errors import OutputError
from .layout import cell_text, journal_path, parquet_temporary

if TYPE_CHECKING:
    from .resume import Done

class _LinesOutput:
    """CSV or JSON lines, one line per row, flushed as it is written. A file of its own
    (``owned``) that cannot be written raises ``OutputError`` naming it; standard output's
    errors are left to the command line (``bgcli.cli.app``)."""

    def __init__(self, stream: IO[str], fmt: str, names: list[str], header: bool, owned: bool):
        self.stream, self.fmt, self.names, self.owned = stream, fmt, names, owned
        self.rows = 0
        if fmt == "csv" and header:
            with self._named_errors():
                csv.writer(stream, lineterminator="\n").writerow(names)
                stream.flush()

    @contextlib.contextmanager
    def _named_errors(self):
        try:
            yield
        except OSError as exc:
            if not self.owned:
                raise
            raise OutputError(f"cannot write this file ({exc.strerror or exc}): {self.stream.name!r}") from None

    def write(self, row: dict) -> None:
        if self.fmt == "csv":
            # one write call per row keeps a killed run's partial line to the end of the file
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="\n").writerow([cell_text(row.get(n)) for n in self.names])
            line = buffer.getvalue()
        else:
            line = json.dumps({n: row.get(n) for n in self.names}, ensure_ascii=False) + "\n"
        with self._named_errors():
            self.stream.write(line)
            self.stream.flush()
        self.rows += 1

    def close(self) -> None:
        with self._named_errors():
            if self.owned:
                self.stream.close()
            else:
                self.stream.flush()


class _ParquetOutput:
    """Parquet: rows go to a JSON lines journal beside the file as they come; ``close`` (also
    on Ctrl-C or SIGTERM) writes the Parquet file from the earlier file and the journal into
    a temporary file, renames it over the old one and deletes the journal. The Parquet file
    is therefore always complete; after a hard kill the rows wait in the journal and
    ``--resume`` takes them up."""

    def __init__(self, path: Path, plan: AnalysisPlan, done: Done | None):
        self.path, self.plan = path, plan
        self.journal_path = journal_path(path)
        self.parquet_keys = done.parquet_keys if done is not None else set()
        self.journal = _LinesOutput(open(self.journal_path, "a", encoding="utf-8"), "jsonl",
                                    columns(plan), header=False, owned=True)

    def write(self, row: dict) -> None:
        self.journal.write(row)

    @property
    def rows(self) -> int:
        return self.journal.rows

    def close(self) -> None:
        import pyarrow as pa

        self.journal.close()
        kinds = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_()}
        schema = pa.schema([(name, kinds[kind]) for name, kind in self.plan.column_types()])
        temporary = parquet_temporary(self.path)
        try:
            self._write(temporary, schema)
            os.replace(temporary, self.path)
        except OSError as exc:  # a full disk: the journal is kept for --resume
            raise OutputError(f"cannot write this file ({exc.strerror or exc}; its rows wait in its "
                              f"journal, which --resume takes up): {str(self.path)!r}") from None
        finally:
            if temporary.exists():
                temporary.unlink()
        self.journal_path.unlink()

    def _write(self, temporary: Path, schema) -> None:
        """The Parquet file at ``temporary``: the earlier file's rows, then the journal's."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        with pq.ParquetWriter(temporary, schema) as writer:
            if self.path.exists():
                for batch in pq.ParquetFile(self.path).iter_batches(batch_size=65536):
                    writer.write_table(pa.Table.from_batches([batch], schema=schema))
            chunk: list[dict] = []
            with open(self.journal_path, encoding="utf-8") as journal:
                for line in journal:
                    if not line.endswith("\n"):
                        break  # half a line from a killed run
                    row = json.loads(line)
                    if (row["id"], row["position_id"]) in self.parquet_keys:
                        continue  # merged already by a run killed before it could clean up
                    chunk.append(row)
                    if len(chunk) == 10000:
                        writer.write_table(pa.Table.from_pylist(chunk, schema=schema))
                        chunk = []
            if chunk:
                writer.write_table(pa.Table.from_pylist(chunk, schema=schema))


def open_output(path: Path | None, fmt: str, plan: AnalysisPlan, done: Done | None = None,
                stream: IO[str] | None = None):
    """A writer with ``write(row)`` and ``close()``. ``path`` None writes to ``stream``
    (CSV or JSON lines). With ``done`` (from ``read_done``) rows are appended after the
    earlier run's; without, the file is started afresh."""
    names = columns(plan)
    if path is None:
        if fmt == "parquet":
            raise OutputError("Parquet cannot be written to standard output: give -o FILE.parquet")
        return _LinesOutput(stream, fmt, names, header=True, owned=False)
    try:
        if fmt == "parquet":
            if done is None:
                for stale in (path, journal_path(path)):
                    if stale.exists():
                        stale.unlink()
            return _ParquetOutput(path, plan, done)
        append = done is not None and done.columns is not None
        handle = open(path, "a" if append else "w", encoding="utf-8", newline="")
        return _LinesOutput(handle, fmt, names, header=not append, owned=True)
    except OSError as exc:
        raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(path)!r}") from None
