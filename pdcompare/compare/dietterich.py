"""Dietterich's 5x2cv t-test and Alpaydin's combined F-test on 5 x 2-fold scores."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare.compare._common import (
    check_test_options,
    raw_alternative,
    refuse_benchmark,
    scores_meta,
    warn_pairs,
)
from pdcompare.compare.calls import comparison
from pdcompare.inputs.data import scores_data
from pdcompare.stats import dietterich


def _five_by_two_order(splits: pd.Index, method: str):
    """Positions of the 10 split columns in repeat-major order (r1f1, r1f2, r2f1, ...)."""
    expected = (
        f"`{method}` needs the scores of 5 repetitions of 2-fold cross-validation: "
        "exactly 10 split columns in repeat-major order (r1f1, r1f2, r2f1, ..., r5f2), "
        "or a (repeat, fold) column MultiIndex of 5 repeats x 2 folds, as "
        "`pdcompare.cv_scores(..., cv=RepeatedKFold(n_splits=2, n_repeats=5))` gives"
    )
    if isinstance(splits, pd.MultiIndex):
        if splits.nlevels != 2:
            msg = f"{expected}; the columns are a MultiIndex of {splits.nlevels} levels."
            raise ValueError(msg)
        repeats, folds = (splits.get_level_values(k) for k in (0, 1))
        repeat_codes, repeat_labels = pd.factorize(repeats, sort=True)
        fold_codes, fold_labels = pd.factorize(folds, sort=True)
        cells = set(zip(repeat_codes.tolist(), fold_codes.tolist(), strict=True))
        shape_ok = (len(repeat_labels), len(fold_labels)) == (5, 2)
        if not shape_ok or len(splits) != 10 or len(cells) != 10:
            msg = (
                f"{expected}; the columns have {len(repeat_labels)} repeat(s) x "
                f"{len(fold_labels)} fold(s) in {len(splits)} column(s)."
            )
            raise ValueError(msg)
        return np.lexsort((fold_codes, repeat_codes))
    if len(splits) != 10:
        msg = f"{expected}; the frame has {len(splits)} split columns."
        raise ValueError(msg)
    return np.arange(10)


def _five_by_two_test(
    scores: pd.DataFrame,
    method: str,
    a: Any,
    b: Any,
    alternative: str,
    alpha: float,
    correction: str | None,
    nan_policy: str,
    design: dict[str, Any],
) -> pd.DataFrame:
    """Validate, gather the differences as (pairs, 5 repeats, 2 folds), run the core test."""
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    data = scores_data(scores, **design)
    refuse_benchmark(data, method)
    alternative = raw_alternative(alternative, data.design.greater_is_better)
    order = _five_by_two_order(data.splits, method)
    ratio = data.design.test_train_ratio
    # 2-fold splits test on half the data; a known design far from that is not 5x2cv
    # (10-fold scores have 10 columns too). Odd sample counts give ratios near 1.
    if ratio is not None and not 0.8 <= ratio <= 1.25:
        msg = (
            f"`{method}` needs scores of 2-fold cross-validation (test/train size ratio "
            f"1), but the frame's design ({data.design.source}) has ratio {ratio:.3g}. "
            "Use `RepeatedKFold(n_splits=2, n_repeats=5)` or `RepeatedStratifiedKFold`."
        )
        raise ValueError(msg)
    i, j, scope = data.pairs(a, b)
    propagate = data.nan_pairs(i, j, nan_policy) & (nan_policy == "propagate")
    values = np.take(data.values, order, axis=1).reshape(len(data.names), 5, 2)
    differences = values[i] - values[j]
    # "propagate": a missing score makes the whole pair NaN; "omit": the core skips the
    # repeats with a missing score.
    differences[propagate] = np.nan
    if method == "ttest_5x2cv":
        out = dietterich.paired_ttest_5x2cv(differences, alternative=alternative)
        zero = (
            ": the score differences are equal on both folds of every repeat, so the 5x2cv "
            "t-test's variance is 0 (statistic 0 and p-value 1 when the first difference "
            "is 0, else an infinite statistic)."
        )
    else:
        out = dietterich.combined_ftest_5x2cv(differences)
        zero = (
            ": the score differences are equal on both folds of every repeat, so the 5x2cv "
            "F-test's denominator is 0 (statistic 0 and p-value 1 when all differences are "
            "0, else an infinite statistic)."
        )
    warn_pairs(data.names, i, j, [(out["zero_variance"], zero)])
    columns = {k: out[k] for k in ("mean_diff", "statistic", "pvalue")}
    meta = scores_meta(
        method,
        data,
        scope,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
    )
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


@comparison("ttest_5x2cv")
def ttest_5x2cv(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Dietterich's 5x2cv paired t-test on a frame of 5 x 2-fold cross-validation scores.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name, optional
        ``(a, b)`` compares one pair (statistic about a − b); ``a`` alone
        compares it with every other model; neither compares the best model
        (highest mean) with every other.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About model_1 − model_2, as in scipy.
        "better"/"worse": model_1 better/worse than model_2 in the
        direction of the scores (the same as "greater"/"less" when higher
        is better, swapped for losses).
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing method of ``statsmodels.stats.multitest.multipletests``
        applied over the rows, or None.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A pair with a missing score gets NaN ("propagate", with a warning),
        is computed on its complete repeats ("omit") or raises ("raise").
    **design
        ``greater_is_better=False`` for losses (decides which model is best).
        Other design keywords are accepted and unused: the test needs no
        test/train ratio.

    Returns
    -------
    pandas.DataFrame
        Columns ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
        reject``; ``mean_diff`` is the mean of the ten differences. The test's
        settings are in ``attrs["pdcompare"]``.

    Notes
    -----
    The frame must hold exactly 10 splits: five repetitions of 2-fold
    cross-validation, in repeat-major order (r1f1, r1f2, r2f1, ...) or with a
    ``(repeat, fold)`` column MultiIndex (sorted by repeat, then fold).
    With ``d_ij`` the difference on fold ``j`` of repeat ``i`` and
    ``s_i² = (d_i1 − d̄_i)² + (d_i2 − d̄_i)²``,
    ``t = d_11 / sqrt((1/5) Σ_i s_i²)`` with 5 degrees of freedom
    (Dietterich 1998), as ``mlxtend.evaluate.paired_ttest_5x2cv``. With
    ``nan_policy="omit"``, repeats with a missing score are skipped and the
    degrees of freedom are the complete repeats. Differences equal within
    every repeat give a zero denominator: statistic 0 and p-value 1 when
    ``d_11 = 0``, else an infinite statistic, with a warning.

    Dietterich's other tests on scores are :func:`ttest` on the matching
    frame: the *resampled paired t-test* is ``ttest`` on the scores of
    repeated holdouts (``ShuffleSplit``), the *k-fold cross-validated paired
    t-test* is ``ttest`` on k-fold scores. Both have an elevated type I error
    because the training sets overlap; ``corrected_ttest`` (Nadeau and
    Bengio 2003) fixes that on the same frames, and the 5x2cv tests are
    Dietterich's and Alpaydin's answer when only 2-fold splits are used.

    References
    ----------
    T. G. Dietterich, "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10(7), 1998.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> columns = pd.MultiIndex.from_product([range(5), range(2)], names=["repeat", "fold"])
    >>> scores = pd.DataFrame([[0.92, 0.90, 0.93, 0.89, 0.91, 0.92, 0.92, 0.91, 0.90, 0.93],
    ...                        [0.90, 0.89, 0.90, 0.89, 0.90, 0.90, 0.90, 0.89, 0.90, 0.90]],
    ...                       index=["forest", "knn"], columns=columns)
    >>> scores.cmp.ttest_5x2cv().round(4)
      model_1 model_2  mean_diff  statistic  pvalue  pvalue_adj  reject
    0  forest     knn      0.016     1.4142  0.2164      0.2164   False

    Compare with the formula and ``scipy.stats.t`` (see also mlxtend):

    >>> import numpy as np
    >>> from scipy import stats
    >>> d = (scores.loc["forest"] - scores.loc["knn"]).to_numpy().reshape(5, 2)
    >>> t = d[0, 0] / np.sqrt(((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1).mean())
    >>> round(float(t), 4), round(float(2 * stats.t.sf(abs(t), 5)), 4)
    (1.4142, 0.2164)
    """
    return _five_by_two_test(
        scores, "ttest_5x2cv", a, b, alternative, alpha, correction, nan_policy, design
    )


