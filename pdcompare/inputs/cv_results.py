"""``cv_results_`` frames: recognising them and turning them into scores frames."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_unique_labels, unknown_name_error

_SPLIT_COLUMN = re.compile(r"^split(\d+)_test_(.+)$")


def is_cv_results(frame: pd.DataFrame) -> bool:
    """Whether ``frame`` looks like ``pd.DataFrame(search.cv_results_)``."""
    return "params" in frame.columns and any(
        isinstance(c, str) and _SPLIT_COLUMN.match(c) for c in frame.columns
    )


def _format_value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str | int | bool | np.integer | np.bool_) or value is None:
        return str(value)
    if callable(value) or hasattr(value, "get_params"):
        return type(value).__name__ if not isinstance(value, type) else value.__name__
    return str(value)


def _names_from_params(params: Sequence[dict[str, Any]]) -> list[str]:
    """Short, unique, readable model names from the parameters that vary.

    A parameter whose values are all strings shows its value alone ("rbf");
    other parameters show as ``key=value`` ("C=10"). Parameters that are the
    same for every candidate are left out. Names may repeat (see `_deduplicated`).
    """
    keys = sorted({k for p in params for k in p})
    varying = []
    for key in keys:
        values = {_format_value(p[key]) if key in p else "\0absent" for p in params}
        if len(values) > 1:
            varying.append(key)
    textual = [k for k in varying if all(isinstance(p.get(k, ""), str) for p in params)]
    other = [k for k in varying if k not in textual]
    names = []
    for p in params:
        parts = [p[k] for k in textual if k in p]
        parts += [f"{k}={_format_value(p[k])}" for k in other if k in p]
        names.append(", ".join(parts) if parts else "default")
    return names


def _deduplicated(names: list[str]) -> list[str]:
    """Number the names when some repeat (two estimator objects of one class, say)."""
    if len(set(names)) < len(names):
        return [f"{name} #{i}" for i, name in enumerate(names)]
    return names


def cv_results_to_scores(
    frame: pd.DataFrame,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Convert a ``cv_results_`` frame to a scores frame (models x splits).

    Rows become models named from the parameters that vary (or by ``names``,
    a callable ``params -> str`` or a list), columns the ``split<i>`` test
    scores of ``metric``. Candidates whose fits failed keep their NaN scores.
    HalvingGridSearchCV results, where a candidate appears in several
    iterations, name each row with its iteration.
    """
    metrics: dict[str, dict[int, str]] = {}
    for column in frame.columns:
        match = _SPLIT_COLUMN.match(column) if isinstance(column, str) else None
        if match:
            metrics.setdefault(match.group(2), {})[int(match.group(1))] = column
    if metric is None:
        if len(metrics) > 1:
            msg = (
                "This cv_results_ frame holds several metrics "
                f"({', '.join(repr(m) for m in metrics)}); choose one with `metric=`."
            )
            raise ValueError(msg)
        metric = next(iter(metrics))
    elif metric not in metrics:
        error = unknown_name_error("metric", metric, list(metrics), "metric")
        raise error
    columns = metrics[metric]
    ordered = [columns[i] for i in sorted(columns)]
    values = frame[ordered].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    params = list(frame["params"])
    if not all(isinstance(p, dict) for p in params):
        msg = "The `params` column of a cv_results_ frame must hold dicts of parameters."
        raise TypeError(msg)
    if names is None:
        model_names = _names_from_params(params)
        if "iter" in frame.columns and len(set(frame["iter"])) > 1:
            iterations = frame["iter"].tolist()
            model_names = [f"{n} (iter={i})" for n, i in zip(model_names, iterations, strict=True)]
        model_names = _deduplicated(model_names)
    elif callable(names):
        model_names = [names(dict(p)) for p in params]
    else:
        model_names = list(names)
        if len(model_names) != len(params):
            msg = (
                f"`names` has {len(model_names)} entries but the cv_results_ frame has "
                f"{len(params)} candidates; give one name per row."
            )
            raise ValueError(msg)
    scores = pd.DataFrame(
        values,
        index=pd.Index(model_names, name="model"),
        columns=pd.Index([f"split{i}" for i in sorted(columns)], name="split"),
    )
    check_unique_labels(scores.index, hint="pass `names=` to name the candidates")
    return scores
