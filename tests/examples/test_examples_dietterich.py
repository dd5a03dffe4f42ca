"""Runs examples/dietterich_tests.py headless and checks every number it prints."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example
from numpy.testing import assert_allclose
from scipy import stats


@pytest.fixture(scope="module")
def run():
    return run_example("dietterich_tests")


@pytest.mark.slow
def test_prints_every_test_with_its_pvalue(run):
    out, printed = run
    assert len(out["results"]) == 8
    for name, result in out["results"].items():
        row = result.iloc[0]
        shown = f"{name:<42} statistic = {row['statistic']:8.3f}   p = {row['pvalue']:.4f}"
        assert shown in printed
    for test in ("McNemar", "two-proportion z", "resampled paired t", "10-fold paired t",
                 "corrected_ttest", "ttest_5x2cv", "ftest_5x2cv"):  # fmt: skip
        assert test in printed


@pytest.mark.slow
def test_holdout_tests_match_statsmodels(run):
    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.proportion import proportions_ztest

    out, _ = run
    preds = out["predictions"]
    right_1 = (preds["forest"] == preds["y"]).to_numpy()
    right_2 = (preds["1-nn"] == preds["y"]).to_numpy()
    b, c = int(np.sum(right_1 & ~right_2)), int(np.sum(~right_1 & right_2))
    result = out["results"]["McNemar (holdout)"].iloc[0]
    assert (result["only_1_correct"], result["only_2_correct"]) == (b, c)
    # exact=None: the exact binomial test below 25 discordant samples.
    expected = mcnemar([[0, b], [c, 0]], exact=b + c < 25, correction=True)
    assert_allclose([result["statistic"], result["pvalue"]], [expected.statistic, expected.pvalue])
    z = out["results"]["two-proportion z (holdout; not advised)"].iloc[0]
    n = len(preds)
    assert_allclose(
        [z["statistic"], z["pvalue"]], proportions_ztest([right_1.sum(), right_2.sum()], [n, n])
    )


@pytest.mark.slow
def test_resampled_and_kfold_tests_match_scipy_and_the_formula(run):
    out, _ = run
    for frame, label in ((out["holdouts"], "resampled"), (out["kfold"], "10-fold")):
        d = (frame.loc["forest"] - frame.loc["1-nn"]).to_numpy()
        plain = stats.ttest_rel(frame.loc["forest"], frame.loc["1-nn"])
        key = next(k for k in out["results"] if k.startswith(f"{label} paired t"))
        assert_allclose(
            out["results"][key][["statistic", "pvalue"]].to_numpy()[0],
            [plain.statistic, plain.pvalue],
            rtol=1e-10,
        )
        # Nadeau & Bengio (2003): variance * (1/n + n_test/n_train), t with n - 1 df.
        ratio = frame.attrs["pdcompare"]["design"]["test_train_ratio"]
        t = d.mean() / np.sqrt(d.var(ddof=1) * (1 / len(d) + ratio))
        corrected = out["results"][f"{label} corrected t (corrected_ttest)"]
        assert_allclose(
            corrected[["statistic", "pvalue"]].to_numpy()[0],
            [t, 2 * stats.t.sf(abs(t), len(d) - 1)],
            rtol=1e-10,
        )
        # Why the correction matters: the plain test is overconfident.
        assert corrected["pvalue"].iloc[0] > plain.pvalue


@pytest.mark.slow
def test_five_by_two_tests_match_the_formulas(run):
    out, _ = run
    scores = out["five_by_two"]
    d = (scores.loc["forest"] - scores.loc["1-nn"]).to_numpy().reshape(5, 2)
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    t = d[0, 0] / np.sqrt(s2.mean())  # Dietterich (1998)
    f = (d**2).sum() / (2 * s2.sum())  # Alpaydin (1999)
    assert_allclose(
        out["results"]["5x2cv paired t (ttest_5x2cv)"][["statistic", "pvalue"]].to_numpy()[0],
        [t, 2 * stats.t.sf(abs(t), 5)],
        rtol=1e-10,
    )
    assert_allclose(
        out["results"]["5x2cv combined F (ftest_5x2cv)"][["statistic", "pvalue"]].to_numpy()[0],
        [f, stats.f.sf(f, 10, 5)],
        rtol=1e-10,
    )
