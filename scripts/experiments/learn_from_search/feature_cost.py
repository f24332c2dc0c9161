"""Where the scoring of a candidate play goes, and what 0.9.7's eight new inputs cost in it.

    NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.feature_cost \\
        /work/ld/alt5_s45 --positions 2000 -o feature_cost_s25.json

On the plays of real positions (one ``bgcli train-data`` folder's boards, each with a roll
drawn from a seeded generator; ``second_layer_cost``'s sets), per candidate, in ns:

* ``choice``: what ``net_choose_into`` does for it (both sides' scans and features, the
  first layer's rows of the inputs that differ from the roll's reference play, the outputs);
* ``choice_without_new_rows``: the same with the eight new inputs' rows left out of the
  incremental update (a timing probe only: its outputs are wrong), so the difference is
  what those rows cost;
* ``features``: both sides' scans and features alone (``_fill_extras``);
* ``scans``: both sides' scans alone, and each helper of the features on top of the scans
  (``shots``: ``_count_shots``; ``moment``, ``mobility``, ``break_contact``), so that each
  one's cost is its figure less ``scans``.

Three rounds, each measurement one after the other in a round; the record keeps every
round and the medians.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from numba import njit

from bgcli import __version__
from bgcli.kernels import net as K
from bgcli.learn import read_training_data
from bgcli.net import load_params
from scripts.experiments.learn_from_search.second_layer_cost import _candidate_sets

NEW_INPUTS = (K.BACK_CHECKER, K.BACK_ANCHOR, K.FORWARD_ANCHOR, K.DOUBLE_SHOTS, K.NEAR_CONTAIN,
              K.MOBILITY, K.MOMENT, K.DANCE)
WITHOUT_NEW = K._NONLINEAR_EXTRAS & ~np.int64(
    sum(1 << (s * K.N_EXTRA + k) for s in range(2) for k in NEW_INPUTS))


@njit(cache=True)
def _choose(boards, counts, weights, live, buffers, repeat):
    """``net_choose_into``'s scoring of every candidate, with the extras mask ``live``."""
    extras = buffers[3]
    total = 0.0
    for _ in range(repeat):
        start = 0
        for count in counts:
            K.drop_references(buffers)  # each roll's first play is its reference
            for i in range(start, start + count):
                board = boards[i]
                mine, theirs = K._fill_extras(board, 0, extras)
                if mine[K._LEFT] == 0 or theirs[K._LEFT] == 0:
                    continue
                net = K.CONTACT if K._rears_in_contact(mine[K._REAR], theirs[K._REAR]) else K.RACE
                K.score_from_reference(board, weights, net, live, buffers)
                total += buffers[9][0]
            start += count
    return total


#: The parts ``_part`` times, by its ``which``: all the features, or the scans alone or with
#: one helper of the features on top.
PARTS = ("features", "scans", "shots", "moment", "mobility", "break_contact")


@njit(cache=True)
def _part(boards, repeat, which, extras):
    """``PARTS[which]`` of every board: ``_fill_extras`` (into ``extras``), or both sides'
    scans, then (``which`` > 1) one helper of the features per side."""
    total = 0.0
    for _ in range(repeat):
        for i in range(boards.shape[0]):
            board = boards[i]
            if which == 0:
                K._fill_extras(board, 0, extras)
                total += extras[0, K.PRIME]
                continue
            for side in range(2):
                left, pips, _, made, blots, occupied, _, _, rear, _, _ = K._scan(board, side)
                _, _, other_bar, other_made, _, other_occupied, _, _, other_rear, _, _ = K._scan(
                    board, 1 - side)
                total += left + rear
                if which == 2:
                    behind = 24 - other_rear
                    exposed = (blots >> behind) << behind
                    hitters = (np.int64(1) << 24) if other_bar > 0 else other_occupied
                    rolls, lost, twice = K._count_shots(exposed, hitters, made)
                    total += rolls + lost + twice
                elif which == 3:
                    total += K._moment(board, side, pips, left)
                elif which == 4:
                    total += K._mobility(board, side, occupied, other_made)
                elif which == 5:
                    total += K._break_contact(board, side, pips, left, other_rear)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    sets = _candidate_sets(read_training_data([args.folder]).boards[:args.positions], args.seed)
    boards = np.concatenate(sets)
    counts = np.array([plays.shape[0] for plays in sets])
    weights = K.playout_weights(load_params())
    buffers = K.choice_buffers(weights)
    extras = np.empty((2, K.N_EXTRA), dtype=np.float32)
    measures = {
        "choice": lambda r: _choose(boards, counts, weights, K._NONLINEAR_EXTRAS, buffers, r),
        "choice_without_new_rows": lambda r: _choose(boards, counts, weights, WITHOUT_NEW,
                                                     buffers, r),
        **{name: (lambda r, k=k: _part(boards, r, k, extras)) for k, name in enumerate(PARTS)},
    }
    for measure in measures.values():
        measure(1)  # compile, and warm the caches
    rounds: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(3):
        for name, measure in measures.items():
            began = time.perf_counter()
            measure(args.repeat)
            rounds[name].append(1e9 * (time.perf_counter() - began) / (len(boards) * args.repeat))
        print({name: round(times[-1]) for name, times in rounds.items()}, flush=True)
    record = {"bgcli_version": __version__, "folder": args.folder, "positions": len(sets),
              "candidates": len(boards), "ns_per_candidate": {
                  name: float(np.median(times)) for name, times in rounds.items()},
              "rounds": rounds}
    print(json.dumps(record["ns_per_candidate"]))
    with open(args.output, "w") as handle:
        json.dump(record, handle, indent=2)


if __name__ == "__main__":
    main()
