"""The compile command: every numba kernel compiled ahead of time (``bgcli.warmup``)."""

from __future__ import annotations

import typer

from .common import app


@app.command("compile")
def compile_kernels() -> None:
    """Compile every numba kernel now, so that no later command waits for it: for installation
    scripts and Docker images (about a minute on two cores the first time, seconds once
    cached). Progress on stderr; stdout gets the cache folder. The cache follows the kernels'
    sources: after an upgrade, run it again.

    Example:  pip install bgcli && bgcli compile
    """
    from ..kernels import kernel_cache_dir
    from ..warmup import compile_all

    seconds = compile_all(lambda step: typer.echo(f"bgcli compile: {step}", err=True))
    typer.echo(f"bgcli compile: every kernel compiled and cached in {seconds:.1f} s", err=True)
    typer.echo(kernel_cache_dir() or "(no writable cache folder: kernels compile each run)")
