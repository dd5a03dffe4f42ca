"""RaceSearchCV and RaceRandomizedSearchCV: the drops against a written-out corrected t with Holm.

Every decision the search took is replayed from the scores it recorded in
``cv_results_``: at each look from ``min_splits`` on, the one-sided corrected
t-test (scipy's t distribution) of the running candidate with the highest mean
against every other running one, Holm-adjusted by statsmodels, at the look's
level: ``alpha / (n_splits - min_splits + 1)`` for Bonferroni, the normal tail
``2 (1 - Phi(c_k))`` of the Lan–DeMets bound for Pocock- and O'Brien–Fleming-type
spending (the bounds are checked against ldbounds in tests/stats/test_spending.py).
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from scipy.stats import loguniform
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    ParameterSampler,
    ShuffleSplit,
    TimeSeriesSplit,
)
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks
from statsmodels.stats.multitest import multipletests

import pdcompare
from pdcompare.scale import RaceRandomizedSearchCV, RaceSearchCV
from pdcompare.scale.race import race_ranks
from pdcompare.stats.spending import critical_values

GRID = {"max_depth": [1, 2, 3, 5, 8], "min_samples_leaf": [1, 20]}
TIMES = ("mean_fit_time", "std_fit_time", "mean_score_time", "std_score_time")


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=600, n_features=8, n_informative=4, random_state=0)


@pytest.fixture(scope="module")
def fitted(data):
    X, y = data
    cv = KFold(10, shuffle=True, random_state=0)
    search = RaceSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=cv, min_splits=3)
    return search.fit(X, y)


def split_scores(results, metric="score"):
    n = sum(key.startswith("split") and key.endswith(f"_test_{metric}") for key in results)
    return np.column_stack([results[f"split{s}_test_{metric}"] for s in range(n)])


def written_out_levels(alpha, n, min_splits, spending):
    """The level of each look k = min_splits, ..., n."""
    looks = n - min_splits + 1
    if spending == "bonferroni":
        return np.full(looks, alpha / looks)
    bounds = critical_values(np.arange(min_splits, n + 1) / n, alpha, spending)
    return 2 * stats.norm.sf(bounds)


def written_out_race(scores, ratio, alpha, min_splits, spending="pocock"):
    """The race replayed candidate by candidate, look by look (scipy t, statsmodels Holm)."""
    n_candidates, n = scores.shape
    levels = written_out_levels(alpha, n, min_splits, spending)
    running = list(range(n_candidates))
    dropped_at = np.full(n_candidates, np.nan)
    best_at = {}
    for k in range(min(min_splits, n), n + 1):
        means = {j: scores[j, :k].mean() for j in running}
        best = max(running, key=lambda j: (means[j], -j))
        others = [j for j in running if j != best]
        if not others:
            continue
        pvalues = []
        for j in others:
            d = scores[best, :k] - scores[j, :k]
            se = np.sqrt(d.var(ddof=1) * (1 / k + ratio))
            if se == 0:
                pvalues.append(0.0 if d.mean() > 0 else (0.5 if d.mean() == 0 else 1.0))
            else:
                pvalues.append(stats.t.sf(d.mean() / se, k - 1))
        # Holm over the others, times the number running (the best was chosen among them).
        adjusted = np.minimum(multipletests(pvalues, method="holm")[1] * len(running), 1.0)
        for j, p_adj in zip(others, adjusted, strict=True):
            if p_adj <= levels[k - min_splits]:
                dropped_at[j] = k
                best_at[j] = best
        running = [j for j in running if np.isnan(dropped_at[j])]
    return dropped_at, best_at


def test_drops_equal_a_written_out_corrected_t_with_holm(fitted):
    results = fitted.cv_results_
    dropped_at, best_at = written_out_race(split_scores(results), 1 / 9, 0.05, 3)
    np.testing.assert_array_equal(results["dropped_at"], dropped_at)
    assert np.isfinite(dropped_at).sum() >= 2  # the depth-1 trees are clear losers
    race = fitted.race_
    assert race["dropped_at"].dtype == "Int64"  # a split count prints as an integer
    np.testing.assert_array_equal(race["dropped_at"].to_numpy(float, na_value=np.nan), dropped_at)
    for j, best in best_at.items():
        assert race.loc[j, "best_at_drop"] == best
    levels = written_out_levels(0.05, 10, 3, "pocock")
    look = np.where(np.isnan(dropped_at), 10, dropped_at).astype(int) - 3
    np.testing.assert_allclose(race["level"], levels[look], rtol=1e-9)
    np.testing.assert_allclose(2 * stats.norm.sf(race["critical_value"]), race["level"])
    assert list(race.columns) == [
        "params",
        "dropped_at",
        "best_at_drop",
        "pvalue",
        "pvalue_adj",
        "level",
        "critical_value",
    ]
    assert race.attrs["pdcompare"]["spending"] == "pocock"


@pytest.mark.parametrize("spending", ["obf", "bonferroni"])
def test_other_spending_rules_replay(data, spending):
    X, y = data
    search = RaceSearchCV(
        DecisionTreeClassifier(random_state=0), GRID, cv=KFold(10, shuffle=True, random_state=0),
        min_splits=3, spending=spending,
    ).fit(X, y)  # fmt: skip
    results = search.cv_results_
    dropped_at, _ = written_out_race(split_scores(results), 1 / 9, 0.05, 3, spending)
    np.testing.assert_array_equal(results["dropped_at"], dropped_at)


def test_min_difference_is_the_first_look_threshold_written_out(fitted):
    scores = split_scores(fitted.cv_results_)[:, :3]
    r = scores.shape[0]
    best = int(np.argmax(scores.mean(axis=1)))
    level = written_out_levels(0.05, 10, 3, "pocock")[0]
    quantile = stats.t.isf(level / (r * (r - 1)), 2)
    smallest = min(
        quantile * np.sqrt((scores[best] - scores[j]).var(ddof=1) * (1 / 3 + 1 / 9))
        for j in range(r) if j != best
    )  # fmt: skip
    assert fitted.race_.attrs["pdcompare"]["min_difference"] == pytest.approx(smallest)


def test_pvalues_at_the_drop_equal_scipy(fitted):
    scores = split_scores(fitted.cv_results_)
    race = fitted.race_
    for j in np.flatnonzero(race["dropped_at"].notna()):
        k = int(race.loc[j, "dropped_at"])
        d = scores[race.loc[j, "best_at_drop"], :k] - scores[j, :k]
        t = d.mean() / np.sqrt(d.var(ddof=1) * (1 / k + 1 / 9))
        assert race.loc[j, "pvalue"] == pytest.approx(stats.t.sf(t, k - 1), rel=1e-10)
        assert race.loc[j, "pvalue_adj"] >= race.loc[j, "pvalue"]


def test_scores_after_a_drop_are_nan_and_means_over_the_splits_run(fitted):
    results = fitted.cv_results_
    scores = split_scores(results)
    for j, k in enumerate(results["dropped_at"]):
        ran = scores.shape[1] if np.isnan(k) else int(k)
        assert not np.isnan(scores[j, :ran]).any()
        assert np.isnan(scores[j, ran:]).all()
        assert results["mean_test_score"][j] == pytest.approx(scores[j, :ran].mean(), rel=1e-12)
        assert results["std_test_score"][j] == pytest.approx(scores[j, :ran].std(), rel=1e-12)
        assert np.isfinite(results["mean_fit_time"][j])


def test_ranks_running_first_then_dropped_latest_first(fitted):
    results = fitted.cv_results_
    frame = pd.DataFrame({"mean": results["mean_test_score"], "dropped_at": results["dropped_at"]})
    frame["running"] = frame["dropped_at"].isna()
    expected = frame.sort_values(
        ["running", "dropped_at", "mean"], ascending=[False, False, False], kind="stable"
    ).index
    assert list(np.argsort(results["rank_test_score"], kind="stable")) == list(expected)
    assert np.isnan(results["dropped_at"][fitted.best_index_])
    running = np.isnan(results["dropped_at"])
    assert fitted.best_score_ == results["mean_test_score"][running].max()


def test_no_drop_before_min_splits(data):
    X, y = data
    search = RaceSearchCV(
        DecisionTreeClassifier(random_state=0),
        GRID,
        cv=KFold(8, shuffle=True, random_state=1),
        min_splits=6,
        spending="bonferroni",
    ).fit(X, y)
    dropped = search.cv_results_["dropped_at"]
    assert (dropped[np.isfinite(dropped)] >= 6).all()
    assert not np.isnan(split_scores(search.cv_results_)[:, :6]).any()
    assert search.race_["level"].iloc[0] == pytest.approx(0.05 / 3)


def test_min_splits_above_the_splits_is_refused(data):
    X, y = data
    search = RaceSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=4, min_splits=5)
    with pytest.raises(ValueError, match="`min_splits=5` is above the 4 splits of `cv`"):
        search.fit(X, y)


def test_min_splits_at_the_splits_looks_once_at_the_end_and_warns(data):
    X, y = data
    search = RaceSearchCV(
        DecisionTreeClassifier(random_state=0), GRID, cv=4, min_splits=4, alpha=0.2
    )
    with pytest.warns(pdcompare.PdcompareWarning, match="could not drop a candidate early"):
        search.fit(X, y)
    scores = split_scores(search.cv_results_)
    assert not np.isnan(scores).any()
    dropped_at, _ = written_out_race(scores, 1 / 3, 0.2, 4)
    np.testing.assert_array_equal(search.cv_results_["dropped_at"], dropped_at)
    assert search.race_["level"].iloc[0] == pytest.approx(0.2)


def test_cv_results_equal_grid_search_when_nothing_is_dropped(data):
    X, y = data
    grid = {"max_depth": [3, 4, 5], "min_samples_leaf": [1, 2]}
    cv = KFold(6, shuffle=True, random_state=0)
    estimator = DecisionTreeClassifier(random_state=0)
    race = RaceSearchCV(estimator, grid, cv=cv, alpha=1e-9).fit(X, y)
    reference = GridSearchCV(estimator, grid, cv=cv).fit(X, y)
    assert np.isnan(race.cv_results_["dropped_at"]).all()
    expected = reference.cv_results_
    assert list(race.cv_results_) == [*expected, "dropped_at"]
    for key, value in expected.items():
        if key in TIMES:
            continue
        got = race.cv_results_[key]
        if key == "params":
            assert got == value
        elif isinstance(value, np.ma.MaskedArray):
            np.testing.assert_array_equal(got.mask, value.mask)
            np.testing.assert_array_equal(got.data, value.data)
        else:
            np.testing.assert_allclose(got, value, rtol=0, atol=1e-12)
            assert got.dtype == value.dtype, key
    assert race.best_params_ == reference.best_params_
    assert race.best_index_ == reference.best_index_


def test_clone_params_fit_predict_score(fitted, data):
    X, y = data
    copy = clone(fitted)
    assert copy.get_params(deep=False).keys() == fitted.get_params(deep=False).keys()
    assert not hasattr(copy, "cv_results_")
    assert copy.set_params(alpha=0.1, estimator__max_depth=4).alpha == 0.1
    assert copy.estimator.max_depth == 4
    assert set(fitted.get_params(deep=False)) == {
        "estimator",
        "param_grid",
        "scoring",
        "cv",
        "alpha",
        "min_splits",
        "n_jobs",
        "refit",
        "random_state",
        "spending",
    }
    np.testing.assert_array_equal(fitted.predict(X), fitted.best_estimator_.predict(X))
    assert fitted.score(X, y) == fitted.best_estimator_.score(X, y)
    np.testing.assert_allclose(fitted.predict_proba(X), fitted.best_estimator_.predict_proba(X))
    assert fitted.best_estimator_.get_params()["max_depth"] == fitted.best_params_["max_depth"]


def test_refit_false_has_no_best_estimator(data):
    X, y = data
    search = RaceSearchCV(
        DecisionTreeClassifier(random_state=0), GRID, cv=5, min_splits=3, refit=False
    )
    search.fit(X, y)
    assert not hasattr(search, "best_estimator_")
    assert np.isnan(search.cv_results_["dropped_at"][search.best_index_])


def test_multi_metric_races_on_the_refit_metric(data):
    X, y = data
    scoring = {"acc": "accuracy", "bal": "balanced_accuracy"}
    cv = KFold(8, shuffle=True, random_state=2)
    search = RaceSearchCV(
        DecisionTreeClassifier(random_state=0),
        GRID,
        scoring=scoring,
        refit="bal",
        cv=cv,
        min_splits=3,
    ).fit(X, y)
    results = search.cv_results_
    dropped_at, _ = written_out_race(split_scores(results, "bal"), 1 / 7, 0.05, 3)
    np.testing.assert_array_equal(results["dropped_at"], dropped_at)
    assert np.isfinite(dropped_at).any()
    assert search.best_index_ == int(np.argmin(results["rank_test_bal"]))
    assert search.best_score_ == results["mean_test_bal"][search.best_index_]
    # The other metric ran on the same splits: NaN exactly where the racing metric is.
    np.testing.assert_array_equal(
        np.isnan(split_scores(results, "acc")), np.isnan(split_scores(results, "bal"))
    )
    assert search.race_.attrs["pdcompare"]["metric"] == "bal"


def test_multi_metric_without_a_refit_metric_is_refused(data):
    X, y = data
    search = RaceSearchCV(
        DecisionTreeClassifier(), GRID, scoring=["accuracy", "f1"], refit=False, cv=5
    )
    with pytest.raises(ValueError, match="races on one: pass `refit=`"):
        search.fit(X, y)


@pytest.mark.slow
def test_randomized_race_is_reproducible_and_samples_as_randomized_search(data):
    X, y = data
    distributions = {"C": loguniform(1e-6, 100)}
    cv = ShuffleSplit(8, test_size=0.2)  # no random_state: the race's seeds it
    runs = [
        RaceRandomizedSearchCV(
            LogisticRegression(), distributions, n_iter=6, cv=cv, random_state=3
        ).fit(X, y)
        for _ in range(2)
    ]
    np.testing.assert_array_equal(
        split_scores(runs[0].cv_results_), split_scores(runs[1].cv_results_)
    )
    pd.testing.assert_frame_equal(runs[0].race_, runs[1].race_)
    # RandomizedSearchCV's candidates: its ParameterSampler with the same seed.
    assert runs[0].cv_results_["params"] == list(
        ParameterSampler(distributions, 6, random_state=3)
    )
    assert cv.random_state is None  # the caller's splitter is left as it was
    dropped_at, _ = written_out_race(split_scores(runs[0].cv_results_), 0.25, 0.05, 5)
    np.testing.assert_array_equal(runs[0].cv_results_["dropped_at"], dropped_at)


def test_explicit_splits_give_the_ratio(data):
    X, y = data
    splits = list(KFold(6).split(X))
    search = RaceSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=splits).fit(X, y)
    design = search.race_.attrs["pdcompare"]["design"]
    assert design["test_train_ratio"] == pytest.approx(1 / 5)
    dropped_at, _ = written_out_race(split_scores(search.cv_results_), 1 / 5, 0.05, 5)
    np.testing.assert_array_equal(search.cv_results_["dropped_at"], dropped_at)


def test_from_search_names_of_every_candidate(fitted):
    names = [f"tree{j}" for j in range(len(fitted.cv_results_["params"]))]
    scores = pdcompare.from_search(fitted, names=names)
    running = np.flatnonzero(np.isnan(fitted.cv_results_["dropped_at"]))
    assert list(scores.index) == [names[j] for j in running]


def test_from_search_compares_the_running_candidates(fitted):
    scores = pdcompare.from_search(fitted)
    running = np.flatnonzero(np.isnan(fitted.cv_results_["dropped_at"]))
    assert scores.shape == (len(running), 10)
    assert scores.attrs["pdcompare"]["rows"] == running.tolist()
    assert scores.attrs["pdcompare"]["race"]["dropped"] == int(
        (~np.isnan(fitted.cv_results_["dropped_at"])).sum()
    )
    assert not scores.isna().any().any()
    np.testing.assert_array_equal(scores.to_numpy(), split_scores(fitted.cv_results_)[running])
    assert scores.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(1 / 9)


@pytest.mark.parametrize(
    ("keywords", "match"),
    [
        ({"alpha": 1.5}, "'alpha' parameter"),
        ({"min_splits": 1}, "'min_splits' parameter"),
        ({"spending": "linear"}, "'spending' parameter"),
        ({"refit": "auc"}, "refit"),
        ({"cv": TimeSeriesSplit(5)}, "time-ordered"),
    ],
)
def test_bad_input_is_named(data, keywords, match):
    X, y = data
    search = RaceSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, **keywords)
    with pytest.raises(ValueError, match=match):
        search.fit(X, y)


def test_fit_leaves_the_estimator_and_grid_alone(data):
    X, y = data
    grid = {"max_depth": [1, 3]}
    estimator = DecisionTreeClassifier(random_state=0)
    RaceSearchCV(estimator, grid, cv=4, min_splits=3).fit(X, y)
    assert grid == {"max_depth": [1, 3]}
    assert not hasattr(estimator, "tree_")


def test_import_pdcompare_does_not_import_sklearn():
    import subprocess
    import sys

    code = "import sys, pdcompare; print('sklearn' in sys.modules); pdcompare.RaceSearchCV"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@given(
    means=st.lists(st.floats(0, 1), min_size=1, max_size=12),
    data=st.data(),
)
def test_race_ranks_put_running_first_and_permute_with_the_candidates(means, data):
    n = len(means)
    dropped = data.draw(st.lists(st.sampled_from([np.nan, 5.0, 6.0, 7.0]), min_size=n, max_size=n))
    means, dropped = np.array(means), np.array(dropped)
    ranks = race_ranks(means, dropped)
    running = np.isnan(dropped)
    if running.any() and (~running).any():
        assert ranks[running].max() < ranks[~running].min()
    assert ranks.min() == 1
    perm = np.array(data.draw(st.permutations(range(n))))
    np.testing.assert_array_equal(race_ranks(means[perm], dropped[perm]), ranks[perm])
    # Among the running candidates: scipy's ranks of the negated means.
    if running.any():
        expected = stats.rankdata(-means[running], method="min")
        np.testing.assert_array_equal(ranks[running], expected)


# scikit-learn's own checks for estimators, as it runs them on GridSearchCV. Expected failures:
# those scikit-learn expects of GridSearchCV, and `check_dtype_object`: a race fits split by
# split, so a round in which every running fit fails raises at once (GridSearchCV counts
# failures over all splits together).
@parametrize_with_checks(
    [RaceSearchCV(Ridge(), {"alpha": [0.1, 1.0]}, cv=3, min_splits=2)],
    expected_failed_checks=lambda estimator: {
        "check_supervised_y_2d": "DataConversionWarning not caught (as GridSearchCV)",
        "check_estimators_nan_inf": "scoring warnings (scikit-learn's FIXME for GridSearchCV)",
        "check_dtype_object": "a round whose fits all fail raises",
    },
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_random_state_seeds_a_shuffling_splitter_without_one(data):
    X, y = data
    cv = KFold(6, shuffle=True)
    runs = [
        RaceSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=cv, random_state=7).fit(X, y)
        for _ in range(2)
    ]
    np.testing.assert_array_equal(
        split_scores(runs[0].cv_results_), split_scores(runs[1].cv_results_)
    )
    seeded = GridSearchCV(
        DecisionTreeClassifier(random_state=0), GRID, cv=KFold(6, shuffle=True, random_state=7)
    ).fit(X, y)
    ran = ~np.isnan(split_scores(runs[0].cv_results_))
    np.testing.assert_array_equal(
        split_scores(runs[0].cv_results_)[ran], split_scores(seeded.cv_results_)[ran]
    )
    assert cv.random_state is None
    assert pdcompare.RaceSearchCV is RaceSearchCV


@pytest.mark.slow
def test_n_jobs_gives_the_same_race(data, fitted):
    X, y = data
    parallel = clone(fitted).set_params(n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(
        split_scores(parallel.cv_results_), split_scores(fitted.cv_results_)
    )
    pd.testing.assert_frame_equal(parallel.race_, fitted.race_)
