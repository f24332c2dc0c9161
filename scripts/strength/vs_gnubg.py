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

Luck-adjusted result (``ppg_adjusted``, the figure to quote): before every roll after the
opening one, bgcli's 0-ply net values the best play of each of the 21 rolls; the roll's luck
is the value of the roll thrown less their probability-weighted mean (``position_probabilities``
at 1 ply, which is that mean: ``--check-luck N`` recomputes it roll by roll for the first N
plies and stops if they differ by more than 1e-6: the bear-off tables' single precision
parts them by up to a few 1e-8). A game's adjusted points are its points less bgcli's
luck plus gnubg's. Whatever the value function, each roll's luck has expectation zero, so the
adjusted mean is unbiased for the same quantity as the raw one, and the dice's noise, most
of the variance, is gone: a standard error several times smaller for the same deals. ``-o``
keeps every deal's raw and adjusted points, and ``--resume`` goes on from them.

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
from bgcli.evaluation import cubeless_equity, position_probabilities, rank_plays
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

    def scores(self, plays, context=None) -> list[float]:
        """gnubg's cubeless equity of each play's result for the mover, evaluated with
        ``context`` (None: 0 ply) from the opponent's side; a play that ends the game scores
        its points (1, 2 or 3)."""
        context = self.context if context is None else context
        out = []
        for play in plays:
            if play.result.is_game_over():
                out.append(float(points(play.result)))
                continue
            reply = self.gnubg.evaluate(self.board(play.result.swapped()), self.cube, context)
            out.append(-cubeless_equity(reply[:5]))
        return out

    def choose(self, position: Position, dice, check: bool):
        plays = legal_plays(position, dice)
        best, best_equity = None, -math.inf
        for play in plays:
            if play.result.is_game_over():
                best = play  # every finishing play scores the same
                break
            equity = self.scores([play])[0]
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


ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def roll_value(position: Position, dice) -> float:
    """bgcli 0-ply's cubeless equity, for the mover, of its best play of ``dice``."""
    ranked = rank_plays(position, dice, "net", 0)
    if ranked:
        return ranked[0].value
    return -cubeless_equity(position_probabilities(position.swapped(), "net", 0))


def luck(position: Position, dice, check: bool) -> float:
    """The luck of ``dice`` for the mover: its value less the mean over the 21 rolls (the
    module docstring); ``check``: recompute the mean roll by roll and compare."""
    # the mean of every roll's best play of all: 1 ply without the pruning screen
    mean = cubeless_equity(position_probabilities(position, "net", 1, prune=False))
    if check:
        by_roll = sum(roll_value(position, roll) * (1 if roll[0] == roll[1] else 2)
                      for roll in ROLLS) / 36
        if abs(by_roll - mean) > 1e-6:
            raise RuntimeError(f"luck's mean {mean} is not the 21 rolls' {by_roll} "
                               f"in {position.position_id()}")
    return roll_value(position, dice) - mean


def points(final: Position) -> int:
    """Points won by the side that just finished (final: winner's row 1)."""
    loser = final.board[0]
    if loser.sum() < 15:
        return 1
    return 3 if loser[18:].sum() > 0 else 2  # a loser's checker in the winner's home or bar


def play_game(rolls: np.ndarray, bgcli_first: bool, policy: str, gnubg: GnubgPlayer,
              check_left: list[int], plies: int = 0, move_filter=None,
              luck_check_left: list[int] | None = None) -> tuple[int, int, float]:
    """(points for bgcli, plies, bgcli's luck less gnubg's)."""
    position = Position.start()
    bgcli_on_roll = bgcli_first
    luck_for_bgcli = 0.0
    luck_check_left = luck_check_left if luck_check_left is not None else [0]
    for ply in range(MAX_PLIES):
        dice = (int(rolls[ply % len(rolls), 0]), int(rolls[ply % len(rolls), 1]))
        if ply > 0:  # the opening roll is never a double: its luck is not the 21 rolls'
            check = luck_check_left[0] > 0
            luck_check_left[0] -= int(check)
            roll_luck = luck(position, dice, check)
            luck_for_bgcli += roll_luck if bgcli_on_roll else -roll_luck
        if bgcli_on_roll:
            play = bgcli_choose(position, dice, policy, plies, move_filter)
        else:
            check = check_left[0] > 0
            check_left[0] -= int(check)
            play = gnubg.choose(position, dice, check)
        if play is not None:
            if play.result.is_game_over():
                won = points(play.result)
                return (won if bgcli_on_roll else -won), ply + 1, luck_for_bgcli
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
    parser.add_argument("--check-luck", type=int, default=200,
                        help="plies whose luck is recomputed roll by roll as a check")
    parser.add_argument("--resume", action="store_true",
                        help="go on from the deals already in -o (same settings)")
    args = parse_args(parser)

    gnubg = GnubgPlayer()
    check_left = [args.check_agreement]
    luck_check_left = [args.check_luck]
    tally = Tally.resumed(args) if args.resume else Tally()
    start = time.time() - tally.seconds
    for deal in range(len(tally.raw), args.deals):
        rolls = dice_stream(args.seed, deal)
        raw = adjusted = 0.0
        for bgcli_first in (True, False):
            won, n, luck_for_bgcli = play_game(rolls, bgcli_first, args.policy, gnubg,
                                               check_left, args.plies, args.filter,
                                               luck_check_left)
            raw += won / 2
            adjusted += (won - luck_for_bgcli) / 2
            tally.count(won, n)
        tally.raw.append(raw)
        tally.adjusted.append(adjusted)
        tally.seconds = time.time() - start
        deals_done = deal + 1
        if deals_done % 100 == 0:
            print(f"{deals_done} deals: {mean_se(tally.raw)} ppg, luck-adjusted "
                  f"{mean_se(tally.adjusted)}  ({tally.seconds:.0f} s)", file=sys.stderr)
        if deals_done % args.save_every == 0 or deals_done == args.deals:
            save(args, gnubg, tally)


