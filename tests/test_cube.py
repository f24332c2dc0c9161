"""bgcli.cube: Janowski cubeful money equity and gnubg's cube decisions.

tests/fixtures/cube_money.jsonl holds gnubg 1.07's own 0-ply money cube analysis (its five
probabilities, three cubeful equities and proper action), written by scripts/fixtures/gen_cube.py;
gnubg is not needed here.
"""

import json
from pathlib import Path

import pytest

from bgcli.cube import (
    CubeAction,
    CubeError,
    CubeOwner,
    analyse_match_cube,
    analyse_money_cube,
    cube_efficiency,
    cubeful_equity,
    cubeless_equity,
    match_proper_mwc,
    money_proper_equity,
    owner_from_state,
)
from bgcli.errors import BgcliError
from bgcli.match import kazaross_xg2

FIXTURES = Path(__file__).parent / "fixtures"
ROWS = [json.loads(line) for line in (FIXTURES / "cube_money.jsonl").read_text().splitlines()]
GAMMONLESS = (0.7, 0.0, 0.0, 0.0, 0.0)
GAMMONISH = (0.66, 0.25, 0.01, 0.08, 0.004)


# ---- formulas by hand ----------------------------------------------------------------------------

def test_cubeless_equity():
    assert cubeless_equity(GAMMONISH) == pytest.approx(2 * 0.66 - 1 + 0.25 - 0.08 + 0.01 - 0.004)
    assert cubeless_equity(GAMMONISH, gammons_count=False) == pytest.approx(0.32)


@pytest.mark.parametrize("owner", list(CubeOwner))
def test_dead_cube_is_cubeless(owner):
    assert cubeful_equity(GAMMONISH, 0.0, owner) == pytest.approx(cubeless_equity(GAMMONISH))


def test_live_cube_gammonless_by_hand():
    # W = L = 1: take point 0.2, cash point 0.8
    p = 0.7
    assert cubeful_equity(GAMMONLESS, 1.0, CubeOwner.CENTRED) == pytest.approx(-1 + 2 * (p - 0.2) / 0.6)
    assert cubeful_equity(GAMMONLESS, 1.0, CubeOwner.ME) == pytest.approx(-1 + 2 * p / 0.8)
    assert cubeful_equity(GAMMONLESS, 1.0, CubeOwner.THEM) == pytest.approx(-1 + 2 * (p - 0.2) / 0.8)
    # beyond the cash point a centred or owned live cube is worth exactly 1
    assert cubeful_equity((0.85, 0, 0, 0, 0), 1.0, CubeOwner.CENTRED) == pytest.approx(1.0)


def test_mix_is_linear_in_x():
    for owner in CubeOwner:
        e0 = cubeful_equity(GAMMONISH, 0.0, owner)
        e1 = cubeful_equity(GAMMONISH, 1.0, owner)
        assert cubeful_equity(GAMMONISH, 0.68, owner) == pytest.approx(0.32 * e0 + 0.68 * e1)


def test_owning_the_cube_helps():
    for x in (0.3, 0.68, 1.0):
        them = cubeful_equity(GAMMONISH, x, CubeOwner.THEM)
        centre = cubeful_equity(GAMMONISH, x, CubeOwner.CENTRED)
        me = cubeful_equity(GAMMONISH, x, CubeOwner.ME)
        assert them <= centre <= me


@pytest.mark.parametrize("x, take_point", [(0.0, 0.25), (1.0, 0.20), (0.68, 0.5 / 2.34)])
def test_take_points_gammonless(x, take_point):
    # dead cube 25%, live cube 20%, x = 0.68: 1 - 1.84/2.34 = 21.4%
    assert analyse_money_cube(GAMMONLESS, x).take_point == pytest.approx(take_point, abs=1e-9)


def test_take_point_with_gammons_live():
    # W = L = 2 (all games gammons), live cube: TP = (L - 1/2) / (W + L + 1/2) = 1.5 / 4.5
    probs = (0.7, 0.7, 0.0, 0.3, 0.0)
    assert analyse_money_cube(probs, 1.0).take_point == pytest.approx(1.5 / 4.5, abs=1e-9)


