"""Weights with a late contact net taken from another file's contact net (session 29: a
contact net fitted to the late contact rollout labels alone, played as the late net of
0.9.9's weights).

    python -m scripts.experiments.learn_from_search.late_splice w099.npz d60.npz -o w099_late_d60.npz

The record is the first file's, with the splice added to its ``history``. ``bgcli train
--data late_s3 --late-net --nets late`` fits such a net directly (it drops the few pairs
whose other play is not late contact, so its weights differ a little).
"""

from __future__ import annotations

import argparse

from bgcli.kernels.net import NET_SIZE, with_late_net
from bgcli.net import net_id, read_weights

from .splice import save_spliced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", help="weights without a late contact net, kept")
    parser.add_argument("late", help="weights whose contact net becomes the late contact net")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    params, record = read_weights(args.weights)
    late, _ = read_weights(args.late)
    params = with_late_net(params)
    params[-NET_SIZE:] = late[:NET_SIZE]
    save_spliced(args.output, params, record, "late_splice",
                 f"late contact net: the contact net of {net_id(args.late)}")
    print(f"{args.output}: {net_id(args.output)}")


if __name__ == "__main__":
    main()
