"""Reading lm-evaluation-harness ``--log_samples`` output as an items frame.

``lm_eval --log_samples --output_path out`` writes, per model, a folder
``out/<model_name_sanitized>/`` holding ``results_<date>.json`` (the
aggregates, with ``model_name`` and ``higher_is_better``) and one
``samples_<task>_<date>.jsonl`` per task: one JSON object per line and per
(document, filter), with ``doc_id``, ``filter``, ``metrics`` (the names of
the metric keys) and one key per metric holding that document's score
(``EvaluationTracker.save_results_samples`` in
``lm_eval/loggers/evaluation_tracker.py``; the objects are built in
``lm_eval/evaluator.py``). The documents are the items.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import pandas as pd

from pdcompare.inputs._readers import check_same_items
from pdcompare.inputs.items import from_items
from pdcompare.inputs.sources import read_jsonl, with_source

__all__ = ["from_lm_eval"]

_SAMPLES_PREFIX = "samples_"
_SAMPLES_SUFFIX = ".jsonl"
# lm-evaluation-harness's `filter` of a task without filters.
_NO_FILTER = "none"

#: ``metric=``: a name, a list of names tried in order, or a mapping task -> name (or list).
Metric: TypeAlias = str | Sequence[str] | Mapping[str, str | Sequence[str]] | None


def _samples_files(paths: str | Path | Iterable[str | Path]) -> list[Path]:
    """The ``samples_*.jsonl`` files of ``paths`` (files; folders searched recursively)."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    elif not isinstance(paths, Iterable):
        msg = (
            "`paths` must be a path or a list of paths of lm-evaluation-harness "
            f"samples files or folders; got {type(paths).__name__}"
        )
        raise TypeError(msg)
    files: list[Path] = []
    for entry in paths:
        if not isinstance(entry, (str, Path)):
            msg = f"`paths` must hold paths (str or pathlib.Path); got {type(entry).__name__}"
            raise TypeError(msg)
        path = Path(entry)
        if path.is_dir():
            found = sorted(path.rglob(f"{_SAMPLES_PREFIX}*{_SAMPLES_SUFFIX}"))
            if not found:
                msg = (
                    f"{str(path)!r} holds no samples_<task>_<date>.jsonl file; run "
                    "lm_eval with --log_samples --output_path to write them"
                )
                raise ValueError(msg)
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            msg = f"cannot read {str(path)!r}: no such file or folder"
            raise FileNotFoundError(msg)
    if not files:
        msg = "`paths` is empty; give lm-evaluation-harness samples files or their folders"
        raise ValueError(msg)
    return list(dict.fromkeys(files))


def _task_and_date(path: Path) -> tuple[str, str]:
    """The task and date of ``samples_<task>_<date>.jsonl`` (lm-eval's ``get_file_task_name``)."""
    name = path.name
    stem = name[: -len(_SAMPLES_SUFFIX)] if name.endswith(_SAMPLES_SUFFIX) else ""
    if not stem.startswith(_SAMPLES_PREFIX) or stem.count("_") < 2:
        msg = (
            f"cannot read {str(path)!r}: its name is not samples_<task>_<date>.jsonl, the name "
            "lm-evaluation-harness gives a --log_samples file (the task is read from it)"
        )
        raise ValueError(msg)
    task, _, date = stem[len(_SAMPLES_PREFIX) :].rpartition("_")
    return task, date


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        msg = f"cannot read {str(path)!r}: it is not JSON ({error})"
        raise ValueError(msg) from None


def _results_beside(path: Path, date: str, read: dict[Path, Any]) -> dict[str, Any]:
    """The results json written with a samples file, else the only other one beside it.

    lm_eval writes ``results_<date>.json`` (``--output_path`` a folder) or
    ``<name>_<date>.json`` (``--output_path <name>.json``) with the same date as
    the samples files of the run. ``read`` holds the results files read so far
    in this call (one run writes one results file for all its tasks; it can be
    large).
    """
    same_run = sorted(path.parent.glob(f"*_{date}.json"))
    candidates = same_run or sorted(path.parent.glob("results_*.json"))
    for candidate in candidates:
        if candidate not in read:
            read[candidate] = _read_json(candidate)
    results = [read[candidate] for candidate in candidates]
    results = [r for r in results if isinstance(r, dict) and r.get("model_name")]
    names = {str(r["model_name"]) for r in results}
    if len(names) == 1:
        return results[0]
    return {}


