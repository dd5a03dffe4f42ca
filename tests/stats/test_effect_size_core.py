"""The numerical core of effect sizes and equivalence tests, against autorank, statsmodels, scipy.

References: autorank's private ``_cohen_d``, ``_akinshin_gamma``,
``_cliffs_delta`` and ``_effect_level`` (autorank 1.x), the formulas written
out here, effsize's own example (Cliff's delta -0.25), the paired d_z
interval of the cholesterol data of effsize issue 58 as JASP and SPSS give
it, ``scipy.stats.nct`` for the defining property of the interval, and
statsmodels ``ttost_paired`` / ``ttost_ind``.
"""

from __future__ import annotations

import numpy as np
import pytest
from autorank._util import _akinshin_gamma, _cliffs_delta, _cohen_d, _effect_level
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from statsmodels.stats.weightstats import ttost_ind, ttost_paired

from pdcompare.stats import effect_size as es
from pdcompare.stats.equivalence import tost_paired, tost_welch

AUTORANK = {"cohen_d": _cohen_d, "akinshin_gamma": _akinshin_gamma, "cliff_delta": _cliffs_delta}


def _all_pairs(n_models):
    return np.triu_indices(n_models, k=1)


@pytest.mark.parametrize("measure", sorted(AUTORANK))
def test_two_sample_measures_equal_autorank_on_paired_rows(measure):
    # Rounded values: many ties, where Cliff's delta and the medians are delicate.
    rng = np.random.default_rng(3)
    values = np.round(rng.normal(0.8, 0.05, size=(7, 23)), 2)
    i, j = _all_pairs(7)
    got = es.effect_sizes(values, i, j, measure=measure)["effect_size"]
    expected = [AUTORANK[measure](values[a], values[b]) for a, b in zip(i, j, strict=True)]
    assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("measure", sorted(AUTORANK))
def test_unpaired_rows_of_different_sizes_equal_autorank(measure):
    # NaN marks an absent run: each row is its own sample (the runs frames of DESIGN §17).
    rng = np.random.default_rng(4)
    values = rng.normal(size=(5, 12))
    sizes = [12, 3, 7, 12, 5]
    for row, size in enumerate(sizes):
        values[row, size:] = np.nan
    i, j = _all_pairs(5)
    got = es.effect_sizes(values, i, j, measure=measure, paired=False)["effect_size"]
    expected = [
        AUTORANK[measure](values[a, : sizes[a]], values[b, : sizes[b]])
        for a, b in zip(i, j, strict=True)
    ]
    assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("measure", sorted(AUTORANK))
def test_paired_omit_uses_the_units_both_models_have(measure):
    rng = np.random.default_rng(5)
    values = np.round(rng.normal(size=(4, 15)), 1)
    values[0, [1, 4]] = np.nan
    values[2, [4, 9, 11]] = np.nan
    i, j = _all_pairs(4)
    got = es.effect_sizes(values, i, j, measure=measure, nan_policy="omit")["effect_size"]
    expected = []
    for a, b in zip(i, j, strict=True):
        both = ~np.isnan(values[a]) & ~np.isnan(values[b])
        expected.append(AUTORANK[measure](values[a, both], values[b, both]))
    assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    propagated = es.effect_sizes(values, i, j, measure=measure)["effect_size"]
    ragged = np.isnan(values).any(axis=1)
    assert_array_equal(np.isnan(propagated), ragged[i] | ragged[j])


def test_cohen_dz_and_prob_superiority_by_their_formulas():
    rng = np.random.default_rng(6)
    values = rng.normal(size=(5, 9))
    values[3, 2] = values[1, 2]  # a tie for prob_superiority
    i, j = _all_pairs(5)
    dz = es.effect_sizes(values, i, j, measure="cohen_dz")["effect_size"]
    ps = es.effect_sizes(values, i, j, measure="prob_superiority")["effect_size"]
    for k, (a, b) in enumerate(zip(i, j, strict=True)):
        d = values[a] - values[b]
        assert dz[k] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-10)
        assert ps[k] == pytest.approx((np.sum(d > 0) + 0.5 * np.sum(d == 0)) / d.size)


