"""``hierarchical``: the hierarchical Bayesian correlated t-test on benchmark frames.

References: baycomp.HierarchicalTest with Stan (where PyStan builds), the
random-effects pooled difference (statsmodels-checked in its own tests), the
per-data-set means of the folds, and the invariances of the model.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare._validation import PdcompareWarning

COLUMNS = [
    "model_1",
    "model_2",
    "mean_diff",
    "prob_better",
    "prob_rope",
    "prob_worse",
    "decision",
    "rhat",
    "ess",
]


def _bench(shift=(0.0, 0.02, 0.04), n_datasets=8, n_folds=10, within=0.02, among=0.01, seed=0):
    """Models x (dataset, split) scores: model k is better by shift[k] on average."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.9, size=(n_datasets, 1))
    fold_noise = rng.normal(0, within, size=(n_datasets, n_folds))  # shared by the models
    rows = []
    for s in shift:
        effect = s + rng.normal(0, among, size=(n_datasets, 1))
        rows.append(
            (base + effect + fold_noise + rng.normal(0, within, (n_datasets, n_folds))).ravel()
        )
    columns = pd.MultiIndex.from_product(
        [[f"d{k}" for k in range(n_datasets)], range(n_folds)], names=["dataset", "split"]
    )
    names = pd.Index([f"m{k}" for k in range(len(shift))], name="model")
    frame = pd.DataFrame(np.array(rows), index=names, columns=columns)
    return frame.cmp.set_design(cv=n_folds)


def test_columns_attrs_and_the_best_first_scope():
    bench = _bench()
    res = bench.cmp.hierarchical(n_samples=1000, random_state=0)
    assert list(res.columns) == COLUMNS
    assert res["model_1"].tolist() == ["m2", "m2"]
    assert res["model_2"].tolist() == ["m1", "m0"]
    meta = res.attrs["pdcompare"]
    assert meta["test"] == "hierarchical"
    assert meta["unit"] == "dataset"
    assert meta["rho"] == pytest.approx(0.1)  # 10-fold: n_test / (n_test + n_train)
    assert meta["random_state"] == 0
    table = pdcompare.shrinkage(res)
    assert table.columns.tolist() == ["model_1", "model_2", "dataset", "before", "after"]
    assert list(zip(table["model_1"], table["model_2"], strict=True)) == (
        [("m2", "m1")] * 8 + [("m2", "m0")] * 8
    )
    assert table["dataset"].tolist() == [f"d{k}" for k in range(8)] * 2
    assert meta["pairs"] == [["m2", "m1"], ["m2", "m0"]]
    assert meta["datasets"] == [f"d{k}" for k in range(8)]
    assert np.array(meta["shrunk"]).shape == (2, 8)
    assert bench.attrs["pdcompare"].keys() == {"design"}  # the caller's frame untouched


def test_a_large_common_shift_is_found_and_shrinkage_pulls_to_the_mean():
    bench = _bench(shift=(0.0, 0.05), among=0.01, within=0.03)
    res = bench.cmp.hierarchical("m1", "m0", n_samples=2000, random_state=1)
    assert res.loc[0, "prob_better"] > 0.99
    assert res.loc[0, "decision"] == "m1"
    diffs = (bench.loc["m1"] - bench.loc["m0"]).groupby(level="dataset").mean()
    table = pdcompare.shrinkage(res).set_index("dataset")
    shrunk = table["after"]
    assert_allclose(table["before"], diffs[shrunk.index], rtol=1e-12)
    mean = res.loc[0, "mean_diff"]
    # every shrunk estimate lies between its data set's mean difference and the common mean
    assert np.all(np.abs(shrunk - mean) <= np.abs(diffs - mean) + 1e-3)
    assert np.abs(shrunk - mean).sum() < np.abs(diffs - mean).sum()


