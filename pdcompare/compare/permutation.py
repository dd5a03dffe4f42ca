"""The paired permutation test: row swaps of predictions, sign flips across splits or data sets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_positive_int, check_random_state
from pdcompare.compare._common import (
    check_test_options,
    raw_alternative,
    scores_meta,
    seed_of,
    warn_overlapping_splits,
)
from pdcompare.compare.bootstrap import _prediction_arrays, score_metric_arrays
from pdcompare.compare.calls import comparison
from pdcompare.compare.items import frame_data, prediction_keywords, sided_pairs
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.predictions import predictions_data
from pdcompare.inputs.scores import ALL_PAIRS, rank_order, select_pairs
from pdcompare.stats import items as items_core
from pdcompare.stats.auc import auc_swaps
from pdcompare.stats.metrics import get_metric, roc_auc_columns
from pdcompare.stats.permutation import (
    count_permutation_test,
    row_permutation_test,
    sign_flip_test,
)

#: Scores of orderings: their swaps exchange each row's two ranks (Venkatraman & Begg 1996).
RANKED_SCORES = ("roc_auc", "average_precision")


@comparison("permutation_test")
def permutation_test(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    score: str | Callable = "accuracy",
    y: Any = "y",
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    random_state: Any = None,
    greater_is_better: bool | None = None,
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Paired permutation (randomisation) test of the difference between two models.

    On a predictions frame (a truth column ``y``), each row's two
    predictions are swapped with probability ½ and ``score`` is recomputed
    (the approximate randomisation test of NLP and information retrieval);
    on a scores frame of a single k-fold (one column per split) or a
    benchmark frame (across data sets, on the per-data-set means), the sign
    of each unit's difference is flipped with probability ½.

    Parameters
    ----------
    frame : pandas.DataFrame
        A predictions frame (truth column ``y`` and one column of predictions
        per model), a scores frame or a benchmark frame.
    a, b : label, optional
        ``(a, b)`` compares one pair (``model_1 = a``); ``a`` alone compares it
        with every other model; neither compares the best model with every
        other (on predictions the best score on all rows: the lowest for a
        loss).
    score : str or callable, default "accuracy"
        On a predictions frame: "accuracy", "balanced_accuracy",
        "recall_macro", "precision_macro", "f1_macro", "mean_squared_error",
        "mean_absolute_error"; on columns of probabilities or decision values
        of the positive class of a binary truth "roc_auc",
        "average_precision", "log_loss", "brier_score"; or any
        ``f(y_true, y_pred) -> float``. Not used on scores and benchmark frames.
    y : label, default "y"
        The truth column of a predictions frame.
    n_resamples : int, default 9999
        Resamples of the randomised test. A pair whose values differ on
        ``n`` units is tested exactly (all ``2**n`` swaps) when
        ``2**n <= n_resamples``.
    alternative : {"two-sided", "greater", "less", "better", "worse"}, default "two-sided"
        About ``score_1 − score_2`` (scipy's meaning); "better"/"worse" in the
        score's direction.
    alpha : float, default 0.05
        Significance level of ``reject``.
    correction : str or None, default "holm"
        Multiple-testing method over the rows (statsmodels' names, "shaffer"
        for all pairs), or None.
    random_state : None, int or numpy.random.Generator
        Seed of the resamples (the exact pairs use none).
    greater_is_better : bool, optional
        Direction of a callable score (default True), or of a scores frame
        (as in the other tests; default the frame's design).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing values: NaN results for the affected pairs (with a warning),
        dropped (rows of predictions; splits or data sets pair by pair), or
        a ValueError.
    **design
        On a scores frame, the CV design keywords (``cv=``, ``test_size=``,
        ``n_train=``, ``n_test=``), which tell overlapping splits apart.

    Returns
    -------
    pandas.DataFrame
        One row per pair, best first: ``model_1, model_2, score_1, score_2,
        mean_diff, pvalue, pvalue_adj, reject``. ``score_*`` are the scores on
        all rows (on scores and benchmark frames, the mean over splits or
        data sets); ``mean_diff = score_1 − score_2``.
        ``attrs["pdcompare"]["exact"]`` says which rows were exact.

    Notes
    -----
    The statistic is ``score(model_1) − score(model_2)``; under the null
    hypothesis that the two models are exchangeable, every swap pattern is
    equally likely (Fisher 1935; Noreen 1989). p-values as in
    ``scipy.stats.permutation_test(..., permutation_type="samples")``:
    exact, the share of swap patterns whose statistic is at least as extreme
    (two-sided: twice the smaller tail, at most 1); randomised,
    ``(b + 1) / (n_resamples + 1)`` (Phipson & Smyth 2010). Rows where the
    two predictions are equal cannot change the statistic, so only the ``n``
    differing ones are enumerated. Scores of confusion counts are
    recomputed from each pair's distinct (truth, prediction 1, prediction 2)
    triples and binomial swap counts, at a cost independent of the number of
    rows; other scores swap the rows themselves, one pair at a time.

    With ``score="roc_auc"`` or ``"average_precision"`` each model's scores
    are first turned into their ranks over the rows (tied scores get average
    ranks) and each row's two **ranks** are swapped (Venkatraman & Begg
    1996), so the p-value depends on the orderings only, as the AUC itself
    does: rescaling one model's scores leaves it unchanged. The test is then
    exact when the two models' ranks differ on ``n`` rows with
    ``2**n <= n_resamples``.

    On the splits of a single k-fold the test treats the folds as
    independent, like :func:`ttest`; on repeated CV the splits overlap and it
    warns, naming :func:`corrected_ttest`.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> preds = pd.DataFrame({"y": y,
    ...                       "forest": np.where(rng.random(300) < 0.9, y, 1 - y),
    ...                       "tree": np.where(rng.random(300) < 0.8, y, 1 - y)})
    >>> out = preds.cmp.permutation_test(random_state=0)
    >>> out[["model_1", "model_2", "score_1", "score_2", "pvalue"]].round(3)
      model_1 model_2  score_1  score_2  pvalue
    0  forest    tree    0.887     0.82   0.029

    For accuracy, swapping rows is McNemar's exact test, which the
    randomised p-value estimates:

    >>> round(float(preds.cmp.mcnemar(exact=True)["pvalue"].iloc[0]), 3)
    0.031

    Across data sets, the exact sign-flip test on Fisher's Zea mays
    differences (compare with scipy):

    >>> d = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48]
    >>> bench = pd.DataFrame([d, [0] * 15], index=["cross", "self"],
    ...                      columns=pd.Index(range(15), name="dataset"))
    >>> out = bench.cmp.permutation_test(n_resamples=2**15, alternative="greater")
    >>> float(out["pvalue"].iloc[0] * 2**15)
    863.0
    >>> from scipy import stats
    >>> res = stats.permutation_test((d, [0] * 15), lambda x, z, axis: np.mean(x - z, axis=axis),
    ...                              permutation_type="samples", alternative="greater",
    ...                              n_resamples=np.inf)
    >>> float(res.pvalue * 2**15)
    863.0
    """
    check_frame(frame)
    if frame_kind(frame) is FrameKind.ITEMS:
        return _items_permutation_test(
            frame,
            a,
            b,
            n_resamples=n_resamples,
            alternative=alternative,
            alpha=alpha,
            correction=correction,
            random_state=random_state,
            score=score,
            y=y,
            greater_is_better=greater_is_better,
            **design,
        )

    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    n_resamples = check_positive_int("n_resamples", n_resamples)
    rng = check_random_state(random_state)
    options = {
        "alternative": alternative,
        "alpha": alpha,
        "correction": correction,
        "n_resamples": n_resamples,
        "random_state": random_state,
        "rng": rng,
        "nan_policy": nan_policy,
    }
    if frame.columns.nlevels == 1 and y in frame.columns:
        if design:
            msg = (
                f"`permutation_test` on a predictions frame takes no design keywords; got "
                f"{', '.join(map(repr, design))}."
            )
            raise TypeError(msg)
        return _on_predictions(frame, a, b, score, y, greater_is_better, **options)
    if greater_is_better is not None:
        design["greater_is_better"] = greater_is_better
    return _on_scores(frame, a, b, design, **options)


