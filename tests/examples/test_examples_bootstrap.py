"""Runs examples/bootstrap_competition.py headless and checks what it reports."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import load_example
from numpy.testing import assert_allclose
from sklearn.metrics import recall_score


@pytest.mark.slow
def test_bootstrap_competition_example(tmp_path, capsys):
    module = load_example("bootstrap_competition")
    out = module.main([str(tmp_path)])
    printed = capsys.readouterr().out
    intervals, difference = out["intervals"], out["difference"]
    predictions = module.out_of_fold_predictions()
    # Reference: scikit-learn's macro recall of the out-of-fold predictions.
    for model in ("random_forest", "naive_bayes"):
        expected = recall_score(predictions["y"], predictions[model], average="macro")
        assert_allclose(intervals.loc[model, "estimate"], expected, rtol=1e-12)
    assert intervals.index[0] == difference.loc[0, "model_1"]
    assert_allclose(
        difference.loc[0, "mean_diff"],
        intervals["estimate"].iloc[0] - intervals["estimate"].iloc[1],
        rtol=1e-12,
    )
    assert 0 <= difference.loc[0, "pvalue"] <= 1
    assert np.isfinite(difference.loc[0, ["ci_low", "ci_high"]].astype(float)).all()
    assert "p = " in printed
    for path in out["figures"].values():
        assert path.parent == tmp_path
        assert path.stat().st_size > 1000
