"""The report's frequentist paragraph: the family's tests, pair by pair, and its conclusions."""

from __future__ import annotations

from typing import Any

import numpy as np

from pdcompare.compare.analysis import Analysis
from pdcompare.compare.registry import BY_NAME
from pdcompare.presentation.labels import (
    BENCHMARK_REPORT_TEST_NAMES,
    REPORT_TEST_NAMES,
    format_effect,
    format_significant,
    join_names,
    plural,
    spelling,
)
from pdcompare.presentation.labels import format_number as _number
from pdcompare.presentation.labels import format_signed as _signed
from pdcompare.presentation.labels import p_equals as _pvalue
from pdcompare.presentation.report import items as item_words
from pdcompare.presentation.report.pairs import family_words, left_out_line, shown_pairs
from pdcompare.presentation.report.rows import Rows, in_names, rows_of


def _interval_text(low: float, high: float, level: float) -> str | None:
    if not np.isfinite([low, high]).any():
        return None
    if np.isinf(high):
        return f"{level:.0%} lower bound {_number(low)}"
    if np.isinf(low):
        return f"{level:.0%} upper bound {_number(high)}"
    return f"{level:.0%} CI {_number(low)} to {_number(high)}"


def _pair_keys(result: Rows) -> list[tuple[Any, Any]]:
    return list(zip(result["model_1"], result["model_2"], strict=True))


def _effect_words(effects: Rows | None, pairs: list[tuple[Any, Any]]) -> list[str | None]:
    """``large effect (d_z = 1.59)`` for each of ``pairs`` (None where there is none)."""
    if effects is None:
        return [None] * len(pairs)
    symbol = effects.info.symbol or "effect size"
    cuts = effects.info.thresholds or {}
    bounds = [cuts[name] for name in ("small", "medium", "large") if name in cuts]
    center = 0.5 if "0.5" in str(cuts.get("of", "")) else 0.0
    row = {key: k for k, key in enumerate(_pair_keys(effects))}
    values = np.asarray(effects["effect_size"], dtype=float)
    magnitudes = effects["magnitude"]
    # A bare "δ" (Cliff's delta of runs) is spelled out at its first mention.
    first = "Cliff's δ" if symbol == "δ" else symbol
    words: list[str | None] = []
    for pair in pairs:
        k = row.get(pair)
        finite = k is not None and np.isfinite(values[k])
        # The word is the unrounded value's; the value shows enough digits to agree with it.
        shown = format_effect(values[k], bounds, center=center) if finite else ""
        named = symbol if any(words) else first
        words.append(f"{magnitudes[k]} effect ({named} = {shown})" if finite else None)
    return words


def _detectable_words(analysis: Analysis, result: Rows, shown: np.ndarray) -> list[str | None]:
    """What the design could detect for each shown pair, at the family's Bonferroni level."""
    if analysis.detectable is None:
        return [None] * int(np.count_nonzero(shown))
    alpha = result.info.level_alpha
    m = max(int(np.count_nonzero(~np.isnan(np.asarray(result["pvalue"], dtype=float)))), 1)
    level = f"{alpha:g}/{m}" if m > 1 else f"{alpha:g}"
    unit = "these data sets" if analysis.benchmark else "these splits"
    if getattr(analysis, "runs", False):
        unit = "these runs (Welch's t-test)"
    if item_words.is_items_result(result.info):
        unit = item_words.detectable_unit(result.info)
    # The figure is the (corrected) paired t's: beside a rank test, say whose it is.
    test = result.info.test
    runs = getattr(analysis, "runs", False)  # the unit already names Welch's t-test
    paired_t = test in BY_NAME and BY_NAME[test].family == "t-test"
    if paired_t or runs or item_words.is_items_result(result.info):
        whose = ""
    else:
        whose = " for a paired t" if analysis.benchmark else " for the corrected t-test"
    # One rule for these sizes in a report: 3 significant digits, fixed notation, trailing
    # zeros kept (labels.format_significant), never 1.45e+03 beside +590.1787.
    return [
        f"{unit} could detect about {format_significant(value)} or more "
        f"(power 0.8{whose} at {level})"
        if np.isfinite(value)
        else None
        for value in np.asarray(analysis.detectable, dtype=float)[shown]
    ]


