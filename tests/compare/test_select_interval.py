"""``select(rule="best")`` reports the corrected interval whenever the design is known."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare


@pytest.fixture(scope="module")
def search():
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV, KFold

    X, y = load_diabetes(return_X_y=True)
    cv = KFold(10, shuffle=True, random_state=0)
    return GridSearchCV(Ridge(), {"alpha": [0.01, 0.1, 1.0, 10.0]}, cv=cv).fit(X, y)


def corrected_interval(values, ratio, level=0.95):
    """Nadeau–Bengio interval written out: mean ± t · sd · sqrt(1/n + n_test/n_train)."""
    n = values.size
    half = stats.t.ppf(0.5 + level / 2, n - 1) * values.std(ddof=1) * np.sqrt(1 / n + ratio)
    return values.mean() - half, values.mean() + half


@pytest.mark.parametrize("rule", ["best", "one_se", "not_worse"])
def test_every_rule_reports_the_corrected_interval(search, rule):
    scores = pdcompare.from_search(search)
    out = pdcompare.select(scores, rule, by="alpha", ascending=False)
    assert out.attrs["pdcompare"]["interval"] == "nadeau-bengio"
    for name in out.index:
        low, high = corrected_interval(scores.loc[name].to_numpy(), 1 / 9)
        assert_allclose(out.loc[name, ["ci_low", "ci_high"]].to_numpy(float), [low, high])


def test_best_without_a_design_gives_the_plain_interval(search):
    scores = pdcompare.from_search(search)
    plain = scores.copy()
    plain.attrs = {}
    out = pdcompare.select(plain, "best", by=list(scores.index))
    assert out.attrs["pdcompare"]["interval"] == "t"
    values = scores.iloc[0].to_numpy()
    low, high = corrected_interval(values, 0.0)  # ratio 0: the plain t interval
    assert_allclose(out.loc[scores.index[0], ["ci_low", "ci_high"]].to_numpy(float), [low, high])
