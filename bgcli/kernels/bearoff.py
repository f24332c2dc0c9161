"""Bear-off databases built by dynamic programming.

One-sided database: every layout of up to 15 checkers on a side's points 1..6 (its home board)
with nothing else on the board, C(21, 6) = 54,264 layouts. A layout is ``counts[0..5]``, the
checkers on points 1..6. Its index is its rank in the combinatorial number system: with
``s_j`` = checkers on points 1..j+1, the values ``s_j + j`` (j = 0..5) are strictly increasing
in 0..20, and the index is the sum of ``C(s_j + j, j + 1)``. Index 0 is the empty layout (all
borne off); 54,263 is fifteen checkers on the 1-point.

For each layout the kernel computes two distributions over the number of rolls n:

* ``rolls[index, n]``: probability of bearing off every checker in exactly n rolls, playing
  each roll to minimise the expected number of rolls (as gnubg's one-sided database does);
* ``first[index, n]``: probability that the first checker comes off on exactly roll n, playing
  each roll to minimise the expected number of rolls to that event (gnubg's "gammon"
  distribution). For the empty layout both are 1 at n = 0.

Rules with every checker home: a die can always be played while checkers remain (bear off from
its point, move down from a higher point, or bear off from the highest point when none stands
above), so every play uses all its dice unless the last checker comes off first.

Doubles are handled by composition: ``best[k, d, i]`` is the layout, among those reachable from
layout i by k steps of die d, with the smallest expected number of rolls; it is computed from
the layouts one step away, which have fewer pips and so are finished earlier in pip order.

This module imports numba; kernels take and return arrays only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

POINTS = 6
CHECKERS = 15
#: C(21, 6): layouts of up to 15 checkers on 6 points.
POSITIONS = 54264
#: Length of the distributions built (the longest bear-off, fifteen checkers on the 6-point,
#: needs at most ``MAX_ROLLS`` - 1 rolls; the build checks that nothing falls beyond it).
MAX_ROLLS = 32


@njit(cache=True)
def binomials(size):
    """Pascal's triangle: ``table[n, k]`` = C(n, k) for n, k < size (int64)."""
    table = np.zeros((size, size), dtype=np.int64)
    for n in range(size):
        table[n, 0] = 1
        for k in range(1, n + 1):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k]
    return table


@njit(cache=True)
def _rank(counts, comb):
    index = 0
    total = 0
    for j in range(POINTS):
        total += counts[j]
        index += comb[total + j, j + 1]
    return index


@njit(cache=True)
def _unrank(index, comb, counts):
    remaining = index
    upper = 20
    previous = 0
    tops = np.zeros(POINTS, dtype=np.int64)
    for j in range(POINTS - 1, -1, -1):
        p = upper
        while comb[p, j + 1] > remaining:
            p -= 1
        tops[j] = p
        remaining -= comb[p, j + 1]
        upper = p - 1
    for j in range(POINTS):
        total = tops[j] - j
        counts[j] = total - previous
        previous = total


@njit(cache=True)
def rank_all(layouts):
    """Index of each layout in ``layouts`` (int array (m, 6)); no validation."""
    comb = binomials(22)
    out = np.empty(layouts.shape[0], dtype=np.int64)
    counts = np.zeros(POINTS, dtype=np.int64)
    for i in range(layouts.shape[0]):
        for j in range(POINTS):
            counts[j] = layouts[i, j]
        out[i] = _rank(counts, comb)
    return out


@njit(cache=True)
def all_layouts():
    """``layouts[index]`` = the counts on points 1..6 (int8 (54264, 6))."""
    comb = binomials(22)
    layouts = np.zeros((POSITIONS, POINTS), dtype=np.int8)
    counts = np.zeros(POINTS, dtype=np.int64)
    for index in range(POSITIONS):
        _unrank(index, comb, counts)
        for j in range(POINTS):
            layouts[index, j] = counts[j]
    return layouts


@njit(cache=True)
def _steps(counts, die, comb, targets, bore):
    """The distinct layouts one step of ``die`` can reach: writes their indices into
    ``targets`` and whether the step bore a checker off into ``bore``; returns how many."""
    n = 0
    highest = -1
    for j in range(POINTS - 1, -1, -1):
        if counts[j] > 0:
            highest = j
            break
    for j in range(POINTS):
        if counts[j] == 0:
            continue
        point = j + 1
        if point > die:
            counts[j] -= 1
            counts[j - die] += 1
            targets[n] = _rank(counts, comb)
            bore[n] = False
            counts[j - die] -= 1
            counts[j] += 1
            n += 1
        elif point == die or j == highest:
            counts[j] -= 1
            targets[n] = _rank(counts, comb)
            bore[n] = True
            counts[j] += 1
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _best_of(n, targets, bore, best_next, gbest_next, mean, gmean, choice, value, gchoice,
             gvalue):
    """Fold the ``n`` candidate layouts in ``targets`` into the running best choices: the
    final layout with the lowest mean rolls to finish, and the one with the lowest mean rolls
    to the first checker off (-1 once a candidate has borne a checker off)."""
    for t in range(n):
        final = best_next[targets[t]]
        if mean[final] < value:
            value = mean[final]
            choice = final
        if bore[t]:
            gchoice = -1
            gvalue = -1.0
        else:
            g = gbest_next[targets[t]]
            if g == -1:
                gchoice = -1
                gvalue = -1.0
            elif gmean[g] < gvalue:
                gvalue = gmean[g]
                gchoice = g
    return choice, value, gchoice, gvalue


