"""How well each net's 0-ply picks among a roll's plays, judged by the 2-ply labels
(session 19: a cheaper, closer proxy for play than the held-out |equity error|).

    python -m scripts.experiments.learn_from_search.choices /work/ld/alt2_s35 --first-chunk 240 \\
        --weights bgcli/data/net_weights.npz s18_r2b.npz s19_pw2.npz -o choices_s19_pw2.json

A ``bgcli train-data --alternatives K`` folder stores, for each kept ply, the position the
labelling net's play made (rank 0) followed by the results of the same roll's K next best
plays (ranks 1..K), each labelled at 2 ply. Such a group is a decision: the mover wants the
candidate whose label is best for it (the label is the opponent's, on roll, so the mover's
equity is minus the label's). For each net the script picks, in every group, the candidate
its own 0-ply rates best, and reports the mean 2-ply equity that choice gives up against the
group's best (in mEMG: thousandths of a point), the share of groups where it picks the 2-ply
best, and the mean |error| of the equity differences between candidates (what orders them).
Use chunks no fit has trained on (``--first-chunk``): a net fitted to these very labels
would be judged on its own training data.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

from bgcli.kernels.supervised import EQUITY, net_outputs
from bgcli.net import read_weights


def read_groups(folder: Path, first_chunk: int, last_chunk: int | None):
    """(boards, mover's 2-ply equities, group id per row) of the folder's complete decision
    groups (a rank-0 row and the alternatives after it) in chunks first..last."""
    boards, equities, groups = [], [], []
    group = -1
    index = first_chunk
    while (folder / f"chunk-{index:06d}.npz").exists() and (last_chunk is None
                                                            or index <= last_chunk):
        with np.load(folder / f"chunk-{index:06d}.npz") as chunk:
            ranks = chunk["rank"]
            open_group = False  # rows before the chunk's first rank 0 belong to the last chunk
            for row, rank in enumerate(ranks):
                if rank == 0:
                    group += 1
                    open_group = True
                if not open_group:
                    continue
                boards.append(chunk["boards"][row])
                equities.append(-float(chunk["targets"][row] @ EQUITY))
                groups.append(group)
        index += 1
    return np.array(boards, dtype=np.int8), np.array(equities), np.array(groups)


def decision_losses(params: np.ndarray, boards, label_equity, groups) -> tuple:
    """Per decision (a group of two or more candidates): the 2-ply equity the net's 0-ply
    pick gives up against the group's best, whether it picks the best, and the mean |error|
    of its equity differences from the first candidate."""
    out = np.zeros((boards.shape[0], 5))
    net_outputs(params, boards, out)
    net_equity = -(out @ EQUITY)
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    ends = np.r_[starts[1:], groups.size]
    losses, hits, diff_errors = [], [], []
    for a, b in zip(starts, ends):
        if b - a < 2:
            continue  # a forced or single-play roll: no choice
        labels, mine = label_equity[a:b], net_equity[a:b]
        pick = int(np.argmax(mine))
        losses.append(labels.max() - labels[pick])
        hits.append(labels[pick] == labels.max())
        diff_errors.append(np.abs((mine[1:] - mine[0]) - (labels[1:] - labels[0])).mean())
    return np.array(losses), np.array(hits), np.array(diff_errors)


def judge(losses, hits, diff_errors) -> dict:
    return {"decisions": int(losses.size),
            "mean_loss_memg": 1000 * float(losses.mean()),
            "se_memg": 1000 * float(losses.std(ddof=1) / math.sqrt(losses.size)),
            "picks_2ply_best": float(np.mean(hits)),
            "mean_abs_difference_error": float(np.mean(diff_errors))}


def paired(losses_a, losses_b) -> dict:
    """Net b's loss minus net a's, decision by decision (negative: b chooses better)."""
    d = losses_b - losses_a
    return {"mean_memg": 1000 * float(d.mean()),
            "se_memg": 1000 * float(d.std(ddof=1) / math.sqrt(d.size))}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--weights", nargs="+", required=True,
                        help="weights files; the first is the baseline of the paired figures")
    parser.add_argument("--first-chunk", type=int, default=0)
    parser.add_argument("--last-chunk", type=int, default=None)
    parser.add_argument("-o", "--output")
    args = parser.parse_args(argv)
    parts = [read_groups(f, args.first_chunk, args.last_chunk) for f in args.folders]
    offset, pieces = 0, []
    for boards, equity, groups in parts:
        pieces.append((boards, equity, groups + offset))
        offset += int(groups.max()) + 1 if groups.size else 0
    boards = np.concatenate([p[0] for p in pieces])
    equity = np.concatenate([p[1] for p in pieces])
    groups = np.concatenate([p[2] for p in pieces])
    nets = [read_weights(w)[0] for w in args.weights]
    record = {"folders": [str(f) for f in args.folders], "first_chunk": args.first_chunk,
              "last_chunk": args.last_chunk, "rows": int(boards.shape[0]), "nets": {}}
    first_losses = None
    for path, params in zip(args.weights, nets):
        losses, hits, diff_errors = decision_losses(params, boards, equity, groups)
        entry = judge(losses, hits, diff_errors)
        if first_losses is None:
            first_losses = losses
        else:
            entry["against_first"] = paired(first_losses, losses)
        record["nets"][Path(path).name] = entry
        print(Path(path).name, json.dumps(entry), flush=True)
    if args.output:
        Path(args.output).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
