"""Runs frames (independent runs over seeds) and the unpaired tests welch_ttest, mannwhitney, aso.

References: scipy.stats (ttest_ind(equal_var=False), mannwhitneyu, t.interval),
statsmodels multipletests (Holm), scipy.stats.norm quantiles for the
Bonferroni-adjusted bound of aso (its formula written out below).
"""

from __future__ import annotations

import re
import time
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats
from statsmodels.stats.multitest import multipletests

import pdcompare
from pdcompare import PdcompareWarning

UNPAIRED = ["welch_ttest", "mannwhitney", "aso"]


def runs_frame(n_models=4, runs=10, seed=0, absent=True):
    """Models x seeds with different numbers of runs (NaN = absent run)."""
    rng = np.random.default_rng(seed)
    values = rng.normal(0.8, 0.02, size=(n_models, runs)) + np.linspace(0.02, 0, n_models)[:, None]
    if absent:
        for k in range(n_models):
            values[k, runs - k :] = np.nan  # model k has runs - k runs
    frame = pd.DataFrame(
        values,
        index=pd.Index([f"net_{k}" for k in range(n_models)], name="model"),
        columns=pd.Index(range(runs), name="seed"),
    )
    return frame.cmp.set_design(paired=False)


def present(frame, model):
    return frame.loc[model].dropna().to_numpy()


# --------------------------------------------------------------------------- the frame


def test_set_design_paired_false_is_stored_and_caller_unchanged():
    frame = runs_frame().cmp.set_design(paired=True)
    runs = frame.cmp.set_design(paired=False)
    assert runs.attrs["pdcompare"]["design"]["paired"] is False
    assert frame.attrs["pdcompare"]["design"]["paired"] is True
    # Later design keywords keep the flag.
    assert (
        runs.cmp.set_design(greater_is_better=False).attrs["pdcompare"]["design"]["paired"]
        is False
    )
    with pytest.raises(TypeError, match="`paired` must be True or False"):
        frame.cmp.set_design(paired="no")


def test_from_long_paired_false_builds_a_runs_frame():
    long = pd.DataFrame(
        {
            "arch": ["cnn", "cnn", "cnn", "mlp", "mlp"],
            "seed": [0, 1, 2, 2, 0],
            "acc": [0.91, 0.90, 0.93, 0.85, 0.86],
        }
    )
    runs = pdcompare.from_long(long, model="arch", split="seed", score="acc", paired=False)
    assert runs.index.tolist() == ["cnn", "mlp"]
    assert runs.columns.tolist() == [0, 1, 2]
    assert runs.columns.name == "seed"
    assert_allclose(runs.loc["mlp"].to_numpy(), [0.86, np.nan, 0.85])  # by key, not by order
    assert runs.attrs["pdcompare"]["design"]["paired"] is False
    assert runs.cmp.summary()["n_runs"].to_dict() == {"cnn": 3, "mlp": 2}


def test_from_long_paired_false_errors():
    long = pd.DataFrame({"model": ["a", "a"], "seed": [0, 0], "score": [0.1, 0.2]})
    with pytest.raises(ValueError, match=r"Each \(model, run\) must appear once"):
        pdcompare.from_long(long, split="seed", paired=False)
    with pytest.raises(ValueError, match="pass `split=`"):
        pdcompare.from_long(long, paired=False)
    # With a data-set column, the runs of every task (a runs-over-tasks frame, DESIGN 23).
    with pytest.raises(ValueError, match=r"Each \(model, task, run\) must appear once"):
        pdcompare.from_long(long.assign(dataset="iris"), split="seed", paired=False)
    with pytest.raises(ValueError, match="`score`: the table has no column 'auc'"):
        pdcompare.from_long(long, split="seed", score="auc", paired=False)


PAIRED_CALLS = [
    ("corrected_ttest", lambda f: f.cmp.corrected_ttest(cv=5)),
    ("ttest", lambda f: f.cmp.ttest()),
    ("wilcoxon", lambda f: f.cmp.wilcoxon()),
    ("sign_test", lambda f: f.cmp.sign_test()),
    ("bayes", lambda f: f.cmp.bayes(cv=5)),
    ("posterior", lambda f: f.cmp.posterior("net_0", "net_1", cv=5)),
    ("ttest_5x2cv", lambda f: f.cmp.ttest_5x2cv()),
    ("ftest_5x2cv", lambda f: f.cmp.ftest_5x2cv()),
    ("ttest", lambda f: f.cmp.pairwise(test="ttest")),
    ("select(rule='one_se')", lambda f: f.cmp.select(by=list(f.index), cv=5)),
]


