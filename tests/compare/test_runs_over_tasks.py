"""aggregate, prob_improvement and performance_profile on runs-over-tasks frames.

References: the core's values (pinned to rliable in tests/stats/test_aggregates.py),
rliable's own test values (DESIGN 23), and formulas written out here.
"""

import numpy as np
import pandas as pd
import pytest
from frames import correlated_scores, rliable_score_dict, runs_over_tasks
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.stats import aggregates as core


def test_from_long_builds_runs_over_tasks_with_different_runs():
    long = pd.DataFrame(
        {
            "algo": ["a", "a", "a", "b", "b"],
            "task": ["pong", "pong", "go", "go", "pong"],
            "seed": [0, 1, 0, 7, 7],
            "score": [0.1, 0.2, 0.3, 0.4, 0.5],
        }
    )
    frame = pdcompare.from_long(long, model="algo", dataset="task", split="seed", paired=False)
    assert frame.columns.names == ["dataset", "split"]
    assert frame.columns.tolist() == [("pong", 0), ("pong", 1), ("pong", 7), ("go", 0), ("go", 7)]
    assert frame.attrs["pdcompare"]["design"]["paired"] is False
    with pytest.warns(PdcompareWarning, match=r"\['a'\] have different numbers of runs"):
        out = frame.cmp.aggregate("mean", n_resamples=100, random_state=0)
    # a: mean of (0.15, 0.3); b: mean of (0.5, 0.4)
    assert_allclose(out.loc[["a", "b"], "estimate"], [0.225, 0.45])
    assert out.index.tolist() == ["b", "a"]  # best first


def test_set_design_makes_runs_over_tasks_and_keeps_the_callers_frame():
    frame = pdcompare.from_rliable(rliable_score_dict())
    paired = frame.copy()
    paired.attrs = {}
    with pytest.raises(ValueError, match=r"paired.*set_design\(paired=False\)"):
        paired.cmp.aggregate()
    runs = paired.cmp.set_design(paired=False)
    assert paired.attrs == {}
    assert_allclose(
        runs.cmp.aggregate(random_state=1, n_resamples=200).to_numpy(),
        frame.cmp.aggregate(random_state=1, n_resamples=200).to_numpy(),
    )
    table = pd.DataFrame([[0.1, 0.2]], index=["a"], columns=pd.Index(["x", "y"], name="dataset"))
    with pytest.raises(ValueError, match="one score per data set and no runs"):
        table.cmp.set_design(paired=False)


def test_aggregate_columns_order_and_values():
    frame = pdcompare.from_rliable(rliable_score_dict())
    before = frame.copy()
    out = frame.cmp.aggregate(["iqm", "optimality_gap"], n_resamples=300, random_state=0)
    pd.testing.assert_frame_equal(frame, before)
    assert out.columns.tolist() == [
        ("iqm", "estimate"),
        ("iqm", "ci_low"),
        ("iqm", "ci_high"),
        ("optimality_gap", "estimate"),
        ("optimality_gap", "ci_low"),
        ("optimality_gap", "ci_high"),
    ]
    assert out.index.tolist() == ["a", "b", "c"]  # by IQM: 0.834, 0.783, 0.698
    x = rliable_score_dict()["a"]
    assert_allclose(
        out.loc["a", ("iqm", "estimate")], stats.trim_mean(x, 0.25, axis=None), rtol=1e-12
    )
    gap = frame.cmp.aggregate("optimality_gap", n_resamples=300, random_state=0)
    assert gap.index.tolist() == ["a", "b", "c"]  # lowest gap first
    alone = frame.cmp.aggregate("optimality_gap", n_resamples=300, random_state=0)
    assert_allclose(
        alone.to_numpy(), out["optimality_gap"].loc[alone.index].to_numpy(), rtol=0, atol=0
    )
    meta = out.attrs["pdcompare"]
    assert (meta["test"], meta["metrics"]) == ("aggregate", ["iqm", "optimality_gap"])
    assert (meta["unit"], meta["n_tasks"], meta["random_state"]) == ("run", 6, 0)


def test_aggregate_intervals_are_the_cores():
    frame = runs_over_tasks(n_models=3, n_tasks=5, n_runs=4, seed=2)
    out = frame.cmp.aggregate("median", n_resamples=400, method="bca", random_state=5)
    cube = frame.to_numpy().reshape(3, 5, 4)
    est, low, high = core.aggregate_intervals(
        cube, ["median"], n_resamples=400, method="bca", rng=np.random.default_rng(5)
    )
    assert_allclose(
        out.loc[frame.index, ["estimate", "ci_low", "ci_high"]].to_numpy(),
        np.c_[est, low, high],
        rtol=1e-14,
    )


def test_one_task_allowed():
    frame = pdcompare.from_rliable({"a": np.arange(5.0), "b": np.arange(5.0) + 1})
    out = frame.cmp.aggregate("mean", n_resamples=200, random_state=0)
    assert_allclose(out["estimate"], [3.0, 2.0])
    pi = frame.cmp.prob_improvement(n_resamples=200, random_state=0)
    # b better than a on the one task: U / 25 from scipy
    u = stats.mannwhitneyu(np.arange(5.0) + 1, np.arange(5.0)).statistic
    assert_allclose(pi["prob_improvement"], [u / 25])