def test_tiny_within_variance_keeps_each_data_set_and_pools_like_random_effects():
    bench = _bench(shift=(0.0, 0.03), within=1e-4, among=0.02, n_folds=20, seed=3)
    res = bench.cmp.hierarchical("m1", "m0", n_samples=2000, random_state=2)
    diffs = (bench.loc["m1"] - bench.loc["m0"]).groupby(level="dataset").mean()
    shrunk = pdcompare.shrinkage(res).set_index("dataset")["after"]
    assert_allclose(shrunk, diffs[shrunk.index], atol=2e-4)
    pooled = bench.cmp.random_effects("m1", "m0").loc[0, "mean_diff"]
    # with exact per-data-set differences both estimate the centre of the same 8 numbers
    assert res.loc[0, "mean_diff"] == pytest.approx(pooled, abs=0.01)


def test_same_seed_same_result_and_swapping_flips():
    bench = _bench()
    first = bench.cmp.hierarchical("m1", "m0", rope=0.01, n_samples=2000, random_state=5)
    again = bench.cmp.hierarchical("m1", "m0", rope=0.01, n_samples=2000, random_state=5)
    pd.testing.assert_frame_equal(first, again)
    pd.testing.assert_frame_equal(pdcompare.shrinkage(first), pdcompare.shrinkage(again))
    assert first.attrs == again.attrs
    swapped = bench.cmp.hierarchical("m0", "m1", rope=0.01, n_samples=2000, random_state=6)
    # the model is symmetric: the same posterior mirrored, within Monte Carlo error
    assert swapped.loc[0, "mean_diff"] == pytest.approx(-first.loc[0, "mean_diff"], abs=0.003)
    assert swapped.loc[0, "prob_better"] == pytest.approx(first.loc[0, "prob_worse"], abs=0.04)
    assert swapped.loc[0, "prob_worse"] == pytest.approx(first.loc[0, "prob_better"], abs=0.04)
    assert swapped.loc[0, "prob_rope"] == pytest.approx(first.loc[0, "prob_rope"], abs=0.04)


def test_losses_swap_better_and_worse():
    bench = _bench()
    gain = bench.cmp.hierarchical("m2", "m0", rope=0.01, n_samples=1000, random_state=7)
    loss = (1 - bench).cmp.set_design(cv=10, greater_is_better=False)
    lost = loss.cmp.hierarchical("m2", "m0", rope=0.01, n_samples=1000, random_state=7)
    assert lost.loc[0, "mean_diff"] == pytest.approx(-gain.loc[0, "mean_diff"], abs=0.003)
    assert lost.loc[0, "prob_better"] == pytest.approx(gain.loc[0, "prob_better"], abs=0.05)
    assert lost.loc[0, "decision"] == gain.loc[0, "decision"] == "m2"


def test_pairwise_is_every_pair_with_the_same_numbers():
    bench = _bench()
    every = bench.cmp.pairwise(test="hierarchical", rope=0.01, n_samples=1000, random_state=3)
    assert list(every.columns) == COLUMNS
    assert list(zip(every["model_1"], every["model_2"], strict=True)) == [
        ("m2", "m1"),
        ("m2", "m0"),
        ("m1", "m0"),
    ]
    one = bench.cmp.hierarchical("m2", "m0", rope=0.01, n_samples=1000, random_state=4)
    assert every.loc[1, "prob_better"] == pytest.approx(one.loc[0, "prob_better"], abs=0.06)
    assert every.attrs["pdcompare"]["scope"] == "all_pairs"


def test_the_design_is_required_and_never_guessed():
    bench = _bench()
    bench.attrs = {}
    with pytest.raises(
        ValueError, match=r"`hierarchical` needs the cross-validation design.*`cv=`.*`test_size=`"
    ):
        bench.cmp.hierarchical()
    res = bench.cmp.hierarchical("m1", "m0", n_samples=200, random_state=0, test_size=0.25)
    assert res.attrs["pdcompare"]["rho"] == pytest.approx(0.25)


