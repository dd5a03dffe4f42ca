"""Runs examples/preference_ratings.py and checks its numbers against independent references."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example
from scipy import stats


@pytest.fixture(scope="module")
def run():
    return run_example("preference_ratings")


@pytest.mark.slow
def test_preference_ratings_example(run):
    out, printed = run
    battles, side = out["battles"], out["side"]
    assert int(battles.to_numpy().sum() + np.sum(battles.attrs["pdcompare"]["ties"]) / 2) == 6000
    # Davidson's fit recovers the simulated ratings within its intervals, for most models
    covered = (side["davidson_low"] <= side["true"]) & (side["true"] <= side["davidson_high"])
    assert covered.sum() >= 10
    assert abs(out["davidson"].attrs["pdcompare"]["nu"] - 0.5) < 0.1
    # ties as halves pull the ratings together: a smaller spread than Davidson's
    assert side["half"].std() < side["davidson"].std()
    pairs = out["pairs"]
    z = pairs["rating_diff"] / pairs["se"]
    np.testing.assert_allclose(pairs["pvalue"], 2 * stats.norm.sf(np.abs(z)))
    prob = out["prob"]
    davidson = out["davidson"]["rating"]
    row = prob.iloc[0]
    expected = 1 / (1 + 10 ** ((davidson[row.model_2] - davidson[row.model_1]) / 400))
    assert row.prob == pytest.approx(expected)
    assert "Davidson's tie parameter" in printed
