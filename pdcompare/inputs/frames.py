"""The first checks of a frame handed to pdcompare: a DataFrame, with models as rows.

Every public function checks its frame here before reading anything else of
it, so that a Series, an array or a frame read the wrong way round gets
pdcompare's own message with the fix, never an ``AttributeError`` from inside
pandas or numpy's "inhomogeneous shape".
"""

from __future__ import annotations

from typing import Any

import pandas as pd

#: The axis names that say a frame holds data sets as rows or models as columns.
_DATASET, _MODEL = "dataset", "model"


def check_frame(frame: Any) -> None:
    """Raise ``TypeError`` naming the type and the fix unless ``frame`` is a DataFrame.

    Examples
    --------
    >>> import numpy as np
    >>> check_frame(np.zeros((2, 3)))
    Traceback (most recent call last):
    ...
    TypeError: pdcompare compares the models of a pandas DataFrame; got numpy.ndarray. ...
    """
    if isinstance(frame, pd.DataFrame):
        return
    kind = type(frame)
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    name = name.replace("pandas.core.series.", "pandas.")
    if isinstance(frame, pd.Series):
        fix = (
            "A Series holds one model's scores or one column: build a scores frame with one "
            "row per model and one column per CV split, `series.unstack()` for a Series "
            "indexed by (model, split), `pd.DataFrame({name: scores, ...}).T` for the scores "
            "of several models."
        )
    elif hasattr(frame, "shape") and hasattr(frame, "dtype"):
        fix = (
            "Give the models their names: `pd.DataFrame(array, index=names)`, a scores frame "
            "with one row per model and one column per CV split."
        )
    else:
        fix = (
            "Pass a scores frame (one row per model, one column per CV split), a "
            "cv_results_ frame (`pd.DataFrame(search.cv_results_)`) or a predictions frame."
        )
    msg = f"pdcompare compares the models of a pandas DataFrame; got {name}. {fix}"
    raise TypeError(msg)


def check_model_rows(frame: pd.DataFrame) -> None:
    """Raise ``ValueError`` unless the rows of a scores frame are models with one name each.

    Refused: data sets as rows (the row index named "dataset", the shape
    autorank and scikit-posthocs take) or models as columns (the column axis
    named "model"); a MultiIndex of rows; tuples or missing values as model
    names.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame([[0.9, 0.8]], index=pd.Index(["iris"], name="dataset"),
    ...                      columns=["rf", "lr"])
    >>> check_model_rows(table)
    Traceback (most recent call last):
    ...
    ValueError: The rows are data sets (the row index is named 'dataset'), ...
    """
    check_frame(frame)
    index = frame.index
    if index.names[0] == _DATASET or frame.columns.names[0] == _MODEL:
        where = (
            "the rows are data sets (the row index is named 'dataset')"
            if index.names[0] == _DATASET
            else "the models are columns (the column axis is named 'model')"
        )
        msg = (
            f"{where[0].upper()}{where[1:]}, as autorank and scikit-posthocs take them; "
            "models must be the rows: pass `df.T`."
        )
        raise ValueError(msg)
    if index.nlevels > 1:
        msg = (
            f"The model rows carry a MultiIndex of {index.nlevels} levels "
            f"({', '.join(repr(n) for n in index.names)}); each model needs one name. "
            'Flatten them: `df.index = df.index.map(", ".join)` (for text levels).'
        )
        raise ValueError(msg)
    if index.dtype == object and pd.api.types.infer_dtype(index, skipna=True) != "string":
        tuples = [label for label in index if isinstance(label, tuple)]
        if tuples:
            msg = (
                f"Model names must be single labels, not tuples; {tuples[0]!r} is a tuple. "
                'Join the parts into one name: `df.index = df.index.map(", ".join)`.'
            )
            raise ValueError(msg)
    if index.hasnans:
        msg = (
            "Model names must not be missing; a row of the scores frame is labelled "
            f"{index[index.isna()][0]!r}. Give every model its name in the index."
        )
        raise ValueError(msg)
