"""The vectorised Wilcoxon signed-rank test, sign test and Hodges–Lehmann estimate.

References: ``scipy.stats.wilcoxon`` and ``scipy.stats.binomtest`` called on
each pair alone (the installed scipy, defaults of ``wilcoxon``:
``zero_method="wilcox"``, ``correction=False``, ``method="auto"``), the
signed-rank null distribution and the Walsh averages written out with
itertools, and hypothesis properties (swapping the models of a pair).
"""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from pdcompare.stats import _moments, _signed_rank, paired

ALTERNATIVES = ["two-sided", "greater", "less"]

# Sample sizes around every switch of scipy's method="auto": 13 (enumeration of
# sign patterns with ties or zeros), 50 (exact without them), and a large one.
SIZES = [*range(1, 17), 20, 25, 30, 40, 49, 50, 51, 55, 60, 200]


def table(n_splits, kind, *, n_models=4, seed=0):
    """Scores of ``n_models`` models: continuous (no ties), or rounded (ties and zeros)."""
    rng = np.random.default_rng([seed, n_splits, len(kind)])
    base = rng.uniform(0.6, 0.9, size=n_splits)
    values = base + rng.normal(0.0, 0.03, size=(n_models, n_splits))
    values += np.linspace(0.0, 0.02, n_models)[:, None]
    if kind == "rounded":
        values = np.round(values, 2)
    elif kind == "coarse":
        values = np.round(values * 20) / 20  # many ties and zeros
    return values


def ordered_pairs(n_models, limit=None):
    """Every ordered pair (both orientations), or the first ``limit``, as position arrays."""
    pairs = np.array(list(itertools.permutations(range(n_models), 2))[:limit])
    return pairs[:, 0], pairs[:, 1]


