"""Two cheaper luck functions for variance reduction, measured against today's.

Variance reduction subtracts at every ply the luck of the roll played: its value less the
mean over the 21 rolls. Any function of (position, roll) keeps the estimate unbiased; the
nearer it is to the value the playout's own play reaches, the more noise it removes.
Today's (``kernels.luck.screened_roll_values``) picks the net's best play of each roll
(the pruning net's screen in contact), about 19x the price of a plain game. Measured here
on the positions before each roll of greedy 0-ply games from the two benchmark positions
(settled positions left out, as the playout leaves them out):

* **learned**: the 21 roll values predicted from the position alone, by least squares per
  roll on the net's hidden layer at the position (and, per roll, whether it can hit a blot
  or dances); one net evaluation a ply instead of 21 play choices. Held-out R² of the
  centred equities (whole games held out), and what the unexplained part would add to the
  variance of a game (its roll-weighted variance summed over a game's plies);
* **smaller screens**: the full net scores only the best ``K`` plays of the pruning net
  (in races too, where today it scores all): the luck's time per position, and the variance
  the difference from today's values adds to a game (the playout still plays the net's
  best play, so the difference is noise the luck no longer removes).

Compare the added variance with a variance-reduced game's today, 0.090 (opening) and 0.043
(middle game): SD per game 0.300 and 0.208, ``docs/records/bench_rollout_0.9.json``.

    python -m scripts.experiments.cheaper_luck [--games 300] [-o FILE.json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from numba import njit

from bgcli import __version__
from bgcli.evaluation import best_result, policy_code, policy_net
from bgcli.kernels.evaluate import POLICY_NET, PRUNE_SLOT, ROLL_WEIGHTS, ROLLS, table_start
from bgcli.kernels.luck import settled
from bgcli.kernels.movegen import generate_plays
from bgcli.kernels.net import (HIDDEN_ROOM, MAX_NONZERO, N_HIDDEN, N_OUTPUTS, NET_SIZE, encode, forward,
                               is_contact, playout_weights)
from bgcli.kernels.search import (MONEY_VALUES, _know, _screen, mover_value, net_children,
                                  screen_size, swap_sides, work_buffers)
from bgcli.notation.detect import parse_situation
from bgcli.position import Position

POSITIONS = ("4HPwATDgc/ABMA", "a5yDAQYtO4MBAw")  # the benchmark's opening and middle game
EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])  # equity = EQUITY @ probs - 1
SCREENS = ((1, True), (2, True), (3, True), (4, True), (6, True), (0, True), (3, False))


def game_positions(start: Position, rng: np.random.Generator) -> list[np.ndarray]:
    """The positions before each roll of one greedy 0-ply game from ``start``."""
    boards = []
    position = start
    while True:
        boards.append(np.array(position.board, dtype=np.int8))
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        after = best_result(position, dice, "net", 0)
        if after is not None and Position(after).is_game_over():
            return boards
        position = (Position(after) if after is not None else position).swapped()


@njit(cache=False)
def position_inputs(boards, params, hidden, contact, live):
    """Per board (row 1 on roll): the net's hidden layer, which net, whether not settled."""
    idx = np.empty(MAX_NONZERO, dtype=np.int64)
    val = np.empty(MAX_NONZERO)
    z = np.empty(N_HIDDEN)
    y = np.empty(N_OUTPUTS)
    probs = np.empty(5)
    for i in range(boards.shape[0]):
        n = encode(boards[i], 1, idx, val)
        contact[i] = is_contact(boards[i], 1)
        forward(params, 0 if contact[i] else NET_SIZE, idx, val, n, z, hidden[i], y)
        live[i] = not settled(boards[i], POLICY_NET, params, probs)


