"""Runs examples/forecast_comparison.py headless and checks what it reports."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example
from numpy.testing import assert_allclose
from scipy import stats


@pytest.mark.slow
def test_forecast_comparison_example(tmp_path):
    out, printed = run_example("forecast_comparison", [str(tmp_path)])
    preds, dm, mcs = out["predictions"], out["diebold_mariano"], out["confidence_set"]
    assert len(preds) == 300
    assert np.all(np.diff(preds.index) == 1)  # the six test windows, in time order
    # At h = 1 the Harvey-corrected Diebold-Mariano statistic is scipy's one-sample t.
    for row in dm.itertuples():
        d = (preds["y"] - preds[row.model_1]) ** 2 - (preds["y"] - preds[row.model_2]) ** 2
        reference = stats.ttest_1samp(d, 0.0)
        assert_allclose([row.statistic, row.pvalue], [reference.statistic, reference.pvalue])
    assert len(dm) == 10
    assert mcs["pvalue"].iloc[-1] == 1.0
    assert np.all(np.diff(mcs["pvalue"]) >= 0)
    assert mcs.index[-1] == dm["model_1"].iloc[0]  # the set's last model is the DM best
    assert "Still in the running: ridge_14." in printed
    for path in out["figures"].values():
        assert path.parent == tmp_path
        assert path.stat().st_size > 1000
