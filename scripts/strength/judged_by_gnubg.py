"""Error rates judged by gnubg 2-ply: bgcli's self-play beside gnubg 0-ply's own.

    pip install --target DIR gnubg   # the GNU Backgammon engine as a Python module (judge only)
    PYTHONPATH=.:DIR python -m scripts.strength.judged_by_gnubg --games 100 \\
        -o scripts/strength/judged_by_gnubg.json

Two self-play series from the opening, the same dice (numpy's PCG64 seeded by (seed, game),
the opening roll never a double): bgcli 0-ply (the greedy net of its rollouts) against
itself, and gnubg 0-ply (``GnubgPlayer`` of ``vs_gnubg``) against itself. At every move with
a choice the judge, gnubg at 2 ply, scores every legal play: a play that ends the game by
its points (1, 2 or 3), any other by gnubg's 1-ply cubeless equity of the position after
it, from the mover's side (each reply chosen at 0 ply and averaged over the 21 rolls: the
2-ply ranking, with no move filter). A move's *error* is the best play's score less the
played one's, in mEMG (thousandths of a point: money, cube at 1); the error rate is the
mean over moves with a choice, gnubg's "error rate per unforced move", with its standard
error over games (a game's moves are not independent).

On the positions of bgcli's own series, ``--also-plies 1 2`` judges too what bgcli would
have played there at 1 and 2 ply (``rank_plays`` through gnubg's normal filter): how much
of its 0-ply error a lookahead removes, in the games bgcli's rollouts play. The judge is
gnubg's own net, so it favours gnubg's choices somewhat (a play gnubg 0-ply likes, gnubg
2-ply mostly likes too): read the gap as an upper bound. gnubg is the judge only, never a
teacher: nothing here trains anything.

``--starts FILE`` plays game ``g`` from the collection's position ``g`` instead of the
opening (``scripts/experiments/learn_from_search/races_seed2.txt``: races, to judge the race
net on many more race moves than games from the opening reach). Themes: the opening (games
from the opening only), a race (the sides have passed each other and one still has a checker
outside its home board: the race net's positions), a bear-off (both sides home: the bear-off
databases'), a back game, another contact position. Records before session 21 counted the
bear-offs among the races.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict

import numpy as np

from bgcli import __version__
from bgcli.moves import legal_plays
from bgcli.net import weights_record
from bgcli.position import Position

from scripts.strength.vs_gnubg import (MAX_PLIES, GnubgPlayer, bgcli_choose, dice_stream,
                                       parse_args)


def theme(position: Position, ply: int, from_opening: bool = True) -> str:
    """The kind of position a move is made in: the opening (first four plies of a game from
    the opening), a race, a bear-off (both sides home), a back game (the mover holds two
    points or more in the opponent's home board and trails by 40 pips or more), or another
    contact position."""
    if from_opening and ply < 4:
        return "opening"
    if position.is_race():
        return "bear-off" if position.is_bearoff() else "race"
    board = position.board
    mine, theirs = position.pips()
    if int((board[1, 18:24] >= 2).sum()) >= 2 and mine - theirs >= 40:
        return "back game"
    return "contact"


class Judge:
    """gnubg 2-ply's score of every play of a roll (module docstring)."""

    def __init__(self, player: GnubgPlayer) -> None:
        self.player = player
        self.context = player.gnubg.evalcontext(0, 1, 0, 1, 0.0)  # cubeless, 1 ply, no noise

    def scores(self, plays) -> np.ndarray:
        return np.array(self.player.scores(plays, self.context))


def index_of(plays, chosen) -> int:
    return next(i for i, play in enumerate(plays)
                if np.array_equal(play.result.board, chosen.result.board))


def play_series(engine: str, games: int, seed: int, judge: Judge, gnubg: GnubgPlayer,
                also_plies: list[int], starts=None) -> dict:
    """Every judged move's error (mEMG), by game and theme, for ``engine``'s self-play;
    for bgcli also the errors of ``also_plies``' choices in the same positions."""
    errors = defaultdict(list)  # (label, theme) -> [(game, error)]
    labels = [f"{engine} 0-ply"] + [f"bgcli {p}-ply" for p in also_plies if engine == "bgcli"]
    start = time.time()
    for game in range(games):
        rolls = dice_stream(seed, game)
        position = Position.start() if starts is None else Position(starts[game])
        for ply in range(MAX_PLIES):
            dice = (int(rolls[ply % len(rolls), 0]), int(rolls[ply % len(rolls), 1]))
            plays = legal_plays(position, dice)
            if engine == "bgcli":
                chosen = bgcli_choose(position, dice, "net", 0)
            else:
                chosen = gnubg.choose(position, dice, False)
            if len(plays) > 1:
                scores = judge.scores(plays)
                kind = theme(position, ply, starts is None)
                choices = [chosen] + [bgcli_choose(position, dice, "net", p, "normal")
                                      for p in also_plies if engine == "bgcli"]
                for label, choice in zip(labels, choices):
                    loss = 1000.0 * (scores.max() - scores[index_of(plays, choice)])
                    errors[(label, kind)].append((game, loss))
            if chosen is None:
                position = position.swapped()
            elif chosen.result.is_game_over():
                break
            else:
                position = chosen.result.swapped()
        if (game + 1) % 10 == 0:
            print(f"{engine}: {game + 1} games ({time.time() - start:.0f} s)", file=sys.stderr)
    return errors


def summary(pairs: list[tuple[int, float]], games: int) -> dict:
    """Mean error per move and its SE over games (ratio estimator: each game's sum of
    errors over its moves)."""
    per_game_sum = np.zeros(games)
    per_game_moves = np.zeros(games)
    for game, loss in pairs:
        per_game_sum[game] += loss
        per_game_moves[game] += 1
    moves = per_game_moves.sum()
    rate = per_game_sum.sum() / moves
    residual = per_game_sum - rate * per_game_moves
    used = per_game_moves > 0
    n = int(used.sum())
    # the ratio's variance: sum of the residuals' squares / (n - 1), over n * (mean moves)^2
    se = (math.sqrt((residual[used] ** 2).sum() / (n - 1) * n) / moves) if n > 1 else math.nan
    losses = np.array([loss for _, loss in pairs])
    return {"moves": int(moves), "games": n, "mEMG_per_move": round(float(rate), 3),
            "se": round(float(se), 3) if math.isfinite(se) else None,
            "share_over_20_mEMG": round(float(np.mean(losses > 20.0)), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="self-play games a series")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--also-plies", type=int, nargs="*", default=[1], choices=(1, 2),
                        help="bgcli's deeper choices judged in its own games' positions")
    parser.add_argument("--starts", help="play game g from this collection's position g "
                        "(default: every game from the opening)")
    args = parse_args(parser, "judge")
    starts = None
    if args.starts:
        from bgcli.train import read_training_positions

        starts, _ = read_training_positions(args.starts)
        if len(starts) < args.games:
            parser.error(f"{args.starts} holds {len(starts)} positions, fewer than --games")

    gnubg = GnubgPlayer()
    judge = Judge(gnubg)
    start = time.time()
    errors = {}
    for engine in ("bgcli", "gnubg"):
        errors.update(play_series(engine, args.games, args.seed, judge, gnubg, args.also_plies,
                                  starts))
    result = {
        "judge": "gnubg 2-ply cubeless (1-ply equity after each play), PyPI gnubg "
                 + gnubg.gnubg.version,
        "games_per_series": args.games, "seed": args.seed, "also_plies": args.also_plies,
        "starts": args.starts or "the opening",
        "bgcli_version": __version__, "net_games": weights_record().get("games"),
        "weights": args.weights or "shipped", "seconds": round(time.time() - start, 1),
        "rates": {},
    }
    for label in sorted({label for label, _ in errors}):
        mine = {kind: pairs for (name, kind), pairs in errors.items() if name == label}
        every = [pair for pairs in mine.values() for pair in pairs]
        result["rates"][label] = {"all": summary(every, args.games),
                                  **{kind: summary(pairs, args.games)
                                     for kind, pairs in sorted(mine.items())}}
    text = json.dumps(result, indent=2)
    if args.output:
        with open(args.output, "w") as handle:
            handle.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
