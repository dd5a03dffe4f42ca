"""ROC AUCs of several models on one test set and their DeLong covariance, in O(n log n).

DeLong, DeLong & Clarke-Pearson (1988) estimate the covariance of correlated
AUCs from the *placement values* (structural components) of every sample:
for a positive sample, the share of negatives scored below it (ties count
half), V10; for a negative sample, the share of positives scored above it,
V01. The AUC is the mean of either. Sun & Xu (2014) compute the placement
values from midranks, one sort per model instead of the O(n1·n0) comparison
of every positive with every negative; here a single ``argsort`` per model
gives all of them, and the covariance of every pair of models is one matrix
product of the centred placement values.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._common import margin_shift


def placement_values(scores: np.ndarray, positive: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's placement values of every sample for every model.

    Parameters
    ----------
    scores : ndarray, shape (n, m)
        One column of scores per model (higher means more likely positive).
    positive : ndarray of bool, shape (n,)
        The truth.

    Returns
    -------
    v10 : ndarray, shape (n_pos, m)
        For each positive sample (in row order) and model: the share of
        negatives scored below it, ties counted one half.
    v01 : ndarray, shape (n_neg, m)
        For each negative sample: the share of positives scored above it,
        ties counted one half.

    Notes
    -----
    One ``argsort`` per model (ties are grouped by value afterwards, so the
    sort need not be stable); within the sorted scores, a tie group ``g``
    holds ``neg_g`` negatives and ``pos_g`` positives, with ``below_g``
    negatives and ``above_g`` positives outside it on either side; then
    ``V10 = (below_g + neg_g / 2) / n_neg`` and ``V01 = (above_g + pos_g / 2) / n_pos``,
    the midrank formulas of Sun & Xu (2014). Without ties every group is one
    sample and the counts are cumulative sums of the sorted truth. The
    arrays returned are transposed views of model-major arrays (each model's
    placements contiguous), so that the covariance is one matrix product.

    Examples
    --------
    >>> v10, v01 = placement_values(np.array([[0.1], [0.4], [0.35], [0.8]]),
    ...                             np.array([False, False, True, True]))
    >>> v10.ravel().tolist(), v01.ravel().tolist()
    ([0.5, 1.0], [1.0, 0.5])
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 1:
        scores = scores[:, None]
    positive = np.asarray(positive, dtype=bool)
    n = positive.size
    n_pos = int(positive.sum())
    n_neg = n - n_pos
    n_models = scores.shape[1]
    # Model-major storage: each model's placements are one contiguous row.
    v10 = np.empty((n_models, n_pos))
    v01 = np.empty((n_models, n_neg))
    full = np.empty(n)
    positive_rows, negative_rows = np.flatnonzero(positive), np.flatnonzero(~positive)
    below = np.arange(n)
    starts = np.empty(n, dtype=bool)
    starts[:1] = True
    for k in range(n_models):  # one sort per model (Sun & Xu); every pair comes later at once
        column = np.ascontiguousarray(scores[:, k])
        order = np.argsort(column)  # tie groups are found below: no need for a stable sort
        ranked = column[order]
        is_pos = positive[order]
        np.not_equal(ranked[1:], ranked[:-1], out=starts[1:])
        if starts.all():  # no ties: every group is one sample
            pos_upto = np.cumsum(is_pos)  # positives at or below each position
            neg_below = below - pos_upto + is_pos
            placements = np.where(is_pos, neg_below / n_neg, (n_pos - pos_upto) / n_pos)
        else:
            group = np.cumsum(starts) - 1
            pos_in = np.bincount(group, weights=is_pos)
            neg_in = np.bincount(group) - pos_in
            neg_below = np.cumsum(neg_in) - neg_in
            pos_above = n_pos - np.cumsum(pos_in)
            per_group_10 = (neg_below + 0.5 * neg_in) / n_neg
            per_group_01 = (pos_above + 0.5 * pos_in) / n_pos
            placements = np.where(is_pos, per_group_10[group], per_group_01[group])
        full[order] = placements
        np.take(full, positive_rows, out=v10[k])
        np.take(full, negative_rows, out=v01[k])
    return v10.T, v01.T


def delong_covariance(scores: np.ndarray, positive: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The AUC of every model and DeLong's covariance matrix of the AUCs.

    Parameters
    ----------
    scores : ndarray, shape (n, m)
        One column of scores per model, on the same samples.
    positive : ndarray of bool, shape (n,)
        The truth; both classes must occur.

    Returns
    -------
    auc : ndarray, shape (m,)
    covariance : ndarray, shape (m, m)
        ``S10 / n_pos + S01 / n_neg``, with ``S10`` and ``S01`` the sample
        covariance matrices (ddof=1) of the placement values.

    Notes
    -----
    DeLong et al. (1988), eq. (3)-(5): ``AUC_k = mean(V10_k) = mean(V01_k)``,
    ``S10_kl = cov(V10_k, V10_l)``, ``S01_kl = cov(V01_k, V01_l)``. The
    variance of ``AUC_k − AUC_l`` is ``c_kk + c_ll − 2 c_kl``. A class with a
    single sample has no sample covariance: its term is 0.

    Examples
    --------
    >>> auc, cov = delong_covariance(np.array([[0.1], [0.4], [0.35], [0.8]]),
    ...                              np.array([False, False, True, True]))
    >>> float(auc[0]), round(float(cov[0, 0]), 6)
    (0.75, 0.125)

    Compare the AUC with scikit-learn:

    >>> from sklearn.metrics import roc_auc_score
    >>> float(roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    0.75
    """
    v10, v01 = placement_values(scores, positive)
    auc = v10.mean(axis=0)
    # The placement values are this function's own: centred in place, no copy.
    covariance = _centred_covariance(v10.T) / v10.shape[0]
    covariance += _centred_covariance(v01.T) / v01.shape[0]
    return auc, covariance


