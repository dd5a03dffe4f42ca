"""Paired bootstrap of model scores on a set of predictions, exact and fast.

Every bootstrap resample draws ``N`` rows uniformly with replacement and scores
every model on the same rows (a paired bootstrap), so differences between
models are resampled with their correlation.

Two resampling paths give the same distribution:

- **pattern counts** (scores that depend on confusion counts only): the rows
  are summarised by the distinct patterns ``(truth, prediction_1, ...,
  prediction_m)`` and their counts ``c``. Drawing ``N`` rows uniformly with
  replacement is exactly drawing multinomial counts ``Multinomial(N, c / N)``
  over the patterns, so a resample costs O(patterns) instead of O(N); every
  model's confusion counts of every resample are one sparse matrix product.
- **index resampling** (callables, regression scores): ``N`` row indices per
  resample, drawn in chunks so that memory stays bounded whatever ``N``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from pdcompare._validation import check_random_state
from pdcompare.stats import _special as special
from pdcompare.stats.label_codes import _labels_as_arrays, encode_labels
from pdcompare.stats.metrics import Metric, get_metric

#: Methods of the per-model interval.
INTERVAL_METHODS = ("percentile", "normal")

#: Ways of drawing the resamples ("auto": pattern counts where the score allows).
RESAMPLING = ("auto", "counts", "index")

#: Methods of ``statsmodels.stats.proportion.proportion_confint`` offered by ``accuracy_ci``.
PROPORTION_METHODS = ("normal", "wilson", "beta", "agresti_coull", "jeffreys")

# Bytes of temporary arrays per chunk of resamples: bounds memory whatever N is.
_CHUNK_BYTES = 2**25
# Largest number of possible patterns counted with np.bincount rather than np.unique.
_MAX_BINCOUNT_PATTERNS = 2**22


def pattern_counts(
    true_codes: np.ndarray,
    pred_codes: np.ndarray,
    n_classes: int,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows ``(truth, prediction_1, ..., prediction_m)`` and how often each occurs.

    Rows are combined into one integer code (base ``K``) and counted with
    ``np.bincount`` (one linear pass) when the number of possible patterns is
    small, with ``np.unique`` (one sort) otherwise. With ``weights`` (int), row
    ``r`` counts ``weights[r]`` times. Patterns come in lexicographic order.

    Returns
    -------
    patterns : ndarray of int64, shape (p, m + 1)
        Truth code in column 0, then each model's prediction code.
    counts : ndarray of int64, shape (p,)

    Examples
    --------
    >>> patterns, counts = pattern_counts(np.array([0, 1, 1]), np.array([[0], [1], [1]]), 2)
    >>> patterns.tolist(), counts.tolist()
    ([[0, 0], [1, 1]], [1, 2])
    """
    n_columns = pred_codes.shape[1] + 1
    if n_columns * np.log2(max(n_classes, 2)) >= 62:
        # The combined code would overflow int64: count the rows themselves.
        rows = np.concatenate([true_codes[:, None], pred_codes], axis=1)
        patterns, inverse, counts = np.unique(
            rows, axis=0, return_inverse=True, return_counts=True
        )
        if weights is not None:
            counts = _weighted_counts(inverse.ravel(), weights, len(patterns))
        return patterns.astype(np.int64, copy=False), counts.astype(np.int64)
    code = true_codes.astype(np.int64, copy=True)
    for k in range(pred_codes.shape[1]):
        code *= n_classes
        code += pred_codes[:, k]
    n_possible = n_classes**n_columns
    if n_possible <= max(_MAX_BINCOUNT_PATTERNS, code.size):
        all_counts = (
            np.bincount(code, minlength=n_possible)
            if weights is None
            else _weighted_counts(code, weights, n_possible)
        )
        unique_codes = np.flatnonzero(all_counts)
        counts = all_counts[unique_codes]
    else:
        unique_codes, inverse, counts = np.unique(code, return_inverse=True, return_counts=True)
        if weights is not None:
            counts = _weighted_counts(inverse, weights, unique_codes.size)
    patterns = np.empty((unique_codes.size, n_columns), dtype=np.int64)
    rest = unique_codes.astype(np.int64, copy=True)
    for column in range(n_columns - 1, -1, -1):
        rest, patterns[:, column] = np.divmod(rest, n_classes)
    return patterns, counts.astype(np.int64)


def _weighted_counts(codes: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """``np.bincount`` of ``codes`` with integer weights, as exact int64 counts.

    Every row has a positive weight, so a code that occurs has a positive count.
    """
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, np.asarray(weights, dtype=np.int64))
    return out