def scipy_wilcoxon(x, y, alternative, nan_policy="propagate"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # 0/0 of an all-zero pair
        return stats.wilcoxon(x, y, alternative=alternative, nan_policy=nan_policy)


# --------------------------------------------------------------------------- wilcoxon


def _per_pair_cases():
    # With ties or zeros scipy enumerates 2**n sign patterns per pair (seconds from n = 7):
    # those sizes run in the full suite only; the quick loop keeps the others of every kind.
    for n_splits in SIZES:
        for kind in ("continuous", "rounded", "coarse"):
            heavy = kind != "continuous" and 7 <= n_splits <= 13
            yield pytest.param(n_splits, kind, marks=[pytest.mark.slow] if heavy else [])


@pytest.mark.parametrize(("n_splits", "kind"), list(_per_pair_cases()))
def test_wilcoxon_matches_scipy_per_pair(n_splits, kind):
    values = table(n_splits, kind)
    # scipy enumerates 2**n sign patterns per pair when there are ties or zeros (seconds
    # at n = 13): fewer reference pairs there. Both orientations are in test_swapping_models.
    slow = kind != "continuous" and 8 <= n_splits <= 13
    i, j = ordered_pairs(values.shape[0], limit=2 if slow else None)
    for alternative in ALTERNATIVES:
        out = paired.wilcoxon(values, i, j, alternative=alternative)
        for k in range(i.size):
            d = values[i[k]] - values[j[k]]
            if np.all(d == 0):
                continue  # checked in test_wilcoxon_identical_pairs
            ref = scipy_wilcoxon(values[i[k]], values[j[k]], alternative)
            assert_allclose(out["statistic"][k], ref.statistic, rtol=1e-12, atol=0)
            assert_allclose(out["pvalue"][k], ref.pvalue, rtol=1e-12, atol=0)
        assert_allclose(out["mean_diff"], (values[i] - values[j]).mean(axis=1), rtol=1e-12)


def test_wilcoxon_covers_every_method_of_auto():
    # The fixtures above reach all four branches; checked here so that a change of
    # SIZES cannot silently drop one. Branch by scipy's rules, per pair.
    seen = set()
    for n_splits in SIZES:
        for kind in ["continuous", "rounded", "coarse"]:
            values = table(n_splits, kind)
            i, j = ordered_pairs(values.shape[0])
            d = values[i] - values[j]
            for row in d:
                nonzero = np.abs(row[row != 0])
                ties = nonzero.size != np.unique(nonzero).size
                zeros = np.any(row == 0)
                if n_splits > 50:
                    seen.add("normal, n > 50")
                elif not (ties or zeros):
                    seen.add("exact")
                elif n_splits <= 13:
                    seen.add("sign patterns with ties or zeros")
                else:
                    seen.add("normal, ties or zeros")
    assert seen == {
        "normal, n > 50", "exact", "sign patterns with ties or zeros", "normal, ties or zeros"
    }


def test_wilcoxon_decides_the_method_per_pair():
    # scipy.stats.wilcoxon(d, axis=1) decides "ties or zeros" once for the whole 2-D
    # input; pdcompare decides per pair, as scipy on that pair alone. A tie in one pair
    # must not change the exact p-value of a tie-free pair.
    tie_free = np.array([[0.3, 0.1, 0.4, 0.15, 0.9, 0.26], [0.0] * 6])
    with_tie = np.array([[0.3, 0.3, 0.4, 0.15, 0.9, 0.26], [0.0] * 6])
    values = np.vstack([tie_free, with_tie])
    out = paired.wilcoxon(values, [0, 2], [1, 3])
    assert_allclose(out["pvalue"][0], stats.wilcoxon(tie_free[0], tie_free[1]).pvalue, rtol=1e-15)
    assert_allclose(out["pvalue"][1], stats.wilcoxon(with_tie[0], with_tie[1]).pvalue, rtol=1e-15)
    assert out["pvalue"][0] == 2 / 2**6  # exact: all positive, P(T+ >= 21) = 1/64, twice


@pytest.mark.parametrize("n_splits", [5, 13, 14, 60])
def test_wilcoxon_identical_pairs(n_splits):
    values = np.tile(np.linspace(0.7, 0.9, n_splits), (3, 1))
    values[2] += 0.01 * (-1.0) ** np.arange(n_splits)
    out = paired.wilcoxon(values, [0, 0], [1, 2])
    assert out["identical"].tolist() == [True, False]
    assert (out["statistic"][0], out["pvalue"][0], out["median_diff"][0]) == (0.0, 1.0, 0.0)
    assert not out["constant"].any()


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
@pytest.mark.parametrize("n_splits", [6, 8, 20, 40, 70])
@pytest.mark.parametrize("kind", ["continuous", "rounded"])
def test_wilcoxon_missing_scores_match_scipy(nan_policy, n_splits, kind):
    values = table(n_splits, kind, n_models=5, seed=3)
    rng = np.random.default_rng(n_splits)
    values[1, rng.choice(n_splits, size=2, replace=False)] = np.nan
    values[3, rng.choice(n_splits, size=4, replace=False)] = np.nan
    i, j = ordered_pairs(values.shape[0])
    for alternative in ALTERNATIVES:
        out = paired.wilcoxon(values, i, j, alternative=alternative, nan_policy=nan_policy)
        for k in range(i.size):
            x, y = values[i[k]], values[j[k]]
            if nan_policy == "propagate" and np.isnan(x - y).any():
                assert np.isnan([out[key][k] for key in
                                 ("mean_diff", "statistic", "pvalue", "median_diff")]).all()
                continue
            ref = scipy_wilcoxon(x, y, alternative, nan_policy="omit")
            assert_allclose(out["statistic"][k], ref.statistic, rtol=1e-12, atol=0)
            assert_allclose(out["pvalue"][k], ref.pvalue, rtol=1e-12, atol=0)
            assert_allclose(out["mean_diff"][k], np.nanmean(x - y), rtol=1e-12)


def test_wilcoxon_pair_without_any_split_is_nan():
    values = np.array([[0.8, np.nan, 0.7], [np.nan, 0.9, np.nan], [0.7, 0.8, 0.6]])
    out = paired.wilcoxon(values, [0, 0], [1, 2], nan_policy="omit")
    assert np.isnan([out["statistic"][0], out["pvalue"][0], out["median_diff"][0]]).all()
    assert not out["identical"][0]
    assert np.isfinite(out["pvalue"][1])


def test_wilcoxon_chunks_give_the_same_numbers(monkeypatch):
    values = table(30, "rounded", n_models=8, seed=5)
    values[2, 4] = np.nan
    i, j = ordered_pairs(8)
    whole = paired.wilcoxon(values, i, j, nan_policy="omit")
    monkeypatch.setattr(_moments, "_CHUNK_ELEMENTS", 100)
    chunked = paired.wilcoxon(values, i, j, nan_policy="omit")
    for key in ("mean_diff", "statistic", "pvalue", "median_diff"):
        assert_array_equal(chunked[key], whole[key])


def test_wilcoxon_without_hodges_lehmann():
    values = table(10, "continuous")
    out = paired.wilcoxon(values, [0], [1], hodges_lehmann=False)
    assert "median_diff" not in out
    assert_allclose(out["pvalue"], paired.wilcoxon(values, [0], [1])["pvalue"], rtol=0)


def test_negative_zero_is_a_zero_difference():
    # -0.0 - 0.0 is -0.0: still a zero difference, dropped like any other.
    x = np.array([-0.0, 0.3, 0.1, 0.4, 0.2])
    y = np.array([0.0, 0.0, 0.0, 0.0, 0.5])
    out = paired.wilcoxon(np.vstack([x, y]), [0], [1])
    ref = stats.wilcoxon(x, y)
    assert (out["statistic"][0], out["pvalue"][0]) == (ref.statistic, ref.pvalue)


# --------------------------------------------------------------------------- null distributions


@pytest.mark.parametrize("n", range(0, 11))
def test_exact_tails_by_enumeration(n):
    # Written out: T+ of every one of the 2**n sign patterns of ranks 1..n.
    totals = [sum(r for r, s in zip(range(1, n + 1), signs, strict=True) if s)
              for signs in itertools.product([0, 1], repeat=n)]
    counts = np.bincount(totals, minlength=n * (n + 1) // 2 + 1)
    below, above = _signed_rank.exact_tails(n)
    assert_array_equal(below, np.cumsum(counts))
    assert_array_equal(above, np.cumsum(counts[::-1])[::-1])


def test_exact_tails_are_exact_at_fifty():
    below, above = _signed_rank.exact_tails(50)
    assert below[-1] == 2**50
    assert_array_equal(below[:-1] + above[1:], 2**50)
    # Symmetry of the signed-rank distribution.
    assert_array_equal(below, above[::-1])


def test_permutation_tails_by_enumeration():
    # Doubled average ranks with ties (1.5, 1.5, 3, 5, 5, 5 -> 3, 3, 6, 10, 10, 10) and zeros.
    doubled = np.array([[3, 3, 6, 10, 10, 10], [0, 0, 2, 4, 6, 8], [3, 3, 6, 10, 10, 10]])
    below, above, row = _signed_rank.permutation_tails(doubled)
    assert row[0] == row[2] != row[1]
    for r in (0, 1):
        weights = [w for w in doubled[r] if w]
        totals = [sum(w for w, s in zip(weights, signs, strict=True) if s)
                  for signs in itertools.product([0, 1], repeat=len(weights))]
        counts = np.bincount(totals, minlength=below.shape[1])
        assert_array_equal(below[row[r]], np.cumsum(counts))
        assert_array_equal(above[row[r]], np.cumsum(counts[::-1])[::-1])


def test_average_ranks_match_rankdata():
    rng = np.random.default_rng(8)
    diff = np.round(rng.normal(size=(50, 12)), 1) + 0.0
    diff[::7, 3] = np.nan
    keys = _signed_rank.sorted_keys(diff)
    n_present = np.count_nonzero(~np.isnan(diff), axis=1)
    n_zero = np.count_nonzero(diff == 0, axis=1)
    ranks, sizes = _signed_rank.average_ranks(keys, n_zero, n_present)
    for row in range(diff.shape[0]):
        d = diff[row][~np.isnan(diff[row]) & (diff[row] != 0)]
        expected = np.sort(stats.rankdata(np.abs(d)))
        got = ranks[row, n_zero[row]:n_present[row]]
        assert_allclose(got, expected, rtol=0)
        _, tie_counts = np.unique(np.abs(d), return_counts=True)
        # Each of the t members of a tie group contributes t**2 - 1: t**3 - t per group.
        kept = sizes[row][sizes[row] > 0]
        assert (kept**2 - 1).sum() == (tie_counts**3 - tie_counts).sum()


# --------------------------------------------------------------------------- Hodges–Lehmann


def walsh_median(d):
    """The Hodges–Lehmann estimate written out: median of (d_a + d_b) / 2, a <= b."""
    return np.median([(x + y) / 2 for x, y in itertools.combinations_with_replacement(d, 2)])


@pytest.mark.parametrize("n_splits", [1, 2, 3, 4, 7, 10, 31, 200])
@pytest.mark.parametrize("kind", ["continuous", "rounded"])
def test_hodges_lehmann_matches_walsh_averages(n_splits, kind):
    values = table(n_splits, kind, n_models=3, seed=11)
    i, j = ordered_pairs(3)
    out = paired.hodges_lehmann(values, i, j)
    expected = [walsh_median(values[a] - values[b]) for a, b in zip(i, j, strict=True)]
    assert_allclose(out, expected, rtol=1e-12, atol=1e-15)


def test_hodges_lehmann_missing_scores():
    values = table(12, "rounded", n_models=4, seed=12)
    values[1, [2, 5]] = np.nan
    values[2, 7] = np.nan
    i, j = ordered_pairs(4)
    omitted = paired.hodges_lehmann(values, i, j, nan_policy="omit")
    propagated = paired.hodges_lehmann(values, i, j)
    for k in range(i.size):
        d = values[i[k]] - values[j[k]]
        assert_allclose(omitted[k], walsh_median(d[~np.isnan(d)]), rtol=1e-12, atol=1e-15)
        if np.isnan(d).any():
            assert np.isnan(propagated[k])
        else:
            assert propagated[k] == omitted[k]


def test_hodges_lehmann_keeps_zero_differences():
    # d = (0, 0, 0, 1): Walsh averages 0 x 6, 0.5 x 3, 1 -> median 0; dropping zeros gives 1.
    values = np.array([[1.0, 1.0, 1.0, 2.0], [1.0, 1.0, 1.0, 1.0]])
    assert paired.hodges_lehmann(values, [0], [1])[0] == 0.0


def test_hodges_lehmann_rejects_bad_policy():
    with pytest.raises(ValueError, match="`nan_policy` must be 'propagate' or 'omit'"):
        paired.hodges_lehmann(np.zeros((2, 3)), [0], [1], nan_policy="raise")


# --------------------------------------------------------------------------- sign test


@pytest.mark.parametrize("n_splits", [1, 2, 3, 5, 10, 25, 60, 200])
@pytest.mark.parametrize("kind", ["continuous", "rounded", "coarse"])
def test_sign_test_matches_binomtest_per_pair(n_splits, kind):
    values = table(n_splits, kind, seed=21)
    i, j = ordered_pairs(values.shape[0])
    for alternative in ALTERNATIVES:
        out = paired.sign_test(values, i, j, alternative=alternative)
        for k in range(i.size):
            d = values[i[k]] - values[j[k]]
            wins, losses, ties = (d > 0).sum(), (d < 0).sum(), (d == 0).sum()
            assert (out["wins"][k], out["losses"][k], out["ties"][k]) == (wins, losses, ties)
            assert out["statistic"][k] == wins
            if wins + losses == 0:
                assert out["pvalue"][k] == 1.0
                assert out["identical"][k]
                continue
            ref = stats.binomtest(int(wins), int(wins + losses), 0.5, alternative=alternative)
            assert_allclose(out["pvalue"][k], ref.pvalue, rtol=1e-12, atol=0)


@pytest.mark.parametrize("n", [1, 2, 7, 10, 51, 200, 301])
def test_sign_test_every_win_count(n):
    # Every k = 0..n: the two-sided rule of binomtest (outcomes no more likely than k).
    k = np.arange(n + 1)
    values = np.zeros((2 * k.size, n))
    for row, wins in enumerate(k):
        values[2 * row, :wins] = 1.0
        values[2 * row, wins:] = -1.0
    i, j = np.arange(0, 2 * k.size, 2), np.arange(1, 2 * k.size, 2)
    for alternative in ALTERNATIVES:
        out = paired.sign_test(values, i, j, alternative=alternative)
        ref = [stats.binomtest(int(x), n, alternative=alternative).pvalue for x in k]
        assert_allclose(out["pvalue"], ref, rtol=1e-12, atol=0)


def test_sign_test_many_pairs_use_one_pvalue_per_count():
    # More pairs than (n + 1)**2 possible counts: p-values are looked up by (wins, n).
    values = table(10, "coarse", n_models=40, seed=23)
    i, j = ordered_pairs(40)
    assert i.size > 11**2
    for alternative in ALTERNATIVES:
        out = paired.sign_test(values, i, j, alternative=alternative)
        n = (out["wins"] + out["losses"]).astype(int)
        reference = {
            (k, m): stats.binomtest(k, m, alternative=alternative).pvalue
            for k, m in set(zip(out["wins"].astype(int).tolist(), n.tolist(), strict=True))
            if m > 0
        }
        expected = [reference.get((k, m), 1.0) for k, m in
                    zip(out["wins"].astype(int).tolist(), n.tolist(), strict=True)]
        assert_allclose(out["pvalue"], expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_sign_test_missing_scores(nan_policy):
    values = table(20, "rounded", n_models=4, seed=22)
    values[0, [1, 3]] = np.nan
    i, j = ordered_pairs(4)
    out = paired.sign_test(values, i, j, nan_policy=nan_policy)
    for k in range(i.size):
        d = values[i[k]] - values[j[k]]
        if nan_policy == "propagate" and np.isnan(d).any():
            assert np.isnan([out[key][k] for key in
                             ("mean_diff", "statistic", "pvalue", "wins", "losses", "ties")]).all()
            continue
        d = d[~np.isnan(d)]
        wins, losses = int((d > 0).sum()), int((d < 0).sum())
        assert (out["wins"][k], out["losses"][k], out["ties"][k]) == (wins, losses, (d == 0).sum())
        assert_allclose(out["pvalue"][k], stats.binomtest(wins, wins + losses).pvalue, rtol=1e-12)
        assert_allclose(out["mean_diff"][k], d.mean(), rtol=1e-12)


def test_sign_test_pair_without_any_split_is_nan():
    values = np.array([[0.8, np.nan], [np.nan, 0.9]])
    out = paired.sign_test(values, [0], [1], nan_policy="omit")
    assert np.isnan(out["pvalue"][0])
    assert not out["identical"][0]
    assert (out["wins"][0], out["losses"][0], out["ties"][0]) == (0, 0, 0)


# --------------------------------------------------------------------------- properties

score_tables = st.integers(1, 20).flatmap(
    lambda n: st.lists(
        st.lists(st.integers(0, 6), min_size=n, max_size=n), min_size=2, max_size=2
    )
)


@given(score_tables, st.booleans())
def test_swapping_models(rows, halves):
    # Integer scores make ties and zeros likely; "halves" makes them non-integers.
    values = np.array(rows, dtype=float) / (2.0 if halves else 1.0)
    both = {alt: paired.wilcoxon(values, [0, 1], [1, 0], alternative=alt) for alt in ALTERNATIVES}
    two = both["two-sided"]
    assert two["pvalue"][0] == two["pvalue"][1] or np.isnan(two["pvalue"]).all()
    assert two["statistic"][0] == two["statistic"][1]
    # One-sided: "greater" for (a, b) is "less" for (b, a).
    assert_allclose(both["greater"]["pvalue"][0], both["less"]["pvalue"][1], rtol=1e-15)
    assert_allclose(both["less"]["pvalue"][0], both["greater"]["pvalue"][1], rtol=1e-15)
    assert two["median_diff"][0] == -two["median_diff"][1]
    signs = {
        alt: paired.sign_test(values, [0, 1], [1, 0], alternative=alt) for alt in ALTERNATIVES
    }
    assert signs["two-sided"]["pvalue"][0] == signs["two-sided"]["pvalue"][1]
    assert signs["two-sided"]["wins"][0] == signs["two-sided"]["losses"][1]
    assert_allclose(signs["greater"]["pvalue"][0], signs["less"]["pvalue"][1], rtol=1e-15)


small_tables = st.integers(1, 10).flatmap(
    lambda n: st.lists(
        st.lists(st.integers(0, 6), min_size=n, max_size=n), min_size=2, max_size=2
    )
)


@pytest.mark.slow
@given(small_tables)
def test_pvalues_are_probabilities_and_match_scipy(rows):
    values = np.array(rows, dtype=float)
    d = values[0] - values[1]
    for alternative in ALTERNATIVES:
        out = paired.wilcoxon(values, [0], [1], alternative=alternative)
        assert 0.0 <= out["pvalue"][0] <= 1.0
        if np.any(d != 0):
            ref = scipy_wilcoxon(values[0], values[1], alternative)
            assert_allclose(out["pvalue"][0], ref.pvalue, rtol=1e-12, atol=0)
            assert_allclose(out["statistic"][0], ref.statistic, rtol=1e-12, atol=0)
