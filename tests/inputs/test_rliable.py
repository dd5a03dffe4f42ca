"""from_rliable / to_rliable: rliable's {algorithm: runs x tasks} dictionaries and back."""

import numpy as np
import pytest
from frames import rliable_score_dict
from numpy.testing import assert_array_equal

import pdcompare


def test_round_trip_with_different_runs_per_algorithm():
    scores = rliable_score_dict()
    frame = pdcompare.from_rliable(scores)
    assert frame.index.tolist() == ["a", "b", "c"]
    assert frame.columns.get_level_values(0).unique().tolist() == [f"task_{k}" for k in range(6)]
    assert frame.shape == (3, 6 * 5)
    back = pdcompare.to_rliable(frame)
    assert list(back) == ["a", "b", "c"]
    for name, x in scores.items():
        assert_array_equal(back[name], x)
    assert_array_equal(frame.cmp.to_rliable()["b"], scores["b"])


def test_task_names_and_one_task():
    frame = pdcompare.from_rliable({"a": [1.0, 2.0, 3.0]}, tasks=["pong"])
    assert frame.columns.tolist() == [("pong", 0), ("pong", 1), ("pong", 2)]
    assert_array_equal(pdcompare.to_rliable(frame)["a"], [[1.0], [2.0], [3.0]])


def test_from_long_round_trip():
    scores = rliable_score_dict()
    frame = pdcompare.from_rliable(scores)
    long = frame.stack(future_stack=True).stack().dropna().rename("score").reset_index()
    again = pdcompare.from_long(long, dataset="dataset", split="split", paired=False)
    for name, x in scores.items():
        assert_array_equal(pdcompare.to_rliable(again)[name], x)


@pytest.mark.parametrize(
    ("score_dict", "error", "match"),
    [
        ({}, TypeError, "non-empty dict"),
        ([np.ones((2, 2))], TypeError, "non-empty dict"),
        ({"a": np.ones((2, 3)), "b": np.ones((2, 4))}, ValueError, "same tasks.*transpose"),
        ({"a": np.array([["x"]])}, ValueError, r"`score_dict\['a'\]` must be a non-empty"),
    ],
)
def test_bad_dictionaries(score_dict, error, match):
    with pytest.raises(error, match=match):
        pdcompare.from_rliable(score_dict)


def test_to_rliable_needs_equal_runs_per_task():
    frame = pdcompare.from_rliable(rliable_score_dict())
    frame.loc["c", ("task_1", 4)] = np.nan
    with (
        pytest.raises(ValueError, match=r"model 'c' has 4 to 5"),
        pytest.warns(pdcompare.PdcompareWarning, match="different numbers of runs"),
    ):
        pdcompare.to_rliable(frame)
    with pytest.raises(ValueError, match=r"tasks.*must name the 6 tasks"):
        pdcompare.from_rliable(rliable_score_dict(), tasks=["x"])
