"""The report's words: one number format per kind, magnitudes that agree with their values,
counts as integers, missing values blank, names with ", " quoted, the metric named.

Issue 47, item 10, and item 8's intervals of mean scores. References: the magnitude
of ``stats.effect_size.magnitude`` (Cohen's cut points), scipy's t quantile for the
interval before clipping, and the numbers written out in each test.
"""

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare.cli.outputs import table_text
from pdcompare.compare.power import detectable_difference
from pdcompare.datasets import load_benchmark, load_grid_search_scores
from pdcompare.presentation.labels import format_effect, format_significant, join_names
from pdcompare.presentation.report.document import _pipe_table
from pdcompare.presentation.styling import column_formatters
from pdcompare.stats.effect_size import THRESHOLDS, magnitude


def pair_line(text, a, b):
    return next(line for line in text.splitlines() if line.startswith(f"  {a} vs {b}: "))


def hundreds(n_models=4, n_splits=10, seed=3):
    """Scores in the hundreds (a regression loss made positive): differences of hundreds."""
    rng = np.random.default_rng(seed)
    fold = rng.normal(0.0, 300.0, n_splits)
    values = 5000.0 + fold + rng.normal(0.0, 600.0, (n_models, n_splits))
    values += np.linspace(600.0, 0.0, n_models)[:, None]
    frame = pd.DataFrame(values, index=[f"r{k}" for k in range(n_models)])
    return frame.cmp.set_design(cv=n_splits)


