"""GNU Backgammon in text mode on a pseudo-terminal, for the scripts that drive it.

gnubg prints rollout results only to a terminal (on a pipe it says "Rollout done. Printing
final results." and stops), so the benchmark and fixture scripts run it under ``pty``.
"""

from __future__ import annotations

import os
import pty
import re
import select
import time


class GnubgSession:
    """A gnubg text-mode process on a pseudo-terminal, driven command by command."""

    def __init__(self, path: str):
        env = dict(os.environ, LC_ALL="C", LANG="C")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # child
            os.execve(path, [path, "-t", "-q", "-r"], env)
        self.buffer = ""

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def read_until(self, pattern: str, timeout: float) -> str:
        """Read until ``pattern`` (a regex) matches the text read since the last call."""
        deadline = time.monotonic() + timeout
        while True:
            match = re.search(pattern, self.buffer, re.S)
            if match:
                text, self.buffer = self.buffer[:match.end()], self.buffer[match.end():]
                return text
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"gnubg: no {pattern!r} within {timeout:.0f} s; last output:\n"
                                   f"{self.buffer[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:  # the child closed the terminal
                    data = b""
                if not data:
                    raise RuntimeError(f"gnubg exited; last output:\n{self.buffer[-2000:]}")
                self.buffer += data.decode(errors="replace").replace("\r", "")

    def close(self) -> None:
        try:
            self.send("quit\ny\n")
            time.sleep(0.2)
        except OSError:
            pass
        try:
            os.kill(self.pid, 15)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)
