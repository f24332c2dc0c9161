"""Batches: a collection of positions in, one tidy row per position out, streamed to a file.

``run_batch`` takes the entries of a collection (``bgcli.collections``) and yields one
``Outcome`` per entry as each position completes: its row, or why it failed, or that it was
skipped because an earlier run already wrote it. ``open_output`` writes rows to CSV, JSON
lines or Parquet as they come, so a killed run loses at most the positions in flight.

Rows. ``columns(plan)`` fixes the columns and their order for a batch, the same on every
machine and on every run: ``id``, ``name``, ``input``, ``position_id``, ``match_id``,
``xgid``, every race metric exactly as ``bgcli pips`` gives it (floats rounded to 4
decimals), then with rollouts the five rates with their standard errors, the equity with its
standard error and 95% interval, the games played and the rollout settings (``master_seed``
and the position's own ``seed`` included), then the decision columns (``DECISION_COLUMNS``),
and last ``net`` (the net weights the rollout or evaluator played with, ``bgcli.net.net_id``;
null for the other policies), ``bgcli_version`` and ``elapsed_seconds``. Values are plain: a
number that is not finite (a standard error after one game, Kleinman's K at the end of a
race) is written as null.

Decisions. The cube action before the roll (``bgcli.decisions.cube_decision``: gnubg's words,
the cubeful equities of No double, Double/take and Double/pass, the proper action's cubeful
equity, the take point and the cube efficiency) at the cube, owner and score of the Match ID
or XGID, from the rollout's five rates with ``--rollout``, else from the evaluator's
(``cube_source`` says which); null when the position's dice are already rolled. The best play
(``bgcli.evaluation.rank_plays``: the evaluator's top play and its cubeless equity, mover's
side) for the dice rolled in the position's Match ID or XGID, else for the batch's ``dice``
option; null when there are neither. A position's own dice win over the option: they are its
roll, the option is a roll to try on positions that have none. The evaluator is the rollout's
policy, or the plan's ``policy`` without rollouts (``evaluator_policy``), looking ``plies``
ahead (``evaluator_plies``: 1 by default, as ``bgcli best`` and ``bgcli cube``);
``dice_option`` records the option, so ``--resume`` refuses a run with other ones.

Seeds. A rollout in a batch is seeded with ``position_seed(master_seed, position_id,
match_id)``, a BLAKE2b hash reduced to 53 bits. So a position's numbers do not depend on its
place in the collection, on which process rolls it out or on how often it was retried, and
``bgcli rollout POSITION --seed SEED`` with the row's ``seed`` reproduces the row.

Where positions run. By default one at a time in this process: the rollout kernel already
uses every core, and race metrics and the evaluator's decisions take about a millisecond
(single-threaded kernels that release the GIL). With a client from
``connect(ADDRESS)`` they go to a ``dask.distributed`` cluster instead (see
``_dask_outcomes``); rows then arrive in the order they finish rather than collection order,
with the same values.

This module imports the standard library and bgcli's pure modules; numba (through
``bgcli.rollout`` and ``bgcli.evaluation``), pyarrow and dask are imported only when a batch
needs them.
"""

from __future__ import annotations

import contextlib
import csv
import glob
import hashlib
import io
import json
import math
import os
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from . import __version__
from .collections import Entry, EntryError
from .errors import BgcliError, ClusterError, CollectionError, OutputError
from .values import plain
from .rollout import RolloutSettings

__all__ = [
    "FORMATS", "BatchPlan", "Outcome", "Done", "analyse", "columns", "position_seed",
    "format_for", "connect", "run_batch", "read_done", "check_resumable", "open_output", "journal_path",
    "lock_path", "OutputLock", "check_output_path",
    "DECISION_COLUMNS", "cube_values", "best_play_values", "roll_for",
]

FORMATS = ("csv", "jsonl", "parquet")
_EXTENSIONS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet",
               ".pq": "parquet"}

# (column, type) in the order they are written; types: str, int, float, bool
ID_COLUMNS = [("id", "str"), ("name", "str"), ("input", "str"), ("position_id", "str"),
              ("match_id", "str"), ("xgid", "str")]
RACE_COLUMNS = [
    ("is_race", "bool"), ("pips_on_roll", "int"), ("pips_opponent", "int"),
    ("pip_difference", "int"),
    *[(f"{rule}_{key}", kind) for rule in ("keith", "thorp") for key, kind in (
        ("on_roll", "int"), ("opponent", "int"), ("leader_adjusted", "float"),
        ("verdict", "str"), ("action", "str"), ("response", "str"))],
    ("isight_on_roll", "int"), ("isight_opponent", "int"), ("isight_gwc_percent", "float"),
    ("isight_verdict", "str"), ("isight_action", "str"), ("isight_response", "str"),
    ("eight_nine_twelve_ahead_percent", "float"), ("eight_nine_twelve_verdict", "str"),
    ("eight_nine_twelve_action", "str"), ("eight_nine_twelve_response", "str"),
    ("kleinman_sum", "int"), ("kleinman_diff", "int"), ("kleinman_count", "float"),
    ("kleinman_win_probability", "float"),
]
# bgcli.bearoff.bearoff_metrics: null unless the side (for race_*: both sides) is all home
BEAROFF_COLUMNS = [(name, "float") for name in (
    "epc_on_roll", "wastage_on_roll", "epc_opponent", "wastage_opponent", "race_win_exact",
    "race_win_gammon_exact", "race_lose_gammon_exact")]
