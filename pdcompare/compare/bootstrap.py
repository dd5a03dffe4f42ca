"""The bootstrap on a predictions frame: per-model intervals, accuracy CIs, paired differences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    check_fraction,
    check_option,
    check_positive_int,
)
from pdcompare.compare._common import (
    check_test_options,
    missing_predictions,
    raw_alternative,
    scores_meta,
    seed_of,
)
from pdcompare.compare.auc import score_arrays
from pdcompare.compare.calls import comparison
from pdcompare.compare.items import frame_data, prediction_keywords, sided_pairs
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.predictions import predictions_data
from pdcompare.inputs.scores import ALL_PAIRS, rank_order, select_pairs
from pdcompare.stats import items as items_core
from pdcompare.stats.bootstrap import (
    INTERVAL_METHODS,
    PROPORTION_METHODS,
    BootstrapDistribution,
    accuracy_interval,
    check_random_state,
    paired_bootstrap,
)
from pdcompare.stats.metrics import get_metric


def _prediction_arrays(
    predictions: pd.DataFrame,
    y: Any,
    nan_policy: str,
    involved: Any = None,
    labels_for: str | None = None,
):
    """Names, truth, predictions, the models to score and the row weights, after the NaN policy.

    ``involved`` (model positions; all models when None) are the columns the
    call compares: "omit" drops the rows with a missing truth or a missing
    prediction of an involved model; "propagate" leaves out (NaN results)
    the involved models with a missing prediction, or all of them when the
    truth is missing, and warns; "raise" raises a ValueError naming them.
    """
    data = predictions_data(predictions, y=y, labels_for=labels_for)
    keep, valid = missing_predictions(data.missing, data.names, involved, y, nan_policy)
    if keep is None:
        return data.names, data.y_true, data.y_pred, valid, data.weights
    weights = None if data.weights is None else data.weights[keep]
    return data.names, data.y_true[keep], data.y_pred[keep], valid, weights


def score_metric_arrays(predictions, y, nan_policy, involved=None, *, test):
    """As :func:`_prediction_arrays` for a score read from probabilities or decision values.

    The truth is binary and becomes 0/1 (1 for the larger class); text,
    boolean and categorical model columns are refused.
    """
    data, scores, positive, valid = score_arrays(predictions, y, None, nan_policy, test, involved)
    return data.names, positive.astype(float), scores, valid, None


def _distribution(predictions, y, nan_policy, metric, n_resamples, rng, involved=None, *, test):
    """Model names and the paired bootstrap distribution, after the missing-value policy.

    ``test`` names the calling method in the refusal of probabilities, which
    only count-based (classification) scores make.
    """
    if metric.on_scores:
        names, y_true, y_pred, valid, weights = score_metric_arrays(
            predictions, y, nan_policy, involved, test=test
        )
    else:
        labels_for = test if metric.count_based else None
        names, y_true, y_pred, valid, weights = _prediction_arrays(
            predictions, y, nan_policy, involved, labels_for=labels_for
        )
    distribution = paired_bootstrap(
        y_true,
        y_pred,
        metric,
        n_resamples=n_resamples,
        random_state=rng,
        valid=valid,
        weights=weights,
    )
    return names, distribution


@comparison("bootstrap")
def bootstrap(
    predictions: pd.DataFrame,
    score: str | Callable = "accuracy",
    *,
    y: Any = "y",
    n_resamples: int = 1000,
    ci: float = 0.95,
    method: str = "percentile",
    random_state: Any = None,
    greater_is_better: bool | None = None,
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """Bootstrap confidence interval of every model's score on a predictions frame.

    Every resample draws the rows with replacement and scores every model
    on the same rows (a paired bootstrap, as CompStats does).

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: one row per test sample, the truth column ``y``
        and one column of predictions per model.
    score : str or callable, default "accuracy"
        "accuracy", "balanced_accuracy", "recall_macro", "precision_macro",
        "f1_macro", "mean_squared_error", "mean_absolute_error", or any
        ``f(y_true, y_pred) -> float`` (scikit-learn metrics work as they are).
    y : label, default "y"
        The truth column; every other column holds one model's predictions.
    n_resamples : int, default 1000
        Number of bootstrap resamples (at least 2).
    ci : float, default 0.95
        Confidence level.
    method : {"percentile", "normal"}, default "percentile"
        "percentile": the ``(1 - ci)/2`` and ``(1 + ci)/2`` quantiles of the
        resampled scores; "normal": ``estimate ± z·se``, the bootstrap
        standard-error interval.
    random_state : None, int or numpy.random.Generator
        Seed of the resamples; an int makes the result reproducible. A
        Generator is used (and advanced) as it is.
    greater_is_better : bool, optional
        Direction of a callable score (default True). Named scores know theirs.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing truth or predictions: NaN results for the affected models
        (with a warning), drop the rows with any missing value, or raise.

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best first: ``estimate`` (the score on all rows),
        ``se`` (standard deviation of the resampled scores, ddof=1),
        ``ci_low``, ``ci_high``. ``attrs["pdcompare"]`` holds ``test``,
        ``score``, ``n_resamples``, ``ci``, ``method``, ``random_state`` (the
        int seed, or None), ``greater_is_better`` and ``models``.

    Notes
    -----
    Scores that depend only on the confusion counts (the named
    classification scores) are resampled exactly through multinomial counts
    of the distinct (truth, predictions) patterns, at a cost independent of
    the number of rows; other scores by resampling row indices in chunks.
    Both give the same distribution. Absent classes follow scikit-learn's
    defaults (see :mod:`pdcompare.stats.metrics`).

    References: Efron & Tibshirani (1993), *An Introduction to the
    Bootstrap*, ch. 6 and 13; Nava-Muñoz, Graff Guerrero & Escalante (2024),
    CompStats.

    Examples
    --------
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 1, 1, 0, 1, 1, 0, 1, 0, 1],
    ...                       "forest": [0, 1, 1, 0, 1, 0, 0, 1, 0, 1],
    ...                       "tree": [1, 1, 1, 0, 0, 0, 0, 1, 0, 1]})
    >>> preds.cmp.bootstrap(random_state=0).round(3)
            estimate     se  ci_low  ci_high
    model
    forest       0.9  0.098     0.7    1.000
    tree         0.7  0.145     0.4    0.902

    The estimate is the plain metric (compare with scikit-learn):

    >>> from sklearn.metrics import accuracy_score
    >>> accuracy_score(preds["y"], preds["tree"])
    0.7
    """
    metric = get_metric(score, greater_is_better)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    ci = check_fraction("ci", ci)
    check_option("method", method, INTERVAL_METHODS)
    rng = check_random_state(random_state)
    names, distribution = _distribution(
        predictions, y, nan_policy, metric, n_resamples, rng, test="bootstrap"
    )
    order = rank_order(distribution.estimate, metric.greater_is_better)
    meta = results.result_meta(
        "bootstrap",
        score=metric.name,
        n_resamples=n_resamples,
        ci=ci,
        method=method,
        random_state=seed_of(random_state),
        greater_is_better=metric.greater_is_better,
        models=[names[k] for k in order],
    )
    frame = results.model_result(names, distribution.intervals(ci, method), meta)
    return frame.iloc[order]


@comparison("accuracy_ci")
def accuracy_ci(
    predictions: pd.DataFrame,
    *,
    y: Any = "y",
    ci: float = 0.95,
    method: str = "wilson",
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """Binomial confidence interval of every model's accuracy, by statsmodels.

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: one row per test sample, the truth column ``y``
        and one column of predictions per model.
    y : label, default "y"
        The truth column; every other column holds one model's predictions.
    ci : float, default 0.95
        Confidence level.
    method : {"wilson", "normal", "beta", "agresti_coull", "jeffreys"}
        The method of ``statsmodels.stats.proportion.proportion_confint``:
        "normal" is the textbook Wald interval ``acc ± z·sqrt(acc(1-acc)/n)``
        that can pass 1 on a small, accurate test set (reported unclipped,
        by that formula; statsmodels >= 0.15 clips it); "wilson" (default),
        "beta" (Clopper–Pearson), "agresti_coull" and "jeffreys" stay
        inside [0, 1].
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing truth or predictions: NaN results for the affected models
        (with a warning), drop the rows with any missing value, or raise.

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best first: ``accuracy, n, ci_low, ci_high``.

    Notes
    -----
    The correct predictions of a model on ``n`` independent test rows are
    binomial; the interval is for its true accuracy on that distribution.
    It ignores the variability of training (Dietterich 1998) and is not a
    comparison of models: use :func:`mcnemar` or :func:`bootstrap_diff`.
    Reference: Brown, Cai & DasGupta (2001), *Interval Estimation for a
    Binomial Proportion*.

    Examples
    --------
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 1] * 10, "good": [0, 1] * 10,
    ...                       "fair": [0, 1] * 8 + [1, 0] * 2})
    >>> preds.cmp.accuracy_ci(method="normal").round(3)
           accuracy   n  ci_low  ci_high
    model
    good        1.0  20   1.000    1.000
    fair        0.8  20   0.625    0.975

    Compare with statsmodels:

    >>> from statsmodels.stats.proportion import proportion_confint
    >>> [round(x, 3) for x in proportion_confint(16, 20, method="normal")]
    [0.625, 0.975]
    """
    ci = check_fraction("ci", ci)
    check_option("method", method, PROPORTION_METHODS)
    names, y_true, y_pred, valid, weights = _prediction_arrays(
        predictions, y, nan_policy, labels_for="accuracy_ci"
    )
    table = accuracy_interval(
        y_true, y_pred, confidence=ci, method=method, valid=valid, weights=weights
    )
    order = rank_order(table["accuracy"])
    meta = results.result_meta(
        "accuracy_ci",
        score="accuracy",
        ci=ci,
        method=method,
        greater_is_better=True,
        models=[names[k] for k in order],
    )
    return results.model_result(names, table, meta).iloc[order]


@comparison("bootstrap_diff")
def bootstrap_diff(
    predictions: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    score: str | Callable = "accuracy",
    y: Any = "y",
    alternative: str = "two-sided",
    n_resamples: int = 1000,
    ci: float = 0.95,
    method: str = "percentile",
    alpha: float = 0.05,
    correction: str | None = "holm",
    random_state: Any = None,
    greater_is_better: bool | None = None,
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """Paired bootstrap of the difference of scores between models, with a p-value.

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: one row per test sample, the truth column ``y``
        and one column of predictions per model.
    a, b : label, optional
        ``(a, b)`` compares one pair (``model_1 = a``); ``a`` alone compares
        it with every other model; neither compares the best model (best
        score on all rows) with every other.
    score : str or callable, default "accuracy"
        A named score or ``f(y_true, y_pred) -> float``, as in :func:`bootstrap`.
    y : label, default "y"
        The truth column.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About ``score(model_1) - score(model_2)``, as in scipy.
        "better"/"worse": model_1 better/worse than model_2 in the
        direction of the scores (the same as "greater"/"less" when higher
        is better, swapped for losses).
    n_resamples : int, default 1000
        Number of bootstrap resamples (at least 2).
    ci : float, default 0.95
        Confidence level of the interval of the difference (one-sided when
        ``alternative`` is).
    method : {"percentile", "normal"}, default "percentile"
        Interval from the quantiles of the resampled differences, or
        ``mean_diff ± z·se``.
    alpha : float, default 0.05
        Level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows (statsmodels' method names).
    random_state : None, int or numpy.random.Generator
        Seed of the resamples.
    greater_is_better : bool, optional
        Direction of a callable score (default True).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing truth or predictions of a compared model: NaN results for
        its pairs (with a warning), drop the rows, or raise.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, mean_diff, ci_low, ci_high,
        pvalue, pvalue_adj, reject``.

    Notes
    -----
    Sign convention: ``mean_diff = score(model_1) - score(model_2)`` on all
    rows, and ``d_r`` the same difference in resample ``r`` (both models
    scored on the same resampled rows). The p-value is the share of
    resamples against the alternative:

    - "greater": ``P(d <= 0)``, CompStats' "share of resamples where the
      difference is below zero";
    - "less": ``P(d >= 0)``;
    - "two-sided": ``min(1, 2·min(P(d <= 0), P(d >= 0)))``.

    A p-value of 0 means below ``1 / n_resamples``. For error scores
    (``mean_squared_error``, ``mean_absolute_error``, or a callable with
    ``greater_is_better=False``) lower is better: the best model comes
    first and ``mean_diff <= 0`` in the default table, and "model_1 is
    better" is ``alternative="less"``.

    Reference: Efron & Tibshirani (1993), *An Introduction to the
    Bootstrap*, ch. 16; Nava-Muñoz, Graff Guerrero & Escalante (2024), CompStats.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> preds = pd.DataFrame({"y": y,
    ...                       "forest": np.where(rng.random(300) < 0.9, y, 1 - y),
    ...                       "tree": np.where(rng.random(300) < 0.8, y, 1 - y)})
    >>> out = preds.cmp.bootstrap_diff(random_state=0)
    >>> out[["model_1", "model_2", "mean_diff", "pvalue"]].round(3)
      model_1 model_2  mean_diff  pvalue
    0  forest    tree      0.067   0.024
    """
    if frame_kind(predictions) is FrameKind.ITEMS:
        return _items_bootstrap_diff(
            predictions,
            a,
            b,
            alternative=alternative,
            n_resamples=n_resamples,
            ci=ci,
            method=method,
            alpha=alpha,
            correction=correction,
            random_state=random_state,
            score=score,
            y=y,
            greater_is_better=greater_is_better,
            nan_policy=nan_policy,
        )

    metric = get_metric(score, greater_is_better)
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    ci = check_fraction("ci", ci)
    check_option("method", method, INTERVAL_METHODS)
    rng = check_random_state(random_state)
    involved = None
    if a is not None and b is not None and a is not ALL_PAIRS:
        names = predictions_data(predictions, y=y).names
        i, j, _ = select_pairs(names, np.zeros(len(names)), a, b)
        involved = [int(i[0]), int(j[0])]
    names, distribution = _distribution(
        predictions, y, nan_policy, metric, n_resamples, rng, involved, test="bootstrap_diff"
    )
    i, j, scope = select_pairs(names, distribution.estimate, a, b, metric.greater_is_better)
    alternative = raw_alternative(alternative, metric.greater_is_better)
    columns = distribution.differences(i, j, confidence=ci, alternative=alternative, method=method)
    order = rank_order(distribution.estimate, metric.greater_is_better)
    meta = results.result_meta(
        "bootstrap_diff",
        scope=scope,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        ci=ci,
        method=method,
        score=metric.name,
        n_resamples=n_resamples,
        random_state=seed_of(random_state),
        greater_is_better=metric.greater_is_better,
        models=[names[k] for k in order],
    )
    return results.pair_result(names, i, j, columns, meta, correction=correction, alpha=alpha)


def _items_bootstrap_diff(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alternative: str = "two-sided",
    n_resamples: int = 1000,
    ci: float = 0.95,
    method: str = "percentile",
    alpha: float = 0.05,
    correction: str | None = "holm",
    random_state: Any = None,
    **options: Any,
) -> pd.DataFrame:
    """Cluster bootstrap of the mean item difference, every pair asked.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]], index=["a", "b"])
    >>> out = bootstrap_diff(wide.cmp.set_design(items=True), "a", "b", random_state=0)
    >>> float(out["mean_diff"].iloc[0]), bool(out["ci_low"].iloc[0] >= 0)
    (0.3, True)
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    ci = check_fraction("ci", ci)
    check_option("method", method, INTERVAL_METHODS)
    rng = check_random_state(random_state)
    options = prediction_keywords(
        options, "bootstrap_diff", "the bootstrap resamples the mean item score"
    )
    data = frame_data(frame, options, "bootstrap_diff")
    i, j, scope, asked, alternative = sided_pairs(data, a, b, alternative)
    replicates = items_core.cluster_bootstrap(
        data.values, data.cluster, data.n_clusters, n_resamples=n_resamples, random_state=rng
    )
    distribution = BootstrapDistribution(
        estimate=data.values.mean(axis=1),
        replicates=replicates,
        greater_is_better=data.design.greater_is_better,
    )
    columns = distribution.differences(i, j, confidence=ci, alternative=alternative, method=method)
    meta = scores_meta(
        "bootstrap_diff",
        data,
        scope,
        alternative=alternative,
        asked_alternative=asked,
        alpha=alpha,
        correction=correction,
        ci=ci,
        method=method,
        n_resamples=n_resamples,
        random_state=seed_of(random_state),
    )
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)
