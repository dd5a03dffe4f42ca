"""Reading inspect_ai evaluation logs as an items frame.

inspect_ai writes one log per model and task (``.eval`` or ``.json``); each
holds its samples, one per dataset sample and epoch, each with a score per
scorer. The logs are read by inspect_ai's own readers (a lazy import: ``pip install
pdcompare[inspect]``): a log file by its header (``read_eval_log(...,
header_only=True)``) and its sample summaries
(``read_eval_log_sample_summaries``: ids, epochs, scores and metadata without
the messages), so that a large log reads fast. The sample ids are the items,
the epochs the samples of an item, ``log.eval.model`` the model.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.inputs._readers import check_same_items
from pdcompare.inputs.items import from_items
from pdcompare.inputs.sources import with_source

__all__ = ["from_inspect"]

# The strings inspect_ai's value_to_float maps (CORRECT, INCORRECT, PARTIAL, NOANSWER and
# the boolean words); other strings it maps to 0 with a logged warning, which we refuse.
_WORDS = {"c", "i", "p", "n", "yes", "no", "true", "false"}


def _inspect() -> Any:
    try:
        import inspect_ai.log
        import inspect_ai.scorer
    except ImportError:
        msg = "from_inspect needs inspect_ai: pip install pdcompare[inspect]"
        raise ImportError(msg) from None
    return inspect_ai


def _entries(logs: Any) -> list[Any]:
    """The logs named by ``logs``: EvalLog objects and paths, folders expanded."""
    inspect_ai = _inspect()
    if isinstance(logs, (str, Path)) or not isinstance(logs, Iterable):
        logs = [logs]
    entries: list[Any] = []
    for entry in logs:
        if isinstance(entry, inspect_ai.log.EvalLog):
            entries.append(entry)
            continue
        if not isinstance(entry, (str, Path)):
            msg = (
                "`logs` must hold inspect_ai EvalLog objects or paths of log files or "
                f"folders; got {type(entry).__name__}"
            )
            raise TypeError(msg)
        path = Path(entry)
        if path.is_dir():
            infos = inspect_ai.log.list_eval_logs(str(path), descending=False)
            if not infos:
                msg = (
                    f"{str(path)!r} holds no inspect_ai log (.eval or .json file named as "
                    "inspect_ai names its logs, which inspect_ai.log.list_eval_logs lists); "
                    "pass renamed log files by their paths"
                )
                raise ValueError(msg)
            entries.extend(info.name for info in infos)
        elif path.is_file():
            entries.append(str(path))
        else:
            msg = f"cannot read {str(path)!r}: no such file or folder"
            raise FileNotFoundError(msg)
    if not entries:
        msg = "`logs` is empty; give inspect_ai logs, their files or their folder"
        raise ValueError(msg)
    return entries


@dataclass(frozen=True)
class _Log:
    """One log as read: its name, its header (an EvalLog) and its samples or their summaries."""

    name: str
    header: Any
    samples: list[Any]
    path: str | None = None


def _read(entry: Any) -> _Log:
    """One entry: an EvalLog as it is; a file by its header and its sample summaries.

    inspect_ai's ``read_eval_log_sample_summaries`` reads each sample's id,
    epoch, scores and (thinned) metadata without its messages and events:
    all a frame of scores needs, and much faster than the whole log.
    """
    inspect_ai = _inspect()
    if isinstance(entry, inspect_ai.log.EvalLog):
        name = entry.location or f"the EvalLog of {entry.eval.model}"
        return _Log(name, entry, list(entry.samples or []))
    try:
        header = inspect_ai.log.read_eval_log(entry, header_only=True)
        summaries = inspect_ai.log.read_eval_log_sample_summaries(entry)
    except Exception as error:  # inspect_ai raises many kinds (zip, JSON, validation)
        reason = " ".join(f"{type(error).__name__}: {error}".split())[:300]
        msg = f"cannot read {entry!r}: inspect_ai cannot read it as an evaluation log ({reason})"
        raise ValueError(msg) from None
    return _Log(str(entry), header, summaries, path=str(entry))


def _check_finished(log: _Log) -> None:
    """Refuse a log that ended in error or was cancelled, naming its error and eval_retry.

    A log still running (status "started", also that of an EvalLog built by
    hand) is read: the samples it lacks are named by ``check_same_items``.
    """
    status = log.header.status
    if status == "success":
        return
    retry = (
        "retry it with inspect_ai's `eval_retry` (`inspect eval-retry <log>`) and read the "
        "retried log, or leave it out"
    )
    if status == "error":
        error = log.header.error
        said = " ".join(error.message.split())[:300] if error is not None else "no error recorded"
        msg = (
            f"cannot read {log.name!r}: the evaluation ended in error ({said}), so its "
            f"{len(log.samples)} samples are not all it should hold, complete and scored: "
            f"{retry}"
        )
        raise ValueError(msg)
    if status == "cancelled":
        msg = f"cannot read {log.name!r}: the evaluation was cancelled; {retry}"
        raise ValueError(msg)


def _scorer(log: _Log, scorer: str | None) -> str:
    """The scorer to read: ``scorer``, else the log's first."""
    name = log.name
    names = list(dict.fromkeys(key for sample in log.samples for key in (sample.scores or {})))
    if not names:
        msg = f"cannot read {name!r}: its samples have no scores (was the task scored?)"
        raise ValueError(msg)
    if scorer is None:
        results = log.header.results
        if results is not None and results.scores:
            first = results.scores[0].scorer
            if first in names:
                return first
        return names[0]
    if scorer not in names:
        msg = (
            f"`scorer` {scorer!r} is not in {name!r}; its scorers are "
            f"{', '.join(map(repr, names))}"
        )
        raise ValueError(msg)
    return scorer


