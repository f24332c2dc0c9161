"""The process entry point (the ``bgcli`` script, ``python -m bgcli``): ``app.main`` in a
process set up to end when its one command is done.

Importing numba and loading a first kernel builds some 100,000 objects (typing tables, the
typer app) that live until the process exits. With Python's default thresholds the collector
walks them again and again while they are built (two full collections), and at exit it walks
and frees them all, before the system takes the memory back anyway: 0.3 s of a 1-second
command. In-process callers (the tests) call ``app.main``, which leaves the collector alone.

numpy's OpenBLAS starts a thread for every core when numpy is imported (0.05 s here, more on a
loaded machine). The command line has no use for them: its matrix products are a few
elements long and the kernels are numba loops. So the process asks for one thread, before
anything imports numpy (``bgcli/__init__`` does not); a value set in the environment wins.
"""

from __future__ import annotations

import gc
import os

#: The collector's first threshold (Python's default: 700 objects), set before the command
#: line is imported: a single-position command builds fewer objects than this, so the
#: collector does not run at start-up; a long command still collects its cyclic garbage,
#: at most this many objects late.
GC_THRESHOLD = 200_000


def run() -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    from .app import main

    try:
        main()
    finally:
        # Frozen objects are left out of the collection at exit. atexit handlers still run,
        # and the commands have closed their files (with-blocks): nothing is lost.
        gc.freeze()
