"""The analysis of matches (bgcli analyse, import, report MATCH) against gnubg 1.07's own
analysis of the same matches at the same ply (tests/fixtures/matches/)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import numpy as np

from bgcli.matchfile import read_match
from bgcli.matchfile.analysis import judge, luck_mark, player_statistics, skill_mark
from cli_helpers import run

FIXTURES = Path(__file__).parent / "fixtures" / "matches"
ROOT = Path(__file__).parents[1]


def gnubg_stats(name: str, ply: int) -> dict:
    view = json.loads((FIXTURES / f"{name}.gnubg.json").read_text())
    return view["analysis"][str(ply)]["match_stats"]


@pytest.fixture(scope="module")
def match5_2ply():
    """match5 judged at the default depth, 2 ply (some 5 s)."""
    match = read_match(FIXTURES / "match5.mat")
    judged = judge(match, 2)
    return match, judged, player_statistics(match, judged, 2)


def test_marks_use_gnubg_thresholds():
    assert [skill_mark(e) for e in (0.0, 0.029, 0.03, 0.06, 0.119, 0.12, 1.0)] == [
        "", "", "doubtful", "bad", "bad", "very bad", "very bad"]


@pytest.mark.parametrize("name", ["match7", "money"])
def test_the_thresholds_give_gnubgs_marks_from_gnubgs_errors(name):
    view = json.loads((FIXTURES / f"{name}.gnubg.json").read_text())
    checked = 0
    for ply in ("0", "1"):
        for game, judged in zip(view["games"], view["analysis"][ply]["games"]):
            for record, verdict in zip(game["records"], judged["records"]):
                if record["action"] == "move" and "error" in verdict:
                    assert skill_mark(verdict["error"]) == verdict.get("skill", ""), verdict
                    checked += 1
    assert checked > 20
    assert [luck_mark(x) for x in (-0.7, -0.3, 0.0, 0.3, 0.6)] == [
        "very unlucky", "unlucky", "", "lucky", "very lucky"]


def _turned(situation, position):
    """``position`` (row 1 on roll) with the other player on roll, before rolling."""
    from dataclasses import replace

    from bgcli.notation.situation import Situation

    state = situation.match
    return Situation(position, replace(
        state, dice=(0, 0), double_offered=False, player_on_roll=1 - state.player_on_roll,
        turn=1 - state.player_on_roll))


def _after(situation, play):
    """The position after ``play`` with the opponent on roll, as a Match ID sees it."""
    return _turned(situation, play.result.swapped())


def _opponents_proper(cube, money: bool) -> float:
    """The opponent's value after a play (EMG in money, MWC at match play) from their
    cube decision: the proper action's."""
    if money:
        return cube.cubeful_equity
    m = cube.match_winning_chances
    nd, dt, dp = m["no_double_mwc"], m["double_take_mwc"], m["double_pass_mwc"]
    return nd if dt is None else (min(dt, dp) if dt >= nd and dp >= nd else nd)


@pytest.mark.parametrize("name", ["money", "match5"])
def test_checker_plays_are_judged_by_their_cubeful_value(name):
    """As in gnubg's analysis, a play is worth the next position's cubeful value for the
    opponent on roll with the cube as it is, free to double (their cube decision's proper
    action, from the same probabilities); the judgement differs from a cubeless one."""
    from bgcli.decisions import cube_decision
    from bgcli.evaluation import flipped
    from bgcli.matchfile.analysis import ranked_plays

    match = read_match(FIXTURES / f"{name}.mat")
    money = match.length == 0
    checked = changed = 0
    for j in judge(match, 0)[:120]:
        if not j.unforced:
            continue
        decision = j.decision
        ranked = ranked_plays(decision.situation, decision.dice, 0)
        ours = {play.notation: (emg, mwc) for play, emg, mwc in j.alternatives}
        for r in ranked:
            if not r.play.result.board[1].any():
                continue  # a play that wins the game is worth its cubeless value
            theirs = _opponents_proper(
                cube_decision(_after(decision.situation, r.play), flipped(r.probabilities)),
                money)
            emg, mwc = ours[r.play.notation]
            assert (emg if money else mwc) == pytest.approx(
                -theirs if money else 1.0 - theirs, abs=1e-9)
            checked += 1
        played = next(r for r in ranked if r.play.notation == decision.play.notation)
        cubeless_error = max(r.value for r in ranked) - played.value  # EMG, or MWC at a score
        changed += abs(cubeless_error - (j.error if money else j.error_mwc)) > 0.002
    assert checked > 200
    assert changed > 5


