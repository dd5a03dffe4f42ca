"""Validity of the release gate: how often it passes a candidate that is worse by the margin.

``pdcompare.gate`` passes ("non-inferior") when the lower one-sided bound of
candidate − baseline at 1 − alpha is above −margin. At a true difference of
exactly −margin that must happen at most alpha of the time (the type-I error
of non-inferiority); at a true difference of 0 the pass rate is the gate's
power, and the rate of "worse" its false alarm (at most alpha too).

Settings, each under both truths (difference −margin and 0):

- **10 x 10 repeated CV** (the population ``linear`` of ``validity.py``: LDA on two
  exchangeable views of one data set of 200 rows, so the two learners have
  exactly the same expected accuracy); the candidate's 100 split accuracies
  are lowered by ``margin`` for the truth −margin, which keeps the CV
  correlation of real scores. ``corrected_ttest`` (the design given) and the
  plain ``ttest`` (the design unknown: what the gate falls back to).
- **independent runs**: 10 seeds per model, scores normal with sd 0.01;
  ``welch_ttest``.
- **one test set** of 400 samples, binormal scores (a model's score is
  ``mu * y + noise``, AUC ``Phi(mu / sqrt 2)``), the candidate's ``mu`` set
  so that its AUC is the baseline's 0.80 minus the margin (or equal);
  ``delong``.

Clustered items: two models on 50 passages of 10 questions, a shared and an own
passage effect (item differences correlated within a passage), the gate by the
paired t over questions clustered by passage (CR1, 49 degrees of freedom).

Run: ``python benchmarks/validity_gate.py [--reps 1000] [--quick] [--out FILE.md]``;
``validity.py --part gate`` runs it too. Seeded: the numbers are the same on
every run.
"""

from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import special

import pdcompare

# The CV machinery shared with the main validity study (same directory).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main
from _validity_common import (
    K_FOLDS,
    N_REPEATS,
    POPULATIONS,
    cv_accuracy,
    make_data,
    stratified_folds,
    views,
)

ALPHA = 0.05
MARGINS = {
    "cv": (0.01, 0.03), "runs": (0.005, 0.01), "test set": (0.02, 0.05), "items": (0.02, 0.05),
}  # fmt: skip
#: Items: 50 passages of 10 questions; each question's score is a passage effect shared by
#: both models, each model's own passage effect and its own noise (all sd 0.1), so the two
#: models' item differences correlate within a passage.
N_PASSAGES, PER_PASSAGE, ITEM_SD = 50, 10, 0.1
N_RUNS, RUN_SD = 10, 0.01
N_SAMPLES, BASE_AUC = 400, 0.80
TRUTHS = ("−margin", "0")


def _mu(auc: float) -> float:
    """Binormal separation giving ``auc``: AUC = Phi(mu / sqrt 2)."""
    return math.sqrt(2.0) * float(special.ndtri(auc))


def _outcomes(frame: pd.DataFrame, margin: float, **options) -> str:
    return str(pdcompare.gate(frame, "candidate", "baseline", margin=margin, **options)
               ["outcome"].iloc[0])  # fmt: skip


