"""The studentized range distribution with infinite degrees of freedom, on whole arrays.

Nemenyi's test and the critical difference of the CD diagram need
``scipy.stats.studentized_range.sf(q, k, inf)`` for every pair of many models;
scipy integrates once per value. Here the integral over z (the range of k
standard normals) is a trapezoidal rule evaluated on the whole array of q at
once, or, for many values, on a grid of q that is then interpolated.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from pdcompare._validation import check_fraction

__all__ = ["studentized_range_isf", "studentized_range_sf"]

#: Step of the trapezoidal rule over z in the studentized range integral.
_Z_STEP = 0.05
#: Step of the grid of q on which the studentized range is tabulated for many pairs.
_Q_STEP = 0.005
#: log of the relative size below which the integrand is left out (e**-60, about 1e-26).
_LOG_CUTOFF = 60.0
#: float64 elements of the (q, z) quadrature array held in memory at once.
_CHUNK_ELEMENTS = 1 << 20


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
