"""Reading Every Eval Ever (EEE) files: instance-level samples and aggregate results.

Every Eval Ever (github.com/evaleval/every_eval_ever) stores an evaluation as
an aggregate ``<uuid>.json`` (``every_eval_ever/schemas/eval.schema.json``:
``model_info.id``, ``evaluation_results[]`` each with ``evaluation_name``,
``metric_config`` and ``score_details.score`` with its
``uncertainty.standard_error.value``) and, beside it, the instance-level
``<uuid>_samples.jsonl`` (``instance_level_eval.schema.json``, version 0.3.0:
one object per sample with ``model_id``, ``evaluation_name``, ``sample_id``,
``evaluation.score`` and ``evaluation.is_correct``, ``token_usage``,
``performance.latency_ms`` and ``metadata.epoch`` when a sample was drawn
several times).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_option
from pdcompare.inputs.benchmark import from_long
from pdcompare.inputs.items import from_items
from pdcompare.inputs.sources import (
    cost_means,
    expand,
    number,
    path_list,
    read_json,
    read_jsonl,
    with_source,
)

__all__ = ["from_eee"]

#: The newest schema version this reader knows (major, minor).
SCHEMA = (0, 3)
#: Instance-level metrics: the score, or correctness as 0/1.
INSTANCE_METRICS = ("score", "is_correct")
#: What an instance record keeps as costs, and where.
_COSTS = {
    "input_tokens": ("token_usage", "input_tokens"),
    "output_tokens": ("token_usage", "output_tokens"),
    "total_tokens": ("token_usage", "total_tokens"),
    "latency_ms": ("performance", "latency_ms"),
    "generation_time_ms": ("performance", "generation_time_ms"),
}
_TOOL = "Every Eval Ever"


def _check_version(path: Path, record: dict[str, Any]) -> None:
    version = record.get("schema_version")
    if not isinstance(version, str):
        msg = (
            f"cannot read {str(path)!r}: it has no `schema_version`, so it is not an "
            f"{_TOOL} file (or one of another tool)."
        )
        raise ValueError(msg)
    try:
        major_minor = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        major_minor = (999,)
    if major_minor > SCHEMA:
        msg = (
            f"cannot read {str(path)!r}: it is written with {_TOOL} schema version "
            f"{version}, newer than the {SCHEMA[0]}.{SCHEMA[1]} this reader knows; update "
            "pdcompare, or convert the file with every_eval_ever's own tools."
        )
        raise ValueError(msg)


def _field(record: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if not isinstance(record, dict):
            return None
        record = record.get(key)
    return record


def _instance_rows(path: Path, metric: str) -> list[dict[str, Any]]:
    rows = []
    for number_, record in enumerate(read_jsonl(path, _TOOL), start=1):
        if not isinstance(record, dict) or "sample_id" not in record or "model_id" not in record:
            msg = (
                f"cannot read {str(path)!r}: line {number_} has no `sample_id` and `model_id`, "
                f"so it is not an {_TOOL} instance-level file."
            )
            raise ValueError(msg)
        _check_version(path, record)
        value = _field(record, "evaluation", metric)
        score = number(value)
        if value is not None and np.isnan(score):
            msg = (
                f"cannot read {str(path)!r}: line {number_} has `evaluation.{metric}` "
                f"{value!r}, not a number."
            )
            raise ValueError(msg)
        epoch = _field(record, "metadata", "epoch")
        row = {
            "model": str(record["model_id"]),
            "task": str(record.get("evaluation_name", "")),
            "sample_id": str(record["sample_id"]),
            "epoch": None if epoch is None else str(epoch),
            "result": record.get("evaluation_result_id"),
            "score": score,
        }
        for name, keys in _COSTS.items():
            row[name] = number(_field(record, *keys))
        rows.append(row)
    return rows


def _refuse_repeats(table: pd.DataFrame, files: dict[str, str]) -> None:
    """Refuse a sample twice for one model and task without an epoch to tell them apart."""
    keys = ["model", "task", "sample_id", "epoch"]
    repeated = table.duplicated(subset=keys, keep=False)
    if repeated.any():
        first = table.loc[repeated].iloc[0]
        results = table.loc[repeated, "result"].dropna().unique()
        if len(results) > 1:
            msg = (
                f"{files[first['model']]!r} holds several evaluation results per sample "
                f"({', '.join(map(repr, results[:5]))}); pick one with `result=` (an "
                "evaluation_result_id)."
            )
            raise ValueError(msg)
        msg = (
            f"cannot read {files[first['model']]!r}: sample {first['sample_id']!r} of "
            f"{first['task']!r} appears more than once for model {first['model']!r} without "
            "`metadata.epoch` to tell the samples apart."
        )
        raise ValueError(msg)


def _from_instances(files: list[Path], metric: str, result: str | None) -> pd.DataFrame:
    check_option("metric", metric, INSTANCE_METRICS)
    rows, where = [], {}
    for path in files:
        read = _instance_rows(path, metric)
        for row in read:
            where.setdefault(row["model"], str(path))
        rows.extend(read)
    table = pd.DataFrame(rows)
    if result is not None:
        table = table.loc[table["result"] == result]
        if table.empty:
            found = sorted({str(r["result"]) for r in rows})
            msg = f"`result`: no sample has evaluation_result_id {result!r}; they have {found}."
            raise ValueError(msg)
    _refuse_repeats(table, where)
    several_tasks = not (table["task"] == table["task"].iloc[0]).all()
    has_epochs = table["epoch"].notna().any()
    if has_epochs:
        table["epoch"] = table["epoch"].fillna("")
    frame = from_items(
        table,
        model="model",
        item="sample_id",
        score="score",
        sample="epoch" if has_epochs else None,
        task="task" if several_tasks else None,
    )
    source = {
        "format": "eee",
        "level": "instance",
        "files": [str(p) for p in files],
        "model": "model_id",
        "item": "sample_id",
        "sample": "metadata.epoch" if has_epochs else None,
        "task": "evaluation_name",
        "metric": f"evaluation.{metric}",
        "result": result,
    }
    return with_source(frame, source, cost_means(table, "model", _COSTS))


def _aggregate_rows(path: Path, metric: str | None) -> list[dict[str, Any]]:
    record = read_json(path, _TOOL)
    if not isinstance(record, dict) or "evaluation_results" not in record:
        msg = (
            f"cannot read {str(path)!r}: it has no `evaluation_results`, so it is not an "
            f"{_TOOL} aggregate file (or one of another tool)."
        )
        raise ValueError(msg)
    _check_version(path, record)
    model = _field(record, "model_info", "id") or _field(record, "model_info", "name")
    rows = []
    for result in record["evaluation_results"] or []:
        config = result.get("metric_config") or {}
        metric_id = config.get("metric_id") or config.get("metric_name")
        if metric is not None and metric_id != metric:
            continue
        details = result.get("score_details") or {}
        rows.append(
            {
                "model": str(model),
                "dataset": str(result.get("evaluation_name", "")),
                "metric": metric_id,
                "score": number(details.get("score")),
                "se": number(_field(details, "uncertainty", "standard_error", "value")),
                "lower": config.get("lower_is_better"),
                "file": str(path),
            }
        )
    return rows


def _from_aggregates(files: list[Path], metric: str | None) -> pd.DataFrame:
    rows = [row for path in files for row in _aggregate_rows(path, metric)]
    if not rows:
        msg = f"`metric`: no evaluation result has metric_id {metric!r} in the files read."
        raise ValueError(msg)
    table = pd.DataFrame(rows)
    repeated = table.duplicated(subset=["model", "dataset"], keep=False)
    if repeated.any():
        first = table.loc[repeated].iloc[0]
        metrics = sorted({str(m) for m in table.loc[repeated, "metric"]})
        msg = (
            f"model {first['model']!r} has several results for {first['dataset']!r} "
            f"({first['file']!r}): metrics {', '.join(map(repr, metrics))}; pick one with "
            "`metric=` (a metric_id)."
        )
        raise ValueError(msg)
    directions = {bool(v) for v in table["lower"] if v is not None}
    if len(directions) > 1:
        msg = (
            "the results read mix lower-is-better and higher-is-better metrics; pick one "
            "with `metric=`."
        )
        raise ValueError(msg)
    frame = from_long(
        table,
        model="model",
        dataset="dataset",
        score="score",
        greater_is_better=True not in directions,
    )
    se = {
        str(model): {
            str(d): (None if np.isnan(s) else float(s))
            for d, s in zip(g["dataset"], g["se"], strict=True)
        }
        for model, g in table.groupby("model", sort=False)
    }
    source = {
        "format": "eee",
        "level": "aggregate",
        "files": [str(p) for p in files],
        "model": "model_info.id",
        "task": "evaluation_name",
        "metric": metric,
        "standard_error": se,
    }
    return with_source(frame, source)


def from_eee(
    paths: str | Path | Iterable[str | Path],
    *,
    metric: str | None = None,
    level: str | None = None,
    result: str | None = None,
) -> pd.DataFrame:
    r"""Read Every Eval Ever files: an items frame of samples, or a benchmark frame of scores.

    Parameters
    ----------
    paths : str, pathlib.Path or list of them
        ``*_samples.jsonl`` instance-level files, aggregate ``*.json`` files,
        or folders searched (recursively) for them.
    metric : str, optional
        Instance level: ``"score"`` (``evaluation.score``, the default) or
        ``"is_correct"`` (0/1). Aggregate level: the ``metric_config.metric_id``
        to read when an evaluation reports several.
    level : {"instance", "aggregate"}, optional
        Which files to read; by default the instance-level files when there
        are any, else the aggregate ones.
    result : str, optional
        Instance level: the ``evaluation_result_id`` to read when the files
        hold one record per sample and evaluation result (the schema's way
        of scoring one sample by several metrics); needed only then.

    Returns
    -------
    pandas.DataFrame
        Instance level: an items frame (see :func:`pdcompare.from_items`),
        one row per ``model_id``, one column per ``sample_id`` (per
        ``(evaluation_name, sample_id)`` with several evaluations), the
        epochs (``metadata.epoch``) as samples; the mean ``input_tokens``,
        ``output_tokens``, ``total_tokens``, ``latency_ms`` and
        ``generation_time_ms`` of each model, where every model has them, in
        ``attrs["pdcompare"]["costs"]`` (read them with
        :func:`pdcompare.costs`). Aggregate level: a benchmark frame, one
        column per ``evaluation_name``, the standard errors in
        ``attrs["pdcompare"]["source"]["standard_error"]``
        (model -> evaluation -> value) for :func:`pdcompare.rank_sets`.

    Raises
    ------
    ValueError
        A file that is not an Every Eval Ever file, or of a schema version
        newer than 0.3, named with the reason.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import pdcompare
    >>> folder = Path(tempfile.mkdtemp())
    >>> for model, correct in [("org/a", [1, 1, 0]), ("org/b", [0, 1, 0])]:
    ...     lines = [json.dumps({"schema_version": "0.3.0", "model_id": model,
    ...                          "evaluation_name": "demo", "sample_id": f"q{i}",
    ...                          "evaluation": {"score": float(c), "is_correct": bool(c)},
    ...                          "performance": {"latency_ms": 100.0 * (1 + i)}})
    ...              for i, c in enumerate(correct)]
    ...     _ = (folder / f"{model[-1]}_samples.jsonl").write_text("\n".join(lines))
    >>> frame = pdcompare.from_eee(folder)
    >>> frame
    sample_id   q0   q1   q2
    model
    org/a      1.0  1.0  0.0
    org/b      0.0  1.0  0.0
    >>> pdcompare.costs(frame, "latency_ms").tolist()
    [200.0, 200.0]
    """
    if metric is not None and not isinstance(metric, str):
        msg = f"`metric` must be a metric name (str) or None; got {type(metric).__name__}."
        raise TypeError(msg)
    if level is not None:
        check_option("level", level, ("instance", "aggregate"))
    found = expand(
        path_list(paths, "paths", f"{_TOOL} files"), ("*.jsonl", "*.json"), f"{_TOOL} files"
    )
    samples = [p for p in found if p.suffix == ".jsonl"]
    aggregates = [p for p in found if p.suffix != ".jsonl"]
    if level is None:
        level = "instance" if samples else "aggregate"
    if level == "instance":
        if not samples:
            msg = (
                "`level='instance'`: no instance-level file (*_samples.jsonl) among the "
                f"{len(found)} files."
            )
            raise ValueError(msg)
        return _from_instances(samples, metric or "score", result)
    if not aggregates:
        msg = f"`level='aggregate'`: no aggregate file (*.json) among {len(found)} files."
        raise ValueError(msg)
    return _from_aggregates(aggregates, metric)
