"""Charts and the study report: every chart kind as PNG and SVG, the board picture's checkers
and orientation, per-game rollouts that equal ``bgcli rollout``'s, the ``chart`` and
``report`` commands, reports from batch results, and the page rendered in headless Chromium
(skipped only where no Chromium is installed).

Rollouts here are tiny (36 games) so the file runs in well under a minute on two cores.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from bgcli import __version__
from bgcli.cli.app import main
from bgcli.net import net_id
from bgcli.prune import prune_id
from cli_helpers import run
from bgcli.notation.detect import Situation, parse_situation
from bgcli.notation.gnubgid import MatchState
from bgcli.position import Position
from bgcli.report import charts
from bgcli.report.study import ReportEntry, read_entries, replay_games, rollout_games
from bgcli.rollout import RolloutSettings, rollout

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MIDDLE_ID = "a5yDAQYtO4MBAw"
RACE_ID = "OJ+bAQDYnucAAA"
OPENING_31_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10"
# Stacks above five, checkers on both bars, some borne off, cube 4 owned by O, 66 rolled.
BUSY = Situation(Position.from_points({6: 8, 5: 2, 4: 2, "bar": 2, 13: 1},
                                      {1: 3, "bar": 6, 6: 2, 7: 2, 8: 1}),
                 MatchState(cube_value=4, cube_owner=0, player_on_roll=1, dice=(6, 6)))




def assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE), path
    assert len(data) > 5000, (path, len(data))


def assert_svg(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg"), root.tag
    assert b"<svg" in path.read_bytes()
    return root


def rollout_row(win=0.55, equity=0.12) -> dict:
    return {"id": "m", "name": "middle", "position_id": MIDDLE_ID, "win": win, "win_se": 0.02,
            "win_gammon": 0.1, "win_gammon_se": 0.01, "win_backgammon": 0.01,
            "win_backgammon_se": 0.003, "lose_gammon": 0.08, "lose_gammon_se": 0.01,
            "lose_backgammon": 0.005, "lose_backgammon_se": 0.002, "equity": equity,
            "equity_se": 0.03, "equity_ci_low": equity - 0.06, "equity_ci_high": equity + 0.06,
            "games": 1296, "pips_on_roll": 118, "pips_opponent": 120, "is_race": False,
            "kleinman_win_probability": 0.61, "isight_gwc_percent": 48.7}


def figure_of(kind: str):
    """A small figure of each kind, from plain data (no rollout)."""
    rows = [rollout_row(), dict(rollout_row(0.4, -0.2), name="second", pips_on_roll=60,
                                pips_opponent=70, is_race=True)]
    if kind == "board":
        return charts.board_figure(parse_situation(OPENING_31_XGID), title="opening")
    if kind == "outcomes":
        return charts.outcomes_figure(rows[0])
    if kind == "equity":
        return charts.equity_figure(rows)
    if kind == "convergence":
        return charts.convergence_figure(np.random.default_rng(1).normal(0.1, 1.0, 500))
    return charts.pips_figure(rows)


# ---------------------------------------------------------------------------- charts


@pytest.mark.parametrize("kind", charts.KINDS)
def test_every_chart_kind_writes_png_and_svg(tmp_path, kind):
    figure = figure_of(kind)
    assert_png(charts.save(figure, tmp_path / f"{kind}.png"))
    root = assert_svg(charts.save(figure, tmp_path / f"{kind}.svg"))
    assert root.findall(".//{http://www.w3.org/2000/svg}path")


def test_charts_are_reproducible_and_undated(tmp_path):
    for kind, extension in (("board", "svg"), ("outcomes", "png")):
        first = charts.to_bytes(figure_of(kind), extension)
        assert first == charts.to_bytes(figure_of(kind), extension)
    svg = charts.to_bytes(figure_of("board"), "svg")
    assert b"<dc:date" not in svg and b"Matplotlib v" not in svg


def texts_beyond_the_edges(figure) -> list[str]:
    """The titles and labels of a drawn figure that stick out of it left or right (cut in
    the picture)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    with matplotlib.rc_context(charts._RC):
        canvas.draw()
    renderer = canvas.get_renderer()
    out = []
    for ax in figure.axes:
        for text in [ax.title, ax._left_title, ax._right_title, *ax.texts]:
            if not text.get_text().strip():
                continue
            box = text.get_window_extent(renderer)
            if box.x0 < -1 or box.x1 > figure.bbox.x1 + 1:
                out.append(text.get_text())
    return out


