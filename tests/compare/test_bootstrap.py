"""Bootstrap on predictions: named scores, the two resampling paths, intervals, p-values, plots.

References: scikit-learn's metrics (the named scores must equal them, absent
classes included), statsmodels' ``proportion_confint``, ``scipy.stats.bootstrap``
and closed forms of the ideal bootstrap (the bootstrap variance of a mean of
0/1 values is ``p(1-p)/N``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn import metrics as skm

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare import PdcompareWarning
from pdcompare.stats.bootstrap import (
    encode_labels,
    paired_bootstrap,
    pattern_counts,
)
from pdcompare.stats.metrics import METRICS

SKLEARN_SCORES = {
    "accuracy": skm.accuracy_score,
    "balanced_accuracy": skm.balanced_accuracy_score,
    "recall_macro": lambda t, p: skm.recall_score(t, p, average="macro"),
    "precision_macro": lambda t, p: skm.precision_score(t, p, average="macro"),
    "f1_macro": lambda t, p: skm.f1_score(t, p, average="macro"),
}
CLASSIFICATION = list(SKLEARN_SCORES)


def sklearn_score(name, y_true, y_pred):
    """scikit-learn's value with its default zero_division, its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SKLEARN_SCORES[name](y_true, y_pred)


def three_class_predictions(n=300, seed=0, accuracies=(0.85, 0.75, 0.6)):
    """Truth with an uneven class balance and models of decreasing accuracy."""
    rng = np.random.default_rng(seed)
    y = rng.choice(3, size=n, p=[0.5, 0.3, 0.2])
    columns = {"y": y}
    for name, accuracy in zip(("forest", "svm", "tree"), accuracies, strict=True):
        wrong = (y + rng.integers(1, 3, size=n)) % 3
        columns[name] = np.where(rng.random(n) < accuracy, y, wrong)
    return pd.DataFrame(columns)


# --------------------------------------------------------------------------- named scores


@pytest.mark.parametrize("name", CLASSIFICATION)
@pytest.mark.parametrize("seed", range(5))
def test_count_scores_equal_sklearn_with_absent_classes(name, seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, size=30)
    y_pred = rng.integers(0, 4, size=30)
    # Class 4 is only predicted, class 5 only in the truth, class 3 never predicted.
    y_pred[:2] = 4
    y_true[2] = 5
    y_pred[y_pred == 3] = 0
    # The confusion counts over all 7 labels, one of which (6) appears nowhere.
    counts = skm.confusion_matrix(y_true, y_pred, labels=np.arange(7))
    # Reference: scikit-learn's metric with its defaults (zero_division="warn" acts as 0).
    expected = sklearn_score(name, y_true, y_pred)
    assert_allclose(METRICS[name].from_counts(counts), expected, rtol=1e-12)
    frame = pd.DataFrame({"y": y_true, "m": y_pred})
    estimate = frame.cmp.bootstrap(name, n_resamples=2, random_state=0)["estimate"]
    assert_allclose(estimate["m"], expected, rtol=1e-12)


def test_count_scores_on_string_labels_equal_sklearn():
    rng = np.random.default_rng(1)
    labels = np.array(["cat", "dog", "emu"])
    y_true = labels[rng.integers(0, 3, 50)]
    y_pred = labels[rng.integers(0, 2, 50)]  # "emu" is never predicted
    frame = pd.DataFrame({"y": y_true, "m": y_pred})
    for name in CLASSIFICATION:
        result = frame.cmp.bootstrap(name, n_resamples=2, random_state=0)
        assert_allclose(result.loc["m", "estimate"], sklearn_score(name, y_true, y_pred))


@pytest.mark.parametrize(
    ("name", "reference"),
    [
        ("mean_squared_error", skm.mean_squared_error),
        ("mean_absolute_error", skm.mean_absolute_error),
    ],
)
def test_regression_scores_equal_sklearn(name, reference):
    rng = np.random.default_rng(2)
    y = rng.normal(size=80)
    frame = pd.DataFrame({"y": y, "ridge": y + rng.normal(0, 0.5, 80), "mean": np.zeros(80)})
    result = frame.cmp.bootstrap(name, n_resamples=50, random_state=0)
    for model in ("ridge", "mean"):
        assert_allclose(result.loc[model, "estimate"], reference(y, frame[model]), rtol=1e-12)
    # Lower is better: the best (smallest error) comes first.
    assert result.index[0] == "ridge"
    assert result.attrs["pdcompare"]["greater_is_better"] is False


