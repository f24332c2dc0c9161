"""Rebuild positions/study.csv, the study positions by theme, and check every one of them.

    python -m positions.build_study > positions/study.csv

Each position is one dict: ``on_roll`` and ``opponent`` are ``{point: checkers}`` maps, each
side counting from its OWN home board (point 1 is its deepest point, 25 its bar), exactly as
``bgcli.Position.from_points`` takes them. A side's checkers not listed are borne off. So the
player on roll's point p faces the opponent's point 25 - p.

Unless a position has a ``match`` entry, the ID written is a bare Position ID: money game,
cube centred at 1, the player on roll about to roll (no dice). A ``match`` entry gives the
full ``POSID:MATCHID`` with a match score and/or a cube value and owner, seen from the player
on roll: ``{"length": 7, "score": (on_roll, opponent), "cube": 2, "owner": "opponent"}``.

Before anything is written every position is checked: it is a legal layout (no shared point,
at most 15 checkers a side, the rest counted as borne off), and it fits its theme (a race
has no contact, a bear-off has the player on roll all home, a blitz has the opponent on the
bar against 4+ home points, a back game has 2+ anchors in the opponent's home board, ...).
A failed check stops the script with the reason; nothing is printed then.
"""

from __future__ import annotations

import csv
import sys

from bgcli import Position
from bgcli.notation.detect import Situation
from bgcli.notation.gnubgid import CENTERED, MatchState

