"""Cost of ``report()`` against its floor, and its growth with the number of models.

The floor is what any report must do: the same three computations
(``summary``, ``pairwise`` and ``bayes`` on all pairs, so that the correction
covers every pair) and one plain f-string per line the report prints, over
the numbers of those result frames. The difference is the report's own
work: choosing the lines, counting the rest, formatting. Both are timed in
one process, interleaved, best of ``repeats``.

Target (issue 13): at 60 models within 3x of the floor, and growth with the
number of models no worse than the lines printed (which stay a few dozen).

Run: python benchmarks/bench_report.py [--quick] [repeats]   (--quick: up to 240 models, 2 repeats)
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
import pandas as pd

import pdcompare
from pdcompare.compare.summary import summary_table
from pdcompare.inputs.scores import ALL_PAIRS


def frame(m: int, k: int = 100) -> pd.DataFrame:
    rng = np.random.default_rng(m)
    values = np.linspace(0.9, 0.7, m)[:, None] + rng.normal(0, 0.02, (m, k))
    names = [f"svc(C={i}, gamma=0.{i % 7})" for i in range(m)]
    return pd.DataFrame(values, index=names).cmp.set_design(cv=10)


def floor(scores: pd.DataFrame, lines: int) -> str:
    summary = summary_table(scores)
    result = scores.cmp.pairwise()
    bayes = scores.cmp.bayes(ALL_PAIRS, rope=0.01)
    a, b = result["model_1"].to_numpy(object), result["model_2"].to_numpy(object)
    d, p = result["mean_diff"].to_numpy(), result["pvalue_adj"].to_numpy()
    pb = bayes["prob_better"].to_numpy()
    best = summary.index[0]
    rows = [i % len(a) for i in range(lines)]
    out = [f"{a[i]} vs {b[i]}: {d[i]:+.4f} p {p[i]:.3f} P {pb[i]:.3f} {best}" for i in rows]
    return "\n".join(out)


def timed(function, *args, **kwargs) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def main() -> None:
    quick = "--quick" in sys.argv
    numbers = [int(arg) for arg in sys.argv[1:] if arg != "--quick"]
    repeats = numbers[0] if numbers else (2 if quick else 5)
    warnings.simplefilter("ignore")
    print(f"{'models':>7} {'lines':>6} {'report s':>9} {'floor s':>8} {'ratio':>6}")
    for m in (4, 20, 60, 240) if quick else (4, 20, 60, 240, 1000):
        scores = frame(m)
        text = pdcompare.report(scores, rope=0.01)
        lines = len(text.splitlines())
        report_time = floor_time = np.inf
        for _ in range(repeats):  # interleaved
            report_time = min(report_time, timed(pdcompare.report, scores, rope=0.01))
            floor_time = min(floor_time, timed(floor, scores, lines))
        print(
            f"{m:>7} {lines:>6} {report_time:>9.4f} {floor_time:>8.4f} "
            f"{report_time / floor_time:>6.2f}"
        )


if __name__ == "__main__":
    main()
