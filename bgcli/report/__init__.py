"""Charts and study reports.

* ``charts``: matplotlib figures — the board picture, outcome bars, equity across a
  collection, rollout convergence, pip counts and race — saved as PNG or SVG;
* ``study``: reading collections and batch results into entries, running what they lack
  (race metrics, rollouts that keep every game, cube actions and best plays);
* ``document``: the report as a document model; ``html`` and ``markdown`` write it.

``write_report(entries, directory, ...)`` writes ``index.html`` (one self-contained page,
images embedded), ``report.md`` (its Markdown twin) and ``images/*.svg`` (the same pictures,
for the Markdown). Nothing here imports matplotlib, pandas or numba at import time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from .study import ReportEntry, analyse, read_entries

__all__ = ["ReportEntry", "analyse", "read_entries", "write_report"]


def write_report(entries: Sequence[ReportEntry], directory: str | Path, title: str, source: str,
                 command: str | None = None) -> dict[str, Path]:
    """Write the report for analysed ``entries`` into ``directory`` (created if needed);
    returns the paths written by kind (``html``, ``markdown``, ``images``). SVG files left in
    ``images/`` by an earlier report that this one does not make are removed."""
    from .document import build_document

    return write_document(build_document(entries, title, source, command), directory)


def write_document(document, directory: str | Path) -> dict[str, Path]:
    """Write a report ``document`` (``document.Document``) into ``directory`` (created if
    needed): ``index.html``, ``report.md`` and ``images/*.svg``, removing SVG files an
    earlier report left there that this one does not make; the paths by kind."""
    from . import html, markdown

    directory = Path(directory)
    images_dir = directory / "images"
    images_dir.mkdir(parents=True, exist_ok=True)
    names = set()
    for image in document.images():
        (images_dir / image.name).write_bytes(image.data)
        names.add(image.name)
    for stale in images_dir.glob("*.svg"):
        if stale.name not in names:
            stale.unlink()
    html_path = directory / "index.html"
    html_path.write_text(html.render(document), encoding="utf-8")
    markdown_path = directory / "report.md"
    markdown_path.write_text(markdown.render(document), encoding="utf-8")
    return {"html": html_path, "markdown": markdown_path, "images": images_dir}
