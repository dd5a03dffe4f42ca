"""Prediction-powered ttest of every pair of a labelled items frame (DESIGN section 31).

All pairs of 50 models x 10,000 judged items with 500 human labels,
``ttest`` (PPI++, Holm) on the labelled items frame, against a numpy floor of
the same arithmetic: the four covariance matrices of the models (labels,
labels x judge, judge on the labelled items, judge on the unlabelled ones),
each pair's variances from their entries, λ̂ clipped, the estimate, the t
tails, Holm and the frame. Target (issue 55): under a second.

Run: python benchmarks/bench_judges.py [--quick]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _bench import holm, interleaved, pair_names, peak_mib, report
from scipy import special

import pdcompare  # noqa: F401 (registers DataFrame.cmp)
from pdcompare.inputs.scores import ALL_PAIRS


def judged_frame(n_models: int, n_items: int, n_labels: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    truth = rng.random((n_models, n_items)) < rng.uniform(0.4, 0.8, (n_models, 1))
    judge = np.where(rng.random((n_models, n_items)) < 0.85, truth, ~truth).astype(float)
    names = [f"model_{k:02d}" for k in range(n_models)]
    columns = [f"q{k:05d}" for k in range(n_items)]
    wide = pd.DataFrame(judge, index=names, columns=columns)
    human = pd.DataFrame(
        truth[:, :n_labels].astype(float), index=names, columns=columns[:n_labels]
    )
    return wide.cmp.set_design(items=True, human=human), truth[:, :n_labels].astype(float), judge


def _cov(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    return xc @ yc.T / (x.shape[1] - 1)


def floor(human: np.ndarray, judge: np.ndarray, names: pd.Index) -> pd.DataFrame:
    """PPI++ of every pair from four covariance matrices, t tails, Holm, the frame."""
    n = human.shape[1]
    judge_l, judge_u = judge[:, :n], judge[:, n:]
    big_n = judge_u.shape[1]
    order = np.argsort(-judge.mean(axis=1), kind="stable")
    first, second = np.triu_indices(len(order), k=1)
    i, j = order[first], order[second]

    def pair(s):
        d = np.diag(s)
        return d[i] + d[j] - s[i, j] - s[j, i]

    vd, c = pair(_cov(human, human)), pair(_cov(human, judge_l))
    vl, vu = pair(_cov(judge_l, judge_l)), pair(_cov(judge_u, judge_u))
    lam = np.clip(c / ((1 + n / big_n) * vu), 0, 1)
    my, mh, mu = human.mean(axis=1), judge_l.mean(axis=1), judge_u.mean(axis=1)
    mean = my[i] - my[j] + lam * (mu[i] - mu[j] - mh[i] + mh[j])
    se = np.sqrt(lam**2 * vu / big_n + (vd - 2 * lam * c + lam**2 * vl) / n)
    statistic = mean / se
    df = n - 1.0
    pvalue = np.minimum(2 * special.stdtr(df, -np.abs(statistic)), 1)
    adjusted = holm(pvalue)
    half = special.stdtrit(df, 0.975) * se
    labels = np.sqrt(vd / n)
    return pd.DataFrame(
        {
            **pair_names(names, i, j),
            "mean_diff": mean,
            "statistic": statistic,
            "df": np.full(i.size, df),
            "pvalue": pvalue,
            "pvalue_adj": adjusted,
            "reject": adjusted <= 0.05,
            "ci_low": mean - half,
            "ci_high": mean + half,
            "se": se,
            "lam": lam,
            "effective_n": n * (labels / se) ** 2,
            "width_ratio": se / labels,
        },
        copy=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds instead of 7")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    framed, human, judge = judged_frame(50, 10_000, 500)
    names = framed.index
    ours = framed.cmp.ttest(ALL_PAIRS)
    theirs = floor(human, judge, names)
    merged = ours.merge(theirs, on=["model_1", "model_2"], suffixes=("", "_floor"))
    assert len(merged) == 1225
    for column in ("mean_diff", "se", "lam", "pvalue_adj"):
        np.testing.assert_allclose(merged[column], merged[f"{column}_floor"], atol=1e-10)
    cases = {
        "ttest (PPI++, Holm), 50 x 10,000, 500 labels": lambda: framed.cmp.ttest(ALL_PAIRS),
        "numpy floor": lambda: floor(human, judge, names),
    }
    best = interleaved(cases, rounds)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    report("All pairs, PPI++ (DESIGN 31: under 1 s)", best, peaks, [tuple(cases)])
    seconds = best["ttest (PPI++, Holm), 50 x 10,000, 500 labels"]
    print(f"  under 1 s: {'yes' if seconds < 1.0 else 'NO'} ({seconds:.3f} s)")


if __name__ == "__main__":
    main()