def test_cliff_delta_of_effsize_example_is_minus_a_quarter():
    # effsize's README: cliff.delta(treatment, control) gives delta -0.25 (small).
    treatment = [10, 10, 20, 20, 20, 30, 30, 30, 40, 50]
    control = [10, 20, 30, 40, 40, 50, np.nan, np.nan, np.nan, np.nan]
    values = np.array([treatment, control], dtype=float)
    out = es.effect_sizes(values, [0], [1], measure="cliff_delta", paired=False)
    assert out["effect_size"][0] == pytest.approx(-0.25)
    assert es.MAGNITUDES[out["magnitude"][0]] == "small"
    a = es.effect_sizes(values, [0], [1], measure="vargha_delaney", paired=False)
    assert a["effect_size"][0] == pytest.approx(0.375)


@pytest.mark.parametrize("measure", ["cohen_d", "cliff_delta", "akinshin_gamma"])
def test_magnitudes_equal_autorank_effect_level(measure):
    effects = np.array([0.0, 0.1, -0.146, 0.15, -0.19, 0.25, 0.35, -0.49, 0.6, 0.79, 0.9, -3.0])
    codes = es.magnitude(effects, measure)
    got = [es.MAGNITUDES[c] for c in codes]
    assert got == [_effect_level(e, measure) for e in effects]


def test_magnitude_at_the_cut_points_and_of_probabilities():
    assert es.magnitude(np.array([0.2, 0.5, 0.8]), "cohen_dz").tolist() == [1, 2, 3]
    # |A - 1/2| at 0.06, 0.14, 0.21 exactly (in decimal) opens small, medium, large.
    probabilities = np.array([0.5, 0.56, 0.36, 0.71, 0.29, 0.0])
    assert es.magnitude(probabilities, "vargha_delaney").tolist() == [0, 1, 2, 3, 3, 3]
    assert es.magnitude(np.array([np.nan]), "cliff_delta").tolist() == [-1]


def test_unknown_measure_and_paired_measures_on_runs_are_refused():
    with pytest.raises(ValueError, match="`measure` must be one of"):
        es.check_measure("hedges_g")
    for measure in es.PAIRED_MEASURES:
        with pytest.raises(ValueError, match="'cohen_d' or 'cliff_delta'"):
            es.check_measure(measure, paired=False)
    assert es.check_measure(None, paired=False) == "cliff_delta"


def test_losses_turn_the_sign_so_that_positive_means_model_1_better():
    values = np.array([[0.1, 0.2, 0.15, 0.12], [0.3, 0.25, 0.35, 0.4]])  # model 0: lower loss
    for measure in es.MEASURES:
        up = es.effect_sizes(values, [0], [1], measure=measure)["effect_size"][0]
        down = es.effect_sizes(values, [0], [1], measure=measure, greater_is_better=False)
        if measure in es.PROBABILITY_MEASURES:
            assert down["effect_size"][0] == pytest.approx(1 - up)
            assert down["effect_size"][0] > 0.5
        else:
            assert down["effect_size"][0] == pytest.approx(-up)
            assert down["effect_size"][0] > 0
        assert down["mean_diff"][0] == pytest.approx(-0.1825)  # raw model_1 - model_2


def test_degenerate_samples_give_zero_or_infinity():
    values = np.array([[0.9, 0.9, 0.9], [0.9, 0.9, 0.9], [0.8, 0.8, 0.8], [0.5, 0.6, 0.7]])
    for measure in ("cohen_dz", "cohen_d", "akinshin_gamma"):
        out = es.effect_sizes(values, [0, 0], [1, 2], measure=measure)["effect_size"]
        assert out[0] == 0.0
        assert out[1] == np.inf
    assert es.effect_sizes(values, [0], [1], measure="cliff_delta")["effect_size"][0] == 0.0


