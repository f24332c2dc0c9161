"""Which side's play makes bgcli's rollout of a position differ from gnubg's.

    pip install gnubg        # the GNU Backgammon engine as a Python module (bench only)
    python -m scripts.experiments.mixed_play 5u42AADAzJwBMw wMycATZsu20AAA 4+4tAACwMXMAGw \\
        sHEOBzDabQAAAA Y7ttAAAgM54BGw 4HPwATDgc/ABMA --games 1000 \\
        -o scripts/experiments/mixed_play.json        # 38 minutes on one core

From each position, ``--games`` cubeless games are played four times over with the same dice
(game ``g`` rolls numpy's PCG64 seeded by (seed, g), whoever moves): bgcli's greedy net
(the policy of its rollouts) or gnubg 0-ply plays the side on roll (``first``) and its
opponent (``second``), in every combination. A config's equity is the first side's mean
points (1, 2 or 3 a game, no cube), a rollout without variance reduction.

bgcli-bgcli is bgcli's rollout and gnubg-gnubg gnubg's; the two mixed ones put the
difference where it is made. ``first_play`` = (bgcli, gnubg) - (gnubg, gnubg): what the
first side loses when bgcli plays it against gnubg; ``second_play`` = (gnubg, bgcli) -
(gnubg, gnubg): what the second side's play by bgcli moves the first side's equity. Each
difference is a mean over paired games (same dice), with the standard error of that mean.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

import bgcli.net
from bgcli import __version__
from bgcli.moves import legal_plays
from bgcli.position import Position

from scripts.strength.vs_gnubg import MAX_PLIES, GnubgPlayer, bgcli_choose, parse_args, points

CONFIGS = (("bgcli", "bgcli"), ("gnubg", "gnubg"), ("bgcli", "gnubg"), ("gnubg", "bgcli"))


def play_out(position_id: str, seed: int, game: int, first: str, second: str,
             gnubg: GnubgPlayer) -> int:
    """Points for the first side (the one on roll in the position) in game ``game``."""
    rng = np.random.default_rng([seed, game])
    position, side = Position.from_id(position_id), 0
    for _ in range(MAX_PLIES):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        if legal_plays(position, dice):
            if (first if side == 0 else second) == "bgcli":
                play = bgcli_choose(position, dice, "net")
            else:
                play = gnubg.choose(position, dice, False)
            if play.result.is_game_over():
                won = points(play.result)
                return won if side == 0 else -won
            position = play.result.swapped()
        else:
            position = position.swapped()
        side = 1 - side
    raise RuntimeError(f"{position_id}: game {game} did not finish")


def mean_se(values: np.ndarray) -> dict:
    return {"mean": round(float(values.mean()), 4),
            "se": round(float(values.std(ddof=1) / math.sqrt(values.size)), 4)}


def attribute(position_id: str, games: int, seed: int, gnubg: GnubgPlayer) -> dict:
    results = {}
    for first, second in CONFIGS:
        results[first, second] = np.array(
            [play_out(position_id, seed, g, first, second, gnubg) for g in range(games)], float)
    gnubg_self = results["gnubg", "gnubg"]
    return {"position_id": position_id, "games": games,
            "equity": {f"{first}-{second}": mean_se(values)
                       for (first, second), values in results.items()},
            "total": mean_se(results["bgcli", "bgcli"] - gnubg_self),
            "first_play": mean_se(results["bgcli", "gnubg"] - gnubg_self),
            "second_play": mean_se(results["gnubg", "bgcli"] - gnubg_self)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="+", help="GNU Backgammon Position IDs")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser)
    gnubg = GnubgPlayer()
    began = time.perf_counter()
    rows = []
    for position_id in args.positions:
        row = attribute(position_id, args.games, args.seed, gnubg)
        rows.append(row)
        print(f"{position_id}: " + "  ".join(
            f"{key} {row[key]['mean']:+.3f} ± {row[key]['se']:.3f}"
            for key in ("total", "first_play", "second_play")), file=sys.stderr, flush=True)
    result = {"rows": rows, "seed": args.seed, "gnubg": "0-ply, cubeless",
              "bgcli": "greedy net, 0 ply", "net": bgcli.net.net_id(),
              "bgcli_version": __version__, "seconds": round(time.perf_counter() - began, 1)}
    text = json.dumps(result, indent=1)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")


if __name__ == "__main__":
    main()
