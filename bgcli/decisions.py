"""Decisions: the best play for a roll, and the cube action.

Best play (:func:`best_plays`): every legal play is ranked by the evaluator; the top
``candidates`` are then rolled out from the position after each play, all with the same seed,
so trial *i* of every candidate is played with the same dice (common random numbers). The
difference between two candidates is then measured game by game, and its standard error is
that of the paired differences: far smaller than the equities' own.

At a match score (a :class:`bgcli.match.MatchScore`) plays are ranked, and their rollouts
scored, in cubeless match winning chances: MWC is linear in the five cumulative rates, so a
play's value is ``c[0] + c[1:] . rates`` with the score's coefficients (money's are
``-1, 2, 1, 1, -1, -1``). Equities are then gnubg's normalised match equity (EMG), with the MWC
beside them.

Cube action (:func:`cube_decision`): the cubeless probabilities (from the evaluator or a
rollout) go through Janowski's cube-life model, as gnubg does at 0-ply
(:mod:`bgcli.cube` for money, with the Kazaross-XG2 table for matches), at the cube value,
owner and score the Match ID or XGID gives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from .errors import BgcliError
from .evaluation import RankedPlay, cubeless_equity, flipped, rank_plays
from .match import MONEY_COEFFICIENTS, MatchScore, kazaross_xg2
from .notation.situation import Situation
from .position import Position
from .rollout import OUTPUT_NAMES, RolloutResult, RolloutSettings, rollout

def match_score(situation: Situation) -> MatchScore | None:
    """The score of ``situation`` from the player on roll, with its cube; None for money."""
    state = situation.match
    if state.is_money:
        return None
    me, them = state.player_on_roll, 1 - state.player_on_roll
    return MatchScore(state.match_length - state.score[me], state.match_length - state.score[them],
                      state.crawford, state.cube_value)


def play_coefficients(score: MatchScore | None) -> np.ndarray:
    """The linear value of a play's five rates (mover's side) that plays are ranked by:
    cubeless money equity, or at ``score`` gnubg's normalised match equity (EMG). The
    opponent's, for a lookahead: ``play_coefficients(score.swapped())`` (money: the same)."""
    if score is None:
        return np.array(MONEY_COEFFICIENTS)
    return np.array(score.equity_coefficients(kazaross_xg2()))


def rank_plays_at(position: Position, dice: tuple[int, int], policy: str = "net",
                  plies: int = 0, score: MatchScore | None = None,
                  move_filter=None, replies: bool = False) -> list[RankedPlay]:
    """``rank_plays`` by the score's values: cubeless money equity, or at a match ``score``
    gnubg's normalised match equity (EMG), the mover's for its plays and the opponent's
    for its replies in the lookahead, each play's ``equity`` then being its EMG.
    ``replies``: keep each play's per-roll terms (``RankedPlay.replies``)."""
    if score is None:
        return rank_plays(position, dice, policy, plies, move_filter, replies=replies)
    values = np.stack([play_coefficients(score), play_coefficients(score.swapped())])
    ranked = rank_plays(position, dice, policy, plies, move_filter, values, replies=replies)
    return [replace(r, equity=r.value) for r in ranked]


@dataclass
class Candidate:
    """One play of :func:`best_plays`, rolled out or only evaluated (``games`` 0)."""

    rank: int
    play: str
    result_id: str
    evaluator_equity: float
    probabilities: np.ndarray  # the mover's five rates: rollout means, else the evaluator's
    standard_errors: np.ndarray
    equity: float
    equity_se: float
    difference: float = 0.0  # equity minus the best candidate's
    difference_se: float = 0.0
    games: int = 0
    # at a match score (equities are then EMG): the same in match winning chances
    mwc: float | None = None
    mwc_se: float | None = None
    mwc_difference: float | None = None
    mwc_difference_se: float | None = None
    evaluator_plies: int = 0  # the depth the evaluator reached (the filter may stop it early)

    def row(self) -> dict:
        row = {"rank": self.rank, "play": self.play, "equity": self.equity,
               "equity_se": self.equity_se, "difference": self.difference,
               "difference_se": self.difference_se}
        if self.mwc is not None:
            row.update(mwc=self.mwc, mwc_se=self.mwc_se, mwc_difference=self.mwc_difference,
                       mwc_difference_se=self.mwc_difference_se)
        for name, mean, se in zip(OUTPUT_NAMES, self.probabilities, self.standard_errors):
            row[name] = float(mean)
            row[f"{name}_se"] = float(se)
        row.update(evaluator_equity=self.evaluator_equity,
                   evaluator_plies=self.evaluator_plies, games=self.games,
                   result_id=self.result_id)
        return row


