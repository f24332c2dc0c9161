"""One entry point for every position notation users paste.

``parse_situation`` accepts, with surrounding whitespace ignored:

* a gnubg Position ID alone (``4HPwATDgc/ABMA``): money game, centred cube, not yet rolled;
* ``POSITIONID:MATCHID`` (gnubg's "GNU Backgammon ID"), optionally prefixed ``GNUBGID``, or
  the two IDs separated by white space (``4HPwATDgc/ABMA cAkAAAAAAAAE``);
* gnubg's own text, as its board display or its GUI prints it, on one line or two:
  ``GNU Backgammon  Position ID: 4HPwATDgc/ABMA`` / ``Match ID   : cAkAAAAAAAAE`` (the
  Match ID optional);
* an XGID (``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``, the prefix optional).
"""

from __future__ import annotations

import re

from ..errors import ParseError
from .gnubgid import (
    MATCH_ID_LENGTH,
    POSITION_ID_LENGTH,
    MatchState,
    parse_match_id,
    parse_position_id,
)
from .situation import Situation  # noqa: F401  (re-exported: bgcli.notation.detect.Situation)
from .xgid import parse_xgid


_LOOKS_LIKE_ID = re.compile(r"^[A-Za-z0-9+/]{10,18}$")
_BASE64 = re.compile(r"^[A-Za-z0-9+/]+$")
_GNUBG_PREFIX = re.compile(r"^(gnubgid|gnubg\s+id|gnu\s+backgammon\s+id)\s*[:=]?\s*", re.I)
# gnubg's "GNU Backgammon  Position ID: ...\n                 Match ID   : ..."
_GNUBG_TEXT = re.compile(
    r"^(?:gnu\s+backgammon\s+)?position\s+id\s*:\s*(?P<position>\S+)"
    r"(?:\s+match\s+id\s*:\s*(?P<match>\S+))?$", re.I)


def _looks_like_id_pair(first: str, second: str) -> bool:
    """Two words that are meant as a Position ID and a Match ID (one of them the right
    length), not just any two words."""
    return (_BASE64.match(first) is not None and _BASE64.match(second) is not None
            and (len(first) == POSITION_ID_LENGTH or len(second) == MATCH_ID_LENGTH))


def _from_gnubg_ids(position_id: str, match_id: str | None, text: str) -> Situation:
    """The situation of a Position ID and a Match ID (None: money, centred, not rolled)."""
    if len(position_id) != POSITION_ID_LENGTH or (
            match_id is not None and len(match_id) != MATCH_ID_LENGTH):
        got = f"{len(position_id)}" + ("" if match_id is None else f" and {len(match_id)}")
        raise ParseError("expected a gnubg Position ID and Match ID (14 and 12 characters) "
                         f"but got {got} characters: {text!r}")
    match = MatchState() if match_id is None else parse_match_id(match_id)
    return Situation(parse_position_id(position_id), match)


def _is_match_id(text: str) -> bool:
    try:
        parse_match_id(text)
    except ParseError:
        return False
    return True


def parse_situation(text: str) -> Situation:
    """Parse any supported notation, detecting which one it is (raises ``ParseError``).

    >>> parse_situation("4HPwATDgc/ABMA cAkAAAAAAAAE").xgid
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    """
    if not isinstance(text, str):
        raise ParseError(f"a position must be text, not {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise ParseError("empty position: expected a gnubg Position ID, POSID:MATCHID or an XGID")
    if stripped.upper().startswith("XGID=") or stripped.count(":") >= 8:
        return parse_xgid(stripped)
    labelled = _GNUBG_TEXT.match(stripped)
    if labelled:
        return _from_gnubg_ids(labelled["position"], labelled["match"], text)
    body = _GNUBG_PREFIX.sub("", stripped)
    words = body.split()
    if len(words) == 2 and _looks_like_id_pair(*words):  # POSID MATCHID, as two words
        return _from_gnubg_ids(words[0], words[1], text)
    if ":" in body:
        position_part, _, match_part = body.partition(":")
        if len(position_part) != POSITION_ID_LENGTH or len(match_part) != MATCH_ID_LENGTH:
            raise ParseError(
                "expected POSITIONID:MATCHID (14 and 12 characters) "
                f"but got {len(position_part)} and {len(match_part)} characters: {text!r}"
            )
        return Situation(parse_position_id(position_part), parse_match_id(match_part))
    if len(body) == MATCH_ID_LENGTH and _is_match_id(body):
        raise ParseError("this looks like a gnubg Match ID alone: give the Position ID before "
                         f"it, as POSITIONID:MATCHID (14 and 12 characters): {text!r}")
    if len(body) == POSITION_ID_LENGTH or _LOOKS_LIKE_ID.match(body):
        return Situation(parse_position_id(body))
    raise ParseError(
        "not a position: expected a 14-character gnubg Position ID, POSID:MATCHID or an "
        f"XGID=... string: {text!r}"
    )