@njit(cache=True)
def build_onesided():
    """(rolls, first, layouts): the one-sided distributions (float64 (54264, MAX_ROLLS)) and
    the layout of every index. Raises if some distribution would not fit in MAX_ROLLS."""
    comb = binomials(22)
    layouts = all_layouts()
    pips = np.zeros(POSITIONS, dtype=np.int64)
    for i in range(POSITIONS):
        for j in range(POINTS):
            pips[i] += (j + 1) * layouts[i, j]
    order = np.argsort(pips, kind="mergesort")

    rolls = np.zeros((POSITIONS, MAX_ROLLS), dtype=np.float64)
    first = np.zeros((POSITIONS, MAX_ROLLS), dtype=np.float64)
    mean = np.zeros(POSITIONS, dtype=np.float64)
    gmean = np.zeros(POSITIONS, dtype=np.float64)
    # best[k, d - 1, i]: best layout after k steps of die d from i (k = 0..4), by mean rolls.
    best = np.zeros((5, 6, POSITIONS), dtype=np.int64)
    # gbest[k, d - 1, i]: the same for the first-checker-off objective, -1 when a checker
    # can come off within those k steps (checker count only falls, so that is the best).
    gbest = np.zeros((5, 6, POSITIONS), dtype=np.int64)
    counts = np.zeros(POINTS, dtype=np.int64)
    targets = np.zeros(POINTS, dtype=np.int64)
    bore = np.zeros(POINTS, dtype=np.bool_)

    rolls[0, 0] = 1.0
    first[0, 0] = 1.0
    for d in range(6):
        for k in range(5):
            best[k, d, 0] = 0
            gbest[k, d, 0] = 0

    for position in range(1, POSITIONS):
        i = order[position]
        for j in range(POINTS):
            counts[j] = layouts[i, j]
        # all k-step compositions of i except k = 0 need only layouts with fewer pips,
        # so compute them first, then the distributions of i from them.
        for d in range(6):
            best[0, d, i] = i
            gbest[0, d, i] = i
        for d in range(6):
            n = _steps(counts, d + 1, comb, targets, bore)
            for k in range(1, 5):
                choice, value, gchoice, gvalue = _best_of(
                    n, targets, bore, best[k - 1, d], gbest[k - 1, d], mean, gmean,
                    -1, np.inf, -2, np.inf)
                best[k, d, i] = choice
                gbest[k, d, i] = gchoice

        for d1 in range(6):
            for d2 in range(d1, 6):
                if d1 == d2:
                    weight = 1.0 / 36.0
                    choice = best[4, d1, i]
                    gchoice = gbest[4, d1, i]
                else:
                    weight = 2.0 / 36.0
                    choice = -1
                    value = np.inf
                    gchoice = -2
                    gvalue = np.inf
                    for first_die in range(2):
                        a = d1 if first_die == 0 else d2
                        b = d2 if first_die == 0 else d1
                        n = _steps(counts, a + 1, comb, targets, bore)
                        choice, value, gchoice, gvalue = _best_of(
                            n, targets, bore, best[1, b], gbest[1, b], mean, gmean,
                            choice, value, gchoice, gvalue)
                for m in range(1, MAX_ROLLS):
                    rolls[i, m] += weight * rolls[choice, m - 1]
                if rolls[choice, MAX_ROLLS - 1] > 0.0:
                    raise ValueError("MAX_ROLLS too small for the bear-off distributions")
                if gchoice == -1:
                    first[i, 1] += weight
                else:
                    for m in range(1, MAX_ROLLS):
                        first[i, m] += weight * first[gchoice, m - 1]
        total = 0.0
        gtotal = 0.0
        for m in range(MAX_ROLLS):
            total += m * rolls[i, m]
            gtotal += m * first[i, m]
        mean[i] = total
        gmean[i] = gtotal
    return rolls, first, layouts


# ---------------------------------------------------------------------------- two-sided
#
# Layouts of at most ``n`` checkers have the first C(n + 6, 6) one-sided indices (the number
# system orders layouts by their highest "separator", so fewer checkers come first). For every
# such pair (i on roll, j opponent) the table holds the exact cubeless probability that the
# side on roll bears off first, both sides playing to maximise their own chance:
#
#     T[i, j] = sum over the 21 rolls of weight * max over plays i -> i' of (1 - T[j, i'])
#
# with T[0, j] = 1 (j > 0: the side on roll is already off) and T[i, 0] = 0. Every term needs
# a pair with fewer pips in all, so pairs are filled in order of their total pip count. With
# at most 8 checkers a side no gammon is possible (each side has 7 or more off), so these are
# the exact cubeless chances.

