"""Which models and pairs an output shows: the best ``top``, best first, and the note saying so.

Tables (``styling.py``), pictures (``plotting/``) and the report all stay
readable at any number of models by showing the best few and saying how many
are left out; they choose them here, so that a table and a picture of the
same result show the same models.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pandas as pd

from pdcompare._validation import check_positive_int
from pdcompare.results import result_info

#: Beyond this many models a plot shows the best ones only, and says so in its title.
DEFAULT_TOP = 20
#: Default number of models whose pairs an all-pairs picture shows (45 pairs).
DEFAULT_TOP_ALL_PAIRS = 10


def check_top(top: Any) -> int | None:
    """``top`` as a positive int, or None (the default cap)."""
    if top is None:
        return None
    return check_positive_int("top", top)


def top_models(models: Sequence[Hashable], top: int | None) -> tuple[list, str]:
    """The first ``top`` of ``models`` (best first) and the note that says so.

    Without ``top``, at most :data:`DEFAULT_TOP` models. The note ("best 20 of
    60 models") is empty when every model is shown.

    Examples
    --------
    >>> top_models([f"m{k}" for k in range(60)], None)[1]
    'best 20 of 60 models'
    >>> top_models(["a", "b", "c"], 2)
    (['a', 'b'], 'best 2 of 3 models')
    >>> top_models(["a", "b", "c"], None)
    (['a', 'b', 'c'], '')
    """
    top = check_top(top)
    models = list(models)
    n = len(models)
    shown = min(n, DEFAULT_TOP if top is None else top)
    note = f"best {shown} of {n} models" if shown < n else ""
    return models[:shown], note


def result_models(result: pd.DataFrame) -> list:
    """Models of a result frame, best first: the result's ``models``, then any others.

    Examples
    --------
    >>> result = pd.DataFrame({"model_1": ["b", "b"], "model_2": ["a", "c"]})
    >>> result.attrs["pdcompare"] = {"models": ["b", "c", "a", "d"]}
    >>> result_models(result)
    ['b', 'c', 'a']
    """
    if {"model_1", "model_2"} <= set(result.columns):
        present = pd.unique(pd.concat([result["model_1"], result["model_2"]], ignore_index=True))
    else:
        present = pd.unique(result.index)
    present_set = set(present)
    ranked = [m for m in result_info(result).models if m in present_set]
    known = set(ranked)
    return ranked + [m for m in present if m not in known]


def top_pairs(result: pd.DataFrame, top: int | None) -> tuple[pd.DataFrame, str]:
    """The rows of a pairwise result among the best ``top`` models, and the note saying so.

    When every row has the same ``model_1`` (one model against the others),
    that model's rows against its best ``top - 1`` opponents, so that
    ``top`` models are shown in all (default 20). Otherwise (all pairs) the
    pairs among the best ``top`` models (default 10, 45 pairs).

    Examples
    --------
    >>> result = pd.DataFrame({"model_1": ["a", "a", "b"], "model_2": ["b", "c", "c"]})
    >>> result.attrs["pdcompare"] = {"models": ["a", "b", "c"]}
    >>> rows, note = top_pairs(result, 2)
    >>> rows.index.tolist(), note
    ([0], 'pairs among the best 2 of 3 models')
    >>> one = pd.DataFrame({"model_1": ["a", "a", "a"], "model_2": ["b", "c", "d"]})
    >>> one.attrs["pdcompare"] = {"models": ["a", "b", "c", "d"]}
    >>> rows, note = top_pairs(one, 3)  # a and its best 2 opponents: 3 models
    >>> rows["model_2"].tolist(), note
    (['b', 'c'], 'the best 2 of 3 other models')
    """
    top = check_top(top)
    models = result_models(result)
    first = pd.unique(result["model_1"])
    if len(first) == 1:
        others = [m for m in models if m != first[0]]
        k = min(len(others), max((DEFAULT_TOP if top is None else top) - 1, 1))
        shown = set(others[:k])
        note = f"the best {k} of {len(others)} other models" if k < len(others) else ""
        return result[result["model_2"].isin(shown)], note
    k = min(len(models), DEFAULT_TOP_ALL_PAIRS if top is None else top)
    shown = set(models[:k])
    rows = result[result["model_1"].isin(shown) & result["model_2"].isin(shown)]
    note = f"pairs among the best {k} of {len(models)} models" if k < len(models) else ""
    return rows, note


def is_matrix(frame: pd.DataFrame) -> bool:
    """Whether ``frame`` is a model x model table of ``matrix`` (square, rows = columns).

    Examples
    --------
    >>> is_matrix(pd.DataFrame([[None, 0.1], [0.1, None]], index=["a", "b"], columns=["a", "b"]))
    True
    """
    return (
        frame.shape[0] > 1
        and frame.shape[0] == frame.shape[1]
        and frame.index.equals(frame.columns)
        and "model_1" not in frame.columns
    )
