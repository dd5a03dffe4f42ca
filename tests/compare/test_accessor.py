"""The accessor's foundation: summary, from_search, cv_scores, import cost, no mutation."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import load_iris, make_moons
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    RepeatedStratifiedKFold,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

import pdcompare
from pdcompare import PdcompareWarning

# --------------------------------------------------------------------------- summary


def test_summary_corrected_interval_matches_formula(random_scores):
    # 15 splits of 5-fold CV: n_test/n_train = 1/4, while 1/n = 1/15.
    summary = random_scores.cmp.summary(ci=0.9, cv=5)
    values = random_scores.to_numpy()
    n = values.shape[1]
    mean = values.mean(axis=1)
    sd = values.std(axis=1, ddof=1)
    half = stats.t.ppf(0.95, n - 1) * sd * np.sqrt(1 / n + 1 / 4)  # Nadeau & Bengio (2003)
    by_model = summary.loc[random_scores.index]
    np.testing.assert_allclose(by_model["mean"], mean, rtol=1e-12)
    np.testing.assert_allclose(by_model["std"], sd, rtol=1e-12)
    np.testing.assert_allclose(by_model["ci_low"], mean - half, rtol=1e-12)
    np.testing.assert_allclose(by_model["ci_high"], mean + half, rtol=1e-12)
    assert (by_model["n_splits"] == 15).all()
    assert summary.attrs["pdcompare"]["interval"] == "nadeau-bengio"
    assert list(summary.columns) == ["mean", "std", "n_splits", "rank", "ci_low", "ci_high"]


def test_summary_without_design_is_plain_t_interval(random_scores):
    with pytest.warns(PdcompareWarning, match=r"design is unknown.*plain t interval.*`cv=`"):
        summary = random_scores.cmp.summary()
    for model, row in random_scores.iterrows():
        low, high = stats.t.interval(
            0.95, len(row) - 1, loc=row.mean(), scale=stats.sem(row)
        )  # reference: scipy
        np.testing.assert_allclose(summary.loc[model, ["ci_low", "ci_high"]], [low, high])
    assert summary.attrs["pdcompare"]["interval"] == "t"


def test_summary_ranks_best_first_and_respects_losses(random_scores):
    random_scores = random_scores.cmp.set_design(cv=5)
    summary = random_scores.cmp.summary()
    assert list(summary["rank"]) == [1, 2, 3, 4, 5, 6]
    assert summary["mean"].is_monotonic_decreasing
    losses = random_scores.cmp.set_design(greater_is_better=False).cmp.summary()
    assert losses["mean"].is_monotonic_increasing
    assert losses.index[0] == summary.index[-1]


def test_summary_reference_values_of_the_gallery(gallery_scores):
    # DESIGN.md section 8: means rbf 0.9400, linear 0.9300, 3_poly 0.9044, 2_poly 0.6852.
    summary = gallery_scores.cmp.summary()
    np.testing.assert_allclose(summary["mean"], [0.9400, 0.9300, 0.9044, 0.6852], atol=5e-5)
    assert list(summary.index) == ["rbf", "linear", "3_poly", "2_poly"]
    # correlation across folds (DESIGN.md section 8)
    corr = gallery_scores.T.corr()
    np.testing.assert_allclose(
        corr.loc["rbf", ["linear", "3_poly", "2_poly"]], [0.882561, 0.783392, 0.351390], atol=1e-6
    )


@pytest.mark.parametrize("ci", [0, 1, 95])
def test_summary_ci_must_be_a_fraction(random_scores, ci):
    with pytest.raises(ValueError, match=r"`ci` must be strictly between 0 and 1"):
        random_scores.cmp.summary(ci=ci)


def test_methods_never_modify_the_frame_or_attrs(random_scores):
    random_scores.attrs = {"pdcompare": {"design": {"test_train_ratio": 0.25}}, "note": [1, 2]}
    snapshot = random_scores.copy()
    attrs = {"pdcompare": {"design": {"test_train_ratio": 0.25}}, "note": [1, 2]}
    random_scores.cmp.summary()
    random_scores.cmp.summary(cv=10)
    random_scores.cmp.set_design(greater_is_better=False)
    random_scores.cmp.scores()
    pd.testing.assert_frame_equal(random_scores, snapshot)
    assert random_scores.attrs == attrs


def test_accessor_keeps_no_state(random_scores):
    random_scores.cmp.set_design(cv=5)
    # set_design returns a copy; nothing sticks to the accessor or the original frame
    assert "pdcompare" not in random_scores.attrs
    with pytest.warns(PdcompareWarning, match="design is unknown"):
        assert random_scores.cmp.summary().attrs["pdcompare"]["interval"] == "t"


# --------------------------------------------------------------------------- scikit-learn


@pytest.mark.slow
def test_from_search_on_the_gallery_example():
    # DESIGN.md section 8 set-up, as in scikit-learn's gallery example.
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    grid = [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]}, {"kernel": ["rbf"]}]
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv).fit(X, y)
    scores = pdcompare.from_search(search)
    assert scores.shape == (4, 100)
    design = scores.attrs["pdcompare"]["design"]
    assert design["test_train_ratio"] == pytest.approx(10 / 90)
    assert "RepeatedStratifiedKFold" in design["source"]
    np.testing.assert_allclose(
        scores.mean(axis=1).sort_values(ascending=False), [0.94, 0.93, 0.9044, 0.6852], atol=5e-5
    )
    assert list(scores.cmp.summary().index) == [
        "rbf",
        "linear",
        "kernel=poly, degree=3",
        "kernel=poly, degree=2",
    ]
    bundled = pdcompare.datasets.load_grid_search_scores()
    np.testing.assert_allclose(scores.loc["rbf"].to_numpy(), bundled.loc["rbf"].to_numpy())


def test_from_search_default_cv_is_five_fold():
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 5]}).fit(X, y)
    scores = pdcompare.from_search(search)
    assert scores.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(0.25)
    assert list(scores.index) == ["n_neighbors=1", "n_neighbors=5"]


def test_from_search_needs_a_fitted_search():
    with pytest.raises(TypeError, match=r"fitted scikit-learn search.*Call `.fit\(X, y\)` first"):
        pdcompare.from_search(GridSearchCV(SVC(), {"C": [1]}))


@pytest.mark.slow
def test_cv_scores_runs_every_model_on_the_same_splits():
    X, y = load_iris(return_X_y=True)  # 150 samples, 5-fold x 3 repeats: 120 train, 30 test
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=1)
    estimators = {
        "logreg": LogisticRegression(max_iter=1000),
        "tree": DecisionTreeClassifier(random_state=0),
    }
    scores = pdcompare.cv_scores(estimators, X, y, cv=cv)
    assert scores.shape == (2, 15)
    design = scores.attrs["pdcompare"]["design"]
    assert (design["n_train"], design["n_test"]) == (120.0, 30.0)
    assert design["test_train_ratio"] == pytest.approx(0.25)
    for name, estimator in estimators.items():
        reference = cross_val_score(estimator, X, y, cv=cv)  # scikit-learn, same seeded splits
        np.testing.assert_allclose(scores.loc[name].to_numpy(), reference)


def test_cv_scores_rejects_unknown_designs_before_fitting():
    from sklearn.model_selection import LeavePOut

    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="`test_size=`"):
        pdcompare.cv_scores({"knn": KNeighborsClassifier()}, X, y, cv=LeavePOut(2))
    with pytest.raises(TypeError, match="non-empty dict"):
        pdcompare.cv_scores([KNeighborsClassifier()], X, y, cv=5)


# --------------------------------------------------------------------------- packaging


def test_import_is_light():
    code = (
        "import sys, pdcompare, pandas as pd;"
        "pd.DataFrame().cmp;"
        "heavy = [m for m in ('scipy.stats', 'statsmodels', 'matplotlib', 'sklearn')"
        " if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_import_and_a_first_summary_load_no_scipy():
    # scipy.special's import alone (~100 ms) would exceed the first call's budget
    code = (
        "import sys, pdcompare, pandas as pd, numpy as np;"
        "frame = pd.DataFrame(np.random.default_rng(0).normal(0.8, 0.05, (4, 10)));"
        "frame.cmp.summary(cv=10);"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_public_names():
    assert issubclass(pdcompare.PdcompareWarning, UserWarning)
    assert callable(pdcompare.from_search)
    assert callable(pdcompare.cv_scores)
    assert pdcompare.datasets.load_grid_search_scores().shape == (4, 100)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = pdcompare.nope


def test_bundled_scores_parse_to_the_exact_floats():
    # Python's float() rounds correctly; pandas 2's default CSV parser may be one bit off,
    # which would split tied Wilcoxon ranks between pandas versions.
    import csv
    from importlib import resources

    path = resources.files("pdcompare.datasets") / "data" / "grid_search_scores.csv"
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    exact = np.array([[float(x) for x in row[1:]] for row in rows[1:]])
    loaded = pdcompare.datasets.load_grid_search_scores()
    assert list(loaded.index) == [row[0] for row in rows[1:]]
    np.testing.assert_array_equal(loaded.to_numpy(), exact)
