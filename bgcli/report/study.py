"""The data a report or a chart is drawn from: positions with their race metrics and rollouts.

A ``ReportEntry`` is one position of a study: a flat ``row`` with the same fields as a
``bgcli batch`` row (id, name, input, position_id, match_id, xgid, the race metrics of
``bgcli pips -f json``, the rollout fields of ``bgcli rollout -f json``), the parsed
``Situation``, and, when the rollout was run here, the equity of every game played (for the
convergence chart).

* ``read_entries(path)`` reads a collection (CSV with ``id,name,position,notes`` or a plain
  list) or a batch result (CSV, JSON lines or Parquet with a ``position_id`` column);
* ``analyse(entries, settings, master_seed)`` adds the race metrics, a rollout and the
  decision columns (cube action, cubeful equity, best play for the position's rolled dice)
  where they are missing, seeded and computed as ``bgcli batch`` does;
* ``rollout_games`` rolls a position out keeping the per-game equities, and
  ``replay_games`` recomputes them for a finished rollout row from its seed and settings:
  a game's result depends only on (seed, game number), so the replay gives the same games.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import BgcliError

EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


class StudyError(BgcliError):
    """An input that cannot be read as a collection or a batch result."""


@dataclass(eq=False)
class ReportEntry:
    """One position of a study (see the module docstring)."""

    row: dict
    situation: object | None = None  # bgcli.notation.detect.Situation
    games: np.ndarray | None = field(default=None, repr=False)  # per-game equities
    label: str = ""  # where it came from, for messages: "FILE:LINE", "FILE row N"

    @property
    def id(self) -> str:
        return _text(self.row.get("id"))

    @property
    def name(self) -> str:
        return _text(self.row.get("name"))

    @property
    def error(self) -> str:
        return _text(self.row.get("error"))

    @property
    def has_race(self) -> bool:
        return _is_number(self.row.get("pips_on_roll"))

    @property
    def has_rollout(self) -> bool:
        return _is_number(self.row.get("equity"))

    @property
    def has_decisions(self) -> bool:
        """Whether the row has the decision columns (a batch row always has them, null where
        they do not apply: a cube action after the roll, a best play without dice)."""
        return "cube_source" in self.row and "best_play" in self.row


def _text(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def _is_number(value) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


# ============================================================================ reading

BATCH_SUFFIXES = (".jsonl", ".ndjson", ".json", ".parquet", ".pq")


def read_entries(path: str | Path) -> list[ReportEntry]:
    """Entries from a collection or a batch result file (detected by extension and header)."""
    path = Path(path)
    if not path.exists():
        raise StudyError(f"input file not found: {str(path)!r}")
    if path.is_dir():
        raise StudyError(f"input is a directory, not a file: {str(path)!r}")
    suffix = path.suffix.lower()
    if suffix in BATCH_SUFFIXES:
        return _entries_from_rows(_read_table(path), str(path))
    if suffix in (".csv", ".tsv"):
        header = _first_line(path)
        delimiter = "\t" if suffix == ".tsv" else ","
        columns = [c.strip().lower() for c in header.split(delimiter)]
        if "position_id" in columns or "xgid" in columns:
            return _entries_from_rows(_read_table(path), str(path))
    return _entries_from_collection(path)


def _first_line(path: Path) -> str:
    try:
        with open(path, encoding="utf-8-sig") as stream:
            return stream.readline()
    except (OSError, UnicodeDecodeError) as exc:
        raise StudyError(f"cannot read {str(path)!r}: {exc}") from None


def _read_table(path: Path) -> list[dict]:
    """A batch result's rows as plain Python values, missing ones None. Integers stay exact
    (older files' seeds have 63 bits: a float would round them); CSV values stay text."""
    import csv

    suffix = path.suffix.lower()
    try:
        if suffix in (".parquet", ".pq"):
            import pyarrow.parquet

            return pyarrow.parquet.read_table(path).to_pylist()
        with open(path, encoding="utf-8-sig", newline="") as stream:
            if suffix in (".jsonl", ".ndjson"):
                return [json.loads(line) for line in stream if line.strip()]
            if suffix == ".json":
                rows = json.load(stream)
                if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                    raise ValueError("expected a JSON array of objects")
                return rows
            reader = csv.DictReader(stream, delimiter="\t" if suffix == ".tsv" else ",")
            return [{k: (v if v != "" else None) for k, v in row.items() if k is not None}
                    for row in reader]
    except Exception as exc:  # json, csv, pyarrow and OS errors all mean "cannot read it"
        raise StudyError(f"cannot read batch result {str(path)!r}: {exc}") from None


def exact_int(value) -> int:
    """An integer field as written (``"7"``, ``7``, ``7.0``), without rounding big ones."""
    if isinstance(value, bool):
        raise ValueError(f"not an integer: {value!r}")
    if isinstance(value, int):
        return value
    text = str(value).strip()
    try:
        return int(text)
    except ValueError:
        number = float(text)
        if not number.is_integer():
            raise ValueError(f"not an integer: {value!r}") from None
        return int(number)


def _situation_of(row: dict):
    """The Situation a batch row describes: its XGID, else POSID:MATCHID, else its input."""
    from ..notation.detect import parse_situation

    candidates = []
    if _text(row.get("xgid")):
        candidates.append(_text(row["xgid"]))
    if _text(row.get("position_id")):
        match_id = _text(row.get("match_id"))
        candidates.append(f"{row['position_id']}:{match_id}" if match_id else _text(row["position_id"]))
    if _text(row.get("input")):
        candidates.append(_text(row["input"]))
    if _text(row.get("position")):
        candidates.append(_text(row["position"]))
    last_error: Exception | None = None
    for text in candidates:
        try:
            return parse_situation(text)
        except BgcliError as exc:
            last_error = exc
    if last_error is not None:
        raise last_error
    raise StudyError("the row names no position (no xgid, position_id or input)")


def _entries_from_rows(rows: list[dict], source: str) -> list[ReportEntry]:
    if rows and not any(k in rows[0] for k in ("position_id", "xgid", "input")):
        raise StudyError(f"not a batch result (no position_id, xgid or input column): {source!r}")
    entries = []
    for number, row in enumerate(rows, start=1):
        row = dict(row)
        label = f"{source} row {number}"
        if not _text(row.get("id")):
            row["id"] = str(number)
        situation = None
        if not _text(row.get("error")):
            try:
                situation = _situation_of(row)
            except BgcliError as exc:
                row["error"] = str(exc)
        entries.append(ReportEntry(row, situation, label=label))
    return entries


def _entries_from_collection(path: Path) -> list[ReportEntry]:
    """A collection, read with ``bgcli.collections`` (CSV with a position column, or a plain
    list whose trailing comments become notes)."""
    from ..collections import EntryError, read_collection
    from ..notation.detect import parse_situation

    entries = []
    for item in read_collection(path):
        if isinstance(item, EntryError):
            entries.append(ReportEntry({"id": item.label, "error": item.message}, label=item.label))
            continue
        row = {"id": item.id, "name": item.name, "input": item.position, "notes": item.notes}
        situation = None
        try:
            situation = parse_situation(item.position)
            row.update(position_id=situation.position_id, match_id=situation.match_id,
                       xgid=situation.xgid)
        except BgcliError as exc:
            row["error"] = str(exc)
        entries.append(ReportEntry(row, situation, label=item.label))
    return entries


# ============================================================================ analysing

def race_row(situation) -> dict:
    """The race metrics of ``bgcli pips -f json`` (floats to 4 decimals, as it prints them)."""
    from ..analysis import pips_values

    return pips_values(situation.position)


Progress = Callable[[int, int], None]  # games done, games in all


def rollout_games(position, settings, progress: Progress | None = None):
    """Roll ``position`` out with ``bgcli.rollout.rollout`` (same games, same numbers) and
    keep every game: returns ``(RolloutResult, per-game equities)``. ``settings.stop_se`` is
    not supported here (all ``settings.trials`` games are played)."""
    from ..analysis import roll_out

    settings = replace(settings.with_seed(), stop_se=None)
    report = None if progress is None else (lambda done, total, *_: progress(done, total))
    # Ctrl-C raises: a report of part of the games is not what was asked for
    result = roll_out(position, settings, report)
    return result, result.values @ EQUITY_WEIGHTS - 1.0


def settings_from_row(row: dict, **overrides):
    """The ``RolloutSettings`` a rollout row records (its seed included)."""
    from ..rollout import RolloutSettings

    def flag(value) -> bool:
        return str(value).strip().lower() in ("true", "1", "yes")

    values = {
        "trials": exact_int(row["trials"]),
        "seed": exact_int(row["seed"]),
        "policy": _text(row.get("policy")) or "heuristic",
        "truncate": exact_int(row.get("truncate") or 0),
        "variance_reduction": flag(row.get("variance_reduction", True)),
        "quasi_random": flag(row.get("quasi_random", True)),
        # rows from before bear-off truncation existed played every game out
        "bearoff_truncation": flag(row.get("bearoff_truncation", False)),
        "initial": flag(row.get("initial", False)),
    }
    values.update(overrides)
    return RolloutSettings(**values)


def replay_games(entry: ReportEntry, threads: int | None = None,
                 progress: Progress | None = None) -> np.ndarray:
    """The per-game equities of an entry's rollout, replayed from its seed and settings (the
    games it reports: a stopped or interrupted rollout's first ``games``)."""
    row = entry.row
    if entry.situation is None or not entry.has_rollout:
        raise StudyError(f"no rollout to replay for {entry.id or 'this row'}")
    if not _is_number(row.get("seed")) or not _is_number(row.get("trials")):
        raise StudyError(f"the rollout row of {entry.id} has no seed or trial count to replay")
    games = exact_int(row.get("games") or row["trials"])
    settings = settings_from_row(row, trials=games, threads=threads)
    _, equities = rollout_games(entry.situation.position, settings, progress)
    return equities


def decision_row(entry: ReportEntry, policy: str, plies: int = 1,
                 move_filter: str | None = None) -> dict:
    """The decision columns of ``bgcli batch`` for an entry (``bgcli.columns.DECISION_COLUMNS``
    less the option it records): the cube action from the entry's rollout rates when it has
    them, else from the evaluator (``policy`` at ``plies``), null after the roll; the
    evaluator's best play for the position's rolled dice, null without."""
    from ..analysis import decision_values, evaluator_rates, recorded_rates

    if entry.has_rollout:
        policy = _text(entry.row.get("policy")) or policy
        rates = recorded_rates(entry.row)
    else:
        rates = evaluator_rates(entry.situation, policy, plies)
    return decision_values(entry.situation, rates, policy, plies, move_filter=move_filter)


def analyse(entries: list[ReportEntry], settings, master_seed: int, rollouts: bool = True,
            on_done: Callable[[int, ReportEntry], None] | None = None,
            progress: Callable[[int, ReportEntry, int, int], None] | None = None,
            decisions: bool = True, plies: int = 1,
            move_filter: str | None = None) -> list[ReportEntry]:
    """Fill in what each entry lacks: race metrics always, a rollout (kept per game) when
    ``rollouts``, then the decision columns when ``decisions`` (``decision_row``, the
    evaluator being ``settings.policy`` at ``plies``); ``on_done`` hears of each entry rolled out here or
    failing here. Seeds are ``bgcli batch``'s: each position's is derived from ``master_seed``
    and its IDs, so the rows equal ``bgcli batch``'s for the same settings. Unreadable net
    weights (``$BGCLI_WEIGHTS``) raise ``BgcliError`` once, before any entry."""
    from ..analysis import position_seed
    from ..evaluation import policy_net

    if rollouts or decisions:
        policy_net(settings.policy)
    for index, entry in enumerate(entries):
        if entry.situation is None or entry.error:
            continue
        row = entry.row
        row.setdefault("position_id", entry.situation.position_id)
        row.setdefault("match_id", entry.situation.match_id)
        row.setdefault("xgid", entry.situation.xgid)
        worked = False
        try:
            if not entry.has_race:
                row.update(race_row(entry.situation))
            if rollouts and not entry.has_rollout:
                worked = True
                seed = position_seed(master_seed, row["position_id"], row["match_id"])
                report = (None if progress is None else
                          lambda done, total, i=index, e=entry: progress(i, e, done, total))
                result, equities = rollout_games(entry.situation.position,
                                                 replace(settings, seed=seed), report)
                values = result.row()
                values.pop("position_id")
                row.update(values)
                row.update(master_seed=master_seed, seed=seed)
                entry.games = equities
            if decisions and not entry.has_decisions:
                row.update(decision_row(entry, settings.policy, plies, move_filter))
        except BgcliError as exc:
            row["error"] = str(exc)
            worked = True
        if on_done is not None and worked:
            on_done(index, entry)
    return entries
