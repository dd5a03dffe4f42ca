"""Readable at any size (issue 13): plots and styled tables on 60 models named with ", "."""

import itertools
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from frames import shuffled_ranked_models as sixty
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgba
from matplotlib.transforms import Bbox
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.presentation.plotting._base import (
    MIN_ANNOTATION_POINTS,
    model_colours,
    position_colour,
)


def best_first(frame):
    return frame.mean(axis=1).sort_values(ascending=False).index.tolist()


# ------------------------------------------------------------------ plots


def test_two_plots_without_ax_give_two_figures():
    scores, _ = sixty(8)
    first = scores.cmp.plot("intervals")
    second = scores.cmp.plot("folds")
    assert first.figure is not second.figure
    assert len(first.figure.axes) == 1
    assert len(second.figure.axes) == 1


@pytest.mark.parametrize("kind", ["folds", "intervals", "corr", "pvalues"])
def test_default_cap_of_20_said_in_the_title(kind):
    scores, _ = sixty()
    ax = scores.cmp.plot(kind)
    assert "best 20 of 60 models" in ax.get_title()
    expected = best_first(scores)[:20]
    if kind == "folds":
        shown = [t.get_text().rsplit(" (mean", 1)[0] for t in ax.get_legend().get_texts()]
    else:
        shown = [t.get_text() for t in ax.get_yticklabels()]
        shown = [s for s in shown if s]
    assert shown == expected[: len(shown)]
    assert len(shown) == 20 or kind in ("corr", "pvalues")


@pytest.mark.parametrize("kind", ["folds", "intervals", "corr", "pvalues"])
def test_top_is_honoured(kind):
    scores, _ = sixty()
    ax = scores.cmp.plot(kind, top=5)
    assert "best 5 of 60 models" in ax.get_title()
    if kind == "folds":
        assert len(ax.get_lines()) == 5
    elif kind == "intervals":
        assert [t.get_text() for t in ax.get_yticklabels()] == best_first(scores)[:5]
    else:
        assert ax.get_images()[0].get_array().shape == (5, 5)
        assert [t.get_text() for t in ax.get_yticklabels()] == best_first(scores)[:5]


def test_top_must_be_a_positive_int():
    scores, _ = sixty(5)
    with pytest.raises(ValueError, match="`top`"):
        scores.cmp.plot("folds", top=0)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["corr", "pvalues"])
def test_annotations_only_where_the_cells_fit(kind):
    scores, _ = sixty()
    few = scores.cmp.plot(kind, top=5)
    assert len(few.texts) >= 5 * 4  # every off-diagonal cell at least
    assert min(t.get_fontsize() for t in few.texts) >= MIN_ANNOTATION_POINTS
    many = scores.cmp.plot(kind, top=60)
    assert many.get_images()[0].get_array().shape == (60, 60)
    assert not many.texts  # 3,600 cells of about 12 points: no smear of numbers
    forced = scores.cmp.plot(kind, top=60, annot=True)
    assert len(forced.texts) >= 60 * 59


def test_folds_legend_and_intervals_in_the_same_order_and_colours():
    scores, _ = sixty(12)
    folds = scores.cmp.plot("folds")
    intervals = scores.cmp.plot("intervals")
    legend = [t.get_text().rsplit(" (mean", 1)[0] for t in folds.get_legend().get_texts()]
    rows = [t.get_text() for t in intervals.get_yticklabels()]  # top row first
    assert legend == rows == best_first(scores)
    # The legend is outside the Axes (never over the lines) and no taller than the figure.
    folds.figure.canvas.draw()
    legend_box = folds.get_legend().get_window_extent()
    assert legend_box.x0 >= folds.get_window_extent().x1
    assert legend_box.height <= folds.figure.bbox.height
    line_colours = [to_rgba(line.get_color()) for line in folds.get_lines()]
    points = intervals.collections[1]
    # The points are given best first (the best at the top).
    assert_allclose(points.get_facecolors(), line_colours)
    assert_allclose(line_colours, [position_colour(k) for k in range(12)])


