"""A frame of the wrong kind is refused or warned about, never reinterpreted (DESIGN §2)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from pdcompare import PdcompareWarning
from pdcompare.cli import main
from pdcompare.datasets import load_grid_search_scores


@pytest.fixture
def predictions():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 171)
    return pd.DataFrame(
        {"y": y, "a": y ^ (rng.random(171) < 0.1), "b": y ^ (rng.random(171) < 0.2)}
    )


@pytest.mark.parametrize("method", ["summary", "corrected_ttest", "pairwise", "report", "bayes"])
def test_a_predictions_frame_is_not_read_as_scores(predictions, method):
    with pytest.raises(ValueError, match=r"truth column 'y'.*predictions frame.*mcnemar"):
        getattr(predictions.cmp, method)(cv=4)


def test_models_as_columns_warn_and_say_transpose():
    folds = np.random.default_rng(1).normal(0.8, 0.02, (5, 3))
    frame = pd.DataFrame(folds, columns=["rbf", "linear", "poly"])  # cross_val_score per column
    with pytest.warns(PdcompareWarning, match=r"models look like columns.*`df\.T`"):
        frame.cmp.summary(cv=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        summary = frame.T.cmp.summary(cv=5)
    np.testing.assert_allclose(summary.loc["rbf", "mean"], folds[:, 0].mean())
    # A frame with split numbers in its column labels is a scores frame with unnamed models.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pd.DataFrame(folds, columns=["split0", "split1", "split2"]).cmp.summary(cv=3)


@pytest.mark.parametrize(
    ("score", "fragment"),
    [
        ("f1", "'f1_macro'"),
        ("recall", "sklearn.metrics.recall_score"),
        ("roc_auc_ovr", "one-vs-rest"),  # "roc_auc" itself reads any numeric column as scores
        ("neg_mean_squared_error", "score='mean_squared_error'"),
    ],
)
def test_scikit_learn_scoring_names_get_a_way_forward(predictions, score, fragment):
    with pytest.raises(ValueError, match=fragment):
        predictions.cmp.bootstrap(score=score, n_resamples=10, random_state=0)


def test_report_and_command_line_say_each_warning_once(tmp_path, capsys):
    holed = load_grid_search_scores().copy()
    holed.iloc[3, 5] = np.nan
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        holed.cmp.report(rope=0.01)
    messages = [str(w.message) for w in caught]
    assert len(messages) == len(set(messages)) == 1
    assert "2_poly" in messages[0]
    path = tmp_path / "holed.csv"
    holed.to_csv(path)
    assert main([str(path), "--cv", "10", "--rope", "0.01"]) == 0
    err = capsys.readouterr().err
    assert err.count("pdcompare: warning:") == 1
    assert "2_poly" in err


@pytest.mark.parametrize(
    "method", ["mcnemar", "cochrans_q", "proportions_ztest", "accuracy_ci", "bootstrap"]
)
def test_probabilities_are_refused_where_labels_are_counted(method):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 60)
    frame = pd.DataFrame({"y": y, "a": rng.random(60), "b": y})
    with pytest.raises(ValueError, match=rf"`{method}` compares predicted labels.*column 'a'"):
        getattr(frame.cmp, method)()
    # Integer-valued floats are labels; a regression loss takes any number.
    frame["a"] = (frame["a"] >= 0.5).astype(float)
    getattr(frame.cmp, method)()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pd.DataFrame({"y": y * 1.5, "a": rng.random(60), "b": y + 0.25}).cmp.bootstrap(
            score="mean_squared_error", n_resamples=20, random_state=0
        )


@pytest.mark.parametrize("method", ["mcnemar", "cochrans_q", "proportions_ztest"])
def test_pd_na_in_object_predictions_is_a_missing_value(method):
    rng = np.random.default_rng(3)
    y = list(rng.integers(0, 2, 40))
    a = [v if rng.random() < 0.8 else 1 - v for v in y]
    b = [v if rng.random() < 0.6 else 1 - v for v in y]
    frame = pd.DataFrame({"y": y, "a": a, "b": b}, dtype=object)
    holed = frame.copy()
    holed.loc[3, "a"] = pd.NA
    got = getattr(holed.cmp, method)(nan_policy="omit")
    expected = getattr(frame.drop(index=3).astype(int).cmp, method)()
    pd.testing.assert_frame_equal(
        got.drop(columns=["model_1", "model_2"], errors="ignore"),
        expected.drop(columns=["model_1", "model_2"], errors="ignore"),
    )
