"""Forecast comparisons: the Diebold–Mariano test and the model confidence set.

Both work on a loss matrix ``L`` of shape ``(time, models)``: the loss of every
model's forecast at every time point, rows in time order. The Diebold–Mariano
test of every pair comes from the loss differences of all pairs at once; the
model confidence set of Hansen, Lunde & Nason (2011) from the bootstrap means
of every model on shared resamples, every elimination step's bootstrap
statistic from one pass over those means (no loop per pair, none per resample).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from pdcompare._validation import check_option
from pdcompare.stats import _special as special
from pdcompare.stats._common import t_pvalue

#: Statistics of the model confidence set: the range statistic and the max statistic.
MCS_METHODS = ("R", "max")

# Elements of the temporary (pairs x time) or (resamples x models x models) arrays per chunk.
_CHUNK_ELEMENTS = 2**22


def _normal_pvalue(statistic: np.ndarray, alternative: str) -> np.ndarray:
    """P-value of a standard normal statistic (``alternative`` about its sign, as scipy)."""
    if alternative == "greater":
        return special.ndtr(-statistic)
    if alternative == "less":
        return special.ndtr(statistic)
    return np.minimum(2.0 * special.ndtr(-np.abs(statistic)), 1.0)


def _pair_chunks(n_pairs: int, n_rows: int) -> Iterator[slice]:
    """Slices of pairs whose (time x pairs) differences fit one temporary array."""
    step = max(1, _CHUNK_ELEMENTS // max(n_rows, 1))
    for start in range(0, n_pairs, step):
        yield slice(start, min(start + step, n_pairs))


def diebold_mariano_pairs(
    losses,
    i,
    j,
    *,
    h: int = 1,
    alternative: str = "two-sided",
    harvey: bool = True,
) -> dict[str, np.ndarray]:
    """Diebold–Mariano test of equal predictive accuracy for the pairs ``(i[k], j[k])``.

    Parameters
    ----------
    losses : array_like, shape (n, models)
        Loss of each model's forecast at each time point, rows in time order.
    i, j : array_like of int
        Columns of model_1 and model_2 of each pair.
    h : int, default 1
        Forecast horizon: the long-run variance sums the autocovariances of
        the loss difference up to lag ``h - 1``.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        About the mean of ``d = L[:, i] - L[:, j]``, as in R's ``dm.test``:
        "greater" means model_2 is more accurate.
    harvey : bool, default True
        Harvey–Leybourne–Newbold small-sample correction with Student t(n − 1)
        p-values; False gives the original normal test (``df`` NaN).

    Returns
    -------
    dict of numpy.ndarray
        ``mean_loss_diff, statistic, df, pvalue``, and the masks ``identical``
        (d = 0 throughout: statistic 0, p-value 1), ``constant`` (d a non-zero
        constant: infinite statistic) and ``fallback`` (long-run variance not
        positive at this h: computed at h = 1, as ``dm.test`` does).

    Notes
    -----
    With ``d_t = L_1t − L_2t``, ``γ_k = (1/n) Σ_{t>k} (d_t − d̄)(d_{t−k} − d̄)``
    (R's ``acf(type="covariance")``) and
    ``V = (γ_0 + 2 Σ_{k=1}^{h−1} γ_k) / n``, the statistic is ``d̄ / sqrt(V)``
    (Diebold & Mariano 1995), multiplied by
    ``sqrt((n + 1 − 2h + h(h − 1)/n) / n)`` when ``harvey`` (Harvey, Leybourne
    & Newbold 1997). All pairs are computed at once, in chunks of pairs that
    bound the memory of the ``(n, pairs)`` differences.

    Examples
    --------
    >>> e1 = np.array([1.0, -2.0, 0.5, 3.0, -1.0, 2.0])
    >>> e2 = np.array([0.5, -1.0, 1.0, 1.0, -0.5, 1.5])
    >>> out = diebold_mariano_pairs(np.column_stack([e1**2, e2**2]), [0], [1])
    >>> round(float(out["statistic"][0]), 4), round(float(out["pvalue"][0]), 4)
    (1.7905, 0.1334)

    Compare with scipy (at h = 1 the corrected statistic is the one-sample t):

    >>> from scipy import stats
    >>> res = stats.ttest_1samp(e1**2 - e2**2, 0)
    >>> round(float(res.statistic), 4), round(float(res.pvalue), 4)
    (1.7905, 0.1334)
    """
    losses = np.asarray(losses, dtype=float)
    i = np.asarray(i, dtype=np.intp)
    j = np.asarray(j, dtype=np.intp)
    n = losses.shape[0]
    n_pairs = i.size
    mean = np.empty(n_pairs)
    gamma0 = np.empty(n_pairs)
    long_run = np.empty(n_pairs)
    for part in _pair_chunks(n_pairs, n):
        d = losses[:, i[part]] - losses[:, j[part]]
        mean[part] = d.mean(axis=0)
        d -= mean[part]
        gamma0[part] = np.einsum("tp,tp->p", d, d) / n
        total = gamma0[part].copy()
        for lag in range(1, h):
            total += 2.0 * np.einsum("tp,tp->p", d[lag:], d[:-lag]) / n
        long_run[part] = total
    # A constant difference leaves only rounding in gamma0 (each centred value within a few
    # ulps of the losses); those few pairs are checked exactly.
    largest = np.abs(losses).max(axis=0) if n_pairs else np.zeros(0)
    tiny = gamma0 <= (64.0 * np.finfo(float).eps * np.maximum(largest[i], largest[j])) ** 2
    suspects = np.flatnonzero(tiny)
    constant = np.zeros(n_pairs, dtype=bool)
    for part in _pair_chunks(suspects.size, n):
        some = suspects[part]
        d = losses[:, i[some]] - losses[:, j[some]]
        constant[some] = d.max(axis=0) == d.min(axis=0)
    identical = constant & (mean == 0.0)
    constant &= ~identical
    fallback = ~constant & ~identical & ~(long_run > 0.0)
    variance = np.where(fallback, gamma0, long_run) / n
    horizon = np.where(fallback, 1, h)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = mean / np.sqrt(variance)
    statistic = np.where(identical, 0.0, statistic)
    statistic = np.where(constant, np.copysign(np.inf, mean), statistic)
    if harvey:
        factor = np.sqrt((n + 1 - 2 * horizon + horizon * (horizon - 1) / n) / n)
        statistic = statistic * factor
        df = np.full(n_pairs, n - 1.0)
        pvalue = t_pvalue(statistic, df, alternative)
    else:
        df = np.full(n_pairs, np.nan)
        pvalue = _normal_pvalue(statistic, alternative)
    pvalue = np.where(identical, 1.0, pvalue)
    return {
        "mean_loss_diff": mean,
        "statistic": statistic,
        "df": df,
        "pvalue": pvalue,
        "identical": identical,
        "constant": constant,
        "fallback": fallback,
    }


# --------------------------------------------------------------------------- resampling


def resample_indices(
    n: int, n_resamples: int, block_size: int, rng: np.random.Generator
) -> Iterator[np.ndarray]:
    """Row indices of the bootstrap resamples, in chunks of shape ``(resamples, n)``.

    ``block_size=1`` draws rows independently; larger values draw the
    stationary bootstrap of Politis & Romano (1994): each row starts a new
    block at a uniform random row with probability ``1 / block_size``, and
    otherwise follows the previous row (wrapping from the last row to the
    first), so blocks have geometric lengths of mean ``block_size``, as
    ``arch.bootstrap.StationaryBootstrap``.

    Examples
    --------
    >>> chunk = next(resample_indices(5, 3, 1, np.random.default_rng(0)))
    >>> chunk.shape
    (3, 5)
    """
    step = max(1, _CHUNK_ELEMENTS // (8 * max(n, 1)))
    positions = np.arange(n)
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        starts = rng.integers(0, n, size=(size, n))
        if block_size == 1:
            yield starts
            continue
        new_block = rng.random((size, n)) < 1.0 / block_size
        new_block[:, 0] = True
        block_start = np.maximum.accumulate(np.where(new_block, positions, 0), axis=1)
        first = np.take_along_axis(starts, block_start, axis=1)
        yield (first + (positions - block_start)) % n


def resampled_means(losses, chunks) -> np.ndarray:
    """Mean loss of every model in every resample, shape ``(resamples, models)``.

    ``chunks`` yields arrays of row indices ``(resamples, n)``; the means come
    from the count of each row in each resample (one matrix product per
    chunk), so a resample costs O(n · models) multiply-adds in BLAS.
    """
    losses = np.asarray(losses, dtype=float)
    n = losses.shape[0]
    parts = []
    for indices in chunks:
        size = indices.shape[0]
        flat = (np.asarray(indices, dtype=np.intp) + (np.arange(size) * n)[:, None]).ravel()
        counts = np.bincount(flat, minlength=size * n).reshape(size, n)
        # As floats: an integer matrix times a float one is not a BLAS product.
        parts.append(counts.astype(np.float64) @ losses / n)
    return np.concatenate(parts, axis=0) if parts else np.empty((0, losses.shape[1]))


# --------------------------------------------------------------------------- model confidence set


def _resample_chunks(n_resamples: int, n_models: int) -> Iterator[slice]:
    step = max(1, _CHUNK_ELEMENTS // max(n_models * n_models, 1))
    for start in range(0, n_resamples, step):
        yield slice(start, min(start + step, n_resamples))


def _ratio(numerator: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``numerator / scale`` with 0/0 = 0 and x/0 = ±inf: a zero-variance difference."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = numerator / scale
    zero = scale == 0.0
    return np.where(zero, np.where(numerator == 0.0, 0.0, np.copysign(np.inf, numerator)), out)


def _mcs_range(means: np.ndarray, centred: np.ndarray) -> dict[str, np.ndarray]:
    """Elimination by the range statistic T_R = max |t_ij| over the models still in."""
    n_models = means.size
    variance = np.zeros((n_models, n_models))
    for part in _resample_chunks(centred.shape[0], n_models):
        c = centred[part]
        diff = c[:, :, None] - c[:, None, :]
        variance += np.einsum("rij,rij->ij", diff, diff)
    scale = np.sqrt(variance / centred.shape[0])
    t = _ratio(means[:, None] - means[None, :], scale)
    # The sequence: each step removes the row model of the largest t_ij (its loss is the
    # higher); ties go to the first such pair in row-major order, as arch's MCS.
    included = np.arange(n_models)
    order = np.empty(n_models, dtype=np.intp)
    statistic = np.zeros(n_models)
    for step in range(n_models - 1):
        sub = t[np.ix_(included, included)]
        flat = int(np.argmax(sub))
        statistic[step] = sub.flat[flat]
        worst = flat // included.size
        order[step] = included[worst]
        included = np.delete(included, worst)
    order[-1] = included[0]
    # T*_r of the set left at step k is the max over its pairs of |z*_ij|: adding models back
    # in reverse order, it is a running max of each model's largest |z*| with the later ones.
    # A zero-variance pair has every resampled difference exactly 0: its z* is 0, and the
    # pairs (k, l) with l not later than k count for nothing; both get the factor 0.
    later = np.triu(np.ones((n_models, n_models), dtype=bool), k=1)
    ordered_scale = scale[np.ix_(order, order)]
    with np.errstate(divide="ignore"):
        inverse = np.where(later & (ordered_scale > 0.0), 1.0 / ordered_scale, 0.0)
    exceed = np.zeros(n_models)
    for part in _resample_chunks(centred.shape[0], n_models):
        c = centred[part][:, order]
        z = (c[:, :, None] - c[:, None, :]) * inverse
        widest = np.abs(z, out=z).max(axis=2)
        simulated = np.maximum.accumulate(widest[:, ::-1], axis=1)[:, ::-1]
        exceed += (simulated >= statistic).sum(axis=0)
    return {"order": order, "statistic": statistic, "exceed": exceed, "steps": np.arange(n_models)}


def _mcs_max(means: np.ndarray, centred: np.ndarray, groups: np.ndarray) -> dict[str, np.ndarray]:
    """Elimination by the max statistic T_max = max_i t_i· (a model's deviation from the set)."""
    n_models = means.size
    included = np.arange(n_models)
    order, steps, statistics, exceed = [], [], [], []
    step = 0
    while np.unique(groups[included]).size > 1:
        u = centred[:, included]
        u = u - u.mean(axis=1, keepdims=True)
        scale = np.sqrt((u * u).mean(axis=0))
        deviation = means[included] - means[included].mean()
        t = _ratio(deviation, scale)
        simulated = _ratio(u, scale).max(axis=1)
        top = t.max()
        worst = t == top
        statistics.append(top)
        exceed.append(np.count_nonzero(simulated >= top))
        order.extend(included[worst])
        steps.extend([step] * int(worst.sum()))
        included = included[~worst]
        step += 1
    # The models left are one model, or several with identical losses: nothing separates them.
    order.extend(included)
    steps.extend([step] * included.size)
    statistics.append(0.0)
    exceed.append(centred.shape[0])
    return {
        "order": np.asarray(order, dtype=np.intp),
        "statistic": np.asarray(statistics),
        "exceed": np.asarray(exceed, dtype=float),
        "steps": np.asarray(steps, dtype=np.intp),
    }


def model_confidence_set(losses, boot_means, *, method: str = "R") -> dict[str, np.ndarray]:
    """The model confidence set's elimination sequence and MCS p-values.

    Parameters
    ----------
    losses : array_like, shape (n, models)
        Losses, rows in time order.
    boot_means : array_like, shape (resamples, models)
        Mean loss of every model in every resample (:func:`resampled_means`),
        all models resampled on the same rows.
    method : {"R", "max"}, default "R"
        "R": the range statistic ``T_R = max_ij |d̄_ij| / se(d̄_ij)``, the
        worst model the row of the largest ``t_ij``; "max": ``T_max = max_i
        (L̄_i − L̄_·) / se``, the deviation of each model's mean loss from the
        mean over the models in the set.

    Returns
    -------
    dict of numpy.ndarray
        ``order`` (model positions in elimination order, the survivors last),
        ``step`` (0-based elimination step of each entry of ``order``; the
        last group's step is the final one), ``statistic`` (per step), and
        ``pvalue`` (the MCS p-value of each entry of ``order``: the running
        maximum of the step p-values, 1 for the survivors).

    Notes
    -----
    Hansen, Lunde & Nason (2011), with the bootstrap of their section 5 as
    ``arch.bootstrap.MCS`` implements it: ``se`` from the bootstrap variance
    of the centred resampled means, step p-values ``P(T* ≥ T)`` over the
    resamples. A loss difference with zero variance has statistic 0 (``0/0``,
    identical losses, where arch gives NaN) or ±inf (a constant non-zero
    difference), so identical models are never separated.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> losses = rng.normal(size=(200, 3)) ** 2 + np.array([0.0, 0.1, 2.0])
    >>> chunks = resample_indices(200, 500, 1, np.random.default_rng(1))
    >>> out = model_confidence_set(losses, resampled_means(losses, chunks))
    >>> out["order"].tolist(), out["pvalue"].round(3).tolist()
    ([2, 1, 0], [0.0, 0.706, 1.0])
    """
    check_option("method", method, MCS_METHODS)
    losses = np.asarray(losses, dtype=float)
    boot_means = np.asarray(boot_means, dtype=float)
    # Identical loss columns share one set of means, bit for bit, so every difference
    # between them is exactly 0 however the means were summed.
    _, first, groups = np.unique(losses, axis=1, return_index=True, return_inverse=True)
    groups = np.asarray(groups).ravel()
    representative = first[groups]
    means = losses.mean(axis=0)[representative]
    centred = boot_means[:, representative] - means
    out = _mcs_range(means, centred) if method == "R" else _mcs_max(means, centred, groups)
    n_resamples = boot_means.shape[0]
    step_pvalue = out["exceed"] / n_resamples
    running = np.maximum.accumulate(step_pvalue)
    pvalue = running[out["steps"]]
    last = out["steps"] == out["steps"][-1]
    pvalue[last] = 1.0
    return {
        "order": out["order"],
        "step": out["steps"],
        "statistic": out["statistic"],
        "pvalue": pvalue,
    }
