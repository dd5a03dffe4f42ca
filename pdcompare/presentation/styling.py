"""Styled result frames: readable numbers and highlighted conclusions, with pandas' Styler.

``result.cmp.style()`` turns any pdcompare result frame (a test's tidy table,
a ``summary``, a ``matrix``) into a :class:`pandas.io.formats.style.Styler`
built only with the Styler's own machinery (``format``, ``apply``,
``set_properties``, ``set_table_styles``, ``background_gradient``), so it
renders in Jupyter and exports with ``.to_html()`` and ``.to_latex()``.

The text formatting lives in plain functions (:func:`column_formatters`, and
:func:`pdcompare.presentation.labels.format_pvalue` below) that the command line reuses for
its tables.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_fraction, check_positive_int
from pdcompare.presentation.labels import (
    agreement_words,
    format_pvalue,
    is_missing,
    method_label,
    rope_text,
)
from pdcompare.presentation.shown import DEFAULT_TOP, check_top, is_matrix, top_models, top_pairs
from pdcompare.results import result_info

#: Columns that hold p-values: tiny values print as ``<0.001``.
PVALUE_COLUMNS = ("pvalue", "pvalue_adj")
#: Columns that hold posterior probabilities.
PROBABILITY_COLUMNS = ("prob_better", "prob_rope", "prob_worse")
#: Columns that hold model names (left-aligned, never formatted as numbers).
NAME_COLUMNS = ("model_1", "model_2", "decision")
#: Columns of counts and degrees of freedom: printed without decimals when whole.
INTEGER_COLUMNS = (
    "wins",
    "losses",
    "ties",
    "df",
    "n_splits",
    "rank",
    "n_datasets",
    "n_best",
    "n",
    "only_1_correct",
    "only_2_correct",
    "n_resamples",
    "eliminated_at",
    "n_items",
    "n_clusters",
    "n_items_needed",
    "n_clusters_needed",
    "n_runs",
    "n_runs_1",
    "n_runs_2",
    "n_runs_needed",
    "n_repeats",
    "rank_low",
    "rank_high",
    "n_battles",
    "n_tasks",
    "n_pos",
    "n_neg",
)

_HIGHLIGHT = "background-color: #fff2b3; font-weight: bold"
_RIGHT = "text-align: right"


def _is_true(values: pd.Series) -> np.ndarray:
    """True where ``values`` is True; missing (NaN, NA) counts as False.

    ``eq`` rather than ``fillna``: no object-dtype downcasting (deprecated in pandas 2.2).
    """
    return values.eq(True).to_numpy(dtype=bool, na_value=False)


def is_count_column(column: Any) -> bool:
    """Whether a result column holds counts: :data:`INTEGER_COLUMNS` or a name ``n_...``.

    Counts print as integers in every table of every format (``n_runs`` 4, not
    4.000 or 4.0), whatever dtype the frame gave them.

    Examples
    --------
    >>> is_count_column("n_runs"), is_count_column("wins"), is_count_column("mean")
    (True, True, False)
    """
    return column in INTEGER_COLUMNS or (isinstance(column, str) and column.startswith("n_"))


def _format_number(value: Any, precision: int) -> str:
    """One number with ``precision`` decimals (0: as an integer); booleans as yes/no.

    A missing value is blank, in every table of every format (text, Markdown,
    HTML, Styler): "nan" in a table reads as a number.
    """
    if is_missing(value):
        return ""
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return f"{value:.{precision}f}"
    return str(value)


def _whole_column(values: pd.Series) -> bool:
    """Whether every finite value of a numeric column is a whole number (counts, df)."""
    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        return False
    if pd.api.types.is_integer_dtype(values):
        return True
    array = values.to_numpy(dtype=float, na_value=np.nan)
    finite = array[np.isfinite(array)]
    return bool(np.all(finite == np.round(finite)) and np.all(np.abs(finite) < 1e15))


def column_formatters(frame: pd.DataFrame, precision: int = 3) -> dict[Any, Callable]:
    """One text formatter per column of a result frame.

    One format per column: p-values (also every cell of a ``matrix`` of
    ``pvalue`` or ``pvalue_adj``) get :func:`format_pvalue`, booleans
    (``reject``) print as ``yes``/``no``, integer columns and the counts and
    degrees of freedom of :data:`INTEGER_COLUMNS` (``wins``, ``losses``,
    ``ties``, ``df``, ...) and every ``n_...`` column, a matrix of them and the sign
    test's ``statistic`` (its count of wins) without decimals when every value is whole,
    other numbers with ``precision`` decimals, names unchanged; missing values blank.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result frame (or any frame).
    precision : int, default 3
        Decimals of the numbers.

    Returns
    -------
    dict
        ``{column: callable(value) -> str}``, usable with ``Styler.format`` and
        ``DataFrame.to_string(formatters=...)``.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"model_1": ["a"], "model_2": ["b"], "df": [99.0],
    ...                       "pvalue": [1e-6], "reject": [True]})
    >>> print(frame.to_string(formatters=column_formatters(frame), index=False))
    model_1 model_2 df pvalue reject
          a       b 99 <0.001    yes
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> matrix = load_grid_search_scores().cmp.pairwise().cmp.matrix("pvalue_adj")
    >>> print(matrix.to_string(formatters=column_formatters(matrix)))
              rbf linear 3_poly 2_poly
    rbf       NaN  0.538  0.302 <0.001
    linear  0.538    NaN  0.538 <0.001
    3_poly  0.302  0.538    NaN  0.001
    2_poly <0.001 <0.001  0.001    NaN
    """
    precision = check_positive_int("precision", precision, minimum=0)
    formatters: dict[Any, Callable] = {}
    info = result_info(frame)
    # A matrix holds one result column (``value``) in every cell; the sign
    # test's statistic is its count of wins.
    held = info.value if is_matrix(frame) else None
    counts = {"statistic"} if info.test == "sign_test" else set()
    for column in frame.columns:
        if column in PVALUE_COLUMNS or held in PVALUE_COLUMNS:
            formatters[column] = lambda v, p=precision: (
                "" if is_missing(v) else format_pvalue(v, p)
            )
        elif (is_count_column(held) or column in counts) and _whole_column(frame[column]):
            formatters[column] = lambda v: _format_number(v, 0)
        elif column in NAME_COLUMNS or not (
            pd.api.types.is_numeric_dtype(frame[column])
            or pd.api.types.is_bool_dtype(frame[column])
        ):
            formatters[column] = lambda v: "" if is_missing(v) else str(v)
        elif pd.api.types.is_integer_dtype(frame[column]) or (
            is_count_column(column) and _whole_column(frame[column])
        ):
            formatters[column] = lambda v: _format_number(v, 0)
        else:
            formatters[column] = lambda v, p=precision: _format_number(v, p)
    return formatters


def highlighted_rows(frame: pd.DataFrame, alpha: float | None = None) -> np.ndarray:
    """Which rows state a conclusion: a rejected hypothesis, a decision, the best model.

    - a ``reject`` column: the rows where it is True;
    - an ``in_set`` column (the model confidence set): the models in the set;
    - a ``decision`` column (bayes): the rows decided, that is not ``"undecided"``;
    - a ``pvalue_adj`` or ``pvalue`` column without ``reject`` (cochrans_q):
      the rows at or below ``alpha`` (from the call, else the result's
      metadata, else 0.05);
    - a ``rank_low`` column (rank confidence sets): the models that may be the best;
    - a ``rank`` column (summary): the best model;
    - otherwise none.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result frame.
    alpha : float, optional
        Significance level for frames without ``reject``.

    Returns
    -------
    numpy.ndarray
        Boolean mask, one entry per row.

    Examples
    --------
    >>> import pandas as pd
    >>> highlighted_rows(pd.DataFrame({"reject": [True, False]})).tolist()
    [True, False]
    >>> highlighted_rows(pd.DataFrame({"decision": ["a", "undecided", "equivalent"]})).tolist()
    [True, False, True]
    """
    if "reject" in frame.columns:
        return _is_true(frame["reject"])
    if "in_set" in frame.columns:  # a model confidence set: its members, never the eliminated
        return _is_true(frame["in_set"])
    if "decision" in frame.columns:
        return (frame["decision"].astype(str) != "undecided").to_numpy()
    for column in ("pvalue_adj", "pvalue"):
        if column in frame.columns:
            if alpha is None:
                alpha = result_info(frame).level_alpha
            pvalues = frame[column].to_numpy(dtype=float, na_value=np.nan)
            with np.errstate(invalid="ignore"):
                return pvalues <= alpha
    if "rank_low" in frame.columns:
        return (frame["rank_low"] == 1).to_numpy()
    if "rank" in frame.columns:
        return (frame["rank"] == frame["rank"].min()).to_numpy()
    return np.zeros(len(frame), dtype=bool)


def caption(frame: pd.DataFrame) -> str | None:
    """The caption of a styled result: test, direction, correction and alpha (None if unknown).

    Parameters
    ----------
    frame : pandas.DataFrame
        A result frame of pdcompare (its ``attrs["pdcompare"]``).

    Returns
    -------
    str or None

    Examples
    --------
    >>> import pandas as pd
    >>> result = pd.DataFrame({"model_1": ["a"], "model_2": ["b"], "pvalue": [0.01]})
    >>> result.attrs["pdcompare"] = {"kind": "result", "test": "corrected_ttest",
    ...     "greater_is_better": True, "correction": "holm", "alpha": 0.05}
    >>> caption(result)
    'Corrected t-test (Nadeau–Bengio); higher is better; holm correction; alpha = 0.05'
    """
    info = result_info(frame)
    test = info.test
    if test is None:
        return None
    if test == "judge_agreement":
        return agreement_words(info)
    if test == "summary":
        parts = ["Summary of the scores"]
    elif test in ("bootstrap", "accuracy_ci"):
        parts = [f"{(info.method or 'bootstrap')} interval of {(info.score or 'the score')}"]
    else:
        parts = [method_label(info, capital=True)]
    if info.value is not None:
        parts[0] = f"{parts[0]}: {info.value} of row model vs column model"
    if test == "equivalence":
        # TOST rejects "different by more than the rope": a highlighted row is an equivalence.
        what = "yes = equivalent within the ROPE" if info.value in (None, "reject") else ""
        parts[0] = f"{parts[0]} ({what})" if what else parts[0]
    greater = info.greater_is_better
    if greater is None and "greater_is_better" not in info.stated:
        greater = info.design.get("greater_is_better")
    if greater is not None:
        parts.append("higher is better" if greater else "lower is better")
    if "correction" in info.stated:
        correction = info.correction
        if correction:
            parts.append(f"{correction} correction")
        else:
            parts.append("family-wise p-values" if test == "nemenyi" else "no correction")
    if isinstance(info.rope, tuple):
        low, high = info.rope
        parts.append(f"ROPE [{low:g}, {high:g}]")
    elif info.rope is not None:  # select()'s half-width
        parts.append(f"ROPE {rope_text(info.rope)}")
    if info.alpha is not None:
        parts.append(f"alpha = {info.alpha:g}")
    if info.ci is not None and test in ("summary", "bootstrap", "accuracy_ci"):
        parts.append(f"{info.ci:.0%} interval")
    if test == "ranks":
        kind = "simultaneous" if info.simultaneous in (None, True) else "marginal"
        parts.append(f"{info.coverage or 0.95:.0%} {kind} sets")
        parts.append(f"covariance: {info.covariance}")
        parts.append("highlighted: may be the best")
    return "; ".join(parts)


def _top_rows(frame: pd.DataFrame, top: int | None) -> tuple[pd.DataFrame, str]:
    """The rows (and, for a matrix, columns) of the best ``top`` models, and the note saying so.

    Without ``top`` every row, except a matrix of more than :data:`DEFAULT_TOP`
    models: its best 20 rows and columns (a 60 x 60 matrix is unreadable),
    with the note ("best 20 of 60 models") the caption carries.
    """
    top = check_top(top)
    if top is None and not (is_matrix(frame) and frame.shape[0] > DEFAULT_TOP):
        return frame, ""
    if {"model_1", "model_2"} <= set(frame.columns):
        return top_pairs(frame, top)
    models = [m for m in result_info(frame).models if m in frame.index]
    shown, note = top_models(models or list(frame.index), top)
    if is_matrix(frame):
        return frame.loc[shown, shown], note
    keep = set(shown)
    return frame.loc[[m for m in frame.index if m in keep]], note


def _unique_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame the Styler can style: duplicate row numbers renumbered, other duplicates refused."""
    if not frame.columns.is_unique:
        duplicated = sorted({str(c) for c in frame.columns[frame.columns.duplicated()]})
        msg = (
            f"`style` needs unique column names; {duplicated} appear more than once. "
            "Rename or drop the duplicates."
        )
        raise ValueError(msg)
    if frame.index.is_unique:
        return frame
    if pd.api.types.is_integer_dtype(frame.index) and "model_1" in frame.columns:
        # Row numbers of concatenated tidy results (pd.concat([r1, r2])): renumber.
        return frame.reset_index(drop=True)
    duplicated = sorted({str(i) for i in frame.index[frame.index.duplicated()]})[:5]
    msg = (
        f"`style` needs unique row labels; {duplicated} appear more than once (a "
        "concatenation of results?). Use `pd.concat(..., ignore_index=True)` or "
        "`reset_index()` first."
    )
    raise ValueError(msg)


