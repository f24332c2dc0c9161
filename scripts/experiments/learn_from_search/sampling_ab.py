"""A/B: train-data's sampling with rank_plays (0.8.0) against best_result (0.9.0), chunk 3
of seed 3's settings, sampling alone and with the 2-ply labels, interleaved twice, CPU seconds.

    python -m scripts.experiments.learn_from_search.sampling_ab
"""

import time

import numpy as np

from bgcli import learn
from bgcli.evaluation import position_probabilities, rank_plays

SOURCES = ["positions/train_backgames.txt", "positions/train_anchors.txt"]


def with_rank_plays(position, dice):
    """0.8.0's sampling step: rank_plays (every play's notation built)."""
    return [ranked.play.result for ranked in rank_plays(position, dice, "net", 0)]


def main() -> None:
    settings, starts = learn.data_settings(3, 2, 500, 0.2, 40, 0.3, SOURCES)
    labels = {"sampling only": lambda p, row: np.zeros(5),
              "with 2-ply labels": lambda p, row: position_probabilities(p, "net", 2)}
    samplers = {"rank_plays": with_rank_plays, "best_result": learn._ranked}
    learn.make_chunk(settings, starts, 2, labels["with 2-ply labels"])  # compile, load
    for _ in range(2):
        for name, ranked in samplers.items():
            learn._ranked = ranked  # the sampling step of make_chunk
            for what, label in labels.items():
                began = time.process_time()
                learn.make_chunk(settings, starts, 3, label)
                print(f"{name:12s} {what:18s} {time.process_time() - began:6.2f} s", flush=True)


if __name__ == "__main__":
    main()
