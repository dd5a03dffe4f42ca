"""Bayesian correlated t-test: ``bayes``, ``posterior`` and their plots.

References: DESIGN.md section 8 (values of the scikit-learn gallery example
"Statistical comparison of models using grid search"), ``baycomp.CorrelatedTTest``
(Benavoli et al.'s own package), ``scipy.stats.t`` and the formula written out.
"""

from __future__ import annotations

import warnings

import baycomp
import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import special, stats

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.datasets import load_grid_search_scores
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.stats import bayes as core

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from frames import scores_with_model_effects as random_scores

COLUMNS = [
    "model_1",
    "model_2",
    "mean_diff",
    "prob_better",
    "prob_rope",
    "prob_worse",
    "ci_low",
    "ci_high",
    "decision",
]
PROBS = ["prob_better", "prob_rope", "prob_worse"]




@pytest.fixture(scope="module")
def gallery():
    return load_grid_search_scores()


def reference(x, y, ratio, rope):
    """The posterior of mean(x - y) written out: Student t, n - 1 df, Nadeau-Bengio scale."""
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    n = len(d)
    scale = np.sqrt(np.var(d, ddof=1) * (1 / n + ratio))
    post = stats.t(n - 1, d.mean(), scale)
    low, high = rope
    return {
        "mean_diff": d.mean(),
        "prob_better": post.sf(high),
        "prob_rope": post.cdf(high) - post.cdf(low),
        "prob_worse": post.cdf(low),
        "interval": post.interval(0.95),
    }


# ----------------------------------------------------------------- DESIGN.md section 8


def test_gallery_pair_reference_values(gallery):
    # DESIGN.md section 8: rbf vs linear, rope 0.01 -> 0.500 / 0.432 / 0.068.
    result = gallery.cmp.bayes("rbf", "linear", rope=0.01)
    assert list(result.columns) == COLUMNS
    assert_allclose(result.loc[0, PROBS].to_numpy(float), [0.500, 0.432, 0.068], atol=5e-4)
    assert result.loc[0, "decision"] == "undecided"
    # baycomp, 10 repetitions of 10-fold CV (ratio 1/9); its differences are y - x.
    left, rope, right = baycomp.CorrelatedTTest.probs(
        gallery.loc["rbf"].to_numpy(), gallery.loc["linear"].to_numpy(), rope=0.01, runs=10
    )
    assert_allclose(result.loc[0, PROBS].to_numpy(float), [left, rope, right], rtol=1e-12)


def test_gallery_no_rope(gallery):
    # DESIGN.md section 8: P(rbf better) = 0.773 without a ROPE.
    result = gallery.cmp.bayes("rbf", "linear")
    assert_allclose(result.loc[0, "prob_better"], 0.773, atol=5e-4)
    assert result.loc[0, "prob_rope"] == 0.0
    left, right = baycomp.CorrelatedTTest.probs(
        gallery.loc["rbf"].to_numpy(), gallery.loc["linear"].to_numpy(), runs=10
    )
    assert_allclose(result.loc[0, ["prob_better", "prob_worse"]].to_numpy(float), [left, right])


@pytest.mark.parametrize(
    ("level", "expected"),
    [(0.5, (0.000977, 0.019023)), (0.75, (-0.005422, 0.025422)), (0.95, (-0.016445, 0.036445))],
)
def test_gallery_credible_intervals(gallery, level, expected):
    # DESIGN.md section 8, through posterior(...).interval(level).
    post = gallery.cmp.posterior("rbf", "linear")
    assert_allclose(post.interval(level), expected, atol=5e-7)
    result = gallery.cmp.bayes("rbf", "linear", ci=level)
    assert_allclose(result.loc[0, ["ci_low", "ci_high"]].to_numpy(float), expected, atol=5e-7)


def test_gallery_posterior_p_better(gallery):
    post = gallery.cmp.posterior("rbf", "linear")
    assert_allclose(post.sf(0.0), 0.773, atol=5e-4)
    # df = n - 1 = 99 (scipy's frozen distribution keeps its shape argument).
    assert post.args[0] == 99


