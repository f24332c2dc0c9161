"""Charts for positions, rollouts and collections, drawn with matplotlib.

Every function takes plain data — a ``Situation``, a rollout row as ``bgcli rollout -f json``
or ``bgcli batch`` writes it (a dict), a list of such rows, per-game equities — and returns a
matplotlib ``Figure``; ``save(figure, path)`` writes it as PNG or SVG by the file's extension.

* ``board_figure``: a picture of the board, oriented like the text board (the player on roll
  is X, at the bottom; X's 24-point at the top right);
* ``outcomes_figure``: Win, W(g), W(bg) against L, L(g), L(bg), with 95% error bars;
* ``equity_figure``: each position's equity with its 95% interval, across a collection;
* ``convergence_figure``: the running equity ± 2 SE against games played;
* ``pips_figure``: pip counts of both sides and the race formulas' winning chances.

Figures are made with ``matplotlib.figure.Figure`` (no pyplot, so no global state and no
display needed) and saved without dates and with a fixed SVG hash salt, so the same data gives
the same bytes. SVG text stays text (``svg.fonttype: none``), which keeps files small.
matplotlib is imported inside the functions: importing this module costs nothing.
"""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from ..notation.situation import Situation

Z95 = 1.959963984540054

#: The kinds of chart, as ``bgcli chart`` names them.
KINDS = ("board", "outcomes", "equity", "convergence", "pips")

#: The colours of the board picture and the charts.
COLOURS = {
    "frame": "#5a3a22",
    "frame_edge": "#3b2414",
    "felt": "#2f6b48",
    "point_light": "#e9dcb8",
    "point_dark": "#a8452f",
    "bar": "#4d311c",
    "tray": "#3f6e52",
    "x": "#f7f1e1",  # the player on roll: ivory
    "x_edge": "#6b5a3a",
    "o": "#2a2624",  # the opponent: dark
    "o_edge": "#9a8f84",
    "cube": "#fbfaf5",
    "die": "#fbfaf5",
    "text": "#222222",
    "light_text": "#f5efe0",
    "win": "#2f6b48",
    "lose": "#a8452f",
    "accent": "#2b5d8a",
}

STACK = 5  # checkers drawn on a point before the count is written on the outermost one

