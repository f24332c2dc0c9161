"""Copy a training checkpoint into the package: bgcli/data/net_weights.npz + .json.

    python -m scripts.ship_net_weights CHECKPOINT.npz [--check-deals 5000]
        [--vs-gnubg scripts/strength/vs_gnubg.json]

With ``--check-deals`` the record gets a ``final_check``: the net against the heuristic and
against random play over that many deals (each played twice, sides swapped, same dice) on
deals the periodic checks did not use. ``--vs-gnubg`` attaches the result of
``scripts/strength/vs_gnubg.py`` (points per game against gnubg 0-ply) to the record.
"""

from __future__ import annotations

import argparse
import json

from bgcli.net import DEFAULT_WEIGHTS, read_weights, save_weights
from bgcli.train import strength

FINAL_CHECK_SEED = 20261130


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint")
    parser.add_argument("--check-deals", type=int, default=0)
    parser.add_argument("--vs-gnubg", help="a vs_gnubg.py result (JSON) to keep in the record")
    args = parser.parse_args()
    params, record = read_weights(args.checkpoint)
    if args.vs_gnubg:
        with open(args.vs_gnubg) as handle:
            record["vs_gnubg"] = json.load(handle)
    if args.check_deals:
        record["final_check"] = {
            "seed": FINAL_CHECK_SEED,
            "heuristic": strength(params, "heuristic", args.check_deals, FINAL_CHECK_SEED),
            "random": strength(params, "random", args.check_deals, FINAL_CHECK_SEED)}
        print(json.dumps(record["final_check"]))
    save_weights(DEFAULT_WEIGHTS, params, record)
    DEFAULT_WEIGHTS.with_suffix(".json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    print(f"{DEFAULT_WEIGHTS}: {DEFAULT_WEIGHTS.stat().st_size} bytes, {record['games']} games")


if __name__ == "__main__":
    main()
