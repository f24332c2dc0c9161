"""The rollout options, declared once for every command that rolls out or evaluates (rollout,
best, cube, batch, chart, report), and the one way from them to ``RolloutSettings``.

Every rollout option defaults to None, "not given": ``rollout_settings`` fills in
``RolloutSettings``' own defaults, so a default lives in one place, and ``bgcli batch`` can
tell an option given without ``--rollout`` (a usage error: it would do nothing).

Seeds. ``--seed`` is a rollout's seed (rollout, best, cube). A study of many positions
(batch, report, chart) takes ``--master-seed`` instead: each position's own seed derives from
it and the position (``bgcli.analysis.position_seed``). There ``--seed`` is still accepted as
the old name of ``--master-seed``, with a note on stderr (``master_seed_option``).
"""

from __future__ import annotations

from typing import Optional

import typer

from ..rollout import RolloutSettings
from .common import MAX_SEED, SEED_RANGE_HELP

DEFAULTS = RolloutSettings()

TrialsOption = typer.Option(None, "--trials", "-n", min=1,
                            help=f"Games per position (default {DEFAULTS.trials}; the equity's "
                                 "SE is then about 0.03).")
SeedOption = typer.Option(None, "--seed", "-s", min=0, max=MAX_SEED,
                          help="Dice seed; a random one is drawn and reported if omitted. "
                               + SEED_RANGE_HELP)
MasterSeedOption = typer.Option(None, "--master-seed", "-s", min=0, max=MAX_SEED,
                                help="Master seed: each position's rollout seed derives from it "
                                     "and the position. Drawn at random (and kept in every row) "
                                     "if omitted; bgcli batch --resume reuses OUT's. "
                                     + SEED_RANGE_HELP)
OldSeedOption = typer.Option(None, "--seed", min=0, max=MAX_SEED,
                             help="Deprecated: the old name of --master-seed (a master seed "
                                  "here, not a rollout's seed); still works, with a note. "
                                  + SEED_RANGE_HELP)
ThreadsOption = typer.Option(None, "--threads", "-t", min=1,
                             help="Rollout threads (default: all cores). Results do not depend on it.")
TruncateOption = typer.Option(None, "--truncate", min=0,
                              help="Stop each game after this many plies and score it with the "
                                   "evaluator (default 0: play to the end).")
VarianceReductionOption = typer.Option(
    None, "--variance-reduction/--no-variance-reduction",
    help="Subtract each roll's luck, measured by the evaluator: unbiased, and with the net "
         "it reaches a given standard error in about half the time (default: on with the net "
         "policy, off for cubeful rollouts and the other policies; see docs/rollouts.md).")
QuasiRandomOption = typer.Option(None, "--quasi-random/--no-quasi-random",
                                 help="Spread the first two rolls evenly: 1296 games hold every "
                                      "pair once (default: on).")
BearoffTruncationOption = typer.Option(
    None, "--bearoff-truncation/--no-bearoff-truncation",
    help="End a game once both sides are in the exact two-sided bear-off database (8 checkers "
         "a side, all home) and score it exactly, as gnubg does (default: on).")
InitialOption = typer.Option(None, "--initial",
                             help="Treat positions as the start of a game: no doubles on the first roll.")
StopSeOption = typer.Option(None, "--stop-se", min=0.0,
                            help="Stop a rollout once its equity's standard error is below this...")
MinGamesOption = typer.Option(None, "--min-games", min=2,
                              help=f"...after at least this many games (default {DEFAULTS.min_games}).")
PolicyOption = typer.Option(DEFAULTS.policy, "--policy",
                            help="How the games are played, and the evaluator of the cube and "
                                 "best-play decisions: net (greedy over the trained neural net, "
                                 "the default; the weights BGCLI_WEIGHTS names, else the shipped "
                                 "ones), heuristic (greedy over a hand-written evaluation) or random.")
_PLIES_HELP = ("The evaluator's lookahead, 0 to 3 (gnubg's n-ply): n averages, over the 21 "
               "rolls of the player on roll, the (n-1)-ply evaluation after the static "
               "evaluator's best play for each; 0 is the static evaluation alone. Plays are "
               "ranked through --filter. ")
PliesOption = typer.Option(1, "--plies", min=0, max=3,
                           help=_PLIES_HELP + "Default 1: a study evaluates every position, and "
                                "2 ply costs about 10x more a position.")
