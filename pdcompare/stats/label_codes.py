"""Labels of a predictions frame as integer codes ``0..K-1``, shared by the truth and the models.

The count-based scores (accuracy, balanced accuracy, macro recall, precision
and F1) and the bootstrap's pattern compression read predictions as codes;
this module, below both, makes them.
"""

from __future__ import annotations

import numpy as np

# Largest range of integer labels coded by counting (no sorting); wider ranges use np.unique.
_MAX_INTEGER_RANGE = 2**20


def _as_integers(values: np.ndarray) -> np.ndarray | None:
    """``values`` as int64 when they are integers (or integral floats), else None."""
    if values.dtype.kind in "biu":
        return values.astype(np.int64, copy=False)
    if values.dtype.kind == "f" and values.size and np.isfinite(values).all():
        as_int = values.astype(np.int64)
        if np.array_equal(as_int, values):
            return as_int
    return None


def _labels_as_arrays(y_true, y_pred):
    """Truth (1-D) and predictions (2-D) as arrays, and their integer form when it is cheap.

    The last item is ``(true_int, pred_int, low, high)`` when every label is an
    integer and they span fewer than ``_MAX_INTEGER_RANGE`` values, else None.
    """
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_pred.ndim == 1:
        y_pred = y_pred[:, None]
    true_int, pred_int = _as_integers(y_true), _as_integers(y_pred)
    if true_int is not None and pred_int is not None:
        low = min(int(true_int.min()), int(pred_int.min()))
        high = max(int(true_int.max()), int(pred_int.max()))
        if high - low < _MAX_INTEGER_RANGE:
            return y_true, y_pred, (true_int, pred_int, low, high)
    return y_true, y_pred, None


def encode_labels(y_true, y_pred) -> tuple[np.ndarray, np.ndarray, int]:
    """Codes ``0..K-1`` of the labels of the truth and of every model's predictions.

    Integer labels (the usual case) are coded by counting, in linear time and
    without copies when they already are ``0..K-1``; other labels (strings,
    objects) by ``np.unique`` over all of them.

    Returns
    -------
    true_codes : ndarray of int64, shape (n,)
    pred_codes : ndarray of int64, shape (n, m)
    n_classes : int
        ``K``, the number of distinct labels in the truth and the predictions.
    """
    y_true, y_pred, integers = _labels_as_arrays(y_true, y_pred)
    if integers is not None:
        true_int, pred_int, low, high = integers
        seen = np.bincount(true_int - low if low else true_int, minlength=high - low + 1) > 0
        for k in range(pred_int.shape[1]):
            column = pred_int[:, k]
            seen |= np.bincount(column - low if low else column, minlength=seen.size) > 0
        if low == 0 and seen.all():
            return true_int, pred_int, int(seen.size)
        lookup = np.cumsum(seen) - 1
        return lookup[true_int - low], lookup[pred_int - low], int(seen.sum())
    combined = np.concatenate([y_true[:, None], y_pred], axis=1)
    try:
        classes, inverse = np.unique(combined.ravel(), return_inverse=True)
    except TypeError:
        msg = (
            "Labels of the truth and the predictions must be comparable with one another "
            "(all numbers or all strings); convert them to one type, e.g. with `astype(str)`."
        )
        raise TypeError(msg) from None
    inverse = inverse.reshape(combined.shape).astype(np.int64, copy=False)
    return inverse[:, 0], inverse[:, 1:], len(classes)
