"""The report's trade-off paragraph: which models are worth their cost, which are dominated."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import (
    REPORT_TEST_NAMES,
    format_significant,
    join_names,
    listed_name,
)
from pdcompare.presentation.labels import format_number as _number
from pdcompare.results import result_info

#: At most this many names in one list; the rest are counted.
LISTED = 10


#: At most this many dominating models named for one dominated model.
DOMINATING = 5


def _names(names: Any, listed: int = LISTED) -> str:
    names = list(names)
    more = len(names) - listed
    if more <= 0:
        return join_names(names, sentence=True)
    return f"{', '.join(listed_name(n) for n in names[:listed])} and {more} more"


def _test_name(info: Any) -> str:
    """The score test in the report's words; on an items frame the paired t over items."""
    test = info.score_test or "the frame's test"
    if info.unit in ("item", "cluster means") and test == "ttest":
        clustered = info.get("cluster_name")
        return "paired t-test over items" + (f", clustered by {clustered}" if clustered else "")
    return REPORT_TEST_NAMES.get(test, test)


def dominated_entry(name: Any, by: str) -> str:
    """One dominated model and the models that dominate it, "m51 (by m03, m27 and m28)".

    Beyond five dominating models the rest are counted.

    Examples
    --------
    >>> dominated_entry("m51", "m03; m27; m28"), dominated_entry("C", "B")
    ('m51 (by m03, m27 and m28)', 'C (by B)')
    >>> dominated_entry("z", "a; b; c; d; e; f; g")
    'z (by a, b, c, d, e and 2 more)'
    """
    return f"{listed_name(name)} (by {_names(str(by).split('; '), DOMINATING)})"


def pareto_lines(result: pd.DataFrame) -> list[str]:
    """The trade-off paragraph of a ``pareto`` result: worth their cost, dominated, cannot tell.

    "Cannot tell" is said as what it is: a model neither dominated nor shown to
    buy anything with its extra cost; it may be worse, undetectably so.
    """
    info = result_info(result)
    name = _test_name(info)
    alpha = float(info.level_alpha)
    correction = info.correction
    direction = "lower" if info.lower_cost_is_better in (None, True) else "higher"
    status = result["status"].astype(str).to_numpy()
    order = np.argsort(result["cost"].to_numpy(dtype=float), kind="stable")
    if direction == "higher":
        order = order[::-1]
    ordered = result.iloc[order]
    front = ordered.index[status[order] == "front"]
    dominated = ordered.index[status[order] == "dominated"]
    unclear = ordered.index[status[order] == "ambiguous"]
    corrected = f", {correction}-corrected over the models that cost no more" if correction else ""
    lines = [
        f"Trade-off against cost ({direction} cost is better; each model against those that "
        f"cost no more by the one-sided {name}{corrected}, alpha = {alpha:g}):"
    ]
    if len(front):
        worth = [f"{listed_name(m)} (cost {format_significant(result.loc[m, 'cost'], 4)}, score "
                 f"{_number(result.loc[m, 'score'])})" for m in front[:LISTED]]  # fmt: skip
        extra = len(front) - LISTED
        listed = "; ".join(worth) + (f"; and {extra} more" if extra > 0 else "")
        lines.append(f"  worth their cost, cheapest first: {listed}.")
    if len(dominated):
        pairs = [dominated_entry(m, result.loc[m, "dominated_by"]) for m in dominated[:LISTED]]
        extra = len(dominated) - LISTED
        listed = "; ".join(pairs) + (f"; and {extra} more" if extra > 0 else "")
        lines.append(
            f"  dominated (a model that costs no more is significantly better): {listed}."
        )
    if len(unclear):
        lines.append(
            f"  cannot tell: {_names(unclear)} (neither dominated nor shown to buy anything "
            "with the extra cost; not significant is not the same as equal)."
        )
    return lines