def test_one_colour_per_model_across_kinds():
    scores, _ = sixty(25)
    order = best_first(scores)
    colours = model_colours(order)
    assert len({tuple(np.round(c, 6)) for c in colours.values()}) == 25
    folds = scores.cmp.plot("folds", top=25)
    by_label = {
        t.get_text().rsplit(" (mean", 1)[0]: to_rgba(line.get_color())
        for t, line in zip(folds.get_legend().get_texts(), folds.get_lines(), strict=True)
    }
    forest = scores.cmp.corrected_ttest().cmp.plot(top=25)
    markers = [c for c in forest.collections if isinstance(c, PathCollection)]
    edge = np.concatenate([c.get_edgecolors() for c in markers])
    y = np.concatenate([c.get_offsets()[:, 1] for c in markers])
    labels = {round(t.get_position()[1]): t.get_text() for t in forest.get_yticklabels()}
    for colour, position in zip(edge, y, strict=True):
        opponent = labels[round(position)].split(" − ", 1)[1]
        assert_allclose(colour, by_label[opponent])
    posterior = scores.cmp.plot("posterior", a=order[0], b=order[3], rope=0.001)
    fills = [c for c in posterior.collections if c.get_label().startswith("P(")]
    assert_allclose(fills[0].get_facecolor()[0][:3], by_label[order[0]][:3])
    assert_allclose(fills[1].get_facecolor()[0][:3], by_label[order[3]][:3])


def test_forest_all_pairs_default_is_the_pairs_among_the_best_10():
    scores, _ = sixty()
    result = scores.cmp.pairwise()
    ax = result.cmp.plot()
    assert len(ax.get_yticklabels()) == 45
    assert "pairs among the best 10 of 60 models" in ax.get_title()
    best_vs_rest = scores.cmp.corrected_ttest().cmp.plot()
    assert len(best_vs_rest.get_yticklabels()) == 19  # the best and 19 others: 20 models
    assert "the best 19 of 59 other models" in best_vs_rest.get_title()


def test_forest_bonferroni_intervals_are_simultaneous_and_agree_with_the_markers():
    scores, _ = sixty(6)
    result = scores.cmp.corrected_ttest(correction="bonferroni")
    ax = result.cmp.plot()
    m = len(result)
    # Bonferroni-Nadeau-Bengio: mean ± t_{df}(1 - alpha / (2 m)) · se, se from the 95% CI.
    se = (result["ci_high"] - result["ci_low"]) / (2 * stats.t.ppf(0.975, result["df"]))
    half = stats.t.ppf(1 - 0.05 / (2 * m), result["df"]) * se
    segments = {
        round(s[0][1]): s[:, 0] for c in ax.containers for s in c.lines[2][0].get_segments()
    }
    drawn = np.array([segments[len(result) - 1 - k] for k in range(len(result))])
    assert_allclose(drawn[:, 0], result["mean_diff"] - half, rtol=1e-9)
    assert_allclose(drawn[:, 1], result["mean_diff"] + half, rtol=1e-9)
    # A pair is filled (rejected) exactly when its simultaneous interval excludes 0.
    excludes = (drawn[:, 0] > 0) | (drawn[:, 1] < 0)
    assert excludes.tolist() == result["reject"].tolist()
    assert "simultaneous, bonferroni-adjusted" in ax.get_xlabel()
    holm = scores.cmp.corrected_ttest().cmp.plot()
    assert "interval unadjusted" in holm.get_xlabel()


