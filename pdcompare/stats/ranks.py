"""Rank tests over several data sets: mean ranks, Friedman, Nemenyi and Conover.

The data set is the unit of replication (Demšar 2006). Every function takes
``values``, a models x datasets array (one score per model and data set, NaN
for a missing one), ranks the models within each data set (rank 1 = best,
ties averaged) and works on those ranks; ``ranked=True`` says that ``values``
already holds such ranks (``rank_within_columns``' output), so that a caller
ranks once and runs several tests. The post-hoc tests take the positions
``i``, ``j`` of model_1 and model_2 of each pair, like ``stats.paired``, and
are vectorised over all pairs.

Missing scores (``nan_policy``): the rank tests need every model on every data
set, so "omit" drops the data sets (columns) where any model has no score;
"propagate" gives NaN results when any score is missing; "raise" raises. The
columns dropped by "omit" are ``np.isnan(values).any(axis=0)``: the caller
names them in its warning.

Conventions: ``rank_diff`` is the mean rank of model_2 minus that of model_1
(positive when model_1 is better); Nemenyi's ``statistic`` is the studentized
range ``q = |rank_diff| / sqrt(k (k + 1) / (12 N))`` and its p-value the
studentized range survival function with k groups and infinite degrees of
freedom, computed on whole arrays (:mod:`pdcompare.stats.studentized_range`).
"""

from __future__ import annotations

import math

import numpy as np

from pdcompare._validation import NAN_POLICIES, OptionError, check_fraction, check_option
from pdcompare.stats.studentized_range import (
    _studentized_range_isf,
    studentized_range_isf,
    studentized_range_sf,
)

__all__ = [
    "best_counts",
    "conover",
    "critical_difference",
    "friedman",
    "mean_ranks",
    "nemenyi",
    "rank_within_columns",
    "studentized_range_isf",
    "studentized_range_sf",
]



def rank_within_columns(values, *, greater_is_better: bool = True) -> np.ndarray:
    """Rank the models within every data set: rank 1 = best, ties get their average rank.

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Scores, NaN for a missing one.
    greater_is_better : bool
        Whether a higher score is better (rank 1 to the highest score).

    Returns
    -------
    numpy.ndarray, shape (models, datasets)
        Float ranks. A missing score gets a NaN rank; the models present in a
        data set are ranked among themselves (from 1 to their number), as
        ``scipy.stats.rankdata(..., nan_policy="omit")`` does column by column.

    Notes
    -----
    One stable ``argsort`` along the models, then tie groups found by
    comparing neighbours in the sorted order: a tie group spanning sorted
    positions ``s..e`` (0-based) gets the rank ``(s + e) / 2 + 1``. No Python
    loop over data sets. The same ranks as ``scipy.stats.rankdata(-values,
    axis=0)`` (``values`` when lower is better).

    Examples
    --------
    >>> x = np.array([[0.9, 1.0, 0.7], [0.8, 1.0, 0.9], [0.9, 0.5, 0.8]])
    >>> rank_within_columns(x)
    array([[1.5, 1.5, 3. ],
           [3. , 1.5, 1. ],
           [1.5, 3. , 2. ]])

    Compare with scipy:

    >>> from scipy import stats
    >>> stats.rankdata(-x, axis=0)
    array([[1.5, 1.5, 3. ],
           [3. , 1.5, 1. ],
           [1.5, 3. , 2. ]])
    """
    values = _as_table(values)
    keys = -values if greater_is_better else values
    n_models = keys.shape[0]
    ranks = np.empty_like(keys)
    if keys.size == 0:
        return ranks
    order = np.argsort(keys, axis=0, kind="stable")  # NaN sorts last
    ordered = np.take_along_axis(keys, order, axis=0)
    position = np.arange(n_models, dtype=np.intp)[:, None]
    starts = np.ones(keys.shape, dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])  # NaN != NaN: own group
    ends = np.ones(keys.shape, dtype=bool)
    ends[:-1] = starts[1:]
    first = np.where(starts, position, 0)
    np.maximum.accumulate(first, axis=0, out=first)
    last = np.where(ends, position, n_models - 1)
    last = np.minimum.accumulate(last[::-1], axis=0)[::-1]
    average = (first + last) / 2.0 + 1.0
    average[np.isnan(ordered)] = np.nan
    np.put_along_axis(ranks, order, average, axis=0)
    return ranks


