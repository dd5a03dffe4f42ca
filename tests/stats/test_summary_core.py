"""``stats.summary.summarize``: the complete-scores path agrees with the NaN-aware one.

Reference: numpy's nanmean/nanstd and scipy's t quantile written out, on random
scores with and without a missing score.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from pdcompare.stats.summary import summarize


def written_out(values, ratio, confidence=0.95):
    n = np.sum(~np.isnan(values), axis=1)
    mean = np.nanmean(values, axis=1)
    std = np.nanstd(values, axis=1, ddof=1)
    se = std * np.sqrt(1 / n + ratio) if ratio is not None else std / np.sqrt(n)
    half = stats.t.ppf(0.5 + confidence / 2, n - 1) * se
    return mean, std, n, mean - half, mean + half


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(2, 30),
    st.sampled_from([None, 1 / 9, 0.25]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_complete_and_holed_scores_match_the_written_out_interval(m, n, ratio, hole, seed):
    rng = np.random.default_rng(seed)
    values = rng.normal(0.8, 0.05, (m, n))
    if hole and n > 2:
        values[0, 1] = np.nan  # the NaN-aware path, the others the complete one
    out = summarize(values, test_train_ratio=ratio)
    mean, std, count, low, high = written_out(values, ratio)
    assert_allclose(out["mean"], mean, rtol=1e-12)
    assert_allclose(out["std"], std, rtol=1e-10)
    assert out["n_splits"].tolist() == count.tolist()
    assert_allclose(out["ci_low"], low, rtol=1e-9)
    assert_allclose(out["ci_high"], high, rtol=1e-9)
    assert out["rank"].tolist() == (stats.rankdata(-mean, method="min").astype(int)).tolist()
