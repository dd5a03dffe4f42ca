"""Tests of ``result.cmp.style()`` and the text formatters (pdcompare.presentation.styling)."""

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from pandas.io.formats.style import Styler

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare import results
from pdcompare.datasets import load_grid_search_scores
from pdcompare.presentation.labels import format_pvalue
from pdcompare.presentation.styling import caption, column_formatters, highlighted_rows

NAMES = pd.Index(["rbf", "linear", "3_poly", "2_poly"])


def ttest_like():
    # DESIGN.md §8 numbers (corrected t, "greater", Bonferroni) as a result frame.
    return results.pair_result(
        NAMES,
        np.array([0, 0, 0]),
        np.array([1, 2, 3]),
        {
            "mean_diff": [0.01, 0.0356, 0.2548],
            "statistic": [0.750, 1.657, 4.565],
            "df": [99.0, 99.0, 99.0],
            "pvalue": [0.2273, 0.0503, 7.1e-6],
            "ci_low": [-0.0121, -0.0001, 0.1621],
            "ci_high": [np.inf, np.inf, np.inf],
        },
        results.result_meta("corrected_ttest", scope="best_vs_rest", alpha=0.05),
        correction="bonferroni",
        alpha=0.05,
    )


def bayes_like():
    # DESIGN.md §8 pairwise bayes, rope 0.01.
    return results.pair_result(
        NAMES,
        np.array([0, 0, 0]),
        np.array([1, 2, 3]),
        {
            "mean_diff": [0.01, 0.0356, 0.2548],
            "prob_better": [0.500, 0.882, 1.0],
            "prob_rope": [0.432, 0.100, 0.0],
            "prob_worse": [0.068, 0.018, 0.0],
            "ci_low": [-0.016445, -0.02, 0.15],
            "ci_high": [0.036445, 0.09, 0.36],
            "decision": ["undecided", "undecided", "rbf"],
        },
        results.result_meta("bayes", scope="best_vs_rest", rope=(-0.01, 0.01), alpha=0.05),
    )


def cell_texts(html: str) -> list[str]:
    return re.findall(r"<td [^>]*>([^<]*)</td>", html)


def test_style_returns_styler_and_keeps_the_frame():
    result = ttest_like()
    before = result.copy()
    styler = result.cmp.style()
    assert isinstance(styler, Styler)
    pd.testing.assert_frame_equal(result, before)
    assert result.attrs == before.attrs


def test_style_formats_pvalues_and_numbers():
    result = ttest_like()
    cells = cell_texts(result.cmp.style().to_html())
    assert len(cells) == result.size
    table = np.array(cells).reshape(result.shape)
    column = list(result.columns).index
    # Model names are kept as they are.
    assert table[:, column("model_1")].tolist() == ["rbf"] * 3
    assert table[:, column("model_2")].tolist() == ["linear", "3_poly", "2_poly"]
    # Tiny p-values print as "<0.001" (HTML-escaped), the others with 3 decimals.
    assert table[2, column("pvalue")] == "&lt;0.001"
    assert table[2, column("pvalue_adj")] == "&lt;0.001"
    shown = table[:2, column("pvalue")].astype(float)
    assert_allclose(shown, result["pvalue"].iloc[:2], atol=5e-4)
    # Bonferroni over 3 rows: min(3p, 1), the statsmodels definition.
    shown_adj = table[:2, column("pvalue_adj")].astype(float)
    assert_allclose(shown_adj, np.minimum(3 * result["pvalue"].iloc[:2], 1), atol=5e-4)
    assert_allclose(table[:, column("statistic")].astype(float), [0.750, 1.657, 4.565])
    assert table[:, column("df")].tolist() == ["99"] * 3
    assert table[:, column("ci_high")].tolist() == ["inf"] * 3
    assert table[:, column("reject")].tolist() == ["no", "no", "yes"]


def test_style_highlights_rejected_rows():
    result = ttest_like()
    styler = result.cmp.style()
    styler._compute()
    styled_rows = {
        row for (row, _col), css in styler.ctx.items() if ("font-weight", "bold") in css
    }
    assert styled_rows == {2}
    assert highlighted_rows(result).tolist() == [False, False, True]


def test_style_highlights_decided_bayes_rows_and_formats_probabilities():
    result = bayes_like()
    styler = result.cmp.style()
    table = np.array(cell_texts(styler.to_html())).reshape(result.shape)
    column = list(result.columns).index
    assert_allclose(
        table[:, column("prob_better")].astype(float), result["prob_better"], atol=5e-4
    )
    assert table[:, column("decision")].tolist() == ["undecided", "undecided", "rbf"]
    assert highlighted_rows(result).tolist() == [False, False, True]


