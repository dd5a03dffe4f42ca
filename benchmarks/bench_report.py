"""Cost of ``report()`` against its floor, and its growth with the number of models.

The floor is what any report of the same family must do (DESIGN section 14),
in numpy and scipy: the summary (means, standard deviations, ranks, the
corrected 95% interval of each mean); the report's family, every pair up to
10 models and the best against each of the others beyond; for that family the
corrected t-test with Holm's correction, the effect size d_z, the Bayesian
correlated t-test (rope) and the difference the design could detect with
power 0.8 at the family's Bonferroni level alpha/m (the noncentrality that
reaches power 0.8 is solved once, by scipy's ``nctdtrinc``: every pair has
the same degrees of freedom); and one plain f-string per line the report prints, over those
numbers, with the result frames built from them (summary, test, Bayesian,
effect sizes). The difference is the report's own work: validating the frame,
choosing the lines, counting the rest,
formatting. Both are timed in one process, interleaved, best of ``repeats``.

Target (issue 33): at 60 models within 3x of the floor, and growth with the
number of models no worse than the lines printed (which stay a few dozen).

Run: python benchmarks/bench_report.py [--quick] [repeats]   (--quick: 4, 20, 60 models, 2 repeats)
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
import pandas as pd
from scipy import special, stats

import pdcompare
from pdcompare.compare.analysis import ALL_PAIRS_UP_TO, analyse

ALPHA, ROPE, TARGET = 0.05, 0.01, 0.8


def frame(m: int, k: int = 100) -> pd.DataFrame:
    rng = np.random.default_rng(m)
    values = np.linspace(0.9, 0.7, m)[:, None] + rng.normal(0, 0.02, (m, k))
    names = [f"svc(C={i}, gamma=0.{i % 7})" for i in range(m)]
    return pd.DataFrame(values, index=names).cmp.set_design(cv=10)


def holm(p: np.ndarray) -> np.ndarray:
    order = np.argsort(p, kind="stable")
    adjusted = np.empty_like(p)
    steps = p[order] * (p.size - np.arange(p.size))
    adjusted[order] = np.minimum(np.maximum.accumulate(steps), 1)
    return adjusted


def floor(scores: pd.DataFrame, lines: int, ratio: float = 1 / 9) -> tuple[str, tuple]:
    x = scores.to_numpy()
    names = scores.index.to_numpy(object)
    m, n = x.shape
    # Summary: mean, sd, rank, corrected interval of each model's mean.
    mean, sd = x.mean(axis=1), x.std(axis=1, ddof=1)
    order = np.argsort(-mean, kind="stable")
    t_crit = stats.t.ppf(1 - ALPHA / 2, n - 1)
    half = t_crit * sd * np.sqrt(1 / n + ratio)
    # The family: every pair up to 10 models (best first), the best against the rest beyond.
    if m <= ALL_PAIRS_UP_TO:
        i, j = np.triu_indices(m, 1)
        i, j = order[i], order[j]
    else:
        i, j = np.full(m - 1, order[0]), order[1:]
    d = x[i] - x[j]
    diff, sd_diff = d.mean(axis=1), d.std(axis=1, ddof=1)
    se = sd_diff * np.sqrt(1 / n + ratio)
    t = diff / se
    p = 2 * stats.t.sf(np.abs(t), n - 1)
    p_adj = holm(p)
    ci_low, ci_high = diff - t_crit * se, diff + t_crit * se
    d_z = diff / sd_diff
    # Bayesian correlated t-test: Student t posterior, location diff, scale se.
    better = stats.t.sf((ROPE - diff) / se, n - 1)
    worse = stats.t.cdf((-ROPE - diff) / se, n - 1)
    # Detectable difference: the noncentrality with power 0.8 at alpha/m, times se.
    crit = stats.t.ppf(1 - ALPHA / len(i) / 2, n - 1)

    # One tail: the other adds below 1e-15 at these levels, under nctdtrinc's precision.
    mdd = special.nctdtrinc(n - 1, 1 - TARGET, crit) * se
    # The result frames the report rests on (as the other benchmarks' floors build theirs).
    a, b = names[i], names[j]
    summary = pd.DataFrame(
        {"mean": mean, "std": sd, "n_splits": n, "rank": np.argsort(order) + 1,
         "ci_low": mean - half, "ci_high": mean + half},
        index=scores.index,
    ).iloc[order]  # fmt: skip
    pairs = {"model_1": a, "model_2": b, "mean_diff": diff}
    significance = pd.DataFrame(
        {**pairs, "statistic": t, "df": n - 1.0, "pvalue": p, "pvalue_adj": p_adj,
         "reject": p_adj <= ALPHA, "ci_low": ci_low, "ci_high": ci_high}
    )  # fmt: skip
    decision = np.where(better >= 1 - ALPHA, a, np.where(worse >= 1 - ALPHA, b, "undecided"))
    bayes = pd.DataFrame(
        {**pairs, "prob_better": better, "prob_rope": 1 - better - worse,
         "prob_worse": worse, "decision": decision}
    )  # fmt: skip
    effect = pd.DataFrame({**pairs, "effect_size": d_z})
    frames = (summary, significance, bayes, effect)
    out = [f"{names[k]} {mean[k]:.4f} ({mean[k] - half[k]:.4f} to {mean[k] + half[k]:.4f})"
           for k in order[:10]]  # fmt: skip
    for row in range(lines - len(out)):
        r = row % len(i)
        out.append(
            f"{a[r]} vs {b[r]}: {diff[r]:+.4f} ({ci_low[r]:.4f} to {ci_high[r]:.4f}), "
            f"t = {t[r]:.3f}, p = {p[r]:.3f}, adjusted {p_adj[r]:.3f}, d_z = {d_z[r]:.2f}, "
            f"P = {better[r]:.3f} / {1 - better[r] - worse[r]:.3f} / {worse[r]:.3f}, "
            f"could detect {mdd[r]:.3g}"
        )
    return "\n".join(out), frames


def check_floor(scores: pd.DataFrame) -> None:
    """The floor computes the report's numbers: compare with the analysis it rests on."""
    found = analyse(scores, rope=ROPE)
    sig = found.significance
    names = scores.index
    x = scores.to_numpy()
    i, j = names.get_indexer(sig["model_1"]), names.get_indexer(sig["model_2"])
    d = x[i] - x[j]
    se = d.std(axis=1, ddof=1) * np.sqrt(1 / d.shape[1] + 1 / 9)
    assert np.allclose(sig["statistic"], d.mean(axis=1) / se)
    assert np.allclose(sig["pvalue_adj"], holm(sig["pvalue"].to_numpy()))
    n = d.shape[1]
    crit = stats.t.ppf(1 - ALPHA / len(i) / 2, n - 1)
    nc = found.detectable / se
    power = stats.nct.sf(crit, n - 1, nc) + np.nan_to_num(stats.nct.cdf(-crit, n - 1, nc))
    assert np.allclose(power, TARGET, atol=1e-6), power


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
    for m in (4, 20, 60) if quick else (4, 20, 60, 240, 1000):
        scores = frame(m)
        check_floor(scores)
        text = pdcompare.report(scores, rope=ROPE)
        lines = len(text.splitlines())
        report_time = floor_time = np.inf
        for _ in range(repeats):  # interleaved
            report_time = min(report_time, timed(pdcompare.report, scores, rope=ROPE))
            floor_time = min(floor_time, timed(floor, scores, lines))
        print(
            f"{m:>7} {lines:>6} {report_time:>9.4f} {floor_time:>8.4f} "
            f"{report_time / floor_time:>6.2f}"
        )


if __name__ == "__main__":
    main()
