"""Bayesian correlated t-test: posterior of the mean score difference over CV splits.

The model of Corani and Benavoli (2015) and Benavoli et al. (2017): with ``n``
paired CV scores, differences ``d = a - b``, their mean ``d̄`` and sample
variance ``s²`` (ddof=1), and a flat prior, the posterior of the mean
difference ``mu`` is a Student t distribution with ``n - 1`` degrees of
freedom, location ``d̄`` and scale ``sqrt((1/n + n_test/n_train) · s²)``. The
``n_test/n_train`` term is Nadeau and Bengio's correction for the correlation
that overlapping training sets put between splits.

Everything here is vectorised over pairs of models: one covariance matrix
gives every pair's variance of differences, and ``scipy.special.stdtr`` /
``stdtrit`` run on whole arrays. No pandas.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._common import nadeau_bengio_variance
from pdcompare.stats._moments import pair_moments

#: Decision codes returned by :func:`bayes_pairs` (the accessor turns them into names).
DECISION_MISSING = -2
DECISION_UNDECIDED = -1
DECISION_EQUIVALENT = 0
DECISION_MODEL_1 = 1
DECISION_MODEL_2 = 2

# A pair whose variance of differences, computed from the covariance matrix as
# var a + var b - 2 cov(a, b), is below this fraction of var a + var b has lost
# digits to cancellation; it is recomputed from its explicit differences. The
# rounding error of the matrix route is about n · eps · (var a + var b), so the
# kept pairs have a relative error below ~1e-10 for n up to a few thousand.


# Student t upper tails T(x) = P(X > x) for x >= 0 come, for large arrays, from a
# table of log T on a uniform grid, interpolated by quintic Hermite polynomials
# (log T, its first and second derivatives are known in closed form). stdtr costs
# about 0.4 microseconds per value, too much for the ~10^6 tails of all pairs of
# 1000 models; the table needs one stdtr call per node and keeps a relative
# accuracy near 1e-13 (log T is smooth and its derivatives shrink in the tail).
_TAIL_STEP = 1.0 / 64.0
_TAIL_END = 64.0
_TAIL_FLOOR = 1e-280  # nodes below this would underflow; larger x go to stdtr
_TAIL_TABLE_MIN_SIZE = 4096  # smaller arrays call stdtr directly
_TAIL_TABLE_MAX_DFS = 8  # more distinct degrees of freedom: call stdtr directly


@functools.lru_cache(maxsize=32)
def _log_tail_table(df: float) -> tuple[np.ndarray, float]:
    """Quintic polynomial coefficients of log T on each grid interval, and the grid's end."""
    x = np.arange(0.0, _TAIL_END + _TAIL_STEP / 2, _TAIL_STEP)
    tail = special.stdtr(df, -x)
    x = x[tail > _TAIL_FLOOR]
    tail = tail[: len(x)]
    log_tail = np.log(tail)
    log_pdf = (
        special.gammaln((df + 1.0) / 2.0)
        - special.gammaln(df / 2.0)
        - 0.5 * np.log(df * np.pi)
        - (df + 1.0) / 2.0 * np.log1p(x * x / df)
    )
    hazard = np.exp(log_pdf - log_tail)  # f / T
    # (log T)' = -f/T and (log T)'' = -f'/T - (f/T)^2 with f'/f = -(df + 1) x / (df + x^2).
    first = -hazard
    second = hazard * (df + 1.0) * x / (df + x * x) - hazard * hazard
    h = _TAIL_STEP
    y0, dy = log_tail[:-1], np.diff(log_tail)  # the difference first: no cancellation
    d0, d1 = h * first[:-1], h * first[1:]
    s0, s1 = h * h * second[:-1], h * h * second[1:]
    # Quintic Hermite interpolant in t = (x - x_k) / h, as coefficients of t^0 .. t^5.
    coef = np.stack(
        [
            y0,
            d0,
            s0 / 2.0,
            10.0 * dy - 6.0 * d0 - 4.0 * d1 - 1.5 * s0 + 0.5 * s1,
            -15.0 * dy + 8.0 * d0 + 7.0 * d1 + 1.5 * s0 - s1,
            6.0 * dy - 3.0 * d0 - 3.0 * d1 - 0.5 * s0 + 0.5 * s1,
        ]
    )
    return coef, float(x[-1])


