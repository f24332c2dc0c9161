"""What a second hidden layer would cost the playouts, before anyone builds it.

    NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.second_layer_cost \\
        /work/ld/alt4_s39 --positions 2000 -o second_layer_cost.json

A playout chooses each ply's play with ``net_choose_into``: every candidate result is
scored from a reference by the inputs that changed (the hidden layer is updated, not
recomputed), then the 80 hidden units feed the five outputs. A second hidden layer of H
units would add an 80 x H float32 product, H activations and swap the 80 x 5 output for an
H x 5 one, on every candidate. This times, on the plays of real positions (one
``bgcli train-data`` folder's boards, each with a roll drawn from a seeded generator):
``net_choose_into`` per candidate as it is, and the extra layer's arithmetic alone per
candidate (random float32 weights: the cost does not depend on their values), in the same
precision and loop style as ``_outputs``; the 80 x 5 output it would replace is not taken
off, so the figure is an upper bound by about 400 multiply-adds. Their ratio bounds what
the layer would add to a playout's time from above: a playout also generates the plays,
rolls, and values bear-offs by the databases.

``--weights A.npz B.npz`` (session 23, once the layer was built) also times
``net_choose_into`` with each weights file as it is, e.g. the shipped net against a
two-layer one (``--second`` with no sizes skips the synthetic layers).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from numba import njit

from bgcli import __version__
from bgcli.kernels.movegen import generate_plays, new_buffers
from bgcli.kernels.net import N_HIDDEN, choice_buffers, net_choose_into, playout_weights
from bgcli.learn import read_training_data
from bgcli.net import load_params


@njit(cache=True)
def _second_layer(h, w2, b2, v, c, y, times):
    """``times`` passes of: H rational-sigmoid units from the 80 hidden ones, then five
    sums from them (the extra arithmetic a 80-H-5 net does per candidate). ``w2`` is
    input-major (80 x H), so each hidden unit adds one contiguous row, as the first layer's
    inputs do (the loop over the H units vectorises without reordering any sum)."""
    n_second = w2.shape[1]
    half = np.float32(0.5)
    one = np.float32(1.0)
    z = np.empty(n_second, dtype=np.float32)
    g = np.empty(n_second, dtype=np.float32)
    total = np.float32(0.0)
    for _ in range(times):
        z[:] = b2
        for j in range(h.size):
            hj = h[j]
            row = w2[j]
            for k in range(n_second):
                z[k] += row[k] * hj
        for k in range(n_second):
            g[k] = half + half * z[k] / (one + abs(z[k]))
        a0, a1, a2, a3, a4 = c[0], c[1], c[2], c[3], c[4]
        for k in range(n_second):  # five chains side by side, as _outputs does
            gk = g[k]
            a0 += v[0, k] * gk
            a1 += v[1, k] * gk
            a2 += v[2, k] * gk
            a3 += v[3, k] * gk
            a4 += v[4, k] * gk
        y[0], y[1], y[2], y[3], y[4] = a0, a1, a2, a3, a4
        total += a0
        h[0] = h[0] + np.float32(1e-7)  # keep the passes from being folded into one
    return total


def _candidate_sets(boards: np.ndarray, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    buffers = new_buffers()
    sets = []
    for board in boards:
        d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
        count, _ = generate_plays(board, d1, d2, *buffers)
        if count > 0:
            sets.append(buffers[0][:count].copy())
    return sets


def _time_choices(sets, weights, repeat: int) -> float:
    buffers = choice_buffers(weights)
    probs = np.zeros(5)
    began = time.perf_counter()
    for _ in range(repeat):
        for plays in sets:
            net_choose_into(plays.shape[0], weights, plays, probs, True, buffers)
    return time.perf_counter() - began


def _time_weights_files(sets, candidates: int, files: list[str], repeat: int) -> dict:
    """ns a candidate of ``net_choose_into`` with each file's playout weights: three rounds,
    the files one after the other in each (so that a change of load hits them alike), and
    each file's median."""
    from bgcli.net import read_weights

    weights = {name: playout_weights(read_weights(name)[0]) for name in files}
    for w in weights.values():
        _time_choices(sets[:10], w, 1)  # compile
    rounds: dict[str, list[float]] = {name: [] for name in files}
    for _ in range(3):
        for name, w in weights.items():
            seconds = _time_choices(sets, w, repeat)
            rounds[name].append(1e9 * seconds / (candidates * repeat))
    for name, times in rounds.items():
        print(name, [round(t) for t in times], "ns a candidate", flush=True)
    return {name: {"ns_per_candidate": float(np.median(times)), "rounds": times}
            for name, times in rounds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--second", type=int, nargs="*", default=[10, 20, 40])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", nargs="+", default=[],
                        help="also time net_choose_into with each of these weights files "
                             "(session 23: a built two-layer net), three rounds interleaved")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    data = read_training_data([args.folder])
    sets = _candidate_sets(data.boards[:args.positions], args.seed)
    candidates = sum(plays.shape[0] for plays in sets)
    weights = playout_weights(load_params())
    _time_choices(sets[:10], weights, 1)  # compile
    seconds = _time_choices(sets, weights, args.repeat)
    choose_ns = 1e9 * seconds / (candidates * args.repeat)
    candidates_per_ply = candidates / len(sets)
    record = {"bgcli_version": __version__, "folder": args.folder, "positions": len(sets),
              "candidates_per_ply": candidates_per_ply, "net_choose_ns_per_candidate": choose_ns,
              "second_layers": {}}
    if args.weights:
        record["weights"] = _time_weights_files(sets, candidates, args.weights, args.repeat)
    rng = np.random.default_rng(args.seed)
    h = rng.uniform(0.0, 1.0, N_HIDDEN).astype(np.float32)
    y = np.zeros(5, dtype=np.float32)
    passes = 200_000
    for n_second in args.second:
        w2 = rng.normal(0.0, 0.1, (N_HIDDEN, n_second)).astype(np.float32)
        b2 = np.zeros(n_second, dtype=np.float32)
        v = rng.normal(0.0, 0.1, (5, n_second)).astype(np.float32)
        c = np.zeros(5, dtype=np.float32)
        _second_layer(h, w2, b2, v, c, y, 10)  # compile
        began = time.perf_counter()
        _second_layer(h, w2, b2, v, c, y, passes)
        extra_ns = 1e9 * (time.perf_counter() - began) / passes
        record["second_layers"][str(n_second)] = {
            "extra_ns_per_candidate": extra_ns,
            "share_of_choice": extra_ns / choose_ns}
        print(n_second, record["second_layers"][str(n_second)], flush=True)
    print(json.dumps({k: v for k, v in record.items() if k != "second_layers"}))
    with open(args.output, "w") as handle:
        json.dump(record, handle, indent=2)


if __name__ == "__main__":
    main()
