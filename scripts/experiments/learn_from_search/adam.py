"""Session 11's experiment: the supervised fit with Adam, a loss on equity and early
stopping, on more positions (docs/net.md, "Learning from search").

Session 10's plain SGD on the squared error of the five probabilities did not move the
shipped net towards its own 2-ply judgement (held-out |equity error| 0.0356 -> 0.0357 on
40,000 positions). This script tries what that section lists as untried, on data made by
``bgcli train-data`` (several folders may be given, e.g. two seeds made side by side):

    bgcli train-data /work/data/s1 -n 50000 --seed 1 --from positions/train_backgames.txt --from positions/train_anchors.txt
    bgcli train-data /work/data/s2 -n 50000 --seed 2 --from positions/train_backgames.txt --from positions/train_anchors.txt
    python -m scripts.experiments.learn_from_search.adam /work/data/s1 /work/data/s2 \\
        --rate 3e-4 --epochs 8 --equity-weight 1 -o adam.json --weights adam.npz

Every tenth position of each folder is held out (``bgcli.learn.held_out``). Adam (beta1 0.9,
beta2 0.999) on mini-batches; the loss per position is the squared error of the five raw
outputs plus ``--equity-weight`` times the squared error of the cubeless equity they make
(2W - 1 + W(g) - L(g) + W(bg) - L(bg)). After each epoch the held-out and training mean
|equity error| (``bgcli.learn.equity_errors``) go into the record; ``--weights`` gets the
epoch with the lowest held-out error (early stopping), with the shipped weights' record
and this run added to its history. One thread, a fixed order per epoch (PCG64 seeded
``(seed, epoch)``): the same command gives the same weights. The Adam epoch is bgcli's own
(``bgcli.kernels.supervised.adam_epoch``, which ``bgcli train --data`` runs since 0.9.0).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time

import numpy as np

from bgcli import __version__
from bgcli.kernels.supervised import adam_epoch
from bgcli.learn import epoch_check, read_training_data
from bgcli.net import net_id, read_weights, save_weights, weights_path


def load(folders: list[str], train_fraction: float = 1.0):
    """The positions of every folder (``bgcli.learn.read_training_data``: every tenth of
    each held out) and which of them are left unused: with ``train_fraction`` below 1 only
    that first share of each folder's positions is trained on, the held-out ones all kept,
    so runs on less data are judged on the same held-out positions."""
    data = read_training_data(folders)
    unused = []
    for folder in data.folders:
        count = folder["positions"]
        unused.append(np.arange(count) >= int(round(train_fraction * count)))
    return data, np.concatenate(unused) & ~data.held


def check(params, epoch: int, data, train: np.ndarray) -> dict:
    return epoch_check(params, epoch, data, lambda line: print(line, file=sys.stderr,
                                                               flush=True), train)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--rate", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--equity-weight", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="use only the first N positions")
    parser.add_argument("--train-sources", default="",
                        help="train only on positions from these sources (comma-separated "
                        "names as the record's held_out_by_source has them)")
    parser.add_argument("--train-fraction", type=float, default=1.0,
                        help="train on only this first share of each folder (held-out: all)")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--weights", help="write the best epoch's weights here")
    args = parser.parse_args()

    data, unused = load(args.folders, args.train_fraction)
    if args.train_sources:  # a specialist: the other sources are only judged, not learnt
        wanted = args.train_sources.split(",")
        unknown = set(wanted) - set(data.source)
        if unknown:
            parser.error(f"--train-sources: no such source {sorted(unknown)}; "
                         f"the sources are {sorted(set(data.source))}")
        unused |= ~np.isin(data.source, wanted)
    if args.limit:
        for key in ("boards", "targets", "source", "held"):
            setattr(data, key, getattr(data, key)[:args.limit])
        unused = unused[:args.limit]
    start, start_record = read_weights(weights_path())
    params = start.copy()
    m, v, step = np.zeros(params.size), np.zeros(params.size), np.zeros(1, dtype=np.int64)
    train = np.flatnonzero(~data.held & ~unused)
    checks = [check(params, 0, data, train)]
    best = (checks[0]["held_out"]["mean_abs_equity_error"], 0, params.copy())
    began = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        order = np.random.default_rng([args.seed, epoch]).permutation(train)
        stats = np.zeros(2)
        adam_epoch(params, data.boards, data.targets, order, args.batch, args.rate,
                   args.equity_weight, np.full(data.boards.shape[0], -1), 0.0, 0.0,
                   np.ones(params.size), m, v, step, stats)
        checks.append(check(params, epoch, data, train))
        error = checks[-1]["held_out"]["mean_abs_equity_error"]
        if error < best[0]:
            best = (error, epoch, params.copy())
    command = shlex.join(["python", "-m", "scripts.experiments.learn_from_search.adam"]
                         + sys.argv[1:])
    record = {"command": command, "bgcli_version": __version__, "start": net_id(),
              "data": {"folders": args.folders,
                       "sha256": [f["sha256"] for f in data.folders],
                       "positions": int(data.boards.shape[0]),
                       "held_out": int(data.held.sum()),
                       "trained_on": int(train.size), "train_fraction": args.train_fraction,
                       "train_sources": args.train_sources or "all"},
              "settings": {"rate": args.rate, "epochs": args.epochs, "batch": args.batch,
                           "equity_weight": args.equity_weight, "seed": args.seed,
                           "optimiser": "Adam (0.9, 0.999, 1e-8)"},
              "best_epoch": best[1], "wall_s": round(time.perf_counter() - began, 1),
              "checks": checks}
    with open(args.output, "w") as out:
        json.dump(record, out, indent=1)
    if args.weights:
        run = {"command": command, "method": "supervised on 2-ply search targets, Adam, "
               "early stopping", "epochs": [0, best[1]], "data": record["data"],
               "held_out": checks[best[1]]["held_out"]}
        saved = dict(start_record)
        saved.update({"command": command, "bgcli_version": __version__,
                      "history": list(start_record.get("history", [])) + [run]})
        save_weights(args.weights, best[2], saved)


if __name__ == "__main__":
    main()
