"""Two nets head to head at 0 ply (the policy of rollouts), cubeless money, no gnubg.

    python -m scripts.experiments.head_to_head net.npz --deals 2000 --themed positions/train_backgames.txt \\
        --themed-starts 200 --themed-deals 5 -o result.json

``A`` (the given weights) against ``B`` (``--against``, default the shipped weights). Every
deal is played twice with the same dice, A moving first then B moving first
(``bgcli.kernels.selfplay.play_match``); points per game for A with the SE over deals. From
the opening (``--deals``), and with ``--themed`` from the first ``--themed-starts`` positions
of a collection after skipping ``--skip`` (``--themed-deals`` deals each): there the side
on roll alternates between the nets in the pair, so the result is A's edge in such
positions, whichever side of them it holds. ``--luck`` also scores each game less A's luck
as B's net judges it at 0 ply (``play_match_luck``): unbiased, with about a fifth of the
raw SE for three to four times the time a deal (docs/net.md, "Session 24"). ``--bearoff``
gives both nets the bear-off databases, as bgcli's own play has them (a bear-off with both
sides home is then played by the tables, not the race net): for comparing race nets fitted
without such positions.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from bgcli import __version__
from bgcli.evaluation import net_params
from bgcli.kernels.evaluate import POLICY_NET
from bgcli.kernels.selfplay import play_match_luck
from bgcli.net import net_id, read_weights, weights_path
from bgcli.position import Position
from bgcli.train import read_training_positions


def _summary(per_deal: np.ndarray) -> dict:
    n = per_deal.size
    return {"deals": int(n), "games": int(2 * n), "ppg": float(per_deal.mean()),
            "se": float(per_deal.std(ddof=1) / math.sqrt(n))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights")
    parser.add_argument("--against", default=None, help="default: the shipped weights")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--themed", default=None)
    parser.add_argument("--themed-starts", type=int, default=200)
    parser.add_argument("--themed-deals", type=int, default=5)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument("--bearoff", action="store_true",
                        help="both nets play bear-offs by the bear-off databases")
    parser.add_argument("--luck", action="store_true",
                        help="also report the luck-adjusted score (B's net judging the luck)")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    against = args.against or str(weights_path())
    if args.bearoff:  # the weights with the tables, as every bgcli command builds (and caches) them
        a, b = net_params(args.weights), net_params(against)
    else:
        a, b = read_weights(args.weights)[0], read_weights(against)[0]
    t0 = time.perf_counter()
    result = {"a": net_id(args.weights), "b": net_id(against), "seed": args.seed,
              "bgcli_version": __version__, "command": "python -m scripts.experiments."
              "head_to_head " + " ".join(f"{k}={v}" for k, v in vars(args).items())}
    judge = b if args.luck else np.empty(0)

    def play(start, first_deal, n_deals):
        """Points per deal for A, raw and less A's luck (None without --luck)."""
        out, luck = np.zeros((n_deals, 2)), np.zeros((n_deals, 2))
        play_match_luck(np.ascontiguousarray(start, dtype=np.int8), args.seed, first_deal,
                        n_deals, POLICY_NET, a, POLICY_NET, b, judge, out, luck)
        return out.mean(axis=1), (out - luck).mean(axis=1) if args.luck else None

    def summaries(raw, adjusted):
        return {**_summary(raw), **({"luck_adjusted": _summary(adjusted)} if args.luck else {})}

    if args.deals >= 2:
        raw, adjusted = play(Position.start().board, 0, args.deals)
        result["opening"] = summaries(raw, adjusted)
    if args.themed:
        boards, info = read_training_positions(args.themed)
        chosen = boards[args.skip:args.skip + args.themed_starts]
        raw, adjusted = [], []
        for i, board in enumerate(chosen):
            deal_raw, deal_adjusted = play(board, i * args.themed_deals, args.themed_deals)
            raw.extend(deal_raw)
            adjusted.extend(deal_adjusted if args.luck else [])
        result["themed"] = {**summaries(np.array(raw), np.array(adjusted)), "file": info["file"],
                            "sha256": info["sha256"], "starts": len(chosen), "skip": args.skip,
                            "deals_per_start": args.themed_deals}
    result["wall_s"] = round(time.perf_counter() - t0, 1)
    text = json.dumps(result, indent=2, sort_keys=True)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
