"""Runs over tasks: aggregate scores, probability of improvement, performance profiles.

The comparisons of Agarwal et al. (2021), "Deep reinforcement learning at the
edge of the statistical precipice" (the rliable package), on a runs-over-tasks
frame: a benchmark frame with ``(dataset, split)`` columns, the data sets
being tasks and the splits independent runs (seeds), whose design says
``paired=False``. Intervals come from the stratified bootstrap: each model's
runs resampled within each task, each model on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_fraction, check_option, check_positive_int, warn
from pdcompare.compare._common import seed_of
from pdcompare.compare.calls import comparison
from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.runs import TaskRuns, task_runs_data
from pdcompare.inputs.scores import rank_order, select_pairs
from pdcompare.stats import aggregates as core
from pdcompare.stats.bootstrap import check_random_state

#: Result columns of one metric.
INTERVAL_COLUMNS = ("estimate", "ci_low", "ci_high")


def _check_metrics(metric: Any) -> list[str]:
    """``metric`` as a list of known metric names (a string is one metric)."""
    metrics = [metric] if isinstance(metric, str) else metric
    if not isinstance(metrics, Sequence) or isinstance(metrics, bytes) or not metrics:
        msg = (
            f"`metric` must be one of {', '.join(map(repr, core.METRICS))} or a list of them; "
            f"got {metric!r}."
        )
        raise TypeError(msg)
    for name in metrics:
        check_option("metric", name, core.METRICS)
    if len(set(metrics)) < len(metrics):
        msg = f"`metric` lists a metric twice: {list(metrics)!r}; name each once."
        raise ValueError(msg)
    return list(metrics)


def _check_gamma(gamma: Any) -> float:
    if isinstance(gamma, bool) or not isinstance(gamma, int | float | np.floating | np.integer):
        msg = f"`gamma` must be a number (the optimality-gap threshold); got {gamma!r}."
        raise TypeError(msg)
    if not np.isfinite(gamma):
        msg = f"`gamma` must be finite; got {gamma!r}."
        raise ValueError(msg)
    return float(gamma)


def _warn_not_normalised(data: TaskRuns, gamma: float) -> None:
    """Warn when the scores exceed ``gamma`` by far: the optimality gap is then meaningless."""
    typical = float(np.nanmedian(np.abs(data.cube)))
    if typical > 10 * abs(gamma):
        warn(
            f"The optimality gap clips scores at `gamma`={gamma:g}, but the median absolute "
            f"score is {typical:.4g}: the scores look not normalised (divide them by a "
            "reference score per task, such as the human-normalised score), or pass the "
            "`gamma` of their scale."
        )


def _iqm_order(data: TaskRuns) -> np.ndarray:
    """Model positions, best first by IQM (lowest first for losses)."""
    iqm = core.aggregate_estimates(data.cube, ["iqm"])[:, 0]
    return rank_order(iqm, data.design.greater_is_better)


def _meta(test: str, data: TaskRuns, order: np.ndarray, **fields: Any) -> dict[str, Any]:
    present = (~np.isnan(data.cube)).sum(axis=2)
    return results.result_meta(
        test,
        **fields,
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=np.asarray(data.names, dtype=object)[order].tolist(),
        unit="run",
        n_tasks=len(data.tasks),
        n_runs_min=int(present.min()),
        n_runs_max=int(present.max()),
    )


@comparison("aggregate")
def aggregate(
    frame: pd.DataFrame,
    metric: str | Sequence[str] = "iqm",
    *,
    ci: float = 0.95,
    n_resamples: int = 10000,
    method: str = "percentile",
    gamma: float = 1.0,
    random_state: Any = None,
) -> pd.DataFrame:
    """Aggregate scores over runs and tasks with stratified bootstrap intervals (rliable's).

    Parameters
    ----------
    frame : pandas.DataFrame
        A runs-over-tasks frame: ``(dataset, split)`` columns (task, run), design
        ``paired=False`` (``from_long``, ``from_rliable`` or ``set_design``), scores
        normalised by the caller (for example human-normalised).
    metric : str or list of str, default "iqm"
        ``"mean"`` (mean over tasks of the run means), ``"median"`` (median
        of the task means), ``"iqm"`` (interquartile mean of all runs of all
        tasks, ``scipy.stats.trim_mean(scores, 0.25)``), ``"optimality_gap"``
        (``gamma`` − the mean over all runs of ``min(score, gamma)``: each
        run weighs the same, as in rliable), or a list of them.
    ci : float, default 0.95
        Confidence level of the intervals.
    n_resamples : int, default 10000
        Stratified bootstrap resamples.
    method : {"percentile", "bca"}, default "percentile"
        Percentile intervals (rliable's default) or bias-corrected and
        accelerated ones, the acceleration from the jackknife leaving out one
        run at a time from its task.
    gamma : float, default 1.0
        Threshold of the optimality gap.
    random_state : None, int or numpy.random.Generator
        Seed of the resamples: the same seed gives the same interval of a
        metric asked alone or in a list.

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best first by the first metric (highest first;
        lowest first for ``"optimality_gap"``, reversed for losses): columns
        ``estimate, ci_low, ci_high`` for one metric, ``(metric,
        estimate|ci_low|ci_high)`` for a list.

    Raises
    ------
    ValueError
        On a paired frame (the message names ``paired=False``), a model with
        no run on a task, or an unknown metric or method.

    Notes
    -----
    Stratified bootstrap (Agarwal et al. 2021): each resample draws, for every
    model and task, as many runs as the model has there, with replacement
    among its own runs. The uniform draws are taken once for all models and
    metrics, and a resample is a cube of counts, so every metric of every
    resample is one array expression (no loop per resample). NaN cells are
    absent runs (a model may have different runs per task; a warning names
    the models). Intervals agree with rliable's
    ``get_interval_estimates`` within Monte Carlo error; point estimates
    equal rliable's ``aggregate_*`` functions. A warning says when the
    scores exceed ``gamma`` far (median absolute score above 10·gamma):
    the optimality gap needs normalised scores.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> long = pd.DataFrame([(m, t, s, rng.normal(1.0 if m == "ppo" else 0.8, 0.2))
    ...                      for m in ["ppo", "dqn"] for t in range(10) for s in range(5)],
    ...                     columns=["algorithm", "task", "seed", "score"])
    >>> runs = pdcompare.from_long(long, model="algorithm", dataset="task", split="seed",
    ...                            paired=False)
    >>> runs.cmp.aggregate("iqm", n_resamples=2000, random_state=0).round(3)
           estimate  ci_low  ci_high
    model
    ppo       1.017   0.969    1.066
    dqn       0.800   0.740    0.864
    """
    metrics = _check_metrics(metric)
    ci = check_fraction("ci", ci)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    check_option("method", method, core.INTERVAL_METHODS)
    gamma = _check_gamma(gamma)
    rng = check_random_state(random_state)
    data = task_runs_data(frame, "aggregate")
    if "optimality_gap" in metrics:
        _warn_not_normalised(data, gamma)
    estimate, low, high = core.aggregate_intervals(
        data.cube, metrics, gamma=gamma, ci=ci, n_resamples=n_resamples, method=method, rng=rng
    )
    better_high = data.design.greater_is_better != (metrics[0] == "optimality_gap")
    order = rank_order(estimate[:, 0], better_high)
    columns: dict[Any, np.ndarray] = {}
    for k, name in enumerate(metrics):
        for label, values in zip(INTERVAL_COLUMNS, (estimate, low, high), strict=True):
            key = label if len(metrics) == 1 else (name, label)
            columns[key] = values[order, k]
    meta = _meta(
        "aggregate",
        data,
        order,
        metrics=metrics,
        ci=ci,
        method=method,
        n_resamples=n_resamples,
        gamma=gamma,
        random_state=seed_of(random_state),
    )
    out = results.model_result(data.names[order], columns, meta)
    if len(metrics) > 1:
        out.columns = out.columns.set_names(["metric", None])
    return out


@comparison("prob_improvement")
def prob_improvement(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    ci: float = 0.95,
    n_resamples: int = 10000,
    random_state: Any = None,
) -> pd.DataFrame:
    """Probability of improvement P(model_1 better than model_2) over tasks, with its interval.

    Parameters
    ----------
    frame : pandas.DataFrame
        A runs-over-tasks frame (see :func:`aggregate`).
    a, b : model names, optional
        ``(a, b)`` one pair; ``a`` alone against every other model; neither:
        the best model by IQM against every other (best first).
    ci : float, default 0.95
        Confidence level of the stratified bootstrap interval.
    n_resamples : int, default 10000
        Stratified bootstrap resamples.
    random_state : None, int or numpy.random.Generator
        Seed of the resamples.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, prob_improvement, ci_low,
        ci_high``.

    Notes
    -----
    Per task, the Mann–Whitney ``U / (n_1 n_2)`` of the two models' runs:
    the share of (run of model_1, run of model_2) pairs where model_1's run
    is better, ties counting one half (½ for identical runs); "better" is
    smaller when ``greater_is_better=False``. The mean over tasks, as
    rliable's ``probability_of_improvement``. The interval is the percentile
    interval of the stratified bootstrap, both models' runs resampled within
    each task on their own, from draws shared by all pairs. 0.5 means no
    improvement either way; an interval reaching above 0.5 is not a proof of
    equality.

    Examples
    --------
    >>> import numpy as np
    >>> import pdcompare
    >>> x = np.array([[1, 2], [2, 2], [1, 1], [2, 1]], dtype=float)  # runs x tasks
    >>> y = np.array([[1, 1], [2, 2], [3, 3]], dtype=float)
    >>> runs = pdcompare.from_rliable({"x": x, "y": y})
    >>> pi = runs.cmp.prob_improvement("x", "y", n_resamples=1000, random_state=0)
    >>> round(float(pi["prob_improvement"].iloc[0]), 4)  # rliable's test value, 1/3
    0.3333
    """
    ci = check_fraction("ci", ci)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    rng = check_random_state(random_state)
    data = task_runs_data(frame, "prob_improvement")
    order = _iqm_order(data)
    i, j, scope = select_pairs(data.names, None, a, b, order=order)
    estimate, low, high = core.prob_improvement(
        data.cube,
        i,
        j,
        greater_is_better=data.design.greater_is_better,
        ci=ci,
        n_resamples=n_resamples,
        rng=rng,
    )
    meta = _meta(
        "prob_improvement",
        data,
        order,
        scope=scope,
        ci=ci,
        n_resamples=n_resamples,
        random_state=seed_of(random_state),
    )
    columns = {"prob_improvement": estimate, "ci_low": low, "ci_high": high}
    return results.pair_result(data.names, i, j, columns, meta)


def _check_taus(taus: Any, data: TaskRuns) -> np.ndarray:
    if taus is None:
        return np.linspace(np.nanmin(data.cube), np.nanmax(data.cube), 101)
    values = np.atleast_1d(np.asarray(taus))
    if values.ndim != 1 or values.size == 0 or values.dtype.kind not in "iuf":
        msg = f"`taus` must be a non-empty 1-d sequence of numbers (the thresholds); got {taus!r}."
        raise TypeError(msg)
    values = values.astype(float)
    if not np.isfinite(values).all():
        msg = "`taus` must be finite numbers."
        raise ValueError(msg)
    return values


@comparison("performance_profile")
def performance_profile(
    frame: pd.DataFrame,
    taus: Any = None,
    *,
    ci: float | None = None,
    n_resamples: int = 2000,
    random_state: Any = None,
) -> pd.DataFrame:
    """The performance profile of every model: share of runs above each threshold.

    Parameters
    ----------
    frame : pandas.DataFrame
        A runs-over-tasks frame (see :func:`aggregate`).
    taus : sequence of float, optional
        The thresholds; default 101 points from the lowest to the highest score.
    ci : float, optional
        With a level, the stratified bootstrap band of every curve too.
    n_resamples : int, default 2000
        Resamples of the band (rliable's default for profiles).
    random_state : None, int or numpy.random.Generator
        Seed of the band's resamples.

    Returns
    -------
    pandas.DataFrame
        Thresholds (index ``tau``) × models (best first by IQM): ``F(tau)``,
        the share of a task's runs scoring strictly above ``tau``, averaged
        over tasks. With ``ci``, columns ``(profile|ci_low|ci_high, model)``.

    Notes
    -----
    With equal runs on every task ``F(tau)`` is rliable's run-score profile
    ``np.mean(scores > tau)`` over all runs; with unequal runs each task
    weighs the same. The band is pointwise (percentile, per threshold).

    Examples
    --------
    rliable's test values:

    >>> import numpy as np
    >>> import pdcompare
    >>> x = np.array([[1, 2], [2, 2], [1, 1], [2, 1]], dtype=float)  # runs x tasks
    >>> runs = pdcompare.from_rliable({"x": x})
    >>> runs.cmp.performance_profile([0.5, 1, 1.5, 2])
    model    x
    tau
    0.5    1.0
    1.0    0.5
    1.5    0.5
    2.0    0.0
    """
    data = task_runs_data(frame, "performance_profile")
    taus = _check_taus(taus, data)
    n_boot = 0
    if ci is not None:
        ci = check_fraction("ci", ci)
        n_boot = check_positive_int("n_resamples", n_resamples, minimum=2)
    rng = check_random_state(random_state)
    estimate, low, high = core.performance_profile(
        data.cube, taus, ci=ci or 0.95, n_resamples=n_boot, rng=rng
    )
    order = _iqm_order(data)
    models = pd.Index(data.names[order], name="model")
    index = pd.Index(taus, name="tau")
    if ci is None:
        out = pd.DataFrame(estimate[:, order], index=index, columns=models)
    else:
        parts = {"profile": estimate, "ci_low": low, "ci_high": high}
        out = pd.concat(
            {k: pd.DataFrame(v[:, order], index=index, columns=models) for k, v in parts.items()},
            axis=1,
        )
        out.columns = out.columns.set_names([None, "model"])
    meta = _meta(
        "performance_profile",
        data,
        order,
        ci=ci,
        n_resamples=n_boot,
        random_state=seed_of(random_state),
    )
    return with_attrs(out, meta)


@dataclass(frozen=True)
class TaskRunsAnalysis:
    """The result frames a report of runs over tasks rests on.

    Attributes
    ----------
    frame : pandas.DataFrame
        The runs-over-tasks frame.
    summary : pandas.DataFrame
        ``aggregate`` of rliable's four metrics, best first by IQM.
    significance : pandas.DataFrame
        ``prob_improvement`` of the best model by IQM against every other.
    """

    frame: pd.DataFrame
    summary: pd.DataFrame
    significance: pd.DataFrame
    family: str = "vs_best"
    test: str = "prob_improvement"
    benchmark: bool = False
    bayes: Any = None
    equivalence: Any = None
    pooled: Any = None

    @property
    def best(self) -> Any:
        """The best model by IQM."""
        return self.summary.index[0]


#: The metrics of a report of runs over tasks, the IQM first (it orders the models).
REPORT_METRICS = ["iqm", "median", "mean", "optimality_gap"]


def analyse_task_runs(
    frame: pd.DataFrame, *, ci: float = 0.95, random_state: Any = 0, n_resamples: int = 10000
) -> TaskRunsAnalysis:
    """The aggregates and probabilities of improvement of a runs-over-tasks frame's report.

    Examples
    --------
    >>> from pdcompare.datasets import load_rl_runs
    >>> found = analyse_task_runs(load_rl_runs(), n_resamples=500)
    >>> found.best, len(found.significance)
    ('rainbow', 4)
    """
    summary = aggregate(
        frame, REPORT_METRICS, ci=ci, n_resamples=n_resamples, random_state=random_state
    )
    improvement = prob_improvement(
        frame, ci=ci, n_resamples=n_resamples, random_state=random_state
    )
    return TaskRunsAnalysis(frame=frame, summary=summary, significance=improvement)
