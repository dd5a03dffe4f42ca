"""Cost of the shareable report and of the Multiple Comparison Matrix against their floors.

1. ``report(format="html")`` at 60 models against its floor: the text report
   of the same frame plus drawing the same figures and writing them as SVG
   (what any page holding them must do); the difference is assembling the
   page (styled tables, prefixed ids). Target (issue 31): within 2x.
2. ``matrix(kind="mcm")`` for 100 models x 200 data sets against a numpy
   floor that computes the same cells: mean differences, wins / ties /
   losses and scipy's Wilcoxon p-values (its defaults, as the report's table)
   of every ordered pair in one call along an axis. Target: within 2x.

Both timed in one process, interleaved, best of the rounds.

Run: python benchmarks/bench_document.py [--quick]
"""

from __future__ import annotations

import io
import sys
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from _bench import interleaved
from scipy import stats

import pdcompare
from pdcompare.presentation.plotting import plot


def benchmark(m: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = np.linspace(0.9, 0.7, m)[:, None] + rng.normal(0, 0.03, (m, n))
    names = [f"model_{k}, C={k}" for k in range(m)]
    return pd.DataFrame(values, index=names,
                        columns=pd.Index([f"d{k}" for k in range(n)], name="dataset"))


def text_and_figures(bench: pd.DataFrame) -> None:
    pdcompare.report(bench, rope=0.01)
    for ax in (plot(bench, "mcm", top=10),):
        buffer = io.StringIO()
        ax.figure.savefig(buffer, format="svg", bbox_inches="tight")
        plt.close(ax.figure)


def mcm_floor(values: np.ndarray) -> dict:
    m = values.shape[0]
    first, second = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
    off = ~np.eye(m, dtype=bool)
    i, j = first[off], second[off]
    diff = values[i] - values[j]
    out = {
        "mean_diff": diff.mean(axis=1),
        "wins": (diff > 0).sum(axis=1),
        "ties": (diff == 0).sum(axis=1),
        "losses": (diff < 0).sum(axis=1),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["pvalue"] = stats.wilcoxon(values[i], values[j], axis=1).pvalue
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = 2 if quick else 5
    warnings.simplefilter("ignore")
    bench = benchmark(60, 20)
    times = interleaved(
        {
            "report(format='html'), 60 models": lambda: pdcompare.report(
                bench, rope=0.01, format="html"
            ),
            "text report + its figures as SVG": lambda: text_and_figures(bench),
        },
        rounds,
    )
    big = benchmark(100, 200)
    values = big.to_numpy()
    cells = big.cmp.matrix(kind="mcm")
    floor = mcm_floor(values[np.argsort(-values.mean(axis=1), kind="stable")])
    assert np.allclose(np.sort(cells["pvalue"]), np.sort(floor["pvalue"]))
    times.update(
        interleaved(
            {
                "matrix(kind='mcm'), 100 x 200": lambda: big.cmp.matrix(kind="mcm"),
                "numpy + scipy floor": lambda: mcm_floor(values),
            },
            rounds,
        )
    )
    for name, seconds in times.items():
        print(f"  {name:<40} {seconds:8.3f} s")
    names = list(times)
    print(f"  html / text + figures: {times[names[0]] / times[names[1]]:.2f}x (target 2x)")
    print(f"  mcm / floor: {times[names[2]] / times[names[3]]:.2f}x (target 2x)")


if __name__ == "__main__":
    main()
