"""matrix(kind="mcm"): the Multiple Comparison Matrix of a benchmark frame (DESIGN §19).

References: ``scipy.stats.wilcoxon(x, y)`` (its defaults: zero differences dropped, as
``wilcoxon`` across data sets and the report's table) pair by pair,
wins / ties / losses and mean differences counted by hand, statsmodels'
``multipletests`` over the unique pairs.
"""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats
from statsmodels.stats.multitest import multipletests

import pdcompare  # noqa: F401
from pdcompare.datasets import load_benchmark


def table(m=5, n=16, seed=0, decimals=3):
    # 16 data sets: scipy's normal approximation (fast); rounded to 3 decimals, so
    # some differences are zero or tied. Up to 13 data sets with zeros, scipy runs an
    # exact permutation test per pair (test_few_data_sets_with_zeros).
    rng = np.random.default_rng(seed)
    values = (np.linspace(0.9, 0.8, m)[:, None] + rng.normal(0, 0.03, (m, n))).round(decimals)
    return pd.DataFrame(
        values,
        index=[f"m{k}" for k in range(m)],
        columns=pd.Index([f"d{k}" for k in range(n)], name="dataset"),
    )


def by_hand(frame, a, b, greater=True):
    x, y = frame.loc[a].to_numpy(float), frame.loc[b].to_numpy(float)
    keep = ~np.isnan(x) & ~np.isnan(y)
    x, y = x[keep], y[keep]
    d = x - y
    wins = int(np.sum(d > 0 if greater else d < 0))
    losses = int(np.sum(d < 0 if greater else d > 0))
    ties = int(np.sum(d == 0))
    if np.all(d == 0):
        p = 1.0
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            p = stats.wilcoxon(x, y).pvalue
    return d.mean(), wins, ties, losses, p


@pytest.mark.parametrize("greater", [True, False])
def test_every_cell_matches_scipy_and_the_counts(greater):
    frame = table(decimals=2)  # rounded: ties and zero differences occur
    cells = frame.cmp.matrix(kind="mcm", greater_is_better=greater)
    assert len(cells) == 5 * 4
    for row in cells.itertuples():
        mean_diff, wins, ties, losses, p = by_hand(frame, row.model_1, row.model_2, greater)
        assert_allclose(row.mean_diff, mean_diff, rtol=1e-12)
        assert (row.wins, row.ties, row.losses) == (wins, ties, losses)
        assert_allclose(row.pvalue, p, rtol=1e-10)


def test_few_data_sets_with_zeros_follow_scipys_exact_path():
    frame = table(m=3, n=8, seed=2, decimals=2)
    frame.iloc[1, :2] = frame.iloc[0, :2]  # two zero differences
    cells = frame.cmp.matrix(kind="mcm")
    for row in cells.itertuples():
        assert_allclose(row.pvalue, by_hand(frame, row.model_1, row.model_2)[4], rtol=1e-10)


def test_models_are_ordered_as_the_report_orders_them():
    # By mean rank, as summary() and the report (the matrix once ordered by mean score).
    frame = table().iloc[::-1]
    cells = frame.cmp.matrix(kind="mcm")
    assert cells.attrs["pdcompare"]["models"] == frame.cmp.summary().index.tolist()
    losses = frame.cmp.matrix(kind="mcm", greater_is_better=False)
    assert losses.attrs["pdcompare"]["models"] == (
        frame.cmp.summary(greater_is_better=False).index.tolist()
    )
    # A frame where mean score and mean rank disagree: m1 wins most data sets narrowly,
    # m0 has the higher mean from one data set.
    values = np.array([[0.90, 0.80, 0.80, 0.80, 0.99], [0.91, 0.81, 0.81, 0.81, 0.50],
                       [0.70, 0.70, 0.70, 0.70, 0.70]])
    disagree = pd.DataFrame(values, index=["m0", "m1", "m2"],
                            columns=pd.Index([f"d{k}" for k in range(5)], name="dataset"))
    assert disagree.loc["m0"].mean() > disagree.loc["m1"].mean()
    cells = disagree.cmp.matrix(kind="mcm")
    assert cells.attrs["pdcompare"]["models"] == ["m1", "m0", "m2"]
    assert cells.attrs["pdcompare"]["models"] == disagree.cmp.summary().index.tolist()


