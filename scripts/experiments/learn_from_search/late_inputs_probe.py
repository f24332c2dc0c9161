"""Do candidate inputs for late contact explain what the net gets wrong there?

    python -m scripts.experiments.learn_from_search.late_inputs_probe /work/ld/late_s3 \\
        -o late_inputs_probe_s28.json

On the positions of a ``bgcli train-data`` folder (rollout labels of late contact positions,
``--late-contact``), the net's *residual* is the label's cubeless equity less the net's 0-ply
equity. Two gradient-boosted models (scikit-learn) learn the residual from (A) what the
net already sees, its five outputs and its ``N_EXTRA`` hand-made inputs of each side, and
(B) the same plus candidate inputs: the borne-off count in gnubg's three ``OFF`` pieces
(0-5, 5-10, 10-15 checkers, each / 5) and each side's *forced exposure*, the share of its
36 rolls after which its best play (the one that leaves the fewest shots) still leaves a
blot the other side hits with that many of its rolls (``bgcli.kernels.net.shots``), for the
side on roll now and for the other as if it rolled next. Both are measured on the last
fifth of the rows, held out (whole games: rows are in the order the games made them). If
B's held-out error is below A's, the candidates say something about these positions that
the net's inputs do not. Labels from a 288-game rollout carry about 0.05 of noise, so no
model comes near zero; only A against B says anything.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bgcli import __version__
from bgcli.evaluation import cubeless_equity, position_probabilities
from bgcli.kernels.net import N_EXTRA, board_inputs, shots
from bgcli.learn import read_data
from bgcli.moves import legal_plays
from bgcli.position import Position

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _made(board: np.ndarray, side: int) -> np.int64:
    bits = np.int64(0)
    for point in range(24):
        if board[side, point] >= 2:
            bits |= np.int64(1) << point
    return bits


def _exposure(board: np.ndarray) -> float:
    """The shots (rolls of 36) left by the mover's least exposed play; row 1 moves."""
    return shots(board, 1, _made(board, 1))[0] / 36.0


def forced_exposure(position: Position) -> float:
    """Over the 36 rolls of the side on roll, the mean of the least exposure it can play to."""
    total = 0.0
    for die1, die2 in ROLLS:
        plays = legal_plays(position, (die1, die2))
        boards = [play.result.board for play in plays] or [position.board]
        weight = 1.0 if die1 == die2 else 2.0
        total += weight * min(_exposure(np.asarray(board, dtype=np.int8)) for board in boards)
    return total / 36.0


def off_pieces(board: np.ndarray, side: int) -> list[float]:
    off = 15 - int(board[side].sum())
    return [min(off, 5) / 5.0, min(max(off - 5, 0), 5) / 5.0, min(max(off - 10, 0), 5) / 5.0]


def features(board: np.ndarray) -> tuple[list[float], list[float], float]:
    """(what the net sees: outputs and extras, the candidates, the net's equity)."""
    position = Position(board)
    probs = position_probabilities(position, "net", 0)
    extras = np.zeros((2, N_EXTRA))
    board_inputs(np.ascontiguousarray(board, dtype=np.int8), 1, extras)
    seen = list(probs) + list(extras[0]) + list(extras[1])
    candidates = (off_pieces(board, 1) + off_pieces(board, 0)
                  + [forced_exposure(position), forced_exposure(position.swapped())])
    return seen, candidates, cubeless_equity(probs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--rows", type=int, default=0, help="use the first N rows (0: all)")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    from sklearn.ensemble import HistGradientBoostingRegressor

    began = time.time()
    arrays, _ = read_data(args.folder)
    boards, targets = arrays["boards"], arrays["targets"]
    if args.rows:
        boards, targets = boards[:args.rows], targets[:args.rows]
    seen, candidates, residual = [], [], []
    for board, target in zip(boards, targets):
        a, b, net_equity = features(board)
        seen.append(a)
        candidates.append(b)
        residual.append(cubeless_equity(target) - net_equity)
    seen, candidates, residual = np.array(seen), np.array(candidates), np.array(residual)
    cut = int(0.8 * len(residual))
    result = {"folder": args.folder, "rows": int(len(residual)), "held_out": int(len(residual) - cut),
              "net_mean_abs_residual_held_out": float(np.abs(residual[cut:]).mean()),
              "net_mean_residual_held_out": float(residual[cut:].mean())}
    for name, x in (("A_net_inputs", seen), ("B_plus_candidates", np.hstack([seen, candidates])),
                    ("C_candidates_only", candidates)):
        model = HistGradientBoostingRegressor(max_iter=300, learning_rate=0.05,
                                              random_state=1).fit(x[:cut], residual[:cut])
        left = residual[cut:] - model.predict(x[cut:])
        result[name] = {"mean_abs_error_held_out": float(np.abs(left).mean()),
                        "mse_held_out": float((left ** 2).mean())}
        print(name, result[name])
    late = candidates[:, 6:]
    result["forced_exposure_mean"] = {"on_roll": float(late[:, 0].mean()),
                                      "other": float(late[:, 1].mean())}
    result["correlation_residual"] = {
        name: float(np.corrcoef(candidates[:, k], residual)[0, 1])
        for k, name in enumerate(["off1_me", "off2_me", "off3_me", "off1_them", "off2_them",
                                  "off3_them", "exposure_on_roll", "exposure_other"])
        if candidates[:, k].std() > 0}
    result.update(seconds=round(time.time() - began, 1), bgcli_version=__version__)
    print(json.dumps(result, indent=2))
    if args.output:
        with open(args.output, "w") as handle:
            json.dump(result, handle, indent=2)
            handle.write("\n")


if __name__ == "__main__":
    main()