# --------------------------------------------------------------------------- labels and patterns


def reference_patterns(y_true, y_pred):
    rows = np.column_stack([y_true, y_pred])
    return np.unique(rows, axis=0, return_counts=True)


@pytest.mark.parametrize(
    ("n_classes", "n_models"),
    [(3, 3), (100, 3), (1000, 6)],  # bincount, np.unique on codes, rows (int64 overflow)
)
def test_pattern_counts_all_branches_match_unique_rows(n_classes, n_models):
    rng = np.random.default_rng(n_classes)
    y_true = rng.integers(0, n_classes, 3000)
    y_pred = rng.integers(0, n_classes, (3000, n_models))
    true_codes, pred_codes, k = encode_labels(y_true, y_pred)
    patterns, counts = pattern_counts(true_codes, pred_codes, k)
    # Reference: np.unique over the rows (labels are already 0..K-1 here up to missing ones).
    expected_rows, expected_counts = reference_patterns(true_codes, pred_codes)
    assert_array_equal(patterns, expected_rows)
    assert_array_equal(counts, expected_counts)
    assert counts.sum() == 3000


@pytest.mark.parametrize(
    "labels",
    [
        np.array([3, 7, 11]),  # non-contiguous integers
        np.array([-2, 0, 5]),  # negative
        np.array([0.0, 1.0, 2.0]),  # integral floats
        np.array([0, 10**9, 2 * 10**9]),  # a range too wide to count
        np.array(["a", "b", "c"], dtype=object),
        np.array([1.5, 2.5, 3.5]),
    ],
)
def test_encode_labels_preserves_equality(labels):
    rng = np.random.default_rng(0)
    y_true = labels[rng.integers(0, 3, 40)]
    y_pred = labels[rng.integers(0, 2, (40, 2))]
    true_codes, pred_codes, k = encode_labels(y_true, y_pred)
    assert k == len(set(y_true) | set(y_pred.ravel()))
    assert_array_equal(true_codes[:, None] == pred_codes, y_true[:, None] == y_pred)
    assert_array_equal(true_codes[:, None] < pred_codes, y_true[:, None] < y_pred)


# --------------------------------------------------------------------------- the two paths


@pytest.mark.slow
@pytest.mark.parametrize("name", CLASSIFICATION)
def test_index_path_equals_naive_sklearn_loop(name):
    # Index resampling draws rng.integers(0, N, (R, N)) in one chunk at this size,
    # so a naive loop with scikit-learn on the same indices must give the same
    # replicates exactly; small N makes classes vanish from some resamples.
    frame = three_class_predictions(n=25, seed=3)
    y = frame["y"].to_numpy()
    preds = frame[["forest", "tree"]].to_numpy()
    dist = paired_bootstrap(y, preds, name, n_resamples=60, random_state=0, resampling="index")
    index = np.random.default_rng(0).integers(0, 25, size=(60, 25))
    expected = np.array(
        [[sklearn_score(name, y[rows], preds[rows, k]) for k in range(2)] for rows in index]
    )
    assert_allclose(dist.replicates, expected, rtol=1e-12, atol=1e-15)
    # A callable score walks the same index path.
    callable_dist = paired_bootstrap(
        y, preds, lambda t, p: sklearn_score(name, t, p), n_resamples=60, random_state=0
    )
    assert_allclose(callable_dist.replicates, expected, rtol=1e-12, atol=1e-15)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["accuracy", "recall_macro", "f1_macro"])
def test_multinomial_and_index_paths_agree_in_distribution(name):
    frame = three_class_predictions(n=200, seed=4)
    y = frame["y"].to_numpy()
    preds = frame[["forest", "svm", "tree"]].to_numpy()
    r = 4000
    fast = paired_bootstrap(y, preds, name, n_resamples=r, random_state=1)
    slow = paired_bootstrap(y, preds, name, n_resamples=r, random_state=2, resampling="index")
    assert_allclose(fast.estimate, slow.estimate, rtol=1e-12)
    se = slow.replicates.std(axis=0, ddof=1)
    # Monte Carlo error of a mean of R replicates: se / sqrt(R); two independent runs.
    assert np.all(
        np.abs(fast.replicates.mean(0) - slow.replicates.mean(0)) < 4 * se * np.sqrt(2 / r)
    )
    # The standard error itself: relative MC error about 1/sqrt(2R) ~ 1.1%.
    assert_allclose(fast.replicates.std(axis=0, ddof=1), se, rtol=0.06)
    for q in (0.025, 0.5, 0.975):
        # MC error of a tail quantile of R draws is about 0.04 se at R = 4000.
        assert np.all(
            np.abs(np.quantile(fast.replicates, q, 0) - np.quantile(slow.replicates, q, 0))
            < 0.3 * se
        )
    # Pairing: the correlation of models across resamples is the same in both paths.
    assert_allclose(np.corrcoef(fast.replicates.T), np.corrcoef(slow.replicates.T), atol=0.06)
    diff_fast = fast.replicates[:, 0] - fast.replicates[:, 2]
    diff_slow = slow.replicates[:, 0] - slow.replicates[:, 2]
    assert_allclose(diff_fast.std(ddof=1), diff_slow.std(ddof=1), rtol=0.06)


