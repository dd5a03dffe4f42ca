"""Paired frequentist tests on a scores frame: corrected and plain t-tests, Wilcoxon, sign test."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare import results
from pdcompare.compare._common import (
    CONSTANT_DIFFERENCE,
    IDENTICAL_SCORES,
    check_test_options,
    count_columns,
    raw_alternative,
    refuse_benchmark,
    refuse_one_dataset,
    scores_meta,
    warn_overlapping_splits,
    warn_pairs,
)
from pdcompare.compare.calls import comparison
from pdcompare.compare.margin import check_margin, core_margin, with_margin
from pdcompare.compare.paired_items import items_test
from pdcompare.compare.power import attainable_pvalue
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.stats import paired


def _paired_test(
    scores: pd.DataFrame,
    test: str,
    a: Any,
    b: Any,
    *,
    alternative: str,
    alpha: float,
    correction: str | None,
    nan_policy: str,
    design: dict[str, Any],
    margin: float | None = None,
) -> pd.DataFrame:
    """Validate, select the pairs, run one core test of ``stats.paired``, wrap the result."""
    if frame_kind(scores) is FrameKind.ITEMS:
        if margin is not None:
            design = {**design, "margin": margin}
        return items_test(scores, test, a, b, alternative, alpha, correction, design)

    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    margin = check_margin(margin, alternative)
    data = scores_data(scores, **design)
    if test == "corrected_ttest":
        refuse_benchmark(data, test)
    refuse_one_dataset(data, test)
    ratio = (
        require_ratio(data.design, test, len(data.splits)) if test == "corrected_ttest" else None
    )
    warn_overlapping_splits(data, test)
    asked = alternative
    alternative = raw_alternative(alternative, data.design.greater_is_better)
    i, j, scope = data.pairs(a, b)
    data.nan_pairs(i, j, nan_policy)  # raises for "raise", warns for "propagate"
    policy = "omit" if nan_policy == "omit" else "propagate"
    if test in ("corrected_ttest", "ttest"):
        out = paired.paired_ttest(
            data.values,
            i,
            j,
            test_train_ratio=ratio,
            alternative=alternative,
            confidence=1.0 - alpha,
            nan_policy=policy,
            margin=core_margin(margin, asked),
        )
        names = ("mean_diff", "statistic", "df", "pvalue", "ci_low", "ci_high")
    elif test == "wilcoxon":
        out = paired.wilcoxon(
            data.values,
            i,
            j,
            alternative=alternative,
            nan_policy=policy,
            hodges_lehmann=data.across_datasets,  # shown across data sets only
        )
        names = ("mean_diff", "statistic", "pvalue")
        if data.across_datasets:  # the Hodges–Lehmann estimate too
            names = (*names, "median_diff")
    else:
        out = paired.sign_test(data.values, i, j, alternative=alternative, nan_policy=policy)
        names = ("mean_diff", "statistic", "pvalue", "wins", "losses", "ties")
        if not data.design.greater_is_better:
            # Wins are splits where model_1 is better: the lower score, for losses.
            out = {**out, "wins": out["losses"], "losses": out["wins"]}
            out["statistic"] = out["wins"]
        out = count_columns(out)
    warn_pairs(
        data.names,
        i,
        j,
        [(out["identical"], *IDENTICAL_SCORES), (out["constant"], *CONSTANT_DIFFERENCE)],
    )
    attainable = {}
    if "min_pvalue" in out:  # the discrete tests: the smallest p-value they can reach
        attainable = attainable_pvalue(
            data,
            test,
            out["min_pvalue"],
            out["identical"],
            scope=scope,
            correction=correction,
            alpha=alpha,
            alternative=alternative,
        )
    meta = scores_meta(
        test,
        data,
        scope,
        alternative=alternative,
        asked_alternative=asked,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        **attainable,
        **({} if margin is None else {"margin": margin}),
    )
    columns = with_margin({name: out[name] for name in names}, margin, len(i))
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


@comparison("corrected_ttest")
def corrected_ttest(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "propagate",
    margin: float | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Nadeau–Bengio corrected resampled t-test of model_1 − model_2.

    CV splits share most of their training data, so the scores of one
    model are correlated across splits and the plain paired t-test is far
    too confident. The corrected test widens the variance of the mean
    difference by the test/train size ratio of the splits.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name, optional
        ``a`` and ``b``: that pair (model_1 = a). ``a`` alone: ``a`` against
        every other model, in rank order. Neither: the best model (highest
        mean; lowest when ``greater_is_better=False``) against every other.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About the mean of model_1 − model_2, as in scipy.
        "better"/"worse": model_1 better/worse than model_2 in the
        direction of the scores (the same as "greater"/"less" when higher
        is better, swapped for losses).
    alpha : float, default 0.05
        Significance level of ``reject``; the interval has level 1 − alpha.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows of the result: any method
        of ``statsmodels.stats.multitest.multipletests``, or None.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A pair with a missing score: NaN results left out of the correction
        (with a warning), computed on the splits both models have, or an error.
    margin : float, optional
        Non-inferiority margin (≥ 0, in the units of the score), only with
        ``alternative="better"``: H0 is μ₁ − μ₂ ≤ −margin (for losses
        μ₁ − μ₂ ≥ margin), so ``reject`` means model_1 is shown to be not
        worse than model_2 by the margin or more. The statistic becomes
        ``(mean_diff + margin) / se`` (for losses ``(margin − mean_diff) / se``,
        positive in favour of model_1), the p-value its upper tail, and the
        result gains a ``margin`` column; the interval stays the one-sided
        interval of the difference. None (the default): no ``margin`` column,
        the test as it is; ``margin=0`` gives the one-sided test's p-values.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (required
        unless stored with :func:`set_design`), and ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, mean_diff, statistic, df,
        pvalue, pvalue_adj, reject, ci_low, ci_high``, best first when
        comparing against the best or all pairs (then ``mean_diff >= 0``
        when higher is better). ``attrs["pdcompare"]`` holds the test,
        scope, alternative, alpha, correction, design and the models best first.

    Notes
    -----
    With ``d`` the ``n`` differences of a pair over the splits, ``d̄`` their
    mean and ``s²`` their variance (ddof=1),

    ``t = d̄ / sqrt(s² (1/n + n_test/n_train))`` on ``n − 1`` degrees of freedom

    (Nadeau and Bengio 2003; Bouckaert and Frank 2004). The interval is
    ``d̄ ± t_q · sqrt(s² (1/n + n_test/n_train))``, one-sided like scipy's
    when ``alternative`` is. Identical score vectors give t = 0, p = 1; a
    constant non-zero difference t = ±inf, p = 0 (both warn).

    References
    ----------
    C. Nadeau and Y. Bengio, "Inference for the generalization error",
    Machine Learning 52(3), 2003. R. R. Bouckaert and E. Frank, "Evaluating
    the replicability of significance tests for comparing learning
    algorithms", PAKDD 2004.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()  # 10x10 CV, n_train 90, n_test 10
    >>> res = scores.cmp.corrected_ttest("rbf", "linear", alternative="greater")
    >>> res[["model_1", "model_2", "statistic", "pvalue"]].round(3)
      model_1 model_2  statistic  pvalue
    0     rbf  linear       0.75   0.227

    The best model against the others, Holm-corrected:

    >>> scores.cmp.corrected_ttest()[["model_2", "mean_diff", "pvalue_adj"]].round(3)
      model_2  mean_diff  pvalue_adj
    0  linear      0.010       0.455
    1  3_poly      0.036       0.201
    2  2_poly      0.255       0.000
    """
    return _paired_test(
        scores,
        "corrected_ttest",
        a,
        b,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        design=design,
        margin=margin,
    )


