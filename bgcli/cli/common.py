"""What the commands share: the Typer app, common options and input helpers."""

from __future__ import annotations

import contextlib
import signal
import threading
from pathlib import Path
from typing import Optional

import typer

from .. import __version__
from ..errors import BgcliError
from ..rollout import MAX_SEED  # noqa: F401  (the bound of every --seed option)
from .inputs import InputError, gather
from .output import OutputFormat

app = typer.Typer(
    name="bgcli",
    help="Backgammon analysis from the shell: boards, pip counts and race metrics, legal moves, rollouts.\n\n"
    "Positions may be gnubg Position IDs, POSITIONID:MATCHID (or the two IDs apart, or gnubg's "
    "'Position ID: ... Match ID: ...' text) or XGIDs (the XGID= prefix optional).",
    add_completion=True,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FormatOption = typer.Option(
    OutputFormat.table, "--format", "-f", help="Output format: table, csv, tsv, json or ndjson."
)
InputOption = typer.Option(
    None, "--input", "-i", help="Read positions from FILE, one per line ('#' starts a comment; '-' is stdin).",
)


# every --seed: seeds are kept to 53 bits so that JSON readers holding numbers as doubles
SEED_RANGE_HELP = ("0 .. 2^53-1: larger numbers lose digits in JSON tools that read them as "
                   "doubles (jq, JavaScript), and a copied seed would not reproduce its row.")


def report(label: str, error: Exception) -> None:
    typer.echo(f"bgcli: error: {label}: {error}", err=True)


def _version_callback(value: bool) -> None:
    if value:
        from ..net import net_id, weights_path

        typer.echo(f"bgcli {__version__}")
        try:
            typer.echo(f"net weights: {net_id()}, {weights_path()}")
        except BgcliError as exc:
            typer.echo(f"net weights: {exc}")
        from ..prune import DEFAULT_PRUNE_WEIGHTS, prune_id

        typer.echo(f"pruning net: {prune_id()}, {DEFAULT_PRUNE_WEIGHTS}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Backgammon analysis from the shell."""


def parse_dice_option(text: Optional[str]):
    if text is None:
        return None
    from ..notation.dice import parse_dice

    try:
        return parse_dice(text)
    except BgcliError as exc:
        raise typer.BadParameter(str(exc)) from None


def dice_for(situation, text: Optional[str]) -> tuple[int, int]:
    """The roll: the DICE argument if given, else the dice the Match ID or XGID holds. A DICE
    argument replaces dice the position already holds (to try another roll of the same
    position); when they differ a note on stderr says so, so the choice is never silent."""
    rolled = parse_dice_option(text)
    if rolled is not None:
        held = situation.match.dice
        if situation.match.dice_rolled and sorted(held) != sorted(rolled):
            typer.echo(f"bgcli: note: DICE {rolled[0]}{rolled[1]} replaces the {held[0]}{held[1]} "
                       "rolled in the position", err=True)
        return tuple(rolled)
    if not situation.match.dice_rolled:
        raise typer.BadParameter("give the dice, e.g. 31: this position has none rolled",
                                 param_hint="DICE")
    return situation.match.dice


def situations(positions, input_file):
    """Yield (raw position, situation or None, error or None) for every position given."""
    from ..errors import ParseError
    from ..notation.detect import parse_situation

    for raw in gather(positions, input_file):
        if raw.error is not None:
            yield raw, None, ParseError(raw.error)
            continue
        try:
            yield raw, parse_situation(raw.text), None
        except BgcliError as exc:
            yield raw, None, exc


def check_writable(path: Path, option: str, suffixes: tuple[str, ...] = ()) -> None:
    """Refuse, before any work, an output file that cannot be written: a directory, a wrong
    extension, a missing or read-only folder, a name too long. Tried by opening it for
    appending (a file that was not there is removed again), which asks the system itself."""
    def refuse(why: str):
        return typer.BadParameter(why, param_hint=option)

    try:
        if path.is_dir():
            raise refuse(f"{str(path)!r} is a directory: give a file name")
        if suffixes and path.suffix.lower() not in suffixes:
            raise refuse(f"name the file {' or '.join(suffixes)}, not {str(path)!r}")
        existed = path.exists()
        with open(path, "ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:  # a missing or read-only folder, a name too long, ...
        # the reason first: a long name may be cut from the message
        raise refuse(f"cannot write this file ({exc.strerror or exc}): {str(path)!r}") from None


_ANNOUNCED = []  # once a process


def announce_compiling(needs: str = "rollout") -> None:
    """On the first run after an install or an upgrade, say on stderr why the command is slow
    to start: numba compiles the kernels it needs (``needs``: a key of
    ``bgcli.warmup.COMPILES``), once; ``bgcli compile`` does them all ahead of time. Called
    by the commands that run kernels, before they do."""
    if _ANNOUNCED:
        return
    _ANNOUNCED.append(True)
    from ..warmup import COMPILES, compiled_before

    what, kernel, seconds = COMPILES[needs]
    if not compiled_before(kernel):
        typer.echo(f"bgcli: first run of this version: compiling {what} (about {seconds} s on "
                   "two cores, cached afterwards; 'bgcli compile' compiles every kernel ahead "
                   "of time)", err=True)


def no_positions(positions, input_file) -> Exception:
    """The error for a command that was given no position: where it looked, and for what."""
    if input_file is not None and str(input_file) != "-":
        return InputError(f"no positions in {str(input_file)!r}: it holds no position (only "
                          "blank lines, comments or a CSV header)")
    if input_file is not None or "-" in (positions or []):
        return InputError("no positions on standard input: it was empty (or held only blank "
                          "lines, comments or a CSV header)")
    return typer.BadParameter("give positions as arguments, with --input FILE, or '-' for stdin")


@contextlib.contextmanager
def sigterm_as_interrupt():
    """SIGTERM (``kill``, a job scheduler) stops a long command the way Ctrl-C does: what is
    done so far is kept (rows written, a checkpoint saved), files are closed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
