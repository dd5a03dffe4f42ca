"""The paired permutation cores against scipy.stats.permutation_test and Fisher's Zea mays."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats
from sklearn.metrics import f1_score

from pdcompare.stats.metrics import get_metric
from pdcompare.stats.permutation import (
    count_permutation_test,
    row_permutation_test,
    sign_flip_test,
)

# Fisher (1935), The Design of Experiments, section 21: Darwin's Zea mays, crossed minus
# self-fertilised heights (eighths of an inch) of 15 pairs.
ZEA_MAYS = np.array([49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48])


def _scipy(x, z, statistic, alternative, n_resamples=np.inf, rng=None):
    return stats.permutation_test(
        (x, z),
        statistic,
        permutation_type="samples",
        alternative=alternative,
        n_resamples=n_resamples,
        vectorized=False,
        rng=rng,
    ).pvalue


def test_zea_mays_exact_pvalues():
    rng = np.random.default_rng(0)
    d = ZEA_MAYS[None, :]
    one = sign_flip_test(d, n_resamples=2**15, alternative="greater", random_state=rng)
    two = sign_flip_test(d, n_resamples=2**15, random_state=rng)
    assert one["exact"][0]
    assert one["pvalue"][0] == 863 / 32768
    assert two["pvalue"][0] == 1726 / 32768
    assert one["statistic"][0] == pytest.approx(ZEA_MAYS.mean())


def test_sign_flip_randomised_is_b_plus_one_over_r_plus_one_and_seeded():
    d = ZEA_MAYS[None, :]
    first = sign_flip_test(d, n_resamples=999, random_state=np.random.default_rng(7))
    again = sign_flip_test(d, n_resamples=999, random_state=np.random.default_rng(7))
    assert not first["exact"][0]
    assert first["pvalue"][0] == again["pvalue"][0]
    b = first["pvalue"][0] * 1000 - 1
    assert b == pytest.approx(round(b))  # (b + 1) / (R + 1)
    assert first["pvalue"][0] == pytest.approx(1726 / 32768, abs=3 * np.sqrt(0.05 * 0.95 / 999))


def test_sign_flip_zeros_do_not_count_and_pairs_are_independent():
    rng = np.random.default_rng(1)
    d = np.array([[3.0, -1.0, 2.0, 0.0, 0.0, 4.0], [1.0, 2.0, -3.0, 1.5, -0.5, 2.5]])
    out = sign_flip_test(d, n_resamples=100, alternative="greater", random_state=rng)
    assert out["exact"].tolist() == [True, True]
    for row, p in zip(d, out["pvalue"], strict=True):
        expected = _scipy(row, np.zeros(6), lambda x, z: np.mean(x - z), "greater")
        assert p == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("score", ["accuracy", "f1_macro", "balanced_accuracy"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_counts_path_equals_scipy_exact(score, alternative):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 40)
    first = np.where(rng.random(40) < 0.8, y, rng.integers(0, 3, 40))
    second = first.copy()
    flip = rng.choice(40, 9, replace=False)
    second[flip] = rng.integers(0, 3, 9)
    second[flip[0]] = (first[flip[0]] + 1) % 3
    metric = get_metric(score)
    preds = np.column_stack([first, second])
    out = count_permutation_test(
        y, preds, metric, np.array([0]), np.array([1]), alternative=alternative,
        random_state=np.random.default_rng(0),
    )  # fmt: skip
    assert out["exact"][0]
    sk = {"accuracy": None, "f1_macro": "macro", "balanced_accuracy": "balanced"}[score]

    def statistic(x, z):
        if sk is None:
            return np.mean(x == y) - np.mean(z == y)
        if sk == "macro":
            return f1_score(y, x, average="macro") - f1_score(y, z, average="macro")
        from sklearn.metrics import balanced_accuracy_score

        return balanced_accuracy_score(y, x) - balanced_accuracy_score(y, z)

    differ = first != second
    # scipy enumerates every row; the rows that agree change nothing: only the differing ones.
    expected = _scipy(
        first[differ], second[differ], _restricted(statistic, differ, first), alternative
    )
    assert out["pvalue"][0] == pytest.approx(expected, rel=1e-12)


def _restricted(statistic, differ, base):
    """The statistic of whole columns, given swapped values of the differing rows only."""

    def inner(x, z):
        full_x, full_z = base.copy(), base.copy()
        full_x[differ], full_z[differ] = x, z
        return statistic(full_x, full_z)

    return inner


def test_row_path_equals_scipy_exact_on_a_regression_score():
    rng = np.random.default_rng(4)
    y = rng.normal(size=11)
    x, z = y + rng.normal(0, 0.3, 11), y + rng.normal(0, 0.6, 11)
    metric = get_metric("mean_absolute_error")
    out = row_permutation_test(
        y, np.column_stack([x, z]), metric.score_columns, np.array([0]), np.array([1]),
        random_state=np.random.default_rng(0),
    )  # fmt: skip
    expected = _scipy(x, z, lambda a, b: np.mean(abs(a - y)) - np.mean(abs(b - y)), "two-sided")
    assert out["exact"][0]
    assert out["pvalue"][0] == pytest.approx(expected, rel=1e-12)


def test_counts_and_rows_agree_exactly_and_in_distribution():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 400)
    preds = np.column_stack(
        [np.where(rng.random(400) < p, y, 1 - y) for p in (0.9, 0.85, 0.8, 0.9)]
    )
    metric = get_metric("accuracy")
    i, j = np.triu_indices(4, k=1)
    counts = count_permutation_test(
        y, preds, metric, i, j, n_resamples=4000, random_state=np.random.default_rng(1)
    )
    rows = row_permutation_test(
        y, preds, metric.score_columns, i, j, n_resamples=4000,
        random_state=np.random.default_rng(2),
    )  # fmt: skip
    assert_allclose(counts["mean_diff"], rows["mean_diff"])
    assert not counts["exact"].any()
    # Two independent Monte Carlo estimates of the same p-value.
    se = np.sqrt(counts["pvalue"] * (1 - counts["pvalue"]) / 4000) + 1e-3
    assert (np.abs(counts["pvalue"] - rows["pvalue"]) < 5 * se).all()
    differ = (preds[:, i] != preds[:, j]).sum(axis=0)
    assert_allclose(counts["n_differ"], differ)


def test_accuracy_permutation_is_mcnemar_exact_when_enumerated():
    # Swapping the discordant rows is McNemar's exact binomial test on (9, 2).
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 60)
    first = y.copy()
    second = y.copy()
    second[:9] = 1 - y[:9]  # only_1_correct = 9
    first[9:11] = 1 - y[9:11]  # only_2_correct = 2
    out = count_permutation_test(
        y, np.column_stack([first, second]), get_metric("accuracy"), np.array([0]),
        np.array([1]), random_state=rng,
    )  # fmt: skip
    assert out["pvalue"][0] == pytest.approx(stats.binomtest(2, 11).pvalue, rel=1e-12)


def test_randomised_counts_estimate_mcnemar_and_the_row_path():
    # Accuracy: the randomised p-value estimates McNemar's exact binomial p-value
    # (scipy.stats.binomtest) of the discordant counts.
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 500)
    preds = np.column_stack([np.where(rng.random(500) < p, y, 1 - y) for p in (0.86, 0.83, 0.81)])
    i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    n = 20_000
    out = count_permutation_test(
        y, preds, get_metric("accuracy"), i, j, n_resamples=n,
        random_state=np.random.default_rng(0),
    )  # fmt: skip
    assert not out["exact"].any()
    for p, a, b in zip(out["pvalue"], i, j, strict=True):
        correct_a, correct_b = preds[:, a] == y, preds[:, b] == y
        only_a, only_b = np.sum(correct_a & ~correct_b), np.sum(correct_b & ~correct_a)
        expected = stats.binomtest(int(only_b), int(only_a + only_b)).pvalue
        assert p == pytest.approx(expected, abs=5 * np.sqrt(expected * (1 - expected) / n) + 2e-4)
    # Three classes, macro F1: the per-pair counts against swapping the rows themselves.
    y3 = rng.integers(0, 3, 300)
    noisy = [np.where(rng.random(300) < q, y3, rng.integers(0, 3, 300)) for q in (0.8, 0.7)]
    preds3 = np.column_stack(noisy)
    metric = get_metric("f1_macro")
    counts = count_permutation_test(
        y3, preds3, metric, np.array([0]), np.array([1]), n_resamples=4000,
        random_state=np.random.default_rng(1),
    )  # fmt: skip
    rows = row_permutation_test(
        y3, preds3, metric.score_columns, np.array([0]), np.array([1]), n_resamples=4000,
        random_state=np.random.default_rng(2),
    )  # fmt: skip
    assert counts["mean_diff"][0] == pytest.approx(
        f1_score(y3, noisy[0], average="macro") - f1_score(y3, noisy[1], average="macro")
    )
    se = np.sqrt(rows["pvalue"][0] * (1 - rows["pvalue"][0]) / 4000)
    assert abs(counts["pvalue"][0] - rows["pvalue"][0]) < 5 * np.sqrt(2) * se + 1e-3


@pytest.mark.parametrize("grades", [False, True])
def test_roc_auc_swaps_give_the_same_pvalues_as_scoring_the_swapped_columns(grades):
    from pdcompare.stats.auc import auc_swaps

    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 300)
    scores = np.column_stack([y + rng.normal(0, s, 300) for s in (1.0, 1.2, 1.6)])
    if grades:
        scores = np.round(scores)
    metric = get_metric("roc_auc")
    i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    run = lambda swaps: row_permutation_test(  # noqa: E731
        y, scores, metric.score_columns, i, j, n_resamples=999, swaps=swaps,
        random_state=np.random.default_rng(3),
    )  # fmt: skip
    plain, fast = run(None), run(lambda x, z: auc_swaps(y == 1, x, z))
    assert not fast["exact"].any()
    assert_allclose(fast["pvalue"], plain["pvalue"], rtol=0, atol=0)  # the same draws, same floats
    assert_allclose(fast["mean_diff"], plain["mean_diff"], rtol=0, atol=0)


@given(st.lists(st.integers(-3, 3), min_size=2, max_size=10))
def test_property_exact_sign_flip_equals_scipy(values):
    d = np.array(values, dtype=float)
    out = sign_flip_test(d[None, :], n_resamples=2**10, random_state=np.random.default_rng(0))
    expected = _scipy(d, np.zeros_like(d), lambda x, z: np.mean(x - z), "two-sided")
    assert out["pvalue"][0] == pytest.approx(expected, rel=1e-9, abs=1e-12)
