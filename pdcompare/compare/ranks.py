"""Comparisons across data sets on a benchmark frame: mean ranks, Friedman, rank post-hoc tests."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import OptionError, warn
from pdcompare.compare._common import check_test_options, refuse_one_dataset, scores_meta
from pdcompare.compare.calls import comparison
from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.stats import holes, ranks
from pdcompare.stats.ranks import friedman as core
from pdcompare.stats.ranks import rank_within_columns


def benchmark_summary(data: BenchmarkData) -> pd.DataFrame:
    """The ``summary()`` of a benchmark frame: mean ranks, mean scores, data sets won.

    Every column uses one set of data sets for every model: those on which
    every model has a score (with a warning naming the others), so that the
    means compare like with like. A model with some folds missing on a data
    set has its mean there over the folds it has.
    """
    complete = data.drop_incomplete("omit", "summary")
    ranks = rank_within_columns(
        data.values[:, complete], greater_is_better=data.design.greater_is_better
    )
    order = data.order
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(1, len(order) + 1)
    kept = data.values[:, complete]
    nothing = np.full(len(order), np.nan)
    columns: dict[str, Any] = {
        "mean_rank": ranks.mean(axis=1) if ranks.shape[1] else nothing,
        "rank": rank,
        "mean": kept.mean(axis=1) if kept.shape[1] else nothing,
        "n_datasets": np.full(len(order), kept.shape[1], dtype=np.int64),
        "n_best": (ranks == ranks.min(axis=0, initial=np.inf)).sum(axis=1).astype(np.int64),
    }
    meta = results.result_meta(
        "summary",
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=data.ranked_names,
        **data.meta(),
    )
    return results.model_result(data.names, columns, meta).iloc[order]


def _benchmark(frame: pd.DataFrame, test: str, **design: Any) -> BenchmarkData:
    """The benchmark data of ``frame``, or a ValueError saying what a benchmark frame is."""
    data = scores_data(frame, **design)
    if isinstance(data, BenchmarkData):
        refuse_one_dataset(data, test)
    else:
        msg = (
            f"`{test}` compares models across data sets and needs a benchmark frame: columns "
            "`(dataset, split)` (a MultiIndex whose first level is named 'dataset') or one "
            "column per data set (an Index named 'dataset'). Build one with "
            "`pdcompare.from_long(...)` or `table.rename_axis(columns='dataset')`. On the "
            "folds of one data set, use `corrected_ttest` or `bayes`."
        )
        raise ValueError(msg)
    return data


#: The columns of ``friedman``'s result (its registry row's).
FRIEDMAN_COLUMNS = (
    "n_models",
    "n_datasets",
    "statistic",
    "df",
    "pvalue",
    "f_statistic",
    "f_df1",
    "f_df2",
    "f_pvalue",
)


@comparison("friedman")
def friedman(
    scores: pd.DataFrame, *, nan_policy: str = "propagate", **design: Any
) -> pd.DataFrame:
    """Friedman's test of equal mean ranks across data sets, with the Iman–Davenport F.

    Reported for what it says (some model differs from some other), never as
    a gate for the post-hoc tests: ``pairwise(test="nemenyi")`` and the
    others control their own error rate.

    Parameters
    ----------
    scores : pandas.DataFrame
        A benchmark frame: columns ``(dataset, split)`` (reduced to
        per-data-set means) or one column per data set.
    nan_policy : {"propagate", "omit", "raise", "skillings_mack", "durbin"}, default "propagate"
        Data sets where some model has no score (holes): NaN results (with a
        warning), left out (with a warning naming them), or an error;
        "skillings_mack" keeps every data set and runs the Skillings–Mack test
        (each data set's present models ranked among themselves; complete
        data give Friedman's statistic exactly); "durbin" runs Durbin's test,
        for holes that form a balanced incomplete block design only.
    **design
        ``greater_is_better=`` (the statistic does not depend on it).

    Returns
    -------
    pandas.DataFrame
        One row: ``n_models, n_datasets, statistic, df, pvalue, f_statistic,
        f_df1, f_df2, f_pvalue``. ``attrs["pdcompare"]`` holds the test, the
        unit ("dataset"), the number of data sets and the mean ranks; with
        "skillings_mack" or "durbin" also ``method``, ``n_missing`` (the
        holes) and ``n_cells``. Skillings–Mack has no F form: its ``f_*``
        columns are NaN; Durbin's are its T2 (Conover 1999).

    Notes
    -----
    The tie-corrected Friedman chi-square on ``k - 1`` degrees of freedom
    (equal to ``scipy.stats.friedmanchisquare`` on the per-data-set means)
    and Iman and Davenport's ``F = (N - 1) chi2 / (N (k - 1) - chi2)`` on
    ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom, which Demšar (2006)
    recommends as less conservative. When every data set is a complete tie
    the statistic is 0 and the p-value 1, with a warning.

    With holes, :func:`pdcompare.stats.holes.skillings_mack`
    (Skillings & Mack 1981) and :func:`~pdcompare.stats.holes.durbin`
    (Durbin 1951) rank each data set's present models; data sets with fewer
    than two models are left out. A model on fewer than two data sets, or a
    design in parts that share no data set, is refused by name.

    References
    ----------
    J. Demšar, "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7, 1-30, 2006.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> table = pd.DataFrame([[0.9, 0.8, 0.7, 0.95, 0.8], [0.8, 0.85, 0.6, 0.9, 0.7],
    ...                       [0.7, 0.7, 0.65, 0.85, 0.6]], index=["rf", "svm", "tree"],
    ...                      columns=pd.Index(list("abcde"), name="dataset"))
    >>> print(pdcompare.friedman(table).round(4).T)
                       0
    n_models      3.0000
    n_datasets    5.0000
    statistic     6.4000
    df            2.0000
    pvalue        0.0408
    f_statistic   7.1111
    f_df1         2.0000
    f_df2         8.0000
    f_pvalue      0.0167

    Compare with scipy:

    >>> from scipy import stats
    >>> round(float(stats.friedmanchisquare(*table.to_numpy()).pvalue), 4)
    0.0408
    """
    data = _benchmark(scores, "friedman", **design)
    if nan_policy in HOLE_TESTS:
        return _friedman_with_holes(data, nan_policy)
    keep = " (or `nan_policy='skillings_mack'` to keep them: the Skillings–Mack test)"
    kept = data.drop_incomplete(nan_policy, "friedman", keep)
    values = data.values[:, kept] if nan_policy == "omit" else data.values
    out = core(values, greater_is_better=data.design.greater_is_better, nan_policy="propagate")
    tie = "Every data set is a complete tie of all models: Friedman's statistic is 0/0"
    return _friedman_result(out, data, nan_policy, tie)


def _friedman_result(
    out: dict[str, Any], data: BenchmarkData, nan_policy: str, tie: str, **extra: Any
) -> pd.DataFrame:
    """The one-row result frame of ``friedman`` (or its tests with holes) and its attrs."""
    if out["degenerate"]:
        warn(f"{tie}; reported as statistic 0 and p-value 1.")
    frame = pd.DataFrame({name: [out[name]] for name in FRIEDMAN_COLUMNS})
    for name in ("df", "f_df1", "f_df2"):
        if float(frame[name].iloc[0]).is_integer():
            frame[name] = frame[name].astype(np.int64)
    meta = results.result_meta(
        "friedman",
        nan_policy=nan_policy,
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=data.ranked_names,
        **data.meta(),
    )
    meta.update(extra)
    return with_attrs(frame, meta)


#: The ``nan_policy`` values of ``friedman`` that keep the data sets with holes, and their names.
HOLE_TESTS = {"skillings_mack": "Skillings–Mack", "durbin": "Durbin"}


def check_design(data: BenchmarkData, what: str) -> None:
    """Refuse holes that leave a model unplaceable: one sentence naming the model and the fix."""
    too_few, apart = holes.design_problems(data.values)
    if too_few:
        names = [str(data.names[k]) for k in too_few]
        msg = (
            f"Model(s) {names} have a score on fewer than 2 of the data sets that hold another "
            f"model, so {what} cannot place them: drop them (`df.drop(index={names!r})`) or "
            "add their scores on more data sets."
        )
        raise ValueError(msg)
    if apart:
        names = [str(data.names[k]) for k in apart]
        msg = (
            f"Model(s) {names} share no data set with the other models (the holes split the "
            f"benchmark in parts that never meet), so {what} cannot compare them with the "
            "rest: drop them or add scores on data sets the others ran."
        )
        raise ValueError(msg)


def hole_meta(data: BenchmarkData) -> dict[str, int]:
    """How many cells of the benchmark (models x data sets) are missing."""
    missing = int(np.isnan(data.values).sum())
    return {"n_missing": missing, "n_cells": int(data.values.size)}


def _friedman_with_holes(data: BenchmarkData, nan_policy: str) -> pd.DataFrame:
    """Friedman's result frame from the Skillings–Mack or the Durbin test."""
    method = HOLE_TESTS[nan_policy]
    check_design(data, f"the {method} test")
    gib = data.design.greater_is_better
    if nan_policy == "durbin":
        ok, why = holes.balanced(data.values)
        if not ok:
            msg = (
                f"Durbin's test needs a balanced incomplete block design, and here {why}: use "
                "`nan_policy='skillings_mack'` (the Skillings–Mack test), which takes any "
                "pattern of holes."
            )
            raise OptionError(msg, keyword="nan_policy")
        out = holes.durbin(data.values, greater_is_better=gib)
    else:
        out = holes.skillings_mack(data.values, greater_is_better=gib)
        out.update(f_statistic=np.nan, f_df1=np.nan, f_df2=np.nan, f_pvalue=np.nan)
    tie = f"Every data set is a complete tie of its models: the {method} statistic is 0/0"
    return _friedman_result(
        out, data, nan_policy, tie,
        method=method, n_datasets=int(out["n_datasets"]), **hole_meta(data),
    )  # fmt: skip


