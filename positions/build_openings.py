"""Rebuild positions/openings.csv: the start position and the position after the main play
of each of the 15 opening rolls.

    python -m positions.build_openings > positions/openings.csv

Each play is looked up among bgcli's legal plays for the roll (so a typo fails loudly) and
the row takes that play's ``result_id``, exactly what ``bgcli moves 4HPwATDgc/ABMA 31 -f csv``
prints: the full gnubg ID (POSID:MATCHID) with the OPPONENT on roll, money game, centred cube,
dice not yet rolled.

The choice of play follows the modern (XG-era rollout) consensus for money play. Where the
rollouts leave two or three plays within a few thousandths, the note says so and names the
alternatives. ``GNUBG`` records what GNU Backgammon 1.07 picks at 2-ply (cubeful, every play
evaluated: ``set evaluation movefilter 2 0 100 0 0.0``, Match ID ``cAkAAAAAAAAE``), measured
once when this file was written; gnubg is a reference here, not a dependency.
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys

START = "4HPwATDgc/ABMA"

#: roll: (main play in gnubg notation, note)
OPENINGS: dict[str, tuple[str, str]] = {
    "21": ("13/11 6/5", "Slot the 5-point and bring a builder down. The slot is the modern "
           "consensus main play for money, a hair ahead of the split 24/23 13/11 in rollouts; "
           "the two are practically equal."),
    "31": ("8/5 6/5", "Make the 5-point: the consensus best opening roll, no rival play."),
    "32": ("24/21 13/11", "Split to the opponent's 4-point and bring a builder down: the modern "
           "consensus main play; 13/11 13/10 (two builders) is a close alternative."),
    "41": ("24/23 13/9", "Split and bring a builder to the 9-point: the modern consensus main "
           "play, ahead of the slot 13/9 6/5."),
    "42": ("8/4 6/4", "Make the 4-point: the consensus play, no close rival."),
    "43": ("24/20 13/10", "Split to the opponent's 5-point and bring a builder down. The modern "
           "consensus treats 24/20 13/10, 13/10 13/9 and 24/21 13/9 as practically equal; "
           "this is the usual main choice."),
    "51": ("24/23 13/8", "Split and come down to the 8-point: the modern consensus main play, "
           "ahead of the slot 13/8 6/5."),
    "52": ("13/11 13/8", "Bring two checkers down from the midpoint: the modern consensus main "
           "play for money; the split 24/22 13/8 is practically equal."),
    "53": ("8/3 6/3", "Make the 3-point: the modern consensus play (24/21 13/8 is next)."),
    "54": ("24/20 13/8", "Split to the opponent's 5-point and come down to the 8-point: the "
           "modern consensus main play; 13/9 13/8 is the alternative."),
    "61": ("13/7 8/7", "Make the bar point: the consensus play, no close rival."),
    "62": ("24/18 13/11", "Split to the opponent's bar point and bring a builder down: the "
           "modern consensus main play (24/16 and 13/5 trail)."),
    "63": ("24/18 13/10", "Split to the opponent's bar point and bring a builder down: the "
           "modern consensus main play (24/15 is next)."),
    "64": ("8/2 6/2", "Make the 2-point: one of three practically equal plays with 24/18 13/9 "
           "and the run 24/14; the point-making play is the usual main choice today."),
    "65": ("24/13", "Run a back checker to the midpoint (lover's leap): the consensus play, "
           "no close rival."),
}

#: gnubg 1.07 2-ply pick and its margin over the next play (equity), measured once.
GNUBG: dict[str, str] = {
    "21": "24/23 13/11, 0.002 ahead of 13/11 6/5",
    "31": "8/5 6/5",
    "32": "24/21 13/11, 0.011 ahead of 13/11 13/10",
    "41": "24/23 13/9",
    "42": "8/4 6/4",
    "43": "24/21 13/9; 13/10 13/9 is 0.001 and 24/20 13/10 0.002 behind it",
    "51": "24/23 13/8",
    "52": "24/22 13/8, 0.003 ahead of 13/11 13/8",
    "53": "8/3 6/3",
    "54": "24/20 13/8",
    "61": "13/7 8/7",
    "62": "24/18 13/11",
    "63": "24/18 13/10",
    "64": "8/2 6/2, tied with 24/18 13/9; 24/14 is 0.012 behind",
    "65": "24/13",
}


def result_ids(roll: str) -> dict[str, str]:
    """{play notation: result_id} from ``bgcli moves START ROLL -f csv``."""
    out = subprocess.run([sys.executable, "-m", "bgcli", "moves", START, roll, "-f", "csv"],
                         check=True, capture_output=True, text=True).stdout
    return {row["move"]: row["result_id"] for row in csv.DictReader(io.StringIO(out))}


def rows() -> list[dict[str, str]]:
    table = [{"id": "start", "name": "Opening position", "position": START,
              "notes": "The starting position, money game, cube centred, nobody has rolled yet."}]
    for roll, (play, note) in OPENINGS.items():
        ids = result_ids(roll)
        if play not in ids:
            raise SystemExit(f"{roll}: {play!r} is not among bgcli's legal plays {sorted(ids)}")
        gnubg = GNUBG[roll]
        agrees = gnubg.split(",")[0].split(";")[0] == play
        if gnubg == play:
            gnubg_note = "gnubg 2-ply agrees."
        elif agrees:
            gnubg_note = f"gnubg 2-ply agrees ({gnubg})."
        else:
            gnubg_note = f"gnubg 2-ply picks {gnubg}."
        table.append({
            "id": f"opening-{roll}",
            "name": f"{roll}: {play}",
            "position": ids[play],
            "notes": f"After opening {roll} played {play}, the opponent on roll. {note} {gnubg_note}",
        })
    return table


def main() -> None:
    writer = csv.DictWriter(sys.stdout, fieldnames=["id", "name", "position", "notes"],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows())


if __name__ == "__main__":
    main()
