"""Build the pruning net the search screens inner plays with: bgcli/data/prune_weights.npz.

    python -m scripts.ship_prune_net [--games 3000] [--epochs 30] [--absolute 0.25] [--seed 1]
        [-o bgcli/data/prune_weights.npz] [--record docs/records/prune_net.json]

Inside an n-ply search the player on roll makes the play the 0-ply net values most; gnubg
finds it by scoring every play with a small *pruning* net first and only the best few with
its full net (``FindBestMoveInEval``). This script makes bgcli's pruning net (for rolls of
positions in contact: a race is not screened) by supervised regression on the full net's
own 0-ply outputs:

1. Positions: the shipped net's greedy self-play (``bgcli.learn.sample_game``), 70% of the
   games from the opening, the rest from the back-game and anchor collections, every other
   position kept. For each, one random roll and *every* play of it: the result boards and
   the full net's five probabilities of each (the next player's side, as the search sees
   them). gnubg is not involved. ``--data FILE`` keeps them (and reads them back).
2. Fit: a one-hidden-layer net on the 196 point, bar and borne-off inputs only (no hand-made
   features: they are what costs), 16 hidden units with the full net's rational sigmoid,
   five *linear* outputs (the search ranks by a linear value of them), Adam on the squared
   error of each play's outputs less their mean over its roll (a screen only compares the
   plays of one roll), plus ``--absolute`` times the plain squared error.
3. Check, on the held-out rolls of positions in contact (every tenth): how often the full
   net's best play is among the pruning net's best ``5 + floor(log2(plays))`` (gnubg's
   count), and the mean equity the pruned choice loses against the full net's.

Everything is seeded: the same command on the same machine writes the same weights (the
shipped ones: ``--data`` of the default 3,000 games, about 3 minutes on one core).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from bgcli.kernels.prune import N_PRUNE_INPUTS, PRUNE_HIDDEN, prune_inputs
from bgcli.kernels.search import screen_size
from bgcli.prune import DEFAULT_PRUNE_WEIGHTS, pack_prune_net, save_prune_weights

COLLECTIONS = ["positions/train_backgames.txt", "positions/train_anchors.txt"]
MONEY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])  # + (-1): equity of the five probabilities


def make_data(games: int, seed: int, progress) -> dict:
    """Every play of one roll of each sampled position, with the full net's outputs, and
    whether the position rolled was in contact (the screen works on those only)."""
    from bgcli.evaluation import policy_code
    from bgcli.kernels.movegen import generate_plays, new_buffers
    from bgcli.kernels.net import is_contact
    from bgcli.kernels.search import static_children
    from bgcli.learn import sample_game
    from bgcli.position import Position
    from bgcli.train import read_training_positions

    policy, params = policy_code("net", prune=False)  # the full net on every play
    starts = [read_training_positions(name)[0] for name in COLLECTIONS]
    buffers = new_buffers()
    probs = np.empty((len(buffers[0]), 5))
    boards, targets, groups, contact = [], [], [], []  # contact: of the position rolled
    group = 0
    begun = time.time()
    for game in range(games):
        rng = np.random.default_rng([seed, game])
        if rng.random() < 0.7:
            start = Position.start()
        else:
            pool = starts[int(rng.integers(len(starts)))]
            start = Position(pool[int(rng.integers(len(pool)))])
        for position, _, _ in sample_game(start, rng, 0.5, 400):
            board = np.array(position.board, dtype=np.int8)  # a writable copy
            die1, die2 = int(rng.integers(1, 7)), int(rng.integers(1, 7))
            count, _ = generate_plays(board, die1, die2, *buffers)
            if count < 2:
                continue
            static_children(count, buffers[0], policy, params, params, False, probs)
            results = buffers[0][:count]
            boards.append(results.copy())
            targets.append(probs[:count].copy())
            groups.append(np.full(count, group))
            contact.append(np.full(count, is_contact(board, 0)))
            group += 1
        if progress and (game + 1) % 100 == 0:
            progress(f"data: {game + 1}/{games} games, {group} rolls, "
                     f"{sum(len(g) for g in groups)} plays, {time.time() - begun:.0f} s")
    return {"boards": np.concatenate(boards), "targets": np.concatenate(targets),
            "group": np.concatenate(groups), "contact_roll": np.concatenate(contact),
            "games": np.int64(games), "seed": np.int64(seed)}


def inputs_of(boards: np.ndarray) -> np.ndarray:
    out = np.zeros((len(boards), N_PRUNE_INPUTS), dtype=np.float32)
    for i, board in enumerate(boards):
        prune_inputs(board, out[i])
    return out


def _act(z):
    return 0.5 + 0.5 * z / (1.0 + np.abs(z))


def _act_grad(z):
    return 0.5 / (1.0 + np.abs(z)) ** 2


def _group_rows(groups: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the groups (contiguous runs of ``groups``) in ``order``, and each row's
    position in that order's group list."""
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    sizes = np.diff(np.r_[starts, len(groups)])
    picked_sizes = sizes[order]
    first = np.repeat(starts[order] - np.r_[0, np.cumsum(picked_sizes)[:-1]], picked_sizes)
    rows = first + np.arange(picked_sizes.sum())
    return rows, np.repeat(np.arange(len(order)), picked_sizes)


