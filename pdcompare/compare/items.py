"""Comparisons on an items frame: models scored on the same questions (DESIGN section 21).

The public comparisons (``ttest``, ``mcnemar``, ``permutation_test``,
``bootstrap_diff``, ``wilcoxon``, ``sign_test``, ``power``, ``equivalence``,
``summary``) hand an items frame to the functions here; each validates its
keywords, reads the frame once (:func:`~pdcompare.inputs.items.items_data`),
selects the pairs, calls the clustered core (:mod:`pdcompare.stats.items`)
for every pair at once and returns the result frame, whose metadata names the
unit (items, clusters, samples).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    OptionError,
    check_fraction,
    check_option,
    check_positive_int,
    check_random_state,
    check_rope,
)
from pdcompare.compare._common import (
    check_test_options,
    count_columns,
    raw_alternative,
    scores_meta,
    seed_of,
    warn_pairs,
)
from pdcompare.compare.margin import check_margin, core_margin, with_margin
from pdcompare.inputs.items import ItemsData, items_data
from pdcompare.stats import items as core
from pdcompare.stats import paired
from pdcompare.stats._common import t_confidence_interval, t_pvalue
from pdcompare.stats.bootstrap import INTERVAL_METHODS, BootstrapDistribution
from pdcompare.stats.equivalence import _tost
from pdcompare.stats.permutation import sign_flip_test
from pdcompare.stats.summary import min_rank

#: What the tests of items say of pairs with identical scores, and of a constant difference.
IDENTICAL_SCORES = (
    " have identical scores on every item, so they do not differ (p-value 1)",
    "`df[df.duplicated(keep=False)]` lists the models",
)
CONSTANT_DIFFERENCE = (
    " have a score difference that is the same on every item (a point mass: p-values of 0 or 1)",
    "`df.sub(df.loc[a]).nunique(axis=1) == 1` lists those of model `a`",
)

#: ``weight`` of a t-test on a frame with tasks: every item alike, or every task alike.
WEIGHTS = ("item", "task")


def _data(frame: pd.DataFrame, greater_is_better: bool | None = None) -> ItemsData:
    data = items_data(frame)
    if greater_is_better is not None:
        data = replace(
            data, design=replace(data.design, greater_is_better=bool(greater_is_better))
        )
    return data


def _design_keywords(design: dict[str, Any], test: str) -> bool | None:
    """No CV design on items: ``cv=`` and friends are refused; ``greater_is_better`` kept."""
    # The truth column and the missing-value policy of other frames mean nothing here:
    # an items frame has no truth column and no missing items.
    rest = {key: value for key, value in design.items() if key not in ("y", "nan_policy")}
    greater_is_better = rest.pop("greater_is_better", None)
    given = [key for key, value in rest.items() if value is not None]
    if given:
        msg = (
            f"`{test}` on an items frame: `{given[0]}` describes cross-validation splits, but "
            "the columns of this frame are items (questions), which share no training data. "
            "Leave it out."
        )
        raise OptionError(msg, keyword=given[0])
    return greater_is_better


def frame_data(frame: pd.DataFrame, design: dict[str, Any], test: str) -> ItemsData:
    """The items frame's arrays for ``test``, its design keywords checked (no CV design)."""
    return _data(frame, _design_keywords(design, test))


def _prediction_keywords(options: dict[str, Any], test: str, statistic: str) -> dict[str, Any]:
    """A predictions-frame test's keywords on items: ``score`` is refused but for accuracy.

    ``statistic`` says what the test resamples instead ("the mean item score").
    """
    score = options.pop("score", "accuracy")
    if score not in ("accuracy", None):
        msg = f"`score={score!r}`: on an items frame {statistic}; leave `score` out."
        raise OptionError(msg, keyword="score")
    return options


def _sided_pairs(data: ItemsData, a: Any, b: Any, alternative: str):
    """The pairs asked, their scope, the alternative asked and the one in score units."""
    i, j, scope = data.pairs(a, b)
    return i, j, scope, alternative, raw_alternative(alternative, data.design.greater_is_better)


