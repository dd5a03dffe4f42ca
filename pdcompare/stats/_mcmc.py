"""Markov chain tools on arrays of many chains at once: slice steps, split R-hat, bulk ESS.

Every function works on arrays whose leading axes are independent problems
(model pairs) and chains, so one call advances or diagnoses all of them.
The diagnostics follow Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021),
as ArviZ computes them (``arviz_stats`` ``rhat(method="split")`` and
``ess(method="bulk")``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pdcompare.stats import _special as special

#: Stepping-out steps of a slice step (Neal 2003, section 4: ``m``), split at random.
MAX_STEPS = 32
#: Batches of shrinkage proposals of a slice step; an element still not accepted keeps its value.
MAX_SHRINK = 32
#: Points tried at once in a slice step's shrinkage.
BATCH = 4


def slice_step(
    x: np.ndarray,
    log_density: Callable[[np.ndarray], np.ndarray],
    rng: np.random.Generator,
    *,
    width: float | np.ndarray,
    lower: float | np.ndarray = -np.inf,
    upper: float | np.ndarray = np.inf,
    whole_interval: bool = False,
) -> np.ndarray:
    """One univariate slice-sampling update of every element of ``x`` (Neal 2003).

    Each element is an independent one-dimensional target: ``log_density``
    maps an array shaped ``(k, *x.shape)`` (``k`` points per element along a
    leading axis) to the log densities, up to constants, of every element at
    those points. The slice height is drawn below ``log_density(x)``; an
    interval of ``width`` placed at random around ``x`` is stepped out (at
    most ``MAX_STEPS`` steps, split at random between the two sides, clipped
    at ``lower`` and ``upper``); then ``BATCH`` points drawn uniformly in the
    interval are tried at once, the first inside the slice is taken, and when
    none is, the interval shrinks to the rejected points nearest ``x`` on
    either side before the next batch. Rejected points lie outside the slice,
    so the shrunk interval is the same seen from the accepted point, which
    keeps each element's target invariant, as Neal's one-at-a-time
    shrinkage does; a batch needs one call of ``log_density`` where
    one-at-a-time proposals need several. With ``whole_interval=True`` the
    interval is ``[lower, upper]`` itself (both finite), without stepping
    out, for a bounded target.

    Parameters
    ----------
    x : numpy.ndarray
        Current values, strictly inside ``(lower, upper)``.
    log_density : callable
        Vectorised log density, ``-inf`` outside the support.
    rng : numpy.random.Generator
        Source of the uniform and exponential draws.
    width : float or numpy.ndarray
        Initial interval width (broadcast against ``x``).
    lower, upper : float or numpy.ndarray
        Bounds of the support (broadcast against ``x``).
    whole_interval : bool, default False
        Start from the whole bounded support instead of stepping out.

    Returns
    -------
    numpy.ndarray
        The new values.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = np.zeros(20000)
    >>> for _ in range(20):
    ...     x = slice_step(x, lambda v: -0.5 * v**2, rng, width=2.0)
    >>> round(float(x.mean()), 1), round(float(x.std()), 1)  # a standard normal
    (0.0, 1.0)
    """
    shape = x.shape
    lower = np.broadcast_to(lower, shape)
    upper = np.broadcast_to(upper, shape)
    height = log_density(x[None])[0] - rng.standard_exponential(shape)
    if whole_interval:
        left, right = lower.copy(), upper.copy()
    else:
        left = x - width * rng.random(shape)
        right = np.minimum(left + width, upper)
        left = np.maximum(left, lower)
        steps_left = np.floor(MAX_STEPS * rng.random(shape))
        steps_right = MAX_STEPS - 1 - steps_left
        step = np.broadcast_to(width, shape)
        for k in range(MAX_STEPS):
            ends = log_density(np.stack([left, right]))
            grow_left = (steps_left > k) & (left > lower) & (ends[0] > height)
            grow_right = (steps_right > k) & (right < upper) & (ends[1] > height)
            if not (grow_left.any() or grow_right.any()):
                break
            left = np.where(grow_left, np.maximum(left - step, lower), left)
            right = np.where(grow_right, np.minimum(right + step, upper), right)
    new = x.copy()
    todo = np.ones(shape, dtype=bool)
    for _ in range(MAX_SHRINK):
        proposals = left + rng.random((BATCH, *shape)) * (right - left)
        inside = log_density(proposals) > height
        found = inside.any(axis=0)
        first = np.argmax(inside, axis=0)
        chosen = np.take_along_axis(proposals, first[None], axis=0)[0]
        accepted = todo & found
        new = np.where(accepted, chosen, new)
        todo &= ~found
        if not todo.any():
            break
        below = np.where(proposals < x, proposals, -np.inf).max(axis=0)
        above = np.where(proposals >= x, proposals, np.inf).min(axis=0)
        left = np.where(todo, np.maximum(left, below), left)
        right = np.where(todo, np.minimum(right, above), right)
    return new


def _split_chains(draws: np.ndarray) -> np.ndarray:
    """(..., chains, n) -> (..., 2 chains, n // 2): first and last halves (middle draw dropped)."""
    half = draws.shape[-1] // 2
    return np.concatenate([draws[..., :half], draws[..., draws.shape[-1] - half :]], axis=-2)


def split_rhat(draws: np.ndarray) -> np.ndarray:
    """Split R-hat of ``draws`` shaped (..., chains, draws), over the last two axes.

    ``sqrt(((n - 1)/n W + B/n) / W)`` on the chains split in halves, with
    ``W`` the mean within-chain variance and ``B/n`` the variance of the chain
    means (Gelman et al., Bayesian Data Analysis, 3rd ed., section 11.4);
    ArviZ's ``rhat(method="split")``.

    Examples
    --------
    >>> draws = np.random.default_rng(1).normal(size=(4, 1000))
    >>> bool(abs(split_rhat(draws) - 1) < 0.01)
    True
    """
    split = _split_chains(np.asarray(draws, dtype=float))
    n = split.shape[-1]
    within = split.var(axis=-1, ddof=1).mean(axis=-1)
    between = n * split.mean(axis=-1).var(axis=-1, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt((between / within + n - 1) / n)


def _autocovariance(x: np.ndarray) -> np.ndarray:
    """Biased autocovariance along the last axis, by FFT."""
    n = x.shape[-1]
    centred = x - x.mean(axis=-1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spectrum = np.fft.rfft(centred, n=size, axis=-1)
    return np.fft.irfft(spectrum * np.conjugate(spectrum), n=size, axis=-1)[..., :n] / n


def _ess(split: np.ndarray) -> np.ndarray:
    """Effective sample size of split chains (..., chains, n), by Geyer's monotone sequence."""
    chains, n = split.shape[-2:]
    acov = _autocovariance(split)
    mean_var = acov[..., 0].mean(axis=-1) * n / (n - 1.0)
    var_plus = mean_var * (n - 1.0) / n + split.mean(axis=-1).var(axis=-1, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = 1.0 - (mean_var[..., None] - acov.mean(axis=-2)) / var_plus[..., None]
    rho[..., 0] = 1.0
    # Pairs (rho_2k, rho_2k+1) for k = 0 .. n_pairs - 1, as far as ArviZ's loop reaches.
    n_pairs = (n - 3) // 2 + 1
    pair_sums = rho[..., 0 : 2 * n_pairs : 2] + rho[..., 1 : 2 * n_pairs : 2]
    # The first pair k >= 1 whose sum is not positive ends the sequence (Geyer 1992);
    # without one, the sequence ends at the last pair.
    ends = pair_sums[..., 1:] <= 0
    stop = np.where(ends.any(axis=-1), 1 + np.argmax(ends, axis=-1), n_pairs - 1)
    monotone = np.minimum.accumulate(pair_sums, axis=-1)
    kept = np.arange(n_pairs) < stop[..., None]
    tau = -1.0 + 2.0 * np.where(kept, monotone, 0.0).sum(axis=-1)
    # The even term of the pair that ends it is added when positive, as ArviZ does.
    next_even = np.take_along_axis(rho, (2 * stop)[..., None], axis=-1)[..., 0]
    tau += np.where(next_even > 0, next_even, 0.0)
    total = chains * n
    tau = np.maximum(tau, 1.0 / np.log10(total))
    return total / tau


def bulk_ess(draws: np.ndarray) -> np.ndarray:
    """Bulk effective sample size of ``draws`` shaped (..., chains, draws).

    The chains are split in halves, the draws rank-normalised over all of
    them (``Φ⁻¹((r − 3/8)/(S + 1/4))``, ``r`` the average rank among the
    ``S`` draws), and the
    autocorrelations summed with Geyer's initial monotone sequence; ArviZ's
    ``ess(method="bulk")`` (Vehtari et al. 2021).

    Examples
    --------
    >>> draws = np.random.default_rng(1).normal(size=(4, 1000))
    >>> bool(3000 < bulk_ess(draws) < 5000)  # independent draws: about 4000
    True
    """
    split = _split_chains(np.asarray(draws, dtype=float))
    shape = split.shape
    flat = split.reshape(*shape[:-2], shape[-2] * shape[-1])
    from scipy import stats  # heavy to import: only once a sampler has run

    ranks = stats.rankdata(flat, axis=-1, method="average")
    return _ess(special.ndtri((ranks - 0.375) / (flat.shape[-1] + 0.25)).reshape(shape))
