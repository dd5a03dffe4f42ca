"""The scores frame itself: conversion, the CV design and the per-model summary."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import OptionError, check_fraction, check_option, warn
from pdcompare.compare.calls import frame_function
from pdcompare.compare.effect_size import (
    SYMBOLS,
    effect_against_best,
    magnitude_column,
    thresholds,
)
from pdcompare.compare.items import first_graded, frame_data, se_meta, standard_error
from pdcompare.compare.judges import JUDGED_COLUMNS, judged, judged_means
from pdcompare.compare.ranks import benchmark_summary
from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import resolve_design
from pdcompare.inputs.items_set_design import set_items_design
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.scores import scores_frame, validate_scores
from pdcompare.stats import items as items_core
from pdcompare.stats import paired_proportions
from pdcompare.stats._common import t_confidence_interval
from pdcompare.stats.summary import min_rank, summarize

K = FrameKind


@frame_function("scores", (K.SCORES, K.BENCHMARK, K.RUNS, K.TASK_RUNS, K.ITEMS))
def scores(
    frame: pd.DataFrame,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
    iteration: int | None = None,
) -> pd.DataFrame:
    """The scores frame: models as rows, CV splits as columns.

    A ``cv_results_`` frame is converted (``metric`` chooses the metric of a
    multi-metric search; ``names`` names the candidates, as a callable of
    the parameter dict or a list); a scores frame is returned as a copy.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame or a ``cv_results_`` frame.
    metric : str, optional
        Metric of a multi-metric ``cv_results_`` frame.
    names : callable or list of str, optional
        Model names for the candidates of a ``cv_results_`` frame.
    iteration : int, optional
        The iteration of a successive-halving search to compare (default: the
        last with at least two candidates); candidates of different
        iterations are never compared.

    Returns
    -------
    pandas.DataFrame
        A new frame; the caller's frame is unchanged. Converted from a
        ``cv_results_`` frame, its ``attrs["pdcompare"]`` holds each model's
        parameters (``params``: model -> dict) and row (``rows``).

    Examples
    --------
    >>> import pandas as pd
    >>> cv_results = pd.DataFrame({
    ...     "params": [{"C": 1}, {"C": 10}],
    ...     "split0_test_score": [0.8, 0.9], "split1_test_score": [0.7, 0.95],
    ... })
    >>> cv_results.cmp.scores()
    split  split0  split1
    model
    C=1       0.8    0.70
    C=10      0.9    0.95
    """
    converted = scores_frame(frame, metric=metric, names=names, iteration=iteration)
    validate_scores(converted)
    return converted


def set_design(
    scores: pd.DataFrame,
    cv: Any = None,
    *,
    test_size: float | None = None,
    n_train: int | None = None,
    n_test: int | None = None,
    greater_is_better: bool | None = None,
    paired: bool | None = None,
    items: bool = False,
    cluster: Any = None,
    task: Any = None,
    time_ordered: bool | None = None,
    human: Any = None,
    label_design: str = "random",
    strata: Any = None,
) -> pd.DataFrame:
    """Return a copy of the frame with the CV design stored in its ``attrs``.

    Tests that need the test/train size ratio (``corrected_ttest``, ``bayes``,
    ``posterior``, ``summary``'s corrected interval) read it from there, so a
    chain sets it once. Keywords given to a test still take precedence.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    cv : int, scikit-learn splitter or list of (train, test) splits, optional
        The cross-validation the scores come from; an int ``k`` is k-fold.
    test_size : float, optional
        Fraction of the data in each test split, in (0, 1).
    n_train, n_test : int, optional
        Training and test set sizes of each split (together).
    greater_is_better : bool, optional
        False for losses (lower scores are better). Default: keep the stored
        value, True when none is stored.
    paired : bool, optional
        False makes a runs frame: the columns are independent runs (random
        seeds), not CV splits shared by the models, so run k of one model
        has nothing to do with run k of another. Its models may have
        different numbers of runs (NaN cells are absent runs), the paired
        tests refuse it and ``welch_ttest``, ``mannwhitney`` and ``aso``
        compare it. On a benchmark frame with ``(dataset, split)`` columns it
        makes a runs-over-tasks frame (tasks and their runs), for
        ``aggregate``, ``prob_improvement`` and ``performance_profile``.
        Stored as ``attrs["pdcompare"]["design"]["paired"]``.
        Default: keep the stored value, True when none is stored.
    items : bool, default False
        True makes an items frame (DESIGN section 21): the columns are items
        (questions of an evaluation) scored for every model, compared by
        ``ttest`` over items with clustered standard errors.
    cluster, task : mapping or Series, optional
        With ``items=True``: each item's cluster (passage, repository) and
        task; with ``task`` the columns become a ``(task, item)`` MultiIndex.
    human : DataFrame, optional
        With ``items=True``: the frame's values are a judge's scores and
        ``human`` (models x items, NaN where an item is not labelled) the
        people's labels of some items (DESIGN section 31): ``ttest``,
        ``summary`` and friends then take ``estimator=`` ("ppi++" by default).
    label_design : {"random", "stratified", "class_balanced"}, default "random"
        How the labelled items were chosen: a uniform random subset; at
        known rates per stratum (``strata=``, a mapping from item to
        stratum); or balanced between human pass and fail (binary scores,
        read by ``estimator="rogan_gladen"``).
    strata : mapping or Series, optional
        Each item's stratum, with ``label_design="stratified"``.
    time_ordered : bool, optional
        On a predictions frame of forecasts (a truth column ``y``): True says
        the rows are in time order although the index holds no dates (a
        file read back with an integer index), so that ``report()`` reads
        it as forecasts (Diebold–Mariano and the model confidence set with
        a block bootstrap). A date or period index says so already.

    Returns
    -------
    pandas.DataFrame
        A copy of the frame; the caller's frame and its ``attrs`` are unchanged.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame([[0.8, 0.9], [0.7, 0.6]], index=["a", "b"])
    >>> designed = scores.cmp.set_design(cv=10)
    >>> round(designed.attrs["pdcompare"]["design"]["test_train_ratio"], 4)
    0.1111
    >>> scores.attrs
    {}

    Runs over random seeds rather than shared splits:

    >>> runs = scores.cmp.set_design(paired=False)
    >>> runs.attrs["pdcompare"]["design"]["paired"]
    False

    Forecasts read back from a file with an integer index, in time order:

    >>> forecasts = pd.DataFrame({"y": [1.0, 2.0, 3.0], "f": [1.1, 1.9, 3.2]})
    >>> forecasts.cmp.set_design(time_ordered=True).attrs["pdcompare"]["design"]["time_ordered"]
    True
    """
    if items:
        labels = {"human": human, "label_design": label_design, "strata": strata}
        return set_items_design(
            scores, cluster=cluster, task=task, greater_is_better=greater_is_better, **labels
        )
    if cluster is not None or task is not None or human is not None:
        msg = "`cluster`, `task` and `human` describe items: pass them with `items=True`."
        raise ValueError(msg)
    if time_ordered is not None:
        return _time_ordered(scores, time_ordered)
    meta = pdcompare_attrs(scores)
    design = resolve_design(
        meta.get("design"),
        cv=cv,
        test_size=test_size,
        n_train=n_train,
        n_test=n_test,
        greater_is_better=greater_is_better,
        paired=paired,
    )
    if not design.paired and frame_kind(scores).has_datasets and scores.columns.nlevels == 1:
        msg = (
            "`paired=False` makes a runs frame (models x runs of one data set) or, on a "
            "`(dataset, split)` frame, a runs-over-tasks frame; this benchmark frame has one "
            "score per data set and no runs. Pass the runs: columns `(dataset, split)`."
        )
        raise ValueError(msg)
    return with_attrs(scores.copy(), {**meta, "design": design.to_attrs()})


def _time_ordered(frame: pd.DataFrame, time_ordered: Any) -> pd.DataFrame:
    """A copy of a predictions frame of forecasts marked (or unmarked) as in time order."""
    if not isinstance(time_ordered, bool | np.bool_):
        msg = f"`time_ordered` must be True or False; got {time_ordered!r}."
        raise TypeError(msg)
    if frame.columns.nlevels != 1 or "y" not in frame.columns:
        msg = (
            "`time_ordered=True` marks a predictions frame of forecasts (a truth column 'y', "
            "one column of forecasts per model, one row per time point) as in time order; "
            "this frame has no column 'y'."
        )
        raise OptionError(msg, keyword="time_ordered")
    meta = pdcompare_attrs(frame)
    design = {**(meta.get("design") or {}), "time_ordered": bool(time_ordered)}
    return with_attrs(frame.copy(), {**meta, "design": design})


@frame_function("summary", (K.SCORES, K.BENCHMARK, K.RUNS, K.TASK_RUNS, K.ITEMS))
def summary(
    scores: pd.DataFrame,
    ci: float = 0.95,
    *,
    measure: str | None = None,
    interval: str | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Per model: mean, std, number of splits, rank and a confidence interval of the mean.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    ci : float, default 0.95
        Confidence level of the interval.
    measure : str, optional
        Benchmark frames only: the effect size of the best model against
        each row's model, one of the measures of :func:`effect_size`
        (default "cohen_dz").
    interval : {"t", "wilson"} or None, default None
        Items frames only: "wilson" gives Wilson's score interval of each
        model's accuracy on 0/1 items (with clusters, Korn and Graubard's
        clustered Wilson interval); None or "t" the t interval (clustered
        when the frame has clusters). ``ci`` stays the level.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
        ``greater_is_better=``; see :func:`set_design`.
        On a labelled items frame (``from_items(..., human=)``) also
        ``estimator=``: "ppi++" (the default: the judge's scores corrected
        by the human labels, λ tuned), "ppi" (λ = 1), "labels" (the labelled
        items alone), "judge" (the judge alone, uncorrected) or
        "rogan_gladen" (class-balanced binary labels; DESIGN section 31).

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best first, with columns ``mean, std, n_splits,
        rank, ci_low, ci_high`` (``n_runs`` instead of ``n_splits`` on a
        runs frame). ``attrs["pdcompare"]["interval"]`` says which interval
        was computed. On a benchmark frame: ``mean_rank,
        rank, mean, n_datasets, n_best, effect_size, magnitude``, where
        ``effect_size`` is the best model (model_1) against the row's model
        over the data sets every model has (positive when the best is
        better, NaN on the best's own row, as autorank's ``rankdf``) and
        ``magnitude`` its word; ``attrs["pdcompare"]`` then holds
        ``measure``, ``symbol`` and ``thresholds`` as :func:`effect_size`.

    Notes
    -----
    The interval is ``mean ± t_{n-1} · s · sqrt(1/n + n_test/n_train)``, the
    Nadeau–Bengio corrected interval, when the design is known; otherwise
    the plain t interval ``mean ± t_{n-1} · s / sqrt(n)``, which is too
    narrow because CV splits share training data. Missing scores are left
    out model by model (``n_splits`` counts the rest). ``std`` has ddof=1.
    On an items frame (``from_items``) the columns are ``mean, se, ci_low,
    ci_high, n_items, n_clusters, rank``: ``se`` clustered when the
    frame has clusters (``se="cr2"``, Bell–McCaffrey's CR2 with Satterthwaite
    degrees of freedom, the default below 50 clusters; ``se="cr1"``, the
    interval t with ``n_clusters − 1`` degrees of freedom, from 50 on), and
    with several samples per item ``samples_per_item`` and
    ``within_item_share`` (the share of the variance of the item scores
    that more samples per item would remove).
    With ``interval="wilson"`` on 0/1 items the interval is Wilson's score
    interval ``(p + k²/(2n) ± k·sqrt(p(1 − p)/n + k²/(4n²))) / (1 + k²/n)``
    with ``k`` the normal quantile (statsmodels' ``proportion_confint(...,
    method="wilson")``); with clusters ``n`` is the effective size
    ``p(1 − p)/se²`` (``n`` over the design effect, at most ``n``) and ``k``
    Student's t with ``n_clusters − 1`` degrees of freedom (Korn & Graubard
    1998, as inspect_ai's ``ci_wilson(cluster=)``). It stays in [0, 1] and
    keeps its level with few items or accuracies near 0 or 1, where the t
    interval does not (docs/validity_table_binary_intervals.md).
    On a runs frame (``set_design(paired=False)``) the runs are independent,
    so the plain t interval is the right one: ``interval`` is ``"t"``,
    ``unit`` is ``"run"`` and nothing warns.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame([[0.8, 0.9, 0.85], [0.7, 0.6, 0.65]], index=["a", "b"])
    >>> scores.cmp.summary(cv=3).round(3)
           mean   std  n_splits  rank  ci_low  ci_high
    model
    a      0.85  0.05         3     1   0.654    1.046
    b      0.65  0.05         3     2   0.454    0.846

    Compare with the plain interval (``scipy.stats.t.interval``):

    >>> from scipy import stats
    >>> [round(float(x), 3) for x in stats.t.interval(0.95, 2, 0.85, 0.05 / 3 ** 0.5)]
    [0.726, 0.974]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:  # the design is unknown: a warning
    ...     warnings.simplefilter("always")
    ...     plain = scores.cmp.summary()
    >>> plain.loc["a", ["ci_low", "ci_high"]].round(3).tolist()
    [0.726, 0.974]

    Wilson's interval of an accuracy on 20 items, and statsmodels' equal:

    >>> items = pd.DataFrame([[1] * 14 + [0] * 6], index=["m"]).cmp.set_design(items=True)
    >>> items.cmp.summary(interval="wilson")[["mean", "ci_low", "ci_high"]].round(4)
           mean  ci_low  ci_high
    model
    m       0.7   0.481   0.8545
    >>> from statsmodels.stats.proportion import proportion_confint
    >>> [round(float(x), 4) for x in proportion_confint(14, 20, method="wilson")]
    [0.481, 0.8545]
    """
    kind = frame_kind(scores)
    interval = check_option("interval", interval, (None, "t", "wilson"))
    if kind is FrameKind.ITEMS:
        return items_summary(scores, ci, interval=interval, **design)
    if interval == "wilson":
        msg = (
            "`interval='wilson'` is an interval of a proportion: it needs an items frame of "
            "0/1 scores (`from_items` or `set_design(items=True)`); leave `interval` out "
            "for this frame's t interval."
        )
        raise OptionError(msg, keyword="interval")
    frame = summary_table(scores, ci, measure=measure, **design)
    meta = frame.attrs["pdcompare"]  # read only
    if meta.get("interval") == "t" and meta.get("design", {}).get("time_ordered"):
        warn(
            "These scores come from time-ordered splits, which have no Nadeau–Bengio "
            "correction: `ci_low`/`ci_high` are the plain t interval, which treats the "
            "windows as independent. Compare the forecasts with `diebold_mariano` on the "
            "out-of-sample predictions (`cv_predictions`)."
        )
    elif meta.get("interval") == "t" and meta.get("unit") != "run":
        said = (
            "The CV design is unknown, so `ci_low`/`ci_high` are the plain t interval, "
            "which is too narrow: CV splits share training data."
        )
        warn(
            f"{said} Pass `cv=`, `test_size=` or `n_train=` with `n_test=` (or store it "
            "with `set_design`) for the Nadeau–Bengio corrected interval.",
            keyword="cv",
            cli_message=f"{said} Pass --cv or --test-size for the Nadeau–Bengio corrected "
            "interval.",
        )
    return frame


def summary_table(
    scores: pd.DataFrame, ci: float = 0.95, *, measure: str | None = None, **design: Any
) -> pd.DataFrame:
    """``summary`` without its warning, for callers that say the interval's kind themselves."""
    ci = check_fraction("ci", ci)
    data = scores_data(scores, **design)
    if isinstance(data, BenchmarkData):
        return _with_effect_sizes(benchmark_summary(data), data, measure)
    if measure is not None:
        msg = (
            "`measure` applies to the summary of a benchmark frame (the effect size of the "
            "best model against each model across data sets); on a scores frame call "
            f"`effect_size(measure={measure!r})`."
        )
        raise ValueError(msg)
    runs = not data.design.paired
    # Independent runs take the plain t interval; time-ordered splits have no
    # Nadeau–Bengio correction, whatever ratio was given.
    ratio = None if runs or data.design.time_ordered else data.design.test_train_ratio
    table = summarize(
        data.values,
        confidence=ci,
        test_train_ratio=ratio,
        greater_is_better=data.design.greater_is_better,
    )
    if runs:  # independent runs: counted as runs, the plain t interval
        table = {("n_runs" if key == "n_splits" else key): value for key, value in table.items()}
    # Read, not copied: only two scalars of the scores' metadata are wanted.
    recorded = scores.attrs.get("pdcompare")
    recorded = recorded if isinstance(recorded, dict) else {}
    known = {"metric": recorded["metric"]} if recorded.get("metric") is not None else {}
    if recorded.get("bounded"):
        # A mean of accuracies (AUCs, F1s, ...) lies in [0, 1]: so does its interval.
        low, high = np.asarray(table["ci_low"]), np.asarray(table["ci_high"])
        clipped = int(np.count_nonzero((low < 0.0) | (high > 1.0)))
        table = {**table, "ci_low": np.clip(low, 0.0, 1.0), "ci_high": np.clip(high, 0.0, 1.0)}
        known.update(bounds=(0.0, 1.0), n_clipped=clipped)
    # The frame is built best first: no pandas take of the rows (nor copy of the metadata).
    order = data.order
    names = data.names[order]
    meta = results.result_meta(
        "summary",
        ci=ci,
        interval="nadeau-bengio" if ratio is not None else "t",
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=names.tolist(),
        **({"unit": "run"} if runs else {}),
        **known,
    )
    columns = {key: np.asarray(value)[order] for key, value in table.items()}
    frame = pd.DataFrame(columns, index=names.rename("model"), copy=False)
    return with_attrs(frame, meta)


def _with_effect_sizes(
    frame: pd.DataFrame, data: BenchmarkData, measure: str | None
) -> pd.DataFrame:
    """The benchmark summary with ``effect_size`` and ``magnitude`` of the best against each."""
    effect, codes, measure = effect_against_best(data, measure)
    order = data.order
    frame = frame.assign(effect_size=effect[order], magnitude=magnitude_column(codes[order]))
    meta = pdcompare_attrs(frame)
    meta.update(measure=measure, symbol=SYMBOLS[measure], thresholds=thresholds(measure))
    return with_attrs(frame, meta)


def items_summary(
    frame: pd.DataFrame,
    ci: float = 0.95,
    *,
    interval: str | None = None,
    se: str | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Per model on an items frame: mean, clustered standard error, interval, counts, rank.

    See :func:`pdcompare.summary`; the columns are ``mean, se, ci_low,
    ci_high, n_items, n_clusters, rank`` and, with several samples per item,
    ``samples_per_item`` and ``within_item_share``. ``se``: ``"cr2"``
    (Satterthwaite df; the default below 50 clusters) or ``"cr1"``
    (``C − 1`` df), named in ``attrs["pdcompare"]["se_type"]``.

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
    estimator, seed = design.pop("estimator", None), design.pop("random_state", 0)
    data = frame_data(frame, design, "summary")
    judge = judged(frame, data, estimator, "summary")  # a labelled frame: compare/judges.py
    values = data.values
    se_type = standard_error(data, se)
    if judge is None:
        means = values.mean(axis=1)
        se = items_core.clustered_se(values, data.cluster, data.n_clusters, se_type)
        if interval == "wilson":
            low, high = _wilson(data, means, ci)
            name = "clustered wilson" if data.clustered else "wilson"
        else:
            df = items_core.clustered_df(data.cluster, data.n_clusters, se_type)
            low, high = t_confidence_interval(means, se, np.full(len(means), df), ci, "two-sided")
            name = "clustered t" if data.clustered else "t"
        table: dict[str, Any] = {"mean": means, "se": se, "ci_low": low, "ci_high": high}
    else:
        if interval == "wilson":
            msg = (
                "`interval='wilson'` is the interval of a proportion of human-free scores; "
                "on a labelled items frame the corrected means carry their own interval: "
                "leave `interval` out (or pass `estimator='judge'` for the judge alone)."
            )
            raise ValueError(msg)
        table = judged_means(judge, ci, seed)
        means = table["mean"]
        name = "clustered t" if data.clustered else "t"
    key = -means if data.design.greater_is_better else means
    judged_columns = {name: table.pop(name) for name in JUDGED_COLUMNS if name in table}
    table["n_items"] = np.full(len(means), data.n_items)
    table["n_clusters"] = np.full(len(means), data.n_clusters)
    table["rank"] = min_rank(key)
    table.update(judged_columns)
    order = data.order if judge is None else np.argsort(key, kind="stable")
    if data.samples is not None:
        table["samples_per_item"] = data.samples.mean(axis=1)
        table["within_item_share"] = items_core.within_item_share(
            values, data.within_var, data.samples
        )
    meta = results.result_meta(
        "summary",
        ci=ci,
        interval=name,
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=np.asarray(data.names, dtype=object)[order].tolist(),
        **data.meta(),
        **(se_meta(data, se_type) if judge is None else judge.meta(judged_columns["effective_n"])),
    )
    return results.model_result(data.names, table, meta).iloc[order]


def _wilson(data: Any, means: np.ndarray, ci: float):
    """Wilson's interval of each model's accuracy (Korn–Graubard's with clusters), 0/1 only.

    The design effect comes from the CR1 clustered variance (inspect_ai's), whatever
    standard error the summary shows.
    """
    values = data.values
    graded = first_graded(data)
    if graded is not None:
        msg = (
            f"`interval='wilson'` is an interval of a proportion and needs 0/1 scores, but "
            f"{graded}: leave `interval` out for the (clustered) t interval of graded scores."
        )
        raise ValueError(msg)
    if data.clustered:
        cr1 = items_core.clustered_se(values, data.cluster, data.n_clusters)
        return paired_proportions.clustered_wilson_interval(
            means, data.n_items, cr1**2, data.n_clusters, ci
        )
    critical = paired_proportions.normal_quantile(ci)
    return paired_proportions.wilson_interval(means, data.n_items, critical)
