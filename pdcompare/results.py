"""Result frames: tidy, one row per comparison, metadata in ``attrs``.

Every test returns a plain ``pd.DataFrame`` so that results chain (``query``,
``merge``, ``to_latex``); what the test was (name, alternative, alpha,
correction, rope, design) lives in ``result.attrs["pdcompare"]``, where
``result.cmp.style()``, ``.matrix()`` and ``.plot()`` read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import with_attrs
from pdcompare.stats.multitest import adjust_pvalues


def result_meta(test: str, **fields: Any) -> dict[str, Any]:
    """The metadata dict stored in ``result.attrs["pdcompare"]``.

    Always has ``kind="result"`` and ``test``; other fields as given, for
    example ``scope``, ``alternative``, ``alpha``, ``correction``, ``rope``,
    ``ci``, ``design`` (a dict), ``greater_is_better`` and ``models`` (all
    model names, best first).
    """
    return {"kind": "result", "test": test, **fields}


def pair_result(
    names: pd.Index | np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    columns: Mapping[str, Any],
    meta: dict[str, Any],
    *,
    correction: str | None = None,
    alpha: float | None = None,
) -> pd.DataFrame:
    """Result frame with one row per pair ``(names[i], names[j])``.

    Columns are ``model_1, model_2``, then ``columns`` in their order. When
    ``alpha`` is given and ``columns`` has a ``pvalue``, the adjusted p-value
    (``correction`` over the rows, NaN left out of the family) and ``reject``
    (``pvalue_adj <= alpha``) are inserted right after it.
    """
    n_models = None
    if correction == "shaffer":
        # Shaffer's procedure counts on the logical relations among all k(k-1)/2 pairs.
        if meta.get("scope") != "all_pairs":
            msg = (
                "`correction='shaffer'` is Shaffer's procedure for all pairwise comparisons; "
                f"this result compares {meta.get('scope', 'some pairs')}. Use "
                "`pairwise(test=..., correction='shaffer')`, or another correction."
            )
            raise ValueError(msg)
        n_models = len(names)
    # Gathering from a plain object array is much faster than indexing an Index.
    labels = np.asarray(names, dtype=object)
    data: dict[str, Any] = {"model_1": labels.take(i), "model_2": labels.take(j)}
    for name, values in columns.items():
        data[name] = values
        if name == "pvalue" and alpha is not None:
            adjusted = adjust_pvalues(values, correction, alpha=alpha, n_models=n_models)
            data["pvalue_adj"] = adjusted
            with np.errstate(invalid="ignore"):
                data["reject"] = np.asarray(adjusted <= alpha, dtype=bool)
    frame = pd.DataFrame(data)
    return with_attrs(frame, meta)


def model_result(
    names: pd.Index, columns: Mapping[str, Any], meta: dict[str, Any]
) -> pd.DataFrame:
    """Result frame indexed by model (``summary``, ``bootstrap``, ``accuracy_ci``)."""
    frame = pd.DataFrame(dict(columns), index=pd.Index(names, name="model"))
    return with_attrs(frame, meta)
