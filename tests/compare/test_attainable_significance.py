"""Attainable significance of the discrete tests (Wilcoxon, sign test) and its warning.

References: scipy.stats.wilcoxon and binomtest on the most extreme data (every
difference of one sign), statsmodels' multipletests on a vector of those p-values,
and the issue's example: 5 models x 8 data sets, Wilcoxon + Holm over 10 pairs,
smallest attainable p-value 10 x 2/2**8 = 0.078.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats
from statsmodels.stats.multitest import multipletests

from pdcompare import PdcompareWarning


def benchmark(n_models, n_datasets, seed=0, step=0.5):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n_models, n_datasets)) + step * np.arange(n_models)[::-1, None]
    return pd.DataFrame(values, index=[f"m{k}" for k in range(n_models)],
                        columns=pd.Index([f"d{k}" for k in range(n_datasets)], name="dataset"))


def scores(n_models, n_splits, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n_models, n_splits)) + np.arange(n_models)[::-1, None]
    return pd.DataFrame(values, index=[f"m{k}" for k in range(n_models)],
                        columns=[f"s{k}" for k in range(n_splits)])


def test_five_models_eight_data_sets_cannot_reject():
    bench = benchmark(5, 8)
    with pytest.warns(PdcompareWarning) as caught:
        res = bench.cmp.pairwise(test="wilcoxon")
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1
    message = messages[0]
    assert "cannot reject any of 10 pairs at alpha 0.05" in message
    assert "smallest p-value is 0.0078, 0.078 after `correction='holm'` over 10 pairs" in message
    # Holm over 10 pairs needs 10 x 2/2**n <= 0.05: n = 9 data sets.
    assert "at least 9 data sets" in message
    assert "pairwise(test='nemenyi')" in message
    assert "pairwise(test='conover')" in message
    assert "wilcoxon(a=...)" in message
    attainable = res.attrs["pdcompare"]["min_attainable_pvalue"]
    assert_allclose(attainable, 10 * 2 / 2**8, rtol=1e-12)
    assert res.attrs["pdcompare"]["n_needed_to_reject"] == 9
    assert not res["reject"].any()
    # The same number from statsmodels, on every pair at scipy's smallest p-value.
    smallest = stats.wilcoxon(np.arange(1.0, 9.0)).pvalue
    assert_allclose(attainable, multipletests([smallest] * 10, method="holm")[1].min())


def test_ten_models_ten_data_sets_warn_for_both_tests():
    bench = benchmark(10, 10, step=1.0)
    for test in ("wilcoxon", "sign_test"):
        with pytest.warns(PdcompareWarning, match=r"cannot reject any of 45 pairs") as caught:
            res = bench.cmp.pairwise(test=test)
        assert_allclose(res.attrs["pdcompare"]["min_attainable_pvalue"], 45 * 2 / 2**10)
        assert "at least 11 data sets" in str(caught[0].message)  # 45 x 2/2**11 = 0.044
    # Against the best: Holm over 9 pairs, 9 x 2/2**10 = 0.018, reachable: silent.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = bench.cmp.wilcoxon()
    assert_allclose(res.attrs["pdcompare"]["min_attainable_pvalue"], 9 * 2 / 2**10)
    assert res.attrs["pdcompare"]["n_needed_to_reject"] is None


def test_twenty_data_sets_five_models_are_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = benchmark(5, 20).cmp.pairwise(test="wilcoxon")
        sign = benchmark(5, 20).cmp.pairwise(test="sign_test")
    assert_allclose(res.attrs["pdcompare"]["min_attainable_pvalue"], 10 * 2 / 2**20)
    assert_allclose(sign.attrs["pdcompare"]["min_attainable_pvalue"], 10 * 2 / 2**20)


@pytest.mark.parametrize("correction", ["bonferroni", "holm", "fdr_bh", "sidak", "hommel", None])
def test_every_correction_applied_to_the_smallest_pvalues(correction):
    bench = benchmark(4, 7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdcompareWarning)
        res = bench.cmp.pairwise(test="sign_test", correction=correction)
    smallest = stats.binomtest(7, 7).pvalue
    expected = smallest if correction is None else multipletests(
        [smallest] * 6, method=correction)[1].min()
    assert_allclose(res.attrs["pdcompare"]["min_attainable_pvalue"], expected, rtol=1e-12)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(
    "magnitudes",
    [
        np.arange(1.0, 9.0),  # exact, 8 differences
        np.array([1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0]),  # ties: sign patterns of ranks
        np.array([0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]),  # zeros, 8 non-zero
        np.r_[np.arange(1.0, 16.0), 3.0, 3.0],  # ties beyond 13: the normal approximation
        np.arange(1.0, 61.0),  # beyond 50: the normal approximation
    ],
)
def test_smallest_wilcoxon_pvalue_is_scipys_on_extreme_data(magnitudes, alternative):
    # The data themselves are the most extreme of their ranks: every difference of the
    # alternative's sign. Then the attainable p-value is the p-value, which is scipy's.
    sign = -1.0 if alternative == "less" else 1.0
    frame = pd.DataFrame([sign * magnitudes, np.zeros_like(magnitudes)], index=["a", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdcompareWarning)
        res = frame.cmp.wilcoxon("a", "b", alternative=alternative)
    ref = stats.wilcoxon(sign * magnitudes, alternative=alternative).pvalue
    assert_allclose(res["pvalue"].item(), ref, rtol=1e-10)
    assert_allclose(res.attrs["pdcompare"]["min_attainable_pvalue"], ref, rtol=1e-10)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_smallest_sign_test_pvalue_is_scipys(alternative):
    rng = np.random.default_rng(1)
    a = rng.normal(size=12)
    b = a - 1.0 if alternative != "less" else a + 1.0
    b[:3] = a[:3]  # three ties, dropped: 9 untied splits
    frame = pd.DataFrame([a, b], index=["a", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdcompareWarning)
        res = frame.cmp.sign_test("a", "b", alternative=alternative)
    k = 9 if alternative != "less" else 0
    ref = stats.binomtest(k, 9, alternative=alternative).pvalue
    assert_allclose(res["pvalue"].item(), ref, rtol=1e-12)
    assert_allclose(res.attrs["pdcompare"]["min_attainable_pvalue"], ref, rtol=1e-12)


def test_few_splits_on_scores_point_to_the_corrected_test():
    frame = scores(3, 5).cmp.set_design(cv=5)
    with pytest.warns(PdcompareWarning, match=r"with 5 splits.*0\.062.*at least 6 splits.*"
                                              r"corrected_ttest") as caught:
        res = frame.cmp.wilcoxon("m2", "m0", correction=None)
    assert len(caught) == 1
    assert "nemenyi" not in str(caught[0].message)
    assert_allclose(res.attrs["pdcompare"]["min_attainable_pvalue"], 2 / 2**5)


def test_identical_models_warn_only_as_degenerate():
    frame = scores(2, 6)
    frame.loc["m1"] = frame.loc["m0"]
    with pytest.warns(PdcompareWarning, match="identical") as caught:
        res = frame.cmp.sign_test("m0", "m1")
    assert len(caught) == 1
    assert res.attrs["pdcompare"]["min_attainable_pvalue"] == 1.0


def test_continuous_tests_store_nothing():
    bench = benchmark(4, 12)
    for test in ("nemenyi", "conover", "ttest"):
        res = bench.cmp.pairwise(test=test)
        assert "min_attainable_pvalue" not in res.attrs["pdcompare"]
