"""The only modules that import numba. Kernels take arrays and scalars, never user objects;
a rollout's or a training run's scalars travel as one NamedTuple record
(``playout.PlayoutSettings``, ``selfplay.SelfPlaySettings``). Nothing here imports bgcli
outside this package (``tests/test_imports.py``): the Python layer loads and converts.

numba's on-disk cache (``cache=True``) only notices changes to the file that defines a
function, not to the kernels it calls from other files: a cached playout would go on using an
old evaluator. So the cache lives in a folder named by a hash of every kernel source: any
change to any kernel starts a fresh cache. The folder is under ``$NUMBA_CACHE_DIR`` when set,
else ``numba/`` in bgcli's cache folder (``bgcli.cache``: ``~/.cache/bgcli/numba`` and its
fallbacks; a module of the standard library only, as every module a kernel may import from
outside this package).

numba reads a kernel's cache index, adds an entry and writes it back without a lock: two
processes compiling at once (the first runs of a parallel shell loop) can give their new
entries the same data file, and the index then points one kernel at the other's machine
code, a segfault at every later run (numba issues 4807 and 10128; it happened here).
``_lock_cache_saves`` makes each save hold an exclusive lock on the cache folder.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ..cache import cache_dirs


def _writable(folder: str) -> bool:
    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def kernel_cache_dir() -> str:
    """Where numba caches the kernels of this exact source (see the module docstring)."""
    digest = hashlib.blake2b(digest_size=8)
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    bases = [os.environ.get("NUMBA_CACHE_DIR")] + [str(d / "numba") for d in cache_dirs()]
    for base in filter(None, bases):
        folder = os.path.join(base, digest.hexdigest())
        if _writable(folder):
            return folder
    return ""  # nowhere to write: numba then compiles in memory each run


def _configure_numba_cache() -> None:
    import numba

    numba.config.CACHE_DIR = kernel_cache_dir()
    _lock_cache_saves()


def _lock_cache_saves() -> None:
    """Make numba's cache saves (read the index, pick a data file, write both) one at a time
    across processes: an exclusive ``flock`` on ``.save.lock`` in the cache folder for each
    (see the module docstring). Where ``fcntl`` is missing (Windows) saves stay unlocked."""
    try:
        import fcntl
    except ImportError:
        return
    from numba.core.caching import IndexDataCacheFile

    unlocked = IndexDataCacheFile.save
    if getattr(unlocked, "locked_by_bgcli", False):
        return

    def save(self, key, data):
        with open(os.path.join(self._cache_path, ".save.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            unlocked(self, key, data)

    save.locked_by_bgcli = True
    IndexDataCacheFile.save = save


_configure_numba_cache()
