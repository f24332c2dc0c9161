"""Experiment (session 8): supervised refinement of the net on its own rollouts. It did not help.

Issue 4 allows "supervised refinement on bgcli's own rollouts of positions from self-play".
This script tries it on back games, where bgcli's rollouts are furthest from gnubg's:

    W=bgcli/data/net_weights.npz
    S=scripts.experiments.refine_experiment
    python -m $S sample $W positions/train_anchors.txt 8000 0.25 samp.npz 11   # 47,741 positions
    echo 4HPwATDgc/ABMA > start.txt
    python -m $S sample $W start.txt 20000 0.1 distill.npz 12                  # 86,201 positions
    python -m $S rollout $W samp.npz 48 roll.npz 13                            # 8 min, 2 threads
    python -m $S candidates $W samp.npz 16000 4 cands.npz 31 random            # 41,790 positions
    python -m $S rollout $W cands.npz 36 rollc.npz 33                          # 10 min
    python -m $S fit $W rollc.npz,roll.npz distill.npz 0.01 4 refined.npz
    python -m $S judge rollc.npz $W refined.npz

* ``sample``: self-play games of the net from the given positions; every contact position is
  kept with the given chance (row 1 on roll).
* ``candidates``: for each sampled position a random roll, and the results of the net's
  favourite play plus 3 others (``random``) or its top 4 (``top``), the opponent on roll.
* ``rollout``: each position played out ``trials`` times by the net (greedy 0 ply, bear-off
  truncation, no variance reduction); the mean of the five outcomes is its target. The
  candidates of one decision share their dice (common random numbers).
* ``fit``: SGD on squared error of the five raw outputs, 10% of each data file held out; the
  ``distill`` positions (self-play from the opening) keep the net's own outputs as targets so
  that the rest of the game is not forgotten.
* ``judge``: on the held-out decisions, the rollout equity of each net's favourite among the
  candidates, less that of the shipped net's favourite.

Results with the 6,438,100-game net:

* On positions from its own games the net's static equity already agrees with its own
  48-trial rollouts to within their noise (bias +0.004; rms 0.175, of which sampling noise
  is about 0.16); fitting took the rms to 0.171.
* The refined nets' favourites among the candidates were no better by the held-out rollouts:
  -0.001 +- 0.001 (top-4 candidates, on-policy data) and -0.001 +- 0.001 (random candidates).
* Rollouts against gnubg's (variance reduction, back games and gammonish themes): back games
  0.130 and gammonish 0.065 (refit on top-4 candidates and the sampled positions), 0.136 and
  0.059 (random candidates and the sampled positions), against the shipped net's 0.125 and
  0.053.

So the net is already consistent with its own play (TD(lambda) did its job); what parts it
from gnubg is its policy, which rollouts of that same policy do not correct
(``scripts/experiments/mixed_play.py`` shows where: the back-game side's play).
"""
import sys
import time

import numpy as np
from numba import njit, prange, uint64

from bgcli.kernels.dice import next_u64, roll_dice, uniform
from bgcli.kernels.evaluate import POLICY_NET, equity
from bgcli.kernels.movegen import generate_plays, new_buffers
from bgcli.kernels.net import (HIDDEN_ROOM, MAX_NONZERO, N_HIDDEN, N_OUTPUTS, NET_SIZE, add_gradient,
                               encode, forward, is_contact, net_choose, net_probabilities,
                               playout_weights)
from bgcli.kernels.playout import (NO_MATCH_TABLE, play_trial, playout_settings,
                                    search_buffers, trial_seed)


@njit(cache=True)
def sample_positions(params, starts, seed, n_games, keep, out):
    boards, steps, keys, table, work = new_buffers()
    board = np.empty((2, 25), dtype=np.int8)
    state = np.empty(1, dtype=np.uint64)
    probs = np.empty(5)
    n = 0
    for game in range(n_games):
        state[0] = trial_seed(seed, game)
        board[:, :] = starts[next_u64(state) % uint64(starts.shape[0])]
        while True:
            if is_contact(board, 1) and uniform(state) < keep and n < out.shape[0]:
                out[n] = board
                n += 1
            d1, d2 = roll_dice(state)
            count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
            choice = net_choose(count, params, boards, probs, False)
            for index in range(25):
                board[0, index] = boards[choice, 1, index]
                board[1, index] = boards[choice, 0, index]
            over = True
            for index in range(25):
                if board[0, index] > 0:
                    over = False
                    break
            if over:
                break
    return n