def test_the_matrix_and_the_reports_table_give_a_pair_one_pvalue():
    # One HTML report gave svc_rbf vs a model p = 0.938 in its table and 1.000 in the
    # matrix (zeros dropped against Pratt's). Here every pair has zero differences.
    from pdcompare.compare.analysis import analyse

    frame = table(m=5, n=12, seed=4, decimals=2)
    frame.iloc[1, :3] = frame.iloc[0, :3]
    frame.iloc[3, 2:4] = frame.iloc[2, 2:4]
    table_of_report = analyse(frame).significance
    assert table_of_report.attrs["pdcompare"]["test"] == "wilcoxon"
    cells = frame.cmp.matrix(kind="mcm").set_index(["model_1", "model_2"])
    for row in table_of_report.itertuples():
        assert_allclose(cells.loc[(row.model_1, row.model_2), "pvalue"], row.pvalue, rtol=1e-12)
        assert_allclose(cells.loc[(row.model_2, row.model_1), "pvalue"], row.pvalue, rtol=1e-12)
    # Pratt's p-values differ on these pairs: the test above tells the two apart.
    x, y = frame.loc["m0"], frame.loc["m1"]
    assert not np.isclose(stats.wilcoxon(x, y, zero_method="pratt").pvalue,
                          stats.wilcoxon(x, y).pvalue)
    # The same order of models in the matrix, its picture and the report.
    summary = frame.cmp.summary().index.tolist()
    assert frame.cmp.matrix(kind="mcm").attrs["pdcompare"]["models"] == summary
    ax = frame.cmp.plot("mcm")
    assert [t.get_text() for t in ax.get_yticklabels()] == summary


@pytest.mark.slow
@settings(max_examples=10)
@given(st.integers(0, 10_000), st.lists(st.integers(0, 5), min_size=2, max_size=6, unique=True))
def test_a_cell_depends_on_its_two_models_alone(seed, keep):
    # Adding, removing or reordering models never changes a cell (the MCM's point).
    frame = table(m=6, seed=seed)
    full = frame.cmp.matrix(kind="mcm").set_index(["model_1", "model_2"])
    part = frame.iloc[keep].cmp.matrix(kind="mcm").set_index(["model_1", "model_2"])
    pd.testing.assert_frame_equal(
        part.sort_index(), full.loc[part.index].sort_index(), check_categorical=False
    )


def test_correction_runs_over_the_unique_pairs():
    frame = table(m=6, seed=3)
    cells = frame.cmp.matrix(kind="mcm", correction="holm")
    models = cells.attrs["pdcompare"]["models"]
    upper = {(a, b) for a, b in itertools.combinations(models, 2)}
    mask = [(a, b) in upper for a, b in zip(cells["model_1"], cells["model_2"], strict=True)]
    expected = multipletests(cells.loc[mask, "pvalue"], method="holm")[1]
    assert_allclose(cells.loc[mask, "pvalue_adj"], expected)
    # The mirrored cell shares the pair's adjusted p-value.
    mirror = cells.set_index(["model_1", "model_2"])["pvalue_adj"]
    for (a, b), p in mirror.items():
        assert mirror[(b, a)] == p


def test_missing_scores_use_the_data_sets_both_models_have():
    frame = table(m=4, n=16, seed=5)
    frame.iloc[1, [2, 7]] = np.nan
    cells = frame.cmp.matrix(kind="mcm")
    for row in cells.itertuples():
        mean_diff, wins, ties, losses, p = by_hand(frame, row.model_1, row.model_2)
        assert (row.wins + row.ties + row.losses) == wins + ties + losses
        assert_allclose([row.mean_diff, row.pvalue], [mean_diff, p], rtol=1e-10)


def test_on_the_bundled_benchmark_and_refusals():
    bench = load_benchmark()
    cells = bench.cmp.matrix(kind="mcm")
    assert len(cells) == 7 * 6
    assert cells["wins"].dtype == np.int64
    with pytest.raises(ValueError, match="needs a benchmark frame"):
        load_benchmark().iloc[:, :10].droplevel(0, axis=1).cmp.matrix(kind="mcm")
    with pytest.raises(ValueError, match="`kind` must be one of 'mcm'"):
        bench.cmp.matrix(kind="cd")
    with pytest.raises(TypeError, match="apply to `matrix\\(kind='mcm'\\)`"):
        bench.cmp.pairwise().cmp.matrix("pvalue_adj", correction="holm")


@settings(max_examples=30, deadline=None)
@given(
    m=st.integers(2, 6),
    n=st.integers(3, 20),
    seed=st.integers(0, 10_000),
    decimals=st.sampled_from([1, 2]),
)
def test_every_cell_has_the_pvalue_of_wilcoxon_across_data_sets(m, n, seed, decimals):
    # Whatever the ties and zeros, the matrix and pairwise(test="wilcoxon") agree.
    frame = table(m=m, n=n, seed=seed, decimals=decimals)
    cells = frame.cmp.matrix(kind="mcm").set_index(["model_1", "model_2"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # identical pairs, attainable p-values
        pairs = frame.cmp.pairwise(test="wilcoxon", correction=None)
    for row in pairs.itertuples():
        assert_allclose(cells.loc[(row.model_1, row.model_2), "pvalue"], row.pvalue, rtol=1e-12)
    assert cells.attrs["pdcompare"]["models"] == frame.cmp.summary().index.tolist()