LONG_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10"


@pytest.mark.parametrize("kind", ["board", "outcomes", "equity", "convergence", "pips", "best"])
@pytest.mark.parametrize("label", ["4HPwATDgc/ABMA:cAkAAAAAAAAE", LONG_XGID,
                                   f"{LONG_XGID} from the club's Tuesday night, game 3"])
def test_chart_titles_with_full_ids_fit_the_picture(kind, label):
    row = dict(rollout_row(), name=label, position_id=label)
    if kind == "board":
        figure = charts.board_figure(parse_situation(OPENING_31_XGID), title=label)
    elif kind == "outcomes":
        figure = charts.outcomes_figure(row)  # the title is the row's name and its numbers
    elif kind == "convergence":
        figure = charts.convergence_figure(np.random.default_rng(1).normal(0.1, 1.0, 500), title=label)
    elif kind == "best":
        figure = charts.best_plays_figure([{"rank": 1, "play": "8/5 6/5", "equity": 0.1,
                                            "equity_se": 0.02, "dice": "31"}], title=label)
    else:
        figure = getattr(charts, f"{kind}_figure")([row], label)
    assert texts_beyond_the_edges(figure) == []
    titles = [t.get_text() for ax in figure.axes for t in (ax.title, ax._left_title) if t.get_text()]
    shown = "".join(titles or [t.get_text() for t in figure.axes[0].texts if "XGID" in t.get_text()
                               or "/" in t.get_text()]).replace("\n", "")
    assert label.replace(" ", "") in shown.replace(" ", "")  # wrapped, never shortened


def test_best_plays_chart_labels_say_they_are_95_percent_intervals():
    rows = [{"rank": 1, "play": "8/5 6/5", "equity": 0.10, "equity_se": 0.02, "dice": "31",
             "position_id": "4HPwATDgc/ABMA"},
            {"rank": 2, "play": "24/21 6/5", "equity": 0.05, "equity_se": 0.02, "dice": "31",
             "difference": -0.05, "difference_se": 0.01}]
    figure = charts.best_plays_figure(rows)
    (label,) = [t.get_text() for t in figure.axes[0].texts]
    # the table shows the standard error (-0.050 ±0.010); the chart its 95% half-width
    assert label == f"-0.050 (95%: ±{1.959963984540054 * 0.01:.3f})" == "-0.050 (95%: ±0.020)"
    assert "95% interval" in figure.axes[0].get_xlabel()


def test_svg_compaction_keeps_text_exact():
    svg = charts.to_bytes(charts.outcomes_figure(rollout_row(equity=0.08347)), "svg").decode()
    assert "+0.083" in svg  # text is never rounded with the coordinates
    assert not re.search(r' d="[^"]*\d\.\d\d', svg)  # coordinates are


def test_save_refuses_other_extensions(tmp_path):
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        charts.save(figure_of("pips"), tmp_path / "chart.gif")


def _shown(count: int) -> int:
    return min(count, charts.STACK)


@pytest.mark.parametrize("situation", [parse_situation("4HPwATDgc/ABMA"), BUSY,
                                       parse_situation("GwAAoBsAAAAAAA")],
                         ids=["start", "busy", "bear-off"])
def test_board_draws_every_checker(situation):
    board = situation.position.board
    figure = charts.board_figure(situation)
    counts = charts.drawn_checkers(figure)
    expected_x = sum(_shown(int(n)) for n in board[1, :24])
    expected_o = sum(_shown(int(n)) for n in board[0, :24])
    assert counts.get("checker-x", 0) == expected_x
    assert counts.get("checker-o", 0) == expected_o
    assert counts.get("bar-x", 0) == min(int(board[1, 24]), 4)
    assert counts.get("bar-o", 0) == min(int(board[0, 24]), 4)
    off_x, off_o = situation.position.borne_off()
    assert counts.get("off-x", 0) == off_x and counts.get("off-o", 0) == off_o
    texts = [t.get_text() for t in figure.axes[0].texts]
    for row, symbol in ((1, "x"), (0, "o")):  # stacks above five show their count
        for count in board[row, :24]:
            if count > charts.STACK:
                assert str(int(count)) in texts
    pips_x, pips_o = situation.position.pips()
    assert any(f"{pips_x} pips" in t for t in texts) and any(f"{pips_o} pips" in t for t in texts)


