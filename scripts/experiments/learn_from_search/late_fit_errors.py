"""Held-out |equity error| of weights on the late contact rollout labels and on a 2-ply folder's
late contact and other positions.

    python -m scripts.experiments.learn_from_search.late_fit_errors w099.npz s27_l1_last.npz \\
        s27_l2_last.npz --late /work/ld/late_s1 --late /work/ld/late_s2 --search /work/ld/alt7_s49 \\
        -o late_fit_errors_s27.json

The held-out positions are ``bgcli train``'s (every tenth of each folder); the 2-ply folder's
are split by ``bgcli.learn.late_contact``. A fit on the 2-ply folders without their late
contact positions (``drop_late.py``) held out other rows of them, so its "other" figure is
partly on positions it trained on.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from bgcli import learn
from bgcli.net import net_id, read_weights
from scripts.experiments.learn_from_search.drop_late import late_contact_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", nargs="+")
    parser.add_argument("--late", action="append", required=True, help="a rollout-labelled folder")
    parser.add_argument("--search", required=True, help="a folder labelled by the search")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    late = learn.read_training_data(args.late)
    search = learn.read_training_data([args.search])
    is_late = late_contact_rows(search.boards)
    sets = {"late_rollout_labels": (late, late.held_index),
            "search_late_contact": (search, np.flatnonzero(search.held & is_late)),
            "search_other": (search, np.flatnonzero(search.held & ~is_late))}
    rows = []
    for path in args.weights:
        params = read_weights(path)[0]
        row = {"weights": path, "net": net_id(path)}
        for name, (data, index) in sets.items():
            row[name] = learn.equity_errors(params, data.boards[index], data.targets[index])
        rows.append(row)
        print(path, "  ".join(f"{name} {row[name]['mean_abs_equity_error']:.4f}" for name in sets))
    record = {"command": "python -m scripts.experiments.learn_from_search.late_fit_errors "
                         + " ".join(args.weights) + "".join(f" --late {f}" for f in args.late)
                         + f" --search {args.search} -o {args.output}", "rows": rows}
    args.output.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