def style(
    frame: pd.DataFrame,
    *,
    precision: int = 3,
    highlight: str | None = _HIGHLIGHT,
    gradient: bool = False,
    alpha: float | None = None,
    cmap: str = "Greens",
    top: int | None = None,
    caption: str | None = None,
):
    r"""A pandas ``Styler`` of a result frame, for notebooks, HTML and LaTeX.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result frame (or any frame of numbers: a ``matrix``, a scores frame).
    precision : int, default 3
        Decimals of numbers and p-values (p-values below ``10**-precision``
        print as ``<0.001``). Counts and degrees of freedom (``wins``,
        ``losses``, ``ties``, ``df``, ...) print as integers; every column
        has one format.
    highlight : str or None
        CSS of the highlighted rows (rejected hypotheses, decided comparisons,
        the best model of a summary); None highlights nothing.
    gradient : bool, default False
        Shade the probability columns of a Bayesian result (or the p-value
        columns of a test, darker = smaller) with ``background_gradient``.
        Needs matplotlib.
    alpha : float, optional
        Significance level for frames without a ``reject`` column.
    cmap : str, default "Greens"
        Colormap of the gradient.
    top : int, optional
        Show the best ``top`` models only: the comparisons among them (one
        model's comparisons with its best ``top`` opponents), the first
        ``top`` rows of a summary, the first ``top`` rows and columns of a
        matrix. By default every row, except that a matrix of more than 20
        models shows the best 20 (rows and columns); the caption then says
        how many of how many models it shows.
    caption : str, optional
        The table's caption; by default the test, the direction (higher or
        lower is better), the correction and alpha
        (``pdcompare.presentation.styling.caption``); ``""`` for none.

    Returns
    -------
    pandas.io.formats.style.Styler
        Numbers right-aligned, model names left-aligned; a frame whose index is
        just row numbers hides it; a matrix leaves its diagonal blank.
        ``.to_latex()`` writes booktabs rules (``\toprule``, ``\midrule``,
        ``\bottomrule``), bold and the highlight colour (``\cellcolor``), and
        the caption in a ``table`` environment. The LaTeX document needs::

            \usepackage{booktabs}
            \usepackage[table]{xcolor}

        (``xcolor`` for ``\cellcolor``: highlighted rows and gradients; with
        ``highlight=None`` and ``gradient=False``, booktabs alone).

    Raises
    ------
    TypeError
        When ``frame`` is not a DataFrame (a Series, an array, a list).
    ValueError
        When the frame has duplicate column names, or duplicate row labels
        that are not row numbers (those of ``pd.concat([r1, r2])`` are
        renumbered).

    Examples
    --------
    >>> import pandas as pd
    >>> result = pd.DataFrame({"model_1": ["rbf", "rbf"], "model_2": ["linear", "2_poly"],
    ...                        "mean_diff": [0.01, 0.2548], "pvalue": [0.2269, 3e-6],
    ...                        "reject": [False, True]})
    >>> styler = style(result)
    >>> html = styler.to_html()
    >>> "&lt;0.001" in html, "0.227" in html, "0.255" in html
    (True, True, True)
    >>> print(styler.to_latex())  # doctest: +NORMALIZE_WHITESPACE
    \begin{tabular}{llrrr}
    \toprule
    model\_1 & model\_2 & mean\_diff & pvalue & reject \\
    \midrule
    rbf & linear & 0.010 & 0.227 & no \\
    {\cellcolor[HTML]{FFF2B3}} \bfseries rbf & {\cellcolor[HTML]{FFF2B3}} \bfseries 2\_poly &
    {\cellcolor[HTML]{FFF2B3}} \bfseries 0.255 &
    {\cellcolor[HTML]{FFF2B3}} \bfseries \textless{}0.001 &
    {\cellcolor[HTML]{FFF2B3}} \bfseries yes \\
    \bottomrule
    \end{tabular}
    <BLANKLINE>
    """
    if not isinstance(frame, pd.DataFrame):
        kind = type(frame)
        name = f"{kind.__module__}.{kind.__name__}".removeprefix("builtins.")
        fix = " Style `series.to_frame()` instead." if isinstance(frame, pd.Series) else ""
        msg = (
            f"`style` formats a pandas DataFrame (a result frame, a matrix or a scores "
            f"frame); got {name.replace('pandas.core.series.', 'pandas.')}.{fix}"
        )
        raise TypeError(msg)
    precision = check_positive_int("precision", precision, minimum=0)
    if alpha is not None:
        alpha = check_fraction("alpha", alpha)
    if highlight is not None and not isinstance(highlight, str):
        msg = (
            "`highlight` must be a CSS string such as 'font-weight: bold', or None; "
            f"got {highlight!r}."
        )
        raise TypeError(msg)
    if caption is not None and not isinstance(caption, str):
        msg = f"`caption` must be a string or None; got {caption!r}."
        raise TypeError(msg)
    frame, note = _top_rows(_unique_labels(frame), top)
    styler = _result_styler_class()(frame)
    # Kept so that `to_latex` can switch the escaping from HTML to LaTeX.
    styler._pdcompare_formatters = column_formatters(frame, precision)
    # A model does not differ from itself: the diagonal of a matrix is blank.
    styler._pdcompare_blank = list(frame.index) if is_matrix(frame) else []
    styler._escape("html")
    text = _default_caption(frame) if caption is None else caption
    if note and caption is None and top is None:
        # the models left out are said, and how to show them
        text = f"{text}; {note} (top= shows more)" if text else note.capitalize()
    if text:
        styler = styler.set_caption(text)
    numeric = [
        c
        for c in frame.columns
        if c not in NAME_COLUMNS and pd.api.types.is_numeric_dtype(frame[c])
    ]
    text_columns = [c for c in frame.columns if c not in numeric]
    if numeric:
        styler = styler.set_properties(subset=numeric, **{"text-align": "right"})
    if text_columns:
        styler = styler.set_properties(subset=text_columns, **{"text-align": "left"})
    styler = styler.set_table_styles(
        [
            {"selector": "th", "props": "text-align: center; padding: 2px 8px;"},
            {"selector": "td", "props": "padding: 2px 8px;"},
            {"selector": "caption", "props": "caption-side: top; text-align: left;"},
        ]
    )
    if isinstance(frame.index, pd.RangeIndex) or (
        "model_1" in frame.columns and pd.api.types.is_integer_dtype(frame.index)
    ):
        # Row numbers of a tidy result carry no information; the model names are columns.
        styler = styler.hide(axis="index")
    if gradient:
        styler = _gradient(styler, frame, cmap)
    if highlight:
        mask = highlighted_rows(frame, alpha)
        # Only the LaTeX-convertible part of the CSS (bold) shows in `.to_latex()`;
        # colours need `to_latex(convert_css=True)`.
        styler = styler.apply(_row_css, axis=None, mask=mask, css=highlight)
    if is_matrix(frame):
        styler = _matrix_cells(styler, frame, alpha, highlight)
    return styler


