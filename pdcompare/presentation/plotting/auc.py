"""Pictures of ROC AUC results: each model's AUC interval, DeLong's differences."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare.presentation.plotting._base import _figure_title, _result_kind, require_columns
from pdcompare.presentation.plotting.bootstrap import plot_differences, plot_model_intervals
from pdcompare.results import result_info


@_result_kind("auc_ci", "delong")
def auc_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Draw an ``auc_ci`` result (AUC intervals) or a ``delong`` result (forest plot).

    The same pictures as the bootstrap's: for ``auc_ci`` each model's AUC
    with its DeLong interval, best on top, in the model's colour; for
    ``delong`` one row per pair ``model_1 − model_2`` with the interval of
    the AUC difference, filled markers where the pair is significant, a
    dashed line at 0 and the (adjusted) p-values at the right.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of :func:`pdcompare.auc_ci` or :func:`pdcompare.delong`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        The best ``top`` models (or the pairs among them); by default all up
        to 20, the best 20 beyond, as the title says.
    title : str, optional
        The Axes title; by default it names the interval and its level.
    **kwargs
        Passed to ``Axes.hlines`` (``auc_ci``) or ``Axes.errorbar`` (``delong``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 0, 0, 1, 1, 1], "a": [0.1, 0.2, 0.6, 0.5, 0.8, 0.9],
    ...                       "b": [0.3, 0.1, 0.2, 0.4, 0.6, 0.2]})
    >>> ax = auc_plot(preds.cmp.auc_ci())
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.get_xlabel()
    (['b', 'a'], 'ROC AUC')
    >>> ax = auc_plot(preds.cmp.delong())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a − b']
    """
    info = result_info(frame)
    test = info.test
    if test == "auc_ci":
        require_columns(frame, ("auc", "ci_low", "ci_high"), "An AUC interval plot")
        renamed = frame.rename(columns={"auc": "estimate"})  # keeps attrs
        level = f"{info.ci:.0%} " if info.ci is not None else ""
        default = f"ROC AUC with {level}DeLong interval"
        ax = plot_model_intervals(renamed, ax=ax, top=top, title=title, **kwargs)
        _retitle(ax, title, default)
        ax.set_xlabel("ROC AUC")
        return ax
    if test == "delong":
        require_columns(frame, ("auc_diff", "ci_low", "ci_high", "pvalue"), "A DeLong forest plot")
        renamed = frame.rename(columns={"auc_diff": "mean_diff"})
        alpha = info.level_alpha
        default = f"DeLong's test: AUC differences with {1 - alpha:.0%} intervals"
        ax = plot_differences(renamed, ax=ax, top=top, title=title, **kwargs)
        _retitle(ax, title, default)
        sided = info.alternative or "two-sided"
        label = "difference in ROC AUC"
        if sided not in (None, "two-sided"):
            label += f", one-sided ({sided})"
        if info.correction:
            label += f"\n(interval unadjusted; markers and p-values {info.correction}-adjusted)"
        ax.set_xlabel(label)
        return ax
    msg = (
        "`auc_plot` draws the result of `auc_ci` or `delong`; this frame is "
        f"{'a result of ' + repr(test) if test else 'not a pdcompare result'}."
    )
    raise ValueError(msg)


def _retitle(ax, title: str | None, default: str) -> None:
    """Put ``default`` in place of the first line of the drawn default title (the note stays)."""
    if title is not None:
        return

    lines = ax.get_title().split("\n", 1)
    note = lines[1][1:-1] if len(lines) == 2 and lines[1].startswith("(") else ""
    _figure_title(ax, None, default, note)
