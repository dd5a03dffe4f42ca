"""benchmarks/validity.py: its learners against scikit-learn, and the --quick table."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "validity.py"


@pytest.fixture(scope="module")
def validity():
    spec = importlib.util.spec_from_file_location("validity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lda_matches_sklearn(validity):
    # The batched closed-form LDA against scikit-learn's LinearDiscriminantAnalysis
    # (solver "svd", priors from the class frequencies), split by split.
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    rng = np.random.default_rng(3)
    data = validity.make_data("linear", rng)
    x1, _ = validity.views(data, "linear", 1.0)
    y = data["y"]
    folds = validity.stratified_folds(y, 5, 2, rng)
    acc = validity.cv_accuracy("LDA", x1, y, folds)
    for r in range(2):
        for f in range(5):
            train, test = folds[r] != f, folds[r] == f
            model = LinearDiscriminantAnalysis().fit(x1[train], y[train])
            assert_allclose(acc[r, f], model.score(x1[test], y[test]))


def test_nearest_neighbour_matches_sklearn(validity):
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(4)
    data = validity.make_data("ring", rng)
    _, x2 = validity.views(data, "ring", 0.5)
    y = data["y"]
    folds = validity.stratified_folds(y, 10, 1, rng)
    acc = validity.cv_accuracy("1-NN", x2, y, folds)
    for f in range(10):
        train, test = folds[0] != f, folds[0] == f
        model = KNeighborsClassifier(n_neighbors=1).fit(x2[train], y[train])
        assert_allclose(acc[0, f], model.score(x2[test], y[test]))
    (pred,) = validity.fit_predict("1-NN", x2[:100], y[:100], [x2[100:]])
    assert_allclose(
        pred, KNeighborsClassifier(n_neighbors=1).fit(x2[:100], y[:100]).predict(x2[100:])
    )


def test_folds_are_stratified_partitions(validity):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, validity.N)
    folds = validity.stratified_folds(y, 10, 3, rng)
    for row in folds:
        assert np.bincount(row).tolist() == [validity.N // 10] * 10
        per_class = np.array([np.bincount(row[y == c], minlength=10) for c in (0, 1)])
        assert per_class.max(axis=1).tolist() == [math.ceil((y == c).sum() / 10) for c in (0, 1)]


def test_fitted_classifiers_equal_is_an_exact_null(validity):
    # One LDA rule applied to each view: its true error on view 1 and view 2 is the
    # same Gaussian integral, P(w.x + b correct), computed in closed form here.
    rng = np.random.default_rng(6)
    data = validity.make_data("linear", rng)
    x1, x2 = validity.views(data, "linear", 1.0)
    y = data["y"]
    stacked = np.vstack([x1[:100], x2[:100]])
    coef, intercept = validity.lda_fit(stacked, np.tile(y[:100], 2), np.ones((1, 200)))
    w, b = coef[0], intercept[0]
    p = w.size
    shift = validity.POPULATIONS["linear"]["delta"] / math.sqrt(p) * np.ones(p)
    sd = math.sqrt(2.0) * np.linalg.norm(w)  # latent variance 1 + noise variance 1
    accuracy = 0.5 * stats.norm.cdf((w @ shift + b) / sd) + 0.5 * stats.norm.cdf(-b / sd)
    # The same number describes both views (they are exchangeable given y); check by
    # simulation that the rule's accuracy on fresh data is close to it on either view.
    big = np.random.default_rng(8)
    yb = big.integers(0, 2, 200_000)
    z = big.standard_normal((yb.size, p)) + shift * yb[:, None]
    for _ in range(2):
        view = z + big.standard_normal(z.shape)
        assert abs(((view @ w + b > 0) == yb).mean() - accuracy) < 0.004


@pytest.mark.slow
def test_quick_run_writes_the_table(validity, tmp_path, capsys):
    out = tmp_path / "validity.md"
    table = validity.main(["--quick", "--jobs", "1", "--out", str(out)])
    capsys.readouterr()
    markdown = out.read_text(encoding="utf-8")
    csv = pd.read_csv(out.with_suffix(".csv"))
    pd.testing.assert_frame_equal(csv, table, check_exact=False, rtol=1e-5)

    tests = csv[~csv["design"].isin(["accuracy", "spread"])]
    # Every (design, test) row of the table, under the null for both populations, and
    # under the alternative except the "classifiers equal" design.
    expected = {(d, t) for d, t, _ in validity.ROWS}
    for pop in validity.POPULATIONS:
        null = tests[(tests["population"] == pop) & (tests["scenario"] == validity.NULL)]
        assert set(zip(null["design"], null["test"], strict=True)) == expected
        alt = tests[(tests["population"] == pop) & (tests["scenario"] == validity.ALT)]
        assert set(alt["design"]) == {d for d, _ in expected} - {"hold-out, classifiers equal"}
    assert (tests["reps"] == 40).all()
    # Rates are proportions of 40 replications; their standard errors the binomial ones.
    assert_allclose(tests["rate"] * 40, np.round(tests["rate"] * 40), atol=1e-6)
    assert tests["rate"].between(0, 1).all()
    assert_allclose(tests["se"], np.sqrt(tests["rate"] * (1 - tests["rate"]) / 40), rtol=1e-5)
    # The Markdown table: header, alignment row, one line per design/test row.
    lines = markdown.splitlines()
    assert lines[0].startswith("| design | test | LDA: type-I error | LDA: power |")
    assert len([ln for ln in lines[2 : 2 + len(validity.ROWS)] if ln.startswith("| ")]) == len(
        validity.ROWS
    )
    assert "over 40 data sets per population" in markdown
    # Mean accuracies: the null has A and B alike, the alternative makes A better.
    acc = csv[csv["design"] == "accuracy"].set_index(["population", "scenario", "test"])["rate"]
    for pop in validity.POPULATIONS:
        assert 0.6 < acc[pop, validity.NULL, "A"] < 0.95
        assert abs(acc[pop, validity.NULL, "A"] - acc[pop, validity.NULL, "B"]) < 0.02
        assert acc[pop, validity.ALT, "A"] > acc[pop, validity.ALT, "B"]
    # The spread rows: a standard deviation and a root mean square, both positive.
    spread = csv[csv["design"] == "spread"]
    assert set(spread["test"]) == {"sd_mean_diff", "rms_corrected_se"}
    assert len(spread) == 2 * 2 * len(validity.POPULATIONS)
    assert (spread["rate"] > 0).all()
    assert (spread["se"] > 0).all()


def test_results_do_not_depend_on_the_number_of_chunks(validity):
    one = validity.run_study(6, seed=1, jobs=1)
    # Same seeds dealt into other chunks: run the replications one by one.
    seeds = np.random.SeedSequence([1, 0]).spawn(6)
    runs = validity.run_chunk("linear", seeds[::-1])[::-1]
    key = (validity.NULL, "10x10 CV", "corrected_ttest")
    rate = np.mean([run[key][0] for run in runs])
    got = one.query(
        "population == 'linear' and scenario == 'equal' and design == '10x10 CV' "
        "and test == 'corrected_ttest'"
    )["rate"].iloc[0]
    assert rate == got
