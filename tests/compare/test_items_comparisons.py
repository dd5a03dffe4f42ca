"""Comparisons on items frames: DESIGN 21's numbers, the predictions-frame tests, tasks, power."""

import numpy as np
import pandas as pd
import pytest
from frames import eval_items_long
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats
from statsmodels.stats.multitest import multipletests

import pdcompare
from pdcompare.inputs.items import items_data

TEN_A = [1, 1, 1, 0, 1, 1, 0, 1, 1, 1]
TEN_B = [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]


def ten_items():
    return pd.DataFrame([TEN_A, TEN_B], index=["A", "B"]).cmp.set_design(items=True)


def twelve_items():
    wide = pd.DataFrame(
        [[1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0], [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0]],
        index=["A", "B"],
    )
    return wide.cmp.set_design(items=True, cluster={k: f"p{k // 3}" for k in range(12)})


def test_summary_reproduces_inspect_ai_clustered_standard_error():
    wide = pd.DataFrame([np.arange(20.0), np.zeros(20)], index=["m", "zero"])
    framed = wide.cmp.set_design(items=True, cluster={k: k % 4 for k in range(20)})
    out = framed.cmp.summary()
    assert list(out.columns) == [
        "mean", "se", "ci_low", "ci_high", "n_items", "n_clusters", "rank",
    ]  # fmt: skip
    assert_allclose(out.loc["m", "se"], 0.6454972, atol=5e-8)
    assert out.loc["m", "n_clusters"] == 4
    low, high = stats.t.interval(0.95, 3, 9.5, out.loc["m", "se"])
    assert_allclose(out.loc["m", ["ci_low", "ci_high"]].to_numpy(float), [low, high])
    plain = wide.cmp.set_design(items=True).cmp.summary()
    assert_allclose(plain.loc["m", "se"], 1.3228757, atol=5e-8)
    assert plain.loc["m", "n_clusters"] == 20


def test_ten_items_ttest_and_exact_mcnemar():
    frame = ten_items()
    out = frame.cmp.ttest()
    assert list(out.columns[:10]) == [
        "model_1", "model_2", "mean_diff", "statistic", "df", "pvalue", "pvalue_adj", "reject",
        "ci_low", "ci_high",
    ]  # fmt: skip
    assert list(out.columns[10:]) == ["se", "n_items", "n_clusters", "design_effect", "corr"]
    assert_allclose(out["se"], [0.1527525], atol=5e-8)
    assert_allclose(out["pvalue"], [stats.ttest_rel(TEN_A, TEN_B).pvalue])
    assert_allclose(out["design_effect"], [1.0])
    assert_allclose(out["corr"], [np.corrcoef(TEN_A, TEN_B)[0, 1]])
    mc = frame.cmp.mcnemar()
    assert_allclose(mc["pvalue"], [0.25])
    assert mc.attrs["pdcompare"]["exact"] is True


def test_twelve_items_clustered_ttest():
    out = twelve_items().cmp.ttest("A", "B")
    assert_allclose(out["mean_diff"], [5 / 12])
    assert_allclose(out["se"], [0.25])
    assert_allclose(out["df"], [3.0])
    assert_allclose(out["pvalue"], [2 * stats.t.sf((5 / 12) / 0.25, 3)])
    assert_allclose(out["design_effect"], [(0.25 / 0.1486471) ** 2], rtol=1e-6)
    assert out.attrs["pdcompare"]["clustered"] is True


def test_mcnemar_discordant_1_and_9():
    a = [1] + [0] * 9 + [1] * 5
    b = [0] + [1] * 9 + [1] * 5
    frame = pd.DataFrame([a, b], index=["a", "b"]).cmp.set_design(items=True)
    out = frame.cmp.mcnemar("a", "b")
    assert out[["only_1_correct", "only_2_correct"]].to_numpy().tolist() == [[1.0, 9.0]]
    assert_allclose(out["pvalue"], [0.021484375])


