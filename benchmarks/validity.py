"""Validity study: type-I error and power of every pdcompare test on a null of equal learners.

Two learners are equal *by construction*: the same learning algorithm is run
on two feature sets ("views") of one data set, and the views are exchangeable
(each is the same latent signal plus independent noise of the same scale), so
the two learners have exactly the same expected accuracy. Every test of the
library is then run, through the public API, under its natural design:

- 10 x 10 repeated stratified CV (100 splits): ``corrected_ttest``, ``bayes``
  (rope 0.01; a rejection is a decision naming a winner), ``ttest``,
  ``wilcoxon``, ``sign_test``;
- a single stratified 10-fold CV (the first repeat): ``ttest``, ``corrected_ttest``;
- 5 x 2-fold CV: ``ttest_5x2cv``, ``ftest_5x2cv``;
- one hold-out split (100 training, 100 test rows), on the predictions frame:
  ``mcnemar`` and the paired bootstrap ``bootstrap_diff``, under two nulls.
  "Fitted classifiers equal": one rule is fitted on both views stacked and
  applied to each view, so the two fitted classifiers have exactly the same
  error rate (the null McNemar's test is about). "Algorithms equal": each view
  gets its own fit, so only the learning algorithms are equal and the two
  fitted classifiers differ by the luck of their training sets.

Two populations (n = 200 rows per data set):

- ``linear``: y ~ Bernoulli(1/2), latent z | y ~ N(y * delta * 1 / sqrt(p), I_p)
  with p = 4, views x_j = z + sigma * e_j; learner: linear discriminant analysis
  (closed form, batched over the splits with numpy);
- ``ring``: z ~ N(0, I_2), y = 1 if |z|^2 > 2 log 2 (balanced), views as above
  plus two pure-noise features; learner: 1-nearest neighbour (high variance).

Power: the same data with the noise of view 2 scaled up, so that learner A is
slightly better; power counts rejections that name A as the better model.

Monte Carlo standard errors are sqrt(p (1 - p) / reps). Every replication has
its own seed (``numpy.random.SeedSequence(seed).spawn``), so the numbers do not
depend on ``--jobs``.

Battles (``--part battles``, benchmarks/validity_battles.py): coverage of the Bradley–Terry
intervals and rank sets and the level of the z test, 20 models x 5,000 battles.

Across data sets (``--part datasets``): a benchmark frame of k models x N data
sets (one score per cell), N = 10, 20, 50 and k = 3, 5, 10. The score of model m
on data set d is ``difficulty_d + sigma_d * (effect_m + e_md)``: difficulty
uniform on 0.6-0.9 and a noise scale sigma_d that varies by data set
(log-normal around 0.01), so data sets differ far more than models, as in real
benchmarks (the paired and rank tests remove the data-set effect; the varying
noise is what separates the t-test from the rank tests). Model M0 has effect 0
(complete null), 1 (one better, by one noise SD on every data set: power) or 5
(one dominates: first on almost every data set); the others have effect 0 and
are equal, so the pairs among them give the partial-null family-wise error
(where Conover's test fails). The three scenarios share each benchmark's noise
(common random numbers). Tests: Friedman (chi-square and Iman-Davenport F),
``wilcoxon``, ``sign_test``, ``ttest`` and ``permutation_test`` with Holm over all
pairs, ``pairwise(test="nemenyi")``, ``pairwise(test="conover")`` (Holm), and
``bayes`` (rope 0, no correction; a rejection is a decision naming a winner).
The hierarchical test is left out: its sampler takes seconds per pair, far too
long for thousands of benchmarks.

Rank confidence sets (``--part ranks``): 1,000 simulated leaderboards with ties
and near ties, the coverage of ``ranks`` and ``top_set`` beside the field's
chained McNemar "tie group" (``benchmarks/validity_ranks.py`` says how).
Runs over tasks (``--part aggregates``, ``benchmarks/validity_aggregates.py``):
coverage of the IQM's and the mean's 95 % stratified bootstrap intervals
(percentile and BCa) on known task distributions, 10 or 30 tasks, 3 to 10
runs per task.
Cohen's d across data sets (``--part effect_ci``,
``benchmarks/validity_effect_ci.py``): coverage of its 95 % bootstrap interval,
percentile (before) against BCa (now), on 10 and 20 data sets.

Racing (``--part race``, benchmarks/validity_race.py): races of 20 equal candidates
over 10 splits, how often a candidate is dropped, beside Optuna's WilcoxonPruner.

Run: ``.venv/bin/python benchmarks/validity.py [--part all] [--reps 4000]
[--dataset-reps 500] [--ranks-reps 1000] [--quick] [--jobs -1]
[--out docs/validity_table.md]``.
``--out`` writes the Markdown table there and the same numbers, one row per
estimate, as CSV beside it (``.csv``); the across-data-set tables go to the same
name with ``_datasets`` (``docs/validity_table_datasets.md`` and ``.csv``); ``--part gate``
runs the release gate's study (``validity_gate.py``), written with ``_gate``; ``--part
ranks`` the rank sets' study, written with ``_ranks``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import pdcompare

# The parts of the study in the scripts beside this one (validity_*.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
import validity_battles
import validity_effect_ci
import validity_race
import validity_ranks
import validity_runs
from _validity_common import (
    K_FOLDS,
    N_REPEATS,
    POPULATIONS,
    N,
    cv_accuracy,
    fit_predict,
    make_data,
    stratified_folds,
    views,
)
from _validity_common import lda_fit as lda_fit  # the tests read validity.lda_fit
from validity_aggregates import aggregates_markdown, run_aggregates_study
from validity_gate import run_study as _gate_run_study
from validity_gate import to_markdown as _gate_to_markdown

ALPHA = 0.05
NULL, ALT = "equal", "A better"  # the two scenarios
ROPE = 0.01
N_HOLDOUT_TRAIN = 100
N_BOOTSTRAP = 1000

# (design, test, label) in table order; the labels are the table's wording.
ROWS = [
    ("10x10 CV", "corrected_ttest", "corrected_ttest"),
    ("10x10 CV", "bayes", "bayes, rope 0.01"),
    ("10x10 CV", "ttest", "ttest"),
    ("10x10 CV", "wilcoxon", "wilcoxon"),
    ("10x10 CV", "sign_test", "sign_test"),
    ("10-fold CV", "ttest", "ttest"),
    ("10-fold CV", "corrected_ttest", "corrected_ttest"),
    ("5x2 CV", "ttest_5x2cv", "ttest_5x2cv"),
    ("5x2 CV", "ftest_5x2cv", "ftest_5x2cv"),
    ("hold-out, classifiers equal", "mcnemar", "mcnemar"),
    ("hold-out, classifiers equal", "bootstrap_diff", "bootstrap_diff"),
    ("hold-out, algorithms equal", "mcnemar", "mcnemar"),
    ("hold-out, algorithms equal", "bootstrap_diff", "bootstrap_diff"),
]


# --- one replication -------------------------------------------------------------------------


def scores_frame(acc_a: np.ndarray, acc_b: np.ndarray, **design) -> pd.DataFrame:
    """Scores frame (models A, B x splits) with a (repeat, fold) MultiIndex and its design."""
    n_repeats, k = acc_a.shape
    columns = pd.MultiIndex.from_product([range(n_repeats), range(k)], names=["repeat", "fold"])
    frame = pd.DataFrame([acc_a.ravel(), acc_b.ravel()], index=["A", "B"], columns=columns)
    return frame.cmp.set_design(**design) if design else frame


def frequentist(result: pd.DataFrame) -> tuple[bool, bool]:
    """(rejected, rejected naming A the better model) of a one-row result frame."""
    row = result.iloc[0]
    reject = bool(row["reject"])
    return reject, reject and bool(row["mean_diff"] > 0)


def run_tests(acc10: np.ndarray, acc52: np.ndarray) -> dict:
    """Every scores-frame test; values: (rejected, rejected in favour of A)."""
    out = {}
    repeated = scores_frame(*acc10, n_train=N - N // K_FOLDS, n_test=N // K_FOLDS)
    design = "10x10 CV"
    out[design, "corrected_ttest"] = frequentist(repeated.cmp.corrected_ttest("A", "B"))
    out[design, "ttest"] = frequentist(repeated.cmp.ttest("A", "B"))
    out[design, "wilcoxon"] = frequentist(repeated.cmp.wilcoxon("A", "B"))
    out[design, "sign_test"] = frequentist(repeated.cmp.sign_test("A", "B"))
    decision = repeated.cmp.bayes("A", "B", rope=ROPE, alpha=ALPHA)["decision"].iloc[0]
    out[design, "bayes"] = (decision in ("A", "B"), decision == "A")

    single = scores_frame(acc10[0][:1], acc10[1][:1], cv=K_FOLDS)
    design = "10-fold CV"
    out[design, "ttest"] = frequentist(single.cmp.ttest("A", "B"))
    out[design, "corrected_ttest"] = frequentist(single.cmp.corrected_ttest("A", "B"))

    five_by_two = scores_frame(*acc52)
    out["5x2 CV", "ttest_5x2cv"] = frequentist(five_by_two.cmp.ttest_5x2cv("A", "B"))
    out["5x2 CV", "ftest_5x2cv"] = frequentist(five_by_two.cmp.ftest_5x2cv("A", "B"))
    return out


def holdout_tests(y_test, pred_a, pred_b, design: str, seed: int) -> dict:
    """McNemar and the paired bootstrap on one predictions frame."""
    preds = pd.DataFrame({"y": y_test, "A": pred_a, "B": pred_b})
    mcnemar = preds.cmp.mcnemar("A", "B")
    row = mcnemar.iloc[0]
    reject = bool(row["reject"])
    out = {(design, "mcnemar"): (reject, reject and row["only_1_correct"] > row["only_2_correct"])}
    boot = preds.cmp.bootstrap_diff("A", "B", n_resamples=N_BOOTSTRAP, random_state=seed)
    out[design, "bootstrap_diff"] = frequentist(boot)
    return out


def replicate(population: str, seed: np.random.SeedSequence) -> dict:
    """One data set: {(scenario, design, test): (rejected, rejected in favour of A)}."""
    rng = np.random.default_rng(seed)
    learner = POPULATIONS[population]["learner"]
    data = make_data(population, rng)
    y = data["y"]
    folds10 = stratified_folds(y, K_FOLDS, N_REPEATS, rng)
    folds52 = stratified_folds(y, 2, 5, rng)
    train, test = np.arange(N_HOLDOUT_TRAIN), np.arange(N_HOLDOUT_TRAIN, N)  # rows are iid
    boot_seed = int(rng.integers(2**31))
    out = {}
    params = POPULATIONS[population]
    for scenario, noise_2 in ((NULL, params["noise"]), (ALT, params["noise_alt"])):
        x1, x2 = views(data, population, noise_2)
        acc10 = [cv_accuracy(learner, x, y, folds10) for x in (x1, x2)]
        acc52 = [cv_accuracy(learner, x, y, folds52) for x in (x1, x2)]
        results = run_tests(acc10, acc52)
        # Hold-out with separate fits: only the algorithms are equal under the null.
        (pa,) = fit_predict(learner, x1[train], y[train], [x1[test]])
        (pb,) = fit_predict(learner, x2[train], y[train], [x2[test]])
        results |= holdout_tests(y[test], pa, pb, "hold-out, algorithms equal", boot_seed)
        if scenario == NULL:
            # One rule fitted on both views stacked: equal fitted classifiers.
            stacked = np.vstack([x1[train], x2[train]])
            pa, pb = fit_predict(learner, stacked, np.tile(y[train], 2), [x1[test], x2[test]])
            design = "hold-out, classifiers equal"
            results |= holdout_tests(y[test], pa, pb, design, boot_seed)
        for key, value in results.items():
            out[(scenario, *key)] = value
        out[scenario, "accuracy", "A"] = acc10[0].mean()
        out[scenario, "accuracy", "B"] = acc10[1].mean()
        # The mean difference over the 100 splits and its Nadeau-Bengio standard error:
        # across data sets, the spread of the first is what the second estimates.
        d = (acc10[0] - acc10[1]).ravel()
        ratio = (N // K_FOLDS) / (N - N // K_FOLDS)
        out[scenario, "spread", "mean_diff"] = d.mean()
        out[scenario, "spread", "corrected_se"] = math.sqrt((1 / d.size + ratio) * d.var(ddof=1))
    return out


def run_chunk(population: str, seeds: list) -> list[dict]:
    """Replications of one worker; warnings about the designs are expected and silenced."""
    with warnings.catch_warnings():
        # ttest/wilcoxon/sign_test warn on repeated CV (what this study measures), and
        # scores tied on every split warn as degenerate; neither changes a result.
        warnings.simplefilter("ignore", pdcompare.PdcompareWarning)
        return [replicate(population, seed) for seed in seeds]


# --- across data sets -----------------------------------------------------------------------
#
# A benchmark frame: k models x N data sets, one score per cell (a paper's table). The
# score of model m on data set d is difficulty_d + sigma_d * (effect_m + e_md): the
# data sets differ widely in difficulty (uniform 0.6-0.9) and in noise (sigma_d log-normal,
# a factor of about 1.6 either way around 0.01), model differences are small against
# both, e_md ~ N(0, 1) is the model-by-data-set noise. Model M0's effect is the scenario's
# (in noise SDs of each data set); the other models have effect 0 and are equal.

DATASET_NS = (10, 20, 50)
DATASET_KS = (3, 5, 10)
COMPLETE_NULL, ONE_BETTER, DOMINATES = "complete null", "one better", "one dominates"
EFFECTS = {COMPLETE_NULL: 0.0, ONE_BETTER: 1.0, DOMINATES: 5.0}
BAYES_SAMPLES = 1000  # posterior draws of the Bayesian signed-rank test
PERM_RESAMPLES = 1999  # the permutation test is exact up to 2**10 sign patterns (N <= 10)

# (key, label) in table order; Friedman's test is one test of the whole family.
DATASET_TESTS = [
    ("friedman", "Friedman chi-square"),
    ("iman_davenport", "Friedman F (Iman-Davenport)"),
    ("wilcoxon", "`wilcoxon`, Holm"),
    ("sign_test", "`sign_test`, Holm"),
    ("ttest", "`ttest`, Holm"),
    ("nemenyi", '`pairwise(test="nemenyi")`'),
    ("conover", '`pairwise(test="conover")`, Holm'),
    ("bayes", "`bayes`, rope 0"),
    ("permutation_test", "`permutation_test`, Holm"),
]
FRIEDMAN = ("friedman", "iman_davenport")
# (measure, scenario, what it is): the Markdown tables, in order.
MEASURES = [
    (
        "type-I error",
        COMPLETE_NULL,
        "family-wise type-I error under the complete null "
        "(all k models equal): the share of benchmarks in which some pair is declared different",
    ),
    (
        "power",
        ONE_BETTER,
        "power: M0 better by one noise SD on every data set, the others "
        "equal; the share of the k − 1 pairs (M0, other) rejected naming M0 the better model "
        "(Friedman: the share of benchmarks in which it rejects)",
    ),
    (
        "partial-null FWER",
        ONE_BETTER,
        "partial-null family-wise error, M0 better by one "
        "noise SD: the share of benchmarks in which some pair of two *equal* models is "
        "declared different",
    ),
    (
        "partial-null FWER",
        DOMINATES,
        "partial-null family-wise error when M0 dominates "
        "(better by five noise SDs: first on almost every data set): the share of benchmarks "
        "in which some pair of two *equal* models is declared different",
    ),
]


def benchmark_noise(n_datasets: int, k: int, rng: np.random.Generator) -> tuple:
    """Difficulty (N,), noise scale (N,) and standardised noise (k, N) of one benchmark."""
    difficulty = rng.uniform(0.6, 0.9, n_datasets)
    sigma = 0.01 * np.exp(0.5 * rng.standard_normal(n_datasets))
    return difficulty, sigma, rng.standard_normal((k, n_datasets))


def benchmark_frame(noise: tuple, effect: float) -> pd.DataFrame:
    """The models x data sets frame: M0 better by `effect` noise SDs, the others equal."""
    difficulty, sigma, e = noise
    k, n_datasets = e.shape
    effects = np.zeros((k, 1))
    effects[0] = effect
    values = difficulty + sigma * (effects + e)
    columns = pd.Index([f"D{j}" for j in range(n_datasets)], name="dataset")
    return pd.DataFrame(values, index=[f"M{i}" for i in range(k)], columns=columns)


def family_outcome(result: pd.DataFrame, reject, winner) -> tuple[bool, bool, float]:
    """(some pair rejected, some pair of equal models rejected, share of M0's pairs won)."""
    reject = np.asarray(reject, dtype=bool)
    with_m0 = ((result["model_1"] == "M0") | (result["model_2"] == "M0")).to_numpy()
    won = reject & with_m0 & (np.asarray(winner) == "M0")
    return bool(reject.any()), bool((reject & ~with_m0).any()), won.sum() / with_m0.sum()


def run_dataset_tests(frame: pd.DataFrame, seed: int) -> dict:
    """Every across-data-set test on one benchmark frame: {test: family_outcome}."""
    # Imported here: a joblib worker must see the module's own sentinel, not a pickled copy.
    from pdcompare.inputs.scores import ALL_PAIRS

    out = {}
    friedman = frame.cmp.friedman().iloc[0]
    for key, column in (("friedman", "pvalue"), ("iman_davenport", "f_pvalue")):
        reject = bool(friedman[column] <= ALPHA)
        out[key] = (reject, reject, float(reject))  # one test: only the first is read
    results = {
        test: frame.cmp.pairwise(test=test, correction=None if test == "nemenyi" else "holm")
        for test in ("wilcoxon", "sign_test", "ttest", "nemenyi", "conover")
    }
    results["permutation_test"] = frame.cmp.permutation_test(
        ALL_PAIRS, n_resamples=PERM_RESAMPLES, random_state=seed
    )
    for test, result in results.items():
        # model_1 is the better of a rejected pair when its difference (or rank lead) is > 0.
        lead = result["rank_diff" if "rank_diff" in result else "mean_diff"].to_numpy()
        winner = np.where(lead > 0, result["model_1"], result["model_2"])
        out[test] = family_outcome(result, result["reject"], winner)
    bayes = frame.cmp.bayes(
        ALL_PAIRS, rope=0.0, alpha=ALPHA, n_samples=BAYES_SAMPLES, random_state=seed
    )
    named = bayes["decision"].isin(frame.index).to_numpy()
    out["bayes"] = family_outcome(bayes, named, bayes["decision"])
    return out


def replicate_datasets(n_datasets: int, k: int, seed: np.random.SeedSequence) -> dict:
    """One benchmark, under every scenario (the same noise): {(scenario, test): outcome}."""
    rng = np.random.default_rng(seed)
    noise = benchmark_noise(n_datasets, k, rng)
    test_seed = int(rng.integers(2**31))
    out = {}
    for scenario, effect in EFFECTS.items():
        for test, outcome in run_dataset_tests(benchmark_frame(noise, effect), test_seed).items():
            out[scenario, test] = outcome
    return out


def run_datasets_chunk(n_datasets: int, k: int, seeds: list) -> list[dict]:
    """Replications of one worker; warnings (families that cannot reject) are expected."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdcompare.PdcompareWarning)
        return [replicate_datasets(n_datasets, k, seed) for seed in seeds]


def run_datasets_study(
    reps: int, seed: int = 2024, jobs: int = 1, ns=DATASET_NS, ks=DATASET_KS
) -> pd.DataFrame:
    """Long table: test, n_datasets, n_models, measure, scenario, rate, se, reps."""
    cells = [(n, k) for k in ks for n in ns]
    tasks = []
    for index, (n, k) in enumerate(cells):
        seeds = np.random.SeedSequence([seed, 100 + n, k]).spawn(reps)
        n_chunks = max(1, min(reps, 2 * max(jobs, 1)))
        tasks += [(index, n, k, seeds[i::n_chunks]) for i in range(n_chunks)]
    if jobs == 1:
        parts = [run_datasets_chunk(n, k, chunk) for _, n, k, chunk in tasks]
    else:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=jobs)(
            delayed(run_datasets_chunk)(n, k, chunk) for _, n, k, chunk in tasks
        )
    records = []
    for index, (n, k) in enumerate(cells):
        runs = [
            run for (i, *_), part in zip(tasks, parts, strict=True) if i == index for run in part
        ]
        for test, _ in DATASET_TESTS:
            for measure, scenario, _ in MEASURES:
                if test in FRIEDMAN and measure == "partial-null FWER":
                    continue  # one test of the whole family, whose null is false here
                column = {"type-I error": 0, "partial-null FWER": 1, "power": 2}[measure]
                column = 0 if test in FRIEDMAN else column
                values = np.array([run[scenario, test][column] for run in runs], dtype=float)
                rate = values.mean()
                se = values.std(ddof=1) / math.sqrt(reps)  # the binomial SE for 0/1 values
                records.append((test, n, k, measure, scenario, rate, se, reps))
    columns = ["test", "n_datasets", "n_models", "measure", "scenario", "rate", "se", "reps"]
    return pd.DataFrame.from_records(records, columns=columns)


def datasets_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """One Markdown table per measure: rows tests, columns (k, N), rates in percent."""
    reps = int(table["reps"].iloc[0])
    cells = sorted({(k, n) for n, k in zip(table["n_datasets"], table["n_models"], strict=True)})
    lookup = table.set_index(["test", "measure", "scenario", "n_models", "n_datasets"])
    lines = []
    for number, (measure, scenario, what) in enumerate(MEASURES, start=1):
        lines += [
            f"**Table {number}.** {what[0].upper()}{what[1:]}; percent ± Monte Carlo "
            "standard error.",
            "",
            "| test | " + " | ".join(f"k={k}, N={n}" for k, n in cells) + " |",
            "| --- |" + " ---: |" * len(cells),
        ]
        for test, label in DATASET_TESTS:
            row = []
            for k, n in cells:
                key = (test, measure, scenario, k, n)
                if key not in lookup.index:
                    row.append("–")
                    continue
                rate, se = lookup.loc[key, ["rate", "se"]]
                row.append(f"{100 * rate:.1f} ± {100 * se:.1f}")
            lines.append(f"| {label} | " + " | ".join(row) + " |")
        lines.append("")
    lines.append(
        f"k models, N data sets, {reps} benchmarks per (k, N), alpha = {ALPHA}, seed "
        f"{seed}, {seconds:.0f} s. `bayes` (Bayesian signed-rank test, {BAYES_SAMPLES} "
        "posterior draws) counts as a rejection when its decision names a winner; it has "
        "no correction. `permutation_test`: exact sign flips at N = 10, "
        f"{PERM_RESAMPLES} random ones beyond."
    )
    return "\n".join(lines) + "\n"


# --- the study -------------------------------------------------------------------------------


def run_study(reps: int, seed: int = 2024, jobs: int = 1) -> pd.DataFrame:
    """Long table: population, scenario, design, test, rate, se, reps."""
    records = []
    for index, population in enumerate(POPULATIONS):
        seeds = np.random.SeedSequence([seed, index]).spawn(reps)
        n_chunks = max(1, min(reps, 8 * max(jobs, 1)))
        chunks = [seeds[i::n_chunks] for i in range(n_chunks)]
        if jobs == 1:
            parts = [run_chunk(population, chunk) for chunk in chunks]
        else:
            from joblib import Parallel, delayed

            parts = Parallel(n_jobs=jobs)(delayed(run_chunk)(population, c) for c in chunks)
        runs = [run for part in parts for run in part]
        for key in runs[0]:
            scenario, design, test = key
            values = np.array([run[key] for run in runs], dtype=float)
            if design == "accuracy":
                rate, se = values.mean(), values.std(ddof=1) / math.sqrt(reps)
                records.append((population, scenario, design, test, rate, se, reps))
                continue
            if design == "spread" and test == "mean_diff":
                # Standard deviation across data sets (the true standard error of the
                # mean difference); its own standard error, normal approximation.
                sd = values.std(ddof=1)
                records.append(
                    (
                        population,
                        scenario,
                        design,
                        "sd_mean_diff",
                        sd,
                        sd / math.sqrt(2 * (reps - 1)),
                        reps,
                    )
                )
                continue
            if design == "spread":
                # Root mean square of the corrected standard errors (delta method SE).
                rms = math.sqrt(np.mean(values**2))
                se = values.var(ddof=1) ** 0.5 * np.mean(values) / rms / math.sqrt(reps)
                records.append((population, scenario, design, "rms_corrected_se", rms, se, reps))
                continue
            # Type-I error: any rejection; power: rejections naming A, the better model.
            rate = values[:, 0 if scenario == NULL else 1].mean()
            se = math.sqrt(rate * (1 - rate) / reps)
            records.append((population, scenario, design, test, rate, se, reps))
    columns = ["population", "scenario", "design", "test", "rate", "se", "reps"]
    return pd.DataFrame.from_records(records, columns=columns)


def cell(table: pd.DataFrame, population, scenario, design, test, digits=3) -> str:
    hit = table.query(
        "population == @population and scenario == @scenario and design == @design "
        "and test == @test"
    )
    if hit.empty:
        return "–"
    rate, se = hit[["rate", "se"]].iloc[0]
    return f"{rate:.{digits}f} ± {se:.{digits}f}"


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """The Markdown page fragment: rejection rates, then the populations."""
    pops = list(POPULATIONS)
    reps = int(table["reps"].iloc[0])
    head = ["design", "test"]
    for pop in pops:
        learner = POPULATIONS[pop]["learner"]
        head += [f"{learner}: type-I error", f"{learner}: power"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * 2 + " ---: |" * 2 * len(pops)]
    for design, test, label in ROWS:
        cells = [design, f"`{label}`" if " " not in label else label]
        for pop in pops:
            cells.append(cell(table, pop, NULL, design, test))
            cells.append(cell(table, pop, ALT, design, test))
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Rejection rates at alpha = {ALPHA} over {reps} data sets per population "
        f"(± Monte Carlo standard error), seed {seed}, {seconds:.0f} s. "
        + ", ".join(f"{p['learner']}: population `{pop}`" for pop, p in POPULATIONS.items())
        + f". `bayes` rejects when its decision names a winner (rope {ROPE}); power "
        "counts rejections that name A, the better model.",
        "",
        "| population | scenario | accuracy A | accuracy B | A − B "
        "| sd of A − B | corrected SE | ratio |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for pop in pops:
        for scenario in (NULL, ALT):
            acc = table.query(
                "population == @pop and scenario == @scenario and design == 'accuracy'"
            ).set_index("test")["rate"]
            spread = table.query(
                "population == @pop and scenario == @scenario and design == 'spread'"
            ).set_index("test")["rate"]
            sd, se = spread["sd_mean_diff"], spread["rms_corrected_se"]
            lines.append(
                f"| {pop} ({POPULATIONS[pop]['learner']}) | {scenario} | {acc['A']:.4f} | "
                f"{acc['B']:.4f} | {acc['A'] - acc['B']:+.4f} | {sd:.4f} | {se:.4f} | "
                f"{sd / se:.2f} |"
            )
    lines += [
        "",
        "Mean accuracies over the 100 splits of 10x10 CV, averaged over the data sets; "
        "sd of A − B: the standard deviation of that mean difference across data sets (its "
        "true standard error); corrected SE: the Nadeau–Bengio standard error "
        "that `corrected_ttest` and `bayes` use, root mean square over the data sets. "
        "A ratio above 1 means the corrected tests underestimate the uncertainty.",
    ]
    return "\n".join(lines) + "\n"


# --- items: clustered questions and repeated samples (DESIGN section 21) -----------------------

ITEMS_CLUSTERS, ITEMS_PER_CLUSTER, ITEMS_RHO = 50, 10, 0.7
SAMPLED_ITEMS, SAMPLES_PER_ITEM = 200, 5


def replicate_items(seed: np.random.SeedSequence) -> dict:
    """One null replicate of each items scenario: which analyses reject at ``ALPHA``.

    Clustered: two equal models scored on 50 passages of 10 questions; each model's
    score is a passage effect plus noise, ``sqrt(0.7) u_c + sqrt(0.3) e_i`` (the
    passage effects of the two models independent), so the item differences
    correlate 0.7 within a passage. Tested by ``ttest`` on the items frame with
    the passages as clusters, and without them.

    Samples: 200 questions of difficulty ``p_i ~ Beta(2, 2)``; model m answers
    question i right with probability ``expit(logit p_i + z_mi)``, ``z_mi ~ N(0, 1)``
    (equal models on average, each with its own easy and hard questions), 5
    sampled 0/1 answers per model and question. Tested by
    ``ttest`` on ``from_items(..., sample=)`` (200 questions) and with every sampled
    answer taken as a question of its own (1,000 "questions").
    """
    rng = np.random.default_rng(seed)
    c, k = ITEMS_CLUSTERS, ITEMS_PER_CLUSTER
    passage = np.repeat(np.arange(c), k)
    effects = rng.normal(0.0, 1.0, (2, c))[:, passage]
    scores = np.sqrt(ITEMS_RHO) * effects + np.sqrt(1 - ITEMS_RHO) * rng.normal(0, 1, (2, c * k))
    wide = pd.DataFrame(scores, index=["a", "b"])
    clustered = wide.cmp.set_design(items=True, cluster=dict(enumerate(passage)))
    plain = wide.cmp.set_design(items=True)
    out = {
        "clustered, clustered ttest": bool(clustered.cmp.ttest("a", "b")["reject"].iloc[0]),
        "clustered, unclustered ttest": bool(plain.cmp.ttest("a", "b")["reject"].iloc[0]),
    }
    n, kk = SAMPLED_ITEMS, SAMPLES_PER_ITEM
    # Equal models on average, each with its own easy and hard questions: logit p_mi =
    # logit p_i + z_mi, z_mi ~ N(0, 1) independent per model (the item x model interaction
    # that makes one question's samples of a pair correlated).
    difficulty = rng.beta(2.0, 2.0, n)
    logit = np.log(difficulty / (1.0 - difficulty))[None, :]
    chance = 1.0 / (1.0 + np.exp(-(logit + rng.normal(0.0, 1.0, (2, n)))))
    answers = (rng.random((2, n, kk)) < chance[:, :, None]).astype(float)
    long = pd.DataFrame(
        {
            "model": np.repeat(["a", "b"], n * kk),
            "item": np.tile(np.repeat(np.arange(n), kk), 2),
            "sample": np.tile(np.arange(kk), 2 * n),
            "score": answers.ravel(),
        }
    )
    items = pdcompare.from_items(long, sample="sample")
    as_items = pdcompare.from_items(long.assign(item=long["item"] * kk + long["sample"]))
    out["samples, per question"] = bool(items.cmp.ttest("a", "b")["reject"].iloc[0])
    out["samples, samples as questions"] = bool(as_items.cmp.ttest("a", "b")["reject"].iloc[0])
    return out


def run_items_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """Rejection rates under the null of the items scenarios, with Monte Carlo errors."""
    seeds = np.random.SeedSequence([seed, 21]).spawn(reps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = [replicate_items(s) for s in seeds]
    rates = pd.DataFrame(rows).mean()
    return pd.DataFrame(
        {
            "analysis": rates.index,
            "rejection_rate": rates.to_numpy(),
            "mc_se": np.sqrt(rates.to_numpy() * (1 - rates.to_numpy()) / reps),
            "reps": reps,
        }
    )


def items_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """The items table: each analysis's rejection rate of a true null at alpha 0.05."""
    words = {
        "clustered, clustered ttest": (
            f"{ITEMS_CLUSTERS} passages x {ITEMS_PER_CLUSTER} questions, within-passage "
            f"correlation {ITEMS_RHO}",
            "`ttest`, clustered by passage",
        ),
        "clustered, unclustered ttest": ("", "`ttest`, passages ignored"),
        "samples, per question": (
            f"{SAMPLED_ITEMS} questions x {SAMPLES_PER_ITEM} samples",
            "`ttest` on `from_items(..., sample=)`",
        ),
        "samples, samples as questions": ("", "`ttest`, every sample taken as a question"),
    }
    lines = [
        "| design | analysis | rejects a true null | MC se |",
        "| --- | --- | ---: | ---: |",
    ]
    for row in table.itertuples(index=False):
        design, label = words[row.analysis]
        lines.append(f"| {design} | {label} | {row.rejection_rate:.3f} | {row.mc_se:.3f} |")
    lines.append("")
    lines.append(
        f"{int(table['reps'].iloc[0])} replicates per design, seed {seed}, alpha {ALPHA}; "
        f"{seconds:.0f} s."
    )
    return "\n".join(lines) + "\n"


def _gate_study(reps: int, seed: int) -> pd.DataFrame:
    return _gate_run_study(reps, seed=seed)


def _gate_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    return _gate_to_markdown(table, seed, seconds)


def main(argv: list[str] | None = None) -> dict[str, pd.DataFrame]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part",
        choices=[
            "splits",
            "datasets",
            "gate",
            "ranks",
            "items",
            "battles",
            "aggregates",
            "runs",
            "race",
            "effect_ci",
            "all",
        ],
        default="all",
    )
    parser.add_argument(
        "--items-reps", type=int, default=2000, help="null replicates per items design"
    )
    parser.add_argument("--reps", type=int, default=4000, help="data sets per population")
    parser.add_argument(
        "--dataset-reps", type=int, default=500, help="benchmarks per (k, N) across data sets"
    )
    parser.add_argument(
        "--ranks-reps", type=int, default=1000, help="simulated leaderboards for rank sets"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="40 data sets per population, 20 benchmarks, 100 leaderboards",
    )
    parser.add_argument(
        "--aggregate-reps", type=int, default=400, help="agents per setting, runs over tasks"
    )
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=-1, help="joblib workers (-1: all cores)")
    parser.add_argument(
        "--out",
        type=Path,
        help="write the Markdown table here (and .csv); across data "
        "sets, the same name with _datasets (rank sets: _ranks)",
    )
    args = parser.parse_args(argv)
    reps = 40 if args.quick else args.reps
    dataset_reps = 20 if args.quick else args.dataset_reps
    ranks_reps = 100 if args.quick else args.ranks_reps
    items_reps = 100 if args.quick else args.items_reps
    aggregate_reps = 40 if args.quick else args.aggregate_reps
    if min(reps, dataset_reps) < 2:
        parser.error(f"--reps and --dataset-reps must be at least 2; got {reps}, {dataset_reps}")
    tables = {}
    parts = {
        "splits": (lambda: run_study(reps, seed=args.seed, jobs=args.jobs), to_markdown, ""),
        "datasets": (
            lambda: run_datasets_study(dataset_reps, seed=args.seed, jobs=args.jobs),
            datasets_markdown,
            "_datasets",
        ),
        "aggregates": (
            lambda: run_aggregates_study(aggregate_reps, seed=args.seed),
            aggregates_markdown,
            "_aggregates",
        ),
        # The release gate (validity_gate.py): passes at a true difference of -margin.
        "gate": (lambda: _gate_study(reps, args.seed), _gate_markdown, "_gate"),
        "ranks": (
            lambda: validity_ranks.run_ranks_study(ranks_reps, seed=args.seed),
            validity_ranks.ranks_markdown,
            "_ranks",
        ),
        "items": (lambda: run_items_study(items_reps, seed=args.seed), items_markdown, "_items"),
        # Cohen's d across data sets (validity_effect_ci.py): percentile against BCa coverage
        "effect_ci": (
            lambda: validity_effect_ci.run_study(max(dataset_reps * 5, 100), seed=args.seed),
            validity_effect_ci.to_markdown,
            "_effect_ci",
        ),
        # Welch's power of runs and the confidence set's blocks (validity_runs.py)
        "runs": (
            lambda: validity_runs.run_study(reps * 10 if args.quick else 2000, seed=args.seed),
            validity_runs.to_markdown,
            "_runs",
        ),
        # ratings from battles (validity_battles.py): 20 models x 5,000 battles per arena
        "battles": (
            lambda: validity_battles.run_study(max(dataset_reps // 2, 10), seed=args.seed),
            validity_battles.to_markdown,
            "_battles",
        ),
        # racing (validity_race.py): 20 equal candidates, 1,000 races, beside Optuna's pruner
        "race": (
            lambda: validity_race.run_study(200 if args.quick else 1000, seed=args.seed),
            validity_race.to_markdown,
            "_race",
        ),
    }
    for part, (run, markdown_of, suffix) in parts.items():
        if args.part not in (part, "all"):
            continue
        start = time.perf_counter()
        table = run()
        markdown = markdown_of(table, args.seed, time.perf_counter() - start)
        print(markdown)
        if args.out is not None:
            out = args.out.with_name(args.out.stem + suffix + args.out.suffix)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(markdown, encoding="utf-8")
            table.to_csv(out.with_suffix(".csv"), index=False, float_format="%.6g")
        tables[part] = table
    return tables


if __name__ == "__main__":
    main(sys.argv[1:])
