"""Unpaired two-sample tests for every pair of models at once: Welch's t and Mann–Whitney U.

Each model's scores are a sample of its own (runs over random seeds, or
splits read without their pairing): NaN cells are absent runs and are left
out model by model, so models may have different numbers of runs. Pairs are
given as positions ``i`` (model_1) and ``j`` (model_2); no Python loop runs
per pair.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._common import margin_shift, t_confidence_interval, t_pvalue, welch_df
from pdcompare.stats._moments import chunks

#: Largest sample size at which scipy's ``mannwhitneyu`` (method "auto") may use the exact null.
_EXACT_MAX = 8


def model_moments(values) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count, mean and variance (ddof=1) of every row, NaN left out (NaN when undefined).

    Examples
    --------
    >>> n, mean, var = model_moments(np.array([[1.0, 2.0, np.nan], [1.0, 1.0, 4.0]]))
    >>> n.tolist(), mean.tolist(), var.tolist()
    ([2, 3], [1.5, 2.0], [0.5, 3.0])
    """
    values = np.asarray(values, dtype=float)
    present = ~np.isnan(values)
    n = present.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(present, values, 0.0).sum(axis=1) / n
        squares = np.where(present, values - mean[:, None], 0.0)
        variance = (squares**2).sum(axis=1) / (n - 1)
        # A constant sample has variance 0 exactly, not its rounding noise.
        flat = np.nanmax(np.where(present, values, -np.inf), axis=1) == np.nanmin(
            np.where(present, values, np.inf), axis=1
        )
    variance[flat] = 0.0
    variance[n < 2] = np.nan
    mean[n < 1] = np.nan
    return n, mean, variance


def welch_ttest(
    values,
    i,
    j,
    *,
    alternative: str = "two-sided",
    confidence: float = 0.95,
    margin: float | None = None,
) -> dict[str, np.ndarray]:
    """Welch's unequal-variance t-test of mean(model_1) − mean(model_2) for every pair.

    Parameters
    ----------
    values : array_like, shape (models, runs)
        Scores, NaN for an absent run.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    alternative : {"two-sided", "greater", "less"}
        About mean(model_1) − mean(model_2), as in scipy.
    confidence : float
        Level of the interval of the difference (one-sided like scipy's when
        ``alternative`` is).
    margin : float, optional
        Non-inferiority margin (≥ 0) with a one-sided ``alternative``: the
        statistic is ``(x̄ − ȳ + margin) / sqrt(v)`` ("greater") or
        ``(margin − (x̄ − ȳ)) / sqrt(v)`` ("less"), its p-value the upper
        tail (:func:`~pdcompare.stats._common.margin_shift`).

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff, statistic, df, pvalue, ci_low, ci_high`` per pair, and
        the masks ``identical`` (both samples constant and equal: t = 0,
        p = 1) and ``constant`` (both constant, different: t = ±inf).

    Notes
    -----
    With means ``x̄, ȳ``, variances ``s1², s2²`` (ddof=1) and sizes ``n1, n2``,
    ``v = s1²/n1 + s2²/n2``, ``t = (x̄ − ȳ) / sqrt(v)`` on the
    Welch–Satterthwaite degrees of freedom
    ``v² / ((s1²/n1)² / (n1 − 1) + (s2²/n2)² / (n2 − 1))`` (Welch 1947); the
    interval is ``x̄ − ȳ ± t_q sqrt(v)``.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.85, 0.95, np.nan], [0.8, 0.75, 0.8, 0.85, 0.7]])
    >>> out = welch_ttest(x, [0], [1])
    >>> round(float(out["statistic"][0]), 4), round(float(out["df"][0]), 3)
    (2.3098, 6.124)

    Compare with scipy:

    >>> from scipy import stats
    >>> res = stats.ttest_ind(x[0, :4], x[1], equal_var=False)
    >>> round(float(res.statistic), 4), round(float(res.df), 3)
    (2.3098, 6.124)
    """
    n, mean, variance = model_moments(values)
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    with np.errstate(invalid="ignore", divide="ignore"):
        part_1, part_2 = variance[i] / n[i], variance[j] / n[j]
        se2 = part_1 + part_2
        diff = mean[i] - mean[j]
        df = welch_df(part_1, part_2, n[i], n[j])
        se = np.sqrt(se2)
        flat = se2 == 0.0
        identical = flat & (diff == 0.0)
        constant = flat & (diff != 0.0)
        shifted, tail, null = margin_shift(diff, identical, margin, alternative)
        statistic = shifted / se
        statistic[null] = 0.0
        df[flat] = np.nan
        pvalue = t_pvalue(statistic, df, tail)
        pvalue[null] = 1.0
        infinite = flat & np.isinf(statistic)
        pvalue[infinite] = t_pvalue(statistic[infinite], np.inf, tail)
        ci_low, ci_high = t_confidence_interval(diff, se, df, confidence, alternative)
    return {
        "mean_diff": diff,
        "statistic": statistic,
        "df": df,
        "pvalue": pvalue,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "identical": identical,
        "constant": constant,
    }


