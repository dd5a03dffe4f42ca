"""What the families' branches for items frames share (DESIGN section 21).

Each family keeps its items branch beside its other kinds (``ttest``,
``wilcoxon`` and ``sign_test`` in ``paired.py``, ``mcnemar`` in
``predictions.py``, ``permutation_test``, ``bootstrap_diff``, ``power``,
``equivalence``, ``summary`` in theirs); they read the frame here (no CV
design on items), select the pairs with the alternative in score units, and
share the messages and checks of items: binary items for McNemar, the
within-item part of the variance, the keywords of predictions refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import (
    OptionError,
    check_option,
    warn,
)
from pdcompare.compare._common import (
    raw_alternative,
)
from pdcompare.inputs.items import ItemsData, items_data
from pdcompare.inputs.labels import has_labels
from pdcompare.stats.cr2 import SE_TYPES
from pdcompare.stats.items import clustered_df

#: What the tests of items say of pairs with identical scores, and of a constant difference.
ITEMS_IDENTICAL_SCORES = (
    " have identical scores on every item, so they do not differ (p-value 1)",
    "`df[df.duplicated(keep=False)]` lists the models",
)
ITEMS_CONSTANT_DIFFERENCE = (
    " have a score difference that is the same on every item (a point mass: p-values of 0 or 1)",
    "`df.sub(df.loc[a]).nunique(axis=1) == 1` lists those of model `a`",
)

#: ``weight`` of a t-test on a frame with tasks: every item alike, or every task alike.
WEIGHTS = ("item", "task")

#: How results and reports name each clustered standard error (``se_type``; DESIGN 33).
SE_WORDS = {"cr2": "CR2 (Satterthwaite df)", "cr1": "CR1"}

#: Below this many clusters ``se=None`` means CR2 (CR1 over-rejects with few clusters).
FEW_CLUSTERS = 50


def standard_error(data: ItemsData, se: str | None) -> str:
    """The clustered standard error ``se`` asks for on this frame: ``"cr2"`` or ``"cr1"``.

    ``None``: CR2 below :data:`FEW_CLUSTERS` clusters, CR1 from there on.
    Without clusters both are the plain standard error; naming one is refused.

    Examples
    --------
    >>> import pandas as pd
    >>> framed = pd.DataFrame([[1, 0, 1, 1], [0, 0, 1, 0]], index=["a", "b"]).cmp.set_design(
    ...     items=True, cluster={0: 0, 1: 0, 2: 1, 3: 1})
    >>> standard_error(items_data(framed), None)
    'cr2'
    >>> standard_error(items_data(framed.cmp.set_design(items=True)), "cr1")
    Traceback (most recent call last):
    ...
    pdcompare._validation.OptionError: `se='cr1'` chooses a clustered standard error, ...
    """
    if se is not None:
        check_option("se", se, SE_TYPES)
    if not data.clustered:
        if se is not None:
            msg = (
                f"`se={se!r}` chooses a clustered standard error, but this items frame has no "
                "clusters (its standard error is the plain one over items): leave `se` out, "
                "or give the clusters with `from_items(..., cluster=...)`."
            )
            raise OptionError(msg, keyword="se")
        return "cr1"
    if se is None:
        return "cr2" if data.n_clusters < FEW_CLUSTERS else "cr1"
    return se


def se_meta(data: ItemsData, se_type: str) -> dict[str, Any]:
    """``se_type`` (its words) and ``se_df`` (the t's df) for the attrs of a clustered frame."""
    if not data.clustered:
        return {}
    df = clustered_df(data.cluster, data.n_clusters, se_type)
    return {"se_type": SE_WORDS[se_type], "se_df": float(df)}


def items_frame(frame: pd.DataFrame, greater_is_better: bool | None = None) -> ItemsData:
    """The items frame's arrays, in the direction ``greater_is_better`` when it is given."""
    data = items_data(frame)
    if greater_is_better is not None:
        data = replace(
            data, design=replace(data.design, greater_is_better=bool(greater_is_better))
        )
    return data


def _design_keywords(design: dict[str, Any], test: str) -> bool | None:
    """No CV design on items: ``cv=`` and friends are refused; ``greater_is_better`` kept."""
    # The truth column and the missing-value policy of other frames mean nothing here:
    # an items frame has no truth column and no missing items.
    rest = {key: value for key, value in design.items() if key not in ("y", "nan_policy")}
    greater_is_better = rest.pop("greater_is_better", None)
    if rest.get("estimator") is not None:  # read by the families of DESIGN 31 before this
        msg = (
            f"`{test}` does not take `estimator=`: on a labelled items frame `ttest`, "
            "`summary`, `ranks`, `top_set`, `power`, `gate` and `report()` correct the judge's "
            "scores with the human labels; leave it out here."
        )
        raise OptionError(msg, keyword="estimator")
    given = [key for key, value in rest.items() if value is not None]
    if given:
        msg = (
            f"`{test}` on an items frame: `{given[0]}` describes cross-validation splits, but "
            "the columns of this frame are items (questions), which share no training data. "
            "Leave it out."
        )
        raise OptionError(msg, keyword=given[0])
    return greater_is_better


#: The comparisons that correct a labelled items frame's judge with its human labels.
JUDGED_TESTS = ("ttest", "summary", "ranks", "power")


def frame_data(frame: pd.DataFrame, design: dict[str, Any], test: str) -> ItemsData:
    """The items frame's arrays for ``test``, its design keywords checked (no CV design).

    On a labelled items frame a test that does not correct the judge says it
    reads the judge's scores alone.
    """
    data = items_frame(frame, _design_keywords(design, test))
    if test not in JUDGED_TESTS and has_labels(frame):
        warn(
            f"`{test}` on a labelled items frame compares the judge's scores alone, "
            "uncorrected (biased as the judge is); `ttest`, `summary`, `ranks`, `top_set`, "
            "`power`, `gate` and `report()` correct them with the human labels.",
            keyword="estimator",
        )
    return data


def prediction_keywords(options: dict[str, Any], test: str, statistic: str) -> dict[str, Any]:
    """A predictions-frame test's keywords on items: ``score`` is refused but for accuracy.

    ``statistic`` says what the test resamples instead ("the mean item score").
    """
    score = options.pop("score", "accuracy")
    if score not in ("accuracy", None):
        msg = f"`score={score!r}`: on an items frame {statistic}; leave `score` out."
        raise OptionError(msg, keyword="score")
    return options


def sided_pairs(data: ItemsData, a: Any, b: Any, alternative: str):
    """The pairs asked, their scope, the alternative asked and the one in score units."""
    i, j, scope = data.pairs(a, b)
    return i, j, scope, alternative, raw_alternative(alternative, data.design.greater_is_better)


def first_graded(data: ItemsData) -> str | None:
    """The first score that is not 0 or 1, in words ("model 'a' scores item 'q3' 0.5"), or None.

    Examples
    --------
    >>> import pandas as pd
    >>> framed = pd.DataFrame([[1, 0.5]], index=["a"], columns=["q1", "q2"]).cmp.set_design(
    ...     items=True)
    >>> first_graded(items_frame(framed))
    "model 'a' scores item 'q2' 0.5"
    """
    values = data.values
    graded = (values != 0.0) & (values != 1.0)
    if not graded.any():
        return None
    row, col = np.argwhere(graded)[0]
    return f"model {data.names[row]!r} scores item {data.splits[col]!r} {values[row, col]:g}"


def binary_items(data: ItemsData, test: str) -> np.ndarray:
    """The 0/1 scores of independent, once-answered items, or a ValueError saying what is not."""
    problem = first_graded(data)
    if problem is not None:
        problem += " (graded scores, or means of several samples)"
    elif data.clustered:
        problem = f"the items come in {data.n_clusters} clusters"
    elif data.samples is not None:
        problem = "the items have several samples each"
    if problem is not None:
        msg = (
            f"`{test}` counts items that one model gets right and the other wrong: it needs "
            f"0/1 items, independent and answered once; here {problem}. Use "
            "`permutation_test` (sign flips of whole clusters) or `ttest` (clustered)."
        )
        raise ValueError(msg)
    return data.values.astype(np.int8)


def within_part(data: ItemsData, i, j) -> np.ndarray:
    """Per pair: the samples' share of ``var(d_i)``, ``s²_a/K_a + s²_b/K_b`` over items."""
    if data.samples is None or data.within_var is None:
        return np.zeros(len(i))
    share = np.where(np.isnan(data.within_var), 0.0, data.within_var) / data.samples
    per_model = share.mean(axis=1)
    return per_model[i] + per_model[j]


