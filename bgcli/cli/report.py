"""The chart and report commands: pictures of positions, rollouts and collections, and the
study report (an HTML page and its Markdown twin)."""

from __future__ import annotations

import enum
import os
import shlex
import time
from pathlib import Path
from typing import Optional

import typer

from ..errors import BgcliError
from ..rollout import default_variance_reduction, draw_seed
from .common import announce_compiling, app, check_writable, report as report_error
from .inputs import InputError
from .progress import Progress
from .options import (DEFAULTS, MATCH_PLIES, FilterOption, InitialOption, MasterSeedOption,
                      OldSeedOption, PolicyOption, QuasiRandomOption, ReportPliesOption,
                      ThreadsOption, TrialsOption, TruncateOption, VarianceReductionOption,
                      filter_option, master_seed_option, rollout_settings)

_BATCH_OR_COLLECTION = (".csv", ".tsv", ".txt", ".jsonl", ".ndjson", ".json", ".parquet", ".pq")


class ChartKind(str, enum.Enum):
    board = "board"
    outcomes = "outcomes"
    equity = "equity"
    convergence = "convergence"
    pips = "pips"


# ---------------------------------------------------------------------------- shared options


def _master_seed(master_seed: Optional[int], old_seed: Optional[int], command: str) -> int:
    seed = master_seed_option(master_seed, old_seed, command)
    return seed if seed is not None else draw_seed()


class _Progress:
    """The positions of a chart or report on the progress display (``bgcli.cli.progress``):
    a line per position rolled out; on a terminal also a bar with the games as they go."""

    def __init__(self, command: str, total: int):
        self.command = command
        self.total = total
        self.began = time.monotonic()
        self.display = Progress(command, total)

    def games(self, index, entry, done, total) -> None:
        self.display.update(index, f"{entry.row.get('position_id', '')}: {done}/{total} games")

    def done(self, index, entry) -> None:
        self.display.update(index + 1)
        row = entry.row
        if entry.error or not entry.has_rollout:  # errors are reported once, at the end
            return
        self.display.message(
            f"{self.command}: {index + 1}/{self.total} {row.get('position_id', '')}: "
            f"{row['games']} games, equity {float(row['equity']):+.3f} "
            f"± {float(row['equity_se'] or 0):.3f}  ({time.monotonic() - self.began:.1f} s)")

    def close(self) -> None:
        self.display.close()


def _read(path: Path):
    from ..errors import CollectionError
    from ..report.study import StudyError, read_entries

    try:
        return read_entries(path)
    except (StudyError, CollectionError) as exc:
        raise InputError(str(exc)) from None


def _entries_from_source(source: str):
    """A file's entries, or one entry for a position given on the command line."""
    from ..notation.detect import parse_situation
    from ..report.study import ReportEntry

    path = Path(source)
    if path.exists() or path.suffix.lower() in _BATCH_OR_COLLECTION:
        return _read(path), True
    situation = parse_situation(source)
    row = {"id": "", "input": source, "position_id": situation.position_id,
           "match_id": situation.match_id, "xgid": situation.xgid}
    return [ReportEntry(row, situation, label="argument 2")], False


def _pick(entries, ident: Optional[str], source: str):
    if ident is not None:
        for entry in entries:
            if ident in (entry.id, str(entry.row.get("position_id") or "")):
                return entry
        raise typer.BadParameter(f"no row with id or Position ID {ident!r} in {source!r}",
                                 param_hint="--id")
    if len(entries) == 1:
        return entries[0]
    ids = ", ".join(e.id for e in entries[:8]) + (", ..." if len(entries) > 8 else "")
    raise typer.BadParameter(f"{source!r} holds {len(entries)} positions: choose one ({ids})",
                             param_hint="--id")


# ---------------------------------------------------------------------------- chart


