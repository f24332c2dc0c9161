"""How far nets are from two sets of targets of the same positions (session 16).

    python -m scripts.experiments.learn_from_search.cross_targets \\
        --data2 /work/ld/p2_s21 /work/ld/p2_s22 --data3 /work/ld/p3_s21 /work/ld/p3_s22 \\
        --nets shipped s16_p2.npz s16_p3.npz -o cross_targets_s16.json

The folders of ``--data2`` and ``--data3`` hold the same boards (the same ``train-data``
settings and seeds but ``--plies``), labelled at 2 and 3 ply. For each net (``shipped``:
the weights bgcli plays with) and the held-out positions (every tenth, as ``bgcli train``
holds out), the mean |equity error| of its 0-ply evaluation against each set of targets,
and how far the two sets of targets are from each other. Contact positions only (the fits
train the contact net).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from bgcli.learn import equity_errors, read_training_data
from bgcli.net import load_params, net_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data2", nargs="+", required=True)
    parser.add_argument("--data3", nargs="+", required=True)
    parser.add_argument("--nets", nargs="+", default=["shipped"])
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    two, three = read_training_data(args.data2), read_training_data(args.data3)
    if not np.array_equal(two.boards, three.boards):
        raise SystemExit("the two sets of folders do not hold the same boards")
    from bgcli.kernels.supervised import EQUITY, contact_flags

    contact = np.zeros(two.boards.shape[0], dtype=np.bool_)
    contact_flags(two.boards, contact)
    held = two.held & contact
    boards = two.boards[held]
    apart = np.abs((two.targets[held] - three.targets[held]) @ EQUITY)
    record = {"command": "python -m scripts.experiments.learn_from_search.cross_targets "
                         + " ".join(f"--{k} {' '.join(v)}" for k, v in
                                    (("data2", args.data2), ("data3", args.data3),
                                     ("nets", args.nets))),
              "held_out_contact_positions": int(held.sum()),
              "targets_2_vs_3": {"mean_abs": float(apart.mean()),
                                 "se": float(apart.std(ddof=1) / np.sqrt(apart.size))},
              "nets": {}}
    for name in args.nets:
        path = None if name == "shipped" else name
        params = load_params(path)
        record["nets"][name] = {
            "net": net_id(path),
            "vs_2ply": equity_errors(params, boards, two.targets[held]),
            "vs_3ply": equity_errors(params, boards, three.targets[held])}
    with open(args.output, "w") as out:
        json.dump(record, out, indent=1)
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