def _centred_covariance(rows: np.ndarray) -> np.ndarray:
    """Sample covariance (ddof=1) of the rows of ``(m, n)``, centring them in place.

    Zeros for a single column (one sample: no covariance to estimate).
    """
    n = rows.shape[1]
    if n < 2:
        return np.zeros((rows.shape[0], rows.shape[0]))
    rows -= rows.mean(axis=1, keepdims=True)
    return rows @ rows.T / (n - 1)


def delong_test(
    auc: np.ndarray,
    covariance: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    margin: float | None = None,
) -> dict:
    """DeLong's z-test of ``AUC_i − AUC_j`` for every pair ``(i[k], j[k])`` at once.

    Returns a dict of arrays: ``auc_1, auc_2, auc_diff, se, statistic,
    pvalue, ci_low, ci_high`` and the masks ``identical`` (difference and
    its variance 0: statistic 0, p-value 1) and ``certain`` (variance 0,
    difference not: infinite statistic). The interval of the difference is
    the normal one at level 1 − ``alpha``, one-sided like scipy's when
    ``alternative`` is ("greater", "less": about ``AUC_i − AUC_j``).
    With a non-inferiority ``margin`` (≥ 0, one-sided ``alternative``) the
    statistic is ``(diff + margin) / se`` ("greater") or ``(margin − diff) / se``
    ("less") and its p-value the upper normal tail
    (:func:`~pdcompare.stats._common.margin_shift`).

    Examples
    --------
    >>> out = delong_test(np.array([0.8, 0.7]), np.array([[0.004, 0.002], [0.002, 0.005]]),
    ...                   np.array([0]), np.array([1]))
    >>> round(float(out["statistic"][0]), 4), round(float(out["pvalue"][0]), 4)
    (1.4142, 0.1573)
    """
    i, j = np.asarray(i, dtype=int), np.asarray(j, dtype=int)
    diff = auc[i] - auc[j]
    variance = covariance[i, i] + covariance[j, j] - 2.0 * covariance[i, j]
    # Rounding can leave a tiny negative or positive variance for identical columns.
    scale = np.maximum(covariance[i, i] + covariance[j, j], np.finfo(float).tiny)
    zero = variance <= 1e-12 * scale
    se = np.sqrt(np.where(zero, 0.0, variance))
    identical = zero & (np.abs(diff) <= 1e-12)
    certain = zero & ~identical
    shifted, tail, null = margin_shift(diff, identical, margin, alternative)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.where(null, 0.0, shifted / se)
    statistic = np.where(null, 0.0, statistic)
    if tail == "greater":
        pvalue = special.ndtr(-statistic)
    elif tail == "less":
        pvalue = special.ndtr(statistic)
    else:
        pvalue = np.minimum(2.0 * special.ndtr(-np.abs(statistic)), 1.0)
    level = 1.0 - alpha if alternative in ("greater", "less") else 1.0 - alpha / 2.0
    pvalue = np.where(null, 1.0, pvalue)
    half_width = special.ndtri(level) * se
    low, high = diff - half_width, diff + half_width
    if alternative == "greater":
        high = np.full_like(high, np.inf)
    elif alternative == "less":
        low = np.full_like(low, -np.inf)
    return {
        "auc_1": auc[i],
        "auc_2": auc[j],
        "auc_diff": diff,
        "se": se,
        "statistic": statistic,
        "pvalue": pvalue,
        "ci_low": low,
        "ci_high": high,
        "identical": identical,
        "certain": certain,
    }