def rank_test(
    scores: pd.DataFrame,
    test: str,
    *,
    alpha: float,
    correction: str | None,
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Nemenyi's or Conover's mean-rank test of every pair (``pairwise(test=...)``)."""
    alpha, correction = check_test_options(alpha=alpha, correction=correction)
    data = _benchmark(scores, test, **design)
    kept = data.drop_incomplete(nan_policy, test)
    values = data.values[:, kept] if nan_policy == "omit" else data.values
    i, j, scope = data.pairs(ALL_PAIRS)
    core = ranks.nemenyi if test == "nemenyi" else ranks.conover
    out = core(
        values, i, j, greater_is_better=data.design.greater_is_better, nan_policy="propagate"
    )
    fields: dict[str, Any] = {}
    if test == "nemenyi":
        fields["cd"] = ranks.critical_difference(len(data.names), int(kept.sum()), alpha)
    meta = scores_meta(
        test, data, scope, alpha=alpha, correction=correction, nan_policy=nan_policy, **fields
    )
    meta["n_datasets"] = int(values.shape[1])
    columns = {name: out[name] for name in ("rank_diff", "statistic", "pvalue")}
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


@comparison("nemenyi")
def nemenyi(
    scores: pd.DataFrame,
    *,
    alpha: float,
    correction: str | None,
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Nemenyi's test of every pair's mean ranks (``pairwise(test="nemenyi")``).

    See :func:`rank_test`; the p-values are family-wise already (the
    studentized range), so ``correction`` is None by default in ``pairwise``.
    """
    return rank_test(
        scores, "nemenyi", alpha=alpha, correction=correction, nan_policy=nan_policy, **design
    )


@comparison("conover")
def conover(
    scores: pd.DataFrame,
    *,
    alpha: float,
    correction: str | None,
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Conover's test of every pair's mean ranks (``pairwise(test="conover")``).

    See :func:`rank_test`; Holm-corrected in ``pairwise`` by default.
    """
    return rank_test(
        scores, "conover", alpha=alpha, correction=correction, nan_policy=nan_policy, **design
    )
