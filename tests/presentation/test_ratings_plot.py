"""The picture of a bradley_terry result (presentation/plotting/ratings.py)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from frames import simulated_battles
from scipy import stats

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


@pytest.fixture(scope="module")
def battles():
    return pdcompare.from_battles(simulated_battles(np.linspace(1.0, -1.0, 25), 5000, seed=3))


def test_win_probability_heatmap_is_the_prob_matrix_capped_at_the_best_20(battles):
    result = pdcompare.win_probability(battles, n_resamples=50, random_state=0)
    ax = result.cmp.plot()
    shown = [t.get_text() for t in ax.get_yticklabels()]
    assert len(shown) == 20
    assert "best 20 of 25 models" in ax.get_title()
    image = ax.get_images()[0].get_array()
    square = result.cmp.matrix("prob")
    expected = square.loc[shown, shown].to_numpy(dtype=float)
    np.testing.assert_allclose(image.filled(np.nan), expected)
    assert image.mask.diagonal().all()
    assert ax.get_images()[0].get_clim() == (0.0, 1.0)
    ax = result.cmp.plot(top=4)
    assert [t.get_text() for t in ax.get_xticklabels()] == shown[:4]
    plt.close("all")


def test_pairs_forest_draws_rating_differences_with_normal_intervals(battles):
    result = battles.cmp.pairwise(correction="bonferroni")
    ax = result.cmp.plot(top=3)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    best = pdcompare.bradley_terry(battles, n_resamples=10, random_state=0).index[:3]
    assert labels == [f"{best[0]} − {best[1]}", f"{best[0]} − {best[2]}", f"{best[1]} − {best[2]}"]
    # Bonferroni over all 300 pairs: rating_diff ± z(1 − 0.05/600)·se
    rows = result.iloc[:0]
    for label in labels:
        one, two = label.split(" − ")
        rows = pd.concat([rows, result[(result["model_1"] == one) & (result["model_2"] == two)]])
    z = stats.norm.ppf(1 - 0.05 / (2 * 300))
    ends = sorted(
        (float(seg[0][0]), float(seg[1][0]))
        for collection in ax.collections
        if hasattr(collection, "get_segments")
        for seg in collection.get_segments()
    )
    expected = sorted(
        zip(
            rows["rating_diff"] - z * rows["se"], rows["rating_diff"] + z * rows["se"], strict=True
        )
    )
    np.testing.assert_allclose(ends, expected)
    assert "pairs among the best 3 of 25 models" in ax.get_title()
    assert "simultaneous, bonferroni-adjusted" in ax.get_xlabel()
    plt.close("all")


def test_fisher_intervals_are_named_under_the_axis():
    names = list("ABCD")
    wins = pd.DataFrame(
        [[0, 5, 0, 2], [0, 0, 5, 3], [5, 0, 0, 0], [3, 2, 0, 0]], index=names, columns=names
    )
    with pytest.warns(pdcompare.PdcompareWarning, match="Every pair of C"):
        result = pdcompare.bradley_terry(wins, n_resamples=100, random_state=0)
    ax = result.cmp.plot()
    assert ax.get_xlabel().endswith("normal intervals (Fisher information, pairs unanimous): C")
    np.testing.assert_allclose(ax.lines[0].get_xdata(), result["rating"])
    plt.close("all")
