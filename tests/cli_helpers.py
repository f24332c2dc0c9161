"""Running the command line in-process, for the tests of every command."""

from __future__ import annotations

import contextlib
import subprocess

from bgcli.cli.app import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``bgcli argv`` through the real entry point; return (exit code, stdout, stderr)."""
    code = 0
    try:
        main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


@contextlib.contextmanager
def reaped(process: subprocess.Popen):
    """Whatever happens inside, the process (started with ``stderr=PIPE``) is gone after."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stderr.close()


def stop(process: subprocess.Popen, signum: int, timeout: float = 60) -> str:
    """Send ``signum``, wait for the process to exit; the rest of its stderr."""
    process.send_signal(signum)
    process.wait(timeout=timeout)
    return process.stderr.read()
