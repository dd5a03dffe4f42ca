"""Benchmark frames (models x data sets): recognising them, building them from long tables."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import OptionError, apply_nan_policy, warn
from pdcompare.inputs.arrow import is_native, long_columns
from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.design import resolve_design
from pdcompare.inputs.frames import check_model_rows
from pdcompare.inputs.kinds import DATASET, frame_kind
from pdcompare.inputs.long import numeric_scores, repeated_keys, require_columns
from pdcompare.inputs.runs import runs_from_long
from pdcompare.inputs.scores import ScoresData, row_means, validate_scores
from pdcompare.stats.ranks import rank_within_columns


def _dataset_means(frame: pd.DataFrame, values: np.ndarray) -> tuple[np.ndarray, pd.Index]:
    """Per-data-set means of a ``(dataset, split)`` frame, over the folds each model has.

    A model with some folds missing on a data set is averaged over the folds
    it has, with a warning naming the model, the data set and the count; NaN
    only where it has no fold at all.
    """
    if frame.columns.nlevels == 1:
        return values, frame.columns
    codes, datasets = pd.factorize(frame.columns.get_level_values(0))
    counts = np.bincount(codes, minlength=len(datasets))
    slots = pd.Series(codes).groupby(codes).cumcount().to_numpy()
    cube = np.full((values.shape[0], len(datasets), counts.max()), np.nan)
    cube[:, codes, slots] = values
    # Summed in sorted order, so that the same fold scores in another split order (a
    # long table read in another row order, say) give the same mean to the last bit, and
    # rounded to 12 significant digits, so that means equal in exact arithmetic (0.9 + 0.8
    # and 0.85 + 0.85 folds) tie in the ranks instead of being split by rounding noise.
    # The NaN padding of data sets with fewer splits, and missing folds, sort last and
    # add nothing.
    present = (~np.isnan(cube)).sum(axis=2)
    _warn_missing_folds(frame.index, datasets, present, counts)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.nansum(np.sort(cube, axis=2), axis=2) / present
    means[present == 0] = np.nan
    return _without_rounding_noise(means), pd.Index(datasets, name=DATASET)


def _warn_missing_folds(
    names: pd.Index, datasets: pd.Index, present: np.ndarray, counts: np.ndarray
) -> None:
    """One warning naming the models averaged over fewer folds than their data set has."""
    partial = (present > 0) & (present < counts)
    if not partial.any():
        return
    rows, cols = np.nonzero(partial)
    cases = [
        f"{names[r]!r} on {datasets[c]!r} ({counts[c] - present[r, c]} of {counts[c]} "
        "folds missing)"
        for r, c in zip(rows[:5], cols[:5], strict=True)
    ]
    more = f" and {len(rows) - 5} more" if len(rows) > 5 else ""
    warn(
        f"Model(s) with missing folds are averaged over the folds they have: "
        f"{', '.join(cases)}{more}."
    )


def _without_rounding_noise(values: np.ndarray, digits: int = 12) -> np.ndarray:
    """``values`` rounded to ``digits`` significant digits (zeros, NaN and inf kept)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = 10.0 ** (np.floor(np.log10(np.abs(values))) - (digits - 1))
        rounded = np.round(values / scale) * scale
    return np.where(np.isfinite(rounded), rounded, values)