def test_all_pairs_with_holm_equal_a_per_pair_loop():
    long = eval_items_long(n_models=5, n_clusters=12, per_cluster=6, n_samples=1, seed=4)
    frame = pdcompare.from_items(long, cluster="passage")
    out = frame.cmp.pairwise("ttest")
    data = items_data(frame)
    rows = []
    for a, b in zip(out["model_1"], out["model_2"], strict=True):
        d = frame.loc[a].to_numpy() - frame.loc[b].to_numpy()
        sums = pd.Series(d - d.mean()).groupby(data.cluster).sum().to_numpy()
        c, n = sums.size, d.size
        se = np.sqrt(c / (c - 1) * np.sum(sums**2)) / n
        rows.append((d.mean(), se, 2 * stats.t.sf(abs(d.mean() / se), c - 1)))
    rows = np.array(rows)
    assert len(out) == 10
    assert_allclose(out[["mean_diff", "se", "pvalue"]].to_numpy(), rows, rtol=1e-10)
    assert_allclose(out["pvalue_adj"], multipletests(rows[:, 2], method="holm")[1], rtol=1e-10)


def test_one_sample_no_clusters_equals_the_predictions_frame_tests():
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 2, 120)
    preds = pd.DataFrame(
        {"y": truth, **{f"m{k}": np.where(rng.random(120) < 0.85 - 0.08 * k, truth, 1 - truth)
                        for k in range(3)}}
    )  # fmt: skip
    correct = preds[["m0", "m1", "m2"]].eq(preds["y"], axis=0).astype(int).T
    items = correct.cmp.set_design(items=True)
    got = items.cmp.mcnemar(exact=True)
    expected = preds.cmp.mcnemar(exact=True)
    cols = ["only_1_correct", "only_2_correct", "statistic", "pvalue", "pvalue_adj"]
    assert_allclose(got[cols].to_numpy(float), expected[cols].to_numpy(float))
    assert got["model_2"].tolist() == expected["model_2"].tolist()
    boot_items = items.cmp.bootstrap_diff(n_resamples=4000, random_state=0)
    boot_preds = preds.cmp.bootstrap_diff(n_resamples=4000, random_state=0)
    assert_allclose(boot_items["mean_diff"], boot_preds["mean_diff"])
    # Two Monte Carlo runs of the same bootstrap: intervals agree to their noise.
    for column in ("ci_low", "ci_high"):
        assert_allclose(boot_items[column], boot_preds[column], atol=0.02)


def test_permutation_test_flips_whole_clusters_exactly():
    frame = twelve_items()
    out = frame.cmp.permutation_test("A", "B")
    sums = np.array([3, 0, 2, 0])  # the passages' summed differences
    nonzero = sums[sums != 0]
    signs = np.array([[a, b] for a in (1, -1) for b in (1, -1)])
    null = signs @ nonzero
    expected = np.mean(np.abs(null) >= abs(nonzero.sum()) - 1e-12)
    assert_allclose(out["pvalue"], [expected])
    assert_allclose(out["mean_diff"], [5 / 12])
    assert out.attrs["pdcompare"]["exact"] is True


def test_wilcoxon_and_sign_test_on_cluster_means():
    frame = twelve_items()
    out = frame.cmp.wilcoxon("A", "B")
    means = np.array([[1, 1, 2 / 3, 1 / 3], [0, 1, 0, 1 / 3]])
    expected = stats.wilcoxon(means[0], means[1])
    assert_allclose(out["pvalue"], [expected.pvalue])
    assert out.attrs["pdcompare"]["unit"] == "cluster means"
    assert_allclose(out["mean_diff"], [5 / 12])
    sign = frame.cmp.sign_test("A", "B")
    assert sign[["wins", "losses", "ties"]].to_numpy().tolist() == [[2.0, 0.0, 2.0]]


def test_summary_with_samples_gives_the_within_item_share():
    long = eval_items_long(n_models=2, n_samples=5)
    frame = pdcompare.from_items(long, sample="sample", cluster="passage")
    out = frame.cmp.summary()
    assert list(out.columns[-2:]) == ["samples_per_item", "within_item_share"]
    cells = long.groupby(["model", "item"])["score"]
    for model in ("m0", "m1"):
        within = cells.var().loc[model].mean() / 5
        between = max(cells.mean().loc[model].var(ddof=1) - within, 0.0)
        assert_allclose(out.loc[model, "within_item_share"], within / (within + between))
        assert out.loc[model, "samples_per_item"] == 5


