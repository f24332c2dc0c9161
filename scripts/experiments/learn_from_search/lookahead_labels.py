"""How much do rollout labels of late contact positions depend on the play of the rollout?

    python -m scripts.experiments.learn_from_search.lookahead_labels /work/ld/late_s3 --start 0 \\
        --minutes 12 -o lookahead_labels_s28_a.json

Session 27's reading of why rollout labels did not make the net play better: a rollout is
the value of the net's own play, and in late contact that play is at fault (the holder
runs its last checker too soon), so the labels undervalue holding. This measures it: for
the positions the games made (rank 0) of a ``bgcli train-data --rollouts`` folder, from
``--start`` on, a rollout with 0-ply play (as the labels were made) and one with 1-ply play
(``checker_plies=1``, gnubg's normal move filter), the same seed and games for both
(common random numbers: the difference is sharp), ``--trials`` plain games each; until
``--minutes`` have passed. Per position the two cubeless equities and the side on roll's
role: ``holder`` when the other side is the one bearing off or home (every checker home or
one borne off) and this one is not, ``bearer`` the other way round, ``both`` or ``neither``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bgcli import __version__
from bgcli.evaluation import cubeless_equity, position_probabilities
from bgcli.learn import read_data
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout


def _coming_home(board: np.ndarray, side: int) -> bool:
    return int(board[side].sum()) < 15 or int(board[side, 6:].sum()) == 0


def role(board: np.ndarray) -> str:
    """The side on roll's (row 1) part in a late contact position."""
    me, them = _coming_home(board, 1), _coming_home(board, 0)
    if me and them:
        return "both"
    return "bearer" if me else "holder" if them else "neither"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--start", type=int, default=0, help="first row of rank 0 to use")
    parser.add_argument("--trials", type=int, default=288)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    arrays, _ = read_data(args.folder)
    rows = np.flatnonzero(arrays["rank"] == 0)[args.start:]
    began, out = time.time(), []
    for k, row in enumerate(rows):
        if time.time() - began > 60 * args.minutes:
            break
        board = arrays["boards"][row]
        position = Position(board)
        equities = {}
        for plies in (0, 1):
            result = rollout(position, RolloutSettings(
                trials=args.trials, seed=args.seed + int(row), threads=1,
                variance_reduction=False, checker_plies=plies))
            equities[plies] = cubeless_equity(result.means)
        out.append({"row": int(row), "role": role(board), "zero_ply_play": equities[0],
                    "one_ply_play": equities[1],
                    "net": cubeless_equity(position_probabilities(position, "net", 0)),
                    "label": cubeless_equity(arrays["targets"][row])})
    record = {"folder": args.folder, "start": args.start, "trials": args.trials,
              "seed": args.seed, "positions": out, "seconds": round(time.time() - began, 1),
              "bgcli_version": __version__}
    if args.output:
        with open(args.output, "w") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
    summarise([record])


def summarise(records: list[dict]) -> dict:
    """Mean (1-ply play - 0-ply play) with its SE, per role and in all; printed and returned."""
    rows = [p for r in records for p in r["positions"]]
    summary = {}
    for name in ("all", "holder", "bearer", "both", "neither"):
        part = [p for p in rows if name == "all" or p["role"] == name]
        if len(part) < 2:
            continue
        diff = np.array([p["one_ply_play"] - p["zero_ply_play"] for p in part])
        summary[name] = {"positions": len(part), "mean": float(diff.mean()),
                         "se": float(diff.std(ddof=1) / np.sqrt(diff.size)),
                         "mean_abs": float(np.abs(diff).mean())}
        print(name, summary[name])
    return summary


if __name__ == "__main__":
    main()
