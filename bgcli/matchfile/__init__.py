"""Match and session files: the Jellyfish / FIBS ``.mat`` text export and GNU Backgammon's
``.sgf``, told apart by their content, replayed through the rules engine into decisions.

>>> match = read_match("tests/fixtures/matches/match3.mat")  # doctest: +SKIP
>>> match.problems, len(match.decisions)  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

from ..errors import CollectionError
from .mat import read_mat
from .replay import ANSWER, CHECKER, CUBE, Decision, Game, Match, replay
from .sgf import read_sgf

__all__ = ["read_match", "read_text", "parse_match", "detect_format", "Match", "Game", "Decision",
           "CHECKER", "CUBE", "ANSWER"]


def detect_format(text: str) -> str | None:
    """``sgf`` for SGF (a game tree ``(;`` first), ``mat`` for a text with an ``N point match``
    line or a ``Game N`` line, else None."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("(") and stripped[1:].lstrip().startswith(";"):
        return "sgf"
    from .mat import _GAME, _LENGTH

    for line in stripped.splitlines()[:50]:
        if _LENGTH.match(line) or _GAME.match(line):
            return "mat"
    return None


def parse_match(text: str, path: str = "<text>") -> Match:
    """A match from its text (format detected); raises ``CollectionError`` when the text is
    neither format. Faults inside are in ``Match.problems``."""
    kind = detect_format(text)
    if kind is None:
        raise CollectionError("not a match file: neither gnubg .sgf nor a .mat text export "
                              "('N point match', 'Game N')", path)
    raw = read_sgf(text, path) if kind == "sgf" else read_mat(text, path)
    return replay(raw)


def read_text(path: str | Path) -> str:
    """The text of a match file (UTF-8, else Latin-1 as older server exports)."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise CollectionError(f"cannot read match file: {error.strerror or error}", str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_match(path: str | Path) -> Match:
    """The match in the file ``path`` (see ``parse_match``)."""
    return parse_match(read_text(path), str(path))