def test_accuracy_se_equals_ideal_bootstrap_formula():
    # The ideal bootstrap distribution of accuracy (a mean of 0/1 values) has
    # variance acc (1 - acc) / N; of a paired difference, var(c1 - c2) / N with
    # the population variance (ddof=0) of the per-row differences.
    frame = three_class_predictions(n=120, seed=5)
    result = frame.cmp.bootstrap(n_resamples=20000, random_state=0)
    correct = frame[["forest", "svm", "tree"]].to_numpy() == frame[["y"]].to_numpy()
    accuracy = correct.mean(axis=0)
    expected = pd.Series(np.sqrt(accuracy * (1 - accuracy) / 120), index=["forest", "svm", "tree"])
    # Relative MC error of a standard deviation from R = 20000 replicates: ~0.5%.
    assert_allclose(result["se"], expected[result.index], rtol=0.03)
    diff = frame.cmp.bootstrap_diff("forest", "tree", n_resamples=20000, random_state=0)
    delta = correct[:, 0].astype(float) - correct[:, 2]
    assert_allclose(diff["mean_diff"], delta.mean(), rtol=1e-12)
    dist = paired_bootstrap(
        frame["y"], frame[["forest", "tree"]], n_resamples=20000, random_state=0
    )
    d = dist.replicates[:, 0] - dist.replicates[:, 1]
    assert_allclose(d.std(ddof=1), delta.std() / np.sqrt(120), rtol=0.03)


@pytest.mark.slow
def test_se_agrees_with_scipy_bootstrap():
    # Reference: scipy.stats.bootstrap (paired, on rows) of macro recall, written out
    # vectorised; every class occurs in the truth of (almost surely) every resample
    # of these 60 rows, so the mean of the per-class recalls is scikit-learn's value.
    frame = three_class_predictions(n=60, seed=6)
    y, p = frame["y"].to_numpy(), frame["svm"].to_numpy()

    def recall(t, q, axis=-1):
        per_class = [
            ((t == c) & (q == c)).sum(axis=axis) / (t == c).sum(axis=axis) for c in range(3)
        ]
        return np.mean(per_class, axis=0)

    assert_allclose(recall(y, p), skm.recall_score(y, p, average="macro"), rtol=1e-12)
    reference = stats.bootstrap(
        (y, p),
        recall,
        paired=True,
        vectorized=True,
        n_resamples=20000,
        method="percentile",
        random_state=np.random.default_rng(0),
    )
    ours = frame[["y", "svm"]].cmp.bootstrap("recall_macro", n_resamples=20000, random_state=0)
    # Two Monte Carlo estimates of one standard error, each ~0.5% relative error.
    assert_allclose(ours.loc["svm", "se"], reference.standard_error, rtol=0.03)
    low, high = reference.confidence_interval
    assert_allclose(ours.loc["svm", ["ci_low", "ci_high"]], [low, high], atol=0.01)


# ----------------------------------------------------------------------- intervals and p-values


def test_random_state_int_and_generator_reproduce():
    frame = three_class_predictions(n=100, seed=7)
    first = frame.cmp.bootstrap("f1_macro", random_state=3)
    pd.testing.assert_frame_equal(first, frame.cmp.bootstrap("f1_macro", random_state=3))
    by_generator = frame.cmp.bootstrap("f1_macro", random_state=np.random.default_rng(3))
    pd.testing.assert_frame_equal(
        by_generator,
        frame.cmp.bootstrap("f1_macro", random_state=np.random.default_rng(3)),
    )
    assert first.attrs["pdcompare"]["random_state"] == 3
    assert by_generator.attrs["pdcompare"]["random_state"] is None
    other = frame.cmp.bootstrap("f1_macro", random_state=4)
    assert not np.allclose(first["se"], other["se"])
    diff = frame.cmp.bootstrap_diff(random_state=5, score="mean_absolute_error")
    pd.testing.assert_frame_equal(
        diff, frame.cmp.bootstrap_diff(random_state=5, score="mean_absolute_error")
    )