def test_style_gradient_on_probabilities():
    styler = bayes_like().cmp.style(gradient=True, highlight=None)
    styler._compute()
    colored = {
        col
        for (_row, col), css in styler.ctx.items()
        if any(prop == "background-color" for prop, _ in css)
    }
    columns = list(bayes_like().columns)
    assert colored == {columns.index(c) for c in ("prob_better", "prob_rope", "prob_worse")}


def test_style_right_aligns_numbers_and_hides_row_numbers():
    styler = ttest_like().cmp.style()
    styler._compute()
    columns = list(ttest_like().columns)
    right = {col for (_r, col), css in styler.ctx.items() if ("text-align", "right") in css}
    assert right == {columns.index(c) for c in columns if c not in ("model_1", "model_2")}
    html = styler.to_html()
    assert "row_heading" not in html


def test_style_to_latex_escapes_and_bolds_rejected_rows():
    latex = ttest_like().cmp.style(caption="").to_latex()
    lines = latex.splitlines()
    assert lines[0] == r"\begin{tabular}{llrrrrrrrr}"
    assert lines[1] == r"\toprule"
    assert lines[2].startswith(r"model\_1 & model\_2 & mean\_diff")
    assert lines[3] == r"\midrule"
    assert r"\textless{}0.001" in lines[6]
    assert r"\bfseries" in lines[6]
    assert r"\bfseries" not in lines[4]
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]
    assert "padding" not in latex
    assert "text-align" not in latex


def test_style_summary_frame_highlights_best_model():
    summary = load_grid_search_scores().cmp.summary()
    styler = summary.cmp.style()
    html = styler.to_html()
    # Index (model names) kept; means printed with 3 decimals (DESIGN.md §8 means).
    for name, mean in [("rbf", "0.940"), ("linear", "0.930"), ("3_poly", "0.904")]:
        assert name in html
        assert mean in html
    assert highlighted_rows(summary).tolist() == [True, False, False, False]


def test_style_pvalue_without_reject_uses_alpha():
    frame = pd.DataFrame({"n_models": [3], "statistic": [7.2], "df": [2.0], "pvalue": [0.027]})
    assert highlighted_rows(frame).tolist() == [True]
    assert highlighted_rows(frame, alpha=0.01).tolist() == [False]


def test_style_bad_options():
    with pytest.raises(TypeError, match="`precision` must be a positive integer"):
        ttest_like().cmp.style(precision=2.5)
    with pytest.raises(ValueError, match="`alpha` must be strictly between 0 and 1"):
        ttest_like().cmp.style(alpha=5)
    with pytest.raises(TypeError, match="`highlight` must be a CSS string"):
        ttest_like().cmp.style(highlight=True)


def test_column_formatters_for_to_string():
    result = ttest_like()
    text = result.to_string(formatters=column_formatters(result), index=False)
    for expected in ("<0.001", "0.227", "0.682"):  # 3 x 0.2273 = 0.6819 (Bonferroni)
        assert expected in text


@pytest.mark.parametrize(
    ("value", "precision", "expected"),
    [
        (0.05, 3, "0.050"),
        (0.0004999, 3, "<0.001"),
        (0.0005, 3, "0.001"),
        (1.0, 2, "1.00"),
        (np.nan, 3, "nan"),
        (0.0, 3, "<0.001"),
        (3e-5, 4, "<0.0001"),
    ],
)
def test_format_pvalue(value, precision, expected):
    assert format_pvalue(value, precision) == expected


@settings(deadline=None, max_examples=50, derandomize=True)
@given(st.floats(min_value=0, max_value=1), st.integers(min_value=1, max_value=6))
def test_format_pvalue_round_trips(value, precision):
    text = format_pvalue(value, precision)
    if text.startswith("<"):
        assert value < 0.5 * 10.0**-precision
    else:
        # The printed p-value is the p-value rounded to `precision` decimals, never 0.
        assert_allclose(float(text), value, atol=0.5 * 10.0**-precision + 1e-12)
        assert float(text) > 0


def test_equivalence_results_say_equivalent():
    # TOST's reject means "equivalent within the rope", never "significantly different".
    result = load_grid_search_scores().cmp.pairwise(test="equivalence", rope=0.02)
    assert "yes = equivalent within the ROPE" in result.cmp.style().caption
    assert "yes = equivalent within the ROPE" in result.cmp.matrix("reject").cmp.style().caption
    assert "equivalent" not in load_grid_search_scores().cmp.pairwise().cmp.style().caption


@pytest.mark.parametrize("rule", ["not_worse", "equivalent"])
def test_a_selection_with_a_rope_is_styled_with_its_half_width(rule):
    # select() keeps its rope as one half-width, not (low, high): the caption said
    # nothing of it and raised a TypeError before.
    scores = load_grid_search_scores()
    by = pd.Series(np.arange(len(scores)), index=scores.index)
    chosen = scores.cmp.select(rule, by=by, rope=0.01)
    assert chosen.attrs["pdcompare"]["rope"] == 0.01
    assert "ROPE ±0.01; alpha = 0.05" in chosen.cmp.style().caption


