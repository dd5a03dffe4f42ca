"""The Diebold–Mariano test on a time-ordered predictions frame, against R's forecast::dm.test."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare import PdcompareWarning

DM_COLUMNS = [
    "model_1", "model_2", "mean_loss_diff", "statistic", "df",
    "pvalue", "pvalue_adj", "reject",
]  # fmt: skip

# The ETS and ARIMA one-step residuals of R's WWWusage example, as published in the
# test data of HypothesisTests.jl (test/diebold_mariano.jl), whose p-values are R's
# forecast::dm.test on them.
E_ETS = np.array([
    0.002241270, -0.000661906, -1.200002613, -4.000218178, 3.799373533,
    3.401005111, -1.199692125, -0.800490048, -1.200048999, 3.399847229,
    7.000708948, 2.200989241, -4.800165569, -1.201043375, 3.400167556,
    3.000709085, 0.400267950, -6.800169207, -2.401259050, 1.200112198,
])  # fmt: skip
E_ARIMA = np.array([
    0.1209998, 8.0622269, -0.9189429, -1.7952436, 5.3431277, 2.0459823,
    -0.6073261, 0.5516816, -0.7633238, 4.1229472, 5.8785333, 1.2828331,
    -3.4854233, 1.1971370, 3.1709314, 2.3408457, 0.4962286, -5.9841362,
    0.1537114, 0.4207951,
])  # fmt: skip


def _www_frame() -> pd.DataFrame:
    """Truth 0 and forecasts -e, so that the errors y - ŷ are the published residuals."""
    return pd.DataFrame({"y": np.zeros(20), "ets": -E_ETS, "arima": -E_ARIMA})


def dm_test_r(e1, e2, alternative="two.sided", h=1, power=2):
    """R's forecast::dm.test (varestimator "acf"), written out from its source.

    d <- c(abs(e1))^power - c(abs(e2))^power
    d.cov <- acf(d, lag.max = h - 1, type = "covariance", plot = FALSE)$acf[, , 1]
    d.var <- sum(c(d.cov[1], 2 * d.cov[-1])) / n
    if (d.var > 0) STATISTIC <- mean(d) / sqrt(d.var)
    else if (h == 1) stop(...)
    else { warning(...); return(dm.test(e1, e2, alternative, h = 1, power)) }
    k <- ((n + 1 - 2 * h + (h / n) * (h - 1)) / n)^(1 / 2)
    STATISTIC <- STATISTIC * k; p-values from pt(STATISTIC, df = n - 1)
    Returns (statistic, pvalue, used_h).
    """
    d = np.abs(e1) ** power - np.abs(e2) ** power
    n = d.size
    centred = d - d.mean()
    # acf(type = "covariance"): sum over the overlap divided by n, lags 0..h-1.
    cov = [np.sum(centred[lag:] * centred[: n - lag]) / n for lag in range(h)]
    variance = (cov[0] + 2 * sum(cov[1:])) / n
    if not variance > 0:
        if h == 1:
            raise ZeroDivisionError
        return dm_test_r(e1, e2, alternative, 1, power)
    statistic = d.mean() / np.sqrt(variance)
    statistic *= np.sqrt((n + 1 - 2 * h + (h / n) * (h - 1)) / n)
    if alternative == "two.sided":
        pvalue = 2 * stats.t.cdf(-abs(statistic), n - 1)
    elif alternative == "less":
        pvalue = stats.t.cdf(statistic, n - 1)
    else:
        pvalue = stats.t.sf(statistic, n - 1)
    return statistic, pvalue, h


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, 0.8871),
        ({"alternative": "greater"}, 0.5565),
        ({"alternative": "less"}, 0.4435),
        ({"h": 10}, 0.9362),
        ({"h": 10, "alternative": "greater"}, 0.5319),
        ({"h": 10, "alternative": "less"}, 0.4681),
        ({"loss": "absolute_error"}, 0.7818),
        ({"loss": "absolute_error", "alternative": "greater"}, 0.3909),
        ({"loss": "absolute_error", "alternative": "less"}, 0.6091),
    ],
)
def test_equals_published_dm_test_on_wwwusage(options, expected):
    # R: dm.test(e_ets, e_arima, ...) as pinned by HypothesisTests.jl to 1e-3.
    out = pdcompare.diebold_mariano(_www_frame(), "ets", "arima", **options)
    assert list(out.columns) == DM_COLUMNS
    assert_allclose(out["pvalue"].iloc[0], expected, atol=6e-5)
    assert out["df"].iloc[0] == 19


def test_equals_dm_test_source_on_all_pairs_and_horizons():
    rng = np.random.default_rng(4)
    n, m = 57, 5
    truth = rng.normal(size=n)
    errors = rng.normal(size=(n, m)) * np.linspace(1.0, 1.3, m)
    # Correlated in time, as h-step forecast errors are.
    errors[1:] += 0.6 * errors[:-1]
    frame = pd.DataFrame(truth[:, None] - errors, columns=list("abcde"))
    frame.insert(0, "y", truth)
    for h, (loss, power), alternative in itertools.product(
        (1, 2, 4), (("squared_error", 2), ("absolute_error", 1)), ("two-sided", "greater", "less")
    ):
        out = frame.cmp.pairwise(
            test="diebold_mariano", h=h, loss=loss, alternative=alternative, correction=None
        )
        assert len(out) == 10
        for row in out.itertuples():
            k1, k2 = "abcde".index(row.model_1), "abcde".index(row.model_2)
            r_alt = {"two-sided": "two.sided"}.get(alternative, alternative)
            statistic, pvalue, _ = dm_test_r(errors[:, k1], errors[:, k2], r_alt, h, power)
            assert_allclose([row.statistic, row.pvalue], [statistic, pvalue], rtol=1e-10)
            d = np.abs(errors[:, k1]) ** power - np.abs(errors[:, k2]) ** power
            assert_allclose(row.mean_loss_diff, d.mean(), rtol=1e-12)


def test_h1_is_the_one_sample_t_test():
    # At h = 1 the Harvey factor sqrt((n-1)/n) undoes the divisor n of acf: scipy's t.
    frame = _www_frame()
    out = frame.cmp.diebold_mariano("ets", "arima")
    ref = stats.ttest_1samp(E_ETS**2 - E_ARIMA**2, 0.0)
    assert_allclose([out["statistic"].iloc[0], out["pvalue"].iloc[0]], [ref.statistic, ref.pvalue])


def test_without_harvey_is_the_normal_test():
    frame = _www_frame()
    out = frame.cmp.diebold_mariano("ets", "arima", h=3, harvey=False)
    d = E_ETS**2 - E_ARIMA**2
    n = d.size
    c = d - d.mean()
    variance = (c @ c + 2 * (c[1:] @ c[:-1]) + 2 * (c[2:] @ c[:-2])) / n / n
    statistic = d.mean() / np.sqrt(variance)
    assert_allclose(out["statistic"].iloc[0], statistic, rtol=1e-12)
    assert_allclose(out["pvalue"].iloc[0], 2 * stats.norm.sf(abs(statistic)), rtol=1e-12)
    assert np.isnan(out["df"].iloc[0])


def test_non_positive_long_run_variance_falls_back_to_h1_with_a_warning():
    # Alternating loss differences: the lag-1 autocovariance is about -γ0, so at h = 2
    # the long-run variance is negative and dm.test recomputes with h = 1.
    rng = np.random.default_rng(0)
    n = 40
    base = rng.normal(size=n) ** 2
    d = np.where(np.arange(n) % 2 == 0, 1.0, -1.0) + 0.05 * rng.normal(size=n)
    frame = pd.DataFrame({"y": np.zeros(n), "a": np.sqrt(base + 2 + d), "b": np.sqrt(base + 2)})
    e_a, e_b = -frame["a"].to_numpy(), -frame["b"].to_numpy()
    statistic, pvalue, used_h = dm_test_r(e_a, e_b, h=2)
    assert used_h == 1
    with pytest.warns(PdcompareWarning, match=r"'a' vs 'b'.*h=2 is not positive.*uses h=1"):
        out = frame.cmp.diebold_mariano("a", "b", h=2)
    assert_allclose([out["statistic"].iloc[0], out["pvalue"].iloc[0]], [statistic, pvalue])
    assert out.attrs["pdcompare"]["fallback_h1"] == [["a", "b"]]  # JSON-able: a list


def test_scope_best_first_lowest_loss_and_direction_words():
    rng = np.random.default_rng(1)
    y = rng.normal(size=80)
    frame = pd.DataFrame({
        "y": y, "worst": y + rng.normal(0, 2, 80), "best": y + rng.normal(0, 0.5, 80),
        "mid": y + rng.normal(0, 1, 80),
    })  # fmt: skip
    out = frame.cmp.diebold_mariano()
    assert out["model_1"].tolist() == ["best", "best"]
    assert out["model_2"].tolist() == ["mid", "worst"]
    assert (out["mean_loss_diff"] < 0).all()
    meta = out.attrs["pdcompare"]
    assert meta["greater_is_better"] is False
    assert meta["models"] == ["best", "mid", "worst"]
    assert meta["scope"] == "best_vs_rest"
    better = frame.cmp.diebold_mariano(alternative="better")
    less = frame.cmp.diebold_mariano(alternative="less")
    assert_allclose(better["pvalue"], less["pvalue"])
    assert better.attrs["pdcompare"]["alternative"] == "less"
    pair = frame.cmp.diebold_mariano("worst", "mid")
    assert pair["mean_loss_diff"].iloc[0] > 0
    every = frame.cmp.pairwise(test="diebold_mariano")
    assert every[["model_1", "model_2"]].astype(str).values.tolist() == [
        ["best", "mid"], ["best", "worst"], ["mid", "worst"],
    ]  # fmt: skip
    assert every.attrs["pdcompare"]["scope"] == "all_pairs"
    # Holm over the rows, as statsmodels.
    from statsmodels.stats.multitest import multipletests

    assert_allclose(every["pvalue_adj"], multipletests(every["pvalue"], method="holm")[1])


def test_callable_loss_and_zero_one():
    frame = _www_frame()
    named = frame.cmp.diebold_mariano("ets", "arima", loss="squared_error")
    called = frame.cmp.diebold_mariano("ets", "arima", loss=lambda e: e**2)
    assert_allclose(called["statistic"], named["statistic"])
    quartic = frame.cmp.diebold_mariano("ets", "arima", loss=np.square)
    assert quartic.attrs["pdcompare"]["loss"] == "square"
    labels = pd.DataFrame({
        "y": list("aabbabab") * 5,
        "m1": list("aabbabaa") * 5,
        "m2": list("abbbbbab") * 5,
    })  # fmt: skip
    out = labels.cmp.diebold_mariano(loss="zero_one")
    wrong_1 = (labels["m1"] != labels["y"]).to_numpy(float)
    wrong_2 = (labels["m2"] != labels["y"]).to_numpy(float)
    statistic, pvalue, _ = dm_test_r(wrong_1, wrong_2)
    assert_allclose([out["statistic"].iloc[0], out["pvalue"].iloc[0]], [statistic, pvalue])


def test_degenerate_pairs_never_raise():
    y = np.arange(10.0)
    frame = pd.DataFrame({"y": y, "a": y + 1, "b": y + 1, "c": y - 1, "d": y + 2})
    with pytest.warns(PdcompareWarning, match=r"'a' vs 'b'.*identical losses"):
        out = frame.cmp.diebold_mariano("a", "b")
    assert out["statistic"].iloc[0] == 0
    assert out["pvalue"].iloc[0] == 1
    with pytest.warns(PdcompareWarning, match="same loss at every time point"):
        out = frame.cmp.diebold_mariano("a", "d")
    assert out["statistic"].iloc[0] == -np.inf
    assert out["pvalue"].iloc[0] == 0


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"loss": "mse"}, ValueError, r"`loss` must be one of 'squared_error'"),
        ({"loss": 3}, TypeError, "`loss` must be one of"),
        ({"h": 0}, ValueError, "`h` must be an integer of at least 1"),
        ({"h": 20}, ValueError, r"`h` must be smaller than the number of time points \(20\)"),
        ({"harvey": "yes"}, TypeError, "`harvey` must be True or False"),
        ({"alternative": "two_sided"}, ValueError, "`alternative` must be one of"),
        ({"loss": lambda e: e.sum()}, ValueError, r"shape \(20, 2\)"),
        ({"y": "truth"}, ValueError, "no truth column 'truth'"),
    ],
)
def test_bad_options(options, error, match):
    with pytest.raises(error, match=match):
        _www_frame().cmp.diebold_mariano(**options)


def test_missing_and_text_forecasts_are_refused():
    frame = _www_frame()
    frame.loc[3, "arima"] = np.nan
    with pytest.raises(ValueError, match=r"\['arima'\] of the predictions frame have missing"):
        frame.cmp.diebold_mariano()
    labels = pd.DataFrame({"y": list("abab"), "m": list("abba"), "n": list("aaab")})
    with pytest.raises(ValueError, match=r"needs numeric forecasts.*loss='zero_one'"):
        labels.cmp.diebold_mariano()


def test_row_order_is_time_order_and_frame_untouched():
    frame = _www_frame().iloc[::-1]
    before = frame.copy()
    out = frame.cmp.diebold_mariano("ets", "arima", h=3)
    statistic, _, _ = dm_test_r(E_ETS[::-1], E_ARIMA[::-1], h=3)
    assert_allclose(out["statistic"].iloc[0], statistic)
    pd.testing.assert_frame_equal(frame, before)
    assert frame.attrs == {}


@pytest.mark.filterwarnings("ignore:.*long-run variance:pdcompare.PdcompareWarning")
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(5, 40),
    h=st.integers(1, 4),
    scale=st.floats(0.1, 10.0),
)
def test_swapping_models_negates_the_statistic(seed, n, h, scale):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    frame = pd.DataFrame({"y": y, "a": y + rng.normal(size=n), "b": y + rng.normal(size=n)})
    ab = frame.cmp.diebold_mariano("a", "b", h=h, loss="absolute_error")
    ba = frame.cmp.diebold_mariano("b", "a", h=h, loss="absolute_error")
    assert_allclose(ab["statistic"], -ba["statistic"], rtol=1e-10)
    assert_allclose(ab["pvalue"], ba["pvalue"], rtol=1e-10)
    # Scaling the series scales the absolute errors: the statistic does not change.
    scaled = frame * scale
    again = scaled.cmp.diebold_mariano("a", "b", h=h, loss="absolute_error")
    assert_allclose(again["statistic"], ab["statistic"], rtol=1e-8, atol=1e-12)
    assert 0.0 <= ab["pvalue"].iloc[0] <= 1.0


def test_matrix_mirrors_the_loss_difference_and_scores_methods_name_the_forecast_tests():
    frame = _www_frame()
    frame["naive"] = 0.5
    out = frame.cmp.pairwise(test="diebold_mariano")
    table = out.cmp.matrix("mean_loss_diff")
    assert_allclose(table.to_numpy(), -table.to_numpy().T)
    statistic = out.cmp.matrix("statistic")
    assert_allclose(statistic.to_numpy(), -statistic.to_numpy().T)
    with pytest.raises(ValueError, match="forecasts in time order with `diebold_mariano`"):
        pdcompare.corrected_ttest(frame)


def test_a_date_index_out_of_order_warns_where_the_order_matters():
    frame = _www_frame().set_index(pd.date_range("2024-01-01", periods=20, freq="D"))
    shuffled = frame.iloc[::-1]
    with pytest.warns(PdcompareWarning, match=r"DatetimeIndex is not increasing.*sort_index"):
        shuffled.cmp.diebold_mariano(h=3)
    with pytest.warns(PdcompareWarning, match="DatetimeIndex is not increasing"):
        shuffled.cmp.confidence_set(block_size=3, random_state=0)
    # h = 1 and independent resampling do not depend on the order: no warning.
    pd.testing.assert_frame_equal(
        shuffled.cmp.diebold_mariano(), frame.cmp.diebold_mariano(), check_exact=False
    )
    shuffled.cmp.confidence_set(random_state=0)