# fmt: off
POSITIONS: list[dict] = [
    # ------------------------------------------------------------------ races
    {"id": "race-01", "name": "Long race, level",
     "on_roll":  {12: 1, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 1, 4: 1},
     "opponent": {12: 2, 11: 1, 10: 2, 9: 2, 8: 2, 7: 1, 6: 3, 5: 1, 4: 1},
     "notes": "A long race with level pip counts: the roll alone is worth about 4 pips, far "
              "from enough to double."},
    {"id": "race-02", "name": "Long race, 10% ahead",
     "on_roll":  {11: 1, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2},
     "opponent": {11: 3, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 1, 3: 1},
     "notes": "A long race with the player on roll about 10% ahead: compare the Keith, "
              "Thorp and 8-9-12 verdicts around the doubling window."},
    {"id": "race-03", "name": "Medium race at the doubling point",
     "on_roll":  {9: 1, 8: 2, 7: 2, 6: 3, 5: 3, 4: 2, 3: 2},
     "opponent": {10: 1, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2, 3: 1, 2: 1},
     "notes": "A medium race about 8% ahead, right at the doubling point: is it a double, "
              "and is it still a take?"},
    {"id": "race-04", "name": "Short race, Keith count",
     "on_roll":  {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 1},
     "opponent": {6: 3, 5: 2, 4: 2, 3: 1, 2: 2, 1: 1},
     "notes": "A short race where both sides are home and some checkers are off: practise "
              "the Keith count's adjustments for gaps and stacks."},
    {"id": "race-05", "name": "Race with wastage",
     "on_roll":  {8: 2, 7: 2, 6: 3, 3: 1, 2: 4, 1: 3},
     "opponent": {7: 1, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1},
     "notes": "Level-looking pip counts, but the player on roll has stacked the low points: "
              "effective pip counts (wastage) decide this race, not raw pips."},
    {"id": "race-06", "name": "Race at 4-away, 2-away",
     "on_roll":  {10: 1, 9: 2, 8: 2, 7: 2, 6: 3, 5: 2, 4: 2, 3: 1},
     "opponent": {10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2, 3: 1},
     "match": {"length": 7, "score": (3, 5)},
     "notes": "A race in a 7-point match with the player on roll 4-away and the opponent "
              "2-away: match equities, not money rules, set the doubling window."},
    # ------------------------------------------------------------------ bear-offs
    {"id": "bearoff-01", "name": "Two checkers each",
     "on_roll":  {6: 1, 3: 1},
     "opponent": {2: 2},
     "notes": "A tiny bear-off: the player on roll must throw 9+ pips with the right dice "
              "before the opponent's near-certain finish; count the winning rolls."},
    {"id": "bearoff-02", "name": "Bear-off with gaps",
     "on_roll":  {6: 4, 5: 1, 2: 3, 1: 2},
     "opponent": {5: 2, 4: 3, 3: 2, 2: 2, 1: 1},
     "notes": "Gaps on the 3- and 4-points waste high numbers: decide how to fill gaps and "
              "when to bear off versus bear in."},
    {"id": "bearoff-03", "name": "Heavy 6-point stack",
     "on_roll":  {6: 6, 5: 2, 4: 1},
     "opponent": {6: 2, 5: 2, 4: 2, 3: 2, 2: 1, 1: 1},
     "notes": "A heavy stack on the 6-point against a smooth position: count the rolls "
              "each side needs, not the pips."},
    {"id": "bearoff-04", "name": "Contact bear-off against an ace-point anchor",
     "on_roll":  {6: 4, 5: 3, 4: 3, 3: 2, 2: 1},
     "opponent": {24: 2, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2},
     "notes": "Bearing off while the opponent holds the ace point: clear from the back, keep "
              "spares and avoid leaving a shot."},
    {"id": "bearoff-05", "name": "Crawford game bear-off",
     "on_roll":  {5: 2, 4: 2, 3: 2, 2: 1, 1: 1},
     "opponent": {6: 2, 5: 1, 4: 2, 3: 2, 2: 1},
     "match": {"length": 5, "score": (1, 4), "crawford": True},
     "notes": "A race home in the Crawford game (player on roll 4-away, opponent 1-away): no "
              "cube, just bear off efficiently to win the game."},
    # ------------------------------------------------------------------ blitzes
    {"id": "blitz-01", "name": "Two on the bar against four home points",
     "on_roll":  {24: 2, 13: 2, 8: 2, 6: 3, 5: 2, 4: 2, 3: 2},
     "opponent": {25: 2, 23: 1, 13: 4, 8: 3, 6: 5},
     "notes": "The opponent has two on the bar and a blot on the 2-point: attack the blot "
              "and close points, or make the bar/6-prime first?"},
    {"id": "blitz-02", "name": "One on the bar, a blot in the board",
     "on_roll":  {24: 2, 13: 2, 10: 1, 8: 2, 6: 4, 5: 2, 4: 2},
     "opponent": {25: 1, 22: 1, 13: 5, 8: 2, 7: 2, 6: 4},
     "notes": "Blitz or prime: hit the blot on the 3-point (two on the bar) or make a "
              "point, weighing the return shots."},
    {"id": "blitz-03", "name": "Five-point board, ace point to close",
     "on_roll":  {13: 1, 8: 2, 6: 3, 5: 3, 4: 2, 3: 2, 2: 2},
     "opponent": {25: 2, 24: 1, 13: 5, 8: 3, 6: 4},
     "notes": "Two checkers on the bar and one on the ace point against a five-point board: "
              "pick up the third checker and close out for a big gammon chance."},
    {"id": "blitz-04", "name": "Double hit: one on the bar, two blots in the board",
     "on_roll":  {24: 2, 13: 3, 9: 1, 8: 2, 6: 3, 5: 2, 3: 2},
     "opponent": {25: 1, 23: 1, 21: 1, 13: 4, 8: 3, 6: 5},
     "notes": "Hit both blots on the 2- and 4-points (three on the bar) or hit one and "
              "cover, weighing the return shots from the bar."},
    # ------------------------------------------------------------------ primes
    {"id": "prime-01", "name": "Full prime, one checker trapped",
     "on_roll":  {24: 1, 13: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2},
     "opponent": {23: 1, 13: 2, 8: 2, 6: 4, 5: 3, 4: 3},
     "notes": "A full 6-point prime traps a checker on the 2-point: walk the prime home "
              "safely, never breaking it with a blot in front of the trapped checker."},
    {"id": "prime-02", "name": "Prime against prime",
     "on_roll":  {23: 2, 13: 2, 9: 1, 7: 2, 6: 2, 5: 2, 4: 2, 3: 2},
     "opponent": {23: 2, 13: 2, 10: 1, 7: 2, 6: 2, 5: 2, 4: 2, 3: 2},
     "notes": "Prime against prime, both with two checkers trapped: the side whose prime "
              "holds longer (timing) wins the battle."},
    {"id": "prime-03", "name": "Prime against prime, short of timing",
     "on_roll":  {23: 2, 9: 1, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2, 1: 2},
     "opponent": {22: 2, 14: 2, 13: 1, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2},
     "notes": "Prime against prime where the player on roll has one spare outside and a "
              "crunched ace point: will this prime crack before the opponent's does?"},
    {"id": "prime-04", "name": "Rolling a five-point prime",
     "on_roll":  {13: 3, 11: 1, 9: 1, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2},
     "opponent": {23: 2, 13: 3, 8: 3, 6: 4, 5: 3},
     "notes": "Roll the 4-8 prime forward onto the 3-point to keep the two checkers on the "
              "2-point locked in: which checkers slot and which stay as builders?"},
    {"id": "prime-05", "name": "Escaping from behind a five-point prime",
     "on_roll":  {24: 1, 23: 1, 13: 5, 8: 2, 6: 4, 5: 2},
     "opponent": {13: 3, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 4: 2},
     "notes": "Two split back checkers behind the opponent's 5-point prime (6- to "
              "10-point): anchor, or step up to the edge where 6s escape?"},
    # ------------------------------------------------------------------ back games
    {"id": "backgame-01", "name": "1-3 back game, good timing",
     "on_roll":  {24: 2, 22: 2, 15: 2, 13: 3, 11: 2, 9: 2, 7: 2},
     "opponent": {8: 2, 7: 2, 6: 3, 5: 3, 4: 3, 2: 2},
     "notes": "A 1-3 back game far behind in the race with timing to spare: keep the anchors "
              "and the outfield checkers back until a shot comes."},
    {"id": "backgame-02", "name": "2-3 back game",
     "on_roll":  {23: 2, 22: 2, 15: 2, 13: 4, 10: 2, 8: 2, 6: 1},
     "opponent": {9: 2, 8: 2, 7: 2, 6: 3, 5: 2, 4: 2, 1: 2},
     "notes": "The 2-3 back game, the strongest pair of anchors: how to keep timing while "
              "the opponent bears in."},
    {"id": "backgame-03", "name": "Bearing in against a 1-2 back game",
     "on_roll":  {9: 2, 8: 2, 7: 2, 6: 3, 5: 2, 4: 2, 3: 2},
     "opponent": {24: 2, 23: 2, 15: 2, 13: 3, 11: 2, 9: 2, 7: 2},
     "notes": "The player on roll is bearing in against a 1-2 back game: clear points from "
              "the back and keep blots away from the opponent's anchors."},
    {"id": "backgame-04", "name": "Back game with poor timing",
     "on_roll":  {22: 2, 20: 2, 6: 2, 5: 2, 3: 2, 2: 3, 1: 2},
     "opponent": {8: 2, 7: 3, 6: 4, 4: 4, 2: 2},
     "notes": "A 3-5 back game whose home board has already crunched onto low points: even a "
              "hit may not win, so consider running from an anchor."},
    {"id": "backgame-05", "name": "Back game shot",
     "on_roll":  {23: 2, 22: 2, 13: 3, 11: 2, 9: 2, 6: 2, 5: 2},
     "opponent": {8: 1, 7: 2, 6: 4, 5: 3, 4: 3, 1: 2},
     "notes": "The opponent has left a blot on the 8-point while bearing in against a 2-3 "
              "back game: hit, and with which checker?"},
    # ------------------------------------------------------------------ holding games
    {"id": "holding-01", "name": "20-point holding game",
     "on_roll":  {20: 2, 13: 3, 8: 3, 6: 4, 5: 2, 4: 1},
     "opponent": {13: 3, 8: 3, 7: 2, 6: 4, 4: 2, 3: 1},
     "notes": "Holding the opponent's 5-point while behind in the race: wait for a shot as "
              "the opponent clears the midpoint and the 8-point."},
    {"id": "holding-02", "name": "Bar-point anchor holding game",
     "on_roll":  {18: 2, 13: 2, 8: 3, 6: 4, 5: 3, 4: 1},
     "opponent": {13: 4, 8: 2, 6: 4, 5: 2, 4: 2, 3: 1},
     "notes": "Holding the opponent's bar point: the anchor bothers the opponent's 6s while "
              "the midpoint comes home; count shots and race."},
    {"id": "holding-03", "name": "Mutual holding game",
     "on_roll":  {20: 2, 13: 4, 8: 2, 6: 4, 4: 2, 3: 1},
     "opponent": {20: 2, 13: 4, 8: 3, 6: 3, 4: 2, 3: 1},
     "notes": "Both sides hold the other's 5-point and their midpoints: who must break first "
              "and who leaves the first shot?"},
    {"id": "holding-04", "name": "21-point holding game, opponent owns the cube",
     "on_roll":  {21: 2, 13: 2, 8: 3, 6: 4, 5: 2, 3: 2},
     "opponent": {13: 2, 9: 2, 8: 3, 6: 4, 5: 2, 2: 2},
     "match": {"cube": 2, "owner": "opponent"},
     "notes": "A holding game on the 21-point with the opponent owning the cube at 2: the "
              "player on roll cannot double, only play for shots and the race."},
    {"id": "holding-05", "name": "Advanced anchor against a midpoint",
     "on_roll":  {21: 2, 13: 4, 8: 2, 6: 4, 5: 2, 4: 1},
     "opponent": {13: 4, 10: 1, 8: 3, 6: 4, 5: 2, 2: 1},
     "notes": "The 21-point anchor against the opponent's midpoint: keep the anchor or run "
              "when the race is close?"},
    # ------------------------------------------------------------------ gammonish
    {"id": "gammonish-01", "name": "Closed board, two checkers closed out",
     "on_roll":  {9: 2, 6: 3, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2},
     "opponent": {25: 2, 13: 4, 8: 3, 6: 3, 5: 3},
     "notes": "Two checkers closed out: bring the last checkers home and bear off, counting "
              "how often the gammon comes."},
    {"id": "gammonish-02", "name": "Three on the bar against a four-point board",
     "on_roll":  {25: 3, 13: 4, 8: 3, 6: 5},
     "opponent": {13: 3, 8: 2, 6: 3, 5: 3, 4: 2, 3: 2},
     "notes": "The player on roll has three checkers on the bar against a four-point board: "
              "a big gammon risk, so how much does a single entry help?"},
    {"id": "gammonish-03", "name": "Saving the gammon against an ace-point bear-off",
     "on_roll":  {6: 2, 5: 2, 4: 3, 3: 2, 2: 1},
     "opponent": {24: 2, 15: 3, 11: 3, 9: 3, 6: 2, 5: 2},
     "notes": "The opponent holds the ace point with many checkers still outside while the "
              "player on roll bears off: gammons for the player on roll are likely."},
    {"id": "gammonish-04", "name": "Three checkers on the bar, attacker to play",
     "on_roll":  {24: 2, 13: 3, 8: 2, 6: 3, 5: 2, 4: 2, 2: 1},
     "opponent": {25: 3, 13: 4, 8: 3, 6: 5},
     "notes": "The opponent has three on the bar against three home points plus a slot: a "
              "gammonish blitz, cover the slot or attack more?"},
    # ------------------------------------------------------------------ misc
    {"id": "misc-01", "name": "Entering against a five-point board",
     "on_roll":  {25: 1, 24: 1, 13: 5, 8: 3, 6: 5},
     "opponent": {13: 2, 8: 2, 6: 3, 5: 2, 4: 2, 3: 2, 2: 2},
     "notes": "One checker on the bar against a five-point board with only the ace point "
              "open: 11 rolls in 36 enter."},
    {"id": "misc-02", "name": "Closed out",
     "on_roll":  {25: 1, 13: 6, 8: 3, 6: 5},
     "opponent": {13: 2, 7: 1, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2},
     "notes": "The player on roll is closed out: no legal move for any roll until the "
              "opponent opens a point."},
    {"id": "misc-03", "name": "Bearing in past a closed-out checker",
     "on_roll":  {10: 2, 8: 1, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2},
     "opponent": {25: 1, 13: 2, 8: 4, 6: 4, 5: 2, 4: 2},
     "notes": "The opponent's checker is closed out: bring the last three checkers home "
              "and break the board from the back to keep the closed board as long as possible."},
]
# fmt: on