def test_power_columns_and_n_samples():
    long = eval_items_long(n_models=2, n_samples=4, n_clusters=20)
    frame = pdcompare.from_items(long, sample="sample", cluster="passage")
    out = frame.cmp.power("m0", "m1", delta=0.05)
    assert list(out.columns) == [
        "model_1", "model_2", "sd_diff", "n_items", "n_clusters", "design_effect", "power",
        "mdd", "n_items_needed", "n_clusters_needed",
    ]  # fmt: skip
    # counts print as integers (section 35): items and clusters needed are whole numbers
    counts = ("n_items", "n_items_needed", "n_clusters_needed")
    assert all(out[c].dtype == np.int64 for c in counts)
    se = frame.cmp.ttest("m0", "m1")["se"].iloc[0]
    lam, df = 0.05 / se, 19
    crit = stats.t.ppf(0.975, df)
    assert_allclose(out["power"], [stats.nct.sf(crit, df, lam) + stats.nct.cdf(-crit, df, lam)])
    more = frame.cmp.power("m0", "m1", delta=0.05, n_samples=40)
    fewer = frame.cmp.power("m0", "m1", delta=0.05, n_samples=1)
    assert fewer["power"].iloc[0] < out["power"].iloc[0] < more["power"].iloc[0]
    # The within-item part rescaled by K/K' (written out).
    data = items_data(frame)
    within = np.nanmean(data.within_var / data.samples, axis=1).sum()
    se_more = np.sqrt(max(se**2 - within / data.n_items, 0) + within * 4 / 40 / data.n_items)
    lam = 0.05 / se_more
    assert_allclose(
        more["power"], [stats.nct.sf(crit, df, lam) + stats.nct.cdf(-crit, df, lam)], rtol=1e-7
    )


def test_by_task_and_weight_task():
    long = eval_items_long(n_models=3, n_clusters=12, n_samples=1, tasks=3)
    frame = pdcompare.from_items(long, cluster="passage", task="task")
    by = frame.cmp.ttest(by="task")
    assert list(by.columns[:3]) == ["model_1", "model_2", "task"]
    assert len(by) == 2 * 3  # the best against the two others, in each of 3 tasks
    cluster = items_data(frame).cluster
    for task in ("t0", "t1", "t2"):
        inside = frame.columns.get_level_values(0) == task
        sub = frame.loc[:, task]
        mapping = dict(zip(sub.columns, cluster[inside], strict=True))
        alone = sub.cmp.set_design(items=True, cluster=mapping).cmp.pairwise("ttest")
        pairs = zip(alone["model_1"], alone["model_2"], strict=True)
        se = {frozenset(k): v for k, v in zip(pairs, alone["se"], strict=True)}
        rows = by[by["task"] == task]
        keys = zip(rows["model_1"], rows["model_2"], strict=True)
        expected = [se[frozenset(k)] for k in keys]
        assert_allclose(rows["se"], expected, rtol=1e-10)
    all_p = by["pvalue"].to_numpy()
    assert_allclose(by["pvalue_adj"], multipletests(all_p, method="holm")[1])
    weighted = frame.cmp.ttest("m0", "m1", weight="task")
    by_all = frame.cmp.ttest("m0", "m1", by="task")
    per_task = by_all
    assert_allclose(weighted["mean_diff"], [per_task["mean_diff"].mean()])
    assert_allclose(weighted["se"], [np.sqrt(np.sum(per_task["se"] ** 2)) / 3])
    assert_allclose(weighted["df"], [per_task["df"].sum()])
    assert weighted.attrs["pdcompare"]["weight"] == "task"


def test_equivalence_uses_the_clustered_standard_error():
    frame = twelve_items()
    out = frame.cmp.equivalence("A", "B", rope=0.5)
    se, df = 0.25, 3
    assert_allclose(out["pvalue_low"], [stats.t.sf((5 / 12 + 0.5) / se, df)])
    assert_allclose(out["pvalue_high"], [stats.t.cdf((5 / 12 - 0.5) / se, df)])


