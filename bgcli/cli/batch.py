"""The batch command: a collection in, a tidy table out (see ``bgcli.batch``)."""

from __future__ import annotations

import contextlib
import enum
import itertools
import logging
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from ..batch import CLUSTER_TIMEOUT
from .common import announce_compiling, app, parse_dice_option, sigterm_as_interrupt
from .options import (BearoffTruncationOption, FilterOption, InitialOption, MasterSeedOption,
                      MinGamesOption, OldSeedOption, PliesOption, PolicyOption,
                      QuasiRandomOption, StopSeOption, ThreadsOption, TrialsOption,
                      TruncateOption, VarianceReductionOption, filter_option, given_options,
                      master_seed_option, rollout_settings)
from .inputs import InputError
from .progress import Progress


class BatchFormat(str, enum.Enum):
    csv = "csv"
    jsonl = "jsonl"
    parquet = "parquet"


class _BatchProgress:
    """The progress of the whole batch on the progress display (``bgcli.cli.progress``): a
    live bar on a terminal, a line every ten seconds otherwise. Error lines go through it so
    they do not tear the bar."""

    def __init__(self, total: int | None):
        self.total = total
        self.done = self.written = self.skipped = self.failed = 0
        self.began = time.monotonic()
        self.games = ""
        self.display = Progress("batch", total)

    def _rate(self) -> str:
        computed = self.written + self.failed
        seconds = max(time.monotonic() - self.began, 1e-9)
        per_second = computed / seconds
        return f"{per_second:,.1f} positions/s" if per_second >= 1 else f"{per_second * 60:,.1f} positions/min"

    def _eta(self) -> str:
        """Time left at the pace of the rows computed so far (skipped and failed rows take no
        time, so they are left out of the pace)."""
        if self.total is None or not self.written:
            return ""
        pace = (time.monotonic() - self.began) / self.written
        seconds = int(pace * max(self.total - self.done, 0))
        return f"eta {seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    def _status(self) -> str:
        parts = [self._rate(), self._eta()] if self.written + self.failed else []
        if self.skipped:
            parts.append(f"{self.skipped} skipped")
        if self.failed:
            parts.append(f"{self.failed} failed")
        return "  ".join(filter(None, [self.games, ", ".join(filter(None, parts))]))

    def report(self, label: str, message: str) -> None:
        self.display.message(f"bgcli: error: {label}: {message}")

    def on_games(self, done: int, total: int, rate: float, equity: float, se: float) -> None:
        """Games within the position being rolled out here (local runs only)."""
        if self.display.live:
            self.games = f"games {done}/{total}" if done < total else ""
            self.display.update(status=self._status())

    def advance(self, outcome) -> None:
        self.done += 1
        if outcome.error is not None:
            self.failed += 1
        elif outcome.skipped:
            self.skipped += 1
        else:
            self.written += 1
        self.games = ""
        of = f"/{self.total}" if self.total is not None else ""
        status = self._status()
        self.display.update(self.done, status, f"bgcli batch: {self.done}{of} positions, {status}")

    def close(self) -> None:
        self.display.close()


def _output_format(output: Optional[Path], fmt: Optional[BatchFormat], resume: bool,
                   overwrite: bool) -> BatchFormat:
    """The format to write, from --format or OUT's extension; usage errors for the rest."""
    from ..batch import format_for

    implied = format_for(output) if output is not None else None
    if fmt is None:
        if output is None:
            fmt = BatchFormat.csv
        elif implied is None:
            raise typer.BadParameter(f"cannot tell the format from {str(output)!r}: name it .csv, "
                                     ".jsonl or .parquet, or give --format", param_hint="--output")
        else:
            fmt = BatchFormat(implied)
    elif implied is not None and implied != fmt.value:  # one of them is a mistake
        raise typer.BadParameter(f"{str(output)!r} names a {implied} file and --format says "
                                 f"{fmt.value}: give one or make them agree", param_hint="--format")
    if output is None and (resume or overwrite):
        raise typer.BadParameter("--resume and --overwrite need -o OUT", param_hint="--resume")
    if output is None and fmt == BatchFormat.parquet:
        raise typer.BadParameter("Parquet cannot go to stdout: give -o FILE.parquet", param_hint="--format")
    if resume and overwrite:
        raise typer.BadParameter("give --resume or --overwrite, not both", param_hint="--resume")
    return fmt


def _rollout_settings(with_rollout: bool, policy: str, **options):
    """RolloutSettings from the options (None without --rollout, where giving any rollout
    option is a usage error: it would silently do nothing; --policy also picks the evaluator,
    so it applies without)."""
    if not with_rollout:
        given = given_options(**options)
        if given:
            raise typer.BadParameter(f"{', '.join(given)} only apply with --rollout", param_hint="--rollout")
        rollout_settings(policy=policy)  # a bad --policy is a usage error here too
        return None
    return rollout_settings(policy=policy, **options)


