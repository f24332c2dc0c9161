"""The ``bgcli`` command line.

Commands are thin: parse arguments into domain objects, call one library function, emit rows.
Errors: bad data (an ID that does not parse, an impossible position) prints one line on stderr
and exits 1; usage errors (bad options or dice, a missing file) exit 2. In a list of positions
a bad one is reported with where it came from and the rest still run.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import List, Optional

import typer

from .. import __version__
from ..errors import BgcliError
from .inputs import InputError, gather
from .output import OutputFormat, emit

app = typer.Typer(
    name="bgcli",
    help="Backgammon analysis from the shell: boards, pip counts and race metrics, legal moves.\n\n"
    "Positions may be gnubg Position IDs, POSITIONID:MATCHID or XGIDs.",
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FormatOption = typer.Option(
    OutputFormat.table, "--format", "-f", help="Output format: table, csv, tsv, json or ndjson."
)
InputOption = typer.Option(
    None, "--input", "-i", help="Read positions from FILE, one per line ('#' starts a comment; '-' is stdin).",
)


class Notation(str, enum.Enum):
    gnubg = "gnubg"
    xgid = "xgid"
    posid = "posid"


def _report(label: str, error: Exception) -> None:
    typer.echo(f"bgcli: error: {label}: {error}", err=True)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"bgcli {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Backgammon analysis from the shell."""


def _parse_dice_option(text: Optional[str]):
    if text is None:
        return None
    from ..notation.dice import parse_dice

    try:
        return parse_dice(text)
    except BgcliError as exc:
        raise typer.BadParameter(str(exc)) from None


def _situations(positions, input_file):
    """Yield (label, text, situation or error) for every position given."""
    from ..notation.detect import parse_situation

    for raw in gather(positions, input_file):
        try:
            yield raw, parse_situation(raw.text), None
        except BgcliError as exc:
            yield raw, None, exc


@app.command()
def show(
    position: str = typer.Argument(..., help="A Position ID, POSITIONID:MATCHID or XGID."),
    dice: Optional[str] = typer.Option(None, "--dice", "-d", help="Show these dice, e.g. 31."),
    fmt: OutputFormat = FormatOption,
) -> None:
    """Draw the board with pip counts, cube, score and the gnubg and XG IDs.

    Example:  bgcli show 4HPwATDgc/ABMA:cAkAAAAAAAAE
    """
    from ..display import render_board
    from ..notation.detect import parse_situation

    rolled = _parse_dice_option(dice)
    situation = parse_situation(position)
    if rolled is not None:
        situation = situation.with_dice(rolled)
    if fmt == OutputFormat.table:
        typer.echo(render_board(situation))
        return
    match = situation.match
    pips_on_roll, pips_opponent = situation.position.pips()
    off_on_roll, off_opponent = situation.position.borne_off()
    emit([{
        "position_id": situation.position_id,
        "match_id": situation.match_id,
        "xgid": situation.xgid,
        "pips_on_roll": pips_on_roll,
        "pips_opponent": pips_opponent,
        "borne_off_on_roll": off_on_roll,
        "borne_off_opponent": off_opponent,
        "player_on_roll": match.player_on_roll,
        "cube_value": match.cube_value,
        "cube_owner": "centred" if match.cube_owner == 3 else match.cube_owner,
        "dice": f"{match.dice[0]}{match.dice[1]}" if match.dice_rolled else "",
        "match_length": match.match_length,
        "score_0": match.score[0],
        "score_1": match.score[1],
        "crawford": match.crawford,
        "jacoby": match.jacoby,
        "board_on_roll": " ".join(map(str, situation.position.board[1].tolist())),
        "board_opponent": " ".join(map(str, situation.position.board[0].tolist())),
    }], fmt)


PIPS_TABLE_COLUMNS = [
    "position_id", "is_race", "pips_on_roll", "pips_opponent", "pip_difference", "keith_verdict",
    "thorp_verdict", "eight_nine_twelve_verdict", "isight_verdict", "kleinman_win_probability",
]


@app.command()
def pips(
    positions: Optional[List[str]] = typer.Argument(None, help="Positions; '-' reads stdin."),
    input_file: Optional[Path] = InputOption,
    fmt: OutputFormat = FormatOption,
) -> None:
    """Pip counts and race metrics (Keith, Thorp, 8-9-12, Kleinman, Isight), one row per position, with gnubg's verdicts. The player on roll is gnubg's "leader".

    Example:  bgcli pips 4HPwATDgc/ABMA -f csv
    """
    from ..race import race_metrics

    rows, failed = [], 0
    for raw, situation, error in _situations(positions, input_file):
        if error is not None:
            _report(raw.label, error)
            failed += 1
            continue
        row = {"input": raw.text, "position_id": situation.position_id}
        # gnubg computes in single precision: 4 decimals hold every digit that means anything
        row.update({key: round(value, 4) if isinstance(value, float) else value
                    for key, value in race_metrics(situation.position).items()})
        rows.append(row)
    if not rows and not failed:
        raise typer.BadParameter("give positions as arguments, with --input FILE, or '-' for stdin")
    emit(rows, fmt, PIPS_TABLE_COLUMNS)
    if failed:
        raise typer.Exit(1)