def label_patterns(y_true, y_pred, weights=None) -> tuple[np.ndarray, np.ndarray, int]:
    """Distinct (truth, predictions) patterns of the rows, as label codes, and their counts.

    Integer labels in a narrow range are combined as they are (offset by their
    minimum) and recoded afterwards on the patterns only, so that the rows are
    read in a few linear passes and never sorted; other labels are coded by
    :func:`encode_labels` first. With ``weights`` (the counts of distinct
    rows), the result is that of the rows repeated that many times.

    Returns
    -------
    patterns : ndarray of int64, shape (p, m + 1)
        Codes ``0..K-1`` (the labels in sorted order): the truth in column 0,
        then each model's prediction; the patterns in lexicographic order.
    counts : ndarray of int64, shape (p,)
    n_classes : int
        ``K``, the number of distinct labels.

    Examples
    --------
    >>> patterns, counts, k = label_patterns(np.array([5, 9, 9]), np.array([[5], [5], [9]]))
    >>> patterns.tolist(), counts.tolist(), k
    ([[0, 0], [1, 0], [1, 1]], [1, 1, 1], 2)
    """
    y_true, y_pred, integers = _labels_as_arrays(y_true, y_pred)
    if integers is not None:
        true_int, pred_int, low, high = integers
        if low:
            true_int, pred_int = true_int - low, pred_int - low
        patterns, counts = pattern_counts(true_int, pred_int, high - low + 1, weights)
        labels, recoded = np.unique(patterns, return_inverse=True)
        return recoded.reshape(patterns.shape).astype(np.int64), counts, len(labels)
    true_codes, pred_codes, n_classes = encode_labels(y_true, y_pred)
    patterns, counts = pattern_counts(true_codes, pred_codes, n_classes, weights)
    return patterns, counts, n_classes


def _cell_matrix(patterns: np.ndarray, n_classes: int):
    """Sparse (p, m·K²) indicator: pattern -> confusion cell (truth, prediction) of each model."""
    from scipy import sparse

    n_patterns, n_models = patterns.shape[0], patterns.shape[1] - 1
    cells = patterns[:, :1] * n_classes + patterns[:, 1:]
    columns = cells + np.arange(n_models) * n_classes * n_classes
    rows = np.repeat(np.arange(n_patterns), n_models)
    return sparse.csc_array(
        (np.ones(rows.size), (rows, columns.ravel())),
        shape=(n_patterns, n_models * n_classes * n_classes),
    )


