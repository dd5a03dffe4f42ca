"""ranks() and top_set() on every frame kind: the covariances written out, results, errors."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from frames import correlated_scores
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

import pdcompare
from pdcompare.compare.rank_sets import COVARIANCES, estimates_of
from pdcompare.stats.rank_sets import rank_confidence_sets


def test_scores_frame_uses_the_nadeau_bengio_covariance():
    scores = correlated_scores(n_models=5, n_splits=15)
    found = estimates_of(scores, n_train=80, n_test=20)
    s = np.cov(scores.to_numpy(), ddof=1)
    assert_allclose(found.covariance, s * (1 / 15 + 20 / 80))
    assert_allclose(found.estimate, scores.mean(axis=1))
    result = scores.cmp.ranks(n_train=80, n_test=20, random_state=0)
    rank, low, high = rank_confidence_sets(
        scores.mean(axis=1).to_numpy(), s * (1 / 15 + 0.25), random_state=0
    )
    order = np.argsort(-scores.mean(axis=1).to_numpy(), kind="stable")
    assert result.index.tolist() == scores.index[order].tolist()
    assert_array_equal(result["rank_low"], low[order])
    assert_array_equal(result["rank_high"], high[order])
    assert_array_equal(result["rank"], rank[order])
    assert list(result.columns) == ["estimate", "rank", "rank_low", "rank_high"]
    meta = result.attrs["pdcompare"]
    assert meta["kind"] == "result"
    assert meta["test"] == "ranks"
    assert meta["covariance"] == "Nadeau–Bengio corrected"
    assert meta["coverage"] == 0.95
    assert meta["simultaneous"] is True
    assert meta["models"] == result.index.tolist()
    assert meta["random_state"] == 0


def test_benchmark_frame_uses_the_covariance_across_data_sets():
    bench = pdcompare.datasets.load_benchmark()
    data_means = bench.cmp.means()
    found = estimates_of(bench)
    complete = data_means.dropna(axis=1).to_numpy()
    assert_allclose(found.estimate, complete.mean(axis=1))
    assert_allclose(found.covariance, np.cov(complete, ddof=1) / complete.shape[1])
    result = bench.cmp.ranks(random_state=0)
    assert result.attrs["pdcompare"]["covariance"] == "across data sets"
    assert result.attrs["pdcompare"]["unit"] == "dataset"
    # ordered by the mean of per-data-set means, not by mean rank
    assert result["estimate"].is_monotonic_decreasing


def test_runs_frame_uses_a_diagonal_of_each_models_own_runs():
    runs = pd.DataFrame(
        [[0.7, 0.72, 0.71, np.nan], [0.6, 0.65, 0.61, 0.62], [0.5, 0.52, 0.55, 0.5]],
        index=["a", "b", "c"],
        columns=[f"seed{k}" for k in range(4)],
    ).cmp.set_design(paired=False)
    found = estimates_of(runs)
    values = runs.to_numpy()
    var = [np.var(row[~np.isnan(row)], ddof=1) / (~np.isnan(row)).sum() for row in values]
    assert_allclose(np.diag(found.covariance), var)
    assert np.count_nonzero(found.covariance - np.diag(np.diag(found.covariance))) == 0
    result = runs.cmp.ranks(random_state=0)
    assert result.attrs["pdcompare"]["covariance"] == COVARIANCES["runs"][0]
    assert result["rank_low"].tolist() == [1, 2, 3]


def test_predictions_frame_uses_the_covariance_of_correctness():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    preds = pd.DataFrame({"y": y})
    for name, err in [("good", 0.1), ("ok", 0.12), ("bad", 0.4)]:
        preds[name] = np.where(rng.random(400) < err, 1 - y, y)
    found = estimates_of(preds)
    right = preds[["good", "ok", "bad"]].eq(preds["y"], axis=0).to_numpy(dtype=float)
    assert_allclose(found.estimate, right.mean(axis=0))
    assert_allclose(found.covariance, np.cov(right.T, ddof=1) / 400)
    result = preds.cmp.ranks(random_state=0)
    assert result.attrs["pdcompare"]["covariance"] == "per-row correctness"
    assert result.loc["bad", "rank_low"] == 3
    assert pdcompare.top_set(preds, random_state=0) == ["good", "ok"]


def test_lower_is_better_ranks_the_smallest_loss_first():
    scores = correlated_scores(n_models=4)
    losses = (1 - scores).cmp.set_design(cv=5, greater_is_better=False)
    gains = scores.cmp.set_design(cv=5)
    down = losses.cmp.ranks(random_state=1)
    up = gains.cmp.ranks(random_state=1)
    assert down.index.tolist() == up.index.tolist()
    assert_array_equal(
        down[["rank", "rank_low", "rank_high"]], up[["rank", "rank_low", "rank_high"]]
    )
    assert down.attrs["pdcompare"]["greater_is_better"] is False


def test_top_set_is_the_models_whose_lower_bound_reaches_tau():
    scores = correlated_scores(n_models=6, n_splits=15)
    result = scores.cmp.ranks(cv=5, random_state=3)
    for tau in range(1, 7):
        expected = result.index[result["rank_low"] <= tau].tolist()
        assert scores.cmp.top_set(tau, cv=5, random_state=3) == expected
    sets = [set(scores.cmp.top_set(tau, cv=5, random_state=3)) for tau in range(1, 7)]
    assert all(a <= b for a, b in itertools.pairwise(sets))  # csranks: nested in tau
    assert sets[-1] == set(scores.index)


def test_seeds_reproduce_and_the_frame_is_left_alone():
    scores = correlated_scores().cmp.set_design(cv=5)
    before = scores.copy()
    attrs = {k: dict(v) if isinstance(v, dict) else v for k, v in scores.attrs.items()}
    first = scores.cmp.ranks(random_state=5, simultaneous=False)
    again = scores.cmp.ranks(random_state=5, simultaneous=False)
    pd.testing.assert_frame_equal(first, again)
    pd.testing.assert_frame_equal(scores, before)
    assert scores.attrs["pdcompare"]["design"] == attrs["pdcompare"]["design"]
    assert first.attrs["pdcompare"]["simultaneous"] is False


def test_missing_splits_are_left_out_with_a_warning():
    scores = correlated_scores()
    scores.iloc[1, 3] = np.nan
    with pytest.warns(UserWarning, match="1 of 15 splits have a missing score"):
        found = estimates_of(scores, cv=5)
    complete = scores.drop(columns=scores.columns[3]).to_numpy()
    assert_allclose(found.covariance, np.cov(complete) * (1 / 14 + 0.25))


@pytest.mark.parametrize(
    ("frame", "kwargs", "error", "match"),
    [
        (correlated_scores(), {}, ValueError, "Pass `cv=`"),
        (correlated_scores(n_models=1), {"cv": 5}, ValueError, "at least 2 models"),
        (correlated_scores(), {"cv": 5, "coverage": 0}, ValueError, "`coverage` must be strictly"),
        (correlated_scores(), {"cv": 5, "coverage": 1.5}, ValueError, "`coverage`"),
        (correlated_scores(), {"cv": 5, "n_draws": 5}, ValueError, "`n_draws`"),
        ([[1, 2]], {}, TypeError, "DataFrame"),
    ],
)
def test_bad_input_of_ranks(frame, kwargs, error, match):
    with pytest.raises(error, match=match):
        pdcompare.ranks(frame, **kwargs)


@pytest.mark.parametrize(
    ("tau", "error", "match"),
    [
        (0, ValueError, r"`tau` must be from 1 to the number of models \(5\); got 0"),
        (6, ValueError, "`tau` must be from 1"),
        (1.5, TypeError, "`tau` must be an integer"),
    ],
)
def test_bad_tau(tau, error, match):
    with pytest.raises(error, match=match):
        correlated_scores().cmp.top_set(tau, cv=5)


def test_design_keywords_on_a_predictions_frame_are_refused():
    preds = pd.DataFrame({"y": [0, 1, 1, 0], "a": [0, 1, 1, 1], "b": [1, 1, 0, 0]})
    with pytest.raises(ValueError, match=r"\['cv'\] do not apply to a predictions frame"):
        preds.cmp.ranks(cv=5)


def test_the_order_of_the_rows_does_not_matter():
    scores = correlated_scores(n_models=6).cmp.set_design(cv=5)
    shuffled = scores.iloc[[3, 0, 5, 1, 4, 2]]
    pd.testing.assert_frame_equal(
        scores.cmp.ranks(random_state=2), shuffled.cmp.ranks(random_state=2)
    )


@pytest.mark.parametrize(("se", "equal"), [("cr1", True), ("cr2", False), (None, False)])
def test_items_frames_use_the_clustered_covariance_of_the_paired_t(se, equal):
    # Var(a − b) from the rank sets' covariance equals the clustered (CR1 or CR2) standard
    # error of the paired t over questions, squared: the same covariance the items ttest
    # uses, on the same degrees of freedom (C − 1, or CR2's Satterthwaite df).
    rng = np.random.default_rng(4)
    passage = np.arange(300) // 10 if equal else np.minimum(np.arange(300) ** 2 // 3000, 29)
    rows = []
    for name, p in (("a", 0.8), ("b", 0.74), ("c", 0.6)):
        passage_effect = rng.normal(0, 0.2, 30)
        for item in range(300):
            chance = np.clip(p + passage_effect[passage[item]], 0, 1)
            rows.append((name, item, passage[item], float(rng.random() < chance)))
    table = pd.DataFrame(rows, columns=["model", "item", "passage", "score"])
    items = pdcompare.from_items(table, cluster="passage")
    result = items.cmp.ranks(random_state=0, se=se)
    word = "CR1" if se == "cr1" else "CR2"  # 30 clusters: CR2 by default
    assert result.attrs["pdcompare"]["covariance"] == f"clustered ({word})"
    from pdcompare.compare.rank_sets import estimates_of

    found = estimates_of(items, se=se)
    cov = pd.DataFrame(found.covariance, index=found.names, columns=found.names)
    tested = items.cmp.ttest(correction=None, se=se)
    for row in tested.itertuples():
        var = cov.loc[row.model_1, row.model_1] + cov.loc[row.model_2, row.model_2]
        var -= 2 * cov.loc[row.model_1, row.model_2]
        assert np.sqrt(var) == pytest.approx(row.se, rel=1e-10)
    assert found.df == pytest.approx(tested["df"].iloc[0], rel=1e-12)
    if se == "cr1":
        assert found.df == 30 - 1  # 30 passages
    else:
        assert found.df < 30 - 1  # unequal passages: Satterthwaite's df fall below C − 1


@pytest.mark.parametrize(("t_value", "separated"), [(2.5, False), (3.1, True)])
def test_scores_frame_of_few_splits_uses_students_bar(t_value, separated):
    # Two models on 5 splits (cv=5: n_test/n_train = 1/4): Sigma-hat has 4 degrees of
    # freedom, so the leader's set is {1} only beyond t_{4, 0.975} = 2.776 (normal: 1.96).
    noise = np.array([0.3, -1.1, 0.8, 0.4, -0.4])
    scale = np.sqrt(noise.var(ddof=1) * (1 / 5 + 1 / 4))
    diff = noise - noise.mean() + t_value * scale
    corrected_t = diff.mean() / np.sqrt(diff.var(ddof=1) * (1 / 5 + 1 / 4))
    assert corrected_t == pytest.approx(t_value)
    base = np.array([0.81, 0.79, 0.80, 0.82, 0.78])
    scores = pd.DataFrame([base + diff / 100, base], index=["a", "b"])
    result = scores.cmp.ranks(cv=5, random_state=0)
    assert result.attrs["pdcompare"]["draws_df"] == 4
    assert bool(corrected_t > stats.t.ppf(0.975, 4)) is separated
    assert result.loc["a", "rank_high"] == (1 if separated else 2)


def test_degrees_of_freedom_of_each_frame_kind():
    # scores: k - 1 splits; benchmark: N - 1 data sets; items: C - 1 clusters (n - 1 items
    # without); runs, predictions and battles keep normal draws.
    scores = correlated_scores(n_models=3, n_splits=8)
    assert estimates_of(scores, cv=8).df == 7
    bench = pdcompare.datasets.load_benchmark()
    assert estimates_of(bench).df == bench.cmp.means().dropna(axis=1).shape[1] - 1
    runs = pdcompare.set_design(correlated_scores(n_models=3, n_splits=6), paired=False)
    assert estimates_of(runs).df is None
