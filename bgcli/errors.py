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


class CollectionError(BgcliError):
    """A collection of positions that cannot be read at all (a missing file, not UTF-8, a CSV
    header without a ``position`` column). A single bad row is not this: it is reported by
    file and line and the rest of the collection is still read."""


class OutputError(BgcliError):
    """An output file that cannot be written, or cannot be resumed as asked (written by other
    settings, another bgcli version, or not the format its name says)."""


class ClusterError(BgcliError):
    """A Dask cluster that cannot be reached, or whose workers cannot run this bgcli."""
