"""Validity of racing: how often a race drops a candidate when every candidate is equal.

Races of 20 *equal* candidates over 10 CV splits (the first look after
``min_splits`` = 5 splits), 1,000 races per setting, simulated from fold
scores rather than fitted models. A candidate's score on split ``f`` is

    fold effect_f (shared by every candidate: the split's difficulty)
    + b_c (the candidate's own luck of the training sets, shared by its splits)
    + e_cf (its noise on that split),

with ``Var(b_c) = rho s^2`` and ``Var(e_cf) = (1 - rho) s^2``: the differences of
two candidates are then equicorrelated over the splits with correlation
``rho``. Nadeau and Bengio's correction assumes ``rho = n_test / n`` (0.1 for
10-fold CV); the study runs rho = 0 (independent splits), 0.1 and 0.2 (more
correlation than the correction allows for, as Bouckaert and Frank found
on real data).

Rules, on the same fold scores:

- **RaceSearchCV**: every candidate races at once; from split 5 on, the
  one-sided corrected t-test (ratio 1/9) of the current best against every
  other running candidate, Holm over them times the number running (the
  best was chosen among them), at 0.05 / 6 per look
  (:func:`pdcompare.stats.race.race`); beside it the same rule without that
  factor, as DESIGN section 26 first worded it;
- **CorrectedPruner** and **Optuna's WilcoxonPruner**: an Optuna study
  runs the 20 candidates as trials one after another; each trial is compared,
  step by step, with the best *completed* trial. CorrectedPruner applies the
  same test (one comparison a look, times the number of trials the best was
  chosen from: the completed ones and this one) at 0.05 / 6 from step 5 on;
  WilcoxonPruner is written out from optuna's source (``optuna/pruners/_wilcoxon.py``:
  ``scipy.stats.wilcoxon(trial − best, alternative="less",
  zero_method="zsplit")`` at every step from ``n_startup_steps`` on, pruned
  when ``p < p_threshold`` unless the trial's mean is at least the best's), at
  ``p_threshold = 0.05, n_startup_steps = 5`` (matched) and at its defaults
  ``0.1, 2``. ``tests/examples/test_validity_race.py`` checks that the written-out
  rules prune exactly the trials optuna's own pruners prune in real studies.

The race's error rate is the fraction of races in which *any* candidate is
dropped: the family-wise error it promises to keep at ``alpha``. A pruner
judges each trial on its own (every trial is its own race against the best so
far): its promise is per trial, the fraction of trials pruned; the fraction
of studies with any pruned trial is given beside it.

Run: ``python benchmarks/validity_race.py [--reps 1000] [--out FILE.md]``
(``validity.py --part race`` runs it too). Seeded: the same numbers on every run.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from pdcompare.stats.race import look, look_level, race

# _bench lives beside this script, also when it is loaded from its file path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main

ALPHA = 0.05
N_CANDIDATES, N_SPLITS, MIN_SPLITS = 20, 10, 5
RATIO = 1 / (N_SPLITS - 1)
RHOS = (0.0, 0.1, 0.2)
SCALE = 0.02  # the sd of a candidate's score on one split
RULES = {
    "RaceSearchCV": "`RaceSearchCV`: any candidate dropped in the race",
    "without the factor": "the same without the factor for the choice of the best",
    "CorrectedPruner": "`CorrectedPruner`: a trial pruned (of 19)",
    "CorrectedPruner any": "`CorrectedPruner`: any trial pruned in the study",
    "Wilcoxon matched": "`WilcoxonPruner(p_threshold=0.05, n_startup_steps=5)`: a trial pruned",
    "Wilcoxon matched any": "the same: any trial pruned in the study",
    "Wilcoxon default": "`WilcoxonPruner()` (0.1, 2): a trial pruned",
    "Wilcoxon default any": "the same: any trial pruned in the study",
}


def fold_scores(reps: int, rho: float, rng: np.random.Generator) -> np.ndarray:
    """Scores of ``reps`` races of equal candidates, shape (reps, candidates, splits)."""
    fold = rng.normal(0.0, SCALE, (reps, 1, N_SPLITS))
    own = rng.normal(0.0, SCALE * math.sqrt(rho), (reps, N_CANDIDATES, 1))
    noise = rng.normal(0.0, SCALE * math.sqrt(1.0 - rho), (reps, N_CANDIDATES, N_SPLITS))
    return 0.8 + fold + own + noise


def corrected_prune(trial: np.ndarray, best: np.ndarray, completed: int) -> np.ndarray:
    """CorrectedPruner on one trial of every study: the step it is pruned at (0: never).

    ``trial`` and ``best`` have shape (studies, splits); higher is better;
    ``completed`` trials came before it (the best was chosen among them).
    """
    level = look_level(ALPHA, N_SPLITS, MIN_SPLITS)
    pruned_at = np.zeros(len(trial), dtype=int)
    for k in range(MIN_SPLITS, N_SPLITS + 1):
        pair = np.stack([best[:, :k], trial[:, :k]], axis=1)
        running = np.ones(pair.shape[:2], bool)
        drop = look(pair, running, RATIO, level, completed + 1).drop[:, 1]
        pruned_at = np.where((pruned_at == 0) & drop, k, pruned_at)
    return pruned_at


def wilcoxon_prune(
    trial: np.ndarray, best: np.ndarray, completed: int, p_threshold: float, n_startup_steps: int
) -> np.ndarray:
    """Optuna's WilcoxonPruner written out (study maximised): the step of the prune (0: never)."""
    pruned_at = np.zeros(len(trial), dtype=int)
    for k in range(max(2, n_startup_steps), N_SPLITS + 1):
        diff = trial[:, :k] - best[:, :k]
        p = stats.wilcoxon(diff, alternative="less", zero_method="zsplit", axis=1).pvalue
        # Optuna's safety: never prune a trial whose mean is at least the best's (all steps).
        average_is_best = best.mean(axis=1) <= trial[:, :k].mean(axis=1)
        drop = (p < p_threshold) & ~average_is_best
        pruned_at = np.where((pruned_at == 0) & drop, k, pruned_at)
    return pruned_at


