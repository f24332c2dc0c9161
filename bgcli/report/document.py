"""The study report as a small document model, built once and written twice (HTML, Markdown).

``build_document(entries, ...)`` turns analysed entries into a ``Document``: an introduction,
the summary (equity and pip charts, a table of every position with its cube action, cubeful
equity and best play), one section per position (board picture, IDs, race metrics, rollout
table, decisions table, outcome and convergence charts) and a footer with the settings, seed
and bgcli version. ``html.render`` and ``markdown.render`` write the
same document, so the two stay twins. Images are SVG bytes, named for their file in
``images/``. Nothing here depends on the date or the machine: the same rows give the same
report.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Sequence, Union

from .. import __version__
from . import charts
from .study import ReportEntry, exact_int

Z95 = charts.Z95


# ============================================================================ the model

@dataclass(frozen=True)
class Code:
    """Text shown in a monospace font (IDs)."""

    text: str


@dataclass(frozen=True)
class Link:
    """A link to a section of the document."""

    text: str
    anchor: str


Cell = Union[str, Code, Link]


@dataclass
class Table:
    columns: list[str]
    rows: list[list[Cell]]
    numeric: list[bool] = field(default_factory=list)  # right-align these columns
    caption: str = ""


@dataclass
class Image:
    name: str  # file name in images/
    alt: str
    data: bytes  # SVG
    wide: bool = False


@dataclass
class Group:
    """Blocks shown side by side where the page is wide enough."""

    blocks: list


@dataclass
class Section:
    anchor: str
    heading: str
    blocks: list = field(default_factory=list)  # str (a paragraph), Table, Image, Group


@dataclass
class Document:
    title: str
    intro: list  # paragraphs: text, or lists of text, Code and Link runs
    sections: list[Section]
    footer: list

    def images(self) -> list[Image]:
        found: list[Image] = []

        def walk(blocks):
            for block in blocks:
                if isinstance(block, Image):
                    found.append(block)
                elif isinstance(block, Group):
                    walk(block.blocks)

        for section in self.sections:
            walk(section.blocks)
        return found


# ============================================================================ formatting

def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def percent(value, se=None) -> str:
    v = _number(value)
    if not math.isfinite(v):
        return ""
    text = f"{100 * v:.2f}%".replace("-0.00%", "0.00%")
    s = _number(se)
    return f"{text} ± {100 * s:.2f}" if math.isfinite(s) else text


def signed(value, digits: int = 3) -> str:
    v = _number(value)
    return f"{v:+.{digits}f}" if math.isfinite(v) else ""


def interval(low, high) -> str:
    lo, hi = _number(low), _number(high)
    return f"[{lo:+.3f}, {hi:+.3f}]" if math.isfinite(lo) and math.isfinite(hi) else ""


def _integer(value) -> str:
    try:
        return str(exact_int(value))  # exact: seeds of older files have 63 bits, more than a float holds
    except (TypeError, ValueError, OverflowError):
        return ""


def _plain(value, digits: int = 1) -> str:
    v = _number(value)
    if not math.isfinite(v):
        return "" if value is None else str(value)
    return str(int(v)) if v == int(v) else f"{v:.{digits}f}"


def _flag(value) -> bool:
    return str(value).strip().lower() in ("true", "1", "yes")


def slug(text: str, taken: set[str]) -> str:
    """A file- and anchor-safe name for ``text``, unique among ``taken`` (which it joins)."""
    base = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-").lower() or "position"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    taken.add(name)
    return name


def describe(entry: ReportEntry) -> str:
    """What to call an entry: its name, else its notes, else its Position ID or input."""
    row = entry.row
    return (entry.name or _text(row.get("notes")) or _text(row.get("position_id"))
            or _text(row.get("input")))


def _title_of(entry: ReportEntry, number: int) -> str:
    return f"{entry.id or number}. {describe(entry)}"


# ============================================================================ tables

def race_table(row: dict) -> Table:
    """Pip counts and gnubg's race metrics, one rule a row."""
    rows: list[list[Cell]] = [
        ["Pip count", _integer(row.get("pips_on_roll")), _integer(row.get("pips_opponent")),
         f"O − X = {signed(row.get('pip_difference'), 0)}", ""],
        ["Keith", _integer(row.get("keith_on_roll")), _integer(row.get("keith_opponent")),
         f"X adjusted {_plain(row.get('keith_leader_adjusted'))}", _text(row.get("keith_verdict"))],
        ["Thorp", _integer(row.get("thorp_on_roll")), _integer(row.get("thorp_opponent")),
         f"X adjusted {_plain(row.get('thorp_leader_adjusted'))}", _text(row.get("thorp_verdict"))],
        ["8-9-12", "", "", f"X ahead {_plain(row.get('eight_nine_twelve_ahead_percent'))}%",
         _text(row.get("eight_nine_twelve_verdict"))],
        ["Kleinman", "", "", f"K {_plain(row.get('kleinman_count'), 4)}, X wins "
         f"{percent(row.get('kleinman_win_probability'))}", ""],
        ["Isight", _integer(row.get("isight_on_roll")), _integer(row.get("isight_opponent")),
         f"X wins {_plain(row.get('isight_gwc_percent'))}%", _text(row.get("isight_verdict"))],
    ]
    caption = ("Race metrics as GNU Backgammon computes them (the player on roll is its "
               "\"leader\")" + ("" if _flag(row.get("is_race")) else
                               "; this position still has contact, so they are only indicative"))
    return Table(["Rule", "X (on roll)", "O", "Figure", "Verdict"], rows,
                 [False, True, True, False, False], caption)


