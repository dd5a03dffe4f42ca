"""ROC AUC on a predictions frame of scores: DeLong's test and the AUC intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_fraction, warn
from pdcompare.compare._common import (
    check_test_options,
    missing_predictions,
    raw_alternative,
    warn_pairs,
)
from pdcompare.compare.calls import comparison
from pdcompare.compare.margin import check_margin, core_margin, with_margin
from pdcompare.inputs.attrs import stored_attr
from pdcompare.inputs.predictions import score_predictions
from pdcompare.inputs.scores import ALL_PAIRS, rank_order, select_pairs
from pdcompare.stats.auc import auc_interval, delong_covariance, delong_test


def score_arrays(
    predictions: pd.DataFrame,
    y: Any,
    pos_label: Any,
    nan_policy: str,
    test: str,
    involved: Any = None,
):
    """Names, scores, truth and the models to compute, after the missing-value policy.

    ``involved`` (model positions; all models when None) are the columns the
    call compares: "omit" drops the rows with a missing truth or a missing
    score of an involved model; "propagate" leaves out (NaN results) the
    involved models with a missing score, or all of them when the truth is
    missing, and warns; "raise" raises a ValueError naming them.

    Returns ``(data, scores, positive, valid)``.
    """
    data = score_predictions(predictions, y=y, pos_label=pos_label, test=test)
    keep, valid = missing_predictions(data.missing, data.names, involved, y, nan_policy)
    scores, positive = data.scores, data.positive
    if keep is not None:
        scores, positive = scores[keep], positive[keep]
    n_pos = int(positive.sum())
    if valid.any() and (n_pos == 0 or n_pos == positive.size):
        msg = (
            f"`{test}`: after dropping the rows with missing values only one class of {y!r} "
            "is left; an AUC needs test samples of both classes."
        )
        raise ValueError(msg)
    return data, scores, positive, valid


def _aucs(scores: np.ndarray, positive: np.ndarray, valid: np.ndarray):
    """Every valid model's AUC and the DeLong covariance (NaN for the others)."""
    n_models = scores.shape[1]
    auc = np.full(n_models, np.nan)
    covariance = np.full((n_models, n_models), np.nan)
    columns = np.flatnonzero(valid)
    if columns.size:
        chosen = scores if valid.all() else scores[:, columns]
        found, cov = delong_covariance(chosen, positive)
        auc[columns] = found
        covariance[np.ix_(columns, columns)] = cov
    return auc, covariance