def _with_meta(meta):
    frame = pd.DataFrame({"model_1": ["a"], "model_2": ["b"], "pvalue": [0.01]})
    frame.attrs["pdcompare"] = meta
    return frame


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        # A correction stored as None is said; a frame without one says nothing of it.
        ({"test": "wilcoxon", "correction": None}, "Wilcoxon signed-rank test; no correction"),
        ({"test": "wilcoxon"}, "Wilcoxon signed-rank test"),
        ({"test": "nemenyi", "correction": None}, "Nemenyi test; family-wise p-values"),
        # The direction from the result, else from its design; neither: not said.
        (
            {"test": "wilcoxon", "design": {"greater_is_better": False}},
            "Wilcoxon signed-rank test; lower is better",
        ),
        (
            {"test": "summary", "greater_is_better": True, "ci": 0.9},
            "Summary of the scores; higher is better; 90% interval",
        ),
        (
            {"test": "bootstrap", "score": "accuracy", "rope": [-0.01, 0.02], "alpha": 0.1},
            "bootstrap interval of accuracy; ROPE [-0.01, 0.02]; alpha = 0.1",
        ),
        (
            {"test": "ranks", "covariance": "diagonal", "simultaneous": False},
            "Rank confidence sets (Mogstad et al.); 95% marginal sets; covariance: diagonal; "
            "highlighted: may be the best",
        ),
    ],
)
def test_caption_words_from_the_metadata(meta, expected):
    assert caption(_with_meta(meta)) == expected


def test_a_model_confidence_set_highlights_its_members_and_prints_steps_as_integers():
    from frames import ar_forecasts

    from pdcompare.presentation.styling import column_formatters, highlighted_rows

    result = ar_forecasts().cmp.confidence_set(random_state=0)
    assert not result["in_set"].all()  # a model is eliminated: it must not be highlighted
    assert highlighted_rows(result).tolist() == result["in_set"].tolist()
    shown = [column_formatters(result)["eliminated_at"](v) for v in result["eliminated_at"]]
    assert shown == ["" if np.isnan(v) else str(int(v)) for v in result["eliminated_at"]]


def test_the_forecast_html_heads_its_table_as_the_confidence_set():
    import re

    import matplotlib
    from frames import ar_forecasts

    matplotlib.use("Agg")
    page = ar_forecasts().cmp.report(format="html")
    captions = re.findall(r"<caption>(.*?)</caption>", page)
    assert captions[0].startswith("Model confidence set at alpha = 0.1, best first")
    assert "Summary" not in captions[0]


def test_a_pvalue_matrix_highlights_its_significant_cells_and_is_compact_at_twenty():
    from frames import scores_with_model_effects

    scores = scores_with_model_effects(20, 10, 0).cmp.set_design(cv=10)
    matrix = scores.cmp.pairwise().cmp.matrix()
    html = matrix.cmp.style().to_html()
    values = matrix.to_numpy(dtype=float, na_value=np.nan)
    significant = {(r, c) for r, c in zip(*np.nonzero(values <= 0.05), strict=True)}
    assert significant  # the frame has significant pairs
    # Each highlighted cell's CSS selector names its row and column.
    styled = set()
    for selectors, props in re.findall(r"([^{}]*)\{([^{}]*)\}", html):
        if "background-color" in props:
            for r, c in re.findall(r"row(\d+)_col(\d+)", selectors):
                styled.add((int(r), int(c)))
    assert styled == significant
    assert "padding: 1px 3px" in html
    few = scores.iloc[:4].cmp.pairwise().cmp.matrix().cmp.style().to_html()
    assert "padding: 1px 3px" not in few


def test_a_matrix_of_sixty_models_shows_the_best_twenty_and_says_so():
    from frames import scores_with_model_effects

    scores = scores_with_model_effects(60, 10, 0).cmp.set_design(cv=10)
    matrix = scores.cmp.pairwise().cmp.matrix()
    styler = matrix.cmp.style()
    # the best 20 by the result's order (best first), rows and columns alike
    best = matrix.attrs["pdcompare"]["models"][:20]
    assert styler.data.index.tolist() == best
    assert styler.data.columns.tolist() == best
    assert styler.caption.endswith("; best 20 of 60 models (top= shows more)")
    html = styler.to_html()
    assert html.count("<tr>") == 21  # a header and 20 rows
    every = matrix.cmp.style(top=60)
    assert every.data.shape == (60, 60)
    assert "best" not in every.caption
    # 20 models: all of them, no note
    twenty = scores.iloc[:20].cmp.pairwise().cmp.matrix().cmp.style()
    assert twenty.data.shape == (20, 20)
    assert "of 20 models" not in twenty.caption
