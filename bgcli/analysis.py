"""The analysis of one position: race metrics, seed, rollout, cube decision, best play.

Every command and the Python API analyse a position here, so a ``bgcli batch`` row, a report's
row and a row of ``bgcli.api.analyse`` hold the same numbers for the same settings.

* ``position_seed(master_seed, position_id, match_id)``: the rollout seed of a position in a
  study, a BLAKE2b hash reduced to 53 bits. So a position's numbers do not depend on its
  place in the collection, on which process rolls it out or on how often it was retried, and
  ``bgcli rollout POSITION --seed SEED`` with the row's ``seed`` reproduces the row.
* The rates. From a rollout (``roll_out``, ``rollout_rates``) or else from the evaluator
  (``evaluator_rates``: the rollout's policy, or the plan's ``policy`` without rollouts,
  looking ``plies`` ahead, 1 by default as ``bgcli best`` and ``bgcli cube``); none once the
  dice are rolled (the cube is turned before the roll).
* The decisions (``decision_values``). The cube action before the roll
  (``bgcli.decisions.cube_decision``: gnubg's words, the cubeful equities of No double,
  Double/take and Double/pass, the proper action's cubeful equity, the take point and the cube
  efficiency) at the cube, owner and score of the Match ID or XGID; ``cube_source`` says where
  the rates came from. The best play (``bgcli.evaluation.rank_plays``: the evaluator's top
  play and its cubeless equity, mover's side) for the dice rolled in the position, else for
  the plan's ``dice``; null when there are neither. A position's own dice win over the
  option: they are its roll, the option is a roll to try on positions that have none.
* ``analyse(entry, plan)``: the whole row of one position (``bgcli.columns``).

numba (through ``bgcli.rollout`` and ``bgcli.evaluation``) is imported only when needed.
"""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable

from . import __version__
from .columns import (BEAROFF_COLUMNS, CUBE_COLUMNS, PLAY_COLUMNS, RACE_COLUMNS,
                      ROLLOUT_COLUMNS, column_types)
from .errors import BgcliError
from .rollout import SEED_BITS, RolloutSettings
from .values import plain

NO_PLAY = "cannot move"  # best_play when no checker can move with the dice

# games done, games in all, games a second, equity so far, its standard error
GamesProgress = Callable[[int, int, float, float, float], None]

# Rollouts and searches in one process run one at a time: the kernels are parallel over every
# core already, and numba's default threading layer must not be entered from two threads at
# once (a Dask worker started with --nthreads above 1 would otherwise do that).
_KERNEL_LOCK = threading.Lock()


def position_seed(master_seed: int, position_id: str, match_id: str) -> int:
    """The rollout seed of one position in a study: BLAKE2b of the master seed and the
    position's IDs, reduced to 53 bits (``bgcli.rollout.SEED_BITS``: exact as a double)."""
    text = f"{master_seed}:{position_id}:{match_id}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> (64 - SEED_BITS)


def dice_text(dice: tuple[int, int] | None) -> str | None:
    """A roll as the rows write it, the higher die first (``31``); None for none."""
    return None if dice is None else f"{max(dice)}{min(dice)}"


@dataclass(frozen=True)
class AnalysisPlan:
    """What to compute for every position: race metrics and decisions always; a rollout with
    ``rollout`` settings (their seed is ignored: each position's comes from ``master_seed``).
    ``policy``: the evaluator's without a rollout (with one, the rollout's policy is used);
    ``plies``: the evaluator's lookahead (0..3, as ``bgcli best``'s ``--plies``);
    ``move_filter``: the move filter ranking the plays at 1 ply or more (``bgcli.search``);
    ``dice``: the roll whose best play is wanted for positions that have none rolled."""

    rollout: RolloutSettings | None = None
    master_seed: int = 0
    policy: str = "net"
    dice: tuple[int, int] | None = None
    plies: int = 1
    move_filter: str = "normal"

    @property
    def evaluator_policy(self) -> str:
        return self.rollout.policy if self.rollout is not None else self.policy

    def column_types(self) -> list[tuple[str, str]]:
        return column_types(self.rollout is not None)

    def settings_row(self) -> dict:
        """The values of the setting columns a row of this plan carries."""
        from .evaluation import policy_net

        row: dict = {}
        if self.rollout is not None:
            settings = self.rollout
            row = {"trials": settings.trials, "policy": settings.policy,
                   "truncate": settings.truncate,
                   "variance_reduction": settings.variance_reduction,
                   "quasi_random": settings.quasi_random,
                   "bearoff_truncation": settings.bearoff_truncation, "initial": settings.initial,
                   "stop_se": settings.stop_se, "min_games": settings.min_games,
                   "master_seed": self.master_seed}
        row["evaluator_policy"] = self.evaluator_policy
        row["evaluator_plies"] = self.plies
        row["evaluator_filter"] = self.move_filter
        row["dice_option"] = dice_text(self.dice)
        row["net"] = policy_net(self.evaluator_policy)
        row["bgcli_version"] = __version__
        return row


