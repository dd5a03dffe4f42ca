"""Reading HELM run directories (``per_instance_stats.json`` and ``run_spec.json``).

``helm-run`` writes one directory per run under
``benchmark_output/runs/<suite>/``, named after the run spec
(``mmlu:subject=philosophy,method=multiple_choice_joint,model=openai_gpt2``).
Its ``run_spec.json`` names the run and, in ``adapter_spec.model``, the
model; its ``per_instance_stats.json`` is a list of
``{"instance_id", "train_trial_index", "stats": [...]}`` (HELM's
``PerInstanceStats``), each stat ``{"name": {"name", "split", ...}, "count",
"sum", "mean", ...}`` (HELM's ``Stat``; ``mean`` is absent when ``count`` is
0). Only the stats of one split are read (an instance of another split,
``valid`` say, is left out). Instances under a perturbation (``"perturbation"`` in the record or in
the stat's name) are robustness variants and are left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs._readers import check_same_items
from pdcompare.inputs.items import from_items
from pdcompare.inputs.sources import cost_means, path_list, read_json, with_source

__all__ = ["from_helm"]

_STATS = "per_instance_stats.json"
_SPEC = "run_spec.json"
_TOOL = "HELM"
#: The stats kept as costs, under the names they are kept by.
_COSTS = {
    "inference_runtime": "inference_runtime",
    "num_prompt_tokens": "num_prompt_tokens",
    "num_output_tokens": "num_output_tokens",
}
#: Stats that describe the run rather than score it, left out of the list of metrics.
_BOOKKEEPING = {
    "num_references",
    "num_train_trials",
    "num_train_instances",
    "num_prompt_tokens",
    "num_completion_tokens",
    "num_output_tokens",
    "num_bytes",
    "num_perplexity_tokens",
    "training_co2_cost",
    "training_energy_cost",
    "inference_runtime",
    "batch_size",
    "prompt_truncated",
    "max_prob",
    "logprob",
}


def _run_dirs(run_dirs: Any) -> list[Path]:
    """Run directories: those given, and those holding a run_spec.json under a given folder."""
    dirs: list[Path] = []
    for path in path_list(run_dirs, "run_dirs", "HELM run directories"):
        if not path.is_dir():
            msg = (
                f"cannot read {str(path)!r}: it is a file; give HELM run directories (those "
                f"holding {_SPEC} and {_STATS}) or the folder of runs."
            )
            raise ValueError(msg)
        if (path / _SPEC).is_file() or (path / _STATS).is_file():
            dirs.append(path)
            continue
        found = sorted(spec.parent for spec in path.rglob(_SPEC))
        if not found:
            msg = f"{str(path)!r} holds no HELM run directory (no {_SPEC} below it)."
            raise ValueError(msg)
        dirs.extend(found)
    return list(dict.fromkeys(dirs))


def _task(spec: dict[str, Any]) -> str:
    """The run's name without its ``model=`` (and ``model_deployment=``) argument."""
    name = str(spec.get("name", ""))
    head, _, args = name.partition(":")
    kept = [a for a in args.split(",") if a and not a.startswith(("model=", "model_deployment="))]
    return f"{head}:{','.join(kept)}" if kept else head


def _read_run(path: Path, metric: str | None, split: str) -> tuple[dict, list[dict]]:
    """(what the run is, its rows ``instance_id, trial, score, costs...``) of one run directory."""
    if not (path / _STATS).is_file():
        msg = (
            f"cannot read {str(path)!r}: it has no {_STATS} (helm-run writes it for every run; "
            "a run that did not finish, or a folder of another tool, lacks it)."
        )
        raise ValueError(msg)
    if not (path / _SPEC).is_file():
        msg = f"cannot read {str(path)!r}: it has no {_SPEC}, which names the model of the run."
        raise ValueError(msg)
    spec = read_json(path / _SPEC, _TOOL)
    model = (spec.get("adapter_spec") or {}).get("model") if isinstance(spec, dict) else None
    if not model:
        msg = f"cannot read {str(path / _SPEC)!r}: it has no `adapter_spec.model`."
        raise ValueError(msg)
    records = read_json(path / _STATS, _TOOL)
    if not isinstance(records, list) or not all(
        isinstance(r, dict) and "instance_id" in r for r in records
    ):
        msg = (
            f"cannot read {str(path / _STATS)!r}: it is not a list of per-instance stats "
            "(objects with `instance_id` and `stats`)."
        )
        raise ValueError(msg)
    names: set[str] = set()
    rows = []
    for record in records:
        if record.get("perturbation"):
            continue
        values = {}
        for stat in record.get("stats") or []:
            name = stat.get("name") or {}
            if name.get("perturbation") or name.get("split", split) != split:
                continue
            names.add(str(name.get("name")))
            count = stat.get("count") or 0
            values[str(name.get("name"))] = stat["sum"] / count if count else np.nan
        if not values:  # an instance of another split (HELM keeps train/valid ones too)
            continue
        rows.append(
            {
                "instance_id": str(record["instance_id"]),
                "trial": int(record.get("train_trial_index") or 0),
                **values,
            }
        )
    run = {"model": str(model), "task": _task(spec), "dir": str(path), "names": names}
    return run, rows


