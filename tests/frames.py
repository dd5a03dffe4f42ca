"""Frames the tests build: correlated fold scores, many ranked models, long names.

One module for every layer's tests (``pythonpath = tests``), so that a test
that needs "correlated scores" or "60 models best-first known" builds them
the same way as the others. Sizes are chosen where distinct quantities
differ (15 splits of 5-fold x 3 repeats: 1/15, n_test/n_train = 0.25 and
1/n_samples all differ).
"""

import numpy as np
import pandas as pd


def correlated_scores(n_models=5, n_splits=15, seed=0, decimals=None):
    """Fold scores with a shared fold difficulty (correlated models), model_0 best by design."""
    rng = np.random.default_rng(seed)
    fold = rng.normal(0.0, 0.03, size=n_splits)  # shared fold difficulty: correlated models
    values = 0.8 + fold + rng.normal(0.0, 0.02, size=(n_models, n_splits))
    values += np.linspace(0.03, 0.0, n_models)[:, None]
    if decimals is not None:
        values = values.round(decimals)
    names = [f"m{k}" for k in range(n_models)]
    return pd.DataFrame(values, index=names, columns=[f"s{k}" for k in range(n_splits)])


def scores_with_model_effects(m, n, seed, spread=0.03):
    """Correlated fold scores: a shared split effect plus random model effects and noise."""
    rng = np.random.default_rng(seed)
    split_effect = rng.normal(0.0, 0.04, n)
    model_effect = rng.normal(0.0, spread, (m, 1))
    values = 0.8 + split_effect + model_effect + rng.normal(0.0, 0.02, (m, n))
    return pd.DataFrame(values, index=[f"model{i}" for i in range(m)])


def ranked_models(m, k=100, seed=0):
    """m models whose names contain ", " (as a parameter repr does), best first in frame order."""
    rng = np.random.default_rng(seed)
    names = [f"svc(C={i}, gamma=0.{i % 7})" for i in range(m)]
    level = np.linspace(0.9, 0.7, m)[:, None]
    values = level + rng.normal(0, 0.02, (m, k))
    return pd.DataFrame(values, index=names, columns=[f"split{j}" for j in range(k)])


def shuffled_ranked_models(n=60, seed=0):
    """n models named with ", ", the i-th with mean 0.9 - 0.002 i, rows shuffled; and the names.

    The rows are shuffled so that a picture or table must order them itself;
    ``names`` is the best-first order. The design (10-fold) is attached.
    """
    rng = np.random.default_rng(seed)
    names = [f"svc, C={k}, gamma=scale" for k in range(n)]
    values = 0.9 - 0.002 * np.arange(n)[:, None] + rng.normal(0, 0.01, (n, 30))
    order = rng.permutation(n)
    frame = pd.DataFrame(values[order], index=[names[k] for k in order])
    return frame.cmp.set_design(cv=10), names


def rliable_score_dict():
    """Three algorithms with 3, 4 and 5 runs on 6 tasks (runs x tasks), as
    scripts/rliable_references.py builds them (numbers pasted from rliable there)."""
    rng = np.random.default_rng(20211201)
    return {name: rng.random((runs, 6)) * 1.4 for name, runs in (("a", 3), ("b", 4), ("c", 5))}


def runs_over_tasks(n_models=4, n_tasks=8, n_runs=5, seed=0, shift=0.05):
    """A runs-over-tasks frame: model_0 best by design, a task effect, independent runs."""
    import pdcompare

    rng = np.random.default_rng(seed)
    task = rng.normal(0.6, 0.2, size=n_tasks)
    rows = [
        (f"algo{m}", f"task{t}", s, task[t] - shift * m + rng.normal(0, 0.1))
        for m in range(n_models)
        for t in range(n_tasks)
        for s in range(n_runs)
    ]
    long = pd.DataFrame(rows, columns=["algorithm", "task", "seed", "score"])
    return pdcompare.from_long(long, model="algorithm", dataset="task", split="seed",
                               paired=False)
