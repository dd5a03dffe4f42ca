"""``from_search`` on a multi-metric search reads the metric the search refits on."""

import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare


@pytest.fixture(scope="module")
def diabetes():
    from sklearn.datasets import load_diabetes

    return load_diabetes(return_X_y=True)


def search(diabetes, refit):
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV

    X, y = diabetes
    scoring = {"r2": "r2", "mse": "neg_mean_squared_error"}
    grid = GridSearchCV(Ridge(), {"alpha": [0.01, 1.0, 100.0]}, scoring=scoring, refit=refit)
    return grid.fit(X, y)


@pytest.mark.parametrize("refit", ["r2", "mse"])
def test_multi_metric_search_defaults_to_its_refit_metric(diabetes, refit):
    fitted = search(diabetes, refit)
    scores = pdcompare.from_search(fitted)
    meta = scores.attrs["pdcompare"]
    assert (meta["metric"], meta["metric_source"]) == (refit, "refit")
    # The scores are the search's own split<i>_test_<refit> columns.
    results = pd.DataFrame(fitted.cv_results_)
    expected = results[[f"split{k}_test_{refit}" for k in range(5)]].to_numpy()
    assert_allclose(scores.to_numpy(), expected, rtol=0, atol=0)
    # The best model is the one the search refitted.
    assert scores.index[scores.mean(axis=1).argmax()] == scores.index[fitted.best_index_]


def test_metric_given_wins_and_is_recorded(diabetes):
    scores = pdcompare.from_search(search(diabetes, "r2"), metric="mse")
    meta = scores.attrs["pdcompare"]
    assert (meta["metric"], meta["metric_source"]) == ("mse", "metric")
    assert (scores.to_numpy() < 0).all()  # neg_mean_squared_error


def test_multi_metric_search_without_refit_metric_asks_for_one(diabetes):
    with pytest.raises(ValueError, match=r"several metrics \('r2', 'mse'\); choose one with"):
        pdcompare.from_search(search(diabetes, False))


@pytest.mark.parametrize(("refit", "metric", "words"), [
    ("r2", None, "Metric: r2 (the metric the search refits on)."),
    ("r2", "mse", "Metric: mse (as asked)."),
])
def test_the_report_names_the_metric(diabetes, refit, metric, words):
    scores = pdcompare.from_search(search(diabetes, refit), metric=metric)
    lines = scores.cmp.report().splitlines()
    assert lines[2].startswith("Data: 3 models x 5 CV splits")
    assert lines[3] == words
