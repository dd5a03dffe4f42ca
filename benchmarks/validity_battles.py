"""Validity on battles: coverage of Bradley–Terry intervals and rank sets, the z test's level.

20 models with known strengths θ (log odds, evenly spaced over [−1, 1] with
two pairs of exactly equal models), 5,000 battles between uniformly random
pairs, no ties (ties drawn independently of the strengths would pull the
"half" fit's ratings towards each other: the fit would then estimate
something other than the simulated strengths). Per simulated
arena: whether each model's 95 % percentile bootstrap interval covers its true
rating (1000 + 400 θ / ln 10, θ centred), whether the 95 % simultaneous rank
sets cover every true rank at once (a tied model's true rank being any rank
of its tie), and whether the z test of ``pairwise()`` rejects (α = 0.05,
uncorrected) for the two pairs of equal models (type-I error).

Run: python benchmarks/validity_battles.py [--quick] [--reps 200]
(``benchmarks/validity.py --part battles`` runs the same study).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from frames import simulated_battles

import pdcompare

# _bench lives beside this script, also when it is loaded from its file path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main

M = 20
N_BATTLES = 5000


def strengths() -> np.ndarray:
    theta = np.linspace(1.0, -1.0, M)
    theta[5] = theta[4]  # two pairs of equal models: m04 = m05, m14 = m15
    theta[15] = theta[14]
    return theta - theta.mean()


def replicate(seed: int) -> dict:
    theta = strengths()
    table = simulated_battles(theta, N_BATTLES, tie_rate=0.0, seed=seed)
    frame = pdcompare.from_battles(table)
    res = pdcompare.bradley_terry(frame, n_resamples=1000, random_state=seed)
    names = [f"m{k:02d}" for k in range(M)]
    truth = pd.Series(1000 + 400 * theta / np.log(10), index=names)[res.index]
    covered = (res["ci_low"] <= truth) & (truth <= res["ci_high"])
    better = (theta[None, :] > theta[:, None]).sum(axis=1)
    worse = (theta[None, :] < theta[:, None]).sum(axis=1)
    low = pd.Series(1 + better, index=names)[res.index]
    high = pd.Series(M - worse, index=names)[res.index]
    ranks_covered = bool(((res["rank_low"] <= high) & (res["rank_high"] >= low)).all())
    pairs = pdcompare.pairwise(frame, correction=None)
    equal = {frozenset(("m04", "m05")), frozenset(("m14", "m15"))}
    key = [frozenset(p) for p in zip(pairs["model_1"], pairs["model_2"], strict=True)]
    null_rows = pairs[[k in equal for k in key]]
    return {
        "interval_coverage": float(covered.mean()),
        "rank_sets_cover_all": ranks_covered,
        "z_rejects_equal_pair": float(null_rows["reject"].mean()),
    }


def run_study(reps: int, seed: int = 2024, jobs: int = 1) -> pd.DataFrame:
    """One row per simulated arena."""
    del jobs
    seeds = np.random.SeedSequence(seed).generate_state(reps)
    return pd.DataFrame([replicate(int(s)) for s in seeds])


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    reps = len(table)
    rows = [
        (
            "rating interval covers the true rating (per model)",
            table["interval_coverage"],
            reps * M,
        ),
        ("rank sets cover every true rank (jointly)", table["rank_sets_cover_all"], reps),
        ("z test rejects an equal pair (α = 0.05)", table["z_rejects_equal_pair"], reps * 2),
    ]
    lines = [
        f"Battles: {M} models x {N_BATTLES:,} battles, no ties, {reps} arenas "
        f"(seed {seed}, {seconds:.0f} s)",
        "",
        "| quantity | nominal | measured | Monte Carlo SE |",
        "| --- | --- | --- | --- |",
    ]
    nominal = ["0.95", "≥ 0.95", "0.05"]
    for (name, values, n), target in zip(rows, nominal, strict=True):
        p = float(np.mean(values))
        lines.append(f"| {name} | {target} | {p:.3f} | {np.sqrt(p * (1 - p) / n):.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> pd.DataFrame:
    return study_main(
        argv, __doc__.splitlines()[0], run_study, to_markdown,
        reps=200, quick=20, unit="arenas",
    )  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
