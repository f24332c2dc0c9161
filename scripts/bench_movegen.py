"""Benchmark: legal-move generation on random mid-game positions, one thread.

    python -m scripts.bench_movegen [--positions 1000000] [--seed 1]

Positions come from uniformly random games (plies 6..60 that still have contact); each gets a
random roll. Prints µs per position and plays per second. Compile time is excluded (warm-up).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from bgcli.kernels.dice import new_state
from bgcli.kernels.movegen import MoveBuffers, generate_plays
from bgcli.kernels.random_play import random_game_positions
from bgcli.position import Position


@njit(cache=True)
def _time_all(positions, dice, boards, steps, keys, table, work):
    total = 0
    for i in range(positions.shape[0]):
        count, _ = generate_plays(positions[i], dice[i, 0], dice[i, 1], boards, steps, keys, table, work)
        total += count
    return total


def midgame_positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    buffers = MoveBuffers()
    state = new_state(seed)
    out = np.zeros((n, 2, 25), dtype=np.int8)
    out_dice = np.zeros((n, 2), dtype=np.int64)
    game_boards = np.zeros((400, 2, 25), dtype=np.int8)
    game_dice = np.zeros((400, 2), dtype=np.int64)
    filled = 0
    while filled < n:
        board = Position.start().board.copy()
        plies = random_game_positions(board, state, 400, game_boards, game_dice, *buffers.arrays())
        for ply in range(6, min(plies, 60)):
            if filled < n and not Position(game_boards[ply]).is_race():
                out[filled] = game_boards[ply]
                out_dice[filled] = game_dice[ply]
                filled += 1
    return out, out_dice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t0 = time.process_time()
    positions, dice = midgame_positions(args.positions, args.seed)
    print(f"made {len(positions):,} mid-game positions in {time.process_time() - t0:.1f} s")
    buffers = MoveBuffers()
    _time_all(positions[:1000], dice[:1000], *buffers.arrays())  # compile / warm up
    best = None
    for _ in range(3):
        t0 = time.process_time()
        total = _time_all(positions, dice, *buffers.arrays())
        elapsed = time.process_time() - t0
        best = elapsed if best is None else min(best, elapsed)
    per = best / len(positions) * 1e6
    print(f"movegen: {per:.2f} µs per position (best of 3), {total / len(positions):.1f} plays "
          f"per position, {total / best / 1e6:.2f} M plays/s")


if __name__ == "__main__":
    main()
