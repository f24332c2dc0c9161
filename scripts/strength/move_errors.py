"""Why rollouts from a position differ from gnubg's: gnubg 0-ply judges bgcli's moves.

    pip install gnubg        # the GNU Backgammon engine as a Python module (bench only)
    python -m scripts.strength.move_errors 5u42AADAzJwBMw 4HPwATDgc/ABMA --games 30 \\
        -o scripts/strength/move_errors.json

From each position bgcli's greedy net plays ``--games`` games against itself (the games of a
rollout; dice from numpy's PCG64 seeded by ``--seed``). At every move gnubg's 0-ply
evaluation scores each legal play, and the move's *error* is the cubeless equity between
gnubg's favourite and bgcli's choice. Errors are reported per side (``first``: the side on
roll in the position, ``second``: its opponent), over the whole game and over each side's
first 10 moves, where the position's theme still holds. A side whose errors run well above
those of the opening position is where bgcli's playouts, and so its rollout, part from
gnubg's. gnubg is the judge here only, never a teacher. ``--plies 1`` has bgcli play each
move at 1 ply (as ``bgcli best`` ranks plays) instead: how much of the error a lookahead
removes (``scripts/strength/move_errors_1ply.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import bgcli.net
from bgcli import __version__
from bgcli.moves import legal_plays
from bgcli.position import Position

from scripts.strength.vs_gnubg import GnubgPlayer, bgcli_choose, parse_args

EARLY_MOVES = 10
BIG_ERROR = 0.02


def move_error(judge: GnubgPlayer, plays, chosen) -> float:
    """gnubg 0-ply's cubeless equity of its favourite play minus that of ``chosen``."""
    # a finishing play scores the game's points (a gammon or backgammon may be worth
    # waiting for: not always best)
    scores = judge.scores(plays)
    mine = next(score for play, score in zip(plays, scores)
                if np.array_equal(play.result.board, chosen.result.board))
    return float(max(scores) - mine)


def judge_position(judge: GnubgPlayer, position_id: str, games: int, seed: int,
                   plies: int = 0) -> dict:
    rng = np.random.default_rng([seed, games])
    errors = {"first": [], "second": []}
    early = {"first": [], "second": []}
    for _ in range(games):
        position, side, moves = Position.from_id(position_id), "first", {"first": 0, "second": 0}
        while True:
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            plays = legal_plays(position, dice)
            if plays:
                chosen = bgcli_choose(position, dice, "net", plies)
                error = move_error(judge, plays, chosen)
                errors[side].append(error)
                if moves[side] < EARLY_MOVES:
                    early[side].append(error)
                moves[side] += 1
                if chosen.result.is_game_over():
                    break
                position = chosen.result.swapped()
            else:
                position = position.swapped()
            side = "second" if side == "first" else "first"

    def summary(values: list[float]) -> dict:
        a = np.array(values)
        return {"moves": int(a.size), "mean_error": round(float(a.mean()), 5),
                "share_over_0.02": round(float(np.mean(a > BIG_ERROR)), 4)}

    return {"position_id": position_id, "games": games,
            **{f"{side}_all": summary(errors[side]) for side in errors},
            **{f"{side}_first_{EARLY_MOVES}": summary(early[side]) for side in early}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="+", help="GNU Backgammon Position IDs")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, choices=(0, 1), default=0,
                        help="bgcli plays at 0 ply (as in rollouts, the default) or 1 ply")
    args = parse_args(parser, verb="judge")
    judge = GnubgPlayer()
    began = time.perf_counter()
    rows = []
    for position_id in args.positions:
        row = judge_position(judge, position_id, args.games, args.seed, args.plies)
        rows.append(row)
        print(f"{position_id}: " + "  ".join(
            f"{key} {value['mean_error']:.4f} ({value['share_over_0.02']:.0%} > 0.02)"
            for key, value in row.items() if isinstance(value, dict)), file=sys.stderr)
    result = {"rows": rows, "seed": args.seed, "plies": args.plies,
              "judge": "gnubg 0-ply, cubeless",
              "net_games": bgcli.net.weights_record().get("games"),
              "weights": args.weights or "shipped", "bgcli_version": __version__,
              "seconds": round(time.perf_counter() - began, 1)}
    text = json.dumps(result, indent=1)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")


if __name__ == "__main__":
    main()
