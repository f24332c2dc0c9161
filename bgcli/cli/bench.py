"""The bench command: bgcli's benchmarks side by side with gnubg (``bgcli.bench``)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import app, check_writable


@app.command("bench")
def bench(
    part: Optional[List[str]] = typer.Option(
        None, "--part", "-p", help="A part to run (movegen, startup, rollout, scaling); "
        "repeat it for several. Default: all four."),
    json_file: Optional[Path] = typer.Option(
        None, "--json", help="Write the record of every part here (docs/benchmarks.md quotes "
        "such records)."),
    quick: bool = typer.Option(False, "--quick", help="Smaller samples: minutes, not half an "
                               "hour; rougher figures."),
    gnubg: str = typer.Option("/usr/games/gnubg", "--gnubg",
                              help="GNU Backgammon's binary; rollouts run without it when it "
                              "is missing."),
) -> None:
    """Benchmark move generation, start-up, rollouts (against GNU Backgammon when installed)
    and thread scaling; print each part's figures and ratios, and with --json write the
    record. The full run takes about half an hour on two cores; measure on a quiet machine.

    Example:  bgcli bench --part movegen --part startup --json bench.json
    """
    from ..bench import PARTS, run, write

    parts = part or list(PARTS)
    for name in parts:
        if name not in PARTS:
            raise typer.BadParameter(f"{name!r} is no part: give {', '.join(PARTS)}",
                                     param_hint="--part")
    if json_file is not None:
        check_writable(json_file, "--json", (".json",))
    record = run(parts, quick=quick, gnubg=gnubg,
                 progress=lambda name: typer.echo(f"bgcli bench: {name}", err=True))
    if json_file is not None:
        write(record, str(json_file))
        typer.echo(f"bgcli bench: record written to {json_file}", err=True)
