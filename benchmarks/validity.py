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

Run: ``.venv/bin/python benchmarks/validity.py [--reps 4000] [--quick] [--jobs -1]
[--out docs/validity_table.md]``. ``--out`` writes the Markdown table there and
the same numbers, one row per estimate, as CSV beside it (``.csv``).
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

ALPHA = 0.05
NULL, ALT = "equal", "A better"  # the two scenarios
ROPE = 0.01
N = 200
N_HOLDOUT_TRAIN = 100
K_FOLDS = 10
N_REPEATS = 10
N_BOOTSTRAP = 1000

# Population parameters. `noise_alt` is view 2's noise scale in the power scenario.
POPULATIONS = {
    "linear": {"learner": "LDA", "delta": 2.4, "noise": 1.0, "noise_alt": 1.4},
    "ring": {"learner": "1-NN", "noise": 0.35, "noise_alt": 0.45},
}

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


# --- data ------------------------------------------------------------------------------------


def make_data(population: str, rng: np.random.Generator) -> dict:
    """One data set: labels, the latent signal and the two views' noise (unscaled)."""
    if population == "linear":
        p = 4
        y = rng.integers(0, 2, N)
        shift = POPULATIONS["linear"]["delta"] / math.sqrt(p)
        z = rng.standard_normal((N, p)) + shift * y[:, None]
    else:
        z = rng.standard_normal((N, 2))
        y = ((z**2).sum(axis=1) > 2 * math.log(2)).astype(int)
        z = np.hstack([z, np.zeros((N, 2))])  # two features carry noise only
    noise = rng.standard_normal((2, *z.shape))
    return {"y": y, "z": z, "noise": noise}


def views(data: dict, population: str, noise_2: float) -> tuple[np.ndarray, np.ndarray]:
    """The two views; view 2's noise scale is `noise_2` (equal to view 1's under the null)."""
    noise_1 = POPULATIONS[population]["noise"]
    return data["z"] + noise_1 * data["noise"][0], data["z"] + noise_2 * data["noise"][1]


def stratified_folds(y: np.ndarray, k: int, n_repeats: int, rng) -> np.ndarray:
    """Fold of every row in every repeat, shape (n_repeats, n): stratified k-fold."""
    folds = np.empty((n_repeats, len(y)), dtype=int)
    for r in range(n_repeats):
        # Rows of class 0 then of class 1, each in random order, dealt round-robin.
        order = np.concatenate([rng.permutation(np.flatnonzero(y == c)) for c in (0, 1)])
        folds[r, order] = np.arange(len(y)) % k
    return folds


# --- learners, batched over splits ---------------------------------------------------------------


def lda_fit(X: np.ndarray, y: np.ndarray, weights: np.ndarray):
    """LDA fitted on the rows of each weight vector (shape (B, n)): coef (B, p), intercept (B,)."""
    w1, w0 = weights * y, weights * (1 - y)
    n1, n0 = w1.sum(axis=1), w0.sum(axis=1)
    m1, m0 = (w1 @ X) / n1[:, None], (w0 @ X) / n0[:, None]
    scatter = (
        np.einsum("bn,ni,nj->bij", weights, X, X)
        - n1[:, None, None] * m1[:, :, None] * m1[:, None, :]
        - n0[:, None, None] * m0[:, :, None] * m0[:, None, :]
    )
    cov = scatter / (n1 + n0 - 2)[:, None, None]
    coef = np.linalg.solve(cov, (m1 - m0)[:, :, None])[:, :, 0]
    intercept = -0.5 * np.einsum("bp,bp->b", coef, m1 + m0) + np.log(n1 / n0)
    return coef, intercept


def nn_predict(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray) -> np.ndarray:
    """1-nearest-neighbour predictions (Euclidean)."""
    d = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
    return y_train[d.argmin(axis=1)]


def cv_accuracy(learner: str, X: np.ndarray, y: np.ndarray, folds: np.ndarray) -> np.ndarray:
    """Test accuracy of every split of the fold assignment `folds` (n_repeats, n): (R, k)."""
    n_repeats, n = folds.shape
    k = folds.max() + 1
    if learner == "LDA":
        # Split (r, f) trains on the rows outside fold f of repeat r.
        train = folds[:, None, :] != np.arange(k)[None, :, None]  # (R, k, n)
        coef, intercept = lda_fit(X, y, train.reshape(n_repeats * k, n).astype(float))
        coef, intercept = coef.reshape(n_repeats, k, -1), intercept.reshape(n_repeats, k)
        # Every row is predicted by the model of its own fold.
        own = np.take_along_axis(coef, folds[:, :, None], axis=1)  # (R, n, p)
        decision = np.einsum("rnp,np->rn", own, X) + np.take_along_axis(intercept, folds, 1)
        predicted = (decision > 0).astype(int)
    else:
        # 1-NN: distances to rows of other folds only.
        d = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
        same_fold = folds[:, :, None] == folds[:, None, :]  # (R, n, n)
        predicted = y[np.where(same_fold, np.inf, d[None]).argmin(axis=2)]
    correct = (predicted == y).astype(float)
    hits = np.zeros((n_repeats, k))
    for r in range(n_repeats):
        hits[r] = np.bincount(folds[r], weights=correct[r], minlength=k)
    counts = np.stack([np.bincount(f, minlength=k) for f in folds])
    return hits / counts


def fit_predict(learner: str, X_train, y_train, X_tests) -> list[np.ndarray]:
    """Fit once on (X_train, y_train), predict each array of `X_tests`."""
    if learner == "LDA":
        coef, intercept = lda_fit(X_train, y_train, np.ones((1, len(y_train))))
        return [(X @ coef[0] + intercept[0] > 0).astype(int) for X in X_tests]
    return [nn_predict(X_train, y_train, X) for X in X_tests]


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


def main(argv: list[str] | None = None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=4000, help="data sets per population")
    parser.add_argument("--quick", action="store_true", help="40 data sets per population")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=-1, help="joblib workers (-1: all cores)")
    parser.add_argument("--out", type=Path, help="write the Markdown table here (and .csv)")
    args = parser.parse_args(argv)
    reps = 40 if args.quick else args.reps
    if reps < 2:
        parser.error(f"--reps must be at least 2; got {reps}")
    start = time.perf_counter()
    table = run_study(reps, seed=args.seed, jobs=args.jobs)
    seconds = time.perf_counter() - start
    markdown = to_markdown(table, args.seed, seconds)
    print(markdown)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(markdown, encoding="utf-8")
        table.to_csv(args.out.with_suffix(".csv"), index=False, float_format="%.6g")
    return table


if __name__ == "__main__":
    main(sys.argv[1:])
