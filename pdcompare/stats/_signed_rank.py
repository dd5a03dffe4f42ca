"""Signed ranks of many rows of paired differences at once, and the null distributions.

The machinery behind :func:`pdcompare.stats.paired.wilcoxon`: every function
works on a 2-D array whose rows are the differences of different pairs of
models, with no Python loop over rows.

Ranking. ``|d|`` and the sign of ``d`` are packed into one unsigned integer per
element: the IEEE-754 bits of a float rotated left by one place, so that the
magnitude bits come first and the sign bit becomes the lowest bit. For
non-negative floats the bit pattern orders like the value, so sorting these
keys along each row sorts ``|d|`` (zeros first, NaN last) and carries each
sign along, without an ``argsort``. Zero differences (dropped, scipy's
``zero_method="wilcox"``) are then the first positions of a row and missing
ones the last; tied magnitudes are adjacent.

Null distributions. For ``n`` differences without ties or zeros the counts
of the signed-rank statistic ``T+`` over the ``2**n`` sign patterns are the
coefficients of ``prod_{k=1..n} (1 + x**k)``, computed once per ``n`` in
integers (exact up to ``n = 50``, where they stay below ``2**53``). With ties
or zeros and at most 13 observations scipy enumerates all sign patterns; the
counts of twice ``T+`` (an integer: average ranks are multiples of 1/2) are
then computed once per distinct set of ranks.

Attainable p-values. :func:`extreme_pvalue` and :func:`min_signed_rank_pvalue`
give the smallest p-value a sign-flip or signed-rank test can reach on ``n``
observations, beside the exact distribution they come from;
:func:`normal_signed_rank_pvalue` is scipy's normal approximation.
"""

from __future__ import annotations

import functools

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._common import tails

#: Largest sample size with an exact p-value in ``method="auto"`` (scipy: ``d.shape[-1] > 50``).
EXACT_MAX_N = 50

#: Largest sample size that scipy enumerates when there are ties or zeros (2**13 <= 9999).
PERMUTATION_MAX_N = 13


def sorted_keys(diff: np.ndarray) -> np.ndarray:
    """Sort ``|diff|`` along each row, each element keeping its sign in the lowest bit.

    ``diff`` must hold no negative zero (``values + 0.0`` removes them before
    differencing). Returns uint64 keys: ``key >> 1`` orders like ``|d|`` (0 for
    a zero difference, largest for NaN) and ``key & 1`` is 1 for a negative
    difference.
    """
    bits = np.ascontiguousarray(diff, dtype=np.float64).view(np.uint64)
    keys = bits << np.uint64(1)
    keys |= bits >> np.uint64(63)
    keys.sort(axis=1)
    return keys


def average_ranks(keys: np.ndarray, n_zero: np.ndarray, n_present: np.ndarray):
    """Average ranks of the non-zero present differences and the size of their tie groups.

    ``keys`` are the sorted keys of :func:`sorted_keys`; positions below
    ``n_zero`` (zeros) and from ``n_present`` on (missing) get rank 0 and
    group size 0. Ranks count from 1 among the non-zero differences, ties
    averaged, as ``scipy.stats.rankdata(method="average")``.
    """
    n_rows, n = keys.shape
    magnitude = keys >> np.uint64(1)
    positions = np.arange(n)
    new = np.ones((n_rows, n), dtype=bool)
    new[:, 1:] = magnitude[:, 1:] != magnitude[:, :-1]
    start = np.maximum.accumulate(np.where(new, positions, 0), axis=1)
    last = np.ones((n_rows, n), dtype=bool)
    last[:, :-1] = new[:, 1:]
    stop = np.minimum.accumulate(np.where(last, positions + 1, n)[:, ::-1], axis=1)[:, ::-1]
    keep = (positions >= n_zero[:, None]) & (positions < n_present[:, None])
    # Ordinal ranks start + 1 .. stop of the group, averaged, shifted past the zeros.
    ranks = np.where(keep, (start + stop + 1) * 0.5 - n_zero[:, None], 0.0)
    sizes = np.where(keep, stop - start, 0)
    return ranks, sizes


