"""The conclusion of a comparison in plain words, with its numbers.

``df.cmp.report()`` writes what the result frames of one analysis say
(:func:`pdcompare.compare.analysis.analyse` decides which comparisons run: the
summary, the frequentist test of one family, the Bayesian comparison of the
same family when a rope is given): which model is best, which differences are
significant after correction, which are practically equivalent. Every sentence
quotes the numbers of the result frames it comes from, so the text can be
checked against them. This module runs no test of its own.

The text stays readable at any number of models: per-pair lines are written
for the best ``top`` models only (every pair among them up to ``top`` models;
beyond, the best against the next ``top - 1``), the rest are counted, and
lists of names are separated by "; " so that names containing commas stay
readable.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_option, check_positive_int, warnings_once
from pdcompare.compare.analysis import Analysis, ForecastAnalysis, analyse
from pdcompare.inputs.attrs import pdcompare_attrs, read_only
from pdcompare.labels import (
    BENCHMARK_REPORT_TEST_NAMES,
    REPORT_TEST_NAMES,
    join_names,
    plural,
    rope_text,
)
from pdcompare.labels import format_number as _number
from pdcompare.labels import format_signed as _signed
from pdcompare.labels import p_equals as _pvalue
from pdcompare.report_forecasts import forecast_lines
from pdcompare.report_pairs import family_words, left_out_line, shown_pairs
from pdcompare.report_rows import Rows, in_names, rows_of

_UNKNOWN_DESIGN = (
    "WARNING: the CV design is unknown, so the corrected t-test cannot be used; the plain "
    "paired t-test is used instead. It treats the CV splits as independent, but they share "
    "training data, so its p-values are too small and differences look significant too "
    "often. Pass the design (cv=, test_size=, or n_train= with n_test=; on the command "
    "line --cv or --test-size) for the corrected test."
)

#: Default number of models with lines of their own.
DEFAULT_TOP = 10


def _tie_line(summary: Rows, benchmark: bool) -> list[str]:
    """A sentence when several models share the best mean (mean rank on a benchmark)."""
    column = "mean_rank" if benchmark else "mean"
    values = np.asarray(summary[column], dtype=float)
    # Means summed in different orders differ in the last bits; that is still a tie.
    tied = summary.index[np.isclose(values, values[0], rtol=1e-12, atol=0.0)]
    if len(tied) < 2:
        return []
    what = f"mean rank {values[0]:.2f}" if benchmark else f"mean score {_number(values[0])}"
    return [
        f"Tie for best: {join_names(tied, sentence=True)} share the best {what}; {tied[0]} "
        "stands for the best below."
    ]


def _ranking_line(summary: Rows, top: int, benchmark: bool) -> str:
    names = summary.index[:top]
    if benchmark:
        ranks = summary["mean_rank"][:top]
        items = [f"{name} {rank:.2f}" for name, rank in zip(names, ranks, strict=True)]
        head = "Mean ranks (1 = best on a data set), best first"
    else:
        means = summary["mean"][:top]
        items = [f"{name} {_number(mean)}" for name, mean in zip(names, means, strict=True)]
        head = "Mean scores, best first"
    rest = len(summary) - len(names)
    more = f"; and {plural(rest, 'other model', 'other models')}" if rest else ""
    return f"{head}: {join_names(items)}{more}."


def _summary_lines(summary: Rows, design: dict[str, Any], top: int, benchmark: bool) -> list[str]:
    meta = summary.meta
    n_models = len(summary)
    direction = "higher" if design.get("greater_is_better", True) else "lower"
    if benchmark:
        lines = [
            f"Data: {n_models} models x {meta.get('n_datasets')} data sets; {direction} "
            "scores are better. The data set is the unit: each model's scores are averaged "
            "within each data set first."
        ]
    elif "n_runs" in summary:
        n_runs = np.asarray(summary["n_runs"], dtype=int)
        runs = f"{n_runs.min()} to {n_runs.max()}" if n_runs.min() < n_runs.max() else n_runs.max()
        lines = [
            f"Data: {n_models} models x {runs} runs each; {direction} scores are better. The runs "
            "are independent (random seeds, not shared splits): the tests are unpaired."
        ]
    else:
        n_splits = int(np.nanmax(np.asarray(summary["n_splits"], dtype=float)))
        lines = [f"Data: {n_models} models x {n_splits} CV splits; {direction} scores are better."]
    if design.get("test_train_ratio") is not None:
        lines.append(
            f"CV design: {design.get('source')} (test/train size ratio "
            f"{design['test_train_ratio']:.4f})."
        )
    elif not benchmark and "n_runs" not in summary:
        lines.append("CV design: unknown.")
    best = summary.index[0]
    if benchmark:
        lines.append(
            f"Best model: {best}, mean rank {summary['mean_rank'][0]:.2f} over "
            f"{int(summary['n_datasets'][0])} data sets (best on {int(summary['n_best'][0])}), "
            f"mean score {_number(summary['mean'][0])}."
        )
    else:
        corrected = meta.get("interval") == "nadeau-bengio"
        level = meta.get("ci", 0.95)
        runs = meta.get("unit") == "run"
        kind = (
            "corrected"
            if corrected
            else "plain t, independent runs"
            if runs
            else "plain t, too narrow"
        )
        lines.append(
            f"Best model: {best}, mean score {_number(summary['mean'][0])} ({level:.0%} CI "
            f"{_number(summary['ci_low'][0])} to {_number(summary['ci_high'][0])}, {kind})."
        )
    lines += _tie_line(summary, benchmark)
    lines.append(_ranking_line(summary, top, benchmark))
    return lines


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
    symbol = effects.meta.get("symbol", "effect size")
    row = {key: k for k, key in enumerate(_pair_keys(effects))}
    values = np.asarray(effects["effect_size"], dtype=float)
    magnitudes = effects["magnitude"]
    words: list[str | None] = []
    for pair in pairs:
        k = row.get(pair)
        finite = k is not None and np.isfinite(values[k])
        words.append(f"{magnitudes[k]} effect ({symbol} = {values[k]:.2f})" if finite else None)
    return words


def _detectable_words(analysis: Analysis, result: Rows, shown: np.ndarray) -> list[str | None]:
    """What the design could detect for each shown pair, at the family's Bonferroni level."""
    if analysis.detectable is None:
        return [None] * int(np.count_nonzero(shown))
    alpha = result.meta.get("alpha", 0.05)
    m = max(int(np.count_nonzero(~np.isnan(np.asarray(result["pvalue"], dtype=float)))), 1)
    level = f"{alpha:g}/{m}" if m > 1 else f"{alpha:g}"
    unit = "these data sets" if analysis.benchmark else "these splits"
    return [
        f"{unit} could detect about {value:.3g} or more (power 0.8 at {level})"
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
    meta = rows.meta
    correction = meta.get("correction")
    level = 1 - meta.get("alpha", 0.05)
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
        shown_stat = f"{statistic:.0f}" if float(statistic).is_integer() else _number(statistic, 3)
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


def _against_best(result: Rows, best: Any, top_names: np.ndarray) -> tuple[Rows, np.ndarray]:
    """The rows comparing the best model with each other, and which of those are top models."""
    rows = result.take(result["model_1"] == best)
    return rows, in_names(rows["model_2"], top_names)


def _conclusion_lines(
    result: Rows, best: Any, top_names: np.ndarray, benchmark: bool
) -> list[str]:
    meta = result.meta
    family_wise = meta.get("correction") or meta.get("test") == "nemenyi"
    rows, in_top = _against_best(result, best, top_names)
    others = rows["model_2"]
    missing = np.isnan(np.asarray(rows["pvalue"], dtype=float))
    reject = np.asarray(rows["reject"], dtype=bool) & ~missing
    tied = ~reject & ~missing
    adjusted = "after correction" if family_wise else "without correction"
    runs = meta.get("unit") == "run"
    luck = "of the data sets" if benchmark else "of the seeds" if runs else "of the splits"
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
                f"{adjusted}; the better {what} may be luck {luck}."
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
            f"{adjusted}; the best {what} may be luck {luck}."
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
            "scores (NaN); see the warning, or pass nan_policy='omit'."
        )
    return lines


