"""Reading inspect_ai evaluation logs as an items frame.

inspect_ai writes one log per model and task (``.eval`` or ``.json``); each
holds its samples, one per dataset sample and epoch, each with a score per
scorer. The logs are read by inspect_ai's own reader
(``inspect_ai.log.read_eval_log``, a lazy import: ``pip install
pdcompare[inspect]``): the sample ids are the items, the epochs the
samples of an item, ``log.eval.model`` the model.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.inputs._readers import check_same_items
from pdcompare.inputs.items import from_items

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


def _read(entry: Any) -> tuple[str, Any]:
    """(name, EvalLog) of one entry, read by inspect_ai's ``read_eval_log``."""
    inspect_ai = _inspect()
    if isinstance(entry, inspect_ai.log.EvalLog):
        return entry.location or f"the EvalLog of {entry.eval.model}", entry
    try:
        log = inspect_ai.log.read_eval_log(entry)
    except Exception as error:  # inspect_ai raises many kinds (zip, JSON, validation)
        reason = " ".join(f"{type(error).__name__}: {error}".split())[:300]
        msg = f"cannot read {entry!r}: inspect_ai cannot read it as an evaluation log ({reason})"
        raise ValueError(msg) from None
    return entry, log


def _scorer(name: str, log: Any, scorer: str | None) -> str:
    """The scorer to read: ``scorer``, else the log's first."""
    names = list(dict.fromkeys(key for sample in log.samples for key in (sample.scores or {})))
    if not names:
        msg = f"cannot read {name!r}: its samples have no scores (was the task scored?)"
        raise ValueError(msg)
    if scorer is None:
        if log.results is not None and log.results.scores:
            first = log.results.scores[0].scorer
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


def _inspect_table(logs: Any, scorer: str | None = None) -> pd.DataFrame:
    """The long table ``model, task, item, epoch, score`` of inspect_ai logs."""
    if scorer is not None and not isinstance(scorer, str):
        msg = f"`scorer` must be a scorer's name (str) or None; got {type(scorer).__name__}"
        raise TypeError(msg)
    convert = _inspect().scorer.value_to_float()
    tables = []
    seen: dict[tuple[str, str], str] = {}
    covered: dict[tuple[str, str], tuple[str, set]] = {}
    for entry in _entries(logs):
        name, log = _read(entry)
        if not log.samples:
            msg = (
                f"cannot read {name!r}: it holds no samples (status {log.status!r}; a log "
                "read with header_only=True has none)"
            )
            raise ValueError(msg)
        model, task = str(log.eval.model), str(log.eval.task)
        if (model, task) in seen:
            msg = (
                f"two logs for model {model!r} and task {task!r}: {seen[model, task]!r} and "
                f"{name!r}; pass one of them"
            )
            raise ValueError(msg)
        seen[model, task] = name
        chosen = _scorer(name, log, scorer)
        unscored = [s.id for s in log.samples if chosen not in (s.scores or {})]
        if unscored:
            msg = (
                f"cannot read {name!r}: {len(unscored)} samples have no score of scorer "
                f"{chosen!r} (sample id {unscored[0]!r} first; status {log.status!r})"
            )
            raise ValueError(msg)
        covered[model, task] = (name, {s.id for s in log.samples})
        tables.append(
            pd.DataFrame(
                {
                    "model": model,
                    "task": task,
                    "item": [s.id for s in log.samples],
                    "epoch": [s.epoch for s in log.samples],
                    "score": [
                        _to_float(name, chosen, s.scores[chosen].value, convert)
                        for s in log.samples
                    ],
                }
            )
        )
    check_same_items(
        covered,
        "samples",
        "A log that ended in error or was cancelled holds only the samples it finished: "
        "retry it (inspect_ai's eval_retry), or read the logs of the models that finished.",
    )
    return pd.concat(tables, ignore_index=True)


def from_inspect(logs: Any, *, scorer: str | None = None) -> pd.DataFrame:
    """Read inspect_ai evaluation logs as an items frame.

    Parameters
    ----------
    logs : EvalLog, str, pathlib.Path or list of them
        inspect_ai logs (one per model and task): ``EvalLog`` objects (what
        ``inspect_ai.eval`` returns), paths of ``.eval``/``.json`` log files,
        or a folder of them (listed by ``inspect_ai.log.list_eval_logs``).
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
        samples, no such scorer, a value that is not one number), two logs for
        one model and task, a log without some samples that others have.

    Notes
    -----
    Values go through inspect_ai's ``value_to_float()`` ("C" 1, "I" 0, "P"
    0.5, "N" 0, numbers as they are). A log that ended in error keeps the
    samples it finished: the models then differ in their items, which is
    refused, naming the log.

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
    table = _inspect_table(logs, scorer)
    several = not (table["task"] == table["task"].iloc[0]).all()
    return from_items(
        table if several else table.drop(columns="task"),
        model="model",
        item="item",
        score="score",
        sample="epoch",
        task="task" if several else None,
    )