@dataclass
class BestPlays:
    position_id: str
    dice: tuple[int, int]
    candidates: list[Candidate]
    legal_plays: int
    settings: RolloutSettings | None  # None when nothing was rolled out
    partial: bool = False
    score: MatchScore | None = None  # None: money play

    @property
    def score_name(self) -> str:
        return "money" if self.score is None else self.score.name


def _evaluated(rank: int, ranked: RankedPlay) -> Candidate:
    return Candidate(rank=rank, play=ranked.play.notation,
                     result_id=ranked.play.result.swapped().position_id(),
                     evaluator_equity=ranked.equity, probabilities=ranked.probabilities,
                     standard_errors=np.full(5, math.nan), equity=ranked.equity,
                     equity_se=math.nan, evaluator_plies=ranked.plies)


def best_plays(position: Position, dice: tuple[int, int], candidates: int = 5,
               settings: RolloutSettings | None = RolloutSettings(),
               progress_for: Callable[[int, int, str], Callable | None] | None = None,
               policy: str = "net", plies: int = 0,
               score: MatchScore | None = None, move_filter=None) -> BestPlays:
    """Rank every play of ``dice`` by the evaluator (``settings.policy``) at ``plies`` of
    lookahead through ``move_filter`` (``bgcli.search``; None: gnubg's normal), then roll
    out the best ``candidates`` with common random numbers (``settings`` None: evaluation
    only by ``policy``, every play listed).
    ``progress_for(k, n, play)`` may return a rollout progress callback. At a match
    ``score`` plays are ranked and rolled out in cubeless MWC, equities given in EMG (the
    rollouts' games are still played by cubeless money checker play)."""
    policy = settings.policy if settings is not None else policy
    ranked = rank_plays_at(position, dice, policy, plies, score, move_filter)
    if not ranked:
        return BestPlays(position.position_id(), tuple(dice), [], 0, settings, score=score)
    if settings is None or candidates <= 0:
        chosen = [_evaluated(k + 1, r) for k, r in enumerate(ranked)]
        _differences_from_evaluator(chosen)
        _add_mwc(chosen, score)
        return BestPlays(position.position_id(), tuple(dice), chosen, len(ranked), None,
                         score=score)
    if settings.stop_se is not None:
        raise BgcliError("--stop-se does not apply to best-play rollouts: every candidate "
                         "plays the same trials")
    settings = settings.with_seed()
    top = ranked[:candidates]
    results: list[RolloutResult] = []
    partial = False
    for k, r in enumerate(top):
        progress = progress_for(k, len(top), r.play.notation) if progress_for else None
        result = rollout(r.play.result.swapped(), settings, progress)
        results.append(result)
        if result.interrupted:  # Ctrl-C, also in the last games: stop with what is done
            partial = True
            break
    chosen = _compare(top[:len(results)], results, play_coefficients(score))
    _add_mwc(chosen, score)
    return BestPlays(position.position_id(), tuple(dice), chosen, len(ranked), settings, partial,
                     score)


def _add_mwc(chosen: list[Candidate], score: MatchScore | None) -> None:
    """At a match score, each candidate's EMG figures also in MWC (a linear map)."""
    if score is None:
        return
    met = kazaross_xg2()
    per_equity = score.mwc_per_equity(met)
    for c in chosen:
        c.mwc = score.mwc_of_equity(met, c.equity)
        c.mwc_se = c.equity_se * per_equity
        c.mwc_difference = c.difference * per_equity
        c.mwc_difference_se = c.difference_se * per_equity


def _differences_from_evaluator(chosen: list[Candidate]) -> None:
    best = max(c.equity for c in chosen)
    for c in chosen:
        c.difference = c.equity - best
        c.difference_se = math.nan


