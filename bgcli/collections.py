"""Collections of positions: the input of ``bgcli batch``.

A collection is a file (or standard input) in one of two shapes, told apart by its first line
that is neither blank nor a ``#`` comment:

* **CSV** with a header naming its columns, e.g. ``id,name,position,notes`` (the study
  collections in ``positions/``). Only ``position`` is required; ``id`` defaults to the line
  number, ``name`` and ``notes`` to ``""``; other columns are ignored. A first line holding a
  comma before any ``#`` (or the single word ``position``) is a CSV header: position
  notations never contain commas.
* **Plain text**: one position per line in any notation bgcli reads, ``#`` starting a comment
  (a trailing comment becomes the entry's notes), blank lines skipped; the id is the line
  number. gnubg's two-line text, a ``Position ID: ...`` line followed by a ``Match ID : ...``
  line, as its board display prints them, is one entry (the first line's id and label).

``read_collection`` opens the input at once (so a missing file is reported before any work)
and then streams: entries are read one at a time, never held together. Each carries a label
``FILE:LINE`` (``<stdin>:LINE`` for standard input) so a bad row can be reported where it is.
A row that cannot become an entry (a CSV row with no position) comes out as an ``EntryError``
in its place, and reading goes on; only an input that cannot be read at all raises
``CollectionError``.

This module imports only the standard library and ``bgcli.errors``.
"""

from __future__ import annotations

import csv
import itertools
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Iterator

from .errors import CollectionError

__all__ = ["Entry", "EntryError", "read_collection", "until_broken", "STDIN_NAME"]

STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class Entry:
    """One position of a collection, as written there (not yet parsed)."""

    id: str
    name: str
    position: str
    notes: str
    label: str  # where it came from: "FILE:LINE"


@dataclass(frozen=True)
class EntryError:
    """A row of a collection that is not an entry, with where it is and why."""

    label: str
    message: str


_CSV_COLUMNS = ("id", "name", "position", "notes")  # the columns a collection's CSV may name


