"""The stratified bootstrap of runs over tasks (``stats/aggregates.py``).

References: rliable's own test values (DESIGN 23), rliable's functions on the
frames of ``scripts/rliable_references.py`` (numbers pasted; compared live
where rliable imports), a stratified bootstrap and a BCa interval written out
with loops, and ``scipy.stats.bootstrap`` on one task.
"""

import numpy as np
import pytest
from frames import rliable_score_dict
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import special, stats

from pdcompare.stats import aggregates as agg

# rliable's tests (rliable/tests/metrics_test.py): runs x tasks.
X = np.array([[1, 2], [2, 2], [1, 1], [2, 1]], dtype=float)
Y = np.array([[1, 1], [2, 2], [3, 3]], dtype=float)


def cube_of(score_dict):
    """(models, tasks, runs) with NaN padding from rliable's {name: runs x tasks}."""
    runs = max(x.shape[0] for x in score_dict.values())
    tasks = next(iter(score_dict.values())).shape[1]
    cube = np.full((len(score_dict), tasks, runs), np.nan)
    for k, x in enumerate(score_dict.values()):
        cube[k, :, : x.shape[0]] = x.T
    return cube


def test_rliable_test_values():
    cube = cube_of({"x": X, "y": Y})
    est = agg.aggregate_estimates(cube, ["mean", "median", "iqm"])
    assert_allclose(est, [[1.5] * 3, [2.0] * 3], rtol=0, atol=1e-15)
    p, _, _ = agg.prob_improvement(cube, np.array([0]), np.array([1]), n_resamples=0)
    assert_allclose(p, [1 / 3], rtol=1e-15)
    profile, _, _ = agg.performance_profile(cube[:1], np.array([0.5, 1, 1.5, 2]))
    assert_allclose(profile[:, 0], [1, 0.5, 0.5, 0])


# Pasted from scripts/rliable_references.py (rliable 1.2.0, arch 7.2, numpy 2.4).
RLIABLE_ESTIMATES = {  # mean, median, iqm, optimality gap (gamma 1)
    "a": [0.7668483272356582, 0.7251338274860271, 0.8336820443778716, 0.29338410211679333],
    "b": [0.7755703352850108, 0.7586462120519537, 0.7833887764854709, 0.30032761621368687],
    "c": [0.7150889461640282, 0.736859843569523, 0.6984079052578063, 0.36200950518548336],
}
RLIABLE_IMPROVEMENT = {
    ("a", "b"): 0.4583333333333333,
    ("a", "c"): 0.5888888888888889,
    ("b", "c"): 0.5666666666666667,
}
RLIABLE_PROFILE = {  # taus = linspace(0, 1.4, 8)
    "a": [
        1.0,
        0.8333333333333334,
        0.7222222222222222,
        0.6666666666666666,
        0.6111111111111112,
        0.3888888888888889,
        0.1111111111111111,
        0.0,
    ],
    "b": [
        1.0,
        0.9166666666666666,
        0.75,
        0.625,
        0.5416666666666666,
        0.375,
        0.20833333333333334,
        0.0,
    ],
    "c": [
        1.0,
        0.8666666666666667,
        0.7666666666666667,
        0.5333333333333333,
        0.43333333333333335,
        0.3333333333333333,
        0.2,
        0.0,
    ],
}
# get_interval_estimates(reps=50000), percentile, 95 %: [lows, highs] per metric.
RLIABLE_INTERVALS = {
    "a": [
        [0.6031428446041922, 0.5128829213800938, 0.5935631266273754, 0.1559828593505309],
        [0.9291728739435392, 1.0136874222458396, 1.0315863895490818, 0.43401645167118125],
    ],
    "b": [
        [0.6325280096753854, 0.5809312539057996, 0.5827192231573245, 0.1900347445104017],
        [0.9215404701235774, 0.9595116331431295, 0.9865312330422188, 0.4105672441763576],
    ],
    "c": [
        [0.5791237531355488, 0.5384785089605295, 0.5076914826489975, 0.26023177296918154],
        [0.850418931755127, 0.9063059436306126, 0.8939689364081373, 0.46597408668991275],
    ],
}
RLIABLE_IMPROVEMENT_INTERVALS = {
    ("a", "b"): [0.2638888888888889, 0.6527777777777778],
    ("a", "c"): [0.41111111111111104, 0.7555555555555555],
}