@app.command()
def chart(
    kind: ChartKind = typer.Argument(..., metavar="KIND", help="board, outcomes, equity, convergence or pips."),
    source: str = typer.Argument(..., metavar="SOURCE",
                                 help="A position (Position ID, POSITIONID:MATCHID or XGID) or a file: a collection, or a bgcli batch result (.csv, .jsonl, .parquet)."),
    output: Path = typer.Option(..., "--output", "-o", help="The picture to write: FILE.png or FILE.svg."),
    ident: Optional[str] = typer.Option(None, "--id",
                                        help="The row of a file to draw (its id or Position ID), for board, outcomes and convergence."),
    title: Optional[str] = typer.Option(None, "--title", help="A title for the chart."),
    trials: Optional[int] = TrialsOption,
    master_seed: Optional[int] = MasterSeedOption,
    old_seed: Optional[int] = OldSeedOption,
    threads: Optional[int] = ThreadsOption,
    truncate: Optional[int] = TruncateOption,
    variance_reduction: Optional[bool] = VarianceReductionOption,
    quasi_random: Optional[bool] = QuasiRandomOption,
    initial: Optional[bool] = InitialOption,
    policy: str = PolicyOption,
) -> None:
    """Draw a chart of a position, a rollout or a collection as PNG or SVG.

    KIND is board (a picture of the position), outcomes (Win, W(g), W(bg) against L, L(g), L(bg) with 95% error bars), equity (every position's equity with its 95% interval), convergence (the running equity ± 2 SE against games played), pips (pip counts and race winning chances). From a file, board, outcomes and convergence draw one row (--id), equity and pips every row. Rollouts a chart needs and the source lacks are run here with the rollout options; a batch row's convergence is replayed from its seed (the same games).

    Example:  bgcli chart board 4HPwATDgc/ABMA -o board.svg
    """
    from ..report import charts
    from ..report.document import describe
    from ..report.study import analyse, replay_games

    check_writable(output, "--output", (".png", ".svg"))
    settings = rollout_settings(trials=trials, threads=threads, truncate=truncate,
                                variance_reduction=variance_reduction,
                                quasi_random=quasi_random, initial=initial, policy=policy)
    entries, from_file = _entries_from_source(source)
    if not entries:
        raise InputError(f"no positions in {source!r}: nothing to draw")
    single = kind in (ChartKind.board, ChartKind.outcomes, ChartKind.convergence)
    chosen = [_pick(entries, ident, source)] if single else entries
    needs_rollout = kind in (ChartKind.outcomes, ChartKind.equity) or (
        kind == ChartKind.convergence and not chosen[0].has_rollout)
    if kind != ChartKind.board:
        seed = _master_seed(master_seed, old_seed, "chart")
        progress = _Progress("bgcli chart", len(chosen))
        announce_compiling()
        try:
            analyse(chosen, settings, seed, rollouts=needs_rollout, on_done=progress.done,
                    progress=progress.games, decisions=False)
        finally:
            progress.close()
    failed = [e for e in chosen if e.error]
    for entry in failed:
        report_error(entry.label or source, entry.error)
    good = [e for e in chosen if not e.error and e.situation is not None]
    if not good:  # every row failed, and each was reported above
        raise BgcliError(f"no position of {source!r} could be drawn")
    entry = good[0]
    label = (f"{entry.id}. {describe(entry)}" if from_file and entry.id
             else entry.situation.gnubg_id)
    if kind == ChartKind.board:
        figure = charts.board_figure(entry.situation, title=title or label)
    elif kind == ChartKind.outcomes:
        figure = charts.outcomes_figure(entry.row, title=title or label)
    elif kind == ChartKind.convergence:
        games = entry.games
        if games is None:
            typer.echo(f"bgcli chart: replaying the rollout of {entry.row.get('position_id')} "
                       f"(seed {entry.row.get('seed')}, {entry.row.get('games')} games)", err=True)
            games = replay_games(entry, threads=threads)
        figure = charts.convergence_figure(games, title=title or label)
    else:
        rows = [dict(e.row, name=f"{e.id}. {describe(e)}" if from_file and e.id else describe(e))
                for e in good]
        figure = (charts.equity_figure(rows, title) if kind == ChartKind.equity
                  else charts.pips_figure(rows, title))
    try:
        charts.save(figure, output)
    except OSError as exc:
        raise InputError(f"cannot write {str(output)!r}: {exc.strerror or exc}") from None
    typer.echo(str(output))
    if failed:
        raise typer.Exit(1)


