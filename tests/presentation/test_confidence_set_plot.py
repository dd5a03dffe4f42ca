"""The picture of a model confidence set, checked on its artists."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare.presentation.plotting.confidence_set import confidence_set_plot


def _result(n_models=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=300)
    frame = {"y": y}
    for k in range(n_models):
        frame[f"m{k:02d}"] = y + rng.normal(0, 1 + 0.05 * k, 300)
    return pd.DataFrame(frame).cmp.confidence_set(random_state=0)


def test_bars_are_the_pvalues_best_first_coloured_by_membership():
    result = _result()
    ax = confidence_set_plot(result)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == result.index[::-1].tolist()
    widths = [patch.get_width() for patch in ax.patches]
    # barh draws in the order given: best first, at the top.
    assert_allclose(widths, result["pvalue"].to_numpy()[::-1])
    grey = [patch.get_facecolor()[:3] == (0.7, 0.7, 0.7) for patch in ax.patches]
    assert grey == (~result["in_set"].to_numpy()[::-1]).tolist()
    assert ax.get_lines()[0].get_xdata()[0] == pytest.approx(0.10)
    assert "of 4 models" in ax.get_title()


def test_top_and_a_given_axes():
    result = _result(n_models=25)
    ax = confidence_set_plot(result)
    assert len(ax.patches) == 20
    assert "best 20 of 25 models" in ax.get_title()
    _, given = plt.subplots()
    assert confidence_set_plot(result, ax=given, top=3) is given
    assert [t.get_text() for t in given.get_yticklabels()] == result.index[::-1][:3].tolist()


def test_a_selection_of_columns_is_refused():
    with pytest.raises(ValueError, match="The confidence-set plot needs the column"):
        confidence_set_plot(_result()[["pvalue"]])


def test_the_level_is_named_outside_the_bars_and_losses_share_four_digits():
    result = _result(n_models=20)
    ax = confidence_set_plot(result)
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["alpha = 0.1"]
    # anchored right of the axes: inside, it covered the last bar's label
    assert legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted()).x0 >= 1.0
    texts = [t.get_text() for t in ax.texts]
    losses = result.loc[[t.get_text() for t in ax.get_yticklabels()], "mean_loss"]
    for text, loss in zip(texts, losses, strict=True):
        digits = text.replace(".", "").lstrip("0")
        assert len(digits) == 4, text
        assert float(text) == pytest.approx(loss, rel=5e-4)
    plt.close("all")
