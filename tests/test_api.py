"""The Python API (bgcli.api): DataFrames equal to what bgcli batch writes."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

import bgcli
from bgcli.columns import column_types
from cli_helpers import run

POSITIONS = [
    "4HPwATDgc/ABMA",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10",
    "OJ+bAQDYnucAAA",
    "GwAAoBsAAAAAAA",
]


def batch_frame(capsys, tmp_path, *options: str) -> pd.DataFrame:
    """bgcli batch's CSV for POSITIONS (ids 1, 2, ...) read by plain pandas."""
    collection = tmp_path / "positions.txt"
    collection.write_text("\n".join(POSITIONS) + "\n")
    out = tmp_path / "rows.csv"
    code, _, err = run(capsys, "batch", str(collection), "-o", str(out), *options)
    assert code == 0, err
    # the text columns read as text: pandas would read "42" or "31" as a number
    text = {name: str for name, kind in column_types(with_rollout=True) if kind == "str"}
    return pd.read_csv(out, dtype=text)


def same(api: pd.DataFrame, batch: pd.DataFrame) -> None:
    """Equal column for column, as pandas reads the CSV (its types, NaN for null)."""
    assert list(api.columns) == list(batch.columns)
    for name in api.columns:
        if name == "elapsed_seconds":
            continue
        ours = api[name].astype(object).where(api[name].notna(), None).tolist()
        theirs = batch[name].astype(object).where(batch[name].notna(), None).tolist()
        assert ours == theirs, name


def test_analyse_with_rollouts_equals_the_batch_file(capsys, tmp_path):
    batch = batch_frame(capsys, tmp_path, "--rollout", "--trials", "36", "--master-seed", "3",
                        "--dice", "42")
    frame = bgcli.analyse(POSITIONS, rollout=bgcli.RolloutSettings(trials=36),
                          master_seed=3, dice="42")
    same(frame, batch)
    assert frame["master_seed"].tolist() == [3] * len(POSITIONS)
    assert str(frame["games"].dtype) == "Int64" and str(frame["is_race"].dtype) == "boolean"


def test_analyse_without_rollouts_equals_the_batch_file(capsys, tmp_path):
    batch = batch_frame(capsys, tmp_path, "--plies", "0", "--policy", "heuristic")
    same(bgcli.analyse(POSITIONS, plies=0, policy="heuristic"), batch)


def test_read_batch_gives_the_frame_of_analyse(capsys, tmp_path):
    batch_frame(capsys, tmp_path, "--plies", "0")
    read = bgcli.read_batch(tmp_path / "rows.csv")
    frame = bgcli.analyse(POSITIONS, plies=0)
    pd.testing.assert_frame_equal(read.drop(columns="elapsed_seconds"),
                                  frame.drop(columns="elapsed_seconds"))


def test_a_series_gives_its_index_as_ids_and_a_frame_its_columns():
    series = pd.Series(POSITIONS[:2], index=["start", "xg"])
    assert bgcli.pips(series)["id"].tolist() == ["start", "xg"]
    table = pd.DataFrame({"id": ["a", "b"], "name": ["one", "two"], "position": POSITIONS[2:]})
    frame = bgcli.pips(table)
    assert frame[["id", "name"]].values.tolist() == [["a", "one"], ["b", "two"]]
    assert frame["pips_on_roll"].tolist() == [104, frame["pips_on_roll"][1]]


def test_rollouts_is_analyse_with_a_rollout():
    one = bgcli.rollouts(POSITIONS[2:3], trials=36, master_seed=5)
    other = bgcli.analyse(POSITIONS[2:3], rollout=bgcli.RolloutSettings(trials=36), master_seed=5)
    pd.testing.assert_frame_equal(one.drop(columns="elapsed_seconds"),
                                  other.drop(columns="elapsed_seconds"))


def test_bad_positions_raise_by_default_and_are_listed_with_skip():
    with pytest.raises(bgcli.BgcliError, match=r"position 2 \('nonsense'\)"):
        bgcli.pips([POSITIONS[0], "nonsense"])
    frame = bgcli.analyse([POSITIONS[0], "nonsense"], plies=0, errors="skip")
    assert frame["id"].tolist() == ["1"]
    assert frame.attrs["errors"][0]["id"] == "2"
    assert "not a position" in frame.attrs["errors"][0]["error"]
    with pytest.raises(bgcli.BgcliError, match="errors must be one of raise, skip"):
        bgcli.pips(POSITIONS, errors="ignore")


def test_bad_settings_raise_one_clear_error():
    with pytest.raises(bgcli.BgcliError, match="plies must be 0, 1, 2 or 3"):
        bgcli.analyse(POSITIONS, plies=4)
    with pytest.raises(bgcli.BgcliError, match="move filter must be one of"):
        bgcli.analyse(POSITIONS, move_filter="wide")
    with pytest.raises(bgcli.BgcliError, match="policy must be one of"):
        bgcli.analyse(POSITIONS, policy="strong")


def test_pips_has_the_race_columns_of_a_batch_row():
    frame = bgcli.pips(POSITIONS)
    names = [name for name, _ in column_types(with_rollout=False)]
    assert list(frame.columns) == names[:len(frame.columns)]
    assert frame.loc[2, "pips_on_roll"] == 104


def test_import_bgcli_loads_neither_numpy_nor_pandas_nor_numba():
    code = ("import sys, bgcli; "
            "print('numpy' in sys.modules, 'pandas' in sys.modules, 'numba' in sys.modules); "
            "bgcli.Position, bgcli.Status; print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False", "True"]
