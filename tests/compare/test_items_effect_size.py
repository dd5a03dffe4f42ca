"""effect_size on items frames: d_z over questions, its interval clustered by passage."""

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

import pdcompare


def _clustered_items(seed=0, n=200, per_cluster=10, shift=0.3):
    rng = np.random.default_rng(seed)
    cluster = np.arange(n) // per_cluster
    base = rng.normal(0, 1, n // per_cluster)[cluster]
    a = (base + rng.normal(0, 1, n) > 0).astype(float)
    b = (base + shift + rng.normal(0, 1, n) > 0).astype(float)
    c = (base + 2 * shift + rng.normal(0, 1, n) > 0).astype(float)
    wide = pd.DataFrame([a, b, c], index=["a", "b", "c"])
    return wide, dict(enumerate(cluster))


def _noncentral_t_bounds(t_obs, df, level):
    """The noncentralities at which t_obs is the upper and lower (1 - level)/2 quantile."""
    tail = (1 - level) / 2

    def at(p):
        return optimize.brentq(lambda nc: stats.nct.cdf(t_obs, df, nc) - p, -50, 50, xtol=1e-12)

    return at(1 - tail), at(tail)


def test_clustered_interval_inverts_the_clustered_t():
    wide, cluster = _clustered_items()
    frame = wide.cmp.set_design(items=True, cluster=cluster)
    effect = frame.cmp.effect_size(ci=0.9)
    tests = frame.cmp.ttest(correction=None)
    assert effect.attrs["pdcompare"]["interval"] == "noncentral_t_clustered"
    for row, test in zip(effect.itertuples(), tests.itertuples(), strict=True):
        d = wide.loc[row.model_1] - wide.loc[row.model_2]
        assert row.effect_size == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
        # the clustered t is d_z / sqrt(deff / n), on C - 1 degrees of freedom
        scale = np.sqrt(test.design_effect / wide.shape[1])
        assert test.statistic == pytest.approx(row.effect_size / scale, rel=1e-10)
        low, high = _noncentral_t_bounds(test.statistic, test.df, 0.9)
        assert row.ci_low == pytest.approx(low * scale, rel=1e-7, abs=1e-9)
        assert row.ci_high == pytest.approx(high * scale, rel=1e-7, abs=1e-9)


def test_clusters_widen_the_interval_when_questions_go_together():
    wide, cluster = _clustered_items(seed=3)
    clustered = wide.cmp.set_design(items=True, cluster=cluster).cmp.effect_size("a", "c", ci=0.95)
    plain = wide.cmp.set_design(items=True).cmp.effect_size("a", "c", ci=0.95)
    assert clustered["effect_size"].iloc[0] == plain["effect_size"].iloc[0]
    width = (clustered["ci_high"] - clustered["ci_low"]).iloc[0]
    assert width > (plain["ci_high"] - plain["ci_low"]).iloc[0]


def test_unclustered_items_take_the_paired_interval_over_questions():
    wide, _ = _clustered_items(seed=1)
    result = wide.cmp.set_design(items=True).cmp.effect_size("b", "a", ci=0.95)
    d = wide.loc["b"] - wide.loc["a"]
    n = wide.shape[1]
    t_obs = d.mean() / d.std(ddof=1) * np.sqrt(n)
    low, high = _noncentral_t_bounds(t_obs, n - 1, 0.95)
    assert result.attrs["pdcompare"]["interval"] == "noncentral_t"
    assert result["ci_low"].iloc[0] == pytest.approx(low / np.sqrt(n), rel=1e-7)
    assert result["ci_high"].iloc[0] == pytest.approx(high / np.sqrt(n), rel=1e-7)


def test_bootstrap_measures_need_questions_without_clusters():
    wide, cluster = _clustered_items(seed=2)
    with pytest.raises(ValueError, match=r"measure=.cohen_dz.*clustered standard error"):
        wide.cmp.set_design(items=True, cluster=cluster).cmp.effect_size(
            measure="cliff_delta", ci=0.95
        )
    plain = wide.cmp.set_design(items=True).cmp.effect_size(
        "a", "b", measure="cliff_delta", ci=0.95, random_state=0, n_resamples=2000
    )
    assert plain["ci_low"].iloc[0] < plain["effect_size"].iloc[0] < plain["ci_high"].iloc[0]


def test_a_cv_design_is_refused_on_items():
    wide, cluster = _clustered_items()
    frame = wide.cmp.set_design(items=True, cluster=cluster)
    with pytest.raises(ValueError, match=r"`cv`.*items"):
        pdcompare.effect_size(frame, cv=10, ci=0.95)
