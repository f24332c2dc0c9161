"""A text board diagram, drawn from the point of view of the player on roll (X, at the
bottom, moving counter-clockwise from 24 to 1); the opponent is O at the top.

Pure: imports only numpy and the project's own model.
"""

from __future__ import annotations

from .notation.situation import Situation
from .notation.gnubgid import CENTERED

_ROWS = 5  # checkers drawn per point before the count is written instead


def _cell(count: int, row: int, symbol: str) -> str:
    """What to draw ``row`` checkers out from the edge on a point holding ``count``."""
    if count <= 0 or row >= count:
        return " "
    if row == _ROWS - 1 and count > _ROWS:
        return str(count) if count < 10 else "+"
    return symbol


def _half(points_left, points_right, mine, theirs, bar_text: str, from_top: bool) -> list[str]:
    """Rows of one half of the board, edge first; ``points_*`` are X's point numbers, left to
    right. ``bar_text`` (a side's checkers on the bar) goes in the row nearest the middle."""
    lines = []
    for row in range(_ROWS):
        cells = []
        for group in (points_left, points_right):
            text = ""
            for point in group:
                count_x = int(mine[point - 1])
                count_o = int(theirs[24 - point])
                text += " " + (_cell(count_x, row, "X") if count_x else _cell(count_o, row, "O")) + " "
            cells.append(text)
        middle = bar_text if row == _ROWS - 1 else ""
        lines.append(f"|{cells[0]}|{middle:^3}|{cells[1]}|")
    return lines if from_top else lines[::-1]


def _cube_text(situation: Situation) -> str:
    match = situation.match
    if match.cube_owner == CENTERED:
        return f"Cube {match.cube_value}, centred"
    owner = "X" if match.cube_owner == match.player_on_roll else "O"
    return f"Cube {match.cube_value}, owned by {owner}"


def _score_text(situation: Situation) -> str:
    match = situation.match
    if match.is_money:
        return "money game" + (", Jacoby rule" if match.jacoby else "")
    x_score = match.score[match.player_on_roll]
    o_score = match.score[1 - match.player_on_roll]
    crawford = " (Crawford game)" if match.crawford else ""
    return f"X {x_score}, O {o_score} in a {match.match_length}-point match{crawford}"


def _dice_text(situation: Situation) -> str:
    match = situation.match
    if match.double_offered:
        return "a double is offered"
    return f"{match.dice[0]}{match.dice[1]}" if match.dice_rolled else "not yet rolled"


def render_board(situation: Situation) -> str:
    """A board diagram with pip counts, cube, score, dice and all three IDs."""
    position = situation.position
    mine, theirs = position.board[1], position.board[0]
    pips_x, pips_o = position.pips()
    off_x, off_o = position.borne_off()
    bar_o = f"O{theirs[24]}" if theirs[24] else ""
    bar_x = f"X{mine[24]}" if mine[24] else ""
    top = _half(range(13, 19), range(19, 25), mine, theirs, bar_o, from_top=True)
    bottom = _half(range(12, 6, -1), range(6, 0, -1), mine, theirs, bar_x, from_top=False)
    side = {
        0: f"O  pips {pips_o:>3}   borne off {off_o:>2}",
        _ROWS + 1: _cube_text(situation),
        2 * _ROWS + 2: f"X  pips {pips_x:>3}   borne off {off_x:>2}   on roll",
    }
    board = (
        ["+13-14-15-16-17-18-+---+19-20-21-22-23-24-+"]
        + top
        + [f"|{' ' * 18}|BAR|{' ' * 18}|"]
        + bottom
        + ["+12-11-10--9--8--7-+---+-6--5--4--3--2--1-+"]
    )
    lines = [f" {line}   {side.get(i, '')}".rstrip() for i, line in enumerate(board)]
    lines += [
        "",
        f" Score: {_score_text(situation)}.  Dice: {_dice_text(situation)}.",
        f" Position ID: {situation.position_id}   Match ID: {situation.match_id}",
        f" XGID: {situation.xgid}",
    ]
    return "\n".join(lines)