def _compare(top: list[RankedPlay], results: list[RolloutResult],
             coefficients: np.ndarray) -> list[Candidate]:
    """Candidates from their rollouts (values from the opponent's side), ranked by the
    mover's equity ``coefficients[0] + coefficients[1:] . rates`` game by game, with paired
    differences to the best over the games all of them played."""
    games = min(len(r.values) for r in results)
    movers = [flipped(r.values[:games]) for r in results]  # the side that just moved
    per_game = [coefficients[0] + mover @ coefficients[1:] for mover in movers]
    out = []
    for ranked, mover, equities in zip(top, movers, per_game):
        ses = mover.std(axis=0, ddof=1) / math.sqrt(games) if games > 1 else np.full(5, math.nan)
        se = float(equities.std(ddof=1) / math.sqrt(games)) if games > 1 else math.nan
        candidate = _evaluated(0, ranked)
        candidate.probabilities = mover.mean(axis=0)
        candidate.standard_errors = ses
        candidate.equity = float(equities.mean())
        candidate.equity_se = se
        candidate.games = games
        out.append((candidate, equities))
    out.sort(key=lambda pair: -pair[0].equity)
    best_equities = out[0][1]
    for rank, (candidate, equities) in enumerate(out, start=1):
        candidate.rank = rank
        difference = equities - best_equities
        candidate.difference = float(difference.mean())
        candidate.difference_se = (float(difference.std(ddof=1) / math.sqrt(games))
                                   if games > 1 else math.nan)
    return [candidate for candidate, _ in out]


# ------------------------------------------------------------------------------- the cube


def position_class(position: Position) -> str:
    """gnubg's class for the cube efficiency: bearoff (both sides home), race, or contact."""
    if position.is_bearoff():
        return "bearoff"
    return "race" if position.is_race() else "contact"


def cube_efficiency_for(position: Position) -> float:
    from .cube import cube_efficiency

    kind = position_class(position)
    return cube_efficiency(kind, position.pips()[0] if kind == "race" else None)


@dataclass
class CubeDecision:
    """The cube action of the player on roll, with the figures behind it."""

    action: str  # gnubg's words, or a reason no decision is possible
    no_double: float | None
    double_take: float | None
    double_pass: float | None
    cubeful_equity: float | None  # of the proper action
    cubeless_equity: float
    take_point: float | None
    efficiency: float
    probabilities: np.ndarray
    cube_value: int
    cube_owner: str  # centred, on roll, opponent
    score: str  # money, or e.g. "3-away 5-away (Crawford)"
    jacoby: bool
    # from cubeful rollouts: standard errors, and that of Double/take minus No double
    no_double_se: float | None = None
    double_take_se: float | None = None
    difference_se: float | None = None
    # at a match score: the cubeless and the three cubeful match winning chances
    match_winning_chances: dict | None = None

    def row(self) -> dict:
        row = {"cube_action": self.action, "no_double": self.no_double,
               "double_take": self.double_take, "double_pass": self.double_pass,
               "cubeful_equity": self.cubeful_equity, "cubeless_equity": self.cubeless_equity,
               "take_point": self.take_point, "cube_efficiency": self.efficiency}
        for name, value in zip(OUTPUT_NAMES, self.probabilities):
            row[name] = float(value)
        row.update(cube_value=self.cube_value, cube_owner=self.cube_owner, score=self.score,
                   jacoby=self.jacoby)
        if self.match_winning_chances is not None:
            row.update(self.match_winning_chances)
        if self.no_double_se is not None:
            row.update(no_double_se=self.no_double_se, double_take_se=self.double_take_se,
                       double_take_minus_no_double_se=self.difference_se)
        return row


def _owner_text(owner) -> str:
    return {"CENTRED": "centred", "ME": "on roll", "THEM": "opponent"}[owner.name]


