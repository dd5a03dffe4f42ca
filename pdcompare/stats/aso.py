"""Almost Stochastic Order (ASO) for every pair of models at once.

The violation ratio ε_W2 of two empirical distributions is computed exactly
from their quantile functions, which are step functions: model m with n_m
runs steps at k/n_m. All models (and all their bootstrap resamples) are put
on one grid, the union of those breakpoints over the distinct numbers of
runs, so every pair and every bootstrap sample is a difference of two
arrays on that grid: no loop per pair, no ``dt`` grid.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as special

#: Number of float64 elements of (pairs x bootstrap samples x grid) held in memory at once.
_CHUNK_ELEMENTS = 1 << 22


def quantile_grid(counts) -> tuple[np.ndarray, np.ndarray]:
    """Midpoints and widths of the intervals between the breakpoints ``k/n`` of every ``n``.

    On each interval every empirical quantile function (of a sample of one of
    the sizes in ``counts``) is constant. Equal fractions (1/2 and 2/4) are
    the same float, since division is correctly rounded.

    Examples
    --------
    >>> mid, width = quantile_grid([2, 3])
    >>> np.round(mid, 4).tolist(), np.round(width, 4).tolist()
    ([0.1667, 0.4167, 0.5833, 0.8333], [0.3333, 0.1667, 0.1667, 0.3333])
    """
    sizes = np.unique(np.asarray(counts, dtype=np.int64))
    sizes = sizes[sizes > 0]
    if sizes.size == 0:
        return np.array([0.5]), np.array([1.0])
    steps = np.concatenate([np.arange(1, n + 1) / n for n in sizes.tolist()])
    breaks = np.unique(np.concatenate([[0.0], steps]))
    return (breaks[1:] + breaks[:-1]) / 2.0, np.diff(breaks)


def on_grid(sorted_values: np.ndarray, counts: np.ndarray, mid: np.ndarray) -> np.ndarray:
    """Each sample's quantile function on the grid: ``sorted[..., ceil(n t) − 1]`` at midpoints.

    ``sorted_values`` has shape (models, ..., runs), each row sorted with its
    ``counts[m]`` present values first; the result has shape (models, ..., grid).
    """
    counts = np.asarray(counts)
    position = np.floor(counts[:, None] * mid[None, :]).astype(np.intp)
    position = np.clip(position, 0, np.maximum(counts[:, None] - 1, 0))
    shape = (len(counts),) + (1,) * (sorted_values.ndim - 2) + (len(mid),)
    return np.take_along_axis(sorted_values, position.reshape(shape), axis=-1)


def violation_ratio(first: np.ndarray, second: np.ndarray, width: np.ndarray):
    """ε_W2 of ``first`` against ``second`` (quantile functions on the grid, last axis).

    ``∫ over {F⁻¹ < G⁻¹} of (F⁻¹ − G⁻¹)² dt / ∫ (F⁻¹ − G⁻¹)² dt``; 0.5 where the
    two are equal everywhere (no order either way).
    """
    gap = np.subtract(first, second)
    below = np.minimum(gap, 0.0)
    np.multiply(gap, gap, out=gap)
    np.multiply(below, below, out=below)
    total, violated = gap @ width, below @ width
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, violated / total, 0.5)


def aso_pairs(
    values,
    i,
    j,
    *,
    confidence: float = 0.95,
    n_bootstrap: int = 1000,
    greater_is_better: bool = True,
    rng: np.random.Generator,
) -> dict[str, np.ndarray]:
    """Violation ratio and its bootstrap upper bound ``eps_min`` for every pair.

    Parameters
    ----------
    values : array_like, shape (models, runs)
        Scores, NaN for an absent run.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    confidence : float
        Level of the upper bound (already adjusted for multiple comparisons).
    n_bootstrap : int
        Number of bootstrap resamples of every model.
    greater_is_better : bool
        Direction: a violation is where model_1's quantile function is below
        model_2's (above, for losses).
    rng : numpy.random.Generator
        Source of the resamples.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff``, ``violation_ratio``, ``eps_min`` and the mask
        ``identical`` of pairs with equal quantile functions (ratio 0.5).

    Notes
    -----
    With ``d(t) = F⁻¹(t) − G⁻¹(t)`` for model_1's and model_2's empirical
    quantile functions (the left-continuous inverse, ``x_(⌈n t⌉)``),
    ``ε = ∫_{d<0} d² / ∫ d²`` (del Barrio, Cuesta-Albertos and Matrán 2018),
    integrated exactly over the merged breakpoints. Every model is
    resampled ``n_bootstrap`` times with replacement at its own number of
    runs (as ``deepsig.aso`` draws from the quantile function); the same
    resamples of a model serve all its pairs, independently of its partner.
    ``eps_min = clip(ε + Φ⁻¹(confidence) · σ̂, 0, 1)`` with ``σ̂`` the standard
    deviation (ddof=0) of the bootstrap ratios, which is
    ``deepsig``'s ``ε − σ̂_{n,m} Φ⁻¹(1 − confidence) / sqrt(n m / (n + m))`` with
    its scale factor cancelled (Dror, Shlomov and Reichart 2019; Ulmer,
    Hardmeier and Frellsen 2022).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = np.vstack([rng.normal(1, 1, 200), rng.normal(0, 2, 200)])
    >>> out = aso_pairs(x, [0, 1], [1, 0], rng=np.random.default_rng(1))
    >>> out["violation_ratio"].round(3).tolist()  # ε(A, B) + ε(B, A) = 1
    [0.065, 0.935]
    """
    values = np.asarray(values, dtype=float)
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    counts = (~np.isnan(values)).sum(axis=1)
    # Scores in the design's direction (higher is better), so that a loss and its negation
    # give the same resamples, ratios and bounds.
    sign = 1.0 if greater_is_better else -1.0
    ordered = np.sort(sign * values, axis=1)  # NaN last: the present runs first
    mid, width = quantile_grid(counts)
    original = on_grid(ordered, counts, mid)
    ratio = violation_ratio(original[i], original[j], width)
    # Every model's resamples at once: (models, n_bootstrap, runs), absent runs last.
    runs = values.shape[1]
    draws = np.floor(rng.random((len(counts), n_bootstrap, runs)) * counts[:, None, None])
    draws = np.minimum(draws.astype(np.intp), np.maximum(counts[:, None, None] - 1, 0))
    resampled = np.take_along_axis(ordered[:, None, :], draws, axis=-1)
    resampled = np.where(np.arange(runs) >= counts[:, None, None], np.inf, resampled)
    resampled.sort(axis=-1)
    boot = on_grid(resampled, counts, mid)  # (models, n_bootstrap, grid)
    spread = np.empty(len(i))
    size = max(1, _CHUNK_ELEMENTS // max(n_bootstrap * len(mid), 1))
    for start in range(0, len(i), size):  # chunks of pairs, bounded memory
        part = slice(start, start + size)
        samples = violation_ratio(boot[i[part]], boot[j[part]], width)
        spread[part] = samples.std(axis=1)
    eps_min = np.clip(ratio + special.ndtri(confidence) * spread, 0.0, 1.0)
    empty = (counts[i] == 0) | (counts[j] == 0)
    ratio[empty] = np.nan
    eps_min[empty] = np.nan
    identical = ~empty & (np.abs(original[i] - original[j]).max(axis=-1) == 0)
    with np.errstate(invalid="ignore"):
        means = np.nansum(values, axis=1) / counts
    return {
        "mean_diff": means[i] - means[j],
        "violation_ratio": ratio,
        "eps_min": eps_min,
        "identical": identical,
    }
