"""benchmarks/validity.py: learners against scikit-learn, --quick tables, across data sets."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "validity.py"


@pytest.fixture(scope="module")
def validity():
    spec = importlib.util.spec_from_file_location("validity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lda_matches_sklearn(validity):
    # The batched closed-form LDA against scikit-learn's LinearDiscriminantAnalysis
    # (solver "svd", priors from the class frequencies), split by split.
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    rng = np.random.default_rng(3)
    data = validity.make_data("linear", rng)
    x1, _ = validity.views(data, "linear", 1.0)
    y = data["y"]
    folds = validity.stratified_folds(y, 5, 2, rng)
    acc = validity.cv_accuracy("LDA", x1, y, folds)
    for r in range(2):
        for f in range(5):
            train, test = folds[r] != f, folds[r] == f
            model = LinearDiscriminantAnalysis().fit(x1[train], y[train])
            assert_allclose(acc[r, f], model.score(x1[test], y[test]))


def test_nearest_neighbour_matches_sklearn(validity):
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(4)
    data = validity.make_data("ring", rng)
    _, x2 = validity.views(data, "ring", 0.5)
    y = data["y"]
    folds = validity.stratified_folds(y, 10, 1, rng)
    acc = validity.cv_accuracy("1-NN", x2, y, folds)
    for f in range(10):
        train, test = folds[0] != f, folds[0] == f
        model = KNeighborsClassifier(n_neighbors=1).fit(x2[train], y[train])
        assert_allclose(acc[0, f], model.score(x2[test], y[test]))
    (pred,) = validity.fit_predict("1-NN", x2[:100], y[:100], [x2[100:]])
    assert_allclose(
        pred, KNeighborsClassifier(n_neighbors=1).fit(x2[:100], y[:100]).predict(x2[100:])
    )


def test_folds_are_stratified_partitions(validity):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, validity.N)
    folds = validity.stratified_folds(y, 10, 3, rng)
    for row in folds:
        assert np.bincount(row).tolist() == [validity.N // 10] * 10
        per_class = np.array([np.bincount(row[y == c], minlength=10) for c in (0, 1)])
        assert per_class.max(axis=1).tolist() == [math.ceil((y == c).sum() / 10) for c in (0, 1)]


def test_fitted_classifiers_equal_is_an_exact_null(validity):
    # One LDA rule applied to each view: its true error on view 1 and view 2 is the
    # same Gaussian integral, P(w.x + b correct), computed in closed form here.
    rng = np.random.default_rng(6)
    data = validity.make_data("linear", rng)
    x1, x2 = validity.views(data, "linear", 1.0)
    y = data["y"]
    stacked = np.vstack([x1[:100], x2[:100]])
    coef, intercept = validity.lda_fit(stacked, np.tile(y[:100], 2), np.ones((1, 200)))
    w, b = coef[0], intercept[0]
    p = w.size
    shift = validity.POPULATIONS["linear"]["delta"] / math.sqrt(p) * np.ones(p)
    sd = math.sqrt(2.0) * np.linalg.norm(w)  # latent variance 1 + noise variance 1
    accuracy = 0.5 * stats.norm.cdf((w @ shift + b) / sd) + 0.5 * stats.norm.cdf(-b / sd)
    # The same number describes both views (they are exchangeable given y); check by
    # simulation that the rule's accuracy on fresh data is close to it on either view.
    big = np.random.default_rng(8)
    yb = big.integers(0, 2, 200_000)
    z = big.standard_normal((yb.size, p)) + shift * yb[:, None]
    for _ in range(2):
        view = z + big.standard_normal(z.shape)
        assert abs(((view @ w + b > 0) == yb).mean() - accuracy) < 0.004


@pytest.mark.slow
def test_quick_run_writes_the_table(validity, tmp_path, capsys):
    out = tmp_path / "validity.md"
    tables = validity.main(["--quick", "--part", "splits", "--jobs", "1", "--out", str(out)])
    table = tables["splits"]
    capsys.readouterr()
    markdown = out.read_text(encoding="utf-8")
    csv = pd.read_csv(out.with_suffix(".csv"))
    pd.testing.assert_frame_equal(csv, table, check_exact=False, rtol=1e-5)

    tests = csv[~csv["design"].isin(["accuracy", "spread"])]
    # Every (design, test) row of the table, under the null for both populations, and
    # under the alternative except the "classifiers equal" design.
    expected = {(d, t) for d, t, _ in validity.ROWS}
    for pop in validity.POPULATIONS:
        null = tests[(tests["population"] == pop) & (tests["scenario"] == validity.NULL)]
        assert set(zip(null["design"], null["test"], strict=True)) == expected
        alt = tests[(tests["population"] == pop) & (tests["scenario"] == validity.ALT)]
        assert set(alt["design"]) == {d for d, _ in expected} - {"hold-out, classifiers equal"}
    assert (tests["reps"] == 40).all()
    # Rates are proportions of 40 replications; their standard errors the binomial ones.
    assert_allclose(tests["rate"] * 40, np.round(tests["rate"] * 40), atol=1e-6)
    assert tests["rate"].between(0, 1).all()
    assert_allclose(tests["se"], np.sqrt(tests["rate"] * (1 - tests["rate"]) / 40), rtol=1e-5)
    # The Markdown table: header, alignment row, one line per design/test row.
    lines = markdown.splitlines()
    assert lines[0].startswith("| design | test | LDA: type-I error | LDA: power |")
    assert len([ln for ln in lines[2 : 2 + len(validity.ROWS)] if ln.startswith("| ")]) == len(
        validity.ROWS
    )
    assert "over 40 data sets per population" in markdown
    # Mean accuracies: the null has A and B alike, the alternative makes A better.
    acc = csv[csv["design"] == "accuracy"].set_index(["population", "scenario", "test"])["rate"]
    for pop in validity.POPULATIONS:
        assert 0.6 < acc[pop, validity.NULL, "A"] < 0.95
        assert abs(acc[pop, validity.NULL, "A"] - acc[pop, validity.NULL, "B"]) < 0.02
        assert acc[pop, validity.ALT, "A"] > acc[pop, validity.ALT, "B"]
    # The spread rows: a standard deviation and a root mean square, both positive.
    spread = csv[csv["design"] == "spread"]
    assert set(spread["test"]) == {"sd_mean_diff", "rms_corrected_se"}
    assert len(spread) == 2 * 2 * len(validity.POPULATIONS)
    assert (spread["rate"] > 0).all()
    assert (spread["se"] > 0).all()


def test_results_do_not_depend_on_the_number_of_chunks(validity):
    one = validity.run_study(6, seed=1, jobs=1)
    # Same seeds dealt into other chunks: run the replications one by one.
    seeds = np.random.SeedSequence([1, 0]).spawn(6)
    runs = validity.run_chunk("linear", seeds[::-1])[::-1]
    key = (validity.NULL, "10x10 CV", "corrected_ttest")
    rate = np.mean([run[key][0] for run in runs])
    got = one.query(
        "population == 'linear' and scenario == 'equal' and design == '10x10 CV' "
        "and test == 'corrected_ttest'"
    )["rate"].iloc[0]
    assert rate == got


# --- across data sets ---------------------------------------------------------------------


def test_benchmark_frame_is_the_stated_model(validity):
    # score = difficulty + sigma * (effect + e): M0 leads each other model by `effect`
    # noise SDs of that data set plus the difference of their noise.
    rng = np.random.default_rng(11)
    noise = validity.benchmark_noise(12, 4, rng)
    difficulty, sigma, e = noise
    frame = validity.benchmark_frame(noise, 1.0)
    assert frame.shape == (4, 12)
    assert frame.columns.name == "dataset"
    assert list(frame.index) == ["M0", "M1", "M2", "M3"]
    assert_allclose(frame.loc["M2"], difficulty + sigma * e[2])
    assert_allclose((frame.loc["M0"] - frame.loc["M1"]) / sigma, 1.0 + e[0] - e[1])
    # The complete null is the same benchmark without M0's effect.
    null = validity.benchmark_frame(noise, 0.0)
    assert_allclose(frame.loc["M0"] - null.loc["M0"], sigma)
    assert_allclose(frame.drop(index="M0"), null.drop(index="M0"))


def test_family_outcome_counts_by_hand(validity):
    # Three models; M0 beats M1 (right), M1 vs M2 rejected (a pair of equal models),
    # M0 vs M2 not rejected: some rejection, some equal pair rejected, 1 of 2 won.
    result = pd.DataFrame({"model_1": ["M0", "M0", "M1"], "model_2": ["M1", "M2", "M2"]})
    out = validity.family_outcome(result, [True, False, True], ["M0", "M0", "M1"])
    assert out == (True, True, 0.5)
    # A rejection that names the worse model is not power.
    out = validity.family_outcome(result, [True, True, False], ["M1", "M0", "M1"])
    assert out == (True, False, 0.5)
    assert validity.family_outcome(result, [False] * 3, ["M0"] * 3) == (False, False, 0.0)


@pytest.fixture(scope="module")
def datasets_run(validity):
    return validity.run_datasets_study(20, seed=5, jobs=1, ns=(8, 16), ks=(3, 5))


@pytest.mark.slow
def test_datasets_quick_run_shape_and_bounds(validity, datasets_run):
    table = datasets_run
    tests = [test for test, _ in validity.DATASET_TESTS]
    # Every test in every cell: 4 measures, 2 for Friedman's test (no partial null).
    per_cell = table.groupby(["n_datasets", "n_models"]).size()
    assert (per_cell == 4 * len(tests) - 2 * 2).all()
    assert len(per_cell) == 4
    assert set(table["test"]) == set(tests)
    friedman = table[table["test"].isin(validity.FRIEDMAN)]
    assert set(friedman["measure"]) == {"type-I error", "power"}
    assert (table["reps"] == 20).all()
    assert table["rate"].between(0, 1).all()
    # 0/1 outcomes: the binomial standard error; power (a share of pairs) is averaged.
    binary = table[table["measure"] != "power"]
    assert_allclose(binary["rate"] * 20, np.round(binary["rate"] * 20), atol=1e-9)
    assert_allclose(
        binary["se"],
        np.sqrt(binary["rate"] * (1 - binary["rate"]) * 20 / 19) / np.sqrt(20),
        atol=1e-12,
    )
    # Corrected tests keep the family-wise error near alpha (20 benchmarks: at most 4 of 20).
    rows = table.set_index(["test", "measure", "scenario", "n_datasets", "n_models"])["rate"]
    for test in ("wilcoxon", "sign_test", "ttest", "nemenyi", "permutation_test"):
        for n, k in ((8, 3), (16, 3), (8, 5), (16, 5)):
            assert rows[test, "type-I error", validity.COMPLETE_NULL, n, k] <= 0.2
    # One model better by a noise SD on 16 data sets: Friedman rejects most of the time.
    assert rows["friedman", "power", validity.ONE_BETTER, 16, 3] >= 0.5


def test_datasets_known_answer_unattainable_family(validity, datasets_run):
    # Exact answer: across 8 data sets, the smallest two-sided p-value of the sign test,
    # of the Wilcoxon test and of the exact sign-flip permutation test is 2 / 2**8; Holm
    # over the 10 pairs of 5 models multiplies it by 10: 0.078 > 0.05. These families can
    # never reject: type-I error, power and partial-null error are exactly 0.
    assert validity.ALPHA < 10 * 2 / 2**8
    table = datasets_run
    cell = table[(table["n_datasets"] == 8) & (table["n_models"] == 5)]
    for test in ("sign_test", "wilcoxon", "permutation_test"):
        rates = cell.loc[cell["test"] == test, "rate"]
        assert len(rates) == 4
        assert (rates == 0).all()
    # With 3 models the Holm factor is 3 (0.023 < 0.05): the sign test can and does reject.
    power = table.query("test == 'sign_test' and measure == 'power' and n_datasets == 8")
    assert power.set_index("n_models")["rate"][3] > 0


def test_datasets_markdown_tables(validity, datasets_run):
    markdown = validity.datasets_markdown(datasets_run, 5, 1.0)
    lines = markdown.splitlines()
    headers = [i for i, line in enumerate(lines) if line.startswith("| test |")]
    assert len(headers) == len(validity.MEASURES)
    for i in headers:
        assert lines[i] == "| test | k=3, N=8 | k=3, N=16 | k=5, N=8 | k=5, N=16 |"
        body = lines[i + 2 : i + 2 + len(validity.DATASET_TESTS)]
        assert all(line.count("|") == 6 for line in body)
    # Friedman has no partial-null row: a dash there, numbers in percent elsewhere.
    partial = lines[headers[2] + 2]
    assert partial == "| Friedman chi-square | – | – | – | – |"
    assert "20 benchmarks per (k, N)" in markdown


@pytest.mark.slow
def test_conover_on_a_partial_null_matches_scikit_posthocs(validity):
    # The configuration where Conover's test fails: M0 dominates, M1..M4 are equal. Its
    # p-values, raw and Holm-adjusted, are scikit-posthocs' posthoc_conover_friedman, so
    # the partial-null error rate the study measures is the method's, not pdcompare's.
    sp = pytest.importorskip("scikit_posthocs")
    seeds = np.random.SeedSequence(21).spawn(30)
    ours = theirs = 0
    for seed in seeds:
        noise = validity.benchmark_noise(20, 5, np.random.default_rng(seed))
        frame = validity.benchmark_frame(noise, validity.EFFECTS[validity.DOMINATES])
        result = frame.cmp.pairwise(test="conover")
        raw = sp.posthoc_conover_friedman(frame.T, p_adjust=None)
        holm = sp.posthoc_conover_friedman(frame.T, p_adjust="holm")
        for row in result.itertuples():
            assert_allclose(row.pvalue, raw.loc[row.model_1, row.model_2], rtol=1e-9)
            assert_allclose(row.pvalue_adj, holm.loc[row.model_1, row.model_2], rtol=1e-9)
        equal = (result["model_1"] != "M0") & (result["model_2"] != "M0")
        ours += bool(result.loc[equal, "reject"].any())
        others = holm.drop(index="M0", columns="M0").to_numpy()
        theirs += bool((others[np.triu_indices(4, 1)] <= validity.ALPHA).any())
    assert ours == theirs


@pytest.mark.slow
def test_quick_run_writes_the_datasets_table(validity, tmp_path, capsys):
    out = tmp_path / "validity.md"
    tables = validity.main(["--quick", "--part", "datasets", "--jobs", "1", "--out", str(out)])
    capsys.readouterr()
    assert list(tables) == ["datasets"]
    assert not out.exists()  # only the across-data-set part ran
    written = out.with_name("validity_datasets.md")
    csv = pd.read_csv(written.with_suffix(".csv"))
    pd.testing.assert_frame_equal(csv, tables["datasets"], check_exact=False, rtol=1e-5)
    assert set(csv["n_datasets"]) == set(validity.DATASET_NS)
    assert set(csv["n_models"]) == set(validity.DATASET_KS)
    assert (csv["reps"] == 20).all()
    markdown = written.read_text(encoding="utf-8")
    assert markdown.count("| test | k=3, N=10 |") == len(validity.MEASURES)


@given(
    k=st.integers(2, 6),
    data=st.data(),
)
def test_family_outcome_invariants(validity, k, data):
    # Any pairs of k models, any rejections and winners: an equal pair rejected is a
    # rejection; the share won counts M0's pairs rejected in M0's favour; row order is free.
    i, j = np.triu_indices(k, 1)
    names = np.array([f"M{m}" for m in range(k)])
    result = pd.DataFrame({"model_1": names[i], "model_2": names[j]})
    reject = np.array(data.draw(st.lists(st.booleans(), min_size=len(i), max_size=len(i))))
    first = np.array(data.draw(st.lists(st.booleans(), min_size=len(i), max_size=len(i))))
    winner = np.where(first, result["model_1"], result["model_2"])
    some, equal, won = validity.family_outcome(result, reject, winner)
    assert some == reject.any()
    assert not equal or some
    with_m0 = (i == 0) | (j == 0)
    assert equal == (reject & ~with_m0).any()
    assert won * (k - 1) == pytest.approx((reject & with_m0 & (winner == "M0")).sum())
    order = np.random.default_rng(k).permutation(len(i))
    shuffled = result.iloc[order].reset_index(drop=True)
    assert validity.family_outcome(shuffled, reject[order], winner[order]) == (some, equal, won)


def test_rank_sets_study_truth_and_tie_group(validity):
    # The true rank range of tied models, the simulated accuracies, the chained tie group.
    ranks = validity.validity_ranks
    low, high = ranks.true_rank_bounds(np.array([0.8, 0.8, 0.7, 0.6, 0.6]))
    assert low.tolist() == [1, 1, 3, 4, 4]
    assert high.tolist() == [2, 2, 3, 5, 5]
    frame = ranks.leaderboard(np.random.SeedSequence(1))
    accuracy = frame.drop(columns="y").mean().to_numpy()
    se = np.sqrt(ranks.THETA * (1 - ranks.THETA) / ranks.N_QUESTIONS)
    assert np.all(np.abs(accuracy - ranks.THETA) < 4 * se)
    group = ranks.chained_tie_group(frame)
    assert group[0] == frame.drop(columns="y").mean().idxmax()
    table = ranks.run_ranks_study(3, n_draws=200)
    assert table["joint"].between(0, 1).all()
    assert (table["width_marginal"] <= table["width_simultaneous"]).all()
    assert "chained McNemar" in ranks.ranks_markdown(table, 0, 1.0)


def test_items_part_writes_its_table(validity, tmp_path, capsys):
    out = tmp_path / "validity.md"
    tables = validity.main(["--part", "items", "--items-reps", "12", "--out", str(out)])
    capsys.readouterr()
    table = tables["items"]
    assert list(table["analysis"]) == [
        "clustered, clustered ttest", "clustered, unclustered ttest",
        "samples, per question", "samples, samples as questions",
    ]  # fmt: skip
    assert (table["reps"] == 12).all()
    assert_allclose(table["rejection_rate"] * 12, np.round(table["rejection_rate"] * 12))
    assert_allclose(
        table["mc_se"], np.sqrt(table["rejection_rate"] * (1 - table["rejection_rate"]) / 12)
    )
    markdown = (tmp_path / "validity_items.md").read_text(encoding="utf-8")
    assert markdown.startswith("| design | analysis | rejects a true null | MC se |")
    assert "`ttest`, clustered by passage" in markdown
def test_aggregates_truth_and_quick_table(validity, monkeypatch):
    from scipy import integrate, optimize, stats

    study = validity.run_aggregates_study.__globals__
    centres = study["task_centres"](10)
    truth = study["truth"]("normal", 10)
    assert truth["mean"] == pytest.approx(centres.mean())

    # The mixture's 25 % trimmed mean by quadrature: (1/0.5) * integral of x f(x)
    # between the mixture's quartiles.
    def cdf(x):
        return stats.norm.cdf(x, centres, 0.15).mean()

    q25 = optimize.brentq(lambda x: cdf(x) - 0.25, -1, 3)
    q75 = optimize.brentq(lambda x: cdf(x) - 0.75, -1, 3)
    inner = integrate.quad(
        lambda x: x * stats.norm.pdf(x, centres, 0.15).mean(), q25, q75, limit=200
    )[0]
    assert truth["iqm"] == pytest.approx(inner / 0.5, abs=1e-3)
    monkeypatch.setitem(study, "SETTINGS", ((5, 3),))
    table = validity.run_aggregates_study(30, n_resamples=200)
    assert len(table) == 2 * 2 * 2  # populations x methods x metrics
    assert table["coverage"].between(0, 1).all()
    assert (table["width"] > 0).all()
    markdown = study["aggregates_markdown"](table, 2024, 1.0)
    assert "| normal | 5 | 3 |" in markdown
