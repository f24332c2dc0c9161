"""The trained net's weights: file format, loading (cached) and saving.

A weights file is an ``.npz`` holding ``params`` (the flat float64 array laid out as
``bgcli.kernels.net`` documents), ``n_inputs``, ``n_hidden`` and ``n_hidden2`` (the contact
net's second layer, 0 or absent for none; checked on load) and
``record``, a JSON string saying how the weights were made (command, games, seed, wall time,
strength checks). The shipped weights live in ``bgcli/data/net_weights.npz`` with the same
record beside them as ``net_weights.json``.

The net policy plays with the shipped weights unless the environment variable
``BGCLI_WEIGHTS`` names another weights file (one ``bgcli train`` wrote, say), for every
command. Results say which weights made them: ``net_id`` names the weights by their training
games and a hash of the weights themselves.

This module imports numpy only; the kernel constants come from a plain copy checked on load.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from .errors import BgcliError

DEFAULT_WEIGHTS = Path(__file__).parent / "data" / "net_weights.npz"
WEIGHTS_ENV = "BGCLI_WEIGHTS"


def _shape() -> tuple[int, int, int]:
    from .kernels.net import N_HIDDEN, N_INPUTS, PARAMS_SIZE

    return N_INPUTS, N_HIDDEN, PARAMS_SIZE


def second_layer_units(params: np.ndarray) -> int | None:
    """The contact net's second-layer units that ``params`` hold (0: one-layer nets), or
    None when ``params`` are not weights of this version's nets at all."""
    from .kernels.net import second_layer_units as units

    return units(params)


def net_shape(params: np.ndarray) -> str:
    """The nets' shapes in words, for records: e.g. ``contact and race nets, 234-80-5 each``."""
    from .kernels.net import has_late_net

    n_inputs, n_hidden, _ = _shape()
    units = second_layer_units(params)
    late = has_late_net(params)
    if not units:
        nets = "contact, race and late contact nets" if late else "contact and race nets"
        return f"{nets}, {n_inputs}-{n_hidden}-5 each"
    return (f"contact net {n_inputs}-{n_hidden}-{units}-5 (both hidden layers feed the outputs), "
            f"race net {n_inputs}-{n_hidden}-5" + (f", late contact net {n_inputs}-{n_hidden}-5"
                                                   if late else ""))


def save_weights(path: str | Path, params: np.ndarray, record: dict,
                 extra: dict[str, np.ndarray] | None = None) -> None:
    """Write ``params`` and ``record`` to ``path`` (an ``.npz``), atomically, with the
    ``extra`` arrays (a training run's state, ``read_extra_arrays``) beside them."""
    n_inputs, n_hidden, size = _shape()
    n_hidden2 = second_layer_units(params)
    if n_hidden2 is None:
        raise ValueError(f"expected {size} weights (or a second layer or late contact net "
                         f"behind them), got shape {params.shape}")
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, params=params.astype(np.float64), n_inputs=n_inputs, n_hidden=n_hidden,
             n_hidden2=n_hidden2, record=json.dumps(record, sort_keys=True), **(extra or {}))
    tmp.replace(path)


def read_extra_arrays(path: str | Path, names) -> dict[str, np.ndarray] | None:
    """The arrays ``names`` that ``save_weights(..., extra=...)`` stored in a weights file
    (float64, each the size of the weights), or None if any is missing."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if not all(name in data.files for name in names) or "params" not in data.files:
                return None
            size = data["params"].size
            arrays = {name: np.ascontiguousarray(data[name], dtype=np.float64) for name in names}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    return arrays if all(a.shape == (size,) for a in arrays.values()) else None


def read_weights(path: str | Path) -> tuple[np.ndarray, dict]:
    """(params, record) from a weights file; ``BgcliError`` when it does not fit this net."""
    n_inputs, n_hidden, _ = _shape()
    not_weights = BgcliError("not a net weights file (an .npz that bgcli train writes): "
                             f"{str(path)!r}")
    try:
        if Path(path).is_file() and not zipfile.is_zipfile(path):
            raise not_weights  # np.load would read it as a pickle or a bare .npy array
        with np.load(path, allow_pickle=False) as data:
            params = np.ascontiguousarray(data["params"], dtype=np.float64)
            shape = (int(data["n_inputs"]), int(data["n_hidden"]))
            n_hidden2 = int(data["n_hidden2"]) if "n_hidden2" in data.files else 0
            record = json.loads(str(data["record"]))
    except FileNotFoundError:
        raise BgcliError(f"no such net weights file: {str(path)!r}") from None
    except KeyError:
        raise BgcliError("not a net weights file (it lacks the params, n_inputs, n_hidden and "
                         f"record arrays that bgcli train writes): {str(path)!r}") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise BgcliError(f"cannot read net weights: {exc}: {str(path)!r}") from None
    if not isinstance(record, dict):
        raise not_weights
    if shape == (n_inputs, n_hidden):
        if second_layer_units(params) == n_hidden2:
            return params, record
        if n_hidden2:
            raise BgcliError(f"net weights hold a {n_hidden2}-unit second layer that this "
                             f"version cannot read: {str(path)!r}")
    # the earlier layouts: 196 point inputs and fewer hand-made features per side
    older = shape[1] == n_hidden and 196 < shape[0] < n_inputs and shape[0] % 2 == 0
    hint = (f" (scripts/widen_net_inputs.py in bgcli's source carries {shape[0]}-input "
            f"weights over)" if older else "")
    raise BgcliError(f"net weights are for a {shape[0]}-{shape[1]}-5 net, this version "
                     f"uses {n_inputs}-{n_hidden}-5{hint}: {str(path)!r}")


def weights_path() -> Path:
    """The weights the net policy plays with: ``$BGCLI_WEIGHTS`` when set, else the shipped
    ones."""
    chosen = os.environ.get(WEIGHTS_ENV)
    return Path(chosen) if chosen else DEFAULT_WEIGHTS


@lru_cache(maxsize=4)
def _cached(path: str) -> tuple[np.ndarray, str]:
    try:
        params, record = read_weights(path)
    except BgcliError as exc:
        if path == str(weights_path()) and os.environ.get(WEIGHTS_ENV):
            raise BgcliError(f"{WEIGHTS_ENV}: {exc}") from None
        raise
    digest = hashlib.sha256(params.tobytes()).hexdigest()[:12]
    games = record.get("games")
    identity = f"sha256:{digest}" + ("" if games is None else f" ({games} games)")
    return params, identity


def load_params(path: str | Path | None = None) -> np.ndarray:
    """The net's weights from ``path``, by default ``weights_path()`` (read once per path,
    then cached: do not modify the array)."""
    return _cached(str(Path(path) if path is not None else weights_path()))[0]


def net_id(path: str | Path | None = None) -> str:
    """Which weights these are, for results to carry: ``sha256:`` and the first 12 hex digits
    of the SHA-256 of the weights (the function itself, not the file's record), then the
    training games from the record, e.g. ``sha256:0123456789ab (6438100 games)``."""
    return _cached(str(Path(path) if path is not None else weights_path()))[1]


def weights_record(path: str | Path | None = None) -> dict:
    """The record of how the weights at ``path`` (default: ``weights_path()``) were made."""
    return read_weights(path if path is not None else weights_path())[1]
