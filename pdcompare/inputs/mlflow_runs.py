"""Reading the frame of ``mlflow.search_runs()``: a scores frame (folds) or a runs frame (seeds).

``mlflow.search_runs()`` returns one row per run with the columns ``run_id``,
``experiment_id``, ``status``, ``artifact_uri``, ``start_time``,
``end_time``, then ``metrics.<name>``, ``params.<name>`` and ``tags.<name>``
(params are logged as text). A param (or several) names the model, a metric
the score, and a ``fold`` or ``seed`` param the split.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.arrow import is_native, long_columns, native_columns
from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.design import Design
from pdcompare.inputs.long import numeric_scores
from pdcompare.inputs.runs import runs_from_long
from pdcompare.inputs.sources import with_source

__all__ = ["from_mlflow"]


def _column(runs: pd.DataFrame, keyword: str, prefix: str, name: str) -> str:
    """The column of ``name`` (with or without its ``params.``/``metrics.`` prefix)."""
    for column in (name, f"{prefix}.{name}"):
        if column in runs.columns:
            return column
    available = [c for c in runs.columns if str(c).startswith(prefix + ".")]
    msg = (
        f"`{keyword}`: the runs have no column {name!r} nor {prefix + '.' + name!r}; their "
        f"{prefix} are {', '.join(map(repr, available[:20])) or 'none'}."
    )
    raise ValueError(msg)


def _metric(runs: pd.DataFrame, metric: str | None) -> str:
    if metric is not None:
        return _column(runs, "metric", "metrics", metric)
    metrics = [c for c in runs.columns if str(c).startswith("metrics.")]
    if len(metrics) != 1:
        msg = (
            f"`metric`: name the metric to compare; the runs have "
            f"{', '.join(map(repr, metrics)) or 'no metrics.* column'}."
        )
        raise ValueError(msg)
    return metrics[0]


def _model_names(runs: pd.DataFrame, columns: list[str]) -> pd.Series:
    if len(columns) == 1:
        return runs[columns[0]].astype(str)
    parts = [c.removeprefix("params.") + "=" + runs[c].astype(str) for c in columns]
    names = parts[0]
    for part in parts[1:]:
        names = names + ", " + part
    return names


def from_mlflow(
    runs: Any,
    *,
    model: str | Sequence[str],
    metric: str | None = None,
    split: str = "fold",
    paired: bool = True,
    greater_is_better: bool = True,
) -> pd.DataFrame:
    r"""The scores (or runs) frame of MLflow runs: ``params`` name the model, a metric the score.

    Parameters
    ----------
    runs : pandas.DataFrame
        The frame ``mlflow.search_runs()`` returns (one row per run), or any
        table with its ``params.*`` and ``metrics.*`` columns. Runs whose
        ``status`` is not ``"FINISHED"`` are left out.
    model : str or list of str
        The param (or params) naming the model, with or without the
        ``params.`` prefix; several are joined into one name
        ("C=1, kernel=rbf").
    metric : str, optional
        The metric to compare (``"accuracy"`` or ``"metrics.accuracy"``);
        without it the runs must have one ``metrics.*`` column.
    split : str, default "fold"
        The param numbering the split of each run: the CV fold (``paired``)
        or the random seed (``paired=False``).
    paired : bool, default True
        True: the splits are CV folds shared by every model (a scores frame;
        give its CV design with ``set_design(cv=...)``). False: they are
        independent runs such as seeds (a runs frame).
    greater_is_better : bool, default True
        False for a loss.

    Returns
    -------
    pandas.DataFrame
        One row per model, one column per split (named after the split
        param), NaN where a model has no run of a split.

    Raises
    ------
    ValueError
        A missing param or metric column (the keyword and the columns there
        are named), a model with two runs of one split, a text metric.

    Notes
    -----
    A metric logged as a cost (``fit_time``) read the same way, with
    ``greater_is_better=False``, is the frame of per-split costs that
    ``pareto(cost=...)`` pairs with the scores.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> runs = pd.DataFrame({
    ...     "run_id": list("abcdef"), "status": "FINISHED",
    ...     "params.model": ["svm"] * 3 + ["tree"] * 3, "params.fold": ["0", "1", "2"] * 2,
    ...     "metrics.accuracy": [0.91, 0.88, 0.93, 0.85, 0.86, 0.88]})
    >>> pdcompare.from_mlflow(runs, model="model", metric="accuracy")
    fold     0     1     2
    model
    svm   0.91  0.88  0.93
    tree  0.85  0.86  0.88
    """
    if is_native(runs):  # a polars or pyarrow frame of runs (inputs/arrow.py): to pandas
        runs = long_columns(runs, {str(c): c for c in native_columns(runs)}, [])
    if not isinstance(runs, pd.DataFrame):
        msg = (
            "`runs` must be the pandas DataFrame of mlflow.search_runs(); got "
            f"{type(runs).__name__}."
        )
        raise TypeError(msg)
    names = [model] if isinstance(model, str) else list(model)
    if not names or not all(isinstance(n, str) for n in names):
        msg = f"`model` must be a param name or a list of them; got {model!r}."
        raise TypeError(msg)
    if not isinstance(greater_is_better, bool | np.bool_):
        msg = f"`greater_is_better` must be True or False; got {greater_is_better!r}."
        raise TypeError(msg)
    columns = [_column(runs, "model", "params", n) for n in names]
    score = _metric(runs, metric)
    split_column = _column(runs, "split", "params", split)
    if "status" in runs.columns:
        runs = runs.loc[runs["status"].isna() | (runs["status"] == "FINISHED")]
    split_name = split_column.removeprefix("params.")
    long = pd.DataFrame(
        {
            "model": _model_names(runs, columns).to_numpy(),
            split_name: _split_values(runs[split_column]),
            "score": numeric_scores(runs, score),
        }
    )
    source = {
        "format": "mlflow",
        "model": columns,
        "split": split_column,
        "metric": score,
        "runs": len(long),
    }
    if not paired:
        frame = runs_from_long(
            long,
            model="model",
            dataset="dataset",
            split=split_name,
            score="score",
            greater_is_better=bool(greater_is_better),
        )
        return with_source(frame, source)
    frame = _scores_frame(long, split_name, split_column)
    design = Design(greater_is_better=bool(greater_is_better))
    return with_source(with_attrs(frame, {"design": design.to_attrs()}), source)


def _split_values(values: pd.Series) -> np.ndarray:
    """Split params as numbers when they all are ("0", "1", ... as MLflow logs them)."""
    numeric = pd.to_numeric(values, errors="coerce")
    if numeric.notna().all() and (numeric == np.round(numeric)).all():
        return numeric.to_numpy(dtype=np.int64)
    return values.to_numpy(dtype=object)


def _scores_frame(long: pd.DataFrame, split: Hashable, column: str) -> pd.DataFrame:
    """Models x splits; a model with two runs of one split is refused."""
    repeated = long.duplicated(subset=["model", split], keep=False)
    if repeated.any():
        first = long.loc[repeated].iloc[0]
        msg = (
            f"model {first['model']!r} has {int(repeated.sum())} runs sharing their "
            f"{column} ({first[split]!r} first): each model has one run per split. Name the "
            "params that tell the models apart in `model=`, or drop the repeated runs."
        )
        raise ValueError(msg)
    models = pd.Index(pd.unique(long["model"]), name="model")
    splits = pd.Index(pd.unique(long[split]), name=split)
    values = np.full((len(models), len(splits)), np.nan)
    values[models.get_indexer(long["model"]), splits.get_indexer(long[split])] = long["score"]
    return pd.DataFrame(values, index=models, columns=splits)
