"""The core paired t-test (``paired_ttest``) against scipy and the formula written out.

References: ``scipy.stats.ttest_rel`` for the plain test; for the corrected test the
Nadeau–Bengio variance written out here, ``s² (1/n + n_test/n_train)`` on n − 1 degrees
of freedom (Nadeau & Bengio 2003; Bouckaert & Frank 2004), and the gallery numbers of
DESIGN section 8 (rbf vs linear, alternative "greater": t = 0.750, p = 0.227).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose
from scipy import stats

from pdcompare.datasets import load_grid_search_scores
from pdcompare.stats.paired import paired_ttest


def corrected_by_hand(a, b, ratio, alternative="two-sided"):
    d = np.asarray(a) - np.asarray(b)
    n = d.size
    se = np.sqrt(d.var(ddof=1) * (1 / n + ratio))
    t = d.mean() / se
    p = {
        "two-sided": 2 * stats.t.sf(abs(t), n - 1),
        "greater": stats.t.sf(t, n - 1),
        "less": stats.t.cdf(t, n - 1),
    }[alternative]
    return t, p


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_plain_test_of_every_pair_equals_scipy(alternative):
    rng = np.random.default_rng(3)
    values = rng.normal(0.8, 0.03, (5, 12)) + rng.normal(0, 0.02, 12)
    i, j = np.triu_indices(5, 1)
    out = paired_ttest(values, i, j, alternative=alternative)
    for k in range(i.size):
        ref = stats.ttest_rel(values[i[k]], values[j[k]], alternative=alternative)
        assert_allclose(out["statistic"][k], ref.statistic, rtol=1e-10)
        assert_allclose(out["pvalue"][k], ref.pvalue, rtol=1e-10)
        interval = ref.confidence_interval(0.95)
        assert_allclose([out["ci_low"][k], out["ci_high"][k]], interval, rtol=1e-10)
    assert_allclose(out["df"], 11)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_corrected_test_equals_the_formula_written_out(alternative):
    rng = np.random.default_rng(4)
    values = rng.normal(0.8, 0.03, (4, 15))
    i, j = np.triu_indices(4, 1)
    out = paired_ttest(values, i, j, test_train_ratio=0.25, alternative=alternative)
    for k in range(i.size):
        t, p = corrected_by_hand(values[i[k]], values[j[k]], 0.25, alternative)
        assert_allclose(out["statistic"][k], t, rtol=1e-10)
        assert_allclose(out["pvalue"][k], p, rtol=1e-10)


def test_gallery_reference_numbers():
    scores = load_grid_search_scores()
    a, b = scores.loc["rbf"].to_numpy(), scores.loc["linear"].to_numpy()
    both = np.vstack([a, b])
    out = paired_ttest(both, [0], [1], test_train_ratio=10 / 90, alternative="greater")
    assert round(float(out["statistic"][0]), 3) == 0.750
    assert round(float(out["pvalue"][0]), 3) == 0.227
    plain = paired_ttest(both, [0], [1], alternative="greater")
    assert round(float(plain["statistic"][0]), 3) == 2.611
    assert round(float(plain["pvalue"][0]), 3) == 0.005


def test_degenerate_pairs():
    values = np.array([[0.8, 0.9, 0.7], [0.8, 0.9, 0.7], [0.7, 0.8, 0.6]])
    out = paired_ttest(values, [0, 0], [1, 2])
    assert out["statistic"][0] == 0.0
    assert out["pvalue"][0] == 1.0
    assert out["identical"].tolist() == [True, False]
    assert np.isinf(out["statistic"][1])
    assert out["pvalue"][1] == 0.0
    assert out["constant"].tolist() == [False, True]


def test_missing_scores_propagate_or_are_omitted_pair_by_pair():
    rng = np.random.default_rng(5)
    values = rng.normal(0.8, 0.03, (3, 10))
    values[2, 4] = np.nan
    out = paired_ttest(values, [0, 0], [1, 2])
    assert np.isfinite(out["pvalue"][0])
    assert np.isnan(out["pvalue"][1])
    omitted = paired_ttest(values, [0, 0], [1, 2], nan_policy="omit")
    keep = ~np.isnan(values[2])
    ref = stats.ttest_rel(values[0, keep], values[2, keep])
    assert_allclose(omitted["pvalue"][1], ref.pvalue, rtol=1e-10)
    assert omitted["df"][1] == 8


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.float64, (3, 8), elements=st.floats(0, 1, allow_nan=False)),
    st.floats(-0.5, 0.5),
)
def test_a_shift_shared_by_both_models_changes_nothing(values, shift):
    # The test is of differences: a split effect (one value added to a column) cancels.
    shifted = values.copy()
    shifted[:, 0] += shift
    first = paired_ttest(values, [0, 1], [1, 2], test_train_ratio=0.25)
    second = paired_ttest(shifted, [0, 1], [1, 2], test_train_ratio=0.25)
    assert_allclose(first["mean_diff"], second["mean_diff"], atol=1e-9)
    finite = np.isfinite(first["statistic"]) & (np.abs(first["statistic"]) < 1e6)
    assert_allclose(first["pvalue"][finite], second["pvalue"][finite], atol=1e-6)
