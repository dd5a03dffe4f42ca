"""The Pareto front of score against cost (DESIGN section 25).

References: the rule written out here with the frame's one-sided test run pair by pair
(``corrected_ttest(k, m, alternative="better")``) and statsmodels' Holm; the example of
section 25; invariants (a dominated newcomer changes no other status; identical models
share one).
"""

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal
from statsmodels.stats.multitest import multipletests

import pdcompare

CV = {"cv": 5}


def scores_of(levels, n=25, seed=0, noise=0.004):
    """Fold scores with a shared fold effect: model k's level plus noise, models as rows."""
    rng = np.random.default_rng(seed)
    folds = rng.normal(0, 0.01, n)
    values = np.array(levels)[:, None] + folds + rng.normal(0, noise, (len(levels), n))
    names = [chr(ord("A") + k) for k in range(len(levels))]
    return pd.DataFrame(values, index=names, columns=[f"s{k}" for k in range(n)])


def rule_written_out(frame, cost, alpha=0.05):
    """Section 25's rule, model by model, with the pairwise one-sided corrected t-test."""
    names = list(frame.index)
    mean = frame.mean(axis=1)
    status, by = {}, {}

    def p_better(k, m):
        return float(frame.cmp.corrected_ttest(k, m, alternative="better", **CV)["pvalue"].iloc[0])

    point_front = {}
    for m in sorted(names, key=lambda name: cost[name]):
        no_more = [k for k in names if k != m and cost[k] <= cost[m]]
        ahead = [
            k for k in no_more
            if mean[k] > mean[m] or (mean[k] == mean[m] and cost[k] < cost[m])
        ]  # fmt: skip
        point_front[m] = not ahead
        dominated = []
        if no_more:
            reject = multipletests([p_better(k, m) for k in no_more], alpha, "holm")[0]
            dominated = [k for k, r in zip(no_more, reject, strict=True) if r]
        if dominated:
            status[m], by[m] = "dominated", dominated
            continue
        # Section 35: better than every cheaper model on the point front, Holm over them.
        rivals = [
            k for k in names
            if cost[k] < cost[m] and point_front[k] and status.get(k) != "dominated"
        ]  # fmt: skip
        beats = not rivals or all(
            multipletests([p_better(m, k) for k in rivals], alpha, "holm")[0]
        )
        status[m] = "front" if not ahead and beats else "ambiguous"
        by[m] = []
    return status, by


def test_the_example_of_the_design():
    # A (0.90, 10 s), B (0.89, 1 s), C (0.85, 2 s), D (0.90, 12 s)
    cost = pd.Series({"A": 10.0, "B": 1.0, "C": 2.0, "D": 12.0})
    frame = scores_of([0.90, 0.89, 0.85, 0.90], noise=0.002)
    frame.loc["D"] = frame.loc["A"]  # A's score at more cost
    with pytest.warns(pdcompare.PdcompareWarning, match="identical scores"):
        result = frame.cmp.pareto(cost, **CV)
    assert result.loc["B", "status"] == "front"
    assert result.loc["C", "status"] == "dominated"
    assert "B" in result.loc["C", "dominated_by"].split("; ")
    assert result.loc["D", "status"] == "ambiguous"
    a_better = frame.cmp.corrected_ttest("A", "B", alternative="better", **CV)["pvalue"].iloc[0]
    assert a_better < 0.05
    assert result.loc["A", "status"] == "front"
    # A no better than B, measurably: A is ambiguous (its extra cost buys nothing shown).
    close = scores_of([0.8905, 0.89, 0.85, 0.8905], noise=0.01, seed=3)
    close.loc["D"] = close.loc["A"]
    with pytest.warns(pdcompare.PdcompareWarning, match="identical scores"):
        close_result = close.cmp.pareto(cost, **CV)
    assert close_result.loc["A", "status"] == "ambiguous"
    assert list(result.columns)[:5] == ["score", "cost", "status", "dominated_by", "pvalue"]
    assert list(result.index) == list(result.sort_values("score", ascending=False).index)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_statuses_equal_the_rule_written_out(seed):
    rng = np.random.default_rng(seed)
    levels = rng.uniform(0.8, 0.9, 6)
    frame = scores_of(levels, seed=seed, noise=0.01)
    cost = pd.Series(rng.uniform(1, 100, 6).round(1), index=frame.index)
    result = frame.cmp.pareto(cost, **CV)
    status, by = rule_written_out(frame, cost)
    for name in frame.index:
        assert result.loc[name, "status"] == status[name], name
        shown = [k for k in result.loc[name, "dominated_by"].split("; ") if k]
        assert sorted(shown) == sorted(by[name])