def test_point_estimates_equal_rliable():
    cube = cube_of(rliable_score_dict())
    est = agg.aggregate_estimates(cube, agg.METRICS)
    assert_allclose(est, list(RLIABLE_ESTIMATES.values()), rtol=1e-12, atol=1e-12)
    i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    p, _, _ = agg.prob_improvement(cube, i, j, n_resamples=0)
    assert_allclose(p, list(RLIABLE_IMPROVEMENT.values()), rtol=1e-12)
    profile, _, _ = agg.performance_profile(cube, np.linspace(0, 1.4, 8))
    assert_allclose(profile.T, list(RLIABLE_PROFILE.values()), rtol=1e-12)


def test_intervals_within_monte_carlo_error_of_rliable():
    # Quantiles of two bootstraps (50,000 and 20,000 resamples) of a statistic with
    # spread ~0.1: Monte Carlo standard error of their difference ~0.003; 4 of them.
    cube = cube_of(rliable_score_dict())
    _, low, high = agg.aggregate_intervals(
        cube, agg.METRICS, n_resamples=20000, rng=np.random.default_rng(0)
    )
    ref = np.array(list(RLIABLE_INTERVALS.values()))
    assert_allclose(low, ref[:, 0], atol=0.012)
    assert_allclose(high, ref[:, 1], atol=0.012)
    _, low, high = agg.prob_improvement(
        cube,
        np.array([0, 0]),
        np.array([1, 2]),
        n_resamples=20000,
        rng=np.random.default_rng(0),
    )
    ref = np.array(list(RLIABLE_IMPROVEMENT_INTERVALS.values()))
    assert_allclose(np.c_[low, high], ref, atol=0.015)


def test_live_against_rliable():
    metrics = pytest.importorskip("rliable.metrics")
    rng = np.random.default_rng(5)
    scores = {k: rng.normal(0.5, 0.3, size=(runs, 9)) for k, runs in (("p", 2), ("q", 7))}
    cube = cube_of(scores)
    est = agg.aggregate_estimates(cube, agg.METRICS, gamma=0.8)
    for k, x in enumerate(scores.values()):
        ref = [
            metrics.aggregate_mean(x),
            metrics.aggregate_median(x),
            metrics.aggregate_iqm(x),
            metrics.aggregate_optimality_gap(x, 0.8),
        ]
        assert_allclose(est[k], ref, rtol=1e-12, atol=1e-12)
    p, _, _ = agg.prob_improvement(cube, np.array([1]), np.array([0]), n_resamples=0)
    assert_allclose(p[0], metrics.probability_of_improvement(scores["q"], scores["p"]), rtol=1e-12)


def _draws(cube, n_resamples, seed):
    """The uniform numbers the core draws (float32, one per resample, model, task, run slot)."""
    return np.random.default_rng(seed).random((n_resamples, *cube.shape), dtype=np.float32)


def _written_out_metrics(runs_per_task, gamma=1.0):
    """rliable's four metrics from a list of per-task run arrays, written out."""
    task_means = [np.mean(r) for r in runs_per_task]
    everything = np.concatenate(runs_per_task)
    return [
        np.mean(task_means),
        np.median(task_means),
        stats.trim_mean(everything, 0.25),
        gamma - np.mean(np.minimum(everything, gamma)),
    ]


def _written_out_bootstrap(cube, u):
    """The stratified bootstrap with loops: per resample, model and task, n draws of its runs."""
    n_resamples, n_models, n_tasks, _ = u.shape
    out = np.empty((n_resamples, n_models, 4))
    for b in range(n_resamples):
        for m in range(n_models):
            tasks = []
            for t in range(n_tasks):
                runs = cube[m, t][~np.isnan(cube[m, t])]
                idx = np.floor(u[b, m, t, : len(runs)] * len(runs)).astype(int)
                tasks.append(runs[idx])
            out[b, m] = _written_out_metrics(tasks)
    return out


def test_bootstrap_equals_written_out_stratified_bootstrap():
    cube = cube_of(rliable_score_dict())
    cube[1, 2, 1:] = np.nan  # model b: one run on task 2 (different runs per task)
    dist = agg.bootstrap_distribution(
        cube,
        lambda r, w: agg._metric_values(r, w, agg.METRICS, 1.0),
        300,
        np.random.default_rng(7),
    )
    ref = _written_out_bootstrap(cube, _draws(cube, 300, 7))
    assert_allclose(dist, ref, rtol=1e-12, atol=1e-12)
    _, low, high = agg.aggregate_intervals(
        cube, agg.METRICS, n_resamples=300, rng=np.random.default_rng(7)
    )
    assert_allclose(low, np.percentile(ref, 2.5, axis=0), rtol=1e-12)
    assert_allclose(high, np.percentile(ref, 97.5, axis=0), rtol=1e-12)


