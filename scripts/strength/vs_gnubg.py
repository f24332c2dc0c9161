"""Money games, cubeless: bgcli's greedy policy against GNU Backgammon 0-ply.

    pip install gnubg        # the GNU Backgammon engine as a Python module (bench only)
    python -m scripts.strength.vs_gnubg --deals 2500 --seed 1 -o scripts/strength/vs_gnubg.json

bgcli plays greedily at 0 ply (the policy of its rollouts), or with ``--plies 1`` (about
20 ms a move) or ``--plies 2`` (about 0.15 s a move, one thread) through the move filter
``--filter`` (gnubg's normal by default), so take fewer deals. ``-o`` is rewritten every
``--save-every`` deals, so that a run stopped early leaves its result so far.

    python -m scripts.strength.vs_gnubg --plies 2 --deals 1000 -o scripts/strength/vs_gnubg_2ply.json

Every deal is a fixed stream of dice (numpy's PCG64 seeded by (seed, deal)) played twice:
once with bgcli moving first, once with gnubg in bgcli's seat, so luck cancels in the pair.
The first roll of a deal is never a double (it is the opening roll). Games are scored
1/2/3 (single, gammon, backgammon); there is no cube. Points per game are from bgcli's side;
the standard error is taken over deals, since the two games of a deal are correlated.

gnubg plays 0-ply: each legal play (bgcli's exact move generator, checked against gnubg on
every fixture) is scored with ``gnubg.evaluate`` at 0 plies, cubeless, and the play with the
best cubeless equity is chosen, which is what gnubg's 0-ply "best move" does. With
``--check-agreement N`` the first N gnubg moves are compared with ``gnubg.findbestmove``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from bgcli import __version__
from bgcli.evaluation import cubeless_equity, rank_plays
from bgcli.moves import legal_plays
from bgcli.net import WEIGHTS_ENV, weights_record
from bgcli.position import Position

MAX_PLIES = 2000


def parse_args(parser: argparse.ArgumentParser, verb: str = "play with") -> argparse.Namespace:
    """The options every strength script shares, ``--weights`` (set as $BGCLI_WEIGHTS, so
    that the net policy plays with them: ``bgcli.net.weights_path``) and ``-o``, added to
    ``parser``'s own; the parsed arguments."""
    parser.add_argument("--weights", help=f"{verb} these net weights (.npz) instead of the shipped ones")
    parser.add_argument("-o", "--output", help="write the result as JSON here too")
    args = parser.parse_args()
    if args.weights:
        os.environ[WEIGHTS_ENV] = args.weights
    return args


def dice_stream(seed: int, deal: int, length: int = 600) -> np.ndarray:
    rng = np.random.default_rng([seed, deal])
    rolls = rng.integers(1, 7, size=(length, 2))
    while rolls[0, 0] == rolls[0, 1]:
        rolls[0] = rng.integers(1, 7, size=2)
    return rolls


class GnubgPlayer:
    def __init__(self) -> None:
        import gnubg

        self.gnubg = gnubg
        self.cube = gnubg.cubeinfo()
        self.context = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # cubeless, 0 plies, no noise
        self.checked = 0
        self.agreed = 0

    def board(self, position: Position):
        return tuple(tuple(int(x) for x in row) for row in position.board)

    def choose(self, position: Position, dice, check: bool):
        plays = legal_plays(position, dice)
        best, best_equity = None, -math.inf
        for play in plays:
            if play.result.is_game_over():
                best = play  # every finishing play scores the same
                break
            reply = self.gnubg.evaluate(self.board(play.result.swapped()), self.cube, self.context)
            equity = -cubeless_equity(reply[:5])
            if equity > best_equity:
                best, best_equity = play, equity
        if check and best is not None:
            self._compare(position, dice, plays, best)
        return best

    def _compare(self, position, dice, plays, chosen) -> None:
        """Is our 0-ply choice gnubg's own? (findbestmove's tuple: (from, to) pairs, 25 =
        bar, 0 = off, like our steps; a tuple no play spells the same way is not counted)."""
        move = self.gnubg.findbestmove(self.board(position), self.cube, self.context, tuple(dice))
        pairs = sorted(zip(move[::2], move[1::2]))
        for play in plays:
            if sorted(play.steps) == pairs:
                self.checked += 1
                self.agreed += int(np.array_equal(play.result.board, chosen.result.board))
                return


