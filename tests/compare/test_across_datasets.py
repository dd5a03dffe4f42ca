"""Benchmark frames (models x data sets): summary, Friedman, across-data-set and rank tests."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from pandas.testing import assert_frame_equal
from scipy import stats

import pdcompare
from pdcompare import PdcompareWarning


def benchmark(n_models=5, n_datasets=12, n_splits=4, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    columns = pd.MultiIndex.from_product(
        [[f"data{k}" for k in range(n_datasets)], range(n_splits)], names=["dataset", "split"]
    )
    skill = np.linspace(0.0, 0.04, n_models)[:, None]
    values = rng.normal(0.8, 0.05, (n_models, n_datasets * n_splits)) + skill
    if ties:
        # Easy data sets where several models score 1.0 on every fold.
        values[:3, : 3 * n_splits] = 1.0
        values = np.round(values, 2)
    return pd.DataFrame(values, index=[f"m{k}" for k in range(n_models)], columns=columns)


def per_dataset_means(frame):
    return frame.T.groupby(level="dataset", sort=False).mean().T


def test_means_are_per_dataset_means():
    frame = benchmark()
    expected = per_dataset_means(frame)
    assert_frame_equal(frame.cmp.means(), expected, check_names=False, rtol=1e-14)
    assert frame.cmp.means().columns.name == "dataset"


def test_means_of_a_missing_split_are_over_the_splits_present():
    # DESIGN §20: averaged over the folds the model has (with a warning), not dropped.
    frame = benchmark()
    frame.iloc[1, 5] = np.nan
    with pytest.warns(PdcompareWarning, match=r"'m1' on 'data1' \(1 of 4 folds missing\)"):
        table = frame.cmp.means()
    assert_allclose(table.iloc[1, 1], np.nanmean(frame.iloc[1, 4:8]), rtol=1e-12)
    assert np.isfinite(table).all().all()


def test_summary_mean_ranks_against_scipy_rankdata_and_autorank():
    frame = benchmark(seed=1, ties=True)
    # The per-data-set means pdcompare ranks (equal to pandas' to rounding: see above);
    # ties are ties of these floats, as in scipy.
    table = frame.cmp.means().to_numpy()
    ranks = stats.rankdata(-table, axis=0)  # rank 1 = best, ties averaged
    summary = frame.cmp.summary()
    # Best first: lowest mean rank, ties broken by the higher mean score.
    order = np.lexsort((-table.mean(axis=1), ranks.mean(axis=1)))
    expected = pd.Series(ranks.mean(axis=1), index=frame.index).iloc[order]
    assert_allclose(summary["mean_rank"].to_numpy(), expected.to_numpy())
    assert list(summary.index) == list(expected.index)
    assert list(summary["rank"]) == list(range(1, 6))
    assert_allclose(summary["mean"], table.mean(axis=1)[frame.index.get_indexer(summary.index)])
    assert (summary["n_datasets"] == 12).all()
    best = (ranks == ranks.min(axis=0)).sum(axis=1)
    assert list(summary["n_best"]) == list(best[frame.index.get_indexer(summary.index)])
    meta = summary.attrs["pdcompare"]
    assert meta["unit"] == "dataset"
    assert meta["n_datasets"] == 12

    autorank = pytest.importorskip("autorank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = autorank.autorank(
            pd.DataFrame(table.T, columns=frame.index), alpha=0.05, verbose=False,
            force_mode="nonparametric",
        )
    # autorank reports mean ranks with rank 1 = best as well (order=descending default).
    theirs = result.rankdf["meanrank"].reindex(summary.index)
    assert_allclose(summary["mean_rank"].to_numpy(), theirs.to_numpy())


def test_summary_of_losses_ranks_the_lowest_first():
    frame = benchmark(seed=2)
    # Error rates: positive losses (negated scores, all <= 0, would warn: DESIGN §20).
    losses = (1 - frame).cmp.set_design(greater_is_better=False)
    assert list(losses.cmp.summary().index) == list(frame.cmp.summary().index)


@pytest.mark.parametrize("ties", [False, True])
def test_friedman_equals_scipy_on_the_means(ties):
    frame = benchmark(seed=3, ties=ties)
    table = frame.cmp.means().to_numpy()
    result = frame.cmp.friedman()
    reference = stats.friedmanchisquare(*table)
    assert_allclose(result["statistic"].iloc[0], reference.statistic, rtol=1e-12)
    assert_allclose(result["pvalue"].iloc[0], reference.pvalue, rtol=1e-10)
    k, n = table.shape
    chi2 = reference.statistic
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)  # Iman and Davenport (1980)
    assert_allclose(result["f_statistic"].iloc[0], f, rtol=1e-12)
    assert_allclose(
        result["f_pvalue"].iloc[0], stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rtol=1e-10
    )
    assert list(result.columns) == [
        "n_models", "n_datasets", "statistic", "df", "pvalue",
        "f_statistic", "f_df1", "f_df2", "f_pvalue",
    ]
    assert result["df"].iloc[0] == k - 1


def test_nemenyi_and_conover_against_scikit_posthocs():
    sp = pytest.importorskip("scikit_posthocs")
    frame = benchmark(n_models=6, n_datasets=15, seed=4)
    table = per_dataset_means(frame)
    block = table.T  # rows = data sets (blocks), columns = models (groups)
    nemenyi = frame.cmp.pairwise("nemenyi")
    theirs = sp.posthoc_nemenyi_friedman(block)
    for row in nemenyi.itertuples():
        assert_allclose(row.pvalue, theirs.loc[row.model_1, row.model_2], rtol=1e-6, atol=1e-12)
    assert nemenyi["pvalue_adj"].equals(nemenyi["pvalue"])  # family-wise already
    assert nemenyi.attrs["pdcompare"]["correction"] is None
    conover = frame.cmp.pairwise("conover", correction=None)
    theirs = sp.posthoc_conover_friedman(block)
    for row in conover.itertuples():
        assert_allclose(row.pvalue, theirs.loc[row.model_1, row.model_2], rtol=1e-8)
    assert frame.cmp.pairwise("conover").attrs["pdcompare"]["correction"] == "holm"


def test_nemenyi_statistic_rank_diff_and_critical_difference():
    frame = benchmark(n_models=5, n_datasets=10, seed=5)
    result = frame.cmp.pairwise("nemenyi")
    meta = result.attrs["pdcompare"]
    ranks = meta["mean_ranks"]
    k, n = 5, 10
    pairs = zip(result.model_1, result.model_2, strict=True)
    diffs = np.array([ranks[b] - ranks[a] for a, b in pairs])
    assert_allclose(result["rank_diff"], diffs)
    assert (result["rank_diff"] >= 0).all()  # best first
    assert_allclose(result["statistic"], np.abs(diffs) / np.sqrt(k * (k + 1) / (12 * n)))
    # Demšar (2006), Table 5: q_0.05 = 2.728 for k = 5.
    assert_allclose(meta["cd"], 2.728 * np.sqrt(k * (k + 1) / (6 * n)), rtol=2e-4)
    assert ((result["rank_diff"].abs() >= meta["cd"]) == result["reject"]).all()


def test_across_dataset_wilcoxon_sign_and_ttest_use_one_mean_per_dataset():
    frame = benchmark(seed=6)
    table = per_dataset_means(frame)
    result = frame.cmp.wilcoxon(correction=None)
    best = frame.cmp.summary().index[0]
    assert (result["model_1"] == best).all()
    for row in result.itertuples():
        reference = stats.wilcoxon(table.loc[row.model_1], table.loc[row.model_2])
        assert_allclose(row.statistic, reference.statistic)
        assert_allclose(row.pvalue, reference.pvalue, rtol=1e-10)
    ttest = frame.cmp.ttest("m4", "m0")
    reference = stats.ttest_rel(table.loc["m4"], table.loc["m0"])
    assert_allclose(ttest["statistic"].iloc[0], reference.statistic, rtol=1e-10)
    assert ttest.attrs["pdcompare"]["unit"] == "dataset"
    sign = frame.cmp.sign_test("m4", "m0")
    wins = int((table.loc["m4"] > table.loc["m0"]).sum())
    losses = int((table.loc["m4"] < table.loc["m0"]).sum())
    assert_allclose(sign["pvalue"].iloc[0], stats.binomtest(wins, wins + losses).pvalue)


def test_pairwise_defaults_to_wilcoxon_on_benchmark_frames():
    frame = benchmark(seed=7)
    result = frame.cmp.pairwise()
    assert result.attrs["pdcompare"]["test"] == "wilcoxon"
    assert result.attrs["pdcompare"]["correction"] == "holm"
    assert len(result) == 10


@pytest.mark.parametrize("method", ["corrected_ttest", "posterior", "ttest_5x2cv"])
def test_fold_tests_refuse_a_benchmark_frame(method):
    frame = benchmark()
    args = ("m0", "m1") if method == "posterior" else ()
    with pytest.raises(ValueError, match=r"per_dataset.*random_effects"):
        getattr(frame.cmp, method)(*args, cv=4)


def test_rank_tests_refuse_a_scores_frame():
    scores = pdcompare.datasets.load_grid_search_scores()
    with pytest.raises(ValueError, match="needs a benchmark frame"):
        scores.cmp.friedman()
    with pytest.raises(ValueError, match="needs a benchmark frame"):
        scores.cmp.pairwise("nemenyi")


def test_missing_datasets_follow_nan_policy():
    frame = benchmark(seed=8)
    frame.loc["m2", ("data3", slice(None))] = np.nan
    with pytest.raises(ValueError, match=r"\['data3'\].*nan_policy='omit'"):
        frame.cmp.friedman(nan_policy="raise")
    with pytest.warns(PdcompareWarning, match=r"\['data3'\]"):
        propagated = frame.cmp.friedman()
    assert np.isnan(propagated["pvalue"].iloc[0])
    with pytest.warns(PdcompareWarning, match=r"\['data3'\].*leaves them out"):
        omitted = frame.cmp.friedman(nan_policy="omit")
    table = per_dataset_means(frame).drop(columns="data3").to_numpy()
    assert_allclose(omitted["statistic"].iloc[0], stats.friedmanchisquare(*table).statistic)
    assert omitted["n_datasets"].iloc[0] == 11


def test_from_long_pairs_by_key_not_by_order():
    frame = benchmark(n_models=4, n_datasets=5, n_splits=3, seed=9)
    n = frame.shape[1]
    long = pd.DataFrame({
        "framework": np.repeat(frame.index.to_numpy(), n),
        "dataset": np.tile(frame.columns.get_level_values(0).to_numpy(), len(frame)),
        "split": np.tile(frame.columns.get_level_values(1).to_numpy(), len(frame)),
        "auc": frame.to_numpy().ravel(),
    })
    shuffled = long.sample(frac=1.0, random_state=0)
    rebuilt = pdcompare.from_long(
        shuffled, model="framework", dataset="dataset", split="split", score="auc"
    )
    rebuilt = rebuilt.loc[frame.index, frame.columns]
    assert_allclose(rebuilt.to_numpy(), frame.to_numpy())
    assert_frame_equal(
        pdcompare.friedman(rebuilt), pdcompare.friedman(frame), check_like=True
    )


def test_from_long_errors_and_missing_cells():
    long = pd.DataFrame({"model": ["a", "a", "b"], "dataset": ["x", "y", "x"],
                         "score": [0.9, 0.8, 0.7]})
    frame = pdcompare.from_long(long)
    assert np.isnan(frame.loc["b", "y"])
    with pytest.raises(ValueError, match=r"`dataset`: the table has no column 'task'"):
        pdcompare.from_long(long, dataset="task")
    twice = pd.concat([long, long.iloc[:1]])
    with pytest.raises(ValueError, match=r"model='a', dataset='x'"):
        pdcompare.from_long(twice)
    losses = pdcompare.from_long(long, greater_is_better=False)
    assert losses.attrs["pdcompare"]["design"]["greater_is_better"] is False


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    shift=st.floats(-5, 5, allow_nan=False),
    column=st.integers(0, 7),
)
def test_rank_results_ignore_a_constant_added_to_one_dataset(seed, shift, column):
    frame = benchmark(n_models=4, n_datasets=8, n_splits=2, seed=seed)
    moved = frame.copy()
    moved.loc[:, (f"data{column}", slice(None))] += shift
    for test in ("nemenyi", "conover"):
        assert_frame_equal(frame.cmp.pairwise(test), moved.cmp.pairwise(test), rtol=1e-9)
    assert_allclose(
        frame.cmp.friedman()["statistic"], moved.cmp.friedman()["statistic"], rtol=1e-9
    )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_swapping_models_mirrors_rank_diff(seed):
    frame = benchmark(n_models=4, n_datasets=6, n_splits=2, seed=seed)
    forward = frame.cmp.pairwise("nemenyi")
    swapped = frame.iloc[::-1]
    backward = swapped.cmp.pairwise("nemenyi")
    key = lambda r: frozenset((r.model_1, r.model_2))  # noqa: E731
    back = {key(r): r for r in backward.itertuples()}
    for row in forward.itertuples():
        other = back[key(row)]
        sign = 1 if other.model_1 == row.model_1 else -1
        assert_allclose(other.rank_diff, sign * row.rank_diff, atol=1e-12)
        assert_allclose(other.pvalue, row.pvalue, rtol=1e-12)


def test_split_order_does_not_break_ties_of_the_bundled_benchmark():
    # Easy data sets give many equal means; they must not depend on the order in which a
    # long table lists the splits, or ties in the ranks would come and go with it.
    from pdcompare.datasets import load_benchmark

    bench = load_benchmark()
    stacked = bench.stack(["dataset", "split"], future_stack=True)  # noqa: PD013
    long = stacked.rename("score").reset_index().sample(frac=1.0, random_state=1)
    rebuilt = pdcompare.from_long(long, split="split")
    pd.testing.assert_frame_equal(
        rebuilt.cmp.means().loc[bench.index, bench.cmp.means().columns],
        bench.cmp.means(),
        check_exact=True,
    )
    summary = bench.cmp.summary()
    got = rebuilt.cmp.summary()
    pd.testing.assert_frame_equal(got.drop(columns="mean"), summary.drop(columns="mean"))
    np.testing.assert_allclose(got["mean"], summary["mean"], rtol=1e-14)


def test_means_equal_in_exact_arithmetic_tie_in_the_ranks():
    # 0.9 + 0.8 and 0.85 + 0.85 differ in floating point (1.7000000000000002 vs 1.7).
    columns = pd.MultiIndex.from_product([["d1", "d2"], ["s0", "s1"]], names=["dataset", "split"])
    frame = pd.DataFrame(
        [[0.9, 0.8, 0.6, 0.7], [0.85, 0.85, 0.7, 0.6], [0.1, 0.2, 0.1, 0.1]],
        index=["a", "b", "c"],
        columns=columns,
    )
    means = frame.cmp.means()
    assert means.loc["a", "d1"] == means.loc["b", "d1"]
    summary = frame.cmp.summary()
    assert summary.loc["a", "mean_rank"] == summary.loc["b", "mean_rank"] == 1.5