THEMES = ("race", "bearoff", "blitz", "prime", "backgame", "holding", "gammonish", "misc")
HOME = range(1, 7)


def made(points: dict[int, int], where) -> list[int]:
    """Points in ``where`` holding two or more checkers."""
    return [p for p in where if points.get(p, 0) >= 2]


def longest_prime(points: dict[int, int]) -> int:
    run = best = 0
    for p in range(1, 25):
        run = run + 1 if points.get(p, 0) >= 2 else 0
        best = max(best, run)
    return best


def check_theme(entry: dict, position: Position) -> list[str]:
    """Reasons the position does not fit its theme (empty when it does)."""
    me, you = entry["on_roll"], entry["opponent"]
    theme = entry["id"].rsplit("-", 1)[0]
    problems = []

    def need(condition: bool, text: str) -> None:
        if not condition:
            problems.append(text)

    if theme == "race":
        need(position.is_race(), "a race must have no contact")
    elif theme == "bearoff":
        need(all(p in HOME for p in me), "the player on roll must be all home")
    elif theme == "blitz":
        need(you.get(25, 0) >= 1, "the opponent must be on the bar")
        need(len(made(me, HOME)) >= 3, "the attacker needs 3+ home points")
    elif theme == "prime":
        need(max(longest_prime(me), longest_prime(you)) >= 5, "a prime needs 5+ points in a row")
        need(not position.is_race(), "a prime needs contact")
    elif theme == "backgame":
        anchors = [len(made(side, range(19, 25))) for side in (me, you)]
        need(max(anchors) >= 2, "a back game needs 2+ anchors in the opponent's home board")
    elif theme == "holding":
        anchors = [made(side, range(18, 22)) for side in (me, you)]
        need(any(anchors), "a holding game needs an anchor on the opponent's 4- to 7-point")
        need(not position.is_race(), "a holding game needs contact")
    elif theme == "gammonish":
        need(position.borne_off() == (0, 0) or min(position.borne_off()) == 0,
             "gammons need a side with nothing borne off")
    elif theme == "misc":
        pass
    else:
        problems.append(f"unknown theme {theme!r}")
    return problems


