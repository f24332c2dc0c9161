"""Where positions come from: arguments, ``--input FILE`` or standard input (``-``).

Each position keeps a label saying where it came from (``argument 2``, ``games.txt:14``,
``<stdin>:3``) so a bad row can be reported by line while the rest go on.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..errors import BgcliError


class InputError(BgcliError):
    """A missing or unreadable input file (a usage error: exit code 2)."""


@dataclass(frozen=True)
class RawPosition:
    text: str
    label: str


def _lines(stream, name: str) -> Iterator[RawPosition]:
    for number, line in enumerate(stream, start=1):
        text = line.split("#", 1)[0].strip()
        if text:
            yield RawPosition(text, f"{name}:{number}")


def read_file(path: Path) -> Iterator[RawPosition]:
    try:
        with open(path, encoding="utf-8") as stream:
            yield from _lines(stream, str(path))
    except FileNotFoundError:
        raise InputError(f"input file not found: {str(path)!r}") from None
    except IsADirectoryError:
        raise InputError(f"input is a directory, not a file: {str(path)!r}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc}") from None


def gather(arguments: list[str] | None, input_file: Path | None) -> Iterator[RawPosition]:
    """Positions from the arguments in order (``-`` reads stdin there), then the file."""
    for index, argument in enumerate(arguments or [], start=1):
        if argument == "-":
            yield from _lines(sys.stdin, "<stdin>")
        else:
            yield RawPosition(argument, f"argument {index}")
    if input_file is not None:
        if str(input_file) == "-":
            yield from _lines(sys.stdin, "<stdin>")
        else:
            yield from read_file(input_file)