def mean_ranks(
    values,
    *,
    greater_is_better: bool = True,
    nan_policy: str = "propagate",
    ranked: bool = False,
) -> np.ndarray:
    """Mean rank of every model over the data sets (rank 1 = best, ties averaged).

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Scores (or ranks when ``ranked``), NaN for a missing one.
    greater_is_better : bool
        Whether a higher score is better. Ignored when ``ranked``.
    nan_policy : {"propagate", "omit", "raise"}
        With a missing score: every mean rank NaN, the data sets without a
        complete column left out, or a ValueError.
    ranked : bool
        ``values`` already holds within-data-set ranks.

    Returns
    -------
    numpy.ndarray, shape (models,)

    Examples
    --------
    >>> x = np.array([[0.9, 1.0, 0.7], [0.8, 1.0, 0.9], [0.9, 0.5, 0.8]])
    >>> mean_ranks(x)
    array([2.        , 1.83333333, 2.16666667])
    """
    ranks, complete = _ranks(values, greater_is_better, nan_policy, ranked)
    if not complete or ranks.shape[1] == 0:
        return np.full(ranks.shape[0], np.nan)
    return ranks.mean(axis=1)


def best_counts(
    values,
    *,
    greater_is_better: bool = True,
    nan_policy: str = "propagate",
    ranked: bool = False,
) -> np.ndarray:
    """Number of data sets on which each model ranks first, ties for first included.

    Parameters and missing scores as in ``mean_ranks``; NaN counts under
    "propagate" with a missing score.

    Returns
    -------
    numpy.ndarray, shape (models,)
        Float counts (NaN possible).

    Examples
    --------
    >>> x = np.array([[0.9, 1.0, 0.7], [0.8, 1.0, 0.9], [0.9, 0.5, 0.8]])
    >>> best_counts(x)
    array([2., 2., 0.])
    """
    ranks, complete = _ranks(values, greater_is_better, nan_policy, ranked)
    if not complete:
        return np.full(ranks.shape[0], np.nan)
    if ranks.shape[1] == 0:
        return np.zeros(ranks.shape[0])
    return np.sum(ranks == ranks.min(axis=0), axis=1).astype(float)


