"""Reading lighteval details (``details_<task>_<date>.parquet``) as an items frame.

``lighteval ... --save-details --output-dir out`` writes, per model and run,
``out/details/<model_name>/<date>/details_<task>_<date>.parquet``
(``EvaluationTracker.save_details`` in ``lighteval/logging/evaluation_tracker.py``):
one row per document, the columns of ``DetailsLogger.Detail``: ``doc`` (the
``Doc``, whose ``id`` names the document), ``model_response`` and ``metric``
(a struct of the document's score per metric). Older lighteval versions
name the metric column ``metrics``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs._readers import check_same_items
from pdcompare.inputs.items import from_items
from pdcompare.inputs.sources import expand, path_list, with_source

__all__ = ["from_lighteval"]

_PREFIX = "details_"
_TOOL = "lighteval"


def _pyarrow() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        msg = "from_lighteval reads parquet files with pyarrow: pip install pdcompare[arrow]"
        raise ImportError(msg) from None
    return pq


def _task_model(path: Path) -> tuple[str, str]:
    """The task (from the file's name) and the model (from the folders above it)."""
    stem = path.stem
    if (
        path.suffix != ".parquet"
        or not stem.startswith(_PREFIX)
        or "_" not in stem[len(_PREFIX) :]
    ):
        msg = (
            f"cannot read {str(path)!r}: its name is not details_<task>_<date>.parquet, the "
            "name lighteval gives a details file (the task is read from it)."
        )
        raise ValueError(msg)
    task, _, _ = stem[len(_PREFIX) :].rpartition("_")
    parts = path.parts
    if "details" in parts[:-2]:
        at = len(parts) - 1 - parts[::-1].index("details")
        model = "/".join(parts[at + 1 : -2])
    else:
        model = path.parent.parent.name
    return task, model or path.parent.name


def _read(path: Path, metric: str | None) -> tuple[str, np.ndarray, np.ndarray]:
    """(metric, document ids, scores) of one details file."""
    pq = _pyarrow()
    try:
        schema = pq.read_schema(path)
    except Exception as error:  # pyarrow raises ArrowInvalid and OSError kinds
        msg = f"cannot read {str(path)!r}: it is not a parquet file ({error})."
        raise ValueError(msg) from None
    column = next((c for c in ("metric", "metrics") if c in schema.names), None)
    if column is None:
        msg = (
            f"cannot read {str(path)!r}: it has no `metric` column, so it is not a lighteval "
            f"details file; its columns are {', '.join(map(repr, schema.names[:10]))}."
        )
        raise ValueError(msg)
    names = [field.name for field in schema.field(column).type]
    if metric is None:
        if len(names) != 1:
            msg = (
                f"{str(path)!r} holds several metrics: {', '.join(map(repr, names))}; pick "
                "one with `metric=`."
            )
            raise ValueError(msg)
        metric = names[0]
    if metric not in names:
        msg = (
            f"`metric` {metric!r} is not in {str(path)!r}; it holds {', '.join(map(repr, names))}."
        )
        raise ValueError(msg)
    table = pq.read_table(path, columns=[c for c in ("doc", column) if c in schema.names])
    scores = table.column(column).combine_chunks().field(metric)
    values = np.asarray(scores.cast("float64").to_numpy(zero_copy_only=False), dtype=float)
    ids = None
    if "doc" in table.column_names and "id" in [f.name for f in schema.field("doc").type]:
        ids = np.asarray(
            table.column("doc").combine_chunks().field("id").to_pylist(), dtype=object
        )
    if ids is None or any(i in (None, "") for i in ids):
        ids = np.arange(len(values))  # documents in the order lighteval scored them
    return metric, ids, values


def from_lighteval(
    paths: str | Path | Iterable[str | Path],
    *,
    metric: str | None = None,
    greater_is_better: bool = True,
) -> pd.DataFrame:
    r"""Read lighteval details parquet files as an items frame.

    Parameters
    ----------
    paths : str, pathlib.Path or list of them
        ``details_<task>_<date>.parquet`` files, or folders searched
        (recursively) for them: one file per model and task.
    metric : str, optional
        The key of the ``metric`` struct to read (``"acc"``, ``"em"``, ...);
        without it each file must hold one.
    greater_is_better : bool, default True
        False for a metric where lower is better.

    Returns
    -------
    pandas.DataFrame
        Items frame (see :func:`pdcompare.from_items`): one row per model
        (the folders between ``details/`` and the date folder, as lighteval
        writes ``<org>/<model>``), one column per document (``doc.id``, or
        the row's position when lighteval left it empty), per ``(task,
        document)`` with several tasks.

    Raises
    ------
    ValueError
        A file that is not a lighteval details file (not parquet, not named
        ``details_<task>_<date>.parquet``, no ``metric`` column), named;
        several metrics without ``metric=``; models without the same documents.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pyarrow as pa, pyarrow.parquet as pq
    >>> import pdcompare
    >>> out = Path(tempfile.mkdtemp())
    >>> date = "2025-01-15T10-30-00.000000"
    >>> for model, acc in [("org/small", [1, 0, 0]), ("org/large", [1, 1, 0])]:
    ...     folder = out / "details" / model / date
    ...     folder.mkdir(parents=True)
    ...     rows = [{"doc": {"id": str(i), "query": "?"}, "metric": {"acc": float(a)}}
    ...             for i, a in enumerate(acc)]
    ...     pq.write_table(pa.Table.from_pylist(rows),
    ...                    folder / f"details_lighteval|arc:easy|0_{date}.parquet")
    >>> pdcompare.from_lighteval(out).sort_index()
    doc_id       0    1    2
    model
    org/large  1.0  1.0  0.0
    org/small  1.0  0.0  0.0
    """
    if metric is not None and not isinstance(metric, str):
        msg = f"`metric` must be a metric name (str) or None; got {type(metric).__name__}."
        raise TypeError(msg)
    files = expand(
        path_list(paths, "paths", "lighteval details files"),
        (f"{_PREFIX}*.parquet",),
        "lighteval details file",
    )
    tables, covered, chosen = [], {}, set()
    for path in files:
        task, model = _task_model(path)
        name, ids, values = _read(path, metric)
        chosen.add(name)
        if (model, task) in covered:
            msg = (
                f"two details files for model {model!r} and task {task!r}: "
                f"{covered[model, task][0]!r} and {str(path)!r}; pass one of them."
            )
            raise ValueError(msg)
        covered[model, task] = (str(path), set(ids.tolist()))
        tables.append(pd.DataFrame({"model": model, "task": task, "doc_id": ids, "score": values}))
    if len(chosen) > 1:
        shown = ", ".join(map(repr, sorted(chosen)))
        msg = f"the files hold different metrics ({shown}); pick one with `metric=`."
        raise ValueError(msg)
    check_same_items(
        covered,
        "documents",
        "Run every model with the same --max-samples, or pass the files that match.",
    )
    long = pd.concat(tables, ignore_index=True)
    several = not (long["task"] == long["task"].iloc[0]).all()
    frame = from_items(
        long,
        model="model",
        item="doc_id",
        score="score",
        task="task" if several else None,
        greater_is_better=greater_is_better,
    )
    source = {
        "format": "lighteval",
        "files": [str(p) for p in files],
        "model": "details/<model>/<date>/ folders",
        "item": "doc.id",
        "task": "details_<task>_<date>.parquet",
        "metric": chosen.pop(),
    }
    return with_source(frame, source)