def _on_predictions(frame, a, b, score, y, greater_is_better, **options):
    """Row swaps on a predictions frame, every pair at once for the scores of counts."""
    metric = get_metric(score, greater_is_better)
    involved = None
    if a is not None and b is not None and a is not ALL_PAIRS:
        names = predictions_data(frame, y=y).names
        i, j, _ = select_pairs(names, np.zeros(len(names)), a, b)
        involved = [int(i[0]), int(j[0])]
    nan_policy = options["nan_policy"]
    if metric.on_scores:
        names, y_true, y_pred, valid, weights = score_metric_arrays(
            frame, y, nan_policy, involved, test="permutation_test"
        )
    else:
        labels_for = "permutation_test" if metric.count_based else None
        names, y_true, y_pred, valid, weights = _prediction_arrays(
            frame, y, nan_policy, involved, labels_for=labels_for
        )
    columns = np.flatnonzero(valid)
    chosen = y_pred[:, columns] if not valid.all() else y_pred
    estimate = np.full(len(names), np.nan)
    if columns.size:
        estimate[columns] = metric.score_columns(y_true, chosen)
    if metric.name in RANKED_SCORES:
        from scipy.stats import rankdata  # heavy: only for the scores that see orderings

        chosen = rankdata(chosen, axis=0)  # the AUC and AP see orderings only
    i, j, scope = select_pairs(names, estimate, a, b, metric.greater_is_better)
    alternative = raw_alternative(options["alternative"], metric.greater_is_better)
    out = {key: np.full(i.size, np.nan) for key in ("score_1", "score_2", "mean_diff", "pvalue")}
    exact = np.zeros(i.size, dtype=bool)
    ok = valid[i] & valid[j]
    if ok.any():
        position = np.full(len(names), -1)
        position[columns] = np.arange(columns.size)
        kwargs = {
            "n_resamples": options["n_resamples"],
            "alternative": alternative,
            "random_state": options["rng"],
        }
        first, second = position[i[ok]], position[j[ok]]
        if metric.count_based:
            found = count_permutation_test(
                y_true, chosen, metric, first, second, weights=weights, **kwargs
            )
        else:
            found = row_permutation_test(
                y_true, chosen, metric.score_columns, first, second, swaps=_swaps(metric, y_true),
                **kwargs,
            )  # fmt: skip
        for key in out:
            out[key][ok] = found[key]
        exact[ok] = found["exact"]
    order = rank_order(estimate, metric.greater_is_better)
    meta = results.result_meta(
        "permutation_test",
        scope=scope,
        alternative=alternative,
        alpha=options["alpha"],
        correction=options["correction"],
        score=metric.name,
        n_resamples=options["n_resamples"],
        exact=exact.tolist(),
        random_state=seed_of(options["random_state"]),
        greater_is_better=metric.greater_is_better,
        unit="sample",
        nan_policy=nan_policy,
        y=y,
        models=[names[k] for k in order],
    )
    return results.pair_result(
        names, i, j, out, meta, correction=options["correction"], alpha=options["alpha"]
    )