def _significance_lines(analysis: Analysis, best: Any, top_names: np.ndarray) -> list[str]:
    result, test, benchmark = rows_of(analysis.significance), analysis.test, analysis.benchmark
    meta = result.meta
    correction = meta.get("correction")
    alpha = meta.get("alpha", 0.05)
    alternative = meta.get("asked_alternative", meta.get("alternative", "two-sided"))
    scope, counted = family_words(result, analysis.family, best)
    if correction:
        corrected = f"{correction} correction over {counted}"
    elif test == "nemenyi":
        corrected = (
            f"p-values family-wise over {counted} already "
            f"(studentized range; critical difference of mean ranks {meta['cd']:.3f})"
        )
    else:
        corrected = "no correction for multiple testing"
    names = BENCHMARK_REPORT_TEST_NAMES if benchmark else REPORT_TEST_NAMES
    lines = [
        f"Significance: {names[test]} ({alternative}), {scope}, {corrected}, alpha = {alpha:g}."
    ]
    shown = shown_pairs(result, best, top_names)
    rows = result.take(shown)
    unreachable = _unreachable_lines(result, test, benchmark)
    # Where no pair can reach alpha, no difference however large was detectable: the power
    # of the t-test standing in for a rank test would claim otherwise.
    detectable = (
        [None] * len(rows) if unreachable else _detectable_words(analysis, result, shown)
    )
    effects = None if analysis.effect_sizes is None else rows_of(analysis.effect_sizes)
    lines += _test_lines(rows, test, _effect_words(effects, _pair_keys(rows)), detectable)
    listing = f"pairwise(test={test!r})" if analysis.family == "all_pairs" else f"{test}()"
    lines += left_out_line(result, shown, listing)
    if unreachable:
        return lines + unreachable
    lines += _conclusion_lines(result, best, top_names, benchmark)
    return lines


