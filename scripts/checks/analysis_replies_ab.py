"""A/B of the match analysis' per-roll terms: judge match11 at 2 ply with the terms taken
from the ranking's own search (``ranked_plays``: ``replies=True``) and with them
recomputed by a second search of each play, interleaved, and print the seconds and the
total error of each run (equal: the change costs time, not numbers).

    python -m scripts.checks.analysis_replies_ab [--runs 3]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bgcli.decisions import rank_plays_at
from bgcli.matchfile import analysis, read_match

MATCH = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "matches" / "match11.mat"


def _recomputed(situation, dice, plies, policy="net"):
    """``ranked_plays`` without the terms: ``play_value`` then searches each play again."""
    return rank_plays_at(situation.position, dice, policy, plies,
                         analysis.match_score(situation))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    match = read_match(MATCH)
    kept = analysis.ranked_plays
    analysis.judge(match, 2)  # compile and warm the caches
    for _ in range(args.runs):
        for name, ranking in (("replies", kept), ("recomputed", _recomputed)):
            analysis.ranked_plays = ranking
            start = time.perf_counter()
            judged = analysis.judge(match, 2)
            seconds = time.perf_counter() - start
            print(f"{name:10s} {seconds:6.2f} s  total error {sum(j.error or 0 for j in judged):.6f}",
                  flush=True)
    analysis.ranked_plays = kept


if __name__ == "__main__":
    main()
