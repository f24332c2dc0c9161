"""How a batch output lies on disk: its format from its name, the text a value has in a CSV
cell (the same whichever format it is read back from), and the files beside a Parquet
output (its journal, its temporary). Shared by the writers, resuming and the lock."""

from __future__ import annotations

import os
from pathlib import Path

FORMATS = ("csv", "jsonl", "parquet")
_EXTENSIONS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet",
               ".pq": "parquet"}


def format_for(path: Path | str) -> str | None:
    """The output format a file name implies (csv, jsonl, parquet), or None."""
    return _EXTENSIONS.get(Path(path).suffix.lower())


def cell_text(value) -> str:
    """A value as CSV holds it: the same text whichever format it was read back from."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def journal_path(path: Path) -> Path:
    """Where a Parquet output's rows wait, as JSON lines, until the Parquet file is written."""
    return path.with_name(path.name + ".journal.jsonl")


def parquet_temporary(path: Path) -> Path:
    """Where the Parquet file is written before it is renamed over ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")
