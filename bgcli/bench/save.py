"""What every benchmark part's ``main`` does last (a module of its own: the package imports
the parts, so the parts cannot import the package)."""

from __future__ import annotations

import json
from typing import Callable


def report_and_save(record: dict, report: Callable[[dict], None], path: str | None) -> dict:
    """The tail of each part's ``main``: print the report, write the record as JSON to
    ``path`` when one is given, return the record."""
    report(record)
    if path:
        with open(path, "w") as handle:
            json.dump(record, handle, indent=1)
    return record
