"""The match commands: ``import`` (decisions as data) and ``analyse`` / ``analyze`` (every
decision judged, per-player statistics); ``report`` hands match files to ``match_report``."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Optional

import typer

from ..errors import BgcliError
from .common import announce_compiling, app, check_writable
from .inputs import InputError
from .output import OutputFormat, emit
from .progress import Progress

MatchesArgument = typer.Argument(..., metavar="MATCH...",
                                 help="Match or session files: gnubg .sgf or the .mat text "
                                      "export (Jellyfish, FIBS and other servers), told apart "
                                      "by their content.")
OutputOption = typer.Option(None, "--output", "-o",
                            help="Write the rows to FILE: .csv, .jsonl or .parquet (default: "
                                 "standard output).")


class FileFormat(str, enum.Enum):
    csv = "csv"
    jsonl = "jsonl"
    parquet = "parquet"


class Rows(str, enum.Enum):
    player = "player"
    decision = "decision"


def _read_matches(paths: list[Path]) -> tuple[list, int]:
    """The matches read, and how many problems were reported (each on stderr, one line:
    ``bgcli: error: FILE:LINE: what is wrong``); a file that is no match at all is one."""
    from ..matchfile import read_match

    matches, problems = [], 0
    for path in paths:
        try:
            match = read_match(path)
        except BgcliError as exc:
            typer.echo(f"bgcli: error: {exc}", err=True)
            problems += 1
            continue
        for problem in match.problems:
            typer.echo(f"bgcli: error: {problem}", err=True)
        problems += len(match.problems)
        matches.append(match)
    return matches, problems


def _check_output(output: Optional[Path], fmt: Optional[FileFormat]) -> Optional[str]:
    """The file format for ``-o`` (None: standard output), checked before any work."""
    from ..matchfile.rows import output_format

    if output is None:
        if fmt == FileFormat.parquet:
            raise typer.BadParameter("Parquet cannot go to stdout: give -o FILE.parquet",
                                     param_hint="--file-format")
        return None
    try:
        kind = output_format(output, fmt.value if fmt else None)
    except BgcliError as exc:
        raise typer.BadParameter(str(exc), param_hint="--output") from None
    check_writable(output, "--output")
    return kind


def _write(rows: list[dict], columns, output: Optional[Path], kind: Optional[str],
           fmt: OutputFormat, table_columns: list[str]) -> None:
    from ..matchfile.rows import write_rows

    if output is None:
        emit(rows, fmt, columns=table_columns)
        return
    count = write_rows(rows, columns, kind, path=output)
    typer.echo(f"bgcli: {count} rows written to {output}", err=True)


@app.command("import")
def import_matches(
    matches: list[Path] = MatchesArgument,
    output: Optional[Path] = OutputOption,
    file_format: Optional[FileFormat] = typer.Option(None, "--file-format",
                                                     help="The format of -o FILE when its name does not say: csv, jsonl or parquet."),
    fmt: OutputFormat = typer.Option(OutputFormat.csv, "--format", "-f",
                                     help="Format on standard output: table, csv (default), tsv, json or ndjson."),
) -> None:
    """Read match files into one row per decision: game, move number, player, score, cube, Position ID and Match ID before the decision, dice, and the play or cube action made.

    Every move is replayed through bgcli's rules engine; an illegal or unreadable move is reported as FILE:LINE, that game is skipped from there, the rest is read, and the exit code is 1. The rows carry id, name and position columns, so the file is a collection bgcli batch and bgcli report read (position is the full gnubg ID, with the dice for a checker play).

    Example:  bgcli import matches/example.mat -o decisions.csv
    """
    from ..matchfile.rows import DECISION_COLUMNS, decision_row

    kind = _check_output(output, file_format)
    found, problems = _read_matches(matches)
    rows = [decision_row(m, d) for m in found for d in m.decisions]
    _write(rows, DECISION_COLUMNS, output, kind, fmt,
           ["game", "move_number", "player_name", "decision", "dice", "action", "position"])
    if problems:
        raise typer.Exit(1)


def analyse(
    matches: list[Path] = MatchesArgument,
    plies: int = typer.Option(1, "--plies", min=0, max=1,
                              help="The evaluator's lookahead for every decision: 1 (default, the deepest fast setting: gnubg's 1-ply) or 0 (static)."),
    rows: Rows = typer.Option(Rows.player, "--rows",
                              help="player: each player's statistics per match (default); decision: every decision judged."),
    output: Optional[Path] = OutputOption,
    file_format: Optional[FileFormat] = typer.Option(None, "--file-format",
                                                     help="The format of -o FILE when its name does not say: csv, jsonl or parquet."),
    fmt: OutputFormat = typer.Option(OutputFormat.table, "--format", "-f",
                                     help="Format on standard output: table (default), csv, tsv, json or ndjson."),
) -> None:
    """Judge every checker play and cube decision of match files, and each player's statistics.

    Per decision: the best play or proper cube action, the equity lost in EMG (and MWC at match play), gnubg's marks (doubtful 0.04, bad 0.08, very bad 0.16 EMG), the luck of the roll. Per player: unforced moves, checker and cube error totals and rates in mEMG, the XG-style performance rating (PR), luck (total and rate) and the luck-adjusted result. Faults in a file are reported as FILE:LINE (exit code 1), the rest is analysed. See docs/matches.md.

    Example:  bgcli analyse matches/example.mat --rows decision -o decisions.parquet
    """
    from .. import __version__
    from ..evaluation import policy_net
    from ..matchfile.analysis import ANALYSIS_COLUMNS, PLAYER_COLUMNS, judge, player_statistics
    from ..matchfile.rows import DECISION_COLUMNS

    kind = _check_output(output, file_format)
    found, problems = _read_matches(matches)
    announce_compiling()
    total = sum(len(m.decisions) for m in found)
    progress = Progress("analyse", total)
    done = 0
    out = []
    try:
        for match in found:
            def step(k, n, base=done, name=match.path):
                progress.update(base + k, name,
                                f"bgcli analyse: {base + k}/{total} decisions ({name})")
            judged = judge(match, plies, progress=step)
            done += len(judged)
            extra = {"plies": plies, "net": policy_net("net"), "bgcli_version": __version__}
            if rows == Rows.decision:
                out.extend({**j.row(), **extra} for j in judged)
            else:
                out.extend({**r, **extra} for r in player_statistics(match, judged, plies))
    except KeyboardInterrupt:
        progress.close()
        typer.echo("bgcli: interrupted", err=True)
        raise typer.Exit(130)
    finally:
        progress.close()
    if rows == Rows.decision:
        columns = DECISION_COLUMNS + ANALYSIS_COLUMNS
        table = ["game", "move_number", "player_name", "dice", "action", "best", "error",
                 "mark", "cube_action", "proper_cube_action", "cube_error", "luck"]
    else:
        columns = PLAYER_COLUMNS
        table = ["player_name", "moves", "unforced_moves", "checker_error_rate", "bad",
                 "very_bad", "cube_errors", "cube_error_rate", "error_rate", "pr", "luck",
                 "luck_rate", "result", "luck_adjusted_result"]
    _write(out, columns, output, kind, fmt, table)
    if problems:
        raise typer.Exit(1)


app.command("analyse")(analyse)
app.command("analyze", hidden=True, help="The American spelling of analyse.")(analyse)


def is_match_file(path: Path) -> bool:
    """Whether ``path`` holds a match (.sgf or .mat text), for bgcli report."""
    from ..matchfile import detect_format

    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return detect_format(head) is not None


def match_report(source: Path, output: Path, title: Optional[str], plies: int,
                 worst: int) -> None:
    """``bgcli report MATCH -o DIR``: the study report of one match."""
    from ..report.match_report import write_match_report

    found, problems = _read_matches([source])
    if not found or not found[0].decisions:
        raise InputError(f"no decisions could be read from {str(source)!r}")
    match = found[0]
    announce_compiling()
    from ..matchfile.analysis import judge

    progress = Progress("report", len(match.decisions))
    try:
        judged = judge(match, plies, progress=lambda k, n: progress.update(
            k, "", f"bgcli report: {k}/{n} decisions"))
    finally:
        progress.close()
    command = f"bgcli report {source} -o {output} --plies {plies} --worst {worst}"
    try:
        paths = write_match_report(match, judged, output, title or f"Match report: {source.name}",
                                   plies, worst, command)
    except OSError as exc:
        raise InputError(f"cannot write the report in {str(output)!r}: {exc.strerror or exc}") from None
    typer.echo(str(paths["html"]))
    typer.echo(str(paths["markdown"]))
    if problems:
        raise typer.Exit(1)