def cube_decision(situation: Situation, probabilities, jacoby: bool | None = None,
                  efficiency: float | None = None) -> CubeDecision:
    """The cube action for the player on roll before rolling, at the Match ID's cube, owner
    and score, from cubeless ``probabilities`` (gnubg's five, player on roll; a rollout's
    means are clipped into their bounds first: ``cube.consistent_rates``)."""
    from .cube import (CubeError, CubeOwner, analyse_match_cube, analyse_money_cube,
                       consistent_rates, owner_from_state, proper_value)

    position, state = situation.position, situation.match
    try:
        probs = list(consistent_rates(probabilities))
    except (TypeError, ValueError):
        raise CubeError(f"probabilities must be five numbers: {probabilities!r}") from None
    x = cube_efficiency_for(position) if efficiency is None else efficiency
    owner = owner_from_state(state.cube_owner, state.player_on_roll)
    jacoby = state.jacoby if jacoby is None else jacoby
    common = dict(cubeless_equity=cubeless_equity(probs), efficiency=x,
                  probabilities=np.array(probs), cube_value=state.cube_value,
                  cube_owner=_owner_text(owner))
    if state.is_money:
        if owner is CubeOwner.THEM:
            nd = _money_no_double(probs, x, jacoby)
            return CubeDecision("No double: the opponent owns the cube", nd, None, None, nd,
                                take_point=None, score="money", jacoby=jacoby, **common)
        a = analyse_money_cube(probs, x, owner, state.cube_value, jacoby)
        return CubeDecision(str(a.action), a.no_double, a.double_take, a.double_pass, a.optimal,
                            take_point=a.take_point, score="money", jacoby=jacoby, **common)
    at = match_score(situation)
    away_me, away_them = at.away_me, at.away_them
    score = f"{away_me}-away {away_them}-away" + (" (Crawford)" if state.crawford else "")
    met = kazaross_xg2()
    a = analyse_match_cube(probs, x, met, away_me, away_them, state.cube_value, owner,
                           state.crawford)
    mwc = {"cubeless_mwc": met.mwc_from_probabilities(probs, away_me, away_them,
                                                      state.cube_value, state.crawford),
           "no_double_mwc": a.no_double_mwc,
           "double_take_mwc": a.double_take_mwc if a.action else None,
           "double_pass_mwc": a.double_pass_mwc if a.action else None}
    if a.action is None:
        action = "No double: the cube is dead or not available"
        optimal = a.no_double
    else:
        action = str(a.action)
        optimal = proper_value(a.no_double, a.double_take, a.double_pass)
    return CubeDecision(action, a.no_double, a.double_take if a.action else None,
                        a.double_pass if a.action else None, optimal, take_point=a.take_point,
                        score=score, jacoby=False, match_winning_chances=mwc, **common)


def _money_no_double(probs, x, jacoby) -> float:
    from .cube import CubeOwner, cubeful_equity

    return cubeful_equity(probs, x, CubeOwner.THEM, jacoby)


def _cubeful_settings(settings: RolloutSettings) -> RolloutSettings:
    """``settings`` (seeded) for the cubeful rollouts of a cube decision: cube decisions in
    the games, from the position as it is, without variance reduction (the luck it
    measures is cubeless)."""
    return replace(settings.with_seed(), cubeful=True, initial=False, variance_reduction=False)


def cubeful_cube_decision(situation: Situation, settings: RolloutSettings,
                          jacoby: bool | None = None,
                          progress_for: Callable[[str], Callable | None] | None = None) -> CubeDecision:
    """The money cube action from cubeful rollouts, as gnubg's rollout of a cube decision:
    No double is a cubeful rollout with the cube as it is, Double/take one with the cube
    doubled and turned to the opponent (both with the same dice: common random numbers),
    Double/pass is +1. Cube decisions inside the games come from the evaluator through
    Janowski's model; the first decision is the rollouts' to make. At a match score the
    same in MWC (:func:`_cubeful_match_decision`)."""
    from .cube import CubeOwner, _decide, owner_from_state

    state = situation.match
    if not state.is_money:
        return _cubeful_match_decision(situation, settings, progress_for)
    owner = owner_from_state(state.cube_owner, state.player_on_roll)
    jacoby = state.jacoby if jacoby is None else jacoby
    settings = _cubeful_settings(settings)
    no_double = rollout(situation.position, settings,
                        progress_for("No double") if progress_for else None,
                        cube_owner=_owner_text(owner), jacoby=jacoby)
    if no_double.interrupted:  # Ctrl-C: half a decision is no decision
        raise KeyboardInterrupt
    games = no_double.games
    nd, nd_se = no_double.cubeful_equity, no_double.cubeful_equity_se
    x = cube_efficiency_for(situation.position)
    common = dict(cubeless_equity=no_double.equity, efficiency=x,
                  probabilities=no_double.means, cube_value=state.cube_value,
                  cube_owner=_owner_text(owner), score="money", jacoby=jacoby)
    if owner is CubeOwner.THEM:
        return CubeDecision("No double: the opponent owns the cube", nd, None, None, nd,
                            take_point=None, no_double_se=nd_se, **common)
    double = rollout(situation.position, settings,
                     progress_for("Double, take") if progress_for else None,
                     cube_owner="opponent", jacoby=jacoby)
    if double.interrupted:
        raise KeyboardInterrupt
    games = min(games, double.games)
    doubled = 2.0 * double.cube_points[:games]
    dt = float(doubled.mean())
    dt_se = float(doubled.std(ddof=1) / math.sqrt(games)) if games > 1 else math.nan
    difference = doubled - no_double.cube_points[:games]
    difference_se = float(difference.std(ddof=1) / math.sqrt(games)) if games > 1 else math.nan
    action = _decide(nd, dt, 1.0, no_double.means[1] > 0.0, owner is CubeOwner.ME,
                     jacoby and owner is CubeOwner.CENTRED)
    optimal = min(dt, 1.0) if dt >= nd and 1.0 >= nd else nd
    return CubeDecision(str(action), nd, dt, 1.0, optimal, take_point=None,
                        no_double_se=nd_se, double_take_se=dt_se, difference_se=difference_se,
                        **common)


