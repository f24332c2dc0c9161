"""Seeded dice streams that numba kernels carry as a one-element ``uint64`` state array.

SplitMix64: fast, full-period, and good enough for dice; every stream is a pure function of
its seed, so a result never depends on threads or on numba's own generator state.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_MIX1 = uint64(0xBF58476D1CE4E5B9)
_MIX2 = uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True, inline="always")
def next_u64(state):
    """Advance the stream in ``state[0]`` and return 64 random bits."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return z ^ (z >> uint64(31))


@njit(cache=True, nogil=True, inline="always")
def uniform(state):
    """A float in [0, 1) from the stream's top 53 bits."""
    return (next_u64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, inline="always")
def roll_dice(state):
    """Two dice 1..6 from one draw (36 outcomes, rejection keeps them exactly uniform)."""
    while True:
        value = next_u64(state) >> uint64(58)  # 0..63
        if value < uint64(36):
            v = np.int64(value)
            return v // 6 + 1, v % 6 + 1


def new_state(seed: int) -> np.ndarray:
    return np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)