def _swaps(metric, y_true):
    """The ROC AUC's O(n) differences under row swaps; None for other scores."""
    if metric.columns is not roc_auc_columns:
        return None
    positive = np.asarray(y_true) == 1
    return lambda x, z: auc_swaps(positive, x, z)


def _on_scores(frame, a, b, design, **options):
    """Sign flips of the per-split (or per-data-set) differences of a scores frame."""
    data = scores_data(frame, **design)
    warn_overlapping_splits(data, "permutation_test")
    alternative = raw_alternative(options["alternative"], data.design.greater_is_better)
    i, j, scope = data.pairs(a, b)
    nan_pairs = data.nan_pairs(i, j, options["nan_policy"])
    differences = data.values[i] - data.values[j]
    present = ~np.isnan(differences)
    out = sign_flip_test(
        np.where(present, differences, 0.0),
        n_resamples=options["n_resamples"],
        alternative=alternative,
        random_state=options["rng"],
        n_units=present.sum(axis=1),
    )
    pvalue = out["pvalue"]
    mean_diff = out["statistic"]
    first = np.nanmean(np.where(present, data.values[i], np.nan), axis=1)
    second = np.nanmean(np.where(present, data.values[j], np.nan), axis=1)
    if options["nan_policy"] == "propagate":
        for values in (pvalue, mean_diff, first, second):
            values[nan_pairs] = np.nan
    columns = {"score_1": first, "score_2": second, "mean_diff": mean_diff, "pvalue": pvalue}
    meta = scores_meta(
        "permutation_test",
        data,
        scope,
        alternative=alternative,
        alpha=options["alpha"],
        correction=options["correction"],
        n_resamples=options["n_resamples"],
        exact=out["exact"].tolist(),
        random_state=seed_of(options["random_state"]),
        nan_policy=options["nan_policy"],
    )
    return results.pair_result(
        data.names, i, j, columns, meta, correction=options["correction"], alpha=options["alpha"]
    )


