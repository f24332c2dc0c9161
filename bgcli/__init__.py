"""bgcli: backgammon analysis from the shell."""

__version__ = "0.2.0"

from .errors import BgcliError, IllegalMoveError, IllegalPositionError, ParseError  # noqa: E402
from .position import Position, Status  # noqa: E402

__all__ = ["BgcliError", "IllegalMoveError", "IllegalPositionError", "ParseError", "Position",
           "Status", "__version__"]
