"""CorrectedPruner in real Optuna studies: the pruned trials are those a written-out rule drops."""

import numpy as np
import optuna
import pytest
from scipy import stats
from sklearn.model_selection import KFold, TimeSeriesSplit

import pdcompare
from pdcompare.optuna import CorrectedPruner
from pdcompare.stats.spending import critical_values

optuna.logging.set_verbosity(optuna.logging.WARNING)

N_SPLITS = 10
RATIO = 1 / 9


def fold_scores(n_models=12, seed=0):
    """Correlated fold scores: a shared fold effect plus each model's level and noise."""
    rng = np.random.default_rng(seed)
    fold = rng.normal(0, 0.02, N_SPLITS)
    level = np.linspace(0.90, 0.80, n_models)
    return level[:, None] + fold + rng.normal(0, 0.01, (n_models, N_SPLITS))


def run_study(scores, pruner, direction):
    sign = 1.0 if direction == "maximize" else -1.0

    def objective(trial):
        row = scores[trial.suggest_int("model", 0, len(scores) - 1)] * sign
        for fold, value in enumerate(row):
            trial.report(float(value), fold)
            if trial.should_prune():
                raise optuna.TrialPruned
        return float(row.mean())

    study = optuna.create_study(direction=direction, pruner=pruner)
    for model in np.random.default_rng(1).permutation(len(scores)):
        study.enqueue_trial({"model": int(model)})
    study.optimize(objective, n_trials=len(scores))
    return study


def written_out_levels(alpha, min_splits, spending):
    """Each look's level: alpha over the looks, or the Lan–DeMets bound's two-sided tail."""
    if spending == "bonferroni":
        return np.full(N_SPLITS - min_splits + 1, alpha / (N_SPLITS - min_splits + 1))
    fractions = np.arange(min_splits, N_SPLITS + 1) / N_SPLITS
    return 2 * stats.norm.sf(critical_values(fractions, alpha, spending))


def written_out_pruning(order, scores, alpha, min_splits, spending="pocock"):
    """Trial by trial: the fold at which each is pruned (None: completed), by scipy's t."""
    levels = written_out_levels(alpha, min_splits, spending)
    best = None
    pruned = []
    completed = 0
    for model in order:
        at = None
        if best is not None:
            for k in range(min_splits, N_SPLITS + 1):
                a, b = scores[best, :k], scores[model, :k]
                if a.mean() <= b.mean():
                    continue  # the trial leads: it is the one tested against
                d = a - b
                t = d.mean() / np.sqrt(d.var(ddof=1) * (1 / k + RATIO))
                # the best was chosen among the completed trials and this one
                if min(stats.t.sf(t, k - 1) * (completed + 1), 1.0) <= levels[k - min_splits]:
                    at = k
                    break
        pruned.append(at)
        completed += at is None
        if at is None and (best is None or scores[model].mean() > scores[best].mean()):
            best = model
    return pruned


@pytest.mark.parametrize(
    ("direction", "spending"),
    [("maximize", "pocock"), ("minimize", "pocock"), ("maximize", "obf"),
     ("maximize", "bonferroni")],
)  # fmt: skip
def test_pruned_trials_are_those_the_written_out_rule_drops(direction, spending):
    scores = fold_scores()
    pruner = CorrectedPruner(alpha=0.05, min_splits=4, cv=KFold(N_SPLITS), spending=spending)
    study = run_study(scores, pruner, direction)
    order = [t.params["model"] for t in study.trials]
    expected = written_out_pruning(order, scores, 0.05, 4, spending)
    got = [
        len(t.intermediate_values) if t.state == optuna.trial.TrialState.PRUNED else None
        for t in study.trials
    ]
    assert got == expected
    assert sum(at is not None for at in got) >= 3
    assert all(at is None or at >= 4 for at in got)


def test_no_prune_before_min_splits_nor_without_a_completed_trial():
    scores = fold_scores(4)
    study = run_study(scores, CorrectedPruner(min_splits=N_SPLITS, cv=N_SPLITS), "maximize")
    for trial in study.trials:
        assert len(trial.intermediate_values) == N_SPLITS


def test_pruner_reads_the_design_of_cv():
    pruner = CorrectedPruner(alpha=0.1, min_splits=3, cv=5, spending="bonferroni")
    assert (pruner.n_splits, pruner.test_train_ratio) == (5, 0.25)
    np.testing.assert_allclose(pruner.levels, 0.1 / 3)
    splits = list(KFold(4).split(np.zeros(20)))
    assert CorrectedPruner(cv=splits, min_splits=3).test_train_ratio == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    ("keywords", "error", "match"),
    [
        ({"alpha": 0, "cv": 5}, ValueError, "`alpha`"),
        ({"min_splits": 1, "cv": 5}, ValueError, "`min_splits` must be at least 2"),
        ({"min_splits": 2.5, "cv": 5}, TypeError, "`min_splits`"),
        ({"cv": TimeSeriesSplit(5)}, ValueError, "no single test/train ratio"),
        ({"min_splits": 6, "cv": 5}, ValueError, "`min_splits=6` is above the 5 splits"),
        ({"cv": 5, "spending": "linear"}, ValueError, "`spending` must be one of"),
        ({}, TypeError, "cv"),
    ],
)
def test_bad_input_is_named(keywords, error, match):
    with pytest.raises(error, match=match):
        CorrectedPruner(**keywords)


def test_more_steps_than_splits_is_refused():
    pruner = CorrectedPruner(min_splits=2, cv=3)
    study = optuna.create_study(pruner=pruner)

    def objective(trial):
        for step in range(4):
            trial.report(0.5, step)
            trial.should_prune()
        return 0.5

    with pytest.raises(ValueError, match="reported 4 steps but `cv` has 3 splits"):
        study.optimize(objective, n_trials=1)


def test_nan_fold_scores_warn_naming_the_trial():
    pruner = CorrectedPruner(min_splits=2, cv=3)
    study = optuna.create_study(direction="maximize", pruner=pruner)
    rows = [[0.9, 0.91, 0.92], [0.5, float("nan"), 0.6]]

    def objective(trial):
        row = rows[trial.number]
        for step, value in enumerate(row):
            trial.report(value, step)
            trial.should_prune()
        return 0.7

    with pytest.warns(pdcompare.PdcompareWarning, match="trial 1 reported a NaN or infinite"):
        study.optimize(objective, n_trials=2)
