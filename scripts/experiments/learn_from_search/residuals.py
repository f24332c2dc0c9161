"""Where the net's 0-ply misses its 2-ply targets, and how much of the miss board features
predict (session 17: would new inputs help?).

    pip install scikit-learn    # for the gradient-boosted probe only
    python -m scripts.experiments.learn_from_search.residuals /work/ld/p2_s21 /work/ld/p2_s22 \\
        -o residuals_s17.json

For every contact position of the folders (``bgcli train-data`` folders; the weights bgcli
plays with, or ``BGCLI_WEIGHTS``), the residual r = equity(target) - equity(net at 0 ply),
from the side on roll. The record has the mean r and mean |r| by source and by simple
features of either side (checkers on the bar, borne off, anchors in the other's home board,
home points made, checkers back, the pip difference), and the share of r's variance that a
gradient-boosted tree predicts on a fifth held out from (a) those features, (b) those and
the raw point counts, (c) those and the parity of each side's checkers left. A large share
would point at inputs worth adding; a small one at noise the net cannot fit from one
position.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from bgcli.kernels.supervised import EQUITY, contact_flags, net_outputs
from bgcli.learn import read_training_data
from bgcli.net import load_params, net_id

POINTS = np.arange(24)


def side_features(a: np.ndarray) -> dict[str, np.ndarray]:
    """Features of one side, boards (n, 25) in its own numbering (24 = bar)."""
    return {
        "bar": a[:, 24],
        "off": 15 - a.sum(1),
        "pips": (a[:, :24] * (POINTS + 1)).sum(1) + 25 * a[:, 24],
        "home_made": (a[:, :6] >= 2).sum(1),
        "anchors": (a[:, 18:24] >= 2).sum(1),
        "back_checkers": a[:, 18:25].sum(1),
        "outside_home": a[:, 6:25].sum(1),
        "blots": (a[:, :24] == 1).sum(1),
        "made": (a[:, :24] >= 2).sum(1),
        "left_odd": a.sum(1) % 2,
    }


def buckets(key: np.ndarray, res: np.ndarray, least: int = 200) -> list[dict]:
    out = []
    for value in np.unique(key):
        inside = key == value
        if inside.sum() >= least:
            out.append({"value": int(value), "positions": int(inside.sum()),
                        "mean_r": float(res[inside].mean()),
                        "mean_abs_r": float(np.abs(res[inside]).mean())})
    return out


def predictable_share(features: np.ndarray, res: np.ndarray) -> dict:
    from sklearn.ensemble import HistGradientBoostingRegressor

    order = np.random.default_rng(0).permutation(res.size)
    train, test = order[: res.size * 4 // 5], order[res.size * 4 // 5:]
    tree = HistGradientBoostingRegressor(max_iter=300, learning_rate=0.1, max_leaf_nodes=31,
                                         random_state=0)
    tree.fit(features[train], res[train])
    left = res[test] - tree.predict(features[test])
    return {"r2": float(1.0 - (left ** 2).mean() / res[test].var()),
            "mean_abs_r": float(np.abs(res[test]).mean()),
            "mean_abs_r_after": float(np.abs(left).mean())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    data = read_training_data(args.folders)
    contact = np.zeros(data.boards.shape[0], dtype=np.bool_)
    contact_flags(data.boards, contact)
    boards, targets, source = data.boards[contact], data.targets[contact], data.source[contact]
    out = np.zeros((boards.shape[0], 5))
    net_outputs(load_params(), boards, out)
    res = (targets - out) @ EQUITY
    me, you = boards[:, 1].astype(np.int64), boards[:, 0].astype(np.int64)
    mine, yours = side_features(me), side_features(you)
    named = {**{f"on_roll_{k}": v for k, v in mine.items()},
             **{f"other_{k}": v for k, v in yours.items()}}
    named["pip_difference_by_20"] = np.clip((mine["pips"] - yours["pips"]) // 20, -6, 6)
    plain = [k for k in named if not k.endswith("left_odd")]
    summary = np.column_stack([named[k] for k in plain]).astype(float)
    record = {
        "command": "python -m scripts.experiments.learn_from_search.residuals "
                   + " ".join(args.folders) + f" -o {args.output}",
        "net": net_id(), "contact_positions": int(res.size),
        "mean_r": float(res.mean()), "mean_abs_r": float(np.abs(res).mean()),
        "by_source": {name: {"positions": int((source == name).sum()),
                             "mean_r": float(res[source == name].mean()),
                             "mean_abs_r": float(np.abs(res[source == name]).mean())}
                      for name in np.unique(source)},
        "by_feature": {k: buckets(named[k], res) for k in named},
        "predictable": {
            "features": predictable_share(summary, res),
            "features_and_points": predictable_share(np.column_stack([summary, me, you]), res),
            "features_and_parity": predictable_share(np.column_stack(
                [summary, named["on_roll_left_odd"], named["other_left_odd"]]), res)},
    }
    with open(args.output, "w") as handle:
        json.dump(record, handle, indent=1)
    print(json.dumps({k: record[k] for k in ("mean_abs_r", "by_source", "predictable")},
                     indent=1))


if __name__ == "__main__":
    main()