def _with_cube(situation, value: int, owner: int):
    from dataclasses import replace

    return replace(situation, match=replace(situation.match, cube_value=value, cube_owner=owner))


@pytest.mark.parametrize("name", ["money", "match5"])
def test_at_one_ply_the_cube_is_decided_after_each_roll_too(name):
    """At 1 ply and deeper (gnubg's cubeful search): the decider's cube decision after each
    of the opponent's rolls, at the cube as it is and at twice it on the decider's side
    (their cube decisions from the per-roll probabilities), then the opponent's: No double
    against Double, the decider taking or passing."""
    from bgcli.decisions import cube_decision, match_score, play_coefficients
    from bgcli.evaluation import roll_probabilities
    from bgcli.kernels.evaluate import ROLL_WEIGHTS
    from bgcli.evaluation import flipped
    from bgcli.matchfile.analysis import ranked_plays

    match = read_match(FIXTURES / f"{name}.mat")
    money = match.length == 0
    checked = 0
    for j in judge(match, 1)[:40]:
        if not j.unforced:
            continue
        decision = j.decision
        situation, player = decision.situation, decision.player
        score = match_score(situation)
        ours = {play.notation: (emg, mwc) for play, emg, mwc in j.alternatives}
        for r in ranked_plays(situation, decision.dice, 1):
            if r.plies < 1 or not r.play.result.board[1].any():
                continue
            before = _after(situation, r.play)  # the opponent on roll
            mover = _turned(before, r.play.result)  # the decider on roll, after each roll
            values = None if money else np.stack([play_coefficients(score.swapped()),
                                                  play_coefficients(score)])
            rolled = roll_probabilities(before.position, "net", 1, values)
            doubled = _with_cube(mover, 2 * situation.match.cube_value, player)
            kept = [_opponents_proper(cube_decision(mover, flipped(t)), money) for t in rolled]
            twice = [_opponents_proper(cube_decision(doubled, flipped(t)), money) for t in rolled]
            theirs_before = cube_decision(before, flipped(r.probabilities))
            may_double = theirs_before.double_take is not None
            if money:
                no_double, double_take = -(ROLL_WEIGHTS @ kept), -2 * (ROLL_WEIGHTS @ twice)
                double_pass = 1.0
            else:
                no_double, double_take = 1 - ROLL_WEIGHTS @ kept, 1 - ROLL_WEIGHTS @ twice
                double_pass = (theirs_before.match_winning_chances or {}).get("double_pass_mwc")
            theirs = (min(double_take, double_pass)
                      if may_double and double_take >= no_double and double_pass >= no_double
                      else no_double)
            emg, mwc = ours[r.play.notation]
            assert (emg if money else mwc) == pytest.approx(-theirs if money else 1 - theirs,
                                                            abs=1e-9)
            checked += 1
    assert checked > 30


@pytest.mark.parametrize("name", ["match3", "money"])
def test_unforced_moves_and_cube_decisions_are_gnubgs(name):
    """Unforced moves (more than one legal play) and cube decisions (every roll where the
    player could double, and every double and answer) are counted exactly as gnubg does."""
    match = read_match(FIXTURES / f"{name}.mat")
    stats = player_statistics(match, judge(match, 0), 0)
    theirs = gnubg_stats(name, 0)
    assert [s["unforced_moves"] for s in stats] == [
        theirs[k]["moves"]["unforced-moves"] for k in ("X", "O")]
    assert [s["cube_decisions"] for s in stats] == [
        theirs[k]["cube"]["total-cube"] for k in ("X", "O")]