@app.command()
def batch(
    collection: str = typer.Argument(..., metavar="INPUT",
                                     help="A collection: CSV with a 'position' column (id, name, notes optional) or one position per line; '-' reads stdin."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write rows to this file (.csv, .jsonl or .parquet); without it, CSV goes to stdout."),
    fmt: Optional[BatchFormat] = typer.Option(None, "--format", "-f",
                                              help="csv, jsonl or parquet (default: from OUT's extension)."),
    resume: bool = typer.Option(False, "--resume", help="Skip positions already in OUT and append the rest."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace OUT if it exists."),
    with_rollout: bool = typer.Option(False, "--rollout/--no-rollout",
                                      help="Roll every position out too (default: pip counts and race metrics only)."),
    trials: Optional[int] = TrialsOption,
    master_seed: Optional[int] = MasterSeedOption,
    old_seed: Optional[int] = OldSeedOption,
    truncate: Optional[int] = TruncateOption,
    variance_reduction: Optional[bool] = VarianceReductionOption,
    quasi_random: Optional[bool] = QuasiRandomOption,
    bearoff_truncation: Optional[bool] = BearoffTruncationOption,
    initial: Optional[bool] = InitialOption,
    stop_se: Optional[float] = StopSeOption,
    min_games: Optional[int] = MinGamesOption,
    policy: str = PolicyOption,
    dice: Optional[str] = typer.Option(None, "--dice", "-d", metavar="DICE",
                                       help="A roll, e.g. 31: the best play for it is given for every position that has no dice rolled (a position's own rolled dice win)."),
    plies: int = PliesOption,
    move_filter: Optional[str] = FilterOption,
    threads: Optional[int] = ThreadsOption,
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="Run on a Dask cluster, e.g. tcp://10.0.0.5:8786 (see docs/batch.md). Same numbers; rows in the order they finish."),
    cluster_timeout: Optional[float] = typer.Option(None, "--cluster-timeout", min=1.0, metavar="SECONDS",
                                                    help=f"With --scheduler: give up (exit 1, the rows written kept) once the cluster has had no worker, or its scheduler could not be reached, for this long (default {CLUSTER_TIMEOUT:g})."),
) -> None:
    """Analyse a collection of positions: one tidy row per position (IDs, name, race metrics; with --rollout the five rates and equity with standard errors and the settings; the cube action and cubeful equity, from the rollout or else the evaluator; the evaluator's best play for the position's rolled dice or --dice), written as each position completes. A killed run keeps its rows; --resume finishes it with the same numbers. Bad rows are reported by file and line and skipped (exit 1).

    Example:  bgcli batch positions/examples.txt -o study.parquet --rollout --trials 1296 --master-seed 7
    """
    fmt = _output_format(output, fmt, resume, overwrite)
    roll = parse_dice_option(dice)
    move_filter = filter_option(move_filter)
    settings = _rollout_settings(with_rollout, policy, trials=trials, truncate=truncate,
                                 variance_reduction=variance_reduction, quasi_random=quasi_random,
                                 bearoff_truncation=bearoff_truncation, initial=initial,
                                 stop_se=stop_se, min_games=min_games, threads=threads)
    if output is not None and collection != "-" and _same_file(Path(collection), output):
        # --overwrite would empty the collection before it is read, --resume read its own rows
        raise InputError(f"{str(output)!r} is INPUT itself: write the rows to another file")
    if scheduler is None and cluster_timeout is not None:
        raise typer.BadParameter("--cluster-timeout only applies with --scheduler",
                                 param_hint="--cluster-timeout")
    master_seed = master_seed_option(master_seed, old_seed, "batch")  # last: its note is no error
    with _output_lock(output, fmt):
        done, plan = _resumed_and_plan(output, fmt, resume, overwrite, settings, master_seed,
                                       roll, policy, plies, move_filter)
        total, items = _collection(collection)
        timeout = cluster_timeout if cluster_timeout is not None else CLUSTER_TIMEOUT
        client = _client(scheduler, timeout)
        try:
            writer = _open_writer(output, fmt, plan, done)
            announce_compiling()
            _run(items, total, plan, done, client, writer, output, timeout)
        finally:
            if client is not None:
                client.close()


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.samefile(other)
    except OSError:  # either is missing (or cannot be looked at): not one file
        return False


@contextlib.contextmanager
def _output_lock(output: Optional[Path], fmt: BatchFormat):
    """Checks OUT can be written at all, then holds it for this run alone (see OutputLock)."""
    from ..batch import OutputLock, check_output_path
    from ..errors import OutputError

    if output is None:
        yield
        return
    lock = OutputLock(output)
    try:
        check_output_path(output, fmt.value)
        lock.acquire()
    except OutputError as exc:
        raise InputError(str(exc)) from None
    try:
        yield
    finally:
        lock.release()


def _resumed_and_plan(output, fmt, resume, overwrite, settings, given_seed, roll, policy, plies,
                      move_filter="normal"):
    """What OUT already holds (None unless --resume) and the plan of this run, checked against
    each other; an OUT that is there without --resume or --overwrite is a usage error."""
    from ..analysis import AnalysisPlan
    from ..batch import check_resumable, journal_path, read_done
    from ..rollout import draw_seed
    from ..errors import OutputError
    from ..evaluation import policy_net

    try:
        done = None
        if output is not None:
            if resume:
                done = read_done(output, fmt.value)
            elif not overwrite and (output.exists() or (fmt == BatchFormat.parquet
                                                        and journal_path(output).exists())):
                raise typer.BadParameter(f"{str(output)!r} exists: --resume continues it, "
                                         "--overwrite replaces it", param_hint="--output")
        master_seed = 0
        if settings is not None:
            master_seed = given_seed if given_seed is not None else (
                done.master_seed if done is not None and done.master_seed is not None
                else draw_seed())
        plan = AnalysisPlan(rollout=settings, master_seed=master_seed,
                            policy=settings.policy if settings is not None else policy,
                            dice=(max(roll), min(roll)) if roll is not None else None,
                            plies=plies, move_filter=move_filter)
        policy_net(plan.evaluator_policy)  # unreadable $BGCLI_WEIGHTS: one error, not one a row
        if done is not None:
            check_resumable(done, plan, output)
    except OutputError as exc:
        raise InputError(str(exc)) from None
    return done, plan


def _collection(collection: str):
    """(number of entries or None for stdin, the entries); a usage error for a collection
    that cannot be read or holds no position at all, as ``bgcli report`` has it."""
    from ..collections import read_collection, until_broken
    from ..errors import CollectionError

    source = None if collection == "-" else Path(collection)
    try:
        # the progress bar's total: the entries, and the row where a broken file stops
        total = (sum(1 for _ in until_broken(read_collection(source)))
                 if source is not None else None)
        items = read_collection(source)
        first = next(items, None)
    except CollectionError as exc:
        raise InputError(str(exc)) from None
    if first is None:  # the words of report (a file) and the other commands (stdin)
        raise InputError(f"no positions in {str(source)!r}" if source is not None
                         else "no positions on standard input")
    return total, itertools.chain([first], items)


def _client(scheduler: Optional[str], timeout: float):
    from ..batch import connect
    from ..errors import ClusterError

    if scheduler is None:
        return None
    import distributed  # noqa: F401  (sets up its logging, quietened here)

    # a lost scheduler is reported as the rows it fails and one error; the client's own logs
    # of it (the client, and its batched connection, which logs the closed comm with a
    # traceback when the loss falls mid-send) would add tracebacks on stderr
    for name in ("distributed.client", "distributed.batched"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        return connect(scheduler, timeout)
    except ClusterError as exc:
        raise InputError(str(exc)) from None


def _open_writer(output, fmt, plan, done):
    from ..batch import open_output
    from ..errors import OutputError

    try:
        return open_output(output, fmt.value, plan, done, stream=sys.stdout)
    except OutputError as exc:
        raise InputError(str(exc)) from None


def _run(items, total, plan, done, client, writer, output, cluster_timeout: float) -> None:
    """Compute and write every row; the summary on stderr; Ctrl-C and SIGTERM exit 130, a
    cluster left without workers exits 1, each after closing OUT with every finished row."""
    from ..batch import run_batch
    from ..errors import ClusterError, CollectionError

    progress = _BatchProgress(total)
    interrupted = False
    lost: ClusterError | None = None
    began = time.monotonic()
    try:
        with sigterm_as_interrupt():
            for outcome in run_batch(items, plan, done=done.keys if done is not None else set(),
                                     client=client, games_progress=progress.on_games,
                                     cluster_timeout=cluster_timeout):
                if outcome.error is not None:
                    progress.report(outcome.label, outcome.error)
                elif not outcome.skipped:
                    writer.write(outcome.row)
                progress.advance(outcome)
    except KeyboardInterrupt:
        interrupted = True
    except ClusterError as exc:
        lost = exc
    except CollectionError as exc:  # a collection that turns out unreadable part-way
        raise InputError(str(exc)) from None
    finally:
        progress.close()
        writer.close()  # Parquet: written here, also after Ctrl-C

    where = f" to {output}" if output is not None else ""
    skipped = f", {progress.skipped} already there" if progress.skipped else ""
    failed = f", {progress.failed} failed" if progress.failed else ""
    rows = "1 row" if writer.rows == 1 else f"{writer.rows} rows"
    typer.echo(f"bgcli batch: {rows} written{where}{skipped}{failed} "
               f"in {time.monotonic() - began:.1f} s", err=True)
    if lost is not None:
        raise lost
    if interrupted:
        hint = "; --resume continues" if output is not None else ""
        typer.echo(f"bgcli: interrupted: the rows written are complete{hint}", err=True)
        raise typer.Exit(130)
    if progress.failed:
        raise typer.Exit(1)