#: best and cube default to 2 ply (gnubg's "World class") since it ranks a roll more than 3x
#: faster than gnubg's 2-ply hint (3.45x, docs/search.md): fast enough to be interactive
DECISION_PLIES = 2
DecisionPliesOption = typer.Option(DECISION_PLIES, "--plies", min=0, max=3,
                                   help=_PLIES_HELP + "Default 2, gnubg's \"World class\": "
                                        "bgcli's 2 ply ranks a roll in about 0.03 s on one "
                                        "core, 3.4x faster than gnubg's 2-ply hint "
                                        "(docs/search.md).")
FilterOption = typer.Option(None, "--filter", metavar="FILTER",
                            help="The move filter of the search (gnubg's): which plays go on "
                                 "to the next ply. A preset, tiny, narrow, normal (default), "
                                 "large or huge, or one N:THRESHOLD per ply (keep up to N plays "
                                 "within THRESHOLD of the best; A+N:T keeps the best A and up to "
                                 "N more; - skips a ply), e.g. 8:0.16,-,2:0.04.")

#: match analysis (analyse, report MATCH) judges at 2 ply as well: an 11-point match's 379
#: decisions in about 10 s on one core, and closer to gnubg's own 2-ply analysis than at 1
#: ply (docs/matches.md)
MATCH_PLIES = 2
ReportPliesOption = typer.Option(None, "--plies", min=0, max=3,
                                 help=_PLIES_HELP + "Default 1 for a collection (a study "
                                      "evaluates every position, and 2 ply costs about 10x "
                                      "more a position), 2 for a match file (gnubg's World "
                                      "class).")
CheckerPliesOption = typer.Option(None, "--checker-plies", min=0, max=2,
                                  help="Play every move of every game at this depth (0, the "
                                       "default, greedy at 0 ply; 1 or 2 search through "
                                       "--filter, as gnubg's rollouts can); cubeful rollouts "
                                       "decide the cube at that depth too. About 50x slower "
                                       "a game at 1 ply.")

# the command-line spelling of each RolloutSettings field, for messages
OPTION_NAMES = {"trials": "--trials", "seed": "--seed", "threads": "--threads",
                "truncate": "--truncate", "variance_reduction": "--variance-reduction",
                "quasi_random": "--quasi-random", "bearoff_truncation": "--bearoff-truncation",
                "initial": "--initial", "stop_se": "--stop-se", "min_games": "--min-games",
                "checker_plies": "--checker-plies", "move_filter": "--filter"}


def rollout_settings(*, policy: str = DEFAULTS.policy, cubeful: bool = False,
                     **options) -> RolloutSettings:
    """``RolloutSettings`` from the rollout options (keyword arguments named as its fields);
    one left None takes its default. Settings that cannot run are a usage error. The seed is
    left as given (None: the rollout draws one)."""
    given = {name: value for name, value in options.items() if value is not None}
    settings = RolloutSettings(policy=policy, cubeful=cubeful, **given)
    problems = settings.problems()
    if problems:
        raise typer.BadParameter("; ".join(problems))
    return settings


def filter_option(text: Optional[str]) -> str:
    """The move filter ``--filter`` names (the preset's name or the stages, normalised), a
    usage error naming the option when it is not one."""
    from ..errors import BgcliError
    from ..search import move_filter

    try:
        return move_filter(text).name
    except BgcliError as exc:
        raise typer.BadParameter(str(exc), param_hint="--filter") from None


def given_options(**options) -> list[str]:
    """The command-line names of the rollout options that were given (not None)."""
    return [OPTION_NAMES[name] for name, value in options.items() if value is not None]


def master_seed_option(master_seed: Optional[int], old_seed: Optional[int],
                       command: str) -> Optional[int]:
    """The master seed from ``--master-seed``, or from its old name ``--seed`` with a note on
    stderr; both at once is a usage error."""
    if old_seed is None:
        return master_seed
    if master_seed is not None:
        raise typer.BadParameter("give --master-seed alone: --seed is its old name",
                                 param_hint="--seed")
    typer.echo(f"bgcli {command}: note: --seed is now --master-seed (a master seed: each "
               "position's seed derives from it); --seed will go", err=True)
    return old_seed