# --------------------------------------------------------------------------- properties

finite = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False, width=32)
frames = arrays(np.float64, st.tuples(st.integers(2, 5), st.integers(3, 12)), elements=finite)


@settings(max_examples=60, deadline=None)
@given(values=frames, measure=st.sampled_from(es.MEASURES))
def test_swapping_the_models_flips_the_sign_and_keeps_the_magnitude(values, measure):
    i, j = _all_pairs(values.shape[0])
    forward = es.effect_sizes(values, i, j, measure=measure)
    backward = es.effect_sizes(values, j, i, measure=measure)
    if measure in es.PROBABILITY_MEASURES:
        assert_allclose(backward["effect_size"], 1 - forward["effect_size"], atol=1e-12)
    else:
        assert_allclose(backward["effect_size"], -forward["effect_size"], atol=1e-9, rtol=1e-9)
    same = np.isfinite(forward["effect_size"])
    # Away from a cut point, the magnitude is the same both ways.
    cuts = np.asarray(es.THRESHOLDS[measure])
    size = np.abs(forward["effect_size"] - (0.5 if measure in es.PROBABILITY_MEASURES else 0))
    clear = same & (np.min(np.abs(size[:, None] - cuts[None, :]), axis=1) > 1e-9)
    assert_array_equal(backward["magnitude"][clear], forward["magnitude"][clear])


@settings(max_examples=60, deadline=None)
@given(values=frames, measure=st.sampled_from(es.MEASURES))
def test_magnitude_agrees_with_the_thresholds(values, measure):
    i, j = _all_pairs(values.shape[0])
    out = es.effect_sizes(values, i, j, measure=measure)
    small, medium, large = es.THRESHOLDS[measure]
    centre = 0.5 if measure in es.PROBABILITY_MEASURES else 0.0
    for effect, code in zip(out["effect_size"], out["magnitude"], strict=True):
        size = abs(effect - centre)
        label = es.MAGNITUDES[code]
        if size < small * (1 - 1e-12):
            assert label == "negligible"
        elif small * (1 + 1e-12) <= size < medium * (1 - 1e-12):
            assert label == "small"
        elif medium * (1 + 1e-12) <= size < large * (1 - 1e-12):
            assert label == "medium"
        elif size >= large * (1 + 1e-12):
            assert label == "large"


@settings(max_examples=60, deadline=None)
@given(
    values=frames,
    shift=st.integers(-64, 64),
    scale=st.sampled_from([0.25, 0.5, 2.0, 8.0]),
    measure=st.sampled_from(["cohen_dz", "cohen_d", "akinshin_gamma", "cliff_delta"]),
)
def test_shifting_or_scaling_every_score_leaves_d_and_delta_unchanged(
    values, shift, scale, measure
):
    # Multiples of 1/64, a power-of-two scale and a shift in 1/8: the map is exact,
    # so ties stay ties and Cliff's delta must not move at all.
    values = np.round(values * 64) / 64
    i, j = _all_pairs(values.shape[0])
    before = es.effect_sizes(values, i, j, measure=measure)["effect_size"]
    after = es.effect_sizes(values * scale + shift / 8, i, j, measure=measure)["effect_size"]
    if measure == "cliff_delta":
        assert_array_equal(after, before)
        return
    ok = np.isfinite(before)
    assert_array_equal(np.isfinite(after), ok)
    assert_allclose(after[ok], before[ok], rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    x=arrays(np.float64, st.integers(1, 15), elements=finite),
    y=arrays(np.float64, st.integers(1, 15), elements=finite),
)
def test_vargha_delaney_is_half_of_cliff_delta_plus_one_on_unpaired_data(x, y):
    size = max(x.size, y.size)
    values = np.full((2, size), np.nan)
    values[0, : x.size], values[1, : y.size] = x, y
    delta = es.effect_sizes(values, [0], [1], measure="cliff_delta", paired=False)
    a = es.effect_sizes(values, [0], [1], measure="vargha_delaney", paired=False)
    assert a["effect_size"][0] == pytest.approx((delta["effect_size"][0] + 1) / 2)
    # A = P(x > y) + P(x = y)/2, written out.
    greater = (x[:, None] > y[None, :]).mean()
    ties = (x[:, None] == y[None, :]).mean()
    assert a["effect_size"][0] == pytest.approx(greater + ties / 2)


