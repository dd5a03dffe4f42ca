"""Predictions frames: the truth column and one column of predicted labels per model."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pdcompare._validation import unknown_name_error


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
    """

    names: pd.Index
    y_true: np.ndarray
    y_pred: np.ndarray
    missing: np.ndarray


def predictions_data(
    frame: pd.DataFrame, y: Hashable = "y", models: Sequence[Hashable] | None = None
) -> PredictionsData:
    """Validate a predictions frame (truth column ``y``, one column per model)."""
    if frame.shape[0] == 0:
        msg = "The predictions frame is empty; it needs one row per test sample."
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
    y_series = frame[y]
    preds = frame[model_columns]
    missing = np.column_stack([y_series.isna().to_numpy(), preds.isna().to_numpy()])
    columns = [_labels(preds[c]) for c in model_columns]
    if len({column.dtype for column in columns}) == 1:
        y_pred = np.column_stack(columns)
    else:
        # column_stack would cast mixed label types to a common one (ints to strings),
        # and a prediction 1 would no longer equal a truth 1.
        y_pred = np.empty((len(frame), len(columns)), dtype=object)
        for k, column in enumerate(columns):
            y_pred[:, k] = column
    return PredictionsData(
        names=pd.Index(model_columns),
        y_true=_labels(y_series),
        y_pred=y_pred,
        missing=missing,
    )


def _labels(series: pd.Series) -> np.ndarray:
    """Labels of any dtype as a numpy array: categoricals by value, nullable as object."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        series = series.astype(series.cat.categories.dtype)
    if pd.api.types.is_extension_array_dtype(series.dtype):
        return series.to_numpy(dtype=object, na_value=np.nan)
    return series.to_numpy()