@functools.cache
def exact_tails(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts of ``T+ <= k`` and ``T+ >= k`` (k = 0 .. n(n+1)/2) over the 2**n sign patterns.

    Divided by ``2**n`` they are scipy's ``WilcoxonDistribution(n).cdf`` and
    ``.sf`` (whose probabilities are the same dyadic fractions, summed
    without rounding error).
    """
    counts = np.ones(1, dtype=np.int64)
    for k in range(1, n + 1):
        grown = np.zeros(counts.size + k, dtype=np.int64)
        grown[: counts.size] += counts
        grown[k:] += counts
        counts = grown
    below = np.cumsum(counts)
    above = below[-1] - below + counts
    below.setflags(write=False)
    above.setflags(write=False)
    return below, above


def permutation_tails(doubled_ranks: np.ndarray):
    """Tails of twice ``T+`` over all sign patterns, once per distinct row of doubled ranks.

    ``doubled_ranks`` (rows x n, integers, 0 for a zero or missing
    difference) are twice the average ranks of each row. Returns
    ``(below, above, row)``: ``below[u, s]`` and ``above[u, s]`` count the
    sign patterns of the non-zero differences with ``2 T+ <= s`` and
    ``2 T+ >= s`` for the ``u``-th distinct rank set, and ``row`` maps each
    input row to its ``u``.
    """
    ranks = np.sort(doubled_ranks.astype(np.int64), axis=1)
    # The non-zero ranks (at most PERMUTATION_MAX_N of them) are last after sorting.
    ranks = ranks[:, -PERMUTATION_MAX_N:]
    # A set of average ranks is fixed by its size and where its tie groups start: one
    # integer key per row (np.unique on rows would sort them as bytes, much slower).
    width = ranks.shape[1]
    starts = ranks[:, 1:] != ranks[:, :-1]
    key = starts.astype(np.int64) @ (1 << np.arange(1, width, dtype=np.int64))
    key += np.count_nonzero(ranks, axis=1).astype(np.int64) << width
    _, first, row = np.unique(key, return_index=True, return_inverse=True)
    unique = ranks[first]
    total = int(unique.sum(axis=1).max(initial=0))
    counts = np.zeros((unique.shape[0], total + 1), dtype=np.int64)
    counts[:, 0] = 1
    grid = np.arange(total + 1)
    for weight in unique.T:
        source = grid - weight[:, None]
        shifted = np.take_along_axis(counts, np.maximum(source, 0), axis=1)
        shifted[(source < 0) | (weight[:, None] == 0)] = 0
        counts += shifted
    below = np.cumsum(counts, axis=1)
    above = below[:, -1:] - below + counts
    return below, above, row.ravel()


# --- the smallest p-values the exact tests can reach, and the normal approximation ---


def extreme_pvalue(count, alternative="two-sided") -> np.ndarray:
    """The smallest p-value of an exact sign-flip test on ``count`` untied, non-zero observations.

    Every sign the same is the most extreme of the ``2**count`` equally
    likely sign patterns: ``1 / 2**count`` one-sided, ``min(1, 2 / 2**count)``
    two-sided; 1 without any observation. This is the smallest p-value of
    the sign test (``scipy.stats.binomtest``) on ``count`` wins and losses,
    and of the exact Wilcoxon signed-rank test on ``count`` non-zero
    differences (with or without ties, whose all-positive pattern is still
    the only one with the largest rank sum).

    Examples
    --------
    >>> extreme_pvalue([8, 1, 0]).tolist()
    [0.0078125, 1.0, 1.0]

    Compare with scipy:

    >>> from scipy import stats
    >>> float(stats.wilcoxon(range(1, 9)).pvalue), float(stats.binomtest(8, 8).pvalue)
    (0.0078125, 0.0078125)
    """
    sides = tails(alternative)
    count = np.asarray(count, dtype=float)
    out = np.minimum(1.0, sides * np.exp2(-count))
    out = np.where(count > 0, out, np.where(np.isnan(count), np.nan, 1.0))
    return out[()] if out.ndim == 0 else out


def normal_signed_rank_pvalue(rank_sum, count, tie_term, alternative) -> np.ndarray:
    """P-value of the signed-rank test's normal approximation, as ``scipy.stats.wilcoxon``.

    ``z = (T+ − c(c+1)/4) / sqrt((c(c+1)(2c+1) − tie_term/2) / 24)`` for ``c``
    non-zero differences, without continuity correction (scipy's default).
    """
    rank_sum, count, tie_term = (np.asarray(x, dtype=float) for x in (rank_sum, count, tie_term))
    mean = count * (count + 1.0) * 0.25
    variance = count * (count + 1.0) * (2.0 * count + 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt((variance - tie_term / 2) / 24)
        z = (rank_sum - mean) / se
    if alternative == "less":
        return special.ndtr(z)
    if alternative == "greater":
        return special.ndtr(-z)
    return 2 * special.ndtr(-np.abs(z))


def min_signed_rank_pvalue(n, alternative="two-sided") -> np.ndarray:
    """The smallest p-value of ``scipy.stats.wilcoxon`` on ``n`` differences without ties or zeros.

    Exact (``n <= 50``): :func:`extreme_pvalue`; beyond, the normal
    approximation at the largest rank sum ``n(n+1)/2``.

    Examples
    --------
    >>> [float(p) for p in min_signed_rank_pvalue([8, 60])]  # doctest: +ELLIPSIS
    [0.0078125, 1.6...e-11]

    Compare with scipy:

    >>> from scipy import stats
    >>> float(stats.wilcoxon(range(1, 61)).pvalue)  # doctest: +ELLIPSIS
    1.6...e-11
    """
    tails(alternative)
    n = np.asarray(n, dtype=float)
    extreme = np.where(alternative == "less", 0.0, n * (n + 1.0) / 2)
    normal = normal_signed_rank_pvalue(extreme, n, 0.0, alternative)
    out = np.where(n <= EXACT_MAX_N, extreme_pvalue(n, alternative), normal)
    return out[()] if out.ndim == 0 else out