def test_legends_never_cover_the_data():
    scores, _ = sixty(4)
    ax = scores.cmp.plot("posterior", rope=0.01)
    ax.figure.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # right of the Axes: not on the curve
    assert ax.get_legend().get_window_extent().y1 <= ax.figure.bbox.y1 + 1
    forest = scores.cmp.corrected_ttest().cmp.plot()
    forest.figure.canvas.draw()
    assert forest.get_legend().get_window_extent().y0 >= forest.get_window_extent().y1 - 1
    assert forest.title.get_window_extent().y0 >= forest.get_legend().get_window_extent().y1 - 1


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 20, 60])
def test_overview_panels_never_run_into_each_other(n):
    # What `pdcompare FILE --plot` saves. On a fixed 18 x 5 inch figure, names of a
    # search ("max_depth=3, learning_rate=0.3, l2_regularization=1") ran the legend
    # into the heatmap and squeezed the heatmap to a few pixels.
    from pdcompare.presentation.plotting.scores import overview_figure

    rng = np.random.default_rng(n)
    names = [f"max_depth={k % 7}, learning_rate=0.{k}, l2={k % 2}, solver=lbfgs" for k in range(n)]
    values = 0.9 - 0.002 * np.arange(n)[:, None] + rng.normal(0, 0.01, (n, 15))
    frame = pd.DataFrame(values, index=names)
    figure = overview_figure(frame, cv=5)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    drawn = [
        Bbox.union([ax.get_tightbbox(renderer) for ax in panel.axes]) for panel in figure.subfigs
    ]
    for left, right in itertools.pairwise(drawn):
        assert left.x1 <= right.x0
    for box in drawn:
        assert box.x0 >= figure.bbox.x0 - 1
        assert box.x1 <= figure.bbox.x1 + 1
        assert box.y0 >= figure.bbox.y0 - 1
        assert box.y1 <= figure.bbox.y1 + 1
    # The heatmap keeps cells that can be read: at least 8 points a side.
    heatmap = figure.subfigs[1].axes[0]
    cell = heatmap.get_window_extent().width / min(n, 20) * 72 / figure.dpi
    assert cell >= 8


@pytest.mark.parametrize("kind", ["folds", "corr", "intervals", "pvalues"])
def test_plots_draw_on_an_axes_of_a_subfigure(kind):
    # An Axes of a SubFigure: the sizes of the root figure, which holds the rows.
    scores, _ = sixty(20)
    figure = plt.figure(figsize=(12, 6), layout="constrained")
    left, _ = figure.subfigures(1, 2)
    ax = left.add_subplot()
    assert scores.cmp.plot(kind, ax=ax) is ax
    alone = scores.cmp.plot(kind, ax=plt.figure(figsize=(6, 6)).add_subplot())
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        t.get_text() for t in alone.get_yticklabels()
    ]


def test_posterior_defaults_to_propagate_and_refuses_missing_scores_clearly():
    scores, _ = sixty(4)
    values = scores.copy()
    first, second = best_first(scores)[:2]
    values.loc[first, 0] = np.nan
    with (
        pytest.warns(pdcompare.PdcompareWarning),
        pytest.raises(ValueError, match="nan_policy='omit'"),
    ):
        values.cmp.plot("posterior", a=first, b=second)
    ax = values.cmp.plot("posterior", a=first, b=second, nan_policy="omit")
    assert ax.get_lines()


def test_clear_errors_for_bad_options_and_cut_results():
    scores, _ = sixty(4)
    with pytest.raises(ValueError, match=r"`colour` .*did you mean 'color'"):
        scores.cmp.plot("folds", colour="red")
    result = scores.cmp.corrected_ttest()
    with pytest.raises(ValueError, match=r"needs the column\(s\) 'pvalue', 'ci_low', 'ci_high'"):
        result[["model_1", "model_2", "mean_diff"]].cmp.plot()
    ax = scores.cmp.plot("folds", color="red")
    assert all(to_rgba(line.get_color()) == to_rgba("red") for line in ax.get_lines())


@pytest.mark.parametrize(
    "make",
    [
        lambda s: s.cmp.bayes(ALL_PAIRS, rope=0.01),
        lambda s: s.cmp.wilcoxon(cv=30),  # one 30-fold: splits that do not overlap
        lambda s: s.cmp.pairwise().cmp.matrix("mean_diff"),
    ],
)
def test_result_plots_cap_and_top(make):
    scores, _ = sixty(30)
    result = make(scores)
    ax = result.cmp.plot()
    assert "of 30" in ax.get_title() or "of 29" in ax.get_title()
    ax = result.cmp.plot(top=4)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) in (3, 4)


