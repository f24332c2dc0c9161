"""Writing rows of data to stdout in the format the user chose.

Every command produces a list of flat dicts; ``emit`` writes them as an aligned text table,
CSV, TSV, a JSON array or JSON lines. Only data goes to stdout.

A table wider than the terminal it is printed on keeps the columns that fit, in the
command's order of importance, and says on stderr which it left out (CSV and JSON always
carry everything). Written to a pipe or a file, a table is whole: nothing there wraps it.
"""

from __future__ import annotations

import csv
import enum
import json
import math
import shutil
import sys
from typing import IO, Iterable

from ..values import plain


class OutputFormat(str, enum.Enum):
    table = "table"
    csv = "csv"
    tsv = "tsv"
    json = "json"
    ndjson = "ndjson"


def plus_minus(value, se, digits: int = 3, signed: bool = True) -> str:
    """``value ±se`` for a table (``+0.123 ±0.045``): empty without a finite value, the ``±``
    left out without a finite standard error (one game, or none)."""
    if value is None or not math.isfinite(value):
        return ""
    text = f"{value:{'+' if signed else ''}.{digits}f}"
    return text if se is None or not math.isfinite(se) else f"{text} ±{se:.{digits}f}"


def _cell_text(value) -> str:
    value = plain(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) < 1e6 else f"{value:.6g}"
    return str(value)


def _csv_value(value):
    value = plain(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def terminal_width(out: IO[str]) -> int | None:
    """The width of the terminal ``out`` is, or None when it is a pipe or a file."""
    try:
        if not out.isatty():
            return None
    except (AttributeError, ValueError):  # no isatty, or closed
        return None
    return shutil.get_terminal_size().columns


def _widths(rows: list[dict], columns: list[str]) -> dict[str, int]:
    return {c: max([len(c)] + [len(_cell_text(row.get(c))) for row in rows]) for c in columns}


def table_width(rows: list[dict], columns: list[str] | None = None) -> int:
    """How many characters a line of the table of ``rows`` takes."""
    columns = columns or _all_columns(rows)
    return sum(_widths(rows, columns).values()) + 2 * (len(columns) - 1)


def fits(rows: list[dict], out: IO[str] | None = None) -> bool:
    """Whether the table of ``rows`` fits where it is printed (always, off a terminal)."""
    limit = terminal_width(out or sys.stdout)
    return limit is None or table_width(rows) <= limit


def _fitting(rows: list[dict], columns: list[str], priority: list[str], limit: int) -> list[str]:
    """The columns to show in ``limit`` characters: each in ``priority`` order (the rest
    after) if it still fits, then back in table order."""
    widths = _widths(rows, columns)
    ranked = [c for c in priority if c in columns] + [c for c in columns if c not in priority]
    chosen, used = [], -2
    for column in ranked:
        if used + 2 + widths[column] <= limit or not chosen:
            chosen.append(column)
            used += 2 + widths[column]
    return [c for c in columns if c in chosen]


def _all_columns(rows: list[dict]) -> list[str]:
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    return columns


def _fit_terminal(rows: list[dict], columns: list[str], priority: list[str] | None,
                  out: IO[str]) -> list[str]:
    limit = terminal_width(out)
    if limit is None or table_width(rows, columns) <= limit:
        return columns
    kept = _fitting(rows, columns, priority or columns, limit)
    left_out = [c for c in columns if c not in kept]
    # stderr: stdout carries only data
    print(f"bgcli: left out to fit {limit} columns: {', '.join(left_out)} "
          "(a wider terminal, -f csv or -f json shows them)", file=sys.stderr)
    return kept


def _table(rows: list[dict], columns: list[str], out: IO[str]) -> None:
    cells = [[_cell_text(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [
        all(isinstance(plain(row.get(c)), (int, float)) and not isinstance(row.get(c), bool)
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
         out: IO[str] | None = None, priority: list[str] | None = None) -> None:
    """Write ``rows`` to ``out`` (stdout). ``columns`` picks and orders the table's columns;
    the other formats always carry every field. On a terminal too narrow for the table, the
    columns kept are the first of ``priority`` (default: table order) that fit."""
    out = out or sys.stdout
    rows = list(rows)
    all_columns = _all_columns(rows)
    if fmt == OutputFormat.table:
        if rows:
            _table(rows, _fit_terminal(rows, columns or all_columns, priority, out), out)
    elif fmt in (OutputFormat.csv, OutputFormat.tsv):
        writer = csv.DictWriter(out, fieldnames=all_columns, lineterminator="\n",
                                delimiter="," if fmt == OutputFormat.csv else "\t")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_value(v) for k, v in row.items()})
    elif fmt == OutputFormat.json:
        json.dump([{k: plain(v) for k, v in row.items()} for row in rows], out, indent=2)
        out.write("\n")
    else:
        for row in rows:
            out.write(json.dumps({k: plain(v) for k, v in row.items()}) + "\n")
