"""Paired frequentist tests on fold scores, vectorised over every pair of models.

Every function takes the scores matrix ``values`` (models x splits, float,
NaN for a missing score) and the positions ``i``, ``j`` of the pairs to
compare; the difference tested is always ``values[i] - values[j]`` (model_1
minus model_2, as in scipy). No function loops over pairs in Python:

* the t-tests get every pair's mean and variance of differences from one
  covariance matrix, ``var(a - b) = var a + var b - 2 cov(a, b)``, and
  recompute from the explicit differences the pairs where that shortcut
  cancels (nearly identical models), so every pair is accurate to about
  1e-10 relative;
* the Wilcoxon and sign tests work on the 2-D array of pair differences, in
  chunks of pairs that bound the memory used.

Missing scores: with ``nan_policy="propagate"`` a pair that involves a NaN
gets NaN results; with ``"omit"`` it is computed on the splits where both
models have a score.

Degenerate data never raises. Identical score vectors give statistic 0 and
p-value 1; for the t-tests, a constant non-zero difference gives an infinite
statistic and p-value 0 (two-sided; 0 or 1 by direction when one-sided). The
positions of those pairs are returned so that the caller can warn.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext

import numpy as np

from pdcompare._validation import check_option
from pdcompare.stats import _signed_rank
from pdcompare.stats._common import (
    ALTERNATIVES,
    margin_shift,
    nadeau_bengio_variance,
    t_confidence_interval,
    t_pvalue,
)
from pdcompare.stats._moments import chunks, pair_moments
from pdcompare.stats._signed_rank import extreme_pvalue
from pdcompare.stats._signed_rank import normal_signed_rank_pvalue as _normal_pvalue
from pdcompare.stats._walsh import walsh_median

__all__ = ["hodges_lehmann", "paired_ttest", "sign_test", "wilcoxon"]


#: Position of the lowest byte in a uint64 (the sign bit of a signed-rank key).
_LOW_BYTE = 0 if sys.byteorder == "little" else 7

#: Pairs from which the t p-values are computed on two threads.
_THREADED_PAIRS = 100_000


def _t_pvalue(statistic, df, alternative):
    """``t_pvalue`` on whole arrays; halves on two threads when there are many pairs.

    The Student t distribution function costs most of an all-pairs test, and
    ``scipy.special``'s ufuncs release the GIL, so two cores halve it.
    """
    if statistic.size < _THREADED_PAIRS or (os.cpu_count() or 1) < 2:
        return t_pvalue(statistic, df, alternative)
    df = np.broadcast_to(df, statistic.shape)
    half = statistic.size // 2
    parts = (slice(0, half), slice(half, None))
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(lambda part: t_pvalue(statistic[part], df[part], alternative), parts)
        return np.concatenate(list(done))


def _check_inputs(values, i, j, alternative, nan_policy):
    values = np.asarray(values, dtype=float)
    if values.ndim != 2:
        msg = f"`values` must be a 2-D array (models x splits); got {values.ndim} dimension(s)."
        raise ValueError(msg)
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    if i.shape != j.shape:
        msg = f"`i` and `j` must have the same length; got {i.size} and {j.size}."
        raise ValueError(msg)
    check_option("alternative", alternative, ALTERNATIVES)
    if nan_policy not in ("propagate", "omit"):
        msg = f"`nan_policy` must be 'propagate' or 'omit' here; got {nan_policy!r}."
        raise ValueError(msg)
    return values, i, j


def paired_ttest(
    values,
    i,
    j,
    *,
    test_train_ratio: float | None = None,
    alternative: str = "two-sided",
    confidence: float = 0.95,
    nan_policy: str = "propagate",
    margin: float | None = None,
) -> dict[str, np.ndarray]:
    """Paired t-test of ``values[i] - values[j]`` for every pair, optionally corrected.

    Parameters
    ----------
    values : array_like, shape (models, splits)
        Scores, NaN for a missing one.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    test_train_ratio : float, optional
        ``n_test / n_train`` of the CV splits. Given, the Nadeau–Bengio
        corrected resampled t-test; None, the plain paired t-test
        (``scipy.stats.ttest_rel``).
    alternative : {"two-sided", "greater", "less"}
        About the mean of model_1 - model_2, as in scipy.
    confidence : float
        Level of the confidence interval of the mean difference (one-sided
        like scipy's when ``alternative`` is one-sided).
    nan_policy : {"propagate", "omit"}
        NaN results for pairs with a missing score, or their complete splits.
    margin : float, optional
        Non-inferiority margin (≥ 0) with a one-sided ``alternative``: the
        statistic is ``(d̄ + margin) / sqrt(v)`` ("greater") or
        ``(margin − d̄) / sqrt(v)`` ("less"), its p-value the upper tail
        (:func:`~pdcompare.stats._common.margin_shift`). The interval is
        unchanged. None: the test above.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff, statistic, df, pvalue, ci_low, ci_high`` (one value per
        pair) and the boolean masks ``identical`` and ``constant`` of the
        degenerate pairs.

    Notes
    -----
    With ``d`` the ``n`` differences of a pair, mean ``d̄`` and sample
    variance ``s²`` (ddof=1), the statistic is ``t = d̄ / sqrt(v)`` with
    ``v = s² / n`` (plain) or ``v = s² (1/n + n_test/n_train)`` (Nadeau and
    Bengio 2003, as in Bouckaert and Frank 2004), on ``n - 1`` degrees of
    freedom. The interval is ``d̄ ± t_q sqrt(v)``.

    ``s²`` comes from one covariance matrix, ``var a + var b - 2 cov(a, b)``,
    of the scores minus their mean over the models in each split (which
    leaves every difference unchanged and removes the shared fold effect);
    where that is below ``max(1e-3, n·eps/1e-10)`` times ``var a + var b``
    the cancellation could cost more than 1e-10 in relative accuracy, and the
    pair is recomputed from its explicit differences.

    Identical vectors give ``t = 0``, ``p = 1``; a constant non-zero
    difference gives ``t = ±inf`` and ``p = 0`` (two-sided).

    References
    ----------
    C. Nadeau and Y. Bengio, "Inference for the generalization error",
    Machine Learning 52, 2003. R. Bouckaert and E. Frank, "Evaluating the
    replicability of significance tests for comparing learning algorithms",
    PAKDD 2004.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.85, 0.95], [0.8, 0.75, 0.8, 0.85]])
    >>> out = paired_ttest(x, [0], [1])
    >>> round(float(out["statistic"][0]), 4), round(float(out["pvalue"][0]), 4)
    (5.1962, 0.0138)

    Compare with scipy:

    >>> from scipy import stats
    >>> res = stats.ttest_rel(x[0], x[1])
    >>> round(float(res.statistic), 4), round(float(res.pvalue), 4)
    (5.1962, 0.0138)

    Nadeau–Bengio corrected, 4-fold CV (n_test/n_train = 1/3): t = d̄ / sqrt(s² (1/4 + 1/3))

    >>> out = paired_ttest(x, [0], [1], test_train_ratio=1 / 3)
    >>> round(float(out["statistic"][0]), 4)
    3.4017
    """
    values, i, j = _check_inputs(values, i, j, alternative, nan_policy)
    count, mean, variance, identical, constant = pair_moments(values, i, j, nan_policy)
    with np.errstate(invalid="ignore", divide="ignore"):
        if test_train_ratio is None:
            mean_variance = variance / count
        else:
            mean_variance = nadeau_bengio_variance(variance, count, test_train_ratio)
        se = np.sqrt(mean_variance)
        shifted, tail, null = margin_shift(mean, identical, margin, alternative)
        statistic = shifted / se
        df = count - 1.0
        statistic[null] = 0.0
        pvalue = _t_pvalue(statistic, df, tail)
        pvalue[null] = 1.0
        ci_low, ci_high = t_confidence_interval(
            mean, se, _common_value(df), confidence, alternative
        )
    df[count < 1] = np.nan
    return {
        "mean_diff": mean,
        "statistic": statistic,
        "df": df,
        "pvalue": pvalue,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "identical": identical,
        "constant": constant,
    }


def _common_value(df):
    """``df`` as a scalar when every pair has the same one (the usual case).

    The t quantile then costs one call instead of one per pair.
    """
    if df.size and np.all(df == df[0]):
        return df[0]
    return df


def _differences(values, i, j):
    """Differences model_1 - model_2 of the pairs, shape (pairs, splits)."""
    return values[i] - values[j]


def _pair_groups(values, i, j, nan_policy):
    """Positions of the complete pairs and of the pairs with a missing score to compute.

    A list of ``(positions, complete)``. A pair has a missing score where
    either model has a NaN split; under "propagate" those pairs are not
    computed (their results stay NaN).
    """
    row_has_nan = np.isnan(values).any(axis=1)
    ragged = row_has_nan[i] | row_has_nan[j]
    groups = [(np.flatnonzero(~ragged), True)]
    if nan_policy == "omit":
        groups.append((np.flatnonzero(ragged), False))
    return groups


def _pair_chunks(values, i, j, positions, *, complete):
    """Differences of the pairs at ``positions``, chunk by chunk, with their present counts.

    Yields ``(rows, diff, n_present)``: ``rows`` indexes ``positions``'
    pairs, ``diff`` their differences (NaN where a score is missing) and
    ``n_present`` the number of non-missing differences of each, counted
    only when the pairs are not known to be ``complete``.
    """
    n_splits = values.shape[1]
    for part in chunks(positions.size, n_splits):
        rows = positions[part]
        diff = _differences(values, i[rows], j[rows])
        if complete:
            n_present = np.full(rows.size, n_splits)
        else:
            n_present = n_splits - np.count_nonzero(np.isnan(diff), axis=1)
        yield rows, diff, n_present


def _count_true(mask):
    """Number of True in each row of a boolean array (a byte sum: faster than count_nonzero)."""
    return np.add.reduce(mask.view(np.int8), axis=1, dtype=np.int32)


def _row_means(diff, n_present):
    """Mean of the present differences of each row (NaN for a row without any)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if np.all(n_present == diff.shape[1]):
            return diff.sum(axis=1) / n_present
        return np.where(np.isnan(diff), 0.0, diff).sum(axis=1) / n_present


