"""The pruning net's weights (``bgcli.kernels.prune``): file format, packing and loading.

``bgcli/data/prune_weights.npz`` holds ``params`` (the flat layout the kernel reads: the
hidden size, then the net) and ``record``, a JSON string saying how
``scripts/ship_prune_net.py`` made them (the same record sits beside them as
``prune_weights.json``). They screen the plays the full net then scores; the full net's
weights may change (``BGCLI_WEIGHTS``) without them: a screen only has to keep the best play
among its survivors, and the full net still chooses.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

DEFAULT_PRUNE_WEIGHTS = Path(__file__).parent / "data" / "prune_weights.npz"


def pack_prune_net(net: dict) -> np.ndarray:
    """The file's layout of a net ``{"w1": (196, H), "b1": (H,), "w2": (H, 5), "b2": (5,)}``
    (the fitting code's shapes): H, then W1 input-major, b1, W2 output-major, b2."""
    from .kernels.prune import N_PRUNE_INPUTS, PRUNE_HIDDEN

    hidden = net["b1"].shape[0]
    if hidden != PRUNE_HIDDEN or net["w1"].shape != (N_PRUNE_INPUTS, hidden) \
            or net["w2"].shape != (hidden, 5) or net["b2"].shape != (5,):
        raise ValueError(f"a pruning net must be {N_PRUNE_INPUTS}-{PRUNE_HIDDEN}-5")
    parts = [np.array([float(hidden)]), np.ravel(net["w1"]), np.ravel(net["b1"]),
             np.ravel(np.transpose(net["w2"])), np.ravel(net["b2"])]
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in parts])


def unpack_prune_net(params: np.ndarray) -> tuple[np.ndarray, ...]:
    """(W1 (196, H), b1, W2 (5, H), b2) from the file's layout."""
    from .kernels.prune import N_PRUNE_INPUTS

    hidden = int(params[0]) if len(params) else 0
    size = N_PRUNE_INPUTS * hidden + 6 * hidden + 5
    if hidden <= 0 or params.shape != (1 + size,):
        raise ValueError("not a packed pruning net")
    at = 1 + N_PRUNE_INPUTS * hidden
    return (params[1:at].reshape(N_PRUNE_INPUTS, hidden), params[at:at + hidden],
            params[at + hidden:at + 6 * hidden].reshape(5, hidden), params[at + 6 * hidden:])


def save_prune_weights(path: str | Path, params: np.ndarray, record: dict) -> None:
    """Write the packed net and its record to ``path`` (and the record beside it as JSON)."""
    unpack_prune_net(params)  # checks the layout
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, params=params.astype(np.float64), record=json.dumps(record, sort_keys=True))
    tmp.replace(path)
    path.with_suffix(".json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")


def read_prune_weights(path: str | Path | None = None) -> np.ndarray:
    """The packed net in the file's layout (the shipped one by default)."""
    with np.load(path or DEFAULT_PRUNE_WEIGHTS, allow_pickle=False) as data:
        return np.ascontiguousarray(data["params"], dtype=np.float64)


@lru_cache(maxsize=2)
def load_prune_params(path: str | None = None) -> np.ndarray:
    """The net in the kernel's layout (``bgcli.kernels.prune.kernel_layout``), the shipped
    one by default; read once, do not modify."""
    from .kernels.prune import kernel_layout

    return kernel_layout(*unpack_prune_net(read_prune_weights(path)))


@lru_cache(maxsize=1)
def prune_id() -> str:
    """Which pruning net this is, for results to carry: a hash of its weights (read once:
    every result row names it)."""
    import hashlib

    return "sha256:" + hashlib.sha256(read_prune_weights().tobytes()).hexdigest()[:12]
