"""Where bgcli keeps what it computes once and reuses (the bear-off tables; the numba kernels
could too): one resolver, so every cache follows the same rule.

``cache_dirs()`` lists the candidate folders, best first: ``$XDG_CACHE_HOME/bgcli`` when set,
``~/.cache/bgcli``, then ``bgcli-cache`` in the system's temporary directory (a machine
whose home is read-only still caches). A caller writes to the first that takes the file and
reads from the first that has it. Imports only the standard library.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_dirs() -> list[Path]:
    """The folders a cache may live in, best first (see the module docstring)."""
    dirs = []
    if os.environ.get("XDG_CACHE_HOME"):
        dirs.append(Path(os.environ["XDG_CACHE_HOME"]) / "bgcli")
    dirs.append(Path.home() / ".cache" / "bgcli")
    dirs.append(Path(tempfile.gettempdir()) / "bgcli-cache")
    return dirs
