"""The report's Bayesian paragraph: posterior probabilities of the family's pairs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import format_number as _number
from pdcompare.presentation.labels import format_signed as _signed
from pdcompare.presentation.labels import (
    join_names,
    listed_name,
    plural,
    rope_text,
)
from pdcompare.presentation.report.pairs import family_words, left_out_line, shown_pairs
from pdcompare.presentation.report.rows import Rows, rows_of
from pdcompare.presentation.report.significance import against_best


def bayes_lines(
    result: Rows, family: str, best: Any, top_names: np.ndarray, benchmark: bool
) -> list[str]:
    """The Bayesian paragraph: each shown pair's posterior probabilities and the decisions."""
    info = result.info
    rope = info.rope
    alpha = info.level_alpha
    level = 0.95 if info.ci is None else info.ci
    shown_rope = rope_text(rope) if rope is not None else "±0"
    hierarchical = info.test == "hierarchical"
    if hierarchical:
        method = (
            "hierarchical Bayesian correlated t-test across data sets (Corani et al. 2017), "
            "which keeps every data set's folds and their correlation and shrinks each data "
            "set's difference towards the others; the probabilities are about the difference "
            f"on a new data set ({info.get('n_samples')} posterior draws in "
            f"{info.get('chains')} chains)"
        )
    elif benchmark:
        method = "Bayesian signed-rank test across data sets (Benavoli et al. 2014)"
    else:
        method = "Bayesian correlated t-test (Benavoli et al. 2017)"
    lines = [
        f"Practical equivalence: {method}, region of practical equivalence (rope) "
        f"{shown_rope}; a comparison is decided when one probability reaches {1 - alpha:g}."
    ]
    if hierarchical:
        lines[0] += convergence_words(result)
    if family == "vs_best":
        lines[0] += (
            f" The family: {family_words(result, family, best)[0]}; {best} was picked as the "
            "best on these same scores, so the probabilities in its favour are optimistic."
        )
    shown = shown_pairs(result, best, top_names)
    rows = result.take(shown)
    intervals = "ci_low" in rows
    if intervals:
        lows = np.asarray(rows["ci_low"], dtype=float)
        highs = np.asarray(rows["ci_high"], dtype=float)
    for k, (a, b, diff, better, same, worse, decision) in enumerate(
        zip(
            rows["model_1"],
            rows["model_2"],
            *(
                np.asarray(rows[c], dtype=float)
                for c in ("mean_diff", "prob_better", "prob_rope", "prob_worse")
            ),
            rows["decision"],
            strict=True,
        )
    ):
        verdict = {"equivalent": "PRACTICALLY EQUIVALENT", "undecided": "undecided"}.get(
            decision, f"{decision} is BETTER"
        )
        interval = (
            f", {level:.0%} credible interval {_number(lows[k])} to {_number(highs[k])}"
            if intervals
            else ""
        )
        lines.append(
            f"  {a} vs {b}: difference {_signed(diff)}, P({a} better) = {_number(better, 3)}, "
            f"P(equivalent) = {_number(same, 3)}, P({b} better) = {_number(worse, 3)}"
            f"{interval}: {verdict}."
        )
    test = "hierarchical" if hierarchical else "bayes"
    listing = f"{test}(...) on all pairs" if family == "all_pairs" else f"{test}()"
    lines += left_out_line(result, shown, listing)
    against, in_top = against_best(result, best, top_names)
    others = against["model_2"]
    decisions = against["decision"]
    groups = {
        f"Practically equivalent to {best}": decisions == "equivalent",
        f"Practically worse than {best}": decisions == best,
        "Undecided": (decisions != "equivalent") & (decisions != best),
    }
    for head, mask in groups.items():
        if (mask & in_top).any():
            lines.append(f"{head}: {join_names(others[mask & in_top])}.")
    n_rest = int((~in_top).sum())
    if n_rest:
        counts = [
            f"{int((mask & ~in_top).sum())} {head[0].lower()}{head[1:]}"
            for head, mask in groups.items()
        ]
        lines.append(f"Of the other {plural(n_rest, 'model', 'models')}: {', '.join(counts)}.")
    return lines


def convergence_words(result: pd.DataFrame | Rows) -> str:
    """Whether the hierarchical test's chains agree on every pair (split R-hat of δ0)."""
    result = rows_of(result)
    rhat = np.asarray(result["rhat"], dtype=float)
    finite = rhat[np.isfinite(rhat)]
    if not finite.size:
        return ""
    if (finite <= 1.01).all():
        return f" The chains agree on every pair (R-hat of δ0 at most {finite.max():.3f})."
    bad = result.take(rhat > 1.01)
    pairs = zip(bad["model_1"], bad["model_2"], strict=True)
    named = "; ".join(f"{listed_name(a)} vs {listed_name(b)}" for a, b in pairs)
    return (
        f" The chains disagree (R-hat of δ0 above 1.01) on {named}: read those "
        "probabilities as rough (more posterior draws settle them)."
    )
