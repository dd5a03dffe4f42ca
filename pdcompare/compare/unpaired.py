"""Unpaired comparisons of runs over random seeds: Welch's t, Mann–Whitney U, stochastic order.

A runs frame (``set_design(paired=False)``, ``from_long(..., paired=False)``)
holds independent runs: run k of one model has nothing to do with run k of
another, so the models are compared as two samples. NaN cells are absent
runs, left out model by model. These tests also run on a scores frame (the
split order is then ignored) and across data sets on a benchmark frame (the
per-data-set means of the two models as two samples).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    check_fraction,
    check_positive_int,
    check_random_state,
    warn,
)
from pdcompare.compare._common import (
    check_test_options,
    raw_alternative,
    scores_meta,
    seed_of,
    warn_overlapping_splits,
    warn_pairs,
)
from pdcompare.compare.calls import comparison
from pdcompare.compare.margin import check_margin, core_margin, with_margin
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import Design
from pdcompare.stats import aso as core
from pdcompare.stats import unpaired

#: How many runs each model of a pair needs, per test (fewer give NaN results).
_MINIMUM_RUNS = {"welch_ttest": 2, "mannwhitney": 1, "aso": 1}


def _too_few(data: Any, i: np.ndarray, j: np.ndarray, test: str) -> np.ndarray:
    """Mask of the pairs where a model has too few runs (NaN results), with one warning."""
    counts = (~np.isnan(data.values)).sum(axis=1)
    short = counts < _MINIMUM_RUNS[test]
    mask = short[i] | short[j]
    if mask.any():
        models = [str(data.names[k]) for k in np.flatnonzero(short)]
        need = _MINIMUM_RUNS[test]
        warn(
            f"`{test}` needs at least {need} run{'s' if need > 1 else ''} of each model; "
            f"model(s) {models} have fewer, so their pairs get NaN results."
        )
    return mask


def _unpaired_test(
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
    """Validate, select the pairs, run Welch's t or Mann–Whitney U, wrap the result."""
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    margin = check_margin(margin, alternative)
    data = scores_data(scores, **design)
    warn_overlapping_splits(data, test)
    _warn_unpaired_on_items(data.design, test)
    asked = alternative
    alternative = raw_alternative(alternative, data.design.greater_is_better)
    i, j, scope = data.pairs(a, b)
    # "omit": a NaN is an absent run, left out model by model (each model is its own sample).
    missing = np.zeros(len(i), dtype=bool)
    if nan_policy != "omit":
        missing = data.nan_pairs(i, j, nan_policy)  # raises for "raise", warns for "propagate"
    short = _too_few(data, i, j, test) | missing
    if test == "welch_ttest":
        out = unpaired.welch_ttest(
            data.values,
            i,
            j,
            alternative=alternative,
            confidence=1.0 - alpha,
            margin=core_margin(margin, asked),
        )
        names = ("mean_diff", "statistic", "df", "pvalue", "ci_low", "ci_high")
        findings = [
            (out["identical"], " have constant, equal scores (statistic 0, p-value 1)"),
            (
                out["constant"],
                " have constant, different scores (infinite statistic, p-value 0 or 1)",
            ),
        ]
    else:
        out = unpaired.mann_whitney(data.values, i, j, alternative=alternative)
        names = ("mean_diff", "statistic", "pvalue")
        findings = [(out["identical"], " have all scores equal (p-value 1)")]
    for name in names[1:]:
        out[name][short] = np.nan
    warn_pairs(
        data.names,
        i,
        j,
        [(mask & ~short, text) for mask, text in findings],
        prefix=f"`{test}` is degenerate where ",
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
        **({} if margin is None else {"margin": margin}),
    )
    columns = with_margin({name: out[name] for name in names}, margin, len(i))
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


