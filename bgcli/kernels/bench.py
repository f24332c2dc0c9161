"""Kernels the benchmarks time (``bgcli.bench``): loops that call a kernel many times in
compiled code, so that Python's call overhead stays out of the figure."""

from __future__ import annotations

from numba import njit

from .movegen import generate_plays


@njit(cache=True, nogil=True)
def generate_all(positions, dice, boards, steps, keys, table, work):
    """Legal plays of every ``positions[i]`` (int8 (n, 2, 25)) for ``dice[i]``; the total
    number of plays (``movegen.generate_plays`` into the buffers given)."""
    total = 0
    for i in range(positions.shape[0]):
        count, _ = generate_plays(positions[i], dice[i, 0], dice[i, 1], boards, steps, keys,
                                  table, work)
        total += count
    return total