_RC = {
    "svg.hashsalt": "bgcli",
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Helvetica", "Arial", "Liberation Sans"],
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def _wrapped(text: str, width: float, fontsize: float) -> str:
    """``text`` in lines that fit ``width`` inches at ``fontsize`` points: broken at spaces
    where it can, inside a word (a long ID) where it must."""
    chars = max(12, int(width * 72 / (0.62 * fontsize)))  # DejaVu Sans: about 0.6 em a char
    lines = []
    for paragraph in text.split("\n"):
        lines += textwrap.wrap(paragraph, chars, break_on_hyphens=False) or [""]
    return "\n".join(lines)


def _heading(ax, label: str, detail: str = "") -> None:
    """The axes' title, ``label`` then ``detail``, fitted to the figure: on one line if they
    fit, else the detail on a line of its own (a full ID as label would push it off)."""
    width = 0.8 * ax.figure.get_figwidth()  # the tick labels on the left take the rest
    size = _RC["axes.titlesize"]
    one_line = f"{label}   {detail}" if detail else label
    if _wrapped(one_line, width, size).count("\n") == 0:
        text = one_line
    else:
        text = "\n".join(_wrapped(part, width, size) for part in (label, detail) if part)
    ax.set_title(text, loc="left")


def _figure(width: float, height: float) -> "Figure":
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def save(figure: "Figure", path: str | Path, dpi: int = 100) -> Path:
    """Write ``figure`` to ``path`` as PNG or SVG (by the extension), reproducibly."""
    path = Path(path)
    kind = path.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise ValueError(f"chart files must end in .png or .svg, not {str(path)!r}")
    path.write_bytes(to_bytes(figure, kind, dpi))
    return path


def to_bytes(figure: "Figure", kind: str = "svg", dpi: int = 100) -> bytes:
    """The figure as PNG or SVG bytes: no dates or versions in the metadata, SVG ids from a
    fixed salt, SVG coordinates to 0.1 pt (half the bytes, no visible change)."""
    import io

    import matplotlib

    metadata = {"Date": None, "Creator": None} if kind == "svg" else {"Software": None}
    buffer = io.BytesIO()
    with matplotlib.rc_context(_RC):
        figure.savefig(buffer, format=kind, dpi=dpi, metadata=metadata)
    data = buffer.getvalue()
    return _compact_svg(data) if kind == "svg" else data


_GEOMETRY = re.compile(rb'( (?:d|x|y|points|transform)=")([^"]*)(")')
_LONG_DECIMAL = re.compile(rb"(\d\.\d)\d+")
_METADATA = re.compile(rb"\s*<metadata>.*?</metadata>", re.S)


def _compact_svg(data: bytes) -> bytes:
    """Drop the metadata block, cut coordinates in geometry attributes (never in text) to one
    decimal and join path commands onto one line."""
    data = _METADATA.sub(b"", data)

    def shorten(match: re.Match) -> bytes:
        value = _LONG_DECIMAL.sub(rb"\1", match.group(2))
        value = value.replace(b" \nL ", b" L ").replace(b" \nC ", b" C ").replace(b" \nz\n", b" z")
        return match.group(1) + value.replace(b" \n", b" ").strip() + match.group(3)

    return _GEOMETRY.sub(shorten, data)


def _styled(draw):
    """Run a drawing function under the charts' rc settings (fonts are fixed at draw time)."""
    import functools

    import matplotlib

    @functools.wraps(draw)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(_RC):
            return draw(*args, **kwargs)

    return wrapper


# ============================================================================ the board

# Geometry in board units: one point is 1 wide, a checker 0.9 across.
_EDGE = 0.45  # frame around the playing area
_BAR = 1.1
_TRAY = 1.2
_HALF = 6.0  # six points
_POINT_LENGTH = 4.7
_GAP = 1.4  # between the tips of opposite points
_CHECKER = 0.92
_PLAY_HEIGHT = 2 * 5.0 + _GAP  # room for five checkers each side plus the gap
_LEFT = 0.0
_PLAY_LEFT = _LEFT + _EDGE
_BAR_LEFT = _PLAY_LEFT + _HALF
_RIGHT_LEFT = _BAR_LEFT + _BAR
_PLAY_RIGHT = _RIGHT_LEFT + _HALF
_TRAY_LEFT = _PLAY_RIGHT + _EDGE
_WIDTH = _TRAY_LEFT + _TRAY + _EDGE
_BOTTOM = 0.0
_PLAY_BOTTOM = _BOTTOM + _EDGE
_PLAY_TOP = _PLAY_BOTTOM + _PLAY_HEIGHT
_TOP = _PLAY_TOP + _EDGE
_MIDDLE = (_PLAY_BOTTOM + _PLAY_TOP) / 2
_BAR_CENTRE = _BAR_LEFT + _BAR / 2
_CUBE_X = _LEFT - 0.75  # the cube sits left of the board: middle, or by its owner
_VIEW_LEFT = _LEFT - 1.4


def point_x(point: int) -> float:
    """Centre x of X's point ``point`` (1..24): 13..24 along the top from left to right,
    12..1 along the bottom from left to right."""
    column = point - 13 if point >= 13 else 12 - point
    left = _PLAY_LEFT if column < 6 else _RIGHT_LEFT - 6
    return left + column + 0.5


def _is_top(point: int) -> bool:
    return point >= 13


def _checker(ax, x: float, y: float, mine: bool, label: str | None = None, gid: str = "checker"):
    """One checker; its gid is ``{gid}-{x|o}-{n}`` (SVG ids must be unique)."""
    from matplotlib.patches import Circle

    face, edge = (COLOURS["x"], COLOURS["x_edge"]) if mine else (COLOURS["o"], COLOURS["o_edge"])
    circle = Circle((x, y), _CHECKER / 2, facecolor=face, edgecolor=edge, linewidth=1.4,
                    zorder=3)
    circle.set_gid(f"{gid}-{'x' if mine else 'o'}-{len(ax.patches)}")
    ax.add_patch(circle)
    if label:
        ax.text(x, y, label, ha="center", va="center", fontsize=8.5, fontweight="bold",
                color=COLOURS["text"] if mine else COLOURS["light_text"], zorder=4)


def _stack(ax, point: int, count: int, mine: bool) -> None:
    """``count`` checkers on X's ``point``, from the edge towards the middle."""
    x = point_x(point)
    top = _is_top(point)
    for row in range(min(count, STACK)):
        offset = _CHECKER / 2 + row * _CHECKER
        y = _PLAY_TOP - offset if top else _PLAY_BOTTOM + offset
        label = str(count) if row == STACK - 1 and count > STACK else None
        _checker(ax, x, y, mine, label)


def _bar(ax, count: int, mine: bool) -> None:
    """Checkers on the bar: X's below the middle, O's above, starting near the middle."""
    shown = min(count, 4)
    for row in range(shown):
        offset = _CHECKER * (0.9 + row)
        y = _MIDDLE - offset if mine else _MIDDLE + offset
        label = str(count) if row == shown - 1 and count > shown else None
        _checker(ax, _BAR_CENTRE, y, mine, label, gid="bar")


def _tray(ax, count: int, mine: bool) -> None:
    """Borne-off checkers as slabs in the tray: X's in the lower half, O's in the upper."""
    from matplotlib.patches import Rectangle

    face, edge = (COLOURS["x"], COLOURS["x_edge"]) if mine else (COLOURS["o"], COLOURS["o_edge"])
    thickness = 0.26
    for i in range(count):
        y = _PLAY_BOTTOM + 0.1 + i * thickness if mine else _PLAY_TOP - 0.1 - (i + 1) * thickness
        slab = Rectangle((_TRAY_LEFT + 0.12, y), _TRAY - 0.24, thickness * 0.86,
                         facecolor=face, edgecolor=edge, linewidth=0.5, zorder=3)
        slab.set_gid(f"off-{'x' if mine else 'o'}-{i}")
        ax.add_patch(slab)
    if count:
        label_y = (_PLAY_BOTTOM + 0.3 + count * thickness if mine
                   else _PLAY_TOP - 0.3 - count * thickness)
        ax.text(_TRAY_LEFT + _TRAY / 2, label_y, f"{count} off", ha="center",
                va="bottom" if mine else "top", fontsize=7.5, color=COLOURS["light_text"],
                zorder=4)


def _cube(ax, situation: "Situation") -> None:
    from matplotlib.patches import FancyBboxPatch

    from ..notation.gnubgid import CENTERED

    match = situation.match
    size = 0.95
    if match.cube_owner == CENTERED:
        y = _MIDDLE
    elif match.cube_owner == match.player_on_roll:
        y = _PLAY_BOTTOM + size / 2 + 0.15
    else:
        y = _PLAY_TOP - size / 2 - 0.15
    x = _CUBE_X
    box = FancyBboxPatch((x - size / 2, y - size / 2), size, size,
                         boxstyle="round,pad=0,rounding_size=0.12", facecolor=COLOURS["cube"],
                         edgecolor=COLOURS["frame_edge"], linewidth=1.0, zorder=5)
    box.set_gid("cube")
    ax.add_patch(box)
    value = match.cube_value
    ax.text(x, y, str(value), ha="center", va="center", fontsize=10 if value < 10 else 8.5,
            fontweight="bold", color=COLOURS["text"], zorder=6)


_PIPS_ON_DIE = {
    1: [(0, 0)],
    2: [(-1, 1), (1, -1)],
    3: [(-1, 1), (0, 0), (1, -1)],
    4: [(-1, 1), (1, 1), (-1, -1), (1, -1)],
    5: [(-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)],
    6: [(-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)],
}


def _die(ax, x: float, y: float, value: int) -> None:
    from matplotlib.patches import Circle, FancyBboxPatch

    size = 0.9
    box = FancyBboxPatch((x - size / 2, y - size / 2), size, size,
                         boxstyle="round,pad=0,rounding_size=0.14", facecolor=COLOURS["die"],
                         edgecolor=COLOURS["frame_edge"], linewidth=1.0, zorder=5)
    box.set_gid(f"die-{len(ax.patches)}")
    ax.add_patch(box)
    for dx, dy in _PIPS_ON_DIE[value]:
        ax.add_patch(Circle((x + dx * 0.24, y + dy * 0.24), 0.075, facecolor=COLOURS["text"],
                            edgecolor="none", zorder=6))


def board_figure(situation: "Situation", title: str | None = None, width: float = 6.4) -> "Figure":
    """A picture of the board: the player on roll is X (ivory, at the bottom, moving from
    the top right round to the bottom right), the opponent O (dark). Point numbers are X's;
    stacks of more than five show their count; checkers on the bar sit on the bar, borne-off
    checkers in the tray on the right with the cube; dice are drawn on the right half when
    rolled. Pip counts, score and IDs are written around the board."""
    return _styled(_board_figure)(situation, title, width)


def _board_figure(situation: "Situation", title: str | None, width: float) -> "Figure":
    from matplotlib.patches import Polygon, Rectangle

    from ..display import _cube_text, _dice_text, _score_text

    position = situation.position
    mine, theirs = position.board[1], position.board[0]
    if title:
        title = _wrapped(title, 0.95 * width, 9)
    lines = title.count("\n") + 1 if title else 0
    margin_top, margin_bottom = 1.15, 1.45 + 0.55 * lines
    total_height = _TOP + margin_top + margin_bottom
    figure = _figure(width, width * total_height / (_WIDTH + 0.2 - _VIEW_LEFT))
    figure.set_layout_engine("none")
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(_VIEW_LEFT, _WIDTH + 0.2)
    ax.set_ylim(-margin_bottom, _TOP + margin_top)
    ax.set_aspect("equal")
    ax.axis("off")

    # frame, felt, bar, tray
    ax.add_patch(Rectangle((_LEFT, _BOTTOM), _WIDTH, _TOP - _BOTTOM, facecolor=COLOURS["frame"],
                           edgecolor=COLOURS["frame_edge"], linewidth=1.5, zorder=0))
    for left in (_PLAY_LEFT, _RIGHT_LEFT):
        ax.add_patch(Rectangle((left, _PLAY_BOTTOM), _HALF, _PLAY_HEIGHT,
                               facecolor=COLOURS["felt"], edgecolor="none", zorder=1))
    ax.add_patch(Rectangle((_BAR_LEFT, _BOTTOM), _BAR, _TOP - _BOTTOM, facecolor=COLOURS["bar"],
                           edgecolor=COLOURS["frame_edge"], linewidth=0.8, zorder=1))
    ax.add_patch(Rectangle((_TRAY_LEFT, _PLAY_BOTTOM), _TRAY, _PLAY_HEIGHT,
                           facecolor=COLOURS["tray"], edgecolor=COLOURS["frame_edge"],
                           linewidth=0.8, zorder=1))
    ax.plot([_TRAY_LEFT, _TRAY_LEFT + _TRAY], [_MIDDLE, _MIDDLE], color=COLOURS["frame_edge"],
            linewidth=0.8, zorder=1.5)

    # points, numbered from X's side
    for point in range(1, 25):
        x = point_x(point)
        top = _is_top(point)
        base = _PLAY_TOP if top else _PLAY_BOTTOM
        tip = base - _POINT_LENGTH if top else base + _POINT_LENGTH
        colour = COLOURS["point_dark"] if point % 2 == 0 else COLOURS["point_light"]
        ax.add_patch(Polygon([(x - 0.5, base), (x + 0.5, base), (x, tip)], closed=True,
                             facecolor=colour, edgecolor="none", zorder=2))
        label_y = _TOP + 0.12 if top else _BOTTOM - 0.12
        ax.text(x, label_y, str(point), ha="center", va="bottom" if top else "top", fontsize=8,
                color=COLOURS["text"])

    # checkers
    for point in range(1, 25):
        count_x = int(mine[point - 1])
        count_o = int(theirs[24 - point])
        if count_x > 0:
            _stack(ax, point, count_x, mine=True)
        elif count_o > 0:
            _stack(ax, point, count_o, mine=False)
    if theirs[24] > 0:
        _bar(ax, int(theirs[24]), mine=False)
    if mine[24] > 0:
        _bar(ax, int(mine[24]), mine=True)
    off_x, off_o = position.borne_off()
    _tray(ax, off_x, mine=True)
    _tray(ax, off_o, mine=False)
    _cube(ax, situation)

    match = situation.match
    if match.dice_rolled:
        centre = (_RIGHT_LEFT + _PLAY_RIGHT) / 2
        _die(ax, centre - 0.6, _MIDDLE, match.dice[0])
        _die(ax, centre + 0.6, _MIDDLE, match.dice[1])
    elif match.double_offered:
        ax.text((_RIGHT_LEFT + _PLAY_RIGHT) / 2, _MIDDLE, "double offered", ha="center",
                va="center", fontsize=9, color=COLOURS["light_text"], zorder=5)

    # the text around the board: pips, cube, score, dice
    pips_x, pips_o = position.pips()
    ax.text(_VIEW_LEFT + 0.1, _TOP + 0.55, f"O  {pips_o} pips", ha="left", va="bottom", fontsize=9.5,
            fontweight="bold", color=COLOURS["text"])
    ax.text(_WIDTH, _TOP + 0.55, f"{_cube_text(situation)}", ha="right", va="bottom",
            fontsize=9, color=COLOURS["text"])
    ax.text(_VIEW_LEFT + 0.1, _BOTTOM - 0.65, f"X  {pips_x} pips, on roll", ha="left", va="top",
            fontsize=9.5, fontweight="bold", color=COLOURS["text"])
    ax.text(_WIDTH, _BOTTOM - 0.65, f"{_score_text(situation)}; dice: {_dice_text(situation)}",
            ha="right", va="top", fontsize=9, color=COLOURS["text"])
    if title:
        ax.text((_WIDTH + _VIEW_LEFT) / 2, _BOTTOM - 1.35, title, ha="center", va="top", fontsize=9,
                color="#555555")
    return figure


def drawn_checkers(figure: "Figure") -> dict[str, int]:
    """How many checker shapes of each kind a board figure holds (for tests and checks):
    keys ``checker-x``, ``checker-o``, ``bar-x``, ``bar-o``, ``off-x``, ``off-o``."""
    counts: dict[str, int] = {}
    for ax in figure.axes:
        for patch in ax.patches:
            gid = patch.get_gid()
            parts = (gid or "").split("-")
            if len(parts) == 3 and parts[0] in ("checker", "bar", "off"):
                key = f"{parts[0]}-{parts[1]}"
                counts[key] = counts.get(key, 0) + 1
    return counts


# ============================================================================ rollout charts

_OUTCOMES = (("win", "Win"), ("win_gammon", "Gammon"), ("win_backgammon", "Backgammon"))
_LOSSES = (("lose", "Win"), ("lose_gammon", "Gammon"), ("lose_backgammon", "Backgammon"))


def _number(row: dict, key: str) -> float:
    value = row.get(key)
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _label(row: dict, fallback: str = "") -> str:
    for key in ("name", "id", "position_id", "input"):
        value = row.get(key)
        if value is not None and str(value).strip() and str(value) != "nan":
            return str(value)
    return fallback


def _percent(value: float) -> str:
    text = f"{100 * value:.1f}%"
    return "0.0%" if text == "-0.0%" else text


def outcomes_figure(row: dict, title: str | None = None) -> "Figure":
    """Horizontal bars: Win, W(g), W(bg) to the right, L, L(g), L(bg) to the left, each with
    its 95% interval (± 1.96 standard errors), and the equity in the title."""
    return _styled(_outcomes_figure)(row, title)


def _outcomes_figure(row: dict, title: str | None) -> "Figure":
    figure = _figure(6.4, 2.6)
    ax = figure.add_subplot()
    win = _number(row, "win")
    values_w = [win, _number(row, "win_gammon"), _number(row, "win_backgammon")]
    errors_w = [_number(row, "win_se"), _number(row, "win_gammon_se"),
                _number(row, "win_backgammon_se")]
    values_l = [1.0 - win, _number(row, "lose_gammon"), _number(row, "lose_backgammon")]
    errors_l = [_number(row, "win_se"), _number(row, "lose_gammon_se"),
                _number(row, "lose_backgammon_se")]
    labels = ["Win", "Gammon", "Backgammon"]
    y = np.arange(3)[::-1]
    errors_w = [Z95 * e if math.isfinite(e) else 0.0 for e in errors_w]
    errors_l = [Z95 * e if math.isfinite(e) else 0.0 for e in errors_l]
    ax.barh(y, values_w, height=0.6, color=COLOURS["win"], xerr=errors_w,
            error_kw={"ecolor": "#222222", "capsize": 3, "linewidth": 1}, label="X (on roll) wins")
    ax.barh(y, [-v for v in values_l], height=0.6, color=COLOURS["lose"], xerr=errors_l,
            error_kw={"ecolor": "#222222", "capsize": 3, "linewidth": 1}, label="X loses")
    for yy, v, e in zip(y, values_w, errors_w):
        ax.text(v + e + 0.015, yy, _percent(v), va="center", ha="left", fontsize=8)
    for yy, v, e in zip(y, values_l, errors_l):
        ax.text(-v - e - 0.015, yy, _percent(v), va="center", ha="right", fontsize=8)
    ax.axvline(0, color="#222222", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_xlim(-1.18, 1.18)
    ticks = np.linspace(-1, 1, 9)
    ax.set_xticks(ticks, [f"{abs(t) * 100:.0f}%" for t in ticks])
    ax.set_xlabel("← X loses            probability (bars: 95% intervals)            X wins →")
    equity = _number(row, "equity")
    low, high = _number(row, "equity_ci_low"), _number(row, "equity_ci_high")
    games = row.get("games")
    detail = f"equity {equity:+.3f} [{low:+.3f}, {high:+.3f}]" if math.isfinite(equity) else ""
    if games not in (None, ""):
        detail += f"{', ' if detail else ''}{int(float(games))} games"
    _heading(ax, title or _label(row, "rollout"), detail)
    ax.spines["left"].set_visible(False)
    ax.tick_params(axis="y", length=0)
    return figure


def equity_figure(rows: Sequence[dict], title: str | None = None) -> "Figure":
    """Each row's equity with its 95% interval, one line per position, in the rows' order."""
    return _styled(_equity_figure)(rows, title)


def _equity_figure(rows: Sequence[dict], title: str | None) -> "Figure":
    rows = [r for r in rows if math.isfinite(_number(r, "equity"))]
    height = 1.1 + 0.32 * max(len(rows), 1)
    figure = _figure(6.4, height)
    ax = figure.add_subplot()
    y = np.arange(len(rows))[::-1]
    equities = np.array([_number(r, "equity") for r in rows])
    lows = np.array([_number(r, "equity_ci_low") for r in rows])
    highs = np.array([_number(r, "equity_ci_high") for r in rows])
    lows = np.where(np.isfinite(lows), lows, equities)
    highs = np.where(np.isfinite(highs), highs, equities)
    ax.axvline(0, color="#888888", linewidth=0.8, zorder=0)
    ax.errorbar(equities, y, xerr=[equities - lows, highs - equities], fmt="o",
                color=COLOURS["accent"], ecolor=COLOURS["accent"], capsize=3, markersize=5,
                linewidth=1.2)
    ax.set_yticks(y, [_short(_label(r, f"#{i + 1}")) for i, r in enumerate(rows)])
    ax.set_xlabel("cubeless equity of the player on roll (95% interval)")
    span = max(0.25, float(np.nanmax(np.abs(np.concatenate([lows, highs])))) if len(rows) else 0.25)
    ax.set_xlim(-min(span * 1.1, 3.1), min(span * 1.1, 3.1))
    ax.set_ylim(-0.7, len(rows) - 0.3)
    _heading(ax, title or "Equity by position")
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    return figure


def _short(text: str, limit: int = 34) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def running_equity(equities: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(games, running mean, running standard error) of per-game equities; the SE is the
    sample standard deviation over √n (NaN for the first game)."""
    values = np.asarray(equities, dtype=float)
    n = np.arange(1, len(values) + 1)
    sums = np.cumsum(values)
    squares = np.cumsum(values**2)
    means = sums / n
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = (squares - sums**2 / n) / (n - 1)
        ses = np.sqrt(np.maximum(variance, 0.0) / n)
    ses[0] = math.nan
    return n, means, ses


_CURVE_POINTS = 400


def convergence_figure(equities: np.ndarray, title: str | None = None) -> "Figure":
    """The running equity after each game with a band of ± 2 standard errors, and the final
    value as a dashed line: how fast the rollout settled."""
    return _styled(_convergence_figure)(equities, title)


def _convergence_figure(equities: np.ndarray, title: str | None) -> "Figure":
    figure = _figure(6.4, 2.6)
    ax = figure.add_subplot()
    n, means, ses = running_equity(equities)
    if len(n) == 0:
        ax.text(0.5, 0.5, "no games", transform=ax.transAxes, ha="center")
        return figure
    low, high = means - 2 * ses, means + 2 * ses
    if len(n) > _CURVE_POINTS:  # a few hundred points draw the curve as well as thousands
        keep = np.unique(np.concatenate([np.linspace(0, len(n) - 1, _CURVE_POINTS).astype(int),
                                         np.arange(min(len(n), 50))]))
        n, means, ses, low, high = n[keep], means[keep], ses[keep], low[keep], high[keep]
    ax.fill_between(n[1:], low[1:], high[1:], color=COLOURS["accent"], alpha=0.18, linewidth=0,
                    label="± 2 SE")
    ax.plot(n, means, color=COLOURS["accent"], linewidth=1.3, label="running equity")
    ax.axhline(means[-1], color="#444444", linestyle="--", linewidth=0.8,
               label=f"final {means[-1]:+.3f}")
    # frame the settled part: from a tenth of the games on (at least the 10th game)
    settle = int(np.searchsorted(n, max(10, n[-1] // 10)))
    window = np.concatenate([low[settle:], high[settle:], means[settle:]])
    window = window[np.isfinite(window)]
    if len(window):
        pad = max(0.02, 0.1 * float(window.max() - window.min()))
        ax.set_ylim(float(window.min()) - pad, float(window.max()) + pad)
    ax.set_xlim(1, max(2, int(n[-1])))
    ax.set_xlabel("games played")
    ax.set_ylabel("equity")
    final_se = ses[-1]
    detail = (f"{means[-1]:+.3f} ± {final_se:.3f} (SE) after {int(n[-1])} games"
              if math.isfinite(final_se) else "")
    _heading(ax, title or "Rollout convergence", detail)
    ax.legend(loc="upper right", fontsize=7.5, frameon=False, ncols=3)
    ax.grid(color="#eeeeee", linewidth=0.6)
    ax.set_axisbelow(True)
    return figure


# ============================================================================ pips and race

def pips_figure(rows: Sequence[dict], title: str | None = None) -> "Figure":
    """Left: each position's pip counts (X on roll and O); right: the winning chances of the
    player on roll by Kleinman and Isight, beside the rollout's when the rows carry one.
    Rows are ``bgcli pips -f json`` rows (``bgcli batch`` rows carry the same fields)."""
    return _styled(_pips_figure)(rows, title)


def _pips_figure(rows: Sequence[dict], title: str | None) -> "Figure":
    rows = [r for r in rows if math.isfinite(_number(r, "pips_on_roll"))]
    height = 1.3 + 0.42 * max(len(rows), 1)
    figure = _figure(7.2, height)
    left, right = figure.subplots(1, 2, sharey=True, width_ratios=(1.35, 1))
    y = np.arange(len(rows))[::-1]
    mine = np.array([_number(r, "pips_on_roll") for r in rows])
    theirs = np.array([_number(r, "pips_opponent") for r in rows])
    bar = 0.38
    left.barh(y + bar / 2, mine, height=bar, color=COLOURS["x"], edgecolor=COLOURS["x_edge"],
              label="X (on roll)")
    left.barh(y - bar / 2, theirs, height=bar, color=COLOURS["o"], edgecolor=COLOURS["o"],
              label="O")
    for yy, a, b in zip(y, mine, theirs):
        left.text(max(a, b) + 3, yy, f"{int(b - a):+d}", va="center", fontsize=7.5,
                  color="#444444")
    left.set_yticks(y, [_short(_label(r, f"#{i + 1}"), 26) for i, r in enumerate(rows)])
    left.set_xlabel("pip count (label: O − X, X's lead)")
    left.set_xlim(0, max(10.0, float(np.nanmax(np.concatenate([mine, theirs]))) * 1.15
                  if len(rows) else 10.0))
    left.legend(loc="lower right", fontsize=7.5, frameon=False)
    _heading(left, title or "Pip counts and race")
    left.tick_params(axis="y", length=0)

    kleinman = np.array([_number(r, "kleinman_win_probability") for r in rows]) * 100
    isight = np.array([_number(r, "isight_gwc_percent") for r in rows])
    rollout = np.array([_number(r, "win") for r in rows]) * 100
    race = np.array([str(r.get("is_race")).lower() in ("true", "1", "yes") for r in rows])
    right.axvline(50, color="#bbbbbb", linewidth=0.8, zorder=0)
    right.scatter(kleinman, y, marker="s", s=22, color="#8a6d3b", label="Kleinman", zorder=3)
    right.scatter(isight, y, marker="^", s=26, color="#6b4e8a", label="Isight", zorder=3)
    if np.isfinite(rollout).any():
        right.scatter(rollout, y, marker="o", s=26, color=COLOURS["accent"], label="rollout",
                      zorder=4)
    for yy, is_race in zip(y, race):
        if not is_race:
            right.text(101, yy, "contact", va="center", fontsize=7, color="#888888")
    right.set_xlim(0, 118)
    right.set_xticks([0, 25, 50, 75, 100])
    right.set_xlabel("X's winning chances, %")
    right.legend(loc="lower left", fontsize=7, frameon=False, ncols=3,
                 bbox_to_anchor=(0, 1.0), borderaxespad=0.1)
    right.grid(axis="x", color="#eeeeee", linewidth=0.6)
    right.set_axisbelow(True)
    if len(rows):
        left.set_ylim(-0.7, len(rows) - 0.3)
    return figure



def best_plays_figure(rows: Sequence[dict], title: str | None = None) -> "Figure":
    """The candidate plays of ``bgcli best``: each one's equity with its 95% interval, best
    at the top, and the difference to the best with its 95% half-width (1.96 paired standard
    errors; the table shows the standard error itself) as labels."""
    return _styled(_best_plays_figure)(rows, title)


def _best_plays_figure(rows: Sequence[dict], title: str | None) -> "Figure":
    height = 1.2 + 0.34 * max(len(rows), 1)
    figure = _figure(6.4, height)
    ax = figure.add_subplot()
    y = np.arange(len(rows))[::-1]
    equities = np.array([_number(r, "equity") for r in rows])
    errors = np.array([Z95 * _number(r, "equity_se") for r in rows])
    errors = np.where(np.isfinite(errors), errors, 0.0)
    ax.errorbar(equities, y, xerr=errors, fmt="o", color=COLOURS["accent"],
                ecolor=COLOURS["accent"], capsize=3, markersize=5, linewidth=1.2)
    for yy, row, eq, err in zip(y, rows, equities, errors):
        difference, se = _number(row, "difference"), _number(row, "difference_se")
        if int(row.get("rank", 0)) != 1 and math.isfinite(difference):
            text = f"{difference:+.3f}" + (f" (95%: ±{Z95 * se:.3f})" if math.isfinite(se) else "")
            ax.text(eq + err + 0.01, yy, text, va="center", ha="left", fontsize=8)
    ax.set_yticks(y, [_short(str(r.get("play", "")), 28) for r in rows])
    ax.set_xlabel("cubeless equity after the play, mover's side (95% interval);\n"
                  "labels: difference to the best play, with its 95% interval")
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    low = float(np.nanmin(equities - errors)) if len(rows) else -0.1
    high = float(np.nanmax(equities + errors)) if len(rows) else 0.1
    pad = max(0.05, 0.15 * (high - low))
    ax.set_xlim(low - pad, high + 3 * pad)
    dice = rows[0].get("dice", "") if rows else ""
    _heading(ax, title or f"Best play for {dice}: {_label(rows[0]) if rows else ''}")
    return figure
