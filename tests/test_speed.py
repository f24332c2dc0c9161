"""The shortcuts taken for speed give the same results as the plain way (issue 20)."""

from __future__ import annotations

import numpy as np

from bgcli import cache, evaluation


def test_cached_params_equal_the_built_ones(tmp_path, monkeypatch):
    """The weights with the bear-off tables, memory-mapped from the cache, are the array
    built from the tables, and writable (the kernels are compiled for writable arrays)."""
    monkeypatch.setattr(cache, "cache_dirs", lambda: [tmp_path])
    build = evaluation._params.__wrapped__  # past the per-process lru_cache
    built = build("heuristic", True, None)
    assert len(list(tmp_path.glob("params-*.npy"))) == 1
    mapped = build("heuristic", True, None)
    assert type(mapped) is np.ndarray and mapped.flags.writeable
    assert mapped.base is not None and not np.shares_memory(mapped, built)
    np.testing.assert_array_equal(mapped, built)


def test_params_key_follows_the_weights():
    weights = np.zeros(10)
    other = weights.copy()
    other[3] = 1e-9
    assert evaluation._params_key(weights) == evaluation._params_key(weights.copy())
    assert evaluation._params_key(weights) != evaluation._params_key(other)
