"""Forecasts on a time-ordered predictions frame: Diebold–Mariano and the model confidence set."""

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
    check_random_state,
    warn,
)
from pdcompare.compare._common import check_test_options, raw_alternative, seed_of, warn_pairs
from pdcompare.compare.calls import comparison
from pdcompare.inputs.predictions import predictions_data
from pdcompare.inputs.scores import rank_order, select_pairs
from pdcompare.stats.forecast import (
    MCS_METHODS,
    diebold_mariano_pairs,
    model_confidence_set,
    resample_indices,
    resampled_means,
)
from pdcompare.stats.predictions import correctness

#: The named losses: the two forecast errors, and the 0-1 loss of predicted labels.
LOSSES = ("squared_error", "absolute_error", "zero_one")


def warn_unordered_time(predictions: pd.DataFrame, test: str) -> None:
    """Warn when a date or period index says the rows are not in time order.

    The frame's row order is the time order and is never re-sorted: a
    decreasing or shuffled date index is most likely a mistake, and the lags
    (``h > 1``) or the blocks of the stationary bootstrap would be wrong.
    """
    index = predictions.index
    if isinstance(index, pd.DatetimeIndex | pd.PeriodIndex) and not index.is_monotonic_increasing:
        warn(
            f"`{test}` reads the rows in the frame's order as the time order, but the frame's "
            f"{type(index).__name__} is not increasing; sort the rows first "
            "(`df.sort_index()`) if they are out of order."
        )


def loss_matrix(
    predictions: pd.DataFrame, y: Any, loss: str | Callable, test: str
) -> tuple[pd.Index, np.ndarray, str]:
    """The model names, the ``(time, models)`` loss matrix and the loss's name.

    ``"squared_error"`` and ``"absolute_error"`` need numeric forecasts; a
    callable receives the errors ``y − ŷ`` of every model as one
    ``(time, models)`` array and returns the losses in the same shape;
    ``"zero_one"`` is 1 where a predicted label differs from the truth.
    Rows stay in the frame's order (the time order); a missing value is an
    error, since dropping rows would change the lags.
    """
    if isinstance(loss, str):
        check_option("loss", loss, LOSSES)
    elif not callable(loss):
        msg = (
            f"`loss` must be one of {', '.join(map(repr, LOSSES))} or a callable of the "
            f"error array; got {type(loss).__name__}."
        )
        raise TypeError(msg)
    zero_one = isinstance(loss, str) and loss == "zero_one"
    data = predictions_data(
        predictions, y=y, as_codes=zero_one, labels_for=test if zero_one else None
    )
    if data.weights is not None:
        msg = f"`{test}` needs the predictions in time order, not counts of distinct rows."
        raise TypeError(msg)
    if data.y_true.shape[0] < 2:
        msg = f"`{test}` needs at least 2 time points; the predictions frame has 1 row."
        raise ValueError(msg)
    if data.missing.any():
        columns = ([y] if data.missing[:, 0].any() else []) + list(
            data.names[data.missing[:, 1:].any(axis=0)]
        )
        msg = (
            f"Column(s) {columns} of the predictions frame have missing values; `{test}` "
            "needs every model's forecast at every time point. Drop the incomplete rows "
            "(`df.dropna()`) or the models, knowing that dropped rows change the lags."
        )
        raise ValueError(msg)
    if zero_one:
        correct, _ = correctness(data.y_true, data.y_pred, data.missing)
        return data.names, (~correct).astype(float), "zero_one"
    columns = [y, *data.names]
    truth, forecasts = np.asarray(data.y_true), np.asarray(data.y_pred)
    for values, column in [(truth, y)] + [(forecasts[:, k], c) for k, c in enumerate(columns[1:])]:
        if values.dtype.kind not in "biuf" and not _numbers(values):
            msg = (
                f"`loss={loss if isinstance(loss, str) else 'callable'!r}` needs numeric "
                f"forecasts; column {column!r} holds text, not numbers. For predicted "
                "class labels pass `loss='zero_one'`."
            )
            raise ValueError(msg)
    errors = truth.astype(float)[:, None] - forecasts.astype(float)
    if isinstance(loss, str):
        losses = errors**2 if loss == "squared_error" else np.abs(errors)
        return data.names, losses, loss
    losses = np.asarray(loss(errors), dtype=float)
    if losses.shape != errors.shape:
        msg = (
            f"`loss`: the callable must return one loss per error, an array of shape "
            f"{errors.shape} (time points, models); got shape {losses.shape}. Write it "
            "with numpy operations on the whole array, such as `lambda e: e**4`."
        )
        raise ValueError(msg)
    if not np.isfinite(losses).all():
        msg = "`loss`: the callable returned NaN or infinite losses."
        raise ValueError(msg)
    return data.names, losses, getattr(loss, "__name__", type(loss).__name__)


