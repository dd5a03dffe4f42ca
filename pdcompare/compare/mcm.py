"""The Multiple Comparison Matrix of a benchmark frame (Ismail-Fawaz et al. 2023).

The critical-difference diagram changes when a model is added or removed: its
mean ranks, and so its bars, depend on every model at once. The Multiple
Comparison Matrix does not: each cell compares two models on the data sets
both have a score on, by their mean difference, their wins, ties and losses,
and the two-sided Wilcoxon signed-rank test of their per-data-set means (the
test of ``wilcoxon`` across data sets, zero differences dropped). A
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
from pdcompare.compare.calls import comparison
from pdcompare.compare.ranks import _benchmark
from pdcompare.stats import paired
from pdcompare.stats.multitest import adjust_pvalues


@comparison("mcm")
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
        One row per ordered pair (model_1 ≠ model_2), models ordered best
        first as ``summary()`` and the report order them (by mean rank, ties
        broken by the better mean): ``model_1, model_2, mean_diff`` (raw mean of
        model_1 − model_2 over the data sets both have), ``wins, ties,
        losses`` (data sets where model_1 is better, equal, worse, in the
        design's direction) and ``pvalue`` (two-sided Wilcoxon signed-rank
        test with scipy's defaults, zero differences dropped: the p-value of
        ``wilcoxon`` across data sets for that pair; NaN with fewer than two
        data sets), then ``pvalue_adj`` when ``correction`` is given.

    Notes
    -----
    The p-value is ``scipy.stats.wilcoxon(x, y)`` on the per-data-set means
    the two models share, computed for all pairs at once by the core of
    :func:`pdcompare.wilcoxon`: one story per number, the report's table and
    the matrix give a pair the same p-value. (aeon's matrix uses
    ``zero_method="pratt"``, which keeps zero differences in the ranking and
    gives other p-values when some data sets tie.) The cell (b, a) has the
    same p-value as (a, b), the negated ``mean_diff`` and wins and losses
    swapped.

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
    >>> p = stats.wilcoxon(means.loc["svc_rbf"], means.loc["forest"])
    >>> bool(np.isclose(p.pvalue, cells.iloc[0]["pvalue"]))
    True
    """
    data = _benchmark(scores, "matrix(kind='mcm')", **design)
    correction = check_correction(correction, "correction")
    values = data.values
    greater = data.design.greater_is_better
    order = data.order  # as summary() and the report order them: by mean rank
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
    pvalue = _wilcoxon_pvalues(values, i, j)
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


def _wilcoxon_pvalues(values: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Two-sided Wilcoxon p-value of every pair, on the data sets both models have.

    The core of ``wilcoxon`` across data sets (scipy's defaults: zero
    differences dropped), so that a pair has one p-value in the report's
    table and in the matrix. Each unique pair is tested once (the cell (b, a)
    shares the p-value of (a, b)); with fewer than two shared data sets the
    p-value is NaN, and identical scores give 1.
    """
    upper = i < j
    out = paired.wilcoxon(values, i[upper], j[upper], nan_policy="omit", hodges_lehmann=False)[
        "pvalue"
    ]
    m = len(values)
    lookup = np.full(m * m, np.nan)
    lookup[i[upper] * m + j[upper]] = out
    pvalue = lookup[np.minimum(i, j) * m + np.maximum(i, j)]
    shared = np.sum(~np.isnan(values[i]) & ~np.isnan(values[j]), axis=1)
    return np.where(shared < 2, np.nan, pvalue)