def _unreachable_lines(result: Rows, test: str, benchmark: bool) -> list[str]:
    """When no comparison of the family can reach alpha, say so instead of "luck"."""
    meta = result.meta
    floor = meta.get("min_attainable_pvalue")
    alpha = meta.get("alpha", 0.05)
    if floor is None or not floor > alpha:
        return []
    unit = "data sets" if benchmark else "splits"
    n = meta.get("n_datasets") if benchmark else None
    counted = f"with {n} {unit}" if n else f"with these {unit}"
    correction = meta.get("correction")
    over = f" after the {correction} correction over {len(result)} comparisons"
    over = over if correction else ""
    needed = meta.get("n_needed_to_reject")
    more = f"; at least {needed} {unit} would make a rejection possible" if needed else ""
    other = "`pairwise(test='nemenyi')`" if benchmark else "`corrected_ttest`"
    if benchmark and meta.get("scope") == "all_pairs":
        # One model against the others is a smaller family only when this one is every pair.
        other += " or one model against the others (`wilcoxon(a=...)`)"
    names = BENCHMARK_REPORT_TEST_NAMES if benchmark else REPORT_TEST_NAMES
    return [
        f"Conclusion: no comparison here could have been significant: {counted}, the smallest "
        f"p-value the {names.get(test, test)} can reach{over} is {floor:.3g}, above alpha = "
        f'{alpha:g}{more}. So "not significant" here says nothing about whether the best '
        f"model was lucky or the models are equal; {other} can reject with these data."
    ]


def _friedman_lines(result: Rows) -> list[str]:
    def first(column: str) -> Any:
        return result[column][0]

    return [
        f"Friedman test: chi-square = {first('statistic'):.3f} (df = {int(first('df'))}), p "
        f"{_pvalue(first('pvalue'))}; Iman–Davenport F = {first('f_statistic'):.3f} "
        f"(df = {int(first('f_df1'))}, {int(first('f_df2'))}), p {_pvalue(first('f_pvalue'))}. "
        "It says whether the models differ at all; the pairs below are tested either way."
    ]