@comparison("diebold_mariano")
def diebold_mariano(
    predictions: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    y: Any = "y",
    loss: str | Callable = "squared_error",
    h: int = 1,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    harvey: bool = True,
) -> pd.DataFrame:
    """Diebold–Mariano test of equal predictive accuracy of forecasts.

    Called on a time-ordered predictions frame: one row per time point, in
    time order (the frame's order is the time order; it is never re-sorted),
    the observed values in column ``y`` and one column of forecasts per model,
    such as the out-of-sample predictions of the test windows of a
    ``TimeSeriesSplit`` (:func:`pdcompare.cv_predictions`).

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame, rows in time order.
    a, b : column name, optional
        ``(a, b)`` compares one pair (``model_1 = a``); ``a`` alone compares
        it with every other model; neither compares the best model (lowest
        mean loss) with every other.
    y : column name, default "y"
        The column of observed values.
    loss : {"squared_error", "absolute_error", "zero_one"} or callable, default "squared_error"
        The loss of each forecast error ``e = y − ŷ``; a callable receives
        the errors of all models as one ``(time, models)`` array and returns
        the losses element by element (``lambda e: e**4``). "zero_one"
        compares predicted class labels (1 where wrong).
    h : int, default 1
        Forecast horizon: the long-run variance of the loss differential
        sums its autocovariances up to lag ``h − 1`` (an h-step forecast's
        errors are correlated up to that lag).
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About the mean loss difference model_1 − model_2, as R's ``dm.test``:
        "greater" means model_2 is more accurate. "better"/"worse": model_1
        more/less accurate (lower/higher loss), the same as "less"/"greater".
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing method (statsmodels ``multipletests`` names,
        "shaffer" for all pairs) over the rows, or None.
    harvey : bool, default True
        The Harvey–Leybourne–Newbold small-sample correction with Student
        t(n − 1) p-values, as ``dm.test``; False gives the original test with
        normal p-values (``df`` NaN).

    Returns
    -------
    pandas.DataFrame
        Columns ``model_1, model_2, mean_loss_diff, statistic, df, pvalue,
        pvalue_adj, reject``; ``mean_loss_diff`` is mean loss of model_1 −
        model_2, so ≤ 0 in the default table (the best model first).
        ``attrs["pdcompare"]`` holds the loss, ``h``, ``harvey``, the number
        of time points and ``greater_is_better=False``.

    Notes
    -----
    With ``d_t = L(e_1t) − L(e_2t)``, its autocovariances ``γ_k = (1/n)
    Σ_{t>k} (d_t − d̄)(d_{t−k} − d̄)`` and the long-run variance ``V = (γ_0 +
    2 Σ_{k=1}^{h−1} γ_k) / n``, the statistic is ``DM = d̄ / sqrt(V)``
    (Diebold & Mariano 1995), standard normal under equal accuracy; with
    ``harvey`` it is multiplied by ``sqrt((n + 1 − 2h + h(h − 1)/n) / n)`` and
    referred to t(n − 1) (Harvey, Leybourne & Newbold 1997). This is R's
    ``forecast::dm.test(e1, e2, h=h, power=2)`` (``power=1`` for absolute
    error). When ``V`` is not positive (the autocovariances at lags ≥ 1 can
    outweigh ``γ_0``), the pair is computed at h = 1 with a warning, as
    ``dm.test`` does. A loss difference of 0 throughout gives statistic 0 and
    p-value 1, a constant non-zero one an infinite statistic; both warn.

    The test compares forecasts, not models: it holds the forecasts fixed,
    which suits out-of-sample forecasts from rolling or expanding windows.
    All pairs are computed at once from the loss matrix.

    References
    ----------
    F. X. Diebold and R. S. Mariano, "Comparing predictive accuracy",
    Journal of Business & Economic Statistics 13(3), 1995.
    D. Harvey, S. Leybourne and P. Newbold, "Testing the equality of
    prediction mean squared errors", International Journal of Forecasting
    13(2), 1997.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> y = np.cumsum(rng.normal(size=120))
    >>> forecasts = pd.DataFrame({"y": y[1:], "naive": y[:-1],
    ...                           "mean3": pd.Series(y).rolling(3).mean().to_numpy()[:-1]})
    >>> forecasts = forecasts.dropna()
    >>> out = forecasts.cmp.diebold_mariano()
    >>> print(out.round(5).to_string())
      model_1 model_2  mean_loss_diff  statistic     df   pvalue  pvalue_adj  reject
    0   naive   mean3        -0.67911   -4.30144  116.0  0.00004     0.00004    True

    Compare with scipy: at h = 1 the corrected statistic is the one-sample t
    statistic of the loss differences (the Harvey factor sqrt((n − 1)/n)
    undoes the divisor n of the variance):

    >>> from scipy import stats
    >>> d = (forecasts["y"] - forecasts["naive"])**2 - (forecasts["y"] - forecasts["mean3"])**2
    >>> round(float(stats.ttest_1samp(d, 0).statistic), 5)
    -4.30144
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    if not isinstance(harvey, bool | np.bool_):
        msg = f"`harvey` must be True or False; got {harvey!r}."
        raise TypeError(msg)
    h = check_positive_int("h", h)
    names, losses, loss_name = loss_matrix(predictions, y, loss, "diebold_mariano")
    n = losses.shape[0]
    if h >= n:
        msg = (
            f"`h` must be smaller than the number of time points ({n}); got {h}. The "
            "long-run variance sums autocovariances up to lag h - 1."
        )
        raise ValueError(msg)
    if h > 1:  # at h = 1 the statistic does not depend on the order of the rows
        warn_unordered_time(predictions, "diebold_mariano")
    mean_loss = losses.mean(axis=0)
    i, j, scope = select_pairs(names, mean_loss, a, b, greater_is_better=False)
    # As in dm.test, "greater" is about the loss difference the result names.
    raw = raw_alternative(alternative, False, warn_raw=False)
    out = diebold_mariano_pairs(losses, i, j, h=h, alternative=raw, harvey=bool(harvey))
    warn_pairs(
        names,
        i,
        j,
        [
            (
                out["fallback"],
                f": the long-run variance at h={h} is not positive, so the test uses h=1 "
                "for these pairs, as R's dm.test does",
            ),
            (out["identical"], " have identical losses: statistic 0 and p-value 1"),
            (
                out["constant"],
                " differ by the same loss at every time point: infinite statistic, "
                "p-value 0 (two-sided)",
            ),
        ],
    )
    columns = {k: out[k] for k in ("mean_loss_diff", "statistic", "df", "pvalue")}
    order = rank_order(mean_loss, greater_is_better=False)
    meta = results.result_meta(
        "diebold_mariano",
        scope=scope,
        alternative=raw,
        alpha=alpha,
        correction=correction,
        loss=loss_name,
        h=h,
        harvey=bool(harvey),
        fallback_h1=[(names[i[k]], names[j[k]]) for k in np.flatnonzero(out["fallback"])],
        n_obs=n,
        unit="time",
        greater_is_better=False,
        models=[names[k] for k in order],
        y=y,
    )
    return results.pair_result(names, i, j, columns, meta, correction=correction, alpha=alpha)


@comparison("confidence_set")
def confidence_set(
    predictions: pd.DataFrame,
    *,
    y: Any = "y",
    loss: str | Callable = "squared_error",
    alpha: float = 0.10,
    method: str = "R",
    n_resamples: int = 1000,
    block_size: int = 1,
    random_state: Any = None,
) -> pd.DataFrame:
    """The model confidence set: the models that cannot be told from the best.

    Called on a predictions frame (rows in time order when ``block_size > 1``;
    the observed values in column ``y`` and one column of forecasts or
    predicted labels per model). The model confidence set of Hansen, Lunde &
    Nason (2011) contains the best model with probability at least
    ``1 − alpha``: starting from every model, it tests equal predictive
    ability of those left and, while rejected, removes the worst one.

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame.
    y : column name, default "y"
        The column of observed values (or true labels).
    loss : {"squared_error", "absolute_error", "zero_one"} or callable, default "squared_error"
        The loss of each prediction, as in :func:`diebold_mariano`;
        "zero_one" (1 where a predicted label is wrong) for classification.
    alpha : float, default 0.10
        Level of the set: ``in_set`` is ``pvalue > alpha``.
    method : {"R", "max"}, default "R"
        The test statistic: "R", the range statistic ``max_ij |t_ij|`` over
        the pairs of models left, which removes the model of the largest
        ``t_ij``; "max", ``max_i t_i·`` with ``t_i·`` a model's mean loss
        minus the mean over the models left, over its standard error.
    n_resamples : int, default 1000
        Number of bootstrap resamples (at least 2).
    block_size : int, default 1
        1 resamples the rows independently; larger values use the stationary
        bootstrap of Politis & Romano (1994) with that mean block length, for
        losses correlated in time (``arch.bootstrap.MCS``'s bootstrap).
    random_state : None, int or numpy.random.Generator
        Seed of the resamples; an int makes the result reproducible.

    Returns
    -------
    pandas.DataFrame
        Indexed by model in elimination order (the first removed first, the
        best last): ``mean_loss``, ``pvalue`` (the MCS p-value: the largest
        step p-value up to the model's elimination, non-decreasing along the
        order, 1 for the last model), ``in_set`` (``pvalue > alpha``) and
        ``eliminated_at`` (the step at which the model was removed, 1 for the
        first; NaN for the last model). ``attrs["pdcompare"]`` holds the
        method, alpha, loss, ``n_resamples``, ``block_size``, the seed and the
        statistic of every step (``statistics``).

    Notes
    -----
    With ``d_ij = L_i − L_j`` the loss differentials, ``t_ij = d̄_ij /
    se(d̄_ij)``, the standard error from the bootstrap variance of the
    resampled means; step p-values are the share of resamples whose centred
    statistic ``T*`` reaches the observed ``T``; the MCS p-value of the k-th
    eliminated model is the largest step p-value of steps 1..k (Hansen,
    Lunde & Nason 2011, section 3 and 5). The same rules as
    ``arch.bootstrap.MCS``: with the same bootstrap indices the elimination
    order and p-values are equal. A loss difference with zero variance
    (identical losses) has statistic 0 where arch gives NaN, so identical
    models are never separated; with ``method="max"`` models tied at a step
    are removed together (sharing ``eliminated_at``), as in arch.

    All models are resampled on the same rows; every resample's mean losses
    come from one matrix product, and each step's bootstrap statistic from
    a running maximum over the elimination order, so 100 models × 10,000
    rows × 1,000 resamples take well under a second.

    References
    ----------
    P. R. Hansen, A. Lunde and J. M. Nason, "The model confidence set",
    Econometrica 79(2), 2011.
    D. N. Politis and J. P. Romano, "The stationary bootstrap", Journal of
    the American Statistical Association 89(428), 1994.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> y = rng.normal(size=500)
    >>> preds = pd.DataFrame({"y": y, "good": y + rng.normal(0, 1.0, 500),
    ...                       "close": y + rng.normal(0, 1.05, 500),
    ...                       "bad": y + rng.normal(0, 1.5, 500)})
    >>> preds.cmp.confidence_set(random_state=0).round(3)
           mean_loss  pvalue  in_set  eliminated_at
    model
    bad        2.405   0.000   False            1.0
    close      1.128   0.005   False            2.0
    good       0.885   1.000    True            NaN

    ``close`` is out at alpha 0.10: its 27% higher mean squared error is
    more than luck of the 500 points. The Diebold–Mariano test of the same
    pair agrees:

    >>> round(float(preds.cmp.diebold_mariano("good", "close")["pvalue"].iloc[0]), 4)
    0.0072
    """
    alpha = check_fraction("alpha", alpha)
    check_option("method", method, MCS_METHODS)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    block_size = check_positive_int("block_size", block_size)
    rng = check_random_state(random_state)
    names, losses, loss_name = loss_matrix(predictions, y, loss, "confidence_set")
    if len(names) < 2:
        msg = f"`confidence_set` compares at least 2 models; the frame has {len(names)}."
        raise ValueError(msg)
    n = losses.shape[0]
    if block_size > n:
        msg = f"`block_size` must be at most the number of rows ({n}); got {block_size}."
        raise ValueError(msg)
    if block_size > 1:  # blocks follow the rows' order; independent draws do not
        warn_unordered_time(predictions, "confidence_set")
    boot = resampled_means(losses, resample_indices(n, n_resamples, block_size, rng))
    out = model_confidence_set(losses, boot, method=method)
    order = out["order"]
    last = out["step"] == out["step"][-1]
    eliminated_at = np.where(last, np.nan, out["step"] + 1.0)
    columns = {
        "mean_loss": losses.mean(axis=0)[order],
        "pvalue": out["pvalue"],
        "in_set": out["pvalue"] > alpha,
        "eliminated_at": eliminated_at,
    }
    meta = results.result_meta(
        "confidence_set",
        alpha=alpha,
        method=method,
        loss=loss_name,
        n_resamples=n_resamples,
        block_size=block_size,
        random_state=seed_of(random_state),
        statistics=out["statistic"].tolist(),
        n_obs=n,
        greater_is_better=False,
        models=[names[k] for k in order[::-1]],
        y=y,
    )
    return results.model_result(names[order], columns, meta)


def _numbers(values: np.ndarray) -> bool:
    """Whether an object column holds numbers only (one text column makes the array object)."""
    return bool(pd.api.types.is_numeric_dtype(pd.Series(values).infer_objects()))
