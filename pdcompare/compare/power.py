"""What the design could detect: `power` of a pilot, and the attainable significance of rank tests.

A non-significant result is evidence of no difference only when the design
could have found one. :func:`power` says, pair by pair, what these splits
(or data sets) could find; :func:`attainable_pvalue` is called by the
discrete tests (Wilcoxon, sign test) to record the smallest p-value they
could reach after the correction, and to warn when it is above ``alpha``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    OptionError,
    check_fraction,
    check_option,
    check_positive_int,
    warn,
)
from pdcompare.compare._common import (
    check_test_options,
    integer_counts,
    refuse_one_dataset,
    scores_meta,
)
from pdcompare.compare.calls import comparison
from pdcompare.compare.items import (
    SE_WORDS,
    frame_data,
    items_frame,
    se_meta,
    standard_error,
    within_part,
)
from pdcompare.compare.judges import judged, judged_power
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.scores import index_of
from pdcompare.stats import items as items_core
from pdcompare.stats import power as core
from pdcompare.stats._moments import pair_moments
from pdcompare.stats._signed_rank import extreme_pvalue, min_signed_rank_pvalue
from pdcompare.stats.multitest import adjust_pvalues
from pdcompare.stats.power import min_detectable_difference
from pdcompare.stats.unpaired import model_moments
from pdcompare.stats.welch_power import runs_needed, welch_mdd, welch_power

#: What a benchmark frame's ``power`` computes, said in its attrs.
BENCHMARK_METHOD = (
    "paired t-test across data sets on the per-data-set means, a normal-theory "
    "stand-in for the Wilcoxon signed-rank test"
)


#: What a runs frame's ``power`` computes, said in its attrs.
RUNS_METHOD = (
    "Welch's unequal-variance t-test of independent runs: noncentral t with the "
    "Welch–Satterthwaite degrees of freedom"
)


def _check_delta(delta: Any) -> float:
    if (
        isinstance(delta, bool)
        or not isinstance(delta, numbers.Real)
        or not np.isfinite(delta)
        or delta <= 0
    ):
        msg = (
            f"`delta` must be a positive finite number, the true mean difference to detect "
            f"in score units (e.g. 0.01); got {delta!r}."
        )
        raise ValueError(msg)
    return float(delta)


@comparison("power")
def power(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    delta: float,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    target: float = 0.8,
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """What the design could detect: power of the corrected t-test, and the repeats it needs.

    Read the scores as a pilot: for each pair, the standard deviation of its
    split differences says how likely :func:`corrected_ttest` at ``alpha``
    is to find a true mean difference of ``delta``, the smallest difference
    it finds with probability ``target``, how many repeats of the k-fold
    would find ``delta``, and the floor no number of repeats passes.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame (models x splits), a ``cv_results_`` frame, or a
        benchmark frame (then the unit is the data set, see Returns).
    a, b : model name, optional
        ``a`` and ``b``: that pair. ``a`` alone: ``a`` against every other
        model. Neither: the best model against every other.
    delta : float
        The true mean difference to detect (> 0, in score units), in the
        direction of a one-sided ``alternative``.
    alpha : float, default 0.05
        Significance level of the test whose power is computed. For a family
        of ``m`` comparisons pass ``alpha / m`` (Bonferroni).
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        Two-sided, or one-sided (any of the others: one tail, in the
        direction of ``delta``).
    target : float, default 0.8
        The power asked for by ``mdd`` and ``n_repeats``.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A pair with a missing score: NaN results (with a warning), its
        complete splits, or an error.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (required on
        a scores frame unless stored with :func:`set_design`), and
        ``greater_is_better=``.
        On a labelled items frame (``from_items(..., human=)``) also
        ``estimator=``: "ppi++" (the default: the judge's scores corrected
        by the human labels, λ tuned), "ppi" (λ = 1), "labels" (the labelled
        items alone), "judge" (the judge alone, uncorrected) or
        "rogan_gladen" (class-balanced binary labels; DESIGN section 31).

    Returns
    -------
    pandas.DataFrame
        On a scores frame, one row per pair: ``model_1, model_2, sd_diff,
        n_splits, power, mdd, n_repeats, mdd_limit``. On a benchmark frame:
        ``model_1, model_2, sd_diff, n_datasets, power, mdd,
        n_datasets_needed`` for the paired t-test across data sets (a
        normal-theory stand-in for the Wilcoxon signed-rank test, said in
        ``attrs["pdcompare"]["method"]``). On a runs frame
        (``set_design(paired=False)``): ``model_1, model_2, sd_1, sd_2,
        n_runs_1, n_runs_2, power, mdd, n_runs_needed`` for Welch's t-test
        (see Notes). ``attrs["pdcompare"]`` holds
        ``delta``, ``alpha``, ``target``, ``alternative`` and the design.

    Notes
    -----
    With ``sd_diff`` the standard deviation (ddof=1) of a pair's ``n``
    split differences and ``se(n) = sd_diff · sqrt(1/n + n_test/n_train)``:

    * ``power`` = ``P(|T| > t_{1−alpha/2, n−1})`` for ``T`` noncentral t
      with ``n − 1`` degrees of freedom and noncentrality ``delta / se(n)``
      (one-sided: ``P(T > t_{1−alpha, n−1})``);
    * ``mdd``: the difference whose power is ``target`` at this ``n``;
    * ``n_repeats``: the smallest number ``r`` of repeats of the design's
      k-fold (``n = k·r``) whose power for ``delta`` reaches ``target``;
      with a ``test_size``, ``n_train``/``n_test`` or shuffle-split design,
      ``r`` counts multiples of the current number of splits; ``inf`` when
      no ``r`` can (the counts are integers; a column with an ``inf`` keeps
      floats, which alone hold it);
    * ``mdd_limit`` = (z_{1−alpha/2} + z_target) · sd_diff · sqrt(n_test/n_train)
      (one-sided: z_{1−alpha}): the floor that the correction puts under
      every design with this training size. ``n_repeats`` is ``inf`` exactly
      when ``delta <= mdd_limit``; more repeats never detect less.

    On a benchmark frame the data sets are independent: the plain paired t
    (``n_test/n_train = 0``) on the per-data-set means, and
    ``n_datasets_needed`` the smallest number of data sets whose power for
    ``delta`` reaches ``target``. The Wilcoxon test has about 95 % of the
    t-test's efficiency on normal data, so its needs are a little larger.

    On a runs frame the runs are independent samples of each model (no CV
    design: ``cv=``, ``test_size=``, ``n_train=`` and ``n_test=`` are
    refused): the power of Welch's t-test, a noncentral t with the
    Welch–Satterthwaite degrees of freedom ``ν`` and noncentrality
    ``delta / sqrt(s₁²/n₁ + s₂²/n₂)`` (``s`` each model's standard deviation
    over its runs, ddof=1, ``n`` its runs); ``mdd`` the difference of power
    ``target`` with these runs; ``n_runs_needed`` the runs per model (the
    same for both) at which the power for ``delta`` reaches ``target``.

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
    >>> res = scores.cmp.power("rbf", "linear", delta=0.04)
    >>> res[["sd_diff", "n_splits", "power", "mdd", "n_repeats", "mdd_limit"]].round(3)
       sd_diff  n_splits  power    mdd  n_repeats  mdd_limit
    0    0.038       100  0.844  0.038          5      0.036

    These 10 x 10 splits find a difference of 0.04 with probability 0.84
    (5 repeats would do for 0.8); no number of repeats finds 0.036 or less.

    Compare with the noncentral t written out:

    >>> import numpy as np
    >>> from scipy import stats
    >>> sd = float(res["sd_diff"].iloc[0])
    >>> nc = 0.04 / (sd * np.sqrt(1 / 100 + 10 / 90))
    >>> crit = stats.t.ppf(0.975, 99)
    >>> round(float(stats.nct.sf(crit, 99, nc) + stats.nct.cdf(-crit, 99, nc)), 3)
    0.844
    """
    if frame_kind(scores) is FrameKind.ITEMS:
        return _items_power(
            scores,
            a,
            b,
            delta=delta,
            alpha=alpha,
            alternative=alternative,
            target=target,
            **design,
        )

    delta = _check_delta(delta)
    alpha, _ = check_test_options(alternative=alternative, alpha=alpha)
    target = check_fraction("target", target)
    data = scores_data(scores, **design)
    if not data.design.paired:
        return _runs_power(data, a, b, delta, alpha, alternative, target, design)
    refuse_one_dataset(data, "power")
    benchmark = isinstance(data, BenchmarkData)
    ratio = 0.0 if benchmark else require_ratio(data.design, "power", len(data.splits))
    tail = "two-sided" if alternative == "two-sided" else "greater"
    i, j, scope = data.pairs(a, b)
    data.nan_pairs(i, j, nan_policy)
    policy = "omit" if nan_policy == "omit" else "propagate"
    count, _, variance, _, _ = pair_moments(data.values, i, j, policy)
    count = np.where(np.isnan(variance), np.nan, count)
    sd_diff = np.sqrt(variance)
    options = {"test_train_ratio": ratio, "alpha": alpha, "alternative": tail}
    columns: dict[str, Any] = {
        "sd_diff": sd_diff,
        ("n_datasets" if benchmark else "n_splits"): integer_counts(count),
        "power": core.power(delta, sd_diff, count, **options),
        "mdd": core.min_detectable_difference(sd_diff, count, target=target, **options),
    }
    if benchmark:
        columns["n_datasets_needed"] = integer_counts(
            core.repeats_needed(delta, sd_diff, unit=1, target=target, **options)
        )
    else:
        unit = data.design.n_folds or data.values.shape[1]
        columns["n_repeats"] = integer_counts(
            core.repeats_needed(delta, sd_diff, unit=unit, target=target, **options)
        )
        columns["mdd_limit"] = core.mdd_limit(sd_diff, target=target, **options)
    fields: dict[str, Any] = {
        "alternative": tail,
        "asked_alternative": alternative,
        "alpha": alpha,
        "delta": delta,
        "target": target,
        "nan_policy": nan_policy,
    }
    if benchmark:
        fields["method"] = BENCHMARK_METHOD
    else:
        fields["repeat_unit"] = int(unit)
    meta = scores_meta("power", data, scope, **fields)
    return results.pair_result(data.names, i, j, columns, meta)


def _run_moments(values: np.ndarray, i: np.ndarray, j: np.ndarray):
    """Each side's standard deviation (ddof=1) over its runs and its number of runs.

    A missing cell of a runs frame is an absent run; a model with fewer than
    2 runs has no standard deviation (NaN). The moments are Welch's test's own
    (:func:`pdcompare.stats.unpaired.model_moments`).
    """
    counts, _, variance = model_moments(values)
    sds = np.sqrt(variance)
    counts = counts.astype(float)
    return sds[i], sds[j], counts[i], counts[j]


def _runs_power(data, a, b, delta, alpha, alternative, target, design) -> pd.DataFrame:
    """Power of Welch's t-test on a runs frame: independent runs, no CV design."""
    for keyword in ("cv", "test_size", "n_train", "n_test"):
        if keyword in design:
            msg = (
                f"`{keyword}=` describes CV splits shared by the models; this is a runs frame "
                "(`paired=False`: independent runs), whose power is that of Welch's t-test of "
                f"the runs. Leave out `{keyword}=`."
            )
            raise OptionError(msg, keyword=keyword)
    tail = "two-sided" if alternative == "two-sided" else "greater"
    i, j, scope = data.pairs(a, b)
    sd_1, sd_2, n_1, n_2 = _run_moments(data.values, i, j)
    options = {"alpha": alpha, "alternative": tail}
    columns: dict[str, Any] = {
        "sd_1": sd_1,
        "sd_2": sd_2,
        "n_runs_1": n_1.astype(int),
        "n_runs_2": n_2.astype(int),
        "power": welch_power(delta, sd_1, sd_2, n_1, n_2, **options),
        "mdd": welch_mdd(sd_1, sd_2, n_1, n_2, target=target, **options),
        "n_runs_needed": integer_counts(
            np.ceil(runs_needed(delta, sd_1, sd_2, target=target, **options))
        ),
    }
    fields: dict[str, Any] = {
        "alternative": tail,
        "asked_alternative": alternative,
        "alpha": alpha,
        "delta": delta,
        "target": target,
        "method": RUNS_METHOD,
    }
    meta = scores_meta("power", data, scope, **fields)
    return results.pair_result(data.names, i, j, columns, meta)


