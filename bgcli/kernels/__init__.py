"""The only modules that import numba. Kernels take arrays and scalars, never user objects;
a rollout's or a training run's scalars travel as one NamedTuple record
(``playout.PlayoutSettings``, ``selfplay.SelfPlaySettings``). Nothing here imports bgcli
outside this package (``tests/test_imports.py``): the Python layer loads and converts.

numba's on-disk cache (``cache=True``) only notices changes to the file that defines a
function, not to the kernels it calls from other files: a cached playout would go on using an
old evaluator. So the cache lives in a folder named by a hash of every kernel source: any
change to any kernel starts a fresh cache. The folder is under ``$NUMBA_CACHE_DIR`` when set,
else ``$XDG_CACHE_HOME/bgcli/numba`` (``~/.cache/bgcli/numba``), else a temporary folder.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


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
    user_cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    bases = [os.environ.get("NUMBA_CACHE_DIR"), os.path.join(user_cache, "bgcli", "numba"),
             os.path.join(tempfile.gettempdir(), "bgcli-numba")]
    for base in filter(None, bases):
        folder = os.path.join(base, digest.hexdigest())
        if _writable(folder):
            return folder
    return ""  # nowhere to write: numba then compiles in memory each run


def _configure_numba_cache() -> None:
    import numba

    numba.config.CACHE_DIR = kernel_cache_dir()


_configure_numba_cache()
