"""Data sets shipped with pdcompare."""

from __future__ import annotations

from importlib import resources

import pandas as pd

from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.benchmark import from_long
from pdcompare.inputs.design import Design
from pdcompare.inputs.files import read_csv

__all__ = [
    "load_battles",
    "load_benchmark",
    "load_eval_items",
    "load_grid_search_scores",
    "load_judged_items",
    "load_rl_runs",
]


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

    scores = from_long(table, split="split")
    design = Design(
        test_train_ratio=1 / 9,
        source="cv=StratifiedKFold(n_splits=10)",
        n_repeats=1,
        n_folds=10,
    )
    return with_attrs(scores, {"design": design.to_attrs()})


def load_battles(*, return_truth: bool = False) -> pd.DataFrame | tuple[pd.DataFrame, pd.Series]:
    """6,000 simulated battles between 12 models of known strength, with ties.

    One row per battle: ``model_a``, ``model_b`` and ``winner`` (``"model_a"``,
    ``"model_b"``, ``"tie"``, ``"tie (bothbad)"`` or, for a tenth of the decided
    battles, the winning model's name), the shape of a Chatbot Arena export.
    The battles are drawn from Davidson's model with tie parameter ν = 0.5 and
    known ratings (1000 + 400 θ / ln 10, θ summing to zero); ``cirrus`` and
    ``delta`` are exactly equally strong. Regenerate with ``scripts/make_battles.py``.

    Parameters
    ----------
    return_truth : bool, default False
        Also return the true ratings (a Series indexed by model, best first).

    Returns
    -------
    pandas.DataFrame, or (pandas.DataFrame, pandas.Series)

    Examples
    --------
    >>> from pdcompare.datasets import load_battles
    >>> table, truth = load_battles(return_truth=True)
    >>> table.shape, truth.round(1).head(3).to_dict()
    ((6000, 3), {'atlas': 1236.2, 'borealis': 1163.3, 'cirrus': 1131.3})
    """
    folder = resources.files("pdcompare.datasets") / "data"
    with resources.as_file(folder / "battles.csv") as csv:
        table = pd.read_csv(csv)
    if not return_truth:
        return table
    with resources.as_file(folder / "battles_truth.csv") as csv:
        truth = pd.read_csv(csv, index_col="model")["rating"]
    return table, truth.sort_values(ascending=False)
def load_eval_items() -> pd.DataFrame:
    """Five language models' answers to 300 questions on 60 passages, five samples each.

    An evaluation-shaped data set: the same 300 reading-comprehension
    questions (``q000`` to ``q299``), five on each of 60 passages (``p00`` to
    ``p59``), answered five times (``sample`` 1 to 5) by each of five models
    (``large_tuned``, ``large``, ``medium``, ``small_distilled``, ``small``);
    ``correct`` is 1 for a right answer, 0 for a wrong one. The answers are
    simulated with the structure of real evaluations: questions on one
    passage are hard or easy together (clusters), the models' question
    scores are correlated (about 0.5 to 0.6), and each sample is a fresh
    draw. Regenerate with ``scripts/make_eval_items.py`` (seeded), which
    documents the simulation.

    Returns
    -------
    pandas.DataFrame
        Long table of 7,500 rows (model x question x sample), columns
        ``model, passage, question, sample, correct``. Pass it to
        :func:`pdcompare.from_items` with ``item="question",
        score="correct", sample="sample", cluster="passage"`` for an items
        frame (5 models x 300 questions, each cell the mean of five samples).

    Examples
    --------
    >>> from pdcompare.datasets import load_eval_items
    >>> answers = load_eval_items()
    >>> answers.head(3)
             model passage question  sample  correct
    0  large_tuned     p00     q000       1        1
    1  large_tuned     p00     q000       2        0
    2  large_tuned     p00     q000       3        1
    >>> answers.groupby("model", sort=False)["correct"].mean().round(3)
    model
    large_tuned        0.738
    large              0.698
    medium             0.636
    small_distilled    0.515
    small              0.517
    Name: correct, dtype: float64

    The items frame: each cell a question's mean over its five samples, the
    passages as clusters.

    >>> import pdcompare
    >>> items = pdcompare.from_items(
    ...     answers, item="question", score="correct", sample="sample", cluster="passage"
    ... )
    >>> items.shape
    (5, 300)
    >>> items.cmp.summary()[["mean", "se", "n_items", "n_clusters"]].round(4)
                       mean      se  n_items  n_clusters
    model
    large_tuned      0.7380  0.0286      300          60
    large            0.6980  0.0303      300          60
    medium           0.6360  0.0309      300          60
    small            0.5167  0.0329      300          60
    small_distilled  0.5147  0.0316      300          60
    """
    path = resources.files("pdcompare.datasets") / "data" / "eval_items.csv.gz"
    with resources.as_file(path) as csv:
        return read_csv(
            csv,
            compression="gzip",
            dtype={
                "model": str,
                "passage": str,
                "question": str,
                "sample": "int64",
                "correct": "int64",
            },
        )


def load_judged_items() -> pd.DataFrame:
    """Five language models' answers to 2,000 questions, graded by a judge and, on 300, by people.

    A judged evaluation (DESIGN section 31): every answer to the 2,000
    questions (``q0000`` to ``q1999``, ten on each of 200 topics ``t000`` to
    ``t199``) of each of five models (``large``, ``verbose``, ``medium``,
    ``small_tuned``, ``small``) is graded pass (1) or fail (0) by a judge,
    a language model (``judge``); people graded the answers to 300
    questions drawn at random (``human``, NaN on the others). The grades are
    simulated: the judge is lenient, more so with ``verbose``'s long answers,
    so its pass rates are too high and it ranks ``verbose`` above where the
    people put it. Regenerate with ``scripts/make_judged_dataset.py``
    (seeded), which documents the simulation.

    Returns
    -------
    pandas.DataFrame
        Long table of 10,000 rows (model x question), columns ``model,
        topic, question, judge, human``. Pass it to
        :func:`pdcompare.from_items` with ``item="question", score="judge",
        human="human"`` (and ``cluster="topic"``) for a labelled items frame.

    Examples
    --------
    >>> from pdcompare.datasets import load_judged_items
    >>> graded = load_judged_items()
    >>> graded.shape, int(graded["human"].notna().sum())
    ((10000, 5), 1500)
    >>> import pdcompare
    >>> items = pdcompare.from_items(graded, item="question", score="judge", human="human")
    >>> items.cmp.summary()[["mean", "n_labelled", "lam"]].round(3)
                  mean  n_labelled    lam
    model
    large        0.721         300  0.693
    verbose      0.689         300  0.703
    medium       0.661         300  0.751
    small_tuned  0.612         300  0.768
    small        0.567         300  0.691
    """
    path = resources.files("pdcompare.datasets") / "data" / "judged_items.csv.gz"
    with resources.as_file(path) as csv:
        return read_csv(
            csv,
            compression="gzip",
            dtype={
                "model": str,
                "topic": str,
                "question": str,
                "judge": "int64",
                "human": "float64",
            },
        )


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

    return from_long(table, model="agent", dataset="task", split="seed", paired=False)