_RATES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity")
ROLLOUT_COLUMNS = [
    *[(f"{rate}{suffix}", "float") for rate in _RATES for suffix in ("", "_se")],
    ("equity_ci_low", "float"), ("equity_ci_high", "float"), ("games", "int"),
    ("trials", "int"), ("policy", "str"), ("truncate", "int"), ("variance_reduction", "bool"),
    ("quasi_random", "bool"), ("bearoff_truncation", "bool"), ("initial", "bool"),
    ("stop_se", "float"), ("min_games", "int"), ("master_seed", "int"), ("seed", "int"),
]
# the cube action before the roll (null when the dice are rolled), then the evaluator's best
# play for the position's dice or the --dice option (null without either); see the docstring
CUBE_COLUMNS = [
    ("cube_action", "str"), ("cubeful_equity", "float"), ("no_double", "float"),
    ("double_take", "float"), ("double_pass", "float"), ("take_point", "float"),
    ("cube_efficiency", "float"), ("cube_source", "str"),
]
PLAY_COLUMNS = [("best_play", "str"), ("best_play_equity", "float"), ("best_play_dice", "str")]
DECISION_COLUMNS = [*CUBE_COLUMNS, *PLAY_COLUMNS, ("evaluator_policy", "str"),
                    ("evaluator_plies", "int"), ("dice_option", "str")]
TAIL_COLUMNS = [("net", "str"), ("bgcli_version", "str"), ("elapsed_seconds", "float")]
# what must match for --resume to append to a file: everything that changes the numbers
_SETTING_COLUMNS = ("trials", "policy", "truncate", "variance_reduction", "quasi_random",
                    "bearoff_truncation", "initial", "stop_se", "min_games", "master_seed",
                    "evaluator_policy", "evaluator_plies", "dice_option", "net", "bgcli_version")
NO_PLAY = "cannot move"
# seconds a Dask batch waits on a cluster without any worker (all lost, none started yet)
# before it gives up: long enough for a nanny or a job scheduler to start one again
CLUSTER_TIMEOUT = 60.0  # best_play when no checker can move with the dice


# ---------------------------------------------------------------------------- small pieces


def position_seed(master_seed: int, position_id: str, match_id: str) -> int:
    """The rollout seed of one position in a batch: BLAKE2b of the master seed and the
    position's IDs, reduced to 53 bits (``bgcli.rollout.SEED_BITS``: exact as a double)."""
    text = f"{master_seed}:{position_id}:{match_id}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> (64 - 53)


def _text(value) -> str:
    """A value as CSV holds it: the same text whichever format it was read back from."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def format_for(path: Path | str) -> str | None:
    """The output format a file name implies (csv, jsonl, parquet), or None."""
    return _EXTENSIONS.get(Path(path).suffix.lower())


def _dice_text(dice: tuple[int, int] | None) -> str | None:
    return None if dice is None else f"{max(dice)}{min(dice)}"


@dataclass(frozen=True)
class BatchPlan:
    """What to compute for every position: race metrics and decisions always; a rollout with
    ``rollout`` settings (their seed is ignored: each position's comes from ``master_seed``).
    ``policy``: the evaluator's without a rollout (with one, the rollout's policy is used);
    ``plies``: the evaluator's lookahead (0 or 1, as ``bgcli best``'s ``--plies``);
    ``dice``: the roll whose best play is wanted for positions that have none rolled."""

    rollout: RolloutSettings | None = None
    master_seed: int = 0
    policy: str = "net"
    dice: tuple[int, int] | None = None
    plies: int = 1

    @property
    def evaluator_policy(self) -> str:
        return self.rollout.policy if self.rollout is not None else self.policy

    def column_types(self) -> list[tuple[str, str]]:
        return (ID_COLUMNS + RACE_COLUMNS + BEAROFF_COLUMNS
                + (ROLLOUT_COLUMNS if self.rollout else []) + DECISION_COLUMNS + TAIL_COLUMNS)

    def settings_row(self) -> dict:
        """The values of the setting columns a row of this plan carries."""
        from .evaluation import policy_net

        row: dict = {}
        if self.rollout is not None:
            settings = self.rollout
            row = {"trials": settings.trials, "policy": settings.policy,
                   "truncate": settings.truncate,
                   "variance_reduction": settings.variance_reduction,
                   "quasi_random": settings.quasi_random,
                   "bearoff_truncation": settings.bearoff_truncation, "initial": settings.initial,
                   "stop_se": settings.stop_se, "min_games": settings.min_games,
                   "master_seed": self.master_seed}
        row["evaluator_policy"] = self.evaluator_policy
        row["evaluator_plies"] = self.plies
        row["dice_option"] = _dice_text(self.dice)
        row["net"] = policy_net(self.evaluator_policy)
        row["bgcli_version"] = __version__
        return row


def columns(plan: BatchPlan) -> list[str]:
    return [name for name, _ in plan.column_types()]


# ---------------------------------------------------------------------------- decisions


def roll_for(situation, dice: tuple[int, int] | None = None) -> tuple[int, int] | None:
    """The dice whose best play a row gives: the position's own when rolled, else ``dice``."""
    if situation.match.dice_rolled:
        return tuple(situation.match.dice)
    return None if dice is None else (max(dice), min(dice))


