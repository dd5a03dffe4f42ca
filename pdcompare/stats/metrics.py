"""Named scores for the bootstrap on predictions, equal to scikit-learn's metrics.

Classification scores (``accuracy``, ``balanced_accuracy``, ``recall_macro``,
``precision_macro``, ``f1_macro``) are computed from confusion counts, an array
of shape ``(..., K, K)`` (truth in rows, prediction in columns), so that one
call scores every model of every bootstrap resample at once and the bootstrap
can work on multinomial counts of patterns instead of rows. Regression scores
(``mean_squared_error``, ``mean_absolute_error``) are means of a per-row loss.
Scores of a binary truth read from probabilities or decision values of the
positive class (``roc_auc``, ``average_precision``, ``log_loss``,
``brier_score``) take the truth as 0/1 (1 for the positive class) and equal
``sklearn.metrics.roc_auc_score``, ``average_precision_score``, ``log_loss``
and ``brier_score_loss``.

Absent classes follow scikit-learn's defaults exactly: the classes of a
computation are those present in the truth or in the model's predictions
(``sklearn.utils.multiclass.unique_labels``); a class that is never predicted
has precision 0 and a class that never occurs in the truth has recall 0
(``zero_division="warn"`` acts as 0, here without the warning), and both count
in the macro averages; ``balanced_accuracy`` averages the recall over the
classes present in the truth only (scikit-learn drops the undefined ones).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pdcompare._validation import unknown_name_error
from pdcompare.stats.label_codes import encode_labels

#: scikit-learn scorers whose values lie in [0, 1] (and their ``_macro``, ``_ovr``, ... variants):
#: the intervals of a mean score of these are clipped to that range (DESIGN section 29).
BOUNDED_SCORERS = (
    "accuracy", "balanced_accuracy", "roc_auc", "f1", "precision", "recall", "jaccard",
    "average_precision",
)  # fmt: skip


def is_bounded_scorer(name: object) -> bool:
    """Whether a scikit-learn scorer name is one of :data:`BOUNDED_SCORERS` (scores in [0, 1]).

    Examples
    --------
    >>> is_bounded_scorer("roc_auc_ovr"), is_bounded_scorer("f1_macro"), is_bounded_scorer("r2")
    (True, True, False)
    >>> is_bounded_scorer("neg_log_loss"), is_bounded_scorer(None)
    (False, False)
    """
    if not isinstance(name, str):
        return False
    return any(name == base or name.startswith(base + "_") for base in BOUNDED_SCORERS)


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` with 0 where the denominator is 0 (zero_division=0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(
            denominator > 0, numerator / np.where(denominator > 0, denominator, 1), 0.0
        )


def _parts(counts: np.ndarray):
    counts = np.asarray(counts, dtype=float)
    true_positive = np.diagonal(counts, axis1=-2, axis2=-1)
    true_total = counts.sum(axis=-1)  # occurrences of each class in the truth
    predicted_total = counts.sum(axis=-2)  # predictions of each class
    present = (true_total + predicted_total) > 0
    return true_positive, true_total, predicted_total, present


def _macro(per_class: np.ndarray, present: np.ndarray) -> np.ndarray:
    n_present = present.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(present, per_class, 0.0).sum(axis=-1) / n_present


def accuracy_from_counts(counts: np.ndarray) -> np.ndarray:
    """Share of correct predictions: ``trace(C) / sum(C)``.

    Examples
    --------
    >>> float(accuracy_from_counts(np.array([[3, 1], [0, 4]])))
    0.875
    """
    true_positive, true_total, _, _ = _parts(counts)
    with np.errstate(invalid="ignore", divide="ignore"):
        return true_positive.sum(axis=-1) / true_total.sum(axis=-1)


def recall_macro_from_counts(counts: np.ndarray) -> np.ndarray:
    """Macro recall: mean over the present classes of ``tp / (tp + fn)`` (0 if not in the truth).

    Examples
    --------
    >>> float(recall_macro_from_counts(np.array([[3, 1], [0, 4]])))
    0.875
    """
    true_positive, true_total, _, present = _parts(counts)
    return _macro(_ratio(true_positive, true_total), present)


def precision_macro_from_counts(counts: np.ndarray) -> np.ndarray:
    """Macro precision: mean over the present classes of ``tp / (tp + fp)`` (0 if never predicted).

    Examples
    --------
    >>> float(precision_macro_from_counts(np.array([[3, 1], [0, 4]])))
    0.9
    """
    true_positive, _, predicted_total, present = _parts(counts)
    return _macro(_ratio(true_positive, predicted_total), present)


def f1_macro_from_counts(counts: np.ndarray) -> np.ndarray:
    """Unweighted mean over the present classes of ``2 tp / (2 tp + fp + fn)``.

    Examples
    --------
    >>> round(float(f1_macro_from_counts(np.array([[3, 1], [0, 4]]))), 6)
    0.873016
    """
    true_positive, true_total, predicted_total, present = _parts(counts)
    return _macro(_ratio(2.0 * true_positive, true_total + predicted_total), present)


def balanced_accuracy_from_counts(counts: np.ndarray) -> np.ndarray:
    """Mean recall over the classes present in the truth (scikit-learn, ``adjusted=False``).

    Examples
    --------
    >>> float(balanced_accuracy_from_counts(np.array([[3, 1, 0], [0, 4, 0], [0, 0, 0]])))
    0.875
    """
    true_positive, true_total, _, _ = _parts(counts)
    in_truth = true_total > 0
    return _macro(_ratio(true_positive, true_total), in_truth)


def squared_error(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """Per-row loss of ``mean_squared_error``: ``(y - ŷ)²``."""
    return (y_true - y_pred) ** 2


def absolute_error(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """Per-row loss of ``mean_absolute_error``: ``|y - ŷ|``."""
    return np.abs(y_true - y_pred)


def roc_auc_columns(y_true: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """ROC AUC of every column of scores for a 0/1 truth: Mann–Whitney U / (n1·n0).

    NaN when the truth has one class only (scikit-learn raises there).

    Examples
    --------
    >>> roc_auc_columns(np.array([0, 0, 1, 1]), np.array([[0.1, 0.4, 0.35, 0.8]]).T).tolist()
    [0.75]
    """
    from scipy.stats import rankdata

    positive = np.asarray(y_true) == 1
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 1:
        scores = scores[:, None]
    if n_pos == 0 or n_neg == 0:
        return np.full(scores.shape[1], np.nan)
    ranks = rankdata(scores, axis=0)
    return (positive @ ranks - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


def average_precision(y_true: np.ndarray, scores: np.ndarray) -> float:
    """Average precision of one column of scores for a 0/1 truth, as scikit-learn's.

    ``AP = Σ_k (R_k − R_{k−1}) P_k`` over the distinct thresholds, from the
    highest score down (no interpolation); NaN without positives.

    Examples
    --------
    >>> average_precision(np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8]))
    0.8333333333333333
    """
    y_true = np.asarray(y_true, dtype=float)
    scores = np.asarray(scores, dtype=float)
    order = np.argsort(-scores, kind="mergesort")
    ranked = scores[order]
    true_positives = np.cumsum(y_true[order])
    ends = np.append(np.flatnonzero(ranked[1:] != ranked[:-1]), ranked.size - 1)
    at_ends = true_positives[ends]
    if at_ends[-1] == 0:
        return float("nan")
    precision = at_ends / (ends + 1)
    gained = np.diff(at_ends, prepend=0.0)
    return float(gained @ precision / at_ends[-1])


def _probabilities(y_pred: np.ndarray, name: str) -> np.ndarray:
    """Scores checked to be probabilities (in [0, 1]), for the proper scoring rules."""
    values = np.asarray(y_pred, dtype=float)
    finite = values[np.isfinite(values)]
    if finite.size and (finite.min() < 0 or finite.max() > 1):
        msg = (
            f"`score`: {name!r} needs probabilities of the positive class in [0, 1]; a model "
            f"column holds {finite.min() if finite.min() < 0 else finite.max():g}. Pass "
            "predict_proba(X)[:, 1], not decision values, or use 'roc_auc'."
        )
        raise ValueError(msg)
    return values


def log_loss_rows(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """Per-row ``log_loss``: ``−(y log p + (1 − y) log(1 − p))``, p clipped as in scikit-learn.

    Examples
    --------
    >>> log_loss_rows(np.array([1.0, 0.0]), np.array([0.8, 0.4])).round(4).tolist()
    [0.2231, 0.5108]
    """
    eps = np.finfo(float).eps
    p = np.clip(_probabilities(y_pred, "log_loss"), eps, 1.0 - eps)
    return -(y_true * np.log(p) + (1.0 - y_true) * np.log1p(-p))


def brier_rows(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """Per-row loss of ``brier_score``: ``(y − p)²`` with y 1 for the positive class.

    Examples
    --------
    >>> brier_rows(np.array([1.0, 0.0]), np.array([0.8, 0.4])).round(4).tolist()
    [0.04, 0.16]
    """
    return (y_true - _probabilities(y_pred, "brier_score")) ** 2


@dataclass(frozen=True)
class Metric:
    """A score the bootstrap knows how to compute.

    Exactly one of ``from_counts`` (a function of confusion counts
    ``(..., K, K) -> (...)``), ``row_loss`` (per-row loss whose mean is the
    score) and ``function`` (any ``f(y_true, y_pred) -> float``) is set.

    Attributes
    ----------
    name : str
        The score's name (a callable's ``__name__``).
    greater_is_better : bool
        Whether a higher value is better.
    """

    name: str
    greater_is_better: bool
    from_counts: Callable[[np.ndarray], np.ndarray] | None = None
    row_loss: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    function: Callable[[np.ndarray, np.ndarray], float] | None = None
    on_scores: bool = False
    columns: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None

    @property
    def count_based(self) -> bool:
        """Whether the score depends on the confusion counts only."""
        return self.from_counts is not None

    def score_columns(self, y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
        """The score of every column of ``y_pred`` (n, c) against ``y_true`` (n,)."""
        if self.columns is not None:
            return self.columns(y_true, y_pred)
        if self.row_loss is not None:
            return self.row_loss(np.asarray(y_true)[:, None], y_pred).mean(axis=0)
        if self.from_counts is not None:
            truth, codes, k = encode_labels(y_true, y_pred)
            cells = truth[:, None] * k + codes + np.arange(codes.shape[1]) * k * k
            counts = np.bincount(cells.ravel(), minlength=codes.shape[1] * k * k)
            return self.from_counts(counts.reshape(codes.shape[1], k, k))
        return np.array([float(self.function(y_true, column)) for column in np.asarray(y_pred).T])


#: The named scores, each equal to the scikit-learn metric of the same meaning.
METRICS: dict[str, Metric] = {
    "accuracy": Metric("accuracy", True, from_counts=accuracy_from_counts),
    "balanced_accuracy": Metric(
        "balanced_accuracy", True, from_counts=balanced_accuracy_from_counts
    ),
    "recall_macro": Metric("recall_macro", True, from_counts=recall_macro_from_counts),
    "precision_macro": Metric("precision_macro", True, from_counts=precision_macro_from_counts),
    "f1_macro": Metric("f1_macro", True, from_counts=f1_macro_from_counts),
    "mean_squared_error": Metric("mean_squared_error", False, row_loss=squared_error),
    "mean_absolute_error": Metric("mean_absolute_error", False, row_loss=absolute_error),
    "roc_auc": Metric(
        "roc_auc",
        True,
        function=lambda y, p: float(roc_auc_columns(y, p)[0]),
        on_scores=True,
        columns=roc_auc_columns,
    ),
    "average_precision": Metric(
        "average_precision", True, function=average_precision, on_scores=True
    ),
    "log_loss": Metric("log_loss", False, row_loss=log_loss_rows, on_scores=True),
    "brier_score": Metric("brier_score", False, row_loss=brier_rows, on_scores=True),
}

#: Scores read from probabilities or decision values of the positive class (binary truth).
SCORE_METRICS = tuple(name for name, metric in METRICS.items() if metric.on_scores)


def _scikit_learn_hint(score: str) -> str | None:
    """What to use instead of a scikit-learn scoring name that is not a named score here."""
    binary = {"f1": "f1_macro", "precision": "precision_macro", "recall": "recall_macro"}
    if score in binary:
        return (
            f"{score!r} is scikit-learn's binary score of the positive class; the named scores "
            f"here are macro averages ({binary[score]!r}); for the binary one pass "
            f"`score=sklearn.metrics.{score}_score`."
        )
    if score.startswith("neg_") and score[4:] in METRICS:
        return (
            f"{score!r} is scikit-learn's negated loss; here losses keep their sign and "
            f"direction: pass `score={score[4:]!r}` (lower is better)."
        )
    ranking = ("roc_auc", "average_precision", "neg_log_loss", "log_loss", "neg_brier_score")
    if score.startswith(ranking):
        return (
            f"{score!r} is scikit-learn's multiclass or weighted variant; the named scores "
            f"{', '.join(map(repr, SCORE_METRICS))} are for a binary truth and one column of "
            "positive-class probabilities (or decision values) per model: build one-vs-rest "
            "columns (y == k, and each model's probability of class k), or pass a callable."
        )
    return None


def get_metric(score: str | Callable, greater_is_better: bool | None = None) -> Metric:
    """The :class:`Metric` for a score name or a callable ``f(y_true, y_pred) -> float``.

    A callable is greater-is-better unless ``greater_is_better=False``; a named
    score knows its direction and refuses a contradicting ``greater_is_better``.

    Examples
    --------
    >>> get_metric("mean_absolute_error").greater_is_better
    False
    """
    if greater_is_better is not None and not isinstance(greater_is_better, bool | np.bool_):
        msg = f"`greater_is_better` must be True, False or None; got {greater_is_better!r}."
        raise TypeError(msg)
    if isinstance(score, Metric):
        return score
    if isinstance(score, str):
        if score not in METRICS:
            hint = _scikit_learn_hint(score)
            if hint is not None:
                msg = f"`score`: {hint} The named scores are {', '.join(map(repr, METRICS))}."
                raise ValueError(msg)
            error = unknown_name_error("score", score, list(METRICS), "score")
            raise error
        metric = METRICS[score]
        if greater_is_better is not None and bool(greater_is_better) != metric.greater_is_better:
            msg = (
                f"`greater_is_better={greater_is_better}` contradicts the score {score!r}, "
                f"for which greater_is_better is {metric.greater_is_better}; leave it out "
                "(it applies to callable scores)."
            )
            raise ValueError(msg)
        return metric
    if callable(score):
        name = getattr(score, "__name__", None) or type(score).__name__
        direction = True if greater_is_better is None else bool(greater_is_better)
        return Metric(str(name), direction, function=score)
    msg = (
        f"`score` must be a score name ({', '.join(map(repr, METRICS))}) or a callable "
        f"f(y_true, y_pred) -> float; got {type(score).__name__}."
    )
    raise TypeError(msg)