# ---------------------------------------------------------------------------- report


def _command_text(source: Path, output: Path, title, rolled: bool, settings, master_seed,
                  replay: bool, plies: int = 1, move_filter: str = "normal") -> str:
    """The command that makes this report again (options left at their defaults omitted)."""
    words = ["bgcli", "report", str(source), "-o", str(output)]
    if title:
        words += ["--title", title]
    if settings.policy != DEFAULTS.policy:  # the evaluator of the decisions, too
        words += ["--policy", settings.policy]
    if plies != 1:
        words += ["--plies", str(plies)]
    if move_filter != "normal":
        words += ["--filter", move_filter]
    if rolled:
        # --seed, the old name of --master-seed: a report says what it said before
        words += ["--trials", str(settings.trials), "--master-seed", str(master_seed)]
        if settings.truncate != DEFAULTS.truncate:
            words += ["--truncate", str(settings.truncate)]
        if settings.variance_reduction != default_variance_reduction(settings.policy,
                                                                     settings.cubeful):
            words.append("--variance-reduction" if settings.variance_reduction
                         else "--no-variance-reduction")
        if settings.quasi_random != DEFAULTS.quasi_random:
            words.append("--quasi-random" if settings.quasi_random else "--no-quasi-random")
        if settings.initial:
            words.append("--initial")
    if replay:
        words.append("--replay")
    return shlex.join(words)


def _check_report_folder(folder: Path) -> None:
    """Refuse a folder the report cannot be written in now, not after minutes of rollouts: it
    must be a folder or be creatable in an existing, writable one (as chart and batch, no
    missing parents are made). A new folder is made and removed again: that asks the system
    itself (permissions, a read-only disk, a name too long)."""
    problem = None
    try:
        if folder.exists() and not folder.is_dir():
            problem = "it is a file, not a folder"
        elif not folder.exists():
            if not folder.parent.is_dir():
                problem = f"no folder {str(folder.parent)!r} to make it in"
            else:
                folder.mkdir()
                folder.rmdir()
        elif not os.access(folder, os.W_OK | os.X_OK):
            problem = "it is not writable"
    except OSError as exc:
        problem = exc.strerror or str(exc)
    if problem:  # the reason first: a long name may be cut from the message
        raise InputError(f"cannot write the report ({problem}) in {str(folder)!r}")


