"""The conclusion of a comparison in plain words, with its numbers.

``df.cmp.report()`` runs the summary, the pairwise frequentist test (the
Nadeau–Bengio corrected t-test when the CV design is known) and, when a rope
is given, the Bayesian correlated t-test, and writes what they say: which
model is best, which differences are significant after correction, which are
practically equivalent. Every sentence quotes the numbers of the result
frames it comes from, so the text can be checked against them.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_fraction, check_option
from pdcompare.compare.summary import summary_table
from pdcompare.inputs.attrs import pdcompare_attrs
from pdcompare.inputs.cv_results import is_cv_results
from pdcompare.inputs.scores import ALL_PAIRS, scores_frame
from pdcompare.stats.multitest import check_correction

#: Tests the report can use for the significance part.
REPORT_TESTS = ("corrected_ttest", "ttest", "wilcoxon", "sign_test")

TEST_NAMES = {
    "corrected_ttest": "Nadeau–Bengio corrected resampled t-test",
    "ttest": "plain paired t-test, uncorrected for CV",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign_test": "sign test",
}

_UNKNOWN_DESIGN = (
    "WARNING: the CV design is unknown, so the corrected t-test cannot be used; the plain "
    "paired t-test is used instead. It treats the CV splits as independent, but they share "
    "training data, so its p-values are too small and differences look significant too "
    "often. Pass the design (cv=, test_size=, or n_train= with n_test=; on the command "
    "line --cv or --test-size) for the corrected test."
)


def _number(value: float, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "nan"
    return f"{value:.{digits}f}"


def _signed(value: float, digits: int = 4) -> str:
    if np.isnan(value):
        return "nan"
    return f"{value:+.{digits}f}"


def _pvalue(value: float) -> str:
    """``= 0.455`` or ``< 0.001``, to follow "p"."""
    from pdcompare.styling import format_pvalue

    text = format_pvalue(value, 3)
    return f"< {text[1:]}" if text.startswith("<") else f"= {text}"


def _rope_text(rope: Any) -> str:
    if isinstance(rope, numbers.Real):
        return f"±{float(rope):g}"
    low, high = (float(x) for x in rope)
    if low == -high:
        return f"±{high:g}"
    return f"[{low:g}, {high:g}]"


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _summary_lines(summary: pd.DataFrame, design: dict[str, Any]) -> list[str]:
    n_models = len(summary)
    n_splits = int(summary["n_splits"].max())
    direction = "higher" if design.get("greater_is_better", True) else "lower"
    lines = [f"Data: {n_models} models x {n_splits} CV splits; {direction} scores are better."]
    if design.get("test_train_ratio") is not None:
        lines.append(
            f"CV design: {design.get('source')} (test/train size ratio "
            f"{design['test_train_ratio']:.4f})."
        )
    else:
        lines.append("CV design: unknown.")
    corrected = pdcompare_attrs(summary).get("interval") == "nadeau-bengio"
    level = pdcompare_attrs(summary).get("ci", 0.95)
    best = summary.index[0]
    row = summary.iloc[0]
    kind = "corrected" if corrected else "plain t, too narrow"
    lines.append(
        f"Best model: {best}, mean score {_number(row['mean'])} ({level:.0%} CI "
        f"{_number(row['ci_low'])} to {_number(row['ci_high'])}, {kind})."
    )
    ranking = ", ".join(f"{name} {_number(m)}" for name, m in summary["mean"].items())
    lines.append(f"Mean scores, best first: {ranking}.")
    return lines


def _test_line(row: pd.Series, test: str, meta: dict[str, Any]) -> str:
    correction = meta.get("correction")
    parts = [f"difference {_signed(row['mean_diff'])}"]
    if "ci_low" in row.index and np.isfinite([row["ci_low"], row["ci_high"]]).any():
        level = 1 - meta.get("alpha", 0.05)
        low, high = row["ci_low"], row["ci_high"]
        if np.isinf(high) and not np.isinf(low):
            parts.append(f"{level:.0%} lower bound {_number(low)}")
        elif np.isinf(low) and not np.isinf(high):
            parts.append(f"{level:.0%} upper bound {_number(high)}")
        else:
            parts.append(f"{level:.0%} CI {_number(low)} to {_number(high)}")
    name = "t" if test in ("corrected_ttest", "ttest") else "statistic"
    statistic = float(row["statistic"])
    shown = f"{statistic:.0f}" if statistic.is_integer() else _number(statistic, 3)
    parts.append(f"{name} = {shown}")
    parts.append(f"p {_pvalue(row['pvalue'])}")
    if correction:
        parts.append(f"{correction}-adjusted p {_pvalue(row['pvalue_adj'])}")
    if np.isnan(row["pvalue"]):
        verdict = "no result (missing scores)"
    elif row["reject"]:
        verdict = "SIGNIFICANT"
    else:
        verdict = "not significant"
    return f"  {row['model_1']} vs {row['model_2']}: " + ", ".join(parts) + f": {verdict}."


def _significance_lines(result: pd.DataFrame, test: str, best: Any) -> list[str]:
    meta = pdcompare_attrs(result)
    correction = meta.get("correction")
    alpha = meta.get("alpha", 0.05)
    alternative = meta.get("alternative", "two-sided")
    corrected = (
        f"{correction} correction over the {len(result)} pair{'s' if len(result) > 1 else ''}"
        if correction
        else ("no correction for multiple testing")
    )
    lines = [
        f"Significance: {TEST_NAMES[test]} ({alternative}), every pair of models, "
        f"{corrected}, alpha = {alpha:g}."
    ]
    lines += [_test_line(row, test, meta) for _, row in result.iterrows()]
    against_best = result[result["model_1"] == best]
    missing = against_best["pvalue"].isna()
    reject = against_best["reject"].astype(bool) & ~missing
    better = [str(m) for m in against_best.loc[reject, "model_2"]]
    tied = [str(m) for m in against_best.loc[~reject & ~missing, "model_2"]]
    unknown = [str(m) for m in against_best.loc[missing, "model_2"]]
    adjusted = "after correction" if correction else "without correction"
    if better and not tied:
        lines.append(
            f"Conclusion: {best} is significantly better than every other model "
            f"({_join(better)}) {adjusted}."
        )
    elif better:
        lines.append(
            f"Conclusion: {best} is significantly better than {_join(better)} {adjusted}; "
            f"its lead over {_join(tied)} is not significant, so on these scores "
            f"{'that model' if len(tied) == 1 else 'those models'} may be as good as {best}."
        )
    elif tied:
        lines.append(
            f"Conclusion: no difference between {best} and the others is significant "
            f"{adjusted}; the best mean may be luck of the splits."
        )
    if unknown:
        lines.append(
            f"No result for {best} vs {_join(unknown)}: missing scores (NaN); see the "
            "warning, or pass nan_policy='omit'."
        )
    return lines


def _bayes_lines(result: pd.DataFrame) -> list[str]:
    meta = pdcompare_attrs(result)
    rope = meta.get("rope")
    alpha = meta.get("alpha", 0.05)
    level = meta.get("ci", 0.95)
    rope_text = _rope_text(rope) if rope is not None else "±0"
    lines = [
        f"Practical equivalence: Bayesian correlated t-test (Benavoli et al. 2017), region "
        f"of practical equivalence (rope) {rope_text}; a comparison is decided when one "
        f"probability reaches {1 - alpha:g}."
    ]
    for _, row in result.iterrows():
        decision = row["decision"]
        verdict = {
            "equivalent": "PRACTICALLY EQUIVALENT",
            "undecided": "undecided",
        }.get(decision, f"{decision} is BETTER")
        lines.append(
            f"  {row['model_1']} vs {row['model_2']}: difference {_signed(row['mean_diff'])}, "
            f"P({row['model_1']} better) = {_number(row['prob_better'], 3)}, "
            f"P(equivalent) = {_number(row['prob_rope'], 3)}, "
            f"P({row['model_2']} better) = {_number(row['prob_worse'], 3)}, "
            f"{level:.0%} credible interval {_number(row['ci_low'])} to "
            f"{_number(row['ci_high'])}: {verdict}."
        )
    equivalent = [
        f"{a} and {b}"
        for a, b, d in zip(result["model_1"], result["model_2"], result["decision"], strict=True)
        if d == "equivalent"
    ]
    if equivalent:
        lines.append(f"Practically equivalent: {'; '.join(equivalent)}.")
    else:
        lines.append("No pair is practically equivalent at this probability.")
    return lines


def report(
    frame: pd.DataFrame,
    *,
    test: str | None = None,
    rope: float | tuple[float, float] | None = None,
    alpha: float = 0.05,
    correction: str | None = "holm",
    alternative: str = "two-sided",
    ci: float = 0.95,
    nan_policy: str = "propagate",
    **design: Any,
) -> str:
    """The comparison of the models of a scores frame, in plain words with its numbers.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame (models as rows, splits as columns) or ``cv_results_`` frame.
    test : {"corrected_ttest", "ttest", "wilcoxon", "sign_test"}, optional
        Test of every pair. Default: the corrected t-test when the design is
        known, else the plain t-test, with a warning sentence in the text.
    rope : float or (float, float), optional
        Half-width (or bounds) of the region of practical equivalence; when
        given (and the design is known), the Bayesian correlated t-test of
        every pair says which models are practically equivalent.
    alpha : float, default 0.05
        Significance level; the Bayesian decision threshold is ``1 - alpha``.
    correction : str or None, default "holm"
        Multiple-testing correction over the pairs (statsmodels' names).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        Alternative of the frequentist test, about model_1 − model_2.
    ci : float, default 0.95
        Level of the summary's intervals and of the credible intervals.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing scores: "propagate" reports those pairs as without result (and
        warns), "omit" drops the missing splits pair by pair, "raise" raises.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
        ``greater_is_better=``.

    Returns
    -------
    str
        Several lines of text.

    Notes
    -----
    The text is made from ``summary``, ``pairwise(test, correction, alpha)``
    and ``bayes`` on all pairs; pairs are best-first, so a difference is
    ``model_1 − model_2`` of the higher-ranked minus the lower-ranked model.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> text = load_grid_search_scores().cmp.report(rope=0.01)
    >>> print(text.splitlines()[4])
    Best model: rbf, mean score 0.9400 (95% CI 0.8850 to 0.9950, corrected).
    >>> print(text.splitlines()[8])  # doctest: +NORMALIZE_WHITESPACE
      rbf vs linear: difference +0.0100, 95% CI -0.0164 to 0.0364, t = 0.750,
      p = 0.455, holm-adjusted p = 0.538: not significant.
    """
    alpha = check_fraction("alpha", alpha)
    ci = check_fraction("ci", ci)
    correction = check_correction(correction)
    if rope is not None:
        from pdcompare.stats.bayes import check_rope

        check_rope(rope)  # fail before any test runs, with the one rule bayes applies
    if test is not None:
        check_option("test", test, REPORT_TESTS)
    if is_cv_results(frame):
        frame = scores_frame(frame)
    summary = summary_table(frame, ci=ci, **design)
    summary_design = pdcompare_attrs(summary).get("design", {})
    known = summary_design.get("test_train_ratio") is not None
    lines = ["pdcompare report", "================"]
    lines += _summary_lines(summary, summary_design)
    if test is None:
        test = "corrected_ttest" if known else "ttest"
        if not known:
            lines += ["", _UNKNOWN_DESIGN]
    result = frame.cmp.pairwise(
        test=test,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        nan_policy=nan_policy,
        **design,
    )
    lines += [""]
    lines += _significance_lines(result, test, summary.index[0])
    if rope is not None:
        lines.append("")
        if known:
            bayes = frame.cmp.bayes(
                ALL_PAIRS, rope=rope, ci=ci, alpha=alpha, nan_policy=nan_policy, **design
            )
            lines += _bayes_lines(bayes)
        else:
            lines.append(
                "Practical equivalence: not assessed, because the Bayesian correlated t-test "
                "needs the CV design (pass cv=, test_size=, or n_train= with n_test=)."
            )
    return "\n".join(lines) + "\n"
