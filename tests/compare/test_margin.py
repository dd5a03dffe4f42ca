"""Non-inferiority margins of corrected_ttest, ttest, welch_ttest and delong.

Every p-value is checked against the shifted one-sided test written out here
(the Nadeau–Bengio variance, scipy's paired and Welch t-tests on shifted data,
DeLong's z from the package's own AUC covariance, checked elsewhere against
pROC), and ``margin=0`` against today's one-sided test.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare.stats.auc import delong_covariance


def _scores(n_splits=20, seed=0, shift=-0.01):
    rng = np.random.default_rng(seed)
    base = 0.8 + rng.normal(0, 0.03, n_splits)
    return pd.DataFrame(
        [base + shift + rng.normal(0, 0.01, n_splits), base],
        index=["candidate", "baseline"],
        columns=[f"s{k}" for k in range(n_splits)],
    )


def _runs(seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        [
            np.r_[0.79 + rng.normal(0, 0.01, 8), np.nan, np.nan],
            0.80 + rng.normal(0, 0.02, 10),
        ],
        index=["candidate", "baseline"],
    )
    return frame.cmp.set_design(paired=False)


def _predictions(seed=0, n=300):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame(
        {
            "y": y,
            "candidate": y + rng.normal(0, 0.9, n),
            "baseline": y + rng.normal(0, 0.8, n),
        }
    )


@pytest.mark.parametrize("margin", [0.0, 0.005, 0.02])
def test_corrected_ttest_margin_is_the_shifted_nadeau_bengio_test(margin):
    scores = _scores()
    res = scores.cmp.corrected_ttest(
        "candidate", "baseline", alternative="better", margin=margin, test_size=0.2
    )
    d = scores.loc["candidate"].to_numpy() - scores.loc["baseline"].to_numpy()
    n = d.size
    se = np.sqrt(d.var(ddof=1) * (1 / n + 0.2 / 0.8))  # Nadeau & Bengio 2003
    t = (d.mean() + margin) / se
    assert_allclose(res["statistic"], [t], rtol=1e-10)
    assert_allclose(res["pvalue"], [stats.t.sf(t, n - 1)], rtol=1e-10)
    assert_allclose(res["ci_low"], [d.mean() - stats.t.ppf(0.95, n - 1) * se], rtol=1e-10)
    assert np.isinf(res["ci_high"].iloc[0])
    assert res["margin"].tolist() == [margin]
    assert res.attrs["pdcompare"]["margin"] == margin
    assert list(res.columns[-1:]) == ["margin"]


@pytest.mark.parametrize("margin", [0.0, 0.01])
def test_ttest_margin_equals_scipy_on_shifted_data(margin):
    scores = _scores(seed=1)
    res = scores.cmp.ttest("candidate", "baseline", alternative="better", margin=margin)
    ref = stats.ttest_rel(
        scores.loc["candidate"] + margin, scores.loc["baseline"], alternative="greater"
    )
    assert_allclose(res["statistic"], [ref.statistic], rtol=1e-10)
    assert_allclose(res["pvalue"], [ref.pvalue], rtol=1e-10)


@pytest.mark.parametrize("margin", [0.0, 0.01])
def test_welch_margin_equals_scipy_on_shifted_data(margin):
    runs = _runs()
    res = runs.cmp.welch_ttest("candidate", "baseline", alternative="better", margin=margin)
    ref = stats.ttest_ind(
        runs.loc["candidate"].dropna() + margin,
        runs.loc["baseline"],
        equal_var=False,
        alternative="greater",
    )
    assert_allclose(res["statistic"], [ref.statistic], rtol=1e-10)
    assert_allclose(res["pvalue"], [ref.pvalue], rtol=1e-10)
    assert_allclose(res["df"], [ref.df], rtol=1e-10)


@pytest.mark.parametrize("margin", [0.0, 0.05])
def test_delong_margin_is_the_shifted_z(margin):
    preds = _predictions()
    res = preds.cmp.delong("candidate", "baseline", alternative="better", margin=margin)
    positive = (preds["y"] == 1).to_numpy()
    auc, cov = delong_covariance(preds[["candidate", "baseline"]].to_numpy(), positive)
    se = np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    z = (auc[0] - auc[1] + margin) / se  # DeLong, DeLong & Clarke-Pearson 1988
    assert_allclose(res["statistic"], [z], rtol=1e-10)
    assert_allclose(res["pvalue"], [stats.norm.sf(z)], rtol=1e-10)
    assert_allclose(res["ci_low"], [auc[0] - auc[1] - stats.norm.ppf(0.95) * se], rtol=1e-10)


def test_losses_flip_the_hypothesis_and_the_statistic():
    # For a loss H0 is mu_1 - mu_2 >= margin; the statistic (margin - mean_diff)/se.
    scores = _scores(seed=2, shift=0.004).cmp.set_design(greater_is_better=False)
    res = scores.cmp.ttest("candidate", "baseline", alternative="better", margin=0.01)
    d = scores.loc["candidate"].to_numpy() - scores.loc["baseline"].to_numpy()
    se = d.std(ddof=1) / np.sqrt(d.size)
    t = (0.01 - d.mean()) / se
    assert_allclose(res["statistic"], [t], rtol=1e-10)
    assert_allclose(res["pvalue"], [stats.t.sf(t, d.size - 1)], rtol=1e-10)
    ref = stats.ttest_rel(
        scores.loc["candidate"] - 0.01, scores.loc["baseline"], alternative="less"
    )
    assert_allclose(res["pvalue"], [ref.pvalue], rtol=1e-10)
    assert np.isinf(res["ci_low"].iloc[0])  # the one-sided interval of a loss: (-inf, high)


@pytest.mark.parametrize(
    ("method", "frame", "kwargs"),
    [
        ("corrected_ttest", _scores, {"cv": 5}),
        ("ttest", _scores, {}),
        ("welch_ttest", _runs, {}),
        ("delong", _predictions, {}),
    ],
)
def test_margin_zero_is_todays_test(method, frame, kwargs):
    data = frame()
    call = getattr(data.cmp, method)
    today = call("candidate", "baseline", alternative="better", **kwargs)
    zero = call("candidate", "baseline", alternative="better", margin=0, **kwargs)
    pd.testing.assert_frame_equal(zero.drop(columns="margin"), today)
    assert "margin" not in today.columns
    # Any alternative takes margin=0 and leaves the test as it is.
    two = call("candidate", "baseline", margin=0.0, **kwargs)
    pd.testing.assert_frame_equal(
        two.drop(columns="margin"), call("candidate", "baseline", **kwargs)
    )


@pytest.mark.parametrize("method", ["corrected_ttest", "ttest", "welch_ttest"])
def test_bad_margins_are_refused_with_the_keyword(method):
    scores = _scores()
    call = getattr(scores.cmp, method)
    with pytest.raises(ValueError, match=r"`margin=0.01` is a non-inferiority margin.*'better'"):
        call(alternative="two-sided", margin=0.01, cv=5)
    with pytest.raises(ValueError, match=r"`margin=0.01`.*got alternative='greater'"):
        call(alternative="greater", margin=0.01, cv=5)
    with pytest.raises(ValueError, match=r"`margin` must be a finite number ≥ 0.*-0.01"):
        call(alternative="better", margin=-0.01, cv=5)
    with pytest.raises(TypeError, match=r"`margin` must be a number ≥ 0.*str '0.01'"):
        call(alternative="better", margin="0.01", cv=5)


def test_delong_refuses_a_bad_margin():
    with pytest.raises(ValueError, match=r"`margin` must be a finite number ≥ 0.*nan"):
        _predictions().cmp.delong(alternative="better", margin=float("nan"))


def test_identical_models_are_non_inferior_under_a_positive_margin():
    scores = _scores()
    scores.loc["candidate"] = scores.loc["baseline"]
    with pytest.warns(pdcompare.PdcompareWarning, match="identical scores"):
        res = scores.cmp.ttest("candidate", "baseline", alternative="better", margin=0.01)
    assert res["pvalue"].iloc[0] == 0.0
    assert bool(res["reject"].iloc[0])


def test_margin_does_not_touch_the_callers_frame():
    scores = _scores()
    before, attrs = scores.copy(), dict(scores.attrs)
    scores.cmp.corrected_ttest(alternative="better", margin=0.01, cv=5)
    pd.testing.assert_frame_equal(scores, before)
    assert scores.attrs == attrs


@settings(max_examples=30, deadline=None)
@given(
    margin=st.floats(0.0, 0.05),
    extra=st.floats(0.0, 0.05),
    seed=st.integers(0, 2**16),
)
def test_a_larger_margin_never_raises_the_pvalue(margin, extra, seed):
    scores = _scores(seed=seed)
    p = [
        scores.cmp.corrected_ttest("candidate", "baseline", alternative="better", margin=m, cv=5)[
            "pvalue"
        ].iloc[0]
        for m in (margin, margin + extra)
    ]
    assert p[1] <= p[0] + 1e-15


@settings(max_examples=30, deadline=None)
@given(margin=st.floats(0.0, 0.05), seed=st.integers(0, 2**16))
def test_reject_iff_the_lower_bound_is_above_minus_margin(margin, seed):
    # The test and its one-sided interval agree: reject <=> ci_low > -margin.
    res = _scores(seed=seed).cmp.corrected_ttest(
        "candidate", "baseline", alternative="better", margin=margin, cv=5, correction=None
    )
    low = res["ci_low"].iloc[0]
    if abs(low + margin) > 1e-12:
        assert bool(res["reject"].iloc[0]) == (low > -margin)
