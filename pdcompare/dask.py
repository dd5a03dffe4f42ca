"""The ``cmp`` accessor on dask DataFrames: prediction tests on frames larger than memory.

``import pdcompare.dask`` registers ``DataFrame.cmp`` on
``dask.dataframe.DataFrame`` (install ``pdcompare[dask]``). The tests that
count correct predictions (McNemar's test, Cochran's Q, the two-proportion
z-test, the accuracy interval) and the bootstrap of the named classification
scores depend on the rows of a predictions frame only through the counts of
its distinct (truth, predictions) rows. dask computes those counts, one
``groupby(...).size()`` over the partitions, missing values included; the
counts, a small pandas frame, then go through the same code as a pandas
predictions frame. The numbers are therefore those of the pandas frame, with
the same ``random_state``, and memory stays at the size of a partition plus
the distinct rows.

The number of distinct rows is at most the number of classes to the power of
models + 1, and never more than the number of rows: with a few models and
classes it is tiny; with dozens of models of many classes it grows towards
the number of rows, and the computation is then better run on fewer models at
a time (``cochrans_q(models=...)``).

Examples
--------
>>> import dask.dataframe as dd
>>> import pandas as pd
>>> import pdcompare.dask
>>> preds = pd.DataFrame({"y": [0, 1] * 50, "forest": [0, 1] * 45 + [1, 0] * 5,
...                       "knn": [0, 1] * 40 + [1, 0] * 10})
>>> big = dd.from_pandas(preds, npartitions=4)
>>> big.cmp.mcnemar()[["model_1", "model_2", "only_1_correct", "only_2_correct"]]
  model_1 model_2  only_1_correct  only_2_correct
0  forest     knn              10               0
>>> big.cmp.mcnemar().equals(preds.cmp.mcnemar())
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

try:
    import dask.dataframe as dd
    from dask.dataframe.extensions import register_dataframe_accessor
except ImportError as error:  # pragma: no cover - exercised without the extra only
    msg = "pdcompare.dask needs dask: pip install 'pdcompare[dask]'."
    raise ImportError(msg) from error

from pdcompare.compare import bootstrap as _bootstrap
from pdcompare.compare import predictions as _predictions
from pdcompare.inputs.predictions import WeightedPredictions
from pdcompare.stats.metrics import get_metric

__all__ = ["DaskCompareAccessor", "distinct_rows"]

#: The methods of the pandas accessor that dask frames offer: the tests of a predictions frame
#: whose sufficient statistics are counts of distinct rows.
DASK_METHODS = (
    "mcnemar", "cochrans_q", "proportions_ztest", "accuracy_ci", "bootstrap", "bootstrap_diff",
)  # fmt: skip

#: Tests of a predictions frame that need its rows themselves (continuous scores have as
#: many distinct rows as rows): on a dask frame they say to compute it first.
_EVERY_ROW = ("auc_ci", "delong", "permutation_test")


def distinct_rows(frame: dd.DataFrame, columns: Sequence[Hashable]) -> WeightedPredictions:
    """The distinct rows of some columns of a dask frame and how many samples show each.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        A predictions frame (truth column and one column per model).
    columns : list of column names
        The columns to count (the truth first).

    Returns
    -------
    WeightedPredictions
        A pandas frame of the distinct rows (missing values included, the
        columns' dtypes kept; in no particular order) and their counts,
        computed by dask.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> frame = dd.from_pandas(pd.DataFrame({"y": [1, 1, 0, 1], "m": [1, 1, 1, 1]}),
    ...                        npartitions=2)
    >>> rows = distinct_rows(frame, ["y", "m"])
    >>> sorted(zip(rows.frame["y"].tolist(), rows.frame["m"].tolist(), rows.weights.tolist()))
    [(0, 1, 1), (1, 1, 3)]
    """
    columns = list(columns)
    if len(set(columns)) != len(columns):
        msg = "Column names of a predictions frame must be unique (one column per model)."
        raise ValueError(msg)
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        shown = ", ".join(repr(c) for c in list(frame.columns)[:10])
        msg = f"The dask frame has no column(s) {absent}; its columns are {shown}."
        raise ValueError(msg)
    counts = frame[columns].groupby(columns, dropna=False, observed=True).size().compute()
    counts = counts[counts > 0]
    rows = counts.index.to_frame(index=False)
    rows.columns = pd.Index(columns)
    for column in columns:  # the groupby keys come back with their dtypes, but be sure
        dtype = frame[column].dtype
        if rows[column].dtype != dtype and not isinstance(dtype, pd.CategoricalDtype):
            rows[column] = rows[column].astype(dtype)
    return WeightedPredictions(rows, counts.to_numpy(dtype=np.int64))


@register_dataframe_accessor("cmp")
class DaskCompareAccessor:
    """``ddf.cmp``: the prediction tests of pdcompare on a dask predictions frame.

    The methods are :func:`pdcompare.mcnemar`, :func:`pdcompare.cochrans_q`,
    :func:`pdcompare.proportions_ztest`, :func:`pdcompare.accuracy_ci`,
    :func:`pdcompare.bootstrap` and :func:`pdcompare.bootstrap_diff` (the
    last two with the named classification scores). Each takes the keywords
    of the pandas method of the same name and returns a computed pandas
    frame, equal to what the pandas frame gives, from the counts of the
    distinct rows (:func:`distinct_rows`). Other methods of the pandas
    accessor raise an AttributeError that says to ``.compute()`` first (a
    scores frame is small).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> preds = pd.DataFrame({"y": y, "forest": np.where(rng.random(10_000) < 0.9, y, 1 - y),
    ...                       "tree": np.where(rng.random(10_000) < 0.8, y, 1 - y)})
    >>> big = dd.from_pandas(preds, npartitions=8)
    >>> big.cmp.bootstrap_diff(random_state=0)[["model_1", "model_2", "mean_diff"]].round(4)
      model_1 model_2  mean_diff
    0  forest    tree     0.0956
    >>> big.cmp.bootstrap_diff(random_state=0).equals(preds.cmp.bootstrap_diff(random_state=0))
    True
    """

    def __init__(self, frame: dd.DataFrame) -> None:
        self._frame = frame

    def _rows(self, y: Any, models: Sequence[Hashable] | None = None) -> WeightedPredictions:
        if y not in self._frame.columns:
            shown = ", ".join(repr(c) for c in list(self._frame.columns)[:10])
            msg = (
                f"`y`: the predictions frame has no truth column {y!r}; its columns are "
                f"{shown}. Pass `y=` with the name of the column of true labels."
            )
            raise ValueError(msg)
        others = [c for c in self._frame.columns if c != y] if models is None else list(models)
        return distinct_rows(self._frame, [y, *others])

    def mcnemar(self, a: Any = None, b: Any = None, *, y: Any = "y", **options: Any):
        """McNemar's test, as :func:`pdcompare.mcnemar`, from counts computed by dask."""
        return _predictions.mcnemar(self._rows(y), a, b, y=y, **options)

    def cochrans_q(self, models: Sequence[Any] | None = None, *, y: Any = "y", **options: Any):
        """Cochran's Q, as :func:`pdcompare.cochrans_q`, from counts computed by dask."""
        if models is not None and (isinstance(models, str) or not np.iterable(models)):
            msg = f"`models` must be a list of column names; got {models!r}."
            raise TypeError(msg)
        rows = self._rows(y, None if models is None else [m for m in models if m != y])
        return _predictions.cochrans_q(rows, models, y=y, **options)

    def proportions_ztest(self, a: Any = None, b: Any = None, *, y: Any = "y", **options: Any):
        """The two-proportion z-test, as :func:`pdcompare.proportions_ztest`, by dask."""
        return _predictions.proportions_ztest(self._rows(y), a, b, y=y, **options)

    def accuracy_ci(self, *, y: Any = "y", **options: Any):
        """Accuracy intervals, as :func:`pdcompare.accuracy_ci`, from counts computed by dask."""
        return _bootstrap.accuracy_ci(self._rows(y), y=y, **options)

    def bootstrap(
        self, score: str | Callable = "accuracy", *, y: Any = "y", **options: Any
    ) -> pd.DataFrame:
        """The paired bootstrap of a named classification score, as :func:`pdcompare.bootstrap`."""
        _check_count_score(score, options.get("greater_is_better"), "bootstrap")
        return _bootstrap.bootstrap(self._rows(y), score, y=y, **options)

    def bootstrap_diff(
        self, a: Any = None, b: Any = None, *, score: str | Callable = "accuracy", y: Any = "y",
        **options: Any,
    ) -> pd.DataFrame:  # fmt: skip
        """Paired bootstrap differences, as :func:`pdcompare.bootstrap_diff`, by dask."""
        _check_count_score(score, options.get("greater_is_better"), "bootstrap_diff")
        return _bootstrap.bootstrap_diff(self._rows(y), a, b, score=score, y=y, **options)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _EVERY_ROW:
            msg = (
                f"`{name}` needs every row of the frame (a sort of every model's scores, or "
                "swaps of its rows), not counts of distinct rows: call `.compute()` first "
                f"and use `df.compute().cmp.{name}(...)`."
            )
            raise AttributeError(msg)
        msg = (
            f"`{name}` is not offered on a dask frame: there `cmp` has the prediction tests "
            f"{', '.join(DASK_METHODS)}. Scores frames are small: call `.compute()` first "
            f"and use `df.compute().cmp.{name}(...)`."
        )
        raise AttributeError(msg)


def _check_count_score(score: Any, greater_is_better: Any, method: str) -> None:
    """Refuse scores that need every row (callables, regression losses) before any work."""
    metric = get_metric(score, greater_is_better)
    if not metric.count_based:
        msg = (
            f"`score`: {metric.name!r} needs every row of predictions; on a dask frame "
            f"`{method}` takes the named classification scores (accuracy, "
            "balanced_accuracy, recall_macro, precision_macro, f1_macro). Call "
            f"`.compute()` first to use {metric.name!r} on a pandas frame."
        )
        raise TypeError(msg)
