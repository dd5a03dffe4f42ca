"""An Optuna pruner that drops a trial the corrected t-test finds worse than the best trial."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import optuna
from optuna.pruners import BasePruner
from optuna.study import StudyDirection
from optuna.trial import TrialState

from pdcompare.inputs.design import design_from_cv
from pdcompare.stats.race import look, look_level


def _n_splits(cv: Any) -> int:
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        return int(cv)
    if isinstance(cv, list | tuple):
        return len(cv)
    return int(cv.get_n_splits())


class CorrectedPruner(BasePruner):
    """Prune a trial whose fold scores the corrected t-test finds worse than the best trial's.

    The objective reports one fold score per step (``trial.report(score,
    fold)``, the folds of ``cv``, the same for every trial). From
    ``min_splits`` reported folds on, every step is a look: the trial is
    compared with ``study.best_trial`` (completed trials only) on the folds
    both reported, in the study's direction, by the rule of
    :class:`pdcompare.RaceSearchCV` — the one-sided corrected t-test
    (Nadeau–Bengio, the test/train ratio of ``cv``) of whichever of the two
    has the better mean against the other, at ``alpha`` divided by the
    ``n_splits − min_splits + 1`` planned looks and by the number of trials
    the best was chosen from (the completed trials and this one). The chance
    of ever pruning a trial as good as the best is then at most ``alpha``
    for each trial (not for the study: every trial is its own race). Unlike Optuna's
    ``WilcoxonPruner``, the test knows that CV folds share their training
    data, and the level is spent over the looks.

    Parameters
    ----------
    alpha : float
        The chance, over a trial's folds, of pruning it when it is as good as
        the best trial.
    min_splits : int
        The first look follows this many folds (at least 2); the last fold is
        always a look.
    cv : int, scikit-learn splitter or list of (train, test) splits
        The splits the objective runs: the k of k-fold or the splitter
        (required; it gives the test/train ratio and the number of folds).

    Examples
    --------
    >>> import numpy as np
    >>> import optuna
    >>> optuna.logging.set_verbosity(optuna.logging.WARNING)
    >>> folds = {"good": np.array([0.90, 0.92, 0.91, 0.93, 0.90, 0.92]),
    ...          "poor": np.array([0.80, 0.81, 0.79, 0.80, 0.82, 0.80])}
    >>> def objective(trial):
    ...     scores = folds[trial.suggest_categorical("model", ["good", "poor"])]
    ...     for fold, score in enumerate(scores):
    ...         trial.report(score, fold)
    ...         if trial.should_prune():
    ...             raise optuna.TrialPruned()
    ...     return scores.mean()
    >>> study = optuna.create_study(direction="maximize",
    ...                             pruner=CorrectedPruner(min_splits=3, cv=6))
    >>> for model in ["good", "poor"]:
    ...     study.enqueue_trial({"model": model})
    >>> study.optimize(objective, n_trials=2)
    >>> [t.state.name for t in study.trials], len(study.trials[1].intermediate_values)
    (['COMPLETE', 'PRUNED'], 3)
    """

    def __init__(self, alpha: float = 0.05, min_splits: int = 5, *, cv: Any) -> None:
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < alpha < 1:
            msg = f"`alpha` must be a number in (0, 1); got {alpha!r}."
            raise ValueError(msg)
        if isinstance(min_splits, bool) or not isinstance(min_splits, numbers.Integral):
            msg = f"`min_splits` must be an int of at least 2; got {min_splits!r}."
            raise TypeError(msg)
        if min_splits < 2:
            msg = f"`min_splits` must be at least 2 (a t-test needs two folds); got {min_splits}."
            raise ValueError(msg)
        design = design_from_cv(cv)
        if design.time_ordered or design.test_train_ratio is None:
            msg = (
                f"`cv`: {design.source} has no single test/train ratio for the corrected "
                "t-test; pass the k of k-fold or a KFold, ShuffleSplit, ... splitter."
            )
            raise ValueError(msg)
        self.alpha = float(alpha)
        self.min_splits = int(min_splits)
        self.cv = cv
        self.n_splits = _n_splits(cv)
        if self.n_splits < 2:
            msg = f"`cv` gives {self.n_splits} split; the pruner needs at least 2."
            raise ValueError(msg)
        self.test_train_ratio = float(design.test_train_ratio)
        self.level = look_level(self.alpha, self.n_splits, self.min_splits)

    def prune(self, study: optuna.study.Study, trial: optuna.trial.FrozenTrial) -> bool:
        """Whether ``trial`` is significantly worse than ``study.best_trial`` now.

        Parameters
        ----------
        study : optuna.study.Study
            The study (one objective).
        trial : optuna.trial.FrozenTrial
            The running trial, its fold scores as intermediate values.

        Returns
        -------
        bool
            True when the corrected test at this look prunes the trial.
        """
        values = trial.intermediate_values
        if len(values) < min(self.min_splits, self.n_splits):
            return False
        if len(values) > self.n_splits:
            msg = (
                f"CorrectedPruner: trial {trial.number} reported {len(values)} steps but `cv` "
                f"has {self.n_splits} splits; report one fold score per step."
            )
            raise ValueError(msg)
        try:
            best = study.best_trial
        except ValueError:  # no completed trial yet
            return False
        steps = sorted(set(values) & set(best.intermediate_values))
        if len(steps) < min(self.min_splits, self.n_splits):
            return False
        scores = np.array(
            [[best.intermediate_values[s] for s in steps], [values[s] for s in steps]], float
        )
        if not np.isfinite(scores).all():
            return False
        if study.direction == StudyDirection.MINIMIZE:
            scores = -scores
        # The best trial was chosen among the completed ones: count them (and this trial).
        completed = len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))
        seen = look(
            scores, np.ones(2, dtype=bool), self.test_train_ratio, self.level, completed + 1
        )
        return bool(seen.drop[1])
