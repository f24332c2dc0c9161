"""Carry 204-input net weights over to this version's wider input layout.

    python scripts/widen_net_inputs.py OLD.npz NEW.npz

The 204-input nets (up to bgcli 0.x, session 3) had four hand-made features per side; this
version has ``N_FEATURES`` (the same four first, then escape, containment and shots; see
``bgcli.kernels.net``). Every old weight keeps its place except side 1's features, which
move up; the rows of the new inputs are zero, so the widened net is the same function
(training then learns the new rows). The record's ``history`` gets an entry for the step.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from bgcli.kernels import net
from bgcli.net import save_weights

OLD_FEATURES = 4
OLD_INPUTS = 2 * net.N_SIDE + 2 * OLD_FEATURES


def widen(old: np.ndarray) -> np.ndarray:
    """The old flat weights in the new layout (new input rows zero)."""
    H = net.N_HIDDEN
    old_net_size = OLD_INPUTS * H + 6 * H + 5
    if old.shape != (2 * old_net_size,):
        raise ValueError(f"expected {2 * old_net_size} weights of a {OLD_INPUTS}-{H}-5 net pair, "
                         f"got {old.shape}")
    new = np.zeros(net.PARAMS_SIZE)
    for which in (net.CONTACT, net.RACE):
        o_old, o_new = which * old_net_size, which * net.NET_SIZE
        w1_old = old[o_old:o_old + OLD_INPUTS * H].reshape(OLD_INPUTS, H)
        w1_new = new[o_new:o_new + net.W1_SIZE].reshape(net.N_INPUTS, H)
        w1_new[:2 * net.N_SIDE] = w1_old[:2 * net.N_SIDE]
        for s in range(2):
            new_at = 2 * net.N_SIDE + s * net.N_FEATURES
            old_at = 2 * net.N_SIDE + s * OLD_FEATURES
            w1_new[new_at:new_at + OLD_FEATURES] = w1_old[old_at:old_at + OLD_FEATURES]
        # b1, W2, b2 follow W1 in the same order in both layouts
        new[o_new + net.W1_SIZE:o_new + net.NET_SIZE] = old[o_old + OLD_INPUTS * H:o_old + old_net_size]
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
        "command": f"python scripts/widen_net_inputs.py {args.old} {args.new}",
        "games": [games, games],
        "note": f"{OLD_INPUTS} inputs widened to {net.N_INPUTS}: the same function, the new "
                f"inputs' weights zero"}]
    save_weights(args.new, widen(old), record)
    print(f"{args.new}: {net.N_INPUTS}-{net.N_HIDDEN}-5 nets, {record.get('games')} games")


if __name__ == "__main__":
    main()
