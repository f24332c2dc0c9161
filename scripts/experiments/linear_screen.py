"""A linearized net as the luck's screen, measured against today's luck function.

Variance reduction values every roll of a position by the net's best play of that roll;
in contact the pruning net screens the plays first and the full net scores only the best
``5 + floor(log2(plays))`` (``kernels.luck.screened_roll_values``). The plays of every
roll are a few points away from the position rolled from, so the full net's value of a
play is nearly linear in the inputs that change. Here the screen is that linearization:
once per position the gradient of the mover's equity with respect to the hidden layer's
pre-activations at the position rolled from, folded into a table of one number per point,
side and checker count; a play's screen value is then a sum over the points it changes
(a few additions, against a row of 16 hidden units per point for the pruning net). The
nonlinear hand-made inputs (shots, escapes, primes...) are left out of the screen, as the
pruning net leaves them out; the full net scores the plays kept.
The linearization and its screen are ``kernels.luck``'s (``linearize``, ``linear_screen``),
which 0.9.2 ships with the contact 5 / races 2 variant measured here.

Measured on the positions before each roll of greedy 0-ply games from the two benchmark
positions (settled positions left out, as the playout leaves them out), as
``scripts/experiments/cheaper_luck.py`` measures: the luck's time per position and the
variance per game that the difference from today's values adds.

    python -m scripts.experiments.linear_screen [--games 300] [-o FILE.json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from numba import njit

from bgcli import __version__
from bgcli.evaluation import policy_code, policy_net
from bgcli.kernels.evaluate import PRUNE_SLOT, ROLL_WEIGHTS, ROLLS, table_start
from bgcli.kernels.luck import linear_buffers, linear_scores, linear_screen, linearize
from bgcli.kernels.movegen import generate_plays
from bgcli.kernels.net import N_HIDDEN, is_contact, playout_weights
from bgcli.kernels.search import (MONEY_VALUES, _know, _screen, best_child, keep_best,
                                  net_children, screen_size, swap_sides, work_buffers)
from bgcli.notation.detect import parse_situation
from scripts.experiments.cheaper_luck import (EQUITY, POSITIONS, centred, game_positions,
                                              position_inputs, screened_values, spread)

#: (contact: keep at most, 0: screen_size; its screen; races: the same), the screens "prune",
#: "linear", "linear+prune" or "none"
VARIANTS = ((0, "prune", 0, "none"), (0, "linear", 0, "none"), (0, "linear", 0, "linear"),
            (0, "prune", 0, "linear"), (0, "linear+prune", 0, "linear"),
            (6, "linear", 6, "linear"), (3, "prune", 3, "linear"), (3, "prune", 0, "linear"),
            (4, "prune", 0, "linear"), (2, "prune", 0, "linear"), (3, "prune", 2, "linear"),
            (3, "prune", 1, "linear"), (4, "prune", 2, "linear"),
            (4, "prune", 2, "linear", 0.05), (6, "prune", 2, "linear", 0.05),
            (0, "prune", 2, "linear", 0.05), (6, "prune", 2, "linear", 0.1),
            (6, "prune", 2, "linear", 0.02), (5, "prune", 2, "linear"))

#: From ``docs/records/bench_rollout_0.9.json`` (one thread): a variance-reduced game's
#: variance and the part of its time that is not the luck (the game's time less the live
#: plies times today's luck per position here), to turn a variant's time and added variance
#: into an estimate of its core-seconds to a standard error against today's.
VR_GAME = {"4HPwATDgc/ABMA": {"variance": 0.2997 ** 2, "seconds": 1 / 109.15},
           "a5yDAQYtO4MBAw": {"variance": 0.2078 ** 2, "seconds": 1 / 209.03}}


@njit(cache=False)
def variant_values(boards, contact_keep, contact_screen, race_keep, race_screen, margin,
                   params, weights, work, out):
    """``out[i, r]``: the mover's probabilities after the best play of roll ``r`` among
    those the screens keep (0: none, 1: pruning net, 2: linear, 3: linear to twice the
    number kept, then the pruning net) in contact and in races."""
    plays, probs, screened, level = work[0], work[5], work[6], work[8][1]
    prune_at = table_start(params, PRUNE_SLOT)
    linear = linear_buffers()
    pre = np.empty_like(plays)
    order = np.empty(plays.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        board = boards[i]
        _know(board, prune_at, params, weights, level)
        contact = is_contact(board, 0)
        how = contact_screen if contact else race_screen
        keep_at_most = contact_keep if contact else race_keep
        if how >= 2 and not linearize(weights, level, linear):
            how = 0
        for r in range(21):
            count, _ = generate_plays(board, ROLLS[r, 0], ROLLS[r, 1], plays, work[1], work[2],
                                      work[3], work[4])
            keep = min(count, keep_at_most) if keep_at_most > 0 else screen_size(count)
            candidates = plays
            if keep < count and how == 1:
                _screen(count, keep, board, plays, 0, MONEY_VALUES, params, prune_at, work,
                        level)
                candidates = screened
                count = keep
                if margin > 0.0:  # only the kept within margin of the screen's best
                    picked = work[7]
                    top = -1e300
                    for n in range(keep):
                        top = max(top, probs[picked[n], 0])
                    count = 0
                    for n in range(keep):
                        if probs[picked[n], 0] >= top - margin:
                            if count < n:
                                screened[count] = screened[n]
                            count += 1
            elif keep < count and how == 2:
                linear_screen(count, keep, board, plays, linear[0], work)
                candidates = screened
                count = keep
            elif keep < count and how == 3:  # linear to twice the screen, then pruning net
                first = min(count, 2 * keep)
                if first < count:
                    linear_scores(count, board, plays, linear[0], probs)
                    keep_best(count, first, plays, probs, order, pre)
                    count = first
                    source = pre
                else:
                    source = plays
                _screen(count, keep, board, source, 0, MONEY_VALUES, params, prune_at, work,
                        level)
                candidates = screened
                count = keep
            net_children(count, candidates, params, weights, True, probs, level[0],
                         level[2][1])
            swap_sides(probs[best_child(count, MONEY_VALUES, 0, probs)], out[i, r])


SCREEN_CODES = {"none": 0, "prune": 1, "linear": 2, "linear+prune": 3}


def measure(position_id: str, games: int, rng, params, weights, work) -> dict:
    position = parse_situation(position_id).position
    played = [game_positions(position, rng) for _ in range(games)]
    boards = np.stack([board for game in played for board in game])
    n = len(boards)
    hidden, contact, live = np.empty((n, N_HIDDEN)), np.empty(n, np.bool_), np.empty(n, np.bool_)
    position_inputs(boards, params, hidden, contact, live)
    boards, contact = boards[live], contact[live]
    plies_per_game = len(boards) / games
    result = {"positions": int(n), "live": int(len(boards)), "contact": int(contact.sum()),
              "live_plies_per_game": plies_per_game, "variants": []}
    today = np.zeros((len(boards), 21, 5))
    start = time.process_time()
    screened_values(boards, 0, False, params, weights, work, today)
    today_s = time.process_time() - start
    result["today_us_per_position"] = today_s / len(boards) * 1e6
    game = VR_GAME[position_id]
    other_s = game["seconds"] - plies_per_game * today_s / len(boards)
    for contact_keep, contact_screen, race_keep, race_screen, *rest in VARIANTS:
        margin = rest[0] if rest else 0.0
        values = np.zeros_like(today)
        start = time.process_time()
        variant_values(boards, contact_keep, SCREEN_CODES[contact_screen], race_keep,
                       SCREEN_CODES[race_screen], margin, params, weights, work, values)
        seconds = time.process_time() - start
        gap = (values - today) @ EQUITY
        per_game = spread(centred(gap)) * plies_per_game
        game_s = other_s + plies_per_game * seconds / len(boards)
        row = {"contact": f"{contact_screen} {contact_keep or 'screen_size'}"
                   + (f" within {margin}" if margin else ""),
               "race": f"{race_screen} {race_keep or 'screen_size'}",
               "us_per_position": seconds / len(boards) * 1e6, "speed_up": today_s / seconds,
               "added_variance_per_game": per_game,
               "mean_value_lost": float(-(gap @ ROLL_WEIGHTS).mean()),
               "core_s_to_se_factor": game_s / game["seconds"]
               * (game["variance"] + per_game) / game["variance"]}
        result["variants"].append(row)
        print(position_id, row, flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per start position")
    parser.add_argument("-o", "--output", help="also write the record to this JSON file")
    args = parser.parse_args()
    code, params = policy_code("net", bearoff=True, prune=True)
    weights = playout_weights(params)
    work = work_buffers(True, weights)
    start = np.array(parse_situation(POSITIONS[0]).position.board, dtype=np.int8)[None]
    warm = np.zeros((1, 21, 5))
    screened_values(start, 0, False, params, weights, work, warm)  # compile before timing
    for _, contact_screen, _, race_screen, *_ in VARIANTS[:3]:
        variant_values(start, 0, SCREEN_CODES[contact_screen], 0, SCREEN_CODES[race_screen], 0.0,
                       params, weights, work, warm)
    rng = np.random.default_rng(1)
    record = {"command": f"python -m scripts.experiments.linear_screen --games {args.games}",
              "bgcli_version": __version__, "net": policy_net("net"), "games": args.games,
              "by_position": {}}
    for position_id in POSITIONS:
        record["by_position"][position_id] = result = measure(position_id, args.games, rng,
                                                              params, weights, work)
        print(position_id, json.dumps({k: v for k, v in result.items() if k != "variants"}),
              flush=True)
    if args.output:
        with open(args.output, "w") as handle:
            json.dump(record, handle, indent=2)
            handle.write("\n")


if __name__ == "__main__":
    main()