def test_decisions_gammonless_live_cube():
    assert analyse_money_cube((0.6, 0, 0, 0, 0), 1.0).action is CubeAction.NO_DOUBLE_TAKE
    # a fully live cube is never doubled before the cash point (0.8 here) ...
    assert analyse_money_cube((0.75, 0, 0, 0, 0), 1.0).action is CubeAction.NO_DOUBLE_TAKE
    # ... a partly dead one is: ND = .32*.5 + .68*(5/6), DT = .32*1 + .68*.75
    a = analyse_money_cube((0.75, 0, 0, 0, 0), 0.68)
    assert a.action is CubeAction.DOUBLE_TAKE and a.optimal == a.double_take
    assert a.no_double == pytest.approx(0.32 * 0.5 + 0.68 * 5 / 6)
    assert a.double_take == pytest.approx(0.32 + 0.68 * 0.75)
    a = analyse_money_cube((0.9, 0, 0, 0, 0), 1.0)
    assert a.action is CubeAction.DOUBLE_PASS and a.optimal == 1.0  # no gammons: never too good
    a = analyse_money_cube((0.9, 0, 0, 0, 0), 1.0, CubeOwner.ME, cube_value=2)
    assert a.action is CubeAction.REDOUBLE_PASS and str(a.action) == "Redouble, pass"


def test_too_good_and_jacoby():
    probs = (0.9, 0.6, 0.05, 0.01, 0.0)
    a = analyse_money_cube(probs, 0.68)
    assert a.action is CubeAction.TOO_GOOD_PASS and a.no_double > 1.0 and a.optimal == a.no_double
    assert str(a.action) == "Too good to double, pass"
    # with Jacoby a centred cube cannot win a gammon: cash
    j = analyse_money_cube(probs, 0.68, jacoby=True)
    assert j.action is CubeAction.DOUBLE_PASS and j.no_double < 1.0
    assert j.cubeless == pytest.approx(cubeless_equity(probs))
    # Jacoby does not apply once the cube is owned
    r = analyse_money_cube(probs, 0.68, CubeOwner.ME, cube_value=2, jacoby=True)
    assert r.action is CubeAction.TOO_GOOD_REDOUBLE_PASS


def test_analysis_fields():
    a = analyse_money_cube(GAMMONISH, 0.68)
    assert a.double_pass == 1.0
    assert a.double_take == pytest.approx(2 * cubeful_equity(GAMMONISH, 0.68, CubeOwner.THEM))
    assert a.no_double == pytest.approx(cubeful_equity(GAMMONISH, 0.68))
    assert a.is_double == (a.action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS))
    assert a.is_take == (a.double_take <= 1.0)


def test_cube_efficiency_rule():
    assert cube_efficiency("contact") == 0.68 and cube_efficiency("crashed") == 0.68
    assert cube_efficiency("bearoff") == 0.6 and cube_efficiency("over") == 0.0
    assert cube_efficiency("race", 40) == pytest.approx(0.6) and cube_efficiency("race", 30) == 0.6
    assert cube_efficiency("race", 100) == pytest.approx(0.675)
    assert cube_efficiency("race", 120) == pytest.approx(0.7) and cube_efficiency("race", 160) == 0.7
    with pytest.raises(CubeError):
        cube_efficiency("race")
    with pytest.raises(CubeError):
        cube_efficiency("prime")


def test_owner_from_state():
    assert owner_from_state(3, 0) is CubeOwner.CENTRED
    assert owner_from_state(1, 1) is CubeOwner.ME
    assert owner_from_state(0, 1) is CubeOwner.THEM
    with pytest.raises(CubeError):
        owner_from_state(2, 0)


@pytest.mark.parametrize("probs", [(0.5, 0.6, 0, 0, 0), (0.5, 0.1, 0, 0.6, 0), (0.5, 0, 0, 0),
                                   (1.2, 0, 0, 0, 0), ("a", 0, 0, 0, 0), (0.5, 0.1, 0.2, 0, 0)])
def test_bad_probabilities(probs):
    with pytest.raises(CubeError):
        cubeful_equity(probs, 0.68)


def test_bad_cube_states():
    with pytest.raises(CubeError):
        analyse_money_cube(GAMMONISH, 0.68, CubeOwner.THEM, cube_value=2)
    with pytest.raises(CubeError):
        analyse_money_cube(GAMMONISH, 0.68, CubeOwner.CENTRED, cube_value=2)
    with pytest.raises(CubeError):
        analyse_money_cube(GAMMONISH, 0.68, CubeOwner.ME, cube_value=3)
    with pytest.raises(CubeError):
        cubeful_equity(GAMMONISH, 1.5)
    assert issubclass(CubeError, BgcliError) and issubclass(CubeError, ValueError)


# ---- against gnubg ---------------------------------------------------------------------------------

