"""Rank confidence sets (``ranks``): the step-down against a naive numpy single step.

Sizes: 200 models (``--quick``) and 1,000 models, 10,000 draws, simultaneous
sets with the step-down, on two covariances:

* "scores": a scores frame of 100 splits (a shared fold effect: correlated
  models), the Nadeau–Bengio covariance, through ``scores.cmp.ranks()``
  (validation and the result frame included);
* "diagonal": independent estimates with variances from 0.5 to 2 (a runs
  frame, a PISA-like league table), through the core ``rank_confidence_sets``.

Against, in the same process and interleaved (minimum over rounds): the naive
vectorised computation of ONE step only, the draws and the maximum of
(Z_j − Z_k)/σ_jk over all m(m − 1) ordered pairs, chunked over draws (a
step-down repeats it once per step). At 1,000 models the naive step runs on
1,000 of the draws and is scaled by 10 (marked "*"). Peak memory is
tracemalloc's peak of one call.

Without ``--quick``, also the marginal sets (``simultaneous=False``) of 200
models: each model's family needs its maximum over all its pairs in every
draw (read in single precision), so they cost about what the naive step does.

Few splits (section 35): the scores frame's Σ̂ has k − 1 degrees of freedom
and the draws are studentised (Wishart). Timed: 10 and 40 models on 10
splits (the whole (draws, m, m) array of studentised statistics, up to 64
MiB), and 200 models on 100 splits (above: one common scale per draw).

Targets (issue 41): 200 models under 1 s; 1,000 models within 10 s.

Run: python benchmarks/bench_ranks.py [--quick]
"""

from __future__ import annotations

import sys
from functools import partial

import numpy as np
from _bench import interleaved, make_scores, peak_mib

from pdcompare.stats.rank_sets import normal_draws, rank_confidence_sets

N_DRAWS = 10_000


def naive_step(estimates, cov, n_draws, seed=0):
    """One step of the max-t quantile: draws, then max over all ordered pairs, chunked."""
    var = np.diag(cov)
    sd = np.sqrt(np.maximum(var[:, None] + var[None, :] - 2 * cov, 1e-300))
    inv = 1.0 / sd
    np.fill_diagonal(inv, 0.0)
    draws = normal_draws(cov, n_draws, np.random.default_rng(seed))
    m = len(estimates)
    step = max(1, 2**25 // (8 * m * m))
    top = np.empty(n_draws)
    for start in range(0, n_draws, step):
        z = draws[start : start + step]
        top[start : start + step] = ((z[:, :, None] - z[:, None, :]) * inv).max(axis=(1, 2))
    q = np.quantile(top, 0.95)
    t = (estimates[:, None] - estimates[None, :]) * inv
    return (t > q).sum()


def diagonal_case(m, seed=0):
    rng = np.random.default_rng(seed)
    return np.sort(rng.normal(0.0, 1.0, m)), np.diag(rng.uniform(0.5, 2.0, m) * 0.01)


def run(m, rounds):
    scores = make_scores(m, n_splits=100)
    values = scores.to_numpy()
    cov_scores = np.cov(values) * (1 / 100 + 10 / 90)
    x_scores = values.mean(axis=1)
    x_diag, cov_diag = diagonal_case(m)
    naive_draws = N_DRAWS if m <= 300 else 1_000
    scale = N_DRAWS / naive_draws
    mark = "" if scale == 1 else "*"
    cases = {
        "scores ranks()": lambda: scores.cmp.ranks(random_state=0),
        "scores naive step": lambda: naive_step(x_scores, cov_scores, naive_draws),
        "diagonal core": lambda: rank_confidence_sets(x_diag, cov_diag, random_state=0),
        "diagonal naive step": lambda: naive_step(x_diag, cov_diag, naive_draws),
    }
    best = interleaved(cases, rounds)
    for kind in ("scores", "diagonal"):
        ours_name = "scores ranks()" if kind == "scores" else "diagonal core"
        ours = best[ours_name]
        naive = best[f"{kind} naive step"] * scale
        peak = peak_mib(cases[ours_name])
        if kind == "scores":
            result = scores.cmp.ranks(random_state=0)
            width = float((result["rank_high"] - result["rank_low"]).mean())
        else:
            _, low, high = rank_confidence_sets(x_diag, cov_diag, random_state=0)
            width = float((high - low).mean())
        print(
            f"{m:5d} models  {kind:8s}  step-down {ours:6.2f} s  naive one step{mark} "
            f"{naive:6.2f} s  ratio {ours / naive:5.2f}  peak {peak:6.0f} MiB  "
            f"mean set width {width:.1f}"
        )


def run_marginal(m, rounds):
    """Marginal sets: every model's own family, each a maximum over its m − 1 pairs per draw."""
    x_diag, cov_diag = diagonal_case(m)
    cases = {
        "marginal": lambda: rank_confidence_sets(
            x_diag, cov_diag, simultaneous=False, random_state=0
        ),
        "naive step": lambda: naive_step(x_diag, cov_diag, N_DRAWS),
    }
    best = interleaved(cases, rounds)
    peak = peak_mib(cases["marginal"])
    print(
        f"{m:5d} models  diagonal  marginal {best['marginal']:6.2f} s  naive one step "
        f"{best['naive step']:6.2f} s  ratio {best['marginal'] / best['naive step']:5.2f}  "
        f"peak {peak:6.0f} MiB"
    )


def run_few_splits(rounds):
    """Studentised draws on scores frames of 10 splits: 10 and 40 models."""
    frames = {m: make_scores(m, n_splits=10) for m in (10, 40)}
    cases = {
        f"{m} models x 10 splits": partial(frame.cmp.ranks, cv=10, random_state=0)
        for m, frame in frames.items()
    }
    best = interleaved(cases, rounds)
    for name, seconds in best.items():
        print(f"{name:22s}  studentised (Wishart, 9 df)  {seconds:6.2f} s")


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"rank confidence sets, {N_DRAWS} draws, simultaneous, step-down")
    run(200, rounds=2 if quick else 3)
    run_few_splits(rounds=2 if quick else 3)
    if not quick:
        run(1000, rounds=1)
        run_marginal(200, rounds=2)


if __name__ == "__main__":
    main()