def summary(frame: pd.DataFrame, ci: float = 0.95, **design: Any) -> pd.DataFrame:
    """Per model on an items frame: mean, clustered standard error, interval, counts, rank.

    See :func:`pdcompare.summary`; the columns are ``mean, se, ci_low,
    ci_high, n_items, n_clusters, rank`` and, with several samples per item,
    ``samples_per_item`` and ``within_item_share``.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([list(range(20))], index=["m"], dtype=float)
    >>> framed = wide.cmp.set_design(items=True, cluster={k: k % 4 for k in range(20)})
    >>> round(float(summary(framed)["se"].iloc[0]), 7)  # inspect_ai's clustered stderr
    0.6454972
    """
    ci = check_fraction("ci", ci)
    data = frame_data(frame, design, "summary")
    values = data.values
    means = values.mean(axis=1)
    se = core.clustered_se(values, data.cluster, data.n_clusters)
    df = np.full(len(means), data.n_clusters - 1.0)
    low, high = t_confidence_interval(means, se, df, ci, "two-sided")
    key = -means if data.design.greater_is_better else means
    table: dict[str, Any] = {
        "mean": means,
        "se": se,
        "ci_low": low,
        "ci_high": high,
        "n_items": np.full(len(means), data.n_items),
        "n_clusters": np.full(len(means), data.n_clusters),
        "rank": min_rank(key),
    }
    if data.samples is not None:
        table["samples_per_item"] = data.samples.mean(axis=1)
        table["within_item_share"] = core.within_item_share(values, data.within_var, data.samples)
    meta = results.result_meta(
        "summary",
        ci=ci,
        interval="clustered t" if data.clustered else "t",
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=data.ranked_names,
        **data.meta(),
    )
    return results.model_result(data.names, table, meta).iloc[data.order]


def _task_rows(data: ItemsData, i, j, by, weight, alternative, confidence):
    """``by="task"``: one row per pair and task; ``weight="task"``: the mean of task means."""
    if data.task is None:
        msg = (
            "`by='task'` and `weight='task'` need tasks: build the frame with "
            "`from_items(..., task=...)` or `set_design(items=True, task=...)`."
        )
        raise ValueError(msg)
    n_tasks = len(data.tasks)
    parts = []
    for t in range(n_tasks):  # one core call per task (tasks are few), all pairs in each
        keep = data.task == t
        present, cluster = np.unique(data.cluster[keep], return_inverse=True)
        if keep.sum() < 2 or len(present) < 2:
            msg = (
                f"Task {data.tasks[t]!r} has {int(keep.sum())} items in {len(present)} "
                "clusters: a t-test within a task needs at least 2 of each."
            )
            raise ValueError(msg)
        parts.append(
            core.clustered_paired_ttest(
                data.values[:, keep],
                cluster,
                len(present),
                i,
                j,
                alternative=alternative,
                confidence=confidence,
                clustered=data.clustered,
            )
        )
    if by == "task":
        out = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
        tasks = np.repeat(np.arange(n_tasks), len(i))
        return np.tile(i, n_tasks), np.tile(j, n_tasks), out, tasks
    mean = np.mean([p["mean_diff"] for p in parts], axis=0)
    se = np.sqrt(np.sum([p["se"] ** 2 for p in parts], axis=0)) / n_tasks
    df = np.sum([p["df"] for p in parts], axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        statistic = np.where(se == 0, np.where(mean == 0, 0.0, np.sign(mean) * np.inf), mean / se)
    low, high = t_confidence_interval(mean, se, df, confidence, alternative)
    whole = core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, i, j, clustered=data.clustered
    )
    out = {
        "mean_diff": mean,
        "statistic": statistic,
        "df": df,
        "pvalue": t_pvalue(statistic, df, alternative),
        "ci_low": low,
        "ci_high": high,
        "se": se,
        "design_effect": whole["design_effect"],
        "corr": whole["corr"],
        "identical": whole["identical"],
        "constant": whole["constant"],
    }
    return i, j, out, None