def _analyse(row):
    g = row["gnubg"]
    owner = CubeOwner.ME if row["owner"] == "me" else CubeOwner.CENTRED
    x = cube_efficiency(row["class"], row["pips_on_roll"])
    return analyse_money_cube(g["probs"], x, owner, row["cube_value"], row["jacoby"])


JANOWSKI_ROWS = [r for r in ROWS if r["class"] != "bearoff_ts"]


def test_fixture_size_and_variety():
    assert len(JANOWSKI_ROWS) >= 200
    actions = {r["gnubg"]["action"] for r in JANOWSKI_ROWS}
    assert {"No double, take", "Double, take", "Double, pass", "Too good to double, pass",
            "No redouble, take", "Redouble, take", "Redouble, pass"} <= actions
    assert {r["class"] for r in JANOWSKI_ROWS} == {"contact", "race", "bearoff"}


@pytest.mark.parametrize("row", JANOWSKI_ROWS,
                         ids=[f"{r['position_id']}-{r['cube']}" for r in JANOWSKI_ROWS])
def test_matches_gnubg_zero_ply(row):
    # gnubg prints probabilities and equities to 5 decimals, computed in single precision; the
    # largest difference seen over the fixture is 4.3e-5.
    g = row["gnubg"]
    a = _analyse(row)
    assert a.no_double == pytest.approx(g["nd"], abs=1e-4)
    assert a.double_take == pytest.approx(g["dt"], abs=1e-4)
    assert a.double_pass == g["dp"]
    assert str(a.action) == g["action"]


def _gnubg_proper(g: dict) -> float:
    """The value of gnubg's proper action from its three printed equities."""
    nd, dt, dp = g["nd"], g["dt"], g["dp"]
    return min(dt, dp) if dt >= nd and dp >= nd else nd


def test_proper_equity_is_gnubgs_optimal():
    """The value a checker play is judged by (the next position's equity with the proper
    cube action) is gnubg's optimal of its No double, Double/take, Double/pass, on every
    fixture row, and No double where the opponent holds the cube."""
    for row in JANOWSKI_ROWS:
        g = row["gnubg"]
        owner = CubeOwner.ME if row["owner"] == "me" else CubeOwner.CENTRED
        x = cube_efficiency(row["class"], row["pips_on_roll"])
        assert money_proper_equity(g["probs"], x, owner, row["jacoby"]) == pytest.approx(
            _gnubg_proper(g), abs=1e-4), row["position_id"]
    probs = GAMMONISH
    assert money_proper_equity(probs, 0.68, CubeOwner.THEM) == cubeful_equity(
        probs, 0.68, CubeOwner.THEM)
    # too good: No double (playing on for the gammon) beats cashing
    assert money_proper_equity((0.9, 0.6, 0.02, 0.0, 0.0), 0.68) > 1.0


def test_cubeless_matches_gnubg():
    # gnubg prints the money cubeless equity (gammons counted) whatever the Jacoby rule
    for row in JANOWSKI_ROWS:
        assert cubeless_equity(row["gnubg"]["probs"]) == pytest.approx(row["gnubg"]["cubeless"], abs=5e-5)


# ---- match play ------------------------------------------------------------------------------------

MET = kazaross_xg2()
MATCH_ROWS = [json.loads(line) for line in (FIXTURES / "cube_match.jsonl").read_text().splitlines()]
MATCH_JANOWSKI = [r for r in MATCH_ROWS if r["class"] != "bearoff_ts"]


def test_match_dead_cube_is_cubeless_mwc():
    # 2-away 2-away: gnubg treats the cube as dead; x does not matter
    a = analyse_match_cube(GAMMONISH, 0.68, MET, 2, 2)
    b = analyse_match_cube(GAMMONISH, 0.0, MET, 2, 2)
    assert a.no_double_mwc == pytest.approx(b.no_double_mwc)
    w, wg, wbg, lg, lbg = GAMMONISH
    win1, win2 = MET.mwc_after(2, 2, 1, True), MET.mwc_after(2, 2, 2, True)
    lose1, lose2 = MET.mwc_after(2, 2, 1, False), MET.mwc_after(2, 2, 2, False)
    expected = (w - wg) * win1 + wg * win2 + (1 - w - lg) * lose1 + lg * lose2
    assert a.no_double_mwc == pytest.approx(expected)
    assert a.double_pass_mwc == win1 and a.double_pass == pytest.approx(1.0)


