"""bgcli from Python: the analyses of ``bgcli batch`` as functions that return DataFrames.

Each function takes positions and returns a pandas DataFrame with one row per position and
the columns of ``bgcli batch`` (``bgcli.columns``), in the same order and with the same
values: the rows come from the same code (``bgcli.batch.run_batch`` and
``bgcli.analysis.analyse``), seeded the same way, so ``bgcli.analyse(...)`` equals the batch
file ``bgcli batch`` writes for the same positions and settings (``elapsed_seconds`` aside).

Positions may be given as

* one position (a string in any notation bgcli reads) or a list of them: ids ``"1"``,
  ``"2"``, ... in order;
* a pandas Series of them: the index gives the ids;
* a DataFrame with a ``position`` column (``id`` and ``name`` columns optional, as in a CSV
  collection): ids from its ``id`` column, else its index.

Bad positions (ones that do not parse or cannot occur): with ``errors="raise"`` (the default)
a ``bgcli.BgcliError`` names the first one and why; with ``errors="skip"`` their rows are
left out and ``frame.attrs["errors"]`` lists them as ``{"id": ..., "error": ...}``.

Column types: ``str`` columns hold Python strings (None where null), ``int`` columns pandas'
nullable ``Int64``, ``float`` columns ``float64`` (NaN where null), ``bool`` columns pandas'
nullable ``boolean``. ``read_batch(path)`` reads a file of ``bgcli batch`` into the same
types.

Example (docs/api.md has it with its output)::

    import pandas as pd
    import bgcli

    positions = pd.Series({"opening": "4HPwATDgc/ABMA", "race": "OJ+bAQDYnucAAA"})
    frame = bgcli.analyse(positions, rollout=bgcli.RolloutSettings(trials=1296),
                          master_seed=1, dice="31")
    frame[["id", "pips_on_roll", "equity", "equity_se", "cube_action", "best_play"]]

    # the same numbers as:  bgcli batch FILE --rollout --trials 1296 --master-seed 1 --dice 31
    bgcli.pips(["OJ+bAQDYnucAAA"])[["pips_on_roll", "pips_opponent", "keith_action"]]

Importing this module imports pandas; numba is imported at the first analysis.
"""

from __future__ import annotations

from typing import Iterable

import pandas as pd

from . import search
from .analysis import AnalysisPlan, race_values
from .collections import Entry
from .columns import BEAROFF_COLUMNS, ID_COLUMNS, RACE_COLUMNS
from .errors import BgcliError
from .rollout import RolloutSettings, draw_seed

__all__ = ["analyse", "rollouts", "pips", "read_batch", "RolloutSettings"]

ERRORS = ("raise", "skip")
# pandas dtypes for the column types of bgcli.columns: nullable, as rows hold nulls
_DTYPES = {"str": object, "int": "Int64", "float": "float64", "bool": "boolean"}


def analyse(positions, rollout: RolloutSettings | None = None, *,
            master_seed: int | None = None, policy: str = "net",
            dice: str | tuple[int, int] | None = None, plies: int = 1,
            move_filter: str | None = None, errors: str = "raise") -> pd.DataFrame:
    """What ``bgcli batch`` gives for ``positions``, as a DataFrame (see the module docstring).

    ``rollout``: roll every position out with these settings (their ``seed`` is ignored: each
    position's derives from ``master_seed`` and the position, as in ``bgcli batch``);
    None: race metrics and the evaluator's decisions only. ``master_seed``: drawn at random
    (and kept in the ``master_seed`` column) if None. ``policy``: the evaluator without a
    rollout (with one, the rollout's policy is). ``dice``: a roll (``"31"`` or ``(3, 1)``)
    whose best play is wanted for positions that have none rolled. ``plies``: the
    evaluator's lookahead, 0 to 3, and ``move_filter`` the move filter that ranks the
    plays (``bgcli.search``: a preset's name or stages; None: gnubg's normal). ``errors``: "raise" or "skip" (see the module docstring).
    """
    plan = _plan(rollout, master_seed, policy, dice, plies, move_filter)
    return _frame(_rows(_entries(positions), plan, errors), plan.column_types())


def rollouts(positions, trials: int = 1296, *, master_seed: int | None = None,
             errors: str = "raise", **settings) -> pd.DataFrame:
    """``analyse`` with a rollout of ``trials`` games a position; other keyword arguments are
    ``RolloutSettings``' (``policy``, ``truncate``, ``variance_reduction``, ``stop_se``, ...)."""
    return analyse(positions, RolloutSettings(trials=trials, **settings),
                   master_seed=master_seed, errors=errors)


def pips(positions, errors: str = "raise") -> pd.DataFrame:
    """The ID, race and bear-off columns of ``analyse``, without the evaluator: the pip counts
    and race metrics of ``bgcli pips``, fast (no rollout, no net)."""
    from .notation.detect import parse_situation

    _check_errors(errors)
    rows, failures = [], []
    for entry in _entries(positions):
        try:
            situation = parse_situation(entry.position)
        except BgcliError as exc:
            _failed(entry, str(exc), errors, failures)
            continue
        rows.append({"id": entry.id, "name": entry.name, "input": entry.position,
                     "position_id": situation.position_id, "match_id": situation.match_id,
                     "xgid": situation.xgid} | race_values(situation.position))
    frame = _frame(rows, ID_COLUMNS + RACE_COLUMNS + BEAROFF_COLUMNS)
    frame.attrs["errors"] = failures
    return frame


