"""auc_plot: AUC intervals and DeLong's forest plot, checked on the artists."""

import numpy as np
import pandas as pd
import pytest

from pdcompare.presentation.plotting.auc import auc_plot


@pytest.fixture
def preds():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200)
    return pd.DataFrame(
        {"y": y, **{f"m{k}": y + rng.normal(0, 0.5 + 0.2 * k, 200) for k in range(25)}}
    )


def test_auc_intervals_best_on_top_and_top_20(preds):
    result = preds.cmp.auc_ci(ci=0.9)
    ax = auc_plot(result)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == 20
    assert labels[-1] == result.index[0]  # the best on top
    segments = ax.collections[0].get_segments()
    top = segments[-1]
    assert top[0][0] == pytest.approx(result["ci_low"].iloc[0])
    assert top[1][0] == pytest.approx(result["ci_high"].iloc[0])
    assert "90% DeLong interval" in ax.get_title()
    assert "best 20 of 25" in ax.get_title()


def test_delong_forest(preds):
    result = preds[["y", "m0", "m1", "m2"]].cmp.delong()
    ax = auc_plot(result)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["m0 − m1", "m0 − m2"]
    assert "difference in ROC AUC" in ax.get_xlabel()
    assert "95%" in ax.get_title()


def test_other_results_are_refused(preds):
    with pytest.raises(ValueError, match="draws the result of `auc_ci` or `delong`"):
        auc_plot(preds[["y", "m0", "m1"]].cmp.bootstrap("roc_auc", n_resamples=20, random_state=0))
