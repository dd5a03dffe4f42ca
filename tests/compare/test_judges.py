"""Prediction-powered comparisons of labelled items frames (DESIGN section 31).

References: ppi_py's ``ppi_mean_ci`` (values stored by scripts/ppi_py_references.py),
the plain items ``ttest`` on the labelled items, and the PPI / PPI++ formulas written
out below one pair at a time (Angelopoulos et al., Science 2023; Angelopoulos, Duchi
& Zrnic, PPI++, arXiv 2311.01453): θ̂ = λ·mean(d̂_u) + mean(d − λ d̂),
Var = λ² Var(d̂_u)/N + Var(d − λ d̂)/n, λ̂ = Cov(d, d̂)/((1 + n/N) Var(d̂_u)) in [0, 1].
"""

import json
import pathlib

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import pdcompare
from pdcompare.stats.ppi import ppi_contrasts, rogan_gladen

DATA = pathlib.Path(__file__).parents[1] / "data" / "ppi_py_references.json"


def _difference_data(seed, n, big_n):
    """As scripts/ppi_py_references.py: two models' human and judge scores."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(size=(2, n + big_n)) + np.array([[0.3], [0.0]])
    judge = 0.8 * truth + 0.5 * rng.normal(size=truth.shape) + 0.1
    return truth[:, :n], judge[:, :n], judge[:, n:]


def _frame(judge, human_labelled, cluster=None, **design):
    """A labelled items frame: judge scores on every item, human labels on the first n."""
    m, n_all = judge.shape
    names = [f"m{k}" for k in range(m)]
    columns = [f"q{k:05d}" for k in range(n_all)]
    wide = pd.DataFrame(judge, index=names, columns=columns)
    n = human_labelled.shape[1]
    human = pd.DataFrame(human_labelled, index=names, columns=columns[:n])
    clusters = None if cluster is None else dict(zip(columns, cluster, strict=True))
    return wide.cmp.set_design(items=True, human=human, cluster=clusters, **design)


def _simulated(m=4, n=200, big_n=600, rho=0.8, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.normal(size=(m, n + big_n)) * 0.5 + np.arange(m)[:, None] * 0.05
    judge = rho * truth + np.sqrt(1 - rho**2) * 0.5 * rng.normal(size=truth.shape) + 0.1
    return truth[:, :n], judge


@pytest.mark.parametrize("case", json.loads(DATA.read_text())["cases"])
def test_lambda_one_equals_ppi_py(case):
    human, judge_l, judge_u = _difference_data(case["seed"], case["n"], case["N"])
    framed = _frame(np.hstack([judge_l, judge_u]), human)
    result = framed.cmp.ttest("m0", "m1", estimator="ppi")
    assert result["mean_diff"].iloc[0] == pytest.approx(case["estimate"], abs=1e-10)
    assert result["lam"].iloc[0] == 1.0
    out = ppi_contrasts(human, judge_l, judge_u, [0], [1], lam=1.0)
    n, big_n = case["n"], case["N"]
    # ppi_py's standard deviations have ddof 0 and its interval a normal quantile
    se = np.sqrt(out["var_imputed"] * (big_n - 1) / big_n + out["var_rectifier"] * (n - 1) / n)
    z = stats.norm.ppf(1 - case["alpha"] / 2)
    assert out["estimate"][0] - z * se[0] == pytest.approx(case["ci_low"], abs=1e-10)
    assert out["estimate"][0] + z * se[0] == pytest.approx(case["ci_high"], abs=1e-10)
    assert result["se"].iloc[0] ** 2 == pytest.approx(
        out["var_imputed"][0] + out["var_rectifier"][0], rel=1e-12
    )


@pytest.mark.parametrize("clustered", [False, True])
def test_lambda_zero_equals_ttest_on_the_labelled_items(clustered):
    human, judge = _simulated()
    cluster = np.arange(judge.shape[1]) // 5 if clustered else None
    framed = _frame(judge, human, cluster)
    result = framed.cmp.ttest(estimator="labels", a="m0", correction=None)
    result = result.sort_values("model_2", ignore_index=True)
    n = human.shape[1]
    labels_only = pd.DataFrame(human, index=framed.index, columns=framed.columns[:n])
    clusters = (
        None if cluster is None else dict(zip(labels_only.columns, cluster[:n], strict=True))
    )
    expected = labels_only.cmp.set_design(items=True, cluster=clusters).cmp.ttest(
        a="m0", correction=None
    )
    expected = expected.sort_values("model_2", ignore_index=True)
    for column in ("mean_diff", "se", "statistic", "df", "pvalue", "ci_low", "ci_high"):
        np.testing.assert_allclose(result[column], expected[column], rtol=0, atol=1e-12)
    assert (result["lam"] == 0).all()
    np.testing.assert_allclose(result["width_ratio"], 1.0, atol=1e-12)


def test_lambda_hat_and_the_estimate_against_the_written_out_formula():
    human, judge = _simulated()
    framed = _frame(judge, human)
    result = framed.cmp.ttest(a="m0", correction=None)
    n = human.shape[1]
    big_n = judge.shape[1] - n
    for row in result.itertuples():
        a, b = int(row.model_1[1:]), int(row.model_2[1:])
        d, dh, du = human[a] - human[b], judge[a, :n] - judge[b, :n], judge[a, n:] - judge[b, n:]
        cov = np.cov(d, dh, ddof=1)[0, 1]
        lam = np.clip(cov / ((1 + n / big_n) * du.var(ddof=1)), 0, 1)
        theta = lam * du.mean() + (d - lam * dh).mean()
        var = lam**2 * du.var(ddof=1) / big_n + (d - lam * dh).var(ddof=1) / n
        assert row.lam == pytest.approx(lam, abs=1e-12)
        assert row.mean_diff == pytest.approx(theta, abs=1e-12)
        assert row.se == pytest.approx(np.sqrt(var), abs=1e-12)
        assert row.effective_n == pytest.approx(n * d.var(ddof=1) / n / var, rel=1e-10)
        assert row.n_labelled == n
        assert row.n_unlabelled == big_n


def test_stratified_estimator_against_the_written_out_reference():
    human, judge = _simulated(m=3, n=240, big_n=900, seed=3)
    n_all = judge.shape[1]
    strata = np.where(np.arange(n_all) % 3 == 0, "hard", "easy")
    columns = [f"q{k:05d}" for k in range(n_all)]
    framed = _frame(
        judge, human, label_design="stratified", strata=dict(zip(columns, strata, strict=True))
    )
    result = framed.cmp.ttest("m0", "m2")
    labelled = np.arange(n_all) < human.shape[1]
    d_all = np.full(n_all, np.nan)
    d_all[labelled] = human[0] - human[2]
    dh_all = judge[0] - judge[2]
    terms = []
    for s in ("easy", "hard"):
        in_s = strata == s
        w = in_s.mean()
        d, dh = d_all[in_s & labelled], dh_all[in_s & labelled]
        du = dh_all[in_s & ~labelled]
        terms.append((w, d, dh, du))
    num = sum(w**2 * np.cov(d, dh)[0, 1] / len(d) for w, d, dh, du in terms)
    den = sum(w**2 * du.var(ddof=1) * (1 / len(du) + 1 / len(d)) for w, d, dh, du in terms)
    lam = np.clip(num / den, 0, 1)
    theta = sum(w * (lam * du.mean() + (d - lam * dh).mean()) for w, d, dh, du in terms)
    var = sum(
        w**2 * (lam**2 * du.var(ddof=1) / len(du) + (d - lam * dh).var(ddof=1) / len(d))
        for w, d, dh, du in terms
    )
    assert result["lam"].iloc[0] == pytest.approx(lam, abs=1e-12)
    assert result["mean_diff"].iloc[0] == pytest.approx(theta, abs=1e-12)
    assert result["se"].iloc[0] == pytest.approx(np.sqrt(var), abs=1e-12)


def test_clustered_estimator_against_the_written_out_reference():
    human, judge = _simulated(m=3, n=200, big_n=600, seed=5)
    n_all, n = judge.shape[1], human.shape[1]
    cluster = np.arange(n_all) % 40  # every cluster has labelled and unlabelled items
    result = _frame(judge, human, cluster).cmp.ttest("m1", "m0")
    d, dh, du = human[1] - human[0], judge[1, :n] - judge[0, :n], judge[1, n:] - judge[0, n:]
    big_n = n_all - n
    # each item's influence, summed per cluster (loops, one cluster at a time)
    a_c = np.array([((d - d.mean()) / n)[cluster[:n] == c].sum() for c in range(40)])
    g_c = np.array(
        [
            ((dh - dh.mean()) / n)[cluster[:n] == c].sum()
            - ((du - du.mean()) / big_n)[cluster[n:] == c].sum()
            for c in range(40)
        ]
    )
    lam = np.clip((a_c * g_c).sum() / (g_c * g_c).sum(), 0, 1)
    theta = d.mean() + lam * (du.mean() - dh.mean())
    var = 40 / 39 * ((a_c - lam * g_c) ** 2).sum()
    assert result["lam"].iloc[0] == pytest.approx(lam, abs=1e-12)
    assert result["mean_diff"].iloc[0] == pytest.approx(theta, abs=1e-12)
    assert result["se"].iloc[0] == pytest.approx(np.sqrt(var), abs=1e-12)
    assert result["df"].iloc[0] == 39


def _class_balanced_counts():
    """DESIGN 31: human fail 40 (judge 30 fail, 10 pass); pass 80 (judge 2 fail, 78 pass)."""
    human = np.array([0] * 40 + [1] * 80, dtype=float)
    judge_l = np.array([0] * 30 + [1] * 10 + [0] * 2 + [1] * 78, dtype=float)
    judge_u = np.array([1] * 320 + [0] * 80, dtype=float)
    return human, judge_l, judge_u


def test_rogan_gladen_reference_and_ppi_refused_on_class_balanced_labels():
    human, judge_l, judge_u = _class_balanced_counts()
    assert rogan_gladen(human[None], judge_l[None], judge_u[None])[0] == pytest.approx(
        (0.8 + 30 / 40 - 1) / (78 / 80 + 30 / 40 - 1), abs=1e-12
    )
    assert round(float(rogan_gladen(human[None], judge_l[None], judge_u[None])[0]), 4) == 0.7586
    rng = np.random.default_rng(0)
    other = rng.integers(0, 2, size=(2, 520)).astype(float)
    judge = np.vstack([np.concatenate([judge_l, judge_u]), other[0]])
    labels = np.vstack([human, other[1, :120]])
    framed = _frame(judge, labels, label_design="class_balanced")
    summary = framed.cmp.summary()
    assert summary.loc["m0", "mean"] == pytest.approx(0.55 / 0.725, abs=1e-12)
    assert summary.attrs["pdcompare"]["estimator"] == "rogan_gladen"
    assert summary.loc["m0", "ci_low"] < 0.7586 < summary.loc["m0", "ci_high"]
    with pytest.raises(ValueError, match="Rogan–Gladen correction, `estimator='rogan_gladen'`"):
        framed.cmp.ttest(estimator="ppi++")


def test_estimator_without_labels_is_refused_naming_human_and_judge_says_uncorrected():
    human, judge = _simulated()
    plain = pd.DataFrame(judge).cmp.set_design(items=True)
    with pytest.raises(ValueError, match=r"from_items\(\.\.\., human=\)"):
        plain.cmp.ttest(estimator="ppi++")
    with pytest.raises(ValueError, match="`estimator` must be one of"):
        _frame(judge, human).cmp.ttest(estimator="ppi+")
    judged = _frame(judge, human).cmp.ttest(estimator="judge", a="m0")
    assert judged.attrs["pdcompare"]["estimator_words"] == "judge only, uncorrected"
    expected = pd.DataFrame(judge, index=[f"m{k}" for k in range(4)]).cmp.set_design(items=True)
    np.testing.assert_allclose(judged["se"], expected.cmp.ttest(a="m0")["se"], atol=1e-12)


def test_coverage_when_a_third_of_the_items_are_labelled():
    rng = np.random.default_rng(11)
    reps, n, big_n = 1000, 100, 200
    covered = 0
    for _ in range(reps):
        truth = rng.normal(size=(2, n + big_n))
        judge = 0.7 * truth + 0.5 * rng.normal(size=truth.shape) + np.array([[0.3], [0.0]])
        out = ppi_contrasts(truth[:, :n], judge[:, :n], judge[:, n:], [0], [1])
        half = stats.t.ppf(0.975, n - 1) * out["se"][0]
        covered += abs(out["estimate"][0]) <= half  # the true difference is 0
    assert covered / reps >= 0.93


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(5, 60), big_n=st.integers(2, 200))
def test_pairs_are_antisymmetric_and_lambda_within_zero_and_one(seed, n, big_n):
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(3, n))
    judge_l = human + rng.normal(size=(3, n))
    judge_u = rng.normal(size=(3, big_n))
    i, j = np.array([0, 1, 2]), np.array([1, 2, 0])
    forward = ppi_contrasts(human, judge_l, judge_u, i, j)
    backward = ppi_contrasts(human, judge_l, judge_u, j, i)
    np.testing.assert_allclose(forward["estimate"], -backward["estimate"], atol=1e-12)
    np.testing.assert_allclose(forward["se"], backward["se"], atol=1e-12)
    assert ((forward["lam"] >= 0) & (forward["lam"] <= 1)).all()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), rho=st.floats(0.0, 0.95))
def test_ppi_plus_plus_is_no_wider_than_labels_in_large_samples(seed, rho):
    rng = np.random.default_rng(seed)
    truth = rng.normal(size=(3, 3000))
    judge = rho * truth + np.sqrt(1 - rho**2) * rng.normal(size=truth.shape)
    out = ppi_contrasts(truth[:, :1000], judge[:, :1000], judge[:, 1000:], [0, 1], [1, 2])
    assert (out["se"] <= out["se_labels"] * 1.01).all()


def test_summary_of_each_model_against_the_written_out_formula():
    human, judge = _simulated(m=3, seed=7)
    n, big_n = human.shape[1], judge.shape[1] - human.shape[1]
    summary = _frame(judge, human).cmp.summary()
    for name, row in summary.iterrows():
        a = int(name[1:])
        y, h, u = human[a], judge[a, :n], judge[a, n:]
        lam = np.clip(np.cov(y, h)[0, 1] / ((1 + n / big_n) * u.var(ddof=1)), 0, 1)
        theta = lam * u.mean() + (y - lam * h).mean()
        var = lam**2 * u.var(ddof=1) / big_n + (y - lam * h).var(ddof=1) / n
        assert row["mean"] == pytest.approx(theta, abs=1e-12)
        assert row["se"] == pytest.approx(np.sqrt(var), abs=1e-12)
        half = stats.t.ppf(0.975, n - 1) * np.sqrt(var)
        assert row["ci_high"] == pytest.approx(theta + half, abs=1e-12)
    assert list(summary.index) == list(summary.sort_values("mean", ascending=False).index)


def test_ranks_top_set_power_gate_and_report_read_the_estimator():
    human, judge = _simulated(m=3, n=200, big_n=3000, seed=9)
    framed = _frame(judge, human)
    n, big_n = 200, 3000
    # ranks: one λ for all models, their means the PPI estimates at that λ
    ranks = framed.cmp.ranks(estimator="ppi")
    assert ranks["estimate"].sort_index().to_numpy() == pytest.approx(
        judge[:, n:].mean(axis=1) + (human - judge[:, :n]).mean(axis=1), abs=1e-12
    )
    assert framed.cmp.top_set(estimator="ppi") == framed.cmp.top_set(estimator="ppi")
    # power: the labels a target needs, from λ² Var(d̂_u)/N + Var(d − λ d̂)/n′
    power = framed.cmp.power("m2", "m0", delta=0.05, estimator="ppi")
    d, dh, du = human[2] - human[0], judge[2, :n] - judge[0, :n], judge[2, n:] - judge[0, n:]
    wanted = (0.05 / (stats.norm.ppf(0.975) + stats.norm.ppf(0.8))) ** 2
    needed = np.ceil((d - dh).var(ddof=1) / (wanted - du.var(ddof=1) / big_n))
    assert power["n_labels_needed"].iloc[0] == needed
    # gate: the ttest of the same estimator, with its margin
    gate = framed.cmp.gate("m2", "m0", margin=0.05, estimator="labels")
    test = framed.cmp.ttest("m2", "m0", estimator="labels")
    assert gate["mean_diff"].iloc[0] == pytest.approx(test["mean_diff"].iloc[0], abs=1e-12)
    assert gate.attrs["pdcompare"]["estimator"] == "labels"
    report = framed.cmp.report()
    effective = framed.cmp.summary().attrs["pdcompare"]["effective_n"]
    assert f"corrected with 200 human labels: as informative as {effective} labels alone" in report
    assert "judge only, uncorrected" in framed.cmp.report(estimator="judge")


def test_best_is_chosen_by_the_corrected_means_and_other_frames_refuse_estimator():
    human, judge = _simulated(m=3, seed=2)
    judge = judge.copy()
    judge[0] += 0.5  # the judge favours m0 far beyond the others; the labels do not
    framed = _frame(judge, human)
    corrected = framed.cmp.summary().index[0]
    assert framed.cmp.ttest()["model_1"].iloc[0] == corrected
    assert framed.cmp.ttest(estimator="judge")["model_1"].iloc[0] == "m0"
    scores = pd.DataFrame([[0.8, 0.9, 0.7], [0.7, 0.6, 0.65]], index=["a", "b"])
    with pytest.raises(ValueError, match=r"scores frame .*from_items\(\.\.\., human=\)"):
        scores.cmp.ttest(estimator="ppi++")
    with pytest.raises(ValueError, match="`wilcoxon` does not take `estimator=`"):
        framed.cmp.wilcoxon(estimator="ppi")


def test_a_test_that_does_not_correct_the_judge_says_it_reads_the_judge_alone():
    human, judge = _simulated(m=3, seed=4)
    framed = _frame(judge, human)
    plain = pd.DataFrame(framed.to_numpy(), index=framed.index, columns=framed.columns)
    plain = plain.cmp.set_design(items=True)
    for test in ("wilcoxon", "sign_test", "equivalence", "bootstrap_diff"):
        options = {"rope": 0.05} if test == "equivalence" else {}
        options |= {"random_state": 0} if test == "bootstrap_diff" else {}
        with pytest.warns(pdcompare.PdcompareWarning, match=f"`{test}` on a labelled items "
                          "frame compares the judge's scores alone, uncorrected"):
            mine = getattr(framed.cmp, test)(**options)
        # the judge's scores alone: the same numbers as the unlabelled frame of them
        reference = getattr(plain.cmp, test)(**options)
        pd.testing.assert_frame_equal(mine.reset_index(drop=True),
                                      reference.reset_index(drop=True), check_like=True)


def test_tasks_set_on_a_labelled_frame_are_refused_rather_than_drop_the_labels():
    human, judge = _simulated(m=2, n=20, big_n=40, seed=5)
    framed = _frame(judge, human)
    tasks = {item: "t1" if k % 2 else "t2" for k, item in enumerate(framed.columns)}
    with pytest.raises(ValueError, match="would no longer match them: pass `human=` again"):
        framed.cmp.set_design(items=True, task=tasks)


def test_an_arrow_table_with_labels_is_refused_naming_the_conversion():
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"model": ["a", "b"] * 2, "item": ["q1", "q1", "q2", "q2"],
                      "score": [1, 0, 1, 1], "human": [1.0, 0.0, None, None]})  # fmt: skip
    with pytest.raises(TypeError, match=r"`human=` reads a pandas or dask table.*to_pandas"):
        pdcompare.from_items(table, human="human")


def test_results_of_a_labelled_frame_survive_a_save(tmp_path):
    human, judge = _simulated(m=3, seed=4)
    framed = _frame(judge, human)
    for result in (framed.cmp.ttest(), framed.cmp.summary()):
        path = tmp_path / "result.parquet"
        result.to_parquet(path)
        back = pd.read_parquet(path)
        assert back.attrs["pdcompare"]["estimator"] == "ppi++"
        assert back.attrs["pdcompare"]["effective_n"] == result.attrs["pdcompare"]["effective_n"]
        assert back.attrs["pdcompare"]["estimator_words"].endswith("with 200 human labels")


def test_rogan_gladen_pair_against_a_written_out_bootstrap():
    rng = np.random.default_rng(8)
    n_half, n_u = 60, 400
    human = np.r_[np.ones(n_half), np.zeros(n_half)]
    judge_l = np.vstack([np.where(human == 1, rng.random(120) < p, rng.random(120) > q)
                         for p, q in ((0.95, 0.75), (0.9, 0.8))]).astype(float)  # fmt: skip
    judge_u = (rng.random((2, n_u)) < np.array([[0.75], [0.6]])).astype(float)
    framed = _frame(np.hstack([judge_l, judge_u]), np.vstack([human, human]),
                    label_design="class_balanced")  # fmt: skip
    pair = framed.cmp.ttest("m0", "m1")

    def theta(h, jl, ju):
        tpr = (h * jl).sum() / h.sum()
        tnr = ((1 - h) * (1 - jl)).sum() / (1 - h).sum()
        return (ju.mean() + tnr - 1) / (tpr + tnr - 1)

    estimate = theta(human, judge_l[0], judge_u[0]) - theta(human, judge_l[1], judge_u[1])
    assert pair["mean_diff"].iloc[0] == pytest.approx(estimate, abs=1e-12)
    draws = []
    for _ in range(1000):  # labelled and unlabelled items resampled apart, both models alike
        a, b = rng.integers(0, 120, 120), rng.integers(0, n_u, n_u)
        draws.append(
            theta(human[a], judge_l[0, a], judge_u[0, b])
            - theta(human[a], judge_l[1, a], judge_u[1, b])
        )
    assert pair["se"].iloc[0] == pytest.approx(np.std(draws, ddof=1), rel=0.1)
    assert np.isinf(pair["df"].iloc[0])
