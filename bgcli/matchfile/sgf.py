"""GNU Backgammon's ``.sgf`` (``save match``): one SGF game tree per game, ``GM[6]``.

The root node holds ``MI[length:N][game:K][ws:S][bs:S]`` (match length, 0 for money; game
number from 0; the scores of White and Black), ``PW``/``PB`` (names), ``RU`` (rules:
``Crawford:CrawfordGame`` marks the Crawford game) and ``RE`` (``W+2``, ``B+1R``: winner,
points, R for a resignation). Each later node is one action: ``W[21fddc]`` is White's roll 21
moving f->d, d->c, or ``double``, ``take``, ``drop``. White is player 0 (the left column of the
same match's ``.mat``). Points are letters: ``a``..``x`` are White's points 1..24 (Black's
24..1), ``y`` is the bar and ``z`` off. Analysis properties (``A``, ``DA``, ...) are skipped;
setup properties (``AB``, ``AW``, ``AE``: a game from a set-up position) are not supported.
"""

from __future__ import annotations

import re

from .raw import DOUBLE, DROP, MOVE, TAKE, Action, RawGame, RawMatch

_SETUP = {"AB", "AW", "AE", "PL", "DI", "CV", "CP"}


def _nodes(text: str):
    """(game tree index, line, {property: [values]}) for every node, in order; raises
    ValueError ``LINE: what is wrong`` on broken SGF."""
    i, line, depth, tree = 0, 1, 0, -1
    node = None
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        if c == "(":
            depth += 1
            if depth == 1:
                tree += 1
        elif c == ")":
            if node is not None:
                yield node
                node = None
            depth -= 1
            if depth < 0:
                raise ValueError(f"{line}: ')' without '('")
        elif c == ";":
            if depth < 1:
                raise ValueError(f"{line}: a node outside a game tree")
            if node is not None:
                yield node
            node = (tree, line, {})
        elif c.isalpha() and c.isupper():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            name = text[i:j]
            values = []
            while True:
                while j < n and text[j] in " \t\r\n":
                    line += text[j] == "\n"
                    j += 1
                if j >= n or text[j] != "[":
                    break
                k = j + 1
                value = []
                while k < n and text[k] != "]":
                    if text[k] == "\\" and k + 1 < n:
                        k += 1
                    line += text[k] == "\n"
                    value.append(text[k])
                    k += 1
                if k >= n:
                    raise ValueError(f"{line}: a property value never closed (truncated file?)")
                values.append("".join(value))
                j = k + 1
            if not values:
                raise ValueError(f"{line}: property {name} without a value")
            if node is None:
                raise ValueError(f"{line}: property {name} outside a node")
            node[2].setdefault(name, []).extend(values)
            i = j
            continue
        elif not c.isspace():
            raise ValueError(f"{line}: unexpected {c!r}")
        i += 1
    if depth != 0:
        raise ValueError(f"{line}: a game tree never closed (truncated file?)")


def _point(letter: str, player: int, line: int) -> int:
    index = ord(letter) - ord("a")
    if index == 24:
        return 25  # bar
    if index == 25:
        return 0  # off
    if not 0 <= index <= 23:
        raise ValueError(f"{line}: {letter!r} is not a point a..z")
    return index + 1 if player == 0 else 24 - index


def _move(value: str, player: int, line: int) -> Action:
    if not re.fullmatch(r"[1-6][1-6](?:[a-z]{2}){0,4}", value):
        raise ValueError(f"{line}: cannot read {value!r} as a roll and move like 21fddc")
    steps = [f"{_point(value[k], player, line)}/{_point(value[k + 1], player, line)}"
             for k in range(2, len(value), 2)]
    text = " ".join(steps).replace("25/", "bar/").replace("/0", "/off")
    return Action(line, player, MOVE, dice=(int(value[0]), int(value[1])), move=text)


def _unquoted(name: str) -> str:
    name = name.strip()
    return name[1:-1] if len(name) >= 2 and name[0] == name[-1] == '"' else name


def _root(game: RawGame, match: RawMatch, props: dict, line: int) -> None:
    info = {}
    for value in props.get("MI", []):
        key, _, number = value.partition(":")
        info[key] = number
    try:
        length = int(info.get("length", match.length))
        game.number = int(info.get("game", len(match.games) - 1)) + 1
        game.score = (int(info.get("ws", 0)), int(info.get("bs", 0)))
    except ValueError:
        raise ValueError(f"{line}: cannot read the match information MI{props.get('MI')}") from None
    if not match.games[:-1]:  # the first game gives the match's length and players
        match.length, match.length_line = length, line
        match.names = tuple(_unquoted(props.get(key, [""])[0]) for key in ("PW", "PB"))
    elif length != match.length:
        raise ValueError(f"{line}: a {length}-point match in a {match.length}-point match's file")
    rules = props.get("RU", [""])[0]
    game.crawford = "CrawfordGame" in rules
    match.jacoby = match.jacoby or "Jacoby" in rules
    result = props.get("RE", [""])[0]
    found = re.fullmatch(r"([WB])\+(\d+)(R?)", result)
    if found:
        game.result = ("WB".index(found.group(1)), int(found.group(2)), bool(found.group(3)))


def read_sgf(text: str, path: str) -> RawMatch:
    match = RawMatch(path, "sgf", 0, ("", ""))
    game = None
    try:
        for tree, line, props in _nodes(text):
            if game is None or tree != len(match.games) - 1:
                game = RawGame(len(match.games) + 1, line, (0, 0))
                match.games.append(game)
                try:
                    if props.get("GM", ["6"])[0] != "6":
                        raise ValueError(f"{line}: GM[{props['GM'][0]}] is not backgammon (GM[6])")
                    _root(game, match, props, line)
                except ValueError as error:
                    game.problem = str(error)
                continue
            if game.problem:
                continue
            try:
                setup = _SETUP & props.keys()
                if setup:
                    raise ValueError(f"{line}: set-up properties ({', '.join(sorted(setup))}) "
                                     f"are not supported")
                for player, key in ((0, "W"), (1, "B")):
                    for value in props.get(key, []):
                        kind = {"double": DOUBLE, "take": TAKE, "drop": DROP}.get(value.lower())
                        game.actions.append(Action(line, player, kind) if kind
                                            else _move(value, player, line))
            except ValueError as error:
                game.problem = str(error)
    except ValueError as error:
        if game is not None and not game.problem:
            game.problem = str(error)
        else:
            match.problems.append(str(error))
    return match
