"""Running a batch: one ``Outcome`` per entry of a collection, as each completes, here or
on a Dask cluster (``bgcli.batch.cluster``)."""

from __future__ import annotations

from typing import Iterable, Iterator

from ..analysis import AnalysisPlan, GamesProgress
from ..collections import Entry, EntryError, until_broken
from ..errors import BgcliError
from .cluster import CLUSTER_TIMEOUT, dask_outcomes
from .outcomes import Outcome, attempt


def _pending(items: Iterable[Entry | EntryError], done: frozenset | set
             ) -> Iterator[Entry | Outcome]:
    """Entries still to compute; rows that are not entries, and entries whose (id,
    position_id) is in ``done``, come out as finished outcomes. A collection that breaks off
    part-way (a quote never closed) ends with a failed outcome where it broke."""
    from ..notation.detect import parse_situation

    for item in until_broken(items):
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


def run_batch(items: Iterable[Entry | EntryError], plan: AnalysisPlan, *,
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
            yield item if isinstance(item, Outcome) else attempt(item, plan, games_progress)
    else:
        yield from dask_outcomes(pending, plan, client, cluster_timeout)


