"""Writing rows of data to stdout in the format the user chose.

Every command produces a list of flat dicts; ``emit`` writes them as an aligned text table,
CSV, TSV, a JSON array or JSON lines. Only data goes to stdout.
"""

from __future__ import annotations

import csv
import enum
import json
import math
import sys
from typing import IO, Iterable


class OutputFormat(str, enum.Enum):
    table = "table"
    csv = "csv"
    tsv = "tsv"
    json = "json"
    ndjson = "ndjson"


#: significant digits a float keeps in CSV and JSON: every digit the numbers mean (rollouts and
#: the evaluator work to about 1e-7), without the binary noise of 0.8098799999999999
FLOAT_DIGITS = 12


def _plain(value):
    """JSON-safe scalar: NaN/inf become None, numpy scalars become Python ones, floats are
    rounded to ``FLOAT_DIGITS`` significant digits."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return float(f"{value:.{FLOAT_DIGITS}g}")
    return value


def _cell_text(value) -> str:
    value = _plain(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) < 1e6 else f"{value:.6g}"
    return str(value)


def _csv_value(value):
    value = _plain(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _table(rows: list[dict], columns: list[str], out: IO[str]) -> None:
    cells = [[_cell_text(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [
        all(isinstance(_plain(row.get(c)), (int, float)) and not isinstance(row.get(c), bool)
            for row in rows if row.get(c) is not None)
        for c in columns
    ]

    def line(values):
        parts = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    out.write(line(columns) + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for row in cells:
        out.write(line(row) + "\n")


def emit(rows: Iterable[dict], fmt: OutputFormat, columns: list[str] | None = None,
         out: IO[str] | None = None) -> None:
    """Write ``rows`` to ``out`` (stdout). ``columns`` picks and orders the table's columns;
    the other formats always carry every field."""
    out = out or sys.stdout
    rows = list(rows)
    all_columns: list[str] = []
    for row in rows:
        all_columns.extend(k for k in row if k not in all_columns)
    if fmt == OutputFormat.table:
        if rows:
            _table(rows, columns or all_columns, out)
    elif fmt in (OutputFormat.csv, OutputFormat.tsv):
        writer = csv.DictWriter(out, fieldnames=all_columns, lineterminator="\n",
                                delimiter="," if fmt == OutputFormat.csv else "\t")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_value(v) for k, v in row.items()})
    elif fmt == OutputFormat.json:
        json.dump([{k: _plain(v) for k, v in row.items()} for row in rows], out, indent=2)
        out.write("\n")
    else:
        for row in rows:
            out.write(json.dumps({k: _plain(v) for k, v in row.items()}) + "\n")