@comparison("ftest_5x2cv")
def ftest_5x2cv(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Alpaydin's combined 5x2cv F-test on a frame of 5 x 2-fold cross-validation scores.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name, optional
        ``(a, b)`` compares one pair; ``a`` alone compares it with every other
        model; neither compares the best model (highest mean) with every other.
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing method of ``statsmodels.stats.multitest.multipletests``
        applied over the rows, or None.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A pair with a missing score gets NaN ("propagate", with a warning),
        is computed on its complete repeats ("omit") or raises ("raise").
    **design
        ``greater_is_better=False`` for losses (decides which model is best).

    Returns
    -------
    pandas.DataFrame
        Columns ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
        reject``; ``mean_diff`` is the mean of the ten differences a − b.

    Notes
    -----
    The frame layout is that of :func:`ttest_5x2cv` (exactly 10 splits).
    ``f = Σ_i Σ_j d_ij² / (2 Σ_i s_i²)`` with (10, 5) degrees of freedom
    (Alpaydin 1999), as ``mlxtend.evaluate.combined_ftest_5x2cv``. It uses
    all ten differences instead of Dietterich's single ``d_11``, which makes
    it more powerful at a lower type I error. The test is inherently
    two-sided (the differences enter squared), so there is no
    ``alternative``; ``mean_diff`` tells the direction. With
    ``nan_policy="omit"`` and ``r`` complete repeats the degrees of freedom
    are ``(2r, r)``. A zero denominator (differences equal within every
    repeat) gives statistic 0 and p-value 1 when all differences are 0,
    else an infinite statistic, with a warning.

    As for the 5x2cv t-test, Dietterich's resampled and k-fold paired
    t-tests are :func:`ttest` on the matching scores frames, and
    ``corrected_ttest`` is their corrected version.

    References
    ----------
    E. Alpaydin, "Combined 5x2 cv F test for comparing supervised
    classification learning algorithms", Neural Computation 11(8), 1999.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> scores = pd.DataFrame([[0.92, 0.90, 0.93, 0.89, 0.91, 0.92, 0.92, 0.91, 0.90, 0.93],
    ...                        [0.90, 0.89, 0.90, 0.89, 0.90, 0.90, 0.90, 0.89, 0.90, 0.90]],
    ...                       index=["forest", "knn"])
    >>> scores.cmp.ftest_5x2cv().round(4)
      model_1 model_2  mean_diff  statistic  pvalue  pvalue_adj  reject
    0  forest     knn      0.016        1.8  0.2681      0.2681   False

    Compare with the formula and ``scipy.stats.f``:

    >>> import numpy as np
    >>> from scipy import stats
    >>> d = (scores.loc["forest"] - scores.loc["knn"]).to_numpy().reshape(5, 2)
    >>> f = (d**2).sum() / (2 * ((d - d.mean(axis=1, keepdims=True)) ** 2).sum())
    >>> round(float(f), 4), round(float(stats.f.sf(f, 10, 5)), 4)
    (1.8, 0.2681)
    """
    return _five_by_two_test(
        scores, "ftest_5x2cv", a, b, "two-sided", alpha, correction, nan_policy, design
    )
