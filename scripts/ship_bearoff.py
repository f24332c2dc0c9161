#!/usr/bin/env python3
"""Rebuild ``bgcli/data/bearoff_onesided.npz``, the one-sided bear-off database shipped with
bgcli (numba kernel ``bgcli.kernels.bearoff.build_onesided``; about 0.6 s plus a one-time
compile). The build is deterministic: rerunning it writes identical arrays.

Usage (from the repository root):  python -m scripts.ship_bearoff
"""

from __future__ import annotations

import time

from bgcli.bearoff import DATA_FILE, write_onesided


def main() -> None:
    began = time.perf_counter()
    path = write_onesided(DATA_FILE)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB) in "
          f"{time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