def test_match_x_zero_is_cubeless():
    a = analyse_match_cube(GAMMONISH, 0.0, MET, 5, 7)
    w, wg, wbg, lg, lbg = GAMMONISH

    def after(pts, win):
        return MET.mwc_after(5, 7, pts, win)

    expected = ((w - wg) * after(1, True) + (wg - wbg) * after(2, True) + wbg * after(3, True)
                + (1 - w - lg) * after(1, False) + (lg - lbg) * after(2, False) + lbg * after(3, False))
    assert a.no_double_mwc == pytest.approx(expected)
    assert a.no_double == pytest.approx(MET.mwc_to_equity(expected, 5, 7))


def test_match_cube_not_available():
    assert analyse_match_cube(GAMMONISH, 0.68, MET, 3, 1, crawford=True).action is None
    assert analyse_match_cube(GAMMONISH, 0.68, MET, 1, 4).action is None           # post-Crawford leader
    assert analyse_match_cube(GAMMONISH, 0.68, MET, 4, 1).action is not None       # the trailer
    assert analyse_match_cube(GAMMONISH, 0.68, MET, 3, 5, 4, CubeOwner.ME).action is None  # cube past 3
    with pytest.raises(CubeError):
        analyse_match_cube(GAMMONISH, 0.68, MET, 3, 5, crawford=True)


def test_match_take_point_dead_cube_is_risk_over_risk_plus_gain():
    # no gammons, dead cube: the taker's chance at which taking (the game for 2 points) and
    # passing (losing 1) give the same MWC, straight from the table
    a = analyse_match_cube(GAMMONLESS, 0.0, MET, 3, 5)
    pass_ = MET.mwc_after(5, 3, 1, False)  # the taker is 5-away, the doubler 3-away
    win2, lose2 = MET.mwc_after(5, 3, 2, True), MET.mwc_after(5, 3, 2, False)
    assert a.take_point == pytest.approx((pass_ - lose2) / (win2 - lose2), abs=1e-12)


@pytest.mark.parametrize("away", [(5, 7), (3, 5), (7, 3), (4, 1)])
def test_match_take_point_is_where_taking_equals_passing(away):
    a = analyse_match_cube(GAMMONISH, 0.68, MET, *away)
    assert a.action is not None and 0.0 < a.take_point < 1.0
    w, wg, wbg, lg, lbg = GAMMONISH
    p = 1.0 - a.take_point  # the doubler's chance there, gammon ratios kept
    at = (p, p * wg / w, p * wbg / w, (1 - p) * lg / (1 - w), (1 - p) * lbg / (1 - w))
    b = analyse_match_cube(at, 0.68, MET, *away)
    assert b.double_take_mwc == pytest.approx(b.double_pass_mwc, abs=1e-9)


def test_match_take_point_at_double_match_point_is_one_half():
    # 2-away 1-away post-Crawford: a pass leaves 1-away 1-away (0.5), a take plays the match
    assert analyse_match_cube(GAMMONISH, 0.68, MET, 2, 1).take_point == pytest.approx(0.5)


def test_match_take_point_is_none_without_a_double():
    assert analyse_match_cube(GAMMONISH, 0.68, MET, 1, 4).take_point is None
    assert analyse_match_cube(GAMMONISH, 0.68, MET, 3, 1, crawford=True).take_point is None


def test_match_fixture_variety():
    assert len(MATCH_JANOWSKI) >= 400
    assert {(r["away_me"], r["away_them"]) for r in MATCH_JANOWSKI} >= {(2, 2), (4, 1), (5, 5), (13, 13)}
    assert {"Too good to double, pass", "Double, take", "Redouble, pass", "No redouble, take"} <= {
        r["gnubg"]["action"] for r in MATCH_JANOWSKI}


@pytest.mark.parametrize("row", MATCH_JANOWSKI,
                         ids=[f"{r['position_id']}-{r['away_me']}a{r['away_them']}a-c{r['cube_value']}"
                              for r in MATCH_JANOWSKI])
def test_match_matches_gnubg_zero_ply(row):
    # largest difference seen over the fixture: 4.7e-5 (gnubg prints 5 decimals, single precision)
    g = row["gnubg"]
    owner = CubeOwner.ME if row["owner"] == "me" else CubeOwner.CENTRED
    x = cube_efficiency(row["class"], row["pips_on_roll"])
    a = analyse_match_cube(g["probs"], x, MET, row["away_me"], row["away_them"], row["cube_value"],
                           owner, row["crawford"])
    assert a.no_double == pytest.approx(g["nd"], abs=1e-4)
    assert a.double_take == pytest.approx(g["dt"], abs=1e-4)
    assert a.double_pass == pytest.approx(g["dp"], abs=1e-4)
    assert str(a.action) == g["action"]