def rollout_table(row: dict, situation=None) -> Table:
    """The five rates and the equity, each with its standard error; the caption says what
    the rollout leaves out of ``situation`` (rolled dice, the match score)."""
    rows: list[list[Cell]] = [
        ["Win", percent(row.get("win"), row.get("win_se"))],
        ["Win gammon", percent(row.get("win_gammon"), row.get("win_gammon_se"))],
        ["Win backgammon", percent(row.get("win_backgammon"), row.get("win_backgammon_se"))],
        ["Lose", percent(1 - _number(row.get("win")), row.get("win_se"))],
        ["Lose gammon", percent(row.get("lose_gammon"), row.get("lose_gammon_se"))],
        ["Lose backgammon", percent(row.get("lose_backgammon"), row.get("lose_backgammon_se"))],
        ["Equity (cubeless)", f"{signed(row.get('equity'))} ± {_plain(row.get('equity_se'), 3)}"],
        ["95% interval", interval(row.get("equity_ci_low"), row.get("equity_ci_high"))],
        ["Games", _integer(row.get("games")) + (" (partial)" if _flag(row.get("partial")) else "")],
        ["Seed", _integer(row.get("seed"))],
    ]
    caption = ("Rates are cumulative, as gnubg gives them: Win includes gammons, gammons "
               "include backgammons.")
    match = getattr(situation, "match", None)
    if match is not None and match.dice_rolled:
        caption += " The rollout starts before the roll: the dice shown are not used."
    if match is not None and not match.is_money:
        caption += " The equity is cubeless money equity: the match score is not used."
    return Table(["Rollout (X on roll)", "Mean ± SE"], rows, [False, True], caption)


def cube_context(situation) -> str:
    """The cube and score a cube action is taken at, in words: "cube 2 owned by O, money"."""
    from ..notation.gnubgid import CENTERED

    match = situation.match
    owner = ("centred" if match.cube_owner == CENTERED else
             "owned by X" if match.cube_owner == match.player_on_roll else "owned by O")
    if match.is_money:
        score = "money" + (", Jacoby" if match.jacoby else "")
    else:
        me, them = match.player_on_roll, 1 - match.player_on_roll
        score = (f"X {match.match_length - match.score[me]}-away, "
                 f"O {match.match_length - match.score[them]}-away"
                 + (", Crawford" if match.crawford else ""))
    return f"cube {match.cube_value} {owner}, {score}"


