"""The ``bgcli`` command line.

Commands are thin: parse arguments into domain objects, call one library function, emit rows.
Errors: bad data (an ID that does not parse, an impossible position) prints one line on stderr
and exits 1; usage errors (bad options or dice, a missing file) exit 2. In a list of positions
a bad one is reported with where it came from and the rest still run.
"""

from __future__ import annotations

import re
import sys

import typer

from ..errors import BgcliError, shortened
from . import batch, decisions, positions, rollout, report, train  # noqa: F401  (registers the commands)
from .common import app
from .inputs import InputError

__all__ = ["app", "main"]


def _click_class(name: str) -> type:
    """click's exception class ``name`` as typer uses it (recent typer vendors its own click)."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == name:
            return cls
    raise LookupError(name)  # pragma: no cover


UsageError = _click_class("UsageError")
ClickException = _click_class("ClickException")


# An XGID pasted without its "XGID=" prefix: 26 board characters, then its fields. When the
# first point is empty it starts with '-', and the parser would take it for an option.
_BARE_XGID = re.compile(r"^-[-A-Pa-p]{25}:")


def _with_xgid_prefix(argv: list[str]) -> list[str]:
    """``argv`` with ``XGID=`` put before every bare XGID that starts with '-'."""
    return [f"XGID={arg}" if _BARE_XGID.match(arg) else arg for arg in argv]


def _plain_flags(command, parent=None) -> None:
    """Show on/off options (``--version``, ``--help``, ``--rollout/--no-rollout``) in the help
    as bare flags: typer's rich help would print a ``<bool>`` metavar after them, as if they
    took a value."""
    context = typer.Context(command, parent=parent, **command.context_settings)
    for param in command.get_params(context):  # get_params creates --help too
        if getattr(param, "is_flag", False) and not param.count and param.metavar is None:
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        _plain_flags(sub, context)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: one-line errors, never a traceback for bad input."""
    command = typer.main.get_command(app)
    _plain_flags(command)
    argv = _with_xgid_prefix(sys.argv[1:] if argv is None else list(argv))
    try:
        code = command.main(args=argv, prog_name="bgcli", standalone_mode=False)
    except UsageError as exc:
        hint = ""
        if exc.ctx is not None and exc.ctx.command_path:
            hint = f" (see '{exc.ctx.command_path} --help')"
        # no_args_is_help has already printed the help and leaves the message empty
        message = shortened(exc.format_message().strip()) or "missing command"
        typer.echo(f"bgcli: usage error: {message}{hint}", err=True)
        sys.exit(2)
    except InputError as exc:
        typer.echo(f"bgcli: error: {exc}", err=True)
        sys.exit(2)
    except BgcliError as exc:
        typer.echo(f"bgcli: error: {exc}", err=True)
        sys.exit(1)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("bgcli: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): not an error
        sys.exit(0)
    except ClickException as exc:
        typer.echo(f"bgcli: error: {shortened(exc.format_message())}", err=True)
        sys.exit(exc.exit_code)
    sys.exit(code or 0)