def test_tests_of_cv_splits_refuse_items_naming_ttest():
    frame = ten_items()
    for call in (
        lambda: frame.cmp.corrected_ttest(),
        lambda: frame.cmp.bayes(),
        lambda: frame.cmp.ttest_5x2cv(),
        lambda: pdcompare.posterior(frame, "A", "B"),
    ):
        with pytest.raises(ValueError, match=r"this is an items frame.*Use `ttest`"):
            call()


def test_mcnemar_refuses_graded_clustered_or_sampled_items():
    graded = pd.DataFrame([[0.5, 1, 0], [1, 0, 0]], index=["a", "b"]).cmp.set_design(items=True)
    with pytest.raises(ValueError, match=r"graded scores.*`permutation_test`.*`ttest`"):
        graded.cmp.mcnemar()
    with pytest.raises(ValueError, match=r"4 clusters.*`permutation_test`.*`ttest`"):
        twelve_items().cmp.mcnemar()


def test_a_wide_frame_of_many_columns_names_set_design_items():
    wide = pd.DataFrame(np.random.default_rng(0).random((3, 150)), index=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"150 columns.*set_design\(items=True\)"):
        wide.cmp.corrected_ttest()


def test_cv_keywords_are_refused_on_items():
    with pytest.raises(ValueError, match=r"`cv` describes cross-validation splits"):
        ten_items().cmp.ttest(cv=10)


def test_pairwise_defaults_to_the_clustered_ttest():
    out = twelve_items().cmp.pairwise()
    assert out.attrs["pdcompare"]["test"] == "ttest"
    assert_allclose(out["se"], [0.25])
    perm = twelve_items().cmp.pairwise("permutation_test")
    assert_allclose(perm["mean_diff"], [5 / 12])


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), n_clusters=st.integers(2, 6), per=st.integers(1, 4))
def test_frame_level_invariances(seed, n_clusters, per):
    rng = np.random.default_rng(seed)
    n = n_clusters * per
    wide = pd.DataFrame(rng.normal(0, 1, (3, n)), index=["a", "b", "c"])
    clusters = {k: f"c{k // per}" for k in range(n)}
    base = wide.cmp.set_design(items=True, cluster=clusters).cmp.ttest("a", "b")
    # Relabelled clusters, items in another order, the two models swapped.
    names = {f"c{c}": f"z{(c * 7 + 3) % n_clusters}-{c}" for c in range(n_clusters)}
    renamed = {k: names[v] for k, v in clusters.items()}
    relabelled = wide.cmp.set_design(items=True, cluster=renamed)
    order = rng.permutation(n)
    moved = wide.iloc[:, order].cmp.set_design(items=True, cluster=clusters)
    for other in (relabelled.cmp.ttest("a", "b"), moved.cmp.ttest("a", "b")):
        assert_allclose(other["se"], base["se"], rtol=1e-9, atol=1e-12)
        assert_allclose(other["pvalue"], base["pvalue"], rtol=1e-9, atol=1e-12)
    swapped = wide.cmp.set_design(items=True, cluster=clusters).cmp.ttest("b", "a")
    assert_allclose(swapped["mean_diff"], -base["mean_diff"], atol=1e-12)
    assert_allclose(swapped["pvalue"], base["pvalue"], rtol=1e-9, atol=1e-12)


def test_identical_models_warn_in_items_words():
    frame = pd.DataFrame([[1, 0, 1], [1, 0, 1]], index=["a", "b"]).cmp.set_design(items=True)
    with pytest.warns(pdcompare.PdcompareWarning, match="identical scores on every item"):
        out = frame.cmp.ttest()
    assert out["pvalue"].iloc[0] == 1.0