def _table_tail(df: float, x: np.ndarray) -> np.ndarray:
    """``stdtr(df, -x)`` for ``x >= 0`` (NaN allowed) of one ``df``, from the table."""
    coef, end = _log_tail_table(df)
    inside = x < end
    every = bool(inside.all())
    position = x * (1.0 / _TAIL_STEP) if every else x[inside] * (1.0 / _TAIL_STEP)
    k = position.astype(np.intp)
    t = position - k
    poly = coef[5][k]
    for c in coef[4::-1]:
        poly *= t
        poly += c[k]
    tail = np.exp(poly, out=poly)
    if every:
        return tail
    out = special.stdtr(df, -np.where(inside, np.nan, x))  # NaN where the table serves
    out[inside] = tail
    return out


def upper_tail(df, x) -> np.ndarray:
    """Student t upper tail ``P(X > x) = stdtr(df, -x)`` for ``x >= 0``, vectorised.

    Small arrays call ``scipy.special.stdtr``; large ones with few distinct
    degrees of freedom use a table of ``log P(X > x)`` built with ``stdtr`` on
    a grid of step 1/64 over [0, 64] and interpolated by quintic Hermite
    polynomials, about ten times faster. The relative difference from
    ``stdtr`` stays below 1e-12 (below 5e-14 where the tail is above 1e-10;
    far tails lose a few ulps of ``log P``), which the tests check. ``x``
    beyond the table, NaN ``df`` and NaN ``x`` go to ``stdtr``.

    Examples
    --------
    >>> x = np.linspace(0.0, 5.0, 10_000)
    >>> bool(np.allclose(upper_tail(9.0, x), special.stdtr(9.0, -x), rtol=1e-13, atol=0))
    True
    """
    df, x = np.broadcast_arrays(np.asarray(df, dtype=float), np.asarray(x, dtype=float))
    if x.size < _TAIL_TABLE_MIN_SIZE:
        return special.stdtr(df, -x)
    usable = (df > 0) & ~np.isnan(x)
    if usable.all() and df.min() == df.max():  # one df, the usual case: skip the sort
        return _table_tail(float(df.flat[0]), x.ravel()).reshape(x.shape)
    distinct = np.unique(df[usable])
    if len(distinct) > _TAIL_TABLE_MAX_DFS:
        return special.stdtr(df, -x)
    if len(distinct) == 1 and usable.all():
        return _table_tail(float(distinct[0]), x.ravel()).reshape(x.shape)
    out = special.stdtr(np.where(usable, np.nan, df), -x)  # NaN where the table serves
    for value in distinct:
        chosen = usable & (df == value)
        out[chosen] = _table_tail(float(value), x[chosen])
    return out


