"""The ``bgcli`` command line.

Commands are thin: parse arguments into domain objects, call one library function, emit rows.
Errors: bad data (an ID that does not parse, an impossible position) prints one line on stderr
and exits 1; usage errors (bad options or dice, a missing file) exit 2. In a list of positions
a bad one is reported with where it came from and the rest still run. Ctrl-C and SIGTERM
exit 130. Output: a closed pipe (`| head`) exits 0 quietly; standard output that cannot be
written (`> /dev/full`) is one line and exit 1 (the README's "Errors").
"""

from __future__ import annotations

import errno
import os
import re
import sys

import typer

from ..errors import BgcliError, shortened
from . import batch, bench, decisions, learn, matches, positions, report, rollout, train, warm  # noqa: F401  (registers the commands)
from .common import app, sigterm_as_interrupt
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


def _say(line: str) -> None:
    """An error line on stderr, unless stderr is gone too (``2>&1 | head``)."""
    try:
        typer.echo(line, err=True)
    except OSError:
        pass


def _discard_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that the flush of what is still buffered for a
    closed or full stdout at interpreter exit neither fails again nor prints "Exception
    ignored ... BrokenPipeError"."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


class StdoutError(Exception):
    """Standard output cannot be written (a closed pipe, a full disk): the commands' writes
    to it raise this instead of a bare OSError, which could be any file's."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.errno = error.errno


class _Stdout:
    """sys.stdout while a command runs: the same stream, with its write errors named."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise StdoutError(exc) from None

    def flush(self):
        try:
            return self._stream.flush()
        except OSError as exc:
            raise StdoutError(exc) from None

    def __getattr__(self, name):  # everything else (isatty, encoding, fileno...) as it is
        return getattr(self._stream, name)


def _invoke(argv: list[str] | None) -> int:
    """Run the command line; its exit code. Called without typer's own ``main``, which turns a
    closed pipe into a silent exit 1 before we can see it."""
    command = typer.main.get_command(app)
    _plain_flags(command)
    args = _with_xgid_prefix(sys.argv[1:] if argv is None else list(argv))
    # as typer's main does: tab completion asks through an environment variable
    command._main_shell_completion({}, "bgcli")
    try:
        with command.make_context("bgcli", args) as ctx:
            command.invoke(ctx)
    except typer.Exit as exc:  # --help, --version, a command's own exit code
        return exc.exit_code
    except EOFError:  # as typer does: a prompt's input ended
        raise typer.Abort() from None
    return 0


def main(argv: list[str] | None = None) -> None:
    """Console entry point: one-line errors, never a traceback for bad input."""
    stdout = sys.stdout
    sys.stdout = _Stdout(stdout)
    try:
        with sigterm_as_interrupt():  # `kill`, a job scheduler: as Ctrl-C, in every command
            code = _invoke(argv)
    except UsageError as exc:
        hint = ""
        if exc.ctx is not None and exc.ctx.command_path:
            hint = f" (see '{exc.ctx.command_path} --help')"
        # no_args_is_help has already printed the help and leaves the message empty
        message = shortened(exc.format_message().strip()) or "missing command"
        code = _fail(f"usage error: {message}{hint}", 2)
    except InputError as exc:
        code = _fail(f"error: {exc}", 2)
    except BgcliError as exc:
        code = _fail(f"error: {exc}", 1)
    except (typer.Abort, KeyboardInterrupt):
        code = _fail("interrupted", 130)
    except ClickException as exc:
        code = _fail(f"error: {shortened(exc.format_message())}", exc.exit_code)
    except (StdoutError, OSError) as exc:
        code = _output_failed(exc)
    finally:
        sys.stdout = stdout
    sys.exit(code or 0)


def _fail(message: str, code: int) -> int:
    _say(f"bgcli: {message}")
    return code


def _output_failed(exc: StdoutError | OSError) -> int:
    """The exit code for standard output (or another file no command named) that could not
    be written, after saying so; see the README's "Errors"."""
    if exc.errno == errno.EPIPE:
        # the reader went away (`| head`): it has what it wanted, not an error
        _discard_stdout()
        return 0
    if isinstance(exc, StdoutError):  # > /dev/full, a disk filled up
        _discard_stdout()
        return _fail(f"error: cannot write to standard output: {exc}", 1)
    where = f"{exc.filename}: " if exc.filename else ""
    return _fail(f"error: {where}{exc.strerror or exc}", 1)
