"""The clustered paired core of items frames against DESIGN 21's numbers, statsmodels and loops."""

import numpy as np
import pytest
import statsmodels.api as sm
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from pdcompare.stats import items as core
from pdcompare.stats import predictions as prediction_core

TEN_A = [1, 1, 1, 0, 1, 1, 0, 1, 1, 1]
TEN_B = [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]
TWELVE_A = [1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0]
TWELVE_B = [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0]


def per_pair_reference(values, cluster, i, j):
    """The CR1 clustered paired t of each pair, written out one pair and one cluster at a time."""
    rows = []
    labels = np.unique(cluster)
    for a, b in zip(i, j, strict=True):
        d = values[a] - values[b]
        n, c = d.size, labels.size
        centred = d - d.mean()
        sums = np.array([centred[cluster == label].sum() for label in labels])
        se = np.sqrt(c / (c - 1) * np.sum(sums**2)) / n
        t = d.mean() / se
        rows.append((d.mean(), se, t, 2 * stats.t.sf(abs(t), c - 1)))
    return np.array(rows)


def test_inspect_ai_clustered_standard_error():
    # inspect_ai's stderr(cluster=) on scores 0..19 in clusters i mod 4 (DESIGN 21).
    x = np.arange(20.0)[None, :]
    assert_allclose(core.clustered_se(x, np.arange(20) % 4, 4), [0.6454972], atol=5e-8)
    assert_allclose(core.clustered_se(x, np.arange(20), 20), [1.3228757], atol=5e-8)
    assert_allclose(core.clustered_se(x, np.arange(20), 20), [stats.sem(x[0])])


def test_ten_items_paired_standard_error_and_exact_mcnemar():
    values = np.array([TEN_A, TEN_B], dtype=float)
    out = core.clustered_paired_ttest(values, np.arange(10), 10, [0], [1], clustered=False)
    assert_allclose(out["mean_diff"], [0.3])
    assert_allclose(out["se"], [0.1527525], atol=5e-8)
    reference = stats.ttest_rel(TEN_A, TEN_B)
    assert_allclose(out["statistic"], [reference.statistic])
    assert_allclose(out["pvalue"], [reference.pvalue])
    only_1, only_2 = core.discordant_counts(values.astype(np.int8), [0], [1])
    assert (only_1.tolist(), only_2.tolist()) == ([3.0], [0.0])
    assert_allclose(prediction_core.mcnemar(only_1, only_2, exact=True)["pvalue"], [0.25])


def test_twelve_items_in_four_passages():
    values = np.array([TWELVE_A, TWELVE_B], dtype=float)
    cluster = np.arange(12) // 3
    out = core.clustered_paired_ttest(values, cluster, 4, [0], [1])
    assert_allclose(out["mean_diff"], [0.416667], atol=5e-7)
    assert_allclose(out["se"], [0.25])
    assert_allclose(out["df"], [3.0])
    plain = core.clustered_paired_ttest(values, np.arange(12), 12, [0], [1], clustered=False)
    assert_allclose(plain["se"], [0.1486471], atol=5e-8)
    assert_allclose(out["design_effect"], (0.25 / stats.sem(np.subtract(TWELVE_A, TWELVE_B))) ** 2)


def test_exact_mcnemar_with_discordant_counts_1_and_9():
    # 1 item only model a gets right, 9 only model b, 5 both: p = 2 (1 + 10) / 2**10.
    a = np.array([1] + [0] * 9 + [1] * 5)
    b = np.array([0] + [1] * 9 + [1] * 5)
    only_1, only_2 = core.discordant_counts(np.array([a, b]), [0], [1])
    out = prediction_core.mcnemar(only_1, only_2, exact=True)
    assert_allclose(out["pvalue"], [0.021484375])
    assert_allclose(out["pvalue"], [stats.binomtest(1, 10).pvalue])


def test_all_pairs_equal_a_written_out_per_pair_loop_and_statsmodels():
    rng = np.random.default_rng(3)
    m, n, c = 6, 90, 13
    cluster = rng.integers(0, c, n)
    values = rng.normal(0, 1, (m, n)) + rng.normal(0, 1, (1, c))[:, cluster]
    i, j = np.triu_indices(m, 1)
    out = core.clustered_paired_ttest(values, cluster, c, i, j)
    reference = per_pair_reference(values, cluster, i, j)
    assert_allclose(out["mean_diff"], reference[:, 0], rtol=1e-12, atol=1e-14)
    assert_allclose(out["se"], reference[:, 1], rtol=1e-10)
    assert_allclose(out["statistic"], reference[:, 2], rtol=1e-10)
    assert_allclose(out["pvalue"], reference[:, 3], rtol=1e-8)
    # statsmodels' cluster-robust standard error of a mean: CR1, G/(G-1) (K = 1).
    for k in (0, 7, 14):
        d = values[i[k]] - values[j[k]]
        fit = sm.OLS(d, np.ones_like(d)).fit(cov_type="cluster", cov_kwds={"groups": cluster})
        assert_allclose(out["se"][k], fit.bse[0], rtol=1e-10)
    corr = np.corrcoef(values)[i, j]
    assert_allclose(out["corr"], corr, rtol=1e-10)


def test_nearly_identical_models_keep_their_accuracy():
    rng = np.random.default_rng(1)
    base = rng.random(400)
    values = np.array([base + 1e3, base + 1e3 + 1e-9 * rng.random(400)])
    cluster = np.arange(400) // 8
    out = core.clustered_paired_ttest(values, cluster, 50, [0], [1])
    reference = per_pair_reference(values, cluster, [0], [1])
    assert_allclose(out["se"], reference[:, 1], rtol=1e-6)


