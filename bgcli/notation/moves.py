"""Move notation as GNU Backgammon writes it: ``24/18 13/11``, ``bar/22*``, ``6/off``,
``8/5(2)``, ``24/21*/18``.

A play is a sequence of checker steps ``(from_point, to_point)`` in the mover's numbering
(25 = bar, 0 = off). ``format_move`` turns the steps a play was generated with into text;
``parse_move`` reads text into segments, which ``bgcli.moves.find_play`` matches against the
legal plays, so any way of writing a legal play is accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import ParseError

BAR_POINT = 25
OFF_POINT = 0


def point_name(point: int) -> str:
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


def format_move(board: np.ndarray, steps) -> str:
    """gnubg's text for a play made of ``steps`` from ``board`` (player on roll = board[1]).

    The same canonical form gnubg prints, whatever order the steps were found in:

    1. steps are sorted by starting point, highest first (then by landing point, highest
       first);
    2. each step absorbs later steps that start where it ends, so one checker's path is
       written once (``24/21`` for 24/23 23/22 22/21);
    3. points in between are written only where the checker hits (``24/21*/18``);
    4. equal paths next to each other are written once with a count (``8/5(2)``);
    5. a point holding an opponent blot gets its ``*`` the first time it is written only.
    """
    moves = sorted(((int(a), int(b)) for a, b in steps if a >= 0), reverse=True)
    paths: list[list[int]] = []
    used = [False] * len(moves)
    for i, (source, target) in enumerate(moves):
        if used[i]:
            continue
        path = [source, target]
        for j in range(i + 1, len(moves)):
            if not used[j] and path[-1] != OFF_POINT and moves[j][0] == path[-1]:
                path.append(moves[j][1])
                used[j] = True
        paths.append(path)
    groups: list[list] = []
    for path in paths:
        if groups and groups[-1][0] == path:
            groups[-1][1] += 1
        else:
            groups.append([path, 1])
    starred: set[int] = set()

    def blot_hit(point: int) -> bool:
        # gnubg marks a hit where the opponent stood before the play, once per point
        if point == OFF_POINT or point in starred or board[0, 24 - point] == 0:
            return False
        starred.add(point)
        return True

    texts = []
    for path, count in groups:
        parts = [point_name(path[0])]
        for point in path[1:-1]:
            if blot_hit(point):
                parts.append(point_name(point) + "*")
        last = path[-1]
        parts.append(point_name(last) + ("*" if blot_hit(last) else ""))
        text = "/".join(parts)
        texts.append(text if count == 1 else f"{text}({count})")
    return " ".join(texts)


_SEGMENT = re.compile(r"^(bar|b|\d{1,2})((?:/(?:\d{1,2}|off|o)\*?)+)(?:\((\d)\))?$", re.I | re.ASCII)


@dataclass(frozen=True)
class Segment:
    """A path as written: start, the points named after it, where a hit was marked."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]


def _parse_point(text: str, whole: str) -> int:
    lowered = text.lower()
    if lowered in ("bar", "b"):
        return BAR_POINT
    if lowered in ("off", "o"):
        return OFF_POINT
    value = int(text)
    if not 1 <= value <= 25:
        raise ParseError(f"point {value} is not 1..25 in move: {whole!r}")
    return value


def parse_move(text: str) -> list[Segment]:
    """Read gnubg-style move text into segments (one per checker path, repeated ``(n)``
    times). Raises ``ParseError`` on anything unreadable.

    >>> [s.points for s in parse_move("8/5(2) bar/22*")]
    [(8, 5), (8, 5), (25, 22)]
    """
    whole = text
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise ParseError(f"empty move: {whole!r}")
    segments: list[Segment] = []
    for token in tokens:
        match = _SEGMENT.match(token)
        if not match:
            raise ParseError(f"cannot read {token!r} as a move like 24/18, bar/22*, 6/off: {whole!r}")
        start = _parse_point(match.group(1), whole)
        points = [start]
        hits = []
        for part in match.group(2).split("/")[1:]:
            hit = part.endswith("*")
            points.append(_parse_point(part.rstrip("*"), whole))
            hits.append(hit)
        for earlier, later in zip(points, points[1:]):
            if later >= earlier:
                raise ParseError(f"checkers move from higher to lower points, not {token!r}: {whole!r}")
        if OFF_POINT in points[:-1]:
            raise ParseError(f"'off' can only end a path: {whole!r}")
        count = int(match.group(3) or 1)
        if not 1 <= count <= 4:
            raise ParseError(f"a path can be repeated 1 to 4 times, not {count}: {whole!r}")
        segments.extend([Segment(tuple(points), tuple(hits))] * count)
    return segments


def apply_segments(board: np.ndarray, segments: list[Segment]) -> np.ndarray | None:
    """The board after moving each segment's checker along its path, hitting a blot at the
    end of each path and wherever a hit is marked; ``None`` if a segment has no checker to
    move. Legality is not checked here (``bgcli.moves.find_play`` does that)."""
    board = board.astype(np.int16).copy()
    for segment in segments:
        source = segment.points[0]
        if board[1, source - 1] <= 0:
            return None
        board[1, source - 1] -= 1
        for i, point in enumerate(segment.points[1:]):
            is_end = i == len(segment.points) - 2
            if point == OFF_POINT:
                break
            facing = 24 - point
            if (is_end or segment.hits[i]) and board[0, facing] == 1:
                board[0, facing] = 0
                board[0, 24] += 1
        end = segment.points[-1]
        if end != OFF_POINT:
            board[1, end - 1] += 1
    return board.astype(np.int8)