def test_gallery_pairwise_table(gallery):
    # DESIGN.md section 8, pairwise bayes rope 0.01 (worse, better, rope), best-first pairs.
    expected = [
        ("rbf", "linear", 0.068, 0.500, 0.432),
        ("rbf", "3_poly", 0.018, 0.882, 0.100),
        ("rbf", "2_poly", 0.0, 1.0, 0.0),
        ("linear", "3_poly", 0.063, 0.750, 0.187),
        ("linear", "2_poly", 0.0, 1.0, 0.0),
        ("3_poly", "2_poly", 0.0, 1.0, 0.0),
    ]
    result = gallery.cmp.bayes(ALL_PAIRS, rope=0.01)
    assert list(result.columns) == COLUMNS
    assert result[["model_1", "model_2"]].to_numpy().tolist() == [list(e[:2]) for e in expected]
    got = result[["prob_worse", "prob_better", "prob_rope"]].to_numpy(float)
    assert_allclose(got, [e[2:] for e in expected], atol=5e-4)
    assert result["decision"].tolist() == [
        "undecided",
        "undecided",
        "rbf",
        "undecided",
        "linear",
        "3_poly",
    ]
    meta = result.attrs["pdcompare"]
    assert meta["scope"] == "all_pairs"
    assert meta["models"] == ["rbf", "linear", "3_poly", "2_poly"]


# ----------------------------------------------------------------- baycomp on random frames


@pytest.mark.parametrize(
    ("m", "n", "runs", "cv", "rope"),
    [(5, 10, 1, 10, 0.01), (6, 30, 3, 10, 0.005), (4, 20, 4, 5, 0.02), (7, 12, 2, 6, 0.0)],
)
def test_all_pairs_match_baycomp(m, n, runs, cv, rope):
    # baycomp's `runs` fixes the ratio to k-fold: k = n / runs, ratio 1/(k - 1) = cv=k here.
    scores = random_scores(m, n, seed=m * n)
    result = scores.cmp.bayes(ALL_PAIRS, rope=rope, cv=cv)
    for row in result.itertuples():
        # baycomp's differences are y - x: its left tail is model_1 being better.
        probs = baycomp.CorrelatedTTest.probs(
            scores.loc[row.model_1].to_numpy(), scores.loc[row.model_2].to_numpy(), rope, runs
        )
        if rope == 0:
            left, right = probs
            middle = 0.0
        else:
            left, middle, right = probs
        assert_allclose(
            [row.prob_better, row.prob_rope, row.prob_worse],
            [left, middle, right],
            rtol=1e-10,
            atol=1e-10,
        )


def test_large_all_pairs_table_path_matches_baycomp_and_scipy():
    # 120 models: 7140 pairs, enough for the covariance route and the tabulated t tails.
    scores = random_scores(120, 40, seed=7, spread=0.05)
    result = scores.cmp.bayes(ALL_PAIRS, rope=0.01, cv=10)
    values = scores.to_numpy()
    i = scores.index.get_indexer(result["model_1"])
    j = scores.index.get_indexer(result["model_2"])
    d = values[i] - values[j]
    n = values.shape[1]
    scale = np.sqrt(np.var(d, axis=1, ddof=1) * (1 / n + 1 / 9))
    # scipy.stats.t written out for every pair at once (P(mu > 0.01), P(mu < -0.01)).
    better = stats.t.sf(0.01, n - 1, d.mean(axis=1), scale)
    worse = stats.t.cdf(-0.01, n - 1, d.mean(axis=1), scale)
    assert_allclose(result["prob_better"], better, rtol=1e-11, atol=1e-15)
    assert_allclose(result["prob_worse"], worse, rtol=1e-11, atol=1e-15)
    assert_allclose(result["prob_rope"], 1 - better - worse, atol=1e-14)
    low, high = stats.t.interval(0.95, n - 1, d.mean(axis=1), scale)
    assert_allclose(result["ci_low"], low, rtol=1e-12, atol=1e-14)
    assert_allclose(result["ci_high"], high, rtol=1e-12, atol=1e-14)
    for row in result.sample(25, random_state=0).itertuples():
        left, middle, right = baycomp.CorrelatedTTest.probs(
            scores.loc[row.model_1].to_numpy(), scores.loc[row.model_2].to_numpy(), 0.01, 4
        )
        assert_allclose(
            [row.prob_better, row.prob_rope, row.prob_worse],
            [left, middle, right],
            atol=1e-10,
        )