def ttest(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    by: str | None = None,
    weight: str = "item",
    margin: float | None = None,
    **design: Any,
) -> pd.DataFrame:
    """The paired t-test over items, CR1-clustered, of every pair asked (:func:`pdcompare.ttest`).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0],
    ...                      [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0]], index=["a", "b"])
    >>> framed = wide.cmp.set_design(items=True, cluster={k: k // 3 for k in range(12)})
    >>> ttest(framed, "a", "b")[["mean_diff", "se", "df", "n_clusters"]].round(6)
       mean_diff    se   df  n_clusters
    0   0.416667  0.25  3.0           4
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    if by is not None:
        check_option("by", by, ("task",))
    check_option("weight", weight, WEIGHTS)
    margin = check_margin(margin, alternative)
    if margin is not None and (by is not None or weight != "item"):
        msg = "`margin` gates the pooled test over items: it takes no `by=` and no `weight=`."
        raise OptionError(msg, keyword="margin")
    data = frame_data(frame, design, "ttest")
    i, j, scope, asked, alternative = _sided_pairs(data, a, b, alternative)
    tasks = None
    if by is None and weight == "item":
        out = core.clustered_paired_ttest(
            data.values,
            data.cluster,
            data.n_clusters,
            i,
            j,
            alternative=alternative,
            confidence=1.0 - alpha,
            clustered=data.clustered,
            margin=core_margin(margin, asked),
        )
    else:
        i, j, out, tasks = _task_rows(data, i, j, by, weight, alternative, 1.0 - alpha)
    warn_pairs(
        data.names,
        i,
        j,
        [(out["identical"], *IDENTICAL_SCORES), (out["constant"], *CONSTANT_DIFFERENCE)],
    )
    meta = scores_meta(
        "ttest",
        data,
        scope,
        alternative=alternative,
        asked_alternative=asked,
        alpha=alpha,
        correction=correction,
        weight=weight,
        by=by,
        **({} if margin is None else {"margin": margin}),
    )
    columns: dict[str, Any] = {}
    if tasks is not None:
        columns["task"] = np.asarray(data.tasks, dtype=object)[tasks]
    for name in ("mean_diff", "statistic", "df", "pvalue", "ci_low", "ci_high", "se"):
        columns[name] = out[name]
    columns["n_items"] = np.full(len(i), data.n_items)
    columns["n_clusters"] = np.full(len(i), data.n_clusters)
    columns["design_effect"] = out["design_effect"]
    columns["corr"] = out["corr"]
    columns = with_margin(columns, margin, len(i))
    if tasks is not None:
        counts = np.bincount(data.task, minlength=len(data.tasks))
        columns["n_items"] = counts[tasks]
        columns["n_clusters"] = np.array(
            [np.unique(data.cluster[data.task == t]).size for t in range(len(data.tasks))]
        )[tasks]
    result = results.pair_result(
        data.names, i, j, columns, meta, correction=correction, alpha=alpha
    )
    if tasks is not None:  # ``task`` right after model_2
        order = ["model_1", "model_2", "task"] + [
            c for c in result.columns if c not in ("model_1", "model_2", "task")
        ]
        result = result[order]
    return result


def _binary(data: ItemsData, test: str) -> np.ndarray:
    values = data.values
    graded = (values != 0.0) & (values != 1.0)
    problem = None
    if graded.any():
        row, col = np.argwhere(graded)[0]
        problem = (
            f"model {data.names[row]!r} scores item {data.splits[col]!r} "
            f"{values[row, col]:g} (graded scores, or means of several samples)"
        )
    elif data.clustered:
        problem = f"the items come in {data.n_clusters} clusters"
    elif data.samples is not None:
        problem = "the items have several samples each"
    if problem is not None:
        msg = (
            f"`{test}` counts items that one model gets right and the other wrong: it needs "
            f"0/1 items, independent and answered once; here {problem}. Use "
            "`permutation_test` (sign flips of whole clusters) or `ttest` (clustered)."
        )
        raise ValueError(msg)
    return values.astype(np.int8)


def mcnemar(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alpha: float = 0.05,
    p_adjust: str | None = "holm",
    exact: bool | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Exact McNemar test of every pair asked on binary items (see :func:`pdcompare.mcnemar`).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]], index=["a", "b"])
    >>> mcnemar(wide.cmp.set_design(items=True), "a", "b")[["only_1_correct", "pvalue"]]
       only_1_correct  pvalue
    0             3.0    0.25
    """
    alpha, p_adjust = check_test_options(
        alpha=alpha, correction=p_adjust, correction_keyword="p_adjust"
    )
    if exact is False:
        msg = "`exact=False`: on an items frame McNemar's test is always exact (binomial)."
        raise OptionError(msg, keyword="exact")
    options.pop("correction", None)  # the continuity correction: no use to the exact test
    data = frame_data(frame, options, "mcnemar")
    correct = _binary(data, "mcnemar")
    i, j, scope = data.pairs(a, b)
    only_1, only_2 = core.discordant_counts(correct, i, j)
    statistic, pvalue = core.exact_mcnemar(only_1, only_2)
    meta = scores_meta(
        "mcnemar",
        data,
        scope,
        alpha=alpha,
        correction=p_adjust,
        exact=True,
        alternative="two-sided",
    )
    columns = {
        "only_1_correct": only_1,
        "only_2_correct": only_2,
        "statistic": statistic,
        "pvalue": pvalue,
    }
    return results.pair_result(data.names, i, j, columns, meta, correction=p_adjust, alpha=alpha)