def test_normal_method_is_estimate_plus_minus_z_se():
    frame = three_class_predictions(n=150, seed=8)
    result = frame.cmp.bootstrap("balanced_accuracy", method="normal", ci=0.9, random_state=0)
    z = stats.norm.ppf(0.95)  # reference: scipy's normal quantile
    assert_allclose(result["ci_low"], result["estimate"] - z * result["se"], rtol=1e-12)
    assert_allclose(result["ci_high"], result["estimate"] + z * result["se"], rtol=1e-12)
    diff = frame.cmp.bootstrap_diff("forest", "tree", method="normal", random_state=0)
    dist = paired_bootstrap(
        frame["y"], frame[["forest", "tree"]], n_resamples=1000, random_state=0
    )
    d = dist.replicates[:, 0] - dist.replicates[:, 1]
    half = stats.norm.ppf(0.975) * d.std(ddof=1)
    center = diff.loc[0, "mean_diff"]
    bounds = diff.loc[0, ["ci_low", "ci_high"]].to_numpy(dtype=float)
    assert_allclose(bounds, [center - half, center + half], rtol=1e-12)


def test_percentile_interval_and_pvalues_by_definition():
    frame = three_class_predictions(n=150, seed=9)
    dist = paired_bootstrap(
        frame["y"], frame[["forest", "svm"]], "recall_macro", n_resamples=1000, random_state=0
    )
    d = dist.replicates[:, 0] - dist.replicates[:, 1]
    # The p-value definitions of the docstring, written out.
    below, above = np.mean(d <= 0), np.mean(d >= 0)
    expected = {"greater": below, "less": above, "two-sided": min(1.0, 2 * min(below, above))}
    for alternative, p in expected.items():
        out = frame.cmp.bootstrap_diff(
            "forest", "svm", score="recall_macro", alternative=alternative, random_state=0
        )
        assert_allclose(out["pvalue"], p, rtol=1e-12)
    two = frame.cmp.bootstrap_diff("forest", "svm", score="recall_macro", random_state=0)
    bounds = two.loc[0, ["ci_low", "ci_high"]].to_numpy(dtype=float)
    assert_allclose(bounds, np.quantile(d, [0.025, 0.975]), rtol=1e-12)
    greater = frame.cmp.bootstrap_diff(
        "forest", "svm", score="recall_macro", alternative="greater", random_state=0
    )
    assert_allclose(greater.loc[0, "ci_low"], np.quantile(d, 0.05), rtol=1e-12)
    assert greater.loc[0, "ci_high"] == np.inf
    per_model = frame[["y", "forest", "svm"]].cmp.bootstrap("recall_macro", random_state=0)
    assert_allclose(
        per_model.loc["svm", ["ci_low", "ci_high"]],
        np.quantile(dist.replicates[:, 1], [0.025, 0.975]),
        rtol=1e-12,
    )


def test_identical_models_give_pvalue_one():
    frame = three_class_predictions(n=50, seed=10)
    frame["copy"] = frame["forest"]
    out = frame.cmp.bootstrap_diff("forest", "copy", random_state=0)
    assert_allclose(out[["mean_diff", "ci_low", "ci_high", "pvalue"]].iloc[0], [0, 0, 0, 1])


def test_scopes_columns_and_holm_correction():
    from statsmodels.stats.multitest import multipletests

    frame = three_class_predictions(n=200, seed=11)
    best = frame.cmp.bootstrap_diff(random_state=0)
    assert list(best.columns) == [
        "model_1",
        "model_2",
        "mean_diff",
        "ci_low",
        "ci_high",
        "pvalue",
        "pvalue_adj",
        "reject",
    ]
    assert best["model_1"].tolist() == ["forest", "forest"]
    assert best["model_2"].tolist() == ["svm", "tree"]
    assert (best["mean_diff"] > 0).all()
    # Reference: statsmodels' Holm correction of the rows' p-values.
    assert_allclose(best["pvalue_adj"], multipletests(best["pvalue"], method="holm")[1])
    assert best.attrs["pdcompare"]["scope"] == "best_vs_rest"
    one = frame.cmp.bootstrap_diff("tree", random_state=0)
    assert one["model_2"].tolist() == ["forest", "svm"]
    assert one.attrs["pdcompare"]["scope"] == "one_vs_rest"
    # For an error score the best is the lowest and mean_diff <= 0 in its table.
    errors = frame.cmp.bootstrap_diff(score="mean_absolute_error", random_state=0)
    assert errors["model_1"].tolist() == ["forest", "forest"]
    assert (errors["mean_diff"] < 0).all()
    meta = best.attrs["pdcompare"]
    assert meta["test"] == "bootstrap_diff"
    assert meta["models"] == ["forest", "svm", "tree"]
    assert (meta["score"], meta["n_resamples"], meta["alternative"]) == (
        "accuracy",
        1000,
        "two-sided",
    )


