"""Batches: a collection of positions in, one tidy row per position out, streamed to a file.

``run_batch`` takes the entries of a collection (``bgcli.collections``) and yields one
``Outcome`` per entry as each position completes: its row, or why it failed, or that it was
skipped because an earlier run already wrote it. ``open_output`` writes rows to CSV, JSON
lines or Parquet as they come, so a killed run loses at most the positions in flight.

What a row holds, and how each position is analysed and seeded, is ``bgcli.analysis``'s (the
columns are ``bgcli.columns``'): a batch only schedules the analyses and writes the rows.
Values are plain: a number that is not finite (a standard error after one game, Kleinman's K
at the end of a race) is written as null. ``dice_option`` records the batch's ``dice``
option, so ``--resume`` refuses a run with other settings.

Where positions run. By default one at a time in this process: the rollout kernel already
uses every core, and race metrics and the evaluator's decisions take about a millisecond
(single-threaded kernels that release the GIL). With a client from ``connect(ADDRESS)`` they
go to a ``dask.distributed`` cluster instead (``bgcli.batch.cluster``); rows then arrive in
the order they finish rather than collection order, with the same values.

The package, a module a job:

* ``outcomes``: ``Outcome``, and the analysis of an entry that yields it;
* ``run``: ``run_batch``, the entries in, their outcomes out, here or on a cluster;
* ``cluster``: ``connect`` to a Dask cluster and run the entries there;
* ``resume``: ``read_done`` and ``check_resumable``, for ``--resume``;
* ``writers``: ``open_output``, the CSV, JSON lines and Parquet writers;
* ``lock``: ``OutputLock`` and ``check_output_path``, one writer per output.

It imports the standard library and bgcli's pure modules; numba (through ``bgcli.rollout``
and ``bgcli.evaluation``), pyarrow and dask are imported only when a batch needs them.
"""

from __future__ import annotations

from ..analysis import (NO_PLAY, AnalysisPlan, GamesProgress, analyse, best_play_values,
                        columns, cube_values, position_seed, roll_for)
from ..columns import (BEAROFF_COLUMNS, CUBE_COLUMNS, DECISION_COLUMNS, ID_COLUMNS,
                       PLAY_COLUMNS, RACE_COLUMNS, ROLLOUT_COLUMNS, TAIL_COLUMNS)
from .cluster import CLUSTER_TIMEOUT, connect
from .lock import OutputLock, check_output_path, lock_path
from .outcomes import Outcome
from .resume import Done, check_resumable, read_done
from .run import run_batch
from .layout import FORMATS, format_for, journal_path
from .writers import open_output

# the name scripts and tests know the plan by
BatchPlan = AnalysisPlan

__all__ = [
    "FORMATS", "AnalysisPlan", "BatchPlan", "Outcome", "Done", "GamesProgress", "analyse",
    "columns", "position_seed", "format_for", "connect", "run_batch", "read_done",
    "check_resumable", "open_output", "journal_path", "lock_path", "OutputLock",
    "check_output_path", "CLUSTER_TIMEOUT", "NO_PLAY", "ID_COLUMNS", "RACE_COLUMNS",
    "BEAROFF_COLUMNS", "ROLLOUT_COLUMNS", "CUBE_COLUMNS", "PLAY_COLUMNS", "DECISION_COLUMNS",
    "TAIL_COLUMNS", "cube_values", "best_play_values", "roll_for",
]