def fit(x: np.ndarray, y: np.ndarray, groups: np.ndarray, hidden: int, epochs: int, seed: int,
        absolute: float, progress) -> dict:
    """One hidden layer, linear outputs, Adam with a decaying rate, on whole rolls: the
    squared error of each play's outputs less their mean over its roll (a screen only
    compares the plays of one roll), plus ``absolute`` times the plain squared error."""
    rng = np.random.default_rng([seed, 99])
    w1 = rng.normal(0, 1 / math.sqrt(20), (x.shape[1], hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, 0.3, (hidden, 5)).astype(np.float32)
    b2 = y.mean(axis=0).astype(np.float32)
    weights = [w1, b1, w2, b2]
    moments = [(np.zeros_like(w), np.zeros_like(w)) for w in weights]
    n_groups = len(np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]]))
    per_batch, step = 64, 0  # rolls a batch (about 1,300 plays)
    for epoch in range(epochs):
        rate = 3e-3 * (0.5 ** (epoch / max(1, epochs / 4)))
        total = 0.0
        rows_all, group_all = _group_rows(groups, rng.permutation(n_groups))
        bounds = np.searchsorted(group_all, np.arange(0, n_groups, per_batch))
        for begin, end in zip(bounds, np.r_[bounds[1:], len(rows_all)]):
            rows, owner = rows_all[begin:end], group_all[begin:end]
            owner = owner - owner[0]
            xb, yb = x[rows], y[rows]
            z = xb @ w1 + b1
            h = _act(z)
            err = h @ w2 + b2 - yb
            sizes = np.bincount(owner)[:, None]
            mean = np.zeros((len(sizes), 5), np.float32)
            np.add.at(mean, owner, err)
            centred = err - (mean / sizes)[owner]
            total += float((centred ** 2).sum())
            grad_out = centred + absolute * err
            dz = (grad_out @ w2.T) * _act_grad(z)
            grads = [xb.T @ dz, dz.sum(0), h.T @ grad_out, grad_out.sum(0)]
            step += 1
            for w, g, (m, v) in zip(weights, grads, moments):
                g = g / len(rows)
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                w -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if progress:
            progress(f"fit: epoch {epoch + 1}/{epochs}, rms within rolls "
                     f"{math.sqrt(total / y.size):.4f}")
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2}


def predict(net: dict, x: np.ndarray) -> np.ndarray:
    return _act(x @ net["w1"] + net["b1"]) @ net["w2"] + net["b2"]


def screen_check(data: dict, held: np.ndarray, scores: np.ndarray) -> dict:
    """On the held-out rolls with more plays than the screen keeps: how often the full net's
    best play survives the screen, and the equity the pruned choice loses."""
    equity_full = data["targets"] @ MONEY - 1.0   # the next player's: the mover wants it low
    equity_pruned = scores @ MONEY - 1.0
    groups = data["group"][held]
    bounds = np.flatnonzero(np.diff(groups)) + 1
    screened = kept = 0
    losses = []
    for rows in np.split(held, bounds):
        count = len(rows)
        keep = screen_size(count)
        if keep == count:  # too few plays: the search screens none
            continue
        screened += 1
        survivors = rows[np.argsort(equity_pruned[rows], kind="stable")[:keep]]
        best = equity_full[rows].min()
        chosen = equity_full[survivors].min()
        kept += bool(chosen == best)
        losses.append(chosen - best)
    losses = np.array(losses)
    return {"screened_rolls": screened, "best_kept": kept / max(1, screened),
            "mean_equity_lost": float(losses.mean()) if screened else 0.0,
            "largest_equity_lost": float(losses.max()) if screened else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--absolute", type=float, default=0.25,
                        help="weight of the plain squared error beside the within-roll one")
    parser.add_argument("--data", help="an .npz of make_data's arrays (made when missing)")
    parser.add_argument("-o", "--output", default=str(DEFAULT_PRUNE_WEIGHTS))
    parser.add_argument("--record", help="also write the record as JSON here")
    args = parser.parse_args()

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    begun = time.time()
    if args.data and Path(args.data).exists():
        with np.load(args.data) as stored:
            data = {k: stored[k] for k in stored.files}
        if int(data["games"]) != args.games or int(data["seed"]) != args.seed:
            raise SystemExit(f"{args.data} holds {int(data['games'])} games of seed "
                             f"{int(data['seed'])}, not {args.games} of seed {args.seed}")
    else:
        data = make_data(args.games, args.seed, progress)
        if args.data:
            np.savez(args.data, **data)
    x = inputs_of(data["boards"])
    held = data["group"] % 10 == 0
    train = np.flatnonzero(data["contact_roll"] & ~held)
    net = fit(x[train], data["targets"][train].astype(np.float32), data["group"][train],
              PRUNE_HIDDEN, args.epochs, args.seed, args.absolute, progress)
    check = screen_check(data, np.flatnonzero(held & data["contact_roll"]), predict(net, x))
    record = {"command": "python -m scripts.ship_prune_net " + " ".join(sys.argv[1:]),
              "games": args.games, "seed": args.seed, "hidden": PRUNE_HIDDEN,
              "epochs": args.epochs, "absolute": args.absolute,
              "plays": int(data["contact_roll"].sum()),
              "rolls": int(len(np.unique(data["group"][data["contact_roll"]]))),
              "held_out": "every tenth roll", "screen": "5 + floor(log2(plays)) kept",
              "check": check, "seconds": round(time.time() - begun, 1)}
    save_prune_weights(args.output, pack_prune_net(net), record)
    text = json.dumps(record, indent=2, sort_keys=True) + "\n"
    if args.record:
        Path(args.record).write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
