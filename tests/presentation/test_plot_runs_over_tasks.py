"""Pictures of runs over tasks: rliable's interval plot, profiles, probabilities of improvement."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from frames import runs_over_tasks
from numpy.testing import assert_allclose

import pdcompare


def test_aggregate_plot_draws_the_results_intervals():
    frame = runs_over_tasks(n_models=3, seed=4)
    result = frame.cmp.aggregate(["iqm", "mean"], n_resamples=300, random_state=0)
    ax = result.cmp.plot()
    assert [a.get_title() for a in ax.figure.axes] == ["IQM", "Mean"]
    bars = ax.patches
    assert_allclose([b.get_x() for b in bars], result[("iqm", "ci_low")])
    assert_allclose([b.get_x() + b.get_width() for b in bars], result[("iqm", "ci_high")])
    assert [t.get_text() for t in ax.get_yticklabels()] == result.index.tolist()
    with pytest.raises(ValueError, match="`ax` takes one panel"):
        result.cmp.plot(ax=ax)


def test_kinds_on_a_runs_over_tasks_frame_and_top():
    frame = runs_over_tasks(n_models=25, n_tasks=4, n_runs=3, seed=1, shift=0.01)
    ax = frame.cmp.plot("aggregate", metrics="iqm", n_resamples=200)
    assert len(ax.get_yticklabels()) == 20
    assert "best 20 of 25 models" in ax.figure._suptitle.get_text()
    ax = frame.cmp.plot("profile", n_resamples=100, top=5)
    assert len(ax.lines) == 5
    assert "best 5 of 25 models" in ax.get_title()
    ax = frame.cmp.plot("prob_improvement", n_resamples=100)
    assert len(ax.get_yticklabels()) == 20
    assert "first 20 of 24 pairs" in ax.get_title()
    assert any(np.allclose(line.get_xdata(), 0.5) for line in ax.lines)


def test_profile_result_without_bands():
    frame = runs_over_tasks(n_models=2, seed=0)
    profile = pdcompare.performance_profile(frame, [0.0, 0.5, 1.0])
    ax = profile.cmp.plot()
    assert_allclose(ax.lines[0].get_ydata(), profile.iloc[:, 0])
    assert not ax.collections  # no bands asked


def test_profile_of_many_agents_draws_eight_curves_without_bands_to_a_high_quantile():
    import matplotlib.pyplot as plt

    frame = runs_over_tasks(n_models=60, n_tasks=6, n_runs=5, seed=2)
    ax = frame.cmp.plot("profile", n_resamples=100)
    order = list(pdcompare.performance_profile(frame).columns)  # best first by IQM
    assert [line.get_label() for line in ax.lines] == order[:8]
    assert not ax.collections  # eight curves: no bands
    title = ax.get_title()
    assert "best 8 of 60 models" in title
    assert "bands drawn for at most 5 curves" in title
    # The thresholds: from the lowest score of the drawn models to their 99th percentile.
    drawn = frame.loc[order[:8]].to_numpy(dtype=float).ravel()
    taus = ax.lines[0].get_xdata()
    assert taus[0] == pytest.approx(drawn.min())
    assert taus[-1] == pytest.approx(np.quantile(drawn, 0.99))
    # Each curve is the share of runs above tau, averaged over tasks (rliable's profile).
    best = frame.loc[order[0]]
    tau = taus[50]
    expected = np.mean([(best[task] > tau).mean() for task in best.index.unique(level=0)])
    assert ax.lines[0].get_ydata()[50] == pytest.approx(expected)
    plt.close("all")
    ax = frame.cmp.plot("profile", top=3, n_resamples=100)
    assert len(ax.lines) == 3
    assert len(ax.collections) == 3  # few curves: their bands
    plt.close("all")
