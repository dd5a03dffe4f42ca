"""Moments of the paired differences of every pair of models, shared by the t-tests and bayes.

One covariance matrix gives every pair's variance of differences; the pairs
where that shortcut cancels, and the degenerate ones (identical models, a
constant difference), are found and recomputed from explicit differences in
chunks of bounded memory. No loop over pairs in Python.
"""

from __future__ import annotations

import numpy as np

_EPS = np.finfo(float).eps

#: Number of float64 elements of pair differences held in memory at once.
_CHUNK_ELEMENTS = 1 << 21

#: Spread of differences, in ulps of the largest score, below which a difference is constant.
_NOISE_ULPS = 16.0

#: Target relative accuracy of the variance of differences from the covariance shortcut.
_TARGET_ACCURACY = 1e-10


def chunks(n_pairs: int, n_splits: int, elements: int = _CHUNK_ELEMENTS):
    """Slices of pair positions, each holding at most ``elements`` differences."""
    size = max(1, elements // max(n_splits, 1))
    for start in range(0, n_pairs, size):
        yield slice(start, min(start + size, n_pairs))


def _explicit_moments(values, i, j):
    """Count, mean, variance (ddof=1) and largest |difference| of each pair, NaN omitted.

    Two-pass on the explicit differences: accurate whatever the variance is.
    """
    n_pairs = i.size
    count = np.zeros(n_pairs)
    mean = np.full(n_pairs, np.nan)
    variance = np.full(n_pairs, np.nan)
    largest = np.zeros(n_pairs)
    for part in chunks(n_pairs, values.shape[1]):
        diff = values[i[part]] - values[j[part]]
        present = ~np.isnan(diff)
        n = present.sum(axis=1)
        filled = np.where(present, diff, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            m = filled.sum(axis=1) / n
            centred = np.where(present, diff - m[:, None], 0.0)
            v = np.einsum("ij,ij->i", centred, centred) / (n - 1)
        count[part] = n
        mean[part] = np.where(n > 0, m, np.nan)
        variance[part] = np.where(n > 1, v, np.nan)
        largest[part] = np.abs(filled).max(axis=1, initial=0.0)
    return count, mean, variance, largest


def pair_moments(values, i, j, nan_policy):
    """Count, mean and variance of the differences of every pair, and degenerate flags.

    The differences are ``values[i] - values[j]``; ``nan_policy`` is "propagate"
    (a pair with a missing score gets NaN) or "omit" (its missing splits are
    dropped). Every pair's mean and variance come from one covariance matrix,
    ``var(a - b) = var a + var b - 2 cov(a, b)``; pairs where that subtraction
    cancels (nearly identical models) or that have missing scores under "omit"
    are recomputed from their explicit differences, so each pair is accurate
    to about 1e-10 relative.

    Returns ``count, mean, variance, identical, constant`` where ``identical``
    marks pairs whose differences are all zero and ``constant`` pairs whose
    differences are one non-zero constant (their variance is set to 0).
    """
    values = np.asarray(values, dtype=float)
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    n_models, n_splits = values.shape
    n_pairs = i.size
    count = np.full(n_pairs, float(n_splits))
    row_has_nan = np.isnan(values).any(axis=1)
    if row_has_nan.any():
        pair_has_nan = row_has_nan[i] | row_has_nan[j]
        complete = np.flatnonzero(~pair_has_nan)
        rows = np.flatnonzero(~row_has_nan)
        where = np.full(n_models, -1, dtype=np.intp)
        where[rows] = np.arange(rows.size)
        ci, cj = where[i[complete]], where[j[complete]]
        mean = np.full(n_pairs, np.nan)
        variance = np.full(n_pairs, np.nan)
    else:
        pair_has_nan = None
        complete = slice(None)
        rows = slice(None)
        ci, cj = i, j
        mean = np.full(n_pairs, np.nan)
        variance = np.full(n_pairs, np.nan)
    block = values[rows]
    n_rows = block.shape[0]
    explicit = []
    if ci.size:
        # Differences are unchanged by subtracting one vector from every model; the
        # mean over the models removes the fold effect they share, so what is left is
        # small and the means and variances below lose less to rounding.
        residual = block - block.mean(axis=0)
        # One covariance matrix of the complete models gives every pair's variance.
        means = residual.mean(axis=1)
        centred = residual - means[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            # Only the needed entries of the covariance matrix when the pairs are few.
            if ci.size * 4 < n_rows * n_rows:
                own = np.einsum("ij,ij->i", centred, centred) / (n_splits - 1)
                cross = np.einsum("ij,ij->i", centred[ci], centred[cj]) / (n_splits - 1)
                total = own[ci] + own[cj]
                shortcut = total - 2.0 * cross
                difference = means[ci] - means[cj]
            else:
                # Dense model x model tables, then one gather per quantity.
                cov = centred @ centred.T
                cov /= n_splits - 1
                own = np.diagonal(cov).copy()
                flat = ci * n_rows + cj
                total = own[:, None] + own[None, :]
                cov *= -2.0
                cov += total
                shortcut = cov.take(flat)
                total = total.take(flat)
                difference = (means[:, None] - means[None, :]).take(flat)
        # The shortcut loses about n_splits * eps * total / var(a - b) in relative
        # accuracy: recompute the pairs where that could exceed the target.
        threshold = min(1.0, max(1e-3, n_splits * _EPS / _TARGET_ACCURACY))
        # Also those whose variance is at the rounding noise of the scores themselves
        # (both models constant, say): they may be degenerate.
        noise = (_NOISE_ULPS * _EPS * np.abs(block).max(initial=0.0)) ** 2
        cancel = np.flatnonzero(~((shortcut > threshold * total) & (shortcut > noise)))
        if pair_has_nan is None:
            mean = difference
            variance = shortcut
            explicit.append(cancel)
        else:
            mean[complete] = difference
            variance[complete] = shortcut
            explicit.append(complete[cancel])
    if pair_has_nan is not None:
        if nan_policy == "omit":
            explicit.append(np.flatnonzero(pair_has_nan))
        else:
            count[pair_has_nan] = np.nan
    explicit = np.concatenate(explicit) if explicit else np.zeros(0, dtype=np.intp)
    identical = np.zeros(n_pairs, dtype=bool)
    constant = np.zeros(n_pairs, dtype=bool)
    if explicit.size:
        n, m, v, largest = _explicit_moments(values, i[explicit], j[explicit])
        # Degenerate pairs can only be among these: elsewhere the variance is well
        # above the rounding noise of the scores.
        same = (largest == 0.0) & (n > 0)
        # A constant difference computed in floating point varies by a few ulps.
        scale = np.abs(np.where(np.isnan(values), 0.0, values)).max(axis=1)
        scale = np.maximum(scale[i[explicit]], scale[j[explicit]])
        flat = ~same & (v <= (_NOISE_ULPS * _EPS * scale) ** 2)
        v[same | flat] = 0.0
        count[explicit], mean[explicit], variance[explicit] = n, m, v
        identical[explicit] = same
        constant[explicit] = flat
    return count, mean, variance, identical, constant