def test_asymmetric_rope_matches_formula():
    scores = random_scores(3, 15, seed=3)
    result = scores.cmp.bayes("model0", rope=(-0.02, 0.005), test_size=0.2)
    assert result.attrs["pdcompare"]["rope"] == [-0.02, 0.005]
    for row in result.itertuples():
        ref = reference(scores.loc[row.model_1], scores.loc[row.model_2], 0.25, (-0.02, 0.005))
        assert_allclose(
            [row.mean_diff, row.prob_better, row.prob_rope, row.prob_worse],
            [ref["mean_diff"], ref["prob_better"], ref["prob_rope"], ref["prob_worse"]],
            rtol=1e-12,
            atol=1e-15,
        )
        assert_allclose([row.ci_low, row.ci_high], ref["interval"], rtol=1e-12)


def test_nadeau_bengio_scale_uses_number_of_splits_not_samples():
    # n_train=80, n_test=20 with 15 splits: the scale uses 1/15 + 20/80 (scikit-learn #19949).
    scores = random_scores(2, 15, seed=11)
    post = scores.cmp.posterior("model0", "model1", n_train=80, n_test=20)
    d = scores.loc["model0"] - scores.loc["model1"]
    assert_allclose(post.std(), np.sqrt(d.var(ddof=1) * (1 / 15 + 0.25) * 14 / 12), rtol=1e-12)
    assert_allclose(post.mean(), d.mean(), rtol=1e-12)


# ----------------------------------------------------------------- losses and decisions


def test_greater_is_better_false_swaps_the_tails():
    scores = random_scores(2, 10, seed=5)
    higher = scores.cmp.bayes("model0", "model1", rope=0.01, cv=10)
    lower = scores.cmp.bayes("model0", "model1", rope=0.01, cv=10, greater_is_better=False)
    assert_allclose(lower["prob_better"], higher["prob_worse"], rtol=1e-15)
    assert_allclose(lower["prob_worse"], higher["prob_better"], rtol=1e-15)
    assert_allclose(lower["mean_diff"], higher["mean_diff"], rtol=1e-15)
    assert lower.attrs["pdcompare"]["greater_is_better"] is False
    # baycomp (losses): p_right = P(y - x > rope) = P(model_1 lower by more than the rope).
    left, middle, right = baycomp.CorrelatedTTest.probs(
        scores.loc["model0"].to_numpy(), scores.loc["model1"].to_numpy(), 0.01, 1
    )
    assert_allclose(lower.loc[0, PROBS].to_numpy(float), [right, middle, left], rtol=1e-12)


def test_losses_best_is_lowest():
    losses = pd.DataFrame(
        [[0.30, 0.32, 0.29, 0.31], [0.10, 0.12, 0.11, 0.09], [0.20, 0.22, 0.19, 0.24]],
        index=["high", "low", "mid"],
    )
    result = losses.cmp.bayes(cv=4, greater_is_better=False)
    assert result["model_1"].tolist() == ["low", "low"]
    assert result["model_2"].tolist() == ["mid", "high"]
    assert (result["mean_diff"] < 0).all()
    assert result["decision"].tolist() == ["low", "low"]
    ref = reference(losses.loc["low"], losses.loc["mid"], 1 / 3, (0.0, 0.0))
    assert_allclose(result.loc[0, "prob_better"], ref["prob_worse"], rtol=1e-12)


def test_decision_follows_alpha():
    scores = random_scores(2, 20, seed=2)
    result = scores.cmp.bayes("model0", "model1", rope=0.001, cv=10)
    p = max(result.loc[0, PROBS])
    winner = result.loc[0, PROBS].astype(float).idxmax()
    expected = {
        "prob_better": "model0",
        "prob_worse": "model1",
        "prob_rope": "equivalent",
    }[winner]
    assert (
        scores.cmp.bayes("model0", "model1", rope=0.001, cv=10, alpha=1 - p + 1e-9).loc[
            0, "decision"
        ]
        == expected
    )
    assert (
        scores.cmp.bayes("model0", "model1", rope=0.001, cv=10, alpha=1 - p - 1e-9).loc[
            0, "decision"
        ]
        == "undecided"
    )


def test_equivalent_decision_with_wide_rope():
    scores = random_scores(2, 30, seed=4, spread=0.001)
    result = scores.cmp.bayes("model0", "model1", rope=0.5, cv=10)
    assert result.loc[0, "decision"] == "equivalent"
    assert result.loc[0, "prob_rope"] > 0.999


