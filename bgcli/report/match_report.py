"""The study report of a match (``bgcli report MATCH -o DIR``): the score sheet, each
player's statistics, an error-per-move chart and the worst decisions, each with its board,
the play made, the best alternatives with their equities and, where a cube decision was
wrong, the cube figures. The same document model as the position report
(``bgcli.report.document``), written as offline HTML and Markdown."""

from __future__ import annotations

from pathlib import Path

from .. import __version__
from ..matchfile.analysis import Judged, player_statistics, skill_mark
from ..matchfile.replay import CHECKER, Match
from . import charts
from .document import Code, Document, Group, Image, Link, Section, Table

WORST_DEFAULT = 10


def _number(value, digits: int = 1, scale: float = 1.0) -> str:
    return "" if value is None else f"{value * scale:.{digits}f}"


def _name(match: Match, player: int) -> str:
    return match.names[player] or f"player {player}"


def score_sheet(match: Match) -> Table:
    rows = []
    for game in match.games:
        if game.winner is None:
            how, points, winner = "not finished", "", ""
        else:
            last = game.decisions[-1].action if game.decisions else ""
            how = "resigned" if game.resigned else "pass" if last == "drop" else "played out"
            points, winner = str(game.points), _name(match, game.winner)
        rows.append([str(game.number), f"{game.score[0]}-{game.score[1]}",
                     "yes" if game.crawford else "", winner, points, how,
                     game.problem or ""])
    return Table(["Game", f"Score ({_name(match, 0)}-{_name(match, 1)})", "Crawford",
                  "Winner", "Points", "How", "Problem"], rows,
                 [True, True, False, False, True, False, False], "Score sheet")


_STATISTICS = [
    ("Checker plays", "moves", 0, 1), ("Unforced", "unforced_moves", 0, 1),
    ("Checker error (EMG)", "checker_error", 3, 1),
    ("Checker error rate (mEMG/move)", "checker_error_rate", 1, 1),
    ("Doubtful", "doubtful", 0, 1), ("Bad", "bad", 0, 1), ("Very bad", "very_bad", 0, 1),
    ("Cube decisions (close)", None, 0, 1), ("Cube errors", "cube_errors", 0, 1),
    ("Cube error (EMG)", "cube_error", 3, 1),
    ("Cube error rate (mEMG/close decision)", "cube_error_rate", 1, 1),
    ("Error rate (mEMG/decision)", "error_rate", 1, 1), ("PR (XG style)", "pr", 2, 1),
    ("Error (MWC %)", "error_mwc", 2, 100), ("Luck (EMG)", "luck", 3, 1),
    ("Luck rate (mEMG/roll)", "luck_rate", 1, 1), ("Result", "result", 3, 1),
    ("Luck-adjusted result", "luck_adjusted_result", 3, 1),
]


def statistics_table(match: Match, stats: list[dict]) -> Table:
    rows = []
    for label, key, digits, scale in _STATISTICS:
        if key is None:
            rows.append([label] + [f"{s['cube_decisions']} ({s['close_cube_decisions']})"
                                   for s in stats])
        elif key in stats[0]:
            rows.append([label] + [_number(s.get(key), digits, scale) for s in stats])
    return Table(["", _name(match, 0), _name(match, 1)], rows, [False, True, True],
                 "Each player's statistics")


def _error(j: Judged) -> float:
    return (j.error or 0.0 if j.unforced else 0.0) + (j.cube_error or 0.0)


def error_chart(match: Match, judged: list[Judged]) -> bytes:
    """The error of every decision in order, one colour per player, games marked."""
    figure = charts._figure(9.0, 3.0)
    ax = figure.add_subplot()
    colours = ("#3b6ea5", "#c8553d")
    for player in (0, 1):
        points = [(k, _error(j) * 1000) for k, j in enumerate(judged)
                  if j.decision.player == player]
        if points:
            ax.bar([p[0] for p in points], [p[1] for p in points], width=0.9,
                   color=colours[player], label=_name(match, player))
    starts = [k for k, j in enumerate(judged) if k and j.decision.game != judged[k - 1].decision.game]
    for k in starts:
        ax.axvline(k - 0.5, color="#999999", linewidth=0.6)
    for threshold in (40, 80, 160):
        ax.axhline(threshold, color="#bbbbbb", linewidth=0.5, linestyle=":")
    ax.set_xlabel("decision (games separated by grey lines)")
    ax.set_ylabel("error (mEMG)")
    ax.legend(loc="upper right", fontsize=8)
    return charts.to_bytes(figure)