def test_model_without_runs_on_a_task_is_named():
    frame = pdcompare.from_rliable(rliable_score_dict())
    frame.loc["b", ("task_3", slice(None))] = np.nan
    with pytest.raises(ValueError, match=r"no runs for 'b' on 'task_3'"):
        frame.cmp.aggregate()


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda f: f.cmp.aggregate("iqr"), ValueError, r"`metric` must be one of"),
        (lambda f: f.cmp.aggregate(["iqm", "iqm"]), ValueError, "lists a metric twice"),
        (lambda f: f.cmp.aggregate(3), TypeError, "`metric` must be one of"),
        (lambda f: f.cmp.aggregate(method="basic"), ValueError, "`method` must be one of"),
        (lambda f: f.cmp.aggregate(ci=95), ValueError, "`ci`"),
        (lambda f: f.cmp.aggregate(gamma="1"), TypeError, "`gamma` must be a number"),
        (lambda f: f.cmp.aggregate(n_resamples=0), ValueError, "`n_resamples`"),
        (lambda f: f.cmp.prob_improvement("a", "zz"), ValueError, "zz"),
        (lambda f: f.cmp.performance_profile(taus="x"), TypeError, "`taus` must be"),
    ],
)
def test_bad_keywords(call, error, match):
    with pytest.raises(error, match=match):
        call(pdcompare.from_rliable(rliable_score_dict()))


def test_scores_frame_is_refused_naming_paired_false():
    with pytest.raises(ValueError, match=r"paired=False"):
        pdcompare.aggregate(correlated_scores())


def test_optimality_gap_warns_on_scores_not_normalised():
    raw = {k: v * 1000 for k, v in rliable_score_dict().items()}
    frame = pdcompare.from_rliable(raw)
    with pytest.warns(PdcompareWarning, match=r"look not normalised.*`gamma`"):
        frame.cmp.aggregate("optimality_gap", n_resamples=100, random_state=0)
    frame.cmp.aggregate("iqm", n_resamples=100, random_state=0)  # no warning


def test_prob_improvement_scopes():
    frame = runs_over_tasks(n_models=4, seed=3)
    best = frame.cmp.prob_improvement(n_resamples=200, random_state=0)
    assert best.columns.tolist() == ["model_1", "model_2", "prob_improvement", "ci_low", "ci_high"]
    assert best["model_1"].astype(str).unique().tolist() == ["algo0"]
    assert best["model_2"].astype(str).tolist() == ["algo1", "algo2", "algo3"]
    one = frame.cmp.prob_improvement("algo2", n_resamples=200, random_state=0)
    assert one["model_2"].astype(str).tolist() == ["algo0", "algo1", "algo3"]
    pair = frame.cmp.prob_improvement("algo1", "algo0", n_resamples=200, random_state=0)
    # written out: per task, P(run of algo1 > run of algo0) + ties / 2, mean over tasks
    cube = frame.to_numpy().reshape(4, 8, 5)
    per_task = [np.mean(cube[1, t][:, None] > cube[0, t][None, :]) for t in range(8)]
    assert_allclose(pair["prob_improvement"], [np.mean(per_task)], rtol=1e-12)
    # the draws are per model: a pair alone has the interval it has among others
    among = frame.cmp.prob_improvement("algo1", n_resamples=200, random_state=0)
    row = among[among["model_2"].astype(str) == "algo0"]
    assert_allclose(
        pair[["ci_low", "ci_high"]].to_numpy(),
        row[["ci_low", "ci_high"]].to_numpy(),
        rtol=0,
        atol=0,
    )
    assert pair.attrs["pdcompare"]["scope"] == "pair"


def test_prob_improvement_for_losses():
    frame = pdcompare.from_rliable(
        {"x": np.array([[1.0], [2.0]]), "y": np.array([[3.0]])}, greater_is_better=False
    )
    out = frame.cmp.prob_improvement(n_resamples=100, random_state=0)
    assert out["model_1"].astype(str).tolist() == ["x"]  # lower IQM is better
    assert_allclose(out["prob_improvement"], [1.0])


def test_performance_profile_frame_and_bands():
    frame = pdcompare.from_rliable(rliable_score_dict())
    taus = np.linspace(0, 1.4, 8)
    out = frame.cmp.performance_profile(taus)
    assert out.index.name == "tau"
    assert out.columns.tolist() == ["a", "b", "c"]
    x = rliable_score_dict()["b"]
    assert_allclose(out["b"], [np.mean(x > tau) for tau in taus])  # rliable's formula
    banded = frame.cmp.performance_profile(taus, ci=0.9, n_resamples=300, random_state=0)
    assert banded.columns.get_level_values(0).unique().tolist() == ["profile", "ci_low", "ci_high"]
    assert_allclose(banded["profile"].to_numpy(), out.to_numpy())
    assert (banded["ci_low"] <= banded["ci_high"]).all().all()
    default = frame.cmp.performance_profile()
    assert len(default) == 101
    assert default.iloc[-1].eq(0).all()


def test_pairwise_gives_every_pair_best_first():
    frame = runs_over_tasks(n_models=4, seed=3)
    pairs = frame.cmp.pairwise(n_resamples=200, random_state=0)
    assert pairs.attrs["pdcompare"]["test"] == "prob_improvement"
    assert pairs.attrs["pdcompare"]["scope"] == "all_pairs"
    assert len(pairs) == 6
    assert pairs["model_1"].astype(str).tolist()[:3] == ["algo0"] * 3
    one = frame.cmp.prob_improvement("algo1", "algo2", n_resamples=200, random_state=0)
    row = pairs[(pairs["model_1"] == "algo1") & (pairs["model_2"] == "algo2")]
    assert_allclose(row.iloc[:, 2:].to_numpy(), one.iloc[:, 2:].to_numpy(), rtol=0, atol=0)