def test_cd_and_select_take_top():
    rng = np.random.default_rng(3)
    names = [f"clf, {k}" for k in range(30)]
    table = pd.DataFrame(
        rng.random((30, 12)) + np.linspace(1, 0, 30)[:, None],
        index=names,
        columns=pd.Index(range(12), name="dataset"),
    )
    ax = table.cmp.plot("cd")
    assert "best 20 of 30 models" in ax.get_title()
    assert len([t for t in ax.texts if t.get_gid() == "cd-name"]) == 20
    ax = table.cmp.plot("cd", top=5)
    assert len([t for t in ax.texts if t.get_gid() == "cd-name"]) == 5
    scores, _ = sixty(30)
    choice = pdcompare.select(scores, by=list(scores.index))
    ax = choice.cmp.plot(top=6)
    assert len(ax.get_yticklabels()) <= 8  # the best 6, the best and the selected one


@pytest.mark.parametrize("n", [4, 20, 60])
def test_select_plot_fits_long_names_and_leaves_a_given_figure_alone(n):
    # It drew on a 7-inch figure and called tight_layout, which cut a search's
    # names and the legend (that names the best and the selected model) at the
    # figure's edges, and re-laid out a figure the caller passed in.
    rng = np.random.default_rng(n)
    names = [f"max_depth={k % 7}, learning_rate=0.{k}, l2={k % 2}, solver=lbfgs" for k in range(n)]
    values = 0.9 - 0.001 * np.arange(n)[:, None] + rng.normal(0, 0.02, (n, 15))
    choice = pdcompare.select(pd.DataFrame(values, index=names), by=names[::-1], cv=5)
    ax = choice.cmp.plot()
    figure = ax.figure
    figure.canvas.draw()
    drawn = ax.get_tightbbox(figure.canvas.get_renderer())
    assert drawn.x0 >= figure.bbox.x0 - 1
    assert drawn.x1 <= figure.bbox.x1 + 1
    assert drawn.y0 >= figure.bbox.y0 - 1
    assert drawn.y1 <= figure.bbox.y1 + 1
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1
    given = plt.figure(figsize=(6, 4))
    own = given.add_subplot()
    before = own.get_position().bounds
    assert choice.cmp.plot(ax=own) is own
    assert own.get_position().bounds == before
    assert given.get_layout_engine() is None


def test_bootstrap_plots_take_top_and_colours():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    preds = pd.DataFrame(
        {
            "y": y,
            **{f"m, {k}": np.where(rng.random(200) < 0.6 + 0.01 * k, y, 1 - y) for k in range(25)},
        }
    )
    result = preds.cmp.bootstrap(random_state=0, n_resamples=50)
    ax = result.cmp.plot()
    assert "best 20 of 25 models" in ax.get_title()
    assert len(ax.get_yticklabels()) == 20
    lines = next(c for c in ax.collections if isinstance(c, LineCollection))
    colours = model_colours(result.sort_values("estimate", ascending=False).index)
    assert_allclose(lines.get_colors()[-1], colours[result["estimate"].idxmax()])
    diff = preds.cmp.bootstrap_diff(random_state=0, n_resamples=50).cmp.plot(top=5)
    assert len(diff.get_yticklabels()) == 4  # the best and its 4 best opponents: 5 models


# ------------------------------------------------------------------ style


def cells(html):
    return re.findall(r"<td [^>]*>([^<]*)</td>", html)


def test_style_top_caption_and_formats():
    scores, _ = sixty()
    result = scores.cmp.corrected_ttest()
    styler = result.cmp.style(top=5)
    assert len(styler.data) == 4  # the best and its 4 best opponents: 5 models, as the plot
    assert set(styler.data["model_2"]) == set(best_first(scores)[1:5])
    assert styler.caption == (
        "Corrected t-test (Nadeau–Bengio); higher is better; holm correction; alpha = 0.05"
    )
    html = styler.to_html()
    table = np.array(cells(html)).reshape(styler.data.shape)
    df = table[:, list(styler.data.columns).index("df")]
    assert df.tolist() == ["29"] * 4  # an integer, not 29.000
    pvalues = table[:, list(styler.data.columns).index("pvalue_adj")]
    assert all(p == "&lt;0.001" or re.fullmatch(r"\d\.\d{3}", p) for p in pvalues)
    lower = scores.cmp.set_design(cv=10, greater_is_better=False).cmp.summary()
    assert "lower is better" in lower.cmp.style().caption