def _counts_replicates(
    patterns: np.ndarray,
    counts: np.ndarray,
    n_classes: int,
    metric: Metric,
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Estimate and replicates of a count-based score by multinomial pattern counts."""
    n_rows = int(counts.sum())
    n_models = patterns.shape[1] - 1
    shape = (n_models, n_classes, n_classes)
    cell_matrix = _cell_matrix(patterns, n_classes)
    # (K², p) @ (p, chunk): each column is every model's confusion counts of one resample.
    cell_matrix_t = cell_matrix.T.tocsr()
    estimate = metric.from_counts((cell_matrix_t @ counts.astype(float)).reshape(shape))
    probabilities = counts / n_rows
    replicates = np.empty((n_resamples, n_models))
    width = max(patterns.shape[0], n_models * n_classes * n_classes)
    chunk = max(1, _CHUNK_BYTES // (8 * width))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        weights = rng.multinomial(n_rows, probabilities, size=size)
        confusion = (cell_matrix_t @ weights.T.astype(float)).T
        replicates[start : start + size] = metric.from_counts(confusion.reshape(size, *shape))
    return estimate, replicates


def _index_chunks(
    n_rows: int, n_resamples: int, rng: np.random.Generator, per_row_bytes: int
) -> Iterator[np.ndarray]:
    """Row indices of the resamples, ``(chunk, n_rows)`` at a time, memory bounded."""
    chunk = max(1, _CHUNK_BYTES // (per_row_bytes * n_rows))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        yield rng.integers(0, n_rows, size=(size, n_rows))


def _index_replicates(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    metric: Metric,
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Estimate and replicates of any score by resampling row indices."""
    n_rows, n_models = y_pred.shape
    replicates = np.empty((n_resamples, n_models))
    done = 0
    if metric.count_based:
        true_codes, pred_codes, n_classes = encode_labels(y_true, y_pred)
        cells = true_codes[:, None] * n_classes + pred_codes
        n_cells = n_classes * n_classes
        full = np.stack([np.bincount(cells[:, k], minlength=n_cells) for k in range(n_models)])
        estimate = metric.from_counts(full.reshape(n_models, n_classes, n_classes))
        for index in _index_chunks(n_rows, n_resamples, rng, per_row_bytes=24):
            size = index.shape[0]
            offsets = (np.arange(size) * n_cells)[:, None]
            for k in range(n_models):
                confusion = np.bincount(
                    (cells[:, k][index] + offsets).ravel(), minlength=size * n_cells
                )
                replicates[done : done + size, k] = metric.from_counts(
                    confusion.reshape(size, n_classes, n_classes)
                )
            done += size
        return estimate, replicates
    if metric.row_loss is not None:
        losses = _row_losses(y_true, y_pred, metric)
        estimate = losses.mean(axis=0)
        # The weights form: a resample's mean loss is (times each row is drawn) @ losses / N,
        # one pass over the losses of every model instead of a gather per model.
        for index in _index_chunks(n_rows, n_resamples, rng, per_row_bytes=16):
            for rows in index:
                replicates[done] = np.bincount(rows, minlength=n_rows) @ losses
                done += 1
        replicates /= n_rows
        return estimate, replicates
    # Each model's predictions contiguous, so that a resample gathers from one block.
    columns = y_pred.T if y_pred.flags.f_contiguous else np.ascontiguousarray(y_pred.T)
    estimate = np.array([_call(metric, y_true, column) for column in columns])
    for index in _index_chunks(n_rows, n_resamples, rng, per_row_bytes=8):
        for rows in index:
            truth = y_true[rows]
            replicates[done] = [_call(metric, truth, column[rows]) for column in columns]
            done += 1
    return estimate, replicates


def _row_losses(y_true: np.ndarray, y_pred: np.ndarray, metric: Metric) -> np.ndarray:
    try:
        truth = np.asarray(y_true, dtype=float)
        predictions = np.asarray(y_pred, dtype=float)
    except (TypeError, ValueError):
        msg = (
            f"`score`: {metric.name!r} needs numeric truth and predictions (a regression); "
            "use a classification score such as 'accuracy' for labels."
        )
        raise TypeError(msg) from None
    return metric.row_loss(truth[:, None], predictions)


def _call(metric: Metric, y_true: np.ndarray, y_pred: np.ndarray) -> float:
    value = metric.function(y_true, y_pred)
    try:
        return float(value)
    except (TypeError, ValueError):
        msg = (
            f"`score`: the callable {metric.name!r} must return one number "
            f"f(y_true, y_pred) -> float; it returned {type(value).__name__}."
        )
        raise TypeError(msg) from None


# --------------------------------------------------------------------------- distribution


def _quantiles(values: np.ndarray, q: float) -> np.ndarray:
    """Quantile along axis 0 (linear interpolation, as np.quantile), NaN if a column has NaN."""
    return np.quantile(values, q, axis=0)


@dataclass(frozen=True)
class BootstrapDistribution:
    """The paired bootstrap distribution of every model's score.

    Attributes
    ----------
    estimate : ndarray, shape (m,)
        The score of each model on all rows (NaN for a model left out).
    replicates : ndarray, shape (n_resamples, m)
        The score of each model in each resample; row ``r`` of every model
        comes from the same resampled rows.
    greater_is_better : bool
        Direction of the score.
    """

    estimate: np.ndarray
    replicates: np.ndarray
    greater_is_better: bool

    def intervals(self, confidence: float = 0.95, method: str = "percentile") -> dict:
        """Per model: ``estimate, se, ci_low, ci_high``.

        ``se`` is the standard deviation of the replicates (ddof=1, as
        ``scipy.stats.bootstrap``). "percentile" takes the ``(1 ∓ ci)/2``
        quantiles of the replicates; "normal" is ``estimate ± z·se`` with ``z``
        the standard normal ``(1 + ci)/2`` quantile.
        """
        se = np.std(self.replicates, axis=0, ddof=1)
        if method == "normal":
            z = special.ndtri(0.5 + confidence / 2.0)
            low, high = self.estimate - z * se, self.estimate + z * se
        else:
            low = _quantiles(self.replicates, 0.5 - confidence / 2.0)
            high = _quantiles(self.replicates, 0.5 + confidence / 2.0)
        return {"estimate": self.estimate, "se": se, "ci_low": low, "ci_high": high}

    def differences(
        self,
        i: np.ndarray,
        j: np.ndarray,
        *,
        confidence: float = 0.95,
        alternative: str = "two-sided",
        method: str = "percentile",
    ) -> dict:
        """For each pair ``(i[k], j[k])``: ``mean_diff, ci_low, ci_high, pvalue``.

        Vectorised over all pairs: ``d`` (n_resamples x pairs) holds the
        resampled differences ``score_i - score_j``. ``mean_diff`` is the
        difference on all rows; the interval is the percentile (or normal)
        interval of ``d``, one-sided like scipy's when ``alternative`` is;
        ``pvalue`` is 2·min(P(d <= 0), P(d >= 0)) capped at 1 ("two-sided"),
        P(d <= 0) ("greater") or P(d >= 0) ("less").
        """
        i, j = np.asarray(i, dtype=int), np.asarray(j, dtype=int)
        mean_diff = self.estimate[i] - self.estimate[j]
        diffs = self.replicates[:, i] - self.replicates[:, j]
        undefined = np.isnan(diffs).any(axis=0) | np.isnan(mean_diff)
        below = np.mean(diffs <= 0.0, axis=0)
        above = np.mean(diffs >= 0.0, axis=0)
        if alternative == "greater":
            pvalue = below
        elif alternative == "less":
            pvalue = above
        else:
            pvalue = np.minimum(2.0 * np.minimum(below, above), 1.0)
        pvalue = np.where(undefined, np.nan, pvalue)
        level = confidence if alternative != "two-sided" else 0.5 + confidence / 2.0
        if method == "normal":
            half_width = special.ndtri(level) * np.std(diffs, axis=0, ddof=1)
            low, high = mean_diff - half_width, mean_diff + half_width
        else:
            low, high = _quantiles(diffs, 1.0 - level), _quantiles(diffs, level)
        if alternative == "greater":
            high = np.full_like(high, np.inf)
        elif alternative == "less":
            low = np.full_like(low, -np.inf)
        low, high = np.where(undefined, np.nan, low), np.where(undefined, np.nan, high)
        return {"mean_diff": mean_diff, "ci_low": low, "ci_high": high, "pvalue": pvalue}


def paired_bootstrap(
    y_true,
    y_pred,
    score: str | Callable = "accuracy",
    *,
    n_resamples: int = 1000,
    random_state=None,
    greater_is_better: bool | None = None,
    valid: np.ndarray | None = None,
    resampling: str = "auto",
    weights: np.ndarray | None = None,
) -> BootstrapDistribution:
    """Paired bootstrap distribution of the score of every model on the same resampled rows.

    Parameters
    ----------
    y_true : array_like, shape (n,)
        The truth.
    y_pred : array_like, shape (n, m)
        One column of predictions per model, on the same rows as ``y_true``.
    score : str or callable, default "accuracy"
        A name of :data:`pdcompare.stats.metrics.METRICS` or ``f(y_true, y_pred) -> float``.
    n_resamples : int, default 1000
        Number of bootstrap resamples.
    random_state : None, int or numpy.random.Generator
        Seed or generator of the resamples (a Generator is used and advanced).
    greater_is_better : bool, optional
        Direction of a callable score (True when None).
    valid : ndarray of bool, shape (m,), optional
        Models to score; the others get NaN (their predictions are not read).
    resampling : {"auto", "counts", "index"}
        "auto" draws multinomial pattern counts for count-based scores and row
        indices otherwise; "index" forces index resampling (slow, for checks).
    weights : ndarray of int, shape (n,), optional
        How many samples each row stands for (the distinct rows of a larger
        frame and their counts): the bootstrap of the expanded rows, exactly,
        for the count-based scores (the only ones it allows).

    Returns
    -------
    BootstrapDistribution
        Estimates on all rows and the ``(n_resamples, m)`` replicates.

    Notes
    -----
    With ``c_p`` the number of rows showing pattern ``p`` (a combination of
    truth and every model's prediction), a uniform resample of the ``N`` rows
    has pattern counts ``Multinomial(N, c / N)``: the paired bootstrap of any
    score that is a function of the confusion counts is exact on patterns, at
    O(patterns) per resample (Efron & Tibshirani 1993, ch. 6, for the
    bootstrap; the multinomial view is the "weights" form of the resampling).

    Examples
    --------
    >>> y = np.array([0, 1, 1, 0, 1, 1, 0, 1])
    >>> preds = np.array([[0, 1, 1, 0, 1, 0, 0, 1], [1, 1, 1, 0, 0, 0, 0, 1]]).T
    >>> dist = paired_bootstrap(y, preds, "accuracy", n_resamples=200, random_state=0)
    >>> dist.estimate.tolist(), dist.replicates.shape
    ([0.875, 0.625], (200, 2))
    """
    metric = get_metric(score, greater_is_better)
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_pred.ndim == 1:
        y_pred = y_pred[:, None]
    rng = check_random_state(random_state)
    if weights is not None and not (metric.count_based and resampling != "index"):
        msg = (
            f"`score`: {metric.name!r} needs every row of predictions, not counts of "
            "distinct rows; compute the frame first (`.compute()`), or use a named "
            "classification score such as 'accuracy'."
        )
        raise TypeError(msg)
    n_models = y_pred.shape[1]
    valid = np.ones(n_models, dtype=bool) if valid is None else np.asarray(valid, dtype=bool)
    estimate = np.full(n_models, np.nan)
    replicates = np.full((n_resamples, n_models), np.nan)
    if valid.any() and y_true.shape[0] > 0:
        columns = np.flatnonzero(valid)
        chosen = y_pred[:, columns] if not valid.all() else y_pred
        if metric.count_based and resampling != "index":
            patterns, counts, n_classes = label_patterns(y_true, chosen, weights)
            est, reps = _counts_replicates(patterns, counts, n_classes, metric, n_resamples, rng)
        else:
            est, reps = _index_replicates(y_true, chosen, metric, n_resamples, rng)
        estimate[columns] = est
        replicates[:, columns] = reps
    return BootstrapDistribution(estimate, replicates, metric.greater_is_better)


def accuracy_interval(
    y_true,
    y_pred,
    *,
    confidence: float = 0.95,
    method: str = "wilson",
    valid: np.ndarray | None = None,
    weights: np.ndarray | None = None,
) -> dict:
    """Per model: ``accuracy, n, ci_low, ci_high`` by ``statsmodels`` ``proportion_confint``.

    ``weights`` (int, one per row) counts row ``r`` as ``weights[r]`` samples.

    The number of correct predictions out of ``n`` rows is treated as a
    binomial count; ``method`` is any of :data:`PROPORTION_METHODS`. "normal"
    is the textbook Wald interval ``p ± z·sqrt(p(1-p)/n)``, which can pass 1
    (or 0) on a small, accurate test set: it is computed here by that formula,
    unclipped (statsmodels >= 0.15 clips it to [0, 1]); the others come from
    ``proportion_confint`` and stay inside [0, 1].

    Examples
    --------
    >>> out = accuracy_interval([1] * 20, np.array([[1] * 19 + [0]]).T, method="normal")
    >>> out["accuracy"].tolist(), out["ci_high"].round(4).tolist()
    ([0.95], [1.0455])
    """
    from statsmodels.stats.proportion import proportion_confint

    y_pred = np.asarray(y_pred)
    if y_pred.ndim == 1:
        y_pred = y_pred[:, None]
    n_models = y_pred.shape[1]
    valid = np.ones(n_models, dtype=bool) if valid is None else np.asarray(valid, dtype=bool)
    n_rows = len(y_true) if weights is None else int(np.sum(weights, dtype=np.int64))
    out = {name: np.full(n_models, np.nan) for name in ("accuracy", "ci_low", "ci_high")}
    out["n"] = np.full(n_models, n_rows, dtype=np.int64)
    columns = np.flatnonzero(valid)
    if columns.size and n_rows > 0:
        true_codes, pred_codes, _ = encode_labels(y_true, y_pred[:, columns])
        right = pred_codes == true_codes[:, None]
        correct = right.sum(axis=0) if weights is None else np.asarray(weights) @ right
        if method == "normal":
            # statsmodels >= 0.15 clips the Wald interval to [0, 1]; the textbook
            # interval is reported as it is, so that its flaw stays visible.
            accuracy = correct / n_rows
            half_width = special.ndtri(0.5 + confidence / 2.0) * np.sqrt(
                accuracy * (1.0 - accuracy) / n_rows
            )
            low, high = accuracy - half_width, accuracy + half_width
        else:
            low, high = proportion_confint(correct, n_rows, alpha=1.0 - confidence, method=method)
        out["accuracy"][columns] = correct / n_rows
        out["ci_low"][columns] = low
        out["ci_high"][columns] = high
    return {key: out[key] for key in ("accuracy", "n", "ci_low", "ci_high")}