def test_methods_do_not_modify_the_frame():
    frame = three_class_predictions(n=40, seed=12)
    frame.attrs["note"] = "kept"
    before = frame.copy()
    frame.cmp.bootstrap(random_state=0)
    frame.cmp.bootstrap_diff(random_state=0)
    frame.cmp.accuracy_ci()
    pd.testing.assert_frame_equal(frame, before)
    assert frame.attrs == {"note": "kept"}


@settings(deadline=None, max_examples=40, derandomize=True)
@given(
    n=st.integers(5, 40),
    n_classes=st.integers(2, 4),
    seed=st.integers(0, 2**16),
    score=st.sampled_from([*CLASSIFICATION, "mean_squared_error"]),
    method=st.sampled_from(["percentile", "normal"]),
)
def test_properties(n, n_classes, seed, score, method):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "y": rng.integers(0, n_classes, n),
            "a": rng.integers(0, n_classes, n),
            "b": rng.integers(0, n_classes, n),
        }
    )
    per_model = frame.cmp.bootstrap(score, n_resamples=60, method=method, random_state=seed)
    assert (per_model["se"] >= 0).all()
    assert (per_model["ci_low"] <= per_model["ci_high"] + 1e-12).all()
    forward = frame.cmp.bootstrap_diff(
        "a",
        "b",
        score=score,
        n_resamples=60,
        method=method,
        random_state=seed,
        correction=None,
    )
    backward = frame.cmp.bootstrap_diff(
        "b",
        "a",
        score=score,
        n_resamples=60,
        method=method,
        random_state=seed,
        correction=None,
    )
    assert 0 <= forward.loc[0, "pvalue"] <= 1
    assert forward.loc[0, "ci_low"] <= forward.loc[0, "ci_high"] + 1e-12
    assert_allclose(backward.loc[0, "mean_diff"], -forward.loc[0, "mean_diff"], atol=1e-12)
    assert_allclose(backward.loc[0, "ci_low"], -forward.loc[0, "ci_high"], atol=1e-12)
    assert_allclose(backward.loc[0, "ci_high"], -forward.loc[0, "ci_low"], atol=1e-12)
    assert_allclose(backward.loc[0, "pvalue"], forward.loc[0, "pvalue"], atol=1e-12)
    one_sided = [
        frame.cmp.bootstrap_diff(
            "a",
            "b",
            score=score,
            n_resamples=60,
            alternative=alt,
            random_state=seed,
            correction=None,
        ).loc[0, "pvalue"]
        for alt in ("greater", "less")
    ]
    # P(d <= 0) + P(d >= 0) = 1 + P(d = 0).
    assert sum(one_sided) >= 1 - 1e-12


# --------------------------------------------------------------------------- accuracy_ci


@pytest.mark.parametrize("method", ["normal", "wilson", "beta", "agresti_coull", "jeffreys"])
def test_accuracy_ci_equals_statsmodels(method):
    from statsmodels.stats.proportion import proportion_confint

    frame = three_class_predictions(n=90, seed=13)
    result = frame.cmp.accuracy_ci(method=method, ci=0.9)
    for model in ("forest", "svm", "tree"):
        correct = int((frame[model] == frame["y"]).sum())
        # Reference: statsmodels; its "normal" interval is clipped to [0, 1] (>= 0.15), which
        # does not bind here, and the unclipped case is tested below.
        low, high = proportion_confint(correct, 90, alpha=0.1, method=method)
        assert_allclose(result.loc[model, ["ci_low", "ci_high"]], [low, high], rtol=1e-12)
        assert_allclose(result.loc[model, "accuracy"], correct / 90)
    assert (result["n"] == 90).all()
    assert list(result.columns) == ["accuracy", "n", "ci_low", "ci_high"]