def mean_se(values: list[float]) -> str:
    array = np.asarray(values)
    se = array.std(ddof=1) / math.sqrt(len(array)) if len(array) > 1 else math.nan
    return f"{array.mean():+.4f} ± {se:.4f}"


class Tally:
    """Every deal's points so far (raw and luck-adjusted, per game of the pair), the
    outcomes, bgcli's wins and the plies played; read back from -o by ``--resume``."""

    def __init__(self) -> None:
        self.raw: list[float] = []
        self.adjusted: list[float] = []
        self.counts = {"single": 0, "gammon": 0, "backgammon": 0}
        self.bgcli_wins = 0
        self.plies = 0
        self.seconds = 0.0

    def count(self, won: int, plies: int) -> None:
        self.counts[["single", "gammon", "backgammon"][abs(won) - 1]] += 1
        self.bgcli_wins += won > 0
        self.plies += plies

    @classmethod
    def resumed(cls, args) -> "Tally":
        tally = cls()
        if not args.output or not os.path.exists(args.output):
            return tally
        with open(args.output) as handle:
            record = json.load(handle)
        asked = {"seed": args.seed, "plies": args.plies, "policy": args.policy,
                 "move_filter": args.filter if args.plies > 0 else None}
        for key, value in asked.items():
            if record.get(key) != value:
                raise SystemExit(f"{args.output}: {key} is {record.get(key)!r}, not {value!r}: "
                                 f"cannot resume")
        tally.raw = list(record["per_deal"])
        tally.adjusted = list(record["per_deal_adjusted"])
        tally.counts = dict(record["results"])
        tally.bgcli_wins = round(record["bgcli_win_rate"] * record["games"])
        tally.plies = round(record["plies_per_game"] * record["games"])
        tally.seconds = record["seconds"]
        return tally


def save(args, gnubg, tally: Tally) -> None:
    """The result over the deals played so far, printed and (with -o) written."""
    raw, adjusted = np.asarray(tally.raw), np.asarray(tally.adjusted)
    deals = len(raw)
    games = 2 * deals

    def se(values):
        return float(values.std(ddof=1) / math.sqrt(deals)) if deals > 1 else None

    result = {
        "opponent": "gnubg 0-ply cubeless (PyPI gnubg " + gnubg.gnubg.version + ")",
        "policy": args.policy, "plies": args.plies,
        "move_filter": args.filter if args.plies > 0 else None, "seed": args.seed,
        "deals": deals, "deals_asked": args.deals, "games": games,
        "ppg": float(raw.mean()), "ppg_se": se(raw),
        "ppg_adjusted": float(adjusted.mean()), "ppg_adjusted_se": se(adjusted),
        "luck_judge": "bgcli 0-ply net, cubeless money equity",
        "bgcli_win_rate": tally.bgcli_wins / games, "results": dict(tally.counts),
        "plies_per_game": tally.plies / games,
        "gnubg_agreement_checked": gnubg.checked, "gnubg_agreement": gnubg.agreed,
        "bgcli_version": __version__, "seconds": round(tally.seconds, 1),
        "net_games": weights_record().get("games") if args.policy == "net" else None,
        "weights": args.weights or "shipped",
        "per_deal": [round(x, 6) for x in tally.raw],
        "per_deal_adjusted": [round(x, 6) for x in tally.adjusted],
    }
    text = json.dumps(result, indent=2)
    if args.output:
        with open(args.output, "w") as handle:
            handle.write(text + "\n")
    if deals == args.deals:
        print(json.dumps({k: v for k, v in result.items() if not k.startswith("per_deal")},
                         indent=2))


if __name__ == "__main__":
    main()