def test_front_must_beat_a_cheaper_ambiguous_model_on_the_point_front():
    # X (cost 1), Y (cost 2) a hair above X, not significantly: ambiguous; Z (cost 3) a hair
    # above Y but well above X. Z beats X (p < 0.05) but not Y: Z is ambiguous, not front.
    base = np.random.default_rng(4).normal(0, 0.01, 20)
    bump = np.tile([0.004, -0.004], 10)
    frame = pd.DataFrame(
        [0.80 + base, 0.8025 + base + bump, 0.8050 + base - bump],
        index=["X", "Y", "Z"], columns=[f"s{k}" for k in range(20)],
    )  # fmt: skip
    cost = pd.Series({"X": 1.0, "Y": 2.0, "Z": 3.0})

    def p_better(k, m):
        return frame.cmp.corrected_ttest(k, m, alternative="better", **CV)["pvalue"].iloc[0]

    assert p_better("Y", "X") > 0.05
    assert p_better("Z", "X") < 0.05
    assert p_better("Z", "Y") > 0.05
    result = frame.cmp.pareto(cost, **CV)
    assert result["status"].astype(str).to_dict() == {"Z": "ambiguous", "Y": "ambiguous",
                                                       "X": "front"}  # fmt: skip
    assert rule_written_out(frame, cost)[0] == {"X": "front", "Y": "ambiguous", "Z": "ambiguous"}


def test_front_over_two_cheaper_models_is_holm_corrected():
    # C against the two cheaper models on the point front, Holm over them (the rule written
    # out with statsmodels' Holm).
    frame = scores_of([0.80, 0.86, 0.90], noise=0.01, seed=2)
    cost = pd.Series({"A": 1.0, "B": 2.0, "C": 3.0})
    result = frame.cmp.pareto(cost, **CV)
    status, _ = rule_written_out(frame, cost)
    assert result["status"].astype(str).to_dict() == status


def test_pvalue_is_the_smallest_corrected_pvalue_of_the_models_that_cost_no_more():
    frame = scores_of([0.9, 0.88, 0.86], noise=0.01)
    cost = pd.Series({"A": 3.0, "B": 2.0, "C": 1.0})
    result = frame.cmp.pareto(cost, **CV)
    assert np.isnan(result.loc["C", "pvalue"])
    ps = [
        frame.cmp.corrected_ttest(k, "A", alternative="better", **CV)["pvalue"].iloc[0]
        for k in ("B", "C")
    ]
    assert result.loc["A", "pvalue"] == pytest.approx(min(multipletests(ps, method="holm")[1]))


def test_a_dominated_newcomer_changes_no_other_status():
    frame = scores_of([0.90, 0.89, 0.85, 0.80], noise=0.002)
    cost = pd.Series({"A": 10.0, "B": 1.0, "C": 2.0, "D": 5.0})
    before = frame.cmp.pareto(cost, **CV)
    noise = np.random.default_rng(9).normal(0, 0.002, frame.shape[1])
    worse = frame.loc[["B"]].rename(index={"B": "E"}) - 0.08 + noise  # far worse, costlier
    after = pd.concat([frame, worse]).cmp.pareto(pd.concat([cost, pd.Series({"E": 4.0})]), **CV)
    assert after.loc["E", "status"] == "dominated"
    for name in frame.index:
        assert after.loc[name, "status"] == before.loc[name, "status"]


def test_identical_models_share_a_status():
    frame = scores_of([0.9, 0.88, 0.85], noise=0.01)
    frame.loc["D"] = frame.loc["B"]
    with pytest.warns(pdcompare.PdcompareWarning, match="identical scores"):
        result = frame.cmp.pareto(pd.Series({"A": 5.0, "B": 2.0, "C": 1.0, "D": 2.0}), **CV)
    assert result.loc["B", "status"] == result.loc["D", "status"]


def test_costs_that_are_gains():
    frame = scores_of([0.90, 0.85], noise=0.002)
    # A gain: a larger value is better; A has the larger gain and the better score.
    result = frame.cmp.pareto(pd.Series({"A": 8.0, "B": 2.0}), lower_cost_is_better=False, **CV)
    assert result.loc["A", "status"] == "front"
    assert result.loc["B", "status"] == "dominated"


def test_per_split_costs_are_paired_with_the_scores():
    frame = scores_of([0.90, 0.85, 0.86], noise=0.002)
    rng = np.random.default_rng(1)
    times = pd.DataFrame(
        np.array([[10.0], [1.0], [1.05]]) + rng.normal(0, 0.01, (3, frame.shape[1])),
        index=frame.index, columns=frame.columns,
    )  # fmt: skip
    result = frame.cmp.pareto(times, **CV)
    assert result.loc["B", "cost"] == pytest.approx(times.loc["B"].mean())
    # C is not significantly cheaper than B... but both are far cheaper than A.
    assert result.loc["A", "status"] == "front"
    assert result.attrs["pdcompare"]["per_split_costs"] is True


