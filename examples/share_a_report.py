"""Reports to share: one HTML page, a Markdown note and the comparison matrix
==========================================================================

A comparison ends in a message to someone else: a pull request, an experiment
log, a paper's supplement. ``report(format="html")`` writes one self-contained
page (the conclusions in words, the styled tables and the figures inline as
SVG, no external resource, no script); ``report(format="markdown")`` the same
words with pipe tables. Across data sets, the Multiple Comparison Matrix
(``plot("mcm")``) shows each pair's mean difference, wins / ties / losses and
Wilcoxon p-value; unlike the critical-difference diagram, a cell does not
change when another model is added or removed.

Run: ``python examples/share_a_report.py [FOLDER]`` (headless, a few seconds);
the page, the note and the matrix are written to FOLDER (a new temporary
folder by default). The command line does the same with
``pdcompare FILE --html report.html --markdown report.md``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare.datasets import load_benchmark


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)
    bench = load_benchmark()

    page = folder / "benchmark_report.html"
    page.write_text(bench.cmp.report(format="html", rope=0.01), encoding="utf-8")
    note = folder / "benchmark_report.md"
    note.write_text(bench.cmp.report(format="markdown", rope=0.01), encoding="utf-8")
    print(f"HTML report: {page}\nMarkdown report: {note}\n")

    cells = bench.cmp.matrix(kind="mcm")
    print(cells.head(6).round(4).to_string(index=False), end="\n\n")

    # The matrix does not depend on the other models: drop one, the cells stay.
    fewer = bench.drop(index="knn").cmp.matrix(kind="mcm")
    same = cells.merge(fewer, on=["model_1", "model_2"], suffixes=("", "_fewer"))
    print(f"cells unchanged without knn: {bool((same['pvalue'] == same['pvalue_fewer']).all())}")

    ax = bench.cmp.plot("mcm")
    matrix = folder / "benchmark_mcm.png"
    ax.figure.savefig(matrix, dpi=100)
    plt.close(ax.figure)
    print(f"figure: {matrix}")
    return {"page": page, "note": note, "cells": cells, "same": same, "figure": matrix}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
