"""A weights file that plays a supervised checkpoint's last epoch (its ``last_params``)
instead of the epoch early stopping kept, with the record saying so (the last ``history``
entry's ``best_epoch``, ``held_out`` and ``kept``), as session 26 shipped 0.9.9.

    python -m scripts.experiments.learn_from_search.last_epoch s26_m4.npz s26_m4_last.npz
"""

from __future__ import annotations

import argparse

from bgcli.net import read_extra_arrays, read_weights, save_weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", help="a bgcli train --data checkpoint (.npz)")
    parser.add_argument("output", help="the weights file to write (.npz)")
    args = parser.parse_args()
    _, record = read_weights(args.checkpoint)
    extra = read_extra_arrays(args.checkpoint, ("last_params",))
    if extra is None or "supervised" not in record:
        raise SystemExit(f"{args.checkpoint}: not a checkpoint of bgcli train --data")
    run, last = record["history"][-1], record["supervised"]["epochs"]
    kept_before = run["best_epoch"]
    run["best_epoch"] = record["supervised"]["best_epoch"] = last
    run["held_out"] = record["supervised"]["checks"][last]["held_out"]
    run["kept"] = (f"the last epoch ({last}), the checkpoint's last_params; early stopping on "
                   f"the held-out errors had kept epoch {kept_before}")
    save_weights(args.output, extra["last_params"], record)


if __name__ == "__main__":
    main()
