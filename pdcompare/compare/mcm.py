"""The Multiple Comparison Matrix of a benchmark frame (Ismail-Fawaz et al. 2023).

The critical-difference diagram changes when a model is added or removed: its
mean ranks, and so its bars, depend on every model at once. The Multiple
Comparison Matrix does not: each cell compares two models on the data sets
both have a score on, by their mean difference, their wins, ties and losses,
and the two-sided Wilcoxon signed-rank test of their per-data-set means. A
cell depends on its two models alone, so adding, removing or reordering
models never changes it; ``correction=`` corrects over the matrix's unique
pairs, which keeps the verdicts independent of the order too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_correction
from pdcompare.compare._common import scores_meta
from pdcompare.compare.ranks import _benchmark
from pdcompare.stats.multitest import adjust_pvalues


def comparison_matrix(
    scores: pd.DataFrame,
    *,
    correction: str | None = None,
    alpha: float = 0.05,
    **design: Any,
) -> pd.DataFrame:
    """Every ordered pair of models across data sets: difference, wins / ties / losses, p-value.

    Parameters
    ----------
    scores : pandas.DataFrame
        A benchmark frame (models x data sets, or ``(dataset, split)``
        columns, reduced to per-data-set means).
    correction : str or None, default None
        Multiple-testing correction over the unique pairs (statsmodels'
        names); None keeps each cell's own p-value, as aeon does.
    alpha : float, default 0.05
        The level the picture marks significant cells at (kept in attrs).
    **design
        ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        One row per ordered pair (model_1 ≠ model_2), models ordered by mean
        score, best first: ``model_1, model_2, mean_diff`` (raw mean of
        model_1 − model_2 over the data sets both have), ``wins, ties,
        losses`` (data sets where model_1 is better, equal, worse, in the
        design's direction) and ``pvalue`` (two-sided Wilcoxon signed-rank
        test, ``zero_method="pratt"``; NaN with fewer than two data sets),
        then ``pvalue_adj`` when ``correction`` is given.

    Notes
    -----
    The p-value is ``scipy.stats.wilcoxon(x, y, zero_method="pratt")`` on
    the per-data-set means, computed for all pairs in one call along an
    axis; the cell (b, a) has the same p-value as (a, b), the negated
    ``mean_diff`` and wins and losses swapped.

    References
    ----------
    .. [1] A. Ismail-Fawaz, A. Dempster, C. W. Tan, M. Herrmann, L. Miller,
       D. F. Schmidt, S. Berretti, J. Weber, M. Devanne, G. Forestier and
       G. I. Webb, "An approach to multiple comparison benchmark evaluations
       that is stable under manipulation of the comparate set", arXiv
       2305.11921, 2023.

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> cells = load_benchmark().cmp.matrix(kind="mcm")
    >>> first = cells.loc[0]
    >>> [first["model_1"], first["model_2"]], [int(first[c]) for c in ("wins", "ties", "losses")]
    (['svc_rbf', 'forest'], [12, 2, 8])

    Compare with scipy on one pair:

    >>> from scipy import stats
    >>> means = load_benchmark().cmp.means()
    >>> p = stats.wilcoxon(means.loc["svc_rbf"], means.loc["forest"], zero_method="pratt")
    >>> bool(np.isclose(p.pvalue, cells.iloc[0]["pvalue"]))
    True
    """
    from scipy import stats

    data = _benchmark(scores, "matrix(kind='mcm')", **design)
    correction = check_correction(correction, "correction")
    values = data.values
    greater = data.design.greater_is_better
    present = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(present, values, 0.0).sum(axis=1) / present.sum(axis=1)
    key = np.where(np.isnan(means), np.inf, -means if greater else means)
    order = np.argsort(key, kind="stable")
    m = len(order)
    first, second = np.meshgrid(order, order, indexing="ij")
    off = ~np.eye(m, dtype=bool)
    i, j = first[off], second[off]
    diff = values[i] - values[j]  # pairs x data sets
    both = ~np.isnan(diff)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_diff = np.where(both, diff, 0.0).sum(axis=1) / both.sum(axis=1)
    better = diff > 0 if greater else diff < 0
    worse = diff < 0 if greater else diff > 0
    wins = (better & both).sum(axis=1)
    losses = (worse & both).sum(axis=1)
    ties = (both & ~better & ~worse).sum(axis=1)
    pvalue = _pratt_pvalues(values, i, j, both, stats)
    columns: dict[str, Any] = {
        "mean_diff": mean_diff,
        "wins": wins.astype(np.int64),
        "ties": ties.astype(np.int64),
        "losses": losses.astype(np.int64),
        "pvalue": pvalue,
    }
    if correction:
        # Over the unique pairs: a pair's two cells share one adjusted p-value.
        upper = i < j
        key_pair = np.minimum(i, j) * m + np.maximum(i, j)
        adjusted = adjust_pvalues(pvalue[upper], correction)
        lookup = dict(zip(key_pair[upper].tolist(), np.asarray(adjusted).tolist(), strict=True))
        columns["pvalue_adj"] = np.array([lookup[k] for k in key_pair.tolist()], dtype=float)
    meta = scores_meta(
        "mcm", data, "all_pairs", correction=correction, alpha=alpha, mcm_order=order.tolist()
    )
    meta["models"] = [data.names[k] for k in order]
    return results.pair_result(data.names, i, j, columns, meta)


def _pratt_pvalues(values, i, j, both, stats) -> np.ndarray:
    """Two-sided Wilcoxon (Pratt) p-values of every pair, a few scipy calls along an axis.

    Pairs that share the same data sets (and tie status) go to scipy as one
    array along an axis; with no missing score that is one or two calls. A pair whose
    differences are all zero gets p = 1 (scipy's statistic is undefined there).
    """
    import warnings

    out = np.full(len(i), np.nan)
    # scipy chooses its method ("auto": exact, a permutation test, or the normal
    # approximation) once for all rows of a call, from whether any row has ties or
    # zeros: pairs go to scipy in groups that would each choose alone as they do together,
    # so that a cell never depends on the other pairs.
    diff = values[i] - values[j]
    if both.shape[1] > 50:  # scipy then takes the normal approximation whatever the ties
        tied = np.zeros(len(i), dtype=bool)
    else:
        magnitude = np.sort(np.where(both, np.abs(diff), np.nan), axis=1)
        tied = (np.diff(magnitude, axis=1) == 0).any(axis=1) | (diff == 0).any(axis=1)
    if both.all():  # no missing score: the groups are the tie status alone
        patterns = np.array([[*both[0], False], [*both[0], True]])
        inverse = tied.astype(np.int64)
    else:
        groups = np.column_stack([both, tied])
        patterns, inverse = np.unique(groups, axis=0, return_inverse=True)
    for k, group in enumerate(patterns):
        pattern = group[:-1]
        rows = np.flatnonzero(inverse.ravel() == k)
        if pattern.sum() < 2:
            continue
        x = values[i[rows]][:, pattern]
        y = values[j[rows]][:, pattern]
        zero = np.all(x == y, axis=1)
        out[rows[zero]] = 1.0
        if zero.all():
            continue
        with warnings.catch_warnings():
            # scipy says when zeros or ties send it to the normal approximation: that
            # is its default method, which the p-value follows.
            warnings.simplefilter("ignore", UserWarning)
            found = stats.wilcoxon(x[~zero], y[~zero], zero_method="pratt", axis=1)
        out[rows[~zero]] = found.pvalue
    return out