@comparison("ttest")
def ttest(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "propagate",
    margin: float | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Plain paired t-test of model_1 − model_2 over the splits (``scipy.stats.ttest_rel``).

    For comparison and for the textbook tables: it treats CV splits as
    independent, which they are not, so its p-values are too small. Use
    :func:`corrected_ttest` to decide.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name, optional
        The pair, one model against the others, or the best against the
        others (see :func:`corrected_ttest`).
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About the mean of model_1 − model_2, as in scipy.
        "better"/"worse": model_1 better/worse than model_2 in the
        direction of the scores (the same as "greater"/"less" when higher
        is better, swapped for losses).
    alpha : float, default 0.05
        Significance level of ``reject``; the interval has level 1 − alpha.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows (``multipletests`` methods).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        As in :func:`corrected_ttest`.
    margin : float, optional
        Non-inferiority margin (≥ 0, in the units of the score), only with
        ``alternative="better"``: H0 is μ₁ − μ₂ ≤ −margin (for losses
        μ₁ − μ₂ ≥ margin), so ``reject`` means model_1 is shown to be not
        worse than model_2 by the margin or more. The statistic becomes
        ``(mean_diff + margin) / se`` (for losses ``(margin − mean_diff) / se``,
        positive in favour of model_1), the p-value its upper tail, and the
        result gains a ``margin`` column; the interval stays the one-sided
        interval of the difference. None (the default): no ``margin`` column,
        the test as it is; ``margin=0`` gives the one-sided test's p-values.
    **design
        Only ``greater_is_better=`` matters here (which model is best and
        the rank order); ``cv=`` and the other design keywords are accepted
        so that ``pairwise(test=..., cv=10)`` works for every test.
        On a labelled items frame (``from_items(..., human=)``) also
        ``estimator=``: "ppi++" (the default: the judge's scores corrected
        by the human labels, λ tuned), "ppi" (λ = 1), "labels" (the labelled
        items alone), "judge" (the judge alone, uncorrected) or
        "rogan_gladen" (class-balanced binary labels; DESIGN section 31).

    Returns
    -------
    pandas.DataFrame
        ``model_1, model_2, mean_diff, statistic, df, pvalue, pvalue_adj,
        reject, ci_low, ci_high``, one row per pair.

    Notes
    -----
    ``t = d̄ / (s / sqrt(n))`` on ``n − 1`` degrees of freedom, with ``d̄``
    and ``s`` the mean and standard deviation (ddof=1) of the differences;
    the interval is ``d̄ ± t_q s / sqrt(n)``, as ``scipy.stats.ttest_rel``
    and its ``confidence_interval``.

    On an items frame (``from_items``, ``set_design(items=True)``: models
    scored on the same questions) this is the paired test over items, and
    with clusters its standard error is clustered: ``se="cr1"``,
    ``se = sqrt(C/(C−1) · Σ_c (Σ_{i∈c}(d_i − d̄))²)/n`` on ``C − 1`` degrees
    of freedom (inspect_ai's ``stderr(cluster=)``; Miller 2024, "Adding
    error bars to evals"), the default from 50 clusters on; ``se="cr2"``,
    Bell–McCaffrey's ``sqrt(Σ_c (Σ_{i∈c}(d_i − d̄))² / (1 − n_c/n))/n`` on
    Satterthwaite's degrees of freedom (R's clubSandwich), the default
    below 50 clusters (CR1 over-rejects with few unequal clusters);
    ``attrs["pdcompare"]["se_type"]`` names it. The result adds ``se,
    n_items, n_clusters, design_effect`` (clustered over unclustered
    variance) and ``corr`` (of the two models' item scores). ``by="task"``
    gives a row per pair and task (correction over all rows);
    ``weight="task"`` weighs every task alike (``se = sqrt(Σ_t se_t²)/T`` on
    the sum of the tasks' degrees of freedom).

    Examples
    --------
    >>> import warnings
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()  # 10x10 repeated CV: the splits overlap
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     res = scores.cmp.ttest("rbf", "linear", alternative="greater")
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    `ttest` treats the CV splits as independent, but these splits overlap (...)...
    >>> res[["statistic", "df", "pvalue"]].round(3)
       statistic    df  pvalue
    0      2.611  99.0   0.005

    Compare with scipy:

    >>> from scipy import stats
    >>> r = stats.ttest_rel(scores.loc["rbf"], scores.loc["linear"], alternative="greater")
    >>> round(float(r.statistic), 3), round(float(r.pvalue), 3)
    (2.611, 0.005)

    On a labelled items frame, a judge's scores corrected by human labels
    on some items (PPI++ by default; DESIGN section 31):

    >>> from pdcompare.datasets import load_judged_items
    >>> import pdcompare
    >>> graded = pdcompare.from_items(
    ...     load_judged_items(), item="question", score="judge", human="human")
    >>> ttest(graded, "large", "verbose")[["mean_diff", "lam", "n_labelled"]].round(3)
       mean_diff    lam  n_labelled
    0      0.035  0.648         300
    >>> ttest(graded, "large", "verbose", estimator="judge")["mean_diff"].round(3).tolist()
    [-0.014]
    """
    return _paired_test(
        scores,
        "ttest",
        a,
        b,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        design=design,
        margin=margin,
    )


@comparison("wilcoxon")
def wilcoxon(
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
    """Wilcoxon signed-rank test on the paired differences (``scipy.stats.wilcoxon``).

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name, optional
        The pair, one model against the others, or the best against the
        others (see :func:`corrected_ttest`).
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About the location of model_1 − model_2, as in scipy.
        "better"/"worse": model_1 better/worse than model_2 in the
        direction of the scores (the same as "greater"/"less" when higher
        is better, swapped for losses).
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows (``multipletests`` methods).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        As in :func:`corrected_ttest`.
    **design
        Only ``greater_is_better=`` matters here (which model is best and
        the rank order); the other design keywords are accepted and unused.

    Returns
    -------
    pandas.DataFrame
        ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
        reject``, one row per pair. ``attrs["pdcompare"]["min_attainable_pvalue"]``
        is the smallest p-value any row could reach after the correction
        (every difference of one sign); above ``alpha`` no row can be
        rejected, and the call warns, saying how many data sets (or splits)
        would do (``attrs["pdcompare"]["n_needed_to_reject"]``, None when
        reachable) and which test can reject with these data.

    Notes
    -----
    scipy's defaults: zero differences are dropped (``zero_method="wilcox"``),
    the exact distribution for small samples, the normal approximation
    otherwise (``method="auto"``). The statistic is scipy's: the smaller
    rank sum when two-sided, the rank sum of the positive differences
    otherwise. The test ignores the correlation of CV splits, like
    :func:`ttest`; Demšar (2006) recommends it across data sets. Identical
    models give statistic 0 and p-value 1, with a warning.

    Ties are exact floating-point ties, as in scipy: differences that are
    equal on paper (0.96 − 0.92 and 0.76 − 0.72) can differ in the last
    bit and then rank apart, which changes the statistic a little on
    scores that are ratios of small counts (accuracy or AUC on few samples).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame(
    ...     [[0.91, 0.88, 0.93, 0.90, 0.87, 0.92, 0.89, 0.94],
    ...      [0.85, 0.87, 0.90, 0.83, 0.89, 0.87, 0.80, 0.90]],
    ...     index=["forest", "tree"],
    ... )
    >>> scores.cmp.wilcoxon("forest", "tree")[["mean_diff", "statistic", "pvalue"]].round(3)
       mean_diff  statistic  pvalue
    0      0.041        2.0   0.023

    Compare with scipy:

    >>> from scipy import stats
    >>> res = stats.wilcoxon(scores.loc["forest"], scores.loc["tree"])
    >>> float(res.statistic), round(float(res.pvalue), 4)
    (2.0, 0.0234)
    """
    return _paired_test(
        scores,
        "wilcoxon",
        a,
        b,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        design=design,
    )


@comparison("sign_test")
def sign_test(
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
    """Sign test: binomial test on the number of splits each model wins, ties dropped.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name, optional
        The pair, one model against the others, or the best against the
        others (see :func:`corrected_ttest`).
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        "greater": model_1 wins more often than model_2.
        "better"/"worse": model_1 better/worse than model_2 in the
        direction of the scores (the same as "greater"/"less" when higher
        is better, swapped for losses).
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows (``multipletests`` methods).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        As in :func:`corrected_ttest`.
    **design
        Only ``greater_is_better=`` matters here (which model is best and
        the rank order); the other design keywords are accepted and unused.

    Returns
    -------
    pandas.DataFrame
        ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
        reject``, then ``wins, losses, ties`` (splits where model_1 scores
        higher, lower, the same). ``statistic`` is the number of wins.
        ``attrs["pdcompare"]["min_attainable_pvalue"]`` is the smallest
        p-value any row could reach after the correction (every untied split
        won); above ``alpha`` no row can be rejected, and the call warns
        (``n_needed_to_reject`` as in :func:`wilcoxon`).

    Notes
    -----
    With ``k`` wins out of ``n`` untied splits, the p-value is that of
    ``scipy.stats.binomtest(k, n, 0.5, alternative=...)``; two-sided,
    ``min(1, 2 min(P(X <= k), P(X >= k)))`` for ``X ~ Binomial(n, 1/2)``.
    "Wins" are the splits where model_1 is better: a higher score, or a
    lower one when ``greater_is_better=False`` (losses); the statistic is
    the number of wins. The test ignores the correlation of CV splits (it
    warns on repeated CV). See Demšar (2006), section 3.1.4.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores().cmp.set_design(cv=100)  # as if one 100-fold CV
    >>> res = scores.cmp.sign_test("rbf", "linear")
    >>> res[["statistic", "wins", "losses", "ties"]]
       statistic  wins  losses  ties
    0       34.0    34      14    52
    >>> round(float(res["pvalue"].iloc[0]), 4)
    0.0055

    Compare with scipy:

    >>> from scipy import stats
    >>> round(float(stats.binomtest(34, 34 + 14).pvalue), 4)
    0.0055
    """
    return _paired_test(
        scores,
        "sign_test",
        a,
        b,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        design=design,
    )