def best_play_text(row: dict) -> str:
    """ "31: 8/5 6/5" for a row with a best play, else empty."""
    play = _text(row.get("best_play"))
    return f"{_text(row.get('best_play_dice'))}: {play}" if play else ""


def _evaluator_text(row: dict) -> str:
    """The evaluator of a row's decisions, e.g. "net, 1-ply" ("" when not recorded)."""
    policy = _text(row.get("evaluator_policy"))
    plies = row.get("evaluator_plies")
    return f"{policy}, {exact_int(plies)}-ply" if policy and _is_number(plies) else policy


def decisions_table(row: dict, situation) -> Table | None:
    """The cube action before the roll (its three cubeful equities, take point and cube
    efficiency) and the evaluator's best play for the rolled dice; None when the row has
    neither (an old batch result, an analysis without decisions)."""
    rows: list[list[Cell]] = []
    match = situation.match
    policy = _evaluator_text(row)
    source = _text(row.get("cube_source"))
    if source:
        rows += [["Cube action", _text(row.get("cube_action"))],
                 ["Cubeful equity", signed(row.get("cubeful_equity"))]]
        for label, key in (("No double", "no_double"), ("Double, take", "double_take"),
                           ("Double, pass", "double_pass"), ("Take point", "take_point")):
            if _is_number(row.get(key)):  # null where no double is possible
                rows.append([label, percent(row[key]) if key == "take_point" else signed(row[key])])
        rows += [["Cube efficiency", _plain(row.get("cube_efficiency"), 2)],
                 ["Cube and score", cube_context(situation)]]
    elif match.dice_rolled and "cube_source" in row:
        rows.append(["Cube action", f"none: {match.dice[0]}{match.dice[1]} rolled, and the "
                     "cube is turned before the roll"])
    if _text(row.get("best_play")):
        rows += [[f"Best play for {_text(row.get('best_play_dice'))}", _text(row["best_play"])],
                 ["Its equity (cubeless)" if match.is_money else
                  "Its equity (cubeless, EMG at the score)", signed(row.get("best_play_equity"))]]
    if not rows:
        return None
    parts = []
    if source:
        rates = ("the rollout's rates" if source == "rollout" else
                 f"the evaluator's rates ({policy})" if policy else "the evaluator's rates")
        parts.append(f"Cube action before the roll: gnubg's cube model (Janowski's, with the "
                     f"cube efficiency shown) applied to {rates}, at the cube and score of the "
                     "Match ID; equities are cubeful, in gnubg's normalised units.")
    if _text(row.get("best_play")):
        parts.append("Best play: the evaluator's top play" + (f" ({policy})" if policy else "")
                     + ", equity from the mover's side after it.")
    return Table(["Decisions (X on roll)", ""], rows, [False, True], " ".join(parts))


def _is_number(value) -> bool:
    return math.isfinite(_number(value))


def ids_table(entry: ReportEntry) -> Table:
    """The position's IDs, the input as given when it says something they do not, notes."""
    row = entry.row
    rows: list[list[Cell]] = []
    ids = {key: _text(row.get(key)) for key in ("position_id", "match_id", "xgid")}
    for label, key in (("Position ID", "position_id"), ("Match ID", "match_id"), ("XGID", "xgid")):
        if ids[key]:
            rows.append([label, Code(ids[key])])
    given = _text(row.get("input"))
    same = {ids["position_id"], ids["xgid"], f"{ids['position_id']}:{ids['match_id']}"}
    if given and given not in same:
        rows.append(["Input", Code(given)])
    if _text(row.get("notes")) and entry.name:  # without a name the notes are the heading
        rows.append(["Notes", _text(row["notes"])])
    return Table(["", ""], rows, [False, False])