@njit(cache=True)
def candidates(params, positions, seed, k_max, out, group, mode):
    """For each position, a random roll; the net's top k_max plays' results, swapped
    (the opponent on roll), into out; group[i] = the decision's index."""
    boards, steps, keys, table, work = new_buffers()
    state = np.empty(1, dtype=np.uint64)
    probs = np.empty(5)
    n = 0
    for p in range(positions.shape[0]):
        state[0] = trial_seed(seed, p)
        d1, d2 = roll_dice(state)
        count, _ = generate_plays(positions[p], d1, d2, boards, steps, keys, table, work)
        if count < 2:
            continue
        values = np.empty(count)
        for i in range(count):
            net_probabilities(boards[i], 0, params, probs)
            values[i] = -equity(probs)
        order = np.argsort(-values)
        if mode == 1:  # the net's pick, then random others
            for r in range(1, count):
                j = r + np.int64(next_u64(state) % uint64(count - r))
                order[r], order[j] = order[j], order[r]
        for r in range(min(k_max, count)):
            i = order[r]
            over = True
            for index in range(25):
                if boards[i, 1, index] > 0:
                    over = False
            if over:
                continue
            for index in range(25):
                out[n, 0, index] = boards[i, 1, index]
                out[n, 1, index] = boards[i, 0, index]
            group[n] = p
            n += 1
    return n


# the net's greedy play, games to the end, bear-offs scored exactly (as the experiment ran)
SETTINGS = playout_settings(POLICY_NET, bearoff_truncation=True)


@njit(cache=True, parallel=True)
def rollout_many(positions, seeds, trials, params, settings, out):
    weights = playout_weights(params)
    for p in prange(positions.shape[0]):
        buffers = new_buffers()
        scratch = np.zeros((5, 5))
        board = np.empty((2, 25), dtype=np.int8)
        state = np.empty(1, dtype=np.uint64)
        rolls = np.full(2, -1, dtype=np.int64)
        values = np.zeros(5)
        total = np.zeros(5)
        for t in range(trials):
            board[:, :] = positions[p]
            state[0] = trial_seed(seeds[p], t)
            play_trial(board, state, rolls, settings, params, weights, buffers, scratch, values,
                       NO_MATCH_TABLE, search_buffers(settings, weights))
            for k in range(5):
                total[k] += values[k]
        for k in range(5):
            out[p, k] = total[k] / trials


@njit(cache=True)
def raw_outputs(params, positions, out):
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z = np.empty(N_HIDDEN)
    h = np.empty(HIDDEN_ROOM)
    y = np.empty(N_OUTPUTS)
    for p in range(positions.shape[0]):
        n = encode(positions[p], 1, idx, val)
        offset = 0 if is_contact(positions[p], 1) else NET_SIZE
        forward(params, offset, idx, val, n, z, h, y)
        out[p] = y


@njit(cache=True)
def sgd_epoch(params, positions, targets, order, alpha):
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z = np.empty(N_HIDDEN)
    h = np.empty(HIDDEN_ROOM)
    y = np.empty(N_OUTPUTS)
    coef = np.empty(N_OUTPUTS)
    loss = 0.0
    for i in order:
        n = encode(positions[i], 1, idx, val)
        offset = 0 if is_contact(positions[i], 1) else NET_SIZE
        forward(params, offset, idx, val, n, z, h, y)
        for k in range(5):
            d = targets[i, k] - y[k]
            loss += d * d
            coef[k] = alpha * d
        add_gradient(params, offset, idx, val, n, z, h, y, coef, params)
    return loss / len(order)


def mover_equity(probs):
    """Equity of the side that made the play, from probabilities of the side on roll."""
    return -(2 * probs[:, 0] - 1 + probs[:, 1] - probs[:, 3] + probs[:, 2] - probs[:, 4])


def load_net(path):
    from bgcli.net import load_params
    return np.ascontiguousarray(load_params(path))