@dataclass(frozen=True)
class BenchmarkData(ScoresData):
    """A validated benchmark frame as arrays: per-data-set means, ranks, and the folds.

    ``values`` holds the per-data-set mean scores (models x data sets) that
    the rank tests and the across-data-set tests compare; ``splits`` are the
    data sets. ``folds`` is the models x data sets x splits array of a
    ``(dataset, split)`` frame (None for a table of means), for the tests
    that use the folds within each data set.

    Attributes
    ----------
    folds : numpy.ndarray or None
        Fold scores, shape (models, data sets, splits), when the frame has them.
    fold_labels : pandas.Index or None
        The split labels within a data set.
    """

    across_datasets = True

    folds: np.ndarray | None = None
    fold_labels: pd.Index | None = None

    @property
    def complete(self) -> np.ndarray:
        """Boolean mask of the data sets on which every model has a score."""
        return ~np.isnan(self.values).any(axis=0)

    @cached_property
    def means(self) -> np.ndarray:
        """Mean score of each model over the complete data sets (the same ones for all)."""
        complete = self.complete
        if not complete.any():
            return row_means(self.values)
        return self.values[:, complete].mean(axis=1)

    @cached_property
    def rank_sums(self) -> np.ndarray:
        """Sum of every model's ranks over the complete data sets (1 = best, ties averaged).

        Averaged ranks are multiples of 1/2, so these sums are exact whatever the
        order of the data sets, and equal sums stay equal.
        """
        complete = self.values[:, self.complete]
        if complete.shape[1] == 0:
            return np.full(len(self.names), np.nan)
        ranks = rank_within_columns(complete, greater_is_better=self.design.greater_is_better)
        return ranks.sum(axis=1)

    @property
    def mean_ranks(self) -> np.ndarray:
        """Mean rank of every model over the complete data sets (1 = best, ties averaged)."""
        return self.rank_sums / int(self.complete.sum())

    @cached_property
    def order(self) -> np.ndarray:
        """Model positions, best first: lowest mean rank, ties broken by the better mean."""
        means = self.means if self.design.greater_is_better else -self.means
        ranks = self.rank_sums  # exact: equal mean ranks stay tied in any data-set order
        tie_break = np.where(np.isnan(means), np.inf, -means)
        return np.lexsort((tie_break, np.where(np.isnan(ranks), np.inf, ranks)))

    def meta(self) -> dict[str, Any]:
        """What every result on a benchmark frame records about it."""
        ranks = self.mean_ranks
        meta = {
            "unit": "dataset",
            "n_datasets": int(self.complete.sum()),
            "mean_ranks": dict(zip(self.names.tolist(), ranks.tolist(), strict=True)),
        }
        holes = int(np.isnan(self.values).sum())
        if holes:  # models that did not run on every data set: the cells missing
            meta["n_missing"] = holes
        return meta

    def drop_incomplete(self, nan_policy: str, what: str, keep: str = "") -> np.ndarray:
        """Apply ``nan_policy`` to the data sets where some model has no score; the kept mask.

        For the tests on all models at once (Friedman, Nemenyi, Conover, mean
        ranks): "omit" keeps the complete data sets and warns naming the
        others, "propagate" warns (the results are NaN), "raise" raises.
        ``keep`` names a way to keep those data sets, added to the advice.
        """
        complete = self.complete
        if complete.all():
            return complete
        missing = [str(d) for d in self.splits[~complete]]
        shown = missing if len(missing) <= 10 else [*missing[:10], "..."]
        problem = f"Data set(s) {shown} have no score for some model"
        if nan_policy == "omit":
            warn(f"{problem}: `{what}` leaves them out ({int(complete.sum())} data sets kept).")
            return complete
        apply_nan_policy(
            nan_policy,
            problem,
            omit="leave those data sets out" + keep,
            propagate="give NaN results",
        )
        return complete

    def nan_pairs(self, i: np.ndarray, j: np.ndarray, nan_policy: str) -> np.ndarray:
        """Boolean mask of the pairs with a data set where either model has no score.

        The tests of one pair at a time (Wilcoxon, sign, t, Bayesian signed-rank
        across data sets): "omit" drops those data sets pair by pair and warns
        naming them, "propagate" warns (those pairs get NaN results), "raise"
        raises.
        """
        missing = np.isnan(self.values)
        has_nan = missing.any(axis=1)
        mask = has_nan[i] | has_nan[j]
        if mask.any():
            models = [str(self.names[k]) for k in np.flatnonzero(has_nan)]
            datasets = [str(d) for d in self.splits[missing.any(axis=0)]]
            shown = datasets if len(datasets) <= 10 else [*datasets[:10], "..."]
            problem = f"Model(s) {models} have no score on data set(s) {shown}"
            if nan_policy == "omit":
                warn(f"{problem}: each pair with them leaves those data sets out.")
                return mask
            apply_nan_policy(
                nan_policy,
                problem,
                omit="drop those data sets pair by pair",
                propagate="give those pairs NaN results",
            )
        return mask