def summary_table(entries: Sequence[ReportEntry], anchors: Sequence[str]) -> Table:
    """One line per position: its rollout, cube action and cubeful equity, and (a column
    only when some position has one) the best play for its dice."""
    plays = any(_text(e.row.get("best_play")) for e in entries if not e.error)
    columns = ["#", "Name", "Position ID", "Pips X – O", "Type", "Win", "W(g)", "L(g)",
               "Equity ± SE", "95% interval", "Cube action", "Cubeful equity"]
    numeric = [False, False, False, True, False, True, True, True, True, True, False, True]
    if plays:
        columns.append("Best play")
        numeric.append(False)
    rows: list[list[Cell]] = []
    for number, (entry, anchor) in enumerate(zip(entries, anchors), start=1):
        row = entry.row
        label = describe(entry)
        ident = Link(entry.id or str(number), anchor)
        if entry.error:
            rows.append([ident, label, Code(_text(row.get("input")))]
                        + [""] * (len(columns) - 4) + ["error: " + entry.error])
            continue
        pips = f"{_integer(row.get('pips_on_roll'))} – {_integer(row.get('pips_opponent'))}"
        cells: list[Cell] = [
            ident, label, Code(_text(row.get("position_id"))), pips,
            "race" if _flag(row.get("is_race")) else "contact",
            percent(row.get("win")), percent(row.get("win_gammon")), percent(row.get("lose_gammon")),
            f"{signed(row.get('equity'))} ± {_plain(row.get('equity_se'), 3)}" if entry.has_rollout else "",
            interval(row.get("equity_ci_low"), row.get("equity_ci_high")),
            _text(row.get("cube_action")), signed(row.get("cubeful_equity")),
        ]
        if plays:
            cells.append(best_play_text(row))
        rows.append(cells)
    return Table(columns, rows, numeric)


