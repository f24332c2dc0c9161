"""Match play judged as match play: checker plays ranked in cubeless match winning chances at
a score (linear MWC coefficients), checked against gnubg 1.07's hints at scores where money and
match play differ (tests/fixtures/matchplay_hints.jsonl, from scripts/fixtures/gen_matchplay.py;
gnubg is not needed here)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from bgcli.decisions import best_plays, match_score, play_coefficients, rank_plays_at
from bgcli.evaluation import rank_plays
from bgcli.match import MONEY_COEFFICIENTS, MatchScore, kazaross_xg2
from bgcli.notation.detect import parse_situation
from bgcli.position import Position
from bgcli.rollout import RolloutSettings, rollout
from cli_helpers import run

MET = kazaross_xg2()
FIXTURE = Path(__file__).parent / "fixtures" / "matchplay_hints.jsonl"
ROWS = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
SCORES = [MatchScore(4, 2), MatchScore(2, 4), MatchScore(1, 1), MatchScore(2, 1, crawford=True),
          MatchScore(1, 2, crawford=True), MatchScore(3, 1), MatchScore(5, 3, cube_value=2),
          MatchScore(7, 7, cube_value=4)]
# a 4-away trailer against a 2-away leader, player 1 on roll: the leader's gammon wins the match
GAMMON_SAVE = "jOfgASTgc+FBAg:cAngAFAAGAAE"


def random_probabilities(rng) -> np.ndarray:
    w = rng.uniform(0.05, 0.95)
    wg = rng.uniform(0, w)
    lg = rng.uniform(0, 1 - w)
    return np.array([w, wg, rng.uniform(0, wg), lg, rng.uniform(0, lg)])


@pytest.mark.parametrize("score", SCORES, ids=lambda s: s.name)
def test_coefficients_give_the_mwc_of_the_probabilities(score):
    rng = np.random.default_rng(1)
    c = np.array(score.mwc_coefficients(MET))
    e = np.array(score.equity_coefficients(MET))
    for _ in range(20):
        p = random_probabilities(rng)
        mwc = MET.mwc_from_probabilities(p, score.away_me, score.away_them, score.cube_value,
                                         score.crawford)
        assert c[0] + c[1:] @ p == pytest.approx(mwc, abs=1e-12)
        assert e[0] + e[1:] @ p == pytest.approx(MET.mwc_to_equity(
            mwc, score.away_me, score.away_them, score.cube_value, score.crawford), abs=1e-12)
    # the opponent's view of the same game: its MWC is one minus ours
    theirs = np.array(score.swapped().mwc_coefficients(MET))
    p = random_probabilities(rng)
    q = np.array([1 - p[0], p[3], p[4], p[1], p[2]])
    assert theirs[0] + theirs[1:] @ q == pytest.approx(1 - (c[0] + c[1:] @ p), abs=1e-12)


def test_coefficients_follow_the_score():
    assert MONEY_COEFFICIENTS == (-1.0, 2.0, 1.0, 1.0, -1.0, -1.0)
    # double match point: only winning counts
    assert MatchScore(1, 1).mwc_coefficients(MET) == (0.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    # the Crawford game, 2-away trailer: a gammon wins the match, a backgammon adds nothing,
    # and the leader needs only a single win
    c = MatchScore(2, 1, crawford=True).mwc_coefficients(MET)
    assert c[0] + c[1] + c[2] == 1.0 and c[3] == 0.0 and c[4] == c[5] == 0.0
    # a long match is nearly money
    e = MatchScore(25, 25).equity_coefficients(MET)
    assert e == pytest.approx(MONEY_COEFFICIENTS, abs=0.03)
    # 2-away against 4-away: the leader's gammon wins the match, so it is worth more than
    # money's to the leader (gammon-go) and costs the trailer more (gammon-save)
    assert MatchScore(2, 4).equity_coefficients(MET)[2] > 1.0
    assert MatchScore(4, 2).equity_coefficients(MET)[4] < -1.0
    assert play_coefficients(None).tolist() == list(MONEY_COEFFICIENTS)


def test_match_score_of_a_situation():
    assert match_score(parse_situation("4HPwATDgc/ABMA")) is None
    score = match_score(parse_situation(GAMMON_SAVE))
    assert score == MatchScore(4, 2) and score.name == "4-away 2-away"
    assert MatchScore(2, 1, crawford=True).name == "2-away 1-away (Crawford)"
    assert MatchScore(2, 1).name == "2-away 1-away (post-Crawford)"


# ------------------------------------------------------------------------ against gnubg

def _score(entry: dict) -> MatchScore:
    return MatchScore(entry["away_me"], entry["away_them"], entry["crawford"], entry["cube_value"])


def test_fixture_covers_scores_where_gnubg_plays_differently():
    assert len(ROWS) >= 100
    names = {entry["name"] for entry in ROWS[0]["scores"]}
    assert {"gammon-go", "gammon-save", "DMP", "Crawford trailer", "Crawford leader"} <= names
    for plies in (0, 1):
        differs = sum(entry[f"plies_{plies}"][0]["result"] != row["money"][f"plies_{plies}"][0]["result"]
                      for row in ROWS for entry in row["scores"])
        assert differs >= 100


def test_gnubg_probabilities_through_our_coefficients_give_gnubgs_equities_and_picks():
    """The arithmetic alone: gnubg's cubeless probabilities of each play it lists, valued with
    our coefficients, give its normalised equity (7-decimal fixture) and its best play."""
    hints = 0
    for row in ROWS:
        for score, entry in [(None, row["money"])] + [(_score(e), e) for e in row["scores"]]:
            c = play_coefficients(score)
            for key in ("plies_0", "plies_1"):
                values = [c[0] + c[1:] @ np.array(p["probs"]) for p in entry[key]]
                assert values == pytest.approx([p["equity"] for p in entry[key]], abs=2e-6)
                assert int(np.argmax(values)) == 0
                hints += 1
    assert hints == 18 * len(ROWS)


def _agreement(plies: int) -> Counter:
    """Over the rolls and scores where gnubg's match pick is not its money pick: how often our
    MWC pick is gnubg's, and how often our money pick is."""
    counts = Counter()
    for row in ROWS:
        # ranked once: rank_plays_at re-sorts these probabilities (tested above)
        ranked = rank_plays(Position.from_id(row["position_id"]), tuple(row["dice"]), "net", plies)
        ours_money = ranked[0].play.result.position_id()
        gnubg_money = row["money"][f"plies_{plies}"][0]["result"]
        for entry in row["scores"]:
            gnubg = entry[f"plies_{plies}"][0]["result"]
            c = play_coefficients(_score(entry))
            ours = max(ranked, key=lambda r: c[0] + c[1:] @ r.probabilities).play.result.position_id()
            counts.update(rolls=1, agree=ours == gnubg, money_agree=ours_money == gnubg)
            if gnubg != gnubg_money:
                counts.update(matters=1, matters_agree=ours == gnubg,
                              matters_money_agree=ours_money == gnubg)
    return counts


