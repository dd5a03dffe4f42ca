"""What a user sees in the pictures (issue 34, DESIGN section 20 "Presentation")."""

import re

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.datasets import load_grid_search_scores
from pdcompare.presentation.plotting.scores import overview_figure


def losses(n=12, seed=1):
    """A loss frame: model k has mean loss 0.1 + 0.01 k, the rows shuffled."""
    rng = np.random.default_rng(seed)
    names = [f"model {k}" for k in range(n)]
    values = 0.1 + 0.01 * np.arange(n)[:, None] + rng.normal(0, 0.002, (n, 10))
    order = rng.permutation(n)
    frame = pd.DataFrame(values[order], index=[names[k] for k in order])
    return frame.cmp.set_design(cv=10, greater_is_better=False), names


def legend_models(ax):
    return [t.get_text().rsplit(" (mean", 1)[0] for t in ax.get_legend().get_texts()]


@pytest.mark.parametrize("stored", [True, False])
def test_every_panel_of_a_loss_overview_runs_best_first_lowest_mean(stored):
    frame, names = losses()
    design = {}
    if not stored:
        frame = pd.DataFrame(frame.to_numpy(), index=frame.index)
        design = {"greater_is_better": False}
    figure = overview_figure(frame, **design)
    folds, corr, intervals = (panel.axes[0] for panel in figure.subfigs)
    # Best first = lowest mean loss first, written out from the frame.
    expected = frame.mean(axis=1).sort_values().index.tolist()
    assert expected == names
    assert legend_models(folds) == expected
    assert [t.get_text() for t in corr.get_yticklabels()] == expected
    assert [t.get_text() for t in intervals.get_yticklabels()] == expected
    # One colour per model across the panels: the line of a model and its interval.
    line_colour = {
        label.rsplit(" (mean", 1)[0]: to_rgba(line.get_color())
        for line, label in zip(folds.get_lines(), legend_models(folds), strict=True)
    }
    interval_colours = intervals.collections[0].get_colors()
    for name, colour in zip(expected, interval_colours, strict=True):
        assert_allclose(colour, line_colour[name])


def test_folds_and_corr_take_greater_is_better():
    frame, names = losses()
    bare = pd.DataFrame(frame.to_numpy(), index=frame.index)
    ax = bare.cmp.plot("folds", greater_is_better=False)
    assert legend_models(ax) == names
    ax = bare.cmp.plot("corr", greater_is_better=False)
    assert [t.get_text() for t in ax.get_yticklabels()] == names


def test_overview_top_says_how_many_of_how_many():
    frame, names = losses(30)
    figure = overview_figure(frame, top=10)
    for panel in figure.subfigs:
        assert "best 10 of 30 models" in panel.axes[0].get_title()
    assert legend_models(figure.subfigs[0].axes[0]) == names[:10]


def models_drawn(ax, names):
    texts = [t.get_text() for t in ax.get_yticklabels() + ax.get_xticklabels() + ax.texts]
    texts += [ax.get_title(), ax.get_ylabel()]
    if ax.get_legend() is not None:
        texts += [t.get_text() for t in ax.get_legend().get_texts()]
    pattern = re.compile("|".join(re.escape(n) + r"\b" for n in names))
    return {m for text in texts for m in pattern.findall(text)}


def many(n=30, seed=0):
    rng = np.random.default_rng(seed)
    names = [f"m{k:02d}" for k in range(n)]
    # 20 splits of 5% test data: the sign and Wilcoxon tests can reject after Holm over
    # the 29 pairs, and the splits do not overlap.
    values = 0.9 - 0.003 * np.arange(n)[:, None] + rng.normal(0, 0.002, (n, 20))
    return pd.DataFrame(values, index=names).cmp.set_design(test_size=0.05), names


@pytest.mark.parametrize(
    "make",
    [
        lambda f: f.cmp.corrected_ttest(),
        lambda f: f.cmp.wilcoxon(),
        lambda f: f.cmp.sign_test(),
        lambda f: f.cmp.corrected_ttest(a="m05"),
        lambda f: f.cmp.bayes(rope=0.001),
        lambda f: f.cmp.pairwise(),
        lambda f: f.cmp.pairwise(test="bayes", rope=0.001),
    ],
)
def test_result_plot_draws_at_most_top_models(make):
    frame, names = many()
    ax = make(frame).cmp.plot(top=5)
    assert len(models_drawn(ax, names)) == 5


def test_best_vs_rest_default_is_twenty_models():
    frame, names = many(60)
    ax = frame.cmp.corrected_ttest().cmp.plot()
    assert len(models_drawn(ax, names)) == 20
    assert "the best 19 of 59 other models" in ax.get_title()


