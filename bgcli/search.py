"""Move filters of the n-ply search (``bgcli.kernels.search``): gnubg's named presets and
filters the user writes.

A filter says, for each stage of a search to ``plies`` ply (stage k = 0 .. plies - 1, the
plays evaluated at k ply), how many plays go on to the next stage: the best ``accept``, then
up to ``extra`` more whose equity is within ``threshold`` of the best; ``accept < 0`` skips
the stage. gnubg's presets (``MOVEFILTER_TINY`` .. ``MOVEFILTER_HUGE`` in its eval.h) hold
one row of stages per depth; "normal" is gnubg's default for analysis, hints and rollouts.

Written out (``--filter``): a preset's name, or one item per stage separated by commas,
``N:T`` (keep up to N plays within T of the best: gnubg's accept 0, extra N), ``A+N:T``
(keep the best A, then up to N more within T) or ``-`` (skip the stage). Stages past the
last item are skipped: ``8:0.16`` searched at 2 ply evaluates the 0-ply survivors at 2 ply,
as gnubg's normal filter does.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .errors import BgcliError

MAX_PLIES = 3
#: The depths the search offers: 0 (static) to 3.
PLIES = tuple(range(MAX_PLIES + 1))
SKIP = (-1, 0, 0.0)

# gnubg 1.07's presets: for a search to d ply (row d - 1), the stages 0 .. d - 1
_PRESETS = {
    "tiny": ((0, 5, 0.08), SKIP, (0, 2, 0.02)),
    "narrow": ((0, 8, 0.12), SKIP, (0, 2, 0.03)),
    "normal": ((0, 8, 0.16), SKIP, (0, 2, 0.04)),
    "large": ((0, 16, 0.32), SKIP, (0, 4, 0.08)),
    "huge": ((0, 20, 0.44), SKIP, (0, 6, 0.11)),
}
PRESETS = tuple(_PRESETS)
DEFAULT_FILTER = "normal"

_STAGE = re.compile(r"^(?:(\d+)\+)?(\d+):(\d*\.?\d+(?:[eE][-+]?\d+)?)$")


@dataclass(frozen=True)
class MoveFilter:
    """A move filter: ``name`` (a preset's, or the stages as written) and its stages (for
    a preset: the stages of every depth, in gnubg's layout, which agree stage by stage)."""

    name: str
    stages: tuple[tuple[int, int, float], ...]

    def rows(self, plies: int) -> np.ndarray:
        """The (plies, 3) stage rows the kernels read for a search to ``plies`` ply."""
        rows = np.zeros((max(plies, 0), 3))
        for k in range(plies):
            rows[k] = self.stages[k] if k < len(self.stages) else SKIP
        return rows


def move_filter(spec: "str | MoveFilter | None" = None) -> MoveFilter:
    """The filter ``spec`` names (None: gnubg's default, "normal"); a bad one raises a
    one-line ``BgcliError`` naming it."""
    if isinstance(spec, MoveFilter):
        return spec
    text = DEFAULT_FILTER if spec is None else str(spec).strip().lower()
    if text in _PRESETS:
        return MoveFilter(text, _PRESETS[text])
    items = [item.strip() for item in text.split(",")]
    if not text or len(items) > MAX_PLIES or text.isalpha():
        raise BgcliError(f"move filter must be one of {', '.join(PRESETS)} or up to "
                         f"{MAX_PLIES} stages like 8:0.16,-,2:0.04, not {spec!r}")
    stages = []
    for item in items:
        if item in ("-", "skip"):
            stages.append(SKIP)
            continue
        match = _STAGE.match(item)
        if not match:
            raise BgcliError(f"move filter stage must be N:THRESHOLD, A+N:THRESHOLD or -, "
                             f"not {item!r} (in {spec!r})")
        accept = int(match.group(1) or 0)
        extra = int(match.group(2))
        threshold = float(match.group(3))
        if accept + extra < 1 or not math.isfinite(threshold):
            raise BgcliError(f"move filter stage {item!r} keeps no play: give N of at least 1")
        stages.append((accept, extra, threshold))
    return MoveFilter(",".join(_stage_text(s) for s in stages), tuple(stages))


def _stage_text(stage: tuple[int, int, float]) -> str:
    accept, extra, threshold = stage
    if accept < 0:
        return "-"
    return (f"{accept}+" if accept else "") + f"{extra}:{threshold:g}"