def study(scores: np.ndarray, rule) -> np.ndarray:
    """Run the candidates as sequential trials of one study per race: which trials were pruned."""
    reps = len(scores)
    rows = np.arange(reps)
    best = np.zeros(reps, dtype=int)  # the first trial always completes
    completed = np.ones(reps, dtype=int)
    pruned = np.zeros((reps, N_CANDIDATES), dtype=bool)
    for trial in range(1, N_CANDIDATES):
        # Studies grouped by how many trials completed before this one (the rule's factor).
        for count in np.unique(completed):
            at = completed == count
            pruned[at, trial] = rule(scores[at, trial], scores[rows[at], best[at]], count) > 0
        mean, best_mean = scores[:, trial].mean(axis=1), scores[rows, best].mean(axis=1)
        best = np.where(~pruned[:, trial] & (mean > best_mean), trial, best)
        completed += ~pruned[:, trial]
    return pruned[:, 1:]


def replicate(rho: float, reps: int, seed: np.random.SeedSequence) -> dict[str, float]:
    """The fraction of races with any drop, per rule, on one set of simulated races."""
    scores = fold_scores(reps, rho, np.random.default_rng(seed))
    dropped = ~np.isnan(race(scores, RATIO, alpha=ALPHA, min_splits=MIN_SPLITS))
    rates = {
        "RaceSearchCV": dropped.any(axis=1).mean(),
        "without the factor": unfactored_race(scores).any(axis=1).mean(),
    }
    studies = {
        "CorrectedPruner": corrected_prune,
        "Wilcoxon matched": lambda t, b, m: wilcoxon_prune(t, b, m, 0.05, 5),
        "Wilcoxon default": lambda t, b, m: wilcoxon_prune(t, b, m, 0.1, 2),
    }
    for name, rule in studies.items():
        pruned = study(scores, rule)
        rates[name] = pruned.mean()
        rates[f"{name} any"] = pruned.any(axis=1).mean()
    return rates


def unfactored_race(scores: np.ndarray) -> np.ndarray:
    """The race as first worded (Holm over the others only): which candidates it drops."""
    level = look_level(ALPHA, N_SPLITS, MIN_SPLITS)
    running = np.ones(scores.shape[:-1], dtype=bool)
    dropped = np.zeros(scores.shape[:-1], dtype=bool)
    for k in range(MIN_SPLITS, N_SPLITS + 1):
        drop = look(scores[..., :k], running, RATIO, level, chosen_from=1).drop
        dropped |= drop
        running &= ~drop
    return dropped


def run_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """Long table: rho, rule, the fraction of races with any drop, reps."""
    rows = []
    for rho, child in zip(RHOS, np.random.SeedSequence(seed).spawn(len(RHOS)), strict=True):
        for rule, rate in replicate(rho, reps, child).items():
            rows.append({"rho": rho, "rule": rule, "any_drop": float(rate), "reps": reps})
    return pd.DataFrame(rows)


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """One row per rule, one column per correlation of the splits."""
    reps = int(table["reps"].iloc[0])

    def rate(value: float) -> str:
        return f"{value:.3f} ± {math.sqrt(value * (1 - value) / reps):.3f}"

    wide = table.pivot_table(
        index="rule", columns="rho", values="any_drop", aggfunc="first"
    ).reindex(list(RULES))
    header = " | ".join(f"rho = {rho:g}" for rho in wide.columns)
    lines = [f"| rule | {header} |", "| --- |" + " ---: |" * len(wide.columns)]
    for rule, row in wide.iterrows():
        lines.append(f"| {RULES[rule]} | " + " | ".join(rate(v) for v in row) + " |")
    lines += [
        "",
        f"Races (or Optuna studies of as many trials) of {N_CANDIDATES} equal candidates over "
        f"{N_SPLITS} splits, first look after {MIN_SPLITS}: the fraction of races with any "
        "candidate dropped, or of trials pruned (± Monte Carlo standard error; for trials an "
        f"underestimate, as the trials of a study are not independent), {reps} races per "
        f"column, alpha {ALPHA}, seed {seed}, {seconds:.0f} s on a loaded machine. rho: the "
        "correlation of two candidates' differences over the splits (the correction assumes "
        "0.1).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> pd.DataFrame:
    return study_main(
        argv, __doc__.splitlines()[0], run_study, to_markdown,
        reps=1000, quick=200, unit="races per correlation",
    )  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