@cache
def _exact_u_tail(n1: int, n2: int) -> np.ndarray:
    """``P(U >= u)`` for u = 0 .. n1·n2 under the null, without ties (exact counts).

    The number of arrangements with U = u is the coefficient of ``q^u`` in
    the Gaussian binomial ``[n1 + n2, k]_q`` (k = min(n1, n2)), built as
    ``prod_{m=1..k} (1 − q^(n1+n2−k+m)) / (1 − q^m)`` in exact integers; each
    division by ``1 − q^m`` is a running sum over the residues modulo m.
    """
    k, rest = min(n1, n2), max(n1, n2)
    counts = np.zeros(k * rest + 1, dtype=object)
    counts[0] = 1
    for m in range(1, k + 1):
        shift = rest + m
        counts[shift:] = counts[shift:] - counts[: len(counts) - shift]
        padded = np.concatenate([counts, np.zeros(-len(counts) % m, dtype=object)])
        counts = np.cumsum(padded.reshape(-1, m), axis=0).ravel()[: len(counts)]
    tail = np.cumsum(counts[::-1])[::-1]
    total = tail[0]
    return np.array([int(c) / total for c in tail])


def _u_statistics(values, i, j, n):
    """U of model_1 and the tie term sum(t³ − t) of the pooled sample, for every pair."""
    present = ~np.isnan(values)
    # Ties within each model: how many of its own present scores equal each score.
    within = ((values[:, :, None] == values[:, None, :]).sum(axis=2)).astype(float)
    u_1 = np.empty(len(i))
    tie_term = np.empty(len(i))
    runs = values.shape[1]
    for part in chunks(len(i), runs * runs):
        x, y = values[i[part]], values[j[part]]
        above = (x[:, :, None] > y[:, None, :]).sum(axis=(1, 2))
        equal = x[:, :, None] == y[:, None, :]
        u_1[part] = above + 0.5 * equal.sum(axis=(1, 2))
        # Each score's tie group in the pooled sample: its own model's equals and the other's.
        t_x = within[i[part]] + equal.sum(axis=2)
        t_y = within[j[part]] + equal.sum(axis=1)
        tie_term[part] = np.where(present[i[part]], t_x**2 - 1.0, 0.0).sum(axis=1) + np.where(
            present[j[part]], t_y**2 - 1.0, 0.0
        ).sum(axis=1)
    # sum over tie groups of (t³ − t) = sum over scores of (t² − 1).
    return u_1, tie_term


def mann_whitney(values, i, j, *, alternative: str = "two-sided") -> dict[str, np.ndarray]:
    """Mann–Whitney U test of model_1 against model_2, every pair (``scipy.stats.mannwhitneyu``).

    Parameters
    ----------
    values : array_like, shape (models, runs)
        Scores, NaN for an absent run.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    alternative : {"two-sided", "greater", "less"}
        "greater": model_1's scores tend to be larger, as in scipy.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff`` (mean(model_1) − mean(model_2)), ``statistic`` (U of
        model_1), ``pvalue``, and the mask ``identical`` of pairs whose
        scores are all one value (p = 1).

    Notes
    -----
    ``U1`` counts the pairs of scores (x, y) with x > y, ties counting ½.
    The p-value is scipy's default (``method="auto"``): the exact null
    distribution when one sample has at most 8 scores and the pooled sample
    has no ties, else the normal approximation with the tie-corrected
    variance ``n1 n2 / 12 · (n + 1 − Σ(t³ − t) / (n (n − 1)))`` and a
    continuity correction of ½. Two-sided, twice the tail of
    ``max(U1, n1 n2 − U1)``, at most 1 (Mann and Whitney 1947).

    Examples
    --------
    >>> x = np.array([[0.91, 0.88, 0.93, 0.90, 0.87], [0.85, 0.87, 0.90, 0.83, np.nan]])
    >>> out = mann_whitney(x, [0], [1])
    >>> float(out["statistic"][0]), round(float(out["pvalue"][0]), 4)
    (17.0, 0.1084)

    Compare with scipy:

    >>> from scipy import stats
    >>> res = stats.mannwhitneyu(x[0], x[1, :4])
    >>> float(res.statistic), round(float(res.pvalue), 4)
    (17.0, 0.1084)
    """
    values = np.asarray(values, dtype=float)
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    n, mean, _ = model_moments(values)
    n1, n2 = n[i].astype(float), n[j].astype(float)
    u_1, tie_term = _u_statistics(values, i, j, n)
    u_2 = n1 * n2 - u_1
    if alternative == "greater":
        u, factor = u_1, 1.0
    elif alternative == "less":
        u, factor = u_2, 1.0
    else:
        u, factor = np.maximum(u_1, u_2), 2.0
    total = n1 + n2
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.sqrt(n1 * n2 / 12.0 * ((total + 1.0) - tie_term / (total * (total - 1.0))))
        z = (u - n1 * n2 / 2.0 - 0.5) / s
    pvalue = special.ndtr(-z)
    exact = ((n1 <= _EXACT_MAX) | (n2 <= _EXACT_MAX)) & (tie_term == 0) & (n1 > 0) & (n2 > 0)
    if exact.any():
        sizes = np.stack([np.minimum(n1, n2), np.maximum(n1, n2)], axis=1)[exact].astype(int)
        found, which = np.unique(sizes, axis=0, return_inverse=True)
        exact_p = np.empty(len(which))
        u_exact = u[exact].astype(int)
        for k, (small, large) in enumerate(found):  # one null per pair of sample sizes
            here = which.ravel() == k
            exact_p[here] = _exact_u_tail(int(small), int(large))[u_exact[here]]
        pvalue[exact] = exact_p
    pvalue = np.clip(pvalue * factor, 0.0, 1.0)
    empty = (n1 == 0) | (n2 == 0)
    pvalue[empty] = np.nan
    u_1[empty] = np.nan
    with np.errstate(invalid="ignore"):
        identical = (s == 0) & ~empty
    return {
        "mean_diff": mean[i] - mean[j],
        "statistic": u_1,
        "pvalue": pvalue,
        "identical": identical,
    }
