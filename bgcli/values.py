"""Plain values for rows of data, the same in every output (the commands' CSV and JSON,
``bgcli batch``'s files): numpy scalars unwrapped, non-finite floats None (JSON has no NaN),
floats kept to ``FLOAT_DIGITS`` significant digits. Imports nothing from the project."""

from __future__ import annotations

import math

#: significant digits a float keeps: every digit the numbers mean (rollouts and the evaluator
#: work to about 1e-7), without the binary noise of 0.8098799999999999
FLOAT_DIGITS = 12


def plain(value):
    """``value`` as a row holds it (see the module docstring)."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return float(f"{value:.{FLOAT_DIGITS}g}")
    return value
