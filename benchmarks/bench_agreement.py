"""judge_agreement's cluster bootstrap against a loop over resamples with the peer packages.

DESIGN section 31: κ and α of every judge with bootstrap intervals, clusters
resampled whole. pdcompare computes every resample from one matrix product
of resample counts and per-cluster sums; the peer is the loop a user would
write: per resample, draw clusters, then ``sklearn.metrics.cohen_kappa_score``
and ``krippendorff.alpha`` for each judge. The peer's time per resample is
measured on a few resamples and multiplied by ``n_resamples``; pdcompare's
is the whole call (point estimates, intervals, α over all raters, the result
frame). The floor beside it: the same call with 2 resamples (what the
bootstrap adds).

Run: python benchmarks/bench_agreement.py [--quick]
     (--quick: 10 judges x 400 labelled answers; default 60 judges x 2,000)
"""

import sys
import time

import krippendorff
import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score

import pdcompare


def table(judges, answers, per_item=4, seed=0):
    rng = np.random.default_rng(seed)
    truth = (rng.random(answers) < 0.6).astype(float)
    columns = {
        f"judge_{k:02d}": np.where(rng.random(answers) < rng.uniform(0.05, 0.25), 1 - truth, truth)
        for k in range(judges)
    }
    return pd.DataFrame({"human": truth, **columns, "item": np.arange(answers) // per_item})


def best(call, repeats=3):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def peer_per_resample(frame, names, resamples=5, seed=0):
    """Seconds per resample of the loop: draw clusters, then sklearn's κ and krippendorff's α."""
    rng = np.random.default_rng(seed)
    items = frame["item"].to_numpy()
    groups = [np.flatnonzero(items == g) for g in np.unique(items)]
    human = frame["human"].to_numpy()
    scores = frame[names].to_numpy().T

    def one():
        rows = np.concatenate([groups[g] for g in rng.integers(0, len(groups), len(groups))])
        for row in scores:
            cohen_kappa_score(human[rows], row[rows])
            krippendorff.alpha(np.stack([human[rows], row[rows]]), level_of_measurement="nominal")

    start = time.perf_counter()
    for _ in range(resamples):
        one()
    return (time.perf_counter() - start) / resamples


def main(quick=False):
    judges, answers = (10, 400) if quick else (60, 2000)
    n_resamples = 2000
    frame = table(judges, answers)
    names = [c for c in frame.columns if c.startswith("judge_")]

    def call(n):
        return lambda: pdcompare.judge_agreement(
            frame, cluster="item", n_resamples=n, random_state=0
        )

    ours = best(call(n_resamples))
    floor = best(call(2))
    peer = peer_per_resample(frame, names) * n_resamples
    print(
        f"{judges} judges x {answers} labelled answers ({answers // 4} items), "
        f"{n_resamples} cluster-bootstrap resamples, best of 3"
    )
    print(f"  {'judge_agreement, 2 resamples (floor)':48s}{floor:9.3f} s")
    print(f"  {f'judge_agreement, {n_resamples} resamples':48s}{ours:9.3f} s   1x")
    print(
        f"  {'loop: sklearn κ + krippendorff α per resample':48s}{peer:9.3f} s   "
        f"{peer / ours:.0f}x (measured on 5 resamples)"
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
