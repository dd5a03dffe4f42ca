"""Runs examples/release_gate.py headless: its bounds against the corrected t, the exit."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example
from numpy.testing import assert_allclose
from scipy import stats


@pytest.mark.slow
def test_release_gate_example(tmp_path):
    out, printed = run_example("release_gate", tmp_path)
    scores, result = out["scores"], out["result"]
    d = (scores.loc["candidate"] - scores.loc["production"]).to_numpy()
    n = d.size
    # 5 x 4 repeated CV of 569 rows: n_test / n_train about 1/4, from the splits' sizes.
    ratio = scores.attrs["pdcompare"]["design"]["test_train_ratio"]
    assert_allclose(ratio, 1 / 4, rtol=0.01)
    se = np.sqrt(d.var(ddof=1) * (1 / n + ratio))  # Nadeau & Bengio 2003
    q = stats.t.ppf(0.95, n - 1)
    assert_allclose(result[["ci_low", "ci_high"]].iloc[0], [d.mean() - q * se, d.mean() + q * se])
    outcome = result["outcome"].iloc[0]
    low, high = result[["ci_low", "ci_high"]].iloc[0]
    expected = "non-inferior" if low > -0.01 else ("worse" if high < 0 else "inconclusive")
    assert outcome == expected
    # The command line gives the same answer as its exit status, and the Markdown paragraph.
    assert out["exit_status"] == {"non-inferior": 0, "worse": 1, "inconclusive": 2}[outcome]
    assert out["markdown"].read_text().startswith("### Gate: **")
    assert f"exit status {out['exit_status']}" in printed
