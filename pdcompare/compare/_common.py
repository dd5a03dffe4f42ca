"""What every comparison shares: option checks, degenerate-pair warnings and result metadata."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from pdcompare._validation import check_fraction, check_option, warn

#: ``alternative`` values: scipy's (about the raw model_1 - model_2) and the direction-aware ones.
ALTERNATIVES = ("two-sided", "greater", "less", "better", "worse")


def raw_alternative(alternative: str, greater_is_better: bool) -> str:
    """Scipy's alternative for ``alternative``: "better"/"worse" follow the score's direction.

    "better" means model_1 better than model_2: "greater" when higher scores
    are better, "less" for losses; "worse" the opposite.

    Examples
    --------
    >>> raw_alternative("better", True), raw_alternative("better", False)
    ('greater', 'less')
    """
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
    from pdcompare.stats.multitest import check_correction

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


def warn_pairs(
    names: Any,
    i: np.ndarray,
    j: np.ndarray,
    findings: Iterable[tuple[np.ndarray, str]],
    prefix: str = "",
) -> None:
    """One warning naming the pairs of every ``(mask, text)`` finding that has any.

    Each finding reads ``"<pairs><text>"``, so ``text`` starts with its own
    joining words (" have identical scores", ": the variance is 0").
    """
    found = [f"{pair_list(names, i, j, mask)}{text}" for mask, text in findings if mask.any()]
    if found:
        message = prefix + "; ".join(found)
        warn(message if message.endswith(".") else message + ".")


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
    mean ranks.
    """
    from pdcompare.results import result_meta

    return result_meta(
        test,
        scope=scope,
        **fields,
        design=data.design.to_attrs(),
        greater_is_better=data.design.greater_is_better,
        models=data.ranked_names,
        **data.meta(),
    )


def refuse_benchmark(data: Any, test: str) -> None:
    """Raise for a test that needs the folds of one data set when given a benchmark frame."""
    from pdcompare.inputs.benchmark import BenchmarkData

    if isinstance(data, BenchmarkData):
        msg = (
            f"`{test}` compares models on the folds of one data set; this is a benchmark "
            "frame (several data sets). Use `per_dataset(test=...)` to run it within every "
            "data set, or `random_effects()` to pool the data sets' corrected differences; "
            "across data sets use `wilcoxon`, `sign_test`, `friedman` or "
            "`pairwise(test='nemenyi')`."
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
    from pdcompare.inputs.design import overlapping_splits

    if test not in OVERLAP_SENSITIVE_TESTS or data.meta():
        return
    reason = overlapping_splits(data.design, data.splits)
    if reason is not None:
        warn(
            f"`{test}` treats the CV splits as independent, but these splits overlap "
            f"({reason}), so its p-values are far too small: on 10x10 repeated CV it "
            "rejects a true null about half the time at alpha 0.05. Use `corrected_ttest` "
            "(or `bayes`) on these scores."
        )


#: The tests on scores that assume independent splits, and warn when they overlap.
OVERLAP_SENSITIVE_TESTS = ("ttest", "wilcoxon", "sign_test", "permutation_test")