@pytest.mark.parametrize("plies", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_our_mwc_ranking_follows_gnubgs_match_play(plies):
    """Where the score changes gnubg's play, ranking our evaluator's plays in MWC finds
    gnubg's match play far more often than our money ranking does (figures and their record
    in docs/cube-and-match.md: the evaluators differ, so this is not all of them)."""
    c = _agreement(plies)
    assert c["matters"] >= 100
    assert c["matters_agree"] >= 1.5 * c["matters_money_agree"]
    assert c["agree"] >= c["money_agree"]


# ------------------------------------------------------------------------- best at a score

def test_best_evaluate_only_at_a_score_is_ranked_in_mwc():
    situation = parse_situation(GAMMON_SAVE)
    score = match_score(situation)
    result = best_plays(situation.position, (6, 5), settings=None, plies=0, score=score)
    c = np.array(score.equity_coefficients(MET))
    values = [c[0] + c[1:] @ cand.probabilities for cand in result.candidates]
    assert [cand.equity for cand in result.candidates] == pytest.approx(values)
    assert values == sorted(values, reverse=True)
    for cand in result.candidates:
        assert cand.mwc == pytest.approx(MET.mwc_from_probabilities(cand.probabilities, 4, 2))
    assert result.score_name == "4-away 2-away"
    money = best_plays(situation.position, (6, 5), settings=None, plies=0)
    assert money.score is None and money.candidates[0].mwc is None
    assert [c.play for c in money.candidates] == [r.play.notation for r in rank_plays(
        situation.position, (6, 5))]


def test_best_rollouts_at_a_score_are_scored_in_mwc_game_by_game():
    situation = parse_situation(GAMMON_SAVE)
    score = match_score(situation)
    settings = RolloutSettings(trials=72, seed=3, policy="heuristic", threads=1)
    result = best_plays(situation.position, (6, 5), candidates=3, settings=settings, score=score)
    c = np.array(score.mwc_coefficients(MET))
    per_game = {}
    for ranked in rank_plays_at(situation.position, (6, 5), "heuristic", 0, score)[:3]:
        alone = rollout(ranked.play.result.swapped(), settings).values
        mover = np.column_stack([1 - alone[:, 0], alone[:, 3], alone[:, 4], alone[:, 1], alone[:, 2]])
        per_game[ranked.play.notation] = c[0] + mover @ c[1:]
    best = result.candidates[0]
    for cand in result.candidates:
        assert cand.mwc == pytest.approx(per_game[cand.play].mean())
        assert cand.mwc_se == pytest.approx(per_game[cand.play].std(ddof=1) / math.sqrt(72))
        paired = per_game[cand.play] - per_game[best.play]
        assert cand.mwc_difference == pytest.approx(paired.mean())
        assert cand.equity == pytest.approx(MET.mwc_to_equity(cand.mwc, 4, 2))
    assert best.mwc == max(cand.mwc for cand in result.candidates)


def test_best_command_at_a_score(capsys):
    code, out, err = run(capsys, "best", GAMMON_SAVE, "65", "--evaluate-only", "--plies", "0")
    assert code == 0, err
    assert out.splitlines()[0].split()[:5] == ["#", "Play", "EMG", "MWC", "Diff"]
    assert "4-away 2-away" in err and "match winning chances" in err
    code, out, _ = run(capsys, "best", GAMMON_SAVE, "65", "--evaluate-only", "--plies", "0",
                       "-f", "json")
    rows = json.loads(out)
    assert {r["score"] for r in rows} == {"4-away 2-away"}
    assert all(0 < r["mwc"] < 1 for r in rows)
    code, out, _ = run(capsys, "best", "jOfgASTgc+FBAg", "65", "--evaluate-only", "-f", "json")
    assert {r["score"] for r in json.loads(out)} == {"money"} and "mwc" not in json.loads(out)[0]


def test_one_ply_at_a_score_picks_the_opponents_replies_by_its_own_match_values():
    """At 1 ply the lookahead's replies are the opponent's best by ITS equity at the score
    (not ours, not money): each play that reached 1 ply equals the average over the 21
    rolls of the opponent's 0-ply reply ranked by ``play_coefficients(score.swapped())``."""
    situation = parse_situation(GAMMON_SAVE)
    score = match_score(situation)
    mine, theirs = play_coefficients(score), play_coefficients(score.swapped())
    assert not np.allclose(theirs, MONEY_COEFFICIENTS)
    values = np.stack([mine, theirs])
    at_score = rank_plays_at(situation.position, (6, 5), "net", 1, score)
    assert [r.equity for r in at_score] == [
        r.value for r in rank_plays(situation.position, (6, 5), "net", 1, None, values)]
    # every reply considered (no pruning-net screen), as the expectation below considers them
    ranked = rank_plays(situation.position, (6, 5), "net", 1, None, values, prune=False)
    deep = [r for r in ranked if r.plies == 1][:3]
    assert deep
    for r in deep:
        opponent = r.play.result.swapped()
        expected = np.zeros(5)
        for a in range(1, 7):
            for b in range(a, 7):
                replies = rank_plays(opponent, (a, b), "net", 0, values=theirs)
                weight = (1 if a == b else 2) / 36
                if replies:
                    p = replies[0].probabilities  # the replier's side, after its reply
                    expected += weight * np.array([1 - p[0], p[3], p[4], p[1], p[2]])
                else:  # no reply: we are on roll in the same position, seen at 0 ply
                    from bgcli.evaluation import position_probabilities
                    expected += weight * position_probabilities(r.play.result, "net", 0)
        np.testing.assert_allclose(r.probabilities, expected, rtol=0, atol=1e-9)
        assert r.value == pytest.approx(mine[0] + mine[1:] @ r.probabilities, abs=1e-12)
