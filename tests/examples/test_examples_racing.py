"""Runs examples/racing_search.py headless: the race's scores are the grid's, on fewer fits."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_example("racing_search", tmp_path_factory.mktemp("figures"))


@pytest.mark.slow
def test_the_race_scores_what_the_grid_scores_and_fits_less(run):
    out, printed = run
    race, grid = out["race"].cv_results_, out["grid"].cv_results_
    assert race["params"] == grid["params"]
    for k in range(10):
        ran = np.isfinite(race[f"split{k}_test_score"])
        # The same splits, the same trees: the same scores wherever the race fitted.
        np.testing.assert_array_equal(
            race[f"split{k}_test_score"][ran], grid[f"split{k}_test_score"][ran]
        )
    assert out["fits"] < 240
    assert out["race"].best_params_ == out["grid"].best_params_
    running = np.isnan(race["dropped_at"])
    assert len(out["scores"]) <= running.sum()
    assert f"The race fitted {out['fits']} of the grid's 240 fits." in printed
    assert "Conclusion:" in printed
    assert out["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
