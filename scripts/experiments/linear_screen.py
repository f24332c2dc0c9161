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
from numba.cpython.unsafe.numbers import trailing_zeros

from bgcli import __version__
from bgcli.evaluation import policy_code, policy_net
from bgcli.kernels.evaluate import PRUNE_SLOT, ROLL_WEIGHTS, ROLLS, table_start
from bgcli.kernels.movegen import generate_plays
from bgcli.kernels.net import (B2_AT, BAR, N_HIDDEN, N_SIDE, NET_SIZE, W2_AT, extra_input,
                               is_contact, playout_weights)
from bgcli.kernels.search import (MONEY_VALUES, _know, _mover_coefficients, _screen,
                                  mover_value, net_children, screen_size, swap_sides,
                                  work_buffers)
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


@njit(cache=False, error_model="numpy")
def linear_table(weights, level, coefficients, gradient, table):
    """``table[s, i, c]``: the linearized mover's value of ``c`` checkers of board row
    ``s`` on point ``i`` (24: the bar), from the reference (``_know``) of ``level``; False
    when the position has no net reference (a side has no checker left)."""
    choice, known = level[0], level[2]
    net = known[1]
    if net < 0:
        return False
    z = choice[5][net]
    offset = net * NET_SIZE
    _mover_coefficients(MONEY_VALUES, 0, coefficients)
    h = np.empty(N_HIDDEN)
    for j in range(N_HIDDEN):
        h[j] = 0.5 + 0.5 * z[j] / (1.0 + abs(z[j]))
        gradient[j] = 0.0
    for k in range(5):
        a = weights[offset + B2_AT + k]
        for j in range(N_HIDDEN):
            a += weights[offset + W2_AT + k * N_HIDDEN + j] * h[j]
        y = 1.0 / (1.0 + np.exp(-a))
        scale = coefficients[1 + k] * y * (1.0 - y)
        for j in range(N_HIDDEN):
            gradient[j] += scale * weights[offset + W2_AT + k * N_HIDDEN + j]
    for j in range(N_HIDDEN):
        slope = 0.5 / (1.0 + abs(z[j]))
        gradient[j] *= slope * slope * 2.0  # d/dz of 0.5 + 0.5 z / (1 + |z|)
    units = np.empty(4)
    for s in range(2):
        for i in range(25):
            if i < 24:
                for u in range(4):
                    row = offset + (s * N_SIDE + 4 * i + u) * N_HIDDEN
                    total = 0.0
                    for j in range(N_HIDDEN):
                        total += weights[row + j] * gradient[j]
                    units[u] = total
                for c in range(16):
                    value = 0.0
                    for u in range(3):
                        if c > u:
                            value += units[u]
                    if c > 3:
                        value += (c - 3) * 0.5 * units[3]
                    table[s, i, c] = value
            else:
                row = offset + extra_input(s, BAR) * N_HIDDEN
                total = 0.0
                for j in range(N_HIDDEN):
                    total += weights[row + j] * gradient[j]
                for c in range(16):
                    table[s, 24, c] = c * 0.5 * total
    return True


@njit(cache=False, _nrt=False)
def linear_screen(count, keep, board, plays, table, scores, picked, screened):
    """The ``keep`` plays of highest linearized value (``table``) copied to ``screened``
    in the move generator's order (the selection of ``search._screen``)."""
    for b in range(count):
        total = 0.0
        for s in range(2):
            changed = np.int64(0)
            for i in range(25):
                changed |= np.int64(plays[b, s, i] != board[s, i]) << i
            while changed:
                i = trailing_zeros(changed)
                changed &= changed - 1
                total += table[s, i, plays[b, s, i]] - table[s, i, board[s, i]]
        scores[b] = total
    kept = 0
    for b in range(count):
        value = scores[b]
        if kept < keep:
            at = kept
            kept += 1
        elif value > scores[picked[kept - 1]]:
            at = kept - 1
        else:
            continue
        while at > 0 and value > scores[picked[at - 1]]:
            picked[at] = picked[at - 1]
            at -= 1
        picked[at] = b
    for n in range(1, keep):  # back into the move generator's order
        index = picked[n]
        at = n
        while at > 0 and picked[at - 1] > index:
            picked[at] = picked[at - 1]
            at -= 1
        picked[at] = index
    for n in range(keep):
        for s in range(2):
            for i in range(25):
                screened[n, s, i] = plays[picked[n], s, i]


@njit(cache=False)
def variant_values(boards, contact_keep, contact_screen, race_keep, race_screen, margin,
                   params, weights, work, out):
    """``out[i, r]``: the mover's probabilities after the best play of roll ``r`` among
    those the screens keep (0: none, 1: pruning net, 2: linear, 3: linear to twice the
    number kept, then the pruning net) in contact and in races."""
    plays, probs, screened, level = work[0], work[5], work[6], work[8][1]
    prune_at = table_start(params, PRUNE_SLOT)
    table = np.zeros((2, 25, 16))
    coefficients = np.empty(6)
    gradient = np.empty(N_HIDDEN)
    scores = np.empty(plays.shape[0])
    pre = np.empty_like(plays)
    order = np.empty(plays.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        board = boards[i]
        _know(board, prune_at, params, weights, level)
        contact = is_contact(board, 0)
        how = contact_screen if contact else race_screen
        keep_at_most = contact_keep if contact else race_keep
        if how >= 2 and not linear_table(weights, level, coefficients, gradient, table):
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
                linear_screen(count, keep, board, plays, table, scores, order, screened)
                candidates = screened
                count = keep
            elif keep < count and how == 3:  # linear to twice the screen, then pruning net
                first = min(count, 2 * keep)
                if first < count:
                    linear_screen(count, first, board, plays, table, scores, order, pre)
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
            best = -1e300
            choice = 0
            for k in range(count):
                value = mover_value(MONEY_VALUES, 0, probs[k])
                if value > best:
                    best = value
                    choice = k
            swap_sides(probs[choice], out[i, r])


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