def benchmark_data(frame: pd.DataFrame, **keywords: Any) -> BenchmarkData:
    """Validate a benchmark frame and resolve its design (``greater_is_better`` above all)."""
    meta = pdcompare_attrs(frame)
    values = validate_scores(frame)
    design = resolve_design(meta.get("design"), **keywords)
    means, datasets = _dataset_means(frame, values)
    folds = fold_labels = None
    if frame.columns.nlevels > 1:
        folds, fold_labels = _fold_array(frame, values, datasets)
    return BenchmarkData(
        names=frame.index,
        values=means,
        splits=datasets,
        design=design,
        folds=folds,
        fold_labels=fold_labels,
    )


def _fold_array(frame: pd.DataFrame, values: np.ndarray, datasets: pd.Index):
    """The fold scores as (models, data sets, splits); NaN where a data set has fewer splits."""
    level0 = frame.columns.get_level_values(0)
    rest = frame.columns.droplevel(0)
    labels = pd.Index(pd.unique(rest))
    out = np.full((values.shape[0], len(datasets), len(labels)), np.nan)
    out[:, datasets.get_indexer(level0), labels.get_indexer(rest)] = values
    return out, labels


def means(frame: pd.DataFrame) -> pd.DataFrame:
    """The models x data sets frame of per-data-set mean scores of a benchmark frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        A benchmark frame: columns ``(dataset, split)``, or one column per data set.

    Returns
    -------
    pandas.DataFrame
        One row per model, one column per data set (an Index named
        "dataset"), the mean over that data set's splits (over the splits
        the model has, with a warning, when some are missing; NaN where it
        has none). The frame's design is kept in ``attrs``.

    Examples
    --------
    >>> import pandas as pd
    >>> columns = pd.MultiIndex.from_product([["iris", "wine"], [0, 1]],
    ...                                      names=["dataset", "split"])
    >>> scores = pd.DataFrame([[0.9, 0.8, 0.7, 0.6], [0.5, 0.7, 0.9, 0.9]],
    ...                       index=["a", "b"], columns=columns)
    >>> scores.cmp.means()
    dataset  iris  wine
    a        0.85  0.65
    b        0.60  0.90
    """
    if not frame_kind(frame).has_datasets:
        check_model_rows(frame)  # data sets as rows: "pass `df.T`", not "needs a benchmark"
        msg = (
            "`means` needs a benchmark frame: columns `(dataset, split)` (a MultiIndex whose "
            "first level is named 'dataset') or one column per data set (an Index named "
            "'dataset'). Build one with `pdcompare.from_long(...)`, "
            "`pd.concat({name: scores, ...}, axis=1, names=['dataset', 'split'])` or "
            "`table.rename_axis(columns='dataset')`."
        )
        raise ValueError(msg)
    data = benchmark_data(frame)
    out = pd.DataFrame(data.values, index=frame.index.copy(), columns=data.splits.copy())
    meta = pdcompare_attrs(frame)
    return with_attrs(out, meta) if meta else out