def main():
    cmd = sys.argv[1]
    t0 = time.time()
    if cmd == "sample":
        weights, starts_file, n_games, keep, out, seed = sys.argv[2:8]
        from bgcli.train import read_training_positions
        starts, _ = read_training_positions(starts_file)
        buf = np.zeros((int(n_games) * 40, 2, 25), dtype=np.int8)
        n = sample_positions(load_net(weights), starts, int(seed), int(n_games), float(keep), buf)
        np.savez(out, boards=buf[:n])
        print("sampled", n, time.time() - t0)
    elif cmd == "candidates":
        weights, samples, n, k, out, seed, mode = sys.argv[2:9]
        mode = {"top": 0, "random": 1}[mode]
        boards = np.load(samples)["boards"][:int(n)]
        buf = np.zeros((len(boards) * int(k), 2, 25), dtype=np.int8)
        group = np.zeros(len(buf), dtype=np.int64)
        m = candidates(load_net(weights), boards, int(seed), int(k), buf, group, int(mode))
        np.savez(out, boards=buf[:m], group=group[:m])
        print("candidates", m, "from", len(boards), time.time() - t0)
    elif cmd == "rollout":
        weights, samples, trials, out, seed = sys.argv[2:7]
        from bgcli.evaluation import net_params
        params = net_params(weights)
        boards = np.load(samples)["boards"]
        targets = np.zeros((len(boards), 5))
        d = np.load(samples)
        groups = d["group"] if "group" in d else np.arange(len(boards))
        seeds = (int(seed) + groups * 7919).astype(np.int64)
        rollout_many(boards[:4], seeds[:4], 2, params, SETTINGS, targets[:4])
        t1 = time.time()
        rollout_many(boards, seeds, int(trials), params, SETTINGS, targets)
        np.savez(out, boards=boards, targets=targets, trials=int(trials), group=groups)
        print("rolled", len(boards), "x", trials, time.time() - t1)
    elif cmd == "judge":
        data, *nets = sys.argv[2:]
        d = np.load(data)
        n_test = len(d["boards"]) // 10
        boards, group = d["boards"][:n_test], d["group"][:n_test]
        rolled = mover_equity(d["targets"][:n_test])
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        ends = np.r_[starts[1:], len(group)]
        for net in nets:
            y = np.zeros((n_test, 5))
            raw_outputs(load_net(net), boards, y)
            mine = mover_equity(y)
            gain = np.array([rolled[s + int(np.argmax(mine[s:e]))] - rolled[s]
                             for s, e in zip(starts, ends) if e - s > 1])
            print(f"{net}: {gain.size} decisions, rollout gain of its favourite "
                  f"{gain.mean():+.4f} +- {gain.std(ddof=1) / np.sqrt(gain.size):.4f}")
    elif cmd == "fit":
        weights, data, distill, alpha, epochs, out = sys.argv[2:8]
        params = load_net(weights).copy()
        parts = [np.load(f) for f in data.split(",")]
        n_tests = [len(p["boards"]) // 10 for p in parts]
        test_b = np.concatenate([p["boards"][:k] for p, k in zip(parts, n_tests)])
        test_t = np.concatenate([p["targets"][:k] for p, k in zip(parts, n_tests)])
        train_b = np.concatenate([p["boards"][k:] for p, k in zip(parts, n_tests)])
        train_t = np.concatenate([p["targets"][k:] for p, k in zip(parts, n_tests)])
        n_test = len(test_b)
        if distill != "-":
            db = np.load(distill)["boards"]
            dt = np.zeros((len(db), 5))
            raw_outputs(params, db, dt)
            train_b = np.concatenate([train_b, db])
            train_t = np.concatenate([train_t, dt])
        rng = np.random.default_rng(1)

        def report(tag):
            y = np.zeros((n_test, 5))
            raw_outputs(params, test_b, y)
            eq = lambda p: 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
            e = eq(y) - eq(test_t)
            print(tag, "test mse", round(float(((y - test_t) ** 2).mean()), 5),
                  "equity bias", round(float(e.mean()), 4), "rms", round(float(np.sqrt((e ** 2).mean())), 4),
                  flush=True)

        report("before")
        for epoch in range(int(epochs)):
            order = rng.permutation(len(train_b))
            loss = sgd_epoch(params, train_b, train_t, order, float(alpha))
            report(f"epoch {epoch} train {loss:.5f}")
        from bgcli.net import read_weights, save_weights
        _, record = read_weights(weights)
        record = dict(record)
        record["refined"] = {"data": data, "distill": distill, "alpha": float(alpha),
                             "epochs": int(epochs)}
        save_weights(out, params, record)
        print("saved", out, time.time() - t0)


if __name__ == "__main__":
    main()
