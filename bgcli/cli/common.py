"""What the commands share: the Typer app, common options and input helpers."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Optional

import typer

from .. import __version__
from ..errors import BgcliError
from ..rollout import MAX_SEED
from .inputs import gather
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
    """The roll: the DICE argument if given, else the dice the Match ID or XGID holds."""
    rolled = parse_dice_option(text)
    if rolled is not None:
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