def _to_float(name: str, scorer: str, value: Any, convert: Any) -> float:
    """A score value through inspect_ai's ``value_to_float``, refusing what it cannot map."""
    if value is None:
        return math.nan
    if isinstance(value, (Mapping, list, tuple)):
        msg = (
            f"cannot read {name!r}: scorer {scorer!r} gives {type(value).__name__} values "
            f"({value!r}), not one number per sample; pick a scorer with one value by `scorer=`"
        )
        raise ValueError(msg)
    if isinstance(value, str) and value.strip().lower() not in _WORDS:
        try:
            float(value)
        except ValueError:
            msg = (
                f"cannot read {name!r}: scorer {scorer!r} gives the value {value!r}, which "
                "inspect_ai's value_to_float does not map to a number"
            )
            raise ValueError(msg) from None
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isnan(value):
        return math.nan
    return float(convert(value))


def _solver(header: Any) -> str:
    """The solver of a log, as inspect_ai names it (its plan's steps when not named)."""
    if header.eval.solver:
        return str(header.eval.solver)
    steps = header.plan.steps if header.plan is not None else []
    return " + ".join(step.solver for step in steps) or "no solver"


def _arguments(logs: list[_Log]) -> list[str]:
    """Each log's task arguments that differ between ``logs``, as ``key=value``."""
    args = [dict(log.header.eval.task_args or {}) for log in logs]
    keys = sorted({key for given in args for key in given}, key=str)
    differ = [key for key in keys if len({repr(given.get(key)) for given in args}) > 1]
    return [", ".join(f"{key}={given.get(key)!r}" for key in differ) for given in args]


def _model_names(logs: list[_Log], model: Any) -> list[str]:
    """The model of each log: ``model=`` (names or a callable), else ``log.eval.model``.

    Two logs of one model and task are told apart by their task arguments or
    their solver, appended to the model's name; logs alike in both are refused.
    """
    if callable(model):
        names = [model(log.header) for log in logs]
        bad = [name for name in names if not isinstance(name, str)]
        if bad:
            msg = f"`model`: the callable must return a model name (str); it returned {bad[0]!r}"
            raise TypeError(msg)
        return names
    if model is not None:
        if isinstance(model, str) or not isinstance(model, Sequence):
            msg = (
                "`model` must be a list of names (one per log, in the order of `logs`) or a "
                f"callable taking a log and returning its name; got {type(model).__name__}"
            )
            raise TypeError(msg)
        if len(model) != len(logs) or not all(isinstance(name, str) for name in model):
            msg = (
                f"`model` must give one name (str) per log: {len(logs)} logs "
                f"({', '.join(repr(log.name) for log in logs[:5])}), {len(model)} names"
            )
            raise ValueError(msg)
        return list(model)
    names = [str(log.header.eval.model) for log in logs]
    groups: dict[tuple[str, str], list[int]] = {}
    for k, log in enumerate(logs):
        groups.setdefault((names[k], str(log.header.eval.task)), []).append(k)
    for (base, task), members in groups.items():
        if len(members) > 1:
            for k, label in zip(members, _tell_apart([logs[k] for k in members]), strict=True):
                if label is None:
                    shown = ", ".join(repr(logs[k].name) for k in members)
                    msg = (
                        f"two logs for model {base!r} and task {task!r} with the same task "
                        f"arguments and solver: {shown}; name the models with `model=` (a "
                        "list of names, one per log, or a callable of the log), or pass one "
                        "of them"
                    )
                    raise ValueError(msg)
                names[k] = f"{base} ({label})"
    return names


