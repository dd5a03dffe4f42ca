"""The report names how large each significant difference is and what each other could detect.

References: ``effect_size`` (itself checked against autorank and JASP), ``power``'s
``mdd`` at the family's Bonferroni level (checked against statsmodels and a
Monte Carlo), ``welch_ttest`` (scipy), and the smallest Wilcoxon p-value
written out (2 / 2^n, times the Holm factor).
"""

import re

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.datasets import load_grid_search_scores


def pair_line(text, a, b):
    return next(line for line in text.splitlines() if line.startswith(f"  {a} vs {b}: "))


def test_significant_lines_name_the_magnitude():
    scores = load_grid_search_scores()
    text = scores.cmp.report()
    effects = pdcompare.pairwise(scores, "effect_size").set_index(["model_1", "model_2"])
    for a, b in [("rbf", "2_poly"), ("linear", "2_poly"), ("3_poly", "2_poly")]:
        line = pair_line(text, a, b)
        found = re.search(r"SIGNIFICANT, (\w+) effect \(d_z = ([\d.]+)\)\.$", line)
        assert found.group(1) == effects.loc[(a, b), "magnitude"]
        assert_allclose(float(found.group(2)), effects.loc[(a, b), "effect_size"], atol=0.005)
    assert "large effect (d_z = 1.59)" in pair_line(text, "rbf", "2_poly")


def test_non_significant_lines_say_what_the_splits_could_detect():
    scores = load_grid_search_scores()
    text = scores.cmp.report()
    # The family is the 6 pairs: Bonferroni level 0.05 / 6.
    for a, b in [("rbf", "linear"), ("rbf", "3_poly"), ("linear", "3_poly")]:
        mdd = scores.cmp.power(a, b, delta=0.01, alpha=0.05 / 6)["mdd"].iloc[0]
        line = pair_line(text, a, b)
        found = re.search(r"not significant; these splits could detect about ([\d.]+) or more "
                          r"\(power 0\.8 at 0\.05/6\)\.$", line)
        assert_allclose(float(found.group(1)), mdd, rtol=5e-3)


def test_without_the_design_nothing_is_claimed_about_detection():
    plain = pd.DataFrame(load_grid_search_scores().to_numpy(), index=["a", "b", "c", "d"])
    text = plain.cmp.report()
    assert "could detect" not in text
    assert "the corrected t-test cannot be used" in text


def test_a_family_that_cannot_reach_alpha_says_the_test_could_not_tell():
    rng = np.random.default_rng(0)
    values = np.linspace(0.9, 0.8, 5)[:, None] + rng.normal(0, 0.03, (5, 8))
    bench = pd.DataFrame(values, index=list("abcde"),
                         columns=pd.Index([f"d{k}" for k in range(8)], name="dataset"))
    with pytest.warns(pdcompare.PdcompareWarning, match="cannot reject"):
        text = bench.cmp.report()
    floor = 2 / 2**8 * 10  # exact Wilcoxon, all 8 differences one way; Holm's first factor 10
    assert f"is {floor:.3g}, above alpha = 0.05" in text
    assert "at least 9 data sets would make a rejection possible" in text
    assert "cannot tell whether" not in text
    assert "nemenyi" in text
    # No pair could be significant, so no difference was detectable: the paired t's power
    # (which would put it near 0.1 here) must not be offered for the rank test.
    assert "could detect" not in text
    assert sum(line.endswith(": not significant.") for line in text.splitlines()) == 10


def test_a_runs_frame_is_reported_with_unpaired_tests():
    rng = np.random.default_rng(0)
    runs = pd.DataFrame(rng.normal(0.8, 0.02, (4, 8)) + np.array([[0.03], [0.02], [0], [0.01]]),
                        index=list("abcd")).cmp.set_design(paired=False)
    runs.iloc[0, 7] = np.nan  # one absent run: not a missing score
    text = runs.cmp.report(rope=0.01)
    assert "x 7 to 8 runs each" in text
    assert "Welch's unequal-variance t-test of independent runs" in text
    welch = runs.cmp.pairwise(test="welch_ttest").set_index(["model_1", "model_2"])
    line = pair_line(text, "a", "b")
    found = re.search(r"t = ([-\d.]+), p [=<] [\d.]+, holm-adjusted p = ([\d.]+)", line)
    assert_allclose(float(found.group(1)), welch.loc[("a", "b"), "statistic"], atol=5e-4)
    assert_allclose(float(found.group(2)), welch.loc[("a", "b"), "pvalue_adj"], atol=5e-4)
    assert "(δ = " in line  # Cliff's delta on runs
    assert "two one-sided tests" in text
    assert "these splits" not in text
    assert "CV design: unknown" not in text


def forecasts(n_models=4, seed=0):
    rng = np.random.default_rng(seed)
    y = np.cumsum(rng.normal(size=120))
    columns = {f"f{k}": y + rng.normal(0, 1 + 0.3 * k, 120) for k in range(n_models)}
    return pd.DataFrame({"y": y, **columns}, index=pd.date_range("2020-01-01", periods=120))