# ----------------------------------------------------------------- scopes and metadata


def test_scopes_and_attrs(gallery):
    best = gallery.cmp.bayes(rope=0.01)
    assert best["model_1"].tolist() == ["rbf"] * 3
    assert best["model_2"].tolist() == ["linear", "3_poly", "2_poly"]
    meta = best.attrs["pdcompare"]
    assert meta["kind"] == "result"
    assert meta["test"] == "bayes"
    assert meta["scope"] == "best_vs_rest"
    assert meta["rope"] == [-0.01, 0.01]
    assert meta["ci"] == 0.95
    assert meta["alpha"] == 0.05
    assert meta["greater_is_better"] is True
    assert_allclose(meta["design"]["test_train_ratio"], 1 / 9)
    one = gallery.cmp.bayes("linear", rope=0.01)
    assert one.attrs["pdcompare"]["scope"] == "one_vs_rest"
    assert one["model_2"].tolist() == ["rbf", "3_poly", "2_poly"]
    pair = gallery.cmp.bayes("2_poly", "rbf", rope=0.01)
    assert pair.attrs["pdcompare"]["scope"] == "pair"
    # The same pair reversed: probabilities swap, the difference changes sign.
    assert_allclose(pair.loc[0, "mean_diff"], -best.loc[2, "mean_diff"])
    assert_allclose(pair.loc[0, "prob_worse"], best.loc[2, "prob_better"])
    assert pair.loc[0, "decision"] == "rbf"


def test_all_pairs_equal_pair_by_pair_calls(gallery):
    table = gallery.cmp.bayes(ALL_PAIRS, rope=0.01)
    for row in table.itertuples(index=False):
        single = gallery.cmp.bayes(row.model_1, row.model_2, rope=0.01)
        assert_allclose(
            single.loc[0, COLUMNS[2:8]].to_numpy(float),
            np.array(row[2:8], dtype=float),
            rtol=1e-12,
            atol=1e-15,
        )


def test_cv_results_frame_and_keyword_design(gallery):
    cv_results = pd.DataFrame(
        {
            "params": [{"kernel": name} for name in gallery.index],
            **{f"split{k}_test_score": gallery.iloc[:, k].to_numpy() for k in range(100)},
        }
    )
    result = cv_results.cmp.bayes("rbf", "linear", rope=0.01, cv=10)
    assert_allclose(result.loc[0, PROBS].to_numpy(float), [0.500, 0.432, 0.068], atol=5e-4)


def test_frame_is_not_modified(gallery):
    before = gallery.copy()
    attrs = {"pdcompare": dict(gallery.attrs["pdcompare"])}
    gallery.cmp.bayes(ALL_PAIRS, rope=0.01)
    gallery.cmp.posterior("rbf", "linear")
    pd.testing.assert_frame_equal(gallery, before)
    assert gallery.attrs == attrs


# ----------------------------------------------------------------- degenerate data


def test_identical_models_point_mass_at_zero():
    scores = pd.DataFrame([[0.8, 0.9, 0.7], [0.8, 0.9, 0.7]], index=["a", "b"])
    with pytest.warns(PdcompareWarning, match="identical scores on every split"):
        result = scores.cmp.bayes("a", "b", rope=0.01, cv=3)
    assert_array_equal(result.loc[0, PROBS].to_numpy(float), [0.0, 1.0, 0.0])
    assert_array_equal(result.loc[0, ["ci_low", "ci_high"]].to_numpy(float), [0.0, 0.0])
    assert result.loc[0, "decision"] == "equivalent"
    with pytest.warns(PdcompareWarning, match="identical"):
        no_rope = scores.cmp.bayes("a", "b", cv=3)
    assert_array_equal(no_rope.loc[0, PROBS].to_numpy(float), [0.0, 1.0, 0.0])


