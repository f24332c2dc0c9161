"""The decision commands: best (which play for a roll), cube (which cube action) and match
(match equities)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import typer

from ..errors import BgcliError, OutputError
from .common import FormatOption, announce_compiling, app, check_writable, dice_for
from .output import OutputFormat, emit, plus_minus
from .options import (BearoffTruncationOption, DecisionPliesOption, FilterOption, PolicyOption,
                      QuasiRandomOption, SeedOption, ThreadsOption, TrialsOption,
                      TruncateOption, VarianceReductionOption, filter_option, rollout_settings)
from .rollout import _RolloutProgress

PositionArgument = typer.Argument(..., help="A Position ID, POSITIONID:MATCHID or XGID.")


def _settings(trials, seed, threads, truncate, variance_reduction, quasi_random,
              bearoff_truncation, policy, cubeful: bool = False):
    """The rollout settings of best and cube, seeded; checked as the rollouts will run
    (cubeful ones refuse variance reduction), though a cubeful cube decision sets cubeful
    itself."""
    return rollout_settings(trials=trials, seed=seed, threads=threads, truncate=truncate,
                            variance_reduction=variance_reduction, quasi_random=quasi_random,
                            bearoff_truncation=bearoff_truncation, policy=policy,
                            cubeful=cubeful).with_seed()


def _settings_columns(settings, policy: str = "net", plies: int | None = None,
                      move_filter: str | None = None) -> dict:
    """The settings behind a result: the rollout's, or with none the evaluator's (``plies``
    of lookahead, where the evaluator ranked or decided, and the ``move_filter`` that
    ranked the plays)."""
    from .. import __version__
    from ..evaluation import policy_net

    evaluator = {} if plies is None else {"plies": plies}
    if move_filter is not None:
        evaluator["move_filter"] = move_filter
    if settings is None:
        return {"policy": policy, "trials": 0} | evaluator \
            | {"net": policy_net(policy), "bgcli_version": __version__}
    return {"trials": settings.trials, "seed": settings.seed, "policy": settings.policy,
            "truncate": settings.truncate, "variance_reduction": settings.variance_reduction,
            "quasi_random": settings.quasi_random,
            "bearoff_truncation": settings.bearoff_truncation} | evaluator \
        | {"net": policy_net(settings.policy), "bgcli_version": __version__}


def _best_table_row(row: dict) -> dict:
    out = {"#": row["rank"], "Play": row["play"],
           "Equity": plus_minus(row["equity"], row["equity_se"]),
           "Diff": "" if row["rank"] == 1 else plus_minus(row["difference"], row["difference_se"])}
    if row.get("mwc") is not None:  # at a match score: EMG, and the MWC beside it
        out = {"#": out["#"], "Play": out["Play"], "EMG": out["Equity"],
               "MWC": _percent_pm(row["mwc"], row["mwc_se"]), "Diff": out["Diff"]}
    for name, label in (("win", "Win"), ("win_gammon", "W(g)"), ("win_backgammon", "W(bg)"),
                        ("lose_gammon", "L(g)"), ("lose_backgammon", "L(bg)")):
        out[label] = f"{row[name]:.3f}"
    out["games"] = row["games"] or "eval"
    return out


@app.command()
def best(
    position: str = PositionArgument,
    dice: Optional[str] = typer.Argument(None, help="The roll, e.g. 31; optional when the Match ID or XGID holds rolled dice (given, it replaces them, with a note on stderr)."),
    candidates: int = typer.Option(5, "--candidates", "-c", min=1, help="How many of the evaluator's best plays to roll out."),
    evaluate_only: bool = typer.Option(False, "--evaluate-only", help="No rollouts: every legal play ranked by the evaluator."),
    plies: int = DecisionPliesOption,
    move_filter: Optional[str] = FilterOption,
    chart: Optional[Path] = typer.Option(None, "--chart", help="Also draw the candidates' equities with 95% intervals to this .png or .svg file."),
    trials: Optional[int] = TrialsOption,
    seed: Optional[int] = SeedOption,
    threads: Optional[int] = ThreadsOption,
    truncate: Optional[int] = TruncateOption,
    variance_reduction: Optional[bool] = VarianceReductionOption,
    quasi_random: Optional[bool] = QuasiRandomOption,
    bearoff_truncation: Optional[bool] = BearoffTruncationOption,
    policy: str = PolicyOption,
    fmt: OutputFormat = FormatOption,
) -> None:
    """The best play for a roll: every legal play ranked by the evaluator (2-ply through gnubg's normal move filter by default), then the top candidates rolled out with the same dice for each (common random numbers); equity, difference to the best with its standard error, and the five rates from the mover's side. At a match score (Match ID or XGID) plays are ranked in cubeless match winning chances, equities in EMG with the MWC beside them.

    Example:  bgcli best 4HPwATDgc/ABMA 21 --candidates 4 --trials 1296 --seed 1
    """
    from ..decisions import best_plays, match_score
    from ..notation.detect import parse_situation

    if chart is not None:
        check_writable(chart, "--chart", (".png", ".svg"))
    move_filter = filter_option(move_filter)
    situation = parse_situation(position)
    rolled = dice_for(situation, dice)
    settings = None if evaluate_only else _settings(trials, seed, threads, truncate,
                                                     variance_reduction, quasi_random,
                                                     bearoff_truncation, policy)
    bars: list[_RolloutProgress] = []

    def progress_for(k: int, n: int, play: str):
        bars.append(_RolloutProgress(f"{k + 1}/{n} {play}", settings.trials))
        bar = bars[-1]
        # the rollout runs from the opponent's side: show the mover's equity, as the table does
        return lambda done, total, rate, equity, se: bar(done, total, rate, -equity, se)

    announce_compiling("evaluator" if settings is None else "rollout")
    try:
        result = best_plays(situation.position, tuple(rolled), candidates, settings, progress_for,
                            policy=policy, plies=plies, score=match_score(situation),
                            move_filter=move_filter)
    finally:
        for bar in bars:
            bar.close()
    common = {"position_id": result.position_id, "dice": f"{rolled[0]}{rolled[1]}",
              "legal_plays": result.legal_plays, "score": result.score_name} \
        | _settings_columns(result.settings, policy, plies, move_filter)
    rows = [common | c.row() for c in result.candidates]
    if not rows:
        typer.echo(f"bgcli: no legal play for {rolled[0]}{rolled[1]}", err=True)
    emit([_best_table_row(r) for r in rows] if fmt == OutputFormat.table else rows, fmt)
    if fmt == OutputFormat.table and result.score is not None and rows:
        typer.echo(f"bgcli best: at {result.score_name}: plays ranked by cubeless match winning "
                   f"chances; EMG is gnubg's normalised match equity", err=True)
    if chart is not None and rows:  # after the rows: a chart that fails loses no result
        from ..report.charts import best_plays_figure, save

        try:
            save(best_plays_figure(rows), chart)
        except OSError as exc:
            raise OutputError(f"cannot write {str(chart)!r}: {exc.strerror or exc}") from None
    if result.partial:
        typer.echo("bgcli: interrupted: the rollouts are partial", err=True)
        raise typer.Exit(130)


def _percent_pm(value, se) -> str:
    """An MWC in percent, with its standard error when there is one."""
    text = f"{100 * value:.2f}%"
    return text if se is None or math.isnan(se) else f"{text} ±{100 * se:.2f}%"


def _percent(value) -> str:
    return "" if value is None else f"{100 * value:.2f}%"


def _cube_table(row: dict) -> list[dict]:
    lines = [("Proper action", row["cube_action"]),
             ("No double", plus_minus(row["no_double"], row.get("no_double_se"))),
             ("Double, take", plus_minus(row["double_take"], row.get("double_take_se"))),
             ("Double, pass", plus_minus(row["double_pass"], None)),
             ("Cubeless equity", plus_minus(row["cubeless_equity"], row.get("cubeless_equity_se")))]
    if "cubeless_mwc" in row:  # at a match score: the same in match winning chances
        lines += [("Cubeless MWC", _percent(row["cubeless_mwc"])),
                  ("No double MWC", _percent_pm(row["no_double_mwc"], row.get("no_double_mwc_se"))),
                  ("Double, take MWC", "" if row["double_take_mwc"] is None else _percent_pm(
                      row["double_take_mwc"], row.get("double_take_mwc_se"))),
                  ("Double, pass MWC", _percent(row["double_pass_mwc"]))]
    lines += [("Take point", "" if row.get("take_point") is None
                              else f"{row['take_point']:.1%} (opponent's winning chance)"),
             ("Win W(g) W(bg) L(g) L(bg)", " ".join(f"{row[k]:.3f}" for k in (
                 "win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"))),
             ("Cube", f"{row['cube_value']} ({row['cube_owner']}), {row['score']}"
              + (", Jacoby" if row["jacoby"] else "")),
             ("Cube efficiency", f"{row['cube_efficiency']:.3f}"),
             ("From", row["source"])]
    return [{"": k, "value": v} for k, v in lines]


@app.command()
def cube(
    position: str = PositionArgument,
    rollout: bool = typer.Option(False, "--rollout", "-r", help="Take the probabilities from a cubeless rollout instead of the evaluator."),
    cubeful: bool = typer.Option(False, "--cubeful", help="Roll out No double and Double/take cubefully (cube decisions inside the games, same dice for both) instead of applying Janowski's model to cubeless rates; at a match score in match winning chances, with the Crawford rule."),
    jacoby: Optional[bool] = typer.Option(None, "--jacoby/--no-jacoby", help="Money play: gammons count only once the cube is turned (default: as the Match ID says; off for a bare Position ID)."),
    efficiency: Optional[float] = typer.Option(None, "--efficiency", min=0.0, max=1.0, help="Cube efficiency x of Janowski's model (default: gnubg's by position class: 0.68 contact, 0.6-0.7 race by pips, 0.6 bear-off)."),
    plies: int = DecisionPliesOption,
    trials: Optional[int] = TrialsOption,
    seed: Optional[int] = SeedOption,
    threads: Optional[int] = ThreadsOption,
    truncate: Optional[int] = TruncateOption,
    variance_reduction: Optional[bool] = VarianceReductionOption,
    quasi_random: Optional[bool] = QuasiRandomOption,
    bearoff_truncation: Optional[bool] = BearoffTruncationOption,
    policy: str = PolicyOption,
    fmt: OutputFormat = FormatOption,
) -> None:
    """Cube action for the player on roll, before rolling: No double / Double, take / Double, pass equities and the proper action in gnubg's words, at the cube and score of the Match ID or XGID (money by default), from the evaluator or a rollout.

    Example:  bgcli cube 'XGID=-a----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10' --rollout --trials 1296 --seed 1
    """
    if cubeful and efficiency is not None:
        raise typer.BadParameter("--efficiency applies to Janowski's model on cubeless rates, "
                                 "not to --cubeful rollouts", param_hint="--efficiency")
    from ..analysis import evaluator_rates, rollout_rates
    from ..decisions import cube_decision
    from ..notation.detect import parse_situation

    situation = parse_situation(position)
    if situation.match.dice_rolled:
        raise typer.BadParameter("the dice are already rolled: a cube decision comes before "
                                 "the roll", param_hint="POSITION")
    settings = None
    if rollout or cubeful:
        settings = _settings(trials, seed, threads, truncate, variance_reduction, quasi_random,
                             bearoff_truncation, policy, cubeful=cubeful)
    announce_compiling("evaluator" if settings is None else "rollout")
    if cubeful:
        decision = _cubeful_decision(situation, settings, jacoby)
        extra = {"source": f"cubeful rollouts, {settings.trials} games each"}
        extra |= _settings_columns(settings) | {"cubeful": True}
    elif rollout:
        bar = _RolloutProgress(position, settings.trials)
        try:
            rates = rollout_rates(situation.position, settings, bar, keep_partial=True)
        finally:
            bar.close()
        result = rates.result
        decision = cube_decision(situation, rates.probabilities, jacoby, efficiency)
        extra = {"source": f"rollout, {result.games} games"
                 + (" (partial)" if result.partial else ""),
                 "cubeless_equity_se": result.equity_se, "games": result.games}
        extra |= _settings_columns(settings)
    else:
        rates = evaluator_rates(situation, policy, plies)
        decision = cube_decision(situation, rates.probabilities, jacoby, efficiency)
        extra = {"source": f"evaluator ({policy}, {plies}-ply)"} \
            | _settings_columns(None, policy, plies)
    row = {"position_id": situation.position_id, "match_id": situation.match_id} \
        | decision.row() | extra
    emit(_cube_table(row) if fmt == OutputFormat.table else [row], fmt)


def _cubeful_decision(situation, settings, jacoby):
    """``cubeful_cube_decision`` with a progress bar for each of its two rollouts."""
    from ..decisions import cubeful_cube_decision

    bars: list[_RolloutProgress] = []

    def progress_for(label: str):
        bars.append(_RolloutProgress(label, settings.trials))
        return bars[-1]

    try:
        return cubeful_cube_decision(situation, settings, jacoby, progress_for)
    finally:
        for bar in bars:
            bar.close()


# a normalised equity is in cubes: a backgammon won or lost is 3 of them
MAX_NORMALISED_EQUITY = 3.0


def _check_equity(met, equity: float, away_me: int, away_them: int, cube: int,
                  crawford: bool) -> None:
    """Refuse an --equity that no game can have at this score: not finite, beyond a
    backgammon (3 cubes), or past the MWC of 0 or 1 the table gives at this score."""
    low, high = -MAX_NORMALISED_EQUITY, MAX_NORMALISED_EQUITY
    try:
        low = max(low, met.mwc_to_equity(0.0, away_me, away_them, cube, crawford))
        high = min(high, met.mwc_to_equity(1.0, away_me, away_them, cube, crawford))
    except BgcliError:  # winning and losing the cube give the same MWC: any equity maps alike
        pass
    if not (math.isfinite(equity) and low <= equity <= high):
        raise typer.BadParameter(f"the normalised equity must be a number from {low:+.4f} to "
                                 f"{high:+.4f} at {away_me}-away, {away_them}-away with the cube "
                                 f"at {cube} (at most a backgammon either way, MWC 0 to 1), "
                                 f"not {equity}", param_hint="--equity")


def _emit_match_table(met, size: int, crawford: bool, fmt: OutputFormat) -> None:
    """The MET up to ``size``-away, rows the player on roll. Cells with a side 1-away are not
    pre-Crawford: they hold the game ``crawford`` names, and every row says which (in the
    table format a note on stderr does)."""
    phase = "Crawford" if crawford else "post-Crawford"
    rows = [{"on_roll_away": me}
            | {f"opponent_{them}_away": round(met.mwc(me, them, crawford and 1 in (me, them)), 4)
               for them in range(1, size + 1)}
            | {"one_away_phase": phase}
            for me in range(1, size + 1)]
    if fmt == OutputFormat.table:
        # the phase would repeat on every row: one note instead (stderr: stdout is data)
        columns = [c for c in rows[0] if c != "one_away_phase"]
        emit(rows, fmt, columns)
        typer.echo(f"bgcli match: MWC of the player on roll at the start of a game; a side "
                   f"1-away (row or column 1): the {phase} game"
                   + ("" if crawford else " (--crawford: the Crawford game)"), err=True)
    else:
        emit(rows, fmt)


@app.command("match")
def match_table(
    away_me: Optional[int] = typer.Argument(None, min=1, max=25, help="Points the player on roll still needs (1..25, the table's size)."),
    away_them: Optional[int] = typer.Argument(None, min=1, max=25, help="Points the opponent still needs (1..25)."),
    crawford: bool = typer.Option(False, "--crawford", help="This game is the Crawford game (a side is 1-away, no doubling); with --table, the 1-away row and column are the Crawford game."),
    cube: int = typer.Option(1, "--cube", min=1, help="Cube value for gammon values and equity <-> MWC."),
    equity: Optional[float] = typer.Option(None, "--equity", help="Also convert this normalised equity to MWC."),
    mwc: Optional[float] = typer.Option(None, "--mwc", min=0.0, max=1.0, help="Also convert this MWC to normalised equity."),
    table: Optional[int] = typer.Option(None, "--table", min=1, max=25, help="Print the table up to this many away: the MWC of the player on roll, one row per on_roll_away, against the opponent, one column per opponent_N_away, at the start of a game. A cell with a side 1-away is a post-Crawford game, or with --crawford the Crawford game (the one_away_phase column says which)."),
    fmt: OutputFormat = FormatOption,
) -> None:
    """Match equity (Kazaross-XG2, gnubg's default table): match winning chances at a score, after winning or losing the cube, gammon values, and equity <-> MWC; or the whole table.

    Example:  bgcli match 3 5 --cube 2 --equity 0.25
    """
    from ..match import kazaross_xg2

    met = kazaross_xg2()
    if table is not None:
        _emit_match_table(met, table, crawford, fmt)
        return
    if away_me is None or away_them is None:
        raise typer.BadParameter("give both away scores, e.g. 3 5, or --table N")
    if cube & (cube - 1):
        raise typer.BadParameter(f"the cube is a power of two, not {cube}", param_hint="--cube")
    post_crawford = not crawford and 1 in (away_me, away_them)
    phase = "Crawford" if crawford else "post-Crawford" if post_crawford else "pre-Crawford"
    values = met.gammon_values(away_me, away_them, cube)
    row = {"away_me": away_me, "away_them": away_them, "phase": phase, "cube": cube,
           "mwc": met.mwc(away_me, away_them, crawford),
           "mwc_win_cube": met.mwc_after(away_me, away_them, cube, True, crawford),
           "mwc_lose_cube": met.mwc_after(away_me, away_them, cube, False, crawford),
           "gammon_value_me": values.my_gammon, "gammon_value_them": values.their_gammon,
           "backgammon_value_me": values.my_backgammon,
           "backgammon_value_them": values.their_backgammon}
    if equity is not None:
        _check_equity(met, equity, away_me, away_them, cube, crawford)
        row["equity"] = equity
        row["mwc_of_equity"] = met.equity_to_mwc(equity, away_me, away_them, cube, crawford)
    if mwc is not None:
        row["mwc_given"] = mwc
        row["equity_of_mwc"] = met.mwc_to_equity(mwc, away_me, away_them, cube, crawford)
    if fmt == OutputFormat.table:
        emit([{"": k, "value": f"{v:.4f}" if isinstance(v, float) else v} for k, v in row.items()], fmt)
    else:
        emit([row], fmt)
