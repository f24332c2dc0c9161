"""A train-data folder whose targets mix the 2- and 3-ply labels of the same boards (session 17).

    python -m scripts.experiments.learn_from_search.mix_targets /work/ld/p2_s21 /work/ld/p3_s21 \\
        /work/ld/avg_s21 --weight3 0.5

Tests the odd-even hypothesis of session 16: 3 ply ends on static evaluations with the
opponent on roll, 2 ply on the player's own, so their average may be a better target than
either. The two folders must hold the same boards chunk by chunk (the same ``train-data``
settings and seed but ``--plies``); the new folder gets their chunks with the targets
``(1 - w) * two + w * three`` and a ``settings.json`` that names both folders and ``w``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np


def mix_folder(two: Path, three: Path, out: Path, weight3: float) -> int:
    """Write the mixed chunks into ``out``; the number of chunks written."""
    out.mkdir(parents=True, exist_ok=False)
    index = 0
    while (three / f"chunk-{index:06d}.npz").exists():
        with np.load(two / f"chunk-{index:06d}.npz") as a, \
                np.load(three / f"chunk-{index:06d}.npz") as b:
            if not np.array_equal(a["boards"], b["boards"]):
                raise SystemExit(f"chunk {index}: the two folders hold different boards")
            chunk = {key: a[key] for key in a.files}
            chunk["targets"] = (1.0 - weight3) * a["targets"] + weight3 * b["targets"]
        np.savez(out / f"chunk-{index:06d}.npz", **chunk)
        index += 1
    record = json.loads((three / "settings.json").read_text())
    record["command"] = (f"python -m scripts.experiments.learn_from_search.mix_targets "
                         f"{two} {three} {out} --weight3 {weight3}")
    record["mixed_from"] = {"two_ply": str(two), "three_ply": str(three), "weight3": weight3}
    (out / "settings.json").write_text(json.dumps(record, indent=2) + "\n")
    return index


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("two", type=Path, help="folder labelled at 2 ply")
    parser.add_argument("three", type=Path, help="folder of the same boards labelled at 3 ply")
    parser.add_argument("out", type=Path, help="new folder")
    parser.add_argument("--weight3", type=float, default=0.5, help="share of the 3-ply target")
    args = parser.parse_args()
    chunks = mix_folder(args.two, args.three, args.out, args.weight3)
    print(f"{args.out}: {chunks} chunks", flush=True)


if __name__ == "__main__":
    main()
