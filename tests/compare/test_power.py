"""`power` on scores and benchmark frames: columns, scopes, design, errors.

References: the noncentral t written out (scipy.stats.nct), the standard deviation
of the differences by numpy, statsmodels' TTestPower for the paired t across data sets.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats
from statsmodels.stats.power import TTestPower

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.datasets import load_grid_search_scores

SCORE_COLUMNS = ["model_1", "model_2", "sd_diff", "n_splits", "power", "mdd", "n_repeats",
                 "mdd_limit"]
BENCHMARK_COLUMNS = ["model_1", "model_2", "sd_diff", "n_datasets", "power", "mdd",
                     "n_datasets_needed"]


def scores_frame(n_models=4, n_splits=15, seed=0):
    rng = np.random.default_rng(seed)
    values = 0.8 + rng.normal(0, 0.03, n_splits) + rng.normal(0, 0.02, (n_models, n_splits))
    values += np.linspace(0.03, 0.0, n_models)[:, None]
    return pd.DataFrame(values, index=[f"m{k}" for k in range(n_models)],
                        columns=[f"s{k}" for k in range(n_splits)])


def nct_power(delta, sd, n, ratio, alpha=0.05):
    nc = delta / (sd * np.sqrt(1 / n + ratio))
    crit = stats.t.ppf(1 - alpha / 2, n - 1)
    return stats.nct.sf(crit, n - 1, nc) + np.nan_to_num(stats.nct.cdf(-crit, n - 1, nc))


def test_columns_and_numbers_on_the_gallery_scores():
    scores = load_grid_search_scores()  # 10 x 10-fold, n_train 90, n_test 10
    res = scores.cmp.power(delta=0.03)
    assert res.columns.tolist() == SCORE_COLUMNS
    assert res["model_1"].tolist() == ["rbf"] * 3  # the best against the others
    sd = np.array([(scores.loc["rbf"] - scores.loc[m]).std(ddof=1)
                   for m in res["model_2"]])
    assert_allclose(res["sd_diff"], sd, rtol=1e-10)
    assert (res["n_splits"] == 100).all()
    assert_allclose(res["power"], nct_power(0.03, sd, 100, 10 / 90), rtol=1e-8)
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert_allclose(res["mdd_limit"], z * sd * np.sqrt(10 / 90), rtol=1e-12)
    # The mdd is the difference found with probability 0.8.
    assert_allclose(nct_power(res["mdd"].to_numpy(), sd, 100, 10 / 90), 0.8, rtol=1e-7)
    # n_repeats counts repeats of the 10-fold: the first r with power >= 0.8 at n = 10 r.
    for row in res.itertuples():
        if np.isfinite(row.n_repeats):
            r = int(row.n_repeats)
            assert nct_power(0.03, row.sd_diff, 10 * r, 10 / 90) >= 0.8
            assert r == 1 or nct_power(0.03, row.sd_diff, 10 * (r - 1), 10 / 90) < 0.8
        else:
            assert row.mdd_limit >= 0.03
    meta = res.attrs["pdcompare"]
    assert (meta["test"], meta["delta"], meta["target"], meta["alpha"]) == ("power", 0.03,
                                                                           0.8, 0.05)
    assert meta["repeat_unit"] == 10
    assert meta["scope"] == "best_vs_rest"


def test_scopes_and_one_sided():
    scores = scores_frame().cmp.set_design(n_train=120, n_test=30)
    pair = scores.cmp.power("m0", "m2", delta=0.02)
    assert pair[["model_1", "model_2"]].values.tolist() == [["m0", "m2"]]
    everyone = pdcompare.pairwise(scores, "corrected_ttest")  # same pairs, same order
    allpairs = pdcompare.power(scores, pdcompare.inputs.scores.ALL_PAIRS, delta=0.02)
    assert allpairs[["model_1", "model_2"]].values.tolist() == \
        everyone[["model_1", "model_2"]].values.tolist()
    one = scores.cmp.power(delta=0.02, alternative="better")
    two = scores.cmp.power(delta=0.02)
    assert (one["power"] > two["power"]).all()
    sd, n, ratio = one["sd_diff"].to_numpy(), 15, 0.25
    nc = 0.02 / (sd * np.sqrt(1 / n + ratio))
    assert_allclose(one["power"], stats.nct.sf(stats.t.ppf(0.95, n - 1), n - 1, nc),
                    rtol=1e-8)
    # No k-fold in an n_train/n_test design: n_repeats counts multiples of the 15 splits.
    assert one.attrs["pdcompare"]["repeat_unit"] == 15


def test_bonferroni_level_gives_a_larger_mdd():
    scores = load_grid_search_scores()
    plain = scores.cmp.power(delta=0.02)
    family = scores.cmp.power(delta=0.02, alpha=0.05 / 3)
    assert (family["mdd"] > plain["mdd"]).all()
    assert (family["power"] < plain["power"]).all()


def test_benchmark_frame_answers_for_data_sets():
    rng = np.random.default_rng(3)
    bench = pd.DataFrame(rng.normal(0.8, 0.05, (4, 12)) + np.linspace(0.05, 0, 4)[:, None],
                         index=list("abcd"),
                         columns=pd.Index([f"d{k}" for k in range(12)], name="dataset"))
    res = bench.cmp.power(delta=0.03)
    assert res.columns.tolist() == BENCHMARK_COLUMNS
    assert (res["n_datasets"] == 12).all()
    sd = res["sd_diff"].to_numpy()
    analysis = TTestPower()
    assert_allclose(res["power"], [analysis.power(0.03 / s, 12, 0.05) for s in sd], rtol=1e-8)
    assert_allclose(res["mdd"], [s * analysis.solve_power(nobs=12, alpha=0.05, power=0.8)
                                 for s in sd], rtol=1e-6)
    for row in res.itertuples():
        n = int(row.n_datasets_needed)
        assert analysis.power(0.03 / row.sd_diff, n, 0.05) >= 0.8
        assert n == 2 or analysis.power(0.03 / row.sd_diff, n - 1, 0.05) < 0.8
    meta = res.attrs["pdcompare"]
    assert "stand-in for the Wilcoxon" in meta["method"]
    assert meta["unit"] == "dataset"


def test_needs_the_design_on_scores():
    scores = scores_frame()
    with pytest.raises(ValueError, match=r"`power` needs the cross-validation design.*`cv=`"):
        scores.cmp.power(delta=0.01)
    assert scores.cmp.power(delta=0.01, cv=15)["n_splits"].eq(15).all()


@pytest.mark.parametrize("delta", [0, -0.01, np.nan, np.inf, "0.01", True])
def test_delta_must_be_positive(delta):
    with pytest.raises(ValueError, match=r"`delta` must be a positive finite number.*got"):
        load_grid_search_scores().cmp.power(delta=delta)


def test_bad_target_and_nan_policy():
    scores = load_grid_search_scores()
    with pytest.raises(ValueError, match="`target`"):
        scores.cmp.power(delta=0.01, target=1.5)
    scores = scores.copy()
    scores.iloc[1, 3] = np.nan
    with pytest.warns(PdcompareWarning, match="missing"):
        res = scores.cmp.power(delta=0.01)
    involved = (res["model_1"] == scores.index[1]) | (res["model_2"] == scores.index[1])
    assert res.loc[involved, ["sd_diff", "power", "mdd", "n_repeats"]].isna().all().all()
    omitted = scores.cmp.power(delta=0.01, nan_policy="omit")
    assert omitted.loc[involved, "n_splits"].eq(99).all()
    assert omitted.loc[involved, "power"].notna().all()


def test_never_mutates_the_frame():
    scores = load_grid_search_scores()
    before, attrs = scores.copy(), {k: dict(v) for k, v in scores.attrs.items()}
    scores.cmp.power(delta=0.01)
    pd.testing.assert_frame_equal(scores, before)
    assert scores.attrs == attrs


def test_detectable_difference_of_a_family_is_the_mdd_at_bonferroni():
    from pdcompare.compare.power import detectable_difference

    scores = load_grid_search_scores()
    family = scores.cmp.pairwise("corrected_ttest", alternative="better")  # 6 pairs
    got = detectable_difference(scores, family)
    ref = pdcompare.power(scores, pdcompare.inputs.scores.ALL_PAIRS, delta=0.01,
                          alpha=0.05 / 6, alternative="better")
    assert_allclose(got, ref["mdd"], rtol=1e-12)
    # Written out: the noncentral t at alpha/6, one-sided, power 0.8 at the mdd.
    sd = ref["sd_diff"].to_numpy()
    nc = got / (sd * np.sqrt(1 / 100 + 10 / 90))
    assert_allclose(stats.nct.sf(stats.t.ppf(1 - 0.05 / 6, 99), 99, nc), 0.8, rtol=1e-7)

    rng = np.random.default_rng(4)
    bench = pd.DataFrame(rng.normal(0.8, 0.05, (4, 10)), index=list("abcd"),
                         columns=pd.Index([f"d{k}" for k in range(10)], name="dataset"))
    bench.iloc[3, 2] = np.nan
    with pytest.warns(PdcompareWarning):  # the NaN model, and Holm over 3 pairs is fine
        family = bench.cmp.wilcoxon()
    got = detectable_difference(bench, family)
    involved = family["model_2"].eq("d").to_numpy() | family["model_1"].eq("d").to_numpy()
    assert np.isnan(got[involved]).all()
    m = int(family["pvalue"].notna().sum())
    assert m == 2
    sd = np.array([(bench.loc[r.model_1] - bench.loc[r.model_2]).std(ddof=1)
                   for r in family.itertuples()])
    solved = TTestPower().solve_power(nobs=10, alpha=0.05 / m, power=0.8)
    assert_allclose(got[~involved], sd[~involved] * solved, rtol=1e-6)


@given(
    names=st.lists(st.sampled_from(["a", "b", "c", "d", 1, 2.5]), min_size=1, max_size=6),
    labels=st.lists(st.sampled_from(["a", "c", "x", 1, 3]), max_size=8),
)
def test_pair_positions_are_pandas_get_indexer(names, labels):
    # detectable_difference finds the family's models by a dict of the names; where the
    # names repeat or a label is absent it defers to pandas, whose answer is the reference.
    from pdcompare.compare.power import _positions

    index = pd.Index(names, dtype=object)
    wanted = np.asarray(labels, dtype=object).reshape(-1)
    if index.is_unique:
        assert _positions(index, wanted).tolist() == index.get_indexer(wanted).tolist()
    else:
        with pytest.raises(pd.errors.InvalidIndexError):
            index.get_indexer(wanted)
        with pytest.raises(pd.errors.InvalidIndexError):
            _positions(index, wanted)


def test_counts_are_integers():
    # Counts print as integers (section 35): the splits or data sets, and the repeats or
    # data sets needed, whole numbers (checked by the noncentral t in the tests above).
    scores = load_grid_search_scores()
    res = scores.cmp.power("rbf", "linear", delta=0.04)
    assert res["n_splits"].dtype == np.int64
    assert res["n_repeats"].dtype == np.int64
    assert "100.0" not in res.to_string()
    assert res["n_repeats"].iloc[0] == 5
    # no number of repeats finds a difference at or below the floor: inf, which only floats hold
    never = scores.cmp.power(delta=0.001)
    assert np.isinf(never["n_repeats"]).all()
    assert never["n_splits"].dtype == np.int64
    bench = scores_frame().rename_axis(columns="dataset")
    res = bench.cmp.power(delta=0.02)
    assert res.columns.tolist() == BENCHMARK_COLUMNS
    assert res["n_datasets"].dtype == np.int64
    assert res["n_datasets_needed"].dtype == np.int64
    # a pair with a missing score keeps a missing count, not a float
    holed = scores_frame()
    holed.iloc[1, 2] = np.nan
    with pytest.warns(PdcompareWarning):
        res = holed.cmp.power(delta=0.02, cv=15)
    assert res["n_splits"].dtype == "Int64"
    assert res["n_splits"].isna().sum() == 1
