"""Power of Welch's t-test of independent runs: what a pilot of training runs could detect.

Runs over random seeds are independent samples of each model's score, not
paired splits: Welch's unequal-variance t-test compares them, and its power
for a true mean difference ``delta`` is that of a noncentral t with the
Welch–Satterthwaite degrees of freedom and noncentrality
``delta / sqrt(s1²/n1 + s2²/n2)``. Every function is numpy over arrays of
pairs, the search for the runs needed included.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as sp
from pdcompare.stats._common import tails as _tails
from pdcompare.stats._common import welch_df
from pdcompare.stats.power import _power_at, noncentrality


def _se_df(sd_1, sd_2, n_1, n_2):
    sd_1, sd_2, n_1, n_2 = (np.asarray(v, dtype=float) for v in (sd_1, sd_2, n_1, n_2))
    n_1 = np.where(n_1 >= 2, n_1, np.nan)
    n_2 = np.where(n_2 >= 2, n_2, np.nan)
    se = np.sqrt(sd_1**2 / n_1 + sd_2**2 / n_2)
    return se, welch_df(sd_1**2 / n_1, sd_2**2 / n_2, n_1, n_2)


def welch_power(
    delta, sd_1, sd_2, n_1, n_2, *, alpha: float = 0.05, alternative="two-sided"
) -> np.ndarray:
    """Power of Welch's t-test to detect a true mean difference ``delta`` between two models.

    Parameters
    ----------
    delta : float or array_like
        The true mean difference, in score units (its size counts).
    sd_1, sd_2 : float or array_like
        Each model's standard deviation (ddof=1) over its runs.
    n_1, n_2 : int or array_like
        Each model's number of runs (below 2 gives NaN).
    alpha : float, default 0.05
        Significance level.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        Two tails, or the one tail in the direction of ``delta``.

    Returns
    -------
    numpy.ndarray
        ``P(|T| > t_{1−alpha/2, ν})`` (one-sided ``P(T > t_{1−alpha, ν})``)
        for ``T`` noncentral t with the Welch–Satterthwaite ``ν`` and
        noncentrality ``delta / sqrt(s1²/n1 + s2²/n2)``. Two zero standard
        deviations give power 1 for ``delta != 0``.

    Examples
    --------
    Equal spreads and runs: the pooled two-sample t of statsmodels, up to
    the degrees of freedom (Welch's ν equals 2n − 2 here):

    >>> from statsmodels.stats.power import TTestIndPower
    >>> round(float(welch_power(0.5, 1.0, 1.0, 20, 20)), 4)
    0.3379
    >>> round(float(TTestIndPower().power(0.5, 20, 0.05)), 4)
    0.3379
    """
    tails = _tails(alternative)
    se, df = _se_df(sd_1, sd_2, n_1, n_2)
    delta = np.abs(np.asarray(delta, dtype=float))
    with np.errstate(invalid="ignore", divide="ignore"):
        nc = np.where(delta == 0, 0.0, delta / se)
    zero = (se == 0) & ~np.isnan(df + 0.0 * se)
    df = np.where(se == 0, np.inf, df)  # no spread at all: the statistic is exact
    out = np.asarray(_power_at(np.minimum(nc, 1e300), np.where(zero, 1e6, df), alpha, tails))
    out = np.where(zero, np.where(delta == 0, alpha, 1.0), out)
    return out[()] if out.ndim == 0 else out


def welch_mdd(
    sd_1, sd_2, n_1, n_2, *, alpha: float = 0.05, alternative="two-sided", target: float = 0.8
) -> np.ndarray:
    """The smallest true difference Welch's test finds with probability ``target``.

    ``noncentrality(ν) · sqrt(s1²/n1 + s2²/n2)``: :func:`welch_power` at it
    equals ``target``.

    Examples
    --------
    >>> d = welch_mdd(0.01, 0.02, 5, 5)
    >>> round(float(d), 4), round(float(welch_power(d, 0.01, 0.02, 5, 5)), 6)
    (0.0338, 0.8)
    """
    se, df = _se_df(sd_1, sd_2, n_1, n_2)
    lam = noncentrality(np.where(np.isnan(df), 0.0, df), alpha=alpha,
                        alternative=alternative, target=target)  # fmt: skip
    out = np.where(np.isnan(df), np.nan, lam * se)
    return out[()] if np.ndim(out) == 0 else out


def runs_needed(
    delta, sd_1, sd_2, *, alpha: float = 0.05, alternative="two-sided", target: float = 0.8
) -> np.ndarray:
    """The runs per model (the same number for both) at which Welch's power reaches ``target``.

    Power grows with the runs without a floor (runs are independent), so
    the answer is finite for ``delta > 0`` with spread; a bisection on
    integers, on every pair at once, from the normal approximation's bracket.

    Examples
    --------
    >>> n = runs_needed(0.5, 1.0, 1.0)
    >>> below, at = welch_power(0.5, 1.0, 1.0, [n - 1, n], [n - 1, n])
    >>> int(n), bool(below < 0.8 <= at)
    (64, True)
    """
    tails = _tails(alternative)
    delta = np.abs(np.asarray(delta, dtype=float))
    sd_1, sd_2 = np.asarray(sd_1, dtype=float), np.asarray(sd_2, dtype=float)
    delta, sd_1, sd_2 = np.broadcast_arrays(delta, sd_1, sd_2)
    spread = sd_1**2 + sd_2**2
    z = sp.ndtri(1.0 - alpha / tails) + sp.ndtri(target)
    with np.errstate(invalid="ignore", divide="ignore"):
        guess = np.ceil(z**2 * spread / delta**2)
    high = np.where(np.isfinite(guess), np.maximum(2.0 * guess + 8.0, 4.0), np.nan)
    low = np.full(high.shape, 1.0)  # power at `low` runs is below target (1 run: no test)
    known = np.isfinite(high)
    for _ in range(64):  # the bracket holds: widen it where the power falls short
        short = known & (welch_power(delta, sd_1, sd_2, high, high, alpha=alpha,
                                     alternative=alternative) < target)  # fmt: skip
        if not short.any():
            break
        low, high = np.where(short, high, low), np.where(short, 2.0 * high, high)
    while True:
        open_ = known & (high - low > 1)
        if not open_.any():
            break
        middle = np.floor((low + high) / 2.0)
        reached = welch_power(delta, sd_1, sd_2, middle, middle, alpha=alpha,
                              alternative=alternative) >= target  # fmt: skip
        high = np.where(open_ & reached, middle, high)
        low = np.where(open_ & ~reached, middle, low)
    out = np.where(spread == 0, np.where(delta > 0, 2.0, np.nan), high)
    out = np.where(np.isnan(delta + spread), np.nan, out)
    return out[()] if out.ndim == 0 else out
