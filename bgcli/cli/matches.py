"""The match commands: ``import`` (decisions as data) and ``analyse`` / ``analyze`` (every
decision judged, per-player statistics); ``report`` hands match files to ``match_report``."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Optional

import typer

from ..errors import BgcliError, ClusterError
from .common import announce_compiling, app, check_writable
from .inputs import InputError
from .options import MATCH_PLIES
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


def _rows(count: int) -> str:
    return f"{count} row{'' if count == 1 else 's'}"


def _write(rows: list[dict], columns, output: Optional[Path], kind: Optional[str],
           fmt: OutputFormat, table_columns: list[str]) -> None:
    from ..matchfile.rows import write_rows

    if output is None:
        emit(rows, fmt, columns=table_columns)
        return
    count = write_rows(rows, columns, kind, path=output)
    typer.echo(f"bgcli: {_rows(count)} written to {output}", err=True)


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


def _match_texts(paths: list[Path]) -> tuple[list[tuple[str, str]], int]:
    """(path, text) of each match file that can be read; a file that cannot is reported
    (one line on stderr) and counted."""
    from ..matchfile import detect_format, read_text

    texts, problems = [], 0
    for path in paths:
        try:
            text = read_text(path)
            if detect_format(text) is None:
                from ..matchfile import parse_match

                parse_match(text, str(path))  # raises the error that says why
            texts.append((str(path), text))
        except BgcliError as exc:
            typer.echo(f"bgcli: error: {exc}", err=True)
            problems += 1
    return texts, problems


def analyse(
    matches: list[Path] = MatchesArgument,
    plies: int = typer.Option(MATCH_PLIES, "--plies", min=0, max=3,
                              help="The evaluator's lookahead for every decision: 0 (static), 1 (gnubg's 1-ply, about 2.5x faster), 2 (default: gnubg's World class; an 11-point match in about 20 s on two cores) or 3; plays go deeper through gnubg's normal move filter."),
    rows: Rows = typer.Option(Rows.player, "--rows",
                              help="player: each player's statistics per match (default); decision: every decision judged."),
    output: Optional[Path] = OutputOption,
    file_format: Optional[FileFormat] = typer.Option(None, "--file-format",
                                                     help="The format of -o FILE when its name does not say: csv, jsonl or parquet."),
    fmt: OutputFormat = typer.Option(OutputFormat.table, "--format", "-f",
                                     help="Format on standard output: table (default), csv, tsv, json or ndjson."),
    resume: bool = typer.Option(False, "--resume",
                                help="Continue -o FILE: the matches already there are skipped (its last one is done again), the others appended; it must have been written with the same settings."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace -o FILE if it exists."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Analyse the matches on the Dask cluster at tcp://HOST:PORT (every worker with this bgcli), one match a task; rows come in the order the matches finish."),
) -> None:
    """Judge every checker play and cube decision of match files, and each player's statistics.

    Per decision: the best play (plays valued cubefully, the opponent then free to double, as gnubg's analysis does) or proper cube action, the equity lost in EMG (and MWC at match play), gnubg's marks (doubtful 0.03, bad 0.06, very bad 0.12 EMG), the luck of the roll. Per player: unforced moves, checker and cube error totals and rates in mEMG, the XG-style performance rating (PR), luck (total and rate) and the luck-adjusted result. Faults in a file are reported as FILE:LINE (exit code 1), the rest is analysed. With -o FILE the rows of each match are written as it finishes (--resume continues an interrupted run). See docs/matches.md.

    Example:  bgcli analyse matches/example.mat --rows decision -o decisions.parquet
    """
    from .. import __version__
    from ..evaluation import policy_net
    from ..matchfile.analysis import ANALYSIS_COLUMNS, PLAYER_COLUMNS
    from ..matchfile.rows import DECISION_COLUMNS

    if output is None and (resume or overwrite):
        raise typer.BadParameter("--resume and --overwrite need -o FILE", param_hint="--resume")
    if resume and overwrite:
        raise typer.BadParameter("give --resume or --overwrite, not both", param_hint="--resume")
    kind = _check_output(output, file_format)
    if output is not None and not (resume or overwrite):
        from ..matchfile.output import journal_path

        if output.exists() and output.stat().st_size or journal_path(output).exists():
            raise typer.BadParameter(f"{str(output)!r} exists: --resume continues it, "
                                     "--overwrite replaces it", param_hint="--output")
    by_decision = rows == Rows.decision
    columns = DECISION_COLUMNS + ANALYSIS_COLUMNS if by_decision else PLAYER_COLUMNS
    texts, problems = _match_texts(matches)
    settings = {"plies": plies, "net": policy_net("net"), "bgcli_version": __version__}
    sink = _Sink(output, kind, columns, settings, resume, fmt, by_decision)
    pending = [(path, text) for path, text in texts if path not in sink.done]
    if len(pending) < len(texts):
        skipped = len(texts) - len(pending)
        typer.echo(f"bgcli: {skipped} match{'es' if skipped != 1 else ''} already in {output}: skipped",
                   err=True)
    announce_compiling()
    try:
        if scheduler is not None:
            problems += _on_cluster(pending, plies, by_decision, scheduler, sink)
        else:
            problems += _here(pending, plies, by_decision, sink)
    except KeyboardInterrupt:
        sink.close()
        typer.echo("bgcli: interrupted" + (f": the finished matches are in {output}"
                                          if output is not None else ""), err=True)
        raise typer.Exit(130)
    sink.close()
    if problems:
        raise typer.Exit(1)


class _Sink:
    """Where analysed matches go: -o FILE a match at a time (``MatchOutput``), or standard
    output at the end (a table needs every row)."""

    def __init__(self, output, kind, columns, settings, resume, fmt, by_decision):
        self.output, self.fmt, self.rows, self.count = output, fmt, [], 0
        self.table = (["game", "move_number", "player_name", "dice", "action", "best", "error",
                       "mark", "cube_action", "proper_cube_action", "cube_error", "luck"]
                      if by_decision else
                      ["player_name", "moves", "unforced_moves", "checker_error_rate", "bad",
                       "very_bad", "cube_errors", "cube_error_rate", "error_rate", "pr", "luck",
                       "luck_rate", "result", "luck_adjusted_result"])
        self.file = None
        if output is not None:
            from ..matchfile.output import MatchOutput

            self.file = MatchOutput(output, kind, columns, settings, resume)
        self.done = self.file.done if self.file else set()

    def add(self, rows: list[dict]) -> None:
        self.count += len(rows)
        if self.file is not None:
            self.file.write_match(rows)
        else:
            self.rows.extend(rows)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
            typer.echo(f"bgcli: {_rows(self.count)} written to {self.output}", err=True)
        elif self.rows:
            several = len({row["file"] for row in self.rows}) > 1
            emit(self.rows, self.fmt, columns=(["file"] if several else []) + self.table)
            self.rows = []


def _here(pending, plies, by_decision, sink) -> int:
    from ..matchfile import parse_match
    from ..matchfile.analysis import analysis_rows

    matches = [parse_match(text, path) for path, text in pending]
    total = sum(len(m.decisions) for m in matches)
    progress = Progress("analyse", total)
    done, problems = 0, 0
    try:
        for match in matches:
            for problem in match.problems:
                progress.message(f"bgcli: error: {problem}")
            problems += len(match.problems)

            def step(k, n, base=done, name=match.path):
                progress.update(base + k, name,
                                f"bgcli analyse: {base + k}/{total} decisions ({name})")
            try:
                sink.add(analysis_rows(match, plies, by_decision, progress=step))
            except BgcliError as exc:  # this match cannot be analysed: say so, go on
                progress.message(f"bgcli: error: {exc}")
                problems += 1
            done += len(match.decisions)
    finally:
        progress.close()
    return problems


def _on_cluster(pending, plies, by_decision, address, sink) -> int:
    from ..batch import connect
    from ..matchfile.analysis import analyse_text

    client = connect(address)
    progress = Progress("analyse", len(pending))
    problems = 0
    try:
        from distributed import as_completed

        futures = {client.submit(analyse_text, text, path, plies, by_decision, pure=False): path
                   for path, text in pending}
        for k, future in enumerate(as_completed(list(futures), loop=client.loop), start=1):
            try:
                rows, found = future.result()
            except BgcliError as exc:
                rows, found = [], [str(exc)]
            except Exception as exc:  # the worker or the connection failed
                raise ClusterError(f"the Dask cluster could not analyse {futures[future]}: "
                                   f"{type(exc).__name__}: {exc}") from None
            for problem in found:
                progress.message(f"bgcli: error: {problem}")
            problems += len(found)
            sink.add(rows)
            progress.update(k, "", f"bgcli analyse: {k}/{len(pending)} matches", force=True)
    finally:
        progress.close()
        client.close()
    return problems


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