def test_busy_board_labels_bar_stack_cube_and_dice():
    figure = charts.board_figure(BUSY)
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert "6" in texts  # six O checkers on the bar, four drawn, the count on the last
    assert "1 off" in texts  # O has borne one off
    gids = [p.get_gid() or "" for p in figure.axes[0].patches]
    assert "cube" in gids and sum(g.startswith("die-") for g in gids) == 2
    assert "Cube 4, owned by O" in texts


def test_board_orientation_matches_the_text_board():
    # one X checker on its 24-point (top right), one O checker on X's 1-point (bottom right)
    situation = Situation(Position.from_points({24: 1}, {24: 1}))
    figure = charts.board_figure(situation)
    circles = {p.get_gid().split("-")[1]: p.center for p in figure.axes[0].patches
               if (p.get_gid() or "").startswith("checker-")}
    x_centre, o_centre = circles["x"], circles["o"]
    assert x_centre[0] == pytest.approx(charts.point_x(24)) and o_centre[0] == pytest.approx(charts.point_x(1))
    assert x_centre[1] > o_centre[1]  # X's 24-point is at the top, its 1-point at the bottom
    assert charts.point_x(13) < charts.point_x(24) and charts.point_x(12) < charts.point_x(1)
    assert charts.point_x(13) == pytest.approx(charts.point_x(12))


def test_running_equity():
    n, means, ses = charts.running_equity(np.array([1.0, -1.0, 1.0, 1.0]))
    assert list(n) == [1, 2, 3, 4]
    assert means == pytest.approx([1.0, 0.0, 1 / 3, 0.5])
    assert np.isnan(ses[0])
    assert ses[-1] == pytest.approx(np.std([1, -1, 1, 1], ddof=1) / 2)


# ---------------------------------------------------------------------------- per-game rollouts


def test_rollout_games_equal_bgcli_rollout():
    position = Position.from_id(MIDDLE_ID)
    settings = RolloutSettings(trials=36, seed=5)
    result, games = rollout_games(position, settings)
    expected = rollout(position, settings).row()
    got = result.row()
    for row in (expected, got):
        row.pop("elapsed_seconds")
    assert got == expected
    assert len(games) == 36
    assert games.mean() == pytest.approx(result.equity)
    # a batch row replays to the same games
    entry = ReportEntry(dict(got, position_id=MIDDLE_ID), parse_situation(MIDDLE_ID))
    assert np.array_equal(replay_games(entry), games)


# ---------------------------------------------------------------------------- the report


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    """A report of three positions (one per kind of line) with 36 games each."""
    base = tmp_path_factory.mktemp("report")
    collection = base / "three.csv"
    collection.write_text(
        "id,name,position,notes\n"
        f"mid,A middle game,{MIDDLE_ID},Contact on both sides\n"
        f"race,A long race,{RACE_ID},\n"
        f'open31,"Opening, 31 rolled",{OPENING_31_XGID},A 7-point match\n', encoding="utf-8")
    out = base / "out"
    code = main_code(["report", str(collection), "-o", str(out), "--trials", "36", "--seed", "11"])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def batch_rows(report_dir):
    """``bgcli batch`` of the report's collection with the report's settings, as JSON lines
    and as CSV."""
    paths = {}
    for extension in ("jsonl", "csv"):
        paths[extension] = report_dir.parent / f"rows.{extension}"
        code = main_code(["batch", str(report_dir.parent / "three.csv"), "-o",
                          str(paths[extension]), "--rollout", "--trials", "36", "--seed", "11"])
        assert code == 0
    return paths


def main_code(argv) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0
    return 0


