"""What the readers of evaluation files share: finding files, reading JSON, and the record.

Each reader (``from_eee``, ``from_helm``, ``from_lighteval``, ``from_swebench``,
``from_inspect``, ``from_lm_eval``,
``from_promptfoo``, ``from_mlflow``) records in ``attrs["pdcompare"]["source"]``
what it read and what it chose (the format, the files, and which field gave
the model, the item, the sample, the task and the metric), and in
``attrs["pdcompare"]["costs"]`` each model's mean of every cost the format
keeps (tokens, latency, price): all JSON-able, so a frame written to parquet
keeps them. :func:`costs` reads one of them as the Series that
``pareto(cost=...)`` takes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import ATTRS_KEY, with_attrs
from pdcompare.inputs.frames import check_frame

#: ``attrs["pdcompare"]`` key of what a reader read and chose.
SOURCE = "source"
#: ``attrs["pdcompare"]`` key of the per-model mean costs a reader kept.
COSTS = "costs"


def path_list(paths: Any, keyword: str, what: str) -> list[Path]:
    """``paths`` as a list of existing paths (files or folders); a missing one is named."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    elif not isinstance(paths, Iterable):
        msg = (
            f"`{keyword}` must be a path or a list of paths of {what}; got {type(paths).__name__}."
        )
        raise TypeError(msg)
    out = []
    for entry in paths:
        if not isinstance(entry, (str, Path)):
            msg = f"`{keyword}` must hold paths (str or pathlib.Path); got {type(entry).__name__}."
            raise TypeError(msg)
        path = Path(entry)
        if not path.exists():
            msg = f"cannot read {str(path)!r}: no such file or folder."
            raise FileNotFoundError(msg)
        out.append(path)
    if not out:
        msg = f"`{keyword}` is empty; give {what}."
        raise ValueError(msg)
    return out


def expand(paths: list[Path], patterns: tuple[str, ...], what: str) -> list[Path]:
    """Files of ``paths``: files as given, folders searched recursively for ``patterns``."""
    files: list[Path] = []
    for path in paths:
        if path.is_file():
            files.append(path)
            continue
        found = sorted({f for pattern in patterns for f in path.rglob(pattern) if f.is_file()})
        if not found:
            msg = f"{str(path)!r} holds no {what} ({' or '.join(patterns)})."
            raise ValueError(msg)
        files.extend(found)
    return list(dict.fromkeys(files))


def read_json(path: Path, tool: str) -> Any:
    """The JSON of ``path``; a file that is not JSON is refused naming it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        msg = f"cannot read {str(path)!r}: it is not a JSON file of {tool} ({error})."
        raise ValueError(msg) from None


def read_jsonl(path: Path, tool: str, unit: str = "records") -> list[Any]:
    """The JSON objects of a JSON Lines file, one per line; errors name the file and line.

    ``tool`` names what writes the file and ``unit`` what its lines are, for the errors.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        msg = f"cannot read {str(path)!r}: it is not UTF-8 text ({error.reason})."
        raise ValueError(msg) from None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            msg = (
                f"cannot read {str(path)!r}: line {number} is not JSON ({error.msg}); "
                f"expected the JSON Lines of {tool}."
            )
            raise ValueError(msg) from None
    if not records:
        msg = f"cannot read {str(path)!r}: it holds no {unit} (the file is empty)."
        raise ValueError(msg)
    return records


def number(value: Any) -> float:
    """A JSON value as a float: numbers and booleans; None, text and the rest NaN."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return math.nan


def cost_means(table: pd.DataFrame, model: str, columns: Iterable[str]) -> dict[str, dict]:
    """Each cost column's mean per model over its non-missing values, as plain dicts.

    A cost that some model never reports is left out: ``pareto`` needs one for
    every model.
    """
    out: dict[str, dict] = {}
    for column in columns:
        if column not in table.columns:
            continue
        means = (
            pd.to_numeric(table[column], errors="coerce").groupby(table[model], sort=False).mean()
        )
        if means.isna().any() or means.empty:
            continue
        out[column] = {str(k): float(v) for k, v in means.items()}
    return out


def with_source(
    frame: pd.DataFrame, source: Mapping[str, Any], costs: Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """``frame`` (new, the reader's own) with what it read and its costs in its metadata."""
    stored = frame.attrs.get(ATTRS_KEY)
    meta = dict(stored) if isinstance(stored, dict) else {}
    meta[SOURCE] = _plain(dict(source))
    if costs:
        meta[COSTS] = _plain(dict(costs))
    return with_attrs(frame, meta)


def _plain(value: Any) -> Any:
    """``value`` as JSON-able values: tuples as lists, paths and other labels as str."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    return str(value)


def costs(frame: pd.DataFrame, name: str | None = None) -> pd.Series:
    """One cost a reader kept, per model: the Series ``pareto(cost=...)`` takes.

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame made by a reader of evaluation files (``from_eee``,
        ``from_helm``, ``from_promptfoo``, ...).
    name : str, optional
        The cost (``"latency_ms"``, ``"total_tokens"``, ``"cost"``, ...);
        without it the frame must hold one.

    Returns
    -------
    pandas.Series
        Each model's mean cost over its records, indexed by model, named
        ``name``.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = with_source(pd.DataFrame({"q1": [1.0, 0.0]}, index=["a", "b"]),
    ...                     {"format": "demo"}, {"latency_ms": {"a": 120.0, "b": 80.0}})
    >>> costs(frame)
    model
    a    120.0
    b     80.0
    Name: latency_ms, dtype: float64
    """
    check_frame(frame)
    stored = frame.attrs.get(ATTRS_KEY)
    kept = stored.get(COSTS) if isinstance(stored, dict) else None
    if not kept:
        msg = (
            "This frame holds no costs: they are kept by the readers of evaluation files "
            "whose format records them (from_eee, from_helm, from_promptfoo). Pass "
            "`pareto` a Series of one cost per model instead."
        )
        raise ValueError(msg)
    if name is None:
        if len(kept) != 1:
            msg = (
                f"`name`: this frame keeps several costs ({', '.join(map(repr, kept))}); pick one."
            )
            raise ValueError(msg)
        name = next(iter(kept))
    if name not in kept:
        msg = f"`name`: no cost {name!r} in this frame; it keeps {', '.join(map(repr, kept))}."
        raise ValueError(msg)
    series = pd.Series(kept[name], dtype=float, name=name)
    series.index.name = "model"
    return series