def test_signed_rank_pair_plot_accepts_top():
    from pdcompare.datasets import load_benchmark

    result = load_benchmark().cmp.bayes(a="svc_rbf", b="forest", rope=0.01, random_state=0)
    ax = result.cmp.plot(top=5)
    assert "svc_rbf vs forest" in ax.get_title()


def test_best_vs_rest_bayes_is_one_stacked_bar_per_opponent():
    frame, _ = many(20)
    result = frame.cmp.bayes(rope=0.001)
    best = result["model_1"].iloc[0]
    ax = result.cmp.plot(top=6)
    assert ax.get_images() == []  # no matrix
    better, rope, worse = ax.containers
    opponents = [t.get_text() for t in ax.get_yticklabels()]
    # Best first from the top: the y positions fall as the opponents get worse.
    ranked = [m for m in result.attrs["pdcompare"]["models"] if m != best][:5]
    assert opponents[::-1] == ranked or opponents == ranked
    top_down = sorted(zip([b.get_y() for b in better], opponents, strict=True), reverse=True)
    assert [name for _, name in top_down] == ranked
    rows = result.set_index("model_2")
    for k, name in enumerate(opponents):
        p = rows.loc[name, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float)
        widths = [better[k].get_width(), rope[k].get_width(), worse[k].get_width()]
        assert_allclose(widths, p, atol=1e-12)
        assert_allclose(rope[k].get_x(), p[0], atol=1e-12)
        assert_allclose(worse[k].get_x(), p[0] + p[1], atol=1e-12)
        assert_allclose(sum(widths), 1.0, atol=1e-9)
    # Every mass of 0.07 or more is written in its segment, to two decimals.
    written = {t.get_text() for t in ax.texts}
    masses = rows.loc[opponents, ["prob_better", "prob_rope"]].to_numpy(dtype=float)
    for value in masses.ravel():
        if value >= 0.07:
            assert f"{value:.2f}" in written
    assert "best 5 of 19 other models" in ax.get_title()
    assert best in ax.get_title()


def test_all_pairs_bayes_keeps_the_matrix():
    from pdcompare.inputs.scores import ALL_PAIRS

    result = load_grid_search_scores().cmp.bayes(ALL_PAIRS, rope=0.01)
    ax = result.cmp.plot()
    assert len(ax.get_images()) == 1


# ------------------------------------------------------------------ tables


def td_cells(html):
    return re.findall(r"<td [^>]*>([^<]*)</td>", html)


def test_pvalue_matrix_style_says_below_one_thousandth():
    result = load_grid_search_scores().cmp.pairwise()
    matrix = result.cmp.matrix("pvalue_adj")
    cells = td_cells(matrix.cmp.style().to_html())
    tiny = result["pvalue_adj"].lt(0.0005).sum()
    # Each pair twice in the matrix (above and below the diagonal).
    assert cells.count("&lt;0.001") == 2 * tiny > 0
    assert "0.000" not in cells
    assert cells.count("0.001") == 2 * result["pvalue_adj"].between(0.0005, 0.0015).sum()


def test_counts_print_as_integers():
    scores = load_grid_search_scores()
    with pytest.warns(pdcompare.PdcompareWarning, match="overlap"):
        result = scores.cmp.pairwise(test="sign_test")
    cells = np.array(td_cells(result.cmp.style().to_html())).reshape(result.shape)
    for column in ("statistic", "wins", "losses", "ties"):
        shown = cells[:, list(result.columns).index(column)]
        assert shown.tolist() == [str(int(v)) for v in result[column]]
    wins = result.cmp.matrix("wins")
    shown = td_cells(wins.cmp.style().to_html())
    values = wins.to_numpy()[~np.isnan(wins.to_numpy())]
    assert [c for c in shown if c] == [str(int(v)) for v in values]


# ------------------------------------------------------------------ warnings


def test_identical_models_warned_once_per_report_in_one_short_line():
    import warnings

    rng = np.random.default_rng(0)
    values = rng.normal(0.8, 0.02, (12, 10))
    values[6:] = values[:6]  # model k+6 repeats model k
    frame = pd.DataFrame(values, index=[f"model number {k}" for k in range(12)])
    frame = frame.cmp.set_design(cv=10)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame.cmp.report(rope=0.01)  # a frequentist and a Bayesian part
    said = [str(w.message) for w in caught if "identical scores" in str(w.message)]
    assert len(said) == 1
    assert "\n" not in said[0]
    assert len(said[0]) < 250
    assert "df[df.duplicated(keep=False)]" in said[0]
    assert sorted(frame[frame.duplicated(keep=False)].index) == sorted(frame.index)