def posterior_parameters(
    values: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    *,
    test_train_ratio: float,
    nan_policy: str = "propagate",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Degrees of freedom, location and scale of each pair's posterior of ``mu``.

    ``mu`` is the mean difference ``values[i] - values[j]``; its posterior is
    Student t with ``df = n - 1``, ``loc = d̄`` and
    ``scale = sqrt((1/n + test_train_ratio) · s²)``. A pair with fewer than two
    usable splits gets NaN.

    Examples
    --------
    >>> values = np.array([[0.9, 0.8, 0.7], [0.8, 0.8, 0.5]])
    >>> df, loc, scale = posterior_parameters(values, [0], [1], test_train_ratio=0.5)
    >>> df.tolist(), np.round(loc, 6).tolist(), np.round(scale, 6).tolist()
    ([2.0], [0.1], [0.091287])
    >>> round((0.01 * (1 / 3 + 0.5)) ** 0.5, 6)  # sqrt(s² (1/n + n_test/n_train))
    0.091287
    """
    count, mean, var, _, _ = pair_moments(values, i, j, nan_policy)
    usable = count >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.sqrt(nadeau_bengio_variance(var, count, test_train_ratio))
    df = np.where(usable, count - 1.0, np.nan)
    return df, np.where(usable, mean, np.nan), np.where(usable, scale, np.nan)


def rope_probabilities(
    df, loc, scale, low: float, high: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Posterior probabilities that ``mu`` is below, inside and above the ROPE ``[low, high]``.

    Parameters
    ----------
    df, loc, scale : array_like
        Parameters of the Student t posteriors (broadcast together). A zero
        scale is a point mass at ``loc``.
    low, high : float
        The region of practical equivalence, ``low <= high``.

    Returns
    -------
    below, inside, above : numpy.ndarray
        ``P(mu < low)``, ``P(low <= mu <= high)``, ``P(mu > high)``; they sum to
        one (up to rounding). NaN parameters give NaN.

    Notes
    -----
    Each probability is computed from the tail it lies in, so small
    probabilities keep their relative accuracy: with ``c_low`` and ``c_high``
    the smaller tails at the two ROPE ends, the middle mass is
    ``1 - c_low - c_high`` when ``loc`` lies inside the ROPE and the
    difference of two same-side tails otherwise. Two tail evaluations serve
    every pair (one when ``low == high``), by :func:`upper_tail`.

    Examples
    --------
    >>> [round(float(p), 4) for p in rope_probabilities(9, 0.1, 0.1, -0.05, 0.05)]
    [0.0839, 0.2306, 0.6855]

    Compare with ``scipy.stats.t``:

    >>> from scipy import stats
    >>> round(float(stats.t.sf(0.05, 9, 0.1, 0.1)), 4)
    0.6855
    """
    df, loc, scale = np.broadcast_arrays(
        np.asarray(df, dtype=float), np.asarray(loc, dtype=float), np.asarray(scale, dtype=float)
    )
    point = scale == 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        z_low = np.where(point, np.nan, (low - loc) / scale)
        z_high = z_low if low == high else np.where(point, np.nan, (high - loc) / scale)
    # The smaller tail at each end: P(mu < end) when the end is left of loc, else P(mu > end).
    tail_low = upper_tail(df, np.abs(z_low))
    tail_high = tail_low if low == high else upper_tail(df, np.abs(z_high))
    below = np.where(z_low < 0, tail_low, 1.0 - tail_low)
    above = np.where(z_high > 0, tail_high, 1.0 - tail_high)
    inside = np.where(
        z_high <= 0,
        tail_high - tail_low,
        np.where(z_low >= 0, tail_low - tail_high, 1.0 - tail_low - tail_high),
    )
    inside = np.clip(inside, 0.0, 1.0, out=inside, where=~np.isnan(inside))
    if point.any():
        below = np.where(point, (loc < low).astype(float), below)
        above = np.where(point, (loc > high).astype(float), above)
        inside = np.where(point, ((loc >= low) & (loc <= high)).astype(float), inside)
    return below, inside, above


def credible_interval(df, loc, scale, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Equal-tailed credible interval of Student t posteriors at ``level``.

    ``loc ± t_{df, (1 + level)/2} · scale``; a zero scale gives ``(loc, loc)``.
    The quantile is computed once per distinct ``df``.

    Examples
    --------
    >>> low, high = credible_interval([9.0], [0.1], [0.1], 0.95)
    >>> round(float(low[0]), 6), round(float(high[0]), 6)
    (-0.126216, 0.326216)
    """
    df, loc, scale = np.broadcast_arrays(
        np.asarray(df, dtype=float), np.asarray(loc, dtype=float), np.asarray(scale, dtype=float)
    )
    if df.size and df.min() == df.max():  # one df, the usual case: skip the sort
        quantile = special.stdtrit(df.flat[0], 0.5 + level / 2.0)
    else:
        distinct, inverse = np.unique(df, return_inverse=True)
        quantile = special.stdtrit(distinct, 0.5 + level / 2.0)[inverse.reshape(df.shape)]
    with np.errstate(invalid="ignore"):
        half_width = np.where(scale == 0.0, 0.0, quantile * scale)
    return loc - half_width, loc + half_width


def decisions(better, inside, worse, alpha: float) -> np.ndarray:
    """Decision codes from the probabilities of each pair: a region of at least ``1 - alpha``.

    ``DECISION_MODEL_1`` (model_1 better), ``DECISION_MODEL_2``,
    ``DECISION_EQUIVALENT`` (inside the rope), else ``DECISION_UNDECIDED``;
    ``DECISION_MISSING`` where the probabilities are NaN.

    Examples
    --------
    >>> decisions(np.array([0.97, 0.5, np.nan]), np.array([0.02, 0.1, np.nan]),
    ...           np.array([0.01, 0.4, np.nan]), 0.05).tolist()
    [1, -1, -2]
    """
    threshold = 1.0 - alpha
    return np.select(
        [np.isnan(inside), better >= threshold, worse >= threshold, inside >= threshold],
        [DECISION_MISSING, DECISION_MODEL_1, DECISION_MODEL_2, DECISION_EQUIVALENT],
        DECISION_UNDECIDED,
    )


def bayes_pairs(
    values: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    *,
    test_train_ratio: float,
    rope: tuple[float, float] = (0.0, 0.0),
    confidence: float = 0.95,
    alpha: float = 0.05,
    greater_is_better: bool = True,
    nan_policy: str = "propagate",
) -> dict[str, np.ndarray]:
    """Bayesian correlated t-test of every pair ``(values[i], values[j])`` at once.

    Parameters
    ----------
    values : numpy.ndarray
        Scores, shape (models, splits), NaN for missing.
    i, j : numpy.ndarray of int
        Rows of model_1 and model_2 of each pair.
    test_train_ratio : float
        ``n_test / n_train`` of the CV splits.
    rope : (float, float)
        The region of practical equivalence for ``mu = mean(model_1 - model_2)``.
    confidence : float
        Level of the equal-tailed credible interval.
    alpha : float
        A decision needs a posterior probability of at least ``1 - alpha``.
    greater_is_better : bool
        Whether higher scores are better; with False, ``prob_better`` is
        ``P(mu < rope_low)`` and ``prob_worse`` is ``P(mu > rope_high)``.
    nan_policy : {"propagate", "omit"}
        See :func:`pdcompare.stats._moments.pair_moments`.

    Returns
    -------
    dict of numpy.ndarray
        ``mean_diff, prob_better, prob_rope, prob_worse, ci_low, ci_high``,
        ``decision`` (codes: ``DECISION_MODEL_1``, ``DECISION_MODEL_2``,
        ``DECISION_EQUIVALENT``, ``DECISION_UNDECIDED``, ``DECISION_MISSING``
        for NaN pairs), and the posterior's ``df`` and ``scale`` (0 marks a
        point mass: a constant difference).

    Examples
    --------
    >>> values = np.array([[0.9, 0.8, 0.7, 0.8], [0.8, 0.8, 0.5, 0.7]])
    >>> out = bayes_pairs(values, [0], [1], test_train_ratio=1 / 3, rope=(-0.01, 0.01))
    >>> {k: round(float(out[k][0]), 4) for k in ("prob_better", "prob_rope", "prob_worse")}
    {'prob_better': 0.8777, 'prob_rope': 0.0344, 'prob_worse': 0.088}

    Compare with ``scipy.stats.t`` (d̄ = 0.1, s² = 0.02/3, n = 4, ratio 1/3):

    >>> from scipy import stats
    >>> round(float(stats.t.sf(0.01, 3, 0.1, (0.02 / 3 * (1 / 4 + 1 / 3)) ** 0.5)), 4)
    0.8777
    """
    low, high = rope
    df, loc, scale = posterior_parameters(
        values, i, j, test_train_ratio=test_train_ratio, nan_policy=nan_policy
    )
    below, inside, above = rope_probabilities(df, loc, scale, low, high)
    better, worse = (above, below) if greater_is_better else (below, above)
    ci_low, ci_high = credible_interval(df, loc, scale, confidence)
    decision = decisions(better, inside, worse, alpha)
    return {
        "mean_diff": loc,
        "prob_better": better,
        "prob_rope": inside,
        "prob_worse": worse,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "decision": decision,
        "df": df,
        "scale": scale,
    }


def frozen_posterior(df: float, loc: float, scale: float) -> Any:
    """The posterior as a frozen ``scipy.stats.t(df, loc, scale)``.

    scipy rejects a zero scale, so a point mass (constant difference) gets
    the scale ``tiny · max(1, |loc|)`` with ``tiny`` the smallest positive
    normal float: its ``cdf`` is 0 left of ``loc`` and 1 right of it, and its
    ``interval`` is ``(loc, loc)`` to machine precision.

    Examples
    --------
    >>> post = frozen_posterior(9.0, 0.1, 0.1)
    >>> round(float(post.cdf(0.0)), 4)
    0.1717
    """
    from scipy import stats

    if scale == 0.0:
        scale = np.finfo(float).tiny * max(1.0, abs(loc))
    return stats.t(df, loc, scale)