def test_style_counts_as_integers_one_format_per_column():
    frame = pd.DataFrame(
        {
            "model_1": ["a", "a"],
            "model_2": ["b", "c"],
            "wins": [3.0, 12.0],
            "losses": [1.0, 0.0],
            "ties": [0.0, 2.0],
            "mean_diff": [1.0, 0.25],
        }
    )
    table = np.array(cells(frame.cmp.style().to_html())).reshape(frame.shape)
    assert table[:, 2].tolist() == ["3", "12"]
    assert table[:, 4].tolist() == ["0", "2"]
    assert table[:, 5].tolist() == ["1.000", "0.250"]  # one format in the column


def test_style_matrix_diagonal_blank_and_top():
    scores, _ = sixty(6)
    table = scores.cmp.pairwise().cmp.matrix("pvalue_adj")
    styler = table.cmp.style(top=4)
    assert styler.data.shape == (4, 4)
    text = np.array(cells(styler.to_html())).reshape(4, 4)
    assert (np.diag(text) == "").all()
    assert (text[~np.eye(4, dtype=bool)] != "").all()
    latex = styler.to_latex()
    assert "nan" not in latex


def test_style_of_concatenated_results():
    scores, _ = sixty(4)
    both = pd.concat([scores.cmp.corrected_ttest(), scores.cmp.wilcoxon(cv=30)])
    styler = both.cmp.style()
    assert len(cells(styler.to_html())) == both.size
    renamed = both.set_index("model_2")
    with pytest.raises(ValueError, match="unique row labels"):
        renamed.cmp.style()


def test_style_latex_structure_compiles():
    import shutil
    import subprocess

    scores, _ = sixty(5)
    styler = scores.cmp.corrected_ttest().cmp.style()
    latex = styler.to_latex()
    assert latex.startswith("\\begin{table}\n\\caption{Corrected t-test (Nadeau–Bengio); ")
    for rule in ("\\toprule", "\\midrule", "\\bottomrule"):
        assert latex.count(rule) == 1
    assert latex.index("\\toprule") < latex.index("\\midrule") < latex.index("\\bottomrule")
    assert "svc, C=" in latex
    assert "model\\_1" in latex
    body = latex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    assert all(line.count("&") == 9 for line in body.splitlines())
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        return
    document = (
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
        "\\usepackage[table]{xcolor}\n\\begin{document}\n" + latex + "\\end{document}\n"
    )
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "t.tex").write_text(document, encoding="utf-8")
        run = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "t.tex"], cwd=folder, capture_output=True
        )
        assert run.returncode == 0, run.stdout[-2000:]


def test_pvalues_too_small_for_numbers_mark_the_significant_cells():
    from frames import scores_with_model_effects

    scores = scores_with_model_effects(20, 10, 0).cmp.set_design(cv=10)
    ax = scores.cmp.plot("pvalues")
    assert not ax.texts  # 20 x 20 cells: the numbers do not fit
    dots = next(c for c in ax.collections if isinstance(c, PathCollection))
    shown = [t.get_text() for t in ax.get_yticklabels()]
    pairs = scores.cmp.pairwise("corrected_ttest")
    significant = {
        (shown.index(a), shown.index(b))
        for a, b, p in zip(pairs["model_1"], pairs["model_2"], pairs["pvalue_adj"], strict=True)
        if p < 0.05
    }
    significant |= {(j, i) for i, j in significant}
    marked = {(round(float(y)), round(float(x))) for x, y in dots.get_offsets()}
    assert marked == significant
    assert "dot: significant at alpha = 0.05" in ax.get_title()
    plt.close("all")