def _tell_apart(logs: list[_Log]) -> list[str | None]:
    """Labels that tell logs of one model apart: task arguments, solver, or both."""
    arguments = _arguments(logs)
    solvers = [f"solver {_solver(log.header)}" for log in logs]
    both = [", ".join(filter(None, pair)) for pair in zip(arguments, solvers, strict=True)]
    for labels in (arguments, solvers, both):
        if len(set(labels)) == len(labels) and all(labels):
            return list(labels)
    return [None] * len(logs)


_THINNED = "Key removed from summary (> 1k)"


def _clusters(log: _Log, cluster: str) -> list[Any]:
    """The ``cluster`` key of each sample's metadata (the whole log where summaries thin it)."""
    values = []
    for sample in log.samples:
        metadata = sample.metadata or {}
        if cluster not in metadata:
            keys = ", ".join(map(repr, list(metadata)[:10])) or "none"
            msg = (
                f"`cluster`: sample {sample.id!r} (epoch {sample.epoch}) of {log.name!r} has no "
                f"metadata key {cluster!r}; its metadata keys: {keys}"
            )
            raise ValueError(msg)
        values.append(metadata[cluster])
    thinned = any(
        isinstance(value, str) and (value == _THINNED or value.endswith("...")) for value in values
    )
    if thinned and log.path is not None:
        # the summaries shorten long metadata: read those of the whole log
        whole = _inspect().log.read_eval_log(log.path).samples or []
        by_key = {(s.id, s.epoch): (s.metadata or {}).get(cluster) for s in whole}
        values = [by_key.get((s.id, s.epoch)) for s in log.samples]
    return values


def _log_table(log: _Log, model: str, scorer: str | None, cluster: str | None) -> pd.DataFrame:
    """One log's rows: ``model, task, item, epoch, score`` (and ``cluster``)."""
    if not log.samples:
        msg = (
            f"cannot read {log.name!r}: it holds no samples (status {log.header.status!r}; a "
            "log read with header_only=True has none)"
        )
        raise ValueError(msg)
    chosen = _scorer(log, scorer)
    unscored = [s.id for s in log.samples if chosen not in (s.scores or {})]
    if unscored:
        msg = (
            f"cannot read {log.name!r}: {len(unscored)} samples have no score of scorer "
            f"{chosen!r} (sample id {unscored[0]!r} first; status {log.header.status!r})"
        )
        raise ValueError(msg)
    convert = _inspect().scorer.value_to_float()
    columns = {
        "model": model,
        "task": str(log.header.eval.task),
        "item": [s.id for s in log.samples],
        "epoch": [s.epoch for s in log.samples],
        "score": [
            _to_float(log.name, chosen, s.scores[chosen].value, convert) for s in log.samples
        ],
    }
    empty = [
        s.id for s, value in zip(log.samples, columns["score"], strict=True) if value != value
    ]
    if empty:
        msg = (
            f"cannot read {log.name!r}: {len(empty)} samples have no value (NaN) of scorer "
            f"{chosen!r} (sample id {empty[0]!r} first); a missing score is not a wrong "
            "answer: rescore them (inspect_ai's `score`), or pick another scorer by `scorer=`"
        )
        raise ValueError(msg)
    if cluster is not None:
        columns["cluster"] = _clusters(log, cluster)
    return pd.DataFrame(columns)


def _inspect_table(
    logs: Any,
    scorer: str | None = None,
    *,
    model: Any = None,
    cluster: str | None = None,
    chosen: dict[str, str] | None = None,
) -> pd.DataFrame:
    """The long table ``model, task, item, epoch, score`` (and ``cluster``) of inspect_ai logs.

    ``chosen``, when given, is filled with each log's name -> the scorer read.
    """
    for keyword, value in (("scorer", scorer), ("cluster", cluster)):
        if value is not None and not isinstance(value, str):
            what = "a scorer's name" if keyword == "scorer" else "a key of sample.metadata"
            msg = f"`{keyword}` must be {what} (str) or None; got {type(value).__name__}"
            raise TypeError(msg)
    read = [_read(entry) for entry in _entries(logs)]
    for log in read:
        _check_finished(log)
    names = _model_names(read, model)
    tables = []
    seen: dict[tuple[str, str], str] = {}
    covered: dict[tuple[str, str], tuple[str, set]] = {}
    for log, name in zip(read, names, strict=True):
        task = str(log.header.eval.task)
        if (name, task) in seen:
            msg = (
                f"two logs for model {name!r} and task {task!r}: {seen[name, task]!r} and "
                f"{log.name!r}; give each log its own name with `model=`, or pass one of them"
            )
            raise ValueError(msg)
        seen[name, task] = log.name
        table = _log_table(log, name, scorer, cluster)
        if chosen is not None:
            chosen[log.name] = _scorer(log, scorer)
        covered[name, task] = (log.name, set(table["item"]))
        tables.append(table)
    check_same_items(
        covered,
        "samples",
        "A log that ended in error or was cancelled holds only the samples it finished: "
        "retry it (inspect_ai's eval_retry), or read the logs of the models that finished.",
    )
    return pd.concat(tables, ignore_index=True)


