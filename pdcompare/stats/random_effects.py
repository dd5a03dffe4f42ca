"""Random-effects meta-analysis of per-data-set differences, for every pair at once.

Each pair of models has, on each data set, an effect (the mean fold difference)
and its variance (the Nadeau–Bengio corrected variance of that mean). The
pooled difference over the data sets weighs each by ``1 / (variance + tau2)``,
where ``tau2``, the variance of the true differences between data sets, is
estimated by DerSimonian–Laird's method of moments or by Paule–Mandel's
iteration. The formulas are those of ``statsmodels.stats.meta_analysis.
combine_effects`` (``method_re="chi2"`` and ``"iterated"``), written over a
(pairs, data sets) array so that all pairs are pooled at once.
"""

from __future__ import annotations

import numpy as np

#: ``method`` names and the statsmodels ``method_re`` they equal.
METHODS = {"dl": "chi2", "pm": "iterated"}


def _tau2_paule_mandel(
    y: np.ndarray, variances: np.ndarray, valid: np.ndarray, atol: float = 1e-5, maxiter: int = 50
) -> np.ndarray:
    """Paule–Mandel ``tau2`` per row, by statsmodels' iteration (DerSimonian & Kacker 2007)."""
    k = valid.sum(axis=1)
    tau2 = np.zeros(len(y))
    active = k > 1
    for _ in range(maxiter):
        if not active.any():
            break
        w = np.where(valid, 1.0 / (variances + tau2[:, None]), 0.0)
        mean = (w * y).sum(axis=1) / w.sum(axis=1)
        resid_sq = np.where(valid, (y - mean[:, None]) ** 2, 0.0)
        equation = (w * resid_sq).sum(axis=1) - (k - 1)
        negative = active & (equation < 0)
        tau2[negative] = 0.0
        done = negative | (active & np.isclose(equation, 0.0, rtol=0.0, atol=atol))
        active &= ~done
        step = equation / (w**2 * resid_sq).sum(axis=1)
        tau2 = np.where(active, tau2 + step, tau2)
    return tau2


def random_effects_pool(
    effects: np.ndarray,
    variances: np.ndarray,
    *,
    method: str = "dl",
    alpha: float = 0.05,
) -> dict[str, np.ndarray]:
    """Pool each row of ``effects`` (pairs, data sets) with its ``variances``; NaN is left out.

    Parameters
    ----------
    effects, variances : array_like, shape (pairs, datasets)
        Effect and its (positive) variance per data set; NaN where a data set
        is not used.
    method : {"dl", "pm"}, default "dl"
        DerSimonian–Laird or Paule–Mandel estimate of ``tau2``.
    alpha : float, default 0.05
        The intervals are ``1 - alpha``: normal for the pooled mean, Student t
        with ``k - 2`` degrees of freedom for the prediction interval.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff`` (pooled), ``se``, ``statistic`` (z), ``pvalue``
        (two-sided), ``ci_low``, ``ci_high``, ``tau2``, ``i2`` and
        ``pi_low``, ``pi_high`` (prediction interval of the effect on a new
        data set, Higgins, Thompson & Spiegelhalter 2009; NaN below 3 data
        sets), and ``k`` (data sets used).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([[0.02, 0.05, -0.01, 0.03, 0.04]])
    >>> v = np.array([[1e-4, 2e-4, 1.5e-4, 1e-4, 3e-4]])
    >>> out = random_effects_pool(y, v)
    >>> round(float(out["mean_diff"][0]), 5), round(float(out["tau2"][0]), 6)
    (0.02477, 0.000313)

    Compare with statsmodels (which leaves a negative DerSimonian–Laird
    ``tau2`` untruncated; here it is 0, the fixed-effect pooling):

    >>> from statsmodels.stats.meta_analysis import combine_effects
    >>> res = combine_effects(y[0], v[0], method_re="chi2", use_t=False)
    >>> round(float(res.mean_effect_re), 5), round(float(res.tau2), 6)
    (0.02477, 0.000313)
    """
    from scipy import special, stats

    effects = np.atleast_2d(np.asarray(effects, dtype=float))
    variances = np.atleast_2d(np.asarray(variances, dtype=float))
    valid = ~(np.isnan(effects) | np.isnan(variances))
    k = valid.sum(axis=1)
    y = np.where(valid, effects, 0.0)
    v = np.where(valid, variances, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(valid, 1.0 / v, 0.0)
        total = w.sum(axis=1)
        mean_fe = (w * y).sum(axis=1) / total
        q = (w * np.where(valid, (y - mean_fe[:, None]) ** 2, 0.0)).sum(axis=1)
        df = k - 1
        if method == "dl":
            tau2 = np.maximum(0.0, (q - df) / (total - (w**2).sum(axis=1) / total))
        else:
            tau2 = _tau2_paule_mandel(y, v, valid)
        w_re = np.where(valid, 1.0 / (v + tau2[:, None]), 0.0)
        mean = (w_re * y).sum(axis=1) / w_re.sum(axis=1)
        se = np.sqrt(1.0 / w_re.sum(axis=1))
        statistic = mean / se
        pvalue = special.erfc(np.abs(statistic) / np.sqrt(2.0))
        crit = special.ndtri(1.0 - alpha / 2.0)
        i2 = np.where(q > 0, np.maximum(0.0, (q - df) / q), 0.0)
        t_crit = stats.t.ppf(1.0 - alpha / 2.0, np.where(k > 2, k - 2, 1))
        spread = t_crit * np.sqrt(tau2 + se**2)
    none = k == 0
    few = k < 3
    out = {
        "mean_diff": mean,
        "se": se,
        "statistic": statistic,
        "pvalue": pvalue,
        "ci_low": mean - crit * se,
        "ci_high": mean + crit * se,
        "tau2": np.where(k > 1, tau2, np.nan),
        "i2": np.where(k > 1, i2, np.nan),
        "pi_low": np.where(few, np.nan, mean - spread),
        "pi_high": np.where(few, np.nan, mean + spread),
    }
    for values in out.values():
        values[none] = np.nan
    out["k"] = k
    return out
