"""Predictions frames: the truth column and one column of predicted labels per model."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import unknown_name_error
from pdcompare.inputs.frames import check_frame


@dataclass(frozen=True)
class PredictionsData:
    """A validated predictions frame: truth and one prediction column per model.

    Attributes
    ----------
    names : pd.Index
        Model names (the prediction columns).
    y_true : np.ndarray
        The truth, shape (n_samples,).
    y_pred : np.ndarray
        Predictions, shape (n_samples, n_models), in the truth's dtype where possible.
    missing : np.ndarray
        Boolean mask (n_samples, n_models + 1): missing truth (column 0) or prediction.
    weights : np.ndarray or None
        How many samples each row stands for (int64), for the distinct rows of
        a :class:`WeightedPredictions`; None when every row is one sample.
    """

    names: pd.Index
    y_true: np.ndarray
    y_pred: np.ndarray
    missing: np.ndarray
    weights: np.ndarray | None = None


@dataclass(frozen=True)
class WeightedPredictions:
    """The distinct rows of a predictions frame and how many samples show each.

    What ``pdcompare.dask`` computes from a frame too large for memory (one
    ``groupby(...).size()``): the tests that count correct predictions, and the
    bootstrap of the named classification scores, depend on the rows only
    through these counts, so they give on it exactly what they give on the
    whole frame.

    Attributes
    ----------
    frame : pandas.DataFrame
        One row per distinct (truth, predictions) combination, missing values
        included, with the columns and dtypes of the predictions frame.
    weights : numpy.ndarray of int64
        The number of samples of each row.
    """

    frame: pd.DataFrame
    weights: np.ndarray


def refuse_probabilities(frame: pd.DataFrame, columns: Sequence[Hashable], test: str) -> None:
    """A ValueError when a column of labels holds non-integer numbers (probabilities).

    McNemar's test, Cochran's Q, the two-proportion z-test, the accuracy
    interval and the classification scores of the bootstrap count correct
    predictions: a probability never equals a label, so every prediction would
    count as wrong and the test would be confidently wrong.
    """
    for column in columns:
        series = frame[column]
        if not pd.api.types.is_float_dtype(series.dtype):
            continue
        values = series.to_numpy(dtype=float, na_value=np.nan)
        values = values[np.isfinite(values)]
        fractional = values[values != np.round(values)]
        if fractional.size:
            msg = (
                f"`{test}` compares predicted labels with the truth, but column {column!r} "
                f"holds non-integer numbers ({fractional[0]:g}, ...), such as probabilities "
                "or decision values. Pass labels: the classifier's predict(), or a threshold "
                "such as (proba >= 0.5).astype(int)."
            )
            raise ValueError(msg)


def predictions_data(
    frame: pd.DataFrame,
    y: Hashable = "y",
    models: Sequence[Hashable] | None = None,
    *,
    as_codes: bool = False,
    labels_for: str | None = None,
) -> PredictionsData:
    """Validate a predictions frame (truth column ``y``, one column per model).

    With ``as_codes=True``, ``y_true`` and ``y_pred`` are only good for
    comparing a prediction with the truth (what McNemar's and the other
    correctness tests need): numeric labels as numbers (ints stay ints),
    string and categorical labels as integer codes of the truth's labels
    (a label the truth never has gets -2, a missing one -1), built without
    a Python object per entry; other labels (mixed types) as objects. A
    prediction equals the truth exactly when the labels compare equal in
    Python. ``labels_for`` (the name of a test that counts correct
    predictions) refuses columns of non-integer numbers. A
    :class:`WeightedPredictions` gives its rows with their ``weights``.
    """
    weights = None
    if isinstance(frame, WeightedPredictions):
        frame, weights = frame.frame, np.asarray(frame.weights, dtype=np.int64)
    model_columns = _model_columns(frame, y, models, weights)
    if labels_for is not None:
        refuse_probabilities(frame, [y, *model_columns], labels_for)
    y_series = frame[y]
    preds = frame[model_columns]
    missing = np.column_stack([y_series.isna().to_numpy(), preds.isna().to_numpy()])
    if as_codes:
        coded = _comparable_labels(y_series, [preds[c] for c in model_columns])
        if coded is not None:
            return PredictionsData(
                names=pd.Index(model_columns),
                y_true=coded[0],
                y_pred=coded[1],
                missing=missing,
                weights=weights,
            )
    columns = [_labels(preds[c]) for c in model_columns]
    if len({column.dtype for column in columns}) == 1:
        y_pred = _stack(columns, columns[0].dtype)
    else:
        # A common dtype would cast mixed label types (ints to strings), and a
        # prediction 1 would no longer equal a truth 1.
        y_pred = _stack(columns, object)
    return PredictionsData(
        names=pd.Index(model_columns),
        y_true=_labels(y_series),
        y_pred=y_pred,
        missing=missing,
        weights=weights,
    )


def _model_columns(
    frame: pd.DataFrame,
    y: Hashable,
    models: Sequence[Hashable] | None,
    weights: np.ndarray | None = None,
) -> list:
    """The model columns of a predictions frame, after checking its shape and truth column.

    ``weights`` are the counts of the rows of a frame of distinct rows.
    """
    check_frame(frame)
    if frame.shape[0] == 0:
        msg = "The predictions frame is empty; it needs one row per test sample."
        raise ValueError(msg)
    n_samples = frame.shape[0] if weights is None else int(weights.sum())
    if n_samples < 2:
        msg = (
            "The predictions frame has 1 row; it needs one row per test sample, and a "
            "comparison needs at least 2 samples. A frame with one row per model is a scores "
            "frame: compare it with `corrected_ttest`, `summary` and the other score tests."
        )
        raise ValueError(msg)
    if y not in frame.columns:
        shown = ", ".join(repr(c) for c in list(frame.columns)[:10])
        msg = (
            f"`y`: the predictions frame has no truth column {y!r}; its columns are "
            f"{shown}. Pass `y=` with the name of the column of true labels."
        )
        raise ValueError(msg)
    if not frame.columns.is_unique:
        msg = "Column names of a predictions frame must be unique (one column per model)."
        raise ValueError(msg)
    if models is None:
        model_columns = [c for c in frame.columns if c != y]
    else:
        model_columns = list(models)
        for m in model_columns:
            if m not in frame.columns or m == y:
                known = [c for c in frame.columns if c != y]
                error = unknown_name_error("model", m, known, "models")
                raise error
    if not model_columns:
        msg = f"The predictions frame has no model column besides the truth {y!r}."
        raise ValueError(msg)
    for column in model_columns:
        if isinstance(column, tuple) or pd.isna(column):
            rule = "single labels, not tuples" if isinstance(column, tuple) else "given"
            msg = (
                f"Model names (the prediction columns) must be {rule}; a column is labelled "
                f"{column!r}. Name every model's column: `df.columns = [...]`."
            )
            raise ValueError(msg)
    return model_columns


#: Bytes of stacked labels per block of model columns (at least one column a block).
_BLOCK_BYTES = 2**24


@dataclass(frozen=True)
class LabelBlocks:
    """A predictions frame of labels, read a few model columns at a time.

    The tests that count correct predictions need, per model, only whether
    each prediction equals the truth: reading the label columns in blocks
    keeps the comparable copy of the labels at the size of a block, not of
    the whole frame (a frame of 1e7 rows x 20 models of int64 labels would
    otherwise be copied whole, 1.6 GB, on top of the input).

    Attributes
    ----------
    names : pd.Index
        Model names.
    weights : np.ndarray or None
        Row weights of a :class:`WeightedPredictions`, else None.
    blocks : list of (slice, callable)
        The model positions of each block and a function returning its
        ``(y_true, y_pred, missing)`` as :func:`predictions_data` with
        ``as_codes=True`` gives them for those models.
    """

    names: pd.Index
    weights: np.ndarray | None
    blocks: list


def label_blocks(
    frame: pd.DataFrame,
    y: Hashable = "y",
    models: Sequence[Hashable] | None = None,
    *,
    labels_for: str,
) -> LabelBlocks:
    """The label columns of a predictions frame in blocks, comparable with the truth.

    Each block's arrays are those of ``predictions_data(..., as_codes=True)``
    restricted to its models; columns of non-integer numbers are refused
    for the test ``labels_for`` first.
    """
    weights = None
    if isinstance(frame, WeightedPredictions):
        frame, weights = frame.frame, np.asarray(frame.weights, dtype=np.int64)
    model_columns = _model_columns(frame, y, models, weights)
    refuse_probabilities(frame, [y, *model_columns], labels_for)
    width = max(1, _BLOCK_BYTES // (8 * max(len(frame), 1)))
    truth = frame[y]
    truth_missing = truth.isna().to_numpy()

    def block(columns: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        series = [frame[c] for c in columns]
        # Column-major, as the stacked labels: numpy then runs each comparison and
        # reduction along whole columns (mixed layouts iterate rows of a few entries).
        missing = np.empty((len(truth_missing), len(series) + 1), dtype=bool, order="F")
        missing[:, 0] = truth_missing
        for k, values in enumerate(series, start=1):
            missing[:, k] = values.isna().to_numpy()
        coded = _comparable_labels(truth, series)
        if coded is not None:
            return coded[0], coded[1], missing
        labels = [_labels(s) for s in series]
        dtype = labels[0].dtype if len({c.dtype for c in labels}) == 1 else object
        return _labels(truth), _stack(labels, dtype), missing

    blocks = []
    for start in range(0, len(model_columns), width):
        chosen = model_columns[start : start + width]
        blocks.append((slice(start, start + len(chosen)), lambda c=chosen: block(c)))
    return LabelBlocks(names=pd.Index(model_columns), weights=weights, blocks=blocks)


def _stack(columns: list[np.ndarray], dtype) -> np.ndarray:
    """Columns side by side, each contiguous in memory (Fortran order).

    One model's predictions are then read (compared with the truth, gathered
    by a bootstrap resample) from one block of memory. One column of the
    dtype asked for is a read-only view, not a copy (the tests read a large
    frame one column at a time).
    """
    if len(columns) == 1 and columns[0].dtype == dtype and columns[0].ndim == 1:
        view = columns[0].reshape(-1, 1)  # C and Fortran contiguous when the column is
        view.flags.writeable = False
        return view
    out = np.empty((len(columns[0]), len(columns)), dtype=dtype, order="F")
    for k, column in enumerate(columns):
        out[:, k] = column
    return out


def _labels(series: pd.Series) -> np.ndarray:
    """Labels of any dtype as a numpy array: categoricals by value, nullable as object."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        series = series.astype(series.cat.categories.dtype)
    if pd.api.types.is_extension_array_dtype(series.dtype):
        return series.to_numpy(dtype=object, na_value=np.nan)
    values = series.to_numpy()
    if values.dtype == object:
        # pd.NA (or None) in an object column: `pd.NA == label` has no truth value. The
        # entry is masked as missing anyway; NaN compares as unequal to every label.
        missing = series.isna().to_numpy()
        if missing.any():
            values = values.copy()
            values[missing] = np.nan
    return values