def test_report_writes_page_markdown_and_images(report_dir):
    html = (report_dir / "index.html").read_text(encoding="utf-8")
    markdown = (report_dir / "report.md").read_text(encoding="utf-8")
    for text in (html, markdown):
        for ident, name, position_id in (("mid", "A middle game", MIDDLE_ID),
                                         ("race", "A long race", RACE_ID),
                                         ("open31", "Opening, 31 rolled", "4HPwATDgc/ABMA")):
            assert ident in text and name in text and position_id in text
        assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10" in text
        assert "Summary" in text and "95% interval" in text
        assert f"bgcli {__version__}" in text
        assert "Master seed 11" in text
        assert f"Net weights: {net_id()}, prune {prune_id()}." in text
        assert "36 games a position" in text
        assert "bgcli report" in text and "--master-seed 11" in text
        assert "Cube action" in text and "Cubeful equity" in text and "Best play" in text
    assert "<table>" in html and "| Name |" in markdown
    images = sorted(p.name for p in (report_dir / "images").iterdir())
    assert images == sorted(
        [f"{i}-{kind}.svg" for i in ("mid", "race", "open31")
         for kind in ("board", "outcomes", "convergence")] + ["summary-equity.svg", "summary-pips.svg"])
    for name in images:
        assert f"images/{name}" in markdown
        assert_svg(report_dir / "images" / name)
    # the page is self-contained: every image embedded, nothing fetched
    assert html.count('src="data:image/svg+xml;base64,') == len(images)
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_report_is_reproducible(report_dir, tmp_path, capsys):
    collection = next(report_dir.parent.glob("three.csv"))
    code, out, err = run(capsys, "report", str(collection), "-o", str(tmp_path / "again"),
                         "--trials", "36", "--seed", "11")
    assert code == 0, err
    assert out.split() == [str(tmp_path / "again" / "index.html"), str(tmp_path / "again" / "report.md")]
    assert "3/3" in err
    first = (report_dir / "report.md").read_text().replace(str(report_dir), "OUT")
    second = (tmp_path / "again" / "report.md").read_text().replace(str(tmp_path / "again"), "OUT")
    assert first == second
    for name in ("mid-board.svg", "summary-equity.svg", "race-convergence.svg"):
        assert (report_dir / "images" / name).read_bytes() == (tmp_path / "again" / "images" / name).read_bytes()


def test_report_from_a_batch_result_uses_its_numbers(batch_rows, report_dir, tmp_path, capsys):
    rows = batch_rows["jsonl"]
    batch = [json.loads(line) for line in rows.read_text().splitlines()]
    code, out, err = run(capsys, "report", str(rows), "-o", str(tmp_path / "r"))
    assert code == 0, err
    assert "games, equity" not in err  # nothing was rolled out again
    page = (tmp_path / "r" / "index.html").read_text()
    for row in batch:
        assert f"{row['equity']:+.3f}" in page
        assert str(row["seed"]) in page  # 63-bit seeds kept exact
    assert "Master seed 11" in page
    assert not list((tmp_path / "r" / "images").glob("*convergence*"))
    # the report's own rollouts were seeded as the batch's: the same numbers
    own = (report_dir / "index.html").read_text()
    for row in batch:
        assert f"{row['equity']:+.3f} ± {row['equity_se']:.3f}" in own
    assert [e.id for e in read_entries(rows)] == [r["id"] for r in batch]
    assert [e.row["seed"] for e in read_entries(batch_rows["csv"])] == [str(r["seed"]) for r in batch]


def test_report_shows_the_cube_action_and_best_play(batch_rows, report_dir, tmp_path, capsys):
    from bgcli.decisions import match_score, rank_plays_at

    batch = {row["id"]: row for row in map(json.loads, batch_rows["jsonl"].read_text().splitlines())}
    assert batch["mid"]["cube_source"] == batch["race"]["cube_source"] == "rollout"
    assert batch["open31"]["cube_action"] is None  # 31 is rolled: no cube decision
    opening = parse_situation(OPENING_31_XGID)  # a 7-point match: ranked in MWC, EMG shown
    top = rank_plays_at(opening.position, (3, 1), "net", 1, match_score(opening))[0]
    assert batch["open31"]["best_play"] == top.play.notation
    code, _, err = run(capsys, "report", str(batch_rows["jsonl"]), "-o", str(tmp_path / "r"))
    assert code == 0, err
    # the report's own rollouts are the batch's, so are the decisions drawn from them
    for folder in (report_dir, tmp_path / "r"):
        for text in ((folder / "index.html").read_text(), (folder / "report.md").read_text()):
            for ident in ("mid", "race"):
                assert batch[ident]["cube_action"] in text
                assert f"{batch[ident]['cubeful_equity']:+.3f}" in text
                assert f"{batch[ident]['no_double']:+.3f}" in text
            assert f"31: {top.play.notation}" in text  # the summary's best play column
            assert f"{top.equity:+.3f}" in text
            assert "31 rolled, and the cube is turned before the roll" in text


