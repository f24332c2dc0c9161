"""eXtreme Gammon IDs: ``XGID=board:cube:cubepos:turn:dice:score1:score2:cj:length:maxcube``.

Field meanings and perspective, as GNU Backgammon's ``set xgid`` reads them (the evidence is
``tests/fixtures/xgids.jsonl``; ``tests/fixtures/README.md`` sums it up):

* board, 26 characters: character 0 is the top player's bar, characters 1..24 are points 1..24
  counted from the bottom player's home board, character 25 is the bottom player's bar.
  ``-`` is empty, ``A``..``P`` are 1..15 bottom (X) checkers, ``a``..``p`` top (O) checkers.
* cube: log2 of the cube value. cubepos: 1 the bottom player owns it, -1 the top player, 0
  centred. turn: 1 the bottom player is on roll, -1 the top player. gnubg reads any other
  cubepos as centred and any other turn as -1; bgcli refuses them, since such an XGID was not
  written by XG or gnubg and guessing would show a position the user did not mean.
* dice: ``00`` not yet rolled, ``D`` a double is offered (the turn player doubled), else the
  two dice; beaver/raccoon states (``B``/``R``) are refused, as gnubg refuses them.
* score1 is the bottom player's score, score2 the top player's.
* cj: in a match 0 or 1, 1 marking the Crawford game (dropped, as gnubg drops it, when nobody
  is one point away); in a money game 0..3, bit 1 the Jacoby rule, bit 2 beavers (ignored).
* length: match length, 0 for money, at most 64. maxcube: required but unused, as in gnubg;
  written as 10.

The bottom player is gnubg's player 1 and the top player gnubg's player 0.
"""

from __future__ import annotations

import re
import numpy as np

from ..errors import ParseError
from ..position import CHECKERS, Position
from .gnubgid import CENTERED, GameState, MatchState
from .situation import Situation
from .xgid_format import DEFAULT_MAX_CUBE, format_xgid  # noqa: F401  (re-exported)

_XGID = re.compile(r"^(?:XGID=)?([A-Pa-p-]{26})((?::[^:]*){9})$", re.I)
_INT = re.compile(r"^-?[0-9]{1,5}$")  # ASCII digits only: int() also reads "３"
MAX_MATCH_LENGTH = 64  # the longest match gnubg accepts from an XGID


def _checker_count(char: str) -> tuple[int, int]:
    """(bottom, top) checker counts one board character stands for."""
    if char == "-":
        return 0, 0
    if char.isupper():
        return ord(char) - ord("A") + 1, 0
    return 0, ord(char) - ord("a") + 1


def _field_int(name: str, text: str, whole: str, allowed=None) -> int:
    if not _INT.match(text):
        raise ParseError(f"XGID {name} must be an integer, got {text!r}: {whole!r}")
    value = int(text)
    if allowed is not None and value not in allowed:
        raise ParseError(f"XGID {name} must be one of {sorted(allowed)}, got {value}: {whole!r}")
    return value


def parse_xgid(text: str) -> Situation:
    """Parse an XGID into a ``Situation`` (raises ``ParseError`` on any defect)."""
    whole = text.strip()
    match = _XGID.match(whole)
    if not match:
        raise ParseError(
            "XGID must be XGID= then a 26-character board ('-', A-P, a-p) and 9 "
            f"colon-separated fields: {text!r}"
        )
    chars = match.group(1)
    fields = match.group(2)[1:].split(":")
    cube_log2 = _field_int("cube", fields[0], whole, range(0, 16))
    cube_position = _field_int("cube position", fields[1], whole, (-1, 0, 1))
    turn = _field_int("turn", fields[2], whole, (-1, 1))
    dice_text = fields[3].upper()
    bottom_score = _field_int("score 1", fields[4], whole)
    top_score = _field_int("score 2", fields[5], whole)
    match_length = _field_int("match length", fields[7], whole, range(0, MAX_MATCH_LENGTH + 1))
    rules = range(0, 2) if match_length else range(0, 4)
    crawford_jacoby = _field_int("Crawford/Jacoby", fields[6], whole, rules)
    _field_int("max cube", fields[8], whole)  # required, but (like gnubg) not used

    bottom = np.zeros(25, dtype=np.int16)  # own numbering, index 24 = bar
    top = np.zeros(25, dtype=np.int16)
    for index, char in enumerate(chars):
        b, t = _checker_count(char)
        if index == 0:
            top[24] += t
            if b:
                raise ParseError(f"XGID character 0 is the top player's bar, not {char!r}: {whole!r}")
        elif index == 25:
            bottom[24] += b
            if t:
                raise ParseError(f"XGID character 25 is the bottom player's bar, not {char!r}: {whole!r}")
        else:
            bottom[index - 1] += b
            top[24 - index] += t
    for name, row in (("bottom", bottom), ("top", top)):
        if row.sum() > CHECKERS:
            raise ParseError(f"XGID gives the {name} player {row.sum()} checkers: {whole!r}")
    bottom_on_roll = turn == 1
    on_roll, opponent = (bottom, top) if bottom_on_roll else (top, bottom)
    position = Position(np.stack([opponent, on_roll]))
    status = position.status()
    if status:
        raise ParseError(f"XGID describes an impossible position ({status.describe()}): {whole!r}")

    if dice_text in ("B", "R"):
        raise ParseError(f"XGID beaver and raccoon states are not supported (dice {fields[3]!r}): {whole!r}")
    double_offered = dice_text == "D"
    if double_offered or dice_text == "00":
        dice = (0, 0)
    elif re.fullmatch(r"[1-6][1-6]", dice_text):
        dice = (int(dice_text[0]), int(dice_text[1]))
    else:
        raise ParseError(f"XGID dice must be 00, D, B, R or two dice 1..6, got {fields[3]!r}: {whole!r}")

    player_on_roll = 1 if bottom_on_roll else 0
    owner = {1: 1, -1: 0, 0: CENTERED}[cube_position]
    # like gnubg, a Crawford flag while nobody is one point away is dropped
    crawford = bool(match_length and crawford_jacoby & 1
                    and match_length - 1 in (top_score, bottom_score))
    state = MatchState(
        cube_value=1 << cube_log2,
        cube_owner=owner,
        player_on_roll=player_on_roll,
        crawford=crawford,
        game_state=GameState.PLAYING,
        turn=player_on_roll if not double_offered else 1 - player_on_roll,
        double_offered=double_offered,
        dice=dice,
        match_length=match_length,
        score=(top_score, bottom_score),
        jacoby=bool(match_length == 0 and crawford_jacoby & 1),
    )
    problems = state.problems()
    if problems:
        raise ParseError(f"XGID describes an impossible match state ({'; '.join(problems)}): {whole!r}")
    return Situation(position, state)