#: Beyond this many columns a matrix is set compactly (20 models fit 1,200 pixels).
_COMPACT_COLUMNS = 10


def _matrix_cells(styler: Any, frame: pd.DataFrame, alpha: float | None, highlight: Any):
    """A model x model matrix: its significant p-values highlighted, set compactly when wide."""
    info = result_info(frame)
    if highlight and info.value in PVALUE_COLUMNS:
        level = info.level_alpha if alpha is None else alpha
        values = frame.to_numpy(dtype=float, na_value=np.nan)
        with np.errstate(invalid="ignore"):
            cells = np.where(values <= level, highlight, "")
        styler = styler.apply(
            lambda data: pd.DataFrame(cells, index=data.index, columns=data.columns), axis=None
        )
    if frame.shape[1] > _COMPACT_COLUMNS:
        compact = "padding: 1px 3px; font-size: 0.85em;"
        styler = styler.set_table_styles(
            [{"selector": "th", "props": compact}, {"selector": "td", "props": compact}],
            overwrite=False,
        )
    return styler


_default_caption = caption


def _result_styler_class():
    """``Styler`` whose ``to_latex`` converts the CSS (bold, cell colour) by default.

    Built on first use so that ``import pdcompare`` does not import jinja2.
    """
    global _RESULT_STYLER
    if _RESULT_STYLER is None:
        from pandas.io.formats.style import Styler

        class ResultStyler(Styler):
            """A pandas ``Styler``; ``to_latex`` defaults to ``convert_css=True``."""

            def to_latex(
                self,
                buf=None,
                *,
                convert_css: bool = True,
                hrules: bool = True,
                **kwargs: Any,
            ):
                r"""LaTeX of the table; highlighted rows become ``\bfseries`` and ``\cellcolor``.

                Same as :meth:`pandas.io.formats.style.Styler.to_latex` except that
                ``convert_css`` defaults to True (the cell colour needs
                ``\usepackage[table]{xcolor}`` in the document), ``hrules``
                defaults to True (booktabs rules: ``\usepackage{booktabs}``), and
                cells, labels and the caption are LaTeX-escaped (``model\_1``)
                rather than HTML-escaped.
                """
                formatters = getattr(self, "_pdcompare_formatters", None)
                if formatters is None:
                    return super().to_latex(buf, convert_css=convert_css, hrules=hrules, **kwargs)
                # The HTML table styles (padding, header alignment) would be read as
                # LaTeX commands: leave them out of the LaTeX.
                table_styles, self.table_styles = self.table_styles, None
                caption = self.caption
                if isinstance(caption, str):
                    self.caption = _escape_text(caption, "latex")
                self._escape("latex")
                try:
                    return super().to_latex(buf, convert_css=convert_css, hrules=hrules, **kwargs)
                finally:
                    self._escape("html")
                    self.table_styles = table_styles
                    self.caption = caption

            def _escape(self, escape: str) -> None:
                self.format(_escaped(self._pdcompare_formatters, escape))
                for label in getattr(self, "_pdcompare_blank", []):
                    self.format(lambda _v: "", subset=([label], [label]))
                self.format_index(escape=escape, axis=0)
                self.format_index(escape=escape, axis=1)

        _RESULT_STYLER = ResultStyler
    return _RESULT_STYLER


