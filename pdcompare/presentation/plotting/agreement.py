"""The picture of a ``judge_agreement`` result: each judge's κ and α with their intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _legend_above,
    _result_kind,
    matplotlib_options,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import check_top
from pdcompare.results import result_info

#: By default at most this many judges are drawn (the best by κ); ``top=`` chooses.
DEFAULT_JUDGES = 60
#: Judges' names longer than this are cut (with "…") on the axis.
NAME_CHARS = 28
#: Vertical offset of α's row below κ's, in rows.
OFFSET = 0.2


def _name(name: Any) -> str:
    text = str(name)
    return text if len(text) <= NAME_CHARS else text[: NAME_CHARS - 1] + "…"


def agreement_order(result: pd.DataFrame) -> np.ndarray:
    """Row positions, best agreement first: by κ, then α (where κ is NaN: continuous scores).

    Examples
    --------
    >>> frame = pd.DataFrame({"kappa": [0.2, np.nan, 0.9], "alpha": [0.1, 0.5, 0.8]})
    >>> agreement_order(frame).tolist()
    [2, 0, 1]
    """
    kappa = result["kappa"].to_numpy(dtype=float)
    alpha = result["alpha"].to_numpy(dtype=float)
    first = np.where(np.isnan(kappa), -np.inf, kappa)
    second = np.where(np.isnan(alpha), -np.inf, alpha)
    return np.lexsort((np.arange(len(result)), -second, -first))


@_result_kind("judge_agreement")
def plot_agreement(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Each judge's Cohen's κ and Krippendorff's α with their bootstrap intervals, best first.

    One row per judge, sorted by κ (by α on continuous scores): κ as a
    filled dot on its interval, α (of the human and that judge) as an open
    diamond on its interval just below. The dashed lines mark 0 (chance
    agreement) and 1 (perfect agreement).

    Parameters
    ----------
    result : pandas.DataFrame
        The result of :func:`pdcompare.judge_agreement`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the number of judges.
    top : int, optional
        Draw the best ``top`` judges; by default at most 60.
    title : str, optional
        Title of the Axes; by default what was compared and α over the human
        and all judges.
    **kwargs
        Passed to ``Axes.scatter`` (κ's dots).

    Returns
    -------
    matplotlib.axes.Axes
        κ's intervals are ``ax.collections[0]``, α's ``ax.collections[1]``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> import pdcompare
    >>> table = pd.DataFrame({"human": [0, 0, 0, 1, 1, 1, 1, 0],
    ...                       "strict": [0, 0, 1, 1, 1, 1, 1, 0],
    ...                       "lenient": [1, 0, 1, 1, 1, 1, 1, 1]})
    >>> ax = pdcompare.judge_agreement(table, random_state=0).cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['strict', 'lenient']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(
        result,
        ["kappa", "kappa_low", "kappa_high", "alpha", "alpha_low", "alpha_high"],
        "The agreement plot",
    )
    info = result_info(result)
    top = check_top(top)
    limit = DEFAULT_JUDGES if top is None else top
    ordered = result.iloc[agreement_order(result)]
    shown = ordered.iloc[:limit]
    n = len(shown)
    names = [_name(k) for k in shown.index]
    width, height = row_figsize(n, max(map(len, names), default=1))
    ax = _axes(ax, figsize=(max(width, 6.8), height))
    rows = np.arange(n, dtype=float)
    values = {key: shown[key].to_numpy(dtype=float) for key in shown.columns}
    has_kappa = bool(np.isfinite(values["kappa"]).any())
    level = info.get("level", "nominal")
    handles = []
    if has_kappa:
        ax.hlines(rows, values["kappa_low"], values["kappa_high"], color="C0", linewidth=2.0)
        options = {"color": "C0", "s": 28, "zorder": 3, **kwargs}
        with matplotlib_options("the agreement plot", "Axes.scatter", kwargs):
            handles.append(ax.scatter(values["kappa"], rows, label="Cohen's κ", **options))
    else:
        ax.hlines([], [], [])  # κ's (empty) intervals keep their place: collections[0]
    below = rows + (OFFSET if has_kappa else 0.0)
    ax.hlines(below, values["alpha_low"], values["alpha_high"], color="C1", linewidth=1.2)
    handles.append(
        ax.scatter(
            values["alpha"], below, marker="D", s=22, facecolor="white", edgecolor="C1",
            linewidth=1.2, zorder=3, label=f"Krippendorff's α ({level})",
        )
    )  # fmt: skip
    for x in (0.0, 1.0):
        ax.axvline(x, color="0.6", linestyle="--", linewidth=0.8, zorder=0)
    ax.set_yticks(rows, labels=names, fontsize=row_fontsize(ax, n))
    ax.set_ylim(n - 0.4, -0.6)  # the best at the top
    ends = np.concatenate([values[k] for k in ("kappa_low", "alpha_low", "kappa", "alpha")])
    ends = ends[np.isfinite(ends)]
    ax.set_xlim(min(-0.05, float(ends.min()) - 0.05) if ends.size else -0.05, 1.05)
    ax.set_ylabel("judge" if n == len(result) else f"judge (best {n} of {len(result)} by κ)")
    ci = float(info.ci or 0.95)
    ax.set_xlabel(f"agreement (0 = chance, 1 = perfect), {ci:.0%} intervals")
    ax.grid(axis="x", alpha=0.3)
    _legend_above(ax, handles=handles, ncols=len(handles))
    _figure_title(ax, title, _title(info, len(result)))
    return ax


def _title(info, n_judges: int) -> str:
    """What was compared, and α over the human and every judge."""
    over = f" ({info.n_clusters} clusters)" if info.n_clusters else ""
    judges = f"{n_judges} judge{'s' if n_judges > 1 else ''}"
    default = f"{judges} against {info.n_items} human labels{over}"
    alpha = info.get("alpha_all")
    if n_judges > 1 and alpha is not None:
        low, high = info.get("alpha_all_low"), info.get("alpha_all_high")
        default += f"\nα of the human and all judges {alpha:.2f} [{low:.2f}, {high:.2f}]"
        effective = info.get("effective_judges")
        if effective is not None:
            default += f"\ntheir errors are worth {effective:.1f} independent judges"
    return default