def test_frames_it_refuses():
    bench = _bench()
    with pytest.raises(ValueError, match="needs a benchmark frame with \\(dataset, split\\)"):
        bench.cmp.means().cmp.hierarchical(cv=10)
    with pytest.raises(ValueError, match="benchmark frame with \\(dataset, split\\)"):
        bench.xs("d0", axis=1, level="dataset").cmp.hierarchical(cv=10)
    one = bench.loc[:, ["d0"]]
    with pytest.raises(ValueError, match=r"one data set.*corrected_ttest"):
        one.cmp.hierarchical()
    scores = bench.xs("d0", axis=1, level="dataset")
    with pytest.raises(ValueError, match="`hierarchical` models the folds of every data set"):
        pdcompare.pairwise(scores, test="hierarchical", cv=10)


@pytest.mark.parametrize(
    ("keywords", "error", "match"),
    [
        ({"lower_alpha": 2, "upper_alpha": 1}, ValueError, "0 < lower_alpha < upper_alpha"),
        ({"lower_beta": 0}, ValueError, "0 < lower_beta < upper_beta"),
        ({"upper_alpha": "2"}, TypeError, "`upper_alpha` must be a positive number"),
        ({"upper_sigma": -1}, ValueError, "`upper_sigma` must be a positive finite number"),
        ({"n_samples": 10}, ValueError, "`n_samples` must be an integer of at least 100"),
        ({"n_samples": 150, "chains": 4}, ValueError, "at least 50 draws.*pass at least 200"),
        ({"chains": 0}, ValueError, "`chains` must be an integer of at least 1"),
        ({"rope": -0.1}, ValueError, "`rope`"),
        ({"alpha": 2}, ValueError, "`alpha` must be strictly between 0 and 1"),
        ({"random_state": "x"}, TypeError, "`random_state` must be None"),
    ],
)
def test_bad_keywords(keywords, error, match):
    with pytest.raises(error, match=match):
        _bench().cmp.hierarchical(**keywords)


def test_identical_models_are_a_point_mass_at_zero():
    bench = _bench()
    bench.loc["m1"] = bench.loc["m0"]
    with pytest.warns(PdcompareWarning, match="'m0' vs 'm1'|'m1' vs 'm0'.*identical scores"):
        res = bench.cmp.hierarchical("m1", "m0", rope=0.01, n_samples=200, random_state=0)
    assert res.loc[0, ["prob_better", "prob_rope", "prob_worse"]].tolist() == [0.0, 1.0, 0.0]
    assert res.loc[0, "decision"] == "equivalent"
    assert (pdcompare.shrinkage(res)["after"] == 0).all()


def test_a_constant_data_set_gets_the_smallest_spread_and_a_warning():
    bench = _bench()
    bench.loc["m1", "d3"] = (bench.loc["m0", "d3"] + 0.02).to_numpy()
    with pytest.warns(PdcompareWarning, match="same on every fold for m1 vs m0 on d3"):
        res = bench.cmp.hierarchical("m1", "m0", n_samples=400, random_state=0)
    shrunk = pdcompare.shrinkage(res).set_index("dataset")["after"]
    assert shrunk["d3"] == pytest.approx(0.02, abs=0.01)


@pytest.mark.slow
def test_missing_scores_propagate_or_are_omitted():
    bench = _bench()
    bench.loc["m0", ("d2", 3)] = np.nan
    # A fold missing on one data set: that model's data set is kept, over the folds
    # it has, with a warning naming it (DESIGN section 20), not dropped for every pair.
    with pytest.warns(PdcompareWarning, match="m0"):
        res = bench.cmp.hierarchical(n_samples=400, random_state=0)
    assert res["mean_diff"].notna().all()
    assert res.set_index("model_2").loc["m1", "decision"] is not None
    with pytest.warns(PdcompareWarning, match="leaves those data sets out|drop|averaged over"):
        omitted = bench.cmp.hierarchical(n_samples=400, random_state=0, nan_policy="omit")
    assert omitted["mean_diff"].notna().all()
    # Its data set is no longer missing (averaged over its folds), so "raise" finds no NaN.
    with pytest.warns(PdcompareWarning, match="averaged over the folds"):
        kept = bench.cmp.hierarchical(n_samples=400, random_state=0, nan_policy="raise")
    assert kept["mean_diff"].notna().all()


