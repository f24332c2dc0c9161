"""bgcli.match: the Kazaross-XG2 table, MWC, equity <-> MWC and gammon values.

tests/fixtures/met_gnubg.json is gnubg 1.07's own ``show matchequitytable 25`` output, written by
scripts/fixtures/gen_met.py (gnubg is not needed here).
"""

import json
from pathlib import Path

import pytest

from bgcli.errors import BgcliError
from bgcli.match import MatchEquityTable, MatchError, kazaross_xg2

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "met_gnubg.json").read_text())
MET = kazaross_xg2()
AWAYS = range(1, 26)


def test_shape_and_source():
    assert MET.length == 25 and len(MET.post_crawford) == 25
    assert "Kazaross" in MET.name and "Kazaross-XG2.xml" in MET.source


def test_symmetry_pre_crawford():
    for a in AWAYS:
        for b in AWAYS:
            assert MET.mwc(a, b) + MET.mwc(b, a) == pytest.approx(1.0, abs=1e-5)
    assert MET.mwc(7, 7) == 0.5


@pytest.mark.parametrize("crawford", [False, True])
def test_symmetry_at_one_away(crawford):
    for b in AWAYS:
        assert MET.mwc(1, b, crawford=crawford) + MET.mwc(b, 1, crawford=crawford) == pytest.approx(1.0)


def test_known_values_from_the_file():
    assert MET.mwc(1, 2, crawford=True) == 0.67736      # Crawford game, 1-away vs 2-away
    assert MET.mwc(2, 1, crawford=True) == pytest.approx(0.32264)
    assert MET.mwc(2, 1) == 0.48803                    # post-Crawford trailer, 2-away
    assert MET.mwc(1, 2) == pytest.approx(0.51197)
    assert MET.mwc(1, 3, post_crawford=True) == pytest.approx(1 - 0.32264)
    assert MET.mwc(3, 3) == 0.5 and MET.mwc(1, 1) == 0.5 and MET.mwc(1, 1, crawford=True) == 0.5
    assert MET.mwc(2, 3) == pytest.approx(0.59947)
    assert MET.mwc(25, 1) == pytest.approx(0.00118125, abs=1e-12)  # gnubg's extension, not 0.00123


def test_monotone():
    for a in range(1, 25):
        for b in AWAYS:
            assert MET.mwc(a, b) >= MET.mwc(a + 1, b)


def test_matches_gnubg_show_matchequitytable():
    pre = FIXTURE["pre_crawford"]
    for i, a in enumerate(AWAYS):
        for j, b in enumerate(AWAYS):
            expected = pre[i][j]
            got = MET.mwc(a, b, crawford=(a == 1 or b == 1))
            assert got == pytest.approx(expected, abs=6e-7), (a, b)
    for j, b in enumerate(AWAYS):
        assert MET.mwc(b, 1) == pytest.approx(FIXTURE["post_crawford_player0"][j], abs=6e-7), b


def test_mwc_after():
    # 3-away 5-away, I win a gammon with the cube on 2: match over
    assert MET.mwc_after(3, 5, 4, True) == 1.0
    assert MET.mwc_after(3, 5, 4, False) == MET.mwc(3, 1, crawford=True)
    # from the Crawford game the next game is post-Crawford
    assert MET.mwc_after(1, 4, 1, False, crawford=True) == MET.mwc(1, 3)
    assert MET.mwc_after(2, 4, 1, True) == MET.mwc(1, 4, crawford=True)


def test_equity_mwc_roundtrip_and_endpoints():
    for a, b, cube, crawford in [(5, 7, 1, False), (4, 2, 2, False), (1, 6, 1, True), (3, 1, 1, False)]:
        lose = MET.mwc_after(a, b, cube, False, crawford)
        win = MET.mwc_after(a, b, cube, True, crawford)
        assert MET.equity_to_mwc(-1, a, b, cube, crawford) == pytest.approx(lose)
        assert MET.equity_to_mwc(1, a, b, cube, crawford) == pytest.approx(win)
        for e in (-1.3, -0.2, 0.0, 0.45, 1.7):
            m = MET.equity_to_mwc(e, a, b, cube, crawford)
            assert MET.mwc_to_equity(m, a, b, cube, crawford) == pytest.approx(e)


def test_gammon_values():
    # DMP: gammons worthless; 2-away 2-away: gnubg's price 2*(1-W)/(W-L)
    g = MET.gammon_values(1, 1)
    assert (g.my_gammon, g.their_gammon, g.my_backgammon, g.their_backgammon) == (0, 0, 0, 0)
    g = MET.gammon_values(2, 2)
    w = MET.mwc(1, 2, crawford=True)
    assert g.my_gammon == pytest.approx(2 * (1 - w) / (w - (1 - w)))
    assert g.my_backgammon == 0.0
    # the price agrees with the equity/MWC line: a won gammon is worth 1 + price
    for a, b, cube in [(5, 5, 1), (3, 7, 2), (9, 4, 1), (2, 5, 1)]:
        g = MET.gammon_values(a, b, cube)
        assert 1 + g.my_gammon == pytest.approx(
            MET.mwc_to_equity(MET.mwc_after(a, b, 2 * cube, True), a, b, cube))
        assert -(1 + g.their_gammon) == pytest.approx(
            MET.mwc_to_equity(MET.mwc_after(a, b, 2 * cube, False), a, b, cube))
    # symmetric score: both sides' prices agree
    g = MET.gammon_values(6, 6)
    assert g.my_gammon == pytest.approx(g.their_gammon)


@pytest.mark.parametrize("args", [(0, 3), (26, 3), (3, 0), (3, "2"), (True, 3)])
def test_bad_scores(args):
    with pytest.raises(MatchError):
        MET.mwc(*args)


def test_an_away_score_beyond_the_table_says_how_far_it_reaches():
    with pytest.raises(MatchError, match=r"^30-away is beyond the match equity table "
                                         r"\(Kazaross XG2 25 point MET\), which reaches 25-away$"):
        MET.mwc(3, 30)


def test_bad_phase_and_cube():
    with pytest.raises(MatchError):
        MET.mwc(3, 4, crawford=True)
    with pytest.raises(MatchError):
        MET.mwc(1, 4, crawford=True, post_crawford=True)
    with pytest.raises(MatchError):
        MET.equity_to_mwc(0.0, 3, 4, cube=0)
    assert issubclass(MatchError, BgcliError) and issubclass(MatchError, ValueError)


def test_from_json_rejects_ragged():
    with pytest.raises(MatchError):
        MatchEquityTable.from_json('{"pre_crawford": [[0.5, 0.6]], "post_crawford": [0.5]}')


GAMMON_FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "met_gammon_values.json").read_text())


def test_gammon_values_match_gnubg_show_gammonvalues():
    # gnubg prints 0.5 * gammon price and 0.5 * (gammon price + backgammon price) per player,
    # 5 decimals from single precision; the largest difference seen is 2.1e-5
    rows = GAMMON_FIXTURE["rows"]
    assert len(rows) >= 400 and any(r["crawford"] for r in rows)
    for r in rows:
        length, (s0, s1), cube = r["match_length"], r["score"], r["cube"]
        for who, away in (("player0", (length - s0, length - s1)), ("player1", (length - s1, length - s0))):
            g = MET.gammon_values(*away, cube)
            gammon, backgammon = r[who]
            assert 0.5 * g.my_gammon == pytest.approx(gammon, abs=5e-5), (r, who)
            assert 0.5 * (g.my_gammon + g.my_backgammon) == pytest.approx(backgammon, abs=5e-5), (r, who)