@app.command()
def report(
    source: Path = typer.Argument(..., metavar="INPUT",
                                  help="A collection (CSV with a 'position' column, or one position per line), a bgcli batch result (.csv, .jsonl, .parquet), or a match file (.mat, .sgf: a match report)."),
    output: Path = typer.Option(..., "--output", "-o",
                                help="The report's folder: index.html, report.md and images/ are written there (replacing an earlier report's)."),
    title: Optional[str] = typer.Option(None, "--title", help="The page's title (default: from INPUT's name)."),
    rollouts: bool = typer.Option(True, "--rollout/--no-rollout",
                                  help="Roll out the positions that have no rollout yet (default); --no-rollout reports pip counts, race metrics and the evaluator's decisions only."),
    replay: bool = typer.Option(False, "--replay",
                                help="For a batch result: replay each row's rollout (its seed and settings: the same games) to draw its convergence chart."),
    trials: Optional[int] = TrialsOption,
    master_seed: Optional[int] = MasterSeedOption,
    old_seed: Optional[int] = OldSeedOption,
    threads: Optional[int] = ThreadsOption,
    truncate: Optional[int] = TruncateOption,
    variance_reduction: Optional[bool] = VarianceReductionOption,
    quasi_random: Optional[bool] = QuasiRandomOption,
    initial: Optional[bool] = InitialOption,
    policy: str = PolicyOption,
    plies: Optional[int] = ReportPliesOption,
    worst: int = typer.Option(10, "--worst", min=1,
                              help="For a match file: how many of the worst decisions to show."),
    move_filter: Optional[str] = FilterOption,
) -> None:
    """Write a study report of a collection, a batch result or a match: an HTML page and its Markdown twin.

    The report is index.html (one self-contained page that opens offline, images embedded) and report.md (its Markdown twin, images in images/). It holds a summary (equity and pip charts, a table of every position with its cube action and cubeful equity) and, per position, the board, its IDs, pip counts and race metrics, the rollout table, the decisions (cube action before the roll with its cubeful equities, from the rollout's rates or else the evaluator's; the evaluator's best play when the position has dice rolled), outcome and convergence charts; the footer gives the settings, seeds and bgcli version. Positions without a rollout are rolled out here with the options of bgcli rollout (1296 games each by default: a second or two a position). Prints the files written.

    For a match file (.mat or .sgf, see bgcli analyse) the report is the match's: the score sheet, each player's statistics, an error-per-move chart and the worst decisions (--worst, default 10), each with its board, the play made, the best alternatives and the cube figures.

    Example:  bgcli report positions/examples.txt -o reports/example --trials 1296 --master-seed 1
    Example:  bgcli report matches/example.mat -o reports/match
    """
    from .matches import is_match_file, match_report

    if is_match_file(source):
        _check_report_folder(output)
        match_report(source, output, title, MATCH_PLIES if plies is None else plies, worst)
        return
    plies = 1 if plies is None else plies
    from ..report import write_report
    from ..report.study import StudyError, analyse, replay_games

    settings = rollout_settings(trials=trials, threads=threads, truncate=truncate,
                                variance_reduction=variance_reduction,
                                quasi_random=quasi_random, initial=initial, policy=policy)
    move_filter = filter_option(move_filter)
    _check_report_folder(output)
    entries = _read(source)
    if not entries:
        raise InputError(f"no positions in {str(source)!r}")
    master_seed = _master_seed(master_seed, old_seed, "report")
    progress = _Progress("bgcli report", len(entries))
    announce_compiling("report")
    rolled = rollouts and any(not e.error and e.situation is not None and not e.has_rollout
                              for e in entries)
    try:
        analyse(entries, settings, master_seed, rollouts=rollouts, on_done=progress.done,
                progress=progress.games, plies=plies, move_filter=move_filter)
        if replay:
            for index, entry in enumerate(entries):
                if entry.games is None and entry.has_rollout and entry.situation is not None:
                    try:
                        entry.games = replay_games(
                            entry, threads=threads,
                            progress=lambda d, t, i=index, e=entry: progress.games(i, e, d, t))
                    except StudyError as exc:
                        report_error(entry.label, exc)
    except KeyboardInterrupt:
        progress.close()  # before the message, which the bar would hide
        typer.echo("bgcli: interrupted: no report written", err=True)
        raise typer.Exit(130)
    finally:
        progress.close()
    for entry in entries:
        if entry.error:
            report_error(entry.label or entry.id, entry.error)
    command = _command_text(source, output, title, rolled, settings, master_seed, replay, plies,
                            move_filter)
    typer.echo(f"bgcli report: drawing {len(entries)} positions", err=True)
    try:
        paths = write_report(entries, output, title or f"Study report: {source.name}",
                             str(source), command)
    except OSError as exc:
        raise InputError(f"cannot write the report in {str(output)!r}: {exc.strerror or exc}") from None
    typer.echo(str(paths["html"]))
    typer.echo(str(paths["markdown"]))
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    typer.echo(f"bgcli report: {len(entries)} positions, {size / 1024:.0f} KB in {output}", err=True)
    if any(e.error for e in entries):
        raise typer.Exit(1)
