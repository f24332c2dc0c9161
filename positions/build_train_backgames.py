"""Rebuild positions/train_backgames.txt (and train_anchors.txt, train_races.txt): positions
from bgcli's own games, for ``bgcli train --positions`` and ``bgcli train-data --from``.

    python -m positions.build_train_backgames [--games 60000] [--seed 1]
        [--min-anchors 2] [--min-pips-behind 40] > positions/train_backgames.txt
    python -m positions.build_train_backgames --races --games 10000 --seed 1 \
        > positions/train_races.txt

Greedy self-play rarely reaches a back game, so the net learns little about one, and its
rollouts of back games are its least accurate (``scripts/strength/rollouts_vs_gnubg.py``).
This plays ``--games`` games of the shipped net against itself, each opening with 1-10
random plies (as ``bgcli train --explore`` does) so that checkers get hit and sent back, and
keeps at most one position per game, drawn at random among its plies where one side

* holds two or more points (``--min-anchors``) in the other side's home board, and
* trails the race by 40 pips or more (``--min-pips-behind``; a back game, not a holding
  game),

with either side on roll. ``--min-anchors 1 --min-pips-behind 60`` keeps ace-point and
deuce-point games too, and holding games far behind (``positions/train_anchors.txt``).
``--races`` keeps instead the first ply of each game where the sides have passed each other
and one of them still has a checker outside its home board (``positions/train_races.txt``):
the starts of the races the race net judges (a bear-off with both sides home is valued by
the bear-off databases); games from them cover the races' later stages.
Nothing here comes from gnubg: the games, the plays and the rule are bgcli's own. The output
is a plain-text collection (one Position ID a line) with a header comment saying how it was
made; the same arguments and the same shipped net give the same file (the header names the
net by its ``sha256:`` id).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from numba import njit

from bgcli import Position, __version__
from bgcli.kernels.dice import next_u64, roll_dice
from bgcli.kernels.movegen import generate_plays, new_buffers
from bgcli.kernels.net import is_contact, net_choose, playout_weights
from bgcli.kernels.playout import trial_seed
from bgcli.net import load_params, net_id

MAX_RANDOM_PLIES = 10
MAX_PLIES = 400  # a safety bound; greedy games end long before


@njit(cache=True)
def _has_back_game(board, min_anchors, min_pips_behind):
    """Whether a side holds ``min_anchors``+ points in the other's home board and trails by
    ``min_pips_behind``+ pips."""
    pips = np.zeros(2, dtype=np.int64)
    for s in range(2):
        for i in range(25):
            pips[s] += board[s, i] * (i + 1)
    for side in range(2):
        anchors = 0
        for i in range(18, 24):
            if board[side, i] >= 2:
                anchors += 1
        if anchors >= min_anchors and pips[side] - pips[1 - side] >= min_pips_behind:
            return True
    return False


@njit(cache=True)
def _is_race_start(board):
    """The sides have passed each other, and one still has a checker outside its home."""
    if is_contact(board, 0):
        return False
    for side in range(2):
        for i in range(6, 25):
            if board[side, i] > 0:
                return True
    return False


@njit(cache=True)
def _sample(weights, start, seed, n_games, min_anchors, min_pips_behind, races, out):
    """One position (row 1 on roll) per game that reaches one, into ``out``; how many were
    found. ``races``: the first race ply of the game, else a random back-game ply."""
    boards, steps, keys, table, work = new_buffers()
    board = np.empty((2, 25), dtype=np.int8)
    kept = np.empty((2, 25), dtype=np.int8)
    state = np.empty(1, dtype=np.uint64)
    probs = np.empty(5)
    found = 0
    for game in range(n_games):
        state[0] = trial_seed(seed, game)
        board[:, :] = start
        random_plies = 1 + np.int64(next_u64(state) % np.uint64(MAX_RANDOM_PLIES))
        seen = 0
        for ply in range(MAX_PLIES):
            if races and ply >= random_plies and _is_race_start(board):
                kept[:, :] = board
                seen = 1
                break
            if not races and ply >= random_plies and _has_back_game(board, min_anchors,
                                                                     min_pips_behind):
                seen += 1  # reservoir sampling: each qualifying ply kept with chance 1/seen
                if next_u64(state) % np.uint64(seen) == 0:
                    kept[:, :] = board
            d1, d2 = roll_dice(state)
            while ply == 0 and d1 == d2:
                d1, d2 = roll_dice(state)
            count, _ = generate_plays(board, d1, d2, boards, steps, keys, table, work)
            if ply < random_plies:
                choice = np.int64(next_u64(state) % np.uint64(count))
            else:
                choice = net_choose(count, weights, boards, probs, True)
            done = True
            for index in range(25):
                board[0, index] = boards[choice, 1, index]
                board[1, index] = boards[choice, 0, index]
                if board[0, index] > 0:
                    done = False
            if done:
                break
        if seen:
            out[found] = kept
            found += 1
    return found


def _rule_options(args) -> str:
    """The rule's options as given on the command line, when not the defaults."""
    if args.races:
        return " --races"
    text = ""
    if args.min_anchors != 2:
        text += f" --min-anchors {args.min_anchors}"
    if args.min_pips_behind != 40:
        text += f" --min-pips-behind {args.min_pips_behind}"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-anchors", type=int, default=2,
                        help="points held in the other side's home board")
    parser.add_argument("--min-pips-behind", type=int, default=40)
    parser.add_argument("--races", action="store_true",
                        help="keep each game's first race ply instead of a back game")
    args = parser.parse_args()
    params = load_params()
    start = np.ascontiguousarray(Position.start().board, dtype=np.int8)
    out = np.empty((args.games, 2, 25), dtype=np.int8)
    found = _sample(playout_weights(params), start, args.seed, args.games, args.min_anchors,
                    args.min_pips_behind, args.races, out)
    ids = [Position(board).position_id() for board in out[:found]]
    unique = list(dict.fromkeys(ids))  # keep the first of any repeats, in game order
    if args.races:
        kind, rule = "race", ("the first ply where the sides have passed each other and a "
                              "side has a checker outside its home board")
    else:
        kind, rule = "back-game", (f"one ply per game where a side holds {args.min_anchors}+ "
                                   "points in the other's home board and trails by "
                                   f"{args.min_pips_behind}+ pips")
    print(f"# {len(unique)} {kind} positions from {args.games} games of bgcli's net "
          f"({net_id()}) against itself, seed {args.seed}: "
          f"each game opens with 1-{MAX_RANDOM_PLIES} random plies; kept: {rule}. "
          f"bgcli {__version__}, "
          f"python -m positions.build_train_backgames --games {args.games} --seed {args.seed}"
          + _rule_options(args))
    for position_id in unique:
        print(position_id)
    print(f"{len(unique)} positions from {args.games} games", file=sys.stderr)


if __name__ == "__main__":
    main()
