"""Where positions come from: arguments, ``--input FILE`` or standard input (``-``).

Files and standard input are read as collections (``bgcli.collections``): CSV with a
``position`` column or plain text, one position per line with ``#`` comments. Each position
keeps a label saying where it came from (``argument 2``, ``games.txt:14``, ``<stdin>:3``) so a
bad row can be reported by line while the rest go on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..collections import EntryError, read_collection, until_broken
from ..errors import BgcliError, CollectionError


class InputError(BgcliError):
    """Input or output that cannot be used at all (a usage error: exit code 2)."""


@dataclass(frozen=True)
class RawPosition:
    text: str
    label: str
    error: str | None = None  # why this row holds no position, if it does not


def _collection(path: Path | None) -> Iterator[RawPosition]:
    """The rows of a collection. A collection that cannot be read at all is an ``InputError``;
    one that breaks off part-way (a quote never closed) ends with a bad row where it broke, so
    the positions before it are still computed and shown."""
    try:
        for item in until_broken(read_collection(path)):
            if isinstance(item, EntryError):
                yield RawPosition("", item.label, item.message)
            else:
                yield RawPosition(item.position, item.label)
    except CollectionError as exc:
        raise InputError(str(exc)) from None


def gather(arguments: list[str] | None, input_file: Path | None) -> Iterator[RawPosition]:
    """Positions from the arguments in order (``-`` reads stdin there), then the file."""
    for index, argument in enumerate(arguments or [], start=1):
        if argument == "-":
            yield from _collection(None)
        else:
            yield RawPosition(argument, f"argument {index}")
    if input_file is not None:
        yield from _collection(None if str(input_file) == "-" else input_file)