@app.command()
def moves(
    position: str = typer.Argument(..., help="A Position ID, POSITIONID:MATCHID or XGID."),
    dice: Optional[str] = typer.Argument(None, help="The roll, e.g. 31 or 3-1; optional when the "
                                         "Match ID or XGID holds rolled dice."),
    fmt: OutputFormat = FormatOption,
) -> None:
    """Every legal play for a roll, in gnubg's notation, with the resulting position (the opponent then on roll, as gnubg shows it).

    Example:  bgcli moves 4HPwATDgc/ABMA 31
    """
    from dataclasses import replace

    from ..moves import legal_plays
    from ..notation.detect import Situation, parse_situation

    rolled = _parse_dice_option(dice)
    situation = parse_situation(position)
    if rolled is None:
        if not situation.match.dice_rolled:
            raise typer.BadParameter("give the dice, e.g. 31: this position has none rolled",
                                     param_hint="DICE")
        rolled = situation.match.dice
    after_match = replace(situation.match, dice=(0, 0), double_offered=False,
                          player_on_roll=1 - situation.match.player_on_roll,
                          turn=1 - situation.match.player_on_roll)
    rows = []
    for number, play in enumerate(legal_plays(situation.position, rolled), start=1):
        after = Situation(play.result.swapped(), after_match)
        rows.append({"play": number, "move": play.notation, "result_id": after.gnubg_id,
                     "result_position_id": after.position_id})
    if not rows:
        rows.append({"play": 0, "move": "(no legal play)",
                     "result_id": Situation(situation.position.swapped(), after_match).gnubg_id,
                     "result_position_id": situation.position.swapped().position_id()})
    emit(rows, fmt)


@app.command()
def convert(
    positions: Optional[List[str]] = typer.Argument(None, help="Positions; '-' reads stdin."),
    to: Notation = typer.Option(Notation.xgid, "--to", "-t",
                                help="gnubg (POSID:MATCHID), xgid, or posid (Position ID only)."),
    input_file: Optional[Path] = InputOption,
    fmt: OutputFormat = FormatOption,
) -> None:
    """Convert positions between gnubg IDs and XGID. Table format prints bare IDs, one per line.

    Example:  bgcli convert 4HPwATDgc/ABMA:cAkAAAAAAAAE --to xgid
    """
    rows, failed = [], 0
    for raw, situation, error in _situations(positions, input_file):
        if error is not None:
            _report(raw.label, error)
            failed += 1
            continue
        converted = {Notation.gnubg: situation.gnubg_id, Notation.xgid: situation.xgid,
                     Notation.posid: situation.position_id}[to]
        rows.append({"input": raw.text, "output": converted})
    if fmt == OutputFormat.table:
        for row in rows:
            typer.echo(row["output"])
    else:
        emit(rows, fmt)
    if failed:
        raise typer.Exit(1)


ROLLOUT_TABLE_COLUMNS = ["position_id", "Win", "W(g)", "W(bg)", "L(g)", "L(bg)", "Equity",
                         "games", "seed"]


def _plus_minus(mean: float, se: float) -> str:
    return f"{mean:.4f} ±{se:.4f}"


def _rollout_table_row(row: dict) -> dict:
    """gnubg-style columns for the table format: each rate with its standard error."""
    out = {"position_id": row["position_id"]}
    for name, label in (("win", "Win"), ("win_gammon", "W(g)"), ("win_backgammon", "W(bg)"),
                        ("lose_gammon", "L(g)"), ("lose_backgammon", "L(bg)"), ("equity", "Equity")):
        out[label] = _plus_minus(row[name], row[f"{name}_se"])
    out["games"] = row["games"] if not row["partial"] else f"{row['games']} (partial)"
    out["seed"] = row["seed"]
    return out


