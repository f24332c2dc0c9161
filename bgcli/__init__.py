"""bgcli: backgammon analysis from the shell, and from Python (``bgcli.api``).

``bgcli.analyse``, ``bgcli.rollouts``, ``bgcli.pips``, ``bgcli.read_batch`` and
``bgcli.RolloutSettings`` are loaded on first use, so ``import bgcli`` stays fast (no pandas,
no numba)."""

__version__ = "0.4.0"

from .errors import BgcliError, IllegalMoveError, IllegalPositionError, ParseError  # noqa: E402
from .position import Position, Status  # noqa: E402

# the Python API (bgcli.api), imported when one of its names is first asked for
_API_NAMES = ("analyse", "rollouts", "pips", "read_batch", "RolloutSettings")

__all__ = ["BgcliError", "IllegalMoveError", "IllegalPositionError", "ParseError", "Position",
           "Status", "__version__", *_API_NAMES]


def __getattr__(name: str):
    if name in _API_NAMES:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'bgcli' has no attribute {name!r}")