@pytest.mark.parametrize(("name", "call"), PAIRED_CALLS, ids=[p[0] for p in PAIRED_CALLS])
def test_paired_tests_refuse_a_runs_frame_naming_the_unpaired_ones(name, call):
    with pytest.raises(
        ValueError,
        match=rf"`{re.escape(name)}` is a paired test.*runs frame.*"
        r"`welch_ttest`, `mannwhitney`, `aso`",
    ):
        call(runs_frame(runs=10))


def test_summary_counts_runs_with_the_plain_t_interval_and_no_warning():
    runs = runs_frame()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = runs.cmp.summary(ci=0.9, cv=5)  # a CV design does not make runs overlap
    assert table.columns.tolist() == ["mean", "std", "n_runs", "rank", "ci_low", "ci_high"]
    for model, row in table.iterrows():
        x = present(runs, model)
        low, high = stats.t.interval(0.9, len(x) - 1, x.mean(), stats.sem(x))
        assert row["n_runs"] == len(x)
        assert_allclose(
            [row["mean"], row["std"], row["ci_low"], row["ci_high"]],
            [x.mean(), x.std(ddof=1), low, high],
            rtol=1e-12,
        )
    assert table.attrs["pdcompare"]["interval"] == "t"
    assert table.attrs["pdcompare"]["unit"] == "run"
    assert (np.diff(table["mean"].to_numpy()) <= 0).all()  # best first


# ------------------------------------------------------------------------ Welch and Mann–Whitney


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_welch_ttest_all_pairs_equal_scipy_and_holm(alternative):
    runs = runs_frame(n_models=5, runs=9, seed=3)
    res = runs.cmp.pairwise(test="welch_ttest", alternative=alternative, alpha=0.1)
    assert res.columns.tolist() == [
        "model_1",
        "model_2",
        "mean_diff",
        "statistic",
        "df",
        "pvalue",
        "pvalue_adj",
        "reject",
        "ci_low",
        "ci_high",
    ]
    for row in res.itertuples():
        x, y = present(runs, row.model_1), present(runs, row.model_2)
        ref = stats.ttest_ind(x, y, equal_var=False, alternative=alternative)
        ci = ref.confidence_interval(0.9)
        assert_allclose(
            [row.mean_diff, row.statistic, row.df, row.pvalue, row.ci_low, row.ci_high],
            [x.mean() - y.mean(), ref.statistic, ref.df, ref.pvalue, ci.low, ci.high],
            rtol=1e-10,
        )
    assert_allclose(res["pvalue_adj"], multipletests(res["pvalue"], method="holm")[1])
    assert res.attrs["pdcompare"]["unit"] == "run"


def test_pairwise_default_on_a_runs_frame_is_welch():
    runs = runs_frame()
    assert runs.cmp.pairwise().attrs["pdcompare"]["test"] == "welch_ttest"


@pytest.mark.parametrize("runs_count", [6, 12])
def test_mannwhitney_equals_scipy_and_better_follows_losses(runs_count):
    runs = runs_frame(n_models=3, runs=runs_count, seed=7)
    res = runs.cmp.mannwhitney()
    assert res.columns.tolist() == [
        "model_1",
        "model_2",
        "mean_diff",
        "statistic",
        "pvalue",
        "pvalue_adj",
        "reject",
    ]
    for row in res.itertuples():
        ref = stats.mannwhitneyu(present(runs, row.model_1), present(runs, row.model_2))
        assert_allclose([row.statistic, row.pvalue], [ref.statistic, ref.pvalue], rtol=1e-12)
    losses = (1 - runs).cmp.set_design(greater_is_better=False, paired=False)
    better = losses.cmp.mannwhitney("net_0", "net_2", alternative="better")
    ref = stats.mannwhitneyu(
        present(losses, "net_0"), present(losses, "net_2"), alternative="less"
    )
    assert_allclose(better["pvalue"], ref.pvalue)


def test_unpaired_tests_ignore_the_split_order_on_scores_frames():
    rng = np.random.default_rng(0)
    scores = pd.DataFrame(rng.normal(0.8, 0.03, (3, 10)), index=["a", "b", "c"])
    shuffled = scores.copy()
    shuffled.loc["b"] = rng.permutation(scores.loc["b"].to_numpy())
    for test in ("welch_ttest", "mannwhitney"):
        first = getattr(scores.cmp, test)("a", "b")
        assert_allclose(first["pvalue"], getattr(shuffled.cmp, test)("a", "b")["pvalue"])
    one = scores.cmp.aso("a", "b", random_state=1)
    two = shuffled.cmp.aso("a", "b", random_state=1)
    assert_allclose(one["violation_ratio"], two["violation_ratio"])


