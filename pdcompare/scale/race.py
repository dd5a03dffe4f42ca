"""Racing inside a scikit-learn search: drop candidates the corrected t-test says are worse.

:class:`RaceSearchCV` and :class:`RaceRandomizedSearchCV` are scikit-learn
searches (``BaseSearchCV``) that fit the candidates split by split, one round
a split, through scikit-learn's own ``evaluate_candidates``. From
``min_splits`` splits on, every round is a look: the running candidate with
the highest mean so far is the current best, every other running candidate
is tested against it by the one-sided corrected t-test (Nadeau–Bengio, the
ratio from the CV design of ``cv``), the p-values are Holm-adjusted over those
candidates and multiplied by the number of running candidates (the best
was chosen among them), and a candidate whose adjusted p-value is at most
the look's level leaves the race. The levels spend ``alpha`` over the
planned looks by a Lan–DeMets function (``spending``: Pocock-type by
default, O'Brien–Fleming-type, or Bonferroni's equal shares), so that the
chance of ever dropping a candidate as good as the best stays at most
``alpha`` over the whole race. The rule is :mod:`pdcompare.stats.race`.

The splits are drawn once (a random splitter without a seed gets
``random_state``), so every candidate meets the same splits.
"""

from __future__ import annotations

import copy
import numbers
import re
import warnings
from abc import abstractmethod
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn.model_selection import ParameterGrid, ParameterSampler
from sklearn.model_selection._search import BaseSearchCV
from sklearn.utils._param_validation import Interval, StrOptions

from pdcompare._validation import OptionError, PdcompareWarning
from pdcompare.inputs.design import Design, explicit_splits_design, splitter_design
from pdcompare.stats.race import drop_difference, look, look_bounds, look_levels
from pdcompare.stats.spending import SPENDING

_NON_FINITE = re.compile(r"One or more of the (test|train) scores are non-finite")


class _SharedSplits:
    """The splits of a splitter, drawn once on the first call and then reused."""

    def __init__(self, cv: Any) -> None:
        self.cv = cv
        self.splits: list | None = None

    def get(self, X: Any, y: Any, groups: Any) -> list:
        if self.splits is None:
            self.splits = list(self.cv.split(X, y, groups))
        return self.splits


class _OneSplit:
    """A splitter that yields one split of a :class:`_SharedSplits` (one round of the race)."""

    def __init__(self, shared: _SharedSplits, index: int) -> None:
        self.shared = shared
        self.index = index

    def split(self, X: Any, y: Any = None, groups: Any = None):
        yield self.shared.get(X, y, groups)[self.index]

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        return 1


def _nan_like(value: Any) -> Any:
    return dict.fromkeys(value, np.nan) if isinstance(value, dict) else np.nan


def _placeholder(fit: dict) -> dict:
    """The result of a fit that did not run (a candidate dropped before this split)."""
    filler = dict(fit, fit_time=np.nan, score_time=np.nan, fit_error=None)
    for key in ("test_scores", "train_scores"):
        if key in fit:
            filler[key] = _nan_like(fit[key])
    return filler


