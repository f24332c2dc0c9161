"""How well several weights files order a roll's plays on the same held-out pairs: for
each, ``bgcli.learn.difference_errors`` over every held-out play of the data folders that has
a partner (a roll's other play against the play the game made): the mean |difference error|,
the share of pairs the net orders the other way round from the 2-ply targets, and what that
costs in a choice between the two (the choice error). The numbers a fit's log prints for its
own epochs, here for weights from different runs side by side.

    python -m scripts.experiments.learn_from_search.pair_metrics --data DIR [--data DIR ...] \\
        A.npz B.npz ... -o pair_metrics.json
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from bgcli import learn
from bgcli.net import read_weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", nargs="+", help="weights files (.npz)")
    parser.add_argument("--data", action="append", required=True, help="a data folder")
    parser.add_argument("-o", "--output", help="also write the record as JSON here")
    args = parser.parse_args()
    data = learn.read_training_data(args.data)
    held = np.flatnonzero(data.held & (data.partner >= 0))
    rows = []
    for path in args.weights:
        params, record = read_weights(path)
        row = {"weights": path, "games": record.get("games")}
        row.update(learn.difference_errors(params, data, held))
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.output:
        with open(args.output, "w") as handle:
            json.dump({"command": "python -m scripts.experiments.learn_from_search.pair_metrics "
                                  + " ".join(f"--data {d}" for d in args.data) + " "
                                  + " ".join(args.weights),
                       "data": args.data, "rows": rows}, handle, indent=1)


if __name__ == "__main__":
    main()
