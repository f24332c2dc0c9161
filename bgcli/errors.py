"""The exception family of bgcli. Imports nothing from the project."""


class BgcliError(Exception):
    """Base class of every error bgcli raises on purpose."""


class ParseError(BgcliError, ValueError):
    """Text that cannot be read as the notation it claims to be.

    Messages say which part failed and end with the offending input,
    e.g. ``bad dice '07': each die must be 1..6``.
    """


class IllegalPositionError(BgcliError, ValueError):
    """A position that parses but cannot occur in a game (see ``Position.status``)."""


class IllegalMoveError(BgcliError, ValueError):
    """A move that is not legal in the given position with the given dice."""
