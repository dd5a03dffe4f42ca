"""Several data sets: is one classifier better in general?
=======================================================

The bundled benchmark holds 10-fold scores of 7 scikit-learn classifiers on
22 data sets (the ones scikit-learn ships, and generated ones of varied size,
noise and class count); every model saw the same splits of each data set.
Over several data sets the data set, not the split, is the unit of
replication (Demšar 2006): each model's fold scores are averaged within a
data set, and the tests compare those means.

1. ``summary``: mean rank (1 = best on a data set, ties averaged), mean score,
   the data sets a model wins;
2. ``friedman``: do the models differ at all? (Reported, never a gate.)
3. ``pairwise``: every pair with the Wilcoxon signed-rank test across data
   sets (Holm-corrected), and with Nemenyi's mean-rank test;
4. the critical-difference diagram, drawn from the Nemenyi result itself: a
   bar joins models that no test tells apart;
5. the Bayesian signed-rank test with a region of practical equivalence of
   one point of accuracy: P(better), P(equivalent), P(worse) per pair, and
   one pair's posterior in a triangle;
6. the folds kept: a random-effects meta-analysis of the per-data-set
   differences, with the prediction interval for a new data set;
7. the report in plain words.

Run: ``python examples/several_datasets.py [FOLDER]`` (headless, a second or
two); the diagram is saved to FOLDER (a new temporary folder by default).
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

import pdcompare
from pdcompare.datasets import load_benchmark


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    bench = load_benchmark()
    print(f"{bench.shape[0]} models x {bench.columns.levshape[0]} data sets x 10 folds\n")

    summary = bench.cmp.summary()
    print(summary.round(4), end="\n\n")

    friedman = bench.cmp.friedman()
    print(friedman.T.round(6), end="\n\n")

    wilcoxon = bench.cmp.pairwise()  # test="wilcoxon", correction="holm"
    columns = ["model_1", "model_2", "mean_diff", "median_diff", "pvalue_adj", "reject"]
    with pd.option_context("display.width", 120):
        print(wilcoxon[columns].round(4).to_string(index=False), end="\n\n")

    nemenyi = bench.cmp.pairwise(test="nemenyi")
    cd = nemenyi.attrs["pdcompare"]["cd"]
    print(f"Nemenyi critical difference of mean ranks: {cd:.3f}")
    print(nemenyi.query("reject")[["model_1", "model_2", "rank_diff", "pvalue"]].round(4))
    print()

    ax = nemenyi.cmp.plot()
    path = folder / "several_datasets_cd.png"
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    print(f"figure: {path}\n")

    bayes = bench.cmp.bayes(rope=0.01, random_state=0)  # best against the rest
    print(bayes.round(3).to_string(index=False), end="\n\n")
    ax = bench.cmp.plot("simplex", a="svc_rbf", b="forest", rope=0.01)
    simplex = folder / "several_datasets_simplex.png"
    ax.figure.savefig(simplex, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)

    pooled = bench.cmp.random_effects("svc_rbf", "knn")
    columns = ["mean_diff", "ci_low", "ci_high", "pvalue", "tau2", "i2", "pi_low", "pi_high"]
    print("svc_rbf - knn pooled over the data sets (random effects):")
    print(pooled[columns].round(4).to_string(index=False), end="\n\n")

    # Easy data sets where two models differ by the same amount on every fold make
    # pdcompare warn (the pooling cannot give them an infinite weight); shown here.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", pdcompare.PdcompareWarning)
        report = bench.cmp.report(rope=0.01, pooled=True)
    for warning in caught:
        print(f"pdcompare warned: {warning.message}\n")
    print(report)
    return {
        "bayes": bayes,
        "pooled": pooled,
        "simplex": simplex,
        "bench": bench,
        "summary": summary,
        "friedman": friedman,
        "wilcoxon": wilcoxon,
        "nemenyi": nemenyi,
        "report": report,
        "figure": path,
    }


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