def attainable_pvalue(
    data: Any,
    test: str,
    min_pvalue: np.ndarray,
    identical: np.ndarray,
    *,
    scope: str,
    correction: str | None,
    alpha: float,
    alternative: str,
) -> dict[str, Any]:
    """The smallest p-value a discrete test can reach after the correction; warn above alpha.

    ``min_pvalue`` holds each row's smallest attainable p-value (every sign
    alike). The correction is applied to that vector as to the real
    p-values: every correction here is monotone in each p-value, so the
    smallest adjusted value of the vector is the smallest any row can
    reach. When it exceeds ``alpha`` no row can be rejected: one warning
    says how many data sets (or splits) would make a rejection possible and
    which test can reject with these data (pairs of identical models, which
    have their own warning, are not counted for it).

    Returns the fields of ``attrs["pdcompare"]``: ``min_attainable_pvalue``
    (NaN when no row has a p-value) and ``n_needed_to_reject``, the smallest
    number of data sets (or splits) without ties at which the same family
    could reach ``alpha``; None when it can already (or no row counts).
    """
    fields: dict[str, Any] = {"min_attainable_pvalue": float("nan"), "n_needed_to_reject": None}
    if correction == "shaffer" and scope != "all_pairs":
        return fields  # refused by the result frame, with its own message
    n_models = len(data.names) if correction == "shaffer" else None
    kept = ~np.isnan(min_pvalue)
    present = min_pvalue[kept]
    if present.size == 0:
        return fields
    adjusted = adjust_pvalues(present, correction, alpha=alpha, n_models=n_models)
    least = float(np.min(adjusted))
    fields["min_attainable_pvalue"] = least
    differing = ~identical[kept]
    if least <= alpha or not differing.any():
        return fields
    smallest = min_signed_rank_pvalue if test == "wilcoxon" else extreme_pvalue
    n_now = data.values.shape[1]
    needed = None
    for n in range(n_now, n_now + 500):
        family = np.full(present.size, float(smallest(n, alternative)))
        adjusted = adjust_pvalues(family, correction, alpha=alpha, n_models=n_models)
        if adjusted.min() <= alpha:
            needed = n
            break
    benchmark = isinstance(data, BenchmarkData)
    unit = "data sets" if benchmark else "splits"
    rows = f"{present.size} pairs" if present.size > 1 else "this pair"
    # The same warning in the words of a call and of the command line (--test, --correction).
    texts = {}
    for cli in (False, True):
        name = f"--test {test}" if cli else f"`{test}`"
        other = "--test corrected_ttest" if cli else "`corrected_ttest`"
        text = (
            f"{name} cannot reject {'any of ' if present.size > 1 else ''}{rows} at alpha "
            f"{alpha:g}: with {n_now} {unit} its smallest p-value is {float(present.min()):.2g}"
        )
        if correction is not None and present.size > 1:
            chosen = f"--correction {correction}" if cli else f"`correction={correction!r}`"
            text += f", {least:.2g} after {chosen} over {present.size} pairs"
        if needed is not None and needed <= n_now:
            text += (
                f": the {unit} where both models score the same leave too few, and a "
                f"rejection needs at least {needed} {unit} with different scores"
            )
        elif needed is not None:
            text += f". A rejection needs at least {needed} {unit} with different scores"
        if not benchmark:
            text += f"; on these splits use {other}, whose p-values are not discrete"
        elif scope != "pair" and cli:
            text += "; with these data sets compare mean ranks with --test nemenyi or "
            text += "--test conover"
        elif scope != "pair":
            text += (
                "; with these data sets compare mean ranks with `pairwise(test='nemenyi')` or "
                "`pairwise(test='conover')`"
            )
            if scope == "all_pairs":
                text += f", or one model against the others with `{test}(a=...)`"
        texts[cli] = text + "."
    warn(texts[False], keyword="test", cli_message=texts[True])
    fields["n_needed_to_reject"] = needed
    return fields


