"""Choosing a model on evidence: select() and refit_rule, against the rules written out."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare

K = 10  # 10-fold CV: n_test / n_train = 1/9
RATIO = 1 / 9


def scores_where_the_rules_disagree():
    """Five models, simplest first, built so that every rule picks a different one.

    The best (m4) has a noisy fold vector; m3 is 0.008 behind with a tiny spread of
    differences, m2 0.012 behind, m1 0.03 behind, m0 0.08 behind.
    """
    rng = np.random.default_rng(11)
    base = 0.85 + rng.normal(0, 0.02, K)
    behind = {"m0": 0.08, "m1": 0.03, "m2": 0.012, "m3": 0.008, "m4": 0.0}
    noise = {"m0": 0.01, "m1": 0.006, "m2": 0.004, "m3": 0.001, "m4": 0.0}
    rows = {m: base - d + rng.normal(0, noise[m], K) for m, d in behind.items()}
    return pd.DataFrame(rows).T.set_axis([f"f{k}" for k in range(K)], axis=1)


def test_each_rule_against_its_formula():
    scores = scores_where_the_rules_disagree()
    means = scores.mean(axis=1)
    best = means.idxmax()
    order = ["m0", "m1", "m2", "m3", "m4"]  # simplest first
    n = K
    # one_se: within one Nadeau-Bengio corrected standard error of the best.
    se = scores.loc[best].std(ddof=1) * np.sqrt(1 / n + RATIO)
    one_se = next(m for m in order if means[best] - means[m] <= se)
    naive_se = scores.loc[best].std(ddof=1) / np.sqrt(n)  # the gallery's plain standard error
    naive = next(m for m in order if means[best] - means[m] <= naive_se)
    assert one_se != naive  # the data tell the corrected and the naive rules apart
    # not_worse: the one-sided corrected t-test of best - model does not reject.
    def corrected_p(m):
        d = scores.loc[best] - scores.loc[m]
        t = d.mean() / np.sqrt(d.var(ddof=1) * (1 / n + RATIO))
        return stats.t.sf(t, n - 1)
    not_worse = next(m for m in order if m == best or corrected_p(m) > 0.05)
    # equivalent: P(best - model < rope) >= 0.95 under the correlated t posterior.
    rope = 0.02
    def p_equivalent(m):
        d = scores.loc[best] - scores.loc[m]
        scale = np.sqrt(d.var(ddof=1) * (1 / n + RATIO))
        return stats.t.cdf(rope, n - 1, loc=d.mean(), scale=scale) if scale > 0 else 1.0
    equivalent = next(m for m in order if m == best or p_equivalent(m) >= 0.95)
    expected = {"best": best, "one_se": one_se, "not_worse": not_worse, "equivalent": equivalent}
    chosen = {
        rule: pdcompare.select(scores, rule, by=order, cv=K, rope=rope)
        for rule in expected
    }
    for rule, result in chosen.items():
        assert result.attrs["pdcompare"]["selected"] == expected[rule], rule
        assert result["selected"].sum() == 1
        assert result.index[result["selected"]][0] == expected[rule]
    assert len(set(expected.values())) >= 3
    one = chosen["one_se"]
    assert_allclose(one.attrs["pdcompare"]["threshold"], se)
    assert_allclose(one["diff_to_best"], (means[best] - means).reindex(one.index), atol=1e-15)
    assert list(one.index) == order
    assert list(one.columns[:4]) == ["mean", "diff_to_best", "eligible", "selected"]
    assert "within one corrected standard error" in one.attrs["pdcompare"]["reason"]


def test_losses_and_descending_complexity():
    scores = scores_where_the_rules_disagree()
    losses = (1 - scores).cmp.set_design(cv=K, greater_is_better=False)
    gains = scores.cmp.set_design(cv=K)
    by = {"m0": 5.0, "m1": 4.0, "m2": 3.0, "m3": 2.0, "m4": 1.0}  # larger = simpler
    for rule in ("one_se", "not_worse"):
        a = losses.cmp.select(rule, by=by, ascending=False)
        b = gains.cmp.select(rule, by=by, ascending=False)
        assert a.attrs["pdcompare"]["selected"] == b.attrs["pdcompare"]["selected"]
        assert (a["diff_to_best"] >= 0).all()
        assert list(a.index) == ["m0", "m1", "m2", "m3", "m4"]


def test_ties_in_complexity_are_broken_by_the_better_mean():
    scores = scores_where_the_rules_disagree()
    result = scores.cmp.select("best", by={"m0": 1, "m1": 1, "m2": 1, "m3": 2, "m4": 2})
    assert list(result.index) == ["m2", "m1", "m0", "m4", "m3"]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"rule": "simplest", "by": ["a"]}, ValueError, "`rule` must be one of"),
        ({"rule": "equivalent", "by": ["m0", "m1", "m2", "m3", "m4"]}, ValueError, "`rope`"),
        ({"rule": "one_se", "by": ["m0", "m1"]}, ValueError, r"missing: \['m2', 'm3', 'm4'\]"),
        ({"rule": "one_se", "by": "C"}, ValueError, "needs each model's parameters"),
        ({"rule": "one_se", "by": 3}, TypeError, "`by` must be a parameter name"),
    ],
)
def test_bad_inputs_are_clear_errors(kwargs, error, match):
    scores = scores_where_the_rules_disagree()
    with pytest.raises(error, match=match):
        scores.cmp.select(cv=K, **kwargs)


def test_rules_but_best_need_the_design():
    scores = scores_where_the_rules_disagree()
    with pytest.raises(ValueError, match="`cv=`"):
        scores.cmp.select("one_se", by=list(scores.index))
    assert scores.cmp.select("best", by=list(scores.index)).attrs["pdcompare"]["selected"] == "m4"


def _search(refit=True, scoring=None):
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1, 10, 100]}
    return GridSearchCV(model, grid, cv=5, refit=refit, scoring=scoring).fit(X, y)


@pytest.mark.slow
def test_refit_rule_in_a_real_search_matches_select():
    plain = _search()
    cv_results = pd.DataFrame(plain.cv_results_)
    for rule in ("best", "one_se", "not_worse"):
        search = _search(refit=pdcompare.refit_rule(rule, by="C", cv=5))
        chosen = cv_results.cmp.select(rule, by="C", cv=5)
        name = chosen.attrs["pdcompare"]["selected"]
        assert cv_results.cmp.scores().index[search.best_index_] == name
        if rule == "best":
            assert search.best_index_ == plain.best_index_  # scikit-learn's default refit


@pytest.mark.slow
def test_refit_rule_with_several_metrics():
    search = _search(
        refit=pdcompare.refit_rule("one_se", by="C", cv=5, metric="auc"),
        scoring={"auc": "roc_auc", "accuracy": "accuracy"},
    )
    frame = pd.DataFrame(search.cv_results_)
    chosen = frame.cmp.select("one_se", by="C", cv=5, metric="auc")
    assert frame.cmp.scores(metric="auc").index[search.best_index_] == (
        chosen.attrs["pdcompare"]["selected"]
    )


def test_refit_rule_refuses_a_missing_design_at_once():
    with pytest.raises(ValueError, match="needs the design"):
        pdcompare.refit_rule("one_se", by="C")
    with pytest.raises(ValueError, match="`rope`"):
        pdcompare.refit_rule("equivalent", by="C", cv=5)
