"""An Optuna pruner that drops a trial the corrected t-test finds worse than the best trial."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np
import optuna
from optuna.pruners import BasePruner
from optuna.study import StudyDirection
from optuna.trial import TrialState

from pdcompare._validation import OptionError, PdcompareWarning
from pdcompare.inputs.design import design_from_cv
from pdcompare.stats.race import look, look_levels
from pdcompare.stats.spending import SPENDING


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
    has the better mean against the other, at the look's level (``alpha``
    spent over the ``n_splits − min_splits + 1`` planned looks by
    ``spending``) divided by the number of trials the best was chosen from
    (the completed trials and this one). The chance
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
        The first look follows this many folds (at least 2, at most the
        splits of ``cv``); the last fold is always a look.
    cv : int, scikit-learn splitter or list of (train, test) splits
        The splits the objective runs: the k of k-fold or the splitter
        (required; it gives the test/train ratio and the number of folds).
    spending : {"pocock", "obf", "bonferroni"}
        How ``alpha`` is spent over the looks (Lan–DeMets; see
        :class:`pdcompare.RaceSearchCV`): ``levels`` holds each look's level.

    Notes
    -----
    A trial that reports a NaN or infinite fold score is not tested (it
    cannot be) and a warning names it.

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

    def __init__(
        self, alpha: float = 0.05, min_splits: int = 5, *, cv: Any, spending: str = "pocock"
    ) -> None:
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
        if self.min_splits > self.n_splits:
            msg = (
                f"`min_splits={self.min_splits}` is above the {self.n_splits} splits of `cv`: "
                "the pruner would never look; lower `min_splits`."
            )
            raise OptionError(msg, keyword="min_splits")
        if spending not in SPENDING:
            names = ", ".join(map(repr, SPENDING))
            msg = f"`spending` must be one of {names}; got {spending!r}."
            raise OptionError(msg, keyword="spending")
        self.spending = spending
        self.test_train_ratio = float(design.test_train_ratio)
        self.levels = look_levels(self.alpha, self.n_splits, self.min_splits, spending)
        self._warned: set[int] = set()

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
            if not np.isfinite(scores[1]).all() and trial.number not in self._warned:
                self._warned.add(trial.number)
                msg = (
                    f"CorrectedPruner: trial {trial.number} reported a NaN or infinite fold "
                    "score; the corrected test cannot read it, so the trial is not pruned."
                )
                warnings.warn(msg, PdcompareWarning, stacklevel=2)
            return False
        if study.direction == StudyDirection.MINIMIZE:
            scores = -scores
        # The best trial was chosen among the completed ones: count them (and this trial).
        completed = len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))
        level = self.levels[min(len(steps), self.n_splits) - self.min_splits]
        seen = look(scores, np.ones(2, dtype=bool), self.test_train_ratio, level, completed + 1)
        return bool(seen.drop[1])