@pytest.mark.slow
def test_independent_draws_agree_within_monte_carlo_error():
    # The written-out bootstrap with numpy's integers (other draws): same distribution.
    cube = cube_of(rliable_score_dict())
    rng = np.random.default_rng(11)
    ref = []
    for _ in range(3000):
        ref.append(
            [
                _written_out_metrics([rng.choice(x[:, t], size=len(x)) for t in range(6)])
                for x in rliable_score_dict().values()
            ]
        )
    ref = np.array(ref)
    _, low, high = agg.aggregate_intervals(
        cube, agg.METRICS, n_resamples=20000, rng=np.random.default_rng(1)
    )
    # 3,000 loops: a 2.5 % quantile to ~0.01 (the median of 6 task means, lumpier: 0.03).
    atol = np.array([0.02, 0.03, 0.02, 0.02])
    assert (np.abs(low - np.percentile(ref, 2.5, axis=0)) < atol).all()
    assert (np.abs(high - np.percentile(ref, 97.5, axis=0)) < atol).all()


def _written_out_bca(cube, u, ci=0.95):
    """BCa (Efron 1987) with loops: jackknife leaving one run out of its task."""
    dist = _written_out_bootstrap(cube, u)
    lows, highs = np.empty(dist.shape[1:]), np.empty(dist.shape[1:])
    for m in range(cube.shape[0]):
        tasks = [cube[m, t][~np.isnan(cube[m, t])] for t in range(cube.shape[1])]
        theta = np.array(_written_out_metrics(tasks))
        jack = []
        for t, runs in enumerate(tasks):
            for r in range(len(runs)):
                left = [np.delete(x, r) if s == t else x for s, x in enumerate(tasks)]
                left = [x for x in left if len(x)]  # a task left without runs drops out
                jack.append(_written_out_metrics(left))
        jack = np.array(jack)
        d = jack.mean(axis=0) - jack
        accel = (d**3).sum(axis=0) / (6 * ((d**2).sum(axis=0)) ** 1.5)
        for k in range(4):
            column = dist[:, m, k]
            share = (np.sum(column < theta[k]) + np.sum(column <= theta[k])) / (2 * len(column))
            z0 = special.ndtri(share)
            levels = []
            for z in (special.ndtri((1 - ci) / 2), special.ndtri((1 + ci) / 2)):
                levels.append(special.ndtr(z0 + (z0 + z) / (1 - accel[k] * (z0 + z))))
            lows[m, k], highs[m, k] = np.percentile(column, 100 * np.array(levels))
    return lows, highs


def test_bca_equals_written_out_bca():
    cube = cube_of(rliable_score_dict())
    cube[2, 4, 1:] = np.nan  # a task with one run: its jackknife row leaves the task out
    _, low, high = agg.aggregate_intervals(
        cube, agg.METRICS, n_resamples=400, method="bca", rng=np.random.default_rng(3)
    )
    ref_low, ref_high = _written_out_bca(cube, _draws(cube, 400, 3))
    assert_allclose(low, ref_low, rtol=1e-10, atol=1e-12)
    assert_allclose(high, ref_high, rtol=1e-10, atol=1e-12)


def test_bca_on_one_task_is_scipys_bca():
    # One task: the stratified bootstrap is the ordinary one, the jackknife scipy's.
    sample = np.random.default_rng(2).lognormal(size=25)
    _, low, high = agg.aggregate_intervals(
        sample[None, None],
        ["mean"],
        n_resamples=40000,
        method="bca",
        rng=np.random.default_rng(0),
    )
    ref = stats.bootstrap(
        (sample,), np.mean, n_resamples=40000, method="BCa", random_state=np.random.default_rng(1)
    ).confidence_interval
    assert_allclose([low[0, 0], high[0, 0]], [ref.low, ref.high], atol=0.03)


