"""The exception family of bgcli. Imports nothing from the project."""


MESSAGE_LIMIT = 300  # characters of an error message shown before it is cut


def shortened(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` on one line, cut after ``limit`` characters: a 100 KB bad input pasted into
    a command must not come back whole in its error."""
    message = " ".join(message.splitlines())
    if len(message) <= limit or _CUT in message:  # short, or cut already (the count stands)
        return message
    return f"{message[:limit]}{_CUT} {len(message):,} characters in all]"


_CUT = "... [cut:"


class BgcliError(Exception):
    """Base class of every error bgcli raises on purpose. Its text is one line, cut after
    ``MESSAGE_LIMIT`` characters (messages quote the input they could not read)."""

    def __str__(self) -> str:
        return shortened(super().__str__())


class ParseError(BgcliError, ValueError):
    """Text that cannot be read as the notation it claims to be.

    Messages say which part failed and end with the offending input,
    e.g. ``bad dice '07': each die must be 1..6``.
    """


class IllegalPositionError(BgcliError, ValueError):
    """A position that parses but cannot occur in a game (see ``Position.status``)."""


class IllegalMoveError(BgcliError, ValueError):
    """A move that is not legal in the given position with the given dice."""


class CollectionError(BgcliError):
    """A collection of positions that cannot be read at all (a missing file, not UTF-8, a CSV
    header without a ``position`` column), or from some line on (a quote never closed). A
    single bad row is not this: it is reported by file and line and the rest of the collection
    is still read. ``where`` is ``FILE:LINE`` when the fault has a line."""

    def __init__(self, reason: str, where: str | None = None):
        super().__init__(f"{where}: {reason}" if where else reason)
        self.reason, self.where = reason, where


class OutputError(BgcliError):
    """An output file that cannot be written, or cannot be resumed as asked (written by other
    settings, another bgcli version, or not the format its name says)."""


class ClusterError(BgcliError):
    """A Dask cluster that cannot be reached, or whose workers cannot run this bgcli."""
