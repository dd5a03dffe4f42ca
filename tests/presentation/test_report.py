"""Tests of ``df.cmp.report()``: the numbers in the text against result frames and DESIGN §8."""

import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare._validation import PdcompareWarning
from pdcompare.datasets import load_grid_search_scores

PAIR_LINE = re.compile(
    r"^  (?P<a>\S+) vs (?P<b>\S+): difference (?P<diff>[-+]\d\.\d+), .*"
    r"(?:t|statistic) = (?P<stat>-?[\d.]+|inf), p (?P<p>[=<] [\d.]+)"
    r"(?:, \S+-adjusted p (?P<padj>[=<] [\d.]+))?: (?P<verdict>[\w ]+?)"
    # A significant difference names its magnitude, one that is not what could be detected.
    r"(?P<more>, \w+ effect \(\S+ = -?[\d.]+\)|; these \w+ could detect about .*)?\.$"
)
BAYES_LINE = re.compile(
    r"^  (?P<a>\S+) vs (?P<b>\S+): difference (?P<diff>[-+]\d\.\d+), "
    r"P\(\S+ better\) = (?P<better>[\d.]+), P\(equivalent\) = (?P<rope>[\d.]+), "
    r"P\(\S+ better\) = (?P<worse>[\d.]+), 95% credible interval (?P<low>-?[\d.]+) to "
    r"(?P<high>-?[\d.]+): (?P<verdict>.+)\.$"
)


def pvalue(text):
    # "= 0.455" is the p-value rounded to 3 decimals; "< 0.001" is below 0.0005.
    return 0.0 if text.startswith("<") else float(text[2:])


def pair_lines(text):
    return [m.groupdict() for m in map(PAIR_LINE.match, text.splitlines()) if m]


def bayes_lines(text):
    return [m.groupdict() for m in map(BAYES_LINE.match, text.splitlines()) if m]


@pytest.fixture(scope="module")
def scores():
    return load_grid_search_scores()


def test_report_gallery_reproduces_design_values(scores):
    text = scores.cmp.report(rope=0.01, alternative="greater", correction="bonferroni")
    assert "Best model: rbf, mean score 0.9400" in text
    assert (
        "Mean scores, best first: rbf 0.9400; linear 0.9300; 3_poly 0.9044; 2_poly 0.6852." in text
    )
    assert "Nadeau–Bengio corrected resampled t-test (greater)" in text
    assert "bonferroni correction over the 6 pairs" in text
    rows = pair_lines(text)
    assert [(r["a"], r["b"]) for r in rows] == [
        ("rbf", "linear"),
        ("rbf", "3_poly"),
        ("rbf", "2_poly"),
        ("linear", "3_poly"),
        ("linear", "2_poly"),
        ("3_poly", "2_poly"),
    ]
    # DESIGN.md §8, pairwise corrected t, "greater", Bonferroni (t, p_adj).
    assert_allclose(
        [float(r["stat"]) for r in rows], [0.750, 1.657, 4.565, 1.111, 4.276, 3.851], atol=5e-4
    )
    assert_allclose([pvalue(r["padj"]) for r in rows], [1.0, 0.302, 0, 0.807, 0, 0.001], atol=5e-4)
    # rbf vs linear uncorrected one-sided p (before Bonferroni): 0.227.
    assert rows[0]["p"] == "= 0.227"
    assert [r["verdict"] for r in rows] == [
        "not significant",
        "not significant",
        "SIGNIFICANT",
        "not significant",
        "SIGNIFICANT",
        "SIGNIFICANT",
    ]
    assert (
        "Conclusion: rbf is significantly better than 2_poly after correction.\nIts lead "
        "over linear and 3_poly is not significant after correction"
    ) in text
    # DESIGN.md §8, pairwise bayes rope 0.01 (better, rope, worse).
    bayes = bayes_lines(text)
    assert len(bayes) == 6
    expected = [
        (0.500, 0.432, 0.068),
        (0.882, 0.100, 0.018),
        (1, 0, 0),
        (0.750, 0.187, 0.063),
        (1, 0, 0),
        (1, 0, 0),
    ]
    got = [(float(b["better"]), float(b["rope"]), float(b["worse"])) for b in bayes]
    assert_allclose(got, expected, atol=1.5e-3)
    # 95% credible interval rbf - linear: (-0.016445, 0.036445).
    assert_allclose(
        [float(bayes[0]["low"]), float(bayes[0]["high"])], [-0.016445, 0.036445], atol=5e-5
    )
    assert bayes[0]["verdict"] == "undecided"
    assert bayes[2]["verdict"] == "rbf is BETTER"