def _test_lines(
    rows: Rows,
    test: str,
    effects: list[str | None],
    detectable: list[str | None],
) -> list[str]:
    """One line per shown pair (``rows``), built from the result's columns.

    A significant difference names its magnitude; a difference that is not
    significant says what the design could have detected.
    """
    info = rows.info
    correction = info.correction
    level = 1 - info.level_alpha
    rank_test = "mean_diff" not in rows
    diffs = np.asarray(rows["rank_diff" if rank_test else "mean_diff"], dtype=float)
    lows = np.full(len(rows), np.nan)
    if "ci_low" in rows:
        lows = np.asarray(rows["ci_low"], dtype=float)
    highs = np.asarray(rows["ci_high"], dtype=float) if "ci_high" in rows else lows
    name = {"corrected_ttest": "t", "ttest": "t", "welch_ttest": "t", "nemenyi": "q"}.get(
        test, "statistic"
    )
    pvalues = np.asarray(rows["pvalue"], dtype=float)
    missing = np.isnan(pvalues)
    reject = np.asarray(rows["reject"], dtype=bool)
    lines = []
    for k, (a, b, statistic, p, p_adj) in enumerate(
        zip(
            rows["model_1"],
            rows["model_2"],
            np.asarray(rows["statistic"], dtype=float),
            pvalues,
            np.asarray(rows["pvalue_adj"], dtype=float),
            strict=True,
        )
    ):
        what = "mean rank difference" if rank_test else "difference"
        parts = [f"{what} {_signed(diffs[k], 2 if rank_test else 4)}"]
        interval = _interval_text(lows[k], highs[k], level)
        if interval:
            parts.append(interval)
        if float(statistic).is_integer():
            shown_stat = f"{statistic:.0f}"
        elif float(2 * statistic).is_integer():  # a rank sum with ties: 85.5, not 85.500
            shown_stat = f"{statistic:.1f}"
        else:
            shown_stat = _number(statistic, 3)
        parts.append(f"{name} = {shown_stat}")
        parts.append(f"p {_pvalue(p)}")
        if correction:
            parts.append(f"{correction}-adjusted p {_pvalue(p_adj)}")
        if missing[k]:
            verdict = "no result (missing scores)"
        elif reject[k]:
            verdict = "SIGNIFICANT" + (f", {effects[k]}" if effects[k] is not None else "")
        else:
            verdict = "not significant" + (
                f"; {detectable[k]}" if detectable[k] is not None else ""
            )
        lines.append(f"  {a} vs {b}: " + ", ".join(parts) + f": {verdict}.")
    return lines


def against_best(result: Rows, best: Any, top_names: np.ndarray) -> tuple[Rows, np.ndarray]:
    """The rows comparing the best model with each other, and which of those are top models."""
    rows = result.take(result["model_1"] == best)
    return rows, in_names(rows["model_2"], top_names)


def conclusion_lines(result: Rows, best: Any, top_names: np.ndarray, benchmark: bool) -> list[str]:
    """The family's conclusions: which models are significantly worse than the best, counted."""
    info = result.info
    family_wise = info.correction or info.test == "nemenyi"
    rows, in_top = against_best(result, best, top_names)
    others = rows["model_2"]
    missing = np.isnan(np.asarray(rows["pvalue"], dtype=float))
    reject = np.asarray(rows["reject"], dtype=bool) & ~missing
    tied = ~reject & ~missing
    adjusted = "after correction" if family_wise else "without correction"
    runs = info.unit == "run"
    # "Not significant" is no finding of luck or of equality: say what the data cannot tell.
    these = "these data sets" if benchmark else "these seeds" if runs else "these splits"
    if item_words.is_items_result(info):
        these = item_words.detectable_unit(info)
    n_rest = int((~in_top).sum())
    rest_worse, rest_tied = int((reject & ~in_top).sum()), int((tied & ~in_top).sum())
    lines = []
    what = "mean rank" if benchmark else "mean"
    if len(others) == 1 and not missing[0]:  # two models: name the other one
        rival = others[0]
        if reject[0]:
            lines.append(f"Conclusion: {best} is significantly better than {rival} {adjusted}.")
        else:
            lines.append(
                f"Conclusion: the difference between {best} and {rival} is not significant "
                f"{adjusted}: {these} cannot tell whether the better {what} is a real difference."
            )
    elif reject.all():
        listed = [*others[in_top], *([f"the {n_rest} others"] if n_rest else [])]
        lines.append(
            f"Conclusion: {best} is significantly better than every other model "
            f"({join_names(listed, sentence=True)}) {adjusted}."
        )
    elif not reject.any():
        lines.append(
            f"Conclusion: no difference between {best} and the others is significant "
            f"{adjusted}: {these} cannot tell whether the best {what} is a real lead."
        )
    else:
        if (reject & in_top).any():
            lines.append(
                f"Conclusion: {best} is significantly better than "
                f"{join_names(others[reject & in_top], sentence=True)} {adjusted}."
            )
        if (tied & in_top).any():
            close = others[tied & in_top]
            head = "Its lead" if (reject & in_top).any() else f"Conclusion: the lead of {best}"
            those = "that model" if len(close) == 1 else "those models"
            lines.append(
                f"{head} over {join_names(close, sentence=True)} is not significant {adjusted}, "
                f"so on these scores {those} may be as good as {best}."
            )
        if n_rest:
            lines.append(
                f"Of the other {plural(n_rest, 'model', 'models')}, {rest_worse} "
                f"{'is' if rest_worse == 1 else 'are'} significantly worse than {best}; "
                f"{rest_tied} {'is' if rest_tied == 1 else 'are'} not distinguishable from it."
            )
    if missing.any():
        lines.append(
            f"No result for {best} vs {join_names(others[missing], sentence=True)}: missing "
            f"scores (NaN); {spelling().missing_scores()}."
        )
    return lines