def label_predictions(n=200, accuracies=(0.9, 0.8), seed=0, names=("logistic", "tree")):
    """A predictions frame of binary labels: truth ``y`` and one column per model.

    Model k is right with probability ``accuracies[k]``, independently per row: the shape of
    out-of-fold predictions without fitting a model.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    frame = {"y": y}
    for name, accuracy in zip(names, accuracies, strict=True):
        frame[name] = np.where(rng.random(n) < accuracy, y, 1 - y)
    return pd.DataFrame(frame)


def gate_scores(shift, noise=0.01, seed=0, n_splits=10):
    """A candidate and a baseline over ``n_splits`` folds: candidate = baseline + shift + noise."""
    rng = np.random.default_rng(seed)
    base = 0.8 + rng.normal(0.0, 0.03, n_splits)
    diff = rng.normal(0.0, 1.0, n_splits)
    diff = (diff - diff.mean()) / diff.std(ddof=1) * noise  # exactly mean 0, sd `noise`
    return pd.DataFrame(
        [base + shift + diff, base],
        index=["candidate", "baseline"],
        columns=[f"fold{k}" for k in range(n_splits)],
    )


def gate_runs(shift, seed=0):
    """A runs frame (``paired=False``): 8 runs of the candidate, 10 of the baseline, sd 0.02."""
    rng = np.random.default_rng(seed)
    runs = [rng.normal(0.0, 1.0, 8), rng.normal(0.0, 1.0, 10)]
    runs = [(r - r.mean()) / r.std(ddof=1) * 0.02 for r in runs]  # exact means and sds
    frame = pd.DataFrame(
        [np.r_[0.8 + shift + runs[0], np.nan, np.nan], 0.8 + runs[1]],
        index=["candidate", "baseline"],
        columns=[f"seed{k}" for k in range(10)],
    )
    return frame.cmp.set_design(paired=False)


def gate_predictions(noise, n=400, seed=0):
    """A predictions frame of scores: the baseline's noise 1.0, the candidate's ``noise``."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    shared = rng.normal(0.0, 0.7, n)
    return pd.DataFrame(
        {
            "y": y,
            "candidate": y + shared + rng.normal(0.0, noise, n),
            "baseline": y + shared + rng.normal(0.0, 1.0, n),
        }
    )


def eval_items_long(
    n_models=3, n_clusters=8, per_cluster=5, n_samples=3, seed=0, corr=0.5, tasks=None
):
    """A long table of an evaluation: models x questions in passages x sampled answers (0/1).

    Each question has a difficulty shared by every model (the passage's plus its own), so
    item scores of different models correlate and questions of one passage too; model k
    is ``0.05 k`` less likely to be right. ``tasks`` (an int) splits the passages into tasks.
    """
    rng = np.random.default_rng(seed)
    n_items = n_clusters * per_cluster
    passage = np.repeat(np.arange(n_clusters), per_cluster)
    difficulty = rng.normal(0, 1, n_clusters)[passage] * np.sqrt(corr) + rng.normal(
        0, 1, n_items
    ) * np.sqrt(1 - corr)
    rows = []
    for k in range(n_models):
        p = 1 / (1 + np.exp(-(0.5 + difficulty - 0.2 * k)))
        for s in range(n_samples):
            right = (rng.random(n_items) < p).astype(int)
            rows.append(
                pd.DataFrame(
                    {
                        "model": f"m{k}",
                        "item": [f"q{i}" for i in range(n_items)],
                        "sample": s,
                        "score": right,
                        "passage": [f"p{c}" for c in passage],
                    }
                )
            )
    table = pd.concat(rows, ignore_index=True)
    if tasks is not None:
        table["task"] = [f"t{c % tasks}" for c in np.tile(passage, n_models * n_samples)]
    return table


def simulated_battles(strengths, n_battles, *, tie_rate=0.1, seed=0, names=None):
    """A long table of battles between random pairs of models with known Bradley–Terry strengths.

    ``strengths`` are natural-log odds θ: P(i beats j | no tie) = 1 / (1 + exp(θ_j − θ_i));
    a battle is a tie with probability ``tie_rate``. Columns model_a, model_b, winner.
    """
    rng = np.random.default_rng(seed)
    strengths = np.asarray(strengths, dtype=float)
    m = len(strengths)
    names = np.array([f"m{k:02d}" for k in range(m)] if names is None else names, dtype=object)
    a = rng.integers(0, m, n_battles)
    b = (a + rng.integers(1, m, n_battles)) % m
    p = 1.0 / (1.0 + np.exp(strengths[b] - strengths[a]))
    u = rng.random(n_battles)
    tie = rng.random(n_battles) < tie_rate
    winner = np.where(tie, "tie", np.where(u < p, "model_a", "model_b"))
    return pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner})


def ar_forecasts(n=150, seed=0, dates=True):
    """Forecasts with AR(1) errors (phi 0.8): 'ridge' best, 'lasso' close, 'naive' worse."""
    rng = np.random.default_rng(seed)
    shocks = rng.normal(size=(3, n))
    errors = np.zeros((3, n))
    for t in range(1, n):
        errors[:, t] = 0.8 * errors[:, t - 1] + shocks[:, t]
    y = rng.normal(size=n).cumsum()
    frame = pd.DataFrame(
        {
            "y": y,
            "ridge": y + errors[0],
            "lasso": y + 1.1 * errors[1],
            "naive": y + 1.6 * errors[2],
        }
    )
    if dates:
        frame.index = pd.date_range("2020-01-01", periods=n, freq="D")
    return frame


def seed_runs(n_models=3, n_runs=10, seed=0, prefix="seed"):
    """Scores of independent training runs, columns named like seeds ('seed0', ...)."""
    rng = np.random.default_rng(seed)
    values = 0.8 + rng.normal(0, 0.01, (n_models, n_runs))
    values += np.linspace(0.015, 0.0, n_models)[:, None]
    names = [f"net{k}" for k in range(n_models)]
    return pd.DataFrame(values, index=names, columns=[f"{prefix}{k}" for k in range(n_runs)])