@njit(cache=False)
def screened_values(boards, keep_at_most, races_too, params, weights, work, out):
    """``out[i, r]``: the mover's probabilities after the best play of roll ``r`` among
    those the pruning net keeps: ``keep_at_most`` of them (0: today's ``screen_size``), in
    races too with ``races_too`` (today: contact only)."""
    plays, probs, screened, level = work[0], work[5], work[6], work[8][1]
    prune_at = table_start(params, PRUNE_SLOT)
    for i in range(boards.shape[0]):
        board = boards[i]
        _know(board, prune_at, params, weights, level)
        for r in range(21):
            count, _ = generate_plays(board, ROLLS[r, 0], ROLLS[r, 1], plays, work[1], work[2],
                                      work[3], work[4])
            keep = min(count, keep_at_most) if keep_at_most > 0 else screen_size(count)
            candidates = plays
            if keep < count and (races_too or is_contact(board, 0)):
                _screen(count, keep, board, plays, 0, MONEY_VALUES, params, prune_at, work,
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


@njit(cache=False)
def roll_features(boards, out):
    """Per board and roll: whether a die of the roll, or their sum with the point between
    open (doubles: up to four steps), reaches an opponent blot from a checker of the mover,
    how many blots so; whether the mover on the bar dances. Rough: no legality beyond that."""
    for i in range(boards.shape[0]):
        me = boards[i, 1]
        you = boards[i, 0]
        for r in range(21):
            a = ROLLS[r, 0]
            b = ROLLS[r, 1]
            hits = 0
            for target in range(24):  # the mover's index of an opponent blot
                if you[23 - target] != 1:
                    continue
                for src in range(target + 1, 25):
                    if me[src] == 0:
                        continue
                    d = src - target
                    hit = d == a or d == b
                    if not hit and a != b and d == a + b:
                        hit = you[23 - (src - a)] < 2 or you[23 - (src - b)] < 2
                    if not hit and a == b and d % a == 0 and d // a <= 4:
                        hit = True
                        for step in range(1, d // a):
                            hit = hit and you[23 - (src - step * a)] < 2
                    if hit:
                        hits += 1
                        break
            out[i, r, 0] = 1.0 if hits > 0 else 0.0
            out[i, r, 1] = hits
            dance = me[24] > 0 and you[23 - (24 - a)] >= 2 and you[23 - (24 - b)] >= 2
            out[i, r, 2] = 1.0 if dance else 0.0


def centred(values: np.ndarray) -> np.ndarray:
    """Roll values (n, 21) less their roll-weighted mean: what the luck is made of."""
    return values - (values @ ROLL_WEIGHTS)[:, None]


def spread(centred_values: np.ndarray) -> float:
    """Mean over positions of the roll-weighted variance of centred values (n, 21)."""
    return float((centred_values ** 2 @ ROLL_WEIGHTS).mean())


def least_squares(x_train, y_train, x_test, ridge=1e-3):
    """y (n, k) from features x (n, f), lightly ridged; predictions for ``x_test``."""
    gram = x_train.T @ x_train + ridge * len(x_train) * np.eye(x_train.shape[1])
    return x_test @ np.linalg.solve(gram, x_train.T @ y_train)


def learned(target, features, test, plies_per_game) -> dict:
    """Held-out fit of the centred equities ``target`` (n, 21) per roll from ``features``
    (n, 21, f)."""
    pred = np.empty(target[test].shape)
    for r in range(21):
        pred[:, r] = least_squares(features[~test, r], target[~test, r:r + 1],
                                   features[test, r])[:, 0]
    residual = spread(centred(target[test] - pred))
    total = spread(target[test])
    return {"r2": 1 - residual / total, "spread_per_ply": total,
            "added_variance_per_game": residual * plies_per_game}


def measure(position_id: str, games: int, rng, params, weights, work) -> dict:
    position = parse_situation(position_id).position
    played = [game_positions(position, rng) for _ in range(games)]
    boards = np.stack([board for game in played for board in game])
    game_of = np.repeat(np.arange(games), [len(game) for game in played])
    n = len(boards)
    hidden, contact, live = np.empty((n, HIDDEN_ROOM)), np.empty(n, np.bool_), np.empty(n, np.bool_)
    position_inputs(boards, params, hidden, contact, live)
    hidden = hidden[:, :N_HIDDEN]  # the first layer's units (room for a second layer's behind)
    boards, hidden, contact, game_of = boards[live], hidden[live], contact[live], game_of[live]
    plies_per_game = len(boards) / games
    result = {"positions": int(n), "live": int(len(boards)), "contact": int(contact.sum()),
              "live_plies_per_game": plies_per_game}
    today = np.zeros((len(boards), 21, 5))
    start = time.process_time()
    screened_values(boards, 0, False, params, weights, work, today)
    today_s = time.process_time() - start
    result["today_us_per_position"] = today_s / len(boards) * 1e6
    # learned maps of today's values
    target = centred(today @ EQUITY)
    net_part = np.hstack([np.ones((len(boards), 1)), hidden * contact[:, None],
                          contact[:, None], hidden * ~contact[:, None]])
    per_roll = np.broadcast_to(net_part[:, None], (len(boards), 21, net_part.shape[1]))
    rolls = np.zeros((len(boards), 21, 3))
    roll_features(boards, rolls)
    with_hits = np.concatenate([per_roll, rolls, rolls[..., :1] * per_roll], axis=-1)
    test = game_of % 4 == 0  # every fourth game held out
    result["learned"] = {name: learned(target, x, test, plies_per_game) for name, x in
                         (("bias", per_roll[..., :1]), ("hidden", per_roll),
                          ("hidden+hits", with_hits))}
    # smaller screens
    result["screens"] = []
    for keep, races_too in SCREENS:
        values = np.zeros_like(today)
        start = time.process_time()
        screened_values(boards, keep, races_too, params, weights, work, values)
        seconds = time.process_time() - start
        gap = (values - today) @ EQUITY
        result["screens"].append({
            "keep": keep or "screen_size", "races_too": races_too,
            "us_per_position": seconds / len(boards) * 1e6, "speed_up": today_s / seconds,
            "added_variance_per_game": spread(centred(gap)) * plies_per_game,
            "mean_value_lost": float(-(gap @ ROLL_WEIGHTS).mean())})
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per start position")
    parser.add_argument("-o", "--output", help="also write the record to this JSON file")
    args = parser.parse_args()
    code, params = policy_code("net", bearoff=True, prune=True)
    weights = playout_weights(params)
    work = work_buffers(True, weights)
    warm = np.zeros((1, 21, 5))
    start = np.array(parse_situation(POSITIONS[0]).position.board, dtype=np.int8)[None]
    screened_values(start, 0, False, params, weights, work, warm)  # compile before timing
    rng = np.random.default_rng(1)
    record = {"command": f"python -m scripts.experiments.cheaper_luck --games {args.games}",
              "bgcli_version": __version__, "net": policy_net("net"), "games": args.games,
              "by_position": {}}
    for position_id in POSITIONS:
        record["by_position"][position_id] = result = measure(position_id, args.games, rng,
                                                              params, weights, work)
        print(position_id, json.dumps(result, indent=1), flush=True)
    if args.output:
        with open(args.output, "w") as handle:
            json.dump(record, handle, indent=2)
            handle.write("\n")


if __name__ == "__main__":
    main()
