"""The report's paragraph of an items frame watched while it ran (``report(sequential=True)``).

The confidence sequences of :func:`pdcompare.sequential` in words: every pair
with its running difference, its interval after the last item (valid at every
look), and the look at which it was decided.
"""

from __future__ import annotations

import pandas as pd

from pdcompare.compare.sequential import sequential
from pdcompare.presentation.report.rows import rows_of
from pdcompare.presentation.shown import top_pairs
from pdcompare.results import result_info

_BOUNDARY = {
    "normal_mixture": "asymptotic normal-mixture confidence sequences (Waudby-Smith et al. 2024)",
    "betting": "betting confidence sequences (Waudby-Smith & Ramdas 2024)",
    "evalue": "the discordant-pair e-process",
}


def _decision(decision: str, first: str, second: str, at: float, unit: str) -> str:
    if decision == "continue":
        return "undecided: keep reading"
    after = f"decided after {at:g} {unit}s"
    if decision == "equivalent":
        return f"EQUIVALENT within the margin, {after}"
    better, worse = (first, second) if decision == "better" else (second, first)
    return f"{better} BETTER than {worse}, {after}"


def sequential_lines(frame: pd.DataFrame, *, alpha: float = 0.05, top: int = 10) -> list[str]:
    """The paragraph: how the items were monitored, and each shown pair's sequence.

    Examples
    --------
    >>> import numpy as np
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> wide = pd.DataFrame((rng.random((2, 400)) < [[0.8], [0.6]]).astype(float),
    ...                     index=["a", "b"])
    >>> lines = sequential_lines(wide.cmp.set_design(items=True))
    >>> print(lines[0])  # doctest: +NORMALIZE_WHITESPACE
    Monitored after every item; the interval is valid at every look (asymptotic
    normal-mixture confidence sequences (Waudby-Smith et al. 2024), 95% over all looks).
    >>> print(lines[1])  # doctest: +NORMALIZE_WHITESPACE
      a vs b: difference +0.1500, confidence sequence 0.0518 to 0.2482: a BETTER than b,
      decided after 64 items.
    """
    result = sequential(frame, alpha=alpha)
    info = result_info(result)
    unit = "cluster" if info.get("look_unit") == "cluster" else "item"
    pairs = len(result)
    over = f", Bonferroni over the {pairs} pairs" if pairs > 1 else ""
    lines = [
        f"Monitored after every {unit}; the interval is valid at every look "
        f"({_BOUNDARY[info.get('boundary')]}, {1 - alpha:.0%} over all looks{over})."
    ]
    shown, note = top_pairs(result, top)
    rows = rows_of(shown)
    for k in range(len(shown)):
        first, second = rows["model_1"][k], rows["model_2"][k]
        words = _decision(rows["decision"][k], first, second, rows["decided_at"][k], unit)
        lines.append(
            f"  {first} vs {second}: difference {rows['mean_diff'][k]:+.4f}, confidence "
            f"sequence {rows['cs_low'][k]:.4f} to {rows['cs_high'][k]:.4f}: {words}."
        )
    if note:
        lines.append(f"  ({note}; `pdcompare.sequential(frame)` lists every pair.)")
    return lines
