"""Running the command line in-process, for the tests of every command."""

from __future__ import annotations

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
