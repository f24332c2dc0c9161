"""The one progress display of the commands, on stderr (stdout carries only data): a live
rich bar on a terminal, otherwise a line now and then (every ``every`` seconds), so a log
file gets a trace without a line per game."""

from __future__ import annotations

import sys
import time

import typer

LINE_EVERY = 10.0  # seconds between two progress lines when stderr is not a terminal


class Progress:
    """A bar of ``total`` steps (None: unknown) labelled ``description``. ``update`` moves it
    and, off a terminal, writes the line it is given at most every ``every`` seconds (or at
    once with ``force``); ``message`` prints a line above the bar so the bar is not torn."""

    def __init__(self, description: str, total: int | None, every: float = LINE_EVERY):
        self.every = every
        self.last_line = time.monotonic()
        self.bar = None
        if sys.stderr.isatty():
            import rich.console
            import rich.progress

            self.console = rich.console.Console(stderr=True)
            self.bar = rich.progress.Progress(
                rich.progress.TextColumn("{task.description}"),
                rich.progress.BarColumn(bar_width=24),
                rich.progress.MofNCompleteColumn(),
                rich.progress.TimeElapsedColumn(),
                rich.progress.TextColumn("{task.fields[status]}"),
                console=self.console, transient=True)
            self.task = self.bar.add_task(description, total=total, status="")
            self.bar.start()

    @property
    def live(self) -> bool:
        """Whether a live bar is shown (stderr is a terminal)."""
        return self.bar is not None

    def update(self, completed: int | None = None, status: str = "", line: str | None = None,
               force: bool = False) -> None:
        if self.bar is not None:
            fields = {"status": status} if completed is None else {"completed": completed,
                                                                   "status": status}
            self.bar.update(self.task, **fields)
        elif line is not None and (force or time.monotonic() - self.last_line >= self.every):
            self.last_line = time.monotonic()
            typer.echo(line, err=True)

    def restart(self, description: str, total: int | None) -> None:
        """The bar again from 0, for the next piece of work (another position's games)."""
        if self.bar is not None:
            self.bar.reset(self.task, total=total, description=description, status="")

    def message(self, line: str) -> None:
        if self.bar is not None:
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            typer.echo(line, err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