def _metric(runs: list[dict], metric: str | None) -> str:
    shared = set.intersection(*(run["names"] for run in runs))
    scores = sorted(shared - _BOOKKEEPING)
    if metric is None:
        msg = (
            "`metric`: name the per-instance stat to compare; the runs share "
            f"{', '.join(map(repr, scores[:20]))}{' ...' if len(scores) > 20 else ''}."
        )
        raise ValueError(msg)
    if not isinstance(metric, str):
        msg = f"`metric` must be a stat name (str); got {type(metric).__name__}."
        raise TypeError(msg)
    for run in runs:
        if metric not in run["names"]:
            msg = (
                f"`metric` {metric!r} is not in {run['dir']!r}; its stats include "
                f"{', '.join(map(repr, sorted(run['names'] - _BOOKKEEPING)[:20]))}."
            )
            raise ValueError(msg)
    return metric


def from_helm(
    run_dirs: str | Path | Iterable[str | Path],
    *,
    metric: str | None = None,
    split: str = "test",
    greater_is_better: bool = True,
) -> pd.DataFrame:
    r"""Read HELM runs (``per_instance_stats.json``) as an items frame.

    Parameters
    ----------
    run_dirs : str, pathlib.Path or list of them
        HELM run directories (each holding ``run_spec.json`` and
        ``per_instance_stats.json``), or folders searched for them
        (``benchmark_output/runs/<suite>``).
    metric : str
        The per-instance stat to compare (``"exact_match"``,
        ``"quasi_exact_match"``, ...); without it the stats the runs share
        are listed.
    split : str, default "test"
        The split of the stats to read.
    greater_is_better : bool, default True
        False for a stat where lower is better.

    Returns
    -------
    pandas.DataFrame
        Items frame (see :func:`pdcompare.from_items`): one row per
        ``adapter_spec.model``, one column per ``instance_id`` (per
        ``(task, instance_id)`` when the runs cover several scenarios, the
        task being the run's name without its model), the train trials
        (``train_trial_index``) as samples. The mean ``inference_runtime``
        (seconds), ``num_prompt_tokens`` and ``num_output_tokens`` of each
        model are kept for :func:`pdcompare.costs`.

    Raises
    ------
    ValueError
        A run directory without ``per_instance_stats.json`` or
        ``run_spec.json``, named; a metric a run lacks; models that do not
        cover the same instances.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import pdcompare
    >>> root = Path(tempfile.mkdtemp())
    >>> for model, right in [("openai/gpt2", [1, 0, 0]), ("openai/gpt2-xl", [1, 1, 0])]:
    ...     run = root / f"mmlu:subject=philosophy,model={model.replace('/', '_')}"
    ...     run.mkdir()
    ...     spec = {"name": run.name, "adapter_spec": {"model": model}}
    ...     _ = (run / "run_spec.json").write_text(json.dumps(spec))
    ...     stats = [{"instance_id": f"id{i}", "train_trial_index": 0, "stats": [
    ...         {"name": {"name": "exact_match", "split": "test"}, "count": 1, "sum": r}]}
    ...         for i, r in enumerate(right)]
    ...     _ = (run / "per_instance_stats.json").write_text(json.dumps(stats))
    >>> pdcompare.from_helm(root, metric="exact_match")
    instance_id     id0  id1  id2
    model
    openai/gpt2     1.0  0.0  0.0
    openai/gpt2-xl  1.0  1.0  0.0
    """
    runs, tables = [], []
    for path in _run_dirs(run_dirs):
        run, rows = _read_run(path, metric if isinstance(metric, str) else None, split)
        runs.append(run)
        tables.append((run, rows))
    metric = _metric(runs, metric)
    frames = []
    covered: dict[tuple[str, str], tuple[str, set]] = {}
    for run, rows in tables:
        table = pd.DataFrame(rows)
        keep = ["instance_id", "trial", metric, *[c for c in _COSTS if c in table.columns]]
        table = table[keep].assign(model=run["model"], task=run["task"])
        if (run["model"], run["task"]) in covered:
            msg = (
                f"two runs of model {run['model']!r} on {run['task']!r}: "
                f"{covered[run['model'], run['task']][0]!r} and {run['dir']!r}; pass one of them."
            )
            raise ValueError(msg)
        covered[run["model"], run["task"]] = (run["dir"], set(table["instance_id"]))
        frames.append(table)
    check_same_items(
        covered,
        "instances",
        "Run every model with the same --max-eval-instances, or pass the runs that match.",
    )
    long = pd.concat(frames, ignore_index=True)
    several_tasks = not (long["task"] == long["task"].iloc[0]).all()
    several_trials = not (long["trial"] == long["trial"].iloc[0]).all()
    frame = from_items(
        long,
        model="model",
        item="instance_id",
        score=metric,
        sample="trial" if several_trials else None,
        task="task" if several_tasks else None,
        greater_is_better=greater_is_better,
    )
    source = {
        "format": "helm",
        "files": [run["dir"] for run in runs],
        "model": "run_spec.adapter_spec.model",
        "item": "instance_id",
        "sample": "train_trial_index" if several_trials else None,
        "task": "run_spec.name",
        "metric": metric,
        "split": split,
    }
    return with_source(frame, source, cost_means(long, "model", _COSTS))
