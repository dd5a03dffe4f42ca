"""The report's random-effects paragraph: pooled differences across data sets."""

from __future__ import annotations

from typing import Any

import numpy as np

from pdcompare.presentation.labels import format_number as _number
from pdcompare.presentation.labels import format_signed as _signed
from pdcompare.presentation.labels import format_significant
from pdcompare.presentation.labels import p_equals as _pvalue
from pdcompare.presentation.report.pairs import family_words, left_out_line, shown_pairs
from pdcompare.presentation.report.rows import Rows
from pdcompare.presentation.report.significance import conclusion_lines


def pooled_lines(result: Rows, family: str, best: Any, top_names: np.ndarray) -> list[str]:
    """The random-effects part of the report of a benchmark frame."""
    info = result.info
    alpha = info.level_alpha
    holm = info.correction
    level = 1 - alpha
    corrected = f"{holm} correction" if holm else "no correction"
    scope, counted = family_words(result, family, best)
    lines = [
        "Pooled over data sets: random-effects meta-analysis "
        f"({'DerSimonian–Laird' if info.method == 'dl' else 'Paule–Mandel'}) of the "
        f"per-data-set differences with their corrected variances, {scope}, "
        f"{corrected} over {counted}, alpha = {alpha:g}."
    ]
    shown = shown_pairs(result, best, top_names)
    rows = result.take(shown)
    for a, b, d, low, high, p, p_adj, reject, tau2, i2, pi_low, pi_high in zip(
        rows["model_1"],
        rows["model_2"],
        *(
            np.asarray(rows[c], dtype=float)
            for c in (
                "mean_diff", "ci_low", "ci_high", "pvalue", "pvalue_adj", "reject", "tau2",
                "i2", "pi_low", "pi_high",
            )
        ),
        strict=True,
    ):  # fmt: skip
        verdict = "no result" if np.isnan(p) else ("SIGNIFICANT" if reject else "not significant")
        adjusted = f", {holm}-adjusted p {_pvalue(p_adj)}" if holm else ""
        # tau² in fixed notation (2 significant digits), never 1e-05 beside fixed decimals.
        tau = format_significant(tau2, 2)
        lines.append(
            f"  {a} vs {b}: pooled difference {_signed(d)}, {level:.0%} CI {_number(low)} to "
            f"{_number(high)}, p {_pvalue(p)}{adjusted}: {verdict}; tau² = {tau}, "
            f"I² = {i2:.0%}; on a new data set {_number(pi_low)} to {_number(pi_high)}."
        )
    lines += left_out_line(result, shown, "random_effects() on all pairs")
    lines += conclusion_lines(result, best, top_names, True)
    return lines