def _signed_rank_rows(diff, n_present, alternative):
    """Statistic, p-value and smallest attainable p-value of each row, as ``scipy.stats.wilcoxon``.

    One row per pair; missing differences (NaN) are omitted, as scipy's
    ``nan_policy="omit"`` on that pair alone. See :func:`wilcoxon`, Notes.
    The smallest attainable p-value is that of the same method (exact,
    sign patterns or normal) on the same ranks with every sign alike.
    """
    n_rows, n = diff.shape
    keys = _signed_rank.sorted_keys(diff)
    n_zero = _count_true(keys < 2)
    count = n_present - n_zero  # non-zero differences: the ranked ones
    # The sign bits: the lowest byte of each key, read in place, 1 for a negative difference.
    negatives = keys.view(np.uint8)[:, _LOW_BYTE::8] & np.uint8(1)
    negative = np.zeros(n_rows)
    tie_term = np.zeros(n_rows)
    has_ties = np.zeros(n_rows, dtype=bool)
    # Neighbours with the same magnitude (keys equal but for the sign bit): a tie, or
    # two zeros. Those rows, rows with missing values, and rows with zeros and few enough
    # observations for the sign patterns (which need every rank) get average ranks; in
    # the others the non-zero differences have ranks 1, 2, ... in order.
    tied = np.any((keys[:, 1:] ^ keys[:, :-1]) < 2, axis=1)
    few_with_zeros = (n_zero > 0) & (n_present <= _signed_rank.PERMUTATION_MAX_N)
    general = tied | (n_present < n) | few_with_zeros
    simple = ~general
    ranks = None
    if simple.any():
        bits = negatives[simple]
        weighted = np.einsum("ij,j->i", bits, np.arange(1, n + 1, dtype=np.int64))
        n_negative = np.add.reduce(bits, axis=1, dtype=np.int64)
        negative[simple] = weighted - n_zero[simple] * n_negative
    if general.any():
        ranks, sizes = _signed_rank.average_ranks(
            keys[general], n_zero[general], n_present[general]
        )
        negative[general] = np.einsum("ij,ij->i", negatives[general], ranks)
        tie_term[general] = (sizes * sizes - (sizes > 0)).sum(axis=1)  # sum of t**3 - t
        has_ties[general] = (sizes > 1).any(axis=1)
    countf = count.astype(float)
    positive = countf * (countf + 1.0) * 0.5 - negative
    statistic = np.minimum(positive, negative) if alternative == "two-sided" else positive
    statistic[n_present == 0] = np.nan
    pvalue = np.full(n_rows, np.nan)
    # scipy's method="auto": exact without ties and zeros up to 50 observations; with
    # ties or zeros, all sign patterns up to 13 observations; the normal approximation
    # otherwise. "Observations" count the zero differences.
    asymptotic = (n_present > _signed_rank.EXACT_MAX_N) | (
        (has_ties | (n_zero > 0)) & (n_present > _signed_rank.PERMUTATION_MAX_N)
    )
    exact = ~asymptotic & ~has_ties & (n_zero == 0) & (n_present > 0)
    permutation = ~asymptotic & ~exact & (count > 0)
    if asymptotic.any():
        pvalue[asymptotic] = _normal_pvalue(
            positive[asymptotic], countf[asymptotic], tie_term[asymptotic], alternative
        )
    # Every sign alike: the largest rank sum (the smallest for "less"), the only such pattern.
    extreme = countf * (countf + 1.0) * 0.5 if alternative != "less" else np.zeros(n_rows)
    min_pvalue = np.where(
        asymptotic,
        _normal_pvalue(extreme, countf, tie_term, alternative),
        extreme_pvalue(count, alternative),
    )
    min_pvalue[n_present == 0] = np.nan
    for size in np.unique(n_present[exact]):
        rows = exact & (n_present == size)
        below, above = _signed_rank.exact_tails(int(size))
        rank_sum = positive[rows].astype(np.int64)
        pvalue[rows] = _tail_pvalue(below[rank_sum], above[rank_sum], 2.0**size, alternative)
    if permutation.any():
        # Rows with ties or zeros and at most 13 observations: all among the general ones.
        doubled_ranks = np.rint(2.0 * ranks[permutation[general]])
        below, above, which = _signed_rank.permutation_tails(doubled_ranks)
        doubled = np.rint(2.0 * positive[permutation]).astype(np.int64)
        pvalue[permutation] = _tail_pvalue(
            below[which, doubled], above[which, doubled], 2.0 ** count[permutation], alternative
        )
    return statistic, pvalue, count == 0, min_pvalue