def _bayes_lines(
    result: Rows, family: str, best: Any, top_names: np.ndarray, benchmark: bool
) -> list[str]:
    meta = result.meta
    rope = meta.get("rope")
    alpha = meta.get("alpha", 0.05)
    level = meta.get("ci", 0.95)
    shown_rope = rope_text(rope) if rope is not None else "±0"
    hierarchical = meta.get("test") == "hierarchical"
    if hierarchical:
        method = (
            "hierarchical Bayesian correlated t-test across data sets (Corani et al. 2017), "
            "which keeps every data set's folds and their correlation and shrinks each data "
            "set's difference towards the others; the probabilities are about the difference "
            f"on a new data set ({meta.get('n_samples')} posterior draws in "
            f"{meta.get('chains')} chains)"
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
        lines[0] += _convergence_words(result)
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
    against, in_top = _against_best(result, best, top_names)
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


def _convergence_words(result: pd.DataFrame | Rows) -> str:
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
    named = join_names([f"{a} vs {b}" for a, b in pairs])
    return (
        f" The chains disagree (R-hat of δ0 above 1.01) on {named}: read those "
        "probabilities as rough (more posterior draws settle them)."
    )


def _equivalence_lines(result: Rows, best: Any, top_names: np.ndarray) -> list[str]:
    """Two one-sided tests of the family: which pairs are shown equivalent within the rope."""
    meta = result.meta
    alpha = meta.get("alpha", 0.05)
    correction = meta.get("correction")
    lines = [
        f"Practical equivalence: two one-sided tests (TOST, {meta.get('method', 'welch')}), "
        f"region of practical equivalence {rope_text(meta.get('rope'))}, "
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


def _pooled_lines(result: Rows, family: str, best: Any, top_names: np.ndarray) -> list[str]:
    """The random-effects part of the report of a benchmark frame."""
    meta = result.meta
    alpha = meta.get("alpha", 0.05)
    holm = meta.get("correction")
    level = 1 - alpha
    corrected = f"{holm} correction" if holm else "no correction"
    scope, counted = family_words(result, family, best)
    lines = [
        "Pooled over data sets: random-effects meta-analysis "
        f"({'DerSimonian–Laird' if meta.get('method') == 'dl' else 'Paule–Mandel'}) of the "
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
        lines.append(
            f"  {a} vs {b}: pooled difference {_signed(d)}, {level:.0%} CI {_number(low)} to "
            f"{_number(high)}, p {_pvalue(p)}{adjusted}: {verdict}; tau² = {tau2:.2g}, "
            f"I² = {i2:.0%}; on a new data set {_number(pi_low)} to {_number(pi_high)}."
        )
    lines += left_out_line(result, shown, "random_effects() on all pairs")
    lines += _conclusion_lines(result, best, top_names, True)
    return lines


def _select_report(result: pd.DataFrame) -> str:
    meta = pdcompare_attrs(result)
    chosen = result.index[result["selected"].to_numpy(dtype=bool)]
    eligible = result.index[result["eligible"].to_numpy(dtype=bool)]
    lines = [
        "pdcompare report: choosing a model",
        "==================================",
        f"Rule: {meta.get('rule')}; best mean: {meta.get('best')}; "
        f"selected: {join_names(chosen)}.",
        meta.get("reason", ""),
        f"Eligible under the rule, simplest first: {join_names(eligible)}.",
    ]
    return "\n".join(line for line in lines if line) + "\n"


def _refuse_result(frame: pd.DataFrame) -> None:
    test = pdcompare_attrs(frame).get("test")
    msg = (
        f"report() reads a scores, cv_results_ or benchmark frame; this is the result frame "
        f"of {test!r}. Call report() on the frame of scores the result came from "
        "(or style()/plot() on the result)."
    )
    raise ValueError(msg)


def report(
    frame: pd.DataFrame,
    *,
    test: str | None = None,
    rope: float | tuple[float, float] | None = None,
    alpha: float = 0.05,
    correction: str | None = "default",
    alternative: str = "two-sided",
    ci: float = 0.95,
    nan_policy: str = "propagate",
    top: int | None = DEFAULT_TOP,
    pooled: bool = False,
    hierarchical: bool = False,
    random_state: Any = 0,
    format: str = "text",
    **design: Any,
) -> str:
    """The comparison of the models of a scores frame, in plain words with its numbers.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame (models as rows, splits as columns), ``cv_results_``
        frame, benchmark frame (several data sets), or the result of
        ``select`` (then the choice is explained).
    test : str, optional
        Test of every pair: "corrected_ttest", "ttest", "wilcoxon" or
        "sign_test"; across data sets "wilcoxon", "sign_test", "ttest",
        "nemenyi" or "conover". Default: the corrected t-test when the design
        is known, else the plain t-test, with a warning sentence in the text;
        "wilcoxon" on a benchmark frame.
    rope : float or (float, float), optional
        Half-width (or bounds) of the region of practical equivalence, in the
        units of the score; when given (and the design is known), the Bayesian
        correlated t-test of every pair (the Bayesian signed-rank test on a
        benchmark frame) says which models are practically equivalent.
    alpha : float, default 0.05
        Significance level; the Bayesian decision threshold is ``1 - alpha``.
    correction : str or None, default "default"
        Multiple-testing correction over the pairs (statsmodels' names,
        "shaffer" or None); "default" is "holm", and None for "nemenyi".
    alternative : {"two-sided", "better", "worse", "greater", "less"}, default "two-sided"
        Alternative of the frequentist test, about model_1 − model_2.
    ci : float, default 0.95
        Level of the summary's intervals and of the credible intervals.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing scores: "propagate" reports those pairs as without result (and
        warns), "omit" drops the missing splits (data sets) pair by pair,
        "raise" raises.
    top : int or None, default 10
        Number of best models with lines of their own: up to ``top`` models
        every pair is listed; beyond, the best model against the next
        ``top - 1``, and the other models are counted. None lists every pair.
    pooled : bool, default False
        On a benchmark frame with ``(dataset, split)`` columns, add the
        random-effects pooling of the per-data-set differences
        (``random_effects``): the pooled difference, its interval, and the
        prediction interval for a new data set.
    hierarchical : bool, default False
        On a benchmark frame with ``(dataset, split)`` columns, the CV design
        and a ``rope``: the Bayesian paragraph comes from the hierarchical
        test (``hierarchical``) of the report's family, which keeps every
        data set's folds, instead of the signed-rank test of the per-data-set
        means (see Notes). Refused on other frames and without ``rope``.
    random_state : int, numpy Generator or None, default 0
        Seed of every Monte Carlo step (the Bayesian signed-rank test across
        data sets, the hierarchical test's sampler), so that the same frame
        gives the same text on every run.
    format : {"text", "markdown", "html"}, default "text"
        Plain text; Markdown (the same words, the per-pair lines as lists,
        the tables as pipe tables: for a pull request or an experiment log);
        or one self-contained HTML page (the words, the styled tables of
        ``style()`` and the figures that suit the frame inline as SVG, no
        external resource, no script).
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
        ``greater_is_better=``; on a ``cv_results_`` frame also ``metric=``,
        ``names=`` and ``iteration=`` (as in ``scores``).

    Returns
    -------
    str
        Several lines of text.

    Notes
    -----
    The text is made from the result frames of
    ``pdcompare.compare.analysis.analyse``: ``summary`` and one family
    of comparisons, every pair up to 10 models (``pairwise(test)``), the
    best against each other model beyond (``test()``), corrected over the
    family's rows; ``bayes`` of the same family with a rope (Welch's TOST,
    ``equivalence``, on a runs frame). Every significant difference names
    its magnitude (``effect_size``: d_z, Cliff's delta on runs, with the
    conventional cut points); every difference that is not significant
    says what the design could have detected with power 0.8 at the
    family's Bonferroni level alpha/m (``power``); when the family cannot
    reach alpha at all (a rank test on few data sets) the text says so
    instead of calling the best "luck". Pairs are best-first, so a
    difference is ``model_1 − model_2`` of the higher-ranked minus the
    lower-ranked model. On a benchmark frame the Friedman test is reported
    too, never as a gate.

    ``hierarchical=True`` is opt-in: the hierarchical test uses more of the
    data (every fold, with the correlation the design implies) and answers
    about the next data set, but it samples a posterior for every pair
    (about a second of CPU time per pair at the default 10000 draws), so a
    report of 10 models takes 45 of those. The text names the test, says
    that it keeps the folds and whether its chains agree (split R-hat of
    ``δ0`` at most 1.01 on every pair); the HTML page draws the shrinkage of
    the first pair's data sets (its triangle when the family is one pair).

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> text = load_grid_search_scores().cmp.report(rope=0.01)
    >>> print(text.splitlines()[4])
    Best model: rbf, mean score 0.9400 (95% CI 0.8850 to 0.9950, corrected).
    >>> print(text.splitlines()[8])  # doctest: +NORMALIZE_WHITESPACE
      rbf vs linear: difference +0.0100, 95% CI -0.0164 to 0.0364, t = 0.750,
      p = 0.455, holm-adjusted p = 0.538: not significant; these splits could detect
      about 0.0472 or more (power 0.8 at 0.05/6).
    >>> print(text.splitlines()[10])  # doctest: +NORMALIZE_WHITESPACE
      rbf vs 2_poly: difference +0.2548, 95% CI 0.1441 to 0.3655, t = 4.565, p < 0.001,
      holm-adjusted p < 0.001: SIGNIFICANT, large effect (d_z = 1.59).
    """
    meta = pdcompare_attrs(frame)
    if meta.get("kind") == "result":
        if meta.get("test") == "select":
            return _select_report(frame)
        _refuse_result(frame)
    top = len(frame) if top is None else check_positive_int("top", top, minimum=2)
    check_option("format", format, ("text", "markdown", "html"))
    with warnings_once():
        analysis = analyse(
            frame,
            test=test,
            rope=rope,
            alpha=alpha,
            correction=correction,
            alternative=alternative,
            ci=ci,
            nan_policy=nan_policy,
            pooled=pooled,
            hierarchical=hierarchical,
            random_state=random_state,
            **design,
        )
        return report_text(analysis, top=top, format=format)


def report_text(analysis: Analysis, *, top: int | None = DEFAULT_TOP, format: str = "text") -> str:
    """The text of ``report`` (plain, Markdown or HTML) from an analysis already run.

    The command line prints the tables of the same analysis above it, and
    writes its ``--html`` and ``--markdown`` documents from it.
    """
    top = len(analysis.summary) if top is None else top
    if isinstance(analysis, ForecastAnalysis):
        # The words only read the result frames: views whose metadata pandas need not copy.
        frames = vars(analysis).items()
        reading = dataclasses.replace(
            analysis, **{k: read_only(v) for k, v in frames if isinstance(v, pd.DataFrame)}
        )
        lines = forecast_lines(reading, top)
    else:
        lines = _report_lines(analysis, top)
    if format == "text":
        return "\n".join(lines) + "\n"
    from pdcompare import document

    if format == "markdown":
        return document.markdown(lines, analysis, top)
    return document.html_document(lines, analysis, top)


def _report_lines(analysis: Analysis, top: int) -> list[str]:
    # The words read each result frame's columns once, as numpy arrays (report_rows.py).
    summary = rows_of(analysis.summary)
    summary_design = summary.meta.get("design", {})
    best = analysis.best
    top_names = summary.index[:top]
    lines = ["pdcompare report", "================"]
    lines += _summary_lines(summary, summary_design, top, analysis.benchmark)
    if analysis.fallback_test:
        lines += ["", _UNKNOWN_DESIGN]
    if analysis.friedman is not None:
        lines += ["", *_friedman_lines(rows_of(analysis.friedman))]
    lines += ["", *_significance_lines(analysis, best, top_names)]
    if analysis.bayes is not None:
        bayes = rows_of(analysis.bayes)
        lines += ["", *_bayes_lines(bayes, analysis.family, best, top_names, analysis.benchmark)]
    elif analysis.rope is not None and analysis.equivalence is None:
        lines += [
            "",
            "Practical equivalence: not assessed, because the Bayesian correlated t-test "
            "needs the CV design (pass cv=, test_size=, or n_train= with n_test=).",
        ]
    if analysis.equivalence is not None:
        lines += ["", *_equivalence_lines(rows_of(analysis.equivalence), best, top_names)]
    if analysis.pooled is not None:
        pooled = rows_of(analysis.pooled)
        lines += ["", *_pooled_lines(pooled, analysis.family, best, top_names)]
    return lines