def exact_dz(dz, n_splits=100, scale=0.01, seed=0):
    """Two models whose differences have d_z exactly ``dz`` (mean / sd, ddof=1)."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n_splits)
    z = (z - z.mean()) / z.std(ddof=1)
    base = 0.8 + rng.normal(0.0, 0.02, n_splits)
    frame = pd.DataFrame(
        [base + scale * (dz + z), base],
        index=["a", "b"],
        columns=[f"s{k}" for k in range(n_splits)],
    )
    return frame.cmp.set_design(cv=10)


# -- one format for the detectable sizes ------------------------------------------------


def test_detectable_sizes_never_in_scientific_notation_beside_fixed_differences():
    text = hundreds().cmp.report()
    detect = re.findall(r"could detect about (\S+) or more", text)
    assert detect, text
    assert not any("e" in value for value in detect)
    assert "e+" not in text
    # Written out: the mdd of the non-significant pairs of the family (every pair of 4
    # models, Bonferroni 0.05/6), rounded to integers (3 significant digits never round
    # away digits left of the point).
    frame = hundreds()
    result = frame.cmp.pairwise()
    mdd = detectable_difference(frame, result)[~result["reject"].to_numpy()]
    assert mdd.min() > 100
    assert detect == [f"{value:.0f}" for value in mdd]


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0.12, "0.120"), (0.067, "0.0670"), (0.06213, "0.0621"), (1453.2, "1453"),
     (0.09996, "0.100"), (9.996, "10.0"), (0.0, "0.00"), (-0.0472, "-0.0472")],
)  # fmt: skip
def test_sizes_share_three_significant_digits_with_trailing_zeros(value, expected):
    assert format_significant(value) == expected


@given(st.floats(min_value=1e-6, max_value=1e7, allow_nan=False))
def test_significant_digits_are_fixed_and_close(value):
    shown = format_significant(value)
    assert "e" not in shown
    assert_allclose(float(shown), value, rtol=5.01e-3)
    digits = shown.replace(".", "").lstrip("0")
    assert len(digits) >= 3


# -- a magnitude word and the value beside it agree ----------------------------------------


@given(
    st.floats(min_value=-3.0, max_value=3.0, allow_nan=False),
    st.sampled_from(["cohen_dz", "cliff_delta"]),
)
def test_shown_effect_falls_in_the_magnitude_of_the_unrounded_value(value, measure):
    shown = format_effect(value, THRESHOLDS[measure])
    assert magnitude([float(shown)], measure)[0] == magnitude([value], measure)[0]
    assert len(shown.split(".")[1]) >= 2


def test_probabilities_are_judged_by_their_distance_from_one_half():
    # A = 0.6396: |A - 1/2| = 0.1396 is small (cut 0.14); 0.64 would read medium.
    shown = format_effect(0.6396, THRESHOLDS["vargha_delaney"], center=0.5)
    assert shown == "0.6396"
    assert magnitude([0.6396], "vargha_delaney")[0] == 1


def test_a_medium_effect_never_reads_as_reaching_the_large_cut_point():
    text = exact_dz(0.797).cmp.report()
    line = pair_line(text, "a", "b")
    assert "SIGNIFICANT, medium effect (d_z = 0.797)." in line
    # Above the cut point, two decimals are enough and are kept.
    assert "large effect (d_z = 0.81)." in pair_line(exact_dz(0.81).cmp.report(), "a", "b")


# -- whose detectable difference it is -----------------------------------------------------


def test_detectable_difference_beside_a_rank_test_names_the_t_test():
    # The benchmark's default family is the Wilcoxon test across data sets.
    text = load_benchmark().cmp.report()
    assert "could detect about 0.0368 or more (power 0.8 for a paired t at 0.05/21)" in text
    assert "(power 0.8 at 0.05/21)" in load_benchmark().cmp.report(test="ttest")
    scores = load_grid_search_scores()
    with pytest.warns(UserWarning, match="treats the CV splits as independent"):
        text = scores.cmp.report(test="wilcoxon", cv=10)
    assert "(power 0.8 for the corrected t-test at 0.05/6)" in text
    assert "(power 0.8 at 0.05/6)" in scores.cmp.report(cv=10)


def test_the_benchmark_that_showed_it_reads_medium_0797_beside_large_081():
    text = load_benchmark().cmp.report()
    assert "SIGNIFICANT, medium effect (d_z = 0.797)." in pair_line(text, "svc_rbf", "logistic")
    assert "SIGNIFICANT, large effect (d_z = 0.81)." in pair_line(text, "svc_rbf", "lda")


# -- counts and missing values in tables ---------------------------------------------------


def test_counts_print_as_integers_and_missing_values_blank_in_every_format():
    frame = pd.DataFrame(
        {"model_1": ["a", "b"], "mean": [0.81234, np.nan], "n_runs": [4.0, 30.0],
         "n_runs_needed": [12.0, np.nan], "pvalue": [0.2, np.nan]}
    )  # fmt: skip
    text = table_text(frame, index=False)
    assert "nan" not in text.lower()
    assert "30.0" not in text
    assert "4.000" not in text
    assert text.splitlines()[1].split() == ["a", "0.8123", "4", "12", "0.2000"]
    assert text.splitlines()[2].split() == ["b", "30"]
    markdown = _pipe_table(frame)
    assert "| b |  | 30 |  |  |" in markdown
    html = frame.style.format(column_formatters(frame, 3)).to_html()
    assert "nan" not in html.lower()
    assert ">30<" in html
    assert ">4<" in html


def test_a_runs_summary_counts_runs_as_integers():
    rng = np.random.default_rng(0)
    runs = pd.DataFrame(0.7 + rng.normal(0, 0.03, (3, 6)), index=["x", "y", "z"])
    runs.iloc[0, 5] = np.nan
    runs = runs.cmp.set_design(paired=False)
    table = table_text(runs.cmp.summary())
    header = table.splitlines()[0].split()
    column = header.index("n_runs") + 1  # the index comes first on every row
    # Below the header: the index's name ("model"), then one row per model, best first.
    assert [line.split()[column] for line in table.splitlines()[2:]] == ["5", "6", "6"]


# -- names with ", " in lists ----------------------------------------------------------------


def test_names_with_a_comma_are_quoted_in_every_list_of_the_report():
    rng = np.random.default_rng(1)
    names = ["svc(C=1, gamma=0.1)", "tree", "knn(k=5, p=2)"]
    values = np.array([[0.95], [0.70], [0.50]]) + rng.normal(0, 0.01, (3, 10))
    frame = pd.DataFrame(values, index=names).cmp.set_design(cv=10)
    text = frame.cmp.report(correction=None)
    ranking = next(line for line in text.splitlines() if line.startswith("Mean scores"))
    assert ranking.startswith("Mean scores, best first: 'svc(C=1, gamma=0.1)' 0.9")
    assert "; 'knn(k=5, p=2)' 0.4" in ranking
    assert "every other model (tree and 'knn(k=5, p=2)')" in text
    assert join_names(names, sentence=True) == "'svc(C=1, gamma=0.1)', tree and 'knn(k=5, p=2)'"


# -- the metric named, and intervals of a bounded metric within [0, 1] -------------------------


def _search(scoring):
    from sklearn.datasets import load_iris
    from sklearn.model_selection import GridSearchCV, KFold
    from sklearn.neighbors import KNeighborsClassifier

    # Versicolor against virginica: accuracies near 1 on folds of 10, intervals past it.
    X, y = load_iris(return_X_y=True)
    X, y = X[50:], y[50:]
    grid = GridSearchCV(
        KNeighborsClassifier(), {"n_neighbors": [1, 5, 15, 45]},
        cv=KFold(10, shuffle=True, random_state=0), scoring=scoring,
    )  # fmt: skip
    return grid.fit(X, y)


def test_report_names_the_metric_and_clips_mean_intervals_of_accuracy():

    scores = pdcompare.from_search(_search("accuracy"))
    assert scores.attrs["pdcompare"]["metric"] == "accuracy"
    summary = scores.cmp.summary()
    assert summary["ci_high"].max() <= 1.0
    assert summary["ci_low"].min() >= 0.0
    # The interval before clipping, written out: the corrected t (Nadeau–Bengio).
    values = scores.to_numpy()
    n = values.shape[1]
    ratio = scores.attrs["pdcompare"]["design"]["test_train_ratio"]
    se = values.std(axis=1, ddof=1) * np.sqrt(1 / n + ratio)
    high = values.mean(axis=1) + stats.t.ppf(0.975, n - 1) * se
    assert (high > 1.0).any()  # the frame did reach past 1 before
    expected = np.minimum(high, 1.0)
    assert_allclose(summary["ci_high"].to_numpy(), expected[np.argsort(-values.mean(axis=1))])
    text = scores.cmp.report()
    assert "\nMetric: accuracy.\n" in text
    clipped = int(
        (high > 1.0).sum() + (values.mean(axis=1) - (high - values.mean(axis=1)) < 0).sum()
    )
    assert (
        "Intervals of mean scores are clipped to [0, 1], the range of accuracy; "
        f"{clipped} of the 4 intervals reached past it." in text
    )
    assert text.count("clipped to [0, 1]") == 1


def test_an_unbounded_metric_is_named_and_not_clipped():

    scores = pdcompare.from_search(_search("neg_log_loss"))
    assert "bounds" not in scores.cmp.summary().attrs["pdcompare"]
    assert "\nMetric: neg_log_loss.\n" in scores.cmp.report()


def test_cv_scores_records_the_metric():
    from sklearn.datasets import load_breast_cancer
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    models = {"d1": DecisionTreeClassifier(max_depth=1), "d3": DecisionTreeClassifier(max_depth=3)}
    both = pdcompare.cv_scores(
        models, X[:150], y[:150], cv=5, scoring={"auc": "roc_auc", "ll": "neg_log_loss"}
    )
    assert both["auc"].attrs["pdcompare"]["metric"] == "auc"
    assert both["auc"].attrs["pdcompare"]["bounded"] is True
    assert both["ll"].attrs["pdcompare"]["bounded"] is False


def test_from_search_with_the_estimators_own_score_names_it():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_iris(return_X_y=True)
    tree = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 4]}, cv=5)
    meta = pdcompare.from_search(tree.fit(X, y)).attrs["pdcompare"]
    # ClassifierMixin.score is the accuracy; RegressorMixin.score the R² (not bounded below).
    assert (meta["metric"], meta["bounded"]) == ("accuracy", True)
    ridge = GridSearchCV(Ridge(), {"alpha": [0.1, 10.0]}, cv=5).fit(X, y)
    meta = pdcompare.from_search(ridge).attrs["pdcompare"]
    assert (meta["metric"], meta["bounded"]) == ("r2", False)


def test_forecast_report_quotes_names_and_shows_losses_in_one_format():
    rng = np.random.default_rng(0)
    y = np.cumsum(rng.normal(size=200))
    names = ["arima(1, 1, 0)", "naive", "ets(A, N, N)"]
    errors = dict(zip(names, (1.0, 30.0, 2.0), strict=True))
    frame = pd.DataFrame(
        {"y": y, **{name: y + rng.normal(0, s, 200) for name, s in errors.items()}},
        index=pd.date_range("2024-01-01", periods=200),  # time-ordered: a forecasts frame
    )
    text = frame.cmp.report(random_state=0)
    losses = next(line for line in text.splitlines() if line.startswith("Mean losses"))
    means = ((frame[names].to_numpy() - y[:, None]) ** 2).mean(axis=0)
    # 4 significant digits, fixed notation: the loss of 'naive' in the hundreds too.
    shown = {name: format_significant(value, 4) for name, value in zip(names, means, strict=True)}
    assert "e+" not in losses
    assert f"'arima(1, 1, 0)' {shown['arima(1, 1, 0)']}" in losses
    assert f"'ets(A, N, N)' {shown['ets(A, N, N)']}; naive {shown['naive']}" in losses
    assert "''" not in text


def test_pooled_lines_show_tau_squared_in_fixed_notation_with_trailing_zeros():
    bench = load_benchmark()
    with pytest.warns(UserWarning, match="fold differences are the same on every fold"):
        text = bench.cmp.report(pooled=True)
    pooled = bench.cmp.random_effects("svc_rbf", "knn")
    tau2 = float(pooled["tau2"].iloc[0])
    assert 0.0015 < tau2 < 0.0025  # so "0.002" by %g, "0.0020" at 2 significant digits
    line = next(line for line in text.splitlines() if line.startswith("  svc_rbf vs knn: pooled"))
    assert f"tau² = {format_significant(tau2, 2)}, " in line
    assert "tau² = 0.0020, " in line
    assert not re.search(r"tau² = [\d.]+e", text)


def test_a_rank_sum_with_ties_shows_its_half_not_three_decimals():
    from pdcompare.datasets import load_benchmark

    text = pdcompare.report(load_benchmark())
    assert "statistic = 85.5," in text
    assert "statistic = 85.500" not in text