def bgcli_choose(position: Position, dice, policy: str, plies: int = 0, move_filter=None):
    ranked = rank_plays(position, dice, policy, plies, move_filter)
    return ranked[0].play if ranked else None


def points(final: Position) -> int:
    """Points won by the side that just finished (final: winner's row 1)."""
    loser = final.board[0]
    if loser.sum() < 15:
        return 1
    return 3 if loser[18:].sum() > 0 else 2  # a loser's checker in the winner's home or bar


def play_game(rolls: np.ndarray, bgcli_first: bool, policy: str, gnubg: GnubgPlayer,
              check_left: list[int], plies: int = 0, move_filter=None) -> tuple[int, int]:
    """(points for bgcli, plies)."""
    position = Position.start()
    bgcli_on_roll = bgcli_first
    for ply in range(MAX_PLIES):
        dice = (int(rolls[ply % len(rolls), 0]), int(rolls[ply % len(rolls), 1]))
        if bgcli_on_roll:
            play = bgcli_choose(position, dice, policy, plies, move_filter)
        else:
            check = check_left[0] > 0
            check_left[0] -= int(check)
            play = gnubg.choose(position, dice, check)
        if play is not None:
            if play.result.is_game_over():
                won = points(play.result)
                return (won if bgcli_on_roll else -won), ply + 1
            position = play.result.swapped()
        else:
            position = position.swapped()
        bgcli_on_roll = not bgcli_on_roll
    raise RuntimeError("game did not finish")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="net")
    parser.add_argument("--plies", type=int, default=0, choices=(0, 1, 2, 3),
                        help="bgcli's lookahead (0: the greedy policy of rollouts; 1: bgcli best's)")
    parser.add_argument("--filter", default="normal", help="bgcli's move filter (bgcli.search)")
    parser.add_argument("--save-every", type=int, default=10, help="deals between saves of -o")
    parser.add_argument("--check-agreement", type=int, default=2000)
    args = parse_args(parser)

    gnubg = GnubgPlayer()
    check_left = [args.check_agreement]
    pair_points = np.zeros(args.deals)
    counts = {"single": 0, "gammon": 0, "backgammon": 0}
    bgcli_wins = 0
    plies = 0
    start = time.time()
    deals_done = 0
    for deal in range(args.deals):
        rolls = dice_stream(args.seed, deal)
        for bgcli_first in (True, False):
            won, n = play_game(rolls, bgcli_first, args.policy, gnubg, check_left, args.plies,
                               args.filter)
            pair_points[deal] += won
            counts[["single", "gammon", "backgammon"][abs(won) - 1]] += 1
            bgcli_wins += won > 0
            plies += n
        deals_done = deal + 1
        if deals_done % 100 == 0:
            done = pair_points[:deals_done] / 2
            print(f"{deals_done} deals: {done.mean():+.4f} ppg ± "
                  f"{done.std(ddof=1) / math.sqrt(deals_done):.4f}"
                  f"  ({time.time() - start:.0f} s)", file=sys.stderr)
        if deals_done % args.save_every == 0 or deals_done == args.deals:
            save(args, gnubg, pair_points[:deals_done], counts, bgcli_wins, plies, start)


def save(args, gnubg, per_pair, counts, bgcli_wins, plies, start) -> None:
    """The result over the deals played so far, printed and (with -o) written."""
    per_deal = per_pair / 2
    deals = len(per_deal)
    games = 2 * deals
    result = {
        "opponent": "gnubg 0-ply cubeless (PyPI gnubg " + gnubg.gnubg.version + ")",
        "policy": args.policy, "plies": args.plies,
        "move_filter": args.filter if args.plies > 0 else None, "seed": args.seed,
        "deals": deals, "deals_asked": args.deals, "games": games,
        "ppg": float(per_deal.mean()),
        "ppg_se": float(per_deal.std(ddof=1) / math.sqrt(deals)) if deals > 1 else None,
        "bgcli_win_rate": bgcli_wins / games, "results": dict(counts),
        "plies_per_game": plies / games,
        "gnubg_agreement_checked": gnubg.checked, "gnubg_agreement": gnubg.agreed,
        "bgcli_version": __version__, "seconds": round(time.time() - start, 1),
        "net_games": weights_record().get("games") if args.policy == "net" else None,
        "weights": args.weights or "shipped",
    }
    text = json.dumps(result, indent=2)
    if args.output:
        with open(args.output, "w") as handle:
            handle.write(text + "\n")
    if deals == args.deals:
        print(text)


if __name__ == "__main__":
    main()