def _alternatives(j: Judged, limit: int = 5) -> Table:
    played = j.decision.play
    rows = []
    best = j.alternatives[0][1] if j.alternatives else 0.0
    chosen = [v for v in j.alternatives if played is not None
              and (v[0].result.board == played.result.board).all()]
    shown = j.alternatives[:limit] + [v for v in chosen if v not in j.alternatives[:limit]]
    for rank, (play, emg, mwc) in enumerate(shown, start=1):
        rank_text = str(j.alternatives.index((play, emg, mwc)) + 1)
        mark = "played" if chosen and play is chosen[0][0] else ""
        rows.append([rank_text, Code(play.notation), f"{emg:+.3f}", f"{emg - best:+.3f}",
                     "" if mwc is None else f"{100 * mwc:.2f}%", mark])
    return Table(["#", "Play", "Equity (EMG)", "Diff", "MWC", ""], rows,
                 [True, False, True, True, True, False], "The best plays and the play made")


def _cube_table(j: Judged) -> Table:
    cube = j.cube
    rows = [["No double", _number(cube.no_double, 3)],
            ["Double, take", _number(cube.double_take, 3)],
            ["Double, pass", _number(cube.double_pass, 3)],
            ["Proper action", cube.action], ["Action made", j.cube_action],
            ["Error (EMG)", _number(j.cube_error, 3)]]
    if cube.match_winning_chances:
        rows.append(["Error (MWC)", _number(j.cube_error_mwc, 2, 100) + "%"])
    return Table(["Cube", ""], rows, [False, True], f"Cube decision ({cube.score})")


def _worst_section(match: Match, j: Judged, number: int) -> Section:
    d = j.decision
    what = f"{''.join(map(str, d.dice))} {d.action or '(no move)'}" if d.kind == CHECKER else d.action
    heading = (f"{number}. Game {d.game}, move {d.move_number}: {_name(match, d.player)} "
               f"{what} ({_error(j) * 1000:.0f} mEMG)")
    section = Section(f"worst-{number}", heading)
    facts = [Table(["", ""], [["Position ID", Code(d.situation.position_id)],
                              ["Match ID", Code(d.situation.match_id)],
                              ["Where", f"{match.path}:{d.line}"]], [False, False])]
    if d.kind == CHECKER and j.alternatives:
        mark = skill_mark(j.error) if j.unforced else ""
        facts.append(_alternatives(j))
        if mark:
            facts.append(f"Checker play: {mark} ({(j.error or 0) * 1000:.0f} mEMG). Best: {j.best}.")
    if j.cube is not None and j.cube_error:
        facts.append(_cube_table(j))
    board = Image(f"worst-{number}.svg", f"Board before the decision: {d.situation.position_id}",
                  charts.to_bytes(charts.board_figure(d.situation)))
    section.blocks.append(Group([board, *facts]))
    return section


def build_match_document(match: Match, judged: list[Judged], title: str, plies: int,
                         worst: int = WORST_DEFAULT, command: str | None = None) -> Document:
    stats = player_statistics(match, judged, plies)
    kind = f"{match.length}-point match" if match.length else "money session"
    intro = [f"A {kind} between {_name(match, 0)} and {_name(match, 1)} from {match.path}: "
             f"{len(match.games)} games, {len(judged)} decisions, judged by bgcli's evaluator at "
             f"{plies} ply. Errors are in EMG (normalised equity: 1 is the cube's value) and, at "
             "match play, in match winning chances; marks are gnubg's (doubtful from 0.03, bad "
             "from 0.06, very bad from 0.12 EMG). See docs/matches.md for every definition."]
    if match.problems:
        intro.append(f"{len(match.problems)} problem(s) in the file: " + "; ".join(match.problems))
    ranked = sorted((j for j in judged if _error(j) > 0), key=lambda j: -_error(j))[:worst]
    summary = Section("summary", "Summary")
    summary.blocks.append(Group([score_sheet(match), statistics_table(match, stats)]))
    summary.blocks.append(Image("errors.svg", "Error of every decision, per player",
                                error_chart(match, judged), wide=True))
    if ranked:
        rows = [[Link(str(k), f"worst-{k}"), str(j.decision.game), str(j.decision.move_number),
                 _name(match, j.decision.player),
                 j.decision.action if j.decision.kind != CHECKER or j.decision.action else "(no move)",
                 f"{_error(j) * 1000:.0f}",
                 skill_mark(j.error) if j.unforced and j.error else j.cube_error_kind]
                for k, j in enumerate(ranked, start=1)]
        summary.blocks.append(Table(["#", "Game", "Move", "Player", "Action", "mEMG", "What"],
                                    rows, [True, True, True, False, False, True, False],
                                    f"The {len(ranked)} worst decisions"))
    sections = [summary] + [_worst_section(match, j, k) for k, j in enumerate(ranked, start=1)]
    footer = [f"bgcli {__version__}, evaluator at {plies} ply."]
    if command:
        footer.append(["Made with ", Code(command)])
    return Document(title, intro, sections, footer)


def write_match_report(match: Match, judged: list[Judged], directory: str | Path, title: str,
                       plies: int, worst: int = WORST_DEFAULT,
                       command: str | None = None) -> dict[str, Path]:
    from . import write_document

    return write_document(build_match_document(match, judged, title, plies, worst, command),
                          directory)
