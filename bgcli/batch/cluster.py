"""Running a batch on a ``dask.distributed`` cluster: connecting to it (every worker checked
to run this bgcli with the same net weights) and handing it the entries, a few at a time.
dask is imported only here, and only when a batch runs on a cluster."""

from __future__ import annotations

import contextlib
import math
import time
import uuid
from typing import Iterator

from .. import __version__
from ..analysis import AnalysisPlan
from ..collections import Entry
from ..errors import ClusterError
from .outcomes import Outcome, analyse_chunk

# seconds a Dask batch waits on a cluster without any worker (all lost, none started yet)
# before it gives up: long enough for a nanny or a job scheduler to start one again
CLUSTER_TIMEOUT = 60.0


def _worker_identity() -> tuple[str, str]:
    """The bgcli version and net weights (``bgcli.net.net_id``) a worker computes with."""
    from ..net import net_id

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
        from ..net import WEIGHTS_ENV, net_id

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


def dask_outcomes(pending: Iterator[Entry | Outcome], plan: AnalysisPlan, client,
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
            future = client.submit(analyse_chunk, entries, plan, key=key, pure=False)
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

