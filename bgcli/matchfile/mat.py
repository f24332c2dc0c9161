"""The Jellyfish / FIBS ``.mat`` text export (gnubg's ``export match mat``, the servers'
match logs): a header ``N point match`` (``0 point match`` for a money session), then for
each game ``Game K``, a score line ``NAME : POINTS   NAME : POINTS`` and numbered lines with
the left player's action, then the right player's:

     12) 52: 13/8 13/11              63: 6/3 24/18*
     13)  Doubles => 2                Takes
     14) 62:                         Wins 1 point

A roll is ``DD:`` and its move (each step ``13/8``, or ``13/7*``, ``8/5(2)``, ``bar/22``,
``6/off``; 25 is the bar and 0 off), empty when the roll cannot be played; cube actions are
``Doubles => N``, ``Takes``, ``Drops``; ``Wins N point(s)`` ends the game (a resignation when
the board is not finished). Lines starting with ``;`` are comments (gnubg's
``; [EventDate ...]``; ``; [Jacoby "On"]`` turns the Jacoby rule on for a money session), as
are other header lines before the first game.

The variants other programs write, read as gnubg 1.07's importer reads them (its
``import.c``): ``Cannot Move`` after a roll that cannot be played (eXtreme Gammon);
``???`` after a roll the player resigned on (XG: the roll has no move, and the opponent's
``Wins N points`` follows); ``Doubles`` without ``=> N``, ``Take``, ``Drop`` and ``Win`` in
the singular; ``Resigns`` (nothing happens until the ``Wins`` line); a rating after a name
on the score line (``Alice, 1612 : 3``, GamesGrid). A right-column action alone on its line
is told from the left one as gnubg does: it follows the first double space from the 16th
column on. Refused with the line named: beavers, Snowie's ``Illegal play`` and XG's
``; Set Pos=`` games from a set position.
"""

from __future__ import annotations

import re

from .raw import DOUBLE, DROP, MOVE, TAKE, WIN, Action, RawGame, RawMatch

_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_SCORE = re.compile(r"^\s*(.+?)\s*:\s*(\d+)\s+(.+?)\s*:\s*(\d+)\s*$")
_RATING = re.compile(r",\s*\d+(?:\.\d+)?$")  # GamesGrid writes 'NAME, RATING'
_SET_POSITION = re.compile(r"^\s*;\s*Set\s+Pos\s*=", re.I)
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_JACOBY = re.compile(r'^\s*;\s*\[\s*Jacoby\s+"(On|Off|Yes|No|True|False|1|0)"\s*\]', re.I)
# the start of each action on a line
_ACTION = re.compile(
    r"(?P<roll>\b[1-6][1-6]:)|(?P<double>\bDoubles?(?:\s*=>\s*(?P<cube>\d+))?)"
    r"|(?P<take>\bTakes?\b)|(?P<drop>\bDrops?\b)"
    r"|(?P<win>\bWins?\s+(?P<points>\d+)\s+points?(?:\s+and\s+the\s+match)?)"
    r"|(?P<resign>\bResigns?\b)|(?P<beaver>\b(?:Beavers|Raccoons)\b)",
    re.I)
# what a roll's move may say instead of a play: nothing can be played ('Cannot Move'), or
# the player resigned after rolling ('???', sometimes four)
_NO_PLAY = re.compile(r"^(?:cannot\s+move|\?{3,4})$", re.I)
# gnubg's importer: with one action on a line, the right half starts at the first double
# space from this column on
_RIGHT_FROM = 15


def _name(text: str) -> str:
    text = _RATING.sub("", text.strip()).strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':  # gnubg quotes names with spaces
        text = text[1:-1]
    return text


