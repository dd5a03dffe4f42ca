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
    # Holm over the others, times the number of candidates the best was chosen from.
    adjusted = np.minimum(multipletests(pvalues, method="holm")[1] * len(scores), 1.0)
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


def test_two_candidates_look_is_the_two_sided_corrected_t():
    # The one-sided test against the data-chosen best, doubled: scipy's two-sided p.
    rng = np.random.default_rng(4)
    for _ in range(10):
        scores = rng.normal(0.8, 0.02, size=(2, 8))
        d = scores[0] - scores[1]
        t = d.mean() / np.sqrt(d.var(ddof=1) * (1 / 8 + 1 / 7))
        two_sided = 2 * stats.t.sf(abs(t), 7)
        got = look(scores, np.ones(2, bool), 1 / 7, 0.05)
        assert np.nanmax(got.pvalue_adj) == pytest.approx(two_sided, rel=1e-10)
        assert got.drop.any() == (two_sided <= 0.05)


def test_chosen_from_counts_the_candidates_the_best_came_from():
    scores = np.array([[0.90, 0.92, 0.91, 0.93, 0.90], [0.85, 0.86, 0.86, 0.84, 0.85]])
    plain = look(scores, np.ones(2, bool), 0.25, 0.05)
    wider = look(scores, np.ones(2, bool), 0.25, 0.05, chosen_from=7)
    assert wider.pvalue_adj[1] == pytest.approx(min(plain.pvalue[1] * 7, 1.0))


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
