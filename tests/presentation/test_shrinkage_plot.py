"""The shrinkage plot of the hierarchical test: one arrow per data set, from the fold mean."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.presentation.plotting.shrinkage import shrinkage_plot


@pytest.fixture(scope="module")
def result():
    from pdcompare.datasets import load_benchmark

    with warnings.catch_warnings():  # constant data sets of lda vs logistic; short chains
        warnings.simplefilter("ignore")
        return load_benchmark().cmp.pairwise(test="hierarchical", n_samples=200, random_state=0)


def test_points_are_the_fold_means_and_the_shrunk_estimates(result):
    from pdcompare.datasets import load_benchmark

    bench = load_benchmark()
    ax = shrinkage_plot(result, a="forest", b="knn")
    raw = (bench.loc["forest"] - bench.loc["knn"]).groupby(level="dataset", sort=False).mean()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert sorted(labels) == sorted(raw.index)
    before, after = ax.collections[0].get_offsets(), ax.collections[1].get_offsets()
    assert_allclose(before[:, 0], raw[labels].to_numpy())
    assert np.all(np.diff(before[:, 0]) >= 0)  # sorted by the fold mean
    table = pdcompare.shrinkage(result).query("model_1 == 'forest' and model_2 == 'knn'")
    shrunk = table.set_index("dataset")["after"]
    assert_allclose(after[:, 0], shrunk[labels].to_numpy())
    assert ax.get_xlabel() == "forest − knn per data set"


def test_top_keeps_the_data_sets_moved_most_and_says_so(result):
    ax = shrinkage_plot(result, top=5)
    assert len(ax.get_yticklabels()) == 5
    assert "17 more not shown" in ax.get_title()
    first = result.iloc[0]
    table = pdcompare.shrinkage(result).query(
        f"model_1 == {first['model_1']!r} and model_2 == {first['model_2']!r}"
    )
    moved = (table["after"] - table["before"]).abs().set_axis(table["dataset"])
    kept = {t.get_text() for t in ax.get_yticklabels()}
    assert kept == set(moved.sort_values(ascending=False).index[:5])


def test_refuses_other_results_and_unknown_pairs(result):
    from pdcompare.datasets import load_benchmark

    with pytest.raises(ValueError, match="draws a result of `hierarchical`"):
        shrinkage_plot(load_benchmark().cmp.pairwise())
    with pytest.raises(ValueError, match="no row with model_1='knn' and model_2='nope'"):
        shrinkage_plot(result, a="knn", b="nope")
