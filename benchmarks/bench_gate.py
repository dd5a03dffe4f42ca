"""`gate` on a scores frame: pdcompare against its numpy floor.

The gate of one candidate against one baseline: the two one-sided corrected
t bounds (Nadeau–Bengio), the two p-values and the outcome, on a scores frame
of many models x 100 splits of 10 x 10-fold CV (n_train 90, n_test 10). The
floor computes the same numbers from the two rows with numpy and
``scipy.special`` and builds the one-row frame, with no validation. pdcompare
validates the whole frame once (every model's scores), runs two tests (the
non-inferiority test and the inferiority test) and words nothing.

Target: within 5x of the floor at 2 models (fixed costs: two result frames,
the checks). At 1000 models the paired core centres every model's scores per
split (O(models x splits), for the accuracy of its all-pairs covariance) in
each of the two tests, and the results carry every model's name: measured
3.0x at 2 models, 8.1x at 1000 (1.2 and 5.3 ms; a loaded machine).

Run: python benchmarks/bench_gate.py [--quick]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from _bench import interleaved, make_scores
from scipy import special

import pdcompare

MARGIN, ALPHA, RATIO = 0.01, 0.05, 10 / 90


def floor(scores: pd.DataFrame, candidate: str, baseline: str) -> pd.DataFrame:
    values = scores.to_numpy()
    if not np.isfinite(values).all():  # the one check the floor keeps: every score present
        raise ValueError
    d = scores.loc[candidate].to_numpy() - scores.loc[baseline].to_numpy()
    n = d.size
    mean, se = d.mean(), np.sqrt(d.var(ddof=1) * (1 / n + RATIO))
    q = special.stdtrit(n - 1, 1 - ALPHA)
    low, high = mean - q * se, mean + q * se
    p = special.stdtr(n - 1, -(mean + MARGIN) / se)
    p_worse = special.stdtr(n - 1, mean / se)
    outcome = "non-inferior" if low > -MARGIN else ("worse" if high < 0 else "inconclusive")
    return pd.DataFrame({"candidate": [candidate], "baseline": [baseline],
                         "test": ["corrected_ttest"], "mean_diff": [mean], "margin": [MARGIN],
                         "ci_low": [low], "ci_high": [high], "pvalue": [p],
                         "pvalue_worse": [p_worse], "outcome": [outcome]})  # fmt: skip


def main() -> None:
    quick = "--quick" in sys.argv
    for n_models in (2, 100) if quick else (2, 1000):
        scores = make_scores(n_models, n_splits=100)
        candidate, baseline = scores.index[1], scores.index[0]

        def ours(scores=scores, candidate=candidate, baseline=baseline):
            return pdcompare.gate(scores, candidate, baseline, margin=MARGIN, alpha=ALPHA)

        mine, reference = ours(), floor(scores, candidate, baseline)
        pd.testing.assert_frame_equal(mine, reference, rtol=1e-9)
        times = interleaved(
            {"pdcompare": ours, "floor": lambda s=scores, c=candidate, b=baseline: floor(s, c, b)},
            rounds=20,
        )
        print(f"gate, {n_models} models x 100 splits (a loaded machine)")
        for name, seconds in times.items():
            print(f"  {name:10s} {seconds * 1e3:8.3f} ms")
        print(f"  ratio      {times['pdcompare'] / times['floor']:8.2f}x")


if __name__ == "__main__":
    main()