def detectable_difference(
    frame: pd.DataFrame, result: pd.DataFrame, *, target: float = 0.8, **design: Any
) -> np.ndarray:
    """What the design could detect for each row of a family's result, at Bonferroni ``alpha/m``.

    For the sentence "these splits could detect differences of about X or
    more with power 0.8" under a non-significant comparison: ``result`` is
    the family's result frame (any test with ``model_1``, ``model_2`` and
    ``alpha`` in its attrs, computed on ``frame``); ``m`` is its number of
    rows with a p-value (all rows when it has none). Each row's value is
    :func:`~pdcompare.stats.power.min_detectable_difference` of its pair's
    ``sd_diff`` and number of splits, at level ``alpha / m``, two-sided or
    one-sided as the result was, with the corrected t-test's
    ``n_test/n_train`` on a scores frame (from ``design`` or the frame's
    stored design; a ValueError names the keyword when unknown) and the
    paired t across data sets on a benchmark frame: the numbers of
    :func:`power`'s ``mdd`` column at ``alpha=alpha/m``.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()
    >>> family = scores.cmp.corrected_ttest()  # the best against the 3 others
    >>> detectable_difference(scores, family).round(3).tolist()
    [0.044, 0.07, 0.183]
    >>> scores.cmp.power(delta=0.01, alpha=0.05 / 3)["mdd"].round(3).tolist()
    [0.044, 0.07, 0.183]
    """
    if frame_kind(frame) is FrameKind.ITEMS:
        return _items_detectable_difference(frame, result, target=target)

    meta = result.attrs.get("pdcompare", {})
    target = check_fraction("target", target)
    data = scores_data(frame, **design)
    benchmark = isinstance(data, BenchmarkData)
    runs = not data.design.paired
    ratio = 0.0 if benchmark or runs else require_ratio(data.design, "power", len(data.splits))
    first = _positions(data.names, results.column_values(result, "model_1"))
    second = _positions(data.names, results.column_values(result, "model_2"))
    missing = np.flatnonzero((first < 0) | (second < 0))
    if missing.size:
        row = result.iloc[missing[0]]
        bad = row["model_1"] if first[missing[0]] < 0 else row["model_2"]
        index_of(data.names, bad, "result")  # raises, suggesting close names
    if "pvalue" in result.columns.tolist():  # a list: `in` on a fresh Index hashes it first
        pvalues = np.asarray(results.column_values(result, "pvalue"), dtype=float)
        m = int(np.count_nonzero(~np.isnan(pvalues)))
    else:
        m = len(result)
    alpha = float(meta.get("alpha", 0.05)) / max(m, 1)
    tail = "two-sided" if meta.get("alternative", "two-sided") == "two-sided" else "greater"
    if runs:  # independent runs: Welch's t-test, the numbers of `power`'s mdd on a runs frame
        sd_1, sd_2, n_1, n_2 = _run_moments(data.values, first, second)
        found = welch_mdd(sd_1, sd_2, n_1, n_2, alpha=alpha, alternative=tail, target=target)
        return np.asarray(found, dtype=float).reshape(-1)
    policy = "omit" if meta.get("nan_policy") == "omit" else "propagate"
    count, _, variance, _, _ = pair_moments(data.values, first, second, policy)
    count = np.where(np.isnan(variance), np.nan, count)
    return np.asarray(
        min_detectable_difference(
            np.sqrt(variance),
            count,
            test_train_ratio=ratio,
            alpha=alpha,
            alternative=tail,
            target=target,
        ),
        dtype=float,
    ).reshape(-1)


