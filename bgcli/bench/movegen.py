"""Benchmark: legal-move generation on random mid-game positions, one thread.

    bgcli bench --part movegen [--quick]
    python -m scripts.bench_movegen [--positions 1000000] [--seed 1] [--json FILE]

Positions come from uniformly random games (plies 6..60 that still have contact); each gets a
random roll. Prints µs per position and plays per second. Compile time is excluded (warm-up).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ..kernels.bench import generate_all
from ..kernels.dice import new_state
from ..kernels.movegen import MoveBuffers
from ..kernels.random_play import random_game_positions
from ..position import Position
from .save import report_and_save


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


TARGET_US = 2.0


def measure(positions_wanted: int, seed: int = 1, repeat: int = 3) -> dict:
    """Make the positions, then time move generation over all of them (best of ``repeat``,
    CPU time of this thread, compile excluded)."""
    t0 = time.process_time()
    positions, dice = midgame_positions(positions_wanted, seed)
    made_s = time.process_time() - t0
    buffers = MoveBuffers()
    generate_all(positions[:1000], dice[:1000], *buffers.arrays())  # compile / warm up
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        total = generate_all(positions, dice, *buffers.arrays())
        times.append(time.process_time() - t0)
    best = min(times)
    return dict(benchmark="movegen", positions=len(positions), seed=seed, repeat=repeat,
                made_s=made_s, us_per_position=best / len(positions) * 1e6,
                us_per_position_all=[t / len(positions) * 1e6 for t in times],
                plays_per_position=total / len(positions), million_plays_per_s=total / best / 1e6,
                target_us=TARGET_US)


def report(row: dict) -> None:
    print(f"movegen: {row['us_per_position']:.2f} µs per position (best of {row['repeat']}; "
          f"target {row['target_us']:.1f}), {row['plays_per_position']:.1f} plays per position, "
          f"{row['million_plays_per_s']:.2f} M plays/s, {row['positions']:,} positions")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the result as JSON here")
    args = parser.parse_args(argv)
    row = measure(args.positions, args.seed)
    return report_and_save(row, report, args.json)


if __name__ == "__main__":
    main()
