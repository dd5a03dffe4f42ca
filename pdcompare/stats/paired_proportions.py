"""Intervals of the difference of paired proportions, and the mid-p McNemar test.

Two models scored 0/1 on the same ``n`` items give, for each pair, the 2×2
counts ``a`` (both right), ``b`` (only model_1 right), ``c`` (only model_2
right) and ``d`` (both wrong). The difference of their accuracies is
``Δ = p_1 − p_2 = (b − c) / n`` (model_1 − model_2, scipy's sign convention).
Every function here takes arrays of counts, one entry per pair, and works on
all of them at once: no Python loop per pair. Tango's limits are roots of a
score equation, found by bisection on every distinct table at once.

References
----------
T. Tango, "Equivalence test and confidence interval for the difference in
proportions for the paired-sample design", Statistics in Medicine 17(8),
891–908, 1998.
R. G. Newcombe, "Improved confidence intervals for the difference between
binomial proportions based on paired data", Statistics in Medicine 17(22),
2635–2650, 1998 (method 10).
M. W. Fagerland, S. Lydersen, P. Laake, "Recommended tests and confidence
intervals for paired binomial proportions", Statistics in Medicine 33(16),
2850–2875, 2014.
E. L. Korn, B. I. Graubard, "Confidence intervals for proportions with small
expected number of positive counts estimated from survey data", Survey
Methodology 24(2), 193–201, 1998.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._student import t_quantile

#: The interval methods of :func:`paired_interval`.
INTERVALS = ("tango", "newcombe", "wald")
#: Tango's limits are found to this absolute precision.
TOLERANCE = 1e-10


def normal_quantile(confidence: float) -> float:
    """The two-sided normal critical value of ``confidence``.

    Examples
    --------
    >>> round(normal_quantile(0.95), 6)
    1.959964
    """
    return float(special.ndtri(0.5 + confidence / 2.0))


def wilson_interval(proportion, n, critical) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's score interval of a proportion, vectorised, with any critical value.

    ``(p + k²/(2n) ± k·sqrt(p(1 − p)/n + k²/(4n²))) / (1 + k²/n)``; ``k`` is
    the normal quantile for the plain interval, a t quantile for the
    Korn–Graubard clustered one (:func:`clustered_wilson_interval`).

    Examples
    --------
    >>> low, high = wilson_interval(0.7, 20, 1.959963984540054)
    >>> round(float(low), 6), round(float(high), 6)
    (0.481027, 0.854523)

    Compare with statsmodels:

    >>> from statsmodels.stats.proportion import proportion_confint
    >>> [round(float(x), 6) for x in proportion_confint(14, 20, method="wilson")]
    [0.481027, 0.854523]
    """
    p = np.asarray(proportion, dtype=float)
    n = np.asarray(n, dtype=float)
    k2 = np.asarray(critical, dtype=float) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        denominator = 1.0 + k2 / n
        centre = (p + k2 / (2.0 * n)) / denominator
        half = np.sqrt(k2 * (p * (1.0 - p) / n + k2 / (4.0 * n * n))) / denominator
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def clustered_wilson_interval(
    proportion, n, clustered_variance, n_clusters, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """Korn and Graubard's clustered Wilson interval of proportions (one per model).

    The effective sample size is ``n_eff = p(1 − p) / v`` (``n`` over the
    design effect ``v / (p(1 − p)/n)``, ``v`` the clustered variance of the
    mean), capped at ``n``; the critical value is Student's t with
    ``n_clusters − 1`` degrees of freedom. Korn & Graubard (1998) write the
    degrees-of-freedom adjustment as ``n* = n_eff · (z/t)²`` with the normal
    ``z``: Wilson's interval with ``z`` and ``n*`` is Wilson's with ``t`` and
    ``n_eff``, the form inspect_ai's ``ci_wilson(cluster=)`` computes. Where
    ``p`` is 0 or 1 or ``v`` is 0 the unadjusted ``n`` is used (as inspect_ai).

    Examples
    --------
    >>> low, high = clustered_wilson_interval(0.5, 12, 0.0625, 4, 0.95)
    >>> round(float(low), 4), round(float(high), 4)
    (0.0767, 0.9233)
    """
    p = np.asarray(proportion, dtype=float)
    n = np.asarray(n, dtype=float)
    v = np.asarray(clustered_variance, dtype=float)
    numerator = p * (1.0 - p)
    with np.errstate(divide="ignore", invalid="ignore"):
        effective = np.where((numerator > 0) & (v > 0), np.minimum(numerator / v, n), n)
    critical = t_quantile(np.asarray(n_clusters, dtype=float) - 1.0, 0.5 + confidence / 2.0)
    return wilson_interval(p, effective, critical)


def _tango_statistic(delta, b, c, n):
    """Tango's score statistic ``(b − c − nδ) / sqrt(n(2 q̃ + δ(1 − δ)))`` at ``δ``.

    ``q̃`` is the maximum-likelihood estimate of the probability of the
    ``c`` cell under ``Δ = δ``: the positive root of ``2n q² + B q + C = 0``
    with ``B = −b − c + (2n − b + c) δ`` and ``C = −c δ (1 − δ)`` (Tango 1998,
    eq. 5). The statistic decreases in ``δ`` from +inf at −1 to −inf at 1.
    """
    with np.errstate(divide="ignore", invalid="ignore"):  # n = 0 or NaN counts: NaN
        a2 = 2.0 * n
        bq = -b - c + (2.0 * n - b + c) * delta
        cq = -c * delta * (1.0 - delta)
        root = np.sqrt(np.maximum(bq * bq - 4.0 * a2 * cq, 0.0))
        q = (root - bq) / (2.0 * a2)
        variance = np.maximum(n * (2.0 * q + delta * (1.0 - delta)), 0.0)
        return (b - c - n * delta) / np.sqrt(variance)


def _distinct(*counts):
    """The distinct rows of the count arrays, and the index that rebuilds every pair.

    Only where fewer tables are possible than there are pairs (few items, many
    models). Whole counts below 2**20 are packed into one integer key (a sort of
    integers, fast); other values (NaN, fractions) fall back to the rows' unique.
    """
    stacked = np.stack([np.asarray(x, dtype=float).ravel() for x in counts], axis=1)
    size = stacked.shape[0]
    largest = float(np.nanmax(stacked, initial=0.0))
    # Worth it only when the tables cannot all differ: fewer possible tables than pairs.
    if size < 64 or (largest + 1.0) ** 2 > 2.0 * size:
        return stacked.T, np.arange(size)
    finite = np.isfinite(stacked).all(axis=1)
    if finite.all() and (stacked >= 0).all() and (stacked < 2**20).all():
        whole = stacked.astype(np.int64)
        if (whole == stacked).all():
            key = np.zeros(stacked.shape[0], dtype=np.int64)
            for column in whole.T:
                key = (key << 20) | column
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            return stacked[first].T, inverse.ravel()
    rows, inverse = np.unique(stacked, axis=0, return_inverse=True)
    return rows.T, inverse.ravel()


def _score_roots(lo, hi, target, b, c, n, guess_lo=None, guess_hi=None):
    """Where Tango's (decreasing) statistic crosses ``target`` in ``[lo, hi]``, to TOLERANCE.

    The search starts from the bracket ``[guess_lo, guess_hi]`` where it
    holds the root (the ends ``lo``, ``hi`` where it does not), then runs the
    Illinois method (regula falsi that halves the stale end's value, so both
    ends close in superlinearly) on the tables not yet converged, falling back
    to the midpoint where a step leaves the bracket (the ends ±1 give infinite
    statistics), then bisection for any left; every step keeps the root bracketed.
    """
    lo, hi = lo.copy(), hi.copy()
    if guess_lo is not None:
        guess_lo = np.clip(guess_lo, lo, hi)
        guess_hi = np.clip(guess_hi, lo, hi)
        lo = np.where(_tango_statistic(guess_lo, b, c, n) > target, guess_lo, lo)
        hi = np.where(_tango_statistic(guess_hi, b, c, n) < target, guess_hi, hi)
    out = 0.5 * (lo + hi)
    f_lo = _tango_statistic(lo, b, c, n) - target
    f_hi = _tango_statistic(hi, b, c, n) - target
    side = np.zeros(lo.shape, dtype=np.int8)  # which end moved last: -1 low, 1 high
    index = np.arange(lo.size)
    state = [lo, hi, f_lo, f_hi, side, index, b, c, n, target]
    keep = hi - lo > TOLERANCE
    state = [x[keep] for x in state]
    for _ in range(60):
        lo, hi, f_lo, f_hi, side, index, b, c, n, target = state
        if index.size == 0:
            break
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
        x = np.where(~np.isfinite(x) | (x <= lo) | (x >= hi), 0.5 * (lo + hi), x)
        fx = _tango_statistic(x, b, c, n) - target
        move_lo = fx > 0
        # Illinois: an end that stays twice running has its value halved.
        f_lo = np.where(move_lo, fx, np.where(side == 1, 0.5 * f_lo, f_lo))
        f_hi = np.where(move_lo, np.where(side == -1, 0.5 * f_hi, f_hi), fx)
        lo = np.where(move_lo, x, lo)
        hi = np.where(move_lo, hi, x)
        side = np.where(move_lo, -1, 1).astype(np.int8)
        exact = fx == 0
        lo = np.where(exact, x, lo)
        hi = np.where(exact, x, hi)
        done = hi - lo <= TOLERANCE
        state = [lo, hi, f_lo, f_hi, side, index, b, c, n, target]
        count = int(done.sum())
        if count == done.size or (count and (count > done.size // 4 or done.size < 4096)):
            out[index[done]] = 0.5 * (lo[done] + hi[done])
            state = [v[~done] for v in state]  # compact once enough have converged
    lo, hi, _, _, _, index, b, c, n, target = state
    out[index] = 0.5 * (lo + hi)  # converged ones left in the state; the rest get bisected
    unfinished = hi - lo > TOLERANCE
    lo, hi, index, b, c, n, target = (v[unfinished] for v in (lo, hi, index, b, c, n, target))
    while index.size:  # rarely needed: bisection to the tolerance
        middle = 0.5 * (lo + hi)
        above = _tango_statistic(middle, b, c, n) > target
        lo = np.where(above, middle, lo)
        hi = np.where(above, hi, middle)
        done = hi - lo <= TOLERANCE
        out[index[done]] = 0.5 * (lo[done] + hi[done])
        lo, hi, index, b, c, n, target = (v[~done] for v in (lo, hi, index, b, c, n, target))
    return out


def tango_interval(b, c, n, *, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Tango's score interval of ``Δ = (b − c)/n`` for every pair, vectorised.

    The limits are the ``δ`` where Tango's score statistic equals ``±z``
    (:func:`_tango_statistic`), found by bisection on all distinct tables at
    once to :data:`TOLERANCE`. A table without discordant items still gets a
    proper interval around 0; ``n = 0`` gives NaN.

    Parameters
    ----------
    b, c : array_like
        Items only model_1 (only model_2) gets right.
    n : array_like
        Items of each pair.
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    low, high : numpy.ndarray

    Examples
    --------
    Fagerland, Lydersen & Laake (2014), Table V (Bentur et al. 2009, 21 children):

    >>> low, high = tango_interval(1, 7, 21)
    >>> round(float(low), 3), round(float(high), 3)
    (-0.517, -0.026)
    """
    shape = np.broadcast(np.asarray(b), np.asarray(c), np.asarray(n)).shape
    b, c, n = (np.broadcast_to(np.asarray(x, dtype=float), shape) for x in (b, c, n))
    (ub, uc, un), inverse = _distinct(b, c, n)
    z = normal_quantile(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        estimate = (ub - uc) / un
    # Both limits in one bisection: rows [0, u) the lower (T = z), [u, 2u) the upper (T = −z).
    lo = np.concatenate([np.full_like(estimate, -1.0), estimate])
    hi = np.concatenate([estimate, np.ones_like(estimate)])
    target = np.concatenate([np.full_like(estimate, z), np.full_like(estimate, -z)])
    b2, c2, n2 = (np.concatenate([x, x]) for x in (ub, uc, un))
    # A bracket around Wald's limits, which lie within O(1/n) of Tango's.
    guess = np.concatenate(wald_interval(ub, uc, un, confidence=confidence))
    spread = 0.1 * np.abs(guess - np.concatenate([estimate, estimate])) + 2.0 / n2.clip(1)
    limits = _score_roots(lo, hi, target, b2, c2, n2, guess - spread, guess + spread)
    limits = np.where(np.tile(np.isfinite(estimate), 2), limits, np.nan)
    size = estimate.size
    low, high = limits[:size][inverse], limits[size:][inverse]
    return low.reshape(shape), high.reshape(shape)


def newcombe_interval(a, b, c, d, *, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's hybrid score interval (method 10, 1998) of ``Δ = (b − c)/n``, vectorised.

    With ``(l_1, u_1)`` and ``(l_2, u_2)`` the Wilson intervals of the
    marginal proportions ``p_1 = (a + b)/n`` and ``p_2 = (a + c)/n`` and
    ``φ = A/sqrt((a + b)(c + d)(a + c)(b + d))`` (0 where a margin is
    empty), with Newcombe's corrected cross product ``A = ad − bc − n/2``
    when ``ad − bc > n/2``, 0 when ``0 ≤ ad − bc ≤ n/2`` and ``ad − bc``
    below 0: ``L = Δ − sqrt((p_1 − l_1)² − 2φ(p_1 − l_1)(u_2 − p_2) + (u_2 − p_2)²)``
    and ``U = Δ + sqrt((u_1 − p_1)² − 2φ(u_1 − p_1)(p_2 − l_2) + (p_2 − l_2)²)``.

    Examples
    --------
    Fagerland, Lydersen & Laake (2017), chapter 8 (Cavo et al. 2012, 161 patients):

    >>> low, high = newcombe_interval(59, 6, 16, 80)
    >>> round(float(low), 4), round(float(high), 4)
    (-0.1186, -0.0046)
    """
    a, b, c, d = (np.asarray(x, dtype=float) for x in (a, b, c, d))
    n = a + b + c + d
    z = normal_quantile(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = (a + b) / n, (a + c) / n
        l1, u1 = wilson_interval(p1, n, z)
        l2, u2 = wilson_interval(p2, n, z)
        margins = (a + b) * (c + d) * (a + c) * (b + d)
        cross = a * d - b * c
        # Newcombe's continuity-corrected φ: shrunk by n/2 towards 0 when positive.
        cross = np.where(cross > n / 2.0, cross - n / 2.0, np.where(cross >= 0, 0.0, cross))
        phi = np.where(margins > 0, cross / np.sqrt(margins), 0.0)
        down = (p1 - l1) ** 2 - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
        up = (u1 - p1) ** 2 - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    estimate = p1 - p2
    return estimate - np.sqrt(np.maximum(down, 0.0)), estimate + np.sqrt(np.maximum(up, 0.0))


def wald_interval(b, c, n, *, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The Wald interval ``Δ ± z·sqrt((b + c) − (b − c)²/n)/n``, clipped to [−1, 1].

    Examples
    --------
    Fagerland, Lydersen & Laake (2017), chapter 8 (Cavo et al. 2012):

    >>> low, high = wald_interval(6, 16, 161)
    >>> round(float(low), 4), round(float(high), 4)
    (-0.1184, -0.0058)
    """
    b, c, n = (np.asarray(x, dtype=float) for x in (b, c, n))
    z = normal_quantile(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        estimate = (b - c) / n
        half = z * np.sqrt(np.maximum((b + c) - (b - c) ** 2 / n, 0.0)) / n
    return np.clip(estimate - half, -1.0, 1.0), np.clip(estimate + half, -1.0, 1.0)


def paired_interval(
    method: str, a, b, c, d, *, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """The interval ``method`` (one of :data:`INTERVALS`) of ``Δ`` from the 2×2 counts.

    Examples
    --------
    >>> [round(float(x), 4) for x in paired_interval("tango", 59, 6, 16, 80)]
    [-0.124, -0.0054]
    """
    if method == "newcombe":
        return newcombe_interval(a, b, c, d, confidence=confidence)
    n = np.asarray(a, dtype=float) + b + c + d
    if method == "wald":
        return wald_interval(b, c, n, confidence=confidence)
    return tango_interval(b, c, n, confidence=confidence)


def midp_mcnemar(b, c) -> np.ndarray:
    """Mid-p McNemar p-value of every pair: ``2·P(X < k) + P(X = k)``, at most 1.

    ``X ~ Binomial(b + c, 1/2)`` and ``k = min(b, c)``; that is the exact
    conditional p-value minus the probability of the observed table. No
    discordant item gives 1.

    Examples
    --------
    Fagerland, Lydersen & Laake (2017), chapter 8 (Cavo et al. 2012):

    >>> round(float(midp_mcnemar(6, 16)), 6)
    0.03469
    """
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    k = np.minimum(b, c)
    total = b + c
    with np.errstate(invalid="ignore"):
        whole = np.where(np.isfinite(total), total, 0.0).astype(np.int64)
        below = np.where(k > 0, special.bdtr(np.maximum(k - 1.0, 0.0), whole, 0.5), 0.0)
        log_at = (
            special.gammaln(total + 1.0)
            - special.gammaln(k + 1.0)
            - special.gammaln(total - k + 1.0)
            - total * np.log(2.0)
        )
        at = np.exp(log_at)  # P(X = k), without the cancellation of a difference of CDFs
    pvalue = np.minimum(2.0 * below + at, 1.0)
    return np.where(total == 0, 1.0, np.where(np.isfinite(total), pvalue, np.nan))
