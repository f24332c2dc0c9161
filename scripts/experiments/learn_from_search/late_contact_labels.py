"""How far the 2-ply labels are from rollouts, in late contact positions and elsewhere.

    NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.late_contact_labels \\
        /work/ld/alt7_s49 --positions 80 --trials 1296 -o late_contact_labels_s27.json

From a ``bgcli train-data`` folder's positions of the play made (rank 0), in order, the
first ``--positions`` late contact ones (``bgcli.learn.late_contact``) and the first as
many others: each rolled out (``--trials`` games of the net's 0-ply play, plain, seed 1,
one thread) and compared with its label (the folder's search) and the net's 0 ply. The
rollout is the net's own judgement played out, not gnubg's; where the label and the net
are far from it by much more than its standard error, the search cannot be the target.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from bgcli import __version__
from bgcli.evaluation import cubeless_equity, position_probabilities
from bgcli.learn import late_contact, read_data
from bgcli.net import net_id
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout


def compare(rows: list[tuple]) -> dict:
    a = np.array(rows)  # label eq, rollout eq, rollout se, 0-ply eq, label bg, rollout bg
    return {"positions": len(rows),
            "mean_abs_label_minus_rollout": float(np.abs(a[:, 0] - a[:, 1]).mean()),
            "mean_label_minus_rollout": float((a[:, 0] - a[:, 1]).mean()),
            "mean_abs_0ply_minus_rollout": float(np.abs(a[:, 3] - a[:, 1]).mean()),
            "mean_rollout_se": float(a[:, 2].mean()),
            "label_backgammons": float(a[:, 4].mean()), "rollout_backgammons": float(a[:, 5].mean())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    arrays, record = read_data(args.folder)
    groups: dict[bool, list] = {True: [], False: []}
    for board, label, rank in zip(arrays["boards"], arrays["targets"], arrays["rank"]):
        if rank != 0:
            continue
        position = Position(board)
        late = late_contact(position)
        if len(groups[late]) == args.positions:
            if all(len(g) == args.positions for g in groups.values()):
                break
            continue
        result = rollout(position, RolloutSettings(trials=args.trials, seed=1, threads=1,
                                                   variance_reduction=False))
        groups[late].append((cubeless_equity(label), result.equity, result.equity_se,
                             cubeless_equity(position_probabilities(position, "net", 0)),
                             label[2] + label[4], result.means[2] + result.means[4]))
    out = {"command": "python -m scripts.experiments.learn_from_search.late_contact_labels "
                      f"{args.folder} --positions {args.positions} --trials {args.trials} "
                      f"-o {args.output}",
           "bgcli_version": __version__, "net": net_id(), "labels": record["settings"],
           "late_contact": compare(groups[True]), "other": compare(groups[False])}
    args.output.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: out[k] for k in ("late_contact", "other")}, indent=1))


if __name__ == "__main__":
    main()