def test_constant_difference_point_mass():
    scores = pd.DataFrame([[0.8, 0.9, 0.7], [0.75, 0.85, 0.65]], index=["a", "b"])
    with pytest.warns(PdcompareWarning, match="same on every split"):
        result = scores.cmp.bayes("a", "b", rope=0.01, cv=3)
    assert_array_equal(result.loc[0, PROBS].to_numpy(float), [1.0, 0.0, 0.0])
    assert_allclose(result.loc[0, ["ci_low", "ci_high"]].to_numpy(float), [0.05, 0.05])
    assert result.loc[0, "decision"] == "a"
    with pytest.warns(PdcompareWarning, match="same on every split"):
        wide = scores.cmp.bayes("a", "b", rope=0.1, cv=3)
    assert_array_equal(wide.loc[0, PROBS].to_numpy(float), [0.0, 1.0, 0.0])
    with pytest.warns(PdcompareWarning, match="same on every split"):
        post = scores.cmp.posterior("b", "a", cv=3)
    assert_allclose(post.interval(0.95), (-0.05, -0.05), atol=1e-15)
    assert post.cdf(-0.0501) == 0.0
    assert post.cdf(-0.0499) == 1.0


def test_degenerate_pairs_in_the_covariance_route():
    # Five models: 10 pairs > 5 models, so variances come from the covariance matrix;
    # the guard must recompute the identical pair and the constant shift exactly.
    rng = np.random.default_rng(0)
    base = 1000.0 + rng.normal(0, 1, 8)  # large offset: cancellation would show
    values = np.vstack([base, base, base + 0.5, rng.normal(1000, 1, 8), rng.normal(999, 1, 8)])
    scores = pd.DataFrame(values, index=list("abcde"))
    with pytest.warns(PdcompareWarning) as record:
        result = scores.cmp.bayes(ALL_PAIRS, rope=0.1, cv=8)
    messages = " ".join(str(w.message) for w in record)
    assert "identical scores" in messages
    assert "same on every split" in messages
    pairs = {(r.model_1, r.model_2): r for r in result.itertuples()}
    ab = pairs.get(("a", "b")) or pairs[("b", "a")]
    assert (ab.prob_rope, ab.ci_low, ab.ci_high) == (1.0, 0.0, 0.0)
    ca = pairs[("c", "a")]
    assert (ca.prob_better, ca.prob_rope, ca.prob_worse) == (1.0, 0.0, 0.0)
    assert_allclose(ca.mean_diff, 0.5, rtol=1e-12)


def test_near_identical_models_guard_matches_explicit_differences():
    rng = np.random.default_rng(1)
    base = 1e4 + rng.normal(0, 1, 50)
    values = np.vstack([base + rng.normal(0, 1e-7, 50) for _ in range(6)])
    scores = pd.DataFrame(values, index=[f"m{k}" for k in range(6)])
    result = scores.cmp.bayes(ALL_PAIRS, rope=1e-8, cv=5)
    for row in result.itertuples():
        ref = reference(scores.loc[row.model_1], scores.loc[row.model_2], 0.25, (-1e-8, 1e-8))
        assert_allclose(
            [row.prob_better, row.prob_rope, row.prob_worse],
            [ref["prob_better"], ref["prob_rope"], ref["prob_worse"]],
            atol=1e-7,
        )


# ----------------------------------------------------------------- missing scores


@pytest.fixture
def with_nan():
    scores = random_scores(4, 12, seed=9)
    scores.iloc[1, 3] = np.nan
    scores.iloc[1, 7] = np.nan
    return scores


def test_nan_propagate(with_nan):
    with pytest.warns(PdcompareWarning, match="missing scores"):
        result = with_nan.cmp.bayes(ALL_PAIRS, rope=0.01, cv=4)
    involved = (result["model_1"] == "model1") | (result["model_2"] == "model1")
    assert result.loc[involved, COLUMNS[2:8]].isna().all().all()
    assert result.loc[involved, "decision"].isna().all()
    assert result.loc[~involved, PROBS].notna().all().all()
    clean = with_nan.drop(index="model1").cmp.bayes(ALL_PAIRS, rope=0.01, cv=4)
    assert_allclose(
        result.loc[~involved, PROBS].to_numpy(float), clean[PROBS].to_numpy(float), rtol=1e-12
    )