def test_normal_interval_can_pass_one_wilson_cannot():
    # 19 of 20 correct: the Wald interval is 0.95 ± 1.96 sqrt(0.95 · 0.05 / 20).
    frame = pd.DataFrame({"y": [1] * 20, "model": [1] * 19 + [0]})
    wald = frame.cmp.accuracy_ci(method="normal")
    assert_allclose(
        wald.loc["model", "ci_high"], 0.95 + stats.norm.ppf(0.975) * np.sqrt(0.95 * 0.05 / 20)
    )
    assert wald.loc["model", "ci_high"] > 1
    wilson = frame.cmp.accuracy_ci()
    assert 0 <= wilson.loc["model", "ci_low"] <= wilson.loc["model", "ci_high"] <= 1


# --------------------------------------------------------------------------- missing values


def frame_with_missing():
    frame = three_class_predictions(n=60, seed=14).astype(float)
    frame.loc[3, "tree"] = np.nan
    return frame


def test_nan_policy_propagate_warns_and_gives_nan():
    frame = frame_with_missing()
    with pytest.warns(PdcompareWarning, match="'tree'"):
        per_model = frame.cmp.bootstrap(random_state=0)
    assert per_model.loc["tree"].isna().all()
    assert per_model.index[-1] == "tree"
    clean = frame[["y", "forest", "svm"]].cmp.bootstrap(random_state=0)
    assert_allclose(per_model.loc[["forest", "svm"]], clean, rtol=1e-12)
    with pytest.warns(PdcompareWarning, match="'tree'"):
        diff = frame.cmp.bootstrap_diff(random_state=0)
    assert np.isnan(diff.set_index("model_2").loc["tree", "pvalue"])
    # The NaN row is left out of the correction: the other row is corrected alone.
    assert_allclose(
        diff.set_index("model_2").loc["svm", "pvalue_adj"],
        diff.set_index("model_2").loc["svm", "pvalue"],
    )
    # A pair without the incomplete model is not affected and does not warn.
    frame.cmp.bootstrap_diff("forest", "svm", random_state=0)


def test_nan_policy_omit_drops_rows_and_raise_names_models():
    frame = frame_with_missing()
    omitted = frame.cmp.bootstrap("f1_macro", nan_policy="omit", random_state=0)
    dropped = frame.drop(index=3).cmp.bootstrap("f1_macro", random_state=0)
    pd.testing.assert_frame_equal(omitted, dropped)
    with pytest.raises(ValueError, match=r"Missing values \(NaN\) in 'tree'.*nan_policy='omit'"):
        frame.cmp.bootstrap_diff(nan_policy="raise")
    frame.loc[0, "y"] = np.nan
    with pytest.raises(ValueError, match="the truth 'y'"):
        frame.cmp.accuracy_ci(nan_policy="raise")
    with pytest.warns(PdcompareWarning, match="the truth 'y'"):
        assert frame.cmp.accuracy_ci()["accuracy"].isna().all()


# --------------------------------------------------------------------------- errors