def read_batch(path) -> pd.DataFrame:
    """A file ``bgcli batch`` wrote (.csv, .jsonl or .parquet) as the DataFrame ``analyse``
    returns for the same rows."""
    from pathlib import Path

    from .batch import format_for

    path = Path(path)
    fmt = format_for(path)
    if fmt == "parquet":
        frame = pd.read_parquet(path)
    elif fmt == "jsonl":
        frame = pd.read_json(path, lines=True, dtype=False)
    elif fmt == "csv":
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
    else:
        raise BgcliError(f"not a bgcli batch file (.csv, .jsonl or .parquet): {str(path)!r}")
    from .columns import column_types

    types = dict(column_types(with_rollout=True))
    return _typed(frame, [(name, types.get(name, "str")) for name in frame.columns])


# ---------------------------------------------------------------------------- pieces


def _plan(rollout, master_seed, policy, dice, plies, move_filter=None) -> AnalysisPlan:
    """The plan ``bgcli batch`` would make of the same options; bad ones raise BgcliError."""
    roll = _dice(dice)
    settings = rollout if rollout is not None else RolloutSettings(policy=policy)
    problems = settings.problems()
    if plies not in search.PLIES:
        problems.append(f"plies must be 0, 1, 2 or 3, not {plies!r}")
    if problems:
        raise BgcliError("; ".join(problems))
    if master_seed is None:
        master_seed = draw_seed() if rollout is not None else 0
    return AnalysisPlan(rollout=rollout, master_seed=master_seed if rollout is not None else 0,
                        policy=settings.policy, dice=roll, plies=plies,
                        move_filter=search.move_filter(move_filter).name)


def _dice(dice) -> tuple[int, int] | None:
    if dice is None:
        return None
    if isinstance(dice, str):
        from .notation.dice import parse_dice

        dice = parse_dice(dice)
    return (max(dice), min(dice))


def _entries(positions) -> list[Entry]:
    """The positions as collection entries, with the ids the module docstring gives."""
    if isinstance(positions, str):
        positions = [positions]
    if isinstance(positions, pd.DataFrame):
        if "position" not in positions.columns:
            raise BgcliError("a DataFrame of positions needs a 'position' column")
        ids = positions["id"] if "id" in positions.columns else positions.index
        names = positions["name"] if "name" in positions.columns else [""] * len(positions)
        texts: Iterable = positions["position"]
    elif isinstance(positions, pd.Series):
        ids, names, texts = positions.index, [""] * len(positions), positions
    else:
        texts = list(positions)
        ids, names = range(1, len(texts) + 1), [""] * len(texts)
    return [Entry(id=str(ident), name="" if pd.isna(name) else str(name),
                  position=_position_text(text), notes="", label=f"position {ident}")
            for ident, name, text in zip(ids, names, texts)]


def _position_text(text) -> str:
    if not isinstance(text, str):
        raise BgcliError(f"a position is a string, not {text!r}")
    return text.strip()


def _check_errors(errors: str) -> None:
    if errors not in ERRORS:
        raise BgcliError(f"errors must be one of {', '.join(ERRORS)}, not {errors!r}")


def _failed(entry: Entry, message: str, errors: str, failures: list) -> None:
    if errors == "raise":
        raise BgcliError(f"{entry.label} ({entry.position!r}): {message}")
    failures.append({"id": entry.id, "error": message})


class _Rows(list):
    """Rows, and the positions that failed (``errors="skip"``)."""

    failures: list


def _rows(entries: list[Entry], plan: AnalysisPlan, errors: str) -> _Rows:
    """The rows of ``entries``, computed as ``bgcli batch`` computes them (one at a time)."""
    from .batch import run_batch
    from .evaluation import policy_net

    _check_errors(errors)
    policy_net(plan.evaluator_policy)  # unreadable $BGCLI_WEIGHTS: one error, not one a row
    rows = _Rows()
    rows.failures = []
    for outcome in run_batch(entries, plan):
        if outcome.error is not None:
            _failed(outcome.entry, outcome.error, errors, rows.failures)
        else:
            rows.append(outcome.row)
    return rows


def _frame(rows: list[dict], types: list[tuple[str, str]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[name for name, _ in types])
    frame = _typed(frame, types)
    frame.attrs["errors"] = getattr(rows, "failures", [])
    return frame


def _typed(frame: pd.DataFrame, types: list[tuple[str, str]]) -> pd.DataFrame:
    """``frame`` with the pandas dtype of each column's type; text cells of a CSV converted."""
    for name, kind in types:
        column = frame[name]
        if kind == "bool" and not pd.api.types.is_bool_dtype(column):
            column = column.map(_bool_cell).astype(object)
        elif kind in ("int", "float") and not pd.api.types.is_numeric_dtype(column):
            column = pd.to_numeric(column.map(_null_cell).astype(object))
        elif kind == "str":
            column = column.map(_null_cell).astype(object)
            column = column.where(column.notna(), None)
        frame[name] = column.astype(_DTYPES[kind])
    return frame


def _null_cell(value):
    if value is None or value == "" or (isinstance(value, float) and value != value):
        return None
    return value


def _bool_cell(value):
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.strip().lower())
    return _null_cell(value)
