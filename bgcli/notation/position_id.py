"""The bits of gnubg's Position ID, on bare boards: the codec under ``bgcli.position``.

A Position ID (80 bits, 14 characters) is base64 (standard alphabet, no padding) of a
little-endian bit string (bit ``k`` is bit ``k % 8`` of byte ``k // 8``): for the opponent
(``board[0]``) then the player on roll (``board[1]``), for points 1..24 then the bar, one
1-bit per checker followed by a 0-bit; zero-padded. See ``bgcli.notation.gnubgid``.

This module works on board arrays, not ``Position`` objects, so that ``bgcli.position`` can
import it without ``bgcli.notation.gnubgid`` (which imports ``bgcli.position``) importing
back: the dependency goes one way. The base64 helpers serve the Match ID too.
"""

from __future__ import annotations

import base64
import binascii
import re

import numpy as np

from ..errors import ParseError

POSITION_ID_LENGTH = 14
_MOST_ON_A_POINT = 15  # bgcli.position.CHECKERS: one side's checkers
_BASE64 = re.compile(r"^[A-Za-z0-9+/]*$")


def decode_base64(text: str, length: int, nbytes: int, what: str) -> bytes:
    if len(text) != length:
        raise ParseError(f"{what} must be {length} characters, got {len(text)}: {text!r}")
    if not _BASE64.match(text):
        raise ParseError(f"{what} may only contain A-Z a-z 0-9 + /: {text!r}")
    padding = "=" * (-len(text) % 4)
    try:
        raw = base64.b64decode(text + padding, validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex above already filters
        raise ParseError(f"{what} is not valid base64 ({exc}): {text!r}") from None
    return raw[:nbytes]


def encode_base64(raw: bytes, length: int) -> str:
    return base64.b64encode(raw).decode("ascii").rstrip("=")[:length]


def bits_of(raw: bytes) -> list[int]:
    return [(byte >> k) & 1 for byte in raw for k in range(8)]


def bytes_of(bits: list[int], nbytes: int) -> bytes:
    bits = bits + [0] * (8 * nbytes - len(bits))
    return bytes(sum(bits[8 * i + k] << k for k in range(8)) for i in range(nbytes))


def decode_position_id(text: str) -> np.ndarray:
    """The (2, 25) board a Position ID spells (``ParseError`` when it is malformed; whether
    the board is a possible position is the caller's check)."""
    what = "Position ID"
    bits = bits_of(decode_base64(text, POSITION_ID_LENGTH, 10, what))
    board = np.zeros((2, 25), dtype=np.int16)
    side, index, position = 0, 0, 0
    while side < 2:
        if position >= len(bits):
            raise ParseError(f"{what} ends before both sides are described: {text!r}")
        if bits[position]:
            board[side, index] += 1
            if board[side, index] > _MOST_ON_A_POINT:
                raise ParseError(f"{what} puts more than 15 checkers on one point: {text!r}")
        else:
            index += 1
            if index == 25:
                side, index = side + 1, 0
        position += 1
    if any(bits[position:]):
        raise ParseError(f"{what} has stray bits after the last point: {text!r}")
    return board


def encode_position_id(board: np.ndarray) -> str:
    """The Position ID of a (2, 25) board (player on roll as the second half of the key)."""
    bits: list[int] = []
    for side in (0, 1):
        for count in board[side]:
            bits.extend([1] * int(count))
            bits.append(0)
    if len(bits) > 80:
        raise ValueError("a Position ID holds at most 30 checkers")
    return encode_base64(bytes_of(bits, 10), POSITION_ID_LENGTH)
