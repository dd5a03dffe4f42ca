"""Runs examples/auc_one_test_set.py headless and checks what it reports."""

from __future__ import annotations

import pytest
from _examples import load_example
from numpy.testing import assert_allclose
from sklearn.metrics import average_precision_score, roc_auc_score


@pytest.mark.slow
def test_auc_one_test_set_example(tmp_path, capsys):
    module = load_example("auc_one_test_set")
    out = module.main([str(tmp_path)])
    printed = capsys.readouterr().out
    scores, intervals, delong = out["scores"], out["intervals"], out["delong"]
    # Reference: scikit-learn's metrics of the out-of-fold probabilities.
    for model in intervals.index:
        assert_allclose(intervals.loc[model, "auc"], roc_auc_score(scores["y"], scores[model]))
    assert delong["model_1"].iloc[0] == intervals.index[0]
    permutation = out["permutation"]
    for row in permutation.itertuples():
        expected = average_precision_score(scores["y"], scores[row.model_2])
        assert_allclose(row.score_2, expected, rtol=1e-12)
    assert "z = " in printed
    for path in out["figures"].values():
        assert path.parent == tmp_path
        assert path.stat().st_size > 1000
