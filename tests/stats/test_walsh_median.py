"""The Hodges–Lehmann estimate by selection (``pdcompare.stats._walsh``).

Reference: the median of all Walsh averages written out, ``np.median`` of
the upper triangle (diagonal included) of ``(d[:, None] + d[None, :]) / 2``;
the numbers must be equal, not close. Hypothesis draws rows with ties, zero
differences, odd and even counts, and sizes on both sides of the switch from
the brute force to the selection (96 differences).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from pdcompare.stats import _walsh, paired


def walsh_median(d):
    """Median of (d_a + d_b) / 2 over a <= b, written out."""
    upper = np.triu_indices(d.size)
    return np.median(((d[:, None] + d[None, :]) / 2)[upper])


def rows_of(draw, n_rows, n, kind):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if kind == "continuous":
        return rng.normal(draw(st.floats(-1, 1)), draw(st.floats(0.001, 10)), (n_rows, n))
    if kind == "ties":  # a few distinct values, zeros among them
        return rng.integers(-3, 5, (n_rows, n)) * 0.01
    if kind == "rounded":  # accuracy-like differences, rounded to 3 decimals
        return np.round(rng.normal(0.005, 0.03, (n_rows, n)), 3)
    return rng.standard_cauchy((n_rows, n))  # heavy tails


KINDS = st.sampled_from(["continuous", "ties", "rounded", "cauchy"])


@st.composite
def difference_rows(draw, min_n, max_n):
    n = draw(st.integers(min_n, max_n))
    n_rows = draw(st.integers(1, 6))
    return rows_of(draw, n_rows, n, draw(KINDS))


@settings(max_examples=60, deadline=None)
@given(difference_rows(1, 300))
def test_hodges_lehmann_equals_every_walsh_average(d):
    values = np.vstack([d, np.zeros(d.shape[1])])  # model k - the zero model = row k
    last = values.shape[0] - 1
    out = paired.hodges_lehmann(values, np.arange(last), np.full(last, last))
    assert_array_equal(out, [walsh_median(row) for row in d])


@settings(max_examples=60, deadline=None)
@given(difference_rows(64, 400))
def test_selection_is_exact_where_its_check_passes(d):
    ordered = np.sort(d, axis=1)
    value, ok = _walsh._selected(ordered)
    expected = np.array([walsh_median(row) for row in d])
    assert_array_equal(value[ok], expected[ok])
    assert_array_equal(_walsh.walsh_median(ordered), expected)


@pytest.mark.parametrize("n", [96, 97, 199, 200, 512])
def test_selection_needs_no_brute_force_on_continuous_data(n):
    # The fast path decides these rows itself (no fallback), and gets them right.
    d = np.random.default_rng(n).normal(0.01, 0.03, (40, n))
    ordered = np.sort(d, axis=1)
    value, ok = _walsh._selected(ordered)
    assert ok.all()
    assert_array_equal(value, [walsh_median(row) for row in d])


def test_pairs_with_missing_scores_use_their_own_count():
    rng = np.random.default_rng(5)
    values = np.round(rng.normal(0.8, 0.05, (4, 150)), 3)
    values[1, rng.choice(150, 30, replace=False)] = np.nan  # pairs with model 1: n = 120
    values[3, :7] = np.nan
    i, j = np.triu_indices(4, 1)
    out = paired.hodges_lehmann(values, i, j, nan_policy="omit")
    for k in range(i.size):
        d = values[i[k]] - values[j[k]]
        assert out[k] == walsh_median(d[~np.isnan(d)])


def test_infinite_differences_take_the_brute_force():
    d = np.random.default_rng(1).normal(size=(3, 100))
    d[0, 5] = np.inf
    d[1, [3, 9]] = -np.inf
    ordered = np.sort(d, axis=1)
    assert_array_equal(_walsh.walsh_median(ordered), [walsh_median(row) for row in d])


@pytest.mark.parametrize("n", [96, 100, 250])
def test_few_distinct_differences_take_their_distinct_sums(n):
    # Fold accuracies on test sets of 15: differences on a grid of 1/15, a dozen values.
    rng = np.random.default_rng(n)
    d = rng.binomial(15, 0.9, (30, n)) / 15 - rng.binomial(15, 0.87, (30, n)) / 15
    d[0] = 0.0  # one value only
    d[1] = np.where(np.arange(n) < n // 3, -1 / 15, 2 / 15)  # two values
    n_distinct = np.array([np.unique(row).size for row in d])
    assert (n_distinct <= n // _walsh._FEW_DISTINCT).all()  # all take the tied path
    assert_array_equal(
        _walsh._tied_walsh_median(np.sort(d, axis=1), n_distinct),
        [walsh_median(row) for row in d],
    )


def test_many_rows_of_every_kind_across_chunks_and_threads():
    # More rows than one chunk holds (two threads), mixing continuous rows, tied rows,
    # rounded rows, rows with many zeros and rows with an infinity, in any order.
    rng = np.random.default_rng(3)
    n = 120
    d = rng.normal(0.01, 0.03, (3000, n))
    d[::3] = np.round(d[::3], 2)
    d[1::7] = rng.integers(-2, 3, (d[1::7].shape[0], n)) * 0.05
    d[2::11, : n // 2] = 0.0
    d[5::13, 3] = np.inf
    assert d.shape[0] * n > _walsh._CHUNK_DIFFERENCES
    expected = _walsh.brute_walsh_median(d)
    assert_array_equal(_walsh.walsh_median(d), expected)
    picked = rng.choice(d.shape[0], 25, replace=False)  # the brute force against the reference
    assert_array_equal(expected[picked], [walsh_median(row) for row in d[picked]])


def test_wilcoxon_estimate_beside_the_test_equals_hodges_lehmann():
    rng = np.random.default_rng(11)
    values = rng.normal(0.8, 0.05, (30, 110))
    values[4, :9] = np.nan
    i, j = np.triu_indices(30, 1)
    for nan_policy in ("propagate", "omit"):
        out = paired.wilcoxon(values, i, j, nan_policy=nan_policy)
        assert_array_equal(
            out["median_diff"], paired.hodges_lehmann(values, i, j, nan_policy=nan_policy)
        )
    k = 3  # one pair written out: models 0 and 4, on its complete splits ("omit")
    assert (i[k], j[k]) == (0, 4)
    d = values[i[k]] - values[j[k]]
    assert out["median_diff"][k] == walsh_median(d[~np.isnan(d)])
