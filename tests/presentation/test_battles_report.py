"""report() on a battles frame (presentation/report/battles.py): its numbers are the results'."""

import numpy as np
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
    page = pdcompare.report(battles, format="html", top=2)
    assert "<pre>" in page
    assert "3 more models (the best 2 shown)" in page
    with pytest.raises(ValueError, match="format"):
        pdcompare.report(battles, format="pdf")