def _is_meaningful(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _csv_header(line: str) -> list[str] | None:
    """The column names if ``line`` is a CSV header, else None (a plain-text collection)."""
    stripped = line.strip()
    before_comment = stripped.partition("#")[0].strip()
    if "," not in before_comment and before_comment.lower() != "position":
        return None
    return [cell.strip().lower() for cell in next(csv.reader([stripped]))]


# gnubg's board display: "GNU Backgammon  Position ID: ..." and, on the next line, "Match ID : ..."
_POSITION_ID_LINE = re.compile(r"position\s+id\s*:\s*\S+$", re.I)
_MATCH_ID_LINE = re.compile(r"match\s+id\s*:", re.I)


def _plain_entries(lines: Iterable[tuple[int, str]], name: str) -> Iterator[Entry]:
    waiting = None  # a "Position ID: ..." line, held to see whether a Match ID line follows
    for number, line in lines:
        text, _, comment = line.partition("#")
        text = text.strip()
        if not text:
            continue
        if waiting is not None and _MATCH_ID_LINE.match(text):
            notes = " ".join(n for n in (waiting.notes, comment.strip()) if n)
            yield Entry(id=waiting.id, name="", position=f"{waiting.position} {text}",
                        notes=notes, label=waiting.label)
            waiting = None
            continue
        if waiting is not None:
            yield waiting
            waiting = None
        entry = Entry(id=str(number), name="", position=text, notes=comment.strip(),
                      label=f"{name}:{number}")
        if _POSITION_ID_LINE.search(text):
            waiting = entry
        else:
            yield entry
    if waiting is not None:
        yield waiting


def _csv_entries(header: list[str], header_number: int, lines: Iterable[str],
                 name: str) -> Iterator[Entry | EntryError]:
    if "position" not in header:
        raise CollectionError(f"the CSV header has no 'position' column: {','.join(header)!r}",
                              where=f"{name}:{header_number}")
    for key in _CSV_COLUMNS:
        if header.count(key) > 1:  # which one is meant would be a guess
            places = " and ".join(str(i + 1) for i, cell in enumerate(header) if cell == key)
            raise CollectionError(f"the CSV header names {key!r} more than once (columns "
                                  f"{places}): {','.join(header)!r}", where=f"{name}:{header_number}")
    column = {key: header.index(key) for key in _CSV_COLUMNS if key in header}

    def cell(row: list[str], key: str) -> str:
        index = column.get(key)
        return row[index].strip() if index is not None and index < len(row) else ""

    # strict: a quote that is never closed is an error, not a field that swallows the rest
    reader = csv.reader(lines, strict=True)
    end = header_number  # the line the previous record ended on
    try:
        for row in reader:
            number, end = end + 1, header_number + reader.line_num
            if not row or not any(c.strip() for c in row) or row[0].lstrip().startswith("#"):
                continue
            label = f"{name}:{number}"
            position = cell(row, "position")
            if not position:
                yield EntryError(label, "no position in this row")
                continue
            yield Entry(id=cell(row, "id") or str(number), name=cell(row, "name"),
                        position=position, notes=cell(row, "notes"), label=label)
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            raise CollectionError("this CSV row opens a quote (\") that is never closed",
                                  where=f"{name}:{end + 1}") from None
        raise CollectionError(f"cannot read this CSV row: {exc}", where=f"{name}:{end + 1}") from None


def _entries(stream: IO[str], name: str) -> Iterator[Entry | EntryError]:
    numbered = enumerate(stream, start=1)
    for number, line in numbered:
        if number == 1:
            line = line.lstrip("\ufeff")  # a byte-order mark left by some spreadsheets
        if not _is_meaningful(line):
            continue
        header = _csv_header(line)
        if header is None:
            yield from _plain_entries(itertools.chain([(number, line)], numbered), name)
        else:
            yield from _csv_entries(header, number, (text for _, text in numbered), name)
        return


def _reading(stream: IO[str], name: str, owned: bool) -> Iterator[Entry | EntryError]:
    try:
        yield from _entries(stream, name)
    except UnicodeDecodeError as exc:
        raise CollectionError(f"{name}: not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise CollectionError(f"cannot read {name}: {exc}") from None
    finally:
        if owned:
            stream.close()


def until_broken(items: Iterable[Entry | EntryError]) -> Iterator[Entry | EntryError]:
    """``items`` (from ``read_collection``), and where the collection stops being readable
    part-way (a quote never closed) one ``EntryError`` saying so in place of the rest, so the
    rows before it are still used; a collection unreadable from its start still raises."""
    read_any = False
    try:
        for item in items:
            read_any = True
            yield item
    except CollectionError as exc:
        if not read_any or exc.where is None:
            raise
        yield EntryError(exc.where, f"{exc.reason}; the rest of the file is not read")


def read_collection(path: Path | str | None, stream: IO[str] | None = None
                    ) -> Iterator[Entry | EntryError]:
    """The entries of a collection file, one at a time (see the module docstring).

    ``path`` ``None`` or ``"-"`` reads ``stream`` (standard input if that is None too). Raises
    ``CollectionError`` at once if the file cannot be opened, later if it turns out unreadable.
    """
    if path is None or str(path) == "-":
        return _reading(stream if stream is not None else sys.stdin, STDIN_NAME, owned=False)
    name = str(path)
    try:
        # newline="" lets the csv module see quoted line breaks; utf-8-sig drops a BOM
        handle = open(path, encoding="utf-8-sig", newline="")
    except FileNotFoundError:
        raise CollectionError(f"collection not found: {name!r}") from None
    except IsADirectoryError:
        raise CollectionError(f"collection is a directory, not a file: {name!r}") from None
    except OSError as exc:
        raise CollectionError(f"cannot open collection {name!r}: {exc.strerror or exc}") from None
    return _reading(handle, name, owned=True)
