"""Cost of the pictures of effect_size, equivalence, power, aso and random_effects results.

Each ``result.cmp.plot()`` (drawn to the canvas) against a matplotlib floor
that draws the same rows with the bare calls: a figure of the same size, one
``scatter`` of the markers, one ``hlines`` of the intervals, the row labels,
one reference line, a legend and a title, drawn to the canvas. The result is
computed once, outside the timing: the picture only reads it. Sizes: 60
models (the best 20 drawn) and, without ``--quick``, 1,000 models; the random
effects over 20 data sets, one pair's forest plot and the best against the
rest. Target: within 2x of the floor.

Measured (2 cores shared with other jobs, so +-30%, quick size, 60 models):
effect_size 1.37x, equivalence 1.79x, power 1.82x, aso 1.53x, random_effects
1.85x (best against the rest) and 1.25x (one pair's forest plot). The rows
written beside the Axes (p-values, powers: 19 more texts) are most of the
difference.

Run: python benchmarks/bench_result_pictures.py [--quick]
"""

from __future__ import annotations

import sys
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from _bench import interleaved, make_scores

import pdcompare  # noqa: F401 - registers DataFrame.cmp

QUICK = "--quick" in sys.argv


def drawn(draw):
    """Draw a picture to the canvas (what saving or showing it costs) and close it."""

    def run():
        ax = draw()
        ax.figure.canvas.draw()
        plt.close(ax.figure)

    return run


def floor(n_rows: int, size: tuple[float, float]):
    """The bare matplotlib calls that draw ``n_rows`` rows of markers and intervals."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=n_rows)
    y = np.arange(n_rows)
    labels = [f"model_{k}" for k in range(n_rows)]

    def draw():
        fig = plt.figure(figsize=size, layout="constrained")
        ax = fig.add_subplot()
        ax.hlines(y, x - 1, x + 1)
        ax.scatter(x, y)
        ax.set_yticks(y, labels=labels)
        ax.axvline(0.0, linestyle="--")
        ax.legend([ax.collections[1]], ["rows"], loc="lower left", bbox_to_anchor=(0, 1))
        ax.set_title("floor")
        return ax

    return draw


def benchmark_frame(n_models: int, n_datasets: int = 20, k: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    columns = pd.MultiIndex.from_product(
        [[f"d{d}" for d in range(n_datasets)], range(k)], names=["dataset", "split"]
    )
    values = (
        0.8
        + np.repeat(rng.normal(0, 0.05, n_datasets), k)[None, :]
        + rng.normal(0, 0.02, (n_models, n_datasets * k))
        + np.linspace(0.03, 0, n_models)[:, None]
    )
    frame = pd.DataFrame(values, index=[f"m{i}" for i in range(n_models)], columns=columns)
    return frame.cmp.set_design(cv=k)


def main() -> None:
    warnings.simplefilter("ignore")
    rounds = 3 if QUICK else 5
    for n_models in (60,) if QUICK else (60, 1000):
        scores = make_scores(n_models, n_splits=10, n_train=90, n_test=10)
        runs = scores.cmp.set_design(paired=False)
        bench = benchmark_frame(n_models)
        results = {
            "effect_size": scores.cmp.effect_size(),
            "equivalence": scores.cmp.equivalence(rope=0.01),
            "power": scores.cmp.power(delta=0.01),
            "aso": runs.cmp.aso(random_state=0, n_bootstrap=100),
            "random_effects (vs best)": bench.cmp.random_effects(),
            "random_effects (one pair)": bench.cmp.random_effects("m0", "m1"),
        }
        cases = {}
        pairs = []
        for name, result in results.items():
            ax = result.cmp.plot()
            size = tuple(ax.figure.get_size_inches())
            n_rows = len(ax.get_yticklabels())
            plt.close("all")
            cases[name] = drawn(lambda result=result: result.cmp.plot())
            cases[f"floor of {name}"] = drawn(floor(n_rows, size))
            pairs.append((name, f"floor of {name}"))
        best = interleaved(cases, rounds)
        print(f"\nResult pictures, {n_models} models (drawn to the canvas)")
        for name, seconds in best.items():
            print(f"  {name:44}{seconds * 1000:9.1f} ms")
        for candidate, base in pairs:
            print(f"  {candidate} / floor: {best[candidate] / best[base]:.2f}x (target 2x)")


if __name__ == "__main__":
    main()
