"""The model confidence set's core against arch.bootstrap.MCS on the same bootstrap indices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from pdcompare.stats.forecast import model_confidence_set, resample_indices, resampled_means

arch_bootstrap = pytest.importorskip("arch.bootstrap")


def _losses(seed: int, n: int = 300, m: int = 8) -> np.ndarray:
    """Losses of m models sharing a common shock, with slowly growing means."""
    rng = np.random.default_rng(seed)
    common = rng.normal(size=(n, 1))
    return rng.normal(size=(n, m)) ** 2 * (1 + 0.05 * np.arange(m)) + common


def _arch(losses, method, block_size, reps=400, seed=7):
    """arch's MCS p-values (in its elimination order) and the bootstrap indices it drew."""
    mcs = arch_bootstrap.MCS(
        losses, 0.1, reps=reps, block_size=block_size, method=method, seed=seed
    )
    mcs.compute()
    return mcs.pvalues, np.stack(mcs._bootstrap_indices)


@pytest.mark.parametrize("method", ["R", "max"])
@pytest.mark.parametrize("block_size", [1, 5])
@pytest.mark.parametrize("seed", [0, 3])
def test_equals_arch_mcs_on_the_same_indices(method, block_size, seed):
    losses = _losses(seed)
    reference, indices = _arch(losses, method, block_size)
    out = model_confidence_set(losses, resampled_means(losses, [indices]), method=method)
    assert_array_equal(out["order"], reference.index.to_numpy())
    assert_allclose(out["pvalue"], reference["Pvalue"].to_numpy(), rtol=0, atol=1e-12)


def test_resampled_means_equal_the_mean_of_the_resampled_rows():
    losses = _losses(1, n=50, m=4)
    indices = np.random.default_rng(0).integers(0, 50, size=(7, 50))
    assert_allclose(resampled_means(losses, [indices[:3], indices[3:]]), losses[indices].mean(1))


def test_stationary_bootstrap_has_geometric_blocks_of_the_given_mean():
    # Politis & Romano: a row continues the previous one (t-1 -> t, wrapping) with
    # probability 1 - 1/b, and starts anywhere with probability 1/b (continuing by chance
    # with probability 1/n): the share of continuations is 1 - 1/b + 1/(b n).
    n, b = 200, 8
    chunks = list(resample_indices(n, 2000, b, np.random.default_rng(0)))
    idx = np.concatenate(chunks)
    assert idx.shape == (2000, n)
    follows = (idx[:, 1:] == (idx[:, :-1] + 1) % n).mean()
    assert_allclose(follows, 1 - 1 / b + 1 / (b * n), atol=0.005)
    # Every row is equally likely at every position (uniform marginal).
    counts = np.bincount(idx[:, 0], minlength=n)
    assert counts.min() > 0
    assert_allclose(np.bincount(idx.ravel(), minlength=n) / idx.size, 1 / n, rtol=0.25)
    # arch's stationary bootstrap, for comparison: the same share of continuations.
    bs = arch_bootstrap.StationaryBootstrap(b, np.arange(n), seed=0)
    theirs = np.stack([positional[0] for positional, _ in bs.bootstrap(2000)])
    assert_allclose((theirs[:, 1:] == (theirs[:, :-1] + 1) % n).mean(), follows, atol=0.005)


def test_independent_resampling_is_uniform():
    idx = np.concatenate(list(resample_indices(10, 5000, 1, np.random.default_rng(2))))
    assert idx.shape == (5000, 10)
    assert_allclose(np.bincount(idx.ravel()) / idx.size, 0.1, rtol=0.05)


@pytest.mark.parametrize("method", ["R", "max"])
def test_identical_models_are_never_separated(method):
    losses = _losses(2, n=150, m=5)
    losses = np.column_stack([losses, losses[:, 1], losses[:, 1], losses[:, 4]])
    boot = resampled_means(losses, resample_indices(150, 300, 1, np.random.default_rng(0)))
    out = model_confidence_set(losses, boot, method=method)
    pvalue = dict(zip(out["order"].tolist(), out["pvalue"].tolist(), strict=True))
    assert pvalue[1] == pvalue[5] == pvalue[6]
    assert pvalue[4] == pvalue[7]
    assert np.isfinite(out["statistic"]).all()
    # (arch divides 0 by 0 there: NaN statistics, and an IndexError of its R method.)


@pytest.mark.parametrize("method", ["R", "max"])
def test_all_identical_models_stay_in(method):
    column = np.random.default_rng(0).normal(size=(60, 1)) ** 2
    losses = np.repeat(column, 4, axis=1)
    boot = resampled_means(losses, resample_indices(60, 100, 1, np.random.default_rng(0)))
    out = model_confidence_set(losses, boot, method=method)
    assert_array_equal(out["pvalue"], 1.0)


@given(
    seed=st.integers(0, 10_000),
    m=st.integers(2, 7),
    method=st.sampled_from(["R", "max"]),
    block=st.integers(1, 4),
)
def test_pvalues_never_decrease_and_the_last_is_one(seed, m, method, block):
    rng = np.random.default_rng(seed)
    losses = rng.gamma(2.0, size=(40, m)) * rng.uniform(0.8, 1.2, m)
    boot = resampled_means(losses, resample_indices(40, 60, block, rng))
    out = model_confidence_set(losses, boot, method=method)
    assert sorted(out["order"].tolist()) == list(range(m))
    assert np.all(np.diff(out["pvalue"]) >= 0)
    assert out["pvalue"][-1] == 1.0
    assert ((out["pvalue"] >= 0) & (out["pvalue"] <= 1)).all()
    assert np.all(np.diff(out["step"]) >= 0)