def permutation_test(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    random_state: Any = None,
    **options: Any,
) -> pd.DataFrame:
    """Sign flips of whole clusters (of items without clusters), every pair asked.

    The statistic is the mean item difference; exact when ``2**k <=
    n_resamples``, ``k`` the clusters whose summed difference is non-zero.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]], index=["a", "b"])
    >>> out = permutation_test(wide.cmp.set_design(items=True), "a", "b")
    >>> float(out["mean_diff"].iloc[0]), float(out["pvalue"].iloc[0])  # 2 of 2**3 flips
    (0.3, 0.25)
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    n_resamples = check_positive_int("n_resamples", n_resamples)
    rng = check_random_state(random_state)
    options = _prediction_keywords(
        options, "permutation_test", "the statistic is the mean item score"
    )
    data = frame_data(frame, options, "permutation_test")
    i, j, scope, asked, alternative = _sided_pairs(data, a, b, alternative)
    sums, _ = core.cluster_sums(data.values, data.cluster, data.n_clusters)
    out = {
        "statistic": np.empty(len(i)),
        "pvalue": np.empty(len(i)),
        "exact": np.empty(len(i), bool),
    }
    step = max(1, (1 << 24) // max(data.n_clusters * 8, 1))
    for start in range(0, len(i), step):
        part = slice(start, start + step)
        found = sign_flip_test(
            sums[i[part]] - sums[j[part]],
            n_resamples=n_resamples,
            alternative=alternative,
            random_state=rng,
            n_units=np.full(len(i[part]), float(data.n_items)),
        )
        for key in out:
            out[key][part] = found[key]
    means = data.values.mean(axis=1)
    meta = scores_meta(
        "permutation_test",
        data,
        scope,
        alternative=alternative,
        asked_alternative=asked,
        alpha=alpha,
        correction=correction,
        n_resamples=n_resamples,
        random_state=seed_of(random_state),
        exact=bool(out["exact"].all()),
    )
    columns = {
        "score_1": means[i],
        "score_2": means[j],
        "mean_diff": out["statistic"],
        "pvalue": out["pvalue"],
    }
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


def bootstrap_diff(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    n_resamples: int = 1000,
    ci: float = 0.95,
    method: str = "percentile",
    alpha: float = 0.05,
    correction: str | None = "holm",
    random_state: Any = None,
    **options: Any,
) -> pd.DataFrame:
    """Cluster bootstrap of the mean item difference, every pair asked.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]], index=["a", "b"])
    >>> out = bootstrap_diff(wide.cmp.set_design(items=True), "a", "b", random_state=0)
    >>> float(out["mean_diff"].iloc[0]), bool(out["ci_low"].iloc[0] >= 0)
    (0.3, True)
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    ci = check_fraction("ci", ci)
    check_option("method", method, INTERVAL_METHODS)
    rng = check_random_state(random_state)
    options = _prediction_keywords(
        options, "bootstrap_diff", "the bootstrap resamples the mean item score"
    )
    data = frame_data(frame, options, "bootstrap_diff")
    i, j, scope, asked, alternative = _sided_pairs(data, a, b, alternative)
    replicates = core.cluster_bootstrap(
        data.values, data.cluster, data.n_clusters, n_resamples=n_resamples, random_state=rng
    )
    distribution = BootstrapDistribution(
        estimate=data.values.mean(axis=1),
        replicates=replicates,
        greater_is_better=data.design.greater_is_better,
    )
    columns = distribution.differences(i, j, confidence=ci, alternative=alternative, method=method)
    meta = scores_meta(
        "bootstrap_diff",
        data,
        scope,
        alternative=alternative,
        asked_alternative=asked,
        alpha=alpha,
        correction=correction,
        ci=ci,
        method=method,
        n_resamples=n_resamples,
        random_state=seed_of(random_state),
    )
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


