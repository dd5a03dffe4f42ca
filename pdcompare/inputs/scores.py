"""Scores frames (models x CV splits) as validated arrays, and the pairs a test compares."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import (
    OptionError,
    apply_nan_policy,
    check_unique_labels,
    unknown_name_error,
    warn,
)
from pdcompare.inputs.cv_results import (
    cv_results_to_scores,
)
from pdcompare.inputs.design import Design
from pdcompare.inputs.frames import check_frame, check_model_rows
from pdcompare.inputs.kinds import FrameKind, frame_kind

#: Passed as ``a`` by ``pairwise`` to ask a test for every pair of models.
ALL_PAIRS = object()


def _numeric_values(frame: pd.DataFrame) -> np.ndarray:
    """The frame's values as float64, NaN for missing, after checking the dtypes."""
    values = frame.to_numpy()
    if values.dtype.kind in "iuf":  # numbers only (booleans, text, dates give other kinds)
        return values.astype(float, copy=False)
    dtypes = frame.dtypes
    # One check per distinct dtype (usually one), not per column.
    wrong = [dtype for dtype in set(dtypes.tolist()) if not _is_score_dtype(dtype)]
    if wrong:
        bad = [c for c, dtype in dtypes.items() if dtype in wrong]
        shown = ", ".join(repr(c) for c in bad[:5]) + (", ..." if len(bad) > 5 else "")
        msg = (
            f"Split columns must hold numeric scores; column(s) {shown} do not. A scores frame "
            "has one row per model and one numeric column per CV split; convert with "
            "`df.astype(float)` or drop the other columns (set model names as the index)."
        )
        raise TypeError(msg)
    # Nullable dtypes (Float64 with pd.NA) become NaN.
    return frame.to_numpy(dtype=float, na_value=np.nan)


def _is_score_dtype(dtype) -> bool:
    """Numbers, not booleans (numpy, nullable, or a categorical of numbers)."""
    if isinstance(dtype, np.dtype):
        return dtype.kind in "iufc"
    if isinstance(dtype, pd.CategoricalDtype):  # as numpy reads them: their values
        return _is_score_dtype(dtype.categories.dtype)
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def row_means(values: np.ndarray) -> np.ndarray:
    """Mean of each row over its non-missing entries; NaN for an all-missing row."""
    missing = np.isnan(values)
    if not missing.any():  # the usual case; the same sums, without NaN handling
        return values.mean(axis=1)
    counts = np.sum(~missing, axis=1)
    totals = np.nansum(values, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.maximum(counts, 1), np.nan)


def predictions_frame_message(frame: pd.DataFrame, y: Any = "y", asking: str = "") -> str:
    """Why a frame with a truth column is not scores, and which tests compare predictions.

    ``asking`` names the function that wanted scores ("`ttest`").
    """
    takes = f", which {asking} takes" if asking else ""
    msg = (
        f"This frame has a truth column {y!r}: it looks like a predictions frame (one row per "
        "test sample, one column of predictions per model), not a scores frame (one row "
        f"per model, one column per CV split){takes}. Compare predictions with `mcnemar` "
        "(labels), `delong` (scores), `permutation_test`, `bootstrap_diff` or `accuracy_ci`; "
        "forecasts in time order with `diebold_mariano` and `confidence_set`."
    )
    truth = frame[y]
    continuous = pd.api.types.is_numeric_dtype(truth) and truth.nunique() > 2
    if continuous and not isinstance(frame.index, pd.DatetimeIndex | pd.PeriodIndex):
        # The report reads forecasts by their date index; one read back from a file lost it.
        msg += (
            " A report of forecasts needs rows in time order: a date index, or "
            "`df.cmp.set_design(time_ordered=True)` on forecasts read back with an "
            "integer index."
        )
    return msg


def _refuse_other_kinds(frame: pd.DataFrame) -> None:
    """A predictions frame is refused; models as columns are warned about (DESIGN §2)."""
    if frame.columns.nlevels == 1 and "y" in frame.columns:
        msg = predictions_frame_message(frame)
        cli = (
            "This file has a truth column 'y': it is a file of predictions (one row per test "
            "sample, one column of predictions per model), not of scores. Compare "
            "predictions with --test delong, mcnemar or permutation_test; forecasts in time "
            "order with --forecasts (first column the time)."
        )
        raise OptionError(msg, cli_message=cli)
    if isinstance(frame.index, pd.RangeIndex) and not any(
        any(ch.isdigit() for ch in str(label)) for label in frame.columns
    ):
        warn(
            f"The rows carry a default RangeIndex (0 to {len(frame) - 1}) and no column label "
            "has a split number: the models look like columns, as "
            "pd.DataFrame({name: cross_val_score(...)}) builds them. A scores frame has one "
            "row per model; pass `df.T`."
        )


