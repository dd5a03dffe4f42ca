"""How often ``pareto`` calls a dearer model "front" when it is truly no better (DESIGN 35).

Three models on 10-fold CV scores (as ``validity_ranks.py`` draws them: a split
effect shared by the models, each model's splits correlated by ρ = 0.1, the
correlation Nadeau and Bengio's correction assumes, σ = 0.02): X (cost 1,
θ = 0.80), Y (cost 2, θ = 0.80 + δ) and Z (cost 3, θ equal to Y's). Z's extra
cost buys nothing, so calling it "front" is an error. With δ of about one
standard error of a difference, Y is often "ambiguous" (not shown better than
X); the rule of section 25 compared Z only with the cheaper *front* models
(X), so Z was "front" whenever it beat X and lay above Y on the point
estimates. Section 35's rule compares Z with every cheaper model on the
point front (front or ambiguous), Holm over them: the rate is at most alpha.

Measured: the rate of Z "front" under both rules (the old one recomputed from
the same one-sided p-values), with its Monte Carlo standard error
√(p (1 − p) / reps), and how often Y was ambiguous.

Run: python benchmarks/validity_pareto.py [--reps 1000] [--quick]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

import pdcompare

N_SPLITS = 10
SIGMA = 0.02
RHO = 1 / N_SPLITS
ALPHA = 0.05
THETA_X = 0.80
DELTA = 0.015  # about 1.2 standard errors of a difference of two models' means
COST = pd.Series({"X": 1.0, "Y": 2.0, "Z": 3.0})


def frame_of(rng: np.random.Generator) -> pd.DataFrame:
    theta = np.array([THETA_X, THETA_X + DELTA, THETA_X + DELTA])
    split = rng.normal(0.0, 0.02, N_SPLITS)
    shared = np.sqrt(RHO) * rng.standard_normal((3, 1))
    own = np.sqrt(1.0 - RHO) * rng.standard_normal((3, N_SPLITS))
    values = theta[:, None] + split[None, :] + SIGMA * (shared + own)
    return pd.DataFrame(values, index=["X", "Y", "Z"])


def replicate(seed: np.random.SeedSequence) -> dict[str, float]:
    frame = frame_of(np.random.default_rng(seed))
    result = pdcompare.pareto(frame, COST, cv=N_SPLITS, alpha=ALPHA)
    status = result["status"].astype(str)
    better = {
        k: pdcompare.corrected_ttest(frame, "Z", k, alternative="better", cv=N_SPLITS)[
            "pvalue"
        ].iloc[0]
        for k in ("X", "Y")
    }
    mean = frame.mean(axis=1)
    z_on_point_front = mean["Z"] > mean["Y"] and mean["Z"] > mean["X"]
    cheaper_front = [k for k in ("X", "Y") if status[k] == "front"]
    old_front = (
        status["Z"] != "dominated"
        and z_on_point_front
        and all(better[k] < ALPHA for k in cheaper_front)
    )
    return {
        "front_now": float(status["Z"] == "front"),
        "front_before": float(old_front),
        "y_ambiguous": float(status["Y"] == "ambiguous"),
    }


def run_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    return pd.DataFrame([replicate(s) for s in np.random.SeedSequence(seed).spawn(reps)])


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    reps = len(table)

    def rate(p: float) -> str:
        return f"{100 * p:.1f} % (± {100 * np.sqrt(p * (1 - p) / reps):.1f})"

    lines = [
        f'A dearer model truly no better than a cheaper one, called "front" ({reps} '
        f"leaderboards of 3 models x {N_SPLITS}-fold CV, alpha {ALPHA}, seed {seed}, "
        f"{seconds:.0f} s; Y ambiguous in {100 * table['y_ambiguous'].mean():.0f} %):",
        "",
        "| rule | Z called front (± MC s.e.) |",
        "| --- | --- |",
        f"| better than every cheaper model on the point front, Holm (now) | "
        f"{rate(table['front_now'].mean())} |",
        f"| better than every cheaper front model (section 25 before) | "
        f"{rate(table['front_before'].mean())} |",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    reps = 200 if "--quick" in argv else 1000
    if "--reps" in argv:
        reps = int(argv[argv.index("--reps") + 1])
    start = time.perf_counter()
    table = run_study(reps)
    print(to_markdown(table, 2024, time.perf_counter() - start))


if __name__ == "__main__":
    main(sys.argv[1:])