def test_checker_error_rates_agree_with_gnubg_at_2_ply(match5_2ply):
    """The issue's aim, met on this match at 2 ply: within 20% or 1.5 mEMG (all fixtures:
    scripts/checks/matches_vs_gnubg.json, docs/matches.md)."""
    match, judged, stats = match5_2ply
    theirs = gnubg_stats("match5", 2)
    for player, key in ((0, "X"), (1, "O")):
        moves = theirs[key]["moves"]
        gnubg_rate = 1000 * moves["error-skill"] / moves["unforced-moves"]
        assert abs(stats[player]["checker_error_rate"] - gnubg_rate) <= max(0.2 * gnubg_rate, 1.5)


def test_cube_errors_are_found_where_gnubg_finds_them(match5_2ply):
    """Most of gnubg's cube errors are bgcli's too (measured level, not the issue's 'same
    decisions': see docs/matches.md)."""
    from scripts.checks.matches_vs_gnubg import gnubg_marks, ours_marks

    view = json.loads((FIXTURES / "match5.gnubg.json").read_text())
    _, judged, _ = match5_2ply
    our_bad, our_cube = ours_marks(judged)
    their_bad, their_cube = gnubg_marks(view, 2)
    assert len(our_cube & their_cube) >= 0.75 * len(their_cube)
    assert len(our_bad & their_bad) >= 0.75 * len(their_bad)


def test_statistics_add_up(match5_2ply):
    match, judged, stats = match5_2ply
    for s in stats:
        mine = [j for j in judged if j.decision.player == s["player"]]
        assert s["moves"] == sum(j.decision.kind == "move" for j in mine)
        assert s["doubtful"] + s["bad"] + s["very_bad"] <= s["unforced_moves"]
        assert s["pr"] == pytest.approx(s["error_rate"] / 2)
    assert stats[0]["result"] == -stats[1]["result"]
    assert stats[0]["luck_adjusted_result"] == pytest.approx(-stats[1]["luck_adjusted_result"])


def test_import_rows_are_a_collection_batch_reads(tmp_path, capsys):
    out = tmp_path / "decisions.csv"
    code, _, err = run(capsys, "import", str(FIXTURES / "match1.mat"), "-o", str(out))
    assert code == 0, err
    rows = list(csv.DictReader(out.open()))
    match = read_match(FIXTURES / "match1.mat")
    assert len(rows) == len(match.decisions)
    assert rows[0]["position"] == match.decisions[0].situation.gnubg_id
    assert {"game", "move_number", "player", "score", "cube_value", "position_id", "match_id",
            "dice", "action"} <= rows[0].keys()
    code, text, err = run(capsys, "batch", str(out), "-f", "jsonl")
    assert code == 0, err
    batch = [json.loads(line) for line in text.splitlines()]
    assert [b["id"] for b in batch] == [r["id"] for r in rows]
    assert batch[0]["best_play"]  # the dice of a checker play travel in its Match ID


def test_import_parquet_reads_back(tmp_path, capsys):
    pandas = pytest.importorskip("pandas")
    out = tmp_path / "d.parquet"
    code, _, err = run(capsys, "import", str(FIXTURES / "money.sgf"), "-o", str(out))
    assert code == 0, err
    frame = pandas.read_parquet(out)
    assert len(frame) == len(read_match(FIXTURES / "money.sgf").decisions)


def test_output_format_errors_name_the_option_import_has(tmp_path, capsys):
    """import and analyse take the file's format from --file-format (--format is stdout's)."""
    code, _, err = run(capsys, "import", str(FIXTURES / "match1.mat"), "-o", str(tmp_path / "d.xlsx"))
    assert code == 2 and "name it .csv, .jsonl or .parquet, or give --file-format" in err
    code, _, err = run(capsys, "import", str(FIXTURES / "match1.mat"), "-o", str(tmp_path / "d.csv"),
                       "--file-format", "parquet")
    assert code == 2 and "names a csv file and --file-format says parquet" in err