def test_report_of_an_older_batch_result_computes_the_decisions(batch_rows, tmp_path, capsys):
    from bgcli.batch import DECISION_COLUMNS

    rows = [json.loads(line) for line in batch_rows["jsonl"].read_text().splitlines()]
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({k: v for k, v in row.items()
                                       if k not in dict(DECISION_COLUMNS)}) + "\n" for row in rows))
    code, _, err = run(capsys, "report", str(old), "-o", str(tmp_path / "r"))
    assert code == 0, err
    assert "games, equity" not in err  # nothing rolled out again
    page = (tmp_path / "r" / "index.html").read_text()
    for row in rows:
        if row["cube_source"]:
            assert f"{row['cube_action']}</td><td class=\"num\">{row['cubeful_equity']:+.3f}" in page
        else:
            assert f"{row['best_play_dice']}: {row['best_play']}" in page


def test_report_without_rollouts_takes_the_cube_action_from_the_evaluator(tmp_path, capsys):
    from bgcli.decisions import cube_decision
    from bgcli.evaluation import position_probabilities

    owned = "OJ+bAQDYnucAAA:QQkAAAAAAAAE"  # a race, cube 2 owned by O
    listing = tmp_path / "list.txt"
    listing.write_text(f"{owned}  # O owns the cube\n{MIDDLE_ID}  # centred\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(listing), "-o", str(tmp_path / "r"), "--no-rollout",
                       "--policy", "heuristic")
    assert code == 0, err
    from html import unescape

    page = unescape((tmp_path / "r" / "index.html").read_text())
    markdown = (tmp_path / "r" / "report.md").read_text()
    for text in (page, markdown):
        assert "No double: the opponent owns the cube" in text
        assert "cube 2 owned by O, money" in text and "cube 1 centred, money" in text
        assert "the evaluator's rates (heuristic, 1-ply)" in text
        assert "--policy heuristic" in text  # the command that makes it again
        for position in (owned, MIDDLE_ID):
            situation = parse_situation(position)
            decision = cube_decision(situation, position_probabilities(situation.position,
                                                                       "heuristic", plies=1))
            assert decision.action in text and f"{decision.cubeful_equity:+.3f}" in text
    assert "Best play" not in markdown  # no position has dice


def test_report_marks_bad_positions_and_still_writes(tmp_path, capsys):
    listing = tmp_path / "list.txt"
    listing.write_text(f"{RACE_ID}  # a race\nnonsense  # not a position\n", encoding="utf-8")
    code, out, err = run(capsys, "report", str(listing), "-o", str(tmp_path / "r"), "--no-rollout")
    assert code == 1
    assert "nonsense" in err and "Traceback" not in err
    page = (tmp_path / "r" / "index.html").read_text()
    assert "error" in page and RACE_ID in page and "a race" in page


def test_report_usage_errors(tmp_path, capsys):
    code, _, err = run(capsys, "report", str(tmp_path / "missing.csv"), "-o", str(tmp_path / "r"))
    assert code == 2 and err.startswith("bgcli: error:") and len(err.splitlines()) == 1
    code, _, err = run(capsys, "report", "positions/examples.txt")
    assert code == 2 and "usage error" in err


def test_report_checks_its_folder_before_any_rollout(tmp_path, capsys, monkeypatch):
    import bgcli.report.study

    def no_rollouts(*args, **kwargs):
        raise AssertionError("the positions were analysed before the folder was checked")

    monkeypatch.setattr(bgcli.report.study, "analyse", no_rollouts)
    listing = tmp_path / "list.txt"
    listing.write_text(f"{RACE_ID}\n", encoding="utf-8")
    missing = tmp_path / "none" / "a" / "b"
    code, out, err = run(capsys, "report", str(listing), "-o", str(missing))
    assert code == 2 and out == ""
    assert err == (f"bgcli: error: cannot write the report (no folder {str(missing.parent)!r} "
                   f"to make it in) in {str(missing)!r}\n")
    assert not (tmp_path / "none").exists()  # no parents made, as chart and batch
    code, out, err = run(capsys, "report", str(listing), "-o", str(listing))
    assert code == 2 and out == "" and "(it is a file, not a folder)" in err
    assert len(err.splitlines()) == 1
    code, out, err = run(capsys, "report", str(listing), "-o", str(tmp_path / ("a" * 300)))
    assert code == 2 and out == "" and "(File name too long)" in err
    assert len(err.splitlines()) == 1


