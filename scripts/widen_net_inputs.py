"""Carry net weights of an earlier, narrower input layout over to this version's.

    python -m scripts.widen_net_inputs OLD.npz NEW.npz

Earlier nets had fewer hand-made features per side: 4 (204 inputs, up to session 3), 7
(210 inputs, session 4), 11 (218 inputs, up to 0.9.6). This version has ``N_FEATURES`` (the same ones first, in the same
order; see ``bgcli.kernels.net``). Every old weight keeps its place except side 1's
features, which move up; the rows of the new inputs are zero, so the widened net is the
same function (training then learns the new rows). The record's ``history`` gets an entry
for the step.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from bgcli.kernels import net
from bgcli.net import save_weights

POINT_INPUTS = 2 * net.N_SIDE


def old_features(size: int) -> int:
    """Hand-made features per side of a net pair with ``size`` weights (same hidden layer)."""
    H = net.N_HIDDEN
    n_inputs, rest = divmod(size // 2 - 6 * H - 5, H)
    features, odd = divmod(n_inputs - POINT_INPUTS, 2)
    if size % 2 or rest or odd or not 0 < features < net.N_FEATURES:
        raise ValueError(f"expected the weights of a narrower N-{H}-5 net pair (N below "
                         f"{net.N_INPUTS}), got {size} values")
    return features


def widen(old: np.ndarray) -> np.ndarray:
    """The old flat weights in the new layout (new input rows zero)."""
    H = net.N_HIDDEN
    features = old_features(old.size)
    old_inputs = POINT_INPUTS + 2 * features
    old_net_size = old_inputs * H + 6 * H + 5
    new = np.zeros(net.PARAMS_SIZE)
    for which in (net.CONTACT, net.RACE):
        o_old, o_new = which * old_net_size, which * net.NET_SIZE
        w1_old = old[o_old:o_old + old_inputs * H].reshape(old_inputs, H)
        w1_new = new[o_new:o_new + net.W1_SIZE].reshape(net.N_INPUTS, H)
        w1_new[:POINT_INPUTS] = w1_old[:POINT_INPUTS]
        for s in range(2):
            new_at = POINT_INPUTS + s * net.N_FEATURES
            old_at = POINT_INPUTS + s * features
            w1_new[new_at:new_at + features] = w1_old[old_at:old_at + features]
        # b1, W2, b2 follow W1 in the same order in both layouts
        rest_old = old[o_old + old_inputs * H:o_old + old_net_size]
        new[o_new + net.W1_SIZE:o_new + net.NET_SIZE] = rest_old
    return new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    args = parser.parse_args()
    with np.load(args.old) as data:
        old = np.asarray(data["params"], dtype=np.float64)
        record = json.loads(str(data["record"]))
    games = record.get("games")
    record["history"] = record.get("history", []) + [{
        "command": f"python -m scripts.widen_net_inputs {args.old} {args.new}",
        "games": [games, games],
        "note": f"{POINT_INPUTS + 2 * old_features(old.size)} inputs widened to "
                f"{net.N_INPUTS}: the same function, the new inputs' weights zero"}]
    save_weights(args.new, widen(old), record)
    print(f"{args.new}: {net.N_INPUTS}-{net.N_HIDDEN}-5 nets, {record.get('games')} games")


if __name__ == "__main__":
    main()
