"""Writing eXtreme Gammon IDs (the format is ``bgcli.notation.xgid``'s docstring).

Apart from the reader so that ``Situation.xgid`` (``bgcli.notation.situation``) can write
one while the reader, which builds ``Situation`` objects, imports ``Situation``: no cycle.
"""

from __future__ import annotations

from .gnubgid import CENTERED, MatchState

DEFAULT_MAX_CUBE = 10


def _board_chars(situation) -> str:
    board = situation.position.board
    on_roll, opponent = board[1], board[0]
    bottom, top = (on_roll, opponent) if situation.match.player_on_roll == 1 else (opponent, on_roll)
    chars = ["-"] * 26
    if top[24]:
        chars[0] = chr(ord("a") + top[24] - 1)
    if bottom[24]:
        chars[25] = chr(ord("A") + bottom[24] - 1)
    for point in range(1, 25):
        if bottom[point - 1]:
            chars[point] = chr(ord("A") + bottom[point - 1] - 1)
        elif top[24 - point]:
            chars[point] = chr(ord("a") + top[24 - point] - 1)
    return "".join(chars)


def format_xgid(situation, max_cube_log2: int = DEFAULT_MAX_CUBE) -> str:
    """The XGID of a ``Situation``."""
    state: MatchState = situation.match
    turn = 1 if state.player_on_roll == 1 else -1
    cube_position = {CENTERED: 0, 1: 1, 0: -1}[state.cube_owner]
    if state.double_offered:
        dice = "D"
    elif state.dice_rolled:
        dice = f"{state.dice[0]}{state.dice[1]}"
    else:
        dice = "00"
    if state.match_length:
        crawford_jacoby = int(state.crawford)
    else:
        crawford_jacoby = int(state.jacoby)
    fields = [
        _board_chars(situation),
        str(state.cube_value.bit_length() - 1),
        str(cube_position),
        str(turn),
        dice,
        str(state.score[1]),
        str(state.score[0]),
        str(crawford_jacoby),
        str(state.match_length),
        str(max_cube_log2),
    ]
    return "XGID=" + ":".join(fields)