def cube_values(situation, probabilities, source: str | None) -> dict:
    """The cube columns (``CUBE_COLUMNS``) of ``situation`` from the cubeless
    ``probabilities`` of the player on roll; every one null when its dice are rolled (the
    cube is turned before the roll) or ``probabilities`` is None. A score the match equity
    table cannot answer gives the reason as ``cube_action`` and null equities."""
    from .decisions import cube_decision

    values: dict = {name: None for name, _ in CUBE_COLUMNS}
    if situation.match.dice_rolled or probabilities is None:
        return values
    values["cube_source"] = source
    try:
        decision = cube_decision(situation, probabilities).row()
    except BgcliError as exc:
        values["cube_action"] = f"No cube decision: {exc}"
        return values
    for name, _ in CUBE_COLUMNS[:-1]:
        values[name] = decision[name]
    return values


def best_play_values(position, dice: tuple[int, int] | None, policy: str,
                     plies: int = 1) -> dict:
    """The best play columns (``PLAY_COLUMNS``): the evaluator's top play for ``dice`` at
    ``plies`` and its cubeless equity from the mover's side (``NO_PLAY`` and the equity of the
    position left as it is when no checker can move); null without dice."""
    values: dict = {name: None for name, _ in PLAY_COLUMNS}
    if dice is None:
        return values
    from .evaluation import cubeless_equity, position_probabilities, rank_plays

    ranked = rank_plays(position, dice, policy, plies)
    if ranked:
        values["best_play"], values["best_play_equity"] = ranked[0].play.notation, ranked[0].equity
    else:  # the opponent is on roll with the same board
        values["best_play"] = NO_PLAY
        values["best_play_equity"] = -cubeless_equity(
            position_probabilities(position.swapped(), policy, plies))
    values["best_play_dice"] = _dice_text(dice)
    return values


# ---------------------------------------------------------------------------- one position

# Rollouts in one process run one at a time: the kernel is parallel over every core already,
# and numba's default threading layer must not be entered from two threads at once (a Dask
# worker started with --nthreads above 1 would otherwise do that).
_KERNEL_LOCK = threading.Lock()

GamesProgress = Callable[[int, int, float, float, float], None]


def analyse(entry: Entry, plan: BatchPlan, progress: GamesProgress | None = None) -> dict:
    """The row of one position (see the module docstring). Raises ``BgcliError`` for a
    position that does not parse or cannot occur, ``KeyboardInterrupt`` if interrupted."""
    from .evaluation import policy_net
    from .notation.detect import parse_situation
    from .race import race_metrics

    began = time.perf_counter()
    situation = parse_situation(entry.position)
    row = {"id": entry.id, "name": entry.name, "input": entry.position,
           "position_id": situation.position_id, "match_id": situation.match_id,
           "xgid": situation.xgid}
    from .bearoff import bearoff_metrics

    metrics = race_metrics(situation.position) | bearoff_metrics(situation.position)
    for name, _ in RACE_COLUMNS + BEAROFF_COLUMNS:
        value = metrics[name]
        # gnubg computes in single precision: 4 decimals hold every digit that means anything
        row[name] = round(value, 4) if isinstance(value, float) else value
    if plan.rollout is not None:
        from .rollout import rollout

        seed = position_seed(plan.master_seed, row["position_id"], row["match_id"])
        with _KERNEL_LOCK:
            result = rollout(situation.position, replace(plan.rollout, seed=seed), progress)
        # interrupted: part of the games is not a result to keep, and a Ctrl-C that came in
        # the last games must still stop the batch (the position is computed again on --resume)
        if result.interrupted:
            raise KeyboardInterrupt
        values = result.row() | {"master_seed": plan.master_seed}  # its "seed" is ``seed``
        for name, _ in ROLLOUT_COLUMNS:
            row[name] = values[name]
        probabilities, source = result.means, "rollout"
    elif not situation.match.dice_rolled:
        from .evaluation import position_probabilities

        probabilities = position_probabilities(situation.position, plan.evaluator_policy,
                                               plan.plies)
        source = "evaluator"
    else:
        probabilities = source = None
    row.update(cube_values(situation, probabilities, source))
    row.update(best_play_values(situation.position, roll_for(situation, plan.dice),
                                plan.evaluator_policy, plan.plies))
    row["evaluator_policy"] = plan.evaluator_policy
    row["evaluator_plies"] = plan.plies
    row["dice_option"] = _dice_text(plan.dice)
    row["net"] = policy_net(plan.evaluator_policy)
    row["bgcli_version"] = __version__
    row["elapsed_seconds"] = round(time.perf_counter() - began, 3)
    return {key: plain(value) for key, value in row.items()}