def test_a_faulty_file_is_reported_by_line_and_exits_1(tmp_path, capsys):
    text = (FIXTURES / "match3.mat").read_text().replace("24/20 20/15", "24/20 20/14", 1)
    bad = tmp_path / "bad.mat"
    bad.write_text(text)
    code, out, err = run(capsys, "import", str(bad), str(FIXTURES / "match1.mat"))
    assert code == 1
    assert f"bgcli: error: {bad}:7: '24/20 20/14' is not a legal play of 54" in err
    assert "Traceback" not in err
    assert "match1.mat" in out  # the other file is still read


def test_not_a_match_file(tmp_path, capsys):
    path = tmp_path / "x.mat"
    path.write_text("hello\n")
    code, _, err = run(capsys, "analyse", str(path))
    assert code == 1 and err.startswith("bgcli: error:") and "not a match file" in err


def test_analyse_both_spellings_and_formats(capsys):
    code, out, err = run(capsys, "analyse", str(FIXTURES / "match1.mat"), "--plies", "0",
                         "-f", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["player_name"] for r in rows] == ["gnubg", "root"]
    code, again, _ = run(capsys, "analyze", str(FIXTURES / "match1.mat"), "--plies", "0",
                         "-f", "csv")
    assert code == 0 and again == out
    code, out, err = run(capsys, "analyse", str(FIXTURES / "match1.mat"), "--plies", "0",
                         "--rows", "decision", "-f", "ndjson")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == len(read_match(FIXTURES / "match1.mat").decisions)
    assert {"best", "error", "mark", "luck", "cube_error", "plies", "net"} <= rows[0].keys()


def test_match_analysis_judges_at_2_ply_by_default(tmp_path, capsys):
    """analyse and report MATCH default to gnubg's World class (2 ply)."""
    code, out, err = run(capsys, "analyse", str(FIXTURES / "match1.mat"), "--rows",
                         "decision", "-f", "ndjson")
    assert code == 0, err
    assert {json.loads(line)["plies"] for line in out.splitlines()} == {2}
    code, _, err = run(capsys, "report", str(FIXTURES / "match1.mat"), "-o",
                       str(tmp_path / "report"), "--worst", "1")
    assert code == 0, err
    assert "--plies 2" in (tmp_path / "report" / "report.md").read_text()


def test_match_report(tmp_path, capsys):
    out = tmp_path / "report"
    code, text, err = run(capsys, "report", str(FIXTURES / "match1.mat"), "-o", str(out),
                          "--plies", "0", "--worst", "3")
    assert code == 0, err
    page = (out / "report.md").read_text()
    assert "Score sheet" in page and "Each player's statistics" in page
    assert page.count('<a id="worst-') == 3
    assert (out / "images" / "errors.svg").exists() and (out / "index.html").exists()


def test_readme_example_file_is_a_fixture():
    assert (ROOT / "matches" / "example.mat").read_bytes() == (FIXTURES / "match7.mat").read_bytes()


@pytest.mark.slow
def test_every_fixture_against_gnubg():
    """The levels docs/matches.md reports, over every fixture at 2 ply, the default."""
    from scripts.checks.matches_vs_gnubg import compare

    rows = [compare(p.name[:-len(".gnubg.json")], 2) for p in FIXTURES.glob("*.gnubg.json")]
    players = [p for r in rows for p in r["players"]]
    assert sum(p["rate_within_aim"] for p in players) >= 0.65 * len(players)  # 8 of 12
    assert sum(p["bgcli_unforced"] == p["gnubg_unforced"] for p in players) == len(players)
    assert all(p["bgcli_cube_decisions"] == p["gnubg_cube_decisions"] for p in players)
    both = sum(r["cube_errors"]["both"] for r in rows)
    assert both >= 0.8 * sum(len(r["cube_errors"]["gnubg"]) for r in rows)
    bad = sum(r["bad"]["both"] for r in rows)
    # 74.8% judged cubeless (0.6.0), 81.0% cubefully as gnubg judges (0.7.0)
    assert bad >= 0.8 * sum(r["bad"]["gnubg"] for r in rows)