def _tail_pvalue(below, above, patterns, alternative):
    """P-value from the counts of sign patterns at or below / at or above the statistic."""
    if alternative == "less":
        return below / patterns
    if alternative == "greater":
        return above / patterns
    return np.clip(2 * np.minimum(below / patterns, above / patterns), 0.0, 1.0)


def wilcoxon(
    values,
    i,
    j,
    *,
    alternative: str = "two-sided",
    nan_policy: str = "propagate",
    hodges_lehmann: bool = True,
) -> dict[str, np.ndarray]:
    """Wilcoxon signed-rank test of ``values[i] - values[j]`` for every pair (scipy defaults).

    Parameters
    ----------
    values : array_like, shape (models, splits)
        Scores, NaN for a missing one.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    alternative : {"two-sided", "greater", "less"}
        About the location of model_1 - model_2, as in scipy.
    nan_policy : {"propagate", "omit"}
        NaN results for pairs with a missing score, or their complete splits.
    hodges_lehmann : bool
        Also return ``median_diff``, the Hodges–Lehmann estimate of each pair
        (:func:`hodges_lehmann`). It costs a few times the test (a selection
        among the ``n (n + 1) / 2`` Walsh averages): pass False when it is not
        shown.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff, statistic, pvalue``, ``min_pvalue`` (the smallest
        p-value the pair's test could give with these ranks: every sign
        alike), ``median_diff`` (when ``hodges_lehmann``) and the boolean masks ``identical`` and
        ``constant`` (always False: a constant difference is ordinary data
        for a rank test).

    Notes
    -----
    The numbers of ``scipy.stats.wilcoxon(d)`` on each pair's differences
    ``d`` with its defaults (``zero_method="wilcox"``, ``correction=False``,
    ``method="auto"``), computed for all pairs at once. As scipy (1.17):

    * Zero differences are dropped; the ``n'`` others are ranked by ``|d|``,
      ties averaged. ``T+`` and ``T-`` are the rank sums of the positive and
      the negative ones. The statistic is ``min(T+, T-)`` when two-sided and
      ``T+`` otherwise.
    * ``method="auto"`` decides on the number ``n`` of differences, zeros
      included: ``n > 50`` takes the normal approximation. Otherwise, without
      ties or zeros, the exact distribution of ``T+`` over the ``2**n`` sign
      patterns ("less": ``P(T+ <= t)``, "greater": ``P(T+ >= t)``, two-sided
      twice the smaller, at most 1); with ties or zeros and ``n <= 13``, the
      same over the sign patterns of the tied ranks (scipy's exhaustive
      ``permutation_test``); with ties or zeros and ``13 < n <= 50``, the
      normal approximation.
    * Normal approximation: ``z = (T+ - n'(n'+1)/4) / s`` with
      ``s**2 = (n'(n'+1)(2n'+1) - sum(t**3 - t)/2) / 24`` over the tie
      groups of sizes ``t``; no continuity correction; "less" ``Phi(z)``,
      "greater" ``Phi(-z)``, two-sided ``2 Phi(-|z|)``.

    scipy decides "ties or zeros" once for all the rows of one call; here
    each pair is decided alone, as ``scipy.stats.wilcoxon`` on that pair.
    Pairs whose differences are all zero get statistic 0 and p-value 1
    (scipy gives NaN from 14 observations on).

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.85, 0.95, 0.7, 0.8], [0.8, 0.75, 0.8, 0.85, 0.72, 0.7]])
    >>> out = wilcoxon(x, [0], [1])
    >>> float(out["statistic"][0]), round(float(out["pvalue"][0]), 4)
    (1.0, 0.0625)
    >>> round(float(out["median_diff"][0]), 4)
    0.075

    Compare with scipy:

    >>> from scipy import stats
    >>> round(float(stats.wilcoxon(x[0], x[1]).pvalue), 4)
    0.0625
    """
    values, i, j = _check_inputs(values, i, j, alternative, nan_policy)
    values = values + 0.0  # no negative zero: a zero difference has a clear sign bit
    n_pairs = i.size
    mean = np.full(n_pairs, np.nan)
    statistic = np.full(n_pairs, np.nan)
    pvalue = np.full(n_pairs, np.nan)
    min_pvalue = np.full(n_pairs, np.nan)
    identical = np.zeros(n_pairs, dtype=bool)
    median = np.full(n_pairs, np.nan)
    estimates = []
    # The estimate (two threads of its own) runs beside the test, on the same differences.
    with ThreadPoolExecutor(max_workers=1) if hodges_lehmann else nullcontext() as beside:
        for positions, complete in _pair_groups(values, i, j, nan_policy):
            for rows, diff, n_present in _pair_chunks(values, i, j, positions, complete=complete):
                if hodges_lehmann:
                    estimates.append((rows, beside.submit(_walsh_medians, diff, n_present)))
                mean[rows] = _row_means(diff, n_present)
                stat, p, zero_only, least = _signed_rank_rows(diff, n_present, alternative)
                zero_only &= n_present > 0
                stat[zero_only] = 0.0
                p[zero_only] = 1.0
                least[zero_only] = 1.0
                statistic[rows], pvalue[rows], identical[rows] = stat, p, zero_only
                min_pvalue[rows] = least
                if len(estimates) > 1:  # at most two chunks of differences held at once
                    done, future = estimates.pop(0)
                    median[done] = future.result()
        for done, future in estimates:
            median[done] = future.result()
    out = {"mean_diff": mean, "statistic": statistic, "pvalue": pvalue, "min_pvalue": min_pvalue}
    if hodges_lehmann:
        out["median_diff"] = median
    out["identical"] = identical
    out["constant"] = np.zeros(n_pairs, dtype=bool)
    return out


