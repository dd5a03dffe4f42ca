"""Losses: "greater"/"less" are about raw scores, and neg_* scores are already greater-is-better.

Both cases met with scikit-learn's own diabetes data: ``alternative="greater"``
on a loss design gave p = 0.77 for the best model against a much worse one,
without a word; ``greater_is_better=False`` (``--lower-is-better``) on
``neg_mean_squared_error`` scores made the worst regressor "significantly
better" than the rest.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.cli import main

RAW = r"`alternative='greater'` is about the raw scores .* Pass `alternative='better'`"
NEGATED = r"Every score is <= 0, as scikit-learn's `neg_\*` scores are"


@pytest.fixture(scope="module")
def neg_mse():
    """neg_mean_squared_error of four regressors on the diabetes data, 10-fold CV."""
    from sklearn.datasets import load_diabetes
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Lasso, LinearRegression, Ridge
    from sklearn.model_selection import KFold, cross_val_score

    X, y = load_diabetes(return_X_y=True)
    cv = KFold(10, shuffle=True, random_state=0)
    models = {
        "ols": LinearRegression(),
        "ridge": Ridge(alpha=0.1),
        "lasso": Lasso(alpha=1.0),
        "mean": DummyRegressor(),
    }
    scores = {
        name: cross_val_score(m, X, y, cv=cv, scoring="neg_mean_squared_error")
        for name, m in models.items()
    }
    return pd.DataFrame(scores).T


def corrected_p(d, ratio, tail):
    """Nadeau–Bengio corrected t-test written out: t = mean / sqrt((1/n + ratio) var)."""
    n = len(d)
    t = d.mean() / np.sqrt((1 / n + ratio) * d.var(ddof=1))
    return stats.t.sf(t, n - 1) if tail == "greater" else stats.t.cdf(t, n - 1)


def messages(caught, pattern):
    import re

    return [w for w in caught if re.search(pattern, str(w.message))]


def test_greater_on_losses_warns_once_and_better_tests_the_direction(neg_mse):
    mse = -neg_mse  # the losses themselves, lower is better
    d = (mse.loc["ols"] - mse.loc["mean"]).to_numpy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        raw = pdcompare.corrected_ttest(
            mse, "ols", "mean", alternative="greater", cv=10, greater_is_better=False
        )
    assert len(messages(caught, RAW)) == 1
    assert issubclass(messages(caught, RAW)[0].category, PdcompareWarning)
    # "greater" asks whether ols has the larger error: p near 1 (it is much smaller).
    assert_allclose(raw["pvalue"].iloc[0], corrected_p(d, 1 / 9, "greater"), rtol=1e-10)
    assert raw["pvalue"].iloc[0] > 0.99
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        better = pdcompare.corrected_ttest(
            mse, "ols", "mean", alternative="better", cv=10, greater_is_better=False
        )
    assert_allclose(better["pvalue"].iloc[0], corrected_p(d, 1 / 9, "less"), rtol=1e-10)
    assert better["pvalue"].iloc[0] < 0.01


@pytest.mark.parametrize("name", ["ttest", "wilcoxon", "sign_test", "pairwise"])
def test_less_on_losses_warns_once_in_every_test(neg_mse, name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options = {"test": "ttest"} if name == "pairwise" else {}
        getattr(pdcompare, name)(-neg_mse, alternative="less", greater_is_better=False, **options)
    assert len(messages(caught, r"`alternative='less'` is about the raw scores")) == 1


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("summary", {"cv": 10}),
        ("corrected_ttest", {"cv": 10}),
        ("pairwise", {"cv": 10}),
        ("bayes", {"cv": 10, "rope": 1.0}),
        ("report", {"cv": 10}),
    ],
)
def test_negated_losses_said_to_be_losses_warn_once(neg_mse, name, options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(pdcompare, name)(neg_mse, greater_is_better=False, **options)
    found = messages(caught, NEGATED)
    assert len(found) == 1
    assert "Drop `greater_is_better=False`" in str(found[0].message)


def test_negated_losses_as_they_are_stay_silent(neg_mse):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        summary = pdcompare.summary(neg_mse, cv=10)
        pdcompare.summary(-neg_mse, cv=10, greater_is_better=False)
    # The best model is the highest neg_mse, the lowest error: the mean of the folds.
    assert summary.index[0] == neg_mse.mean(axis=1).idxmax()
    assert summary.index[-1] == "mean"


def test_lower_is_better_on_neg_scores_warns_in_cli_words(neg_mse, tmp_path, capsys):
    path = tmp_path / "neg_mse.csv"
    neg_mse.to_csv(path)
    code = main([str(path), "--cv", "10", "--lower-is-better"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "Best model: mean" in out  # what --lower-is-better asks for, and the warning is about
    lines = err.splitlines()
    assert len([line for line in lines if "neg_*" in line]) == 1
    assert "Drop --lower-is-better" in err
    assert "greater_is_better" not in err
