"""The non-inferiority margin of the t-tests and DeLong's test: its check and its column.

A margin turns a one-sided test of "model_1 better than model_2" into a test
of non-inferiority, H0: model_1 is worse than model_2 by at least ``margin``
(in the units of the score). Every test that takes ``margin=`` checks it
here, shifts its statistic in one place of the core
(:func:`~pdcompare.stats._common.margin_shift`) and adds the ``margin``
column here, so they agree on the words, the sign and the column. The outcome of a
release gate from its two one-sided bounds and its margin is read here too
(:func:`gate_outcome`), for the gates of every frame kind (``gate.py``,
``battles_gate.py``).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from pdcompare._validation import OptionError


def check_margin(margin: Any, alternative: str) -> float | None:
    """Check ``margin=``: None or a finite number ≥ 0; a positive one needs "better".

    Returns the margin as a float (None when not given).

    Examples
    --------
    >>> check_margin(0.01, "better"), check_margin(None, "two-sided")
    (0.01, None)
    >>> check_margin(0.01, "two-sided")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pdcompare._validation.OptionError: `margin=0.01` is a non-inferiority margin: ...
    """
    if margin is None:
        return None
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
        msg = (
            "`margin` must be a number ≥ 0 in the units of the score (or None); "
            f"got {type(margin).__name__} {margin!r}."
        )
        raise TypeError(msg)
    margin = float(margin)
    if not math.isfinite(margin) or margin < 0:
        msg = (
            "`margin` must be a finite number ≥ 0 in the units of the score: how much "
            f"worse model_1 may be and still pass; got {margin!r}."
        )
        raise OptionError(msg, keyword="margin")
    if margin > 0 and alternative != "better":
        msg = (
            f"`margin={margin:g}` is a non-inferiority margin: it needs "
            "`alternative='better'` (H0: model_1 worse than model_2 by at least the "
            f"margin); got alternative={alternative!r}."
        )
        raise OptionError(msg, keyword="margin")
    return margin


def core_margin(margin: float | None, alternative: str) -> float | None:
    """The margin the core shifts by: only with ``alternative="better"``, else None."""
    return margin if alternative == "better" else None


def with_margin(columns: dict[str, Any], margin: float | None, n_rows: int) -> dict[str, Any]:
    """``columns`` with a constant ``margin`` column at the end when a margin was given."""
    if margin is None:
        return columns
    return {**columns, "margin": np.full(n_rows, margin)}


#: The outcomes of a gate, in the order of the command line's exit codes 0, 1, 2.
OUTCOMES = ("non-inferior", "worse", "inconclusive")


def gate_outcome(low: float, high: float, margin: float, greater_is_better: bool) -> str:
    """The outcome of a gate from the two one-sided bounds of candidate − baseline.

    Examples
    --------
    >>> gate_outcome(-0.004, 0.002, 0.01, True), gate_outcome(-0.03, -0.02, 0.01, True)
    ('non-inferior', 'worse')
    >>> gate_outcome(-0.02, 0.01, 0.01, True)
    'inconclusive'
    """
    if greater_is_better:
        shown_not_worse, shown_worse = low > -margin, high < 0
    else:
        shown_not_worse, shown_worse = high < margin, low > 0
    if shown_not_worse:
        return OUTCOMES[0]
    return OUTCOMES[1] if shown_worse else OUTCOMES[2]
