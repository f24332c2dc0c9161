"""bgcli.race against GNU Backgammon's own output (tests/fixtures/race.jsonl), plus a few
positions worked by hand. gnubg is not needed to run these tests."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bgcli.position import Position
from bgcli.race import (
    eight_nine_twelve,
    isight,
    keith,
    kleinman,
    pip_count,
    race_metrics,
    thorp,
)

FIXTURE = Path(__file__).parent / "fixtures" / "race.jsonl"
RECORDS = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]


def _position(position_id: str) -> Position:
    return Position.from_id(position_id)


def _printed(value: float, spec: str) -> str:
    """A float as C's printf would print it with `spec` (glibc prints NaN as "-nan" when the
    sign bit is set, as it is for the NaNs these formulas make; normalise that away)."""
    return ("%" + spec) % value


def _gnubg_token(raw: str, prefix: str, suffix: str = "") -> str:
    line = next(line for line in raw.splitlines() if line.startswith(prefix))
    token = line[len(prefix):]
    if suffix:
        token = token.split(suffix)[0]
    return token.replace("-nan", "nan")


def test_fixture_is_big_enough():
    assert len(RECORDS) >= 300
    assert len({r["position_id"] for r in RECORDS}) == len(RECORDS)


@pytest.mark.parametrize("record", RECORDS, ids=[r["position_id"] for r in RECORDS])
def test_matches_gnubg(record):
    position = _position(record["position_id"])
    parsed, raw = record["gnubg"]["parsed"], record["gnubg"]["raw"]

    pips = pip_count(position)
    assert (pips.on_roll, pips.opponent) == (
        parsed["pipcount"]["on_roll"],
        parsed["pipcount"]["opponent"],
    )
    assert (pips.on_roll, pips.opponent) == position.pips()

    k = keith(position)
    g = parsed["keith"]
    assert (k.on_roll, k.opponent) == (g["leader"], g["trailer"])
    assert _printed(k.leader_adjusted, ".1f") == _gnubg_token(
        raw["keith"], "Keith Count Leader(+1/7)     L: "
    )
    assert (k.text, k.verdict, k.reason) == (g["text"], g["verdict"], g["reason"])

    t = thorp(position)
    g = parsed["thorp"]
    assert (t.on_roll, t.opponent) == (g["leader"], g["trailer"])
    assert _printed(t.leader_adjusted, ".1f") == _gnubg_token(
        raw["thorp"], "Thorp Count Leader(+1/10)    L: "
    )
    assert (t.text, t.verdict, t.reason) == (g["text"], g["verdict"], g["reason"])

    e = eight_nine_twelve(position)
    g = parsed["8912"]
    assert (e.pips_on_roll, e.pips_opponent) == (g["leader_pips"], g["trailer_pips"])
    assert _printed(e.ahead_percent, ".1f") == _gnubg_token(
        raw["8912"], "Leader is ", " percent ahead"
    )
    assert (e.text, e.verdict, e.reason) == (g["text"], g["verdict"], g["reason"])

    kl = kleinman(position)
    g = parsed["kleinman"]
    assert (kl.pips_on_roll, kl.pips_opponent, kl.sum, kl.diff) == (
        g["leader_pips"],
        g["trailer_pips"],
        g["sum"],
        g["diff"],
    )
    assert _printed(kl.k, "8.4g") == g["k_text"].replace("-nan", " nan")
    assert _printed(kl.win_probability, ".4f") == _gnubg_token(
        raw["kleinman"], "Cubeless Winning Chance: "
    )

    i = isight(position)
    g = parsed["isight"]
    assert (i.on_roll, i.opponent) == (g["leader"], g["trailer"])
    assert _printed(i.gwc_percent, "4.1f") == _gnubg_token(
        raw["isight"], "Estimated GWC: ", "% ("
    )
    assert (i.text, i.verdict, i.reason) == (g["text"], g["verdict"], g["reason"])


def test_fixture_has_every_verdict():
    """The fixture exercises every branch of every rule (otherwise the comparison above
    would prove less than it seems)."""
    for name, count in (("keith", 4), ("thorp", 4), ("8912", 4), ("isight", 4)):
        verdicts = {r["gnubg"]["parsed"][name]["verdict"] for r in RECORDS}
        assert len(verdicts) == count, (name, verdicts)
    assert any(not _position(r["position_id"]).is_race() for r in RECORDS)


# ----------------------------------------------------------------------------- by hand


def test_start_position_by_hand():
    position = Position.start()
    # pips: 2x24 + 5x13 + 3x8 + 5x6 = 48 + 65 + 24 + 30 = 167 each
    assert pip_count(position).on_roll == 167
    # Keith: 167, nothing on points 1-3, the 4- and 5-points empty (+1 each) -> 169;
    # L = 169 x 8/7 = 193.14 > T + 4 = 173 -> no double
    k = keith(position)
    assert (k.on_roll, k.opponent) == (169, 169)
    assert f"{k.leader_adjusted:.1f}" == "193.1"
    assert (k.verdict, k.action, k.response) == ("No Double, Take", "no double", "take")
    # Thorp: 167 + 2 x 15 checkers + 0 on the 1-point - 1 occupied home point (6) = 196;
    # L = 196 x 1.1 = 215.6
    t = thorp(position)
    assert (t.on_roll, t.opponent) == (196, 196)
    assert f"{t.leader_adjusted:.1f}" == "215.6"
    # Kleinman: sum 334, diff 0, K = 4 / (2 sqrt(330)) = 0.1101, (1 + erf K)/2 = 0.5619
    kl = kleinman(position)
    assert f"{kl.k:.4f}" == "0.1101"
    assert f"{kl.win_probability:.4f}" == "0.5619"
    # Isight: no adjustment applies (equal checkers and crossovers, the 4- and 5-points are
    # empty on both sides) -> 167; GWC = 80 - 167/3 + 2 x 0 = 24.3
    i = isight(position)
    assert (i.on_roll, i.opponent) == (167, 167)
    assert f"{i.gwc_percent:.1f}" == "24.3"


def test_bear_off_by_hand():
    # On roll: 3 checkers each on points 1..5 (45 pips). Opponent: 5 each on 4, 5, 6 (75 pips).
    position = Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {4: 5, 5: 5, 6: 5})
    assert pip_count(position).difference == 30
    # Keith, on roll: 45 + 2x(3-1) on the 1-point + (3-1) on the 2-point + 0 + 1 (6-point empty)
    # = 45 + 4 + 2 + 1 = 52 -> L = 52 x 8/7 = 59.43. Opponent: 75, no stacks, no gaps on 4-6.
    # T = 75 >= L - 2 -> double, drop.
    k = keith(position)
    assert (k.on_roll, k.opponent) == (52, 75)
    assert k.text == "Double, Drop (since L <= T+2)"
    # Thorp, on roll: 45 + 2x15 + 3 (on the 1-point) - 5 occupied home points = 73 > 30,
    # L = 73 x 1.1 = 80.3. Opponent: 75 + 30 + 0 - 3 = 102 >= L + 2 -> double, drop.
    t = thorp(position)
    assert (t.on_roll, t.opponent) == (73, 102)
    assert f"{t.leader_adjusted:.1f}" == "80.3"
    assert (t.action, t.response) == ("double", "drop")
    # 8-9-12: (75 - 45) / 45 = 66.7 percent ahead -> double, drop
    e = eight_nine_twelve(position)
    assert f"{e.ahead_percent:.1f}" == "66.7"
    assert e.verdict == "Double, Drop"
    # Isight, on roll: 45 pips + 0 (15 checkers each) + 2 x (3 - 2) on the 1-point + (3 - 2) on
    # the 2-point + 0 on the 3-point + 1 (its 6-point is empty while the opponent holds its own
    # 6-point) + 0 crossovers = 49. Opponent: 75 (nothing deep, its 4-6 all held) = 75.
    # GWC = 80 - 49/3 + 2 x (75 - 49) = 80 - 16.33 + 52 = 115.7 -> double, drop
    i = isight(position)
    assert (i.on_roll, i.opponent) == (49, 75)
    assert f"{i.gwc_percent:.1f}" == "115.7"
    assert i.verdict == "Double, Drop"


def test_keith_float32_tie():
    # On roll: 5 on the 6-point, 5 on the 5, 2 on the 4, 1 on the 11, 2 on the 12:
    # 30 + 25 + 8 + 11 + 24 = 98 pips, no Keith adjustment (4-6 held, nothing deep) -> 98.
    # Opponent: 1 each on 4, 5, 6, 2 on the 7, 9 on the 8, 1 on the 9:
    # 15 + 14 + 72 + 9 = 110, no adjustment -> 110.
    # Exactly, L = 98 x 8/7 = 112 and T = 110 = L - 2 would be "Double, Drop"; gnubg multiplies
    # by float32(8/7) = 1.14285719..., gets L = 112.0000076 and says "Redouble, Take"
    # (checked against gnubg 1.07: position qPZfAADY90EDAA).
    position = Position.from_points(
        {6: 5, 5: 5, 4: 2, 11: 1, 12: 2}, {4: 1, 5: 1, 6: 1, 7: 2, 8: 9, 9: 1}
    )
    k = keith(position)
    assert (k.on_roll, k.opponent) == (98, 110)
    assert f"{k.leader_adjusted:.1f}" == "112.0" and k.leader_adjusted > 112
    assert k.text == "Redouble, Take (since L <= T+3)"


def test_thorp_small_count_not_scaled():
    # On roll: 2 checkers on the 6-point (12 pips); Thorp = 12 + 4 + 0 - 1 = 15 <= 30, so L = 15
    # (no +1/10). Opponent: 2 on the 5-point and 1 on the 1-point: 11 + 6 + 1 - 2 = 16.
    # T = 16: not >= L + 2 = 17, but >= L - 1 = 14 -> "Redouble, Take".
    t = thorp(Position.from_points({6: 2}, {5: 2, 1: 1}))
    assert (t.on_roll, t.opponent, t.leader_adjusted) == (15, 16, 15.0)
    assert t.text == "Redouble, Take (since L <= T + 1 )"


def test_eight_nine_twelve_bands():
    # 100 pips on roll against 108 / 109 / 112 / 113 -> 8, 9, 12, 13 percent ahead.
    # gnubg compares strictly (ahead > 8 ...), in float32: exactly 8% stays in "NoDouble".
    cases = {108: "NoDouble", 109: "Redouble, Take", 112: "Double, Take", 113: "Double, Drop"}
    for opponent_pips, expected in cases.items():
        # on roll: 10 checkers on the 10-point = 100 pips; opponent: the rest on low points
        opponent = {10: opponent_pips // 10}
        if opponent_pips % 10:
            opponent[opponent_pips % 10] = 1
        position = Position.from_points({10: 10}, opponent)
        e = eight_nine_twelve(position)
        assert e.pips_on_roll == 100 and e.pips_opponent == opponent_pips
        assert e.verdict == expected, (opponent_pips, e.ahead_percent)


def test_kleinman_edges():
    # sum 3 (< 4): K = 1 / (2 sqrt(-1)) is NaN; gnubg returns a 0 winning chance
    kl = kleinman(Position.from_points({1: 1}, {2: 1}))
    assert math.isnan(kl.k) and kl.win_probability == 0.0
    # sum 4, diff + 4 = 6 > 0: K = 6 / 0 = +inf; chance still 0 (sum <= 4)
    kl = kleinman(Position.from_points({1: 1}, {3: 1}))
    assert kl.k == math.inf and kl.win_probability == 0.0


def test_race_metrics_row():
    row = race_metrics(Position.start())
    assert row["pips_on_roll"] == row["pips_opponent"] == 167
    assert row["pip_difference"] == 0
    assert row["is_race"] is False
    assert row["keith_on_roll"] == 169 and row["keith_verdict"] == "No Double, Take"
    assert row["thorp_leader_adjusted"] == pytest.approx(215.6, abs=1e-4)
    assert row["eight_nine_twelve_verdict"] == "NoDouble"
    assert row["eight_nine_twelve_response"] is None
    assert row["kleinman_win_probability"] == pytest.approx(0.5619, abs=5e-5)
    assert row["isight_gwc_percent"] == pytest.approx(24.3, abs=0.05)
    assert all(key == key.lower() and " " not in key for key in row)
    for value in row.values():
        assert value is None or isinstance(value, (bool, int, float, str))


def test_is_bearoff_only_when_both_sides_are_home():
    both_home = Position.from_points({6: 5, 5: 5, 1: 5}, {6: 5, 4: 5, 2: 5})
    assert both_home.is_bearoff() and both_home.is_race()
    one_outside = Position.from_points({7: 1, 6: 4, 5: 5, 1: 5}, {6: 5, 4: 5, 2: 5})
    assert one_outside.is_race() and not one_outside.is_bearoff()
    assert not Position.from_id("4HPwATDgc/ABMA").is_bearoff()
    # every fixture position in the bear-off is a race; the fixture has both kinds
    positions = [_position(r["position_id"]) for r in RECORDS]
    assert all(p.is_race() for p in positions if p.is_bearoff())
    assert {p.is_bearoff() for p in positions} == {True, False}