def validate_scores(frame: pd.DataFrame) -> np.ndarray:
    """Check a scores frame and return its values (models x splits) as float64."""
    check_scores_labels(frame)
    _refuse_other_kinds(frame)
    values = _numeric_values(frame)
    check_score_values(values, frame.index, frame.columns, runs=_is_runs_design(frame))
    return values


def check_scores_labels(frame: pd.DataFrame) -> None:
    """The checks of a frame of scores that read its labels only: models as rows, unique labels.

    They come first on every frame of scores (models x splits, runs or data
    sets), also where a test then refuses the frame's kind, so that a frame
    built the wrong way round hears "pass `df.T`" rather than "use another test".
    """
    check_frame(frame)
    check_model_rows(frame)
    _refuse_empty(frame.shape)
    check_unique_labels(frame.index, hint="give each model its own index label")
    _refuse_missing_split_labels(frame.columns)
    check_unique_labels(
        frame.columns,
        hint="each column holds the scores of one split; concatenating the scores of two "
        "runs repeats their labels: number the splits afresh",
        what="Split labels",
    )
    if frame.shape[1] == 1 and frame.columns.names[0] == "dataset":
        name = frame.columns[0]
        msg = (
            f"This frame holds one score per model on one data set ({name!r}; its columns "
            "are named 'dataset'), and the tests across data sets need at least 2 data sets. "
            "To compare the models on that data set, pass its fold scores (one column per "
            "split) to `corrected_ttest`, or a benchmark frame with (dataset, split) columns "
            "to `per_dataset(test=...)`."
        )
        raise ValueError(msg)


def _is_runs_design(frame: pd.DataFrame) -> bool:
    """Whether the frame's stored design says its columns are independent runs."""
    stored = frame.attrs.get("pdcompare")
    design = stored.get("design") if isinstance(stored, dict) else None
    if isinstance(design, Design):
        return design.paired is False
    return isinstance(design, dict) and design.get("paired") is False


def _refuse_missing_split_labels(columns: pd.Index) -> None:
    """A split column labelled None or NaN (pandas 3 reads both as missing) is refused.

    Examples
    --------
    >>> _refuse_missing_split_labels(pd.Index(["s0", None, "s2"]))
    Traceback (most recent call last):
    ...
    ValueError: Split labels must not be missing; the column at position 1 (counting from 0) ...
    """
    if isinstance(columns, pd.MultiIndex):
        missing = np.any([codes == -1 for codes in columns.codes], axis=0)
    elif columns.hasnans:
        missing = np.asarray(columns.isna())
    else:
        return
    if not missing.any():
        return
    positions = np.flatnonzero(missing)
    more = f" (and {len(positions) - 1} more)" if len(positions) > 1 else ""
    msg = (
        f"Split labels must not be missing; the column at position {positions[0]} "
        f"(counting from 0) has none (None or NaN){more}. Give every split "
        'a label, e.g. `df.columns = [f"split{k}" for k in range(df.shape[1])]`.'
    )
    raise ValueError(msg)


def _refuse_empty(shape: tuple[int, int]) -> None:
    if shape[0] == 0 or shape[1] == 0:
        msg = (
            f"The scores frame is empty (shape {shape}); it needs one row per model "
            "and one column per CV split."
        )
        raise ValueError(msg)


def check_score_values(
    values: np.ndarray, names: pd.Index, splits: pd.Index, *, runs: bool = False
) -> None:
    """Not empty, at least 2 splits (runs), and finite scores (NaN marks a failed fit)."""
    _refuse_empty(values.shape)
    if values.shape[1] < 2 and runs:
        msg = (
            f"The runs frame has {values.shape[1]} run column; comparisons of runs need at "
            "least 2 independent runs (random seeds) per model, one column each."
        )
        raise ValueError(msg)
    if values.shape[1] < 2:
        msg = (
            f"The scores frame has {values.shape[1]} split column; comparisons need the "
            "scores of at least 2 CV splits per model (models as rows, splits as columns). "
            "If models are columns, pass `df.T`."
        )
        raise ValueError(msg)
    infinite = np.isinf(values)
    if infinite.any():
        row, col = np.argwhere(infinite)[0]
        msg = (
            f"Scores must be finite; model {names[row]!r} has {values[row, col]} in "
            f"split {splits[col]!r}. Replace it with NaN if the fit failed."
        )
        raise ValueError(msg)


