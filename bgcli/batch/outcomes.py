"""What became of one entry of a batch (``Outcome``), and the analysis that yields it: the
one place a batch calls ``bgcli.analysis.analyse``, here or in a Dask task."""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis import AnalysisPlan, GamesProgress, analyse
from ..collections import Entry
from ..errors import BgcliError


@dataclass
class Outcome:
    """What became of one entry: a row, an error, or skipped (already in the output)."""

    label: str
    entry: Entry | None = None
    row: dict | None = None
    error: str | None = None
    skipped: bool = False


def attempt(entry: Entry, plan: AnalysisPlan, progress: GamesProgress | None = None) -> Outcome:
    try:
        return Outcome(entry.label, entry, row=analyse(entry, plan, progress))
    except BgcliError as exc:
        return Outcome(entry.label, entry, error=str(exc))
    except Exception as exc:  # a bug must not sink the rest of the batch; it is reported
        return Outcome(entry.label, entry, error=f"internal error: {type(exc).__name__}: {exc}")



def analyse_chunk(chunk: list[Entry], plan: AnalysisPlan) -> list[Outcome]:
    """A Dask task: the outcomes of a few entries."""
    return [attempt(entry, plan) for entry in chunk]