@pytest.mark.parametrize("scope", [ALL_PAIRS, "model1"])
def test_nan_omit_matches_formula_on_common_splits(with_nan, scope):
    result = with_nan.cmp.bayes(scope, rope=0.01, cv=4, nan_policy="omit")
    assert result[PROBS].notna().all().all()
    for row in result.itertuples():
        both = with_nan.loc[[row.model_1, row.model_2]].dropna(axis=1)
        ref = reference(both.iloc[0], both.iloc[1], 1 / 3, (-0.01, 0.01))
        assert_allclose(
            [row.mean_diff, row.prob_better, row.prob_rope, row.prob_worse],
            [ref["mean_diff"], ref["prob_better"], ref["prob_rope"], ref["prob_worse"]],
            rtol=1e-10,
            atol=1e-14,
        )
        assert_allclose([row.ci_low, row.ci_high], ref["interval"], rtol=1e-10)


def test_nan_raise_and_posterior(with_nan):
    with pytest.raises(ValueError, match="missing scores"):
        with_nan.cmp.bayes(nan_policy="raise", cv=4)
    with pytest.raises(ValueError, match="missing scores"):
        with_nan.cmp.posterior("model1", "model0", cv=4)
    post = with_nan.cmp.posterior("model1", "model0", cv=4, nan_policy="omit")
    assert post.args[0] == 9  # 10 common splits


def test_too_few_common_splits():
    scores = pd.DataFrame(
        [[0.8, np.nan, 0.7], [np.nan, 0.9, 0.6], [0.7, 0.8, 0.5]], index=["a", "b", "c"]
    )
    result = scores.cmp.bayes("a", "b", cv=3, nan_policy="omit")
    assert result.loc[0, PROBS].isna().all()
    with pytest.raises(ValueError, match="fewer than 2 splits"):
        scores.cmp.posterior("a", "b", cv=3, nan_policy="omit")


# ----------------------------------------------------------------- errors


def test_design_required():
    scores = random_scores(2, 5, seed=0)
    with pytest.raises(ValueError, match="`bayes` needs the cross-validation design"):
        scores.cmp.bayes()
    with pytest.raises(ValueError, match="`posterior` needs the cross-validation design"):
        scores.cmp.posterior("model0", "model1")


@pytest.mark.parametrize(
    ("rope", "error", "match"),
    [
        (-0.01, ValueError, r"`rope` as a half-width must be a finite number >= 0; got -0.01"),
        (np.inf, ValueError, "`rope` as a half-width must be a finite number"),
        ((0.02, 0.01), ValueError, r"low <= high; got \(0.02, 0.01\)"),
        ((np.nan, 0.01), ValueError, "`rope` ends must be finite"),
        ((0.0, 0.1, 0.2), TypeError, "`rope` must be a half-width"),
        ("0.01", TypeError, "`rope` must be a half-width"),
        (True, TypeError, "`rope` must be a half-width"),
        (("a", 0.1), TypeError, "`rope` ends must be numbers"),
    ],
)
def test_bad_rope(gallery, rope, error, match):
    with pytest.raises(error, match=match):
        gallery.cmp.bayes(rope=rope)


def test_bad_options(gallery):
    with pytest.raises(ValueError, match="`ci` must be strictly between 0 and 1"):
        gallery.cmp.bayes(ci=1.5)
    with pytest.raises(ValueError, match="`alpha` must be strictly between 0 and 1"):
        gallery.cmp.bayes(alpha=0.0)
    with pytest.raises(ValueError, match="`nan_policy` must be one of"):
        gallery.cmp.bayes(nan_policy="drop")
    with pytest.raises(ValueError, match="`nan_policy` must be one of 'raise', 'omit'"):
        gallery.cmp.posterior("rbf", "linear", nan_policy="propagate")
    with pytest.raises(ValueError, match=r"`b`: unknown model 'lineat'\. Did you mean 'linear'"):
        gallery.cmp.bayes("rbf", "lineat")
    with pytest.raises(ValueError, match="`a` and `b` are the same model"):
        gallery.cmp.posterior("rbf", "rbf")
    with pytest.raises(TypeError, match="Unexpected keyword argument `rop`"):
        gallery.cmp.bayes(rop=0.01)


# ----------------------------------------------------------------- numerical core


@pytest.mark.parametrize("df", [2.0, 3.0, 4.0, 9.0, 29.0, 99.0, 999.0, 9999.0, 2.5])
def test_tabulated_tail_matches_stdtr(df):
    x = np.concatenate([np.linspace(0.0, 80.0, 40_001), np.geomspace(1e-8, 1e3, 5000)])
    fast = core.upper_tail(df, x)
    exact = special.stdtr(df, -x)
    positive = exact > 0
    assert_allclose(fast[positive], exact[positive], rtol=5e-12, atol=0)
    assert (fast[~positive] < 1e-280).all()


