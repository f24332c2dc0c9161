"""A match judged decision by decision, and each player's statistics, as gnubg's analysis.

Checker plays: every legal play of the roll is ranked by the evaluator's search
(:func:`ranked_plays`, 0 to 3 plies; at a match score in cubeless match winning chances,
the score's gammon and backgammon values through the Kazaross-XG2 table), then judged, as
gnubg's analysis judges them, by its cubeful value: Janowski's cube-life model from the
search's probabilities, each side taking its proper cube action
(:func:`bgcli.cube.money_proper_equity`, at a match score
:func:`bgcli.cube.match_proper_mwc`), at two levels for a play evaluated at 1 ply or more
(``_Score.play_value``). The error is the best play's value minus the played one's, in EMG
(normalised equity: +1 is winning the cube's value) and, at match play, in MWC.

Cube decisions (before each roll where the player may double, a double, a take or a drop):
Janowski's cube-life model from the evaluator's cubeless probabilities
(``bgcli.decisions.cube_decision``). The error is the proper action's equity minus the
action's, for the player who chose: a missed double (No double where Double was right, and
not too good), a wrong double, a wrong take, a wrong pass.

gnubg's marks and thresholds (gnubg 1.07's defaults, ``show analysis``): an error of at
least 0.03 EMG is doubtful, 0.06 bad, 0.12 very bad. A cube decision is close (counted in the cube error rate) when
Double was within 0.16 of No double, or the cube was turned. Luck of a roll: the equity after
the best play of the rolled dice minus the equity before the roll (the average over the 21
rolls), at 0 ply; at least +0.6 is "very lucky", +0.3 "lucky", -0.3 "unlucky", -0.6
"very unlucky".

Per player (gnubg's statistics): unforced moves (more than one legal play), checker errors
(total EMG and rate in mEMG per unforced move), marks, cube decisions, close ones and cube
errors (total, rate in mEMG per close decision), the overall error rate and an XG-style
performance rating (PR: 500 x the mean error over unforced moves and close cube decisions),
luck (total, rate per roll) and the luck-adjusted result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..decisions import (cube_decision, cube_efficiency_for, match_score, play_coefficients,
                         rank_plays_at)
from ..evaluation import (RankedPlay, cubeless_equity, flipped, position_probabilities,
                          probabilities_with_rolls, rank_plays, roll_probabilities)
from ..notation.situation import Situation
from .replay import ANSWER, CHECKER, CUBE, Decision, Match

#: gnubg's default marks: (name, the least error in EMG that earns it), worst first.
SKILL_THRESHOLDS = (("very bad", 0.12), ("bad", 0.06), ("doubtful", 0.03))
#: gnubg's luck marks: (name, the least luck in EMG), luckiest first; unlucky are negative.
LUCK_THRESHOLDS = (("very lucky", 0.6), ("lucky", 0.3))
CLOSE_CUBE = 0.16  # EMG: a cube decision closer than this counts in the cube error rate
DEFAULT_PLIES = 1  # 2 ply costs about 10x more a decision (docs/search.md)


def skill_mark(error: float | None) -> str:
    if error is None:
        return ""
    for name, threshold in SKILL_THRESHOLDS:
        if error >= threshold - 1e-12:
            return name
    return ""


def luck_mark(luck: float | None) -> str:
    if luck is None:
        return ""
    for name, threshold in LUCK_THRESHOLDS:
        if luck >= threshold:
            return name
        if luck <= -threshold:
            return name.replace("lucky", "unlucky")
    return ""


def ranked_plays(situation: Situation, dice: tuple[int, int], plies: int,
                 policy: str = "net") -> list[RankedPlay]:
    """Every play of ``dice``, best first by the search at ``plies`` through gnubg's normal
    move filter, valued at a match score in match winning chances for both sides (the
    lookahead's replies too): the one function the analysis asks."""
    return rank_plays_at(situation.position, dice, policy, plies, match_score(situation),
                         replies=True)


class _Score:
    """Match winning chances at a decision's score, from the decider's side, and the cubeful
    value of a play."""

    def __init__(self, situation: Situation, player: int, policy: str = "net"):
        from ..cube import owner_from_state
        from ..match import kazaross_xg2

        state = situation.match
        self.policy = policy
        self.money = state.is_money
        self.cube, self.crawford, self.jacoby = state.cube_value, state.crawford, state.jacoby
        self.my_owner = owner_from_state(state.cube_owner, player)
        self.their_owner = owner_from_state(state.cube_owner, 1 - player)
        self.values = None  # the search's values for (the opponent, the decider): money
        if not self.money:
            self.met = kazaross_xg2()
            self.away = (state.match_length - state.score[player],
                         state.match_length - state.score[1 - player])
            score = match_score(situation)
            self.values = np.stack([play_coefficients(score.swapped()),
                                    play_coefficients(score)])

    def at_depth(self, ranked: RankedPlay, plies: int) -> RankedPlay:
        """``ranked`` evaluated at ``plies`` when the move filter left it shallower: the play
        made is judged at the depth of the best one, as gnubg's analysis does (a 0-ply
        figure against a 1-ply best would count the depths' difference as an error)."""
        result = ranked.play.result
        if ranked.plies >= plies or not result.board[1].any():  # deep enough, or game won
            return ranked
        theirs, rolled = probabilities_with_rolls(result.swapped(), self.policy, plies,
                                                  self.values)
        mine = flipped(theirs)
        value = cubeless_equity(mine) if self.money else float(
            self.values[1][0] + self.values[1][1:] @ mine)
        return replace(ranked, probabilities=mine, equity=value, plies=plies, value=value,
                       replies=flipped(rolled))

    def mwc(self, probs) -> float | None:
        if self.money:
            return None
        return self.met.mwc_from_probabilities(probs, *self.away, self.cube, self.crawford)

    def play_value(self, ranked: RankedPlay) -> tuple[float, float | None]:
        """The decider's EMG and MWC (None in money) after the play ``ranked``, cubeful as
        gnubg's analysis values plays (a play that wins the game: cubeless). Evaluated at 1
        ply or more, the cube is decided at two levels: the decider's at each of the
        opponent's 21 rolls (after its play, from the search's probabilities there), then
        the opponent's before rolling; at 0 ply the opponent's alone. gnubg decides at every
        level of its search, with Janowski's model at the leaves, so at 0 and 1 ply this is
        its model (the cube efficiency of the position after the play standing in for each
        leaf's), deeper an approximation."""
        if not ranked.play.result.board[1].any():  # the game is won
            mwc = self.mwc(ranked.probabilities)
            return (ranked.equity if mwc is None else self.emg(mwc)), mwc
        if ranked.plies >= 1:
            mine = ranked.replies
            if mine is None:  # ranked without them
                mine = flipped(roll_probabilities(ranked.play.result.swapped(), self.policy,
                                                  ranked.plies, self.values))
            if np.isfinite(mine).all():  # (NaN: an exact bear-off, valued without rolls)
                return self._after_rolls(ranked, mine)
        return self._before_roll(ranked)

    def _before_roll(self, ranked: RankedPlay) -> tuple[float, float | None]:
        """The opponent's cube decision before rolling, from the play's probabilities."""
        from ..cube import match_proper_mwc, money_proper_equity

        theirs = flipped(ranked.probabilities)
        x = cube_efficiency_for(ranked.play.result.swapped())
        if self.money:
            return -money_proper_equity(theirs, x, self.their_owner, self.jacoby), None
        mwc = 1.0 - match_proper_mwc(theirs, x, self.met, self.away[1], self.away[0],
                                     self.cube, self.their_owner, self.crawford)
        return self.emg(mwc), mwc

    def _after_rolls(self, ranked: RankedPlay, mine: list) -> tuple[float, float | None]:
        """The decider's cube decision after each opponent's roll (``mine``: the decider's
        probabilities there), at the cube as it is and, had the opponent doubled, at twice
        it on the decider's side; then the opponent's: No double, or Double, the decider
        taking or passing."""
        from ..cube import (CubeOwner, match_proper_mwc, may_double, money_proper_equity,
                            proper_value)
        from ..kernels.evaluate import ROLL_WEIGHTS

        x = cube_efficiency_for(ranked.play.result)
        if self.money:
            kept = [money_proper_equity(m, x, self.my_owner, self.jacoby) for m in mine]
            doubled = [money_proper_equity(m, x, CubeOwner.ME) for m in mine]
            no_double, double_take = -(ROLL_WEIGHTS @ kept), -2.0 * (ROLL_WEIGHTS @ doubled)
            theirs = (no_double if self.their_owner is CubeOwner.THEM
                      else proper_value(no_double, double_take, 1.0))
            return float(-theirs), None
        me, them = self.away
        kept = [match_proper_mwc(m, x, self.met, me, them, self.cube, self.my_owner,
                                 self.crawford) for m in mine]
        doubled = [match_proper_mwc(m, x, self.met, me, them, 2 * self.cube, CubeOwner.ME,
                                    self.crawford) for m in mine]
        no_double, double_take = 1.0 - ROLL_WEIGHTS @ kept, 1.0 - ROLL_WEIGHTS @ doubled
        double_pass = self.met.mwc_after(them, me, self.cube, True, self.crawford)
        theirs = (proper_value(no_double, double_take, double_pass)
                  if may_double(them, me, self.cube, self.their_owner, self.crawford)
                  else no_double)
        mwc = float(1.0 - theirs)
        return self.emg(mwc), mwc

    def emg(self, mwc: float) -> float:
        """A MWC as normalised equity (gnubg's mwc2eq at this cube)."""
        return self.met.mwc_to_equity(mwc, *self.away, self.cube, self.crawford)


@dataclass
class Judged:
    """One decision with the analysis' verdict; ``row()`` is its line of ``bgcli analyse``."""

    decision: Decision
    match: Match
    legal_plays: int = 0
    best: str = ""
    played_value: float | None = None  # EMG (money) or MWC-derived EMG of the play made
    best_value: float | None = None
    error: float | None = None  # EMG
    error_mwc: float | None = None
    alternatives: list = field(default_factory=list)  # (play, EMG, MWC or None), best first
    luck: float | None = None
    luck_mwc: float | None = None
    cube: object | None = None  # bgcli.decisions.CubeDecision of the cube decision made
    cube_action: str = ""  # the cube action made: no double, double, take, drop
    proper_cube: str = ""
    cube_error: float | None = None
    cube_error_mwc: float | None = None
    close_cube: bool = False
    cube_error_kind: str = ""  # missed double, wrong double, wrong take, wrong pass

    @property
    def unforced(self) -> bool:
        return self.decision.kind == CHECKER and self.legal_plays > 1

    def row(self) -> dict:
        from .rows import decision_row

        row = decision_row(self.match, self.decision)
        row.update(
            legal_plays=self.legal_plays if self.decision.kind == CHECKER else None,
            unforced=self.unforced, best=self.best, equity_played=self.played_value,
            equity_best=self.best_value, error=self.error, error_mwc=self.error_mwc,
            mark=skill_mark(self.error) if self.unforced else "",
            luck=self.luck, luck_mwc=self.luck_mwc, luck_mark=luck_mark(self.luck),
            cube_action=self.cube_action, proper_cube_action=self.proper_cube,
            no_double=getattr(self.cube, "no_double", None),
            double_take=getattr(self.cube, "double_take", None),
            double_pass=getattr(self.cube, "double_pass", None),
            cube_error=self.cube_error, cube_error_mwc=self.cube_error_mwc,
            cube_mark=skill_mark(self.cube_error), cube_error_kind=self.cube_error_kind,
            close_cube=self.close_cube)
        return row


#: The columns ``bgcli analyse --rows decision`` adds to ``bgcli import``'s.
ANALYSIS_COLUMNS = [
    ("legal_plays", "int"), ("unforced", "bool"), ("best", "str"), ("equity_played", "float"),
    ("equity_best", "float"), ("error", "float"), ("error_mwc", "float"), ("mark", "str"),
    ("luck", "float"), ("luck_mwc", "float"), ("luck_mark", "str"), ("cube_action", "str"),
    ("proper_cube_action", "str"), ("no_double", "float"), ("double_take", "float"),
    ("double_pass", "float"), ("cube_error", "float"), ("cube_error_mwc", "float"),
    ("cube_mark", "str"), ("cube_error_kind", "str"), ("close_cube", "bool"),
    ("plies", "int"), ("net", "str"), ("bgcli_version", "str")]


def _proper_doubles(cube) -> bool:
    return cube.action.startswith(("Double", "Redouble"))


def _cube_figures(situation: Situation, plies: int, policy: str):
    probs = position_probabilities(situation.position, policy, plies)
    return cube_decision(situation, probs)


def _judge_double(j: Judged, situation: Situation, doubled: bool, plies: int, policy: str):
    """The cube decision before a roll (``doubled`` False: the player rolled instead)."""
    cube = _cube_figures(situation, plies, policy)
    j.cube, j.cube_action = cube, "double" if doubled else "no double"
    if cube.double_take is None:
        return
    nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
    double_value = min(dt, dp)
    proper = _proper_doubles(cube)
    j.proper_cube = cube.action
    j.close_cube = doubled or double_value > nd - CLOSE_CUBE
    mwc = cube.match_winning_chances
    if doubled and not proper:
        j.cube_error, j.cube_error_kind = max(nd - double_value, 0.0), "wrong double"
        if mwc:
            j.cube_error_mwc = max(mwc["no_double_mwc"] - min(mwc["double_take_mwc"],
                                                              mwc["double_pass_mwc"]), 0.0)
    elif not doubled and proper:
        j.cube_error, j.cube_error_kind = max(double_value - nd, 0.0), "missed double"
        if mwc:
            j.cube_error_mwc = max(min(mwc["double_take_mwc"], mwc["double_pass_mwc"])
                                   - mwc["no_double_mwc"], 0.0)
    else:
        j.cube_error = 0.0
        j.cube_error_mwc = 0.0 if mwc else None


def _judge_answer(j: Judged, took: bool, plies: int, policy: str) -> None:
    """A take or a pass: judged from the doubler's figures (Double/take against Double/pass,
    the taker losing what the doubler gains)."""
    situation = j.decision.situation
    cube = _cube_figures(situation, plies, policy)
    j.cube, j.cube_action = cube, "take" if took else "drop"
    if cube.double_take is None:
        return
    dt, dp = cube.double_take, cube.double_pass
    j.proper_cube = "take" if dt <= dp else "pass"
    j.close_cube = True
    mwc = cube.match_winning_chances
    if took and dt > dp:
        j.cube_error, j.cube_error_kind = dt - dp, "wrong take"
    elif not took and dt < dp:
        j.cube_error, j.cube_error_kind = dp - dt, "wrong pass"
    else:
        j.cube_error = 0.0
    if mwc:
        j.cube_error_mwc = (abs(mwc["double_take_mwc"] - mwc["double_pass_mwc"])
                            if j.cube_error else 0.0)


def _judge_play(j: Judged, plies: int, policy: str) -> None:
    decision = j.decision
    situation, dice = decision.situation, decision.dice
    score = _Score(situation, decision.player, policy)
    ranked = ranked_plays(situation, dice, plies, policy)
    j.legal_plays = len(ranked)
    if not ranked:
        j.best = ""
    else:
        ranked = [score.at_depth(r, ranked[0].plies)
                  if decision.play is not None
                  and np.array_equal(r.play.result.board, decision.play.result.board) else r
                  for r in ranked]
        values = [(r.play, *score.play_value(r)) for r in ranked]
        values.sort(key=lambda v: -(v[2] if v[2] is not None else v[1]))
        j.alternatives = values
        best = values[0]
        played = next(v for v in values if decision.play is not None
                      and np.array_equal(v[0].result.board, decision.play.result.board))
        j.best, j.best_value, j.played_value = best[0].notation, best[1], played[1]
        j.error = max(best[1] - played[1], 0.0)
        if best[2] is not None:
            j.error_mwc = max(best[2] - played[2], 0.0)
    _judge_luck(j, score, plies, policy)


def _judge_luck(j: Judged, score: _Score, plies: int, policy: str) -> None:
    """Luck at 0 ply: the best play of this roll against the average roll (the 1-ply value
    without the pruning screen: the mean of every roll's best play of all)."""
    decision = j.decision
    position = decision.situation.position
    before = position_probabilities(position, policy, 1, prune=False)
    ranked = rank_plays(position, decision.dice, policy, 0)
    if ranked:
        after = ranked[0].probabilities
    else:  # the roll cannot be played: the opponent rolls from the same board
        after = flipped(position_probabilities(position.swapped(), policy, 0))
    j.luck = cubeless_equity(after) - cubeless_equity(before)
    if not score.money:
        j.luck_mwc = score.mwc(after) - score.mwc(before)


def _check_length(match: Match) -> None:
    from ..match import MatchError, kazaross_xg2

    table = kazaross_xg2()
    if match.length > table.length:
        raise MatchError(f"{match.path}: a {match.length}-point match: the match equity "
                         f"table ({table.name}) reaches matches of at most {table.length} "
                         f"points")


def judge(match: Match, plies: int = DEFAULT_PLIES, policy: str = "net",
          progress=None) -> list[Judged]:
    """Every decision of ``match`` judged (``progress(done, total)`` after each); a match
    longer than the match equity table reaches is a ``MatchError``."""
    _check_length(match)
    decisions = match.decisions
    out = []
    for k, decision in enumerate(decisions):
        j = Judged(decision, match)
        if decision.kind == CHECKER:
            if decision.cube_available:
                _judge_double(j, _before_roll(decision), False, plies, policy)
            _judge_play(j, plies, policy)
        elif decision.kind == CUBE:
            _judge_double(j, decision.situation, True, plies, policy)
        elif decision.kind == ANSWER:
            _judge_answer(j, decision.action == "take", plies, policy)
        out.append(j)
        if progress is not None:
            progress(k + 1, len(decisions))
    return out


def _before_roll(decision: Decision) -> Situation:
    from dataclasses import replace

    situation = decision.situation
    return replace(situation, match=replace(situation.match, dice=(0, 0)))


# ------------------------------------------------------------------------ per player


def _rate(total: float, count: int) -> float | None:
    return 1000.0 * total / count if count else None


def player_statistics(match: Match, judged: list[Judged], plies: int) -> list[dict]:
    """One row per player: gnubg's statistics of the match (see the module's docstring)."""
    rows = []
    for player in (0, 1):
        mine = [j for j in judged if j.decision.player == player]
        moves = [j for j in mine if j.decision.kind == CHECKER]
        unforced = [j for j in moves if j.unforced]
        checker_error = sum(j.error or 0.0 for j in unforced)
        marks = [skill_mark(j.error) for j in unforced]
        cube = [j for j in mine if j.cube_error is not None]
        close = [j for j in cube if j.close_cube]
        cube_error = sum(j.cube_error for j in cube)
        kinds = [j.cube_error_kind for j in cube if j.cube_error]
        luck = [j.luck for j in moves if j.luck is not None]
        decisions = len(unforced) + len(close)
        total_error = checker_error + cube_error
        row = {
            "file": match.path, "player": player,
            "player_name": match.names[player] or f"player {player}",
            "match_length": match.length, "games": len(match.games),
            "moves": len(moves), "unforced_moves": len(unforced),
            "checker_error": checker_error,
            "checker_error_rate": _rate(checker_error, len(unforced)),
            "doubtful": marks.count("doubtful"), "bad": marks.count("bad"),
            "very_bad": marks.count("very bad"),
            "cube_decisions": len(cube), "close_cube_decisions": len(close),
            "cube_errors": len(kinds), "missed_doubles": kinds.count("missed double"),
            "wrong_doubles": kinds.count("wrong double"), "wrong_takes": kinds.count("wrong take"),
            "wrong_passes": kinds.count("wrong pass"), "cube_error": cube_error,
            "cube_error_rate": _rate(cube_error, len(close)),
            "error_rate": _rate(total_error, decisions),
            "pr": 500.0 * total_error / decisions if decisions else None,
            "luck": sum(luck), "luck_rate": _rate(sum(luck), len(luck)),
        }
        if match.length:
            mwc_errors = [j.error_mwc for j in unforced] + [j.cube_error_mwc for j in cube]
            row["error_mwc"] = sum(e or 0.0 for e in mwc_errors)
            row["luck_mwc"] = sum(j.luck_mwc or 0.0 for j in moves)
        row.update(_result(match, judged, player, row))
        row.update(plies=plies)
        rows.append(row)
    return rows


def _result(match: Match, judged: list[Judged], player: int, row: dict) -> dict:
    """The result and the luck-adjusted result: in money, points per game (luck counted at
    each roll's cube); at match play, match winning chances above 50% (+0.5 for winning
    the match, luck in MWC)."""
    games = [g for g in match.games if g.winner is not None]
    if not games:
        return {"result": None, "luck_adjusted_result": None}
    if match.length == 0:
        points = sum(g.points if g.winner == player else -g.points for g in games)
        luck_points = sum((j.luck or 0.0) * j.decision.situation.match.cube_value
                          for j in judged if j.decision.player == player
                          and j.decision.kind == CHECKER)
        luck_points -= sum((j.luck or 0.0) * j.decision.situation.match.cube_value
                           for j in judged if j.decision.player != player
                           and j.decision.kind == CHECKER)
        return {"result": points / len(games),
                "luck_adjusted_result": (points - luck_points) / len(games)}
    last = games[-1]
    final = list(last.score)
    final[last.winner] += last.points
    if max(final) < match.length:
        return {"result": None, "luck_adjusted_result": None}  # the match is not finished
    result = 0.5 if final[player] >= match.length else -0.5
    theirs = sum(j.luck_mwc or 0.0 for j in judged
                 if j.decision.player != player and j.decision.kind == CHECKER)
    luck = row.get("luck_mwc", 0.0) - theirs
    return {"result": result, "luck_adjusted_result": result - luck}


#: The columns of ``bgcli analyse`` (``--rows player``).
PLAYER_COLUMNS = [
    ("file", "str"), ("player", "int"), ("player_name", "str"), ("match_length", "int"),
    ("games", "int"), ("moves", "int"), ("unforced_moves", "int"), ("checker_error", "float"),
    ("checker_error_rate", "float"), ("doubtful", "int"), ("bad", "int"), ("very_bad", "int"),
    ("cube_decisions", "int"), ("close_cube_decisions", "int"), ("cube_errors", "int"),
    ("missed_doubles", "int"), ("wrong_doubles", "int"), ("wrong_takes", "int"),
    ("wrong_passes", "int"), ("cube_error", "float"), ("cube_error_rate", "float"),
    ("error_rate", "float"), ("pr", "float"), ("luck", "float"), ("luck_rate", "float"),
    ("error_mwc", "float"), ("luck_mwc", "float"), ("result", "float"),
    ("luck_adjusted_result", "float"), ("plies", "int"), ("net", "str"),
    ("bgcli_version", "str")]


def analysis_rows(match: Match, plies: int, by_decision: bool, progress=None) -> list[dict]:
    """The rows of ``bgcli analyse`` for one match: every judged decision, or each player's
    statistics; each with the settings that made it."""
    from .. import __version__
    from ..evaluation import policy_net

    judged = judge(match, plies, progress=progress)
    extra = {"plies": plies, "net": policy_net("net"), "bgcli_version": __version__}
    rows = [j.row() for j in judged] if by_decision else player_statistics(match, judged, plies)
    return [{**row, **extra} for row in rows]


def analyse_text(text: str, path: str, plies: int, by_decision: bool) -> tuple[list[dict], list[str]]:
    """A match file's text analysed (on a Dask worker: the file need not be there): its rows
    and its problems (``FILE:LINE: ...``)."""
    from . import parse_match

    match = parse_match(text, path)
    return analysis_rows(match, plies, by_decision), match.problems