def auc_interval(auc: np.ndarray, covariance: np.ndarray, confidence: float = 0.95) -> dict:
    """Per model: ``auc, se, ci_low, ci_high``, the normal interval clipped to [0, 1].

    ``se`` is the square root of DeLong's variance (the diagonal of the
    covariance), as pROC's ``ci.auc(method="delong")``.

    Examples
    --------
    >>> out = auc_interval(np.array([0.9]), np.array([[0.0025]]))
    >>> [round(float(out[k][0]), 4) for k in ("se", "ci_low", "ci_high")]
    [0.05, 0.802, 0.998]
    """
    se = np.sqrt(np.maximum(np.diagonal(covariance), 0.0))
    z = special.ndtri(0.5 + confidence / 2.0)
    return {
        "auc": auc,
        "se": se,
        "ci_low": np.clip(auc - z * se, 0.0, 1.0),
        "ci_high": np.clip(auc + z * se, 0.0, 1.0),
    }


def auc_swaps(positive: np.ndarray, x: np.ndarray, z: np.ndarray):
    """``AUC(first) − AUC(second)`` of two models' scores under swaps of rows, O(n) per swap.

    Parameters
    ----------
    positive : ndarray of bool, shape (n,)
        The truth; both classes must occur.
    x, z : ndarray, shape (n,)
        The two models' scores.

    Returns
    -------
    callable
        ``differences(swap)``: for a boolean ``swap`` of shape ``(n, r)`` (a
        row swapped in a column puts ``z`` in the first model's place and
        ``x`` in the second's), the ``r`` AUC differences.

    Notes
    -----
    The ``2n`` values of both columns are sorted once. A swap only decides
    which of each row's two values goes to the first column, so within the
    common order each column's Mann–Whitney count
    ``U = Σ_pos (negatives below + ½ negatives tied)`` is a cumulative sum of
    indicators, summed per tie group: integers (twice ``U``), so the AUC
    ``2U / (2 n_pos n_neg)`` is the same float as from midranks.

    Examples
    --------
    >>> positive = np.array([False, False, True, True])
    >>> x, z = np.array([0.1, 0.4, 0.35, 0.8]), np.array([0.3, 0.2, 0.9, 0.7])
    >>> differences = auc_swaps(positive, x, z)
    >>> differences(np.array([[False, True], [False, True], [False, True], [False, True]]))
    array([-0.25,  0.25])

    Compare with scikit-learn:

    >>> from sklearn.metrics import roc_auc_score
    >>> float(roc_auc_score(positive, x) - roc_auc_score(positive, z))
    -0.25
    """
    positive = np.asarray(positive, dtype=bool)
    n = positive.size
    n_pos = int(positive.sum())
    pairs = 2 * n_pos * (n - n_pos)
    values = np.concatenate([np.asarray(x, dtype=float), np.asarray(z, dtype=float)])
    order = np.argsort(values)
    owner = order % n  # the row of each value, in the common order
    from_x = order < n
    is_pos = positive[owner]
    ranked = values[order]
    starts = np.flatnonzero(np.concatenate([[True], ranked[1:] != ranked[:-1]]))
    ties = starts.size < values.size

    def twice_u(in_column: np.ndarray) -> np.ndarray:
        negatives = in_column & ~is_pos[:, None]
        positives = in_column & is_pos[:, None]
        if not ties:  # a positive's cumulative count of negatives is those below it
            return 2 * np.einsum("ij,ij->j", positives, np.cumsum(negatives, axis=0))
        neg_in = np.add.reduceat(negatives, starts, axis=0, dtype=np.int64)
        pos_in = np.add.reduceat(positives, starts, axis=0, dtype=np.int64)
        below = np.cumsum(neg_in, axis=0) - neg_in
        return np.einsum("ij,ij->j", pos_in, 2 * below + neg_in)

    def differences(swap: np.ndarray) -> np.ndarray:
        first = swap[owner] != from_x[:, None]  # the value goes to the first model
        if pairs == 0:
            return np.full(swap.shape[1], np.nan)
        return twice_u(first) / pairs - twice_u(~first) / pairs  # each AUC rounded once

    return differences
