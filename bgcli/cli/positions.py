"""Commands about one position at a time: show, pips, moves, convert."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import List, Optional

import typer

from .common import (FormatOption, InputOption, announce_compiling, app, dice_for,
                     no_positions, parse_dice_option, report, situations)
from .output import OutputFormat, emit


class Notation(str, enum.Enum):
    gnubg = "gnubg"
    xgid = "xgid"
    posid = "posid"


@app.command()
def show(
    position: str = typer.Argument(..., help="A Position ID, POSITIONID:MATCHID or XGID."),
    dice: Optional[str] = typer.Option(None, "--dice", "-d", help="Show these dice, e.g. 31."),
    fmt: OutputFormat = FormatOption,
) -> None:
    """Draw the board with pip counts, cube, score and the gnubg and XG IDs.

    Example:  bgcli show 4HPwATDgc/ABMA:cAkAAAAAAAAE
    """
    from ..display import render_board
    from ..notation.detect import parse_situation

    rolled = parse_dice_option(dice)
    situation = parse_situation(position)
    if rolled is not None:
        situation = situation.with_dice(rolled)
    if fmt == OutputFormat.table:
        typer.echo(render_board(situation))
        return
    match = situation.match
    pips_on_roll, pips_opponent = situation.position.pips()
    off_on_roll, off_opponent = situation.position.borne_off()
    emit([{
        "position_id": situation.position_id,
        "match_id": situation.match_id,
        "xgid": situation.xgid,
        "pips_on_roll": pips_on_roll,
        "pips_opponent": pips_opponent,
        "borne_off_on_roll": off_on_roll,
        "borne_off_opponent": off_opponent,
        "player_on_roll": match.player_on_roll,
        "cube_value": match.cube_value,
        "cube_owner": "centred" if match.cube_owner == 3 else match.cube_owner,
        "dice": f"{match.dice[0]}{match.dice[1]}" if match.dice_rolled else "",
        "match_length": match.match_length,
        "score_0": match.score[0],
        "score_1": match.score[1],
        "crawford": match.crawford,
        "jacoby": match.jacoby,
        "board_on_roll": " ".join(map(str, situation.position.board[1].tolist())),
        "board_opponent": " ".join(map(str, situation.position.board[0].tolist())),
    }], fmt)


# the table's columns, short headers for the fields (CSV and JSON keep the field names)
PIPS_TABLE_COLUMNS = {
    "position_id": "position_id", "race": "is_race", "pips": "pips_on_roll",
    "opp_pips": "pips_opponent", "lead": "pip_difference", "Keith": "keith_verdict",
    "Thorp": "thorp_verdict", "8-9-12": "eight_nine_twelve_verdict", "Isight": "isight_verdict",
    "Kleinman": "kleinman_win_probability", "EPC": "epc_on_roll", "opp_EPC": "epc_opponent",
    "exact_win": "race_win_exact",
}
# what a narrow terminal keeps first: the counts, then the verdicts players quote most
PIPS_TABLE_PRIORITY = ["position_id", "pips", "opp_pips", "lead", "race", "Kleinman", "Keith",
                       "exact_win", "Thorp", "EPC", "opp_EPC", "Isight", "8-9-12"]


@app.command()
def pips(
    positions: Optional[List[str]] = typer.Argument(None, help="Positions; '-' reads stdin."),
    input_file: Optional[Path] = InputOption,
    fmt: OutputFormat = FormatOption,
) -> None:
    """Pip counts and race metrics (Keith, Thorp, 8-9-12, Kleinman, Isight), one row per position, with gnubg's verdicts. The player on roll is gnubg's "leader". With every checker of a side home: its effective pip count and wastage from the one-sided bear-off database; with both sides home: the exact race odds.

    Example:  bgcli pips 4HPwATDgc/ABMA -f csv
    """
    from ..bearoff import bearoff_metrics
    from ..race import race_metrics

    rows, failed = [], 0
    for raw, situation, error in situations(positions, input_file):
        if error is not None:
            report(raw.label, error)
            failed += 1
            continue
        row = {"input": raw.text, "position_id": situation.position_id}
        # gnubg computes in single precision: 4 decimals hold every digit that means anything
        row.update({key: round(value, 4) if isinstance(value, float) else value
                    for key, value in race_metrics(situation.position).items()})
        row.update({key: round(value, 4) if isinstance(value, float) else value
                    for key, value in bearoff_metrics(situation.position).items()})
        rows.append(row)
    if not rows and not failed:
        raise no_positions(positions, input_file)
    if fmt == OutputFormat.table:
        emit([{label: row.get(key) for label, key in PIPS_TABLE_COLUMNS.items()} for row in rows],
             fmt, priority=PIPS_TABLE_PRIORITY)
    else:
        emit(rows, fmt)
    if failed:
        raise typer.Exit(1)


@app.command()
def moves(
    position: str = typer.Argument(..., help="A Position ID, POSITIONID:MATCHID or XGID."),
    dice: Optional[str] = typer.Argument(None, help="The roll, e.g. 31 or 3-1; optional when the "
                                         "Match ID or XGID holds rolled dice (given, it "
                                         "replaces them, with a note on stderr)."),
    fmt: OutputFormat = FormatOption,
) -> None:
    """Every legal play for a roll, in gnubg's notation, with the resulting position (the opponent then on roll, as gnubg shows it).

    Example:  bgcli moves 4HPwATDgc/ABMA 31
    """
    from dataclasses import replace

    from ..moves import legal_plays
    from ..notation.detect import parse_situation
    from ..notation.situation import Situation

    situation = parse_situation(position)
    rolled = dice_for(situation, dice)
    after_match = replace(situation.match, dice=(0, 0), double_offered=False,
                          player_on_roll=1 - situation.match.player_on_roll,
                          turn=1 - situation.match.player_on_roll)
    rows = []
    announce_compiling("moves")
    for number, play in enumerate(legal_plays(situation.position, rolled), start=1):
        after = Situation(play.result.swapped(), after_match)
        rows.append({"play": number, "move": play.notation, "result_id": after.gnubg_id,
                     "result_position_id": after.position_id})
    if not rows:
        rows.append({"play": 0, "move": "(no legal play)",
                     "result_id": Situation(situation.position.swapped(), after_match).gnubg_id,
                     "result_position_id": situation.position.swapped().position_id()})
    emit(rows, fmt)


@app.command()
def convert(
    positions: Optional[List[str]] = typer.Argument(None, help="Positions; '-' reads stdin."),
    to: Notation = typer.Option(Notation.xgid, "--to", "-t",
                                help="gnubg (POSID:MATCHID), xgid, or posid (Position ID only)."),
    input_file: Optional[Path] = InputOption,
    fmt: OutputFormat = FormatOption,
) -> None:
    """Convert positions between gnubg IDs and XGID. Table format prints bare IDs, one per line.

    Example:  bgcli convert 4HPwATDgc/ABMA:cAkAAAAAAAAE --to xgid
    """
    rows, failed = [], 0
    for raw, situation, error in situations(positions, input_file):
        if error is not None:
            report(raw.label, error)
            failed += 1
            continue
        converted = {Notation.gnubg: situation.gnubg_id, Notation.xgid: situation.xgid,
                     Notation.posid: situation.position_id}[to]
        rows.append({"input": raw.text, "output": converted})
    if not rows and not failed:
        raise no_positions(positions, input_file)
    if fmt == OutputFormat.table:
        for row in rows:
            typer.echo(row["output"])
    else:
        emit(rows, fmt)
    if failed:
        raise typer.Exit(1)
