"""The runs picture: strip and box per model, best first, one colour per model, the best 20."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex
from numpy.testing import assert_allclose

from pdcompare.presentation.plotting._base import model_colours
from pdcompare.presentation.plotting.runs import runs_plot


def _runs(n_models, runs=8, seed=0, greater_is_better=True):
    rng = np.random.default_rng(seed)
    values = rng.normal(0.8, 0.02, (n_models, runs)) + rng.normal(0, 0.03, (n_models, 1))
    values[0, -3:] = np.nan  # fewer runs for the first model
    frame = pd.DataFrame(values, index=[f"model_{k}" for k in range(n_models)])
    return frame.cmp.set_design(paired=False, greater_is_better=greater_is_better)


def test_rows_best_first_points_and_colours():
    runs = _runs(4)
    ax = runs_plot(runs)
    order = runs.mean(axis=1).sort_values(ascending=False).index.tolist()
    assert [t.get_text() for t in ax.get_yticklabels()] == order
    points = ax.collections[-2]
    assert len(points.get_offsets()) == int(runs.notna().to_numpy().sum())
    # The best model's runs are the first points, in its colour; they sit on the top row.
    best = runs.loc[order[0]].dropna().to_numpy()
    assert_allclose(np.sort(points.get_offsets()[: len(best), 0]), np.sort(best))
    assert np.all(np.abs(points.get_offsets()[: len(best), 1] - 3) < 0.25)
    assert to_hex(points.get_facecolors()[0]) == to_hex(model_colours(order)[order[0]])
    means = ax.collections[-1].get_offsets()[:, 0]
    assert_allclose(means, runs.loc[order].mean(axis=1))
    assert "higher is better" in ax.get_xlabel()
    assert "5 to 8 runs per model" in ax.get_title()


def test_losses_put_the_lowest_first():
    runs = _runs(5, greater_is_better=False)
    ax = runs_plot(runs, xlabel="log loss")
    order = runs.mean(axis=1).sort_values().index.tolist()
    assert [t.get_text() for t in ax.get_yticklabels()] == order
    assert ax.get_xlabel().startswith("log loss of each run (lower is better)")


@pytest.mark.parametrize("n_models", [4, 20, 60])
def test_readable_at_any_size(n_models):
    runs = _runs(n_models)
    ax = runs_plot(runs)
    shown = min(n_models, 20)
    assert len(ax.get_yticklabels()) == shown
    if n_models > 20:
        assert "(best 20 of 60 models)" in ax.get_title()
    else:
        assert "best" not in ax.get_title().split("\n")[-1] or n_models <= 20
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    for text in [*ax.get_yticklabels(), ax.xaxis.label, ax.title]:
        extent = text.get_window_extent(renderer)
        assert extent.x0 >= box.x0 - 1
        assert extent.x1 <= box.x1 + 1


def test_top_and_given_axes_and_bad_keyword():
    runs = _runs(12)
    _, ax = plt.subplots()
    out = runs_plot(runs, ax=ax, top=3, title="three")
    assert out is ax
    assert len(ax.get_yticklabels()) == 3
    assert ax.get_title() == "three"
    with pytest.raises(ValueError, match="`colour` is neither an option"):
        runs_plot(runs, colour="red")


def test_the_intervals_of_runs_are_not_called_too_narrow():
    # Runs are independent: their plain t interval is the right one, not "design unknown".
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(0)
    runs = pd.DataFrame(rng.normal(0.8, 0.02, (3, 8)), index=list("abc"))
    ax = runs.cmp.set_design(paired=False).cmp.plot("intervals")
    assert "independent runs" in ax.get_xlabel()
    assert "too narrow" not in ax.get_xlabel()
    plt.close(ax.figure)