def test_errors_name_the_parameter():
    frame = three_class_predictions(n=30, seed=15)
    with pytest.raises(
        ValueError, match=r"`score`: unknown score 'acuracy'. Did you mean 'accuracy'"
    ):
        frame.cmp.bootstrap("acuracy")
    with pytest.raises(ValueError, match=r"Known scores: 'accuracy', 'balanced_accuracy'"):
        frame.cmp.bootstrap_diff(score="gini")  # "roc" now suggests 'roc_auc'
    with pytest.raises(ValueError, match=r"Did you mean 'roc_auc'"):
        frame.cmp.bootstrap_diff(score="roc")
    with pytest.raises(TypeError, match="`score` must be a score name"):
        frame.cmp.bootstrap(3)
    with pytest.raises(ValueError, match="`method` must be one of 'percentile', 'normal'"):
        frame.cmp.bootstrap(method="bca")
    with pytest.raises(ValueError, match="`method` must be one of 'normal', 'wilson'"):
        frame.cmp.accuracy_ci(method="exact")
    with pytest.raises(ValueError, match="`n_resamples` must be an integer of at least 2"):
        frame.cmp.bootstrap(n_resamples=1)
    with pytest.raises(TypeError, match="`random_state` must be None, an int or a numpy"):
        frame.cmp.bootstrap(random_state=np.random.RandomState(0))
    with pytest.raises(ValueError, match="`random_state` must be a non-negative int"):
        frame.cmp.bootstrap(random_state=-1)
    with pytest.raises(ValueError, match="`ci` must be strictly between 0 and 1"):
        frame.cmp.bootstrap(ci=95)
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        frame.cmp.bootstrap_diff(alternative="two_sided")
    with pytest.raises(ValueError, match="`correction` must be one of"):
        frame.cmp.bootstrap_diff(correction="holmes")
    with pytest.raises(ValueError, match="`nan_policy` must be one of"):
        frame.cmp.bootstrap(nan_policy="drop")
    with pytest.raises(
        ValueError, match="`y`: the predictions frame has no truth column 'target'"
    ):
        frame.cmp.bootstrap(y="target")
    with pytest.raises(ValueError, match=r"`b`: unknown model 'tre'\. Did you mean 'tree'"):
        frame.cmp.bootstrap_diff("forest", "tre")
    with pytest.raises(ValueError, match="`a` and `b` are the same model"):
        frame.cmp.bootstrap_diff("tree", "tree")
    with pytest.raises(ValueError, match="contradicts the score 'accuracy'"):
        frame.cmp.bootstrap(greater_is_better=False)
    with pytest.raises(TypeError, match="must return one number"):
        frame.cmp.bootstrap(lambda t, p: np.array([1.0, 2.0]), n_resamples=2)
    words = pd.DataFrame({"y": ["a", "b"] * 5, "m": ["a", "a"] * 5})
    with pytest.raises(TypeError, match="'mean_squared_error' needs numeric truth"):
        words.cmp.bootstrap("mean_squared_error")


def test_callable_score_direction():
    frame = three_class_predictions(n=80, seed=16)
    errors = frame.cmp.bootstrap(
        skm.zero_one_loss, greater_is_better=False, n_resamples=20, random_state=0
    )
    assert errors.attrs["pdcompare"]["score"] == "zero_one_loss"
    assert errors.index.tolist() == ["forest", "svm", "tree"]
    assert_allclose(
        errors["estimate"], [skm.zero_one_loss(frame["y"], frame[m]) for m in errors.index]
    )


# --------------------------------------------------------------------------- plots


def test_plot_model_intervals():
    import matplotlib.pyplot as plt

    frame = three_class_predictions(n=100, seed=17)
    result = frame.cmp.bootstrap("recall_macro", random_state=0, n_resamples=200)
    _fig, ax = plt.subplots()
    returned = result.cmp.plot(ax=ax, color="tab:blue")
    assert returned is ax
    assert [t.get_text() for t in ax.get_yticklabels()] == ["tree", "svm", "forest"]
    assert ax.get_xlabel() == "recall_macro"
    segments = ax.collections[0].get_segments()
    assert len(segments) == 3
    # The top segment (y = 2) is the best model's interval.
    top = next(s for s in segments if s[0][1] == 2)
    assert_allclose(top[:, 0], result.loc["forest", ["ci_low", "ci_high"]])
    # Drawn bottom-up: the best model (the result's first row) last.
    assert_allclose(ax.collections[1].get_offsets()[:, 0], result["estimate"].to_numpy()[::-1])
    assert ax.get_title() == "Bootstrap 95% percentile interval per model"
    ci = frame.cmp.accuracy_ci(method="normal")
    _fig, ax2 = plt.subplots()
    ci.cmp.plot(ax=ax2)
    assert ax2.get_xlabel() == "accuracy"
    assert ax2.get_title() == "Accuracy with 95% normal interval"
    assert len(ax2.collections[0].get_segments()) == 3