def _analyse(capsys, *argv):
    return run(capsys, "analyse", "--plies", "0", *argv)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_resume_skips_the_matches_done_and_gives_one_runs_file(tmp_path, capsys, suffix):
    pandas = pytest.importorskip("pandas")
    first, second = str(FIXTURES / "match1.mat"), str(FIXTURES / "match5.sgf")
    whole, resumed = tmp_path / f"whole{suffix}", tmp_path / f"resumed{suffix}"
    code, _, err = _analyse(capsys, first, second, "--rows", "decision", "-o", str(whole))
    assert code == 0, err
    code, _, err = _analyse(capsys, first, "--rows", "decision", "-o", str(resumed))
    assert code == 0, err
    code, _, err = _analyse(capsys, first, "-o", str(resumed))
    assert code == 2 and "--resume continues it" in err
    code, _, err = _analyse(capsys, first, second, "--rows", "decision", "-o", str(resumed),
                            "--resume")
    assert code == 0, err

    def read(path):
        if suffix == ".parquet":
            return pandas.read_parquet(path)
        return pandas.read_csv(path) if suffix == ".csv" else pandas.read_json(path, lines=True)

    pandas.testing.assert_frame_equal(read(whole), read(resumed))
    code, _, err = run(capsys, "analyse", "--plies", "1", first, "--rows", "decision",
                       "-o", str(resumed), "--resume")
    assert code == 1 and "written with plies 0, this run has 1" in err
    code, _, err = _analyse(capsys, first, "-o", str(resumed), "--resume")
    assert code == 1 and "columns are not this command's" in err


def test_a_killed_run_leaves_whole_matches(tmp_path, capsys):
    """A half-written last match (a killed run) is cut off and done again."""
    out = tmp_path / "out.jsonl"
    matches = [str(FIXTURES / "match1.mat"), str(FIXTURES / "match5.mat")]
    code, _, err = _analyse(capsys, *matches, "--rows", "decision", "-o", str(out))
    assert code == 0, err
    whole = out.read_text()
    lines = whole.splitlines(keepends=True)
    out.write_text("".join(lines[:60]) + lines[60][:20])  # into the second match, mid-line
    code, _, err = _analyse(capsys, *matches, "--rows", "decision", "-o", str(out), "--resume")
    assert code == 0, err
    assert out.read_text() == whole


@pytest.mark.slow
def test_dask_gives_the_local_rows(tmp_path, capsys):
    from test_batch import _local_cluster

    matches = [str(FIXTURES / "match1.mat"), str(FIXTURES / "match3.mat")]
    code, here, err = _analyse(capsys, *matches, "-f", "csv")
    assert code == 0, err
    with _local_cluster(tmp_path, workers=2) as (address, _, _):
        code, there, err = _analyse(capsys, *matches, "-f", "csv", "--scheduler", address)
    assert code == 0, err
    assert sorted(there.splitlines()) == sorted(here.splitlines())


def test_the_play_made_is_judged_at_the_depth_of_the_best():
    """A play the move filter left at 0 ply is evaluated at the best play's depth before its
    error is taken: the same figures as ranking every play at that depth."""
    from bgcli.evaluation import rank_plays
    from bgcli.matchfile.analysis import _Score, ranked_plays
    from bgcli.notation.detect import parse_situation

    situation = parse_situation("4HPwATDgc/ABMA")
    score = _Score(situation, 0)
    ranked = ranked_plays(situation, (6, 4), 1)
    shallow = [r for r in ranked if r.plies == 0]
    assert ranked[0].plies == 1 and shallow, "the normal filter leaves some plays at 0 ply"
    every_play = {r.play.notation: r for r in rank_plays(situation.position, (6, 4), "net", 1,
                                                          move_filter="99:9", replies=True)}
    for r in shallow[:3]:
        deep = score.at_depth(r, 1)
        assert deep.plies == 1
        expected = every_play[r.play.notation]
        assert deep.probabilities == pytest.approx(expected.probabilities, abs=1e-9)
        assert deep.equity == pytest.approx(expected.equity, abs=1e-9)
        assert deep.replies == pytest.approx(expected.replies, abs=1e-9)
