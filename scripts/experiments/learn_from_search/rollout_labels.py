"""Rollout labels for the late contact positions, where 2-ply labels cannot help: one side
bearing in or off while the other still has a checker back.

    NUMBA_NUM_THREADS=1 python -m scripts.experiments.learn_from_search.rollout_labels \\
        /work/ld/late_s1 -n 30000 --trials 288 --seed 1 \\
        --from positions/train_anchors.txt --from positions/train_backgames.txt

Why (session 27): in such positions the net's outputs saturate. With a lone checker on the
bear-off side's ace point against five checkers on its 2-point (``bJsFRiA+AAAAAA``, the
bear-off side on roll), the net at 0 ply gives the bear-off side a backgammon 24% of the
time and its opponent 0.4% wins; bgcli's own rollout gives 4% and 3-4%. So the side with
the back checker runs at once (its gammon is "certain" either way, the backgammon is
not), and 2 ply cannot correct it: its leaves are the same saturated net. A rollout plays
the games out, hits and all, and so is a target better than the net there, in the issue's
sense (bgcli's own judgement, never gnubg's).

Positions: games of the net against itself (0 ply, greedy) from the starting positions of
the ``--from`` collections (equal shares), played to the end; every position after a play
that is *late contact* (``bgcli.learn.late_contact``: contact, and a side has borne off or
has every checker home) is kept with chance ``--keep``, with the results of the roll's ``
--alternatives`` next best plays by the net (the choices its play is ranked against).
Labels: a cubeless rollout of ``--trials`` games of each (0-ply net play, quasi-random
dice, no variance reduction: these games are short, and plain trials reach a given
standard error sooner here), its five rates in gnubg's order. A roll's plays are rolled
out with the same seed (common random numbers), so that their differences, which the
pair term of ``bgcli train --pair-weight`` learns, are much less noisy than the values.

The folder has ``bgcli train-data``'s layout (``settings.json``, ``chunk-*.npz``; ``plies``
0 in the settings, the trials in the recorded command), so ``bgcli train --data`` reads it;
every chunk is a function of the seed and its index (``bgcli.learn.grow_folder``): rerun
with a larger ``-n`` to go on. The trials are not in the settings: keep them the same
within a folder. ``bgcli train-data --rollouts N --late-contact`` (added after the folders
of session 27 were made with this script) does the same, one random draw per game apart.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from bgcli.learn import DataSettings, grow_folder, rollout_label, sample_game
from bgcli.net import net_id
from bgcli.position import Position
from bgcli.train import read_training_positions

MAX_PLIES = 200


def make_chunk(settings: DataSettings, starts: list[np.ndarray], index: int,
               trials: int) -> dict:
    """``bgcli.learn.make_chunk`` with the rollout labels of ``bgcli train-data --rollouts``,
    less its draw for the opening's share (these folders have none), as the session 27
    folders were made."""
    labelled = replace(settings, rollouts=trials)  # the folders' settings predate the field
    boards, targets, sources, plies, ranks = [], [], [], [], []
    game = 0
    while len(boards) < settings.chunk:
        rng = np.random.default_rng([settings.seed, index, game])
        game += 1
        source = 1 + int(rng.integers(len(starts)))
        pool = starts[source - 1]
        start = Position(pool[int(rng.integers(len(pool)))])
        for position, ply, rank in sample_game(start, rng, settings.keep, MAX_PLIES,
                                               settings.alternatives, late_only=True):
            if len(boards) == settings.chunk:
                break
            if rank == 0:
                played_row = len(boards)
            boards.append(position.board)
            targets.append(rollout_label(position, labelled, index, played_row))
            sources.append(source)
            plies.append(ply)
            ranks.append(rank)
    return {"boards": np.stack(boards).astype(np.int8), "targets": np.array(targets),
            "source": np.array(sources, dtype=np.int8), "ply": np.array(plies, dtype=np.int16),
            "rank": np.array(ranks, dtype=np.int8), "games": np.int64(game)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("-n", "--count", type=int, default=30_000)
    parser.add_argument("--trials", type=int, default=288)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=float, default=0.3)
    parser.add_argument("--alternatives", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=500)
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--from", dest="files", action="append", required=True)
    args = parser.parse_args()
    infos, starts = [], []
    for name in args.files:
        boards, info = read_training_positions(name)
        infos.append(info)
        starts.append(boards)
    settings = DataSettings(seed=args.seed, plies=0, chunk=args.chunk, keep=args.keep,
                            max_plies=MAX_PLIES, opening_share=0.0, sources=tuple(infos),
                            net=net_id(), alternatives=args.alternatives)
    summary = grow_folder(args.folder, settings, args.count,
                          lambda index: make_chunk(settings, starts, index, args.trials),
                          command=" ".join(["rollout_labels.py"] + sys.argv[1:]),
                          minutes=args.minutes)
    print(summary)


if __name__ == "__main__":
    main()
