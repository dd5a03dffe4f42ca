"""Named scores for the bootstrap on predictions, equal to scikit-learn's metrics.

Classification scores (``accuracy``, ``balanced_accuracy``, ``recall_macro``,
``precision_macro``, ``f1_macro``) are computed from confusion counts, an array
of shape ``(..., K, K)`` (truth in rows, prediction in columns), so that one
call scores every model of every bootstrap resample at once and the bootstrap
can work on multinomial counts of patterns instead of rows. Regression scores
(``mean_squared_error``, ``mean_absolute_error``) are means of a per-row loss.

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

    @property
    def count_based(self) -> bool:
        """Whether the score depends on the confusion counts only."""
        return self.from_counts is not None


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
}


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
            f"{score!r} is computed from probabilities or decision values, not from predicted "
            "labels: pass a callable (for example `score=sklearn.metrics.roc_auc_score`) on a "
            "frame whose model columns hold the positive-class probabilities."
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
