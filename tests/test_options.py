"""The shared rollout options (bgcli.cli.options): --master-seed, and --seed its old name."""

from __future__ import annotations

import pytest

from bgcli.cli.options import rollout_settings
from bgcli.rollout import RolloutSettings
from cli_helpers import run

RACE = "OJ+bAQDYnucAAA"


def test_batch_master_seed_and_its_old_name_give_the_same_rows(capsys, tmp_path):
    collection = tmp_path / "c.txt"
    collection.write_text(f"{RACE}\n")
    code, new, err = run(capsys, "batch", str(collection), "--rollout", "--trials", "36",
                         "--master-seed", "9", "-f", "jsonl")
    assert code == 0 and "note" not in err
    code, old, err = run(capsys, "batch", str(collection), "--rollout", "--trials", "36",
                         "--seed", "9", "-f", "jsonl")
    assert code == 0
    assert "bgcli batch: note: --seed is now --master-seed" in err
    strip = lambda out: out.split('"elapsed_seconds"')[0]  # noqa: E731
    assert strip(new) == strip(old) and '"master_seed": 9' in new


def test_both_seed_names_at_once_are_one_usage_error(capsys, tmp_path):
    collection = tmp_path / "c.txt"
    collection.write_text(f"{RACE}\n")
    code, out, err = run(capsys, "batch", str(collection), "--rollout", "--seed", "1",
                         "--master-seed", "2")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "give --master-seed alone" in err


@pytest.mark.parametrize("command", ["batch", "report", "chart"])
def test_help_names_the_master_seed_and_the_old_name(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--master-seed" in out and "Deprecated" in out


def test_options_not_given_take_the_settings_defaults():
    assert rollout_settings() == RolloutSettings()
    assert rollout_settings(trials=None, truncate=3, stop_se=None) == RolloutSettings(truncate=3)