# --------------------------------------------------------------------------- intervals

CHOLESTEROL_BEFORE = np.array([201, 231, 221, 228, 284, 267, 232, 215], dtype=float)
CHOLESTEROL_AFTER = np.array([200, 236, 216, 219, 260, 255, 221, 203], dtype=float)


def test_paired_dz_interval_of_the_cholesterol_data_equals_jasp_and_spss():
    # effsize issue 58: JASP and SPSS give d_z 0.999, 95% CI (0.115, 1.839).
    values = np.array([CHOLESTEROL_BEFORE, CHOLESTEROL_AFTER])
    effect = es.effect_sizes(values, [0], [1])["effect_size"]
    low, high = es.cohen_dz_interval(effect, 8, 0.95)
    assert effect[0] == pytest.approx(0.999, abs=5e-4)
    assert (round(float(low[0]), 3), round(float(high[0]), 3)) == (0.115, 1.839)


@pytest.mark.parametrize("ratio", [None, 1 / 9, 0.25])
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_dz_interval_has_the_defining_property_of_the_noncentral_t(ratio, confidence):
    # At the bounds the observed t is the upper / lower (1 - confidence)/2 quantile.
    effect = np.array([-1.3, -0.2, 0.0, 0.4, 1.6])
    n = np.array([10, 25, 100, 40, 12])
    low, high = es.cohen_dz_interval(effect, n, confidence, test_train_ratio=ratio)
    scale = np.sqrt(1 / n + (ratio or 0.0))
    t = effect / scale
    tail = (1 - confidence) / 2
    assert_allclose(stats.nct.cdf(t, n - 1, low / scale), 1 - tail, atol=2e-6)
    assert_allclose(stats.nct.cdf(t, n - 1, high / scale), tail, atol=2e-6)
    assert np.all(low < effect)
    assert np.all(effect < high)


def test_dz_interval_of_an_infinite_effect_is_unbounded_on_its_side():
    low, high = es.cohen_dz_interval(np.array([np.inf, -np.inf, np.nan]), 10)
    assert low.tolist()[:2] == [np.inf, -np.inf]
    assert high.tolist()[:2] == [np.inf, -np.inf]
    assert np.isnan(low[2])
    assert np.isnan(high[2])


def test_paired_bootstrap_equals_a_loop_of_autorank_over_the_same_resamples():
    rng = np.random.default_rng(8)
    values = np.round(rng.normal(size=(3, 14)), 1)
    i, j = np.array([0, 0]), np.array([1, 2])
    low, high = es.bootstrap_interval(
        values, i, j, measure="cliff_delta", confidence=0.9, n_resamples=500, random_state=1
    )
    # The same draws: one uniform per unit and resample, units resampled together.
    draws = np.random.default_rng(1).random((500, 1, 14))
    idx = (draws[:, 0, :] * 14).astype(int)
    for k, (a, b) in enumerate(zip(i, j, strict=True)):
        boot = [_cliffs_delta(values[a, r], values[b, r]) for r in idx]
        assert low[k] == pytest.approx(np.quantile(boot, 0.05))
        assert high[k] == pytest.approx(np.quantile(boot, 0.95))


