"""Items frames met by the tests of other families: Cochran's Q, the unpaired tests.

The families of predictions frames (``cochrans_q``) and of runs
(``welch_ttest``, ``mannwhitney``) call these where their frame is an items
frame (DESIGN section 35): Cochran's Q runs on binary items, counted as
predictions frames count correct rows; the unpaired tests run but warn that
the items are shared by the models, naming ``ttest``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from pdcompare import results
from pdcompare._validation import warn
from pdcompare.compare.items import _binary, frame_data
from pdcompare.inputs.attrs import ATTRS_KEY, with_attrs
from pdcompare.inputs.design import Design

__all__ = ["cochrans_q_on_items", "warn_unpaired_on_items"]


def warn_unpaired_on_items(design: Design, test: str) -> None:
    """Warn that ``test`` (Welch's t, Mann–Whitney U) ignores the pairing of items.

    Examples
    --------
    >>> warn_unpaired_on_items(Design(), "welch_ttest")  # not items: silent
    """
    if not design.items:
        return
    warn(
        f"`{test}` treats each model's item scores as an independent sample, but the items "
        "are paired: every model answered the same questions, and their scores correlate "
        "(0.3 to 0.7 for frontier models), so this test wastes that pairing and ignores any "
        "clusters. Use `ttest` (paired over items, clustered when the frame has clusters)."
    )


def _stored_design(frame: Any) -> Design:
    stored = frame.attrs.get(ATTRS_KEY) if isinstance(frame, pd.DataFrame) else None
    design = stored.get("design") if isinstance(stored, dict) else None
    return Design.from_attrs(design if isinstance(design, dict) else None)


def cochrans_q_on_items(
    frame: pd.DataFrame, models: Sequence[Any] | None, **options: Any
) -> pd.DataFrame | None:
    """Cochran's Q on binary items, or None when ``frame`` is not an items frame.

    The items are the samples and each model's 0/1 score its correctness:
    the same Q as on a predictions frame whose rows are the items. Graded
    scores, clusters and several samples per item are refused (as by
    ``mcnemar``), naming ``permutation_test`` and ``ttest``.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame([[1, 1, 0, 1, 1, 1], [1, 0, 0, 1, 0, 1], [0, 0, 0, 1, 0, 0]],
    ...                     index=["a", "b", "c"])
    >>> out = cochrans_q_on_items(wide.cmp.set_design(items=True), None)
    >>> out[["n_models", "statistic", "df"]].round(4)
       n_models  statistic  df
    0         3        6.0   2

    Compare with statsmodels:

    >>> from statsmodels.stats.contingency_tables import cochrans_q
    >>> round(float(cochrans_q(wide.T.to_numpy()).statistic), 4)
    6.0
    """
    from pdcompare.stats.predictions import cochrans_q

    if not _stored_design(frame).items:
        return None
    nan_policy = options.pop("nan_policy", None)  # an items frame has no missing items
    data = frame_data(frame, options, "cochrans_q")
    if models is not None:
        missing = [m for m in models if m not in set(data.names)]
        if missing:
            msg = f"`models`: {missing} are not models of this items frame ({list(data.names)})."
            raise ValueError(msg)
        data = frame_data(frame.loc[list(models)], options, "cochrans_q")
    if len(data.names) < 2:
        msg = f"`models`: Cochran's Q compares at least 2 models; got {list(data.names)}."
        raise ValueError(msg)
    correct = _binary(data, "cochrans_q").T.astype(bool)
    out = cochrans_q(correct)
    if out["degenerate"]:
        warn(
            f"Models {list(data.names)} are all right or all wrong on every item, so "
            "Cochran's Q is 0/0; reported as statistic 0 and p-value 1."
        )
    table = pd.DataFrame({k: [out[k]] for k in ("n_models", "statistic", "df", "pvalue")})
    meta = results.result_meta(
        "cochrans_q",
        models=list(data.names),
        n_samples=int(correct.shape[0]),
        nan_policy=nan_policy,
        **{key: value for key, value in data.meta().items() if key != "samples_per_item"},
    )
    return with_attrs(table, meta)