@pytest.mark.parametrize("row", MATCH_JANOWSKI[::7],
                         ids=[f"{r['position_id']}-{r['away_me']}a{r['away_them']}a-c{r['cube_value']}"
                              for r in MATCH_JANOWSKI[::7]])
def test_match_proper_mwc_is_gnubgs_optimal(row):
    g = row["gnubg"]
    owner = CubeOwner.ME if row["owner"] == "me" else CubeOwner.CENTRED
    x = cube_efficiency(row["class"], row["pips_on_roll"])
    away = row["away_me"], row["away_them"]
    mwc = match_proper_mwc(g["probs"], x, MET, *away, row["cube_value"], owner, row["crawford"])
    equity = MET.mwc_to_equity(mwc, *away, row["cube_value"], row["crawford"])
    assert equity == pytest.approx(_gnubg_proper(g), abs=1e-4)


def test_match_proper_mwc_without_a_cube_to_turn_is_no_double():
    for away, cube, owner, crawford in (((3, 1), 1, CubeOwner.CENTRED, True),
                                        ((1, 4), 1, CubeOwner.CENTRED, False),
                                        ((5, 7), 2, CubeOwner.THEM, False)):
        a = analyse_match_cube(GAMMONISH, 0.68, MET, *away, cube, owner, crawford)
        assert a.action is None
        assert match_proper_mwc(GAMMONISH, 0.68, MET, *away, cube, owner, crawford) == (
            a.no_double_mwc)


def _random_probs(rng) -> tuple[float, ...]:
    """Cumulative, consistent rates: Wbg <= Wg <= W, Lbg <= Lg <= 1 - W."""
    w = float(rng.uniform(0.0, 1.0))
    wg = w * float(rng.uniform(0.0, 0.6))
    lg = (1.0 - w) * float(rng.uniform(0.0, 0.6))
    return (w, wg, wg * float(rng.uniform(0.0, 0.3)), lg, lg * float(rng.uniform(0.0, 0.3)))


def test_money_model_equals_the_playouts_kernel():
    """The Janowski model is written twice, for the API (bgcli.cube) and for the playouts'
    cube decisions (bgcli.kernels.cube): they must not drift apart."""
    import numpy as np

    from bgcli.kernels.cube import CENTRED, OWN, THEIRS
    from bgcli.kernels.cube import cubeful_equity as kernel_equity

    codes = {CubeOwner.CENTRED: CENTRED, CubeOwner.ME: OWN, CubeOwner.THEM: THEIRS}
    rng = np.random.default_rng(7)
    for _ in range(2000):
        probs, x = _random_probs(rng), float(rng.uniform(0.0, 1.0))
        owner, jacoby = list(CubeOwner)[rng.integers(3)], bool(rng.integers(2))
        expected = kernel_equity(np.array(probs), x, codes[owner], jacoby)
        assert cubeful_equity(probs, x, owner, jacoby) == pytest.approx(expected, abs=1e-12)


def test_match_model_equals_the_playouts_kernel():
    import numpy as np

    from bgcli.cube import _match_cubeful_mwc, _MatchCube
    from bgcli.kernels.cube import CENTRED, OWN, THEIRS
    from bgcli.kernels.match_cube import cubeful_mwc
    from bgcli.rollout import match_table_array

    codes = {CubeOwner.CENTRED: CENTRED, CubeOwner.ME: OWN, CubeOwner.THEM: THEIRS}
    table = match_table_array()
    rng = np.random.default_rng(8)
    for _ in range(2000):
        away_me, away_them = (int(a) for a in rng.integers(1, 12, size=2))
        crawford = 1 in (away_me, away_them) and bool(rng.integers(2))
        cube = 1 if crawford else int(2 ** rng.integers(0, 4))
        owner = CubeOwner.CENTRED if cube == 1 else list(CubeOwner)[rng.integers(1, 3)]
        probs, x = _random_probs(rng), float(rng.uniform(0.0, 1.0))
        mine = _match_cubeful_mwc(probs, x, _MatchCube(MET, (away_me, away_them), crawford),
                                  cube, owner)
        theirs = cubeful_mwc(np.array(probs), x, table, away_me, away_them, crawford, cube,
                             codes[owner])
        assert mine == pytest.approx(theirs, abs=1e-12), (away_me, away_them, crawford, cube)