def test_report_numbers_match_the_result_frames(scores):
    text = scores.cmp.report()
    result = scores.cmp.pairwise(test="corrected_ttest", correction="holm", alpha=0.05)
    rows = pair_lines(text)
    assert [(r["a"], r["b"]) for r in rows] == list(
        zip(result["model_1"], result["model_2"], strict=True)
    )
    assert_allclose([float(r["diff"]) for r in rows], result["mean_diff"], atol=5e-5)
    assert_allclose([float(r["stat"]) for r in rows], result["statistic"], atol=5e-4)
    assert_allclose([pvalue(r["p"]) for r in rows], result["pvalue"], atol=5e-4)
    assert_allclose([pvalue(r["padj"]) for r in rows], result["pvalue_adj"], atol=5e-4)
    assert [r["verdict"] == "SIGNIFICANT" for r in rows] == result["reject"].tolist()
    assert "95% CI" in text
    assert "Practical equivalence" not in text


def test_report_unknown_design_falls_back_with_warning(scores):
    plain = pd.DataFrame(scores.to_numpy(), index=scores.index)
    text = plain.cmp.report(rope=0.01)
    assert "CV design: unknown." in text
    assert "WARNING: the CV design is unknown" in text
    assert "plain paired t-test, uncorrected for CV" in text
    assert "p-values are too small" in text
    assert "Practical equivalence: not assessed" in text
    result = plain.cmp.pairwise(test="ttest")
    rows = pair_lines(text)
    assert_allclose([float(r["stat"]) for r in rows], result["statistic"], atol=5e-4)
    # DESIGN.md §8: the uncorrected one-sided rbf vs linear t = 2.611 (two-sided here, same t).
    assert rows[0]["stat"] == "2.611"
    assert "plain t, too narrow)" in text


def test_report_design_keyword_and_test_option(scores):
    plain = pd.DataFrame(scores.to_numpy(), index=scores.index)
    # 100 splits of a 10-fold overlap: the Wilcoxon test says so.
    with pytest.warns(PdcompareWarning, match="overlap"):
        text = plain.cmp.report(cv=10, test="wilcoxon", correction=None)
    assert "CV design: cv=10" in text
    assert "Wilcoxon signed-rank test" in text
    assert "no correction for multiple testing" in text
    result = plain.cmp.pairwise(test="wilcoxon", correction=None)
    rows = pair_lines(text)
    assert_allclose([pvalue(r["p"]) for r in rows], result["pvalue"], atol=5e-4)


def test_report_no_significant_difference():
    rng = np.random.default_rng(0)
    base = rng.normal(0.8, 0.02, 20)
    frame = pd.DataFrame(
        [base + 0.001, base - 0.001 + rng.normal(0, 0.01, 20)], index=["a", "b"]
    ).cmp.set_design(cv=10)
    text = frame.cmp.report()
    assert (
        "Conclusion: the difference between a and b is not significant after correction: "
        "these splits cannot tell whether the better mean is a real difference." in text
    )
    three = pd.concat([frame, frame.iloc[[1]].rename(index={"b": "c"}) * 0.999])
    assert "Conclusion: no difference between a and the others is significant" in (
        three.cmp.report(cv=10)
    )
    apart = frame + np.array([[0.05], [0.0]])
    assert "Conclusion: a is significantly better than b after correction." in (
        apart.cmp.report(cv=10)
    )


def test_report_lower_is_better():
    frame = pd.DataFrame(
        [[0.10, 0.12, 0.11, 0.13], [0.30, 0.28, 0.35, 0.31]], index=["good", "bad"]
    )
    text = frame.cmp.report(test_size=0.2, greater_is_better=False)
    assert "lower scores are better" in text
    assert "Best model: good" in text


def test_report_errors(scores):
    with pytest.raises(ValueError, match="`test` must be one of"):
        scores.cmp.report(test="bayes")
    with pytest.raises(ValueError, match="`alpha` must be strictly between 0 and 1"):
        scores.cmp.report(alpha=1.5)
    with pytest.raises(ValueError, match="`rope` as a half-width must be a finite number >= 0"):
        scores.cmp.report(rope=-0.1)
    # Checked before anything runs, also when the design is unknown and bayes never runs.
    unknown = pd.DataFrame(scores.to_numpy(), index=scores.index)
    with pytest.raises(ValueError, match=r"`rope` must be \(low, high\) with low <= high"):
        unknown.cmp.report(rope=(0.02, 0.01))
    with pytest.raises(ValueError, match="`correction` must be one of"):
        scores.cmp.report(correction="holmes")
    plain = pd.DataFrame(scores.to_numpy(), index=scores.index)
    with pytest.raises(ValueError, match="cv="):
        plain.cmp.report(test="corrected_ttest")


def test_report_missing_scores(scores):
    from pdcompare import PdcompareWarning

    holed = scores.copy()
    holed.iloc[3, 5] = np.nan  # 2_poly misses one split
    with pytest.warns(PdcompareWarning, match="2_poly"):
        text = holed.cmp.report()
    assert "rbf vs 2_poly: difference nan" in text
    assert "No result for rbf vs 2_poly: missing scores" in text
    omitted = holed.cmp.report(nan_policy="omit")
    result = holed.cmp.pairwise(nan_policy="omit")
    rows = pair_lines(omitted)
    assert_allclose([float(r["stat"]) for r in rows], result["statistic"], atol=5e-4)
    # The omitted split changes only the pairs with 2_poly: rbf vs linear keeps t = 0.750.
    assert rows[0]["stat"] == "0.750"
