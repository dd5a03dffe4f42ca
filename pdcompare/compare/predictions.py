"""Tests on a predictions frame: McNemar, Cochran's Q and the two-proportion z-test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    OptionError,
    apply_nan_policy,
    check_fraction,
    check_option,
    warn,
)
from pdcompare.compare._common import check_test_options, raw_alternative, scores_meta, warn_pairs
from pdcompare.compare.calls import comparison
from pdcompare.compare.items import binary_items, first_graded, frame_data
from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.predictions import label_blocks
from pdcompare.inputs.scores import select_pairs
from pdcompare.stats import items as items_core
from pdcompare.stats import paired_proportions
from pdcompare.stats import predictions as stats_predictions
from pdcompare.stats.predictions import CorrectnessBits, WeightedCorrectness, correctness


def _predictions(
    predictions: pd.DataFrame, y: Any, models: Any, nan_policy: str, test: str, *, bits=False
):
    """The predictions frame as correctness per model, with the models with missing values.

    Returns ``(data, store, incomplete)``. ``store`` is a
    :class:`~pdcompare.stats.predictions.CorrectnessBits` when ``bits`` is
    True and the rows are unweighted (each block of label columns packed into
    bits as it is read: no ``samples × models`` boolean matrix), else a
    :class:`_Matrices` with the boolean ``correct`` and ``valid`` matrices.
    ``incomplete`` marks the models whose results are NaN under "propagate"
    (all of them when the truth has a missing value); it is all False under
    "omit".
    """
    data = label_blocks(predictions, y=y, models=models, labels_for=test)
    n_models = len(data.names)
    store = None
    model_missing = np.zeros(n_models, dtype=bool)
    truth_missing = False
    for columns, read in data.blocks:  # a few label columns at a time: no copy of them all
        y_true, y_pred, missing = read()
        right, usable = correctness(y_true, y_pred, missing)
        if store is None:
            kind = CorrectnessBits if bits and data.weights is None else _Matrices
            store = kind(right.shape[0], n_models)
        store.add(columns, right, usable)
        model_missing[columns] = missing[:, 1:].any(axis=0)
        truth_missing = bool(missing[:, 0].any())
        del y_true, y_pred, missing, right, usable  # one block alive at a time
    columns = ([y] if truth_missing else []) + list(data.names[model_missing])
    incomplete = np.zeros(len(data.names), dtype=bool)
    if columns:
        apply_nan_policy(
            nan_policy,
            f"Column(s) {columns} of the predictions frame have missing values",
            omit="drop those rows (pair by pair)",
            propagate="give the comparisons involving them NaN results",
        )
        if nan_policy == "propagate":
            incomplete = model_missing | truth_missing
    return data, store, incomplete


class _Matrices:
    """The boolean ``(samples, models)`` correctness and usability, filled block by block."""

    def __init__(self, n_samples: int, n_models: int) -> None:
        # Model-major (Fortran) order: each model's column is contiguous.
        self.correct = np.empty((n_samples, n_models), dtype=bool, order="F")
        self.valid = np.empty((n_samples, n_models), dtype=bool, order="F")

    def add(self, columns: slice, correct: np.ndarray, valid: np.ndarray) -> None:
        self.correct[:, columns], self.valid[:, columns] = correct, valid


def _prediction_pairs(
    predictions: pd.DataFrame, a: Any, b: Any, y: Any, nan_policy: str, test: str
):
    """Pairs of models (best = highest accuracy) and their counts on common samples."""
    data, store, incomplete = _predictions(predictions, y, None, nan_policy, test, bits=True)
    if data.weights is None:
        packed = store.packed()  # bits packed block by block: no boolean matrices
    else:  # rows standing for several samples (distinct rows): few rows, kept as booleans
        packed = WeightedCorrectness(store.correct, store.valid, data.weights)
    accuracy = packed.accuracies()
    i, j, scope = select_pairs(data.names, accuracy, a, b)
    counts = packed.pair_counts(i, j)
    nan_rows = incomplete[i] | incomplete[j]
    counts = {k: np.where(nan_rows, np.nan, v) for k, v in counts.items()}
    order = np.argsort(-np.where(np.isnan(accuracy), -np.inf, accuracy), kind="stable")
    return data, i, j, scope, counts, list(data.names[order])


def _counts_column(counts):
    """Counts as int64, or float64 when some are NaN (pairs with missing predictions)."""
    return counts if np.isnan(counts).any() else counts.astype(np.int64)


@comparison("mcnemar")
def mcnemar(
    predictions: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    y: Any = "y",
    exact: bool | str | None = None,
    correction: bool = True,
    interval: str | None = "tango",
    ci: float = 0.95,
    alpha: float = 0.05,
    p_adjust: str | None = "holm",
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """McNemar's test of two classifiers on the same test samples.

    Called on a predictions frame: one row per test sample, the truth in
    column ``y`` and one column of predicted labels per model (labels of any
    dtype: strings, integers, categoricals).

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: one row per test sample, the truth column ``y``
        and one column of predictions per model.
    a, b : column name, optional
        ``(a, b)`` compares one pair; ``a`` alone compares it with every other
        model; neither compares the most accurate model with every other.
    y : column name, default "y"
        The column of true labels.
    exact : bool, "midp" or None, default None
        True: exact binomial test on the discordant counts; False: chi-square
        approximation; None: exact when ``only_1_correct + only_2_correct < 25``
        (on an items frame: always exact); "midp": the mid-p binomial test
        (the exact p-value less the probability of the observed split, which
        is less conservative and keeps the level closely; Fagerland et al.
        2013 recommend it).
    correction : bool, default True
        McNemar's continuity correction of the chi-square statistic, as in
        statsmodels (not used by the exact test).
    interval : {"tango", "newcombe", "wald"} or None, default "tango"
        The confidence interval of the difference of the two accuracies
        (paired proportions), ``accuracy_1 − accuracy_2``: Tango's score
        interval, Newcombe's hybrid score interval (his method 10), or the
        Wald interval (too narrow with few items); None leaves out the
        ``mean_diff, ci_low, ci_high`` columns.
    ci : float, default 0.95
        Confidence level of the interval.
    alpha : float, default 0.05
        Significance level of ``reject``.
    p_adjust : str or None, default "holm"
        Multiple-testing method (``statsmodels.stats.multitest.multipletests``)
        over the rows, or None. Every other test calls it ``correction``;
        here that name is McNemar's continuity correction, as in statsmodels.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Rows with a missing truth or prediction: the comparisons involving
        them are NaN ("propagate", with a warning), the rows are dropped pair
        by pair ("omit"), or a ValueError names the columns ("raise").

    Returns
    -------
    pandas.DataFrame
        Columns ``model_1, model_2, only_1_correct, only_2_correct, mean_diff,
        ci_low, ci_high, statistic, pvalue, pvalue_adj, reject``:
        ``mean_diff`` is ``accuracy_1 − accuracy_2 = (only_1_correct −
        only_2_correct) / n`` on the ``n`` common samples and ``ci_low,
        ci_high`` its interval (without ``interval``, these three columns
        are left out). ``attrs["pdcompare"]["exact_rows"]`` says which rows
        used the exact test; ``interval`` and ``ci`` which interval.

    Notes
    -----
    With ``b = only_1_correct`` (samples only model_1 gets right) and
    ``c = only_2_correct``, the test asks whether ``b`` and ``c`` differ more
    than chance allows; samples both models get right or wrong carry no
    information. Exact: statistic ``min(b, c)`` and
    ``p = min(1, 2 · P(Binom(b + c, 1/2) <= min(b, c)))``; chi-square:
    ``(|b − c| − 1)² / (b + c)`` (without the ``− 1`` when
    ``correction=False``) with 1 degree of freedom: the semantics of
    ``statsmodels.stats.contingency_tables.mcnemar``. The test is
    two-sided. A chi-square test without discordant samples (``b + c = 0``)
    gives statistic 0 and p-value 1 with a warning, where statsmodels gives
    NaN. Dietterich (1998) recommends McNemar's test when the models can be
    trained only once: it has a low type I error.

    The interval of the difference ``Δ = (b − c)/n``: Tango's (1998) score
    interval inverts the score test of ``Δ = δ`` with the probability of a
    discordant pair estimated under ``δ`` (the limits solve the score
    equation, found to 1e-10); Newcombe's (1998, method 10) combines the
    Wilson intervals of the two accuracies with the correlation of the
    pair (his continuity-corrected φ); Wald's is ``Δ ± z·sqrt(b + c −
    (b − c)²/n)/n``, clipped to [−1, 1]. Fagerland, Lydersen & Laake (2014)
    recommend Tango's and Newcombe's: both keep about their level from 15
    items on (docs/validity_table_binary_intervals.md), where Wald's falls
    short. The mid-p value is ``2·P(X < k) + P(X = k)`` with
    ``X ~ Binomial(b + c, 1/2)`` and ``k = min(b, c)``.

    References
    ----------
    Q. McNemar, "Note on the sampling error of the difference between
    correlated proportions or percentages", Psychometrika 12(2), 1947.
    T. G. Dietterich, Neural Computation 10(7), 1998.
    T. Tango, Statistics in Medicine 17(8), 891–908, 1998.
    R. G. Newcombe, Statistics in Medicine 17(22), 2635–2650, 1998.
    M. W. Fagerland, S. Lydersen, P. Laake, "The McNemar test for binary
    matched-pairs data: mid-p and asymptotic are better than exact
    conditional", BMC Medical Research Methodology 13, 91, 2013; and
    Statistics in Medicine 33(16), 2850–2875, 2014.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> truth = ["cat"] * 30 + ["dog"] * 30
    >>> preds = pd.DataFrame({"y": truth, "forest": truth[:52] + ["cat"] * 8,
    ...                       "knn": ["dog"] * 9 + truth[9:]})
    >>> print(preds.cmp.mcnemar(interval=None).round(4).to_string())
      model_1 model_2  only_1_correct  only_2_correct  statistic  pvalue  pvalue_adj  reject
    0  forest     knn               9               8        8.0     1.0         1.0   False

    Compare with statsmodels:

    >>> from statsmodels.stats.contingency_tables import mcnemar
    >>> float(mcnemar([[0, 9], [8, 0]], exact=True).pvalue)
    1.0

    The difference of the accuracies with Tango's interval (the default),
    and the mid-p test:

    >>> out = preds.cmp.mcnemar(exact="midp")
    >>> out[["mean_diff", "ci_low", "ci_high", "pvalue"]].round(4)
       mean_diff  ci_low  ci_high  pvalue
    0     0.0167 -0.1234   0.1568  0.8145
    """
    if frame_kind(predictions) is FrameKind.ITEMS:
        return _items_mcnemar(
            predictions,
            a,
            b,
            alpha=alpha,
            p_adjust=p_adjust,
            exact=exact,
            interval=interval,
            ci=ci,
            y=y,
            correction=correction,
            nan_policy=nan_policy,
        )
    from pdcompare.stats.predictions import mcnemar

    exact, interval, ci = _check_mcnemar_options(exact, interval, ci)
    if not isinstance(correction, bool | np.bool_):
        msg = (
            "`correction` of `mcnemar` is McNemar's continuity correction and must be "
            f"True or False; got {correction!r}. The multiple-testing method is "
            "`p_adjust=`."
        )
        raise TypeError(msg)
    alpha, p_adjust = check_test_options(
        alpha=alpha, correction=p_adjust, correction_keyword="p_adjust"
    )
    data, i, j, scope, counts, models = _prediction_pairs(
        predictions, a, b, y, nan_policy, "mcnemar"
    )
    out = mcnemar(
        counts["only_1"],
        counts["only_2"],
        exact=None if exact == "midp" else exact,
        correction=correction,
    )
    if exact == "midp":
        out = {
            **out,
            "statistic": np.minimum(counts["only_1"], counts["only_2"]),
            "pvalue": paired_proportions.midp_mcnemar(counts["only_1"], counts["only_2"]),
            "exact": np.ones(len(i), dtype=bool),
            "no_discordant": np.zeros(len(i), dtype=bool),
        }
    warn_pairs(
        data.names,
        i,
        j,
        [
            (
                out["no_discordant"],
                ": no sample is classified correctly by only one of the two models, so "
                "McNemar's chi-square statistic is 0/0; reported as statistic 0 and p-value 1.",
            )
        ],
    )
    columns = {
        "only_1_correct": _counts_column(counts["only_1"]),
        "only_2_correct": _counts_column(counts["only_2"]),
        **_interval_columns(
            interval,
            ci,
            counts["correct_1"] - counts["only_1"],
            counts["only_1"],
            counts["only_2"],
            counts["n"] - counts["correct_1"] - counts["only_2"],
        ),
        "statistic": out["statistic"],
        "pvalue": out["pvalue"],
    }
    meta = results.result_meta(
        "mcnemar",
        scope=scope,
        alpha=alpha,
        correction=p_adjust,
        exact=exact,
        interval=interval,
        ci=ci,
        continuity_correction=bool(correction),
        exact_rows=out["exact"].tolist(),
        nan_policy=nan_policy,
        y=y,
        models=models,
    )
    return results.pair_result(data.names, i, j, columns, meta, correction=p_adjust, alpha=alpha)


def _check_mcnemar_options(exact: Any, interval: Any, ci: Any) -> tuple[Any, Any, float]:
    """``exact``, ``interval`` and ``ci`` of :func:`mcnemar`, checked (the same on both kinds)."""
    if isinstance(exact, str) and exact != "midp":
        msg = f"`exact` must be True, False, None or 'midp'; got {exact!r}."
        raise OptionError(msg, keyword="exact")
    if exact is not None and not isinstance(exact, str | bool | np.bool_):
        msg = f"`exact` must be True, False, None or 'midp'; got {exact!r}."
        raise TypeError(msg)
    interval = check_option("interval", interval, (*paired_proportions.INTERVALS, None))
    return exact, interval, check_fraction("ci", ci)


def _interval_columns(interval: str | None, ci: float, a, b, c, d) -> dict[str, np.ndarray]:
    """``mean_diff, ci_low, ci_high`` of ``accuracy_1 − accuracy_2`` from each pair's 2×2 counts.

    ``a`` both right, ``b`` only model_1, ``c`` only model_2, ``d`` both
    wrong; no columns without an interval. NaN counts give NaN.
    """
    if interval is None:
        return {}
    a, b, c, d = (np.asarray(x, dtype=float) for x in (a, b, c, d))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_diff = (b - c) / (a + b + c + d)
    low, high = paired_proportions.paired_interval(interval, a, b, c, d, confidence=ci)
    return {"mean_diff": mean_diff, "ci_low": low, "ci_high": high}


@comparison("cochrans_q")
def cochrans_q(
    predictions: pd.DataFrame,
    models: Sequence[Any] | None = None,
    *,
    y: Any = "y",
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """Cochran's Q test of equal accuracy of several classifiers on the same samples.

    Called on a predictions frame (truth in column ``y``, one column of
    predicted labels per model, labels of any dtype).

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: one row per test sample, the truth column ``y``
        and one column of predictions per model.
    models : list of column names, optional
        The models to compare (at least 2); default every column but ``y``.
    y : column name, default "y"
        The column of true labels.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Rows with a missing truth or prediction (among ``models``): the
        result is NaN ("propagate", with a warning), the rows are dropped
        ("omit"), or a ValueError names the columns ("raise").

    Returns
    -------
    pandas.DataFrame
        One row with columns ``n_models, statistic, df, pvalue``;
        ``attrs["pdcompare"]`` holds the models and the number of samples.

    Notes
    -----
    With ``k`` models, ``G_j`` the number of samples model ``j`` classifies
    correctly and ``L_i`` the number of models right on sample ``i``,
    ``Q = (k − 1) (k Σ_j G_j² − (Σ_j G_j)²) / (k Σ_i L_i − Σ_i L_i²)``,
    chi-square with ``k − 1`` degrees of freedom under the null hypothesis of
    equal accuracies (Cochran 1950), as statsmodels' and mlxtend's
    ``cochrans_q``. It generalises McNemar's test (uncorrected chi-square)
    to more than two models; after a rejection, compare pairs with
    :func:`mcnemar`. When every sample is right for all models or wrong for
    all, Q is 0/0: reported as statistic 0 and p-value 1 with a warning.

    References
    ----------
    W. G. Cochran, "The comparison of percentages in matched samples",
    Biometrika 37(3/4), 1950.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> preds = pd.DataFrame({"y": [1, 1, 0, 0, 1, 0, 1, 1],
    ...                       "a": [1, 1, 0, 0, 1, 0, 1, 1],
    ...                       "b": [1, 0, 0, 1, 1, 0, 1, 0],
    ...                       "c": [0, 0, 1, 1, 1, 0, 0, 1]})
    >>> preds.cmp.cochrans_q().round(4)
       n_models  statistic  df  pvalue
    0         3     6.3333   2  0.0421

    Compare with statsmodels on the correctness matrix:

    >>> from statsmodels.stats.contingency_tables import cochrans_q
    >>> right = preds[["a", "b", "c"]].eq(preds["y"], axis=0).astype(int)
    >>> round(float(cochrans_q(right).pvalue), 4)
    0.0421
    """
    from pdcompare.stats.predictions import cochrans_q

    if models is not None and (isinstance(models, str) or not np.iterable(models)):
        msg = f"`models` must be a list of column names; got {models!r}."
        raise TypeError(msg)
    if frame_kind(predictions) is FrameKind.ITEMS:
        return _items_cochrans_q(predictions, models, y=y, nan_policy=nan_policy)
    # Boolean matrices: Q needs each sample's count of right models over the complete rows.
    data, store, incomplete = _predictions(predictions, y, models, nan_policy, "cochrans_q")
    if len(data.names) < 2:
        msg = f"`models`: Cochran's Q compares at least 2 models; got {list(data.names)}."
        raise ValueError(msg)
    correct, valid = store.correct, store.valid
    complete = valid.all(axis=1)
    weights = data.weights
    if complete.all():
        out = cochrans_q(correct, weights)
    else:
        out = cochrans_q(correct[complete], None if weights is None else weights[complete])
    if incomplete.any():
        out = {**out, "statistic": np.nan, "pvalue": np.nan, "degenerate": False}
    if out["degenerate"]:
        warn(
            f"Models {list(data.names)} are all right or all wrong on every sample, so "
            "Cochran's Q is 0/0; reported as statistic 0 and p-value 1."
        )
    frame = pd.DataFrame({k: [out[k]] for k in ("n_models", "statistic", "df", "pvalue")})
    meta = results.result_meta(
        "cochrans_q",
        models=list(data.names),
        n_samples=int(complete.sum() if weights is None else weights[complete].sum()),
        nan_policy=nan_policy,
        y=y,
    )
    return with_attrs(frame, meta)


@comparison("proportions_ztest")
def proportions_ztest(
    predictions: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    y: Any = "y",
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """Two-proportion z-test on the accuracies of classifiers: the test Dietterich warns about.

    Called on a predictions frame (truth in column ``y``, one column of
    predicted labels per model, labels of any dtype). Prefer
    :func:`mcnemar` on the same frame; this test is here for comparison
    with textbooks and older papers.

    Parameters
    ----------
    predictions : pandas.DataFrame
        The predictions frame: one row per test sample, the truth column ``y``
        and one column of predictions per model.
    a, b : column name, optional
        ``(a, b)`` compares one pair; ``a`` alone compares it with every other
        model; neither compares the most accurate model with every other.
    y : column name, default "y"
        The column of true labels.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About accuracy_1 − accuracy_2.
        "better"/"worse": model_1 better/worse than model_2 in the
        direction of the scores (the same as "greater"/"less" when higher
        is better, swapped for losses).
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing method of ``statsmodels.stats.multitest.multipletests``
        over the rows, or None.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Rows with a missing truth or prediction: NaN results ("propagate",
        with a warning), dropped pair by pair ("omit"), or a ValueError
        naming the columns ("raise").

    Returns
    -------
    pandas.DataFrame
        Columns ``model_1, model_2, accuracy_1, accuracy_2, statistic, pvalue,
        pvalue_adj, reject``.

    Notes
    -----
    ``z = (p_1 − p_2) / sqrt(2 p̄ (1 − p̄) / n)`` with ``p_1``, ``p_2`` the
    accuracies on the ``n`` common samples and ``p̄ = (p_1 + p_2) / 2``,
    standard normal under the null hypothesis: statsmodels'
    ``proportions_ztest`` with the pooled variance. Both accuracies 0 or
    both 1 give statistic 0 and p-value 1 with a warning.

    **Why Dietterich (1998) advises against it**: the test treats the two
    accuracies as proportions of two independent samples, but both models
    are evaluated on the *same* test set, so the accuracies are correlated;
    and it ignores the variation due to the choice of the training set. In
    Dietterich's simulations its type I error was elevated (it finds
    differences that are not there). :func:`mcnemar` uses the pairing.

    References
    ----------
    T. G. Dietterich, "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10(7), 1998.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> truth = ["cat"] * 50 + ["dog"] * 50
    >>> preds = pd.DataFrame({"y": truth, "forest": truth[:90] + ["cat"] * 10,
    ...                       "knn": ["dog"] * 20 + truth[20:]})
    >>> print(preds.cmp.proportions_ztest().round(4).to_string())
      model_1 model_2  accuracy_1  accuracy_2  statistic  pvalue  pvalue_adj  reject
    0  forest     knn         0.9         0.8     1.9803  0.0477      0.0477    True

    Compare with statsmodels (pooled variance), then with McNemar on the
    same samples:

    >>> from statsmodels.stats.proportion import proportions_ztest
    >>> [round(float(v), 4) for v in proportions_ztest([90, 80], [100, 100])]
    [1.9803, 0.0477]
    >>> round(float(preds.cmp.mcnemar()["pvalue"].iloc[0]), 4)
    0.1003
    """
    from pdcompare.stats.predictions import proportions_ztest

    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    data, i, j, scope, counts, models = _prediction_pairs(
        predictions, a, b, y, nan_policy, "proportions_ztest"
    )
    alternative = raw_alternative(alternative, True)  # higher accuracy is better
    out = proportions_ztest(
        counts["correct_1"], counts["correct_2"], counts["n"], alternative=alternative
    )
    warn_pairs(
        data.names,
        i,
        j,
        [
            (
                out["degenerate"],
                ": both models have accuracy 0 or both 1, so the z statistic is 0/0; "
                "reported as statistic 0 and p-value 1.",
            )
        ],
    )
    columns = {k: out[k] for k in ("accuracy_1", "accuracy_2", "statistic", "pvalue")}
    meta = results.result_meta(
        "proportions_ztest",
        scope=scope,
        alternative=alternative,
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
        y=y,
        models=models,
    )
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


def _items_mcnemar(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alpha: float = 0.05,
    p_adjust: str | None = "holm",
    exact: bool | str | None = None,
    interval: str | None = "tango",
    ci: float = 0.95,
    **options: Any,
) -> pd.DataFrame:
    """Exact McNemar test of every pair asked on binary items (see :func:`pdcompare.mcnemar`).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]], index=["a", "b"])
    >>> out = mcnemar(wide.cmp.set_design(items=True), "a", "b")
    >>> out[["only_1_correct", "mean_diff", "ci_low", "ci_high", "pvalue"]].round(4)
       only_1_correct  mean_diff  ci_low  ci_high  pvalue
    0             3.0        0.3 -0.0608   0.6032    0.25
    """
    alpha, p_adjust = check_test_options(
        alpha=alpha, correction=p_adjust, correction_keyword="p_adjust"
    )
    exact, interval, ci = _check_mcnemar_options(exact, interval, ci)
    if exact is False:
        msg = (
            "`exact=False`: on an items frame McNemar's test is always exact (binomial); "
            "pass `exact='midp'` for the mid-p test."
        )
        raise OptionError(msg, keyword="exact")
    options.pop("correction", None)  # the continuity correction: no use to the exact test
    data = frame_data(frame, options, "mcnemar")
    if interval is not None:
        _refuse_graded(data, interval)
    correct = binary_items(data, "mcnemar")
    i, j, scope = data.pairs(a, b)
    only_1, only_2 = items_core.discordant_counts(correct, i, j)
    statistic, pvalue = items_core.exact_mcnemar(only_1, only_2)
    if exact == "midp":
        pvalue = paired_proportions.midp_mcnemar(only_1, only_2)
    meta = scores_meta(
        "mcnemar",
        data,
        scope,
        alpha=alpha,
        correction=p_adjust,
        exact="midp" if exact == "midp" else True,
        interval=interval,
        ci=ci,
        alternative="two-sided",
    )
    right = correct.sum(axis=1, dtype=np.int64).astype(float)
    both = right[i] - only_1
    columns = {
        "only_1_correct": only_1,
        "only_2_correct": only_2,
        **_interval_columns(
            interval, ci, both, only_1, only_2, data.n_items - both - only_1 - only_2
        ),
        "statistic": statistic,
        "pvalue": pvalue,
    }
    return results.pair_result(data.names, i, j, columns, meta, correction=p_adjust, alpha=alpha)


def _refuse_graded(data: Any, interval: str) -> None:
    """Refuse scores other than 0 and 1 for an interval of paired proportions, naming the fix."""
    graded = first_graded(data)
    if graded is not None:
        msg = (
            f"`mcnemar` with `interval={interval!r}` (an interval of the difference of two "
            f"proportions) needs 0/1 scores, but {graded} (graded scores, or means of several "
            "samples): use `permutation_test` or `ttest` to test them and `bootstrap_diff` "
            "for an interval of their mean difference."
        )
        raise ValueError(msg)


def _items_cochrans_q(
    frame: pd.DataFrame, models: Sequence[Any] | None, **options: Any
) -> pd.DataFrame:
    """Cochran's Q on binary items (the items branch of :func:`cochrans_q`).

    The items are the samples and each model's 0/1 score its correctness:
    the same Q as on a predictions frame whose rows are the items. Graded
    scores, clusters and several samples per item are refused (as by
    ``mcnemar``), naming ``permutation_test`` and ``ttest``.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame([[1, 1, 0, 1, 1, 1], [1, 0, 0, 1, 0, 1], [0, 0, 0, 1, 0, 0]],
    ...                     index=["a", "b", "c"])
    >>> out = cochrans_q(wide.cmp.set_design(items=True))
    >>> out[["n_models", "statistic", "df"]].round(4)
       n_models  statistic  df
    0         3        6.0   2

    Compare with statsmodels:

    >>> from statsmodels.stats import contingency_tables
    >>> round(float(contingency_tables.cochrans_q(wide.T.to_numpy()).statistic), 4)
    6.0
    """
    nan_policy = options.pop("nan_policy", None)  # an items frame has no missing items
    data = frame_data(frame, options, "cochrans_q")
    if models is not None:
        missing = [m for m in models if m not in set(data.names)]
        if missing:
            msg = f"`models`: {missing} are not models of this items frame ({list(data.names)})."
            raise ValueError(msg)
        data = frame_data(frame.loc[list(models)], options, "cochrans_q")
    if len(data.names) < 2:
        msg = f"`models`: Cochran's Q compares at least 2 models; got {list(data.names)}."
        raise ValueError(msg)
    correct = binary_items(data, "cochrans_q").T.astype(bool)
    out = stats_predictions.cochrans_q(correct)
    if out["degenerate"]:
        warn(
            f"Models {list(data.names)} are all right or all wrong on every item, so "
            "Cochran's Q is 0/0; reported as statistic 0 and p-value 1."
        )
    table = pd.DataFrame({k: [out[k]] for k in ("n_models", "statistic", "df", "pvalue")})
    meta = results.result_meta(
        "cochrans_q",
        models=list(data.names),
        n_samples=int(correct.shape[0]),
        nan_policy=nan_policy,
        **{key: value for key, value in data.meta().items() if key != "samples_per_item"},
    )
    return with_attrs(table, meta)
