"""The rollout command."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..errors import BgcliError

from .common import (FormatOption, InputOption, announce_compiling, app, no_positions, report,
                     situations)
from .options import (BearoffTruncationOption, CheckerPliesOption, FilterOption, InitialOption,
                      MinGamesOption, PolicyOption, QuasiRandomOption, SeedOption,
                      StopSeOption, ThreadsOption, TrialsOption, TruncateOption,
                      VarianceReductionOption, filter_option, rollout_settings)
from .output import OutputFormat, emit, fits, plus_minus
from .progress import Progress

ROLLOUT_TABLE_COLUMNS = ["position_id", "Win", "W(g)", "W(bg)", "L(g)", "L(bg)", "Equity",
                         "games", "seed"]
# what a narrow terminal keeps first (the seed before the rarest rates: it reproduces the row)
ROLLOUT_TABLE_PRIORITY = ["position_id", "Equity", "Cubeful", "MWC", "Win", "W(g)", "L(g)", "games",
                          "seed", "W(bg)", "L(bg)"]
RATES = (("win", "Win"), ("win_gammon", "W(g)"), ("win_backgammon", "W(bg)"),
         ("lose_gammon", "L(g)"), ("lose_backgammon", "L(bg)"))


def _rollout_table_row(row: dict) -> dict:
    """gnubg-style columns for the table format: each rate with its standard error."""
    out = {"position_id": row["position_id"]}
    for name, label in (("win", "Win"), ("win_gammon", "W(g)"), ("win_backgammon", "W(bg)"),
                        ("lose_gammon", "L(g)"), ("lose_backgammon", "L(bg)"), ("equity", "Equity")):
        out[label] = plus_minus(row[name], row[f"{name}_se"], 4, signed=False)
    if "cubeful_equity" in row:
        out["Cubeful"] = plus_minus(row["cubeful_equity"], row["cubeful_equity_se"], 4, signed=False)
    if "cubeful_mwc" in row:
        out["MWC"] = plus_minus(row["cubeful_mwc"], row["cubeful_mwc_se"], 4, signed=False)
    out["games"] = row["games"] if not row["partial"] else f"{row['games']} (partial)"
    out["seed"] = row["seed"]
    return out


def _compact_rollout_row(row: dict) -> dict:
    """The table row for a narrow terminal: rates to 3 decimals without their standard
    errors (CSV and JSON have them), the equity with its own."""
    out = {"position_id": row["position_id"]}
    out.update({label: f"{row[name]:.3f}" for name, label in RATES})
    out["Equity"] = plus_minus(row["equity"], row["equity_se"])
    if "cubeful_equity" in row:
        out["Cubeful"] = plus_minus(row["cubeful_equity"], row["cubeful_equity_se"])
    if "cubeful_mwc" in row:
        out["MWC"] = plus_minus(row["cubeful_mwc"], row["cubeful_mwc_se"])
    out["games"] = row["games"] if not row["partial"] else f"{row['games']} (partial)"
    out["seed"] = row["seed"]
    return out


def _rollout_table(rows: list[dict]) -> list[dict]:
    """gnubg-style rows with every standard error, or compact ones where those do not fit."""
    full = [_rollout_table_row(row) for row in rows]
    return full if fits(full) else [_compact_rollout_row(row) for row in rows]


def _owner_on_roll(match) -> str:
    """The cube's owner seen from the player on roll: centred, on roll or opponent."""
    if match.cube_owner not in (0, 1):
        return "centred"
    return "on roll" if match.cube_owner == match.player_on_roll else "opponent"


class _RolloutProgress:
    """The games of one rollout on the progress display (``bgcli.cli.progress``); off a
    terminal a line at the first report, every ten seconds and at the end."""

    def __init__(self, label: str, total: int):
        self.label = label
        self.display = Progress(label, total)
        self.first = True

    def __call__(self, done: int, total: int, rate: float, equity: float, se: float) -> None:
        status = f"{rate:,.0f} games/s  equity {plus_minus(equity, se, 4)}"
        self.display.update(done, status, f"{self.label}: {done}/{total} games, {status}",
                            force=self.first or done == total)
        self.first = False

    def close(self) -> None:
        self.display.close()