def _numbers(series: pd.Series) -> np.ndarray | None:
    """Numeric labels as a numpy array (missing entries filled, they are masked), else None."""
    dtype = series.dtype
    if isinstance(dtype, np.dtype):
        return series.to_numpy() if dtype.kind in "biuf" else None
    if not pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
        return None
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if numpy_dtype is None or numpy_dtype.kind not in "biuf":
        return None
    fill = np.nan if numpy_dtype.kind == "f" else numpy_dtype.type(0)
    return series.to_numpy(dtype=numpy_dtype, na_value=fill)


def _is_text(dtype) -> bool:
    """String dtypes ("str", "string") and categoricals of strings: coded without objects."""
    if isinstance(dtype, pd.StringDtype):
        return True
    if isinstance(dtype, pd.CategoricalDtype):
        categories = dtype.categories
        return isinstance(categories.dtype, pd.StringDtype) or (
            categories.dtype == object and categories.inferred_type == "string"
        )
    return False


def _comparable_labels(
    truth: pd.Series, predictions: list[pd.Series]
) -> tuple[np.ndarray, np.ndarray] | None:
    """Truth and predictions as numbers or integer codes that compare as the labels do.

    None when the labels are neither all numeric nor all strings: the caller
    compares them as Python objects.
    """
    numbers = [_numbers(series) for series in (truth, *predictions)]
    if all(values is not None for values in numbers):
        common = np.result_type(*(values.dtype for values in numbers))
        if common.kind == "f":
            # Integers compared as floats are exact below 2**53 only.
            for values in numbers:
                large = values.dtype.kind in "iu" and values.size
                if large and max(-int(values.min()), int(values.max())) >= 2**53:
                    return None
        return numbers[0], _stack(numbers[1:], np.result_type(*numbers[1:]))
    if not all(_is_text(series.dtype) for series in (truth, *predictions)):
        return None
    truth_codes, labels = pd.factorize(truth)
    labels = pd.Index(np.asarray(labels, dtype=object))
    codes = np.empty((len(truth), len(predictions)), dtype=np.intp)
    for k, series in enumerate(predictions):
        column_codes, column_labels = pd.factorize(series)
        # The few distinct labels of the column, looked up among the truth's.
        position = labels.get_indexer(pd.Index(np.asarray(column_labels, dtype=object)))
        position = np.append(np.where(position < 0, -2, position), -1)  # -1: missing
        codes[:, k] = position[column_codes]
    return truth_codes.astype(np.intp, copy=False), codes


