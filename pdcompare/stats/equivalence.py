"""Equivalence tests (TOST) of the mean difference, vectorised over every pair of models.

Two one-sided t-tests (Schuirmann 1987) of H0: the mean difference
``mu = model_1 - model_2`` lies outside the region ``(low, high)``:
``t_low = (d̄ - low) / se`` tests H0 ``mu <= low`` against ``mu > low``
(upper tail), ``t_high = (d̄ - high) / se`` tests H0 ``mu >= high`` against
``mu < high`` (lower tail); the TOST p-value is the larger of the two, and a
small one means *equivalent*. The interval reported with it is the
``1 - 2·alpha`` interval of ``mu``: equivalence at ``alpha`` is that interval
inside ``(low, high)``.

* :func:`tost_paired`: paired differences, the plain standard error
  ``s / sqrt(n)`` (as statsmodels ``ttost_paired``) or the Nadeau–Bengio
  corrected ``s sqrt(1/n + n_test/n_train)`` for CV splits, ``n - 1`` df.
* :func:`tost_welch`: two independent samples of any sizes (NaN = absent),
  Welch's standard error and Welch–Satterthwaite df (as statsmodels
  ``ttost_ind(usevar="unequal")``).
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._common import nadeau_bengio_variance, welch_df
from pdcompare.stats._moments import pair_moments
from pdcompare.stats.bayes import upper_tail

__all__ = ["tost_paired", "tost_welch"]


def _above(df, statistic):
    """``P(T > statistic)`` for Student t with ``df``: ``stdtr(df, -statistic)``, faster.

    Through the tabulated upper tail of ``stats.bayes`` (relative accuracy
    1e-12), which serves every pair of a large table at a tenth of the cost
    of ``stdtr``; NaN stays NaN.
    """
    df, statistic = np.broadcast_arrays(np.asarray(df, dtype=float), statistic)
    tail = upper_tail(df, np.abs(statistic))
    return np.where(statistic >= 0, tail, 1.0 - tail)


def _one_value(df):
    """``df`` as a scalar when every pair has the same one: one quantile call, not one per pair."""
    df = np.asarray(df, dtype=float)
    if df.size and np.all(df == df.flat[0]):
        return df.flat[0]
    return df


def _tost(mean, se, df, low, high, alpha):
    """The TOST columns from the mean difference, its standard error and df."""
    with np.errstate(invalid="ignore", divide="ignore"):
        statistic_low = (mean - low) / se
        statistic_high = (mean - high) / se
        # A zero standard error (a constant difference): the difference is known exactly.
        point = se == 0.0
        for statistic, bound in ((statistic_low, low), (statistic_high, high)):
            on_bound = point & (mean == bound)
            statistic[on_bound] = 0.0
        pvalue_low = _above(df, statistic_low)
        pvalue_high = _above(df, -statistic_high)
        # On the bound itself H0 holds: p = 1 (the t tail would give 1/2).
        pvalue_low[point & (mean <= low)] = 1.0
        pvalue_high[point & (mean >= high)] = 1.0
        pvalue_low[point & (mean > low)] = 0.0
        pvalue_high[point & (mean < high)] = 0.0
        quantile = special.stdtrit(_one_value(df), 1.0 - alpha)
        half = np.where(point, 0.0, quantile * se)
    return {
        "mean_diff": mean,
        "statistic_low": statistic_low,
        "pvalue_low": pvalue_low,
        "statistic_high": statistic_high,
        "pvalue_high": pvalue_high,
        "pvalue": np.fmax(pvalue_low, pvalue_high) * np.where(np.isnan(mean), np.nan, 1.0),
        "ci_low": mean - half,
        "ci_high": mean + half,
    }


def tost_paired(
    values,
    i,
    j,
    *,
    low: float,
    high: float,
    test_train_ratio: float | None = None,
    alpha: float = 0.05,
    nan_policy: str = "propagate",
) -> dict[str, np.ndarray]:
    """TOST of the mean paired difference ``values[i] - values[j]`` for every pair.

    Parameters
    ----------
    values : array_like, shape (models, units)
        Scores, NaN for a missing one.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    low, high : float
        The equivalence region of the raw difference model_1 - model_2.
    test_train_ratio : float, optional
        ``n_test / n_train`` of correlated CV splits: the Nadeau–Bengio
        corrected standard error. None: the plain paired t.
    alpha : float, default 0.05
        Level of each one-sided test; the interval has level ``1 - 2·alpha``.
    nan_policy : {"propagate", "omit"}, default "propagate"
        NaN results for pairs with a missing score, or their complete units.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff, statistic_low, pvalue_low, statistic_high, pvalue_high,
        pvalue, ci_low, ci_high`` and the masks ``identical`` and
        ``constant`` of the pairs with a zero standard error.

    Notes
    -----
    With ``d̄`` and ``s`` the mean and standard deviation (ddof=1) of the
    ``n`` differences, ``se = s / sqrt(n)`` or ``s sqrt(1/n + n_test/n_train)``
    (Nadeau and Bengio 2003), ``t_low = (d̄ - low)/se``,
    ``p_low = P(T_{n-1} > t_low)``, ``t_high = (d̄ - high)/se``,
    ``p_high = P(T_{n-1} < t_high)``, ``p = max(p_low, p_high)``
    (Schuirmann 1987). With the corrected standard error, ``p_low`` equals
    the posterior probability ``P(mu < low)`` of the Bayesian correlated
    t-test (``prob_worse`` of ``bayes``, rope ``(low, high)``). A zero
    standard error gives p-values 0 or 1 by where ``d̄`` lies.

    Examples
    --------
    >>> x = np.array([[0.90, 0.80, 0.85, 0.95, 0.88], [0.89, 0.82, 0.84, 0.93, 0.88]])
    >>> out = tost_paired(x, [0], [1], low=-0.03, high=0.03)
    >>> round(float(out["pvalue"][0]), 4)
    0.0093

    Compare with statsmodels:

    >>> from statsmodels.stats.weightstats import ttost_paired
    >>> round(float(ttost_paired(x[0], x[1], -0.03, 0.03)[0]), 4)
    0.0093
    """
    count, mean, variance, identical, constant = pair_moments(values, i, j, nan_policy)
    with np.errstate(invalid="ignore", divide="ignore"):
        if test_train_ratio is None:
            se = np.sqrt(variance / count)
        else:
            se = np.sqrt(nadeau_bengio_variance(variance, count, test_train_ratio))
    out = _tost(mean, se, count - 1.0, low, high, alpha)
    out["identical"], out["constant"] = identical, constant
    return out


def tost_welch(
    values, i, j, *, low: float, high: float, alpha: float = 0.05
) -> dict[str, np.ndarray]:
    """TOST of the difference of means of independent samples (Welch), for every pair.

    Parameters
    ----------
    values : array_like, shape (models, runs)
        One row per model; NaN marks an absent run (rows may hold different
        numbers of runs).
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    low, high : float
        The equivalence region of mean(model_1) - mean(model_2).
    alpha : float, default 0.05
        Level of each one-sided test; the interval has level ``1 - 2·alpha``.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff, statistic_low, pvalue_low, statistic_high, pvalue_high,
        pvalue, ci_low, ci_high`` and ``df`` (Welch–Satterthwaite).

    Notes
    -----
    ``se² = s_x²/n_x + s_y²/n_y`` and
    ``df = se⁴ / ((s_x²/n_x)²/(n_x - 1) + (s_y²/n_y)²/(n_y - 1))``
    (Welch 1947), then the two one-sided tests of :func:`tost_paired`.
    Per-model means and variances are computed once and gathered per pair.

    Examples
    --------
    >>> x = np.array([[0.90, 0.80, 0.85, 0.95, 0.88, np.nan],
    ...               [0.89, 0.82, 0.84, 0.93, 0.88, 0.86]])
    >>> out = tost_welch(x, [0], [1], low=-0.05, high=0.05)
    >>> round(float(out["pvalue"][0]), 4)
    0.0908

    Compare with statsmodels:

    >>> from statsmodels.stats.weightstats import ttost_ind
    >>> round(float(ttost_ind(x[0, :5], x[1], -0.05, 0.05, usevar="unequal")[0]), 4)
    0.0908
    """
    values = np.asarray(values, dtype=float)
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    present = ~np.isnan(values)
    count = present.sum(axis=1).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(present, values, 0.0).sum(axis=1) / count
        centred = np.where(present, values - means[:, None], 0.0)
        share = np.einsum("ij,ij->i", centred, centred) / (count - 1) / count  # s² / n
        share[count < 2] = np.nan
        se2 = share[i] + share[j]
        df = welch_df(share[i], share[j], count[i], count[j])
        se = np.sqrt(se2)
    out = _tost(means[i] - means[j], se, df, low, high, alpha)
    out["df"] = df
    return out