def from_long(
    table: pd.DataFrame,
    *,
    model: Hashable = "model",
    dataset: Hashable = "dataset",
    split: Hashable | None = None,
    score: Hashable = "score",
    greater_is_better: bool = True,
    paired: bool = True,
    cv: Any = None,
    test_size: float | None = None,
    n_train: int | None = None,
    n_test: int | None = None,
) -> pd.DataFrame:
    """A benchmark frame from a long table: one row per model x data set (x split).

    AutoML benchmark, OpenML and most harnesses write their results this way.
    Rows are paired by their keys, never by their order.

    Parameters
    ----------
    table : pandas.DataFrame, polars or pyarrow table, or DuckDB relation
        The long table (polars, pyarrow and DuckDB through narwhals,
        ``pdcompare[arrow]``: its models, data sets and splits then come out
        sorted).
    model, dataset, split, score : column name
        The columns holding the model name, the data set name, the split
        (optional: without it, one score per model and data set) and the score.
    greater_is_better : bool, default True
        False for losses; stored in the frame's design.
    paired : bool, default True
        False builds a runs frame instead: a table of one data set without
        a data-set column, ``split`` naming the run (seed) column; models
        as rows, one column per run, NaN for a run a model does not have,
        and ``paired=False`` stored in the design (see ``set_design``).
    cv, test_size, n_train, n_test : optional
        The CV design of the splits (the k of k-fold or the scikit-learn
        splitter, the fraction of the data in each test split, or the
        training and test set sizes), stored in the frame's design as
        ``set_design`` stores it, so that ``random_effects`` and
        ``per_dataset(test="corrected_ttest")`` need no keyword.

    Returns
    -------
    pandas.DataFrame
        Models as rows; columns ``(dataset, split)`` (or one per data set,
        an Index named "dataset"), data sets and splits in order of first
        appearance; NaN where the table has no row for a cell.

    Raises
    ------
    ValueError
        When a column is missing, or a key (model, data set, split) appears
        more than once (the message names the duplicates).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> long = pd.DataFrame({"framework": ["rf", "rf", "lr", "lr"],
    ...                      "task": ["iris", "wine", "wine", "iris"],
    ...                      "auc": [0.95, 0.97, 0.99, 0.96]})
    >>> pdcompare.from_long(long, model="framework", dataset="task", score="auc")
    dataset  iris  wine
    model
    rf       0.95  0.97
    lr       0.96  0.99

    With the folds of 5-fold CV, the design is stored with the scores:

    >>> folds = pd.DataFrame({"model": ["rf"] * 2 + ["lr"] * 2, "dataset": ["iris"] * 4,
    ...                       "split": [0, 1, 0, 1], "score": [0.9, 0.8, 0.7, 0.75]})
    >>> bench = pdcompare.from_long(folds, split="split", cv=5)
    >>> bench.attrs["pdcompare"]["design"]["test_train_ratio"]
    0.25
    """
    if is_native(table):  # polars, pyarrow, DuckDB: their key and score columns (inputs/arrow.py)
        keys = {"model": model, "dataset": dataset if paired else None, "split": split}
        table = long_columns(table, {**keys, "score": score}, list(keys.values()))
    if not paired:  # a runs frame: one data set, one column per run
        return runs_from_long(
            table,
            model=model,
            dataset=dataset,
            split=split,
            score=score,
            greater_is_better=greater_is_better,
        )
    if not isinstance(table, pd.DataFrame):
        msg = f"`table` must be a pandas DataFrame; got {type(table).__name__}."
        raise TypeError(msg)
    if not isinstance(greater_is_better, bool | np.bool_):
        msg = f"`greater_is_better` must be True or False; got {greater_is_better!r}."
        raise TypeError(msg)
    design = resolve_design(
        None,
        cv=cv,
        test_size=test_size,
        n_train=n_train,
        n_test=n_test,
        greater_is_better=bool(greater_is_better),
    )
    keys = {"model": model, "dataset": dataset, "score": score}
    if split is not None:
        keys["split"] = split
    require_columns(table, keys)
    by = [model, dataset] + ([split] if split is not None else [])
    repeated, rows = repeated_keys(table, by)
    if repeated:
        hint = (
            "If each row is the score of one CV split, name the split column with `split=`; "
            "otherwise aggregate"
            if split is None
            else "Aggregate"
        )
        keys = f"(model, data set{', split' if split is not None else ''})"
        msg = (
            f"Each {keys} must appear once; "
            f"{repeated} rows share their keys, for example {rows}. {hint} them "
            "first (for example `table.groupby([...]).mean()`)."
        )
        cli_hint = (
            "If each row is the score of one CV split, name the split column with --split-col; "
            "otherwise average the rows that share their keys in the file first"
            if split is None
            else "Average the rows that share their keys in the file first"
        )
        cli = (
            f"Each {keys} must appear once in the file; {repeated} rows share "
            f"their keys, for example {rows}. {cli_hint}."
        )
        raise OptionError(msg, cli_message=cli)
    scores = numeric_scores(table, score)
    models = pd.Index(pd.unique(table[model]), name="model")
    datasets = pd.unique(table[dataset])
    if split is None:
        columns = pd.Index(datasets, name=DATASET)
        col_codes = columns.get_indexer(table[dataset])
    else:
        splits = pd.unique(table[split])
        columns = pd.MultiIndex.from_product([datasets, splits], names=[DATASET, "split"])
        col_codes = columns.get_indexer(pd.MultiIndex.from_arrays([table[dataset], table[split]]))
    values = np.full((len(models), len(columns)), np.nan)
    values[models.get_indexer(table[model]), col_codes] = scores
    frame = pd.DataFrame(values, index=models, columns=columns)
    return with_attrs(frame, {"design": design.to_attrs()})
