"""Validity of the anytime-valid comparison: type I error with a look after every item.

``pdcompare.sequential`` reads a pair's paired differences one unit at a time
and reports a confidence sequence: the chance that the true difference ever
leaves it, over every look, must stay at most alpha. This study measures it
on the cores the function runs (``pdcompare.stats.sequential``), all streams
at once:

- **type I error**, two equal models, a look after every unit from the 30th
  to 4 x ``planned_n`` (``PLANNED_N`` = 250 units): binary items (two
  independent models right 70 % of the time), and clustered items (clusters
  of 5 questions sharing a difficulty and a model-by-cluster effect, so that
  the item differences are correlated within a cluster; the unit is the
  cluster), for the normal-mixture and betting boundaries;
- **width**: the half-width at ``planned_n`` over the fixed-n z interval's
  (``z_{alpha/2} sd / sqrt(n)``), on the same streams;
- **stopping**: normal differences of sd 1 at twice the effect a fixed-n
  two-sided z-test at ``planned_n`` detects with power 0.8; the mean unit at
  which the sequence first excludes 0 (streams that never do count as 4 x
  ``planned_n``) over ``planned_n`` (the fixed-n sample).

Each rate is given with its Monte Carlo standard error. For reference, the
fixed-n z-test read after every unit (the peeking the sequence replaces) is
in the first rows.

Run: ``python benchmarks/validity_sequential.py [--reps 2000] [--quick] [--out FILE.md]``.
Seeded: the numbers are the same on every run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main

from pdcompare.stats import sequential as core

ALPHA = 0.05
PLANNED_N = 250
HORIZON = 4 * PLANNED_N
MIN_N = 30
CLUSTER_SIZE = 5
# Streams computed at once by the betting boundary (its grid multiplies the work).
BETTING_BLOCK = 100


def binary_streams(n: int, rng: np.random.Generator) -> tuple[np.ndarray, None]:
    """Unit differences of two equal models on independent binary items (n x HORIZON)."""
    a = rng.random((n, HORIZON)) < 0.7
    b = rng.random((n, HORIZON)) < 0.7
    return a.astype(float) - b.astype(float), None


def clustered_streams(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Cluster sums of the item differences of two equal models, and the cluster sizes."""
    shape = (n, HORIZON, 1)
    base = rng.beta(7, 3, shape)  # the cluster's difficulty, shared
    own_a = rng.normal(0, 0.12, shape)  # each model's affinity to the cluster
    own_b = rng.normal(0, 0.12, shape)
    u = rng.random((n, HORIZON, CLUSTER_SIZE))
    v = rng.random((n, HORIZON, CLUSTER_SIZE))
    a = u < np.clip(base + own_a, 0, 1)
    b = v < np.clip(base + own_b, 0, 1)
    sums = (a.astype(float) - b.astype(float)).sum(axis=2)
    return sums, np.full(HORIZON, float(CLUSTER_SIZE))


def _crossed(paths: core.Paths, truth: float) -> np.ndarray:
    """Whether each stream's interval ever leaves ``truth`` from the first look on."""
    low, high = paths.low[:, MIN_N - 1 :], paths.high[:, MIN_N - 1 :]
    return ((low > truth) | (high < truth)).any(axis=1)


def _paths(boundary: str, sums: np.ndarray, sizes: np.ndarray | None) -> core.Paths:
    if boundary == "normal_mixture":
        return core.normal_mixture_paths(sums, sizes, ALPHA, core.mixture_rho(PLANNED_N, ALPHA))
    means = sums if sizes is None else sums / sizes
    parts = [core.betting_paths((means[s : s + BETTING_BLOCK] + 1) / 2, ALPHA,
                                planned_n=PLANNED_N)
             for s in range(0, len(means), BETTING_BLOCK)]  # fmt: skip
    return core.Paths(*(2 * np.concatenate([p[k] for p in parts]) - 1 for k in range(3)))