def _positions(names: pd.Index, labels: np.ndarray) -> np.ndarray:
    """Positions of ``labels`` in ``names`` (-1 where absent), as ``names.get_indexer``.

    By a dict of the few names: pandas' ``get_indexer`` hashes an Arrow-backed
    index anew on each call, which cost a third of the detectable difference.

    Examples
    --------
    >>> _positions(pd.Index(["a", "b", "c"]), np.array(["c", "a", "x"], dtype=object)).tolist()
    [2, 0, -1]
    """
    where = {name: k for k, name in enumerate(names.tolist())}
    if len(where) < len(names):  # repeated names: pandas' own rules
        return names.get_indexer(labels)
    try:
        found = np.fromiter((where.get(label, -1) for label in labels), np.intp, len(labels))
    except TypeError:  # an unhashable label
        found = None
    if found is None or (found < 0).any():  # absent, or a missing name: pandas' own rules
        return names.get_indexer(labels)
    return found


def _items_power(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    delta: float,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    target: float = 0.8,
    n_samples: int | None = None,
    se: str | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Power of the clustered paired t over items, and the items and clusters it would need.

    ``se``: ``"cr2"`` (Satterthwaite df; the default below 50 clusters) or
    ``"cr1"`` (``C − 1`` df), as :func:`pdcompare.ttest` on items; the
    projection to more clusters counts ``C′ − 1`` degrees of freedom.

    Columns ``model_1, model_2, sd_diff, n_items, n_clusters, design_effect,
    power, mdd, n_items_needed, n_clusters_needed``. ``n_samples=K′``
    rescales the within-item part of the variance by ``K/K′``: with ``W``
    the samples' share of ``var(d_i)`` (each model's within-item variance
    over its samples per item, averaged over items, summed over the two
    models), ``se′² = max(se² − W/n, 0) + W·K/(K′ n)``.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> wide = pd.DataFrame(rng.integers(0, 2, (2, 200)), index=["a", "b"])
    >>> out = power(wide.cmp.set_design(items=True), "a", "b", delta=0.1)
    >>> int(out["n_items"].iloc[0]), bool(0 < out["power"].iloc[0] < 1)
    (200, True)
    """
    if isinstance(delta, bool) or not isinstance(delta, int | float | np.floating):
        msg = f"`delta` must be a number (a true difference in score units); got {delta!r}."
        raise TypeError(msg)
    check_option("alternative", alternative, ("two-sided", "greater", "less", "better", "worse"))
    alpha = check_fraction("alpha", alpha)
    target = check_fraction("target", target)
    design.pop("nan_policy", None)
    estimator = design.pop("estimator", None)
    data = frame_data(frame, design, "power")
    judge = judged(frame, data, estimator, "power")  # a labelled frame: compare/judges.py
    se_type = standard_error(data, se)
    i, j, scope = data.pairs(a, b)
    out = items_core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, i, j, clustered=data.clustered,
        se_type=se_type,
    )
    se = out["se"]
    sd_diff = out["sd_diff"]
    extra: dict[str, Any] = {}
    if judge is not None:
        tail = "two-sided" if alternative == "two-sided" else "greater"
        se, extra = judged_power(judge, i, j, delta, alpha=alpha, tail=tail, target=target)
    if n_samples is not None and judge is not None:
        msg = "`n_samples` rescales the judge's samples; on a labelled frame leave it out."
        raise OptionError(msg, keyword="n_samples")
    if n_samples is not None:
        n_samples = check_positive_int("n_samples", n_samples)
        if data.attempts is not None:  # pass@k, pass^k (DESIGN section 33)
            msg = (
                "`n_samples`: this frame holds a pass@k or pass^k estimate per item, not a "
                "mean of samples, so more attempts do not shrink it by a known factor; "
                "compare frames built with more attempts, or leave out `n_samples`."
            )
            raise OptionError(msg, keyword="n_samples")
        if data.samples is None:
            msg = (
                "`n_samples`: this frame has one sample per item, so it cannot tell how much "
                "of the variance more samples would remove; build it with "
                "`from_items(..., sample=...)` from several samples per item."
            )
            raise OptionError(msg, keyword="n_samples")
        # var(d_i) = between + within/K: the between part kept (never below 0, which a
        # noisy estimate can reach), the within part rescaled by K/K'.
        k = float(data.samples.mean())
        within = within_part(data, i, j)
        n = data.n_items
        scale = k / n_samples
        se = np.sqrt(np.maximum(se**2 - within / n, 0.0) + within * scale / n)
        sd_diff = np.sqrt(np.maximum(sd_diff**2 - within, 0.0) + within * scale)
    tail = "two-sided" if alternative == "two-sided" else "greater"
    found = items_core.items_power(
        delta, se, data.n_items, data.n_clusters, alpha=alpha, alternative=tail, target=target,
        df=out["df"],
    )
    meta = scores_meta(
        "power",
        data,
        scope,
        delta=float(delta),
        alpha=alpha,
        alternative=alternative,
        target=target,
        n_samples=n_samples,
        **({} if judge is None else judge.meta(extra["effective_n"])),
        **se_meta(data, se_type),
    )
    columns = {
        "sd_diff": sd_diff,
        "n_items": np.full(len(i), data.n_items),
        "n_clusters": np.full(len(i), data.n_clusters),
        "design_effect": out["design_effect"],
        "power": found["power"],
        "mdd": found["mdd"],
        "n_items_needed": integer_counts(np.ceil(found["n_items_needed"])),
        "n_clusters_needed": integer_counts(np.ceil(found["n_clusters_needed"])),
        **extra,
    }
    if judge is not None:  # more items judged alone do not shrink se: labels do
        missing = integer_counts(np.full(len(i), np.nan))
        columns["n_items_needed"] = columns["n_clusters_needed"] = missing
        columns["n_labels_needed"] = integer_counts(np.ceil(columns["n_labels_needed"]))
    return results.pair_result(data.names, i, j, columns, meta)


def _items_detectable_difference(
    frame: pd.DataFrame, result: pd.DataFrame, *, target: float = 0.8
) -> np.ndarray:
    """What these items could detect for each row of a family's result, at ``alpha/m``.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> framed = pd.DataFrame(rng.integers(0, 2, (3, 200)), index=list("abc")).cmp.set_design(
    ...     items=True)
    >>> family = pdcompare.ttest(framed)
    >>> detectable_difference(framed, family).shape
    (2,)
    """
    meta = result.attrs.get("pdcompare", {})
    target = check_fraction("target", target)
    data = items_frame(frame)
    first = data.names.get_indexer(results.column_values(result, "model_1"))
    second = data.names.get_indexer(results.column_values(result, "model_2"))
    # The family's own standard error (its ``se_type``), else this frame's default.
    se_type = {words: key for key, words in SE_WORDS.items()}.get(meta.get("se_type"))
    se_type = standard_error(data, None) if se_type is None else se_type
    out = items_core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, first, second, clustered=data.clustered,
        se_type=se_type,
    )
    n_items, n_clusters = data.n_items, data.n_clusters
    if meta.get("estimator") is not None and "se" in result.columns:  # a judge's, corrected
        out = {"se": results.column_values(result, "se").astype(float)}
        n_clusters = float(results.column_values(result, "df")[0]) + 1.0
        n_items = n_clusters
    m = max(len(result), 1)
    alpha = float(meta.get("alpha", 0.05)) / m
    tail = "two-sided" if meta.get("alternative", "two-sided") == "two-sided" else "greater"
    found = items_core.items_power(
        0.0, out["se"], n_items, n_clusters, alpha=alpha, alternative=tail,
        target=target, df=out.get("df"),
    )
    return np.asarray(found["mdd"], dtype=float)