def test_pairs_left_with_one_data_set_are_nan():
    bench = _bench()
    bench.loc["m0", [d for d in bench.columns if d[0] != "d0"]] = np.nan
    with pytest.warns(PdcompareWarning) as record:
        res = bench.cmp.hierarchical(n_samples=400, random_state=0, nan_policy="omit")
    messages = [str(w.message) for w in record]
    assert any("have no score on data set(s)" in m for m in messages)
    assert any("'m2' vs 'm0' have fewer than 2 data sets" in m for m in messages)
    assert res.set_index("model_2").loc["m0", ["mean_diff", "prob_better"]].isna().all()
    assert res.set_index("model_2").loc["m1", "mean_diff"] > 0


def test_a_data_set_with_no_spread_in_any_data_set_gives_nan():
    bench = _bench()
    bench.loc["m0"] = np.round(bench.loc["m0"] * 64) / 64  # exact binary fractions
    bench.loc["m1"] = bench.loc["m0"] + 0.125 * np.repeat(np.arange(8), 10)
    with pytest.warns(PdcompareWarning, match="same amount on every fold of each data set"):
        res = bench.cmp.hierarchical("m1", "m0", n_samples=400, random_state=0)
    assert np.isnan(res.loc[0, "prob_better"])


@pytest.mark.slow
def test_unconverged_pairs_are_named(monkeypatch):
    from pdcompare.compare import hierarchical as module

    monkeypatch.setattr(module, "RHAT_LIMIT", 0.5)
    with pytest.warns(PdcompareWarning, match="R-hat of delta0 above 0.5.*'m2' vs 'm1'"):
        _bench().cmp.hierarchical(n_samples=200, random_state=0)
    monkeypatch.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _bench().cmp.hierarchical(n_samples=4000, random_state=0)


@pytest.mark.slow
def test_bundled_benchmark_converges_at_the_default_size():
    from pdcompare.datasets import load_benchmark

    res = load_benchmark().cmp.hierarchical("svc_rbf", "forest", rope=0.01, random_state=0)
    assert res.loc[0, "rhat"] < 1.01
    assert res.loc[0, "ess"] > 1000


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")  # baycomp leaves its Stan file open; aiohttp's warnings
def test_equals_baycomp_with_stan(tmp_path, monkeypatch):
    pytest.importorskip("stan")
    from baycomp import HierarchicalTest

    monkeypatch.chdir(tmp_path)  # baycomp pickles its last sample in the working directory
    bench = _bench(shift=(0.0, 0.01), n_datasets=6, among=0.015, within=0.02, seed=11)
    x = bench.loc["m1"].to_numpy().reshape(6, 10)
    y = bench.loc["m0"].to_numpy().reshape(6, 10)
    samples = HierarchicalTest.sample(x, y, 0.01, nsamples=10000, chains=4, random_state=0)
    p_left, p_rope, p_right = np.bincount(np.argmax(samples, axis=1), minlength=3) / len(samples)
    ours = bench.cmp.hierarchical("m1", "m0", rope=0.01, n_samples=20000, random_state=0)
    # baycomp's p_left is P(x better) for y - x: x = m1 = model_1. Measured: Stan
    # (0.668, 0.311, 0.021) with 40000 draws, ours (0.667, 0.3125, 0.020) over four
    # seeds (standard error 0.002); a Stan run of 20000 draws gave p_rope 0.295.
    assert ours.loc[0, "prob_better"] == pytest.approx(p_left, abs=0.03)
    assert ours.loc[0, "prob_rope"] == pytest.approx(p_rope, abs=0.03)
    assert ours.loc[0, "prob_worse"] == pytest.approx(p_right, abs=0.02)
