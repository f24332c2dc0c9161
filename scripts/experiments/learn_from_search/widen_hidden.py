"""Weights of the 218-80-5 nets as 218-H-5 ones that are the same function: the new hidden
units get small random input weights and zero output weights. For measuring what a wider
net costs in playout speed (docs/net.md, "A larger contact net"):

    git archive HEAD | tar -x -C /tmp/wide && cd /tmp/wide
    sed -i 's/^N_HIDDEN = 80$/N_HIDDEN = 128/' bgcli/kernels/net.py
    python scripts/experiments/learn_from_search/widen_hidden.py bgcli/data/net_weights.npz wide.npz 128
    BGCLI_WEIGHTS=wide.npz NUMBA_NUM_THREADS=1 python -m scripts.bench_rollout \\
        --positions 4HPwATDgc/ABMA --trials-plain 1296 --trials-vr 36 --repeat 3 --json bench128.json

Plain numpy (the kernels of the source tree it runs in are not imported).
"""

import sys

import numpy as np

N_INPUTS, OLD = 218, 80


def widen(params: np.ndarray, hidden: int, rng: np.random.Generator) -> np.ndarray:
    size = N_INPUTS * OLD + 6 * OLD + 5
    nets = []
    for start in (0, size):  # the contact net, then the race net
        net = params[start:start + size]
        w1 = net[:N_INPUTS * OLD].reshape(N_INPUTS, OLD)
        b1 = net[N_INPUTS * OLD:N_INPUTS * OLD + OLD]
        w2 = net[N_INPUTS * OLD + OLD:N_INPUTS * OLD + 6 * OLD].reshape(5, OLD)
        b2 = net[N_INPUTS * OLD + 6 * OLD:]
        extra = hidden - OLD
        nets += [np.hstack([w1, rng.uniform(-0.1, 0.1, (N_INPUTS, extra))]).ravel(),
                 np.concatenate([b1, np.zeros(extra)]),
                 np.hstack([w2, np.zeros((5, extra))]).ravel(), b2]
    return np.concatenate(nets)


def main() -> None:
    source, target, hidden = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with np.load(source) as old:
        params = widen(old["params"], hidden, np.random.default_rng(1))
        np.savez(target, params=params, n_inputs=N_INPUTS, n_hidden=hidden,
                 record=str(old["record"]))


if __name__ == "__main__":
    main()
