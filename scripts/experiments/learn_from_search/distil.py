"""Distillation data for a new net shape: many contact positions of the shipped net's own
self-play, each labelled by the shipped net's 0 ply (its five outputs, the net alone).

    NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.distil /work/ld/distil_s1 \\
        --games 150000 --seed 1 --from positions/train_backgames.txt --from positions/train_anchors.txt

A net of another shape (``bgcli train --second-layer`` grows one; ``--fresh`` here writes a
fresh one) cannot inherit the shipped net's millions of self-play games through its
weights; fitted to the shipped net's outputs on many positions first, it can inherit its
judgement, and then learn from the 2-ply labels. 0-ply labels cost next to nothing, so the
positions come from a numba kernel, not from ``bgcli train-data``'s Python sampler: games
of the shipped net against itself (float32 playout weights, greedy 0 ply), half of them
from the opening (1-10 random plies first, as ``bgcli train --explore`` does), the other
half from the collections ``--from`` names (equal shares); every contact position after a
play is kept with chance ``--keep``, as the next player (row 1 on roll) sees it.

The folder is written in ``bgcli train-data``'s layout (``settings.json``, ``chunk-*.npz``,
``plies`` 0 in the settings), so that ``bgcli train --data`` reads it; chunks of
``--chunk`` positions, every one a function of the seed and its index: rerunning the same
command goes on from the chunks there (``bgcli.learn.grow_folder``, as ``train-data``).
``--fresh FILE`` also writes the starting weights of a new two-layer contact net: random
first and second layers (seeded), the shipped race net.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from numba import njit

from bgcli import Position
from bgcli.kernels import net
from bgcli.kernels.dice import next_u64, roll_dice, uniform
from bgcli.kernels.movegen import generate_plays, new_buffers
from bgcli.kernels.playout import trial_seed
from bgcli.kernels.supervised import net_outputs
from bgcli.learn import DataSettings, grow_folder
from bgcli.net import load_params, net_id, save_weights
from bgcli.train import read_training_positions

MAX_RANDOM_PLIES = 10
MAX_PLIES = 200


@njit(cache=True)
def _play_and_keep(weights, starts, start_source, opening, seed, first_game, n_games, keep,
                   out, source):
    """Play games ``first_game``.. of the net against itself (row 1 on roll) and keep
    contact positions into ``out`` until it is full; the games played and positions kept."""
    boards, steps, keys, table, work = new_buffers()
    board = np.empty((2, 25), dtype=np.int8)
    state = np.empty(1, dtype=np.uint64)
    probs = np.empty(5)
    found = 0
    game = first_game
    while found < out.shape[0] and game < first_game + n_games:
        state[0] = trial_seed(seed, game)
        game += 1
        from_opening = starts.shape[0] == 0 or uniform(state) < 0.5
        if from_opening:
            board[:, :] = opening
            random_plies = 1 + np.int64(next_u64(state) % np.uint64(MAX_RANDOM_PLIES))
            origin = 0
        else:
            pick = np.int64(next_u64(state) % np.uint64(starts.shape[0]))
            board[:, :] = starts[pick]
            random_plies = 0
            origin = start_source[pick]
        for ply in range(MAX_PLIES):
            d1, d2 = roll_dice(state)
            while from_opening and ply == 0 and d1 == d2:
                d1, d2 = roll_dice(state)
            count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
            if ply < random_plies:
                choice = np.int64(next_u64(state) % np.uint64(count))
            else:
                choice = net.net_choose(count, weights, boards, probs, True)
            done = True
            for index in range(25):  # the next player on roll: row 1
                board[0, index] = boards[choice, 1, index]
                board[1, index] = boards[choice, 0, index]
                if board[0, index] > 0:
                    done = False
            if done:
                break
            if net.is_contact(board, 1) and uniform(state) < keep:
                out[found] = board
                source[found] = origin
                found += 1
                if found == out.shape[0]:
                    break
    return game - first_game, found


def fresh_two_layer(seed: int) -> np.ndarray:
    """A new contact net with a second layer (random, seeded; U small, not zero) beside the
    shipped race net."""
    shipped = load_params()
    params = net.init_params(seed)
    params[net.NET_SIZE:] = shipped[net.NET_SIZE:net.PARAMS_SIZE]
    params = net.with_second_layer(params, seed)
    rng = np.random.default_rng([seed, 2])
    params[net.U_AT:net.U_AT + 5 * net.N_HIDDEN2] = rng.uniform(-0.1, 0.1, 5 * net.N_HIDDEN2)
    return params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--games", type=int, default=150_000, help="games per run, at most")
    parser.add_argument("--positions", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=float, default=0.5)
    parser.add_argument("--chunk", type=int, default=100_000)
    parser.add_argument("--from", dest="files", action="append", default=[])
    parser.add_argument("--fresh", type=Path, help="also write a fresh two-layer net here")
    args = parser.parse_args()
    if args.fresh:
        save_weights(args.fresh, fresh_two_layer(args.seed),
                     {"method": "fresh contact net with a second layer (distil.py --fresh), "
                                "the shipped race net", "seed": args.seed,
                      "history": [{"command": " ".join(sys.argv), "method": "fresh"}]})
    params = load_params()
    weights = net.playout_weights(params)
    infos, boards, sources = [], [], []
    for number, name in enumerate(args.files, 1):
        found, info = read_training_positions(name)
        infos.append(info)
        boards.append(found)
        sources.append(np.full(len(found), number, dtype=np.int8))
    starts = np.ascontiguousarray(np.concatenate(boards) if boards else
                                  np.zeros((0, 2, 25)), dtype=np.int8)
    start_source = np.concatenate(sources) if sources else np.zeros(0, dtype=np.int8)
    opening = np.ascontiguousarray(Position.start().board, dtype=np.int8)
    settings = DataSettings(seed=args.seed, plies=0, chunk=args.chunk, keep=args.keep,
                            max_plies=MAX_PLIES, opening_share=0.5, sources=tuple(infos),
                            net=net_id(), alternatives=0)
    def chunk(index: int) -> dict:
        out = np.zeros((args.chunk, 2, 25), dtype=np.int8)
        source = np.zeros(args.chunk, dtype=np.int8)
        # each chunk's games are its own: game numbers from index * args.games on
        played, found = _play_and_keep(weights, starts, start_source, opening, args.seed,
                                       index * args.games, args.games, args.keep, out, source)
        if found < args.chunk:
            sys.exit(f"chunk {index}: {args.games} games kept only {found} positions")
        targets = np.zeros((args.chunk, 5))
        net_outputs(params, out, targets)
        return {"boards": out, "targets": targets, "source": source,
                "ply": np.zeros(args.chunk, dtype=np.int16),
                "rank": np.zeros(args.chunk, dtype=np.int8), "games": np.int64(played)}

    command = "python -m scripts.experiments.learn_from_search.distil " + " ".join(sys.argv[1:])
    grow_folder(args.folder, settings, args.positions, chunk, command)


if __name__ == "__main__":
    main()
