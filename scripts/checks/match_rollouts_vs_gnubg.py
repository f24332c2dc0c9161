"""bgcli's cubeful rollouts at match scores against gnubg 1.07's
(``tests/fixtures/gnubg_match_rollouts.jsonl``, made by
``python -m scripts.fixtures.gen_match_rollouts``).

    python -m scripts.checks.match_rollouts_vs_gnubg [--trials 2592] [--seed 1]
        [-o scripts/checks/match_rollouts_vs_gnubg.json]

Each fixture row is rolled out cubefully at its score with bgcli's net (every game played out,
as gnubg's were), and the cubeful MWC compared with gnubg's (its EMG converted with the same
table): the difference, its combined standard error, and the same for the cubeless MWC of
the rates. The two programs play with different nets, so differences beyond the SEs measure
the nets as much as the cube handling. Needs no gnubg.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from bgcli import __version__
from bgcli.evaluation import policy_net
from bgcli.match import MatchScore, kazaross_xg2
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "gnubg_match_rollouts.jsonl"
OUT = ROOT / "scripts" / "checks" / "match_rollouts_vs_gnubg.json"


def compare(row: dict, trials: int, seed: int) -> dict:
    met = kazaross_xg2()
    score = MatchScore(row["away_me"], row["away_them"], row["crawford"], row["cube_value"])
    settings = RolloutSettings(trials=trials, seed=seed, cubeful=True, bearoff_truncation=False)
    ours = rollout(Position.from_id(row["position_id"]), settings, score=score)
    g = row["gnubg"]
    per_equity = score.mwc_per_equity(met)
    gnubg_mwc = score.mwc_of_equity(met, g["cubeful"])
    gnubg_cubeless = score.mwc_of_equity(met, g["cubeless"])
    ours_cubeless = met.mwc_from_probabilities(ours.means, score.away_me, score.away_them)
    return {"position_id": row["position_id"], "score": row["score"],
            "bgcli_cubeful_mwc": ours.cubeful_mwc, "bgcli_cubeful_mwc_se": ours.cubeful_mwc_se,
            "gnubg_cubeful_mwc": gnubg_mwc, "gnubg_cubeful_mwc_se": g["cubeful_se"] * per_equity,
            "cubeful_difference": ours.cubeful_mwc - gnubg_mwc,
            "cubeful_difference_se": math.hypot(ours.cubeful_mwc_se, g["cubeful_se"] * per_equity),
            "bgcli_cubeless_mwc": ours_cubeless, "gnubg_cubeless_mwc": gnubg_cubeless,
            "cubeless_difference": ours_cubeless - gnubg_cubeless,
            "games": ours.games, "seed": seed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2592)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--out", type=Path, default=OUT)
    args = parser.parse_args()
    began = time.time()
    rows = [compare(json.loads(line), args.trials, args.seed)
            for line in FIXTURE.read_text().splitlines()]
    within = sum(abs(r["cubeful_difference"]) <= 3 * r["cubeful_difference_se"] for r in rows)
    record = {"command": f"python -m scripts.checks.match_rollouts_vs_gnubg --trials {args.trials} "
                         f"--seed {args.seed}", "bgcli_version": __version__,
              "net": policy_net("net"), "rows": rows,
              "summary": {"rollouts": len(rows), "cubeful_within_3_se": within,
                          "max_abs_cubeful_difference": max(abs(r["cubeful_difference"]) for r in rows),
                          "max_abs_cubeless_difference": max(abs(r["cubeless_difference"]) for r in rows)},
              "elapsed_seconds": round(time.time() - began, 1)}
    args.out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(record["summary"]))
    for r in rows:
        print(f"{r['position_id']} {r['score']:28} bgcli {r['bgcli_cubeful_mwc']:.4f} gnubg "
              f"{r['gnubg_cubeful_mwc']:.4f} diff {r['cubeful_difference']:+.4f} "
              f"±{r['cubeful_difference_se']:.4f} (cubeless diff {r['cubeless_difference']:+.4f})")


if __name__ == "__main__":
    main()