def rank_test(
    frame: pd.DataFrame,
    test: str,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    **design: Any,
) -> pd.DataFrame:
    """``wilcoxon`` or ``sign_test`` on items: on cluster means when the frame has clusters.

    ``mean_diff`` stays the mean item difference; ``attrs["pdcompare"]["unit"]``
    is "cluster means" when the test ran on them.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0],
    ...                      [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0]], index=["a", "b"])
    >>> framed = wide.cmp.set_design(items=True, cluster={k: k // 3 for k in range(12)})
    >>> out = rank_test(framed, "sign_test", "a", "b")
    >>> out.attrs["pdcompare"]["unit"], int(out["wins"].iloc[0])
    ('cluster means', 2)
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    design.pop("nan_policy", None)
    data = frame_data(frame, design, test)
    i, j, scope, asked, alternative = _sided_pairs(data, a, b, alternative)
    units = data.values
    if data.clustered:
        sums, sizes = core.cluster_sums(data.values, data.cluster, data.n_clusters)
        units = sums / sizes
    if test == "wilcoxon":
        out = paired.wilcoxon(units, i, j, alternative=alternative, nan_policy="propagate")
        names = ("statistic", "pvalue")
    else:
        out = paired.sign_test(units, i, j, alternative=alternative, nan_policy="propagate")
        names = ("statistic", "pvalue", "wins", "losses", "ties")
        if not data.design.greater_is_better:
            out = {**out, "wins": out["losses"], "losses": out["wins"]}
            out["statistic"] = out["wins"]
        out = count_columns(out)
    warn_pairs(data.names, i, j, [(out["identical"], *IDENTICAL_SCORES)])
    means = data.values.mean(axis=1)
    meta = scores_meta(
        test,
        data,
        scope,
        alternative=alternative,
        asked_alternative=asked,
        alpha=alpha,
        correction=correction,
    )
    meta["unit"] = "cluster means" if data.clustered else "item"
    columns = {"mean_diff": means[i] - means[j], **{name: out[name] for name in names}}
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


def _within_part(data: ItemsData, i, j) -> np.ndarray:
    """Per pair: the samples' share of ``var(d_i)``, ``s²_a/K_a + s²_b/K_b`` over items."""
    if data.samples is None or data.within_var is None:
        return np.zeros(len(i))
    share = np.where(np.isnan(data.within_var), 0.0, data.within_var) / data.samples
    per_model = share.mean(axis=1)
    return per_model[i] + per_model[j]


