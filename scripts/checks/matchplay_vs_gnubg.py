"""Checker play at match scores: bgcli's pick, ranked in cubeless MWC by its evaluator at 0
and 1 ply, against gnubg 1.07's pick at the same ply and score
(``tests/fixtures/matchplay_hints.jsonl``, made by ``python -m scripts.fixtures.gen_matchplay``).

    python -m scripts.checks.matchplay_vs_gnubg [-o scripts/checks/matchplay_vs_gnubg.json]

For each ply and score (and all scores together) it counts the rolls where bgcli's MWC pick
is gnubg's match pick, and where bgcli's money pick is; then the same on the rolls where the
score matters to gnubg (its match pick is not its money pick) and where it matters to bgcli
(bgcli's MWC pick is not its money pick). The money rows compare money picks. Also the
arithmetic alone: gnubg's own probabilities of its listed plays through bgcli's coefficients,
the largest difference to gnubg's equity and how often the top play is gnubg's.
Plays are compared by the Position ID they leave. Needs no gnubg.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from bgcli import __version__
from bgcli.decisions import play_coefficients
from bgcli.evaluation import policy_net, rank_plays
from bgcli.match import MatchScore
from bgcli.position import Position

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "matchplay_hints.jsonl"
OUT = ROOT / "scripts" / "checks" / "matchplay_vs_gnubg.json"


def read_fixture(path: Path = FIXTURE) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def score_of(entry: dict) -> MatchScore:
    return MatchScore(entry["away_me"], entry["away_them"], entry["crawford"], entry["cube_value"])


def pick(ranked, coefficients) -> str:
    """The Position ID left by the best play by these coefficients (ties: evaluator order)."""
    best = max(ranked, key=lambda r: coefficients[0] + coefficients[1:] @ r.probabilities)
    return best.play.result.position_id()


def agreement(rows: list[dict], plies: int, policy: str = "net") -> dict:
    """Counts per score name and in all (see the module docstring)."""
    counts: dict = defaultdict(Counter)
    money_coefficients = play_coefficients(None)
    for row in rows:
        ranked = rank_plays(Position.from_id(row["position_id"]), tuple(row["dice"]), policy, plies)
        ours_money = pick(ranked, money_coefficients)
        gnubg_money = row["money"][f"plies_{plies}"][0]["result"]
        counts["money"].update(rolls=1, agree=ours_money == gnubg_money)
        for entry in row["scores"]:
            ours = pick(ranked, play_coefficients(score_of(entry)))
            gnubg = entry[f"plies_{plies}"][0]["result"]
            for key in (entry["name"], "all scores"):
                c = counts[key]
                c.update(rolls=1, agree=ours == gnubg, money_pick_agrees=ours_money == gnubg)
                if gnubg != gnubg_money:
                    c.update(gnubg_score_matters=1, gnubg_score_matters_agree=ours == gnubg,
                             gnubg_score_matters_money_pick_agrees=ours_money == gnubg)
                if ours != ours_money:
                    c.update(bgcli_score_matters=1, bgcli_score_matters_agree=ours == gnubg,
                             bgcli_score_matters_money_pick_agrees=ours_money == gnubg)
    return {key: {k: int(v) for k, v in c.items()} for key, c in counts.items()}


def arithmetic(rows: list[dict]) -> dict:
    """gnubg's probabilities through bgcli's coefficients, against gnubg's own equities."""
    worst, top, hints = 0.0, 0, 0
    for row in rows:
        entries = [(None, row["money"])] + [(score_of(e), e) for e in row["scores"]]
        for score, entry in entries:
            c = play_coefficients(score)
            for key in ("plies_0", "plies_1"):
                values = [c[0] + c[1:] @ np.array(p["probs"]) for p in entry[key]]
                worst = max([worst] + [abs(v - p["equity"]) for v, p in zip(values, entry[key])])
                top += int(np.argmax(values)) == 0
                hints += 1
    return {"hints": hints, "top_play_is_gnubgs": top, "max_equity_difference": worst}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows = read_fixture()
    began = time.time()
    record = {"command": "python -m scripts.checks.matchplay_vs_gnubg", "fixture": str(FIXTURE.relative_to(ROOT)),
              "bgcli_version": __version__, "net": policy_net("net"), "rolls": len(rows),
              "arithmetic": arithmetic(rows),
              "plies_0": agreement(rows, 0), "plies_1": agreement(rows, 1)}
    record["elapsed_seconds"] = round(time.time() - began, 1)
    args.out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: record[k] for k in ("arithmetic",)}), "->", args.out)
    for plies in ("plies_0", "plies_1"):
        print(plies, "money", record[plies]["money"], "all scores", record[plies]["all scores"])


if __name__ == "__main__":
    main()