def _z_peeking(sums: np.ndarray, sizes: np.ndarray | None) -> np.ndarray:
    """The fixed-n z interval read after every unit: whether it ever excludes 0."""
    t = np.arange(1, sums.shape[1] + 1)
    n1 = t if sizes is None else np.cumsum(sizes)
    s1 = np.cumsum(sums, axis=1)
    mean = s1 / n1
    s2 = np.cumsum(sums**2, axis=1)
    sn = s1 if sizes is None else np.cumsum(sums * sizes, axis=1)
    n2 = t if sizes is None else np.cumsum(sizes**2)
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(np.maximum(s2 - 2 * mean * sn + mean**2 * n2, 0) / (t - 1))
        half = stats.norm.isf(ALPHA / 2) * sd / np.sqrt(t) * (t / n1)
    paths = core.Paths(mean, mean - half, mean + half)
    return _crossed(paths, 0.0)


def _rate_row(setting: str, method: str, hits: np.ndarray) -> dict:
    rate = float(hits.mean())
    return {"setting": setting, "method": method, "value": rate,
            "mc_se": float(np.sqrt(rate * (1 - rate) / hits.size)), "n": hits.size}  # fmt: skip


def _width_row(setting: str, boundary: str, paths: core.Paths, sums, sizes) -> dict:
    """Half-width at planned_n over the fixed-n z interval's on the same data."""
    n = PLANNED_N
    part = sums[:, :n]
    size = np.ones(n) if sizes is None else sizes[:n]
    mean = part.sum(axis=1) / size.sum()
    sd = np.sqrt(((part - mean[:, None] * size) ** 2).sum(axis=1) / (n - 1))
    z_half = stats.norm.isf(ALPHA / 2) * sd / np.sqrt(n) * (n / size.sum())
    ratio = (paths.high[:, n - 1] - paths.low[:, n - 1]) / 2 / z_half
    ratio = ratio[np.isfinite(ratio)]
    return {"setting": setting, "method": f"{boundary}: width ratio at planned_n",
            "value": float(ratio.mean()), "mc_se": float(ratio.std(ddof=1) / np.sqrt(ratio.size)),
            "n": ratio.size}  # fmt: skip


def _stopping_rows(reps: int, rng: np.random.Generator) -> list[dict]:
    """Mean stopping unit over planned_n at twice the effect planned_n detects with power 0.8."""
    effect = (stats.norm.isf(ALPHA / 2) + stats.norm.isf(0.2)) / np.sqrt(PLANNED_N)
    d = rng.normal(2 * effect, 1.0, (reps, HORIZON))
    paths = core.normal_mixture_paths(d, None, ALPHA, core.mixture_rho(PLANNED_N, ALPHA))
    codes = core.interval_codes(paths, None, True)
    code, at = core.first_decision(codes[:, MIN_N - 1 :], MIN_N - 1)
    stop = np.where(code > 0, at, HORIZON) / PLANNED_N
    return [{"setting": "normal differences, 2x planned effect",
             "method": "normal_mixture: mean stop / fixed-n sample", "value": float(stop.mean()),
             "mc_se": float(stop.std(ddof=1) / np.sqrt(reps)), "n": reps}]  # fmt: skip


def run_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """Every row of the study: type I errors, width ratios and the mean stopping point."""
    rng = np.random.default_rng(seed)
    rows = []
    for setting, make in (
        ("binary items", binary_streams),
        ("clustered items", clustered_streams),
    ):
        sums, sizes = make(reps, rng)
        rows.append(_rate_row(setting, "fixed-n z read after every unit", _z_peeking(sums, sizes)))
        for boundary in ("normal_mixture", "betting"):
            paths = _paths(boundary, sums, sizes)
            rows.append(_rate_row(setting, f"{boundary}: type I error", _crossed(paths, 0.0)))
            rows.append(_width_row(setting, boundary, paths, sums, sizes))
    rows += _stopping_rows(reps, rng)
    return pd.DataFrame(rows)


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """The table of the documentation."""
    lines = [
        f"Anytime-valid comparisons (alpha = {ALPHA}, planned_n = {PLANNED_N} units, looks "
        f"after every unit from the {MIN_N}th to {HORIZON}; seed {seed}; {seconds:.0f} s).",
        "",
        "| setting | quantity | value | Monte Carlo SE | streams |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in table.itertuples():
        lines.append(
            f"| {row.setting} | {row.method} | {row.value:.3f} | {row.mc_se:.3f} | {row.n} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> pd.DataFrame:
    return study_main(
        argv, __doc__.splitlines()[0], run_study, to_markdown, reps=2000, quick=200,
        unit="streams",
    )  # fmt: skip


if __name__ == "__main__":
    main()
