"""Validity of Welch's power on runs, and of the forecast report's block bootstrap.

Two checks of DESIGN section 29, seeded:

- **power of runs**: ``power()`` on a runs frame says how often Welch's
  t-test rejects at a true difference ``delta``. Simulated: normal runs with
  the given spreads and numbers of runs, the rejection rate of
  ``scipy.stats.ttest_ind(equal_var=False)`` at 0.05 against the power
  computed from the true spreads, and the rate under the null (delta 0).
- **blocks of the confidence set**: three forecasters of equal expected loss
  whose errors are AR(1) in time (coefficient 0, 0.5 and 0.8), 150 time points. The
  model confidence set at 90 % holds every model (each is a best one) at
  least 90 % of the time when its bootstrap keeps the dependence; rows drawn
  one by one (``block_size=1``) exclude a best model far more often. The
  report's default block length is round(150^(1/3)) = 5; 10 and 20 show how
  much longer blocks a dependence this strong needs.

Run: ``python benchmarks/validity_runs.py [--reps 2000] [--quick] [--out FILE.md]``;
``validity.py --part runs`` runs it too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import pdcompare
from pdcompare.compare.analysis import default_block_size
from pdcompare.stats.welch_power import welch_power

# _bench lives beside this script, also when it is loaded from its file path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main

ALPHA = 0.05

#: AR(1) coefficients of the forecast errors in the blocks check.
PHIS = (0.0, 0.5, 0.8)

#: (sd_1, sd_2, n_1, n_2, delta) of the power check: spreads in score units.
POWER_SETTINGS = (
    (0.01, 0.01, 10, 10, 0.01),
    (0.01, 0.02, 5, 8, 0.02),
    (0.005, 0.02, 5, 20, 0.01),
    (0.01, 0.03, 20, 6, 0.03),
)


def run_power_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """Simulated rejection rate of Welch's test against ``welch_power``, and its null rate."""
    rng = np.random.default_rng(seed)
    rows = []
    for s1, s2, n1, n2, delta in POWER_SETTINGS:
        for truth in (0.0, delta):
            x = rng.normal(truth, s1, size=(reps, n1))
            y = rng.normal(0.0, s2, size=(reps, n2))
            p = stats.ttest_ind(x, y, axis=1, equal_var=False).pvalue
            rows.append(
                {
                    "sd_1": s1, "sd_2": s2, "n_runs_1": n1, "n_runs_2": n2, "delta": truth,
                    "computed": float(welch_power(truth, s1, s2, n1, n2, alpha=ALPHA))
                    if truth
                    else ALPHA,
                    "simulated": float(np.mean(p < ALPHA)), "reps": reps,
                }
            )
    return pd.DataFrame(rows)


def _ar_losses(n: int, phi: float, rng: np.random.Generator) -> pd.DataFrame:
    shocks = rng.normal(size=(3, n))
    errors = np.zeros((3, n))
    for t in range(1, n):
        errors[:, t] = phi * errors[:, t - 1] + shocks[:, t]
    y = np.zeros(n)
    return pd.DataFrame({"y": y, "a": errors[0], "b": errors[1], "c": errors[2]})


def run_blocks_study(reps: int, seed: int = 2024, n: int = 150) -> pd.DataFrame:
    """How often the 90 % confidence set drops one of three equally good forecasters."""
    rng = np.random.default_rng(seed)
    blocks = sorted({1, default_block_size(n), 10, 20})
    rows = []
    for phi in PHIS:
        dropped = dict.fromkeys(blocks, 0)
        for rep in range(reps):
            frame = _ar_losses(n, phi, rng)
            for block in blocks:
                found = pdcompare.confidence_set(
                    frame, block_size=block, n_resamples=500, random_state=rep
                )
                dropped[block] += int(not found["in_set"].all())
        rows += [
            {
                "phi": phi,
                "block_size": block,
                "n_obs": n,
                "excluded_a_best": count / reps,
                "reps": reps,
            }
            for block, count in dropped.items()
        ]
    return pd.DataFrame(rows)


def run_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """Both checks in one long table (``check`` says which)."""
    power = run_power_study(reps, seed).assign(check="power of runs")
    blocks = run_blocks_study(max(reps // 10, 20), seed).assign(check="blocks")
    return pd.concat([power, blocks], ignore_index=True)


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """The two tables of the validity page."""
    power = table[table["check"] == "power of runs"]
    blocks = table[table["check"] == "blocks"]
    lines = [
        "Welch's power on runs: computed (`power()`) against simulated rejection rates "
        f"(alpha {ALPHA}; delta 0 is the null)",
        "",
        "| sd_1 | sd_2 | runs | delta | computed | simulated |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in power.itertuples():
        lines.append(
            f"| {row.sd_1:g} | {row.sd_2:g} | {int(row.n_runs_1)} + {int(row.n_runs_2)} | "
            f"{row.delta:g} | {row.computed:.3f} | {row.simulated:.3f} |"
        )
    lines += [
        "",
        "Model confidence set at 90 % of three equally good forecasters whose errors are "
        "AR(1) with coefficient phi, 150 time points: share of series where a best model "
        "is excluded (at most 0.10 is right)",
        "",
        "| phi | " + " | ".join(f"block {int(b)}" for b in sorted(blocks["block_size"].unique()))
        + " |",
        "|---:|" + "---:|" * blocks["block_size"].nunique(),
    ]
    for phi, group in blocks.groupby("phi", sort=True):
        cells = " | ".join(f"{v:.3f}" for v in group.sort_values("block_size")["excluded_a_best"])
        lines.append(f"| {phi:g} | {cells} |")
    lines += [
        "",
        f"{int(power['reps'].iloc[0])} replicates per power setting, "
        f"{int(blocks['reps'].iloc[0])} series per block size; seed {seed}; {seconds:.0f} s.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> pd.DataFrame:
    return study_main(
        argv, __doc__.splitlines()[0], run_study, to_markdown,
        reps=2000, quick=400, unit="replicates (a tenth as many series)",
    )  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