def hodges_lehmann(values, i, j, *, nan_policy: str = "propagate") -> np.ndarray:
    """Hodges–Lehmann estimate of the location of ``values[i] - values[j]`` for every pair.

    Parameters
    ----------
    values : array_like, shape (models, splits)
        Scores, NaN for a missing one.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    nan_policy : {"propagate", "omit"}
        NaN for pairs with a missing score, or the estimate on their complete
        splits.

    Returns
    -------
    numpy.ndarray
        One estimate per pair (NaN for a pair without any difference).

    Notes
    -----
    The median of the ``n (n + 1) / 2`` Walsh averages ``(d_a + d_b) / 2``,
    ``a <= b``, of the ``n`` differences ``d`` of a pair, zero differences
    included: the location estimate that goes with the Wilcoxon signed-rank
    test (Hodges and Lehmann 1963; Hollander, Wolfe and Chicken,
    *Nonparametric Statistical Methods*, section 3.2). Computed from the
    sorted differences of a chunk of pairs at a time by a selection in the
    sorted matrix of Walsh sums (in the spirit of Monahan 1984): a pivot
    from a thinned sample, one Newton step on the count of sums below it
    (a "staircase"), then the middle among about ``3 n / 2`` sums next to
    the staircase of each pair, ``O(n log n)`` time per pair (``O(n**2)``
    below 96 differences, and for any pair whose check fails; pairs with
    few distinct differences from their distinct sums and counts; two
    chunks of pairs at a time on two threads); the numbers are those of
    sorting all the averages.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.85, 0.95], [0.8, 0.75, 0.8, 0.85]])
    >>> round(float(hodges_lehmann(x, [0], [1])[0]), 4)
    0.075

    The same by hand: the ten Walsh averages of ``d = (0.1, 0.05, 0.05, 0.1)``.

    >>> from itertools import combinations_with_replacement
    >>> d = x[0] - x[1]
    >>> round(float(np.median([(a + b) / 2 for a, b in combinations_with_replacement(d, 2)])), 4)
    0.075
    """
    values, i, j = _check_inputs(values, i, j, "two-sided", nan_policy)
    return _hodges_lehmann(values, i, j, nan_policy)


