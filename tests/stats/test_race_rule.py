"""The drop rule of a race against a written-out corrected t-test and statsmodels' Holm."""

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from pdcompare.stats.race import holm_rows, look, look_level, race


def written_out_look(scores, ratio, level):
    means = scores.mean(axis=1)
    best = int(np.argmax(means))
    others = [j for j in range(len(scores)) if j != best]
    pvalues = []
    for j in others:
        d = scores[best] - scores[j]
        k = d.size
        t = d.mean() / np.sqrt(d.var(ddof=1) * (1 / k + ratio))
        pvalues.append(stats.t.sf(t, k - 1))
    adjusted = multipletests(pvalues, method="holm")[1]
    drop = np.zeros(len(scores), bool)
    drop[others] = adjusted <= level
    return best, np.array(pvalues), adjusted, drop


@pytest.mark.slow
def test_look_equals_written_out_corrected_t_with_holm():
    rng = np.random.default_rng(1)
    for _ in range(20):
        scores = rng.normal(rng.normal(0.8, 0.03, size=(6, 1)), 0.02, size=(6, 7))
        best, p, adj, drop = written_out_look(scores, 1 / 9, 0.01)
        got = look(scores, np.ones(6, bool), 1 / 9, 0.01)
        assert int(got.best) == best
        keep = np.arange(6) != best
        np.testing.assert_allclose(got.pvalue[keep], p, rtol=1e-10)
        np.testing.assert_allclose(got.pvalue_adj[keep], adj, rtol=1e-10)
        assert got.drop.tolist() == drop.tolist()


def test_holm_rows_matches_statsmodels():
    rng = np.random.default_rng(2)
    p = rng.uniform(size=(5, 8))
    for row in range(5):
        np.testing.assert_allclose(holm_rows(p)[row], multipletests(p[row], method="holm")[1])


def test_no_drop_before_min_splits_and_level_spent_over_looks():
    rng = np.random.default_rng(3)
    scores = rng.normal([[0.9], [0.5]], 0.01, size=(2, 10))
    dropped = race(scores, 1 / 9, alpha=0.05, min_splits=4)
    assert dropped.tolist() == [None, 4.0] or (np.isnan(dropped[0]) and dropped[1] == 4.0)
    assert look_level(0.05, 10, 4) == 0.05 / 7
