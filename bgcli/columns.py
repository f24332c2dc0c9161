"""The columns of a position's row, in the order every output writes them.

A row (``bgcli.analysis.analyse``) is the same whether ``bgcli batch`` writes it, a report
draws it or ``bgcli.api`` returns it in a DataFrame: ``id``, ``name``, ``input``,
``position_id``, ``match_id``, ``xgid``, every race metric exactly as ``bgcli pips`` gives it
(floats rounded to 4 decimals), the bear-off metrics, then with rollouts the five rates with
their standard errors, the equity with its standard error and 95% interval, the games played
and the rollout settings (``master_seed`` and the position's own ``seed`` included), then the
decision columns (``DECISION_COLUMNS``), and last ``net``, ``bgcli_version`` and
``elapsed_seconds``. Each column is (name, type), the type one of str, int, float, bool.

Pure: imports nothing, so it is cheap to import anywhere.
"""

from __future__ import annotations

ID_COLUMNS = [("id", "str"), ("name", "str"), ("input", "str"), ("position_id", "str"),
              ("match_id", "str"), ("xgid", "str")]
RACE_COLUMNS = [
    ("is_race", "bool"), ("pips_on_roll", "int"), ("pips_opponent", "int"),
    ("pip_difference", "int"),
    *[(f"{rule}_{key}", kind) for rule in ("keith", "thorp") for key, kind in (
        ("on_roll", "int"), ("opponent", "int"), ("leader_adjusted", "float"),
        ("verdict", "str"), ("action", "str"), ("response", "str"))],
    ("isight_on_roll", "int"), ("isight_opponent", "int"), ("isight_gwc_percent", "float"),
    ("isight_verdict", "str"), ("isight_action", "str"), ("isight_response", "str"),
    ("eight_nine_twelve_ahead_percent", "float"), ("eight_nine_twelve_verdict", "str"),
    ("eight_nine_twelve_action", "str"), ("eight_nine_twelve_response", "str"),
    ("kleinman_sum", "int"), ("kleinman_diff", "int"), ("kleinman_count", "float"),
    ("kleinman_win_probability", "float"),
]
# bgcli.bearoff.bearoff_metrics: null unless the side (for race_*: both sides) is all home
BEAROFF_COLUMNS = [(name, "float") for name in (
    "epc_on_roll", "wastage_on_roll", "epc_opponent", "wastage_opponent", "race_win_exact",
    "race_win_gammon_exact", "race_lose_gammon_exact")]
# the five cubeless rates of the player on roll, in gnubg's order
RATE_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
ROLLOUT_COLUMNS = [
    *[(f"{rate}{suffix}", "float") for rate in (*RATE_NAMES, "equity") for suffix in ("", "_se")],
    ("equity_ci_low", "float"), ("equity_ci_high", "float"), ("games", "int"),
    ("trials", "int"), ("policy", "str"), ("truncate", "int"), ("variance_reduction", "bool"),
    ("quasi_random", "bool"), ("bearoff_truncation", "bool"), ("initial", "bool"),
    ("stop_se", "float"), ("min_games", "int"), ("master_seed", "int"), ("seed", "int"),
]
# the cube action before the roll (null when the dice are rolled), then the evaluator's best
# play for the position's dice or the dice option (null without either)
CUBE_COLUMNS = [
    ("cube_action", "str"), ("cubeful_equity", "float"), ("no_double", "float"),
    ("double_take", "float"), ("double_pass", "float"), ("take_point", "float"),
    ("cube_efficiency", "float"), ("cube_source", "str"),
]
PLAY_COLUMNS = [("best_play", "str"), ("best_play_equity", "float"), ("best_play_dice", "str")]
DECISION_COLUMNS = [*CUBE_COLUMNS, *PLAY_COLUMNS, ("evaluator_policy", "str"),
                    ("evaluator_plies", "int"), ("evaluator_filter", "str"),
                    ("dice_option", "str")]
TAIL_COLUMNS = [("net", "str"), ("bgcli_version", "str"), ("elapsed_seconds", "float")]


def column_types(with_rollout: bool) -> list[tuple[str, str]]:
    """Every (column, type) of a row, in order; the rollout columns only ``with_rollout``."""
    return (ID_COLUMNS + RACE_COLUMNS + BEAROFF_COLUMNS
            + (ROLLOUT_COLUMNS if with_rollout else []) + DECISION_COLUMNS + TAIL_COLUMNS)