def from_inspect(
    logs: Any,
    *,
    model: Sequence[str] | Callable[[Any], str] | None = None,
    cluster: str | None = None,
    scorer: str | None = None,
) -> pd.DataFrame:
    """Read inspect_ai evaluation logs as an items frame.

    Parameters
    ----------
    logs : EvalLog, str, pathlib.Path or list of them
        inspect_ai logs (one per model and task): ``EvalLog`` objects (what
        ``inspect_ai.eval`` returns), paths of ``.eval``/``.json`` log files,
        or a folder of them (listed by ``inspect_ai.log.list_eval_logs``).
    model : list of str or callable, optional
        The model of each log: a list of names, one per log in the order of
        ``logs`` (a folder's logs in the order ``list_eval_logs`` gives), or
        a callable taking the log (its header: ``log.eval``, ``log.plan``)
        and returning the name. Default ``log.eval.model``; two logs of one
        model and task are then told apart by their task arguments or their
        solver, shown in the name (``"openai/gpt-4o (solver cot)"``), and
        logs alike in both are refused, naming ``model=``.
    cluster : str, optional
        A key of ``sample.metadata`` holding each sample's cluster (its
        passage, repository, ...): standard errors are then clustered.
    scorer : str, optional
        The scorer whose values are read (a task may have several); default
        the log's first scorer.

    Returns
    -------
    pandas.DataFrame
        Items frame (see :func:`pdcompare.from_items`): one row per model
        (``log.eval.model``), one column per sample id (per ``(task, id)``
        with several tasks), each cell the mean over the epochs, which are
        the samples of an item.

    Raises
    ------
    ImportError
        inspect_ai is not installed (``pip install pdcompare[inspect]``).
    FileNotFoundError
        A path that does not exist.
    ValueError
        A log that cannot be read, named with the reason (not a log, no
        samples, no such scorer, a value that is not one number, a sample
        without the ``cluster`` key), a log that ended in error (named with
        its error and ``eval_retry``) or did not finish, two logs for one
        model and task that nothing tells apart, a log without some samples
        that others have.

    Notes
    -----
    Values go through inspect_ai's ``value_to_float()`` ("C" 1, "I" 0, "P"
    0.5, "N" 0, numbers as they are). A log file is read by its header and
    its sample summaries, not whole; where the summaries shorten a
    ``cluster`` value (long text), that log is read whole.

    Examples
    --------
    Logs as ``inspect_ai.eval(task, model=[...], epochs=2)`` returns them
    (built here by hand: two models, three questions, two epochs):

    >>> import pdcompare
    >>> from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec
    >>> from inspect_ai.scorer import Score
    >>> def log(model, answers):
    ...     spec = EvalSpec(created="2024-05-01T10:00:00", task="quiz", model=model,
    ...                     dataset=EvalDataset(), config=EvalConfig())
    ...     samples = [EvalSample(id=f"q{i}", epoch=epoch + 1, input="?", target="!",
    ...                           scores={"match": Score(value=value)})
    ...                for i, values in enumerate(answers) for epoch, value in enumerate(values)]
    ...     return EvalLog(eval=spec, samples=samples)
    >>> logs = [log("mockllm/a", ["CC", "CI", "II"]), log("mockllm/b", ["CI", "II", "II"])]
    >>> items = pdcompare.from_inspect(logs)
    >>> items
    item        q0   q1   q2
    model
    mockllm/a  1.0  0.5  0.0
    mockllm/b  0.5  0.0  0.0
    >>> items.cmp.summary()[["mean", "n_items", "samples_per_item"]].round(4)
                 mean  n_items  samples_per_item
    model
    mockllm/a  0.5000        3               2.0
    mockllm/b  0.1667        3               2.0
    """
    chosen: dict[str, str] = {}
    table = _inspect_table(logs, scorer, model=model, cluster=cluster, chosen=chosen)
    several = not (table["task"] == table["task"].iloc[0]).all()
    scorers = set(chosen.values())
    source = {
        "format": "inspect",
        "files": list(chosen),
        "model": "model=" if model is not None else "eval.model",
        "item": "sample id",
        "sample": "epoch",
        "task": "eval.task",
        "metric": scorers.pop() if len(scorers) == 1 else chosen,
        "cluster": f"metadata.{cluster}" if cluster is not None else None,
    }
    frame = from_items(
        table if several else table.drop(columns="task"),
        model="model",
        item="item",
        score="score",
        sample="epoch",
        cluster="cluster" if cluster is not None else None,
        task="task" if several else None,
    )
    return with_source(frame, source)