def test_items_ttest_with_a_margin_is_the_shifted_clustered_test():
    # Non-inferiority on items (DESIGN 27): t = (d + margin) / se_CR1 on C - 1 df, upper tail.
    from scipy import stats

    rng = np.random.default_rng(11)
    wide = pd.DataFrame((rng.random((2, 60)) < [[0.7], [0.72]]).astype(float), index=["a", "b"])
    framed = wide.cmp.set_design(items=True, cluster={k: k // 4 for k in range(60)})
    plain = framed.cmp.ttest("a", "b", alternative="better")
    gated = framed.cmp.ttest("a", "b", alternative="better", margin=0.05)
    d, se, df = plain.loc[0, "mean_diff"], plain.loc[0, "se"], plain.loc[0, "df"]
    assert df == 14
    assert gated.loc[0, "statistic"] == pytest.approx((d + 0.05) / se, rel=1e-12)
    assert gated.loc[0, "pvalue"] == pytest.approx(stats.t.sf((d + 0.05) / se, df), rel=1e-10)
    assert gated.loc[0, "margin"] == 0.05
    assert "margin" not in plain.columns
    with pytest.raises(ValueError, match=r"`margin=0\.05` is a non-inferiority margin"):
        framed.cmp.ttest("a", "b", margin=0.05)
    result = pdcompare.gate(framed, "b", "a", margin=0.1)
    assert result.loc[0, "test"] == "ttest"


def binary_items(n_models=4, n_items=60, seed=1):
    rng = np.random.default_rng(seed)
    right = rng.random((n_models, n_items)) < np.linspace(0.5, 0.8, n_models)[:, None]
    wide = pd.DataFrame(right.astype(int), index=[f"m{k}" for k in range(n_models)])
    return wide.cmp.set_design(items=True)


def test_cochrans_q_on_binary_items_equals_statsmodels_and_the_predictions_frame():
    from statsmodels.stats.contingency_tables import cochrans_q

    items = binary_items()
    out = items.cmp.cochrans_q().iloc[0]
    reference = cochrans_q(items.T.to_numpy())
    assert_allclose(out["statistic"], reference.statistic)
    assert_allclose(out["pvalue"], reference.pvalue)
    assert out["df"] == reference.df == 3
    # the predictions frame whose rows are the items: right = the truth, wrong = another label
    truth = np.arange(items.shape[1]) % 3
    preds = pd.DataFrame({"y": truth})
    for model, row in items.iterrows():
        preds[model] = np.where(row.to_numpy() == 1, truth, truth + 1)
    assert_allclose(pdcompare.cochrans_q(preds).iloc[0]["statistic"], out["statistic"])
    # a subset of models, as on a predictions frame
    two = pdcompare.cochrans_q(items, models=["m0", "m3"]).iloc[0]
    assert_allclose(two["statistic"], cochrans_q(items.loc[["m0", "m3"]].T.to_numpy()).statistic)
    with pytest.raises(ValueError, match=r"`models`: \['zz'\] are not models"):
        pdcompare.cochrans_q(items, models=["m0", "zz"])


def test_cochrans_q_refuses_graded_or_clustered_items():
    with pytest.raises(ValueError, match=r"`cochrans_q` counts items .*graded scores.*`ttest`"):
        pdcompare.from_items(eval_items_long(n_samples=3), sample="sample").cmp.cochrans_q()
    with pytest.raises(ValueError, match=r"`cochrans_q` .*4 clusters.*`permutation_test`"):
        twelve_items().cmp.cochrans_q()


@pytest.mark.parametrize("test", ["welch_ttest", "mannwhitney"])
def test_unpaired_tests_on_items_warn_that_the_items_are_paired(test):
    items = binary_items()
    with pytest.warns(pdcompare.PdcompareWarning, match=rf"`{test}` .*items are paired.*`ttest`"):
        out = getattr(items.cmp, test)("m0", "m3")
    # the test itself is unchanged: scipy's on the two rows
    scipy_test = stats.ttest_ind if test == "welch_ttest" else stats.mannwhitneyu
    keywords = {"equal_var": False} if test == "welch_ttest" else {}
    reference = scipy_test(items.loc["m0"], items.loc["m3"], **keywords)
    assert_allclose(out["pvalue"].iloc[0], reference.pvalue)


def test_ranks_with_cv_on_items_refused_like_summary():
    items = binary_items()
    for method in ("summary", "ranks"):
        with pytest.raises(
            ValueError, match=rf"`{method}` on an items frame: `cv` describes cross-validation"
        ):
            getattr(items.cmp, method)(cv=5)
