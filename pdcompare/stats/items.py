"""The clustered paired core of items frames: every pair of models from cluster sums.

Models are scored on the same ``n`` items, grouped in ``C`` clusters (each
item its own cluster when there are none). For a pair (a, b) with item
differences ``d_i = x_ai − x_bi`` and mean ``d̄``, the CR1 clustered variance
of ``d̄`` is

``V = C/(C − 1) · Σ_c (Σ_{i∈c} (d_i − d̄))² / n²``

(inspect_ai's ``stderr(cluster=)``; Miller 2024, "Adding error bars to
evals"). With ``S̃`` the m × C matrix of each model's centred cluster sums
(``Σ_{i∈c} (x_ai − x̄_a)``), ``Σ_{i∈c}(d_i − d̄) = S̃_ac − S̃_bc`` exactly, so
every pair's sum of squares is ``G_aa + G_bb − 2 G_ab`` with ``G = S̃ S̃ᵀ``:
one matrix product serves all pairs, no loop per pair. Without clusters
``S̃`` is the centred scores themselves and ``V`` is the plain
``var(d)/n`` (ddof 1). Pairs where the shortcut cancels (nearly identical
models) are recomputed from their explicit differences.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._common import margin_shift, t_confidence_interval, t_pvalue
from pdcompare.stats._moments import chunks
from pdcompare.stats.cr2 import cluster_scales
from pdcompare.stats.power import _power_at, noncentrality

__all__ = [
    "cluster_bootstrap",
    "cluster_sums",
    "clustered_df",
    "clustered_paired_ttest",
    "clustered_se",
    "discordant_counts",
    "exact_mcnemar",
    "items_power",
    "within_item_share",
]

#: Relative size of a pair's sum of squares below which the matrix shortcut is redone.
_CANCELLATION = 1e-7


def cluster_sums(values, cluster, n_clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """Each model's sum over the items of each cluster, and the clusters' sizes.

    Parameters
    ----------
    values : ndarray, shape (m, n)
        Scores of ``m`` models on ``n`` items.
    cluster : ndarray of int, shape (n,)
        Cluster code (0 .. C − 1) of each item.
    n_clusters : int
        ``C``.

    Returns
    -------
    sums : ndarray, shape (m, C)
    sizes : ndarray, shape (C,)

    Examples
    --------
    >>> sums, sizes = cluster_sums(np.array([[1.0, 2.0, 3.0]]), np.array([0, 1, 0]), 2)
    >>> sums.tolist(), sizes.tolist()
    ([[4.0, 2.0]], [2.0, 1.0])
    """
    values = np.asarray(values, dtype=float)
    cluster = np.asarray(cluster, dtype=np.intp)
    sizes = np.bincount(cluster, minlength=n_clusters).astype(float)
    if n_clusters == values.shape[1] and np.array_equal(cluster, np.arange(n_clusters)):
        return values, sizes
    order = np.argsort(cluster, kind="stable")
    starts = np.concatenate([[0], np.cumsum(sizes[:-1])]).astype(np.intp)
    sums = np.add.reduceat(values[:, order], starts, axis=1)
    return sums, sizes


def _centred_sums(values, cluster, n_clusters):
    means = values.mean(axis=1)
    sums, sizes = cluster_sums(values, cluster, n_clusters)
    centred = sums - means[:, None] * sizes[None, :]
    return centred, sizes, means


def clustered_se(values, cluster, n_clusters: int, se_type: str = "cr1") -> np.ndarray:
    """Standard error of each model's mean score, CR1- or CR2-clustered (plain without clusters).

    CR1: ``sqrt(C/(C − 1) · Σ_c S̃_c²) / n`` with ``S̃_c`` the centred sum of
    cluster ``c``; CR2 (``se_type="cr2"``): ``sqrt(Σ_c S̃_c² / (1 − n_c/n)) / n``
    (:mod:`pdcompare.stats.cr2`). With every item its own cluster both are ``s/√n``.

    Examples
    --------
    inspect_ai's clustered standard error of 0, 1, ..., 19 in clusters ``i mod 4``:

    >>> x = np.arange(20.0)[None, :]
    >>> round(float(clustered_se(x, np.arange(20) % 4, 4)[0]), 7)
    0.6454972
    >>> round(float(clustered_se(x, np.arange(20), 20)[0]), 7)  # scipy.stats.sem
    1.3228757
    """
    values = np.ascontiguousarray(values, dtype=float)
    n = values.shape[1]
    centred, sizes, _ = _centred_sums(values, cluster, n_clusters)
    if se_type == "cr1" or np.ptp(sizes) == 0:  # equal clusters: CR2 is CR1 exactly
        c = float(n_clusters)
        return np.sqrt(c / (c - 1.0) * np.einsum("ij,ij->i", centred, centred)) / n
    scales, _ = cluster_scales(sizes, n, se_type)
    return np.sqrt(np.einsum("ij,ij,j->i", centred, centred, scales)) / n


def clustered_df(cluster, n_clusters: int, se_type: str = "cr1") -> float:
    """Degrees of freedom of the clustered t: ``C − 1`` (CR1) or Satterthwaite's (CR2).

    Examples
    --------
    >>> clustered_df(np.arange(12) // 3, 4, "cr2")  # equal clusters: CR2 is CR1
    3.0
    >>> round(clustered_df(np.repeat([0, 1, 2], [2, 2, 8]), 3, "cr2"), 6)
    1.470588
    """
    cluster = np.asarray(cluster, dtype=np.intp)
    sizes = np.bincount(cluster, minlength=n_clusters)
    return cluster_scales(sizes, cluster.size, se_type)[1]


def _pair_squares(centred, i, j, values, cluster, n_clusters, roots=None):
    """``Σ_c (S̃_ic − S̃_jc)²`` of every pair by one matrix product; accurate where it cancels.

    Pairs whose result is tiny beside the models' own sums of squares (nearly
    identical models) are recomputed from their explicit item differences,
    centred before they are summed by cluster. ``roots`` (CR2's
    ``1/sqrt(1 − n_c/n)``) weight the clusters' sums when given: ``centred``
    is then weighted already.
    """
    gram = centred @ centred.T
    diag = np.diag(gram)
    squares = diag[i] + diag[j] - 2.0 * gram[i, j]
    scale = diag[i] + diag[j]
    redo = np.flatnonzero(squares <= _CANCELLATION * scale)
    for part in chunks(redo.size, values.shape[1]):
        rows = redo[part]
        diff = values[i[rows]] - values[j[rows]]
        diff -= diff.mean(axis=1, keepdims=True)
        sums, _ = cluster_sums(diff, cluster, n_clusters)
        if roots is not None:
            sums *= roots
        squares[rows] = np.einsum("ij,ij->i", sums, sums)
    return np.maximum(squares, 0.0), gram


def clustered_paired_ttest(
    values,
    cluster,
    n_clusters: int,
    i,
    j,
    *,
    alternative: str = "two-sided",
    confidence: float = 0.95,
    clustered: bool = True,
    margin: float | None = None,
    se_type: str = "cr1",
) -> dict:
    """Paired t-test over items of every pair ``(i[k], j[k])``, CR1- or CR2-clustered.

    Parameters
    ----------
    values : ndarray, shape (m, n)
        Item scores (the per-item means of samples).
    cluster : ndarray of int, shape (n,)
        Cluster code of each item (``arange(n)`` without clusters).
    n_clusters : int
        ``C``: the degrees of freedom are ``C − 1``.
    i, j : ndarray of int
        Positions of model_1 and model_2 of each pair.
    alternative : {"two-sided", "greater", "less"}
        About the mean of ``x_i − x_j``, as in scipy.
    confidence : float
        Level of the interval of the mean difference.
    clustered : bool
        Whether ``cluster`` holds real clusters (else the unclustered variance
        is the clustered one and is computed once).
    margin : float, optional
        Non-inferiority margin with a one-sided ``alternative``: the
        statistic is ``(d̄ + margin) / se`` ("greater") or ``(margin − d̄) / se``
        ("less"), its p-value the upper tail (as ``stats.paired.paired_ttest``).
    se_type : {"cr1", "cr2"}
        The clustered variance: CR1 (below) or Bell–McCaffrey's CR2 on
        Satterthwaite's degrees of freedom (:mod:`pdcompare.stats.cr2`, R's
        clubSandwich); the same without clusters.

    Returns
    -------
    dict of ndarray
        ``mean_diff, statistic, df, pvalue, ci_low, ci_high, se,
        design_effect, corr``, and the masks ``identical`` and ``constant``.

    Notes
    -----
    ``se = sqrt(C/(C−1) · Σ_c (Σ_{i∈c}(d_i − d̄))²)/n`` and ``t = d̄/se`` on
    ``C − 1`` degrees of freedom (CR1); CR2 replaces ``C/(C−1)`` by each
    cluster's ``1/(1 − n_c/n)`` and ``C − 1`` by Satterthwaite's df, one
    number for every pair (it depends on the cluster sizes only).
    ``design_effect`` is ``se²`` over the unclustered ``var(d)/n`` and
    ``corr`` the correlation of the two models' item scores. Identical
    models give t = 0, p = 1; a constant non-zero difference t = ±inf, p = 0.

    Examples
    --------
    Twelve items in four passages of three (DESIGN 21):

    >>> a = [1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0]
    >>> b = [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0]
    >>> out = clustered_paired_ttest(np.array([a, b], float), np.arange(12) // 3, 4, [0], [1])
    >>> round(float(out["mean_diff"][0]), 6), float(out["se"][0]), float(out["df"][0])
    (0.416667, 0.25, 3.0)

    Compare the unclustered standard error with scipy:

    >>> from scipy import stats
    >>> round(float(stats.sem(np.subtract(a, b))), 7)
    0.1486471
    """
    # Row-major: a frame's values are column-major, and BLAS takes their products 3x slower.
    values = np.ascontiguousarray(values, dtype=float)
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    n = values.shape[1]
    c = float(n_clusters)
    centred, sizes, means = _centred_sums(values, cluster, n_clusters)
    # Equal clusters: CR2 is CR1 exactly (1/(1 − 1/C) = C/(C − 1), df C − 1): CR1's arithmetic.
    cr2 = clustered and se_type == "cr2" and np.ptp(sizes) > 0
    if cr2:
        scales, cr2_df = cluster_scales(sizes, n, "cr2")
        roots = np.sqrt(scales)
        squares, _ = _pair_squares(centred * roots, i, j, values, cluster, n_clusters, roots)
    else:
        squares, gram = _pair_squares(centred, i, j, values, cluster, n_clusters)
    if clustered:
        items = np.arange(n)
        plain, gram = _pair_squares(values - means[:, None], i, j, values, items, n)
    else:
        plain = squares
    diag = np.diag(gram)
    mean_diff = means[i] - means[j]
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(squares if cr2 else c / (c - 1.0) * squares) / n
        plain_se = np.sqrt(plain / (n - 1.0) / n)
        design_effect = (se / plain_se) ** 2
        corr = gram[i, j] / np.sqrt(diag[i] * diag[j])
        statistic = mean_diff / se
    # Degenerate pairs: a difference that is the same on every item has no spread.
    # The largest |score| without an |values| temporary of the whole matrix.
    scale = max(float(values.max(initial=0.0)), -float(values.min(initial=0.0)), 1.0)
    flat = plain <= (16.0 * np.finfo(float).eps * scale) ** 2 * n
    identical = flat & (np.abs(mean_diff) <= 16.0 * np.finfo(float).eps * scale)
    constant = flat & ~identical
    # A non-inferiority margin shifts the statistic's numerator (stats._common.margin_shift).
    shifted, tail, null = margin_shift(mean_diff, identical, margin, alternative)
    with np.errstate(invalid="ignore", divide="ignore"):
        statistic = shifted / se
    statistic = np.where(null, 0.0, statistic)
    statistic = np.where(flat & ~null, np.copysign(np.inf, shifted), statistic)
    se = np.where(flat, 0.0, se)
    design_effect = np.where(flat, np.nan, design_effect)
    df = np.full(i.size, cr2_df if cr2 else c - 1.0)
    pvalue = t_pvalue(statistic, df, tail)
    low, high = t_confidence_interval(mean_diff, se, df, confidence, alternative)
    return {
        "mean_diff": mean_diff,
        "statistic": statistic,
        "df": df,
        "pvalue": pvalue,
        "ci_low": low,
        "ci_high": high,
        "se": se,
        "design_effect": design_effect,
        "corr": corr,
        "sd_diff": np.sqrt(plain / (n - 1.0)),
        "identical": identical,
        "constant": constant,
    }


def discordant_counts(correct, i, j) -> tuple[np.ndarray, np.ndarray]:
    """Items only model_1 (``only_1``) and only model_2 (``only_2``) get right, every pair.

    From one matrix product of the 0/1 matrix with itself: ``only_1 = s_i − P_ij``
    and ``only_2 = s_j − P_ij`` with ``P = X Xᵀ`` (both right) and ``s`` the
    row sums. The product runs in float32 (exact below 2²⁴ items) or float64.

    Examples
    --------
    >>> x = np.array([[1, 1, 1, 0, 1, 1, 0, 1, 1, 1], [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]])
    >>> only_1, only_2 = discordant_counts(x, [0], [1])
    >>> only_1.tolist(), only_2.tolist()
    ([3.0], [0.0])
    """
    x = np.asarray(correct)
    n = x.shape[1]
    dtype = np.float32 if n < 2**24 else np.float64
    x = np.ascontiguousarray(x, dtype=dtype)  # row-major: the BLAS product is fastest so
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    both = x @ x.T
    totals = x.sum(axis=1, dtype=np.float64)
    shared = both[i, j].astype(np.float64)
    return totals[i] - shared, totals[j] - shared


def exact_mcnemar(only_1, only_2) -> tuple[np.ndarray, np.ndarray]:
    """Exact McNemar statistic ``min(b, c)`` and p-value of every pair, by ``special.bdtr``.

    ``p = min(1, 2 · BinomCDF(min(b, c); b + c, 1/2))``, statsmodels' exact
    test; no discordant item gives p = 1.

    Examples
    --------
    >>> statistic, pvalue = exact_mcnemar(np.array([1.0, 3.0]), np.array([9.0, 0.0]))
    >>> statistic.tolist(), pvalue.tolist()
    ([1.0, 0.0], [0.021484375, 0.25])

    Compare with scipy:

    >>> from scipy import stats
    >>> float(stats.binomtest(1, 10).pvalue)
    0.021484375
    """
    b = np.asarray(only_1, dtype=float)
    c = np.asarray(only_2, dtype=float)
    smaller = np.minimum(b, c)
    total = (b + c).astype(np.int64)
    pvalue = np.minimum(2.0 * special.bdtr(smaller, total, 0.5), 1.0)
    return smaller, np.where(total == 0, 1.0, pvalue)


def cluster_bootstrap(
    values, cluster, n_clusters: int, *, n_resamples: int, random_state: np.random.Generator
) -> np.ndarray:
    """Each model's mean score in every cluster bootstrap resample, shape (n_resamples, m).

    A resample draws ``C`` clusters with replacement (multinomial counts ``W``)
    and takes each model's ``Σ_c W_c S_c / Σ_c W_c n_c``: the sum of its
    scores over the sum of sizes. All models share the resample, so a pair's
    difference of replicates is the resampled mean item difference.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> reps = cluster_bootstrap(np.ones((2, 6)), np.arange(6) // 2, 3,
    ...                          n_resamples=5, random_state=rng)
    >>> reps.shape, bool(np.all(reps == 1.0))
    ((5, 2), True)
    """
    values = np.asarray(values, dtype=float)
    sums, sizes = cluster_sums(values, cluster, n_clusters)
    out = np.empty((n_resamples, values.shape[0]))
    step = max(1, (1 << 22) // max(n_clusters, 1))
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        weights = random_state.multinomial(
            n_clusters, np.full(n_clusters, 1.0 / n_clusters), size=size
        ).astype(float)
        out[start : start + size] = (weights @ sums.T) / (weights @ sizes)[:, None]
    return out


def within_item_share(values, within_var, samples) -> np.ndarray:
    """Each model's share of the variance of its mean that more samples per item would remove.

    With ``s²_i`` the variance (ddof 1) of item ``i``'s samples, ``K`` the
    mean number of samples per item and ``x_i`` the item means (DESIGN 21,
    amended by 35 to lie in [0, 1]):

    * within = ``mean_i s²_i / K``, the sampling variance of an item mean;
    * between = ``max(var(x_i) − within, 0)`` (ddof 1): the variance of the
      item means is the items' own spread plus ``within``, so the items'
      own spread is what remains (none when the estimate falls below 0);
    * share = ``within / (within + between)``, 0 when ``within`` is 0.

    Examples
    --------
    Here ``var(x_i)`` = 0.0667, within = 0.25 / 5 = 0.05, between = 0.0167:

    >>> x = np.array([[0.2, 0.8, 0.4, 0.6]])
    >>> w = np.array([[0.2, 0.2, 0.3, 0.3]])
    >>> round(float(within_item_share(x, w, np.full((1, 4), 5.0))[0]), 4)
    0.75

    Items whose means vary less than their samples would make them: all of it.

    >>> float(within_item_share(x, 10 * w, np.full((1, 4), 5.0))[0])
    1.0
    """
    values = np.asarray(values, dtype=float)
    within = np.nanmean(np.asarray(within_var, dtype=float), axis=1)
    within = within / np.asarray(samples, dtype=float).mean(axis=1)
    between = np.maximum(values.var(axis=1, ddof=1) - within, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(within > 0, within / (within + between), 0.0)


def _clusters_needed(delta, sd_cluster, alpha, alternative, target, limit=10**9):
    """Smallest C with power >= target for a difference ``delta``, bisection over arrays."""
    tails = 2 if alternative == "two-sided" else 1
    delta = np.abs(np.asarray(delta, dtype=float))
    sd_cluster = np.asarray(sd_cluster, dtype=float)
    low = np.full(delta.shape, 1.0)  # power(low) < target (2 clusters needed at least)
    high = np.full(delta.shape, float(limit))

    def reach(c):
        with np.errstate(invalid="ignore", divide="ignore"):
            lam = np.where(delta == 0, 0.0, delta * np.sqrt(c) / sd_cluster)
        return _power_at(np.minimum(lam, 1e300), c - 1.0, alpha, tails) >= target

    never = ~reach(high) | np.isnan(sd_cluster)
    for _ in range(40):
        middle = np.floor((low + high) / 2.0)
        ok = reach(np.maximum(middle, 2.0))
        high = np.where(ok, middle, high)
        low = np.where(ok, low, middle)
        if np.all(high - low <= 1):
            break
    return np.where(never, np.inf, np.maximum(high, 2.0))


def items_power(
    delta,
    se,
    n_items,
    n_clusters,
    *,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    target: float = 0.8,
    df=None,
) -> dict:
    """Power of the clustered paired t over items, what it detects and what it would need.

    With ``se`` the clustered standard error of a pair's mean difference on
    ``C`` clusters, the noncentrality of a true difference ``delta`` is
    ``delta / se`` on ``C − 1`` degrees of freedom. More clusters of the same
    size shrink ``se`` as ``sqrt(C/C′)``: ``n_clusters_needed`` is the
    smallest ``C′`` reaching ``target`` and ``n_items_needed`` its items
    (``C′ · n/C``). ``df`` (default ``C − 1``) are those of the test at
    hand (CR2's Satterthwaite df); the projection to ``C′`` clusters uses
    ``C′ − 1``.

    Examples
    --------
    >>> out = items_power(0.03, 0.02, 300, 60)
    >>> round(float(out["power"]), 4), int(out["n_clusters_needed"]), int(out["n_items_needed"])
    (0.3144, 212, 1060)
    """
    tails = 2 if alternative == "two-sided" else 1
    delta, se, n_items, n_clusters = np.broadcast_arrays(
        np.abs(np.asarray(delta, dtype=float)),
        np.asarray(se, dtype=float),
        np.asarray(n_items, dtype=float),
        np.asarray(n_clusters, dtype=float),
    )
    df = n_clusters - 1.0 if df is None else np.broadcast_to(np.asarray(df, float), delta.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        lam = np.where(delta == 0, 0.0, delta / se)
    power = np.where(np.isinf(lam), 1.0, _power_at(np.minimum(lam, 1e300), df, alpha, tails))
    mdd = noncentrality(df, alpha=alpha, alternative=alternative, target=target) * se
    sd_cluster = se * np.sqrt(n_clusters)
    needed = _clusters_needed(delta, sd_cluster, alpha, alternative, target)
    with np.errstate(invalid="ignore"):
        items_needed = np.ceil(needed * n_items / n_clusters)
    return {
        "power": power,
        "mdd": mdd,
        "n_clusters_needed": needed,
        "n_items_needed": items_needed,
    }


def critical_t(df, alpha: float, alternative: str) -> np.ndarray:
    """``t_{1 − alpha/tails}`` on ``df`` degrees of freedom (for intervals of summaries)."""
    tails = 2 if alternative == "two-sided" else 1
    return special.stdtrit(np.asarray(df, dtype=float), 1.0 - alpha / tails)
