"""Statistical comparison of models using grid search (scikit-learn gallery), with pdcompare
=========================================================================================

The walkthrough of scikit-learn's "Statistical comparison of models using grid
search" (make_moons, four SVC kernels, 10x10 repeated stratified CV, ROC AUC),
where every step is one pdcompare call:

1. data and grid search; ``pdcompare.from_search`` gives the 4 x 100 scores
   frame with the CV design attached;
2. the fold dependence (``plot("folds")``) and the correlation of the models
   across folds (``plot("corr")``);
3. the corrected vs the uncorrected t-test of rbf against linear;
4. the Bayesian posterior of the difference with a ROPE, and credible intervals;
5. all pairs, frequentist (Bonferroni) and Bayesian;
6. the report in plain words.

Run headless: ``python examples/grid_search_stats.py [FIGURE_DIR]`` (default:
a new temporary folder). Figures are written as PNG files there.
"""

from __future__ import annotations

import sys
import tempfile
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import make_moons
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.svm import SVC

import pdcompare


def gallery_name(params: dict) -> str:
    # The gallery's names: "rbf", "linear", "2_poly", "3_poly".
    return "_".join(str(v) for v in params.values())


def save(fig, folder: Path, name: str) -> Path:
    path = folder / name
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def show(frame: pd.DataFrame, digits: int, index: bool = True) -> None:
    """Print a table with one number format for all its float columns."""
    print(frame.to_string(float_format=lambda v: f"{v:.{digits}f}", index=index), end="\n\n")


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)
    pd.set_option("display.width", 120)
    out: dict = {"figures": []}

    # 1. Data and grid search ------------------------------------------------------------
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    fig, ax = plt.subplots(figsize=(5, 4))
    for label, marker in ((0, "o"), (1, "s")):
        ax.scatter(*X[y == label].T, marker=marker, label=f"class {label}", alpha=0.7)
    ax.set(title="make_moons(noise=0.352), 100 samples", xlabel="x1", ylabel="x2")
    ax.legend()
    out["figures"].append(save(fig, folder, "data.png"))

    grid = [
        {"kernel": ["linear"]},
        {"kernel": ["poly"], "degree": [2, 3]},
        {"kernel": ["rbf"]},
    ]
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv).fit(X, y)
    scores = pdcompare.from_search(search, names=gallery_name)
    out["scores"] = scores
    summary = scores.cmp.summary()
    out["summary"] = summary
    print("Mean ROC AUC and Nadeau–Bengio corrected 95% CI per model:")
    show(summary, 4)

    # 2. Fold dependence ------------------------------------------------------------------
    fig, ax = plt.subplots(figsize=(9, 4.5))
    scores.cmp.plot("folds", ax=ax, ylabel="ROC AUC")
    out["figures"].append(save(fig, folder, "folds.png"))
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    scores.cmp.plot("corr", ax=ax)
    out["figures"].append(save(fig, folder, "corr.png"))
    out["corr"] = scores.T.corr()
    print("Correlation of the models across the 100 splits:")
    show(out["corr"].rename_axis(index=None, columns=None), 3)
    fig, ax = plt.subplots(figsize=(7, 3.5))
    scores.cmp.plot("intervals", ax=ax, xlabel="mean ROC AUC")
    out["figures"].append(save(fig, folder, "intervals.png"))

    # 3. Corrected vs uncorrected t-test ---------------------------------------------------
    corrected = scores.cmp.corrected_ttest("rbf", "linear", alternative="greater")
    # The plain t-test on 10x10 repeated CV is what not to do; pdcompare warns (shown).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", pdcompare.PdcompareWarning)
        uncorrected = scores.cmp.ttest("rbf", "linear", alternative="greater")
    for warning in caught:
        print(f"pdcompare warned: {warning.message}\n")
    out["corrected"], out["uncorrected"] = corrected, uncorrected
    print("rbf vs linear, one-sided:")
    both = pd.concat([corrected, uncorrected], ignore_index=True)[["statistic", "pvalue"]]
    show(both.set_axis(["corrected", "uncorrected"]), 3)

    # 4. Bayesian posterior, ROPE and credible intervals ----------------------------------
    bayes = scores.cmp.bayes("rbf", "linear", rope=0.01)
    out["bayes"] = bayes
    print("Bayesian correlated t-test, rbf vs linear, rope 0.01:")
    show(bayes[["prob_better", "prob_rope", "prob_worse"]], 3, index=False)
    posterior = scores.cmp.posterior("rbf", "linear")
    out["prob_rbf_better_no_rope"] = float(posterior.sf(0.0))
    fig, ax = plt.subplots(figsize=(7, 4))
    scores.cmp.plot("posterior", a="rbf", b="linear", rope=0.01, ax=ax)
    out["figures"].append(save(fig, folder, "posterior.png"))
    intervals = pd.DataFrame(
        [
            scores.cmp.bayes("rbf", "linear", ci=level)[["ci_low", "ci_high"]].iloc[0]
            for level in (0.5, 0.75, 0.95)
        ],
        index=pd.Index([0.5, 0.75, 0.95], name="credibility"),
    )
    out["credible_intervals"] = intervals
    print("Credible intervals of the difference rbf - linear:")
    show(intervals, 4)

    # 5. All pairs -------------------------------------------------------------------------
    pairwise = scores.cmp.pairwise(correction="bonferroni", alternative="greater")
    out["pairwise"] = pairwise
    print("All pairs, corrected t-test, Bonferroni:")
    show(pairwise[["model_1", "model_2", "statistic", "pvalue_adj", "reject"]], 3, index=False)
    pairwise_bayes = scores.cmp.pairwise(test="bayes", rope=0.01)
    out["pairwise_bayes"] = pairwise_bayes
    print("All pairs, Bayesian, rope 0.01:")
    columns = ["model_1", "model_2", "prob_worse", "prob_better", "prob_rope", "decision"]
    show(pairwise_bayes[columns], 3, index=False)
    fig, ax = plt.subplots(figsize=(6, 4.5))
    scores.cmp.plot("pvalues", ax=ax, correction="bonferroni", alternative="greater")
    out["figures"].append(save(fig, folder, "pvalues.png"))
    fig, ax = plt.subplots(figsize=(8, 3.5))
    scores.cmp.corrected_ttest(correction="holm").cmp.plot(ax=ax)
    out["figures"].append(save(fig, folder, "forest.png"))

    # 6. The report ------------------------------------------------------------------------
    out["report"] = scores.cmp.report(rope=0.01)
    print(out["report"])
    print(f"Figures written to {folder}")
    return out


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