def _roll_all(positions, input_file, settings) -> tuple[list[dict], int, bool]:
    """Roll every position out: (rows, positions that failed, interrupted). A Ctrl-C or SIGTERM
    stops after the position in flight, whose row is kept (marked partial if games are missing)."""
    from ..decisions import match_score
    from ..rollout import check_match_score, rollout as run_rollout

    rows, failed = [], 0
    announce_compiling()
    for raw, situation, error in situations(positions, input_file):
        if error is not None:
            report(raw.label, error)
            failed += 1
            continue
        score = match_score(situation)
        if settings.cubeful and score is not None:
            try:
                check_match_score(score, _owner_on_roll(situation.match))
            except BgcliError as exc:
                report(raw.label, exc)
                failed += 1
                continue
        progress = _RolloutProgress(raw.text, settings.trials)
        try:
            result = run_rollout(situation.position, settings, progress,
                                 cube_owner=_owner_on_roll(situation.match),
                                 jacoby=situation.match.jacoby, score=score)
        except KeyboardInterrupt:  # before the first games were done
            return rows, failed, True
        finally:
            progress.close()
        rows.append({"input": raw.text} | result.row())
        if result.interrupted:  # also when the stop came in the last games
            return rows, failed, True
    return rows, failed, False


@app.command()
def rollout(
    positions: Optional[List[str]] = typer.Argument(None, help="Positions; '-' reads stdin."),
    input_file: Optional[Path] = InputOption,
    trials: Optional[int] = TrialsOption,
    seed: Optional[int] = SeedOption,
    threads: Optional[int] = ThreadsOption,
    truncate: Optional[int] = TruncateOption,
    variance_reduction: Optional[bool] = VarianceReductionOption,
    quasi_random: Optional[bool] = QuasiRandomOption,
    bearoff_truncation: Optional[bool] = BearoffTruncationOption,
    cubeful: bool = typer.Option(False, "--cubeful", help="Make cube decisions inside the games (Janowski's model on the evaluator) and add the cubeful equity, in units of the cube at the start; the cube's owner and the Jacoby rule come from the Match ID or XGID. At a match score: the match's cube decisions (no doubling in the Crawford game), each game scored in match winning chances (cubeful_mwc) and the equity in EMG."),
    initial: Optional[bool] = InitialOption,
    stop_se: Optional[float] = StopSeOption,
    min_games: Optional[int] = MinGamesOption,
    policy: str = PolicyOption,
    checker_plies: Optional[int] = CheckerPliesOption,
    move_filter: Optional[str] = FilterOption,
    fmt: OutputFormat = FormatOption,
) -> None:
    """Monte Carlo rollout: Win, W(g), W(bg), L(g), L(bg) and cubeless equity for the player on roll, each with its standard error; every row carries the settings (seed included) that reproduce it.

    Example:  bgcli rollout 4HPwATDgc/ABMA --trials 1296 --seed 1 --checker-plies 1
    """
    move_filter = None if move_filter is None else filter_option(move_filter)
    settings = rollout_settings(
        trials=trials, seed=seed, policy=policy, truncate=truncate,
        variance_reduction=variance_reduction, quasi_random=quasi_random,
        bearoff_truncation=bearoff_truncation, cubeful=cubeful, initial=initial,
        stop_se=stop_se, min_games=min_games, threads=threads, checker_plies=checker_plies,
        move_filter=move_filter).with_seed()
    rows, failed, interrupted = _roll_all(positions, input_file, settings)
    if not rows and not failed and not interrupted:
        raise no_positions(positions, input_file)
    if fmt == OutputFormat.table:
        emit(_rollout_table(rows), fmt, priority=ROLLOUT_TABLE_PRIORITY)
    else:
        emit(rows, fmt)
    if interrupted:
        last = "the last row is partial" if rows and rows[-1]["partial"] else "the rows given are complete"
        typer.echo(f"bgcli: interrupted: {last}", err=True)
        raise typer.Exit(130)
    if failed:
        raise typer.Exit(1)
