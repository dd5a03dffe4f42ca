"""Saved ``cv_results_`` files and successive-halving searches (DESIGN §2, issue 12 items 1-2)."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy.stats import loguniform
from sklearn.datasets import load_digits, make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, RandomizedSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import pdcompare

X, Y = make_classification(n_samples=120, n_features=6, random_state=0)


def saved(search, tmp_path, name="cvr.csv"):
    path = tmp_path / name
    pd.DataFrame(search.cv_results_).to_csv(path)
    return pd.read_csv(path, index_col=0)


def fitted(search):
    return search.fit(X, Y)


SEARCHES = {
    "logspace grid": lambda: GridSearchCV(
        LogisticRegression(max_iter=500), {"C": np.logspace(-2, 2, 5)}, cv=5
    ),
    "random with scipy distributions": lambda: RandomizedSearchCV(
        LogisticRegression(max_iter=500),
        {"C": loguniform(1e-2, 1e2)},
        n_iter=4,
        cv=5,
        random_state=0,
    ),
    "grid of estimators in a pipeline": lambda: GridSearchCV(
        Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())]),
        [
            {"clf": [LogisticRegression(max_iter=500)], "clf__C": [0.1, 10.0]},
            {"clf": [DecisionTreeClassifier(random_state=0)], "clf__max_depth": [None, 3]},
        ],
        cv=5,
    ),
}


@pytest.mark.parametrize("kind", SEARCHES)
def test_a_saved_cv_results_reads_like_the_live_one(kind, tmp_path):
    search = fitted(SEARCHES[kind]())
    live = pd.DataFrame(search.cv_results_)
    back = saved(search, tmp_path)
    assert back["params"].map(type).eq(str).all()  # text in numpy-2 reprs, never parsed
    got, expected = back.cmp.scores(), live.cmp.scores()
    assert list(got.index) == list(expected.index)
    np.testing.assert_array_equal(got.to_numpy(), expected.to_numpy())
    summary = back.cmp.summary(cv=5)
    assert summary.index[0] == expected.index[int(search.best_index_)]
    # The parameters survive the file: the same values as search.cv_results_["params"].
    stored = got.attrs["pdcompare"]["params"]
    for name, params in zip(expected.index, live["params"], strict=True):
        for key, value in params.items():
            if hasattr(value, "get_params"):
                assert stored[name][key].startswith(type(value).__name__)
            else:
                assert (
                    stored[name][key] == pytest.approx(value)
                    if value is not None
                    else (stored[name][key] is None)
                )


def test_names_keep_their_keys_and_drop_a_shared_step_prefix(tmp_path):
    search = fitted(SEARCHES["grid of estimators in a pipeline"]())
    names = list(pd.DataFrame(search.cv_results_).cmp.scores().index)
    assert names == [
        "clf=LogisticRegression, clf__C=0.1",
        "clf=LogisticRegression, clf__C=10",
        "clf=DecisionTreeClassifier, clf__max_depth=None",
        "clf=DecisionTreeClassifier, clf__max_depth=3",
    ]
    assert list(saved(search, tmp_path).cmp.scores().index) == names
    pipe = GridSearchCV(
        Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression(max_iter=500))]),
        {"clf__C": [0.1, 1.0], "clf__solver": ["lbfgs", "saga"]},
        cv=3,
    ).fit(X, Y)
    assert list(pd.DataFrame(pipe.cv_results_).cmp.scores().index) == [
        "C=0.1, solver=lbfgs",
        "C=0.1, solver=saga",
        "C=1, solver=lbfgs",
        "C=1, solver=saga",
    ]


def test_select_by_a_parameter_of_a_saved_file(tmp_path):
    search = fitted(SEARCHES["logspace grid"]())
    back = saved(search, tmp_path)
    choice = back.cmp.select("one_se", by="C", cv=5)
    live = pd.DataFrame(search.cv_results_).cmp.select("one_se", by="C", cv=5)
    pd.testing.assert_frame_equal(choice, live)


def test_the_command_line_reads_a_saved_random_search(tmp_path):
    search = fitted(SEARCHES["random with scipy distributions"]())
    path = tmp_path / "cvr.csv"
    pd.DataFrame(search.cv_results_).to_csv(path)
    process = subprocess.run(
        [sys.executable, "-m", "pdcompare", str(path), "--cv", "5"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    best = pd.DataFrame(search.cv_results_).cmp.scores().index[int(search.best_index_)]
    assert f"Best model: {best}," in process.stdout


@pytest.fixture(scope="module")
def halving():
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    X_digits, y_digits = load_digits(return_X_y=True)
    return HalvingGridSearchCV(
        RandomForestClassifier(n_estimators=10, random_state=0),
        {"max_depth": [2, 4, 8, None], "max_features": ["sqrt", "log2"]},
        cv=5,
        factor=2,
        random_state=0,
    ).fit(X_digits, y_digits)


def test_halving_compares_the_last_iteration_and_agrees_with_best_index(halving):
    results = pd.DataFrame(halving.cv_results_)
    assert results["iter"].nunique() >= 3
    scores = pdcompare.from_search(halving)
    # The last iteration with at least two candidates (a lone final candidate has no rival).
    counts = results["iter"].value_counts()
    last = counts[counts >= 2].index.max()
    rows = np.flatnonzero(results["iter"] == last)
    assert scores.attrs["pdcompare"]["rows"] == rows.tolist()
    # Every row was fitted on the same resources; no candidate appears twice.
    resources = results.loc[rows, "n_resources"].to_numpy()
    assert (resources == resources[0]).all()
    assert scores.index.is_unique
    assert len(scores) == len(rows)
    pairs = scores.cmp.pairwise(cv=5)
    assert not (pairs["model_1"] == pairs["model_2"]).any()
    best_row = rows[int(np.argmax(results.loc[rows, "mean_test_score"]))]
    assert scores.cmp.summary().index[0] == scores.index[rows.tolist().index(best_row)]
    if counts[results["iter"].max()] >= 2:
        assert best_row == halving.best_index_
    # Another iteration on request, never mixed.
    first = pdcompare.from_search(halving, iteration=0)
    assert len(first) == 8
    assert first.attrs["pdcompare"]["rows"] == list(range(8))


def test_refit_rule_in_a_halving_search_returns_a_last_iteration_row(halving):
    from pdcompare import refit_rule

    results = halving.cv_results_
    counts = pd.Series(results["iter"]).value_counts()
    last = counts[counts >= 2].index.max()
    index = refit_rule("best", by="max_depth")(results)
    rows = np.flatnonzero(results["iter"] == last)
    assert index == rows[int(np.argmax(results["mean_test_score"][rows]))]
    chosen = refit_rule("one_se", by="max_depth", cv=5)(results)
    assert results["iter"][chosen] == last