def replicate(seed: np.random.SeedSequence) -> list[tuple]:
    """One replication of every setting: (setting, test, margin, truth, outcome) rows."""
    rng = np.random.default_rng(seed)
    rows = []
    # 10 x 10 repeated CV of two equal learners.
    data = make_data("linear", rng)
    folds = stratified_folds(data["y"], K_FOLDS, N_REPEATS, rng)
    x1, x2 = views(data, "linear", POPULATIONS["linear"]["noise"])
    acc = [cv_accuracy("LDA", x, data["y"], folds).ravel() for x in (x1, x2)]
    for margin in MARGINS["cv"]:
        for truth, shift in zip(TRUTHS, (-margin, 0.0), strict=True):
            frame = pd.DataFrame(
                [acc[0] + shift, acc[1]],
                index=["candidate", "baseline"],
                columns=pd.MultiIndex.from_product([range(N_REPEATS), range(K_FOLDS)]),
            )
            test_size = 1 / K_FOLDS
            rows.append(("10x10 CV", "corrected_ttest", margin, truth,
                         _outcomes(frame, margin, test_size=test_size)))  # fmt: skip
            rows.append(("10x10 CV", "ttest", margin, truth, _outcomes(frame, margin)))
    # Independent runs.
    noise = rng.normal(0.0, RUN_SD, (2, N_RUNS))
    for margin in MARGINS["runs"]:
        for truth, shift in zip(TRUTHS, (-margin, 0.0), strict=True):
            frame = pd.DataFrame(0.8 + noise + [[shift], [0.0]], index=["candidate", "baseline"])
            frame = frame.cmp.set_design(paired=False)
            rows.append(("runs", "welch_ttest", margin, truth, _outcomes(frame, margin)))
    # One test set, binormal scores.
    y = rng.integers(0, 2, N_SAMPLES)
    noise = rng.standard_normal((2, N_SAMPLES))
    for margin in MARGINS["test set"]:
        for truth, auc in zip(TRUTHS, (BASE_AUC - margin, BASE_AUC), strict=True):
            frame = pd.DataFrame(
                {
                    "y": y,
                    "candidate": _mu(auc) * y + noise[0],
                    "baseline": _mu(BASE_AUC) * y + noise[1],
                }
            )
            rows.append(("test set", "delong", margin, truth, _outcomes(frame, margin)))
    # Questions in passages: the paired t over questions, clustered by passage.
    passage = np.repeat(np.arange(N_PASSAGES), PER_PASSAGE)
    shared = rng.normal(0.0, ITEM_SD, N_PASSAGES)[passage]
    own = rng.normal(0.0, ITEM_SD, (2, N_PASSAGES))[:, passage]
    scores = 0.7 + shared + own + rng.normal(0.0, ITEM_SD, (2, passage.size))
    clusters = dict(enumerate(passage))
    for margin in MARGINS["items"]:
        for truth, shift in zip(TRUTHS, (-margin, 0.0), strict=True):
            shifted = scores + np.array([[shift], [0.0]])
            wide = pd.DataFrame(shifted, index=["candidate", "baseline"])
            frame = wide.cmp.set_design(items=True, cluster=clusters)
            rows.append(("items", "ttest", margin, truth, _outcomes(frame, margin)))
    return rows


def run_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """Long table: setting, test, margin, truth, outcome rates with their standard errors."""
    seeds = np.random.SeedSequence(seed).spawn(reps)
    with warnings.catch_warnings():
        # The plain t on repeated CV warns that the splits overlap: what is measured here.
        warnings.simplefilter("ignore", pdcompare.PdcompareWarning)
        found = pd.DataFrame(
            [row for s in seeds for row in replicate(s)],
            columns=["setting", "test", "margin", "truth", "outcome"],
        )
    keys = ["setting", "test", "margin", "truth"]
    rates = (
        pd.crosstab([found[k] for k in keys], found["outcome"], normalize="index")
        .reindex(columns=["non-inferior", "worse", "inconclusive"], fill_value=0.0)
        .reset_index()
    )
    rates["reps"] = reps
    return rates


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """One row per (setting, test, margin): pass rate at −margin, pass and fail rates at 0."""
    reps = int(table["reps"].iloc[0])

    def rate(value: float) -> str:
        se = math.sqrt(value * (1 - value) / reps)
        return f"{value:.3f} ± {se:.3f}"

    lines = [
        "| setting | test | margin | passes at −margin (≤ 0.05) | passes at 0 (power) "
        "| fails at 0 (≤ 0.05) |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    order = {"10x10 CV": 0, "runs": 1, "test set": 2, "items": 3}
    grouped = table.groupby(["setting", "test", "margin"], sort=False)
    for (setting, test, margin), part in sorted(
        grouped, key=lambda item: (order[item[0][0]], item[0][1] != "corrected_ttest", item[0][2])
    ):
        at = part.set_index("truth")
        lines.append(
            f"| {setting} | `{test}` | {margin:g} | {rate(at.loc['−margin', 'non-inferior'])} "
            f"| {rate(at.loc['0', 'non-inferior'])} | {rate(at.loc['0', 'worse'])} |"
        )
    lines += [
        "",
        f"Outcome rates of `gate` at alpha = {ALPHA} over {reps} replications "
        f"(± Monte Carlo standard error), seed {seed}, {seconds:.0f} s on a loaded machine. "
        "Items: 50 passages of 10 questions, the clustered paired t over questions.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> pd.DataFrame:
    return study_main(
        argv, __doc__.splitlines()[0], run_study, to_markdown,
        reps=1000, quick=40, unit="replications",
    )  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