@comparison("auc_ci")
def auc_ci(
    predictions: pd.DataFrame,
    *,
    y: Any = "y",
    ci: float = 0.95,
    pos_label: Any = None,
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """ROC AUC of every model with DeLong's standard error and a normal interval.

    Called on a predictions frame of scores: one row per test sample, a
    binary truth in column ``y`` and one column per model of probabilities
    or decision values of the positive class (any numeric column: an
    integer grade is a score too), as ``cv_predictions(method="predict_proba")``
    returns them.

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: the truth column ``y`` and one column of scores per model.
    y : label, default "y"
        The truth column; it must have exactly two classes.
    ci : float, default 0.95
        Confidence level.
    pos_label : label, optional
        The positive class; the larger of the two classes by default.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing truth or scores: NaN results for the affected models (with a
        warning), drop the rows with any missing value, or raise.

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best (highest AUC) first: ``auc, se, ci_low,
        ci_high, n_pos, n_neg``. ``attrs["pdcompare"]`` holds ``pos_label``.

    Notes
    -----
    ``auc`` is the Mann–Whitney estimate, equal to scikit-learn's
    ``roc_auc_score``; ``se`` is the square root of DeLong's variance
    ``S10 / n_pos + S01 / n_neg`` (DeLong, DeLong & Clarke-Pearson 1988),
    computed from midranks in O(n log n) (Sun & Xu 2014); the interval is
    ``auc ± z·se`` clipped to [0, 1], as pROC's ``ci.auc(method="delong")``.
    The interval is for one test set: it says nothing of the variation due
    to training (for AUCs over CV folds use a scores frame and
    :func:`corrected_ttest`). On small test sets the normal interval covers
    less than its level: at 15 positive and 15 negative samples and a true
    AUC of 0.86 the 95% interval covered the true AUC in about 90% of
    samples in the validity study (pROC's interval is the same one), as the
    AUC's sampling distribution is skewed near 1.

    References
    ----------
    E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the areas
    under two or more correlated receiver operating characteristic curves: a
    nonparametric approach", Biometrics 44(3), 1988.
    X. Sun and W. Xu, "Fast implementation of DeLong's algorithm for comparing
    the areas under correlated receiver operating characteristic curves",
    IEEE Signal Processing Letters 21(11), 2014.

    Examples
    --------
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 0, 0, 0, 1, 1, 1, 1],
    ...                       "forest": [0.1, 0.3, 0.2, 0.6, 0.7, 0.4, 0.9, 0.8],
    ...                       "tree": [0.5, 0.2, 0.6, 0.3, 0.4, 0.7, 0.8, 0.1]})
    >>> preds.cmp.auc_ci().round(4)
               auc      se  ci_low  ci_high  n_pos  n_neg
    model
    forest  0.9375  0.0884  0.7643      1.0      4      4
    tree    0.6250  0.2500  0.1350      1.0      4      4

    Compare the AUC with scikit-learn:

    >>> from sklearn.metrics import roc_auc_score
    >>> float(roc_auc_score(preds["y"], preds["forest"]))
    0.9375
    """
    ci = check_fraction("ci", ci)
    data, scores, positive, valid = score_arrays(predictions, y, pos_label, nan_policy, "auc_ci")
    auc, covariance = _aucs(scores, positive, valid)
    table = auc_interval(auc, covariance, ci)
    n_pos = int(positive.sum())
    table["n_pos"] = np.full(len(data.names), n_pos, dtype=np.int64)
    table["n_neg"] = np.full(len(data.names), positive.size - n_pos, dtype=np.int64)
    order = rank_order(auc)
    meta = results.result_meta(
        "auc_ci",
        score="roc_auc",
        ci=ci,
        pos_label=data.pos_label,
        greater_is_better=True,
        nan_policy=nan_policy,
        y=y,
        models=[data.names[k] for k in order],
    )
    return results.model_result(data.names, table, meta).iloc[order]


@comparison("delong")
def delong(
    predictions: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    y: Any = "y",
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    pos_label: Any = None,
    nan_policy: str = "propagate",
    margin: float | None = None,
) -> pd.DataFrame:
    """DeLong's test of correlated ROC AUCs: models scored on the same test samples.

    Called on a predictions frame of scores: one row per test sample, a
    binary truth in column ``y`` and one column per model of probabilities
    or decision values of the positive class (any numeric column).

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: the truth column ``y`` and one column of scores per model.
    a, b : label, optional
        ``(a, b)`` compares one pair (``model_1 = a``); ``a`` alone compares it
        with every other model; neither compares the model of highest AUC
        with every other.
    y : label, default "y"
        The truth column; it must have exactly two classes.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About ``auc_1 − auc_2``, as in scipy; "better" is "greater" (a higher
        AUC is better).
    alpha : float, default 0.05
        Significance level of ``reject`` and 1 − level of the interval.
    correction : str or None, default "holm"
        Multiple-testing method over the rows (statsmodels' ``multipletests``
        names, "shaffer" for all pairs), or None.
    pos_label : label, optional
        The positive class; the larger of the two classes by default.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing truth or scores of a compared model: NaN results for its
        pairs (with a warning), drop the rows, or raise.

    margin : float, optional
        Non-inferiority margin (≥ 0, in the units of the AUC), only with
        ``alternative="better"``: H0 is AUC₁ − AUC₂ ≤ −margin, so ``reject``
        means model_1 is shown to be not worse than model_2 by the margin or
        more. The statistic becomes ``(auc_diff + margin) / se``, the p-value
        its upper tail, and the
        result gains a ``margin`` column; the interval stays the one-sided
        interval of the difference. None (the default): no ``margin`` column,
        the test as it is; ``margin=0`` gives the one-sided test's p-values.

    Returns
    -------
    pandas.DataFrame
        One row per pair, best first: ``model_1, model_2, auc_1, auc_2,
        auc_diff, se, statistic, pvalue, pvalue_adj, reject, ci_low,
        ci_high``; ``attrs["pdcompare"]`` holds ``pos_label``, ``n_pos`` and
        ``n_neg``.

    Notes
    -----
    With ``V10`` and ``V01`` the placement values of the positive and the
    negative samples (the share of the other class each one out-ranks, ties
    counted ½), ``S10`` and ``S01`` their covariance matrices across models
    and ``S = S10 / n_pos + S01 / n_neg``, the statistic is
    ``z = (auc_1 − auc_2) / sqrt(S_11 + S_22 − 2 S_12)``, standard normal
    under equal AUCs (DeLong, DeLong & Clarke-Pearson 1988), as pROC's
    ``roc.test(method="delong", paired=TRUE)``. ``ci_low, ci_high`` is the
    normal interval of ``auc_1 − auc_2`` at level 1 − ``alpha``, one-sided
    like scipy's when ``alternative`` is. All AUCs and the whole covariance
    matrix come from one sort per model (Sun & Xu 2014); every pair is read
    from that matrix. Identical score columns give statistic 0 and p-value 1
    with a warning.

    DeLong's test is for **one test set**: the samples are the unit. AUCs
    averaged over CV folds are a scores frame (models x folds), compared
    with :func:`corrected_ttest`; a test set of out-of-fold predictions
    (``cv_predictions``) mixes models fitted on different folds, which the
    test does not account for: on a frame made by ``cv_predictions`` it
    warns. Hard 0/1 labels in place of scores warn (the AUC needs scores).
    When every AUC is below 0.5 it warns too, naming ``pos_label=``
    (the positive class is probably the other one). The normal interval of
    one AUC covers less than its level in small samples (0.90 at 95 % with
    15 + 15 samples and AUC 0.86, as pROC's).

    References
    ----------
    E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44(3), 1988.
    X. Sun and W. Xu, IEEE Signal Processing Letters 21(11), 2014.
    X. Robin et al., "pROC: an open-source package for R and S+ to analyze
    and compare ROC curves", BMC Bioinformatics 12, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> preds = pd.DataFrame({"y": y, "forest": y + rng.normal(0, 0.6, 200),
    ...                       "tree": y + rng.normal(0, 1.0, 200)})
    >>> out = preds.cmp.delong()
    >>> out[["model_1", "model_2", "auc_1", "auc_2", "statistic", "pvalue"]].round(4)
      model_1 model_2   auc_1   auc_2  statistic  pvalue
    0  forest    tree  0.8688  0.7588     2.5552  0.0106

    The AUCs are scikit-learn's:

    >>> from sklearn.metrics import roc_auc_score
    >>> round(float(roc_auc_score(preds["y"], preds["tree"])), 4)
    0.7588
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    margin = check_margin(margin, alternative)
    asked = alternative
    alternative = raw_alternative(alternative, True)
    involved = None
    if a is not None and b is not None and a is not ALL_PAIRS:
        names = score_predictions(predictions, y=y, pos_label=pos_label, test="delong").names
        i, j, _ = select_pairs(names, np.zeros(len(names)), a, b)
        involved = [int(i[0]), int(j[0])]
    data, scores, positive, valid = score_arrays(
        predictions, y, pos_label, nan_policy, "delong", involved
    )
    auc, covariance = _aucs(scores, positive, valid)
    _warn_inverted(auc, data.pos_label, "delong")
    _warn_labels(scores, valid, data.names, "delong")
    if stored_attr(predictions, "origin") == "cv_predictions":
        warn(
            "`delong` on out-of-fold predictions from `cv_predictions`: each row's score "
            "comes from the model fitted on its own fold, so one column mixes several "
            "models and DeLong's variance leaves out the training variation. Compare AUCs "
            "over folds with `cv_scores(..., scoring='roc_auc')` and `corrected_ttest`."
        )
    i, j, scope = select_pairs(data.names, auc, a, b)
    out = delong_test(
        auc,
        covariance,
        i,
        j,
        alternative=alternative,
        alpha=alpha,
        margin=core_margin(margin, asked),
    )
    warn_pairs(
        data.names,
        i,
        j,
        [
            (
                out["identical"],
                " rank the samples identically (the same AUC and a difference of variance 0); "
                "reported as statistic 0 and p-value 1",
            ),
            (
                out["certain"],
                ": the AUC difference has DeLong variance 0; reported as an infinite statistic",
            ),
        ],
    )
    names = ("auc_1", "auc_2", "auc_diff", "se", "statistic", "pvalue", "ci_low", "ci_high")
    columns = with_margin({k: out[k] for k in names}, margin, len(i))
    order = rank_order(auc)
    n_pos = int(positive.sum())
    meta = results.result_meta(
        "delong",
        scope=scope,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        score="roc_auc",
        pos_label=data.pos_label,
        n_pos=n_pos,
        n_neg=int(positive.size - n_pos),
        greater_is_better=True,
        nan_policy=nan_policy,
        y=y,
        models=[data.names[k] for k in order],
        **({} if margin is None else {"margin": margin}),
    )
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


def _warn_labels(scores: np.ndarray, valid: np.ndarray, names: Any, test: str) -> None:
    """Warn once when a model's predictions are hard 0/1 labels: an AUC needs scores."""
    labels = [
        names[k]
        for k in np.flatnonzero(valid)
        if np.isin(scores[:, k][~np.isnan(scores[:, k])], (0.0, 1.0)).all()
    ]
    if labels:
        shown = ", ".join(repr(name) for name in labels[:5])
        more = f" and {len(labels) - 5} more" if len(labels) > 5 else ""
        warn(
            f"`{test}`: the predictions of {shown}{more} are hard 0/1 labels, but the AUC "
            "needs scores (predicted probabilities or decision values, such as "
            "`predict_proba(X)[:, 1]`): from labels the ROC curve has one point and the AUC "
            "is the balanced accuracy. Pass scores, or compare labels with `mcnemar`."
        )


def _warn_inverted(auc: np.ndarray, pos_label: Any, test: str) -> None:
    """Warn once when every model's AUC is below 0.5: the positive class is probably the other."""
    shown = auc[np.isfinite(auc)]
    if shown.size and (shown < 0.5).all():
        warn(
            f"`{test}`: every model's AUC is below 0.5 (at most {shown.max():.3f}) with "
            f"{pos_label!r} as the positive class; the positive class is probably the other "
            "one: pass `pos_label=` naming the class the scores point to."
        )
