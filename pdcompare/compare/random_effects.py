"""Across data sets with the folds kept: random-effects pooling of the per-data-set differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_option, warn
from pdcompare.compare._common import check_test_options, per_dataset_fields, scores_meta
from pdcompare.compare.calls import comparison
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.stats._common import nadeau_bengio_variance
from pdcompare.stats.random_effects import METHODS, random_effects_pool


def _needs_folds(data: Any) -> None:

    if not isinstance(data, BenchmarkData) or data.folds is None:
        msg = (
            "`random_effects` pools the per-data-set differences with their fold variances: "
            "it needs a benchmark frame with (dataset, split) columns (the fold scores of every "
            "data set), such as pdcompare.from_long(table, split=...). A table of one score "
            "per data set has no variances: use wilcoxon, sign_test or bayes across data sets."
        )
        raise ValueError(msg)


def _effects(data: Any, i: np.ndarray, j: np.ndarray, ratio: float) -> tuple[np.ndarray, ...]:
    """Per pair and data set: the mean fold difference and its corrected variance."""
    diffs = data.folds[i] - data.folds[j]  # (pairs, datasets, splits), NaN padding
    counts = np.sum(~np.isnan(diffs), axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        effects = data.values[i] - data.values[j]  # NaN where a model misses the data set
        spread = np.nanvar(diffs, axis=2, ddof=1) if diffs.size else diffs.sum(axis=2)
        variances = nadeau_bengio_variance(spread, counts, ratio)
    variances = np.where(np.isnan(effects), np.nan, variances)
    return effects, variances


def _floor_zero_variances(
    variances: np.ndarray, names: pd.Index, datasets: pd.Index, i: np.ndarray, j: np.ndarray
) -> np.ndarray:
    """Zero variances (constant fold differences) raised to the pair's smallest positive one.

    A data set on which two models differ by the same amount on every fold (both
    score 1.0 everywhere, say) would otherwise weigh infinitely and decide the
    pooled difference alone. It is given the smallest positive variance of the
    pair's other data sets, so it counts as the most precise of them, and the
    warning names it; no noise is added.
    """
    zero = variances == 0
    if not zero.any():
        return variances
    positive = np.where(variances > 0, variances, np.inf)
    smallest = positive.min(axis=1, keepdims=True)
    floored = np.where(zero, smallest, variances)
    floored = np.where(np.isinf(floored), np.nan, floored)
    rows, cols = np.nonzero(zero)
    shown = [
        f"{names[i[r]]} vs {names[j[r]]} on {datasets[c]}" for r, c in zip(rows, cols, strict=True)
    ]
    more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
    warn(
        f"The fold differences are the same on every fold for {'; '.join(shown[:5])}{more}: "
        "a zero variance would give that data set all the weight. It is given the pair's "
        "smallest positive variance on another data set instead (pairs with no positive "
        "variance get NaN)."
    )
    return floored


@comparison("random_effects")
def random_effects(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alpha: float = 0.05,
    correction: str | None = "holm",
    method: str = "dl",
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Random-effects meta-analysis of the difference of two models across data sets.

    Each data set contributes the mean of the fold differences
    ``model_1 - model_2`` and its Nadeau–Bengio corrected variance
    ``s² (1/k + n_test/n_train)``; the differences are pooled with weights
    ``1 / (variance + tau2)``, where ``tau2`` is the variance of the true
    difference from data set to data set. Unlike the rank tests, which keep
    one number per data set, this keeps the folds: a data set measured
    precisely weighs more than a noisy one.

    Parameters
    ----------
    scores : pandas.DataFrame
        A benchmark frame with ``(dataset, split)`` columns.
    a, b : model name, optional
        The pair, one model against the others, or (neither) the best model
        by mean rank against the others.
    alpha : float, default 0.05
        Significance level; the intervals are ``1 - alpha``.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows (statsmodels' names,
        "shaffer" for all pairs, or None).
    method : {"dl", "pm"}, default "dl"
        ``tau2`` by DerSimonian–Laird (statsmodels ``combine_effects(...,
        method_re="chi2")``, truncated at 0) or Paule–Mandel
        (``method_re="iterated"``).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A model without scores on a data set: "propagate" gives its pairs
        NaN (with a warning), "omit" leaves that data set out of those pairs
        (with a warning naming it), "raise" raises.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (one design
        for every data set), and ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, mean_diff`` (pooled), ``se,
        statistic`` (z), ``pvalue, pvalue_adj, reject, ci_low, ci_high``
        (normal interval of the pooled difference), ``tau2, i2`` (the share
        of the spread of the differences that is real, not sampling noise)
        and ``pi_low, pi_high``: the prediction interval of the difference on
        a new data set, ``mean ± t(N−2) sqrt(tau2 + se²)`` (Higgins, Thompson
        & Spiegelhalter 2009), often much wider than the confidence interval.
        ``attrs["pdcompare"]`` holds each data set's mean fold difference and
        its corrected standard error per pair, as JSON-able lists (None where
        a data set is left out), which ``result.cmp.plot()`` draws as a forest
        plot; ``pdcompare.shrinkage(result)`` gives them as a frame, with each
        data set's difference shrunk towards the pooled one.

    Warns
    -----
    PdcompareWarning
        When a pair's folds differ by a constant on some data set (zero
        variance; see Notes), or missing scores change the data sets used.

    Notes
    -----
    ``tau2 = max(0, (Q − (N−1)) / (W − Σw²/W))`` (DerSimonian & Laird 1986)
    with ``w = 1/variance``, ``W = Σw`` and ``Q`` the weighted sum of squared
    deviations from the fixed-effect mean; ``I² = max(0, (Q − (N−1))/Q)``.
    statsmodels' ``combine_effects`` leaves a negative ``tau2`` as it is; here
    it is 0, the fixed-effect pooling. A zero variance is raised to the
    pair's smallest positive one on another data set, with a warning.

    References
    ----------
    .. [1] R. DerSimonian and N. Laird, "Meta-analysis in clinical trials",
       Controlled Clinical Trials 7, 177-188, 1986.
    .. [2] J. Higgins, S. Thompson and D. Spiegelhalter, "A re-evaluation of
       random-effects meta-analysis", JRSS A 172, 137-159, 2009.
    .. [3] C. Nadeau and Y. Bengio, "Inference for the generalization
       error", Machine Learning 52, 239-281, 2003.

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> bench = load_benchmark()  # 7 models x 22 data sets x 10 folds, design attached
    >>> pooled = bench.cmp.random_effects("svc_rbf", "knn")
    >>> pooled[["mean_diff", "ci_low", "ci_high", "pi_low", "pi_high"]].round(3)
       mean_diff  ci_low  ci_high  pi_low  pi_high
    0      0.042   0.021    0.063  -0.055    0.138

    Compare with statsmodels, on the same effects and variances:

    >>> from statsmodels.stats.meta_analysis import combine_effects
    >>> diff = bench.loc["svc_rbf"] - bench.loc["knn"]
    >>> by_set = diff.groupby(level="dataset", sort=False)
    >>> ratio = bench.attrs["pdcompare"]["design"]["test_train_ratio"]
    >>> variance = by_set.var() * (1 / by_set.count() + ratio)
    >>> res = combine_effects(by_set.mean().to_numpy(), variance.to_numpy(), method_re="chi2",
    ...                       use_t=False)
    >>> round(float(res.mean_effect_re), 3)
    0.042
    """
    alpha, correction = check_test_options(alpha=alpha, correction=correction)
    check_option("method", method, tuple(METHODS))
    data = scores_data(scores, **design)
    _needs_folds(data)
    ratio = require_ratio(data.design, "random_effects")
    i, j, scope = data.pairs(a, b)
    incomplete = data.nan_pairs(i, j, nan_policy)
    effects, variances = _effects(data, i, j, ratio)
    if nan_policy != "omit":
        effects[incomplete] = np.nan
        variances[incomplete] = np.nan
    variances = _floor_zero_variances(variances, data.names, data.splits, i, j)
    pooled = random_effects_pool(effects, variances, method=method, alpha=alpha)
    names = ("mean_diff", "se", "statistic", "pvalue", "ci_low", "ci_high", "tau2", "i2")
    columns = {name: pooled[name] for name in (*names, "pi_low", "pi_high")}
    meta = scores_meta(
        "random_effects",
        data,
        scope,
        alternative="two-sided",
        alpha=alpha,
        correction=correction,
        method=method,
        nan_policy=nan_policy,
        **per_dataset_fields(
            data.names, i, j, data.splits, differences=effects, differences_se=np.sqrt(variances)
        ),
    )
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)