def test_plot_differences_with_zero_line():
    from matplotlib.collections import PathCollection

    frame = three_class_predictions(n=100, seed=18)
    result = frame.cmp.bootstrap_diff(score="f1_macro", random_state=0, n_resamples=200)
    ax = result.cmp.plot()
    labels = [f"{a} − {b}" for a, b in zip(result["model_1"], result["model_2"], strict=True)]
    # Like the t-test forest plot: the first row on top, labels in row order.
    assert [t.get_text() for t in ax.get_yticklabels()] == labels
    assert ax.get_xlabel() == (
        "difference in f1_macro with 95% interval\n"
        "(interval unadjusted; markers and p-values holm-adjusted)"
    )
    assert ax.get_ylabel() == ""  # no "pair" label squeezing the figure
    zero = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(zero) == 1
    assert_allclose(zero[0].get_xdata(), [0, 0])
    markers = np.concatenate(
        [c.get_offsets() for c in ax.collections if isinstance(c, PathCollection)]
    )
    by_row = markers[np.argsort(-markers[:, 1])]  # top row first
    assert_allclose(by_row[:, 0], result["mean_diff"].to_numpy())
    segments = [s for c in ax.containers for s in c.lines[2][0].get_segments()]
    segments = sorted(segments, key=lambda s: -s[0][1])
    assert_allclose([s[:, 0] for s in segments], result[["ci_low", "ci_high"]].to_numpy())
    assert ax.get_title() == "Paired bootstrap: differences with 95% intervals"
    # One adjusted p-value per pair, in row order (first row on top).
    written = [text.get_text() for text in ax.texts]
    expected = result["pvalue_adj"].to_numpy()
    assert len(written) == len(expected)
    for text, pvalue in zip(written, expected, strict=True):
        assert text == ("p_adj < 0.001" if pvalue < 0.001 else f"p_adj = {pvalue:.3f}")
    one_sided = frame.cmp.bootstrap_diff(alternative="greater", random_state=0, n_resamples=200)
    ax = one_sided.cmp.plot()
    segments = [s for c in ax.containers for s in c.lines[2][0].get_segments()]
    assert all(np.isfinite(s).all() for s in segments)
    assert len([line for line in ax.lines if line.get_marker() == ">"]) == len(one_sided)


@pytest.mark.parametrize(
    "labels",
    [
        np.array([3, 7, 11]),
        np.array([-2, 0, 5]),
        np.array([0.0, 1.0, 2.0]),
        np.array([0, 10**9, 2 * 10**9]),
        np.array(["a", "b", "c"], dtype=object),
    ],
)
def test_label_patterns_equal_unique_rows_of_codes(labels):
    from pdcompare.stats.bootstrap import label_patterns

    rng = np.random.default_rng(1)
    y_true = labels[rng.integers(0, 3, 60)]
    y_pred = labels[rng.integers(0, 3, (60, 2))]
    patterns, counts, k = label_patterns(y_true, y_pred)
    # Reference: codes = rank of each label among the sorted distinct labels, then unique rows.
    classes = np.unique(np.concatenate([y_true, y_pred.ravel()]))
    rows = np.column_stack([np.searchsorted(classes, y_true), np.searchsorted(classes, y_pred)])
    expected_rows, expected_counts = np.unique(rows, axis=0, return_counts=True)
    assert k == len(classes)
    assert_array_equal(patterns, expected_rows)
    assert_array_equal(counts, expected_counts)


def test_regression_index_path_equals_sklearn_callable_replicates():
    # Both walk the same index stream: named error scores and scikit-learn's
    # functions as callables must give the same replicates.
    rng = np.random.default_rng(19)
    y = rng.normal(size=40)
    preds = np.column_stack([y + rng.normal(0, 0.3, 40), y + rng.normal(0, 0.6, 40)])
    for name, function in (
        ("mean_squared_error", skm.mean_squared_error),
        ("mean_absolute_error", skm.mean_absolute_error),
    ):
        named = paired_bootstrap(y, preds, name, n_resamples=80, random_state=0)
        called = paired_bootstrap(
            y, preds, function, n_resamples=80, random_state=0, greater_is_better=False
        )
        assert_allclose(named.replicates, called.replicates, rtol=1e-12)
        assert_allclose(named.estimate, [function(y, preds[:, k]) for k in range(2)])


def test_all_pairs_scope_and_nothing_left_to_omit():
    from pdcompare.inputs.scores import ALL_PAIRS

    frame = three_class_predictions(n=80, seed=20)
    out = frame.cmp.bootstrap_diff(ALL_PAIRS, random_state=0, correction="bonferroni")
    assert out.attrs["pdcompare"]["scope"] == "all_pairs"
    assert list(zip(out["model_1"], out["model_2"], strict=True)) == [
        ("forest", "svm"), ("forest", "tree"), ("svm", "tree"),
    ]
    assert_allclose(out["pvalue_adj"], np.minimum(3 * out["pvalue"], 1.0))
    holes = frame.astype(float)
    holes.loc[::2, "svm"] = np.nan
    holes.loc[1::2, "tree"] = np.nan
    with pytest.raises(ValueError, match=r"No row is left after dropping.*'svm', 'tree'"):
        holes.cmp.bootstrap(nan_policy="omit")
