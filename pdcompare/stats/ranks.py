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
freedom, computed here on whole arrays (``studentized_range_sf``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

__all__ = [
    "NAN_POLICIES",
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

NAN_POLICIES = ("propagate", "omit", "raise")

#: Step of the trapezoidal rule over z in the studentized range integral.
_Z_STEP = 0.05
#: Step of the grid of q on which the studentized range is tabulated for many pairs.
_Q_STEP = 0.005
#: log of the relative size below which the integrand is left out (e**-60, about 1e-26).
_LOG_CUTOFF = 60.0
#: float64 elements of the (q, z) quadrature array held in memory at once.
_CHUNK_ELEMENTS = 1 << 20


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
    from pdcompare._validation import check_fraction

    alpha = check_fraction("alpha", alpha)
    if n_models < 2:
        msg = f"`n_models` must be at least 2; got {n_models!r}."
        raise ValueError(msg)
    if n_datasets < 1:
        msg = f"`n_datasets` must be at least 1; got {n_datasets!r}."
        raise ValueError(msg)
    q = _studentized_range_isf(alpha, int(n_models))
    return q / math.sqrt(2.0) * math.sqrt(n_models * (n_models + 1.0) / (6.0 * n_datasets))


def studentized_range_sf(q, k: int) -> np.ndarray:
    """Survival function of the studentized range with ``k`` groups and infinite df.

    Parameters
    ----------
    q : array_like
        Studentized ranges.
    k : int
        Number of groups (at least 2).

    Returns
    -------
    numpy.ndarray
        ``P(Q >= q)``, the shape of ``q``: 1 for ``q <= 0``, NaN for NaN.

    Notes
    -----
    ``P(Q >= q) = k ∫ φ(z) [Φ(z)^(k-1) - (Φ(z) - Φ(z - q))^(k-1)] dz``, the
    range of ``k`` standard normals, integrated by the trapezoidal rule in z
    (step 0.05, spectrally accurate for this smooth, fast-decaying integrand)
    in log space, with ``a^(k-1) - (a - b)^(k-1) = -a^(k-1) expm1((k - 1)
    log1p(-b/a))`` so that the tail keeps its relative accuracy. When there
    are more distinct values of ``q`` than points of a grid of step 0.005 up
    to ``max(q)``, the log survival function is computed on that grid and
    interpolated (cubic Lagrange): relative error below 1e-9 either way.
    ``scipy.stats.studentized_range.sf(q, k, np.inf)`` gives the same
    values to about 1e-14 absolute (it computes ``1 - cdf``, so tiny
    p-values are not accurate there). Values below about 1e-290 may
    underflow to 0.

    Examples
    --------
    >>> studentized_range_sf([0.0, 2.0, 3.3145, 6.0], 3).round(5).tolist()
    [1.0, 0.3335, 0.05, 7e-05]

    Compare with scipy:

    >>> from scipy import stats
    >>> stats.studentized_range.sf([0.0, 2.0, 3.3145, 6.0], 3, np.inf).round(5).tolist()
    [1.0, 0.3335, 0.05, 7e-05]
    """
    if int(k) != k or k < 2:
        msg = f"`k` must be an integer of at least 2; got {k!r}."
        raise ValueError(msg)
    k = int(k)
    q = np.asarray(q, dtype=float)
    out = np.ones(q.shape)
    out[np.isnan(q)] = np.nan
    out[np.isposinf(q)] = 0.0
    inside = np.isfinite(q) & (q > 0.0)
    if not inside.any():
        return out
    unique, inverse = np.unique(q[inside], return_inverse=True)
    n_grid = math.ceil(unique[-1] / _Q_STEP) + 4
    if unique.size <= n_grid:
        out[inside] = _sf_direct(unique, k)[inverse]
    else:
        out[inside] = _sf_interpolated(unique, k)[inverse]
    return out


def studentized_range_isf(p: float, k: int) -> float:
    """Inverse survival function of the studentized range, ``k`` groups, infinite df.

    The ``q`` with ``studentized_range_sf(q, k) == p`` (to about 1e-12
    relative), for ``0 < p < 1``.

    Examples
    --------
    >>> round(studentized_range_isf(0.05, 4), 4)
    3.6331

    Compare with scipy:

    >>> from scipy import stats
    >>> round(float(stats.studentized_range.isf(0.05, 4, np.inf)), 4)
    3.6331
    """
    from pdcompare._validation import check_fraction

    p = check_fraction("p", p)
    if int(k) != k or k < 2:
        msg = f"`k` must be an integer of at least 2; got {k!r}."
        raise ValueError(msg)
    return _studentized_range_isf(p, int(k))


@lru_cache(maxsize=256)
def _studentized_range_isf(p: float, k: int) -> float:
    from scipy import optimize

    def excess(q: float) -> float:
        # In log space: a root finder on sf itself stalls where sf is tiny.
        return math.log(_sf_direct(np.array([q]), k)[0]) - math.log(p)

    high = 2.0
    while excess(high) > 0.0:
        high *= 2.0
    return float(optimize.brentq(excess, 0.0, high, xtol=1e-13, rtol=1e-14))


def _z_limits(k: int) -> tuple[float, float]:
    """Range of z outside which ``k φ(z) Φ(z)^(k-1)`` is below e**-60 (about 1e-26)."""
    from scipy import special

    # Lower: (k - 1) log Φ(z) + log k < -60; a short bisection on log_ndtr.
    low, high = -40.0, 40.0
    for _ in range(60):
        middle = (low + high) / 2.0
        if (k - 1) * float(special.log_ndtr(middle)) + math.log(k) < -_LOG_CUTOFF:
            low = middle
        else:
            high = middle
    upper = math.sqrt(2.0 * (_LOG_CUTOFF + math.log(k)))  # k φ(z) < e**-60
    return max(low, -9.0), max(upper, 9.0)


def _sf_direct(q: np.ndarray, k: int) -> np.ndarray:
    """The studentized range survival function by quadrature, ``q > 0`` sorted or not."""
    from scipy import special

    q = np.asarray(q, dtype=float)
    low, high_k = _z_limits(k)
    out = np.empty(q.size)
    order = np.argsort(q)
    ordered = q[order]
    # The integrand of a large q sits around q / 2 (within about ±8):
    # chunks of ascending q each integrate up to their own largest q / 2 + 9.
    z_all = np.arange(low, max(high_k, ordered[-1] / 2.0 + 9.0) + _Z_STEP, _Z_STEP)
    cdf_all = special.ndtr(z_all)
    # k φ(z) Φ(z)^(k-1), the density of the largest of k normals, once per z.
    density = np.exp(
        math.log(k)
        - 0.5 * z_all * z_all
        - 0.5 * math.log(2.0 * math.pi)
        + (k - 1) * special.log_ndtr(z_all)
    )
    rows = max(1, _CHUNK_ELEMENTS // z_all.size)
    for start in range(0, q.size, rows):
        part = ordered[start : start + rows]
        n_z = min(z_all.size, int((max(high_k, part[-1] / 2.0 + 9.0) - low) / _Z_STEP) + 2)
        # x = Φ(z - q) / Φ(z) (ndtr keeps its relative accuracy far in the lower tail),
        # then 1 - (1 - x)^(k-1) = -expm1((k - 1) log1p(-x)), accurate when x is tiny.
        term = special.ndtr(z_all[None, :n_z] - part[:, None])
        term /= cdf_all[:n_z]
        np.minimum(term, 1.0, out=term)
        if k > 2:
            with np.errstate(divide="ignore"):
                np.log1p(-term, out=term)
            term *= k - 1
            np.expm1(term, out=term)
            np.negative(term, out=term)
        out[order[start : start + rows]] = (term @ density[:n_z]) * _Z_STEP
    return np.minimum(out, 1.0)


def _sf_interpolated(q: np.ndarray, k: int) -> np.ndarray:
    """The survival function at many ``q``: log sf on a grid, cubic Lagrange between."""
    top = float(np.max(q))
    grid = np.arange(0.0, top + 3.0 * _Q_STEP, _Q_STEP)
    log_sf = np.empty(grid.size)
    log_sf[0] = 0.0  # sf(0) = 1
    with np.errstate(divide="ignore"):
        log_sf[1:] = np.log(_sf_direct(grid[1:], k))
    finite = np.isfinite(log_sf)
    if not finite.all():  # underflow far in the tail: 0 is the answer there
        log_sf[~finite] = -np.inf
    position = (q - grid[0]) / _Q_STEP
    first = np.clip(np.floor(position).astype(np.intp) - 1, 0, grid.size - 4)
    t = position - first
    f0, f1, f2, f3 = (log_sf[first + m] for m in range(4))
    with np.errstate(invalid="ignore"):
        value = (
            -f0 * (t - 1.0) * (t - 2.0) * (t - 3.0) / 6.0
            + f1 * t * (t - 2.0) * (t - 3.0) / 2.0
            - f2 * t * (t - 1.0) * (t - 3.0) / 2.0
            + f3 * t * (t - 1.0) * (t - 2.0) / 6.0
        )
    value[np.isnan(value)] = -np.inf
    return np.minimum(np.exp(value), 1.0)


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
    from pdcompare._validation import check_option

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
            msg = (
                "`values` has missing scores in the data sets at positions "
                f"{where}; use nan_policy='omit' to leave them out."
            )
            raise ValueError(msg)
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
