"""What every comparison shares: option checks, degenerate-pair warnings and result metadata."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import (
    apply_nan_policy,
    check_correction,
    check_fraction,
    check_option,
    warn,
)
from pdcompare.compare.registry import BY_NAME
from pdcompare.inputs.attrs import shared
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.design import overlapping_splits
from pdcompare.results import result_meta
from pdcompare.stats import bayes as core

#: ``alternative`` values: scipy's (about the raw model_1 - model_2) and the direction-aware ones.
ALTERNATIVES = ("two-sided", "greater", "less", "better", "worse")


def raw_alternative(alternative: str, greater_is_better: bool, *, warn_raw: bool = True) -> str:
    """Scipy's alternative for ``alternative``: "better"/"worse" follow the score's direction.

    "better" means model_1 better than model_2: "greater" when higher scores
    are better, "less" for losses; "worse" the opposite. "greater"/"less" on
    losses warn: they are about the raw difference, so "greater" asks whether
    model_1 has the larger loss, which is rarely what was meant. A test whose
    result is named after the loss difference itself (Diebold–Mariano's
    ``mean_loss_diff``, as R's ``dm.test``) passes ``warn_raw=False``.

    Examples
    --------
    >>> raw_alternative("better", True), raw_alternative("better", False)
    ('greater', 'less')
    """
    if alternative in ("greater", "less") and not greater_is_better and warn_raw:
        meaning = "worse" if alternative == "greater" else "better"
        warn(
            f"`alternative={alternative!r}` is about the raw scores (model_1 − model_2, as in "
            f"scipy), and these are losses (`greater_is_better=False`): it asks whether "
            f"model_1 is {meaning}. Pass `alternative='better'` (or 'worse') to test in the "
            "direction of the scores."
        )
    if alternative == "better":
        return "greater" if greater_is_better else "less"
    if alternative == "worse":
        return "less" if greater_is_better else "greater"
    return alternative


def check_test_options(
    *,
    alternative: str | None = None,
    alpha: float | None = None,
    correction: Any = False,
    correction_keyword: str = "correction",
) -> tuple[float | None, str | None]:
    """Check the keywords every frequentist test takes; return ``(alpha, correction)``.

    ``correction=False`` (the default) means the caller takes no correction.
    """
    if alternative is not None:
        check_option("alternative", alternative, ALTERNATIVES)
    if alpha is not None:
        alpha = check_fraction("alpha", alpha)
    if correction is not False:
        correction = check_correction(correction, correction_keyword)
    return alpha, (None if correction is False else correction)


def pair_list(names: Any, i: np.ndarray, j: np.ndarray, mask: np.ndarray, shown: int = 5) -> str:
    """The pairs in ``mask`` as text: "'a' vs 'b', 'a' vs 'c' and 3 more pairs"."""
    where = np.flatnonzero(mask)
    text = ", ".join(f"{names[i[k]]!r} vs {names[j[k]]!r}" for k in where[:shown])
    if where.size > shown:
        text += f" and {where.size - shown} more pairs"
    return text


#: What every test says of pairs with identical scores (the same words, so a report says it once).
IDENTICAL_SCORES = (
    " have identical scores on every split, so they do not differ (p-value 1, prob_rope 1)",
    "`df[df.duplicated(keep=False)]` lists the models",
)
#: What every test says of pairs whose difference is the same on every split.
CONSTANT_DIFFERENCE = (
    " have a score difference that is the same on every split (a point mass: p-values "
    "and probabilities of 0 or 1)",
    "`df.sub(df.loc[a]).nunique(axis=1) == 1` lists those of model `a`",
)


def warn_pairs(
    names: Any,
    i: np.ndarray,
    j: np.ndarray,
    findings: Iterable[tuple],
    prefix: str = "",
) -> None:
    """One short warning counting the pairs of every ``(mask, text[, hint])`` finding that has any.

    Each finding reads ``"<count> pairs of models (e.g. 'a' vs 'b')<text>; <hint>"``
    (``"'a' vs 'b'<text>; <hint>"`` for one pair),
    so ``text`` starts with its own joining words (" have identical scores",
    ": the variance is 0") and ``hint`` says how to list the pairs. The
    words depend on the data only (no test name), so that a report whose
    tests find the same pairs says it once (:func:`~pdcompare._validation.warnings_once`).

    Examples
    --------
    >>> import warnings
    >>> names = ["a", "b", "c"]
    >>> i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_pairs(names, i, j, [(np.array([True, True, False]), " are odd", "look")])
    >>> print(caught[0].message)
    2 pairs of models (e.g. 'a' vs 'b') are odd; look.
    """
    found = []
    for mask, text, *hint in findings:
        count = int(np.count_nonzero(mask))
        if not count:
            continue
        first = np.flatnonzero(mask)[0]
        example = f"{names[i[first]]!r} vs {names[j[first]]!r}"
        pairs = example if count == 1 else f"{count} pairs of models (e.g. {example})"
        found.append(f"{pairs}{text.rstrip('.')}" + (f"; {hint[0]}" if hint else ""))
    if found:
        warn(prefix + "; ".join(found) + ".")


def seed_of(random_state: Any) -> int | None:
    """What ``attrs`` records of ``random_state``: the int seed, else None."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return int(random_state)
    return None


def scores_meta(test: str, data: Any, scope: str, **fields: Any) -> dict[str, Any]:
    """Metadata of a result computed on a scores frame: the test's fields, then the design.

    ``data`` is the :class:`~pdcompare.inputs.scores.ScoresData` the test ran
    on; its design, direction and models (best first) are recorded, and for a
    benchmark frame the unit ("dataset"), the number of data sets and the
    mean ranks; for a runs frame (design ``paired=False``) the unit "run".
    """
    return result_meta(
        test,
        scope=scope,
        **fields,
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=data.ranked_names,
        **data.meta(),
        **({} if data.design.paired else {"unit": "run"}),
    )


def refuse_benchmark(data: Any, test: str) -> None:
    """Raise for a test that needs the folds of one data set when given a benchmark frame."""
    if isinstance(data, BenchmarkData):
        msg = (
            f"`{test}` compares models on the folds of one data set; this is a benchmark "
            "frame (several data sets). Use `per_dataset(test=...)` to run it within every "
            "data set, or `random_effects()` to pool the data sets' corrected differences; "
            "across data sets use `wilcoxon`, `sign_test`, `friedman` or "
            "`pairwise(test='nemenyi')`."
        )
        raise ValueError(msg)


def refuse_one_dataset(data: Any, test: str) -> None:
    """Raise for a test across data sets when a benchmark frame holds a single data set.

    With one data set there is one difference per pair: Friedman's statistic,
    the Wilcoxon, sign and t-tests across data sets and the Bayesian
    signed-rank test have nothing to work with (p = 0.406 from one data set,
    and a report of NaN).
    """
    if isinstance(data, BenchmarkData) and len(data.splits) == 1:
        name = data.splits[0]
        msg = (
            f"`{test}` compares models across data sets, and this benchmark frame has one "
            f"data set ({name!r}). Compare the models on its folds: `corrected_ttest` on "
            f"its scores frame (`df[{name!r}]`), or `per_dataset(test=...)`."
        )
        raise ValueError(msg)


def warn_overlapping_splits(data: Any, test: str) -> None:
    """Warn once when a test that assumes independent splits runs on overlapping ones.

    On 10 x 10 repeated CV the plain t, Wilcoxon and sign tests reject a true
    null hypothesis about half the time at alpha 0.05 (the validity study in
    the documentation); on a single k-fold they keep their level. Whether the
    splits overlap is decided by one rule, :func:`~pdcompare.inputs.design.overlapping_splits`
    (repeats in the design, a ``(repeat, fold)`` MultiIndex, or more splits
    than the test fraction allows).
    """
    row = BY_NAME[test]
    if not row.overlap_sensitive or data.across_datasets:
        return
    if row.unpaired and not data.design.paired:
        return  # a runs frame: independent runs, whatever CV each run used
    reason = overlapping_splits(data.design, data.splits)
    if reason is None:
        return
    if row.unpaired:
        warn(
            f"`{test}` treats each model's CV splits as independent runs, but these splits "
            f"are shared by the models and overlap ({reason}), so it is far too confident "
            "(p-values, or aso's bound, too small). Use `corrected_ttest` (or `bayes`) on "
            "these scores; for runs over random "
            "seeds, mark the frame with `set_design(paired=False)`."
        )
        return
    warn(
        f"`{test}` treats the CV splits as independent, but these splits overlap "
        f"({reason}), so its p-values are far too small: on 10x10 repeated CV it "
        "rejects a true null about half the time at alpha 0.05. Use `corrected_ttest` "
        "(or `bayes`) on these scores."
    )


def decision_column(names: pd.Index, i: np.ndarray, j: np.ndarray, code: np.ndarray) -> Any:
    """The ``decision`` column: a model's name, "equivalent", "undecided", or missing.

    Plain objects rather than a categorical: a categorical would save memory on
    all pairs of many models, but could not be compared with ``model_1`` (whose
    categories are the names alone), and ``decision == model_1`` is how a
    reader asks which pairs model_1 wins.
    """
    labels = np.array([*np.asarray(names, dtype=object), "undecided", "equivalent", None])
    codes = np.select(
        [
            code == core.DECISION_MODEL_1,
            code == core.DECISION_MODEL_2,
            code == core.DECISION_UNDECIDED,
            code == core.DECISION_EQUIVALENT,
        ],
        [i, j, len(names), len(names) + 1],
        len(names) + 2,
    )
    return labels[codes]


def missing_predictions(
    missing: np.ndarray, names: Any, involved: Any, y: Any, nan_policy: str
) -> tuple[np.ndarray | None, np.ndarray]:
    """The missing-value policy of a predictions frame: the rows kept and the models scored.

    ``missing`` is the frame's (rows, 1 + models) mask of missing cells, the
    truth first; ``involved`` (model positions; all models when None) are the
    columns the call compares. "omit" keeps the rows without a missing truth
    or a missing value of an involved model; "propagate" leaves out (NaN
    results) the involved models with a missing value, or all of them when
    the truth is missing, and warns; "raise" raises a ValueError naming them.

    Returns ``(keep, valid)``: the boolean mask of rows to keep (None: every
    row) and the boolean mask of the models to score.
    """
    n_models = len(names)
    valid = np.zeros(n_models, dtype=bool)
    valid[np.arange(n_models) if involved is None else np.asarray(involved)] = True
    truth_missing = missing[:, 0]
    model_missing = missing[:, 1:] & valid
    if not (truth_missing.any() or model_missing.any()):
        return None, valid
    culprits = [f"the truth {y!r}"] if truth_missing.any() else []
    culprits += [repr(names[k]) for k in np.flatnonzero(model_missing.any(axis=0))]
    where = ", ".join(culprits)
    apply_nan_policy(
        nan_policy,
        f"Missing values (NaN) in {where}",
        omit="drop those rows",
        propagate="give the affected models NaN results",
    )
    if nan_policy == "omit":
        keep = ~(truth_missing | model_missing.any(axis=1))
        if not keep.any():
            msg = f"No row is left after dropping the missing values (NaN) in {where}."
            raise ValueError(msg)
        return keep, valid
    valid &= ~model_missing.any(axis=0) & ~truth_missing.any()
    return None, valid


def per_dataset_fields(
    names: pd.Index, i: np.ndarray, j: np.ndarray, datasets: pd.Index, **tables: np.ndarray
) -> dict[str, Any]:
    """Per pair and data set values as a result's metadata stores them: JSON-able lists.

    ``pairs`` (``[model_1, model_2]`` of every pair), ``datasets`` (their
    labels) and, for every table of shape (pairs, data sets), its rows as
    lists of floats with None where a value is missing (JSON has no NaN, and
    None compares equal after a save), shared by the frames pandas derives
    from the result (see :func:`~pdcompare.inputs.attrs.shared`).
    :func:`pdcompare.shrinkage` reads them.

    Examples
    --------
    >>> per_dataset_fields(pd.Index(["a", "b"]), np.array([0]), np.array([1]),
    ...                    pd.Index(["d1", "d2"]), shrunk=np.array([[0.5, np.nan]]))
    {'pairs': [['a', 'b']], 'datasets': ['d1', 'd2'], 'shrunk': [[0.5, None]]}
    """
    labels = np.asarray(names, dtype=object)
    fields: dict[str, Any] = {
        "pairs": shared([[labels[a], labels[b]] for a, b in zip(i, j, strict=True)]),
        "datasets": shared(list(datasets)),
    }
    for key, values in tables.items():
        values = np.asarray(values, dtype=float)
        # shared by pandas' copies of the result: not deep-copied on every column read
        fields[key] = shared(np.where(np.isnan(values), None, values).tolist())
    return fields


def integer_counts(values: Any) -> Any:
    """Whole counts as integers: int64, nullable Int64 where one is NaN, float if one is inf.

    A count that no sample size reaches (``n_repeats`` when ``delta <= mdd_limit``)
    stays ``inf``, which no integer dtype holds: that column keeps floats.

    Examples
    --------
    >>> integer_counts(np.array([3.0, 4.0])).dtype, integer_counts([1.0, np.nan]).dtype
    (dtype('int64'), Int64Dtype())
    >>> integer_counts([2.0, np.inf])
    array([ 2., inf])
    """
    values = np.asarray(values, dtype=float)
    missing = np.isnan(values)
    if np.isinf(values).any():
        return values
    if missing.any():
        out = pd.array(np.where(missing, 0, values).astype(np.int64), dtype="Int64")
        out[missing] = pd.NA
        return out
    return values.astype(np.int64)


def count_columns(out: dict[str, Any], names: Iterable[str] = ("wins", "losses", "ties")) -> dict:
    """``out`` with its count columns as integers: int64, or nullable Int64 where one is NaN.

    A pair left NaN by ``nan_policy="propagate"`` keeps a missing count
    (``<NA>``), never a float; a count that is ``inf`` (never reached) keeps
    its column float (:func:`integer_counts`).

    Examples
    --------
    >>> out = count_columns({"wins": np.array([3.0, 4.0]), "ties": np.array([1.0, np.nan])},
    ...                     ("wins", "ties"))
    >>> out["wins"].dtype, out["ties"].dtype
    (dtype('int64'), Int64Dtype())
    """
    converted = dict(out)
    for name in names:
        converted[name] = integer_counts(out[name])
    return converted