def test_unpaired_tests_across_data_sets_use_the_per_data_set_means():
    rng = np.random.default_rng(1)
    columns = pd.MultiIndex.from_product(
        [[f"d{k}" for k in range(6)], range(3)], names=["dataset", "split"]
    )
    bench = pd.DataFrame(rng.normal(0.8, 0.05, (3, 18)), index=["a", "b", "c"], columns=columns)
    means = bench.cmp.means()
    res = bench.cmp.welch_ttest("a", "b")
    ref = stats.ttest_ind(means.loc["a"], means.loc["b"], equal_var=False)
    assert_allclose([res["statistic"][0], res["pvalue"][0]], [ref.statistic, ref.pvalue])
    assert res.attrs["pdcompare"]["unit"] == "dataset"
    mw = bench.cmp.mannwhitney("a", "c")
    assert_allclose(mw["pvalue"], stats.mannwhitneyu(means.loc["a"], means.loc["c"]).pvalue)


def test_too_few_runs_give_nan_with_a_warning():
    runs = runs_frame(n_models=3, runs=4)
    runs.loc["net_2"] = [0.8, np.nan, np.nan, np.nan]
    with pytest.warns(PdcompareWarning, match=r"at least 2 runs.*\['net_2'\]"):
        res = runs.cmp.welch_ttest()
    assert res.set_index("model_2").loc["net_2", ["statistic", "pvalue"]].isna().all()
    assert not res.set_index("model_2").loc["net_1", ["pvalue"]].isna().any()


# --------------------------------------------------------------------------- ASO


def test_aso_columns_scope_and_bonferroni_level():
    runs = runs_frame(n_models=4, runs=12, seed=2)
    res = runs.cmp.aso(random_state=0)
    assert res.columns.tolist() == [
        "model_1",
        "model_2",
        "mean_diff",
        "violation_ratio",
        "eps_min",
        "reject",
    ]
    meta = res.attrs["pdcompare"]
    assert meta["test"] == "aso"
    assert meta["scope"] == "best_vs_rest"
    assert_allclose(meta["confidence_adj"], 1 - 0.05 / 3)  # Bonferroni over the 3 rows
    assert res["reject"].tolist() == (res["eps_min"] < 0.2).tolist()
    single = runs.cmp.aso("net_0", "net_1", random_state=0)
    assert single.attrs["pdcompare"]["confidence_adj"] == 0.95  # one pair: not adjusted
    # With the same resamples the bound is eps + z sd: its excess scales with the quantile.
    every = runs.cmp.pairwise(test="aso", random_state=5)
    plain = runs.cmp.pairwise(test="aso", random_state=5, correction=None)
    assert every.attrs["pdcompare"]["correction"] == "bonferroni"
    assert plain.attrs["pdcompare"]["confidence_adj"] == 0.95
    assert_allclose(every["violation_ratio"], plain["violation_ratio"])
    inside = (every["eps_min"] < 1) & (plain["eps_min"] > 0)
    ratio = (every["eps_min"] - every["violation_ratio"]) / (
        plain["eps_min"] - plain["violation_ratio"]
    )
    assert_allclose(ratio[inside], stats.norm.ppf(1 - 0.05 / 6) / stats.norm.ppf(0.95))


def test_aso_is_direction_aware_and_seeded():
    runs = runs_frame(n_models=3, runs=15, seed=4)
    losses = (1 - runs).cmp.set_design(greater_is_better=False, paired=False)
    a = runs.cmp.aso(random_state=3)
    b = losses.cmp.aso(random_state=3)
    assert a["model_1"].tolist() == b["model_1"].tolist()
    assert_allclose(a["violation_ratio"], b["violation_ratio"])
    assert_allclose(a["eps_min"], b["eps_min"])
    assert_allclose(a["eps_min"], runs.cmp.aso(random_state=3)["eps_min"])
    # Reversed pair: eps(A, B) + eps(B, A) = 1.
    ab = runs.cmp.aso("net_0", "net_1", random_state=0)["violation_ratio"][0]
    ba = runs.cmp.aso("net_1", "net_0", random_state=0)["violation_ratio"][0]
    assert_allclose(ab + ba, 1.0)


def test_aso_clear_dominance_rejects():
    rng = np.random.default_rng(0)
    runs = pd.DataFrame(
        [rng.normal(0.9, 0.01, 10), rng.normal(0.7, 0.01, 10)], index=["big", "small"]
    ).cmp.set_design(paired=False)
    res = runs.cmp.aso(random_state=0)
    assert res["violation_ratio"][0] == 0.0
    assert res["reject"][0]