@dataclass(frozen=True)
class ScorePredictions:
    """A validated predictions frame of scores for a binary truth.

    Attributes
    ----------
    names : pd.Index
        Model names (the score columns).
    positive : np.ndarray of bool
        Whether each row's truth is the positive class, shape (n_samples,).
    scores : np.ndarray of float64
        Scores (probabilities or decision values of the positive class),
        shape (n_samples, n_models), each column contiguous (Fortran order);
        NaN where missing.
    missing : np.ndarray
        Boolean mask (n_samples, n_models + 1): missing truth (column 0) or score.
    pos_label : object
        The positive class.
    """

    names: pd.Index
    positive: np.ndarray
    scores: np.ndarray
    missing: np.ndarray
    pos_label: Any


def _is_score_column(dtype) -> bool:
    """Ints and floats (numpy or nullable) can be scores; booleans and categories cannot."""
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
        return False
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_complex_dtype(dtype)


def score_predictions(
    frame: pd.DataFrame,
    y: Hashable = "y",
    models: Sequence[Hashable] | None = None,
    *,
    pos_label: Any = None,
    test: str,
) -> ScorePredictions:
    """Validate a predictions frame of scores (binary truth, one numeric column per model).

    Any numeric column is a score (an integer grade is one, as in pROC);
    text, boolean and categorical columns are refused, and so is a truth
    that does not have exactly two classes. ``pos_label`` is the positive
    class, the larger of the two unless given. ``test`` names the calling
    method in the messages.
    """
    if isinstance(frame, WeightedPredictions):
        msg = (
            f"`{test}` needs every row of scores, not counts of distinct rows; compute the "
            "frame first (`.compute()`)."
        )
        raise TypeError(msg)
    columns = _model_columns(frame, y, models)
    wrong = [c for c in columns if not _is_score_column(frame[c].dtype)]
    if wrong:
        shown = ", ".join(repr(c) for c in wrong[:5]) + (", ..." if len(wrong) > 5 else "")
        msg = (
            f"`{test}` reads each model column as scores (probabilities or decision values of "
            f"the positive class), but column(s) {shown} hold {frame[wrong[0]].dtype} values. "
            "Pass numbers: predict_proba(X)[:, 1] or decision_function(X), as "
            "`cv_predictions(method='predict_proba')` gives them; compare predicted labels "
            "with `mcnemar` or `bootstrap`."
        )
        raise ValueError(msg)
    truth = frame[y]
    missing = np.column_stack([truth.isna().to_numpy(), frame[columns].isna().to_numpy()])
    present = truth[~missing[:, 0]]
    classes = pd.unique(present)
    if len(classes) != 2:
        shown = ", ".join(repr(c) for c in list(classes)[:6])
        more = ", ..." if len(classes) > 6 else ""
        if len(classes) > 2:
            what = f"{len(classes)} classes ({shown}{more})"
            fix = (
                "For a multiclass problem build one-vs-rest columns: a truth column "
                "(y == k) and each model's probability of class k."
            )
        else:
            what = f"{len(classes)} class ({shown})" if len(classes) else "no value"
            fix = "An AUC needs test samples of both classes."
        msg = f"`{test}` needs a binary truth; column {y!r} has {what}. {fix}"
        raise ValueError(msg)
    if pos_label is None:
        try:
            pos_label = max(classes)
        except TypeError:
            msg = (
                f"`pos_label`: the classes {list(classes)!r} of {y!r} do not sort; pass "
                "`pos_label=` to say which one is positive."
            )
            raise ValueError(msg) from None
    elif not any(pos_label == c for c in classes):
        msg = (
            f"`pos_label` must be one of the classes of {y!r}, {list(classes)!r}; "
            f"got {pos_label!r}."
        )
        raise ValueError(msg)
    positive = (truth == pos_label).to_numpy(dtype=bool, na_value=False)
    scores = np.empty((len(frame), len(columns)), dtype=float, order="F")
    for k, column in enumerate(columns):
        scores[:, k] = frame[column].to_numpy(dtype=float, na_value=np.nan)
    if np.isinf(scores).any():
        bad = columns[int(np.flatnonzero(np.isinf(scores).any(axis=0))[0])]
        msg = f"`{test}`: column {bad!r} holds infinite scores; scores must be finite numbers."
        raise ValueError(msg)
    if isinstance(pos_label, np.generic):
        pos_label = pos_label.item()
    return ScorePredictions(
        names=pd.Index(columns),
        positive=positive,
        scores=scores,
        missing=missing,
        pos_label=pos_label,
    )
