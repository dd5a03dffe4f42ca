"""plot() of a fitted race: running means against a written-out cumulative mean, drops marked."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeClassifier

import pdcompare
from pdcompare.presentation.plotting.race import race_paths
from pdcompare.scale import RaceSearchCV


@pytest.fixture(scope="module")
def race():
    X, y = make_classification(n_samples=600, n_informative=4, random_state=0)
    grid = {"max_depth": [1, 2, 4, 8], "min_samples_leaf": [1, 30]}
    cv = KFold(8, shuffle=True, random_state=0)
    return RaceSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv).fit(X, y)


def test_paths_are_running_means_and_corrected_intervals(race):
    paths = race_paths(race)
    results = race.cv_results_
    scores = np.column_stack([results[f"split{s}_test_score"] for s in range(8)])
    order = np.argsort(results["rank_test_score"], kind="stable")
    for row, j in enumerate(order):
        ran = int(np.isfinite(scores[j]).sum())
        for k in range(2, ran + 1):
            window = scores[j, :k]
            assert paths["mean"][row, k - 1] == pytest.approx(window.mean(), rel=1e-12)
            half = stats.t.ppf(0.975, k - 1) * window.std(ddof=1) * np.sqrt(1 / k + 1 / 7)
            assert paths["high"][row, k - 1] == pytest.approx(window.mean() + half, rel=1e-9)
        assert np.isnan(paths["mean"][row, ran:]).all()
    assert np.isnan(paths["high"][:, 0]).all()


def test_plot_draws_every_candidate_and_marks_the_drops(race):
    ax = pdcompare.plot(race)
    assert ax.get_title() == "A race of 8 candidates: running mean per split"
    names = [text.get_text() for text in ax.get_legend().get_texts()]
    assert names == race_paths(race)["names"]
    crosses = [line for line in ax.get_lines() if line.get_marker() == "x"]
    assert len(crosses) == int(np.isfinite(race.cv_results_["dropped_at"]).sum()) > 0
    assert pdcompare.plot(race, "race").get_title() == ax.get_title()


def test_more_than_top_candidates_names_the_best_and_says_so(race):
    ax = pdcompare.plot(race, top=3)
    assert len(ax.get_legend().get_texts()) == 3
    assert ax.get_title().endswith("(best 3 of 8 candidates, the others grey)")


def test_wrong_kinds_are_named(race):
    with pytest.raises(ValueError, match="a fitted race draws kind=None or 'race'"):
        pdcompare.plot(race, "folds")
    scores = pd.DataFrame(np.random.default_rng(0).normal(size=(2, 5)))
    with pytest.raises(TypeError, match=r"pass the `pdcompare\.RaceSearchCV`"):
        pdcompare.plot(scores, "race")