#: The 21 rolls (d1 <= d2) and their weights in 36ths.
ROLL_D1 = np.array([a for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
ROLL_D2 = np.array([b for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)


@njit(cache=True)
def _advance(frontier, count, die, layouts, comb, out, counts, targets, bore):
    """Every layout one step of ``die`` from the ``count`` layouts in ``frontier`` (the
    empty layout stays put), deduplicated into ``out``; returns how many."""
    n = 0
    for f in range(count):
        source = frontier[f]
        if source == 0:
            out[n] = 0
            n += 1
            continue
        for j in range(POINTS):
            counts[j] = layouts[source, j]
        m = _steps(counts, die, comb, targets, bore)
        for t in range(m):
            out[n] = targets[t]
            n += 1
    if n == 0:
        return 0
    values = np.sort(out[:n])
    unique = 1
    out[0] = values[0]
    for k in range(1, n):
        if values[k] != values[k - 1]:
            out[unique] = values[k]
            unique += 1
    return unique


@njit(cache=True)
def successors(size, d1s, d2s):
    """The distinct layouts each of the first ``size`` layouts can reach with each of the
    21 rolls: CSR arrays (start int64[size * 21 + 1], target int64[...])."""
    comb = binomials(22)
    layouts = all_layouts()
    counts = np.zeros(POINTS, dtype=np.int64)
    targets = np.zeros(POINTS, dtype=np.int64)
    bore = np.zeros(POINTS, dtype=np.bool_)
    a = np.zeros(4096, dtype=np.int64)
    b = np.zeros(4096, dtype=np.int64)
    merged = np.zeros(8192, dtype=np.int64)
    start = np.zeros(size * 21 + 1, dtype=np.int64)
    capacity = size * 21 * 8
    target = np.zeros(capacity, dtype=np.int64)
    used = 0
    for i in range(size):
        for r in range(21):
            d1 = d1s[r]
            d2 = d2s[r]
            total = 0
            if d1 == d2:
                a[0] = i
                n = 1
                for _ in range(2):
                    n = _advance(a, n, d1, layouts, comb, b, counts, targets, bore)
                    n = _advance(b, n, d1, layouts, comb, a, counts, targets, bore)
                for k in range(n):
                    merged[k] = a[k]
                total = n
            else:
                for first in range(2):
                    x = d1 if first == 0 else d2
                    y = d2 if first == 0 else d1
                    a[0] = i
                    n = _advance(a, 1, x, layouts, comb, b, counts, targets, bore)
                    n = _advance(b, n, y, layouts, comb, a, counts, targets, bore)
                    for k in range(n):
                        merged[total + k] = a[k]
                    total += n
                values = np.sort(merged[:total])
                unique = 1
                merged[0] = values[0]
                for k in range(1, total):
                    if values[k] != values[k - 1]:
                        merged[unique] = values[k]
                        unique += 1
                total = unique
            if used + total > capacity:
                grown = np.zeros(2 * capacity + total, dtype=np.int64)
                grown[:used] = target[:used]
                target = grown
                capacity = grown.shape[0]
            for k in range(total):
                target[used + k] = merged[k]
            used += total
            start[i * 21 + r + 1] = used
    return start, target[:used].copy()


@njit(cache=True)
def build_twosided(size, start, target, weights):
    """T[i, j] (float64 (size, size)) for the first ``size`` layouts (see above);
    ``start``/``target`` from ``successors``, ``weights`` the 21 roll weights (sum 1)."""
    layouts = all_layouts()
    pips = np.zeros(size, dtype=np.int64)
    for i in range(size):
        for j in range(POINTS):
            pips[i] += (j + 1) * layouts[i, j]
    top = 0
    for i in range(size):
        top = max(top, pips[i])
    order = np.argsort(pips, kind="mergesort")
    group = np.zeros(top + 2, dtype=np.int64)  # group[p]: first position in order of pips p
    for i in range(size):
        group[pips[i] + 1] += 1
    for p in range(top + 1):
        group[p + 1] += group[p]
    table = np.zeros((size, size), dtype=np.float64)
    for j in range(1, size):
        table[0, j] = 1.0
    for total in range(1, 2 * top + 1):
        for p in range(max(1, total - top), min(total - 1, top) + 1):
            q = total - p
            for gi in range(group[p], group[p + 1]):
                i = order[gi]
                for gj in range(group[q], group[q + 1]):
                    j = order[gj]
                    value = 0.0
                    for r in range(21):
                        best = 0.0
                        for k in range(start[i * 21 + r], start[i * 21 + r + 1]):
                            v = 1.0 - table[j, target[k]]
                            if v > best:
                                best = v
                        value += weights[r] * best
                    table[i, j] = value
    return table
