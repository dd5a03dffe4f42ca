"""Runs over tasks: ``aggregate`` (four metrics, stratified bootstrap) against rliable.

* ``pdcompare``: ``frame.cmp.aggregate(["mean", "median", "iqm",
  "optimality_gap"], n_resamples=R)`` on 10 models x 57 tasks x 5 runs (the
  Atari 200M shape of Agarwal et al. 2021);
* ``floor``: its numpy core alone (``stats.aggregates.aggregate_intervals``
  on the cube), so the ratio is the cost of the frame around it;
* ``rliable`` (where it imports: it pins arch < 8 and pandas < 3, so run this
  script with such a Python): ``library.get_interval_estimates(score_dict,
  func, reps=R)`` with the four ``rliable.metrics`` aggregates, the same
  process. Target (issue 43): at least 20x faster at R = 50,000.

Peak memory of one call (tracemalloc) is printed for each.

Run: python benchmarks/bench_aggregates.py [--quick] [--resamples R] [--no-peer]
(``--quick``: R = 5,000 and rliable at the same R).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import interleaved, peak_mib

import pdcompare
from pdcompare.stats import aggregates as core

METRICS = ["mean", "median", "iqm", "optimality_gap"]
TARGET_RATIO = 20.0


def score_dict(n_models: int = 10, n_tasks: int = 57, n_runs: int = 5, seed: int = 0) -> dict:
    """rliable's {algorithm: runs x tasks} of normalised-looking scores."""
    rng = np.random.default_rng(seed)
    task = rng.lognormal(0.0, 0.8, size=n_tasks)
    return {
        f"algo_{m}": task * rng.lognormal(0.0, 0.1) * rng.lognormal(0.0, 0.2, (n_runs, n_tasks))
        for m in range(n_models)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--resamples", type=int, default=None)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    resamples = args.resamples or (5000 if args.quick else 50000)
    scores = score_dict()
    frame = pdcompare.from_rliable(scores)
    cube = frame.to_numpy().reshape(10, 57, 5)

    def call():
        return frame.cmp.aggregate(METRICS, n_resamples=resamples, random_state=0)

    def floor():
        return core.aggregate_intervals(
            cube, METRICS, n_resamples=resamples, rng=np.random.default_rng(0)
        )

    print(
        f"aggregate: 10 models x 57 tasks x 5 runs, {len(METRICS)} metrics, "
        f"{resamples} stratified resamples (a loaded machine: 2 cores shared)"
    )
    best = interleaved({"pdcompare": call, "floor": floor}, rounds=2 if args.quick else 3)
    print(
        f"  pdcompare {best['pdcompare']:.3f} s (peak {peak_mib(call):.0f} MiB), "
        f"numpy core {best['floor']:.3f} s (peak {peak_mib(floor):.0f} MiB): "
        f"ratio {best['pdcompare'] / best['floor']:.2f}"
    )
    if args.no_peer:
        return
    try:
        from rliable import library, metrics
    except ImportError:
        print("  rliable: not importable here (it needs arch < 8, pandas < 3); skipped")
        return

    def func(x):
        return np.array(
            [
                metrics.aggregate_mean(x),
                metrics.aggregate_median(x),
                metrics.aggregate_iqm(x),
                metrics.aggregate_optimality_gap(x),
            ]
        )

    start = time.perf_counter()
    peer = library.get_interval_estimates(scores, func, reps=resamples)
    seconds = time.perf_counter() - start
    ratio = seconds / best["pdcompare"]
    met = "met" if ratio >= TARGET_RATIO else "MISSED"
    print(
        f"  rliable get_interval_estimates(reps={resamples}) {seconds:.1f} s: pdcompare "
        f"{ratio:.0f}x faster (target >= {TARGET_RATIO:g}x: {met})"
    )
    ours = call()
    worst = 0.0
    for name, interval in peer[1].items():
        for k, metric in enumerate(METRICS):
            mine = ours.loc[name, metric][["ci_low", "ci_high"]].to_numpy(dtype=float)
            worst = max(worst, float(np.abs(mine - interval[:, k]).max()))
    print(f"  largest interval difference from rliable's: {worst:.4f} (Monte Carlo error)")


if __name__ == "__main__":
    main()
