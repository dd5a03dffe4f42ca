"""``pdcompare.shrinkage``: every data set's difference before and after the pooling model.

References: pandas' per-data-set means of the fold differences (``before``),
the Nadeau–Bengio standard error written out (``se``), the empirical Bayes
estimate of a random-effects model written out (Raudenbush & Bryk 1985,
metafor's ``blup``: ``mu + tau2 / (tau2 + se²) (y − mu)``) and the
hierarchical model's own posterior means.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.datasets import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark().loc[["svc_rbf", "forest", "knn"]]


def by_dataset(bench, a, b):
    """Each data set's mean fold difference and its Nadeau–Bengio standard error, by pandas."""
    diff = bench.loc[a] - bench.loc[b]
    groups = diff.groupby(level="dataset", sort=False)
    ratio = bench.attrs["pdcompare"]["design"]["test_train_ratio"]
    return groups.mean(), np.sqrt(groups.var() * (1 / groups.count() + ratio))


def test_random_effects_before_se_and_the_empirical_bayes_estimate(bench):
    result = bench.cmp.random_effects()
    table = pdcompare.shrinkage(result)
    assert table.columns.tolist() == ["model_1", "model_2", "dataset", "before", "after", "se"]
    assert len(table) == len(result) * 22
    for _, row in result.iterrows():
        pair = table[(table["model_1"] == row["model_1"]) & (table["model_2"] == row["model_2"])]
        mean, se = by_dataset(bench, row["model_1"], row["model_2"])
        assert pair["dataset"].tolist() == mean.index.tolist()
        assert_allclose(pair["before"], mean, atol=1e-15)
        assert_allclose(pair["se"], se, rtol=1e-12)
        mu, tau2 = row["mean_diff"], row["tau2"]
        expected = mu + tau2 / (tau2 + se**2) * (mean - mu)
        assert_allclose(pair["after"], expected, rtol=1e-9, atol=1e-12)
        # each estimate moves towards the pooled difference, never past it
        assert np.all(np.abs(pair["after"] - mu) <= np.abs(pair["before"] - mu) + 1e-15)


def test_random_effects_without_heterogeneity_pools_completely(bench):
    # tau2 = 0 (the fixed-effect model): every data set's estimate is the pooled one
    rng = np.random.default_rng(0)
    columns = pd.MultiIndex.from_product(
        [["d0", "d1", "d2", "d3"], range(5)], names=["dataset", "split"]
    )
    noise = rng.normal(0, 0.02, (2, 20))
    frame = pd.DataFrame(0.8 + noise, index=["a", "b"], columns=columns).cmp.set_design(cv=5)
    result = frame.cmp.random_effects("a", "b")
    assert result.loc[0, "tau2"] == 0.0
    assert_allclose(pdcompare.shrinkage(result)["after"], result.loc[0, "mean_diff"])


def test_hierarchical_after_is_the_posterior_mean_stored_and_rows_follow_the_result(bench):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # short chains
        result = bench.cmp.hierarchical(n_samples=400, chains=2, random_state=0)
    table = pdcompare.shrinkage(result)
    assert table.columns.tolist() == ["model_1", "model_2", "dataset", "before", "after"]
    meta = result.attrs["pdcompare"]
    assert_allclose(table["after"], np.ravel(meta["shrunk"]))
    for _, row in result.iterrows():
        pair = table[(table["model_1"] == row["model_1"]) & (table["model_2"] == row["model_2"])]
        assert_allclose(pair["before"], by_dataset(bench, row["model_1"], row["model_2"])[0])
    # a result whose rows were reordered reads its own pairs, in its new order
    reordered = result.iloc[::-1].reset_index(drop=True)
    again = pdcompare.shrinkage(reordered)
    assert again["model_2"].iloc[0] == reordered["model_2"].iloc[0]
    first = again[again["model_2"] == reordered["model_2"].iloc[0]].reset_index(drop=True)
    expected = table[table["model_2"] == reordered["model_2"].iloc[0]].reset_index(drop=True)
    pd.testing.assert_frame_equal(first, expected)


def test_missing_data_sets_are_nan_rows(bench):
    frame = bench.copy()
    frame.loc["knn", "wine"] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the NaN pairs are named in a warning
        result = frame.cmp.random_effects("svc_rbf", "knn", nan_policy="omit")
    table = pdcompare.shrinkage(result).set_index("dataset")
    assert np.isnan(table.loc["wine", ["before", "after", "se"]].astype(float)).all()
    assert table.drop(index="wine")["before"].notna().all()


def test_refuses_other_results_and_rows_it_does_not_hold(bench):
    with pytest.raises(ValueError, match=r"`shrinkage` reads a result of `hierarchical`"):
        pdcompare.shrinkage(bench.cmp.wilcoxon())
    result = bench.cmp.random_effects("svc_rbf", "knn")
    swapped = result.assign(model_1="knn", model_2="svc_rbf")
    with pytest.raises(ValueError, match="row knn vs svc_rbf is not among the pairs"):
        pdcompare.shrinkage(swapped)
    with pytest.raises(TypeError, match="DataFrame"):
        pdcompare.shrinkage(result.attrs["pdcompare"])