@comparison("welch_ttest")
def welch_ttest(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "omit",
    margin: float | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Welch's unequal-variance t-test of mean(model_1) − mean(model_2), runs as two samples.

    The test for runs over random seeds (a runs frame, ``set_design(paired=False)``),
    where the runs of two models are not paired: ``scipy.stats.ttest_ind``
    with ``equal_var=False``. Models may have different numbers of runs;
    NaN cells are absent runs and are left out.

    Parameters
    ----------
    scores : pandas.DataFrame
        A runs frame (one row per model, one column per run), or any scores
        frame (the split order is then ignored: each model's scores are a
        sample of their own), or a benchmark frame (the per-data-set means).
    a, b : model name, optional
        ``a`` and ``b``: that pair (model_1 = a). ``a`` alone: ``a`` against
        every other model, in rank order. Neither: the best model (highest
        mean; lowest when ``greater_is_better=False``) against every other.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About mean(model_1) − mean(model_2), as in scipy. "better"/"worse":
        model_1 better/worse in the direction of the scores.
    alpha : float, default 0.05
        Significance level of ``reject``; the interval has level 1 − alpha.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows (``multipletests`` methods).
    nan_policy : {"omit", "propagate", "raise"}, default "omit"
        "omit": a NaN is an absent run, left out of its model's sample (the
        default: on a runs frame models may have different numbers of runs).
        "propagate": pairs with a missing score get NaN results (with a
        warning), as a failed fit of a CV split would; "raise": an error.
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
        ``greater_is_better=`` (and ``paired=``); the CV design keywords
        (``cv=``, ``test_size=``, ...) only tell overlapping splits apart: on
        a scores frame whose CV splits overlap (repeated CV) the test warns
        once, naming ``corrected_ttest``; a runs frame never warns.

    Returns
    -------
    pandas.DataFrame
        ``model_1, model_2, mean_diff, statistic, df, pvalue, pvalue_adj,
        reject, ci_low, ci_high``, one row per pair, best first when
        comparing against the best or all pairs. ``df`` is Welch–Satterthwaite's.

    Notes
    -----
    ``t = (x̄ − ȳ) / sqrt(s1²/n1 + s2²/n2)`` on
    ``(s1²/n1 + s2²/n2)² / ((s1²/n1)²/(n1 − 1) + (s2²/n2)²/(n2 − 1))``
    degrees of freedom (Welch 1947), ``s²`` with ddof=1; the interval is
    ``x̄ − ȳ ± t_q · sqrt(s1²/n1 + s2²/n2)``, one-sided like scipy's when
    ``alternative`` is. Each model needs 2 runs (fewer give NaN, with a
    warning). Two constant samples give t = 0, p = 1 when equal and t = ±inf
    when not (with a warning), where scipy gives NaN.

    On a scores frame of CV splits, prefer the paired ``corrected_ttest``:
    this test ignores the pairing of the splits and their overlap.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> runs = pd.DataFrame(
    ...     [[0.91, 0.88, 0.93, 0.90, 0.87, 0.92], [0.85, 0.87, 0.90, 0.83, np.nan, np.nan]],
    ...     index=["forest", "tree"],
    ... ).cmp.set_design(paired=False)  # seeds, not shared splits: "tree" has 4 runs
    >>> res = runs.cmp.welch_ttest("forest", "tree")
    >>> res[["mean_diff", "statistic", "df", "pvalue"]].round(4)
       mean_diff  statistic      df  pvalue
    0     0.0392     2.2161  5.3716  0.0738

    Compare with scipy:

    >>> from scipy import stats
    >>> r = stats.ttest_ind(runs.loc["forest"], runs.loc["tree"].dropna(), equal_var=False)
    >>> round(float(r.statistic), 4), round(float(r.df), 4), round(float(r.pvalue), 4)
    (2.2161, 5.3716, 0.0738)
    """
    return _unpaired_test(
        scores,
        "welch_ttest",
        a,
        b,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        design=design,
        margin=margin,
    )


@comparison("mannwhitney")
def mannwhitney(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "omit",
    **design: Any,
) -> pd.DataFrame:
    """Mann–Whitney U test of model_1 against model_2, runs as independent samples.

    ``scipy.stats.mannwhitneyu`` with its default method, for runs over
    random seeds (a runs frame, ``set_design(paired=False)``). Models may
    have different numbers of runs; NaN cells are absent runs and are left out.

    Parameters
    ----------
    scores : pandas.DataFrame
        A runs frame (one row per model, one column per run), or any scores
        frame (the split order is then ignored), or a benchmark frame (the
        per-data-set means).
    a, b : model name, optional
        ``a`` and ``b``: that pair (model_1 = a). ``a`` alone: ``a`` against
        every other model, in rank order. Neither: the best model (highest
        mean; lowest when ``greater_is_better=False``) against every other.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        "greater": model_1's scores tend to be larger than model_2's, as in
        scipy. "better"/"worse": in the direction of the scores.
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows (``multipletests`` methods).
    nan_policy : {"omit", "propagate", "raise"}, default "omit"
        "omit": a NaN is an absent run, left out of its model's sample (the
        default: on a runs frame models may have different numbers of runs).
        "propagate": pairs with a missing score get NaN results (with a
        warning), as a failed fit of a CV split would; "raise": an error.
    **design
        ``greater_is_better=`` (and ``paired=``); the CV design keywords
        (``cv=``, ``test_size=``, ...) only tell overlapping splits apart: on
        a scores frame whose CV splits overlap (repeated CV) the test warns
        once, naming ``corrected_ttest``; a runs frame never warns.

    Returns
    -------
    pandas.DataFrame
        ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
        reject``, one row per pair; ``statistic`` is scipy's: U of model_1.

    Notes
    -----
    ``U1`` is the number of pairs of runs (x of model_1, y of model_2) with
    x > y, ties counting ½. As scipy's ``method="auto"``: the exact null
    distribution when one model has at most 8 runs and no two runs of the
    pair tie, otherwise the normal approximation with tie-corrected variance
    ``n1 n2 / 12 · (n + 1 − Σ(t³ − t)/(n (n − 1)))`` and continuity
    correction ½ (Mann and Whitney 1947). Two-sided p-values are twice the
    tail of ``max(U1, n1 n2 − U1)``, at most 1.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> runs = pd.DataFrame(
    ...     [[0.91, 0.88, 0.93, 0.90, 0.87, 0.92], [0.85, 0.87, 0.90, 0.83, np.nan, np.nan]],
    ...     index=["forest", "tree"],
    ... ).cmp.set_design(paired=False)
    >>> res = runs.cmp.mannwhitney("forest", "tree")
    >>> res[["statistic", "pvalue"]].round(4)
       statistic  pvalue
    0       21.0  0.0683

    Compare with scipy:

    >>> from scipy import stats
    >>> r = stats.mannwhitneyu(runs.loc["forest"], runs.loc["tree"].dropna())
    >>> float(r.statistic), round(float(r.pvalue), 4)
    (21.0, 0.0683)
    """
    return _unpaired_test(
        scores,
        "mannwhitney",
        a,
        b,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        design=design,
    )


@comparison("aso")
def aso(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    tau: float = 0.2,
    confidence_level: float = 0.95,
    n_bootstrap: int = 1000,
    correction: str | None = "bonferroni",
    random_state: Any = None,
    **design: Any,
) -> pd.DataFrame:
    """Almost Stochastic Order: whether model_1's runs almost always beat model_2's.

    The test of Dror, Shlomov and Reichart (2019) for deep-learning runs over
    random seeds, as ``deepsig.aso``: the violation ratio ε_W2 measures how
    much of the distance between the two score distributions is where
    model_1 is worse; 0 means model_1 stochastically dominates model_2
    (better at every quantile), 0.5 no order, 1 the reverse. ``eps_min`` is
    its bootstrap upper bound; model_1 almost stochastically dominates
    model_2 when ``eps_min < tau``.

    Parameters
    ----------
    scores : pandas.DataFrame
        A runs frame (one row per model, one column per run), or any scores
        frame (the split order is then ignored), or a benchmark frame (the
        per-data-set means).
    a, b : model name, optional
        ``a`` and ``b``: that pair (model_1 = a). ``a`` alone: ``a`` against
        every other model, in rank order. Neither: the best model (highest
        mean; lowest when ``greater_is_better=False``) against every other.
    tau : float, default 0.2
        Threshold of ``reject``: ``eps_min < tau``. Ulmer et al. (2022)
        recommend 0.2; 0.5 is the loosest sensible value.
    confidence_level : float, default 0.95
        Level of the upper bound ``eps_min``.
    n_bootstrap : int, default 1000
        Bootstrap resamples of every model.
    correction : {"bonferroni", None}, default "bonferroni"
        With m rows in the result, the bound's level becomes Bonferroni's
        ``1 − (1 − confidence_level) / m``; None keeps ``confidence_level``.
        A single pair is never adjusted.
    random_state : None, int or numpy.random.Generator, default None
        Seed of the resamples (None: fresh numbers on every call, as scipy).
    **design
        ``greater_is_better=`` (and ``paired=``); the CV design keywords
        (``cv=``, ``test_size=``, ...) only tell overlapping splits apart: on
        a scores frame whose CV splits overlap (repeated CV) the test warns
        once, naming ``corrected_ttest``; a runs frame never warns.

    Returns
    -------
    pandas.DataFrame
        ``model_1, model_2, mean_diff, violation_ratio, eps_min, reject``,
        one row per pair, best first when comparing against the best or all
        pairs. ``attrs["pdcompare"]`` holds ``tau``, ``confidence_level``,
        the level used (``confidence_adj``), ``n_bootstrap``, ``correction``
        and the seed.

    Notes
    -----
    With ``d(t) = F⁻¹(t) − G⁻¹(t)`` the difference of model_1's and model_2's
    empirical quantile functions (for losses ``G⁻¹ − F⁻¹``, so that a
    violation is always model_1 being worse),

    ``ε_W2 = ∫_{d(t) < 0} d(t)² dt / ∫_0^1 d(t)² dt``

    (del Barrio, Cuesta-Albertos and Matrán 2018), integrated exactly over
    the merged breakpoints of the two step functions, not on deepsig's grid
    of step ``dt = 0.005``, which leaves out the tails (0.0327 instead of
    0.0377 for N(1, 1) against N(0, 2), whose exact value is
    ``(2(1 − Φ(1)) − φ(1)) / 2``); ``ε(A, B) + ε(B, A) = 1``. Every model is
    resampled ``n_bootstrap`` times at its number of runs (deepsig draws
    from the quantile function, the same thing), and
    ``eps_min = clip(ε + Φ⁻¹(level) · σ̂, 0, 1)`` with ``σ̂`` the standard
    deviation of the bootstrap ratios: deepsig's
    ``ε − sqrt((n + m)/(n m)) σ̂_{n,m} Φ⁻¹(1 − level)`` with its scale
    factors cancelled. A model's resamples serve all its pairs; all pairs and
    resamples are computed at once.

    deepsig's ``multi_aso(use_bonferroni=True)`` raises the level to
    ``level + (1 − level)/m``, not Bonferroni's ``1 − (1 − level)/m``; pass
    ``correction=None, confidence_level=...`` to reproduce it. Pairs of
    models with equal quantile functions get ratio 0.5 (with a warning), as
    in deepsig.

    References
    ----------
    E. del Barrio, J. A. Cuesta-Albertos and C. Matrán, "An optimal
    transportation approach for assessing almost stochastic order", 2018.
    R. Dror, S. Shlomov and R. Reichart, "Deep dominance – how to properly
    compare deep neural models", ACL 2019. D. Ulmer, C. Hardmeier and
    J. Frellsen, "deep-significance: easy and meaningful statistical
    significance testing in the age of neural networks", 2022.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(
    ...     [rng.normal(0.80, 0.02, 8), rng.normal(0.75, 0.02, 8), rng.normal(0.74, 0.04, 8)],
    ...     index=["wide", "deep", "small"],
    ... ).cmp.set_design(paired=False)
    >>> res = runs.cmp.aso(random_state=0)  # the best against the others, Bonferroni over 2
    >>> res[["model_1", "model_2", "violation_ratio", "reject"]]
      model_1 model_2  violation_ratio  reject
    0    wide   small              0.0    True
    1    wide    deep              0.0    True
    """
    tau = check_fraction("tau", tau)
    confidence_level = check_fraction("confidence_level", confidence_level)
    n_bootstrap = check_positive_int("n_bootstrap", n_bootstrap, minimum=2)
    if isinstance(correction, str) and correction.lower() == "none":
        correction = None
    if correction not in (None, "bonferroni"):
        msg = (
            "`correction` of `aso` adjusts the confidence level of the bound: 'bonferroni' or "
            f"None; got {correction!r}."
        )
        raise ValueError(msg)
    rng = check_random_state(random_state)
    data = scores_data(scores, **design)
    warn_overlapping_splits(data, "aso")
    i, j, scope = data.pairs(a, b)
    m = len(i)
    level = confidence_level
    if correction == "bonferroni" and m > 1:
        level = 1.0 - (1.0 - confidence_level) / m
    short = _too_few(data, i, j, "aso")
    out = core.aso_pairs(
        data.values,
        i,
        j,
        confidence=level,
        n_bootstrap=n_bootstrap,
        greater_is_better=data.design.greater_is_better,
        rng=rng,
    )
    warn_pairs(
        data.names,
        i,
        j,
        [(out["identical"], " have equal quantile functions (violation ratio 0.5)")],
        prefix="`aso` is degenerate where ",
    )
    with np.errstate(invalid="ignore"):
        reject = np.asarray(out["eps_min"] < tau, dtype=bool) & ~short
    meta = scores_meta(
        "aso",
        data,
        scope,
        tau=tau,
        confidence_level=confidence_level,
        confidence_adj=level,
        n_bootstrap=n_bootstrap,
        correction=correction,
        random_state=seed_of(random_state),
    )
    columns = {
        "mean_diff": out["mean_diff"],
        "violation_ratio": out["violation_ratio"],
        "eps_min": out["eps_min"],
        "reject": reject,
    }
    return results.pair_result(data.names, i, j, columns, meta)


def _warn_unpaired_on_items(design: Design, test: str) -> None:
    """Warn that ``test`` (Welch's t, Mann–Whitney U) ignores the pairing of items.

    Examples
    --------
    >>> _warn_unpaired_on_items(Design(), "welch_ttest")  # not items: silent
    """
    if not design.items:
        return
    warn(
        f"`{test}` treats each model's item scores as an independent sample, but the items "
        "are paired: every model answered the same questions, and their scores correlate "
        "(0.3 to 0.7 for frontier models), so this test wastes that pairing and ignores any "
        "clusters. Use `ttest` (paired over items, clustered when the frame has clusters)."
    )
