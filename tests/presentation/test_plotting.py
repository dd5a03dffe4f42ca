"""Tests of the presentation plots (scores-frame kinds and t-test family result pictures)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare import results
from pdcompare.datasets import load_grid_search_scores
from pdcompare.presentation.plotting import folds_data, forest_data
from pdcompare.presentation.plotting._base import model_colours

NAMES = pd.Index(["rbf", "linear", "3_poly", "2_poly"])



@pytest.fixture
def scores():
    return load_grid_search_scores()


def ttest_result(alternative="two-sided"):
    high = [0.036, 0.078, 0.36] if alternative == "two-sided" else [np.inf] * 3
    return results.pair_result(
        NAMES,
        np.array([0, 0, 0]),
        np.array([1, 2, 3]),
        {
            "mean_diff": [0.01, 0.0356, 0.2548],
            "statistic": [0.750, 1.657, 4.565],
            "df": [99.0] * 3,
            "pvalue": [0.455, 0.1006, 1.4e-5],
            "ci_low": [-0.016, -0.007, 0.14],
            "ci_high": high,
        },
        results.result_meta(
            "corrected_ttest",
            scope="best_vs_rest",
            alpha=0.05,
            correction="holm",
            alternative=alternative,
        ),
        correction="holm",
        alpha=0.05,
    )


def wilcoxon_result(test="wilcoxon"):
    return results.pair_result(
        NAMES,
        np.array([0, 0, 0]),
        np.array([1, 2, 3]),
        {
            "mean_diff": [0.01, 0.0356, 0.2548],
            "statistic": [900.0, 700.0, 5.0],
            "pvalue": [0.2, 0.01, 0.0],
        },
        results.result_meta(test, scope="best_vs_rest", alpha=0.05, correction="holm"),
        correction="holm",
        alpha=0.05,
    )


def test_folds_draws_one_line_per_model_first_30_splits(scores):
    _fig, ax = plt.subplots()
    assert scores.cmp.plot("folds", ax=ax) is ax
    lines = ax.get_lines()
    assert len(lines) == 4
    # Best first in the legend, with each model's mean over all 100 splits (DESIGN.md §8).
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [
        "rbf (mean 0.940)",
        "linear (mean 0.930)",
        "3_poly (mean 0.904)",
        "2_poly (mean 0.685)",
    ]
    for line, name in zip(lines, ["rbf", "linear", "3_poly", "2_poly"], strict=True):
        assert_allclose(line.get_ydata(), scores.loc[name].to_numpy()[:30])
        assert_allclose(line.get_xdata(), np.arange(30))
    assert ax.get_title() == "Score per CV split (first 30 of 100 splits)"
    assert ax.get_xlabel() == "CV split"
    assert ax.get_ylabel() == "score"


def test_folds_n_splits_option(scores):
    ax = scores.cmp.plot("folds", n_splits=None)
    assert ax is plt.gca()
    assert len(ax.get_lines()[0].get_xdata()) == 100
    assert ax.get_title() == "Score per CV split (all 100 splits)"
    ax = scores.iloc[:, :5].cmp.plot("folds", ax=plt.figure().gca(), n_splits=10)
    assert len(ax.get_lines()[0].get_xdata()) == 5
    with pytest.raises(ValueError, match="`n_splits` must be an integer of at least 1"):
        scores.cmp.plot("folds", n_splits=0)


def test_folds_data_orders_best_first():
    frame = pd.DataFrame([[0.1, 0.2, 0.3], [0.5, 0.6, 0.7]], index=["a", "b"])
    table = folds_data(frame, n_splits=2)
    assert table.index.tolist() == ["b", "a"]
    assert_allclose(table.to_numpy(), [[0.5, 0.6], [0.1, 0.2]])
    losses = frame.cmp.set_design(greater_is_better=False)
    assert folds_data(losses).index.tolist() == ["a", "b"]


def test_corr_heatmap_matches_reference(scores):
    fig, ax = plt.subplots()
    scores.cmp.plot("corr", ax=ax)
    image = ax.get_images()[0]
    assert image.get_array().shape == (4, 4)
    assert_allclose(image.get_array(), np.corrcoef(scores.to_numpy()), rtol=1e-12)
    # DESIGN.md §8: rbf–linear 0.882561, rbf–3_poly 0.783392, rbf–2_poly 0.351390.
    assert_allclose(image.get_array()[0, 1:], [0.882561, 0.783392, 0.351390], atol=1e-6)
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 16
    assert texts[1:4] == ["0.88", "0.78", "0.35"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["rbf", "linear", "3_poly", "2_poly"]
    assert image.get_clim() == (-1.0, 1.0)
    assert fig.axes[1].get_ylabel() == "Pearson correlation"  # the colorbar


def test_corr_spearman_and_bad_method(scores):
    ax = scores.cmp.plot("corr", method="spearman")
    expected = stats.spearmanr(scores.to_numpy().T).statistic
    assert_allclose(ax.get_images()[0].get_array(), expected, rtol=1e-12)
    with pytest.raises(ValueError, match="`method` must be one of 'pearson'"):
        scores.cmp.plot("corr", method="cosine")


def test_intervals_are_corrected_summary_intervals(scores):
    _fig, ax = plt.subplots()
    scores.cmp.plot("intervals", ax=ax)
    assert ax.get_xlabel() == "mean score, 95% CI\n(Nadeau–Bengio corrected)"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["rbf", "linear", "3_poly", "2_poly"]
    points = ax.collections[1].get_offsets()
    # Independent formula: mean ± t_{0.975, 99} · s · sqrt(1/100 + 10/90) (Nadeau & Bengio 2003).
    values = scores.to_numpy()
    mean, sd = values.mean(axis=1), values.std(axis=1, ddof=1)
    half = stats.t.ppf(0.975, 99) * sd * np.sqrt(1 / 100 + 10 / 90)
    assert_allclose(points[:, 0], mean)
    assert_allclose(points[:, 1], [3, 2, 1, 0])
    segments = ax.collections[0].get_segments()
    assert_allclose([s[0][0] for s in segments], mean - half, rtol=1e-10)
    assert_allclose([s[1][0] for s in segments], mean + half, rtol=1e-10)


def test_intervals_without_design_say_plain(scores):
    plain = pd.DataFrame(scores.to_numpy(), index=scores.index)
    ax = plain.cmp.plot("intervals", ci=0.9)
    assert ax.get_xlabel() == "mean score, 90% CI\n(plain t, design unknown: too narrow)"
    assert "CV design unknown" in ax.get_title()
    values = plain.to_numpy()
    half = stats.t.ppf(0.95, 99) * values.std(axis=1, ddof=1) / 10
    segments = ax.collections[0].get_segments()
    assert_allclose([s[1][0] for s in segments], values.mean(axis=1) + half, rtol=1e-10)


def test_forest_plot_of_ttest_result():
    result = ttest_result()
    _fig, ax = plt.subplots()
    assert result.cmp.plot(ax=ax) is ax
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "rbf − linear",
        "rbf − 3_poly",
        "rbf − 2_poly",
    ]
    # One errorbar container per group: significant (red) and not significant.
    assert len(ax.containers) == 2
    other = ax.containers[1]
    assert [c.get_label() for c in ax.containers] == [
        "significant at alpha = 0.05",
        "not significant at alpha = 0.05",
    ]
    # Markers: filled (significant) then open, each in model_2's colour.
    filled, hollow = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert_allclose(filled.get_offsets()[:, 0], [0.2548])
    assert_allclose(hollow.get_offsets()[:, 0], [0.01, 0.0356])
    colours = model_colours(NAMES)
    assert_allclose(filled.get_facecolors(), [colours["2_poly"]])
    assert_allclose(hollow.get_edgecolors(), [colours["linear"], colours["3_poly"]])
    assert_allclose(hollow.get_facecolors(), [to_rgba("white")])
    assert_allclose([s[0][0] for s in other.lines[2][0].get_segments()], [-0.016, -0.007])
    assert_allclose([s[1][0] for s in other.lines[2][0].get_segments()], [0.036, 0.078])
    # The zero line and the adjusted p-values (Holm over 3: 3·1.4e-5, 2·0.1006, 0.455).
    assert any(np.allclose(line.get_xdata(), 0) for line in ax.get_lines())
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["p_adj = 0.455", "p_adj = 0.201", "p_adj < 0.001"]
    assert ax.get_title() == "Corrected t-test (Nadeau–Bengio), holm correction"
    assert ax.get_xlabel() == (
        "mean difference model_1 − model_2 with 95% CI\n"
        "(interval unadjusted; markers and p-values holm-adjusted)"
    )
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [
        "significant at alpha = 0.05",
        "not significant",
        "colour: model_2's",
    ]
    # The colour entry shows the rows' colours, top row first.
    squares = [
        line for line in ax.get_legend().findobj(Line2D) if line.get_marker() == "s"
    ]
    assert_allclose(
        [to_rgba(line.get_color()) for line in squares],
        [colours["linear"], colours["3_poly"], colours["2_poly"]],
    )


def test_forest_plot_one_sided_draws_arrows():
    ax = ttest_result("greater").cmp.plot()
    arrows = [line for line in ax.get_lines() if line.get_marker() == ">"]
    assert len(arrows) == 3
    assert_allclose([a.get_xdata()[0] for a in arrows], [ax.get_xlim()[1]] * 3)
    assert "one-sided (greater)" in ax.get_xlabel()


def test_forest_data():
    data = forest_data(ttest_result())
    assert data["label"].tolist() == ["rbf − linear", "rbf − 3_poly", "rbf − 2_poly"]
    assert_allclose(data["pvalue"], [0.455, 0.2012, 4.2e-5])  # Holm (statsmodels definition)
    assert data["reject"].tolist() == [False, False, True]


@pytest.mark.parametrize("test", ["wilcoxon", "sign_test", "ttest_5x2cv", "mcnemar"])
def test_pvalue_dots_for_tests_without_interval(test):
    ax = wilcoxon_result(test).cmp.plot()
    assert ax.get_xscale() == "log"
    # One model against the others: the rows name the others, the axis the model.
    assert [t.get_text() for t in ax.get_yticklabels()] == ["linear", "3_poly", "2_poly"]
    assert ax.get_ylabel() == "rbf vs"
    significant, other = ax.collections[:2]
    # Holm over 3 p-values (0.2, 0.01, 0): adjusted 0.2, 0.02, 0.
    assert_allclose(other.get_offsets()[:, 0], [0.2])
    assert_allclose(significant.get_offsets()[:, 0][0], 0.02)
    # p = 0 sits a decade below the smallest positive p-value or alpha.
    assert_allclose(significant.get_offsets()[:, 0][1], 0.002)
    assert [t.get_text() for t in ax.texts] == ["p_adj = 0.200", "p_adj = 0.020", "p_adj < 0.001"]
    alpha_lines = [line for line in ax.get_lines() if np.allclose(line.get_xdata(), 0.05)]
    assert len(alpha_lines) == 1
    assert ax.get_xlabel() == "p-value, holm-adjusted (log scale)"


def test_result_plot_errors(scores):
    with pytest.raises(ValueError, match="draws a scores frame"):
        ttest_result().cmp.plot("folds")
    with pytest.raises(ValueError, match="`kind` must be one of"):
        scores.cmp.plot("histogram")
    with pytest.raises(ValueError, match="`kind` is needed"):
        scores.cmp.plot()


def test_plot_does_not_modify_the_frame(scores):
    before = scores.copy()
    attrs = scores.attrs.copy()
    for kind in ("folds", "corr", "intervals"):
        scores.cmp.plot(kind, ax=plt.figure().gca())
    pd.testing.assert_frame_equal(scores, before)
    assert scores.attrs == attrs


def test_pvalues_heatmap_matches_design_values(scores):
    _fig, ax = plt.subplots()
    scores.cmp.plot("pvalues", ax=ax, correction="bonferroni", alternative="greater")
    image = ax.get_images()[0].get_array()
    assert image.shape == (4, 4)
    # DESIGN.md §8 pairwise corrected t, "greater", Bonferroni p_adj (rows/columns best first).
    expected = {(0, 1): 1.0, (0, 2): 0.302, (0, 3): 0.0, (1, 2): 0.807, (1, 3): 0.0, (2, 3): 0.001}
    for (row, col), value in expected.items():
        assert_allclose(image[row, col], value, atol=5e-4)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["rbf", "linear", "3_poly", "2_poly"]
    texts = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    assert len(texts) == 12  # the diagonal stays empty
    assert texts[(0, 1)].get_text() == "1.000"
    assert texts[(0, 3)].get_text() == "<0.001"
    assert texts[(0, 3)].get_fontweight() == "bold"
    assert texts[(0, 1)].get_fontweight() == "normal"
    assert "one-sided (greater" in ax.get_title()
    assert ax.figure.axes[1].get_ylabel() == "p-value, bonferroni-adjusted"


def test_select_equivalent_draws_the_rope_line_and_styles():
    # select() keeps its rope as one half-width: the picture draws best mean - rope.
    scores = load_grid_search_scores()
    choice = scores.cmp.select("equivalent", by=list(scores.index), rope=0.03)
    caption = choice.cmp.style().caption
    assert "0.03" in caption
    ax = choice.cmp.plot()
    best = choice.attrs["pdcompare"]["best"]
    line = [ln for ln in ax.get_lines() if ln.get_label().startswith("best mean - ROPE")]
    assert_allclose(line[0].get_xdata()[0], choice.loc[best, "mean"] - 0.03)
    plt.close("all")


@pytest.mark.parametrize("kind", [None, "pareto"])
def test_plot_refuses_a_dict_naming_the_frame_it_needs(kind):
    # A dict is not read as a result's metadata: the TypeError of every function.
    with pytest.raises(TypeError, match="compares the models of a pandas DataFrame; got dict"):
        pdcompare.plot({"kind": "result", "test": "wilcoxon"}, kind=kind)
