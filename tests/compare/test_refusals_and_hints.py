"""Refusals and hints of the comparisons on real inputs: equivalence's alpha, one-data-set
benchmarks, inverted AUCs, out-of-fold predictions and text columns among forecasts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics

import pdcompare
from pdcompare import PdcompareWarning


@pytest.fixture
def scores():
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        rng.normal([[0.80], [0.78], [0.75]], 0.01, (3, 10)), index=["forest", "tree", "knn"]
    ).cmp.set_design(cv=10)


@pytest.mark.parametrize("alpha", [0.5, 0.6])
def test_equivalence_refuses_alpha_of_one_half_or_more(scores, alpha):
    with pytest.raises(
        ValueError, match=r"`alpha` of `equivalence` must be below 0\.5.*1 - 2\*alpha"
    ):
        scores.cmp.equivalence(rope=0.01, alpha=alpha)
    assert scores.cmp.equivalence(rope=0.01, alpha=0.49)["pvalue"].notna().all()


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f.cmp.effect_size(),
        lambda f: f.cmp.equivalence(rope=0.01),
        lambda f: f.cmp.power(delta=0.01),
    ],
)
def test_one_dataset_benchmark_refused_by_effect_size_equivalence_power(call):
    rng = np.random.default_rng(1)
    columns = pd.MultiIndex.from_product([["iris"], range(5)], names=["dataset", "fold"])
    bench = pd.DataFrame(rng.normal(0.8, 0.02, (3, 5)), index=list("abc"), columns=columns)
    with pytest.raises(ValueError, match=r"one data set \('iris'\).*corrected_ttest.*per_dataset"):
        call(bench)


def test_delong_warns_when_every_auc_is_below_one_half():
    rng = np.random.default_rng(2)
    y = rng.choice(["spam", "ham"], 200)
    truth = y == "ham"  # the scores point to "ham"; the larger label "spam" is the positive
    frame = pd.DataFrame(
        {
            "y": y,
            "a": truth + rng.normal(0, 0.8, 200),
            "b": truth + rng.normal(0, 1.2, 200),
        }
    )
    with pytest.warns(
        PdcompareWarning, match=r"every model's AUC is below 0\.5.*pos_label="
    ) as rec:
        out = frame.cmp.delong()
    assert len([w for w in rec if "below 0.5" in str(w.message)]) == 1
    assert out["auc_1"].iloc[0] == pytest.approx(
        max(metrics.roc_auc_score(y == "spam", frame[c]) for c in "ab"), rel=1e-12
    )
    fixed = frame.cmp.delong(pos_label="ham")  # no warning now
    assert fixed["auc_1"].iloc[0] > 0.5


def test_delong_warns_on_hard_labels_naming_scores():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    labels = np.where(rng.random(300) < 0.8, y, 1 - y)  # a classifier's predict(), not scores
    frame = pd.DataFrame({"y": y, "labels": labels, "scores": y + rng.normal(0, 1, 300)})
    with pytest.warns(PdcompareWarning, match=r"'labels' are hard 0/1 labels.*AUC needs scores"):
        out = frame.cmp.delong()
    # From labels the AUC is the balanced accuracy (one point on the ROC curve).
    row = out.iloc[0]
    auc = row["auc_1"] if row["model_1"] == "labels" else row["auc_2"]
    expected = metrics.balanced_accuracy_score(y, labels)
    assert auc == pytest.approx(expected, rel=1e-12)
    assert metrics.roc_auc_score(y, labels) == pytest.approx(expected, rel=1e-12)


@pytest.mark.slow
def test_delong_warns_on_out_of_fold_predictions():
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    frame = pdcompare.cv_predictions(
        {"logit": make_pipeline(StandardScaler(), LogisticRegression()), "nb": GaussianNB()},
        X, y, cv=5, method="predict_proba",
    )  # fmt: skip
    assert frame.attrs["pdcompare"]["origin"] == "cv_predictions"
    with pytest.warns(PdcompareWarning, match=r"out-of-fold predictions from `cv_predictions`"):
        frame.cmp.delong()


def test_delong_on_a_plain_frame_does_not_warn_of_folds():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 100)
    frame = pd.DataFrame({"y": y, "a": y + rng.normal(0, 1, 100), "b": y + rng.normal(0, 2, 100)})
    frame.cmp.delong()  # filterwarnings=error: no warning


def test_diebold_mariano_names_the_text_column():
    rng = np.random.default_rng(4)
    y = rng.normal(0, 1, 40)
    frame = pd.DataFrame(
        {"y": y, "arima": y + rng.normal(0, 1, 40), "naive": [f"{v:.2f}" for v in y]}
    )
    with pytest.raises(ValueError, match=r"column 'naive' holds text"):
        frame.cmp.diebold_mariano()