# ---------------------------------------------------------------------------- many positions


@dataclass
class Outcome:
    """What became of one entry: a row, an error, or skipped (already in the output)."""

    label: str
    entry: Entry | None = None
    row: dict | None = None
    error: str | None = None
    skipped: bool = False


def _attempt(entry: Entry, plan: BatchPlan, progress: GamesProgress | None = None) -> Outcome:
    try:
        return Outcome(entry.label, entry, row=analyse(entry, plan, progress))
    except BgcliError as exc:
        return Outcome(entry.label, entry, error=str(exc))
    except Exception as exc:  # a bug must not sink the rest of the batch; it is reported
        return Outcome(entry.label, entry, error=f"internal error: {type(exc).__name__}: {exc}")


def _until_broken(items: Iterable[Entry | EntryError]) -> Iterator[Entry | EntryError]:
    """``items``, and where the collection stops being readable one ``EntryError`` saying so
    in place of the rest (a collection unreadable from its start still raises)."""
    read_any = False
    try:
        for item in items:
            read_any = True
            yield item
    except CollectionError as exc:
        if not read_any or exc.where is None:
            raise
        yield EntryError(exc.where, f"{exc.reason}; the rest of the file is not read")


def _pending(items: Iterable[Entry | EntryError], done: frozenset | set
             ) -> Iterator[Entry | Outcome]:
    """Entries still to compute; rows that are not entries, and entries whose (id,
    position_id) is in ``done``, come out as finished outcomes. A collection that breaks off
    part-way (a quote never closed) ends with a failed outcome where it broke."""
    from .notation.detect import parse_situation

    for item in _until_broken(items):
        if isinstance(item, EntryError):
            yield Outcome(item.label, error=item.message)
        elif done:
            try:
                key = (item.id, parse_situation(item.position).position_id)
            except BgcliError as exc:
                yield Outcome(item.label, item, error=str(exc))
                continue
            yield Outcome(item.label, item, skipped=True) if key in done else item
        else:
            yield item


def run_batch(items: Iterable[Entry | EntryError], plan: BatchPlan, *,
              done: frozenset | set = frozenset(), client=None,
              games_progress: GamesProgress | None = None,
              cluster_timeout: float = CLUSTER_TIMEOUT) -> Iterator[Outcome]:
    """One ``Outcome`` per item, as each completes. ``done``: (id, position_id) pairs to skip.
    ``client``: a ``distributed.Client`` (see ``connect``) to run on; None computes here, one
    position at a time. On a cluster left without any worker for ``cluster_timeout`` seconds
    it raises ``ClusterError`` (the outcomes before it are all handed over)."""
    pending = _pending(items, done)
    if client is None:
        for item in pending:
            yield item if isinstance(item, Outcome) else _attempt(item, plan, games_progress)
    else:
        yield from _dask_outcomes(pending, plan, client, cluster_timeout)


def _analyse_chunk(chunk: list[Entry], plan: BatchPlan) -> list[Outcome]:
    """A Dask task: the outcomes of a few entries."""
    return [_attempt(entry, plan) for entry in chunk]


def _worker_identity() -> tuple[str, str]:
    """The bgcli version and net weights (``bgcli.net.net_id``) a worker computes with."""
    from .net import net_id

    return __version__, net_id()