def test_aso_errors():
    runs = runs_frame()
    with pytest.raises(
        ValueError, match=r"`correction` of `aso`.*'bonferroni' or None; got 'holm'"
    ):
        runs.cmp.aso(correction="holm")
    with pytest.raises(ValueError, match="`tau` must be strictly between 0 and 1"):
        runs.cmp.aso(tau=0)
    with pytest.raises(ValueError, match="`n_bootstrap` must be an integer of at least 2"):
        runs.cmp.aso(n_bootstrap=1)


def test_aso_identical_models_warn_and_give_one_half():
    runs = runs_frame(n_models=2, runs=5, absent=False)
    runs.iloc[1] = runs.iloc[0].to_numpy()
    with pytest.warns(PdcompareWarning, match="equal quantile functions"):
        res = runs.cmp.aso(random_state=0)
    assert res["violation_ratio"][0] == 0.5


def test_functions_exported_and_accessor_methods():
    for name in UNPAIRED:
        assert name in pdcompare.__all__
        assert getattr(pd.DataFrame.cmp, name).__doc__.startswith(
            getattr(pdcompare, name).__doc__[:60]
        )


@pytest.mark.slow
def test_aso_all_pairs_of_100_models_in_seconds():
    runs = runs_frame(n_models=100, runs=20, absent=False)
    start = time.perf_counter()
    res = runs.cmp.pairwise(test="aso", random_state=0)
    assert len(res) == 4950
    assert time.perf_counter() - start < 30  # deepsig: about 2.5 s per pair


def test_nan_policy_of_the_unpaired_tests():
    runs = runs_frame(n_models=3, runs=6)  # net_1 and net_2 have absent runs
    omitted = runs.cmp.welch_ttest("net_0", "net_1")
    ref = stats.ttest_ind(present(runs, "net_0"), present(runs, "net_1"), equal_var=False)
    assert_allclose(omitted["pvalue"], ref.pvalue)
    with pytest.warns(
        PdcompareWarning, match=r"missing scores \(NaN\): the comparisons involving them are NaN"
    ):
        propagated = runs.cmp.mannwhitney(nan_policy="propagate")
    assert propagated["pvalue"].isna().all()
    with pytest.raises(ValueError, match=r"Model\(s\) \['net_1', 'net_2'\] have missing scores"):
        runs.cmp.pairwise(test="welch_ttest", nan_policy="raise")
    with pytest.raises(ValueError, match="`nan_policy` must be one of"):
        runs.cmp.welch_ttest(nan_policy="drop")


def _repeated_cv_scores(seed=0):
    rng = np.random.default_rng(seed)
    columns = pd.MultiIndex.from_product([range(10), range(10)], names=["repeat", "fold"])
    base = rng.normal(0.8, 0.02, 100)
    values = np.vstack([base + 0.01 + rng.normal(0, 0.01, 100), base + rng.normal(0, 0.01, 100)])
    return pd.DataFrame(values, index=["forest", "tree"], columns=columns)


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f.cmp.welch_ttest(cv=10),
        lambda f: f.cmp.mannwhitney(cv=10),
        lambda f: f.cmp.aso(cv=10, n_bootstrap=50, random_state=0),
        lambda f: f.cmp.pairwise("welch_ttest", cv=10),
        lambda f: f.cmp.pairwise("mannwhitney", cv=10),
        lambda f: f.cmp.pairwise("aso", cv=10, n_bootstrap=50, random_state=0),
    ],
)
def test_unpaired_tests_warn_once_on_overlapping_cv_splits(call):
    frame = _repeated_cv_scores()
    with pytest.warns(PdcompareWarning) as record:
        call(frame)
    texts = [str(w.message) for w in record if "overlap" in str(w.message)]
    assert len(texts) == 1
    assert re.search(r"repeat.*corrected_ttest.*set_design\(paired=False\)", texts[0])


def test_unpaired_tests_on_runs_or_one_kfold_do_not_warn_of_overlap():
    runs = _repeated_cv_scores().T.reset_index(drop=True).T.cmp.set_design(paired=False)
    one_kfold = _repeated_cv_scores().iloc[:, :10].droplevel(0, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runs.cmp.welch_ttest(cv=10)
        runs.cmp.aso(n_bootstrap=50, random_state=0)
        one_kfold.cmp.mannwhitney(cv=10)
        one_kfold.cmp.welch_ttest(cv=10)
        _repeated_cv_scores().cmp.corrected_ttest(cv=10)


def test_a_runs_frame_of_one_run_is_refused_in_words_of_runs():
    from frames import seed_runs

    runs = seed_runs(n_runs=1).cmp.set_design(paired=False)
    expected = r"runs frame has 1 run column.*2 independent runs"
    for call in (runs.cmp.summary, runs.cmp.welch_ttest):
        with pytest.raises(ValueError, match=expected) as info:
            call()
        assert "CV split" not in str(info.value)
        assert "df.T" not in str(info.value)