def test_per_split_costs_use_the_design_stored_on_the_scores():
    # The costs frame carries no design: the paired test of the costs reads the scores'.
    frame = scores_of([0.90, 0.85, 0.86], noise=0.002)
    rng = np.random.default_rng(1)
    times = pd.DataFrame(
        np.array([[10.0], [1.0], [1.05]]) + rng.normal(0, 0.01, (3, frame.shape[1])),
        index=frame.index, columns=frame.columns,
    )  # fmt: skip
    stored = pdcompare.set_design(frame, **CV)
    result = stored.cmp.pareto(times)
    assert_frame_equal(result, frame.cmp.pareto(times, **CV))


def test_a_cv_results_column():
    rng = np.random.default_rng(0)
    folds = rng.normal(0, 0.01, 5)
    noise = rng.normal(0, 0.003, (3, 5))
    splits = {
        f"split{k}_test_score": [0.9 + folds[k], 0.85 + folds[k], 0.8 + folds[k]] + noise[:, k]
        for k in range(5)
    }
    frame = pd.DataFrame(
        {
            "params": [{"C": 1.0}, {"C": 0.1}, {"C": 0.01}],
            "param_C": [1.0, 0.1, 0.01],
            **splits,
            "mean_fit_time": [3.0, 1.0, 2.0],
        }
    )
    result = frame.cmp.pareto("mean_fit_time", cv=5)
    assert result["cost"].to_dict() == {"C=1": 3.0, "C=0.1": 1.0, "C=0.01": 2.0}
    assert result.loc["C=0.01", "status"] == "dominated"
    # Rows in another order than best first: each cost stays with its candidate.
    shuffled = frame.iloc[[2, 0, 1]].reset_index(drop=True)
    again = shuffled.cmp.pareto("mean_fit_time", cv=5)
    assert again["cost"].to_dict() == {"C=1": 3.0, "C=0.1": 1.0, "C=0.01": 2.0}
    with pytest.raises(ValueError, match=r"no column 'mean_score_tim'.*mean_fit_time"):
        frame.cmp.pareto("mean_score_tim", cv=5)


def test_bad_costs_are_refused_by_name():
    frame = scores_of([0.9, 0.85])
    with pytest.raises(ValueError, match=r"names models the frame does not have: \['Z'\]"):
        frame.cmp.pareto(pd.Series({"A": 1.0, "B": 2.0, "Z": 3.0}), **CV)
    with pytest.raises(ValueError, match=r"no cost for the models \['B'\]"):
        frame.cmp.pareto(pd.Series({"A": 1.0}), **CV)
    with pytest.raises(ValueError, match=r"NaN\) for \['B'\]"):
        frame.cmp.pareto(pd.Series({"A": 1.0, "B": np.nan}), **CV)
    with pytest.raises(ValueError, match="read from a cv_results_ frame only"):
        frame.cmp.pareto("mean_fit_time", **CV)
    with pytest.raises(TypeError, match="`cost` must be a Series"):
        frame.cmp.pareto([1.0, 2.0], **CV)
    with pytest.raises(ValueError, match="`cv=`"):
        frame.cmp.pareto(pd.Series({"A": 1.0, "B": 2.0}))
    # Negative costs are costs too (a saving measured against a reference).
    result = frame.cmp.pareto(pd.Series({"A": -1.0, "B": -2.0}), **CV)
    assert set(result["status"]) <= {"front", "ambiguous", "dominated"}


def test_runs_and_predictions_frames_use_their_own_test():
    runs = scores_of([0.9, 0.8], noise=0.01).cmp.set_design(paired=False)
    result = runs.cmp.pareto(pd.Series({"A": 1.0, "B": 2.0}))
    assert result.attrs["pdcompare"]["score_test"] == "welch_ttest"
    assert result.loc["B", "status"] == "dominated"
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    preds = pd.DataFrame({
        "y": y,
        "good": np.clip(y * 0.6 + rng.uniform(0, 0.5, 300), 0, 1),
        "weak": rng.uniform(0, 1, 300),
    })  # fmt: skip
    result = preds.cmp.pareto(pd.Series({"good": 1.0, "weak": 5.0}))
    assert result.attrs["pdcompare"]["score_test"] == "delong"
    assert result.loc["weak", "status"] == "dominated"