def rank_order(values: np.ndarray, greater_is_better: bool = True) -> np.ndarray:
    """Positions sorted best first by ``values`` (ties keep their order; NaN last)."""
    key = -values if greater_is_better else values
    key = np.where(np.isnan(key), np.inf, key)
    return np.argsort(key, kind="stable")


def index_of(names: pd.Index, name: Hashable, keyword: str) -> int:
    """Position of model ``name`` in ``names``, or a ValueError that suggests close names."""
    if isinstance(name, Hashable) and name in names:
        return int(names.get_loc(name))
    error = unknown_name_error("model", name, list(names), keyword)
    raise error


def select_pairs(
    names: pd.Index,
    values: np.ndarray,
    a: Any = None,
    b: Any = None,
    greater_is_better: bool = True,
    *,
    order: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, str]:
    """Positions ``(i, j)`` of the pairs a test compares, and the scope's name.

    ``(a, b)`` compares one pair ("pair"); ``a`` alone compares it with every
    other model ("one_vs_rest"); neither compares the best model with every
    other ("best_vs_rest"); ``a=ALL_PAIRS`` gives every pair ("all_pairs"),
    best first. ``values`` (the mean score of each model, or the metric on a
    predictions frame) decide what "best" and the rank order are, unless
    ``order`` (model positions, best first) is given.
    """
    if len(names) < 2:
        msg = f"Comparisons need at least 2 models; the frame has {len(names)}."
        raise ValueError(msg)
    if order is None:
        order = rank_order(np.asarray(values, dtype=float), greater_is_better)
    if a is ALL_PAIRS:
        first, second = np.triu_indices(len(order), k=1)
        return order[first], order[second], "all_pairs"
    if a is None and b is not None:
        msg = "`b` needs `a`: pass `a=` too, or neither to compare the best with the rest."
        raise ValueError(msg)
    if a is not None and b is not None:
        i, j = index_of(names, a, "a"), index_of(names, b, "b")
        if i == j:
            msg = f"`a` and `b` are the same model ({a!r}); name two different models."
            raise ValueError(msg)
        return np.array([i]), np.array([j]), "pair"
    first = index_of(names, a, "a") if a is not None else int(order[0])
    others = order[order != first]
    scope = "one_vs_rest" if a is not None else "best_vs_rest"
    return np.full(len(others), first), others, scope


@dataclass(frozen=True)
class ScoresData:
    """A validated scores frame as arrays, with its design.

    Attributes
    ----------
    names : pd.Index
        Model names, in frame order.
    values : np.ndarray
        Scores, shape (models, splits), float64 with NaN for missing.
    splits : pd.Index
        The split column labels.
    design : Design
        The resolved CV design.
    """

    names: pd.Index
    values: np.ndarray
    splits: pd.Index
    design: Design

    @cached_property
    def means(self) -> np.ndarray:
        """Mean score of each model over its non-missing splits."""
        return row_means(self.values)

    @cached_property
    def order(self) -> np.ndarray:
        """Model positions, best first (by mean; ties keep frame order; NaN last)."""
        return rank_order(self.means, self.design.greater_is_better)

    @cached_property
    def ranked_names(self) -> list:
        """Model names, best first (``attrs["pdcompare"]["models"]`` of every result)."""
        # Through an object array: indexing an Arrow-backed Index costs ~25 us per call.
        return np.asarray(self.names, dtype=object)[self.order].tolist()

    def index_of(self, name: Hashable, keyword: str) -> int:
        """Position of model ``name``, or a ValueError that suggests close names."""
        return index_of(self.names, name, keyword)

    def pairs(self, a: Any = None, b: Any = None) -> tuple[np.ndarray, np.ndarray, str]:
        """Positions ``(i, j)`` of the pairs to compare and the scope (see `select_pairs`)."""
        return select_pairs(self.names, None, a, b, order=self.order)

    #: Whether the columns are data sets (a benchmark frame), not the splits of one.
    across_datasets = False

    def meta(self) -> dict[str, Any]:
        """What every result records about the frame beyond the design (none for scores)."""
        return {}

    def nan_pairs(self, i: np.ndarray, j: np.ndarray, nan_policy: str) -> np.ndarray:
        """Boolean mask of the pairs that involve a missing score, after the policy's checks.

        "raise" raises a ValueError naming the models; "propagate" warns (those
        pairs get NaN results); "omit" returns the mask silently.
        """
        has_nan = np.isnan(self.values).any(axis=1)
        mask = has_nan[i] | has_nan[j]
        if mask.any():
            models = [str(self.names[k]) for k in np.flatnonzero(has_nan)]
            apply_nan_policy(
                nan_policy,
                f"Model(s) {models} have missing scores (NaN)",
                omit="drop the missing splits pair by pair",
                propagate="give those pairs NaN results",
            )
        return mask


