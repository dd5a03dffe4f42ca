"""The forecast report's model confidence set: a block bootstrap of time-ordered rows."""

import numpy as np
import pandas as pd
import pytest
from frames import ar_forecasts

import pdcompare
from pdcompare.compare.analysis import analyse, default_block_size


def test_default_block_length_is_the_cube_root_of_the_rows_at_least_two():
    for n in (3, 8, 27, 100, 150, 1000, 5000):
        expected = max(2, int(np.floor(n ** (1 / 3) + 0.5)))
        assert default_block_size(n) == expected


def test_report_resamples_blocks_and_says_their_length():
    frame = ar_forecasts(n=150)
    text = frame.cmp.report()
    assert "blocks of rows of mean length 5 (round(n^(1/3)) of the 150 time points)" in text
    assert "single rows" not in text
    found = analyse(frame).confidence_set
    # The same set as confidence_set with blocks of mean length round(150^(1/3)) = 5 ...
    blocks = frame.cmp.confidence_set(block_size=5, random_state=0)
    pd.testing.assert_series_equal(found["pvalue"], blocks["pvalue"])
    # ... which differs from rows drawn one by one: AR(1) losses make those p-values too small.
    rows = frame.cmp.confidence_set(block_size=1, random_state=0)
    assert rows.loc["naive", "pvalue"] < 0.05 < found.loc["naive", "pvalue"]
    assert bool(found.loc["naive", "in_set"])
    assert not bool(rows.loc["naive", "in_set"])


def test_report_block_size_given_is_named_and_one_says_single_rows():
    frame = ar_forecasts(n=150)
    assert "mean length 7 (block_size)" in frame.cmp.report(block_size=7)
    assert "1000 bootstrap resamples of single rows" in frame.cmp.report(block_size=1)
    with pytest.raises(ValueError, match="block_size"):
        frame.cmp.report(block_size=0)


def test_block_size_on_scores_is_refused_naming_forecasts():
    scores = pdcompare.datasets.load_grid_search_scores()
    with pytest.raises(ValueError, match=r"`block_size` is the mean block length .* forecasts"):
        scores.cmp.report(block_size=3, cv=10)


def test_integer_index_forecasts_are_refused_naming_time_ordered_and_marked_read():
    frame = ar_forecasts(n=100, dates=False)
    with pytest.raises(ValueError, match=r"set_design\(time_ordered=True\)"):
        frame.cmp.report()
    marked = frame.cmp.set_design(time_ordered=True)
    assert frame.attrs == {}
    dated = ar_forecasts(n=100)
    assert marked.cmp.report() == dated.cmp.report()


def test_time_ordered_needs_a_truth_column_and_a_bool():
    scores = pdcompare.datasets.load_grid_search_scores()
    with pytest.raises(ValueError, match="time_ordered=True` marks a predictions frame"):
        scores.cmp.set_design(time_ordered=True)
    with pytest.raises(TypeError, match="`time_ordered` must be True or False"):
        ar_forecasts(n=20, dates=False).cmp.set_design(time_ordered="yes")


def test_a_classification_frame_is_not_told_about_time_order():
    frame = pd.DataFrame({"y": [0, 1, 1, 0], "a": [0, 1, 0, 0], "b": [1, 1, 1, 0]})
    with pytest.raises(ValueError, match="looks like a predictions frame") as error:
        frame.cmp.report()
    assert "time order" not in str(error.value).split("forecasts in time order")[1]
