"""Decisions as data: one flat row per decision (``bgcli import``), and the small writer the
match commands share (CSV, JSON lines, Parquet)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import IO, Iterable

from ..errors import OutputError
from ..notation.gnubgid import CENTERED
from ..values import plain
from .replay import CHECKER, Decision, Match

#: The columns of ``bgcli import``, with their types (for Parquet). ``id``, ``name`` and
#: ``position`` make the file a collection ``bgcli batch`` and ``bgcli report`` read.
DECISION_COLUMNS = [
    ("id", "str"), ("name", "str"), ("position", "str"), ("file", "str"), ("line", "int"),
    ("game", "int"), ("move_number", "int"), ("player", "int"), ("player_name", "str"),
    ("decision", "str"), ("action", "str"), ("dice", "str"), ("position_id", "str"),
    ("match_id", "str"), ("match_length", "int"), ("score", "int"), ("opponent_score", "int"),
    ("crawford", "bool"), ("cube_value", "int"), ("cube_owner", "str"),
    ("cube_available", "bool"),
]


def cube_owner_text(match: Match, decision: Decision) -> str:
    owner = decision.situation.match.cube_owner
    return "centred" if owner == CENTERED else match.names[owner] or f"player {owner}"


def decision_row(match: Match, decision: Decision) -> dict:
    state = decision.situation.match
    me = decision.player
    name = match.names[me] or f"player {me}"
    dice = "".join(map(str, decision.dice)) if decision.dice else ""
    what = f"{dice} {decision.action or '(no move)'}" if decision.kind == CHECKER else decision.action
    stem = Path(match.path).name
    return {
        "id": f"{stem}:{decision.game}:{decision.move_number}:{me}:{decision.kind}",
        "name": f"game {decision.game} move {decision.move_number}, {name}: {what}",
        "position": decision.situation.gnubg_id, "file": match.path, "line": decision.line,
        "game": decision.game, "move_number": decision.move_number, "player": me,
        "player_name": name, "decision": decision.kind if decision.action != "drop" else "take",
        "action": decision.action, "dice": dice, "position_id": decision.situation.position_id,
        "match_id": decision.situation.match_id, "match_length": match.length,
        "score": state.score[me], "opponent_score": state.score[1 - me],
        "crawford": state.crawford, "cube_value": state.cube_value,
        "cube_owner": cube_owner_text(match, decision),
        "cube_available": decision.cube_available,
    }


def output_format(path: Path | None, given: str | None) -> str:
    """csv, jsonl or parquet from ``given`` or the file's name (csv to stdout)."""
    from ..batch.layout import format_for

    implied = format_for(path) if path is not None else None
    if given and implied and given != implied:
        raise OutputError(f"{str(path)!r} names a {implied} file and --file-format says {given}")
    fmt = given or implied or ("csv" if path is None else None)
    if fmt is None:
        raise OutputError(f"cannot tell the format from {str(path)!r}: name it .csv, .jsonl or "
                          f".parquet, or give --file-format")
    if fmt == "parquet" and path is None:
        raise OutputError("Parquet cannot be written to standard output: give -o FILE.parquet")
    return fmt


def write_rows(rows: Iterable[dict], columns: list[tuple[str, str]], fmt: str,
               path: Path | None = None, stream: IO[str] | None = None) -> int:
    """Write ``rows`` (only ``columns``, in order) as CSV, JSON lines or Parquet to ``path``
    or ``stream``; the number of rows."""
    names = [name for name, _ in columns]
    rows = [{n: plain(row.get(n)) for n in names} for row in rows]
    try:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            kinds = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(),
                     "bool": pa.bool_()}
            schema = pa.schema([(n, kinds[k]) for n, k in columns])
            pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
            return len(rows)
        handle = open(path, "w", encoding="utf-8", newline="") if path is not None else None
        out = handle or stream
        try:
            if fmt == "csv":
                buffer = io.StringIO()
                writer = csv.writer(buffer, lineterminator="\n")
                writer.writerow(names)
                for row in rows:
                    writer.writerow(["" if row[n] is None else
                                     ("true" if row[n] is True else "false" if row[n] is False
                                      else row[n]) for n in names])
                out.write(buffer.getvalue())
            else:
                out.write("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
            out.flush()
        finally:
            if handle is not None:
                handle.close()
    except OSError as exc:
        if path is None:
            raise
        raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(path)!r}") from None
    return len(rows)
