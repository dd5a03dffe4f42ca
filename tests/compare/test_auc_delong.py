"""delong and auc_ci on predictions frames of scores: numbers, scopes, refusals."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from references import slow_delong
from scipy import stats
from sklearn.metrics import roc_auc_score

import pdcompare
from pdcompare import PdcompareWarning


@pytest.fixture
def preds():
    rng = np.random.default_rng(11)
    n = 150
    y = rng.integers(0, 2, n)
    return pd.DataFrame(
        {
            "y": y,
            "forest": y + rng.normal(0, 0.7, n),
            "svm": y + rng.normal(0, 0.9, n),
            "tree": np.round(y + rng.normal(0, 1.2, n)),  # an integer grade: ties
            "knn": y + rng.normal(0, 1.5, n),
        }
    )


def test_delong_all_pairs_against_the_paper(preds):
    models = ["forest", "svm", "tree", "knn"]
    theta, s = slow_delong(preds[models].to_numpy(), preds["y"].to_numpy() == 1)
    out = preds.cmp.pairwise(test="delong", correction="bonferroni")
    assert list(out.columns) == [
        "model_1", "model_2", "auc_1", "auc_2", "auc_diff", "se", "statistic",
        "pvalue", "pvalue_adj", "reject", "ci_low", "ci_high",
    ]  # fmt: skip
    assert len(out) == 6
    assert (out["auc_diff"] >= 0).all()  # best first
    for row in out.itertuples():
        i, j = models.index(row.model_1), models.index(row.model_2)
        se = np.sqrt(s[i, i] + s[j, j] - 2 * s[i, j])
        z = (theta[i] - theta[j]) / se
        assert row.auc_1 == pytest.approx(roc_auc_score(preds["y"], preds[row.model_1]))
        assert row.se == pytest.approx(se, rel=1e-9)
        assert row.statistic == pytest.approx(z, rel=1e-9)
        assert row.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
        assert row.pvalue_adj == pytest.approx(min(1, 6 * row.pvalue), rel=1e-9)
        assert row.ci_high == pytest.approx(theta[i] - theta[j] + stats.norm.ppf(0.975) * se)


def test_delong_scopes_and_direction(preds):
    ranked = sorted(
        ["forest", "svm", "tree", "knn"], key=lambda m: -roc_auc_score(preds["y"], preds[m])
    )
    best = preds.cmp.delong()
    assert best["model_1"].unique().tolist() == [ranked[0]]
    assert best["model_2"].tolist() == ranked[1:]
    pair = pdcompare.delong(preds, "knn", "forest", alternative="better", alpha=0.1)
    assert pair["auc_diff"].iloc[0] < 0
    z = pair["statistic"].iloc[0]
    assert pair["pvalue"].iloc[0] == pytest.approx(stats.norm.sf(z))
    assert pair["ci_high"].iloc[0] == np.inf
    assert pair.attrs["pdcompare"]["alternative"] == "greater"
    assert pair.attrs["pdcompare"]["n_pos"] == int(preds["y"].sum())
    one = preds.cmp.delong("svm")
    assert one["model_1"].unique().tolist() == ["svm"]
    assert len(one) == 3


def test_auc_ci_against_delong_variance_and_sklearn(preds):
    out = preds.cmp.auc_ci(ci=0.9)
    assert list(out.columns) == ["auc", "se", "ci_low", "ci_high", "n_pos", "n_neg"]
    models = out.index.tolist()
    aucs = [roc_auc_score(preds["y"], preds[m]) for m in models]
    assert aucs == sorted(aucs, reverse=True)
    theta, s = slow_delong(preds[models].to_numpy(), preds["y"].to_numpy() == 1)
    assert_allclose(out["auc"], theta, rtol=1e-12)
    assert_allclose(out["se"], np.sqrt(np.diag(s)), rtol=1e-9)
    z = stats.norm.ppf(0.95)
    assert_allclose(out["ci_low"], theta - z * np.sqrt(np.diag(s)), rtol=1e-9)
    assert out["n_pos"].iloc[0] + out["n_neg"].iloc[0] == len(preds)
    for model in models:
        assert out.loc[model, "auc"] == pytest.approx(roc_auc_score(preds["y"], preds[model]))


def test_pos_label_and_text_truth(preds):
    text = preds.assign(y=np.where(preds["y"] == 1, "sick", "well"))
    # "well" sorts after "sick": by default the positive class is "well", AUCs flip.
    flipped = text.cmp.auc_ci()
    assert flipped.attrs["pdcompare"]["pos_label"] == "well"
    right = text.cmp.auc_ci(pos_label="sick")
    assert_allclose(right.sort_index()["auc"], 1 - flipped.sort_index()["auc"], rtol=1e-12)
    assert_allclose(right["auc"], preds.cmp.auc_ci()["auc"])
    with pytest.raises(ValueError, match=r"`pos_label` must be one of the classes"):
        text.cmp.delong(pos_label="ill")


def test_refusals(preds):
    with pytest.raises(ValueError, match=r"column\(s\) 'labels' hold"):
        preds.assign(labels=np.where(preds["forest"] > 0.5, "a", "b")).cmp.delong()
    with pytest.raises(ValueError, match="reads each model column as scores"):
        preds.assign(flag=preds["forest"] > 0.5).cmp.auc_ci()
    with pytest.raises(ValueError, match="reads each model column as scores"):
        preds.assign(tree=preds["tree"].astype("category")).cmp.delong()
    three = preds.assign(y=np.arange(len(preds)) % 3)
    with pytest.raises(ValueError, match=r"needs a binary truth; column 'y' has 3 classes"):
        three.cmp.delong()
    with pytest.raises(ValueError, match="one-vs-rest"):
        three.cmp.auc_ci()
    with pytest.raises(ValueError, match="has 1 class"):
        preds.assign(y=1).cmp.auc_ci()
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        preds.cmp.delong(alternative="two_sided")


def test_label_tests_still_refuse_probabilities():
    frame = pd.DataFrame({"y": [0, 1, 0, 1], "a": [0.2, 0.8, 0.4, 0.6], "b": [0, 1, 1, 1]})
    with pytest.raises(ValueError, match="compares predicted labels with the truth"):
        frame.cmp.mcnemar()
    # The same frame runs as scores; "b" holds hard labels, which delong warns about.
    with pytest.warns(PdcompareWarning, match="'b' are hard 0/1 labels"):
        frame.cmp.delong()


def test_missing_scores(preds):
    holes = preds.astype({"svm": float})
    holes.loc[3, "svm"] = np.nan
    with pytest.warns(PdcompareWarning, match="Missing values"):
        out = holes.cmp.delong()
    assert out.set_index("model_2").loc["svm", ["statistic"]].isna().all()
    assert out["statistic"].notna().sum() == 2
    omitted = holes.cmp.delong(nan_policy="omit")
    expected = preds.drop(index=3).cmp.delong()
    assert_allclose(omitted["statistic"], expected["statistic"])
    with pytest.raises(ValueError, match="Missing values"):
        holes.cmp.auc_ci(nan_policy="raise")


def test_identical_models_warn(preds):
    same = preds[["y", "forest"]].assign(copy=preds["forest"] * 2)
    with pytest.warns(PdcompareWarning, match="rank the samples identically"):
        out = same.cmp.delong()
    assert out["pvalue"].iloc[0] == 1.0


def test_cv_predictions_proba_feeds_delong():
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
        "bayes": GaussianNB(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
    }
    preds = pdcompare.cv_predictions(models, X, y, cv=5, method="predict_proba")
    with pytest.warns(pdcompare.PdcompareWarning, match="out-of-fold predictions"):
        out = preds.cmp.delong()  # one column mixes the models of 5 folds
    assert out["model_1"].iloc[0] == "logistic"
    assert out["auc_1"].iloc[0] == pytest.approx(roc_auc_score(y, preds["logistic"]))
    assert out["pvalue"].between(0, 1).all()
    intervals = preds.cmp.auc_ci()
    assert (intervals["ci_low"] < intervals["auc"]).all()


def test_dask_frames_say_compute_first(preds):
    dd = pytest.importorskip("dask.dataframe")
    import pdcompare.dask  # noqa: F401

    big = dd.from_pandas(preds, npartitions=2)
    for name in ("delong", "auc_ci", "permutation_test"):
        with pytest.raises(AttributeError, match=r"needs every row.*call `\.compute\(\)` first"):
            getattr(big.cmp, name)