# ---------------------------------------------------------------------------- the chart command


def test_chart_command_from_a_position(tmp_path, capsys):
    code, out, err = run(capsys, "chart", "board", OPENING_31_XGID, "-o", str(tmp_path / "b.png"))
    assert code == 0, err
    assert out.strip() == str(tmp_path / "b.png")
    assert_png(tmp_path / "b.png")
    code, _, err = run(capsys, "chart", "convergence", RACE_ID, "-o", str(tmp_path / "c.svg"),
                       "--trials", "36", "--seed", "2")
    assert code == 0, err
    assert "after 36 games" in (tmp_path / "c.svg").read_text()
    code, _, err = run(capsys, "chart", "pips", RACE_ID, "-o", str(tmp_path / "p.svg"))
    assert code == 0, err
    assert_svg(tmp_path / "p.svg")


def test_chart_command_from_a_batch_result(batch_rows, report_dir, tmp_path, capsys):
    rows = batch_rows["csv"]
    for kind in ("equity", "pips"):
        code, _, err = run(capsys, "chart", kind, str(rows), "-o", str(tmp_path / f"{kind}.svg"))
        assert code == 0, err
        assert "A middle game" in (tmp_path / f"{kind}.svg").read_text()
    code, _, err = run(capsys, "chart", "outcomes", str(rows), "--id", "race", "-o", str(tmp_path / "o.png"))
    assert code == 0, err
    assert_png(tmp_path / "o.png")
    # the batch's seeds are the report's: its replayed convergence is the report's chart
    code, _, err = run(capsys, "chart", "convergence", str(rows), "--id", "mid",
                       "--title", "Convergence", "-o", str(tmp_path / "c.svg"))
    assert code == 0, err
    assert "replaying" in err
    assert (tmp_path / "c.svg").read_bytes() == (report_dir / "images" / "mid-convergence.svg").read_bytes()


@pytest.mark.parametrize("argv, code, message", [
    (["chart", "board", "positions/examples.txt", "-o", "x.png"], 2, "choose one"),
    (["chart", "board", "4HPwATDgc/ABMA", "-o", "x.gif"], 2, ".png or .svg"),
    (["chart", "board", "nonsense", "-o", "x.png"], 1, "not a position"),
    (["chart", "board", "missing.csv", "-o", "x.png"], 2, "not found"),
    (["chart", "wave", "4HPwATDgc/ABMA", "-o", "x.png"], 2, "KIND"),
])
def test_chart_errors_are_one_line(capsys, tmp_path, monkeypatch, argv, code, message):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    argv = [str(tmp_path / a) if a.startswith("x.") else a for a in argv]
    got, out, err = run(capsys, *argv)
    assert got == code, err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("command", ["chart", "report"])
def test_help_has_an_example(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert "Example" in out and f"bgcli {command}" in out


# ---------------------------------------------------------------------------- in a browser


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _headless(browser: str, profile: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}", *arguments],
        capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_page_renders_in_headless_chromium(report_dir, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("no Chromium found (Debian: apt-get install chromium)")
    page = (report_dir / "index.html").resolve().as_uri()
    images = (report_dir / "index.html").read_text().count("<img ")
    # every image decoded: the page's load script writes the count on <body>
    dom = _headless(browser, tmp_path / "profile", "--virtual-time-budget=10000", "--dump-dom", page)
    found = re.search(r'data-images-loaded="(\d+)/(\d+)"', dom.stdout)
    assert found, dom.stderr[-2000:]
    assert found.groups() == (str(images), str(images))
    # and the page draws: a screenshot that is not blank
    shot = tmp_path / "page.png"
    result = _headless(browser, tmp_path / "profile", "--window-size=1280,2000",
                       f"--screenshot={shot}", page)
    assert shot.exists(), result.stderr[-2000:]
    assert_png(shot)
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    assert pixels[..., :3].std() > 0.05  # text, tables and boards, not one flat colour
