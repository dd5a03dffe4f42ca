"""Data sets shipped with pdcompare."""

from __future__ import annotations

from importlib import resources

import pandas as pd

from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.design import Design
from pdcompare.inputs.files import read_csv

__all__ = ["load_benchmark", "load_grid_search_scores", "load_rl_runs"]


def load_grid_search_scores() -> pd.DataFrame:
    """Fold scores of the scikit-learn gallery example on comparing models from a grid search.

    Four SVC kernels (``rbf``, ``linear``, ``3_poly``, ``2_poly``) x 100 splits
    of 10x10 repeated stratified cross-validation on ``make_moons(noise=0.352,
    random_state=1, n_samples=100)``, scored by ROC AUC. Each split trains on
    90 samples and tests on 10; that design is attached, so corrected tests
    need no keyword. Regenerate with ``scripts/make_grid_search_scores.py``.

    Returns
    -------
    pandas.DataFrame
        4 x 100 scores frame, models as rows (best first), with
        ``attrs["pdcompare"]["design"]``.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()
    >>> scores.shape
    (4, 100)
    >>> scores.mean(axis=1).round(4).to_dict()
    {'rbf': 0.94, 'linear': 0.93, '3_poly': 0.9044, '2_poly': 0.6852}
    """
    path = resources.files("pdcompare.datasets") / "data" / "grid_search_scores.csv"
    with resources.as_file(path) as csv:
        scores = read_csv(csv, index_col="model")
    scores.columns.name = "split"
    design = Design(
        test_train_ratio=10 / 90,
        n_train=90.0,
        n_test=10.0,
        source="cv=RepeatedStratifiedKFold(n_splits=10, n_repeats=10)",
        n_repeats=10,
        n_folds=10,
    )
    return with_attrs(scores, {"design": design.to_attrs()})


def load_benchmark() -> pd.DataFrame:
    """Fold scores of 7 scikit-learn classifiers on 22 data sets: a benchmark frame.

    The 10-fold stratified cross-validated accuracy (higher is better) of
    ``logistic`` (scaled logistic regression), ``lda``, ``naive_bayes``
    (Gaussian), ``knn`` (scaled, 5 neighbours), ``tree``, ``forest`` (50
    trees) and ``svc_rbf`` (scaled) on the four data sets scikit-learn ships
    (iris, wine, breast_cancer, digits) and 18 generated ones
    (``make_classification`` of varied difficulty, moons, circles, Gaussian
    quantiles, Hastie). Every model sees the same 10 splits of a data set.
    The design, 10-fold cross-validation (``n_test / n_train = 1/9``), is
    attached. Regenerate with ``scripts/make_benchmark.py``.

    Returns
    -------
    pandas.DataFrame
        7 x 220 benchmark frame: models as rows (index named ``model``),
        columns a ``(dataset, split)`` MultiIndex (22 data sets x 10 splits,
        data sets in the order above), with ``attrs["pdcompare"]["design"]``.

    Notes
    -----
    The data are stored as a long table (one row per model, data set and
    split, scores as exact float text) and pivoted here by key, never by row
    order.

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> scores = load_benchmark()
    >>> scores.shape
    (7, 220)
    >>> scores.columns.names
    FrozenList(['dataset', 'split'])
    >>> scores.T.groupby(level="dataset", sort=False).mean().T.loc[:, "iris":"wine"].round(3)
    dataset       iris   wine
    model
    logistic     0.953  0.983
    lda          0.980  0.989
    naive_bayes  0.953  0.972
    knn          0.947  0.961
    tree         0.940  0.882
    forest       0.940  0.983
    svc_rbf      0.947  0.983
    """
    path = resources.files("pdcompare.datasets") / "data" / "benchmark.csv"
    with resources.as_file(path) as csv:
        table = read_csv(csv, dtype={"model": str, "dataset": str, "split": str})
    from pdcompare.inputs.benchmark import from_long

    scores = from_long(table, split="split")
    design = Design(
        test_train_ratio=1 / 9,
        source="cv=StratifiedKFold(n_splits=10)",
        n_repeats=1,
        n_folds=10,
    )
    return with_attrs(scores, {"design": design.to_attrs()})


def load_rl_runs() -> pd.DataFrame:
    """Simulated runs of 5 reinforcement-learning agents on 26 tasks: a runs-over-tasks frame.

    Human-normalised scores (0 = random play, 1 = human; higher is better)
    of ``dqn``, ``c51``, ``qr_dqn``, ``rainbow`` and ``iqn`` on 26 Atari-like
    tasks, 5 seeds each. The agents are named after well-known families, but
    the numbers are simulated (seeded, by ``scripts/make_rl_runs.py``), not
    published results: skewed, noisy runs whose ranking changes from task to
    task, as in Agarwal et al. (2021).

    Returns
    -------
    pandas.DataFrame
        5 x 130 runs-over-tasks frame: models as rows, columns a ``(dataset,
        split)`` MultiIndex (26 tasks x 5 seeds), design ``paired=False``
        (the seeds of two agents have nothing to do with each other).

    Examples
    --------
    >>> from pdcompare.datasets import load_rl_runs
    >>> runs = load_rl_runs()
    >>> runs.shape, runs.attrs["pdcompare"]["design"]["paired"]
    ((5, 130), False)
    >>> runs.cmp.aggregate("iqm", n_resamples=2000, random_state=0).round(3)
             estimate  ci_low  ci_high
    model
    rainbow     0.850   0.796    0.905
    iqn         0.796   0.750    0.848
    qr_dqn      0.655   0.615    0.702
    c51         0.642   0.606    0.685
    dqn         0.479   0.451    0.507
    """
    path = resources.files("pdcompare.datasets") / "data" / "rl_runs.csv"
    with resources.as_file(path) as csv:
        table = read_csv(csv, dtype={"agent": str, "task": str})
    from pdcompare.inputs.benchmark import from_long

    return from_long(table, model="agent", dataset="task", split="seed", paired=False)