def _actions(line: str, start: int, number: int) -> list[Action]:
    """The actions written on one line from ``start`` (after its ``N)``), with the player of
    each: two actions are left then right; one is right when written from the right column."""
    found = list(_ACTION.finditer(line, start))
    gap = line[start:found[0].start()] if found else line[start:]
    if gap.strip():
        raise ValueError(f"{number}: cannot read {gap.strip()!r} as a roll, 'Doubles => N', "
                         f"'Takes', 'Drops' or 'Wins N points'")
    if len(found) > 2:
        raise ValueError(f"{number}: more than two actions on a line: {line.strip()!r}")
    actions = []
    for k, match in enumerate(found):
        end = found[k + 1].start() if k + 1 < len(found) else len(line)
        if len(found) == 2:
            player = k
        else:
            right = line.find("  ", _RIGHT_FROM)
            player = 1 if 0 <= right < match.start() else 0
        if not match.group("resign"):  # a resignation is read from the 'Wins' that follows
            actions.append(_action(match, line[match.start():end].strip(), number, player))
    return actions


def _action(match: re.Match, piece: str, line: int, player: int) -> Action:
    if match.group("roll"):
        dice = (int(piece[0]), int(piece[1]))
        move = piece[3:].strip()
        if move.lower().startswith("illegal play"):
            raise ValueError(f"{line}: Snowie's 'Illegal play' records are not supported")
        if _NO_PLAY.match(move):
            move = ""
        return Action(line, player, MOVE, dice=dice, move=move)
    if match.group("double"):
        cube = match.group("cube")
        return Action(line, player, DOUBLE, value=int(cube) if cube else None)
    if match.group("take"):
        return Action(line, player, TAKE)
    if match.group("drop"):
        return Action(line, player, DROP)
    if match.group("win"):
        return Action(line, player, WIN, value=int(match.group("points")))
    raise ValueError(f"{line}: beavers are not supported (bgcli reads beaver-free sessions)")


def read_mat(text: str, path: str) -> RawMatch:
    """The games of a ``.mat`` text; a line that cannot be read ends its game (the game's
    ``problem``), and reading goes on at the next ``Game`` line."""
    length = None
    names: tuple[str, str] | None = None
    match = RawMatch(path, "mat", 0, ("", ""))
    game: RawGame | None = None
    expect_score = False
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.rstrip()
        if game is not None and not game.problem and _SET_POSITION.match(line):
            game.problem = (f"{number}: a game from a set position (XG's '; Set Pos=') is not "
                            f"supported")
            continue
        if not line.strip() or line.lstrip().startswith(";"):
            jacoby = _JACOBY.match(line)  # some programs write '; [Jacoby "On"]'
            if jacoby:
                match.jacoby = jacoby.group(1).lower() in ("on", "yes", "true", "1")
            continue
        if game is None and length is None:
            found = _LENGTH.match(line)
            if found:
                length = int(found.group(1))
                match.length_line = number
                continue
        found = _GAME.match(line)
        if found:
            if length is None:
                match.problems.append(f"{number}: a game before the 'N point match' line")
                length = 0
            game = RawGame(int(found.group(1)), number, (0, 0))
            match.games.append(game)
            expect_score = True
            continue
        if game is None:
            continue  # other header lines (event, players' ratings) carry nothing to check
        if game.problem:
            continue  # that game is skipped from its first fault on
        if expect_score:
            found = _SCORE.match(line)
            if not found:
                game.problem = f"{number}: expected the score line 'NAME : POINTS   NAME : POINTS'"
                continue
            game.score = (int(found.group(2)), int(found.group(4)))
            these = (_name(found.group(1)), _name(found.group(3)))
            names = names or these
            if these != names:
                game.problem = f"{number}: players {these} are not the match's {names}"
            expect_score = False
            continue
        try:
            numbered = _NUMBERED.match(line)
            game.actions.extend(_actions(line, numbered.start(2) if numbered else 0, number))
        except ValueError as error:
            game.problem = str(error)
    if length is None:
        match.problems.append("1: no 'N point match' line: not a .mat match file")
        length = 0
    match.length = length
    match.names = names or ("", "")
    return match
