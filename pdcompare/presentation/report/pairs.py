"""Which pairs a report lists, how it names its family, and how it counts the rest.

Shared by the report of scores and benchmark frames (``report.entry``) and the
report of forecasts (``report.forecasts``): a report lists the pairs among
its best ``top`` models (every pair among them, or the best against the next
``top - 1`` beyond) and counts the others in one line.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import plural, spelling
from pdcompare.presentation.report.rows import Rows, in_names


def shown_pairs(result: pd.DataFrame | Rows, best: Any, top_names: Any) -> np.ndarray:
    """Rows with lines of their own: every pair among the top models, or best vs the next."""
    first = np.asarray(result["model_1"], dtype=object)
    second = np.asarray(result["model_2"], dtype=object)
    in_top = in_names(first, top_names) & in_names(second, top_names)
    if len(top_names) >= len({*first, *second}):  # every model of the result is a top one
        return in_top
    return in_top & (first == best)


def left_out_line(result: pd.DataFrame | Rows, shown: np.ndarray, what: str) -> list[str]:
    """The line counting the pairs not listed and naming the call that gives them all."""
    left = int((~shown).sum())
    if not left:
        return []
    listing = spelling().list_all(what)
    return [f"  ({plural(left, 'other pair', 'other pairs')} not listed; {listing}.)"]


def family_words(result: pd.DataFrame | Rows, family: str, best: Any) -> tuple[str, str]:
    """Which comparisons the family holds, and "the N pairs" (or comparisons) it counts."""
    n = len(result)
    if family == "all_pairs":
        return "every pair of models", f"the {plural(n, 'pair', 'pairs')}"
    return (
        f"{best} against each of the other {plural(n, 'model', 'models')}",
        f"those {plural(n, 'comparison', 'comparisons')}",
    )