def test_tabulated_tail_cauchy_exact():
    # df = 1 is the Cauchy distribution: P(X > x) = 1/2 - arctan(x)/pi exactly.
    x = np.linspace(0.0, 60.0, 30_001)
    assert_allclose(core.upper_tail(1.0, x), 0.5 - np.arctan(x) / np.pi, rtol=1e-13)


def test_tail_mixed_dfs_and_nan():
    df = np.repeat([4.0, 9.0, np.nan, 99.0], 2000)
    x = np.tile(np.linspace(0, 10, 2000), 4)
    x[5] = np.nan
    got = core.upper_tail(df, x)
    assert_allclose(got, special.stdtr(df, -x), rtol=1e-12, equal_nan=True)
    many = np.arange(1.0, 5001.0)  # more distinct dfs than the table serves
    assert_allclose(
        core.upper_tail(many, np.full(5000, 2.0)), special.stdtr(many, -2.0), rtol=1e-15
    )


def test_rope_probabilities_keep_small_tails_accurate():
    # Far from the ROPE, each probability comes from its own tail (no 1 - p cancellation).
    below, inside, above = core.rope_probabilities(9.0, 1.0, 0.01, -0.01, 0.01)
    assert_allclose(inside, stats.t.cdf(0.01, 9, 1.0, 0.01) - stats.t.cdf(-0.01, 9, 1.0, 0.01))
    assert_allclose(below, stats.t.cdf(-0.01, 9, 1.0, 0.01), rtol=1e-12)
    assert above == 1.0 - inside - below or np.isclose(above, 1.0)


# ----------------------------------------------------------------- properties

finite_scores = st.lists(
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False), min_size=6, max_size=6
)


