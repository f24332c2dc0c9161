"""One writer per output: an output's lock file (``OutputLock``), and the check, before any
work, that an output can be written at all (``check_output_path``)."""

from __future__ import annotations

import contextlib
import glob
import os
from pathlib import Path
from typing import IO

from ..errors import OutputError
from .layout import journal_path, parquet_temporary


def lock_path(path: Path) -> Path:
    """The lock file of an output: held by the one bgcli batch writing it."""
    return path.with_name(path.name + ".lock")


def _side_files(path: Path, fmt: str) -> list[Path]:
    """The files a batch creates beside its output."""
    files = [lock_path(path)]
    if fmt == "parquet":
        files += [journal_path(path), parquet_temporary(path)]
    return files


def check_output_path(path: Path, fmt: str) -> None:
    """Raise ``OutputError`` now, before anything is computed, for an output that cannot be
    written: a directory, a name too long for its file system (its lock file and, for
    Parquet, its journal included)."""
    folder = path.parent
    try:
        longest = os.pathconf(folder if folder.is_dir() else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    for name in [path.name] + [side.name for side in _side_files(path, fmt)]:
        if len(os.fsencode(name)) > longest:
            beside = "" if name == path.name else f", with {name[len(path.name):]!r} beside it"
            raise OutputError(f"cannot write this file (its name is too long{beside}: "
                              f"{longest} bytes at most here): {str(path)!r}")
    try:
        is_dir = path.is_dir()
    except OSError as exc:  # a folder name too long, a loop of links
        raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(path)!r}") from None
    if is_dir:
        raise OutputError(f"cannot write this file (it is a directory): {str(path)!r}")


class OutputLock:
    """An exclusive ``flock`` on ``OUT.lock`` for as long as a batch writes OUT, so a second
    bgcli batch on the same output (``--resume`` or ``--overwrite`` while the first runs) is
    refused instead of duplicating rows, garbling lines or dropping a Parquet journal. The
    kernel releases the lock when the process ends, SIGKILL included, so a killed run never
    leaves a stale lock behind (only a harmless file, taken over by the next run)."""

    def __init__(self, path: Path):
        self.path = lock_path(path)
        self.output = path
        self.handle: IO[str] | None = None

    def __enter__(self) -> "OutputLock":
        self.acquire()
        return self

    def __exit__(self, *exc_info) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock, or raise ``OutputError`` (another run holds it, or no file can be
        made beside the output: a read-only or missing folder)."""
        while self.handle is None:
            self.handle = self._try_lock()
        with contextlib.suppress(OSError):  # the pid only helps the message of a second run
            self.handle.truncate(0)
            self.handle.write(f"{os.getpid()}\n")
            self.handle.flush()
        # a run killed while it wrote the Parquet file left it half-written; none is being
        # written now (that run would hold the lock)
        for stale in self.output.parent.glob(f".{glob.escape(self.output.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()

    def _try_lock(self) -> IO[str] | None:
        """The lock file, open and locked; None if the run before removed it meanwhile."""
        import fcntl

        try:
            handle = open(self.path, "a+", encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"cannot write this file ({exc.strerror or exc}): {str(self.output)!r}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise OutputError(f"{str(self.output)!r} is being written by another bgcli batch "
                              f"(pid {holder}); wait for it to end, or write to another "
                              "file") from None
        except OSError as exc:  # a file system without locks (some network ones)
            handle.close()
            raise OutputError(f"cannot lock {str(self.path)!r} to write {str(self.output)!r} "
                              f"alone: {exc.strerror or exc}; write to a local disk") from None
        if self._same_file(handle):
            return handle
        handle.close()  # locked a file no longer there: lock the one there now
        return None

    def _same_file(self, handle) -> bool:
        try:
            return os.stat(self.path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            return False

    def release(self) -> None:
        # removed while still locked, so a run waiting on this file sees it is gone (above)
        with contextlib.suppress(OSError):
            self.path.unlink()
        self.handle.close()
        self.handle = None