def test_a_report_of_forecasts_speaks_of_forecasts():
    frame = forecasts()
    text = frame.cmp.report()
    assert "4 forecasters x 120 time points" in text
    dm = frame.cmp.pairwise(test="diebold_mariano").set_index(["model_1", "model_2"])
    line = pair_line(text, "f0", "f2")
    found = re.search(r"statistic = ([-\d.]+), adjusted p ([=<]) ([\d.]+)", line)
    assert_allclose(float(found.group(1)), dm.loc[("f0", "f2"), "statistic"], atol=5e-4)
    mcs = frame.cmp.confidence_set(random_state=0)
    kept = list(mcs.index[mcs["in_set"]])
    assert f"at 90% it holds {' and '.join(kept) if len(kept) < 3 else kept[0]}" in text
    assert text == frame.cmp.report()  # the confidence set's bootstrap is seeded
    page = frame.cmp.report(format="html")
    assert page.count("<svg") == 1
    with pytest.raises(ValueError, match="Diebold–Mariano"):
        frame.cmp.report(rope=0.01)


def test_counts_at_300_models_are_the_family_of_the_test_and_of_bayes():
    # Beyond 10 models the family is the best against each of the others (DESIGN §14):
    # every count of the text is a count of corrected_ttest()'s and bayes()'s rows.
    from frames import ranked_models

    frame = ranked_models(300).cmp.set_design(cv=10)
    text = frame.cmp.report(rope=0.01)
    test = frame.cmp.corrected_ttest()
    bayes = frame.cmp.bayes(rope=0.01)
    best = test["model_1"].iloc[0]
    assert len(test) == len(bayes) == 299
    assert "against each of the other 299 models, holm correction over those 299" in text
    # The 9 listed pairs, then the counts of the 290 others.
    listed = list(test["model_2"].iloc[:9])
    for b, reject in zip(listed, test["reject"].iloc[:9], strict=True):
        assert ("SIGNIFICANT" in pair_line(text, best, b)) == bool(reject)
    rest = test.iloc[9:]
    worse, tied = int(rest["reject"].sum()), int((~rest["reject"]).sum())
    assert 0 < worse < 290  # the frame mixes both verdicts
    assert (
        f"Of the other 290 models, {worse} are significantly worse than {best}; {tied} are "
        "not distinguishable from it." in text
    )
    decisions = bayes["decision"].iloc[9:].value_counts()
    equivalent = int(decisions.get("equivalent", 0))
    undecided = int(decisions.get("undecided", 0))
    assert 0 < undecided < 290
    assert (
        f"Of the other 290 models: {equivalent} practically equivalent to {best}, "
        f"{290 - equivalent - undecided} practically worse than {best}, {undecided} undecided."
        in text
    )
    # The totals of the family, listed and counted together.
    assert test["reject"].sum() == worse + sum(
        "SIGNIFICANT" in pair_line(text, best, b) for b in listed
    )


def test_a_benchmark_report_with_a_rope_is_the_same_text_twice():
    # The Bayesian signed-rank test is Monte Carlo; report(random_state=0) seeds it, so two
    # calls give the same text, and its probabilities are bayes(random_state=0)'s.
    import warnings

    from pdcompare.datasets import load_benchmark

    bench = load_benchmark()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdcompare.PdcompareWarning)
        first = bench.cmp.report(rope=0.01)
        second = bench.cmp.report(rope=0.01)
        seeded = bench.cmp.report(rope=0.01, random_state=0)
        bayes = bench.cmp.bayes(rope=0.01, random_state=0)
    assert first == second == seeded
    row = bayes.iloc[0]
    a, b = row["model_1"], row["model_2"]
    lines = [line for line in first.splitlines() if line.startswith(f"  {a} vs {b}: ")]
    bayes_line = next(line for line in lines if "P(equivalent)" in line)
    assert (
        f"P({a} better) = {row['prob_better']:.3f}, P(equivalent) = {row['prob_rope']:.3f}, "
        f"P({b} better) = {row['prob_worse']:.3f}" in bayes_line
    )


def test_a_best_against_the_rest_family_that_cannot_reject_names_only_nemenyi():
    # 60 models x 8 data sets: the report's family is the best against the 59 others, whose
    # smallest Holm-adjusted Wilcoxon p is 2/2**8 * 59 = 0.461. wilcoxon(a=...) is that same
    # family, so it must not be offered as the test that can reject.
    rng = np.random.default_rng(0)
    values = np.linspace(0.9, 0.8, 60)[:, None] + rng.normal(0, 0.01, (60, 8))
    bench = pd.DataFrame(values, index=[f"m{k}" for k in range(60)],
                         columns=pd.Index([f"d{k}" for k in range(8)], name="dataset"))
    with pytest.warns(pdcompare.PdcompareWarning, match="cannot reject any of 59 pairs"):
        text = bench.cmp.report()
    assert f"is {2 / 2**8 * 59:.3g}, above alpha = 0.05" in text
    assert "at least 12 data sets would make a rejection possible" in text
    assert text.rstrip().endswith("`pairwise(test='nemenyi')` can reject with these data.")
    assert "wilcoxon(a=...)" not in text
    assert "could detect" not in text
