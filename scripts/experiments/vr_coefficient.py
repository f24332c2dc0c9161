"""Would a fitted control-variate coefficient help variance reduction? The same trials are
played with and without variance reduction (the dice and the plays are the same; only the
luck is subtracted), so each trial's summed luck is the difference; the best coefficient
``beta`` for ``outcome - beta * luck`` is their regression slope. Prints, per position, the
SD per game plain, with the luck subtracted (beta 1, what bgcli does), ``beta`` and the SD
with it.

    python -m scripts.experiments.vr_coefficient [--trials 1296]
"""

from __future__ import annotations

import argparse

import numpy as np

from bgcli.evaluation import policy_code
from bgcli.kernels.playout import rollout_trials
from bgcli.notation.detect import parse_situation
from bgcli.rollout import first_rolls_table

POSITIONS = ("4HPwATDgc/ABMA", "a5yDAQYtO4MBAw")  # the benchmark's opening and middle game
EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def equities(position, trials: int, variance_reduction: bool) -> np.ndarray:
    code, params = policy_code("net", bearoff=True)
    out = np.zeros((trials, 5))
    rollout_trials(np.ascontiguousarray(position.board), 0, trials, 1,
                   first_rolls_table(1, 0, trials, True, False), False, code, params, 0,
                   variance_reduction, True, False, 0, False, out, np.zeros(trials))
    return out @ EQUITY - 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1296)
    args = parser.parse_args()
    for position_id in POSITIONS:
        position = parse_situation(position_id).position
        plain = equities(position, args.trials, False)
        reduced = equities(position, args.trials, True)
        luck = plain - reduced
        beta = np.cov(plain, luck)[0, 1] / luck.var(ddof=1)
        fitted = plain - beta * luck
        print(f"{position_id}: SD plain {plain.std(ddof=1):.4f}, luck subtracted "
              f"{reduced.std(ddof=1):.4f}, beta {beta:.4f}, SD with beta "
              f"{fitted.std(ddof=1):.4f} (variance {reduced.var() / fitted.var():.4f}x less)")


if __name__ == "__main__":
    main()
