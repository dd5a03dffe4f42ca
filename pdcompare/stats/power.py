"""What a design could detect: power of the (corrected) paired t-test, and attainable p-values.

A non-significant result is evidence of no difference only when the design
could have found one. The functions here answer for the Nadeau–Bengio
corrected t-test (and, with ``test_train_ratio=0``, the plain paired t-test):
the power to detect a true mean difference, the smallest difference found
with a given probability, how many repeats that would take, and the floor
that the correction puts under every design. (The smallest p-value a rank
test can reach is :mod:`pdcompare.stats._signed_rank`'s.)

Every function is pure numpy and broadcasts over its array arguments, so one
call serves every pair of models; the root finding is vectorised too (one
noncentrality per distinct number of splits, solved by bisection on arrays).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._common import tails as _tails

#: ``alternative`` values of the core: two tails or one.

#: Bisection steps on the noncentrality: the bracket shrinks by 2**-64.
_BISECTION_STEPS = 64

#: Numbers of repeats tabulated at once by :func:`repeats_needed` before a search beyond.
_TABLE_REPEATS = 512


def _critical(df, alpha: float, tails: int) -> np.ndarray:
    """Critical value ``t_{1 - alpha/tails}`` with ``df`` degrees of freedom."""
    return special.stdtrit(np.asarray(df, dtype=float), 1.0 - alpha / tails)


def _power_at(noncentrality, df, alpha: float, tails: int) -> np.ndarray:
    """P(reject) of a t-test when T is noncentral t(df, noncentrality), noncentrality >= 0."""
    crit = _critical(df, alpha, tails)
    known = ~(np.isnan(df) | np.isnan(noncentrality))
    upper = 1.0 - special.nctdtr(df, noncentrality, crit)
    if tails == 1:
        return upper
    # scipy's nctdtr gives NaN for some far-tail values (below 1e-25 or so): they are 0.
    lower = special.nctdtr(df, noncentrality, -crit)
    return upper + np.where(known & np.isnan(lower), 0.0, lower)


def power(
    delta, sd_diff, n, *, test_train_ratio=0.0, alpha: float = 0.05, alternative="two-sided"
) -> np.ndarray:
    """Power of the corrected paired t-test to detect a true mean difference ``delta``.

    Parameters
    ----------
    delta : float or array_like
        The true mean difference (model_1 − model_2), in score units; its
        size counts, in the direction of a one-sided alternative.
    sd_diff : float or array_like
        Standard deviation (ddof=1) of the paired differences over the splits.
    n : int or array_like
        Number of splits (or data sets); NaN or below 2 gives NaN.
    test_train_ratio : float, default 0.0
        ``n_test / n_train`` of the splits: the Nadeau–Bengio correction;
        0 gives the plain paired t-test.
    alpha : float, default 0.05
        Significance level of the test.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        Two tails, or the one tail in the direction of ``delta``.

    Returns
    -------
    numpy.ndarray
        P(the test rejects), broadcast over the arguments.

    Notes
    -----
    ``se(n) = sd_diff · sqrt(1/n + n_test/n_train)``; with ``T`` noncentral t
    on ``n − 1`` degrees of freedom and noncentrality ``|delta| / se(n)``,
    the power is ``P(T > t_{1−alpha/2}) + P(T < −t_{1−alpha/2})`` two-sided
    and ``P(T > t_{1−alpha})`` one-sided (Nadeau and Bengio 2003). A zero
    ``sd_diff`` gives power 1 for ``delta != 0``.

    Examples
    --------
    10-fold CV, a difference of half the standard deviation of the fold
    differences:

    >>> round(float(power(0.5, 1.0, 10, test_train_ratio=1 / 9)), 3)
    0.164

    Compare with statsmodels when there is no correction (the plain paired t):

    >>> from statsmodels.stats.power import TTestPower
    >>> round(float(power(0.5, 1.0, 20)), 4), round(float(TTestPower().power(0.5, 20, 0.05)), 4)
    (0.5645, 0.5645)
    """
    tails = _tails(alternative)
    delta, sd_diff, n = np.broadcast_arrays(
        np.abs(np.asarray(delta, dtype=float)),
        np.asarray(sd_diff, dtype=float),
        np.asarray(n, dtype=float),
    )
    n = np.where(n >= 2, n, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = sd_diff * np.sqrt(1.0 / n + test_train_ratio)
        noncentrality = np.where(delta == 0, 0.0, delta / se)
    out = np.asarray(_power_at(np.minimum(noncentrality, 1e300), n - 1.0, alpha, tails))
    out = np.where(np.isinf(noncentrality) & ~np.isnan(n), 1.0, out)
    return out[()] if out.ndim == 0 else out


def noncentrality(df, *, alpha: float = 0.05, alternative="two-sided", target=0.8) -> np.ndarray:
    """The noncentrality at which a t-test on ``df`` degrees of freedom has power ``target``.

    Solved for every distinct ``df`` at once: scipy's ``nctdtrinc`` gives the
    one-tailed answer to about 1e-8, and a bisection on arrays refines it and
    adds the far tail of a two-sided test (the answer lies between the
    one-tailed answers for ``target`` and ``target − alpha/2``).
    0 where the power at no difference (``alpha``) already reaches ``target``.

    Examples
    --------
    >>> lam = noncentrality([9.0, 99.0])
    >>> [round(float(v), 4) for v in lam]
    [3.1496, 2.8291]
    >>> [round(float(p), 6) for p in _power_at(lam, [9.0, 99.0], 0.05, 2)]
    [0.8, 0.8]
    """
    tails = _tails(alternative)
    df = np.asarray(df, dtype=float)
    distinct, where = np.unique(df, return_inverse=True)
    valid = distinct >= 1
    solved = np.full(distinct.shape, np.nan)
    d = distinct[valid]
    crit = _critical(d, alpha, tails)
    if d.size and target > alpha:
        # One tail: P(T > crit) = target  <=>  nctdtr(df, nc, crit) = 1 - target. scipy's
        # nctdtrinc solves it to about 1e-8; the far tail of a two-sided test adds at most
        # alpha/2, so the answer lies between the one-tailed answers for target - alpha/2
        # and target. A bisection on that bracket, widened, gives full precision.
        high = special.nctdtrinc(d, 1.0 - target, crit) * 1.001 + 1e-3
        floor = target - (alpha / 2 if tails == 2 else 0.0)
        low = special.nctdtrinc(d, 1.0 - floor, crit) if floor > alpha / tails else 0.0 * d
        low = np.maximum(low * 0.999 - 1e-3, 0.0)
        for _ in range(64):  # a bracket that holds, whatever nctdtrinc gave
            short = _power_at(high, d, alpha, tails) < target
            if not short.any():
                break
            high = np.where(short, 2.0 * high + 1.0, high)
        f_low = _power_at(low, d, alpha, tails) - target
        low = np.where(f_low >= 0, 0.0, low)
        f_low = np.where(f_low >= 0, _power_at(low, d, alpha, tails) - target, f_low)
        f_high = _power_at(high, d, alpha, tails) - target
        # The Illinois variant of regula falsi: power is smooth and increasing in the
        # noncentrality, so the bracket closes in a few steps where bisection takes ~45.
        side = np.zeros(d.shape, dtype=np.int8)
        for _ in range(_BISECTION_STEPS):
            # A noncentrality of power exactly ``target`` (to double precision) is the answer.
            low = np.where(f_high == 0, high, low)
            if np.all(high - low <= 4 * np.finfo(float).eps * high):
                break
            with np.errstate(invalid="ignore", divide="ignore"):
                step = f_high * (high - low) / (f_high - f_low)
            middle = np.where(np.isfinite(step), high - step, 0.5 * (low + high))
            # Stay strictly inside the bracket, so that it shrinks on every step.
            inside = (middle > low) & (middle < high)
            middle = np.where(inside, middle, 0.5 * (low + high))
            f_middle = _power_at(middle, d, alpha, tails) - target
            reached = f_middle >= 0
            f_low = np.where(reached & (side == 1), 0.5 * f_low, f_low)
            f_high = np.where(~reached & (side == -1), 0.5 * f_high, f_high)
            high, f_high = np.where(reached, middle, high), np.where(reached, f_middle, f_high)
            low, f_low = np.where(reached, low, middle), np.where(reached, f_low, f_middle)
            side = np.where(reached, 1, -1).astype(np.int8)
    else:
        high = np.zeros_like(d)
    solved[valid] = np.where(target <= alpha, 0.0, np.maximum(high, 0.0))
    out = solved[where.reshape(df.shape)]
    return out[()] if out.ndim == 0 else out


def min_detectable_difference(
    sd_diff,
    n,
    *,
    test_train_ratio=0.0,
    alpha: float = 0.05,
    alternative="two-sided",
    target: float = 0.8,
) -> np.ndarray:
    """The smallest true difference the paired t-test finds with probability ``target``.

    What a design could detect: for a non-significant comparison of a family
    of ``m``, call it with ``alpha / m`` (Bonferroni) to say "these splits
    could detect differences of about ``mdd`` or more with power 0.8".

    Parameters
    ----------
    sd_diff : float or array_like
        Standard deviation (ddof=1) of the paired differences.
    n : int or array_like
        Number of splits (or data sets).
    test_train_ratio : float, default 0.0
        ``n_test / n_train`` (0: the plain paired t-test, as across data sets).
    alpha : float, default 0.05
        Significance level of the test.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        Two tails or one.
    target : float, default 0.8
        The power asked for.

    Returns
    -------
    numpy.ndarray
        ``noncentrality(n − 1) · sd_diff · sqrt(1/n + n_test/n_train)``:
        :func:`power` at this difference equals ``target``.

    Examples
    --------
    >>> d = min_detectable_difference(0.02, 100, test_train_ratio=1 / 9)
    >>> round(float(d), 4), round(float(power(d, 0.02, 100, test_train_ratio=1 / 9)), 6)
    (0.0197, 0.8)
    """
    n = np.asarray(n, dtype=float)
    n = np.where(n >= 2, n, np.nan)
    lam = noncentrality(n - 1.0, alpha=alpha, alternative=alternative, target=target)
    with np.errstate(invalid="ignore"):
        out = lam * np.asarray(sd_diff, dtype=float) * np.sqrt(1.0 / n + test_train_ratio)
    return out[()] if np.ndim(out) == 0 else out


def mdd_limit(
    sd_diff, *, test_train_ratio, alpha: float = 0.05, alternative="two-sided", target=0.8
) -> np.ndarray:
    """The floor under every design with this training size, whatever the number of splits.

    ``(z_{1−alpha/tails} + z_target) · sd_diff · sqrt(n_test/n_train)``. As
    the number of splits grows, ``se(n)`` tends to ``sd · sqrt(n_test/n_train)``
    and the t-test to a z-test: no number of repeats detects a smaller
    difference with power ``target``.

    Examples
    --------
    >>> round(float(mdd_limit(1.0, test_train_ratio=1 / 9)), 4)
    0.9339
    """
    tails = _tails(alternative)
    z = special.ndtri(1.0 - alpha / tails) + special.ndtri(target)
    return z * np.asarray(sd_diff, dtype=float) * np.sqrt(test_train_ratio)


def _needed_noncentrality_scale(r, unit, test_train_ratio, alpha, alternative, target):
    """``noncentrality(k r − 1) · sqrt(1/(k r) + ratio)``: the smallest |delta|/sd found at r."""
    n = np.asarray(r, dtype=float) * unit
    lam = noncentrality(n - 1.0, alpha=alpha, alternative=alternative, target=target)
    # Fewer than 2 splits test nothing: no difference is found there.
    return np.where(n >= 2, lam * np.sqrt(1.0 / n + test_train_ratio), np.inf)


def repeats_needed(
    delta,
    sd_diff,
    *,
    unit,
    test_train_ratio=0.0,
    alpha: float = 0.05,
    alternative="two-sided",
    target: float = 0.8,
) -> np.ndarray:
    """The smallest ``r`` such that ``n = unit · r`` splits find ``delta`` with power ``target``.

    ``unit`` is the k of a k-fold (``r`` counts its repeats), the current
    number of splits (``r`` counts multiples of it), or 1 (``r`` counts data
    sets). ``inf`` when no ``r`` can: where ``|delta|`` is at most
    :func:`mdd_limit`. More repeats never detect less: the answer is the
    first ``r`` at which :func:`min_detectable_difference` drops to
    ``|delta|``, found in one table for every pair at once (every ``r`` up to
    512, then steps of 5 %) and, between two steps, from a log-linear guess
    checked on the power itself (a bisection on integers where it misses).

    Examples
    --------
    10-fold CV: half the standard deviation of the fold differences is
    below the floor (0.934 of it); one standard deviation takes 8 repeats.

    >>> [float(r) for r in repeats_needed([0.5, 1.0, 0.94], 1.0, unit=10, test_train_ratio=1 / 9)]
    [inf, 8.0, 83.0]
    """
    delta, sd_diff = np.broadcast_arrays(
        np.abs(np.asarray(delta, dtype=float)), np.asarray(sd_diff, dtype=float)
    )
    shape = delta.shape
    delta, sd_diff = delta.ravel(), sd_diff.ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        reach = np.where(delta == 0, 0.0, delta / sd_diff)  # |delta| / sd
    reach = np.minimum(reach, np.finfo(float).max)  # sd 0: any design with 2 splits finds it
    floor = mdd_limit(
        1.0, test_train_ratio=test_train_ratio, alpha=alpha, alternative=alternative, target=target
    )
    out = np.full(delta.shape, np.nan)
    known = ~np.isnan(reach)
    out[known & (reach <= floor)] = np.inf
    search = np.flatnonzero(known & (reach > floor))
    if search.size:
        # One table for every pair: r = 1 ... 512, then a geometric grid (5 % steps) up
        # to 2**53 splits. The scale falls with r (a smaller se, a smaller critical value).
        grid, scale = _grid_scale(float(unit), float(test_train_ratio), alpha, alternative, target)
        first = np.searchsorted(-scale, -reach[search], side="left")  # first scale <= reach
        exact = (first < grid.size) & (
            (first == 0) | (grid[np.minimum(first, grid.size - 1)] <= _TABLE_REPEATS)
        )
        out[search[exact]] = grid[first[exact]]
        between = ~exact
        if between.any():
            rows = search[between]
            at = first[between]
            inside = at < grid.size
            low = np.where(at > 0, np.floor(grid[np.maximum(at - 1, 0)]), 0.0)
            high = np.where(inside, np.ceil(grid[np.minimum(at, grid.size - 1)]), np.inf)
            # A first guess from the grid: the noncentrality varies slowly with r, so
            # interpolate it (in log r) and solve reach = lam sqrt(1/(k r) + ratio) for r,
            # twice. Checked exactly below (the power there, and one repeat fewer).
            log_grid = np.log(grid)
            lam = scale / np.sqrt(1.0 / (unit * grid) + test_train_ratio)
            guess = np.sqrt(np.maximum(low, 1.0) * np.where(inside, high, low + 1.0))
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                for _ in range(2):
                    at_guess = np.interp(np.log(guess), log_grid, lam)
                    guess = 1.0 / (unit * ((reach[rows] / at_guess) ** 2 - test_train_ratio))
                guess = np.ceil(guess)
            guess = np.where(
                inside & np.isfinite(guess) & (guess > 0), np.clip(guess, low + 1, high), np.nan
            )
            options = (unit, test_train_ratio, alpha, alternative, target)
            out[rows] = _first_enough(reach[rows], low, high, guess, *options)
    out = out.reshape(shape)
    return out[()] if out.ndim == 0 else out


@lru_cache(maxsize=32)
def _grid_scale(unit, test_train_ratio, alpha, alternative, target):
    """Numbers of repeats tabulated and their scales (read-only, cached per design and level).

    Every r up to 512, then steps of 5 % up to 2**53 splits.
    """
    top = np.log(2.0**53 / unit / _TABLE_REPEATS) / np.log(1.05)
    steps = _TABLE_REPEATS * 1.05 ** np.arange(1, max(int(np.ceil(top)), 1) + 1)
    grid = np.concatenate([np.arange(1.0, _TABLE_REPEATS + 1), np.unique(np.ceil(steps))])
    scale = _needed_noncentrality_scale(grid, unit, test_train_ratio, alpha, alternative, target)
    grid.flags.writeable = False
    scale.flags.writeable = False
    return grid, scale


def _first_enough(reach, low, high, guess, unit, test_train_ratio, alpha, alternative, target):
    """Smallest integer r in (low, high] with power(reach, 1, unit·r) >= target.

    ``low`` is known to fall short. ``guess`` (NaN for none) is checked
    first, with one repeat fewer: where it is enough and one fewer is not, it
    is the answer; elsewhere it narrows the bracket. An infinite ``high`` is
    found by doubling (``inf`` stays where no number of splits a float can
    hold will do), then a bisection on integers runs on the rows left, each
    step on those rows only.
    """

    def enough(rows, r):
        found = power(
            reach[rows],
            1.0,
            unit * r,
            test_train_ratio=test_train_ratio,
            alpha=alpha,
            alternative=alternative,
        )
        return np.asarray(found) >= target

    low, high = np.array(low, dtype=float), np.array(high, dtype=float)
    rows = np.flatnonzero(np.isfinite(guess) & (guess > low) & (guess <= high))
    if rows.size:
        ok = enough(rows, guess[rows])
        high[rows[ok]] = guess[rows[ok]]
        low[rows[~ok]] = guess[rows[~ok]]
        fewer = rows[ok]
        fewer = fewer[guess[fewer] - 1.0 > low[fewer]]
        if fewer.size:
            ok = enough(fewer, guess[fewer] - 1.0)
            high[fewer[ok]] = guess[fewer[ok]] - 1.0
            low[fewer[~ok]] = guess[fewer[~ok]] - 1.0
    rows = np.flatnonzero(np.isinf(high))
    trial = np.maximum(2.0 * low[rows], 1.0)
    while rows.size:
        ok = enough(rows, trial)
        high[rows[ok]] = trial[ok]
        low[rows[~ok]] = trial[~ok]
        keep = ~ok & np.isfinite(2.0 * trial)
        rows, trial = rows[keep], 2.0 * trial[keep]
    rows = np.flatnonzero(np.isfinite(high) & (high - low > 1))
    while rows.size:
        middle = np.floor(0.5 * (low[rows] + high[rows]))
        ok = enough(rows, middle)
        high[rows[ok]] = middle[ok]
        low[rows[~ok]] = middle[~ok]
        rows = rows[high[rows] - low[rows] > 1]
    return high