def match_state(spec: dict | None) -> MatchState | None:
    """A gnubg match state for the player on roll (bgcli's player 1)."""
    if not spec:
        return None
    owner = {"centre": CENTERED, "on_roll": 1, "opponent": 0}[spec.get("owner", "centre")]
    on_roll_score, opponent_score = spec.get("score", (0, 0))
    return MatchState(cube_value=spec.get("cube", 1), cube_owner=owner, player_on_roll=1,
                      turn=1, crawford=spec.get("crawford", False),
                      match_length=spec.get("length", 0),
                      score=(opponent_score, on_roll_score))


def build() -> list[dict[str, str]]:
    rows, seen, problems = [], set(), []
    for entry in POSITIONS:
        ident = entry["id"]
        if ident in seen:
            problems.append(f"{ident}: duplicate id")
        seen.add(ident)
        for side in ("on_roll", "opponent"):
            if sum(entry[side].values()) > 15:
                problems.append(f"{ident}: {side} has more than 15 checkers")
        position = Position.from_points(entry["on_roll"], entry["opponent"])
        if not position.is_valid():
            problems.append(f"{ident}: {position.status().describe()}")
            continue
        problems += [f"{ident}: {text}" for text in check_theme(entry, position)]
        state = match_state(entry.get("match"))
        text = position.position_id() if state is None else Situation(position, state).gnubg_id
        rows.append({"id": ident, "name": entry["name"], "position": text, "notes": entry["notes"]})
    if problems:
        raise SystemExit("build_study.py: not written:\n  " + "\n  ".join(problems))
    return rows


def main() -> None:
    rows = build()
    writer = csv.DictWriter(sys.stdout, fieldnames=["id", "name", "position", "notes"],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


if __name__ == "__main__":
    main()
