"""effect_size, equivalence, their pairwise tables and the benchmark summary's effect sizes.

References: the gallery numbers of DESIGN section 8 (bayes prob_worse 0.068,
corrected one-sided p 0.227), the formulas written out here, autorank's
effect sizes, ``scipy.stats.nct`` (defining property of the d_z interval),
the cholesterol d_z interval that JASP and SPSS give (effsize issue 58), and
statsmodels ``ttost_paired`` / ``ttost_ind``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from autorank._util import _cliffs_delta, _cohen_d
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from statsmodels.stats.weightstats import ttost_ind, ttost_paired

import pdcompare
from pdcompare._validation import PdcompareWarning
from pdcompare.datasets import load_grid_search_scores
from pdcompare.stats.effect_size import MEASURES


@pytest.fixture(scope="module")
def gallery():
    return load_grid_search_scores()


def _benchmark(n_models=4, n_datasets=12, seed=0):
    rng = np.random.default_rng(seed)
    shift = np.linspace(0.03, -0.01, n_models)[:, None]
    values = rng.normal(0.8, 0.05, size=(n_models, n_datasets)) + shift
    columns = pd.Index([f"d{k}" for k in range(n_datasets)], name="dataset")
    return pd.DataFrame(values, index=[f"m{k}" for k in range(n_models)], columns=columns)


# --------------------------------------------------------------------------- effect_size


def test_cohen_dz_on_fold_scores_and_its_corrected_interval(gallery):
    res = gallery.cmp.effect_size("rbf", "2_poly", ci=0.95)
    d = (gallery.loc["rbf"] - gallery.loc["2_poly"]).to_numpy()
    dz = d.mean() / d.std(ddof=1)
    assert res["effect_size"].iloc[0] == pytest.approx(dz)
    assert round(float(res["effect_size"].iloc[0]), 2) == 1.59  # DESIGN §13's report line
    assert res["magnitude"].iloc[0] == "large"
    assert res["mean_diff"].iloc[0] == pytest.approx(d.mean())
    # Nadeau–Bengio: t_c = d_z / c, noncentrality (δ/σ) / c, c = sqrt(1/n + 10/90).
    c = np.sqrt(1 / 100 + 10 / 90)
    low, high = res["ci_low"].iloc[0], res["ci_high"].iloc[0]
    assert stats.nct.cdf(dz / c, 99, low / c) == pytest.approx(0.975, abs=1e-6)
    assert stats.nct.cdf(dz / c, 99, high / c) == pytest.approx(0.025, abs=1e-6)
    meta = res.attrs["pdcompare"]
    assert meta["test"] == "effect_size"
    assert meta["measure"] == "cohen_dz"
    assert meta["symbol"] == "d_z"
    assert meta["interval"] == "noncentral_t_nadeau_bengio"
    assert meta["thresholds"] == {"small": 0.2, "medium": 0.5, "large": 0.8, "of": "|effect_size|"}


def test_scopes_columns_and_no_interval_without_ci(gallery):
    best = gallery.cmp.effect_size()
    assert list(best.columns) == ["model_1", "model_2", "mean_diff", "effect_size", "magnitude"]
    assert best["model_1"].tolist() == ["rbf"] * 3
    assert best["model_2"].tolist() == ["linear", "3_poly", "2_poly"]
    one = gallery.cmp.effect_size("linear")
    assert one["model_1"].tolist() == ["linear"] * 3
    assert best["magnitude"].dtype == pd.CategoricalDtype(
        ["negligible", "small", "medium", "large"], ordered=True
    )


@pytest.mark.parametrize("measure", ["cohen_d", "cliff_delta"])
def test_two_sample_measures_on_fold_scores_equal_autorank(gallery, measure):
    reference = {"cohen_d": _cohen_d, "cliff_delta": _cliffs_delta}[measure]
    res = gallery.cmp.pairwise(test="effect_size", measure=measure)
    for row in res.itertuples():
        x, y = gallery.loc[row.model_1].to_numpy(), gallery.loc[row.model_2].to_numpy()
        assert row.effect_size == pytest.approx(reference(x, y), abs=1e-12)


def test_ci_with_a_rank_measure_on_fold_scores_is_refused(gallery):
    with pytest.raises(ValueError, match="splits of a scores frame are correlated"):
        gallery.cmp.effect_size(measure="cliff_delta", ci=0.95)


def test_dz_interval_on_fold_scores_needs_the_design():
    scores = pd.DataFrame(np.random.default_rng(0).normal(size=(2, 10)), index=["a", "b"])
    with pytest.raises(ValueError, match="`effect_size` needs the cross-validation design"):
        pdcompare.effect_size(scores, ci=0.95)
    with pytest.raises(ValueError, match="`corrected_ttest` needs the cross-validation design"):
        pdcompare.corrected_ttest(scores)
    # The point estimate needs no design.
    assert np.isfinite(pdcompare.effect_size(scores)["effect_size"].iloc[0])


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"measure": "hedges_g"}, ValueError, "`measure` must be one of"),
        ({"ci": 1.5}, ValueError, "`ci` must be strictly between 0 and 1"),
        ({"ci": 0.0}, ValueError, "`ci` must be strictly between 0 and 1"),
        ({"ci": 0.9, "measure": "cohen_d", "n_resamples": 1}, ValueError, "`n_resamples`"),
        ({"nan_policy": "drop"}, ValueError, "`nan_policy` must be one of"),
    ],
)
def test_bad_keywords_name_the_keyword(options, error, match):
    with pytest.raises(error, match=match):
        _benchmark().cmp.effect_size(**options)


def test_dz_interval_across_data_sets_is_the_plain_paired_one_of_jasp():
    # The cholesterol data of effsize issue 58 as two "models" over 8 "data sets":
    # JASP and SPSS give d_z 0.999, 95% CI (0.115, 1.839).
    before = [201, 231, 221, 228, 284, 267, 232, 215]
    after = [200, 236, 216, 219, 260, 255, 221, 203]
    table = pd.DataFrame(
        [before, after],
        index=["before", "after"],
        columns=pd.Index([f"p{k}" for k in range(8)], name="dataset"),
    ).astype(float)
    res = table.cmp.effect_size("before", "after", ci=0.95)
    assert res[["effect_size", "ci_low", "ci_high"]].round(3).iloc[0].tolist() == [
        0.999,
        0.115,
        1.839,
    ]
    assert res.attrs["pdcompare"]["interval"] == "noncentral_t"


def test_bootstrap_across_data_sets_resamples_data_sets_in_pairs():
    table = _benchmark()
    res = table.cmp.effect_size(measure="cliff_delta", ci=0.9, n_resamples=400, random_state=3)
    values = table.to_numpy()
    draws = np.random.default_rng(3).random((400, 1, 12))
    idx = (draws[:, 0, :] * 12).astype(int)
    best = table.index.get_loc(res["model_1"].iloc[0])
    for row in res.itertuples():
        other = table.index.get_loc(row.model_2)
        boot = [_cliffs_delta(values[best, r], values[other, r]) for r in idx]
        assert row.ci_low == pytest.approx(np.quantile(boot, 0.05))
        assert row.ci_high == pytest.approx(np.quantile(boot, 0.95))
        assert row.effect_size == pytest.approx(_cliffs_delta(values[best], values[other]))
    again = table.cmp.effect_size(measure="cliff_delta", ci=0.9, n_resamples=400, random_state=3)
    pd.testing.assert_frame_equal(res, again)
    assert res.attrs["pdcompare"]["interval"] == "bootstrap"
    assert res.attrs["pdcompare"]["random_state"] == 3


def test_losses_keep_mean_diff_raw_and_turn_the_effect_size():
    table = _benchmark()
    losses = 1 - table  # losses above 0 (all <= 0 would read as neg_* scores)
    gain = table.cmp.effect_size("m0", "m3", measure="vargha_delaney")
    loss = losses.cmp.effect_size("m0", "m3", measure="vargha_delaney", greater_is_better=False)
    assert loss["effect_size"].iloc[0] == pytest.approx(gain["effect_size"].iloc[0])
    assert loss["mean_diff"].iloc[0] == pytest.approx(-gain["mean_diff"].iloc[0])
    dz = losses.cmp.effect_size("m0", "m3", greater_is_better=False, ci=0.95)
    ref = table.cmp.effect_size("m0", "m3", ci=0.95)
    assert_allclose(
        dz[["effect_size", "ci_low", "ci_high"]], ref[["effect_size", "ci_low", "ci_high"]]
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    measure=st.sampled_from(MEASURES),
)
def test_swapping_a_and_b_flips_the_sign(seed, measure):
    table = _benchmark(n_models=3, n_datasets=9, seed=seed)
    forward = table.cmp.effect_size("m0", "m2", measure=measure)
    backward = table.cmp.effect_size("m2", "m0", measure=measure)
    centre = 0.5 if measure in ("vargha_delaney", "prob_superiority") else 0.0
    f, b = forward["effect_size"].iloc[0] - centre, backward["effect_size"].iloc[0] - centre
    assert b == pytest.approx(-f, abs=1e-12)
    assert backward["mean_diff"].iloc[0] == pytest.approx(-forward["mean_diff"].iloc[0])


def test_missing_scores_propagate_with_a_warning_or_are_omitted():
    table = _benchmark()
    table.iloc[1, 4] = np.nan
    with pytest.warns(PdcompareWarning, match="have no score"):
        res = table.cmp.effect_size("m0")
    assert np.isnan(res.set_index("model_2").loc["m1", "effect_size"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        omitted = table.cmp.effect_size("m0", "m1", nan_policy="omit", ci=0.95)
    d = (table.loc["m0"] - table.loc["m1"]).dropna().to_numpy()
    assert omitted["effect_size"].iloc[0] == pytest.approx(d.mean() / d.std(ddof=1))
    low = omitted["ci_low"].iloc[0]
    t = d.mean() / d.std(ddof=1) * np.sqrt(11)
    assert stats.nct.cdf(t, 10, low * np.sqrt(11)) == pytest.approx(0.975, abs=1e-6)
    with pytest.raises(ValueError, match="nan_policy='omit'"):
        table.cmp.effect_size("m0", nan_policy="raise")


def test_the_callers_frame_and_attrs_are_untouched(gallery):
    before = gallery.copy()
    attrs = dict(gallery.attrs)
    gallery.cmp.effect_size(ci=0.9)
    gallery.cmp.equivalence(rope=0.01)
    pd.testing.assert_frame_equal(gallery, before)
    assert gallery.attrs == attrs


# --------------------------------------------------------------------------- runs (unpaired)


def _runs():
    rng = np.random.default_rng(21)
    values = np.full((3, 10), np.nan)
    values[0, :10] = rng.normal(0.80, 0.02, 10)
    values[1, :6] = rng.normal(0.78, 0.04, 6)
    values[2, :8] = rng.normal(0.79, 0.01, 8)
    frame = pd.DataFrame(values, index=["a", "b", "c"], columns=[f"seed{k}" for k in range(10)])
    return frame.cmp.set_design(paired=False)


def test_runs_default_to_cliff_delta_and_refuse_the_paired_measures():
    runs = _runs()
    res = runs.cmp.effect_size("a", "b")
    x, y = runs.loc["a"].dropna().to_numpy(), runs.loc["b"].dropna().to_numpy()
    assert res.attrs["pdcompare"]["measure"] == "cliff_delta"
    assert res["effect_size"].iloc[0] == pytest.approx(_cliffs_delta(x, y))
    assert res["mean_diff"].iloc[0] == pytest.approx(x.mean() - y.mean())
    for measure in ("cohen_dz", "prob_superiority"):
        with pytest.raises(ValueError, match="'cohen_d' or 'cliff_delta'"):
            runs.cmp.effect_size(measure=measure)
    # Runs are independent: the bootstrap interval is allowed.
    ci = runs.cmp.effect_size("a", "b", measure="cohen_d", ci=0.9, random_state=0)
    assert ci["ci_low"].iloc[0] < ci["effect_size"].iloc[0] < ci["ci_high"].iloc[0]


def test_equivalence_on_runs_is_welch_as_statsmodels():
    runs = _runs()
    res = runs.cmp.equivalence("a", "b", rope=0.03, correction=None)
    x, y = runs.loc["a"].dropna().to_numpy(), runs.loc["b"].dropna().to_numpy()
    pvalue, low, high = ttost_ind(x, y, -0.03, 0.03, usevar="unequal")
    assert res["pvalue"].iloc[0] == pytest.approx(pvalue)
    assert res["statistic_low"].iloc[0] == pytest.approx(low[0])
    assert res["statistic_high"].iloc[0] == pytest.approx(high[0])
    assert res.attrs["pdcompare"]["method"] == "welch"


# --------------------------------------------------------------------------- equivalence

EQUIVALENCE_COLUMNS = [
    "model_1",
    "model_2",
    "mean_diff",
    "statistic_low",
    "pvalue_low",
    "statistic_high",
    "pvalue_high",
    "pvalue",
    "pvalue_adj",
    "reject",
    "ci_low",
    "ci_high",
]


def test_corrected_tost_lower_p_equals_bayes_prob_worse(gallery):
    # DESIGN §8 and §13: rbf vs linear, rope 0.01, p_low = prob_worse = 0.068.
    res = gallery.cmp.equivalence("rbf", "linear", rope=0.01)
    assert list(res.columns) == EQUIVALENCE_COLUMNS
    bayes = gallery.cmp.bayes("rbf", "linear", rope=0.01)
    assert res["pvalue_low"].iloc[0] == pytest.approx(bayes["prob_worse"].iloc[0], rel=1e-10)
    assert round(float(res["pvalue_low"].iloc[0]), 3) == 0.068
    assert not res["reject"].iloc[0]
    meta = res.attrs["pdcompare"]
    assert meta["test"] == "equivalence"
    assert meta["reject_means"] == "equivalent"
    assert meta["rope"] == [-0.01, 0.01]
    assert meta["method"] == "nadeau_bengio"


def test_corrected_tost_with_rope_002_is_the_one_sided_corrected_p(gallery):
    res = gallery.cmp.equivalence("rbf", "linear", rope=0.02)
    one_sided = gallery.cmp.corrected_ttest("rbf", "linear", alternative="greater")
    assert res["pvalue"].iloc[0] == pytest.approx(one_sided["pvalue"].iloc[0], rel=1e-9)
    assert round(float(res["pvalue"].iloc[0]), 3) == 0.227
    # The 1 - 2 alpha interval is the corrected t-test's 90% interval.
    interval = gallery.cmp.corrected_ttest("rbf", "linear", alpha=0.10)
    assert res["ci_low"].iloc[0] == pytest.approx(interval["ci_low"].iloc[0])
    assert res["ci_high"].iloc[0] == pytest.approx(interval["ci_high"].iloc[0])


@pytest.mark.parametrize("rope", [0.03, (-0.02, 0.05)])
def test_tost_across_data_sets_equals_statsmodels_ttost_paired(rope):
    table = _benchmark()
    res = table.cmp.equivalence(rope=rope, correction=None)
    low, high = (-rope, rope) if isinstance(rope, float) else rope
    for row in res.itertuples():
        pvalue, lower, upper = ttost_paired(
            table.loc[row.model_1].to_numpy(), table.loc[row.model_2].to_numpy(), low, high
        )
        assert row.pvalue == pytest.approx(pvalue, rel=1e-10)
        assert row.pvalue_low == pytest.approx(lower[1], rel=1e-10)
        assert row.pvalue_high == pytest.approx(upper[1], rel=1e-10)
        # Equivalent exactly when the 1 - 2 alpha interval lies inside the rope.
        assert row.reject == (low < row.ci_low and row.ci_high < high)
    assert res.attrs["pdcompare"]["method"] == "paired_t"
    assert res.attrs["pdcompare"]["unit"] == "dataset"


def test_holm_correction_and_pairwise_equivalence(gallery):
    pairs = gallery.cmp.pairwise(test="equivalence", rope=0.05)
    assert len(pairs) == 6
    assert list(pairs.columns) == EQUIVALENCE_COLUMNS
    from statsmodels.stats.multitest import multipletests

    assert_allclose(pairs["pvalue_adj"], multipletests(pairs["pvalue"], method="holm")[1])
    single = gallery.cmp.equivalence("rbf", "3_poly", rope=0.05)
    row = pairs[(pairs["model_1"] == "rbf") & (pairs["model_2"] == "3_poly")]
    assert row["pvalue"].iloc[0] == pytest.approx(single["pvalue"].iloc[0])
    assert pairs.attrs["pdcompare"]["scope"] == "all_pairs"
    # The mirrored cell is linear - rbf against the mirrored rope: the other one-sided test.
    low = pairs.cmp.matrix("pvalue_low")
    mirrored = gallery.cmp.equivalence("linear", "rbf", rope=0.05)
    assert low.loc["linear", "rbf"] == pytest.approx(mirrored["pvalue_low"].iloc[0])
    statistic = pairs.cmp.matrix("statistic_high")
    assert statistic.loc["linear", "rbf"] == pytest.approx(mirrored["statistic_high"].iloc[0])
    assert pairs.cmp.matrix("reject").loc["linear", "rbf"] == mirrored["reject"].iloc[0]


def test_pairwise_effect_size_has_every_pair_and_no_correction_columns(gallery):
    res = gallery.cmp.pairwise(test="effect_size")
    assert list(res.columns) == ["model_1", "model_2", "mean_diff", "effect_size", "magnitude"]
    assert len(res) == 6
    assert (res["effect_size"] >= 0).all()
    matrix = res.cmp.matrix("effect_size")
    assert matrix.loc["linear", "rbf"] == pytest.approx(-matrix.loc["rbf", "linear"])
    swapped = gallery.cmp.effect_size("linear", "rbf")
    assert matrix.loc["linear", "rbf"] == pytest.approx(swapped["effect_size"].iloc[0])
    a = gallery.cmp.pairwise(test="effect_size", measure="vargha_delaney").cmp.matrix(
        "effect_size"
    )
    assert a.loc["linear", "rbf"] == pytest.approx(1 - a.loc["rbf", "linear"])


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda s: s.cmp.equivalence(), TypeError, "rope"),
        (lambda s: s.cmp.pairwise(test="equivalence"), TypeError, "needs `rope=`"),
        (lambda s: s.cmp.equivalence(rope=-0.01), ValueError, "`rope` as a half-width"),
        (lambda s: s.cmp.equivalence(rope=0.0), ValueError, "`rope` must have a width"),
        (lambda s: s.cmp.equivalence(rope=(0.02, 0.01)), ValueError, "low <= high"),
        (lambda s: s.cmp.equivalence(rope=0.01, alpha=2), ValueError, "`alpha`"),
        (lambda s: s.cmp.equivalence(rope=0.01, correction="nope"), ValueError, "correction"),
    ],
)
def test_bad_equivalence_input_names_the_keyword(gallery, call, error, match):
    with pytest.raises(error, match=match):
        call(gallery)


def test_equivalence_on_fold_scores_needs_the_design():
    scores = pd.DataFrame(np.random.default_rng(0).normal(size=(2, 10)), index=["a", "b"])
    with pytest.raises(ValueError, match="`equivalence` needs the cross-validation design"):
        scores.cmp.equivalence(rope=0.01)


def test_identical_models_are_equivalent_with_a_warning():
    scores = pd.DataFrame([[0.9, 0.8, 0.85], [0.9, 0.8, 0.85]], index=["a", "b"])
    with pytest.warns(PdcompareWarning, match="`equivalence` is degenerate"):
        res = scores.cmp.equivalence(rope=0.01, cv=3)
    assert res["pvalue"].iloc[0] == 0.0
    assert res["reject"].iloc[0]


# --------------------------------------------------------------------------- summary


def test_benchmark_summary_gains_the_best_against_each_model():
    table = _benchmark()
    summary = table.cmp.summary()
    assert list(summary.columns)[-2:] == ["effect_size", "magnitude"]
    best = summary.index[0]
    assert np.isnan(summary.loc[best, "effect_size"])
    assert pd.isna(summary.loc[best, "magnitude"])
    res = table.cmp.effect_size().set_index("model_2")
    for model in summary.index[1:]:
        assert summary.loc[model, "effect_size"] == pytest.approx(res.loc[model, "effect_size"])
        assert summary.loc[model, "magnitude"] == res.loc[model, "magnitude"]
    assert summary.attrs["pdcompare"]["measure"] == "cohen_dz"
    cliff = table.cmp.summary(measure="cliff_delta")
    x = table.loc[best].to_numpy()
    for model in cliff.index[1:]:
        ref = _cliffs_delta(x, table.loc[model].to_numpy())
        assert cliff.loc[model, "effect_size"] == pytest.approx(ref)
    assert cliff.attrs["pdcompare"]["thresholds"]["large"] == 0.474


def test_benchmark_summary_uses_the_complete_data_sets_and_the_direction():
    table = _benchmark()
    table.iloc[2, 3] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        summary = table.cmp.summary()
    best = summary.index[0]
    complete = table.notna().all(axis=0)
    for model in summary.index[1:]:
        d = (table.loc[best] - table.loc[model])[complete].to_numpy()
        assert summary.loc[model, "effect_size"] == pytest.approx(d.mean() / d.std(ddof=1))
    losses = pdcompare.summary(1 - _benchmark(), greater_is_better=False)
    assert (losses["effect_size"].iloc[1:] > 0).all()


def test_summary_measure_is_for_benchmark_frames(gallery):
    with pytest.raises(ValueError, match="`measure` applies to the summary of a benchmark"):
        gallery.cmp.summary(measure="cliff_delta")
    with pytest.raises(ValueError, match="`measure` must be one of"):
        _benchmark().cmp.summary(measure="d")
    assert_array_equal(
        gallery.cmp.summary().columns, ["mean", "std", "n_splits", "rank", "ci_low", "ci_high"]
    )


def _quantised_runs():
    """Runs whose scores repeat (3 decimals): some resamples have a zero MAD (issue 47, item 8)."""
    a = [0.80, 0.81, 0.80, 0.82, 0.79, 0.80, 0.83, 0.80]
    b = [0.78, 0.79, 0.78, 0.80, 0.78, 0.77, 0.78, 0.81]
    return pd.DataFrame([a, b], index=["a", "b"]).cmp.set_design(paired=False)


def test_bootstrap_of_gamma_warns_with_the_count_of_infinite_resamples():
    runs = _quantised_runs()
    with pytest.warns(
        PdcompareWarning, match=r"akinshin_gamma`: (\d+) of 2000 resamples of 'a' vs 'b'"
    ) as caught:
        result = runs.cmp.effect_size(
            measure="akinshin_gamma", ci=0.95, n_resamples=2000, random_state=0
        )
    # The count, written out: the same uniforms (2000 x 2 models x 8 runs), each model's
    # runs drawn among its own.
    values = runs.to_numpy()
    draws = np.random.default_rng(0).random((2000, 2, 8))
    resampled = np.take_along_axis(
        np.broadcast_to(values, draws.shape), (draws * 8).astype(int), axis=2
    )
    median = np.median(resampled, axis=2)
    mad = np.median(np.abs(resampled - median[..., None]), axis=2)
    # Infinite where both MADs are zero (up to rounding) and the medians differ (equal
    # medians with no spread: γ = 0, as autorank).
    flat = (mad < 1e-12).all(axis=1) & ~np.isclose(median[:, 0], median[:, 1])
    expected = int(np.count_nonzero(flat))
    assert f"`akinshin_gamma`: {expected} of 2000 resamples" in str(caught[0].message)
    from pdcompare.stats.effect_size import bootstrap_interval

    low, _, undefined = bootstrap_interval(
        runs.to_numpy(), [0], [1], measure="akinshin_gamma", paired=False,
        n_resamples=2000, random_state=0, count_undefined=True,
    )  # fmt: skip
    assert undefined[0] == expected
    assert result["ci_low"].iloc[0] == low[0]
    # More than 2.5 % of resamples are infinite: the upper end is infinite, not NaN.
    assert undefined[0] / 2000 > 0.025
    assert np.isposinf(result["ci_high"].iloc[0])
    # Cliff's delta is defined on every resample: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runs.cmp.effect_size(measure="cliff_delta", ci=0.95, n_resamples=500, random_state=0)
