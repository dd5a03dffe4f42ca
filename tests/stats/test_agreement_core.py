"""The agreement core (stats/agreement.py): κ, Krippendorff's α, the cluster bootstrap, ρ̄.

References: ``sklearn.metrics.cohen_kappa_score``; the ``krippendorff`` package
(its README's and docstring's examples, and random data with missing values);
explicit resampling of items and clusters; ``numpy.corrcoef`` and the formula
``k / (1 + (k - 1) ρ̄)`` written out.
"""

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from sklearn.metrics import cohen_kappa_score

from pdcompare.stats.agreement import (
    LEVELS,
    agreement,
    alpha_from_sums,
    alpha_units,
    category_codes,
    cohen_kappa,
    confusion_units,
    effective_judges,
    krippendorff_alpha,
    percentile_interval,
    resample_counts,
)

nan = np.nan
#: The krippendorff package's README example (3 coders x 15 units, missing values).
README = np.array(
    [
        [nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
        [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
        [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4],
    ]
)
#: Its docstring's second example (Krippendorff 2011, "Computing Krippendorff's alpha-
#: reliability", page 8: 4 observers x 12 units).
PAGE_8 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("data", [README, PAGE_8], ids=["readme", "page_8"])
def test_alpha_equals_the_krippendorff_package_on_its_own_examples(data, level):
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert_allclose(krippendorff_alpha(data, level), expected, rtol=1e-12)


def test_alpha_reproduces_the_published_values_of_the_examples():
    # the package's docstring: README nominal 0.691358, interval 0.810845; page 8 ordinal 0.815
    assert round(krippendorff_alpha(README, "nominal"), 6) == 0.691358
    assert round(krippendorff_alpha(README, "interval"), 6) == 0.810845
    assert round(krippendorff_alpha(PAGE_8, "ordinal"), 3) == 0.815
    # its tests: pos/neg/neu labels (here pos=0, neg=1, neu=2: nominal) 0.722222; perfect 1
    labels = np.array([[0, 1, 2, nan], [0, 1, 2, 0], [0, 1, 0, 0]])
    assert round(krippendorff_alpha(labels, "nominal"), 6) == 0.722222
    perfect = np.tile([1.0, 2, 3, 4], (3, 1))
    for level in LEVELS:
        assert krippendorff_alpha(perfect, level) == 1.0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", range(5))
def test_alpha_equals_the_package_on_random_data_with_missing_values(level, seed):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, 40)
    data = np.where(rng.random((4, 40)) < 0.7, truth, rng.integers(1, 6, (4, 40))).astype(float)
    data[rng.random(data.shape) < 0.25] = nan
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert_allclose(krippendorff_alpha(data, level), expected, rtol=1e-10)


@pytest.mark.parametrize("seed", range(6))
def test_kappa_equals_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    v = 2 + seed % 4
    human = rng.integers(0, v, 90)
    judge = np.where(rng.random(90) < 0.6, human, rng.integers(0, v, 90))
    domain = np.unique(np.concatenate([human, judge])).astype(float)
    table = confusion_units(
        category_codes(human, domain), category_codes(judge, domain)[None], domain.size
    ).sum(axis=0)[0]
    kappa = cohen_kappa(table.reshape(domain.size, domain.size))
    assert_allclose(kappa, cohen_kappa_score(human, judge), rtol=1e-12)


def test_the_section_31_reference_numbers():
    # DESIGN 31: human fail 40 = judge fail 30 + pass 10; human pass 80 = judge fail 2 + pass 78
    human = np.array([0.0] * 40 + [1.0] * 80)
    judge = np.array([0.0] * 30 + [1.0] * 10 + [0.0] * 2 + [1.0] * 78)
    found = agreement(human, judge[None], n_resamples=200, random_state=0)
    assert round(float(found.kappa[0]), 3) == 0.763
    assert_allclose(found.kappa[0], cohen_kappa_score(human, judge), rtol=1e-12)
    # written out: p_o = 108/120, p_e = (32 * 40 + 88 * 80) / 120^2
    p_o, p_e = 108 / 120, (32 * 40 + 88 * 80) / 120**2
    assert_allclose(found.kappa[0], (p_o - p_e) / (1 - p_e), rtol=1e-12)
    assert_allclose(found.accuracy[0], p_o)
    assert_allclose(found.tpr[0], 78 / 80)
    assert_allclose(found.tnr[0], 30 / 40)


def _explicit_resamples(human, judges, clusters, n_resamples, seed):
    """Each resample's rows, drawn from the same counts as the core (clusters whole)."""
    labels = np.unique(clusters)
    block = n_resamples
    counts = next(resample_counts(labels.size, n_resamples, np.random.default_rng(seed), block))
    for row in counts.astype(int):
        rows = np.concatenate(
            [np.flatnonzero(clusters == labels[g]) for g in np.repeat(np.arange(labels.size), row)]
        )
        yield human[rows], judges[:, rows]


@pytest.mark.parametrize("level", LEVELS)
def test_the_cluster_bootstrap_equals_resampling_clusters_explicitly(level):
    # The matrix product of resample counts and cluster sums gives, resample by resample,
    # sklearn's κ and the krippendorff package's α of the rows of the drawn clusters.
    rng = np.random.default_rng(3)
    n = 60
    clusters = np.repeat(np.arange(20), 3)
    human = rng.integers(0, 3, n).astype(float)
    judges = np.where(rng.random((2, n)) < 0.7, human, rng.integers(0, 3, (2, n))).astype(float)
    judges[1, :4] = nan
    b = 30
    found = agreement(
        human, judges, clusters=clusters, level=level, ci=0.5, n_resamples=b, random_state=7
    )
    kappas, alphas = [], []
    for h, j in _explicit_resamples(human, judges, clusters, b, 7):
        present = ~np.isnan(j[0])
        kappas.append(cohen_kappa_score(h, j[0]))
        alphas.append(krippendorff.alpha(np.stack([h, j[0]]), level_of_measurement=level))
        assert present.all()
    low, high = percentile_interval(np.array(kappas), 0.5)
    assert_allclose([found.kappa_low[0], found.kappa_high[0]], [low, high], rtol=1e-12)
    low, high = percentile_interval(np.array(alphas), 0.5)
    assert_allclose([found.alpha_low[0], found.alpha_high[0]], [low, high], rtol=1e-10)


def test_alpha_of_all_raters_is_the_package_on_the_labelled_units():
    rng = np.random.default_rng(1)
    human = rng.integers(1, 5, 50).astype(float)
    human[40:] = nan  # unlabelled units are left out
    judges = np.where(rng.random((3, 50)) < 0.6, np.nan_to_num(human, nan=2), 3.0)
    judges[0, 5] = nan
    for level in LEVELS:
        found = agreement(human, judges, level=level, n_resamples=20, random_state=0)
        data = np.concatenate([human[None, :40], judges[:, :40]])
        assert_allclose(found.alpha_all[0], krippendorff.alpha(data, level_of_measurement=level))
        pair = np.stack([human[:40], judges[0, :40]])
        assert_allclose(found.alpha[0], krippendorff.alpha(pair, level_of_measurement=level))


def test_effective_judges_is_the_formula_written_out():
    rng = np.random.default_rng(2)
    common = rng.normal(size=200)
    errors = 0.8 * common + rng.normal(size=(5, 200))
    r = np.corrcoef(errors)
    rho = r[np.triu_indices(5, 1)].mean()
    effective, found_rho = effective_judges(errors)
    assert_allclose(found_rho, rho, rtol=1e-12)
    assert_allclose(effective, 5 / (1 + 4 * rho), rtol=1e-12)


def test_effective_judges_uses_the_units_each_pair_shares():
    rng = np.random.default_rng(4)
    errors = rng.normal(size=(3, 50))
    errors[0, :10] = nan
    errors[2, 30:] = nan
    pairs = []
    for a, b in ((0, 1), (0, 2), (1, 2)):
        both = ~np.isnan(errors[a]) & ~np.isnan(errors[b])
        pairs.append(np.corrcoef(errors[a, both], errors[b, both])[0, 1])
    effective, rho = effective_judges(errors)
    assert_allclose(rho, np.mean(pairs), rtol=1e-12)
    assert_allclose(effective, 3 / (1 + 2 * np.mean(pairs)), rtol=1e-12)


def test_independent_judges_are_worth_their_number_and_copies_one():
    rng = np.random.default_rng(5)
    independent = rng.normal(size=(4, 5000))
    assert abs(effective_judges(independent)[0] - 4) < 0.2
    copies = np.repeat(rng.normal(size=(1, 100)), 4, axis=0)
    assert_allclose(effective_judges(copies)[0], 1.0)
    assert np.isnan(effective_judges(copies[:1])[0])  # one judge: no pair


def test_kappa_interval_covers_by_simulation():
    # 300 samples of 150 items from a population with known κ: the percentile interval
    # (400 resamples) covers it about 95 % of the time (binomial sd 1.3 %: at least 90 %).
    p_pass, sensitivity, specificity = 0.6, 0.9, 0.75
    p11, p00 = p_pass * sensitivity, (1 - p_pass) * specificity
    judge_pass = p11 + (1 - p_pass) * (1 - specificity)
    p_e = p_pass * judge_pass + (1 - p_pass) * (1 - judge_pass)
    true_kappa = (p11 + p00 - p_e) / (1 - p_e)
    rng = np.random.default_rng(11)
    covered = 0
    reps = 300
    for _ in range(reps):
        human = (rng.random(150) < p_pass).astype(float)
        right = rng.random(150) < np.where(human == 1, sensitivity, specificity)
        judge = np.where(right, human, 1 - human)
        found = agreement(human, judge[None], n_resamples=400, random_state=rng)
        covered += found.kappa_low[0] <= true_kappa <= found.kappa_high[0]
    assert covered / reps >= 0.90


def test_clusters_resampled_whole_keep_the_coverage_that_items_lose():
    # 30 clusters of 8 items; the judge errs often on the items of a "hard" cluster (45 %)
    # and rarely elsewhere (3 %): errors correlated within clusters. The population κ is
    # written out from the marginal rates. Resampling clusters whole covers it (measured
    # 92.5 % over 400 samples), resampling items does not (70 %, intervals 0.6x as wide).
    p, share_hard, r_hard, r_easy = 0.6, 0.3, 0.55, 0.97
    r = share_hard * r_hard + (1 - share_hard) * r_easy
    judge_pass = p * r + (1 - p) * (1 - r)
    p_e = p * judge_pass + (1 - p) * (1 - judge_pass)
    true_kappa = (r - p_e) / (1 - p_e)
    rng = np.random.default_rng(11)
    g, m, reps = 30, 8, 300
    clusters = np.repeat(np.arange(g), m)
    covered = {"clusters": 0, "items": 0}
    for _ in range(reps):
        human = (rng.random(g * m) < p).astype(float)
        hard = np.repeat(rng.random(g) < share_hard, m)
        right = rng.random(g * m) < np.where(hard, r_hard, r_easy)
        judge = np.where(right, human, 1 - human)[None]
        for name, units in (("clusters", clusters), ("items", None)):
            found = agreement(human, judge, clusters=units, n_resamples=400, random_state=rng)
            covered[name] += found.kappa_low[0] <= true_kappa <= found.kappa_high[0]
    assert covered["clusters"] / reps >= 0.88
    assert covered["items"] / reps <= 0.85


def test_nominal_alpha_sums_are_the_coincidence_matrix():
    # Krippendorff's form, written out for one pair of values per unit: o_ck counts ordered
    # pairs within units (each unit of 2 values: both orders, divided by m_u - 1 = 1).
    codes = np.array([[0, 1, 1, 2, -1], [0, 1, 2, 2, 1]])
    units = alpha_units(codes[None], "nominal", 3)[:, 0]
    sums = units.sum(axis=0)
    o = np.zeros((3, 3))
    for a, b in zip(*codes, strict=True):
        if a >= 0 and b >= 0:
            o[a, b] += 1
            o[b, a] += 1
    n_v = o.sum(axis=0)
    n = n_v.sum()
    expected = 1 - (n - 1) * (n - np.trace(o)) / (n**2 - (n_v**2).sum())
    assert_allclose(sums[:3], n_v)
    assert_allclose(alpha_from_sums(sums, "nominal"), expected)


_labels = st.lists(st.integers(0, 3), min_size=4, max_size=30)


@given(_labels)
def test_kappa_is_one_on_identical_labels(labels):
    labels = np.array(labels, dtype=float)
    found = agreement(labels, labels[None], n_resamples=2, random_state=0)
    if np.unique(labels).size > 1:
        assert_allclose(found.kappa[0], 1.0)
        assert_allclose(found.alpha[0], 1.0)
    else:
        assert np.isnan(found.kappa[0])  # one category: κ is undefined (p_e = 1)


@given(
    st.lists(st.lists(st.sampled_from([0.0, 1.0, 2.0, 4.0, nan]), min_size=8, max_size=8),
             min_size=3, max_size=3),
    st.permutations([0, 1, 2]),
    st.sampled_from(LEVELS),
)  # fmt: skip
def test_alpha_is_symmetric_in_the_raters(rows, order, level):
    data = np.array(rows)
    assert_allclose(
        krippendorff_alpha(data[list(order)], level),
        krippendorff_alpha(data, level),
        rtol=1e-12,
        equal_nan=True,
    )


@given(
    st.lists(st.lists(st.sampled_from([0.0, 1.0, 2.0, nan]), min_size=10, max_size=10),
             min_size=2, max_size=4),
    st.permutations([5.0, -1.0, 7.5]),
)  # fmt: skip
def test_nominal_alpha_is_invariant_to_relabelling(rows, names):
    data = np.array(rows)
    relabelled = np.where(np.isnan(data), nan, np.take(names, np.nan_to_num(data).astype(int)))
    assert_allclose(
        krippendorff_alpha(relabelled, "nominal"),
        krippendorff_alpha(data, "nominal"),
        rtol=1e-12,
        equal_nan=True,
    )