def _cubeful_match_decision(situation: Situation, settings: RolloutSettings,
                            progress_for: Callable[[str], Callable | None] | None) -> CubeDecision:
    """The match cube action from cubeful rollouts at the score: No double with the cube as
    it is and Double/take with it doubled and turned (the same dice), each game scored in
    MWC, against Double/pass, the MWC of winning the cube now. Equities are EMG at the cube
    as it is. In the Crawford game, for a side the cube already gives the match, or with the
    opponent owning the cube, only No double is rolled out."""
    from .cube import CubeOwner, _decide, owner_from_state

    state = situation.match
    score = match_score(situation)
    met = kazaross_xg2()
    owner = owner_from_state(state.cube_owner, state.player_on_roll)
    settings = _cubeful_settings(settings)

    def run(label: str, cube_owner: str, at: MatchScore) -> RolloutResult:
        result = rollout(situation.position, settings, progress_for(label) if progress_for else None,
                         cube_owner=cube_owner, score=at)
        if result.interrupted:  # Ctrl-C: half a decision is no decision
            raise KeyboardInterrupt
        return result

    no_double = run("No double", _owner_text(owner), score)
    win = met.mwc_after(score.away_me, score.away_them, score.cube_value, True, score.crawford)
    lose = met.mwc_after(score.away_me, score.away_them, score.cube_value, False, score.crawford)

    def emg(mwc):  # normalised to the cube as it is
        return (2.0 * mwc - (win + lose)) / (win - lose)

    def se(values) -> float:
        return float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.nan

    per_equity = (win - lose) / 2.0
    nd = emg(no_double.cubeful_mwc)
    x = cube_efficiency_for(situation.position)
    common = dict(cubeless_equity=no_double.equity, efficiency=x, probabilities=no_double.means,
                  cube_value=state.cube_value, cube_owner=_owner_text(owner),
                  score=score.name, jacoby=False)
    mwc = {"cubeless_mwc": met.mwc_from_probabilities(no_double.means, score.away_me,
                                                      score.away_them, score.cube_value,
                                                      score.crawford),
           "no_double_mwc": no_double.cubeful_mwc, "no_double_mwc_se": no_double.cubeful_mwc_se,
           "double_take_mwc": None, "double_pass_mwc": None}
    can_double = (not score.crawford and score.away_me > score.cube_value
                  and owner is not CubeOwner.THEM)
    if not can_double:
        return CubeDecision("No double: the cube is dead or not available", nd, None, None, nd,
                            take_point=None, no_double_se=no_double.cubeful_mwc_se / per_equity,
                            match_winning_chances=mwc, **common)
    doubled = MatchScore(score.away_me, score.away_them, score.crawford, 2 * score.cube_value)
    double = run("Double, take", "opponent", doubled)
    games = min(no_double.games, double.games)
    nd_games, dt_games = no_double.cube_points[:games], double.cube_points[:games]
    dt_mwc, dp_mwc = float(dt_games.mean()), win
    mwc.update(double_take_mwc=dt_mwc, double_take_mwc_se=se(dt_games), double_pass_mwc=dp_mwc)
    dt, dp = emg(dt_mwc), emg(dp_mwc)
    action = _decide(nd, dt, dp, no_double.means[1] > 0.0, owner is CubeOwner.ME, False)
    optimal = min(dt, dp) if dt >= nd and dp >= nd else nd
    return CubeDecision(str(action), nd, dt, dp, optimal, take_point=None,
                        no_double_se=se(nd_games) / per_equity,
                        double_take_se=se(dt_games) / per_equity,
                        difference_se=se(dt_games - nd_games) / per_equity,
                        match_winning_chances=mwc, **common)
