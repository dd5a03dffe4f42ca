"""DeLong's AUC covariance (Sun & Xu's midranks) against the 1988 paper's definitions."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from references import slow_delong
from scipy import stats
from sklearn.metrics import roc_auc_score

from pdcompare.stats.auc import (
    auc_interval,
    auc_swaps,
    delong_covariance,
    delong_test,
    placement_values,
)


def _data(seed, n=120, k=4, grades=False):
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.4
    scores = positive[:, None] * rng.uniform(0.2, 1.5, k) + rng.normal(size=(n, k))
    if grades:  # many ties, as an integer grade of pROC's data sets
        scores = np.round(scores * 2)
    return scores, positive


@pytest.mark.parametrize("grades", [False, True])
def test_equals_the_structural_components_formula_and_sklearn(grades):
    scores, positive = _data(3, grades=grades)
    auc, cov = delong_covariance(scores, positive)
    theta, expected = slow_delong(scores, positive)
    assert_allclose(auc, theta, rtol=1e-12)
    assert_allclose(cov, expected, rtol=1e-10, atol=1e-15)
    for k in range(scores.shape[1]):
        assert auc[k] == pytest.approx(roc_auc_score(positive, scores[:, k]), rel=1e-12)
        # Mann-Whitney U / (n1 n0)
        u = stats.mannwhitneyu(scores[positive, k], scores[~positive, k]).statistic
        assert auc[k] == pytest.approx(u / (positive.sum() * (~positive).sum()), rel=1e-12)


def test_pair_test_is_the_z_of_the_difference():
    scores, positive = _data(5)
    auc, cov = delong_covariance(scores, positive)
    theta, s = slow_delong(scores, positive)
    i, j = np.triu_indices(4, k=1)
    out = delong_test(auc, cov, i, j, alpha=0.05)
    se = np.sqrt(s[i, i] + s[j, j] - 2 * s[i, j])
    z = (theta[i] - theta[j]) / se
    assert_allclose(out["statistic"], z, rtol=1e-9)
    assert_allclose(out["pvalue"], 2 * stats.norm.sf(np.abs(z)), rtol=1e-9)
    assert_allclose(out["ci_low"], theta[i] - theta[j] - stats.norm.ppf(0.975) * se, rtol=1e-9)
    greater = delong_test(auc, cov, i, j, alternative="greater", alpha=0.1)
    assert_allclose(greater["pvalue"], stats.norm.sf(z), rtol=1e-9)
    assert_allclose(greater["ci_low"], theta[i] - theta[j] - stats.norm.ppf(0.9) * se, rtol=1e-9)
    assert np.isinf(greater["ci_high"]).all()
    less = delong_test(auc, cov, i, j, alternative="less")
    assert_allclose(less["pvalue"], stats.norm.cdf(z), rtol=1e-9)


def test_interval_is_clipped_to_the_unit_interval():
    scores, positive = _data(8, n=30)
    scores[:, 0] = positive + 0.01 * np.arange(30)  # AUC 1
    auc, cov = delong_covariance(scores, positive)
    out = auc_interval(auc, cov, 0.9)
    assert out["auc"][0] == 1.0
    assert out["ci_high"][0] == 1.0
    assert (out["ci_low"] >= 0).all()
    assert (out["ci_high"] <= 1).all()
    k = 1
    z = stats.norm.ppf(0.95)
    assert out["ci_low"][k] == pytest.approx(max(0, auc[k] - z * np.sqrt(cov[k, k])))


def test_identical_models_give_statistic_zero_pvalue_one():
    scores, positive = _data(1, k=1)
    both = np.column_stack([scores[:, 0], scores[:, 0] * 3 + 1])  # same ranking
    auc, cov = delong_covariance(both, positive)
    out = delong_test(auc, cov, np.array([0]), np.array([1]))
    assert out["identical"][0]
    assert out["statistic"][0] == 0.0
    assert out["pvalue"][0] == 1.0


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 5), st.integers(0, 5), st.floats(-1e6, 1e6)),
        min_size=4,
    )
)
def test_property_placements_match_the_definition(rows):
    positive = np.array([r[0] for r in rows])
    if positive.all() or not positive.any():
        positive[0] = not positive[0]
    # Grades (ties) and floats (mostly none) side by side: both ways of counting per model.
    scores = np.array([[r[1], r[2], r[3]] for r in rows], dtype=float)
    v10, v01 = placement_values(scores, positive)
    x, yneg = scores[positive], scores[~positive]
    psi = (x[:, None, :] > yneg[None, :, :]) + 0.5 * (x[:, None, :] == yneg[None, :, :])
    assert_allclose(v10, psi.mean(axis=1), atol=1e-12)
    assert_allclose(v01, psi.mean(axis=0), atol=1e-12)
    # The AUC is the mean of either set of placement values.
    assert_allclose(v10.mean(axis=0), v01.mean(axis=0), atol=1e-12)


@pytest.mark.parametrize("grades", [False, True])
def test_auc_swaps_equal_sklearn_on_the_swapped_columns(grades):
    scores, positive = _data(7, n=90, k=2, grades=grades)
    x, z = scores[:, 0], scores[:, 1]
    z[:10] = x[:10]  # rows where the two models agree
    swap = np.random.default_rng(0).random((90, 5)) < 0.5
    got = auc_swaps(positive, x, z)(swap)
    for r in range(5):
        first = np.where(swap[:, r], z, x)
        second = np.where(swap[:, r], x, z)
        expected = roc_auc_score(positive, first) - roc_auc_score(positive, second)
        assert got[r] == pytest.approx(expected, rel=1e-12, abs=1e-15)


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 4), st.integers(0, 4), st.booleans()), min_size=3
    )
)
def test_property_auc_swaps_equal_the_definition(rows):
    positive = np.array([r[0] for r in rows])
    if positive.all() or not positive.any():
        positive[0] = not positive[0]
    x = np.array([r[1] for r in rows], dtype=float)
    z = np.array([r[2] for r in rows], dtype=float)
    swap = np.array([[r[3], not r[3]] for r in rows])

    def auc(values):  # P(positive above negative) + P(tie) / 2, every pair written out
        a, b = values[positive][:, None], values[~positive][None, :]
        return np.mean((a > b) + 0.5 * (a == b))

    got = auc_swaps(positive, x, z)(swap)
    for r in range(2):
        first, second = np.where(swap[:, r], z, x), np.where(swap[:, r], x, z)
        assert got[r] == pytest.approx(auc(first) - auc(second), abs=1e-12)
