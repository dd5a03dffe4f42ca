"""per_dataset against the single-data-set tests, random_effects against statsmodels."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from statsmodels.stats.meta_analysis import combine_effects

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.datasets import load_benchmark


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.fixture(scope="module")
def bench():
    return load_benchmark()


@pytest.mark.parametrize(
    ("test", "options"),
    [
        ("corrected_ttest", {"a": "svc_rbf"}),
        ("wilcoxon", {"correction": "bonferroni"}),
        ("bayes", {"rope": 0.01}),
        ("sign_test", {"all_pairs": True}),
    ],
)
def test_per_dataset_rows_equal_the_test_on_each_data_set(bench, test, options):
    result = quiet(bench.cmp.per_dataset, test, **options)
    if options.pop("all_pairs", False):
        options = {"test": test}
        test = "pairwise"
    assert list(result.columns[:3]) == ["dataset", "model_1", "model_2"]
    datasets = list(pd.unique(bench.columns.get_level_values("dataset")))
    assert list(pd.unique(result["dataset"])) == datasets
    for dataset in (datasets[0], datasets[7], datasets[-1]):
        sub = bench[dataset].copy()
        sub.attrs = {"pdcompare": {"design": bench.attrs["pdcompare"]["design"]}}
        expected = quiet(getattr(sub.cmp, test), **options)
        got = result[result["dataset"] == dataset].drop(columns="dataset").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected, check_categorical=False)
    assert result.attrs["pdcompare"]["per_dataset"] is True


def test_per_dataset_names_the_data_sets_of_its_warnings(bench):
    with pytest.warns(PdcompareWarning, match=r"On data set\(s\) .*identical scores"):
        bench.cmp.per_dataset("corrected_ttest")
    with pytest.raises(ValueError, match=r"`per_dataset` needs a benchmark frame with \(dataset"):
        bench.cmp.means().cmp.per_dataset()
    with pytest.raises(ValueError, match="`test` must be one of"):
        bench.cmp.per_dataset("friedman")


def effects_and_variances(bench, a, b):
    ratio = bench.attrs["pdcompare"]["design"]["test_train_ratio"]
    diff = bench.loc[a] - bench.loc[b]
    by_set = diff.groupby(level="dataset", sort=False)
    variances = by_set.var() * (1 / by_set.count() + ratio)
    return by_set.mean().to_numpy().copy(), variances.to_numpy().copy()


@pytest.mark.parametrize(("method", "method_re"), [("dl", "chi2"), ("pm", "iterated")])
def test_random_effects_equals_statsmodels(bench, method, method_re):
    result = quiet(bench.cmp.random_effects, pdcompare.inputs.scores.ALL_PAIRS, method=method)
    assert list(result.columns) == [
        "model_1", "model_2", "mean_diff", "se", "statistic", "pvalue", "pvalue_adj",
        "reject", "ci_low", "ci_high", "tau2", "i2", "pi_low", "pi_high",
    ]  # fmt: skip
    checked = 0
    for row in result.itertuples():
        y, v = effects_and_variances(bench, row.model_1, row.model_2)
        if (v == 0).any():  # statsmodels divides by zero: covered by the next test
            continue
        ref = quiet(combine_effects, y, v, method_re=method_re, use_t=False, alpha=0.05)
        if ref.tau2 < 0:  # statsmodels keeps a negative DL estimate; the design truncates at 0
            ref_mean, ref_se, ref_tau2 = ref.mean_effect_fe, ref.sd_eff_w_fe, 0.0
        else:
            ref_mean, ref_se, ref_tau2 = ref.mean_effect_re, ref.sd_eff_w_re, ref.tau2
        assert_allclose([row.mean_diff, row.se, row.tau2], [ref_mean, ref_se, ref_tau2], rtol=1e-9)
        assert row.i2 == pytest.approx(max(0.0, ref.i2), rel=1e-9, abs=1e-12)
        z = ref_mean / ref_se
        from scipy import stats

        assert row.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
        assert_allclose(
            [row.ci_low, row.ci_high], ref_mean + np.array([-1, 1]) * 1.959963984540054 * ref_se
        )
        k = len(y)
        half = stats.t.ppf(0.975, k - 2) * np.sqrt(ref_tau2 + ref_se**2)
        assert_allclose([row.pi_low, row.pi_high], [ref_mean - half, ref_mean + half], rtol=1e-9)
        checked += 1
    assert checked >= 10
    holm = pdcompare.stats.multitest.adjust_pvalues(result["pvalue"].to_numpy(), "holm")
    assert_allclose(result["pvalue_adj"], holm)


def test_zero_variance_is_said_and_not_replaced_by_noise():
    columns = pd.MultiIndex.from_product(
        [["easy", "d1", "d2", "d3"], range(5)], names=["dataset", "split"]
    )
    rng = np.random.default_rng(0)
    values = rng.uniform(0.6, 0.8, (2, 20))
    values[:, :5] = 1.0  # both perfect on every fold of the easy data set
    frame = pd.DataFrame(values, index=["a", "b"], columns=columns).cmp.set_design(cv=5)
    with pytest.warns(PdcompareWarning, match="a vs b on easy.*smallest positive variance"):
        first = frame.cmp.random_effects("a", "b")
    again = quiet(frame.cmp.random_effects, "a", "b")
    pd.testing.assert_frame_equal(first, again)  # deterministic: no noise
    y, v = effects_and_variances(frame, "a", "b")
    v[0] = v[1:].min()
    ref = quiet(combine_effects, y, v, method_re="chi2", use_t=False)
    mean = ref.mean_effect_re if ref.tau2 >= 0 else ref.mean_effect_fe
    assert first.loc[0, "mean_diff"] == pytest.approx(mean, rel=1e-9)


def test_random_effects_needs_folds_and_a_design(bench):
    with pytest.raises(ValueError, match="needs a benchmark frame with \\(dataset, split\\)"):
        bench.cmp.means().cmp.random_effects()
    plain = bench.copy()
    plain.attrs = {}
    with pytest.raises(ValueError, match="cv="):
        plain.cmp.random_effects()
    with pytest.raises(ValueError, match="`method` must be one of"):
        bench.cmp.random_effects(method="reml")


@settings(max_examples=20, deadline=None)
@given(shift=st.floats(-0.1, 0.1), seed=st.integers(0, 1000))
def test_swapping_the_models_mirrors_the_pooled_difference(shift, seed):
    rng = np.random.default_rng(seed)
    columns = pd.MultiIndex.from_product(
        [[f"d{k}" for k in range(6)], range(4)], names=["dataset", "split"]
    )
    values = rng.uniform(0.5, 0.9, (2, 24))
    values[1] += shift
    frame = pd.DataFrame(values, index=["a", "b"], columns=columns).cmp.set_design(cv=4)
    forward = frame.cmp.random_effects("a", "b").iloc[0]
    backward = frame.cmp.random_effects("b", "a").iloc[0]
    assert forward["mean_diff"] == pytest.approx(-backward["mean_diff"], abs=1e-12)
    assert forward["pvalue"] == pytest.approx(backward["pvalue"], rel=1e-9)
    assert forward["tau2"] == pytest.approx(backward["tau2"], rel=1e-9, abs=1e-15)
    assert forward["ci_low"] == pytest.approx(-backward["ci_high"], abs=1e-12)