def columns(plan: AnalysisPlan) -> list[str]:
    """The column names of a row of ``plan``, in order."""
    return [name for name, _ in plan.column_types()]


# ---------------------------------------------------------------------------- metrics


def pips_values(position) -> dict:
    """The race metrics as ``bgcli pips -f json`` gives them, floats to 4 decimals: gnubg
    computes in single precision, so 4 decimals hold every digit that means anything."""
    from .race import race_metrics

    return {name: _rounded(value) for name, value in race_metrics(position).items()}


def race_values(position) -> dict:
    """The race and bear-off columns of a row (``RACE_COLUMNS``, ``BEAROFF_COLUMNS``)."""
    from .bearoff import bearoff_metrics
    from .race import race_metrics

    metrics = race_metrics(position) | bearoff_metrics(position)
    return {name: _rounded(metrics[name]) for name, _ in RACE_COLUMNS + BEAROFF_COLUMNS}


def _rounded(value):
    return round(value, 4) if isinstance(value, float) else value


# ---------------------------------------------------------------------------- rates


@dataclass(frozen=True)
class Rates:
    """The five cubeless rates of the player on roll and where they came from
    (``source``: "rollout" or "evaluator"); ``probabilities`` None after the roll. ``result``:
    the ``RolloutResult`` when they came from a rollout run here."""

    probabilities: object | None
    source: str | None
    result: object | None = None


NO_RATES = Rates(None, None)


def roll_out(position, settings: RolloutSettings, progress: GamesProgress | None = None,
             keep_partial: bool = False):
    """``bgcli.rollout.rollout``, one rollout at a time in this process. An interrupted
    rollout raises ``KeyboardInterrupt`` (part of the games is not a result to keep, and a
    Ctrl-C that came in the last games must still stop a study) unless ``keep_partial``."""
    from .rollout import rollout

    with _KERNEL_LOCK:
        result = rollout(position, settings, progress)
    if result.interrupted and not keep_partial:
        raise KeyboardInterrupt
    return result


def rollout_rates(position, settings: RolloutSettings, progress: GamesProgress | None = None,
                  keep_partial: bool = False) -> Rates:
    """The rates from a rollout with ``settings`` (their seed as given: see ``roll_out``)."""
    result = roll_out(position, settings, progress, keep_partial)
    return Rates(result.means, "rollout", result)


def evaluator_rates(situation, policy: str, plies: int = 1) -> Rates:
    """The rates from the evaluator (``policy`` looking ``plies`` ahead); none after the roll."""
    if situation.match.dice_rolled:
        return NO_RATES
    from .evaluation import position_probabilities

    with _KERNEL_LOCK:
        probabilities = position_probabilities(situation.position, policy, plies)
    return Rates(probabilities, "evaluator")


