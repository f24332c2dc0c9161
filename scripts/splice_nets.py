"""Put one net of a weights file into another: the nets are separate, so a net trained in
one run can join the others of another.

    python scripts/splice_nets.py BASE.npz DONOR.npz --net back -o OUT.npz

OUT gets BASE's weights with DONOR's ``--net`` (contact, race or back) in place of BASE's,
and BASE's record with an entry in its ``history`` naming both files and DONOR's games.
Used to keep a contact and race net chosen for their play against gnubg while taking the
back-game net of a run that trained it on back-game positions.
"""

from __future__ import annotations

import argparse

from bgcli.kernels import net
from bgcli.net import read_weights, save_weights

NETS = {"contact": net.CONTACT, "race": net.RACE, "back": net.BACK}


def splice(base, donor, which: int):
    """``base`` with the net ``which`` taken from ``donor`` (flat weights, a new array)."""
    out = base.copy()
    at = slice(which * net.NET_SIZE, (which + 1) * net.NET_SIZE)
    out[at] = donor[at]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("donor")
    parser.add_argument("--net", choices=sorted(NETS), required=True)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    base, record = read_weights(args.base)
    donor, donor_record = read_weights(args.donor)
    record["history"] = record.get("history", []) + [{
        "command": f"python scripts/splice_nets.py {args.base} {args.donor} --net {args.net} "
                   f"-o {args.output}",
        "games": [record.get("games"), record.get("games")],
        "note": f"the {args.net} net taken from {args.donor} ({donor_record.get('games')} games; "
                f"its last run: {donor_record.get('history', [{}])[-1].get('command')})"}]
    save_weights(args.output, splice(base, donor, NETS[args.net]), record)
    print(f"{args.output}: {args.base} with the {args.net} net of {args.donor}")


if __name__ == "__main__":
    main()
