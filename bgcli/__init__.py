"""bgcli: backgammon analysis from the shell, and from Python (``bgcli.api``).

``bgcli.Position`` and ``bgcli.Status`` (numpy), and ``bgcli.analyse``, ``bgcli.rollouts``,
``bgcli.pips``, ``bgcli.read_batch`` and ``bgcli.RolloutSettings`` (the Python API) are
loaded on first use, so ``import bgcli`` stays fast (no numpy, pandas or numba), and the
command line can set up its process before numpy starts (``bgcli.cli.process``)."""

__version__ = "0.10.0"

from .errors import BgcliError, IllegalMoveError, IllegalPositionError, ParseError  # noqa: E402

# bgcli.position, imported when Position or Status is first asked for
_POSITION_NAMES = ("Position", "Status")
# the Python API (bgcli.api), imported when one of its names is first asked for
_API_NAMES = ("analyse", "rollouts", "pips", "read_batch", "RolloutSettings")

__all__ = ["BgcliError", "IllegalMoveError", "IllegalPositionError", "ParseError",
           "__version__", *_POSITION_NAMES, *_API_NAMES]


def __getattr__(name: str):
    if name in _POSITION_NAMES:
        from . import position

        return getattr(position, name)
    if name in _API_NAMES:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'bgcli' has no attribute {name!r}")