def _hodges_lehmann(values, i, j, nan_policy):
    estimate = np.full(i.size, np.nan)
    for positions, complete in _pair_groups(values, i, j, nan_policy):
        for rows, diff, n_present in _pair_chunks(values, i, j, positions, complete=complete):
            estimate[rows] = _walsh_medians(diff, n_present)
    return estimate


def _walsh_medians(diff, n_present):
    """Median of the Walsh averages of each row's present differences (NaN for none)."""
    n_rows, n = diff.shape
    full = n_present == n
    if full.all():
        return walsh_median(diff)
    estimate = np.full(n_rows, np.nan)
    if full.any():
        estimate[full] = walsh_median(diff[full])
    ragged = np.flatnonzero(~full & (n_present > 0))
    ordered = np.sort(diff[ragged], axis=1)  # NaN last
    for size in np.unique(n_present[ragged]):
        same = n_present[ragged] == size
        estimate[ragged[same]] = walsh_median(ordered[same, :size])
    return estimate


def sign_test(
    values,
    i,
    j,
    *,
    alternative: str = "two-sided",
    nan_policy: str = "propagate",
) -> dict[str, np.ndarray]:
    """Sign test of ``values[i] - values[j]`` for every pair: binomial test on the wins.

    Parameters
    ----------
    values : array_like, shape (models, splits)
        Scores, NaN for a missing one.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    alternative : {"two-sided", "greater", "less"}
        "greater" tests whether model_1 wins more often than model_2.
    nan_policy : {"propagate", "omit"}
        NaN results for pairs with a missing score, or their complete splits.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff, statistic`` (the number of splits model_1 wins),
        ``pvalue``, ``min_pvalue`` (the smallest p-value of ``wins + losses``
        untied splits: all won), ``wins, losses, ties`` and the boolean masks ``identical``
        and ``constant`` (always False).

    Notes
    -----
    Ties (zero differences) are dropped. With ``k`` wins of model_1 out of
    ``n`` splits without a tie, ``X ~ Binomial(n, 1/2)``: "greater" is
    ``P(X >= k)``, "less" ``P(X <= k)`` and "two-sided" the probability of
    the outcomes no more likely than ``k``, which for ``p = 1/2`` is
    ``min(1, P(X <= m) + P(X >= n - m))`` with ``m = min(k, n - k)``, and 1
    when ``k = n / 2``: ``scipy.stats.binomtest(k, n).pvalue``, with the
    same ``scipy.stats.binom`` tails, on whole arrays. A pair without any
    non-tied split gets statistic 0 and p-value 1. See Demšar (2006),
    section 3.1.4.

    The wins and ties of a chunk of pairs come from one pass over their
    differences each; the complete pairs (the usual case) need no mask.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.85, 0.95, 0.7, 0.8], [0.8, 0.75, 0.8, 0.85, 0.72, 0.8]])
    >>> out = sign_test(x, [0], [1])
    >>> int(out["statistic"][0]), int(out["ties"][0]), round(float(out["pvalue"][0]), 4)
    (4, 1, 0.375)

    Compare with scipy:

    >>> from scipy import stats
    >>> round(float(stats.binomtest(4, 5).pvalue), 4)
    0.375
    """
    values, i, j = _check_inputs(values, i, j, alternative, nan_policy)
    n_pairs = i.size
    wins = np.full(n_pairs, np.nan)
    losses = np.full(n_pairs, np.nan)
    ties = np.full(n_pairs, np.nan)
    mean = np.full(n_pairs, np.nan)
    for positions, complete in _pair_groups(values, i, j, nan_policy):
        for rows, diff, n_present in _pair_chunks(values, i, j, positions, complete=complete):
            won = _count_true(diff > 0.0)
            tied = _count_true(diff == 0.0)
            wins[rows], ties[rows] = won, tied
            losses[rows] = n_present - won - tied
            mean[rows] = _row_means(diff, n_present)
    pvalue, identical = _sign_pvalue(wins, losses, ties, alternative)
    return {
        "mean_diff": mean,
        "statistic": wins.copy(),
        "pvalue": pvalue,
        "min_pvalue": extreme_pvalue(wins + losses, alternative),
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "identical": identical,
        "constant": np.zeros(n_pairs, dtype=bool),
    }


