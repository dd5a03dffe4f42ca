"""The picture of a bradley_terry result (presentation/plotting/ratings.py)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from frames import simulated_battles

import pdcompare


@pytest.fixture(scope="module")
def result():
    table = simulated_battles(np.linspace(1.0, -1.0, 25), 5000, seed=3)
    return pdcompare.bradley_terry(pdcompare.from_battles(table), n_resamples=100, random_state=0)


def test_best_first_with_intervals_and_rank_sets(result):
    ax = result.cmp.plot(top=5)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [str(m) for m in result.index[:5]]
    ticks = ax.get_yticks()
    assert ticks[0] > ticks[-1]  # the best at the top
    texts = [t.get_text() for t in ax.texts]
    low, high = result["rank_low"].iloc[0], result["rank_high"].iloc[0]
    assert (f"{low}–{high}" if low != high else f"{low}") in texts
    line = ax.lines[0]
    np.testing.assert_allclose(line.get_xdata(), result["rating"].iloc[:5])
    assert "best 5 of 25 models" in ax.get_title()
    plt.close("all")


def test_at_most_20_models_by_default_and_bad_options_named(result):
    ax = result.cmp.plot()
    assert len(ax.get_yticklabels()) == 20
    assert "best 20 of 25 models" in ax.get_title()
    with pytest.raises(ValueError, match="`colour` is neither an option"):
        result.cmp.plot(colour="red")
    plt.close("all")