def friedman(
    values,
    *,
    greater_is_better: bool = True,
    nan_policy: str = "propagate",
    ranked: bool = False,
) -> dict[str, float]:
    """Friedman's test (tie-corrected chi-square) and the Iman–Davenport F built from it.

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Scores (or ranks when ``ranked``), NaN for a missing one.
    greater_is_better : bool
        Whether a higher score is better (the statistic does not depend on it).
    nan_policy : {"propagate", "omit", "raise"}
        See the module's docstring.
    ranked : bool
        ``values`` already holds within-data-set ranks.

    Returns
    -------
    dict
        ``n_models, n_datasets`` (the data sets used), ``statistic, df,
        pvalue`` (the chi-square test), ``f_statistic, f_df1, f_df2,
        f_pvalue`` (Iman–Davenport) and ``degenerate`` (bool: every data set
        is a complete tie). All numbers are Python floats except the two
        counts (int).

    Notes
    -----
    With ``k`` models, ``N`` data sets, ranks ``r_jn`` and ``c_jn = r_jn -
    (k + 1)/2``, the statistic is ``chi2 = (k - 1) sum_j (sum_n c_jn)² /
    sum_jn c_jn²`` on ``k - 1`` degrees of freedom. Without ties it is
    Friedman's ``12 N / (k (k + 1)) (sum_j R̄_j² - k (k + 1)² / 4)``; with
    ties the denominator is the variance the ties leave, which is the usual
    tie correction ``1 - sum (t³ - t) / (N k (k² - 1))``: the statistic of
    ``scipy.stats.friedmanchisquare``. Iman and Davenport (1980):
    ``F = (N - 1) chi2 / (N (k - 1) - chi2)`` on ``k - 1`` and ``(k - 1)(N -
    1)`` degrees of freedom (Demšar 2006, section 3.2.2).

    Degenerate tables never raise. When every data set is a complete tie
    (chi2 would be 0/0) the result is ``statistic 0, pvalue 1, f_statistic
    0, f_pvalue 1`` and ``degenerate`` is True. Perfect agreement of the
    data sets (chi2 = N (k - 1)) gives ``f_statistic inf, f_pvalue 0``. With
    one data set, F has no denominator degrees of freedom: ``f_pvalue`` NaN.

    References
    ----------
    M. Friedman, "The use of ranks to avoid the assumption of normality
    implicit in the analysis of variance", JASA 32, 1937. R. Iman and J.
    Davenport, "Approximations of the critical region of the Friedman
    statistic", Communications in Statistics 9, 1980. J. Demšar,
    "Statistical comparisons of classifiers over multiple data sets", JMLR
    7, 2006.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.7, 0.95, 0.8], [0.8, 0.85, 0.6, 0.9, 0.7],
    ...               [0.7, 0.7, 0.65, 0.85, 0.6]])
    >>> res = friedman(x)
    >>> round(res["statistic"], 4), round(res["pvalue"], 4), round(res["f_statistic"], 4)
    (6.4, 0.0408, 7.1111)

    Compare with scipy (one argument per model):

    >>> from scipy import stats
    >>> res = stats.friedmanchisquare(*x)
    >>> round(float(res.statistic), 4), round(float(res.pvalue), 4)
    (6.4, 0.0408)
    """
    from scipy import special

    ranks, complete = _ranks(values, greater_is_better, nan_policy, ranked)
    n_models, n_datasets = ranks.shape
    k, n = float(n_models), float(n_datasets)
    out = {
        "n_models": n_models,
        "n_datasets": n_datasets,
        "statistic": math.nan,
        "df": k - 1.0,
        "pvalue": math.nan,
        "f_statistic": math.nan,
        "f_df1": k - 1.0,
        "f_df2": (k - 1.0) * (n - 1.0),
        "f_pvalue": math.nan,
        "degenerate": False,
    }
    if not complete or n_datasets == 0:
        return out
    centred = ranks - (k + 1.0) / 2.0
    spread = float(np.sum(centred * centred))
    if spread == 0.0:
        out.update(statistic=0.0, pvalue=1.0, f_statistic=0.0, f_pvalue=1.0, degenerate=True)
        return out
    sums = centred.sum(axis=1)
    between = float(sums @ sums)
    # Sums of squares of multiples of 1/2: exact, so perfect agreement (between
    # = n spread) gives exactly chi2 = N (k - 1) and an infinite F.
    chi2 = min((k - 1.0) * between / spread, n * (k - 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        # (N - 1) chi2 / (N (k - 1) - chi2), with the (k - 1) / spread cancelled
        f_statistic = float(np.float64((n - 1.0) * between) / np.float64(n * spread - between))
    f_pvalue = float(special.fdtrc(k - 1.0, out["f_df2"], f_statistic)) if n > 1 else math.nan
    out.update(
        statistic=chi2,
        pvalue=float(special.chdtrc(k - 1.0, chi2)),
        f_statistic=f_statistic,
        f_pvalue=f_pvalue,
    )
    return out


def nemenyi(
    values,
    i,
    j,
    *,
    greater_is_better: bool = True,
    nan_policy: str = "propagate",
    ranked: bool = False,
) -> dict[str, np.ndarray]:
    """Nemenyi's all-pairs test on the mean ranks, for every pair ``(i, j)``.

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Scores (or ranks when ``ranked``), NaN for a missing one.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    greater_is_better : bool
        Whether a higher score is better. Ignored when ``ranked``.
    nan_policy : {"propagate", "omit", "raise"}
        See the module's docstring.
    ranked : bool
        ``values`` already holds within-data-set ranks.

    Returns
    -------
    dict of str to numpy.ndarray
        ``rank_diff`` (mean rank of model_2 - mean rank of model_1),
        ``statistic`` (the studentized range q >= 0) and ``pvalue``, one
        value per pair.

    Notes
    -----
    With ``k`` models (all rows of ``values``: the family) and ``N`` data
    sets, ``q = |R̄_i - R̄_j| / sqrt(k (k + 1) / (12 N))`` and the p-value is
    ``P(Q_{k,inf} >= q)``, the studentized range with ``k`` groups and
    infinite degrees of freedom: family-wise already, no further correction
    is needed. Two models differ at level alpha exactly when ``|rank_diff| >=
    critical_difference(k, N, alpha)``. The numbers of scikit-posthocs'
    ``posthoc_nemenyi_friedman`` (which calls ``scipy.stats.studentized_range
    .sf(q, k, np.inf)``, accurate to about 1e-14 absolute; the values here are
    accurate to about 1e-9 relative, also far in the tail).

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.7, 0.95, 0.8], [0.8, 0.85, 0.6, 0.9, 0.7],
    ...               [0.7, 0.7, 0.65, 0.85, 0.6]])
    >>> out = nemenyi(x, [0, 0, 1], [1, 2, 2])
    >>> out["rank_diff"], out["statistic"].round(4), out["pvalue"].round(4)
    (array([0.8, 1.6, 0.8]), array([1.7889, 3.5777, 1.7889]), array([0.4151, 0.0307, 0.4151]))

    Compare with scipy's studentized range (what scikit-posthocs calls):

    >>> from scipy import stats
    >>> stats.studentized_range.sf(out["statistic"], 3, np.inf).round(4)
    array([0.4151, 0.0307, 0.4151])
    """
    ranks, complete = _ranks(values, greater_is_better, nan_policy, ranked)
    i, j = _check_pairs(i, j, ranks.shape[0])
    n_models, n_datasets = ranks.shape
    if not complete or n_datasets == 0:
        return _nan_result(i.size, ("rank_diff", "statistic", "pvalue"))
    sums = ranks.sum(axis=1)
    # Rank sums are multiples of 1/2, so their differences are exact and equal
    # differences give exactly equal statistics (computed once each).
    diff = sums[j] - sums[i]
    scale = math.sqrt(n_models * (n_models + 1.0) / (12.0 * n_datasets))
    statistic = np.abs(diff) / (n_datasets * scale)
    return {
        "rank_diff": diff / n_datasets,
        "statistic": statistic,
        "pvalue": studentized_range_sf(statistic, n_models),
    }


def conover(
    values,
    i,
    j,
    *,
    greater_is_better: bool = True,
    nan_policy: str = "propagate",
    ranked: bool = False,
) -> dict[str, np.ndarray]:
    """Conover's all-pairs test after Friedman's, for every pair ``(i, j)``.

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Scores (or ranks when ``ranked``), NaN for a missing one.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    greater_is_better : bool
        Whether a higher score is better. Ignored when ``ranked``.
    nan_policy : {"propagate", "omit", "raise"}
        See the module's docstring.
    ranked : bool
        ``values`` already holds within-data-set ranks.

    Returns
    -------
    dict of str to numpy.ndarray
        ``rank_diff`` (mean rank of model_2 - mean rank of model_1),
        ``statistic`` (Conover's t, with the sign of ``rank_diff``: positive
        when model_1 has the better mean rank), ``df`` and the two-sided
        ``pvalue``, one value per pair, not corrected for multiplicity.

    Notes
    -----
    As scikit-posthocs' ``posthoc_conover_friedman`` (``p_adjust=None``) and
    Conover (1999): with rank sums ``R_j``, ``A = sum r²``, ``S² = (A - N k
    (k + 1)² / 4) / (k - 1)``, the tie-corrected Friedman statistic ``T`` and
    ``df = (N - 1)(k - 1)``,

    ``t = (R_j - R_i) / sqrt(S² · 2 N (k - 1) / df · (1 - T / (N (k - 1))))``

    and ``p = 2 P(t_df >= |t|)``. Degenerate tables never raise: when every
    data set is a complete tie every pair gets ``statistic 0, pvalue 1``;
    perfect agreement of the data sets (T = N (k - 1)) gives infinite
    statistics and p-values 0 for the pairs that differ. One data set (df 0)
    gives NaN p-values.

    The test keeps its level when all models are equal, but not when one
    model dominates: its error term is the rank variance left after the
    Friedman statistic (the factor ``1 - T / (N (k - 1))``), and a model
    first on every data set makes ``T`` large and that residual small, so
    the differences among the other models look larger. In pdcompare's validity study
    (``benchmarks/validity.py --part datasets``, 500 seeded benchmarks per
    cell, alpha 0.05, N = 10, 20, 50 data sets), with one model better by
    five noise SDs and the others equal, Conover with Holm declared two
    *equal* models different in 9.6–20.0 % of benchmarks of 3 models,
    9.2–13.0 % of 5 and 4.0–7.0 % of 10; Nemenyi in 0–1.0 %, Wilcoxon with
    Holm in 0–5.6 %. scikit-posthocs gives the same p-values, so the rate is
    the method's. Where one model may dominate, use :func:`nemenyi` or the
    Wilcoxon signed-rank test with Holm.

    References
    ----------
    W. J. Conover, "Practical Nonparametric Statistics", 3rd edition, Wiley,
    1999. W. J. Conover and R. L. Iman, "On multiple-comparisons procedures",
    Los Alamos report LA-7677-MS, 1979.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.7, 0.95, 0.8], [0.8, 0.85, 0.6, 0.9, 0.7],
    ...               [0.7, 0.7, 0.65, 0.85, 0.6]])
    >>> out = conover(x, [0, 0, 1], [1, 2, 2])
    >>> out["statistic"].round(4), out["df"], out["pvalue"].round(4)
    (array([1.8856, 3.7712, 1.8856]), array([8., 8., 8.]), array([0.0961, 0.0055, 0.0961]))
    """
    from scipy import special

    ranks, complete = _ranks(values, greater_is_better, nan_policy, ranked)
    i, j = _check_pairs(i, j, ranks.shape[0])
    n_models, n_datasets = ranks.shape
    if not complete or n_datasets == 0:
        return _nan_result(i.size, ("rank_diff", "statistic", "df", "pvalue"))
    k, n = float(n_models), float(n_datasets)
    centred = ranks - (k + 1.0) / 2.0
    spread = float(np.sum(centred * centred))  # A - N k (k + 1)² / 4, without cancellation
    sums = ranks.sum(axis=1)
    diff = sums[j] - sums[i]
    df = (n - 1.0) * (k - 1.0)
    if spread == 0.0:
        zeros = np.zeros(i.size)
        return {
            "rank_diff": zeros,
            "statistic": zeros.copy(),
            "df": np.full(i.size, df),
            "pvalue": np.ones(i.size),
        }
    centred_sums = centred.sum(axis=1)
    between = float(centred_sums @ centred_sums)
    s2 = spread / (k - 1.0)
    # 1 - T / (N (k - 1)) with T the Friedman statistic, written so that perfect
    # agreement gives exactly 0 (sums of squares of multiples of 1/2 are exact).
    agreement = max((n * spread - between) / (n * spread), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = math.sqrt(s2 * 2.0 * n * (k - 1.0) / df * agreement) if df > 0 else math.nan
        statistic = diff / scale
        statistic[diff == 0.0] = 0.0
        pvalue = np.minimum(2.0 * special.stdtr(df, -np.abs(statistic)), 1.0)
    if df == 0:
        pvalue[:] = np.nan
    return {
        "rank_diff": diff / n,
        "statistic": statistic,
        "df": np.full(i.size, df),
        "pvalue": pvalue,
    }


def critical_difference(n_models: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of mean ranks at level ``alpha``.

    Parameters
    ----------
    n_models : int
        ``k``, the number of models compared (at least 2).
    n_datasets : int
        ``N``, the number of data sets (at least 1).
    alpha : float
        Family-wise significance level, strictly between 0 and 1.

    Returns
    -------
    float
        ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` with ``q_alpha = Q_{1 -
        alpha}(k, inf) / sqrt(2)``, the studentized range quantile divided by
        sqrt(2) (Demšar 2006, section 3.2.2 and Table 5). Two mean ranks
        differing by at least CD are significantly different; it is the
        quantile of the same distribution as ``nemenyi``'s p-values, so
        ``|rank_diff| >= CD`` exactly when ``pvalue <= alpha`` (up to about
        1e-12 relative at the boundary).

    Examples
    --------
    Demšar's Table 5 gives q_0.05 = 2.569 for k = 4:

    >>> import math
    >>> round(critical_difference(4, 1) / math.sqrt(4 * 5 / 6), 3)
    2.569
    >>> round(critical_difference(4, 14), 4)
    1.2536
    """
    alpha = check_fraction("alpha", alpha)
    if n_models < 2:
        msg = f"`n_models` must be at least 2; got {n_models!r}."
        raise ValueError(msg)
    if n_datasets < 1:
        msg = f"`n_datasets` must be at least 1; got {n_datasets!r}."
        raise ValueError(msg)
    q = _studentized_range_isf(alpha, int(n_models))
    return q / math.sqrt(2.0) * math.sqrt(n_models * (n_models + 1.0) / (6.0 * n_datasets))


def _as_table(values) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    if values.ndim != 2:
        msg = f"`values` must be a 2-D array (models x datasets); got {values.ndim} dimension(s)."
        raise ValueError(msg)
    return values


def _ranks(values, greater_is_better, nan_policy, ranked) -> tuple[np.ndarray, bool]:
    """Ranks of the complete data sets and whether the result is defined.

    Returns the ranks of the columns without a missing score (all of them
    when nothing is missing) and False when ``nan_policy`` is "propagate"
    and a score is missing (the results are then NaN).
    """
    check_option("nan_policy", nan_policy, NAN_POLICIES)
    table = _as_table(values)
    if table.shape[0] < 2:
        msg = f"the rank tests need at least 2 models; got {table.shape[0]}."
        raise ValueError(msg)
    missing = np.isnan(table).any(axis=0)
    complete = True
    if missing.any():
        if nan_policy == "raise":
            where = np.flatnonzero(missing).tolist()
            said = f"`values` has missing scores in the data sets at positions {where}"
            msg = f"{said}; use nan_policy='omit' to leave them out."
            raise OptionError(
                msg,
                keyword="nan_policy",
                cli_message=f"{said}; fill in or remove them in the file.",
            )
        if nan_policy == "propagate":
            complete = False
        table = table[:, ~missing]
    if ranked:
        expected = table.shape[0] * (table.shape[0] + 1) / 2.0
        if not np.allclose(table.sum(axis=0), expected, rtol=0.0, atol=1e-9 * expected):
            msg = (
                "`values` must hold ranks 1..k within every data set (column) when "
                "`ranked=True`; a column sums to something other than k (k + 1) / 2."
            )
            raise ValueError(msg)
        return table, complete
    return rank_within_columns(table, greater_is_better=greater_is_better), complete


def _check_pairs(i, j, n_models) -> tuple[np.ndarray, np.ndarray]:
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    if i.shape != j.shape:
        msg = f"`i` and `j` must have the same length; got {i.size} and {j.size}."
        raise ValueError(msg)
    if i.size and (min(i.min(), j.min()) < 0 or max(i.max(), j.max()) >= n_models):
        msg = f"`i` and `j` must be positions of models, from 0 to {n_models - 1}."
        raise ValueError(msg)
    return i, j


def _nan_result(n_pairs: int, keys) -> dict[str, np.ndarray]:
    return {key: np.full(n_pairs, np.nan) for key in keys}