def _sign_pvalue(wins, losses, ties, alternative):
    """``scipy.stats.binomtest(wins, wins + losses).pvalue`` on arrays; 1 where all tie.

    The p-value depends on ``(k, n)`` alone, with ``n`` at most the number of
    splits: it is computed once per ``(k, n)`` and looked up (the same numbers),
    in a table of all ``(n + 1)**2`` of them when that is smaller than the
    number of pairs, else once per distinct ``(k, n)`` present.
    """
    n = wins + losses
    pvalue = np.full(wins.shape, np.nan)
    run = n > 0  # False for NaN counts too
    if run.any():
        k, n_run = wins[run].astype(np.int64), n[run].astype(np.int64)
        size = int(n_run.max()) + 1
        if size * size < k.size:
            cells = np.arange(size * size)
            table_n, table_k = np.divmod(cells, size)
            valid = (table_k <= table_n) & (table_n > 0)
            table = np.full(size * size, np.nan)
            table[valid] = _binomtest_pvalue(table_k[valid], table_n[valid], alternative)
            pvalue[run] = table[n_run * size + k]
        else:
            # Fewer distinct counts than pairs all the same (one n without ties): once each.
            codes, where = np.unique(n_run * size + k, return_inverse=True)
            distinct_n, distinct_k = np.divmod(codes, size)
            pvalue[run] = _binomtest_pvalue(distinct_k, distinct_n, alternative)[where.ravel()]
    identical = (wins + losses == 0) & (ties > 0)
    pvalue[identical] = 1.0
    return pvalue, identical


def _binomtest_pvalue(k, n, alternative):
    """``binomtest(k, n, 0.5, alternative).pvalue`` for arrays of ``n >= 1``, scipy's tails."""
    from scipy import stats

    if alternative == "less":
        return stats.binom.cdf(k, n, 0.5)
    if alternative == "greater":
        return stats.binom.sf(k - 1, n, 0.5)
    # binomtest sums the outcomes with pmf <= pmf(k) (1e-7 relative slack); for
    # p = 1/2 these are the two tails beyond m = min(k, n - k), computed as scipy does.
    m = np.minimum(k, n - k)
    tails = stats.binom.cdf(m, n, 0.5) + stats.binom.sf(n - m - 1, n, 0.5)
    return np.where(2 * k == n, 1.0, np.minimum(1.0, tails))
