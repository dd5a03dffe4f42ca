"""The paired tests of an items frame: the clustered t (CR1 or CR2), Wilcoxon and the sign test.

The items branches of :func:`pdcompare.ttest`, :func:`pdcompare.wilcoxon` and
:func:`pdcompare.sign_test` (DESIGN sections 21, 31 and 33): the t over items,
clustered, per task or weighted by task, with a margin, or corrected by human
labels on a labelled frame; the rank tests on items or on cluster means.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import OptionError, check_option
from pdcompare.compare._common import (
    check_test_options,
    count_columns,
    scores_meta,
    warn_pairs,
)
from pdcompare.compare.items import (
    ITEMS_CONSTANT_DIFFERENCE,
    ITEMS_IDENTICAL_SCORES,
    WEIGHTS,
    frame_data,
    se_meta,
    sided_pairs,
    standard_error,
)
from pdcompare.compare.judges import judged, judged_pairs, judged_ttest
from pdcompare.compare.margin import check_margin, core_margin, with_margin
from pdcompare.inputs.items import ItemsData
from pdcompare.stats import items as items_core
from pdcompare.stats import paired
from pdcompare.stats._common import t_confidence_interval, t_pvalue


def items_test(frame, test, a, b, alternative, alpha, correction, design):
    """An items frame's ``ttest``, ``wilcoxon`` or ``sign_test``."""
    options = {"alternative": alternative, "alpha": alpha, "correction": correction}
    if test == "ttest":
        return _items_ttest(frame, a, b, **options, **design)
    for keyword in ("by", "weight", "se"):
        if keyword in design:
            msg = f"`{keyword}` applies to `ttest` on an items frame, not to `{test}`."
            raise TypeError(msg)
    return _items_rank_test(frame, test, a, b, **options, **design)


def _task_rows(data: ItemsData, i, j, by, weight, alternative, confidence, se_type="cr1"):
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
            items_core.clustered_paired_ttest(
                data.values[:, keep],
                cluster,
                len(present),
                i,
                j,
                alternative=alternative,
                confidence=confidence,
                clustered=data.clustered,
                se_type=se_type,
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
    whole = items_core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, i, j, clustered=data.clustered,
        se_type=se_type,
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


def _items_ttest(
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
    se: str | None = None,
    **design: Any,
) -> pd.DataFrame:
    """The paired t-test over items, clustered, of every pair asked (:func:`pdcompare.ttest`).

    ``se``: ``"cr2"`` (Bell–McCaffrey, Satterthwaite df; the default below 50
    clusters), ``"cr1"`` (DESIGN 21's; the default from 50 clusters on).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0],
    ...                      [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0]], index=["a", "b"])
    >>> framed = wide.cmp.set_design(items=True, cluster={k: k // 3 for k in range(12)})
    >>> pdcompare.ttest(framed, "a", "b")[["mean_diff", "se", "df", "n_clusters"]].round(6)
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
    estimator, seed = design.pop("estimator", None), design.pop("random_state", 0)
    data = frame_data(frame, design, "ttest")
    judge = judged(frame, data, estimator, "ttest")  # a labelled frame: compare/judges.py
    se_type = standard_error(data, se)
    i, j, scope, asked, alternative = sided_pairs(data, a, b, alternative)
    tasks = extra = None
    if judge is not None:  # "the best" by the corrected means, not the judge's
        if by is not None or weight != "item":
            msg = "A labelled items frame's `ttest` pools all items: it takes no `by=`, `weight=`."
            raise OptionError(msg, keyword="by" if by is not None else "weight")
        i, j, scope = judged_pairs(judge, a, b)
        out, extra = judged_ttest(
            judge, i, j, alternative=alternative, confidence=1.0 - alpha,
            margin=core_margin(margin, asked), random_state=seed,
        )  # fmt: skip
    elif by is None and weight == "item":
        out = items_core.clustered_paired_ttest(
            data.values, data.cluster, data.n_clusters, i, j, alternative=alternative,
            confidence=1.0 - alpha, clustered=data.clustered, margin=core_margin(margin, asked),
            se_type=se_type,
        )  # fmt: skip
    else:
        i, j, out, tasks = _task_rows(
            data, i, j, by, weight, alternative, 1.0 - alpha, se_type
        )
    warn_pairs(
        data.names,
        i,
        j,
        [
            (out["identical"], *ITEMS_IDENTICAL_SCORES),
            (out["constant"], *ITEMS_CONSTANT_DIFFERENCE),
        ],
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
        **se_meta(data, se_type),
        **({} if margin is None else {"margin": margin}),
        **({} if judge is None else judge.meta(extra["effective_n"])),
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
    columns.update(extra or {})
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


def _items_rank_test(
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
    >>> out = pdcompare.sign_test(framed, "a", "b")
    >>> out.attrs["pdcompare"]["unit"], int(out["wins"].iloc[0])
    ('cluster means', 2)
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    design.pop("nan_policy", None)
    data = frame_data(frame, design, test)
    i, j, scope, asked, alternative = sided_pairs(data, a, b, alternative)
    units = data.values
    if data.clustered:
        sums, sizes = items_core.cluster_sums(data.values, data.cluster, data.n_clusters)
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
    warn_pairs(data.names, i, j, [(out["identical"], *ITEMS_IDENTICAL_SCORES)])
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
