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
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy import special

from pdcompare._validation import check_option
from pdcompare.stats._common import ALTERNATIVES, t_confidence_interval, t_pvalue
from pdcompare.stats._moments import chunks, pair_moments

__all__ = ["pair_matrix", "paired_ttest", "sign_test", "wilcoxon"]



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
            mean_variance = variance * (1.0 / count + test_train_ratio)
        se = np.sqrt(mean_variance)
        statistic = mean / se
        df = count - 1.0
        statistic[identical] = 0.0
        pvalue = _t_pvalue(statistic, df, alternative)
        pvalue[identical] = 1.0
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


def wilcoxon(
    values,
    i,
    j,
    *,
    alternative: str = "two-sided",
    nan_policy: str = "propagate",
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

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff, statistic, pvalue`` and the boolean masks ``identical``
        and ``constant`` (always False: a constant difference is ordinary
        data for a rank test).

    Notes
    -----
    ``scipy.stats.wilcoxon(d, axis=1)`` with its defaults (``zero_method=
    "wilcox"``: zero differences are dropped; ``method="auto"``) on the 2-D
    array of differences, in chunks of pairs. The statistic is scipy's: the
    smaller of the rank sums of positive and negative differences when
    two-sided, the rank sum of the positive ones otherwise. Pairs whose
    differences are all zero, for which scipy has no answer, get statistic 0
    and p-value 1.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.85, 0.95, 0.7, 0.8], [0.8, 0.75, 0.8, 0.85, 0.72, 0.7]])
    >>> out = wilcoxon(x, [0], [1])
    >>> float(out["statistic"][0]), round(float(out["pvalue"][0]), 4)
    (1.0, 0.0625)

    Compare with scipy:

    >>> from scipy import stats
    >>> round(float(stats.wilcoxon(x[0], x[1]).pvalue), 4)
    0.0625
    """
    from scipy import stats

    values, i, j = _check_inputs(values, i, j, alternative, nan_policy)
    n_pairs = i.size
    mean = np.full(n_pairs, np.nan)
    statistic = np.full(n_pairs, np.nan)
    pvalue = np.full(n_pairs, np.nan)
    identical = np.zeros(n_pairs, dtype=bool)
    for part in chunks(n_pairs, values.shape[1]):
        diff = _differences(values, i[part], j[part])
        present = ~np.isnan(diff)
        count = present.sum(axis=1)
        has_nan = count < diff.shape[1]
        nonzero = np.sum((diff != 0.0) & present, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            m = np.where(present, diff, 0.0).sum(axis=1) / count
        usable = (count > 0) & (~has_nan if nan_policy == "propagate" else True)
        m[~usable] = np.nan
        mean[part] = m
        zero_only = usable & (nonzero == 0)
        identical[part] = zero_only
        # scipy has no answer for pairs without a non-zero difference; skip them.
        run = usable & ~zero_only
        stat = np.full(diff.shape[0], np.nan)
        p = np.full(diff.shape[0], np.nan)
        if run.any():
            clean = run & ~has_nan
            if clean.any():
                res = stats.wilcoxon(diff[clean], axis=1, alternative=alternative)
                stat[clean], p[clean] = res.statistic, res.pvalue
            ragged = run & has_nan
            if ragged.any():
                res = stats.wilcoxon(
                    diff[ragged], axis=1, alternative=alternative, nan_policy="omit"
                )
                stat[ragged], p[ragged] = res.statistic, res.pvalue
        stat[zero_only] = 0.0
        p[zero_only] = 1.0
        statistic[part], pvalue[part] = stat, p
    return {
        "mean_diff": mean,
        "statistic": statistic,
        "pvalue": pvalue,
        "identical": identical,
        "constant": np.zeros(n_pairs, dtype=bool),
    }


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
        ``pvalue, wins, losses, ties`` and the boolean masks ``identical``
        and ``constant`` (always False).

    Notes
    -----
    Ties (zero differences) are dropped. With ``k`` wins of model_1 out of
    ``n`` splits without a tie, ``X ~ Binomial(n, 1/2)``: "greater" is
    ``P(X >= k)``, "less" ``P(X <= k)`` and "two-sided"
    ``min(1, 2 min(P(X <= k), P(X >= k)))``, which is what
    ``scipy.stats.binomtest(k, n)`` gives for p = 1/2. Computed on whole
    arrays with ``scipy.special.bdtr``. A pair without any non-tied split
    gets statistic 0 and p-value 1. See Demšar (2006), section 3.1.3.

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
    wins = np.zeros(n_pairs, dtype=np.int64)
    losses = np.zeros(n_pairs, dtype=np.int64)
    ties = np.zeros(n_pairs, dtype=np.int64)
    mean = np.full(n_pairs, np.nan)
    has_nan = np.zeros(n_pairs, dtype=bool)
    for part in chunks(n_pairs, values.shape[1]):
        diff = _differences(values, i[part], j[part])
        present = ~np.isnan(diff)
        wins[part] = np.sum(diff > 0.0, axis=1)
        losses[part] = np.sum(diff < 0.0, axis=1)
        ties[part] = np.sum(diff == 0.0, axis=1)
        n = present.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean[part] = np.where(present, diff, 0.0).sum(axis=1) / n
        has_nan[part] = ~present.all(axis=1)
    n = wins + losses
    lower = special.bdtr(wins, n, 0.5)  # P(X <= k)
    upper = special.bdtr(losses, n, 0.5)  # P(X >= k) = P(X <= n - k) for p = 1/2
    if alternative == "greater":
        pvalue = upper
    elif alternative == "less":
        pvalue = lower
    else:
        pvalue = np.minimum(1.0, 2.0 * np.minimum(lower, upper))
    identical = (n == 0) & (ties > 0)
    pvalue = np.where(identical, 1.0, pvalue)
    pvalue[(n == 0) & (ties == 0)] = np.nan  # no split where both models have a score
    wins, losses, ties = (wins.astype(float), losses.astype(float), ties.astype(float))
    statistic = wins.copy()
    if nan_policy == "propagate":
        for column in (mean, statistic, pvalue, wins, losses, ties):
            column[has_nan] = np.nan
        identical &= ~has_nan
    return {
        "mean_diff": mean,
        "statistic": statistic,
        "pvalue": pvalue,
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "identical": identical,
        "constant": np.zeros(n_pairs, dtype=bool),
    }


def pair_matrix(n_models: int, rows, cols, upper, lower, *, boolean: bool = False) -> np.ndarray:
    """Square ``n_models`` x ``n_models`` array with ``upper`` at (rows, cols), ``lower`` mirrored.

    Cell ``(rows[k], cols[k])`` gets ``upper[k]`` and ``(cols[k], rows[k])``
    gets ``lower[k]``; the other cells are NaN, except the diagonal, which is
    False when ``boolean`` (a model does not differ from itself). The array is
    of object dtype when ``upper`` is not numeric (names in ``decision``).

    Examples
    --------
    >>> pair_matrix(3, [0, 0], [1, 2], np.array([0.5, 2.0]), np.array([-0.5, -2.0]))
    array([[ nan,  0.5,  2. ],
           [-0.5,  nan,  nan],
           [-2. ,  nan,  nan]])
    """
    upper = np.asarray(upper)
    lower = np.asarray(lower)
    numeric = upper.dtype.kind in "fiu" and lower.dtype.kind in "fiu" and not boolean
    table = np.full((n_models, n_models), np.nan, dtype=float if numeric else object)
    table[rows, cols] = upper
    table[cols, rows] = lower
    if boolean:
        np.fill_diagonal(table, False)
    return table
