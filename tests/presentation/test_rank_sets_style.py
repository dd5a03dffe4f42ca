"""style() of a ranks result and of a summary joined with its rank sets."""

from __future__ import annotations

import pdcompare


def test_styled_ranks_result_highlights_the_models_that_may_be_the_best():
    result = pdcompare.datasets.load_benchmark().cmp.ranks(random_state=0)
    styler = result.cmp.style()
    assert styler.caption == (
        "Rank confidence sets (Mogstad et al.); higher is better; 95% simultaneous sets; "
        "covariance: across data sets; highlighted: may be the best"
    )
    latex = styler.to_latex()
    assert "svc\\_rbf & {\\cellcolor[HTML]{FFF2B3}} \\bfseries 0.873 &" in latex
    assert "knn & 0.828 & 3 & 2 & 7 \\\\" in latex  # ranks print as integers


def test_summary_joined_with_rank_sets_shows_them():
    scores = pdcompare.datasets.load_grid_search_scores()
    table = scores.cmp.summary().join(scores.cmp.ranks(random_state=0)[["rank_low", "rank_high"]])
    html = pdcompare.style(table).to_html()
    assert "rank_low" in html
    assert "rank_high" in html
    text = table.to_string()
    assert "rank_low" in text
