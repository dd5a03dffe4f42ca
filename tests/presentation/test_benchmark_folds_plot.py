"""``plot("folds")`` on a benchmark frame draws per-data-set means and says so."""

import matplotlib
import numpy as np
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.datasets import load_benchmark

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close():
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def title(ax):
    suptitle = ax.figure._suptitle
    return suptitle.get_text() if suptitle is not None else ax.get_title()


def test_folds_of_a_benchmark_are_its_per_data_set_means():
    bench = load_benchmark()
    ax = pdcompare.plot(bench, "folds")
    # The means of each model's 10 folds on each data set, by numpy.
    folds = bench.to_numpy().reshape(len(bench), 22, 10)
    expected = dict(zip(bench.index, folds.mean(axis=2), strict=True))
    lines = ax.get_lines()
    assert len(lines) == 7
    for line in lines:
        name = line.get_label().split(" (mean")[0]
        assert_allclose(line.get_ydata(), expected[name], rtol=1e-12)
    assert ax.get_xlabel() == "data set"
    assert title(ax).startswith(
        "Mean score per data set (all 22 data sets; the folds of each averaged)"
    )
    assert ax.get_xticklabels()[0].get_text() == "iris"
    assert "all data sets" in ax.get_legend().get_title().get_text()


def test_a_table_of_means_draws_one_score_per_data_set():
    means = load_benchmark().cmp.means()
    ax = pdcompare.plot(means, "folds")
    assert title(ax).startswith("Score per data set (all 22 data sets)")
    first = ax.get_lines()[0]
    name = first.get_label().split(" (mean")[0]
    assert np.array_equal(first.get_ydata(), means.loc[name].to_numpy())


def test_scores_frame_still_speaks_of_splits():
    from pdcompare.datasets import load_grid_search_scores

    ax = pdcompare.plot(load_grid_search_scores(), "folds")
    assert ax.get_xlabel() == "CV split"
    assert "first 30 of 100 splits" in title(ax)


def test_a_gap_is_said_once_per_plot():
    import warnings

    bench = load_benchmark()
    bench.loc["knn", ("wine", "split3")] = np.nan
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ax = pdcompare.plot(bench, "folds", n_splits=5)
    assert [str(w.message).count("'knn' on 'wine' (1 of 10 folds missing)") for w in caught] == [1]
    assert len(ax.get_lines()[0].get_xdata()) == 5
    line = next(li for li in ax.get_lines() if li.get_label().startswith("knn"))
    assert_allclose(line.get_ydata()[1], np.nanmean(bench.loc["knn", "wine"]), rtol=1e-12)