#: The keywords that choose and name the candidates of a ``cv_results_`` frame.
SEARCH_KEYWORDS = ("metric", "names", "iteration")


def refuse_search_keywords(frame: pd.DataFrame, given: dict[str, Any]) -> None:
    """``metric``, ``names`` or ``iteration`` on a frame that is not ``cv_results_``: an error."""
    if all(value is None for value in given.values()):
        return
    kind = (
        "a benchmark frame (data sets as columns)"
        if frame_kind(frame).has_datasets
        else "a scores frame"
    )
    msg = (
        "`metric`, `names` and `iteration` apply to cv_results_ frames (with a `params` "
        f"column and `split<i>_test_<metric>` columns); this frame is already {kind}."
    )
    raise ValueError(msg)


def scores_frame(
    frame: pd.DataFrame,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
    iteration: int | None = None,
) -> pd.DataFrame:
    """The scores frame for ``frame``: converted from ``cv_results_``, or a copy of it."""
    check_frame(frame)
    if frame_kind(frame) is FrameKind.CV_RESULTS:
        return cv_results_to_scores(frame, metric=metric, names=names, iteration=iteration)
    refuse_search_keywords(frame, {"metric": metric, "names": names, "iteration": iteration})
    return frame.copy()


def converted_search(
    frame: pd.DataFrame, options: dict[str, Any]
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A ``cv_results_`` frame as its scores frame, and the options left.

    The candidates are chosen and named by the ``metric``, ``names`` and
    ``iteration`` among ``options``; the other options are returned for the
    call. Any other frame comes back as it is, and those three are refused.
    """
    check_frame(frame)
    search = {key: value for key, value in options.items() if key in SEARCH_KEYWORDS}
    rest = {key: value for key, value in options.items() if key not in SEARCH_KEYWORDS}
    if frame_kind(frame) is not FrameKind.CV_RESULTS:
        refuse_search_keywords(frame, search)
        return frame, rest
    return cv_results_to_scores(frame, **search), rest


def warn_negated_losses(values: np.ndarray, design: Design) -> None:
    """Warn when scores said to be losses are all <= 0: scikit-learn's ``neg_*`` scores.

    Those are losses negated so that greater is better; ``greater_is_better=False``
    on them ranks the worst model first.
    """
    if design.greater_is_better:
        return
    finite = values[np.isfinite(values)]
    if finite.size and finite.max() <= 0 and finite.min() < 0:
        warn(
            "Every score is <= 0, as scikit-learn's `neg_*` scores are (neg_mean_squared_error, "
            "neg_log_loss, ...): these are losses negated so that greater is better, yet "
            "`greater_is_better=False` says lower is better, so the worst model comes out "
            "best. Drop `greater_is_better=False`, or give the losses themselves (the scores "
            "negated)."
        )


#: How column labels that read as random seeds or repeated runs begin ("seed0", "Run_3").
_SEED_PREFIXES = ("seed", "run")


def looks_like_seeds(columns: pd.Index) -> bool:
    """Whether every column label starts with "seed" or "run" (any case).

    Examples
    --------
    >>> looks_like_seeds(pd.Index(["seed0", "Seed1", "run_2"]))
    True
    >>> looks_like_seeds(pd.Index(["split0", "seed1"]))
    False
    """
    return (
        columns.nlevels == 1
        and len(columns) > 0
        and all(str(label).lower().startswith(_SEED_PREFIXES) for label in columns)
    )


def warn_seed_columns(columns: pd.Index, design: Design) -> None:
    """Hint at ``set_design(paired=False)`` when the columns are named like seeds.

    A frame of runs over random seeds, compared as CV splits, gets paired
    tests that pair run k of one model with run k of another, which share
    nothing. Said only when no CV design is known and the frame is not a runs
    frame already.
    """
    if not design.paired or design.known or design.items or not looks_like_seeds(columns):
        return
    shown = ", ".join(map(str, list(columns[:3]))) + (", ..." if len(columns) > 3 else "")
    warn(
        f"The columns ({shown}) are named like random seeds or runs, and the frame carries no "
        "CV design: if each column is an independent training run rather than a CV split "
        "shared by the models, mark the frame `set_design(paired=False)` so that the unpaired "
        "tests (welch_ttest, mannwhitney, aso) compare it; if they are CV splits, pass the "
        "design (`cv=`).",
        cli_message=(
            f"The columns ({shown}) are named like random seeds or runs, and no CV design is "
            "given: if each column is an independent training run rather than a CV split "
            "shared by the models, pass --runs (unpaired tests); if they are CV splits, pass "
            "--cv or --test-size."
        ),
    )