def test_unpaired_bootstrap_resamples_each_model_among_its_own_runs():
    rng = np.random.default_rng(9)
    values = rng.normal(size=(2, 10))
    values[1, 6:] = np.nan
    low, high = es.bootstrap_interval(
        values, [0], [1], measure="cohen_d", paired=False, n_resamples=400, random_state=2
    )
    draws = np.random.default_rng(2).random((400, 2, 10))
    boot = []
    for r in draws:
        x = values[0][(r[0] * 10).astype(int)]
        y = values[1, :6][(r[1, :6] * 6).astype(int)]
        boot.append(_cohen_d(x, y))
    assert low[0] == pytest.approx(np.quantile(boot, 0.025))
    assert high[0] == pytest.approx(np.quantile(boot, 0.975))


def test_bootstrap_is_reproducible_with_a_seed_and_vectorised_over_pairs():
    rng = np.random.default_rng(10)
    values = rng.normal(size=(4, 20))
    i, j = _all_pairs(4)
    for measure in es.MEASURES:
        first = es.bootstrap_interval(
            values, i, j, measure=measure, n_resamples=300, random_state=5
        )
        again = es.bootstrap_interval(
            values, i, j, measure=measure, n_resamples=300, random_state=5
        )
        assert_array_equal(first[0], again[0])
        assert_array_equal(first[1], again[1])
        # Pair by pair, the same draws give the same interval: no pair depends on another.
        one = es.bootstrap_interval(
            values[[0, 3]], [0], [1], measure=measure, n_resamples=300, random_state=5
        )
        k = int(np.flatnonzero((i == 0) & (j == 3))[0])
        assert one[0][0] == pytest.approx(first[0][k])


# --------------------------------------------------------------------------- TOST


@pytest.mark.parametrize(("low", "high"), [(-0.02, 0.02), (-0.01, 0.03), (0.005, 0.04)])
def test_paired_tost_equals_statsmodels_ttost_paired(low, high):
    rng = np.random.default_rng(11)
    values = rng.normal(0.8, 0.02, size=(4, 15))
    i, j = _all_pairs(4)
    out = tost_paired(values, i, j, low=low, high=high, alpha=0.05)
    for k, (a, b) in enumerate(zip(i, j, strict=True)):
        pvalue, (t1, p1, _), (t2, p2, _) = ttost_paired(values[a], values[b], low, high)
        assert out["pvalue"][k] == pytest.approx(pvalue, rel=1e-10)
        assert out["statistic_low"][k] == pytest.approx(t1, rel=1e-10)
        assert out["pvalue_low"][k] == pytest.approx(p1, rel=1e-10)
        assert out["statistic_high"][k] == pytest.approx(t2, rel=1e-10)
        assert out["pvalue_high"][k] == pytest.approx(p2, rel=1e-10)
        # The 1 - 2 alpha interval: scipy's 90% interval of the paired t.
        ci = stats.ttest_rel(values[a], values[b]).confidence_interval(0.9)
        assert (out["ci_low"][k], out["ci_high"][k]) == pytest.approx((ci.low, ci.high))


def test_corrected_tost_uses_the_nadeau_bengio_standard_error():
    rng = np.random.default_rng(12)
    values = rng.normal(0.8, 0.02, size=(2, 20))
    out = tost_paired(values, [0], [1], low=-0.01, high=0.01, test_train_ratio=0.25)
    d = values[0] - values[1]
    se = d.std(ddof=1) * np.sqrt(1 / 20 + 0.25)
    assert out["pvalue_low"][0] == pytest.approx(stats.t.sf((d.mean() + 0.01) / se, 19))
    assert out["pvalue_high"][0] == pytest.approx(stats.t.cdf((d.mean() - 0.01) / se, 19))


