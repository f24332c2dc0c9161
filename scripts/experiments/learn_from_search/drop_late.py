"""A copy of a ``bgcli train-data`` folder without its late contact positions, for fits
that take those from rollout labels instead (``rollout_labels.py``).

    python -m scripts.experiments.learn_from_search.drop_late /work/ld/alt7_s49 /work/ld/alt7_s49_nolate

A position is dropped when it is late contact (``bgcli.learn.late_contact``); a roll's
other plays (rank > 0) go with the play the game made (the row before them of rank 0), so
that none is paired with the wrong play. The copy's ``settings.json`` is the source's,
with this command added to its commands; its chunks are the source's, filtered.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from bgcli.learn import SETTINGS_FILE, data_summary


def late_contact_rows(boards: np.ndarray) -> np.ndarray:
    """``bgcli.learn.late_contact`` of each board (N x 2 x 25, row 1 on roll), at once
    (tests/test_learn.py checks that the two agree)."""
    counts = boards.astype(np.int64)
    left = counts.sum(axis=2)  # (N, 2): checkers not borne off
    home = counts[:, :, 6:].sum(axis=2) == 0  # (N, 2): every checker left is home
    index = np.arange(25)
    mine = np.where(counts[:, 1] > 0, index, -1).max(axis=1)
    theirs = np.where(counts[:, 0] > 0, index, -1).max(axis=1)
    contact = (mine >= 0) & (theirs >= 0) & ~((mine + 1) < (24 - theirs))
    return contact & ((left < 15).any(axis=1) | home.any(axis=1))


def kept_rows(boards: np.ndarray, rank: np.ndarray) -> np.ndarray:
    late = late_contact_rows(boards)
    played = np.maximum.accumulate(np.where(rank == 0, np.arange(rank.size), 0))
    return ~late & ~late[played]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    args = parser.parse_args()
    args.target.mkdir()
    record = json.loads((args.source / SETTINGS_FILE).read_text())
    record.setdefault("commands", []).append(
        "python -m scripts.experiments.learn_from_search.drop_late " + " ".join(sys.argv[1:]))
    (args.target / SETTINGS_FILE).write_text(json.dumps(record, indent=2) + "\n")
    index, before, after = 0, 0, 0
    while (path := args.source / f"chunk-{index:06d}.npz").exists():
        with np.load(path) as chunk:
            arrays = {name: chunk[name] for name in chunk.files}
        keep = kept_rows(arrays["boards"], arrays["rank"])
        before += keep.size
        after += int(keep.sum())
        out = {name: (value[keep] if value.ndim and value.shape[0] == keep.size else value)
               for name, value in arrays.items()}
        np.savez(args.target / path.name, **out)
        index += 1
    summary = data_summary(args.target)
    print(f"{args.source} -> {args.target}: {after} of {before} positions kept "
          f"({index} chunks; sha256 {summary['sha256'][:12]})")


if __name__ == "__main__":
    main()