def test_constant_task_adds_no_width():
    rng = np.random.default_rng(4)
    varying = rng.normal(size=(1, 1, 6))
    both = np.concatenate([varying, np.full((1, 1, 6), 3.0)], axis=1)
    constant = np.full((2, 3, 4), 0.25)
    est, low, high = agg.aggregate_intervals(
        constant, agg.METRICS, n_resamples=500, rng=np.random.default_rng(0)
    )
    assert_allclose(low, est) and assert_allclose(high, est)
    # mean of (varying task, constant task) = (mean of varying + 3) / 2: half the width.
    _, low1, high1 = agg.aggregate_intervals(
        varying, ["mean"], n_resamples=20000, rng=np.random.default_rng(0)
    )
    _, low2, high2 = agg.aggregate_intervals(
        both, ["mean"], n_resamples=20000, rng=np.random.default_rng(5)
    )
    assert_allclose(high2 - low2, (high1 - low1) / 2, rtol=0.05)


def test_seeds_reproducible_and_metric_alone_equals_in_list():
    cube = cube_of(rliable_score_dict())
    one = agg.aggregate_intervals(cube, ["iqm"], n_resamples=500, rng=np.random.default_rng(9))
    many = agg.aggregate_intervals(
        cube, ["mean", "iqm"], n_resamples=500, rng=np.random.default_rng(9)
    )
    for a, b in zip(one, many, strict=True):
        assert_allclose(a[:, 0], b[:, 1], rtol=0, atol=0)
    other = agg.aggregate_intervals(cube, ["iqm"], n_resamples=500, rng=np.random.default_rng(8))
    assert not np.array_equal(one[1], other[1])


def test_blocks_do_not_change_results(monkeypatch):
    cube = cube_of(rliable_score_dict())
    whole = agg.aggregate_intervals(
        cube, agg.METRICS, n_resamples=300, rng=np.random.default_rng(2)
    )
    monkeypatch.setattr(agg, "_BLOCK_ELEMENTS", 1000)  # many small blocks
    blocked = agg.aggregate_intervals(
        cube, agg.METRICS, n_resamples=300, rng=np.random.default_rng(2)
    )
    for a, b in zip(whole, blocked, strict=True):
        assert_allclose(a, b, rtol=1e-14)


cubes = st.builds(
    lambda seed, m, t, r: np.random.default_rng(seed).normal(size=(m, t, r)).round(1),
    st.integers(0, 2**32 - 1),
    st.integers(2, 4),
    st.integers(1, 5),
    st.integers(1, 6),
)


@given(cubes, st.integers(0, 2**32 - 1))
def test_estimates_invariant_to_order_of_runs_and_tasks(cube, seed):
    rng = np.random.default_rng(seed)
    shuffled = cube[:, rng.permutation(cube.shape[1])]
    shuffled = np.take_along_axis(
        shuffled,
        rng.permuted(np.broadcast_to(np.arange(cube.shape[2]), cube.shape), axis=2),
        axis=2,
    )
    assert_allclose(
        agg.aggregate_estimates(shuffled, agg.METRICS),
        agg.aggregate_estimates(cube, agg.METRICS),
        rtol=1e-12,
        atol=1e-12,
    )


@given(cubes, st.floats(-5, 5))
def test_shift_moves_estimates_and_intervals(cube, shift):
    metrics = ["mean", "median", "iqm"]
    est, low, high = agg.aggregate_intervals(
        cube, metrics, n_resamples=50, rng=np.random.default_rng(0)
    )
    est2, low2, high2 = agg.aggregate_intervals(
        cube + shift, metrics, n_resamples=50, rng=np.random.default_rng(0)
    )
    for a, b in ((est, est2), (low, low2), (high, high2)):
        assert_allclose(b, a + shift, atol=1e-9)


@given(cubes)
def test_improvement_of_a_over_b_and_b_over_a_sum_to_one(cube):
    i, j = np.array([0, 1]), np.array([1, 0])
    est, low, high = agg.prob_improvement(cube, i, j, n_resamples=60, rng=np.random.default_rng(0))
    assert_allclose(est[0] + est[1], 1.0, atol=1e-12)
    assert_allclose(low[0] + high[1], 1.0, atol=1e-12)  # the same draws: mirrored
    loss, _, _ = agg.prob_improvement(cube, i, j, greater_is_better=False, n_resamples=0)
    assert_allclose(loss, est[::-1], atol=1e-12)


@given(cubes)
def test_profile_decreases_and_bands_hold_it(cube):
    taus = np.linspace(cube.min() - 1, cube.max() + 1, 9)
    est, low, high = agg.performance_profile(
        cube, taus, n_resamples=50, rng=np.random.default_rng(0)
    )
    assert (np.diff(est, axis=0) <= 1e-12).all()
    assert_allclose(est[0], 1.0) and assert_allclose(est[-1], 0.0)
    assert (low <= high + 1e-12).all()