def power(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    delta: float,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    target: float = 0.8,
    n_samples: int | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Power of the clustered paired t over items, and the items and clusters it would need.

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
    data = frame_data(frame, design, "power")
    i, j, scope = data.pairs(a, b)
    out = core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, i, j, clustered=data.clustered
    )
    se = out["se"]
    sd_diff = out["sd_diff"]
    if n_samples is not None:
        n_samples = check_positive_int("n_samples", n_samples)
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
        within = _within_part(data, i, j)
        n = data.n_items
        scale = k / n_samples
        se = np.sqrt(np.maximum(se**2 - within / n, 0.0) + within * scale / n)
        sd_diff = np.sqrt(np.maximum(sd_diff**2 - within, 0.0) + within * scale)
    tail = "two-sided" if alternative == "two-sided" else "greater"
    found = core.items_power(
        delta, se, data.n_items, data.n_clusters, alpha=alpha, alternative=tail, target=target
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
    )
    columns = {
        "sd_diff": sd_diff,
        "n_items": np.full(len(i), data.n_items),
        "n_clusters": np.full(len(i), data.n_clusters),
        "design_effect": out["design_effect"],
        "power": found["power"],
        "mdd": found["mdd"],
        "n_items_needed": found["n_items_needed"],
        "n_clusters_needed": found["n_clusters_needed"],
    }
    return results.pair_result(data.names, i, j, columns, meta)


def detectable_difference(frame: pd.DataFrame, result: pd.DataFrame, *, target: float = 0.8):
    """What these items could detect for each row of a family's result, at ``alpha/m``.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> framed = pd.DataFrame(rng.integers(0, 2, (3, 200)), index=list("abc")).cmp.set_design(
    ...     items=True)
    >>> family = ttest(framed)
    >>> detectable_difference(framed, family).shape
    (2,)
    """
    meta = result.attrs.get("pdcompare", {})
    target = check_fraction("target", target)
    data = _data(frame)
    first = data.names.get_indexer(results.column_values(result, "model_1"))
    second = data.names.get_indexer(results.column_values(result, "model_2"))
    out = core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, first, second, clustered=data.clustered
    )
    m = max(len(result), 1)
    alpha = float(meta.get("alpha", 0.05)) / m
    tail = "two-sided" if meta.get("alternative", "two-sided") == "two-sided" else "greater"
    found = core.items_power(
        0.0, out["se"], data.n_items, data.n_clusters, alpha=alpha, alternative=tail, target=target
    )
    return np.asarray(found["mdd"], dtype=float)


def equivalence(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    rope: Any,
    alpha: float = 0.05,
    correction: str | None = "holm",
    **design: Any,
) -> pd.DataFrame:
    """TOST over items with the clustered standard error and ``C − 1`` degrees of freedom.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> x = rng.integers(0, 2, 400)
    >>> framed = pd.DataFrame([x, x], index=["a", "b"]).cmp.set_design(items=True)
    >>> equivalence(framed.iloc[:, :-1], "a", "b", rope=0.05)["mean_diff"].tolist()
    [0.0]
    """
    low, high = check_rope(rope)  # given with a width by ``pdcompare.equivalence``
    if not low < high:
        msg = f"`rope` must have a width for an equivalence test; got {rope!r}."
        raise OptionError(msg, keyword="rope")
    alpha, correction = check_test_options(alpha=alpha, correction=correction)
    design.pop("nan_policy", None)
    data = frame_data(frame, design, "equivalence")
    i, j, scope = data.pairs(a, b)
    out = core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, i, j, clustered=data.clustered
    )
    found = _tost(out["mean_diff"], out["se"], out["df"], low, high, alpha)
    meta = scores_meta(
        "equivalence",
        data,
        scope,
        rope=(low, high),
        method="clustered_t" if data.clustered else "paired_t",
        reject_means="equivalent",
        alpha=alpha,
        correction=correction,
    )
    columns = {
        name: found[name]
        for name in (
            "mean_diff",
            "statistic_low",
            "pvalue_low",
            "statistic_high",
            "pvalue_high",
            "pvalue",
        )
    }
    frame_out = results.pair_result(
        data.names, i, j, columns, meta, correction=correction, alpha=alpha
    )
    return frame_out.assign(ci_low=found["ci_low"], ci_high=found["ci_high"])
