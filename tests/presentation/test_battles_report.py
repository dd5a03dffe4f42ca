"""report() on a battles frame (presentation/report/battles.py): its numbers are the results'."""

import numpy as np
import pandas as pd
import pytest
from frames import simulated_battles

import pdcompare


@pytest.fixture(scope="module")
def battles():
    theta = np.array([0.6, 0.6, 0.0, -0.6, -0.6])
    return pdcompare.from_battles(simulated_battles(theta, 1500, tie_rate=0.1, seed=7))


def test_report_numbers_are_the_results(battles):
    text = battles.cmp.report()
    ratings = pdcompare.bradley_terry(battles, random_state=0)
    pairs = battles.cmp.pairwise()
    assert "Battles: 1,500 battles between 5 models" in text
    for name, row in ratings.iterrows():
        assert f"{name}  {row['rating']:.1f} ({row['ci_low']:.1f} to {row['ci_high']:.1f})" in text
    best = ", ".join(ratings.index[ratings["rank_low"] == 1])
    assert f"May be the best: {best} (95% simultaneous rank sets)." in text
    assert f"{int(pairs['reject'].sum())} of 10 pairs" in text
    # the two equally strong leaders: not told apart, never called equal
    assert "not told apart" in text
    assert "not evidence they are equal" in text


def test_formats_and_top(battles):
    markdown = pdcompare.report(battles, format="markdown")
    assert markdown.startswith("# pdcompare report")
    assert "## Bradley–Terry ratings, best first" in markdown
    assert "## Pairs of ratings (z tests), best first" in markdown
    page = pdcompare.report(battles, format="html", top=2)
    assert "3 more models (the best 2 shown)" in page
    with pytest.raises(ValueError, match="format"):
        pdcompare.report(battles, format="pdf")


def test_html_is_a_document_with_the_ratings_and_pairs_tables_and_figures(battles):
    import matplotlib

    matplotlib.use("Agg")
    page = battles.cmp.report(format="html")
    ratings = pdcompare.bradley_terry(battles, random_state=0)
    pairs = battles.cmp.pairwise()
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page
    assert "<pre>" not in page
    assert page.count("<table") == 2
    assert page.count("<svg") == 2
    assert "<caption>Bradley–Terry ratings, best first</caption>" in page
    assert "<caption>Pairs of ratings (z tests), best first</caption>" in page
    assert "<figcaption>Ratings and their intervals, best first</figcaption>" in page
    assert "<figcaption>Pairs of ratings: differences and their intervals</figcaption>" in page
    for _, row in ratings.iterrows():  # the table's cells are the result's numbers
        assert f">{row['rating']:.3f}<" in page
        assert f">{row['ci_low']:.3f}<" in page
    for diff in pairs["rating_diff"]:
        assert f">{diff:.3f}<" in page


def test_unanimous_models_are_named_with_their_normal_interval():
    names = list("ABCD")
    wins = pd.DataFrame(
        [[0, 5, 0, 2], [0, 0, 5, 3], [5, 0, 0, 0], [3, 2, 0, 0]], index=names, columns=names
    )
    wins.attrs["pdcompare"] = {"kind": "battles"}
    with pytest.warns(pdcompare.PdcompareWarning, match="Every pair of C"):
        text = pdcompare.report(wins)
    line = next(line for line in text.splitlines() if ". C " in line)
    assert line.endswith("normal interval (every pair unanimous: resampling cannot vary it)")
    with pytest.warns(pdcompare.PdcompareWarning):
        page = pdcompare.report(wins, format="markdown")
    assert "| interval |" in page
    assert "| fisher |" in page
