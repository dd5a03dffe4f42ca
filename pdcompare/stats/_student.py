"""Student t quantiles for whole degrees of freedom, without scipy.special.

A summary's interval needs one t quantile, and scipy.special's import costs
more than the rest of ``import pdcompare`` (see :mod:`pdcompare.stats._special`).
For whole degrees of freedom ν the t distribution function is a finite
trigonometric sum (Abramowitz & Stegun 26.7.3–26.7.4), so the quantile is
Newton's method on it, started from a Cornish–Fisher expansion, to within about
1e-12 of scipy's ``stdtrit`` (relative). Fractional or huge ν and
levels in the far tails go to scipy.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from pdcompare.stats import _special as special

#: Whole degrees of freedom up to this many take the trigonometric sum (at most ν/2 terms).
MAX_DF = 1_000
#: Probabilities beyond these go to scipy (the sum's absolute error would be relative there).
P_RANGE = (1e-4, 1.0 - 1e-4)


def _two_sided(t: float, df: int) -> tuple[float, float]:
    """P(|T| ≤ t) and the density at t, for t ≥ 0 and whole df ≥ 1."""
    theta = math.atan2(t, math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if df % 2:
        k = np.arange(1, (df - 1) // 2)
        series = 1.0 + np.cumprod(2.0 * k / (2.0 * k + 1.0) * c2).sum() if k.size else 1.0
        inside = 2.0 / math.pi * (theta + s * c * series) if df > 1 else 2.0 * theta / math.pi
    else:
        k = np.arange(1, df // 2)
        series = 1.0 + np.cumprod((2.0 * k - 1.0) / (2.0 * k) * c2).sum() if k.size else 1.0
        inside = s * series
    log_density = (
        math.lgamma((df + 1) / 2.0)
        - math.lgamma(df / 2.0)
        - 0.5 * math.log(df * math.pi)
        - (df + 1) / 2.0 * math.log1p(t * t / df)
    )
    return float(inside), math.exp(log_density)


def _normal_quantile(p: float) -> float:
    """Abramowitz & Stegun 26.2.23 (absolute error < 4.5e-4), a start for Newton."""
    q = min(p, 1.0 - p)
    w = math.sqrt(-2.0 * math.log(q))
    z = w - (2.515517 + 0.802853 * w + 0.010328 * w * w) / (
        1.0 + 1.432788 * w + 0.189269 * w * w + 0.001308 * w**3
    )
    return z if p > 0.5 else -z


@functools.lru_cache(maxsize=256)
def _quantile(df: int, p: float) -> float:
    if p == 0.5:
        return 0.0
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2.0 * p - 1.0) / math.sqrt(2.0 * p * (1.0 - p))
    upper = abs(p - 0.5) + 0.5
    target = 2.0 * upper - 1.0
    z = _normal_quantile(upper)
    t = z + (z**3 + z) / (4.0 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96.0 * df * df)
    # Newton converges quadratically from this start (relative steps about 1e-3, 1e-6,
    # 1e-11); once a step is below 1e-9 one more step reaches the sum's rounding floor
    for _ in range(20):
        inside, density = _two_sided(t, df)
        step = (inside - target) / (2.0 * density)
        t = max(t - step, 0.5 * t)
        if abs(step) <= 1e-9 * t:
            inside, density = _two_sided(t, df)
            t -= (inside - target) / (2.0 * density)
            return t if p > 0.5 else -t
    return float(special.stdtrit(df, p))  # pragma: no cover - not seen on any tested (df, p)


def t_quantile(df, p: float) -> np.ndarray:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (array-like df).

    Equals ``scipy.special.stdtrit(df, p)`` to about 1e-12 relative (tested); NaN df
    give NaN, df < 1 NaN as in scipy.

    Examples
    --------
    >>> from scipy import special
    >>> q = t_quantile([2, 9, 29], 0.975)
    >>> [round(float(x), 6) for x in q]
    [4.302653, 2.262157, 2.04523]
    >>> bool(np.allclose(q, special.stdtrit([2, 9, 29], 0.975), rtol=1e-13))
    True
    """
    df = np.asarray(df, dtype=float)
    finite = df[np.isfinite(df)]
    whole = bool(np.all(finite == np.round(finite))) and bool(np.all(finite <= MAX_DF))
    if not whole or not P_RANGE[0] <= p <= P_RANGE[1]:
        return np.asarray(special.stdtrit(df, p), dtype=float)
    out = np.full(df.shape, np.nan)
    for value in np.unique(finite[finite >= 1]):
        out[df == value] = _quantile(int(value), p)
    return out