class _RolloutProgress:
    """Progress on stderr: a live bar on a terminal, an occasional line otherwise."""

    def __init__(self, label: str, total: int):
        import rich.progress

        self.interactive = sys.stderr.isatty()
        self.label = label
        self.last_line = 0.0
        self.bar = None
        if self.interactive:
            console = rich.console.Console(stderr=True)
            self.bar = rich.progress.Progress(
                rich.progress.TextColumn("{task.description}"),
                rich.progress.BarColumn(),
                rich.progress.MofNCompleteColumn(),
                rich.progress.TextColumn("{task.fields[status]}"),
                console=console, transient=True)
            self.task = self.bar.add_task(label, total=total, status="")
            self.bar.start()

    def __call__(self, done: int, total: int, rate: float, equity: float, se: float) -> None:
        status = f"{rate:,.0f} games/s  equity {equity:+.4f} ±{se:.4f}"
        if self.bar is not None:
            self.bar.update(self.task, completed=done, status=status)
        else:
            import time

            now = time.monotonic()
            if now - self.last_line > 10 or done == total:
                self.last_line = now
                typer.echo(f"{self.label}: {done}/{total} games, {status}", err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@app.command()
def rollout(
    positions: Optional[List[str]] = typer.Argument(None, help="Positions; '-' reads stdin."),
    input_file: Optional[Path] = InputOption,
    trials: int = typer.Option(1296, "--trials", "-n", min=1, help="Games per position."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", min=0, max=2**63 - 1,
                                       help="Dice seed; a random one is drawn and reported if omitted."),
    threads: Optional[int] = typer.Option(None, "--threads", "-t", min=1,
                                          help="Threads (default: all cores). Results do not depend on it."),
    truncate: int = typer.Option(0, "--truncate", min=0,
                                 help="Stop each game after this many plies and score it with the evaluator (0: play to the end)."),
    variance_reduction: bool = typer.Option(True, "--variance-reduction/--no-variance-reduction",
                                            help="Subtract each roll's luck, measured by the evaluator."),
    quasi_random: bool = typer.Option(True, "--quasi-random/--no-quasi-random",
                                      help="Spread the first two rolls evenly: 1296 games hold every pair once."),
    initial: bool = typer.Option(False, "--initial", help="Treat the position as the start of a game: no doubles on the first roll."),
    stop_se: Optional[float] = typer.Option(None, "--stop-se", min=0.0,
                                            help="Stop once the equity's standard error is below this..."),
    min_games: int = typer.Option(324, "--min-games", min=2, help="...after at least this many games."),
    policy: str = typer.Option("heuristic", "--policy", help="How the games are played: heuristic (greedy, 0-ply) or random."),
    fmt: OutputFormat = FormatOption,
) -> None:
    """Monte Carlo rollout: Win, W(g), W(bg), L(g), L(bg) and cubeless equity for the player on roll, each with its standard error; every row carries the settings (seed included) that reproduce it.

    Example:  bgcli rollout 4HPwATDgc/ABMA --trials 1296 --seed 1
    """
    from ..rollout import RolloutSettings
    from ..rollout import rollout as run_rollout

    settings = RolloutSettings(
        trials=trials, seed=seed, policy=policy, truncate=truncate,
        variance_reduction=variance_reduction, quasi_random=quasi_random, initial=initial,
        stop_se=stop_se, min_games=min_games, threads=threads,
    )
    problems = settings.problems()
    if problems:
        raise typer.BadParameter("; ".join(problems))
    settings = settings.with_seed()
    rows, failed, interrupted = [], 0, False
    for raw, situation, error in _situations(positions, input_file):
        if error is not None:
            _report(raw.label, error)
            failed += 1
            continue
        progress = _RolloutProgress(raw.text, settings.trials)
        try:
            result = run_rollout(situation.position, settings, progress)
        except KeyboardInterrupt:
            interrupted = True
            break
        finally:
            progress.close()
        rows.append({"input": raw.text} | result.row())
        if result.partial:
            interrupted = True
            break
    if not rows and not failed and not interrupted:
        raise typer.BadParameter("give positions as arguments, with --input FILE, or '-' for stdin")
    if fmt == OutputFormat.table:
        emit([_rollout_table_row(row) for row in rows], fmt)
    else:
        emit(rows, fmt)
    if interrupted:
        typer.echo("bgcli: interrupted: the last row is partial", err=True)
        raise typer.Exit(130)
    if failed:
        raise typer.Exit(1)


def _click_class(name: str) -> type:
    """click's exception class ``name`` as typer uses it (recent typer vendors its own click)."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == name:
            return cls
    raise LookupError(name)  # pragma: no cover


UsageError = _click_class("UsageError")
ClickException = _click_class("ClickException")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: one-line errors, never a traceback for bad input."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="bgcli", standalone_mode=False)
    except UsageError as exc:
        hint = ""
        if exc.ctx is not None and exc.ctx.command_path:
            hint = f" (see '{exc.ctx.command_path} --help')"
        # no_args_is_help has already printed the help and leaves the message empty
        message = exc.format_message().strip() or "missing command"
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
        typer.echo(f"bgcli: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    sys.exit(code or 0)
