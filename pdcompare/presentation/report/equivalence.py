"""The report's equivalence paragraph: pairs shown equivalent within the rope (TOST)."""

from __future__ import annotations

from typing import Any

import numpy as np

from pdcompare.presentation.labels import format_signed as _signed
from pdcompare.presentation.labels import p_equals as _pvalue
from pdcompare.presentation.labels import (
    rope_text,
)
from pdcompare.presentation.report.pairs import left_out_line, shown_pairs
from pdcompare.presentation.report.rows import Rows


def equivalence_lines(result: Rows, best: Any, top_names: np.ndarray) -> list[str]:
    """Two one-sided tests of the family: which pairs are shown equivalent within the rope."""
    info = result.info
    alpha = info.level_alpha
    correction = info.correction
    lines = [
        f"Practical equivalence: two one-sided tests (TOST, {info.method or 'welch'}), "
        f"region of practical equivalence {rope_text(info.rope)}, "
        f"{f'{correction} correction' if correction else 'no correction'}, alpha = {alpha:g}; "
        "equivalent means both one-sided tests reject."
    ]
    shown = shown_pairs(result, best, top_names)
    rows = result.take(shown)
    for a, b, diff, p_adj, reject in zip(
        rows["model_1"],
        rows["model_2"],
        np.asarray(rows["mean_diff"], dtype=float),
        np.asarray(rows["pvalue_adj"], dtype=float),
        np.asarray(rows["reject"], dtype=bool),
        strict=True,
    ):
        verdict = "EQUIVALENT" if reject else "not shown equivalent"
        lines.append(
            f"  {a} vs {b}: difference {_signed(diff)}, adjusted p {_pvalue(p_adj)}: {verdict}."
        )
    lines += left_out_line(result, shown, "equivalence(rope=...)")
    return lines