def _text(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


# ============================================================================ the footer

def _settings_text(row: dict) -> str:
    """One rollout row's settings in words (its seed aside)."""
    truncate = _integer(row.get("truncate"))
    parts = [f"{_integer(row.get('games') or row.get('trials'))} games a position",
             f"{_text(row.get('policy')) or 'heuristic'} play",
             f"truncated after {truncate} plies" if truncate not in ("", "0") else "games played to the end",
             f"variance reduction {'on' if _flag(row.get('variance_reduction')) else 'off'}",
             f"quasi-random first rolls {'on' if _flag(row.get('quasi_random')) else 'off'}"]
    if _flag(row.get("initial")):
        parts.append("opening rolls (no doubles first)")
    if _text(row.get("stop_se")):
        parts.append(f"stopping once the SE is below {_text(row.get('stop_se'))}")
    return ", ".join(parts)


def settings_lines(entries: Sequence[ReportEntry]) -> list[str]:
    """The rollout settings the rows record: one line when they agree, else one per set;
    then where the seeds came from."""
    seen: dict[str, list[str]] = {}
    for number, entry in enumerate(entries, start=1):
        if entry.has_rollout:
            seen.setdefault(_settings_text(entry.row), []).append(entry.id or str(number))
    lines = []
    for text, ids in seen.items():
        which = "" if len(seen) == 1 else f" (positions {', '.join(ids)})"
        lines.append(f"Rollouts: {text}{which}.")
    policies = sorted({_evaluator_text(e.row) for e in entries
                       if not e.error and _evaluator_text(e.row)})
    if policies:
        lines.append(f"Cube actions from the rollouts' rates, else the evaluator's; best plays "
                     f"by the evaluator; evaluator: {', '.join(policies)}.")
    nets = sorted({e.row["net"] for e in entries if not e.error and _text(e.row.get("net"))})
    if nets:
        lines.append(f"Net weights: {', '.join(nets)}.")
    masters = sorted({str(exact_int(e.row["master_seed"])) for e in entries
                      if e.has_rollout and _text(e.row.get("master_seed"))})
    if masters:
        lines.append(f"Master seed {', '.join(masters)}: each position's own seed (in its "
                     "rollout table) derives from it and the position's IDs, as in bgcli batch.")
    elif seen:
        lines.append("Each position's seed is in its rollout table.")
    return lines


# ============================================================================ building

def build_document(entries: Sequence[ReportEntry], title: str, source: str,
                   command: str | None = None) -> Document:
    """The whole report for analysed ``entries`` (see the module docstring)."""
    anchors_taken: set[str] = {"summary", "settings"}
    anchors = [slug(f"position-{e.id or i}", anchors_taken) for i, e in enumerate(entries, 1)]
    good = [e for e in entries if not e.error and e.situation is not None]
    rolled = [e for e in good if e.has_rollout]
    raced = [e for e in good if e.has_race]

    intro = [f"{len(entries)} position{'s' if len(entries) != 1 else ''} from {source}"
             + (f", {len(rolled)} rolled out" if rolled else "")
             + (f"; {len(entries) - len(good)} could not be analysed" if len(good) < len(entries) else "")
             + ". Every number is from the point of view of the player on roll, X, drawn at "
             "the bottom of each board."]
    if rolled:
        intro.append("Equities are cubeless money equities: 2·Win − 1 + W(g) − L(g) + W(bg) − "
                     "L(bg). Standard errors (SE) are the spread of the games over √games; "
                     "intervals are ± 1.96 SE.")
    if any(_text(e.row.get("cube_source")) or _text(e.row.get("best_play")) for e in good):
        intro.append("The cube action (before the roll) and its cubeful equity come from "
                     "gnubg's cube model applied to the rollout's rates, or to the evaluator's "
                     "where there is no rollout, at each position's cube and score; the best "
                     "play, for positions with dice rolled, is the evaluator's top play.")

    summary = Section("summary", "Summary")
    charts_row = []
    if rolled:
        charts_row.append(Image("summary-equity.svg", "Equity of every position with its 95% interval",
                                charts.to_bytes(charts.equity_figure([_chart_row(e) for e in rolled]))))
    if raced:
        charts_row.append(Image("summary-pips.svg", "Pip counts and race winning chances",
                                charts.to_bytes(charts.pips_figure([_chart_row(e) for e in raced]))))
    if charts_row:
        summary.blocks.append(Group(charts_row))
    summary.blocks.append(summary_table(entries, anchors))
    sections = [summary]

    for number, (entry, anchor) in enumerate(zip(entries, anchors), start=1):
        sections.append(_position_section(entry, anchor, number))

    footer = settings_lines(entries)
    if command:
        footer.append(["Made with ", Code(command)])
    footer.append(f"bgcli {__version__}. The same input, settings and seed give the same "
                  "numbers on any machine and any number of threads.")
    return Document(title, intro, sections, footer)


def _chart_row(entry: ReportEntry) -> dict:
    row = dict(entry.row)
    row["name"] = f"{entry.id}. {describe(entry)}" if entry.id else describe(entry)
    return row


def _position_section(entry: ReportEntry, anchor: str, number: int) -> Section:
    section = Section(anchor, _title_of(entry, number))
    base = anchor.removeprefix("position-") or str(number)
    if entry.error or entry.situation is None:
        where = f" ({entry.label})" if entry.label else ""
        section.blocks.append(f"Error{where}: {entry.error or 'no position'}")
        if _text(entry.row.get("input")):
            section.blocks.append(ids_table(entry))
        return section
    row = entry.row
    board = Image(f"{base}-board.svg", f"Board of {entry.row.get('position_id')}",
                  charts.to_bytes(charts.board_figure(entry.situation)))
    facts = [ids_table(entry)]
    if entry.has_race:
        facts.append(race_table(row))
    if entry.has_rollout:
        facts.append(rollout_table(row, entry.situation))
    decisions = decisions_table(row, entry.situation)
    if decisions is not None:
        facts.append(decisions)
    section.blocks.append(Group([board, *facts]))
    if entry.has_rollout:
        images = [Image(f"{base}-outcomes.svg", "Outcome probabilities with 95% intervals",
                        charts.to_bytes(charts.outcomes_figure(row, title="Outcomes")))]
        if entry.games is not None and len(entry.games) > 1:
            images.append(Image(f"{base}-convergence.svg", "Running equity ± 2 SE",
                                charts.to_bytes(charts.convergence_figure(entry.games,
                                                                          title="Convergence"))))
        section.blocks.append(Group(images))
    return section