def _items_permutation_test(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    correction: str | None = "holm",
    random_state: Any = None,
    **options: Any,
) -> pd.DataFrame:
    """Sign flips of whole clusters (of items without clusters), every pair asked.

    The statistic is the mean item difference; exact when ``2**k <=
    n_resamples``, ``k`` the clusters whose summed difference is non-zero.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 1, 0, 1, 1, 0, 1, 1, 1],
    ...                      [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]], index=["a", "b"])
    >>> out = permutation_test(wide.cmp.set_design(items=True), "a", "b")
    >>> float(out["mean_diff"].iloc[0]), float(out["pvalue"].iloc[0])  # 2 of 2**3 flips
    (0.3, 0.25)
    """
    alpha, correction = check_test_options(
        alternative=alternative, alpha=alpha, correction=correction
    )
    n_resamples = check_positive_int("n_resamples", n_resamples)
    rng = check_random_state(random_state)
    options = prediction_keywords(
        options, "permutation_test", "the statistic is the mean item score"
    )
    data = frame_data(frame, options, "permutation_test")
    i, j, scope, asked, alternative = sided_pairs(data, a, b, alternative)
    sums, _ = items_core.cluster_sums(data.values, data.cluster, data.n_clusters)
    out = {
        "statistic": np.empty(len(i)),
        "pvalue": np.empty(len(i)),
        "exact": np.empty(len(i), bool),
    }
    step = max(1, (1 << 24) // max(data.n_clusters * 8, 1))
    for start in range(0, len(i), step):
        part = slice(start, start + step)
        found = sign_flip_test(
            sums[i[part]] - sums[j[part]],
            n_resamples=n_resamples,
            alternative=alternative,
            random_state=rng,
            n_units=np.full(len(i[part]), float(data.n_items)),
        )
        for key in out:
            out[key][part] = found[key]
    means = data.values.mean(axis=1)
    meta = scores_meta(
        "permutation_test",
        data,
        scope,
        alternative=alternative,
        asked_alternative=asked,
        alpha=alpha,
        correction=correction,
        n_resamples=n_resamples,
        random_state=seed_of(random_state),
        exact=bool(out["exact"].all()),
    )
    columns = {
        "score_1": means[i],
        "score_2": means[j],
        "mean_diff": out["statistic"],
        "pvalue": out["pvalue"],
    }
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)