def significance_lines(analysis: Analysis, best: Any, top_names: np.ndarray) -> list[str]:
    """The frequentist paragraph: the family named, its shown pairs, what it could detect."""
    result, test, benchmark = rows_of(analysis.significance), analysis.test, analysis.benchmark
    info = result.info
    correction = info.correction
    alpha = info.level_alpha
    alternative = info.requested_alternative
    scope, counted = family_words(result, analysis.family, best)
    if correction:
        corrected = f"{correction} correction over {counted}"
    elif test == "nemenyi":
        corrected = (
            f"p-values family-wise over {counted} already "
            f"(studentized range; critical difference of mean ranks {info.cd:.3f})"
        )
    else:
        corrected = "no correction for multiple testing"
    names = BENCHMARK_REPORT_TEST_NAMES if benchmark else REPORT_TEST_NAMES
    items = item_words.is_items_result(info)
    name = item_words.family_test_name(test, info) if items else names[test]
    lines = [f"Significance: {name} ({alternative}), {scope}, {corrected}, alpha = {alpha:g}."]
    shown = shown_pairs(result, best, top_names)
    rows = result.take(shown)
    unreachable = _unreachable_lines(result, test, benchmark)
    # Where no pair can reach alpha, no difference however large was detectable: the power
    # of the t-test standing in for a rank test would claim otherwise.
    detectable = [None] * len(rows) if unreachable else _detectable_words(analysis, result, shown)
    effects = None if analysis.effect_sizes is None else rows_of(analysis.effect_sizes)
    lines += _test_lines(rows, test, _effect_words(effects, _pair_keys(rows)), detectable)
    listing = f"pairwise(test={test!r})" if analysis.family == "all_pairs" else f"{test}()"
    lines += left_out_line(result, shown, listing)
    if unreachable:
        return lines + unreachable
    lines += conclusion_lines(result, best, top_names, benchmark)
    return lines


def _unreachable_lines(result: Rows, test: str, benchmark: bool) -> list[str]:
    """When no comparison of the family can reach alpha, say so: the test could not have told."""
    info = result.info
    floor = info.min_attainable_pvalue
    alpha = info.level_alpha
    if floor is None or not floor > alpha:
        return []
    unit = "data sets" if benchmark else "splits"
    n = info.n_datasets if benchmark else None
    counted = f"with {n} {unit}" if n else f"with these {unit}"
    correction = info.correction
    over = f" after the {correction} correction over {len(result)} comparisons"
    over = over if correction else ""
    needed = info.get("n_needed_to_reject")
    more = f"; at least {needed} {unit} would make a rejection possible" if needed else ""
    words = spelling()
    other = words.test_call("nemenyi") if benchmark else words.test_name("corrected_ttest")
    if benchmark and info.scope == "all_pairs" and not words.command_line:
        # One model against the others is a smaller family only when this one is every pair.
        other += " or one model against the others (`wilcoxon(a=...)`)"
    names = BENCHMARK_REPORT_TEST_NAMES if benchmark else REPORT_TEST_NAMES
    return [
        f"Conclusion: no comparison here could have been significant: {counted}, the smallest "
        f"p-value the {names.get(test, test)} can reach{over} is {floor:.3g}, above alpha = "
        f'{alpha:g}{more}. So "not significant" here says nothing about whether the best '
        f"model was lucky or the models are equal; {other} can reject with these data."
    ]


def friedman_lines(result: Rows) -> list[str]:
    """The Friedman test across data sets, with the Iman–Davenport F built from it."""

    def first(column: str) -> Any:
        return result[column][0]

    method = result.info.method
    if method in ("Skillings–Mack", "Durbin"):
        holes = result.info.get("n_missing", 0)
        cells = result.info.get("n_cells", 0)
        test = (
            "Skillings–Mack test (Friedman's test for a benchmark with holes)"
            if method == "Skillings–Mack"
            else "Durbin test (Friedman's test for a balanced incomplete block design)"
        )
        return [
            f"{test}: {holes} of {cells} cells (model x data set) missing, each data set's "
            f"models ranked among themselves over {int(first('n_datasets'))} data sets; "
            f"chi-square = {first('statistic'):.3f} (df = {int(first('df'))}), p "
            f"{_pvalue(first('pvalue'))}. It says whether the models differ at all."
        ]
    return [
        f"Friedman test: chi-square = {first('statistic'):.3f} (df = {int(first('df'))}), p "
        f"{_pvalue(first('pvalue'))}; Iman–Davenport F = {first('f_statistic'):.3f} "
        f"(df = {int(first('f_df1'))}, {int(first('f_df2'))}), p {_pvalue(first('f_pvalue'))}. "
        "It says whether the models differ at all; the pairs below are tested either way."
    ]