@pytest.mark.parametrize(("low", "high"), [(-0.05, 0.05), (-0.02, 0.08)])
def test_welch_tost_equals_statsmodels_ttost_ind_unequal(low, high):
    rng = np.random.default_rng(13)
    values = np.full((3, 12), np.nan)
    values[0, :12] = rng.normal(0.80, 0.03, 12)
    values[1, :5] = rng.normal(0.81, 0.06, 5)
    values[2, :8] = rng.normal(0.79, 0.01, 8)
    i, j = _all_pairs(3)
    out = tost_welch(values, i, j, low=low, high=high)
    for k, (a, b) in enumerate(zip(i, j, strict=True)):
        x, y = values[a][~np.isnan(values[a])], values[b][~np.isnan(values[b])]
        pvalue, (t1, p1, df1), (t2, p2, _) = ttost_ind(x, y, low, high, usevar="unequal")
        assert out["pvalue"][k] == pytest.approx(pvalue, rel=1e-10)
        assert out["pvalue_low"][k] == pytest.approx(p1, rel=1e-10)
        assert out["pvalue_high"][k] == pytest.approx(p2, rel=1e-10)
        assert out["statistic_low"][k] == pytest.approx(t1, rel=1e-10)
        assert out["statistic_high"][k] == pytest.approx(t2, rel=1e-10)
        assert out["df"][k] == pytest.approx(df1, rel=1e-10)


def test_tost_of_a_constant_difference_is_decided_by_where_it_lies():
    values = np.array([[0.9, 0.8, 0.7], [0.9, 0.8, 0.7], [0.88, 0.78, 0.68]])
    out = tost_paired(values, [0, 0], [1, 2], low=-0.01, high=0.01)
    assert out["pvalue"].tolist() == [0.0, 1.0]  # 0 inside the rope; 0.02 outside
    assert out["identical"].tolist() == [True, False]
    assert out["constant"].tolist() == [False, True]


def test_bootstrap_chunks_of_pairs_replay_the_same_draws(monkeypatch):
    # Pairs are resampled in chunks (bounded memory); each chunk sees the same data-set
    # draws, so the intervals do not depend on the chunking.
    from pdcompare.stats import _moments

    rng = np.random.default_rng(14)
    values = rng.normal(size=(5, 16))
    i, j = _all_pairs(5)
    whole = es.bootstrap_interval(values, i, j, measure="cohen_d", n_resamples=200, random_state=7)
    monkeypatch.setattr(_moments, "_CHUNK_ELEMENTS", 2 * 200)  # two pairs a chunk
    chunked = es.bootstrap_interval(
        values, i, j, measure="cohen_d", n_resamples=200, random_state=7
    )
    assert_array_equal(chunked[0], whole[0])
    assert_array_equal(chunked[1], whole[1])


def test_bca_interval_of_cohen_d_across_data_sets_equals_scipy():
    # Per-data-set means of 3 models on 15 data sets; scipy's BCa with paired resampling.
    from pdcompare.stats.effect_size import bootstrap_interval

    rng = np.random.default_rng(4)
    difficulty = rng.normal(0.0, 1.0, 15)
    values = difficulty + rng.normal(0.0, 0.5, (3, 15)) + np.array([[0.6], [0.2], [0.0]])

    def cohen_d(x, y, axis=-1):
        pooled = np.sqrt((x.var(ddof=1, axis=axis) + y.var(ddof=1, axis=axis)) / 2)
        return (x.mean(axis=axis) - y.mean(axis=axis)) / pooled

    low, high = bootstrap_interval(
        values, [0, 0], [1, 2], measure="cohen_d", n_resamples=40000, random_state=0,
        method="bca",
    )  # fmt: skip
    for k, other in enumerate((1, 2)):
        ref = stats.bootstrap(
            (values[0], values[other]), cohen_d, paired=True, vectorized=True,
            n_resamples=40000, method="BCa", random_state=1,
        ).confidence_interval  # fmt: skip
        assert_allclose([low[k], high[k]], [ref.low, ref.high], atol=0.02)


def test_bca_needs_paired_units():
    from pdcompare.stats.effect_size import bootstrap_interval

    with pytest.raises(ValueError, match="`method`='bca' needs paired units"):
        bootstrap_interval(
            np.ones((2, 5)) + np.arange(5), [0], [1], measure="cohen_d", paired=False,
            method="bca",
        )  # fmt: skip
