"""Two ``scripts.strength.vs_gnubg`` records of the same seed set side by side: the mean
per-deal difference (first minus second) over the deals both played, raw and luck-adjusted,
with its standard error. The same seed gives both runs the same dice, so the paired
difference is far less noisy than either result; the luck-adjusted one is judged by each
run's own net (``luck_judge``), so it pairs less tightly than the dice do.

    python -m scripts.experiments.learn_from_search.paired NEW.json OLD.json
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np


def paired(first: dict, second: dict) -> dict:
    if first["seed"] != second["seed"]:
        raise SystemExit(f"different seeds: {first['seed']} and {second['seed']}")
    deals = min(first["deals"], second["deals"])
    out = {"deals": deals, "seed": first["seed"]}
    for key in ("per_deal", "per_deal_adjusted"):
        a = np.array(first[key][:deals])
        b = np.array(second[key][:deals])
        diff = a - b
        out[key] = {"first": float(a.mean()), "second": float(b.mean()),
                    "difference": float(diff.mean()),
                    "se": float(diff.std(ddof=1) / math.sqrt(deals))}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    args = parser.parse_args()
    with open(args.first) as a, open(args.second) as b:
        print(json.dumps(paired(json.load(a), json.load(b)), indent=1))


if __name__ == "__main__":
    main()
