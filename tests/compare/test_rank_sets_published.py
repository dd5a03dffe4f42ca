"""rank_sets: section 22's rank confidence sets from published scores and standard errors."""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pdcompare

matplotlib.use("Agg")


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("z", "alone"), [(1.80, False), (2.12, True), (3.0, True), (0.5, False)])
def test_two_independent_models_the_leader_is_alone_exactly_beyond_the_normal_quantile(
    z, alone, seed
):
    # DESIGN 22: the leader's set is {1} exactly when (x1 - x2) / sqrt(s1^2 + s2^2) exceeds
    # z_{(1 + coverage)/2} = 1.959964 at 95 %; the draws estimate that quantile to about
    # 0.03 with 10,000 of them, so z is kept 0.15 away from it.
    assert abs(z - stats.norm.ppf(0.975)) > 0.15
    s1, s2 = 0.03, 0.04
    x2 = 0.70
    x1 = x2 + z * np.hypot(s1, s2)
    result = pdcompare.rank_sets([x1, x2], [s1, s2], random_state=seed)
    assert result.index.tolist() == [0, 1]
    assert bool(result.loc[0, "rank_high"] == 1) == alone
    assert result.loc[1, "rank_low"] == (2 if alone else 1)


def test_the_quantile_used_is_the_normal_one_for_two_models():
    # Bisection on z: the threshold where the leader's set becomes {1} is 1.96 within
    # the Monte Carlo error of the quantile (10,000 draws, fixed seed).
    low, high = 1.5, 2.5
    for _ in range(14):
        mid = (low + high) / 2
        res = pdcompare.rank_sets(
            {"a": mid, "b": 0.0}, {"a": 1.0 / np.sqrt(2), "b": 1.0 / np.sqrt(2)}, random_state=0
        )
        if res.loc["a", "rank_high"] == 1:
            high = mid
        else:
            low = mid
    assert abs(high - stats.norm.ppf(0.975)) < 0.05


def test_same_sets_as_ranks_on_the_same_means_and_covariance():
    rng = np.random.default_rng(3)
    values = (rng.random((6, 400)) < np.linspace(0.55, 0.7, 6)[:, None]).astype(float)
    frame = pd.DataFrame(values, index=[f"m{k}" for k in range(6)])
    frame = frame.cmp.set_design(items=True)
    expected = frame.cmp.ranks(random_state=7)
    cov = pd.DataFrame(np.cov(values) / values.shape[1], index=frame.index, columns=frame.index)
    got = pdcompare.rank_sets(frame.mean(axis=1), cov=cov, random_state=7)
    pd.testing.assert_frame_equal(
        got[["estimate", "rank", "rank_low", "rank_high"]],
        expected[["estimate", "rank", "rank_low", "rank_high"]],
    )
    assert got.attrs["pdcompare"]["covariance"] == "given"


def test_standard_errors_equal_a_diagonal_covariance_and_are_matched_by_name():
    scores = pd.Series({"a": 0.80, "b": 0.78, "c": 0.74, "d": 0.60})
    errors = pd.Series({"d": 0.02, "c": 0.01, "b": 0.015, "a": 0.01})  # another order
    by_se = pdcompare.rank_sets(scores, errors, random_state=0)
    by_cov = pdcompare.rank_sets(
        scores, cov=np.diag(errors.reindex(scores.index).to_numpy() ** 2), random_state=0
    )
    pd.testing.assert_frame_equal(
        by_se, by_cov, check_like=False, check_exact=True, check_dtype=True, obj="sets"
    )
    assert by_se.attrs["pdcompare"]["covariance"] == "independent (published standard errors)"
    assert by_se.index.tolist() == ["a", "b", "c", "d"]


def test_invariants_hold_on_a_leaderboard():
    rng = np.random.default_rng(0)
    scores = pd.Series(rng.normal(0.7, 0.05, 30), index=[f"m{k:02d}" for k in range(30)])
    errors = pd.Series(0.01, index=scores.index)
    result = pdcompare.rank_sets(scores, errors, random_state=1)
    low, rank, high = (result[c].to_numpy() for c in ("rank_low", "rank", "rank_high"))
    assert (low <= rank).all()
    assert (rank <= high).all()
    assert low.min() == 1
    assert high.max() <= 30
    assert (np.diff(result["estimate"].to_numpy()) <= 0).all()


def test_lower_is_better_orders_the_smallest_first():
    result = pdcompare.rank_sets(
        {"a": 0.3, "b": 0.1}, {"a": 0.01, "b": 0.01}, greater_is_better=False, random_state=0
    )
    assert result.index.tolist() == ["b", "a"]
    assert result["rank_high"].tolist() == [1, 2]


def test_the_result_draws_as_rank_sets():
    result = pdcompare.rank_sets(
        {"a": 0.8, "b": 0.79, "c": 0.6}, {"a": 0.01, "b": 0.01, "c": 0.01}, random_state=0
    )
    ax = result.cmp.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]
    assert "2 of 3 models may be the best" in ax.get_title()
    matplotlib.pyplot.close("all")


def test_bad_inputs_name_the_keyword():
    with pytest.raises(ValueError, match="`se` has no standard error for \\['b'\\]"):
        pdcompare.rank_sets({"a": 1.0, "b": 2.0}, {"a": 0.1})
    with pytest.raises(ValueError, match="`se` must hold non-negative"):
        pdcompare.rank_sets([1.0, 2.0], [0.1, -0.1])
    with pytest.raises(ValueError, match="`cov` must be a finite 2 x 2 matrix"):
        pdcompare.rank_sets([1.0, 2.0], cov=np.eye(3))
    with pytest.raises(ValueError, match="`cov` must be positive semi-definite"):
        pdcompare.rank_sets([1.0, 2.0], cov=[[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(ValueError, match="`se`: give the standard error"):
        pdcompare.rank_sets([1.0, 2.0])
    with pytest.raises(ValueError, match="`estimates` must hold finite numbers"):
        pdcompare.rank_sets({"a": np.nan, "b": 1.0}, [0.1, 0.1])
    with pytest.raises(ValueError, match="`coverage`"):
        pdcompare.rank_sets([1.0, 2.0], [0.1, 0.1], coverage=1.5)