def _records(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a samples file, one per line; errors name the file and line."""
    records = read_jsonl(path, "lm-evaluation-harness --log_samples", unit="samples")
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict) or "doc_id" not in record:
            msg = (
                f"cannot read {str(path)!r}: record {number} has no `doc_id`; expected the "
                "per-document objects lm-evaluation-harness writes with --log_samples"
            )
            raise ValueError(msg)
    return records


def _metric_names(record: dict[str, Any]) -> list[str]:
    """The metric keys of one record: its ``metrics`` list (older files: the numeric keys)."""
    names = record.get("metrics")
    if isinstance(names, list):
        return [str(name) for name in names]
    skip = {"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter"}
    return [
        key
        for key, value in record.items()
        if key not in skip and not key.endswith("_hash") and isinstance(value, numbers.Real)
    ]


def _listed_metrics(results: dict[str, Any], task: str) -> list[str]:
    """The metrics ``results_*.json`` lists for ``task``, in its order (``"metric,filter"``).

    lm-evaluation-harness writes each task's results as ``alias``, then for every
    (metric, filter) ``"metric,filter"`` and ``"metric_stderr,filter"``
    (``consolidate_results`` in ``lm_eval/evaluator_utils.py``).
    """
    entry = results.get("results", {}).get(task) if results else None
    if not isinstance(entry, dict):
        return []
    return [
        key
        for key in entry
        if "," in key and not key.partition(",")[0].endswith("_stderr") and key != "alias"
    ]


def _wanted(task: str, metric: Metric) -> list[str] | None:
    """The metric names to try for ``task``, in order (None: the default rule)."""
    if metric is None:
        return None
    if isinstance(metric, str):
        return [metric]
    if isinstance(metric, Mapping):
        chosen = metric.get(task)
        if chosen is None:
            return None
        return [chosen] if isinstance(chosen, str) else list(chosen)
    return list(metric)


def _choose(
    path: Path, task: str, records: list[dict[str, Any]], metric: Metric, listed: list[str]
) -> tuple[str, str]:
    """The (metric key, filter) to read from one file."""
    filters = list(dict.fromkeys(str(r.get("filter", _NO_FILTER)) for r in records))
    names = list(dict.fromkeys(name for r in records for name in _metric_names(r)))
    # lm-eval names a metric of a filtered task "metric,filter" in results_*.json.
    options = (
        names if len(filters) == 1 else [f"{name},{filt}" for filt in filters for name in names]
    )

    def split(key: str) -> tuple[str, str] | None:
        name, _, filt = key.partition(",")
        if not filt and len(filters) == 1:
            filt = filters[0]
        return (name, filt) if name in names and filt in filters else None

    wanted = _wanted(task, metric)
    if wanted is None:
        # the first metric results_*.json lists for the task that this file holds
        for key in listed:
            if split(key) is not None:
                return split(key)
        if len(options) != 1:
            msg = (
                f"{str(path)!r} holds several metrics: {', '.join(map(repr, options))}; "
                "pick one with `metric=` (a name, a list tried in order, or a mapping "
                "task -> metric)"
            )
            raise ValueError(msg)
        wanted = options
    for key in wanted:
        found = split(key)
        if found is not None:
            return found
    shown = " nor ".join(map(repr, wanted))
    msg = (
        f"`metric` {shown} is not in {str(path)!r} (task {task!r}); it holds "
        f"{', '.join(map(repr, options))}"
    )
    raise ValueError(msg)


def _score(path: Path, name: str, value: Any) -> float:
    if value is None:
        return math.nan
    if isinstance(value, numbers.Real):
        return float(value)
    msg = (
        f"cannot read {str(path)!r}: metric {name!r} holds {type(value).__name__} values, "
        "not one number per document (lm-evaluation-harness aggregates such metrics over "
        "the whole set); pick a per-document metric with `metric=`"
    )
    raise ValueError(msg)


def _read_file(
    path: Path, metric: Metric, read: dict[Path, Any]
) -> tuple[str, str, pd.DataFrame, bool | None, str]:
    """One samples file: model, task, its ``doc_id``/``score`` table, higher is better, metric.

    The metric read is named as lm-evaluation-harness does, ``"metric,filter"``
    (without a filter, its name alone).
    """
    task, date = _task_and_date(path)
    records = _records(path)
    results = _results_beside(path, date, read)
    name, filt = _choose(path, task, records, metric, _listed_metrics(results, task))
    rows = [r for r in records if str(r.get("filter", _NO_FILTER)) == filt]
    missing = [r["doc_id"] for r in rows if name not in r]
    if missing:
        msg = (
            f"cannot read {str(path)!r}: metric {name!r} is missing for "
            f"{len(missing)} documents (doc_id {missing[0]!r} first)"
        )
        raise ValueError(msg)
    table = pd.DataFrame(
        {
            "doc_id": [r["doc_id"] for r in rows],
            "score": [_score(path, name, r[name]) for r in rows],
        }
    )
    empty = table["score"].isna()
    if empty.any():
        msg = (
            f"cannot read {str(path)!r}: metric {name!r} has no value (null or NaN) for "
            f"{int(empty.sum())} documents (doc_id {table['doc_id'][empty].tolist()[0]!r} first); "
            "a missing score is not a wrong answer: pick another metric with `metric=`"
        )
        raise ValueError(msg)
    repeated = table["doc_id"].duplicated()
    if repeated.any():
        msg = (
            f"cannot read {str(path)!r}: doc_id {table['doc_id'][repeated].iloc[0]!r} appears "
            "more than once for one filter; a samples file has one line per document"
        )
        raise ValueError(msg)
    model = str(results["model_name"]) if results else path.parent.name
    higher = results.get("higher_is_better", {}).get(task, {}).get(name)
    key = name if filt == _NO_FILTER else f"{name},{filt}"
    return model, task, table, None if higher is None else bool(higher), key


def _check_metric(metric: Any) -> None:
    """``metric=`` is a name, a list of names, a mapping task -> name or list, or None."""

    def names(value: Any) -> bool:
        if isinstance(value, str):
            return True
        return (
            isinstance(value, Sequence)
            and len(value) > 0
            and all(isinstance(v, str) for v in value)
        )

    if metric is None or names(metric):
        return
    if isinstance(metric, Mapping) and all(
        isinstance(task, str) and names(value) for task, value in metric.items()
    ):
        return
    msg = (
        "`metric` must be a metric name (str), a non-empty list of names tried in order, or "
        f"a mapping from task to a name or list; got {metric!r}"
    )
    raise TypeError(msg)


def _lm_eval_table(
    paths: str | Path | Iterable[str | Path],
    metric: Metric = None,
    chosen: dict[str, str] | None = None,
) -> tuple[pd.DataFrame, bool]:
    """The long table ``model, task, doc_id, score`` of samples files, and higher is better.

    ``chosen``, when given, is filled with each file -> the metric read.
    """
    _check_metric(metric)
    tables = []
    seen: dict[tuple[str, str], Path] = {}
    covered: dict[tuple[str, str], tuple[str, set]] = {}
    read: dict[Path, Any] = {}
    directions: dict[bool, str] = {}
    for path in _samples_files(paths):
        model, task, table, higher, key = _read_file(path, metric, read)
        if chosen is not None:
            chosen[str(path)] = key
        if (model, task) in seen:
            msg = (
                f"two samples files for model {model!r} and task {task!r}: "
                f"{str(seen[model, task])!r} and {str(path)!r}; pass one of them"
            )
            raise ValueError(msg)
        seen[model, task] = path
        if higher is not None:
            directions.setdefault(higher, task)
        tables.append(table.assign(model=model, task=task))
        covered[model, task] = (str(path), set(table["doc_id"]))
    if len(directions) > 1:
        msg = (
            f"the metrics read are higher-is-better in task {directions[True]!r} but "
            f"lower-is-better in task {directions[False]!r}; read them separately"
        )
        raise ValueError(msg)
    check_same_items(
        covered,
        "documents",
        "Score the missing documents (a run with --limit scores only the first ones), or "
        "read the files of the models that scored all of them.",
    )
    long = pd.concat(tables, ignore_index=True)[["model", "task", "doc_id", "score"]]
    return long, directions.popitem()[0] if directions else True


def from_lm_eval(
    paths: str | Path | Iterable[str | Path], *, metric: Metric = None
) -> pd.DataFrame:
    r"""Read lm-evaluation-harness ``--log_samples`` files as an items frame.

    Parameters
    ----------
    paths : str, pathlib.Path or list of them
        ``samples_<task>_<date>.jsonl`` files, or folders searched (recursively)
        for them: one file per model and task, as ``lm_eval --log_samples
        --output_path`` writes them.
    metric : str, list of str or mapping, optional
        The per-document metric to read (``"acc"``, ``"exact_match"``; with
        several filters, lm-evaluation-harness's ``"metric,filter"``, e.g.
        ``"exact_match,strict-match"``): one name for every task, a list of
        names tried in order (the first a task's file holds), or a mapping
        task -> name (or list; tasks it does not name take the default).
        Without it, each task uses the first metric its ``results_*.json``
        lists (lm-evaluation-harness lists them in the order the task
        defines them); without a results file, a file with one metric uses
        it and one with several is refused, listing them.

    Returns
    -------
    pandas.DataFrame
        Items frame (see :func:`pdcompare.from_items`): one row per model, one
        column per document (``doc_id``), or per ``(task, doc_id)`` when the
        files hold several tasks.

    Raises
    ------
    FileNotFoundError
        A path that does not exist.
    ValueError
        A file that cannot be read, named with the reason (not
        ``samples_<task>_<date>.jsonl``, not JSON, no samples, a metric that is
        not one number per document), a metric that no name of ``metric=``
        matches, several metrics and no results file to choose by, two files
        for one model and task, a model without some documents that others
        have.

    Notes
    -----
    The model of a file is the ``model_name`` of the ``results_<date>.json``
    that lm-evaluation-harness writes beside it (the one of the same run, else
    the only one in the folder), else the folder's name; the task comes from
    the file's name. Whether higher is better comes from that results file's
    ``higher_is_better`` (higher when it does not say). Every model must have
    scored the same documents of a task: a file that lacks some is named.

    Examples
    --------
    Two models' files, written as ``lm_eval --log_samples`` writes them:

    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import pdcompare
    >>> out = Path(tempfile.mkdtemp())
    >>> for model, acc in [("org/small", [1, 0, 0, 1]), ("org/large", [1, 1, 0, 1])]:
    ...     folder = out / model.replace("/", "__")
    ...     folder.mkdir()
    ...     _ = (folder / "results_2024-05-01T10-00-00.json").write_text(
    ...         json.dumps({"model_name": model, "higher_is_better": {"arc": {"acc": True}}}))
    ...     lines = [json.dumps({"doc_id": i, "filter": "none", "metrics": ["acc"], "acc": a})
    ...              for i, a in enumerate(acc)]
    ...     _ = (folder / "samples_arc_2024-05-01T10-00-00.jsonl").write_text("\n".join(lines))
    >>> frame = pdcompare.from_lm_eval(out)
    >>> frame.mean(axis=1).sort_index()
    model
    org/large    0.75
    org/small    0.50
    dtype: float64
    """
    chosen: dict[str, str] = {}
    table, higher = _lm_eval_table(paths, metric, chosen)
    several = not (table["task"] == table["task"].iloc[0]).all()
    metrics = set(chosen.values())
    source = {
        "format": "lm-eval",
        "files": list(chosen),
        "model": "results_<date>.json model_name (else the folder's name)",
        "item": "doc_id",
        "task": "samples_<task>_<date>.jsonl",
        "metric": metrics.pop() if len(metrics) == 1 else chosen,
    }
    frame = from_items(
        table if several else table.drop(columns="task"),
        model="model",
        item="doc_id",
        score="score",
        task="task" if several else None,
        greater_is_better=higher,
    )
    return with_source(frame, source)