_RESULT_STYLER = None

_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


def _escape_text(text: str, escape: str) -> str:
    if escape == "html":
        import html

        return html.escape(text, quote=True)
    return "".join(_LATEX_ESCAPES.get(char, char) for char in text)


def _escaped(formatters: dict[Any, Callable], escape: str) -> dict[Any, Callable]:
    """The formatters with their text escaped for HTML or LaTeX (``<0.001`` is ``&lt;0.001``)."""
    return {
        column: (lambda v, f=function: _escape_text(f(v), escape))
        for column, function in formatters.items()
    }


def _gradient(styler, frame: pd.DataFrame, cmap: str):
    probabilities = [c for c in PROBABILITY_COLUMNS if c in frame.columns]
    if probabilities:
        return styler.background_gradient(cmap=cmap, subset=probabilities, vmin=0.0, vmax=1.0)
    pvalues = [c for c in PVALUE_COLUMNS if c in frame.columns]
    if pvalues:
        # Small p-values dark: the gradient runs on the reversed colormap.
        reverse = cmap[:-2] if cmap.endswith("_r") else f"{cmap}_r"
        return styler.background_gradient(cmap=reverse, subset=pvalues, vmin=0.0, vmax=1.0)
    numeric = frame.select_dtypes("number").columns
    return styler.background_gradient(cmap=cmap, subset=list(numeric))


def _row_css(data: pd.DataFrame, mask: np.ndarray, css: str) -> pd.DataFrame:
    """CSS per cell: ``css`` on every cell of the rows in ``mask``."""
    values = np.where(mask[:, None], css, "")
    values = np.broadcast_to(values, data.shape)
    return pd.DataFrame(values, index=data.index, columns=data.columns)
