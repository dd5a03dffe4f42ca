"""The model confidence set on a predictions frame: result frame, properties, arch, coverage."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pdcompare
from pdcompare.stats.forecast import model_confidence_set, resample_indices, resampled_means

MCS_COLUMNS = ["mean_loss", "pvalue", "in_set", "eliminated_at"]


def _forecasts(n=400, scales=(1.0, 1.03, 1.1, 1.6, 1.0), seed=0) -> pd.DataFrame:
    """A series and forecasts whose errors have the given standard deviations."""
    rng = np.random.default_rng(seed)
    y = np.cumsum(rng.normal(size=n))
    columns = {"y": y}
    for k, scale in enumerate(scales):
        columns[f"m{k}"] = y + rng.normal(0, scale, n)
    return pd.DataFrame(columns)


@pytest.mark.parametrize("method", ["R", "max"])
@pytest.mark.parametrize("block_size", [1, 6])
def test_result_frame_equals_the_core_on_the_same_seed(method, block_size):
    frame = _forecasts()
    out = frame.cmp.confidence_set(
        method=method, block_size=block_size, n_resamples=300, random_state=5
    )
    assert list(out.columns) == MCS_COLUMNS
    assert out.index.name == "model"
    losses = (frame[[f"m{k}" for k in range(5)]].to_numpy() - frame[["y"]].to_numpy()) ** 2
    rng = np.random.default_rng(5)
    boot = resampled_means(losses, resample_indices(len(frame), 300, block_size, rng))
    core = model_confidence_set(losses, boot, method=method)
    assert out.index.tolist() == [f"m{k}" for k in core["order"]]
    assert_allclose(out["pvalue"], core["pvalue"])
    assert_allclose(out["mean_loss"], losses.mean(0)[core["order"]])
    assert_array_equal(out["in_set"], core["pvalue"] > 0.10)
    # MCS p-values never decrease along the order; the last is 1.
    assert np.all(np.diff(out["pvalue"]) >= 0)
    assert out["pvalue"].iloc[-1] == 1.0
    meta = out.attrs["pdcompare"]
    assert meta["test"] == "confidence_set"
    assert (meta["method"], meta["block_size"], meta["random_state"]) == (method, block_size, 5)
    assert meta["greater_is_better"] is False


def test_eliminated_at_counts_the_steps():
    out = _forecasts().cmp.confidence_set(random_state=0)
    assert out["eliminated_at"].iloc[:-1].tolist() == [1.0, 2.0, 3.0, 4.0]
    assert np.isnan(out["eliminated_at"].iloc[-1])
    assert out.index[0] == "m3"  # the worst forecast goes first


def test_agrees_with_arch_within_monte_carlo_error():
    arch_bootstrap = pytest.importorskip("arch.bootstrap")
    frame = _forecasts(n=300, scales=(1.0, 1.05, 1.12, 1.2), seed=2)
    losses = (frame.drop(columns="y").to_numpy() - frame[["y"]].to_numpy()) ** 2
    ours = frame.cmp.confidence_set(n_resamples=4000, random_state=1)
    mcs = arch_bootstrap.MCS(losses, 0.1, reps=4000, block_size=1, method="R", seed=1)
    mcs.compute()
    theirs = mcs.pvalues["Pvalue"].to_numpy()
    assert ours.index.tolist() == [f"m{k}" for k in mcs.pvalues.index]
    # Different draws: p-values within a few Monte Carlo standard errors (sd <= 0.008).
    assert_allclose(ours["pvalue"], theirs, atol=0.035)


def test_a_model_better_by_many_standard_errors_is_alone():
    frame = _forecasts(scales=(0.3, 1.0, 1.1, 1.2, 1.3))
    out = frame.cmp.confidence_set(random_state=0)
    assert out.index[out["in_set"]].tolist() == ["m0"]
    assert (out["pvalue"].iloc[:-1] == 0).all()


@pytest.mark.parametrize("method", ["R", "max"])
def test_identical_losses_all_stay_in(method):
    frame = _forecasts(scales=(1.0, 1.0, 1.0))
    frame["twin"] = frame["m0"]
    frame["triplet"] = frame["m0"]
    out = frame.cmp.confidence_set(method=method, random_state=0)
    same = out.loc[["m0", "twin", "triplet"], "pvalue"]
    assert (same == same.iloc[0]).all()
    assert np.isfinite(out["pvalue"]).all()
    copies = pd.DataFrame({"y": frame["y"], "a": frame["m0"], "b": frame["m0"]})
    both = copies.cmp.confidence_set(method=method, random_state=0)
    assert both["in_set"].all()
    assert (both["pvalue"] == 1).all()


def test_zero_one_loss_on_class_labels():
    rng = np.random.default_rng(0)
    truth = rng.choice(["cat", "dog", "eel"], size=500)
    frame = pd.DataFrame({"y": truth})
    for name, accuracy in (("forest", 0.9), ("knn", 0.88), ("tree", 0.7)):
        wrong = rng.random(500) > accuracy
        frame[name] = np.where(wrong, np.roll(truth, 1), truth)
    out = frame.cmp.confidence_set(loss="zero_one", random_state=3)
    losses = (frame[["forest", "knn", "tree"]].to_numpy() != truth[:, None]).astype(float)
    boot = resampled_means(losses, resample_indices(500, 1000, 1, np.random.default_rng(3)))
    core = model_confidence_set(losses, boot)
    assert_allclose(out["pvalue"], core["pvalue"])
    assert_allclose(out["mean_loss"], losses.mean(0)[core["order"]])
    assert out.index[0] == "tree"
    assert not out.loc["tree", "in_set"]
    with pytest.raises(ValueError, match=r"needs numeric forecasts.*loss='zero_one'"):
        frame.cmp.confidence_set()


def test_callable_and_absolute_losses():
    frame = _forecasts()
    named = frame.cmp.confidence_set(loss="absolute_error", random_state=0)
    called = frame.cmp.confidence_set(loss=np.abs, random_state=0)
    pd.testing.assert_frame_equal(named, called, check_like=False)
    assert called.attrs["pdcompare"]["loss"] == "absolute"


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"method": "range"}, ValueError, r"`method` must be one of 'R', 'max'"),
        ({"alpha": 1.5}, ValueError, "`alpha` must be strictly between 0 and 1"),
        ({"n_resamples": 1}, ValueError, "`n_resamples` must be an integer of at least 2"),
        ({"block_size": 0}, ValueError, "`block_size` must be an integer of at least 1"),
        ({"block_size": 1000}, ValueError, r"`block_size` must be at most the number of rows"),
        ({"random_state": "seed"}, TypeError, "`random_state` must be None, an int"),
        ({"loss": "mse"}, ValueError, "`loss` must be one of"),
    ],
)
def test_bad_options(options, error, match):
    with pytest.raises(error, match=match):
        _forecasts().cmp.confidence_set(**options)


def test_one_model_is_refused_and_the_frame_is_untouched():
    frame = _forecasts()
    before = frame.copy()
    pdcompare.confidence_set(frame, random_state=0)
    pd.testing.assert_frame_equal(frame, before)
    assert frame.attrs == {}
    with pytest.raises(ValueError, match="at least 2 models"):
        frame[["y", "m0"]].cmp.confidence_set()


@pytest.mark.slow
@pytest.mark.parametrize("method", ["R", "max"])
def test_covers_the_best_model_at_the_nominal_level(method):
    # Five forecasts, the best (m0) close to two others; over 300 series the set at
    # alpha 0.10 holds m0 at least 1 - alpha - 0.02 of the time (HLN 2011, Theorem 1).
    alpha, hits, runs = 0.10, 0, 300
    for seed in range(runs):
        frame = _forecasts(n=100, scales=(1.0, 1.02, 1.04, 1.3, 1.5), seed=seed)
        out = frame.cmp.confidence_set(
            alpha=alpha, method=method, n_resamples=200, random_state=seed
        )
        hits += bool(out.loc["m0", "in_set"])
    assert hits / runs >= 1 - alpha - 0.02