@settings(deadline=None, max_examples=50, derandomize=True)
@given(
    a=finite_scores,
    b=finite_scores,
    rope=st.floats(min_value=0.0, max_value=0.2),
    wider=st.floats(min_value=0.0, max_value=0.2),
)
def test_properties(a, b, rope, wider):
    scores = pd.DataFrame([a, b], index=["a", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdcompareWarning)  # degenerate draws warn
        ab = scores.cmp.bayes("a", "b", rope=rope, cv=3)
        ba = scores.cmp.bayes("b", "a", rope=rope, cv=3)
        wide = scores.cmp.bayes("a", "b", rope=rope + wider, cv=3)
    probs = ab.loc[0, PROBS].to_numpy(float)
    # The three probabilities are probabilities and sum to one.
    assert ((probs >= 0) & (probs <= 1)).all()
    assert_allclose(probs.sum(), 1.0, atol=1e-12)
    # Swapping a and b swaps prob_better and prob_worse (symmetric ROPE).
    assert_allclose(ba.loc[0, "prob_better"], ab.loc[0, "prob_worse"], atol=1e-12)
    assert_allclose(ba.loc[0, "prob_worse"], ab.loc[0, "prob_better"], atol=1e-12)
    assert_allclose(ba.loc[0, "prob_rope"], ab.loc[0, "prob_rope"], atol=1e-12)
    # A wider ROPE never lowers prob_rope.
    assert wide.loc[0, "prob_rope"] >= ab.loc[0, "prob_rope"] - 1e-12


@settings(deadline=None, max_examples=30, derandomize=True)
@given(
    seed=st.integers(0, 2**16),
    low=st.floats(-0.05, 0.05),
    width=st.floats(0.0, 0.05),
)
def test_property_all_pairs_route_equals_explicit_route(seed, low, width):
    # Covariance route (all pairs of 6 models) against the explicit one (pair by pair).
    values = random_scores(6, 8, seed=seed).to_numpy()
    i, j = np.triu_indices(6, k=1)
    rope = (low, low + width)
    together = core.bayes_pairs(values, i, j, test_train_ratio=0.2, rope=rope)
    for k in range(len(i)):
        alone = core.bayes_pairs(
            values, i[k : k + 1], j[k : k + 1], test_train_ratio=0.2, rope=rope
        )
        for name in ("mean_diff", "prob_better", "prob_rope", "prob_worse", "ci_low", "ci_high"):
            assert_allclose(together[name][k], alone[name][0], rtol=1e-9, atol=1e-13)


# ----------------------------------------------------------------- plots


def test_posterior_plot(gallery):
    _fig, ax = plt.subplots()
    returned = gallery.cmp.plot("posterior", a="rbf", b="linear", rope=0.01, ax=ax)
    assert returned is ax
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "P(rbf better) = 0.500" in texts
    assert "P(linear better) = 0.068" in texts
    assert "ROPE [-0.01, 0.01]: P(equivalent) = 0.432" in texts
    rope_patches = [p for p in ax.patches if p.get_label().startswith("ROPE")]
    assert len(rope_patches) == 1
    x0, x1 = rope_patches[0].get_x(), rope_patches[0].get_x() + rope_patches[0].get_width()
    assert_allclose([x0, x1], [-0.01, 0.01])
    line = ax.get_lines()[0]
    post = gallery.cmp.posterior("rbf", "linear")
    assert_allclose(line.get_ydata(), post.pdf(line.get_xdata()))
    assert ax.get_xlabel() == "mean score difference rbf − linear"
    assert ax.get_ylabel() == "posterior density"
    assert "rbf vs linear" in ax.get_title()


def test_posterior_plot_defaults_new_figure_and_zero_rope(gallery):
    plt.figure()
    current = plt.gca()
    ax = gallery.cmp.plot("posterior")  # best vs runner-up, no ROPE
    assert ax.figure is not current.figure  # a new figure, as DataFrame.plot
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "P(rbf better) = 0.773" in texts
    assert "no ROPE (0)" in texts
    assert not [p for p in ax.patches if p.get_label().startswith("ROPE")]


def test_posterior_plot_losses_and_point_mass():
    scores = pd.DataFrame([[0.3, 0.2, 0.4], [0.25, 0.15, 0.35]], index=["a", "b"])
    with pytest.warns(PdcompareWarning, match="same on every split"):
        ax = scores.cmp.plot(
            "posterior", a="a", b="b", rope=0.01, cv=3, greater_is_better=False, color="red"
        )
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0] == "point mass at 0.05"
    assert "P(b better) = 1.000" in texts
    assert "P(a better) = 0.000" in texts
    assert ax.get_lines()[0].get_color() == "red"


def test_bayes_heatmap(gallery):
    result = gallery.cmp.bayes(ALL_PAIRS, rope=0.01)
    fig, ax = plt.subplots()
    returned = result.cmp.plot(ax=ax)
    assert returned is ax
    image = ax.get_images()[0]
    matrix = image.get_array()
    assert matrix.shape == (4, 4)
    names = ["rbf", "linear", "3_poly", "2_poly"]
    assert [t.get_text() for t in ax.get_yticklabels()] == names
    assert [t.get_text() for t in ax.get_xticklabels()] == names
    # Row rbf, column linear: prob_better of (rbf, linear); the mirror holds prob_worse.
    assert_allclose(matrix[0, 1], result.loc[0, "prob_better"])
    assert_allclose(matrix[1, 0], result.loc[0, "prob_worse"])
    assert matrix.mask[np.diag_indices(4)].all()
    annotations = [t.get_text() for t in ax.texts]
    assert len(annotations) == 12
    assert "0.50" in annotations
    assert len(fig.axes) == 2  # the colorbar


def test_bayes_best_vs_rest_is_a_bar_per_opponent_not_a_blank_matrix(gallery):
    result = gallery.cmp.bayes(rope=0.01)
    ax = result.cmp.plot(annot=False)
    assert not ax.get_images()
    assert [len(bars) for bars in ax.containers] == [3, 3, 3]  # better, rope, worse


def test_plot_kind_errors(gallery):
    with pytest.raises(ValueError, match="`nan_policy` must be one of"):
        gallery.cmp.plot("posterior", nan_policy="drop")
    with pytest.raises(ValueError, match="draws a scores frame"):
        gallery.cmp.bayes().cmp.plot("posterior")


def test_import_stays_light():
    import subprocess
    import sys

    code = (
        "import sys, pdcompare, pdcompare.stats.bayes; "
        "print('scipy.stats' in sys.modules, 'matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
    assert pdcompare.__version__