def recorded_rates(row: dict) -> Rates:
    """The rates a row already holds from a rollout (a batch result read back)."""
    return Rates([float(row[name]) for name in
                  ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")],
                 "rollout")


# ---------------------------------------------------------------------------- decisions


def roll_for(situation, dice: tuple[int, int] | None = None) -> tuple[int, int] | None:
    """The dice whose best play a row gives: the position's own when rolled, else ``dice``."""
    if situation.match.dice_rolled:
        return tuple(situation.match.dice)
    return None if dice is None else (max(dice), min(dice))


def cube_values(situation, probabilities, source: str | None) -> dict:
    """The cube columns (``CUBE_COLUMNS``) of ``situation`` from the cubeless
    ``probabilities`` of the player on roll; every one null when its dice are rolled (the
    cube is turned before the roll) or ``probabilities`` is None. A score the match equity
    table cannot answer gives the reason as ``cube_action`` and null equities."""
    from .decisions import cube_decision

    values: dict = {name: None for name, _ in CUBE_COLUMNS}
    if situation.match.dice_rolled or probabilities is None:
        return values
    values["cube_source"] = source
    try:
        decision = cube_decision(situation, probabilities).row()
    except BgcliError as exc:
        values["cube_action"] = f"No cube decision: {exc}"
        return values
    for name, _ in CUBE_COLUMNS[:-1]:
        values[name] = decision[name]
    return values


def best_play_values(position, dice: tuple[int, int] | None, policy: str,
                     plies: int = 1, score=None, move_filter: str | None = None) -> dict:
    """The best play columns (``PLAY_COLUMNS``): the evaluator's top play for ``dice`` at
    ``plies`` through ``move_filter`` and its cubeless equity from the mover's side
    (``NO_PLAY`` and the equity of the position left as it is when no checker can move);
    null without dice. At a match ``score`` (``bgcli.match.MatchScore``) the top play in
    cubeless MWC, its equity in EMG."""
    values: dict = {name: None for name, _ in PLAY_COLUMNS}
    if dice is None:
        return values
    from .decisions import play_coefficients, rank_plays_at
    from .evaluation import cubeless_equity, position_probabilities

    try:
        with _KERNEL_LOCK:
            ranked = rank_plays_at(position, dice, policy, plies, score, move_filter)
    except BgcliError as exc:  # a score the match equity table cannot answer
        values["best_play"] = f"No best play: {exc}"
        return values
    if ranked:
        values["best_play"], values["best_play_equity"] = ranked[0].play.notation, ranked[0].equity
    else:  # the opponent is on roll with the same board
        values["best_play"] = NO_PLAY
        with _KERNEL_LOCK:
            theirs = position_probabilities(position.swapped(), policy, plies)
        if score is None:
            values["best_play_equity"] = -cubeless_equity(theirs)
        else:
            c = play_coefficients(score)
            mine = [1.0 - theirs[0], theirs[3], theirs[4], theirs[1], theirs[2]]
            values["best_play_equity"] = float(c[0] + c[1:] @ mine)
    values["best_play_dice"] = dice_text(dice)
    return values


def decision_values(situation, rates: Rates, policy: str, plies: int = 1,
                    dice: tuple[int, int] | None = None, move_filter: str | None = None) -> dict:
    """The cube columns from ``rates``, the best play columns for the position's roll (else
    ``dice``) by the evaluator ``policy`` at ``plies`` through ``move_filter`` (None:
    gnubg's normal), and the evaluator they name."""
    from .search import move_filter as filter_of

    values = cube_values(situation, rates.probabilities, rates.source)
    from .decisions import match_score

    values.update(best_play_values(situation.position, roll_for(situation, dice), policy, plies,
                                   match_score(situation), move_filter))
    values["evaluator_policy"] = policy
    values["evaluator_plies"] = plies
    values["evaluator_filter"] = filter_of(move_filter).name
    return values


# ---------------------------------------------------------------------------- one position


def analyse(entry, plan: AnalysisPlan, progress: GamesProgress | None = None) -> dict:
    """The row of one position (``bgcli.columns``), values plain (``bgcli.values.plain``).
    ``entry``: a ``bgcli.collections.Entry`` (id, name, position text). Raises ``BgcliError``
    for a position that does not parse or cannot occur, ``KeyboardInterrupt`` if
    interrupted."""
    from .evaluation import policy_net
    from .notation.detect import parse_situation

    began = time.perf_counter()
    situation = parse_situation(entry.position)
    row = {"id": entry.id, "name": entry.name, "input": entry.position,
           "position_id": situation.position_id, "match_id": situation.match_id,
           "xgid": situation.xgid}
    row.update(race_values(situation.position))
    if plan.rollout is not None:
        seed = position_seed(plan.master_seed, row["position_id"], row["match_id"])
        rates = rollout_rates(situation.position, replace(plan.rollout, seed=seed), progress)
        values = rates.result.row() | {"master_seed": plan.master_seed}  # its "seed" is ``seed``
        row.update({name: values[name] for name, _ in ROLLOUT_COLUMNS})
    else:
        rates = evaluator_rates(situation, plan.evaluator_policy, plan.plies)
    row.update(decision_values(situation, rates, plan.evaluator_policy, plan.plies, plan.dice,
                               plan.move_filter))
    row["dice_option"] = dice_text(plan.dice)
    row["net"] = policy_net(plan.evaluator_policy)
    row["bgcli_version"] = __version__
    row["elapsed_seconds"] = round(time.perf_counter() - began, 3)
    return {key: plain(value) for key, value in row.items()}