def test_identical_and_constant_pairs():
    values = np.array([[1.0, 0, 1, 0], [1.0, 0, 1, 0], [2.0, 1, 2, 1]])
    out = core.clustered_paired_ttest(values, np.arange(4), 4, [0, 2], [1, 0], clustered=False)
    assert out["identical"].tolist() == [True, False]
    assert out["constant"].tolist() == [False, True]
    assert out["statistic"][0] == 0
    assert out["pvalue"][0] == 1
    assert np.isinf(out["statistic"][1])
    assert out["pvalue"][1] == 0


def test_within_item_share_written_out():
    rng = np.random.default_rng(0)
    samples = rng.integers(0, 2, (2, 30, 4)).astype(float)  # models x items x samples
    means, variances = samples.mean(axis=2), samples.var(axis=2, ddof=1)
    share = core.within_item_share(means, variances, np.full((2, 30), 4.0))
    # DESIGN 35: within / (within + between), between = var(item means) - within, at least 0
    within = variances.mean(axis=1) / 4
    between = np.maximum(means.var(axis=1, ddof=1) - within, 0.0)
    assert_allclose(share, within / (within + between))


def test_items_power_against_the_noncentral_t():
    delta, se, n, c = 0.03, 0.012, 400, 80
    out = core.items_power(delta, se, n, c)
    crit = stats.t.ppf(0.975, c - 1)
    expected = stats.nct.sf(crit, c - 1, delta / se) + stats.nct.cdf(-crit, c - 1, delta / se)
    assert_allclose(out["power"], expected, rtol=1e-8)
    # The mdd reaches 0.8 exactly; the clusters needed are the first to reach it.
    at_mdd = core.items_power(out["mdd"], se, n, c)["power"]
    assert_allclose(at_mdd, 0.8, rtol=1e-6)
    needed = int(out["n_clusters_needed"])

    def power_with(clusters):
        lam = delta / (se * np.sqrt(c / clusters))
        crit = stats.t.ppf(0.975, clusters - 1)
        return stats.nct.sf(crit, clusters - 1, lam) + stats.nct.cdf(-crit, clusters - 1, lam)

    assert power_with(needed) >= 0.8 > power_with(needed - 1)
    assert int(out["n_items_needed"]) == int(np.ceil(needed * n / c))


def test_cluster_bootstrap_resamples_whole_clusters():
    values = np.array([[1.0, 1, 0, 0, 5, 5], [0.0, 0, 0, 0, 0, 0]])
    reps = core.cluster_bootstrap(
        values, np.array([0, 0, 1, 1, 2, 2]), 3, n_resamples=200,
        random_state=np.random.default_rng(0),
    )  # fmt: skip
    # Means of resampled whole clusters: each cluster mean is 1, 0 or 5.
    allowed = {(a + b + c) / 3 for a in (1, 0, 5) for b in (1, 0, 5) for c in (1, 0, 5)}
    assert set(np.round(reps[:, 0], 12)) <= {round(v, 12) for v in allowed}
    assert np.all(reps[:, 1] == 0)


def test_discordant_counts_of_every_pair_by_one_product():
    rng = np.random.default_rng(2)
    x = rng.integers(0, 2, (7, 300)).astype(np.int8)
    i, j = np.triu_indices(7, 1)
    only_1, only_2 = core.discordant_counts(x, i, j)
    assert_allclose(only_1, [np.sum((x[a] == 1) & (x[b] == 0)) for a, b in zip(i, j, strict=True)])
    assert_allclose(only_2, [np.sum((x[a] == 0) & (x[b] == 1)) for a, b in zip(i, j, strict=True)])


@given(
    seed=st.integers(0, 10_000),
    n_clusters=st.integers(2, 9),
    per=st.integers(1, 5),
)
def test_invariances(seed, n_clusters, per):
    rng = np.random.default_rng(seed)
    n = n_clusters * per
    cluster = np.repeat(np.arange(n_clusters), per)
    values = rng.integers(0, 5, (3, n)).astype(float)
    i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    out = core.clustered_paired_ttest(values, cluster, n_clusters, i, j)
    # Relabelling the clusters changes nothing.
    relabel = rng.permutation(n_clusters)
    again = core.clustered_paired_ttest(values, relabel[cluster], n_clusters, i, j)
    # Permuting the items (with their clusters) changes nothing.
    order = rng.permutation(n)
    moved = core.clustered_paired_ttest(values[:, order], cluster[order], n_clusters, i, j)
    for other in (again, moved):
        assert_allclose(other["se"], out["se"], rtol=1e-9, atol=1e-12)
        assert_allclose(other["pvalue"], out["pvalue"], rtol=1e-9, atol=1e-12)
    # Swapping the models negates the difference and keeps the test.
    swapped = core.clustered_paired_ttest(values, cluster, n_clusters, j, i)
    assert_allclose(swapped["mean_diff"], -out["mean_diff"], atol=1e-12)
    assert_allclose(swapped["se"], out["se"], rtol=1e-9, atol=1e-12)
    assert_allclose(swapped["pvalue"], out["pvalue"], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("n_clusters", [2, 5])
def test_cluster_sums_equal_a_group_by(n_clusters):
    rng = np.random.default_rng(n_clusters)
    cluster = rng.integers(0, n_clusters, 40)
    cluster[:n_clusters] = np.arange(n_clusters)
    values = rng.random((3, 40))
    sums, sizes = core.cluster_sums(values, cluster, n_clusters)
    for c in range(n_clusters):
        assert_allclose(sums[:, c], values[:, cluster == c].sum(axis=1))
        assert sizes[c] == np.sum(cluster == c)