def connect(address: str, timeout: float = CLUSTER_TIMEOUT):
    """A ``distributed.Client`` of the scheduler at ``address`` (``tcp://HOST:PORT``), once
    every worker there runs this bgcli version with the same net weights. Raises
    ``ClusterError`` otherwise. ``timeout``: seconds to wait for the scheduler, at first and
    when the connection is lost."""
    try:
        from distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:  # pragma: no cover - dask is a dependency
        raise ClusterError("--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
    try:  # before Client(), which would hang on a malformed address while cleaning up
        parse_host_port(parse_address(address)[1])
    except ValueError as exc:
        raise ClusterError(f"not a scheduler address (tcp://HOST:PORT): {address!r}: {exc}") from None
    try:
        client = Client(address, timeout=f"{timeout}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
    try:
        try:
            identities = client.run(_worker_identity)
        except Exception as exc:
            raise ClusterError("a Dask worker cannot run bgcli (install the same bgcli on "
                               f"every worker machine): {type(exc).__name__}: {exc}") from None
        from .net import WEIGHTS_ENV, net_id

        ours = net_id()
        for worker, (version, net) in identities.items():
            if version != __version__:
                raise ClusterError(f"Dask worker {worker} runs bgcli {version}, this is "
                                   f"{__version__}: its rows would not match")
            if net != ours:
                raise ClusterError(f"Dask worker {worker} plays with net weights {net}, this "
                                   f"is {ours}: set {WEIGHTS_ENV} alike everywhere")
    except BaseException:
        client.close()
        raise
    return client


def _worker_count(client) -> int | None:
    """How many workers the cluster has; None when its scheduler cannot be reached."""
    try:
        return len(client.nthreads())
    except Exception:
        return None


def _next_finished(finished, client, timeout: float):
    """The next future ``finished`` (an ``as_completed``) yields. Waiting on it alone would
    wait forever once every worker is gone; so ``ClusterError`` once the cluster has had no
    worker for ``timeout`` seconds (a worker that comes back in time resets the clock)."""
    alone_since, checked = None, -math.inf
    while not finished.has_ready():
        now = time.monotonic()
        if now - checked >= 1:
            checked = now
            workers = _worker_count(client)
            if workers:
                alone_since = None
            elif alone_since is None:
                alone_since = now
            elif now - alone_since >= timeout:
                what = "has had no worker" if workers == 0 else "has had no scheduler to reach"
                raise ClusterError(f"the Dask cluster {what} for {timeout:g} s "
                                   "(--cluster-timeout): start it again and --resume")
        time.sleep(0.02)
    return next(finished)


def _dask_outcomes(pending: Iterator[Entry | Outcome], plan: BatchPlan, client,
                   timeout: float = CLUSTER_TIMEOUT) -> Iterator[Outcome]:
    """Run the pending entries on the Dask cluster of ``client``.

    Entries go out in chunks (one position per task with rollouts, 50 without), at most two
    tasks per worker thread at a time (counted again every few seconds, as workers come and
    go), so neither the client nor the cluster ever holds the whole batch. Each task has its
    own key and is recorded in ``in_flight`` until its outcomes are handed over; they are
    handed over once, when the key leaves ``in_flight``. If a worker is lost, the scheduler
    runs its tasks again elsewhere: a task is a pure function of its entries and the plan
    (the seed comes from the position), so the rerun gives the same numbers, and since a key
    is handed over only once nothing is duplicated. A task the cluster gives up on (Dask's
    KilledWorker after repeated losses) fails its entries with that error; --resume runs
    them again. A cluster with no worker left for ``timeout`` seconds raises ``ClusterError``.
    """
    from distributed import as_completed

    in_flight: dict = {}
    try:
        size = 1 if plan.rollout is not None else 50
        window, window_checked = 4, -math.inf
        token = uuid.uuid4().hex[:12]
        finished = as_completed(loop=client.loop)
        chunk: list[Entry] = []
        submitted = 0
        exhausted = False

        def submit(entries: list[Entry]) -> None:
            nonlocal submitted
            key = f"bgcli-batch-{token}-{submitted}"
            submitted += 1
            future = client.submit(_analyse_chunk, entries, plan, key=key, pure=False)
            in_flight[key] = (future, entries)
            finished.add(future)

        while True:
            if time.monotonic() - window_checked > 5:  # workers may come and go
                window = max(4, 2 * sum(client.nthreads().values()))
                window_checked = time.monotonic()
            while not exhausted and len(in_flight) < window:
                item = next(pending, None)
                if item is None:
                    exhausted = True
                    if chunk:
                        submit(chunk)
                        chunk = []
                elif isinstance(item, Outcome):
                    yield item
                else:
                    chunk.append(item)
                    if len(chunk) == size:
                        submit(chunk)
                        chunk = []
            if not in_flight:
                break
            future = _next_finished(finished, client, timeout)
            if future.key not in in_flight:  # pragma: no cover - as_completed yields once
                continue
            _, entries = in_flight.pop(future.key)
            try:
                outcomes = future.result()
            except Exception as exc:
                why = " ".join(str(exc).split())  # one line, whatever Dask's message is
                outcomes = [Outcome(entry.label, entry,
                                    error=f"the cluster could not run it: {type(exc).__name__}: {why}")
                            for entry in entries]
            future.release()
            yield from outcomes
    except (OSError, TimeoutError) as exc:  # the scheduler is gone (or unreachable)
        raise ClusterError(f"lost the Dask scheduler: {exc}; the rows written are kept, "
                           "--resume continues") from None
    finally:
        if in_flight:
            with contextlib.suppress(Exception):  # nothing to cancel them on, if it is gone
                client.cancel([future for future, _ in in_flight.values()])


# ---------------------------------------------------------------------------- resuming


@dataclass
class Done:
    """What an earlier run left in an output file."""

    keys: set = field(default_factory=set)  # (id, position_id) of every row written
    columns: list[str] | None = None  # None: nothing there yet
    first_row: dict | None = None
    parquet_keys: set = field(default_factory=set)  # the part already in the Parquet file

    @property
    def master_seed(self) -> int | None:
        value = (self.first_row or {}).get("master_seed")
        return None if value in (None, "") else int(value)


def journal_path(path: Path) -> Path:
    """Where a Parquet output's rows wait, as JSON lines, until the Parquet file is written."""
    return path.with_name(path.name + ".journal.jsonl")


def _drop_partial_last_line(path: Path) -> None:
    """A run killed in mid-write may leave half a line at the end: cut it off."""
    with open(path, "rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return
        end = size
        while end > 0:
            start = max(0, end - 65536)
            handle.seek(start)
            block = handle.read(end - start)
            newline = block.rfind(b"\n")
            if newline >= 0:
                handle.truncate(start + newline + 1)
                return
            end = start
        handle.truncate(0)


# how every file bgcli batch writes begins: its header's first columns, or the first row's
_FIRST_WORDS = {"csv": ",".join(name for name, _ in ID_COLUMNS) + ",", "jsonl": '{"id": '}


def _complete_lines(handle: IO[str]) -> Iterator[str]:
    """The lines of a file but a half-written last one (a killed run's, cut off later)."""
    for line in handle:
        if line.endswith("\n"):
            yield line


def _not_ours(path: Path, fmt: str, why: str) -> OutputError:
    return OutputError(f"cannot resume {str(path)!r}: {why}; it is not {fmt} as bgcli batch "
                       "writes it (mend or remove it, or --overwrite)")


def _add_row(done: Done, row: dict, path: Path, fmt: str, line: int) -> None:
    if not row.get("id") or not row.get("position_id"):
        raise _not_ours(path, fmt, f"line {line} has no id or position_id")
    if done.first_row is None:
        done.first_row = row
    done.keys.add((str(row["id"]), row["position_id"]))


def _read_csv_done(lines: Iterator[str], path: Path, done: Done) -> None:
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is None:
            return
        done.columns = header
        for fields in reader:
            if not fields:  # a blank line holds no row
                continue
            if len(fields) != len(header):
                raise _not_ours(path, "csv", f"line {reader.line_num} has {len(fields)} fields "
                                f"where the header has {len(header)}")
            _add_row(done, dict(zip(header, fields)), path, "csv", reader.line_num)
    except csv.Error as exc:
        raise _not_ours(path, "csv", f"line {reader.line_num}: {exc}") from None


def _read_jsonl_done(lines: Iterator[str], path: Path, done: Done) -> None:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise _not_ours(path, "jsonl", f"line {number} is not JSON: {exc}") from None
        if not isinstance(row, dict):
            raise _not_ours(path, "jsonl", f"line {number} is not a JSON object")
        if done.columns is not None and list(row) != done.columns:
            raise _not_ours(path, "jsonl", f"line {number} has other columns than the rows "
                            "before it")
        done.columns = list(row)
        _add_row(done, row, path, "jsonl", number)


def _read_lines_done(path: Path, fmt: str, done: Done) -> None:
    """Read what ``path`` holds into ``done``, every complete line checked; only then cut
    off a half-written last line (a file that is not a batch's is left as it is)."""
    with open(path, "rb") as handle:
        if handle.read(4) == b"PAR1":
            raise OutputError(f"cannot resume {str(path)!r}: it is a Parquet file, not {fmt}: "
                              "name it .parquet or give --format parquet")
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            reader = _read_csv_done if fmt == "csv" else _read_jsonl_done
            reader(_complete_lines(handle), path, done)
            if done.columns is None:  # no complete line: the start of one, from a killed run?
                handle.seek(0)
                head, start = handle.read(len(_FIRST_WORDS[fmt])), _FIRST_WORDS[fmt]
                if not start.startswith(head):
                    raise _not_ours(path, fmt, "it does not begin as a bgcli batch output")
    except UnicodeDecodeError:
        raise _not_ours(path, fmt, "it is not UTF-8 text") from None
    _drop_partial_last_line(path)


def read_done(path: Path, fmt: str) -> Done:
    """The rows already in ``path`` (and, for Parquet, in its journal). Cuts a half-written
    last line off a CSV or JSON lines file. Holds only the (id, position_id) keys."""
    done = Done()
    try:
        if fmt == "parquet":
            if path.exists():
                import pyarrow.parquet as pq

                try:
                    parquet = pq.ParquetFile(path)
                except Exception as exc:
                    raise OutputError(f"cannot resume {str(path)!r}: not a readable Parquet file: {exc}") from None
                done.columns = parquet.schema_arrow.names
                for batch in parquet.iter_batches(batch_size=65536):
                    if done.first_row is None and batch.num_rows:
                        done.first_row = batch.slice(0, 1).to_pylist()[0]
                    done.keys.update(zip(batch.column("id").to_pylist(),
                                         batch.column("position_id").to_pylist()))
                done.parquet_keys = set(done.keys)
            journal = journal_path(path)
            if journal.exists():
                columns_before = done.columns
                _read_lines_done(journal, "jsonl", done)
                done.columns = columns_before or done.columns
        elif path.exists():
            _read_lines_done(path, fmt, done)
    except OSError as exc:
        raise OutputError(f"cannot read {str(path)!r} to resume it: {exc}") from None
    return done


def check_resumable(done: Done, plan: BatchPlan, path: Path) -> None:
    """Raise ``OutputError`` unless rows of ``plan`` may be appended to what ``done`` found:
    the same columns, settings and bgcli version, so the file ends up as one uninterrupted
    run would have written it."""
    if done.columns is not None and done.columns != columns(plan):
        had, has = "equity" in done.columns, plan.rollout is not None
        why = ("it has rollout columns and this run has no --rollout" if had and not has else
               "it has no rollout columns and this run has --rollout" if has and not had else
               "its columns differ from this bgcli version's")
        raise OutputError(f"cannot resume {str(path)!r}: {why}; use the same analyses or --overwrite")
    if done.first_row is None:
        return
    expected = plan.settings_row()
    for name in _SETTING_COLUMNS:
        if name in expected and _text(done.first_row.get(name)) != _text(expected[name]):
            raise OutputError(
                f"cannot resume {str(path)!r}: it was written with {name}="
                f"{_text(done.first_row.get(name))}, this run has {name}={_text(expected[name])}; "
                "use the same settings or --overwrite")


# ---------------------------------------------------------------------------- the output file


def lock_path(path: Path) -> Path:
    """The lock file of an output: held by the one bgcli batch writing it."""
    return path.with_name(path.name + ".lock")


def _side_files(path: Path, fmt: str) -> list[Path]:
    """The files a batch creates beside its output."""
    files = [lock_path(path)]
    if fmt == "parquet":
        files += [journal_path(path), _parquet_temporary(path)]
    return files


def check_output_path(path: Path, fmt: str) -> None:
    """Raise ``OutputError`` now, before anything is computed, for an output that cannot be
    written: a directory, a name too long for its file system (its lock file and, for
    Parquet, its journal included)."""
    folder = path.parent
    try:
        longest = os.pathconf(folder if folder.is_dir() else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    for name in [path.name] + [side.name for side in _side_files(path, fmt)]:
        if len(os.fsencode(name)) > longest:
            beside = "" if name == path.name else f", with {name[len(path.name):]!r} beside it"
            raise OutputError(f"cannot write this file (its name is too long{beside}: "
                              f"{longest} bytes at most here): {str(path)!r}")
    try:
        is_dir = path.is_dir()
    except OSError as exc:  # a folder name too long, a loop of links
        raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(path)!r}") from None
    if is_dir:
        raise OutputError(f"cannot write this file (it is a directory): {str(path)!r}")


class OutputLock:
    """An exclusive ``flock`` on ``OUT.lock`` for as long as a batch writes OUT, so a second
    bgcli batch on the same output (``--resume`` or ``--overwrite`` while the first runs) is
    refused instead of duplicating rows, garbling lines or dropping a Parquet journal. The
    kernel releases the lock when the process ends, SIGKILL included, so a killed run never
    leaves a stale lock behind (only a harmless file, taken over by the next run)."""

    def __init__(self, path: Path):
        self.path = lock_path(path)
        self.output = path
        self.handle: IO[str] | None = None

    def __enter__(self) -> "OutputLock":
        self.acquire()
        return self

    def __exit__(self, *exc_info) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock, or raise ``OutputError`` (another run holds it, or no file can be
        made beside the output: a read-only or missing folder)."""
        while self.handle is None:
            self.handle = self._try_lock()
        with contextlib.suppress(OSError):  # the pid only helps the message of a second run
            self.handle.truncate(0)
            self.handle.write(f"{os.getpid()}\n")
            self.handle.flush()
        # a run killed while it wrote the Parquet file left it half-written; none is being
        # written now (that run would hold the lock)
        for stale in self.output.parent.glob(f".{glob.escape(self.output.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()

    def _try_lock(self) -> IO[str] | None:
        """The lock file, open and locked; None if the run before removed it meanwhile."""
        import fcntl

        try:
            handle = open(self.path, "a+", encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(self.output)!r}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise OutputError(f"{str(self.output)!r} is being written by another bgcli batch "
                              f"(pid {holder}); wait for it to end, or write to another "
                              "file") from None
        except OSError as exc:  # a file system without locks (some network ones)
            handle.close()
            raise OutputError(f"cannot lock {str(self.path)!r} to write {str(self.output)!r} "
                              f"alone: {exc.strerror or exc}; write to a local disk") from None
        if self._same_file(handle):
            return handle
        handle.close()  # locked a file no longer there: lock the one there now
        return None

    def _same_file(self, handle) -> bool:
        try:
            return os.stat(self.path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            return False

    def release(self) -> None:
        # removed while still locked, so a run waiting on this file sees it is gone (above)
        with contextlib.suppress(OSError):
            self.path.unlink()
        self.handle.close()
        self.handle = None


# ---------------------------------------------------------------------------- writing


class _LinesOutput:
    """CSV or JSON lines, one line per row, flushed as it is written. A file of its own
    (``owned``) that cannot be written raises ``OutputError`` naming it; standard output's
    errors are left to the command line (``bgcli.cli.app``)."""

    def __init__(self, stream: IO[str], fmt: str, names: list[str], header: bool, owned: bool):
        self.stream, self.fmt, self.names, self.owned = stream, fmt, names, owned
        self.rows = 0
        if fmt == "csv" and header:
            with self._named_errors():
                csv.writer(stream, lineterminator="\n").writerow(names)
                stream.flush()

    @contextlib.contextmanager
    def _named_errors(self):
        try:
            yield
        except OSError as exc:
            if not self.owned:
                raise
            raise OutputError(f"cannot write this file ({exc.strerror or exc}): {self.stream.name!r}") from None

    def write(self, row: dict) -> None:
        if self.fmt == "csv":
            # one write call per row keeps a killed run's partial line to the end of the file
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="\n").writerow([_text(row.get(n)) for n in self.names])
            line = buffer.getvalue()
        else:
            line = json.dumps({n: row.get(n) for n in self.names}, ensure_ascii=False) + "\n"
        with self._named_errors():
            self.stream.write(line)
            self.stream.flush()
        self.rows += 1

    def close(self) -> None:
        with self._named_errors():
            if self.owned:
                self.stream.close()
            else:
                self.stream.flush()


def _parquet_temporary(path: Path) -> Path:
    """Where the Parquet file is written before it is renamed over ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


class _ParquetOutput:
    """Parquet: rows go to a JSON lines journal beside the file as they come; ``close`` (also
    on Ctrl-C or SIGTERM) writes the Parquet file from the earlier file and the journal into
    a temporary file, renames it over the old one and deletes the journal. The Parquet file
    is therefore always complete; after a hard kill the rows wait in the journal and
    ``--resume`` takes them up."""

    def __init__(self, path: Path, plan: BatchPlan, done: Done | None):
        self.path, self.plan = path, plan
        self.journal_path = journal_path(path)
        self.parquet_keys = done.parquet_keys if done is not None else set()
        self.journal = _LinesOutput(open(self.journal_path, "a", encoding="utf-8"), "jsonl",
                                    columns(plan), header=False, owned=True)

    def write(self, row: dict) -> None:
        self.journal.write(row)

    @property
    def rows(self) -> int:
        return self.journal.rows

    def close(self) -> None:
        import pyarrow as pa

        self.journal.close()
        kinds = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_()}
        schema = pa.schema([(name, kinds[kind]) for name, kind in self.plan.column_types()])
        temporary = _parquet_temporary(self.path)
        try:
            self._write(temporary, schema)
            os.replace(temporary, self.path)
        except OSError as exc:  # a full disk: the journal is kept for --resume
            raise OutputError(f"cannot write this file ({exc.strerror or exc}; its rows wait in its "
                              f"journal, which --resume takes up): {str(self.path)!r}") from None
        finally:
            if temporary.exists():
                temporary.unlink()
        self.journal_path.unlink()

    def _write(self, temporary: Path, schema) -> None:
        """The Parquet file at ``temporary``: the earlier file's rows, then the journal's."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        with pq.ParquetWriter(temporary, schema) as writer:
            if self.path.exists():
                for batch in pq.ParquetFile(self.path).iter_batches(batch_size=65536):
                    writer.write_table(pa.Table.from_batches([batch], schema=schema))
            chunk: list[dict] = []
            with open(self.journal_path, encoding="utf-8") as journal:
                for line in journal:
                    if not line.endswith("\n"):
                        break  # half a line from a killed run
                    row = json.loads(line)
                    if (row["id"], row["position_id"]) in self.parquet_keys:
                        continue  # merged already by a run killed before it could clean up
                    chunk.append(row)
                    if len(chunk) == 10000:
                        writer.write_table(pa.Table.from_pylist(chunk, schema=schema))
                        chunk = []
            if chunk:
                writer.write_table(pa.Table.from_pylist(chunk, schema=schema))


def open_output(path: Path | None, fmt: str, plan: BatchPlan, done: Done | None = None,
                stream: IO[str] | None = None):
    """A writer with ``write(row)`` and ``close()``. ``path`` None writes to ``stream``
    (CSV or JSON lines). With ``done`` (from ``read_done``) rows are appended after the
    earlier run's; without, the file is started afresh."""
    names = columns(plan)
    if path is None:
        if fmt == "parquet":
            raise OutputError("Parquet cannot be written to standard output: give -o FILE.parquet")
        return _LinesOutput(stream, fmt, names, header=True, owned=False)
    try:
        if fmt == "parquet":
            if done is None:
                for stale in (path, journal_path(path)):
                    if stale.exists():
                        stale.unlink()
            return _ParquetOutput(path, plan, done)
        append = done is not None and done.columns is not None
        handle = open(path, "a" if append else "w", encoding="utf-8", newline="")
        return _LinesOutput(handle, fmt, names, header=not append, owned=True)
    except OSError as exc:
        raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(path)!r}") from None
