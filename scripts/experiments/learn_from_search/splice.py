"""One weights file from two: the contact net of the first, the race net of the second
(session 15: a fit of both nets with the race net of the self-play net put back).

    python -m scripts.experiments.learn_from_search.splice s15_B.npz a8cd.npz -o s15_C.npz

The record is the first file's, with the splice added to its ``history``.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from bgcli.kernels.net import NET_SIZE
from bgcli.net import net_id, read_weights, save_weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("contact", help="weights whose contact net is kept")
    parser.add_argument("race", help="weights whose race net is kept")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    contact, record = read_weights(args.contact)
    race, race_record = read_weights(args.race)
    params = contact.copy()
    params[NET_SIZE:] = race[NET_SIZE:]  # the race net follows the contact net's weights
    save_spliced(args.output, params, record, "splice", "splice: the contact net of the first "
                 f"file, the race net of the second ({race_record.get('command', args.race)})")
    print(net_id(args.output))


def save_spliced(path, params, record: dict, script: str, method: str) -> None:
    """Write spliced weights with ``record`` (the kept file's) and the splice, this
    ``script``'s command line and ``method``, added to its ``history``."""
    command = shlex.join(["python", "-m", f"scripts.experiments.learn_from_search.{script}"]
                         + sys.argv[1:])
    record = dict(record)
    record["history"] = list(record.get("history", [])) + [{"command": command,
                                                            "method": method}]
    save_weights(path, params, record)


if __name__ == "__main__":
    main()