def _masked_moments(values: np.ndarray, ran: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and (population) standard deviation of each row over the splits it ran."""
    count = ran.sum(axis=1)
    mean = np.where(ran, values, 0.0).sum(axis=1) / count
    spread = np.where(ran, (values - mean[:, None]) ** 2, 0.0).sum(axis=1) / count
    return mean, np.sqrt(spread)


def race_ranks(means: np.ndarray, dropped_at: np.ndarray) -> np.ndarray:
    """Ranks of a race: running candidates by mean, then the dropped ones, latest first.

    Ties share the lowest rank (scikit-learn's ``method="min"``); a NaN mean
    (failed fits) ranks last of its group, as scikit-learn ranks it; dropped
    candidates that left at the same split are ranked by their means.

    Examples
    --------
    >>> race_ranks(np.array([0.9, 0.8, 0.95, 0.7]), np.array([np.nan, np.nan, 5.0, 6.0])).tolist()
    [1, 2, 4, 3]
    """
    means = np.asarray(means, dtype=float)
    dropped = ~np.isnan(dropped_at)
    finite = means[~np.isnan(means)]
    filled = np.where(np.isnan(means), (finite.min() - 1) if finite.size else 0.0, means)
    keys = np.column_stack([dropped, -np.nan_to_num(dropped_at, nan=0.0), -filled])
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    new = np.r_[True, (ordered[1:] != ordered[:-1]).any(axis=1)]
    first = np.flatnonzero(new)
    ranks = np.empty(len(means), dtype=np.int32)
    ranks[order] = (first[np.cumsum(new) - 1] + 1).astype(np.int32)
    return ranks


class _Race(BaseSearchCV):
    """What the two race searches share: the rounds, the looks and ``cv_results_``."""

    _parameter_constraints: ClassVar[dict] = {
        **{
            key: value
            for key, value in BaseSearchCV._parameter_constraints.items()
            if key in ("estimator", "scoring", "n_jobs", "cv")
        },
        "refit": ["boolean", str],
        "alpha": [Interval(numbers.Real, 0, 1, closed="neither")],
        "min_splits": [Interval(numbers.Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
        "spending": [StrOptions(set(SPENDING))],
    }

    # BaseSearchCV's other settings, fixed (the race's signature does not expose them).
    verbose = 0
    pre_dispatch = "2*n_jobs"
    error_score = np.nan
    return_train_score = False

    @abstractmethod
    def _candidate_params(self) -> list[dict]:
        """The candidates of the race: the grid's, or those sampled from the distributions."""

    def fit(self, X: Any, y: Any = None, **params: Any) -> _Race:
        """Race the candidates split by split, then refit the best on the whole data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,) or (n_samples, n_outputs), optional
            Target.
        **params : dict
            Passed on as by ``GridSearchCV.fit`` (``groups``, fit parameters).

        Returns
        -------
        self
            The fitted search, with ``cv_results_``, ``race_`` and, when
            ``refit``, ``best_estimator_``.
        """
        try:
            super().fit(X, y, **params)
        finally:
            state = self.__dict__.pop("_race_state", None)
            for key in ("_race_params", "_race_rounds", "_race_n_splits", "_race_design"):
                self.__dict__.pop(key, None)
        self.race_ = self._race_frame(state)
        return self

    def _racing_metric(self) -> str:
        return self.refit if isinstance(self.refit, str) else "score"

    def _race_cv(self) -> Any:
        """The resolved splitter, given ``random_state`` when it shuffles without one."""
        cv = self._checked_cv_orig
        if (
            self.random_state is not None
            and getattr(cv, "random_state", 0) is None
            and getattr(cv, "shuffle", True)
        ):
            cv = copy.deepcopy(cv)
            cv.random_state = self.random_state
        return cv

    def _run_search(self, evaluate_candidates) -> None:
        scoring = self.scoring
        multi = not (scoring is None or isinstance(scoring, str) or callable(scoring))
        if multi and not isinstance(self.refit, str):
            msg = (
                f"{type(self).__name__} with several metrics in `scoring` races on one: pass "
                f"`refit=` with its name (one of {sorted(self.scoring)!r} for a dict)."
            )
            raise ValueError(msg)
        candidates = self._candidate_params()
        n_splits = int(self.n_splits_)
        if n_splits < 2:
            msg = f"`cv` gives {n_splits} split; a race needs at least 2 splits to test."
            raise ValueError(msg)
        if n_splits < self.min_splits:
            msg = (
                f"`min_splits={self.min_splits}` is above the {n_splits} splits of `cv`: the "
                f"race would never look; lower `min_splits` or give `cv` more splits."
            )
            raise OptionError(msg, keyword="min_splits")
        shared = _SharedSplits(self._race_cv())
        try:
            design = splitter_design(self._checked_cv_orig, n_samples=n_splits)
        except ValueError:
            design = Design()  # measured on the splits once they are drawn
        if design.time_ordered:
            msg = (
                f"`cv`: {design.source} gives time-ordered splits whose training sets grow; the "
                "corrected t-test of a race needs splits of one test/train ratio (KFold, "
                "ShuffleSplit, ...)."
            )
            raise ValueError(msg)
        self._race_params = candidates
        self._race_rounds = []
        self._race_n_splits = n_splits
        self._race_design = design
        running = np.arange(len(candidates))
        for split in range(n_splits):
            self._race_rounds.append(running)
            # scikit-learn checks each round's splits against `n_splits_`: one split a round.
            self.n_splits_ = 1
            try:
                results = evaluate_candidates(
                    [candidates[i] for i in running], cv=_OneSplit(shared, split)
                )
            finally:
                self.n_splits_ = n_splits
            if not self._race_design.known:
                source = f"cv={type(self._checked_cv_orig).__name__}"
                self._race_design = explicit_splits_design(shared.splits, source)
            running = np.flatnonzero(np.isnan(results["dropped_at"]))

    def _looks(self, scores: np.ndarray, rounds: int) -> dict[str, Any]:
        """The looks of the race on the scores of the rounds run so far (pure: no state)."""
        n_candidates, n_splits = scores.shape
        first = min(self.min_splits, n_splits)
        levels = look_levels(self.alpha, n_splits, self.min_splits, self.spending)
        bounds = look_bounds(self.alpha, n_splits, self.min_splits, self.spending)
        running = np.ones(n_candidates, dtype=bool)
        dropped_at = np.full(n_candidates, np.nan)
        best_at_drop = np.full(n_candidates, -1)
        pvalue = np.full(n_candidates, np.nan)
        pvalue_adj = np.full(n_candidates, np.nan)
        # The look each candidate was last read at: where it left, else the last one run.
        last_look = np.full(n_candidates, max(min(rounds, n_splits) - first, 0))
        ratio = self._race_design.test_train_ratio
        smallest = float("nan")
        for k in range(first, rounds + 1):
            level = levels[k - first]
            if k == first:
                smallest = drop_difference(scores[:, :k], running, ratio, level)
            seen = look(scores[:, :k], running, ratio, level)
            pvalue[running] = seen.pvalue[running]
            pvalue_adj[running] = seen.pvalue_adj[running]
            dropped_at[seen.drop] = k
            best_at_drop[seen.drop] = int(seen.best)
            last_look[seen.drop] = k - first
            running &= ~seen.drop
        return {
            "dropped_at": dropped_at,
            "best_at_drop": best_at_drop,
            "pvalue": pvalue,
            "pvalue_adj": pvalue_adj,
            "level": levels[last_look],
            "critical_value": bounds[last_look],
            "min_difference": smallest,
            "design": self._race_design,
        }

    def _format_results(self, candidate_params, n_splits, out, more_results=None):
        candidates = self._race_params
        n_candidates, total = len(candidates), self._race_n_splits
        ran = np.zeros((n_candidates, total), dtype=bool)
        grid: list[list[Any]] = [[None] * total for _ in range(n_candidates)]
        position = 0
        for split, members in enumerate(self._race_rounds):
            for candidate in members:
                grid[candidate][split] = out[position]
                ran[candidate, split] = True
                position += 1
        filler = _placeholder(out[0])
        fits = [fit if fit is not None else filler for row in grid for fit in row]
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=_NON_FINITE.pattern, category=UserWarning)
            results = super()._format_results(candidates, total, fits, more_results)
        metrics = [m[len("split0_test_") :] for m in results if m.startswith("split0_test_")]
        metric = self._racing_metric()
        if metric not in metrics:
            msg = (
                f"{type(self).__name__} races on the metric `refit=` names, but {metric!r} is not "
                f"one of the metrics of `scoring` ({', '.join(map(repr, metrics))})."
            )
            raise ValueError(msg)
        scores = np.column_stack([results[f"split{s}_test_{metric}"] for s in range(total)])
        state = self._looks(scores, len(self._race_rounds))
        self._race_state = state
        if not ran.all():
            times = {
                key: np.array([fit[key] for fit in fits], dtype=float).reshape(ran.shape)
                for key in ("fit_time", "score_time")
            }
            for kind in ("test", "train"):
                for name in metrics:
                    if f"split0_{kind}_{name}" in results:
                        times[f"{kind}_{name}"] = np.column_stack(
                            [results[f"split{s}_{kind}_{name}"] for s in range(total)]
                        )
            for key, values in times.items():
                mean, std = _masked_moments(values, ran)
                results[f"mean_{key}"], results[f"std_{key}"] = mean, std
            for name in metrics:
                results[f"rank_test_{name}"] = race_ranks(
                    results[f"mean_test_{name}"], state["dropped_at"]
                )
        for kind in ("test", "train"):
            for name in metrics:
                means = results.get(f"mean_{kind}_{name}")
                if means is not None and not np.isfinite(means).all():
                    msg = f"One or more of the {kind} scores are non-finite: {means}"
                    warnings.warn(msg, category=UserWarning, stacklevel=2)
        results["dropped_at"] = state["dropped_at"]
        return results

    def _warn_no_early_look(self, state: dict[str, Any]) -> None:
        """Warn when the race could not have dropped a candidate before its last split."""
        n_splits = int(self.n_splits_)
        if self.min_splits < n_splits:
            return
        smallest = state["min_difference"]
        what = ""
        if not np.isnan(smallest):
            what = f" (to leave then, a candidate had to be {smallest:.4g} or more below the best)"
        msg = (
            f"The race could not drop a candidate early: with `min_splits={self.min_splits}` "
            f"and {n_splits} splits its first look is its last{what}, so it fits what a grid "
            "search fits; lower `min_splits`."
        )
        warnings.warn(msg, PdcompareWarning, stacklevel=4)

    def _race_frame(self, state: dict[str, Any]) -> pd.DataFrame:
        best = pd.array(
            [int(b) if b >= 0 else pd.NA for b in state["best_at_drop"]], dtype="Int64"
        )
        # a split count: printed as one (<NA> for a candidate still running)
        dropped = pd.array(
            [pd.NA if np.isnan(k) else int(k) for k in state["dropped_at"]], dtype="Int64"
        )
        frame = pd.DataFrame(
            {
                "params": list(self.cv_results_["params"]),
                "dropped_at": dropped,
                "best_at_drop": best,
                "pvalue": state["pvalue"],
                "pvalue_adj": state["pvalue_adj"],
                "level": state["level"],
                "critical_value": state["critical_value"],
            },
            index=pd.RangeIndex(len(state["dropped_at"]), name="candidate"),
        )
        self._warn_no_early_look(state)
        frame.attrs["pdcompare"] = {
            "kind": "race",
            "alpha": float(self.alpha),
            "spending": self.spending,
            "min_difference": state["min_difference"],
            "min_splits": int(self.min_splits),
            "metric": self._racing_metric(),
            "n_splits": int(self.n_splits_),
            "design": state["design"].to_attrs(),
        }
        return frame


class RaceSearchCV(_Race):
    """Grid search that drops candidates the corrected t-test finds worse (a race).

    Parameters
    ----------
    estimator : estimator
        A scikit-learn estimator.
    param_grid : dict or list of dict
        The candidates, as in ``GridSearchCV``.
    scoring : str, callable, list, tuple or dict, optional
        As in ``GridSearchCV``; with several metrics, ``refit`` names the one
        that races.
    cv : int, splitter or iterable of splits, optional
        As in ``GridSearchCV`` (None: 5-fold). Its test/train ratio corrects
        the t-test (DESIGN section 3); time-ordered splits are refused.
    alpha : float
        The chance, over the whole race, of ever dropping a candidate as good
        as the best, spent over the planned looks (``n_splits − min_splits +
        1``) by ``spending``.
    min_splits : int
        The first look follows this many splits (at least 2, at most the
        splits of ``cv``); the last split is always a look.
    n_jobs : int, optional
        Passed to scikit-learn (the fits of one round run in parallel).
    refit : bool or str
        As in ``GridSearchCV``: refit the best running candidate on the whole
        data; with several metrics, the metric to race and refit on.
    random_state : int, RandomState or None
        Given to a shuffling splitter that has no ``random_state``, so that
        its splits are reproducible; the splits are drawn once either way.
    spending : {"pocock", "obf", "bonferroni"}
        How ``alpha`` is spent over the looks (Lan–DeMets, two-sided, at
        information fraction splits run / splits planned): Pocock-type
        (default: early drops), O'Brien–Fleming-type (little early, more
        late) or Bonferroni's equal shares.

    Attributes
    ----------
    cv_results_ : dict of numpy arrays
        scikit-learn's format (``params``, ``param_*``,
        ``split{k}_test_<metric>``, ``mean/std/rank_test_<metric>``, fit and
        score times) with the scores of the splits a candidate did not run
        NaN, means and standard deviations over the splits it ran, and
        ``dropped_at``: the number of splits a candidate ran when it was
        dropped (NaN for the candidates still running at the end).
        ``rank_test_<metric>`` ranks the running candidates first, by mean,
        then the dropped ones by ``dropped_at``, latest first.
    race_ : pandas.DataFrame
        One row per candidate (``params, dropped_at, best_at_drop, pvalue,
        pvalue_adj, level, critical_value``): when it left, the candidate (row of
        ``cv_results_``) that was best then, the one-sided corrected p-value
        against it and its adjustment at that look (Holm, times the number
        running; at the last look for
        a candidate still running), and the level of that look and its
        normal critical value (the spending's bound, whose two-sided tail is
        the level the adjusted p-value is read against). ``attrs`` hold the
        spending and ``min_difference``: the smallest difference from the
        best that could have ended a candidate's race at the first look.
    best_index_, best_params_, best_score_, best_estimator_, refit_time_,
    scorer_, n_splits_, multimetric_
        As in ``GridSearchCV``; the best is always a running candidate.

    See Also
    --------
    pdcompare.from_search : the scores frame of the candidates still running.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = make_classification(n_samples=600, n_informative=4, random_state=0)
    >>> search = RaceSearchCV(DecisionTreeClassifier(random_state=0),
    ...                       {"max_depth": [1, 2, 4, 8]}, cv=10).fit(X, y)
    >>> search.best_params_
    {'max_depth': 8}
    >>> search.race_["dropped_at"].tolist()  # depth 1 left after 5 splits, depth 2 after 6
    [5, 6, <NA>, <NA>]
    """

    _parameter_constraints: ClassVar[dict] = {
        **_Race._parameter_constraints,
        "param_grid": [dict, list],
    }

    def __init__(
        self,
        estimator: Any,
        param_grid: dict | list,
        *,
        scoring: Any = None,
        cv: Any = None,
        alpha: float = 0.05,
        min_splits: int = 5,
        n_jobs: int | None = None,
        refit: bool | str = True,
        random_state: Any = None,
        spending: str = "pocock",
    ) -> None:
        self.estimator = estimator
        self.param_grid = param_grid
        self.scoring = scoring
        self.cv = cv
        self.alpha = alpha
        self.min_splits = min_splits
        self.n_jobs = n_jobs
        self.refit = refit
        self.random_state = random_state
        self.spending = spending

    def _candidate_params(self) -> list[dict]:
        return list(ParameterGrid(self.param_grid))


class RaceRandomizedSearchCV(_Race):
    """Randomized search that drops the candidates the corrected t-test finds worse.

    The candidates are those ``RandomizedSearchCV`` samples with the same
    ``param_distributions``, ``n_iter`` and ``random_state``.

    Parameters
    ----------
    estimator : estimator
        A scikit-learn estimator.
    param_distributions : dict or list of dict
        Distributions (with ``rvs``) or lists to sample from, as in
        ``RandomizedSearchCV``.
    n_iter : int
        The number of candidates sampled.
    scoring : str, callable, list, tuple or dict, optional
        As in ``GridSearchCV``; with several metrics, ``refit`` names the one
        that races.
    cv : int, splitter or iterable of splits, optional
        As in ``GridSearchCV`` (None: 5-fold). Its test/train ratio corrects
        the t-test (DESIGN section 3); time-ordered splits are refused.
    alpha : float
        The chance, over the whole race, of ever dropping a candidate as good
        as the best, spent over the planned looks (``n_splits − min_splits +
        1``) by ``spending``.
    min_splits : int
        The first look follows this many splits (at least 2, at most the
        splits of ``cv``); the last split is always a look.
    n_jobs : int, optional
        Passed to scikit-learn (the fits of one round run in parallel).
    refit : bool or str
        As in ``GridSearchCV``: refit the best running candidate on the whole
        data; with several metrics, the metric to race and refit on.
    random_state : int, RandomState or None
        Seeds the sampling of the candidates and a shuffling splitter that has
        no ``random_state``: the same seed, the same race.

    Attributes
    ----------
    cv_results_ : dict of numpy arrays
        scikit-learn's format (``params``, ``param_*``,
        ``split{k}_test_<metric>``, ``mean/std/rank_test_<metric>``, fit and
        score times) with the scores of the splits a candidate did not run
        NaN, means and standard deviations over the splits it ran, and
        ``dropped_at``: the number of splits a candidate ran when it was
        dropped (NaN for the candidates still running at the end).
        ``rank_test_<metric>`` ranks the running candidates first, by mean,
        then the dropped ones by ``dropped_at``, latest first.
    race_ : pandas.DataFrame
        One row per candidate (``params, dropped_at, best_at_drop, pvalue,
        pvalue_adj, level, critical_value``): when it left, the candidate (row of
        ``cv_results_``) that was best then, the one-sided corrected p-value
        against it and its adjustment at that look (Holm, times the number
        running; at the last look for
        a candidate still running), and the level of that look and its
        normal critical value (the spending's bound, whose two-sided tail is
        the level the adjusted p-value is read against). ``attrs`` hold the
        spending and ``min_difference``: the smallest difference from the
        best that could have ended a candidate's race at the first look.
    best_index_, best_params_, best_score_, best_estimator_, refit_time_,
    scorer_, n_splits_, multimetric_
        As in ``GridSearchCV``; the best is always a running candidate.

    Examples
    --------
    >>> from scipy.stats import loguniform
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(n_samples=300, random_state=0)
    >>> search = RaceRandomizedSearchCV(LogisticRegression(), {"C": loguniform(1e-6, 100)},
    ...                                 n_iter=8, cv=10, random_state=1).fit(X, y)
    >>> search.race_["dropped_at"].tolist()  # four small C left at the first look
    [<NA>, <NA>, 5, <NA>, 5, 5, 5, <NA>]
    """

    _parameter_constraints: ClassVar[dict] = {
        **_Race._parameter_constraints,
        "param_distributions": [dict, list],
        "n_iter": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        estimator: Any,
        param_distributions: dict | list,
        *,
        n_iter: int = 10,
        scoring: Any = None,
        cv: Any = None,
        alpha: float = 0.05,
        min_splits: int = 5,
        n_jobs: int | None = None,
        refit: bool | str = True,
        random_state: Any = None,
        spending: str = "pocock",
    ) -> None:
        self.estimator = estimator
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.scoring = scoring
        self.cv = cv
        self.alpha = alpha
        self.min_splits = min_splits
        self.n_jobs = n_jobs
        self.refit = refit
        self.random_state = random_state
        self.spending = spending

    def _candidate_params(self) -> list[dict]:
        sampler = ParameterSampler(
            self.param_distributions, self.n_iter, random_state=self.random_state
        )
        return list(sampler)
