"""benchmarks/validity_race.py: its written-out pruners prune what Optuna's own pruners prune."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import optuna
import pytest

from pdcompare.optuna import CorrectedPruner

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
optuna.logging.set_verbosity(optuna.logging.WARNING)


@pytest.fixture(scope="module")
def study_module():
    spec = importlib.util.spec_from_file_location("validity_race", BENCHMARKS / "validity_race.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def optuna_pruned(scores: np.ndarray, pruner) -> np.ndarray:
    """Which trials (after the first) a real Optuna study prunes, the candidates in order."""

    def objective(trial):
        row = scores[trial.number]
        for fold, value in enumerate(row):
            trial.report(float(value), fold)
            if trial.should_prune():
                raise optuna.TrialPruned
        return float(row.mean())

    study = optuna.create_study(direction="maximize", pruner=pruner)
    study.optimize(objective, n_trials=len(scores))
    pruned = [t.state == optuna.trial.TrialState.PRUNED for t in study.trials]
    return np.array(pruned[1:])


@pytest.mark.filterwarnings("ignore::optuna.exceptions.ExperimentalWarning")
def test_written_out_pruners_equal_optuna(study_module):
    scores = study_module.fold_scores(6, 0.1, np.random.default_rng(5))
    rules = {
        "CorrectedPruner": (
            study_module.corrected_prune,
            # the written-out rule spends alpha by Bonferroni over the looks
            lambda: CorrectedPruner(
                min_splits=study_module.MIN_SPLITS, cv=study_module.N_SPLITS,
                spending="bonferroni",
            ),
        ),
        "WilcoxonPruner": (
            lambda t, b, m: study_module.wilcoxon_prune(t, b, m, 0.1, 2),
            lambda: optuna.pruners.WilcoxonPruner(p_threshold=0.1, n_startup_steps=2),
        ),
    }
    for rule, make_pruner in rules.values():
        written = study_module.study(scores, rule)
        real = np.array([optuna_pruned(race, make_pruner()) for race in scores])
        np.testing.assert_array_equal(written, real)
    assert written.any()  # the Wilcoxon rule prunes some trials of these equal candidates


def test_a_tiny_study_tabulates_every_rule(study_module):
    table = study_module.run_study(8, seed=1)
    assert set(table["rule"]) == set(study_module.RULES)
    assert table["any_drop"].between(0, 1).all()
    markdown = study_module.to_markdown(table, 1, 0.0)
    assert markdown.count("\n| ") == 1 + len(study_module.RULES)
