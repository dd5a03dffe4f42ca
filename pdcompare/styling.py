"""Styled result frames: readable numbers and highlighted conclusions, with pandas' Styler.

``result.cmp.style()`` turns any pdcompare result frame (a test's tidy table,
a ``summary``, a ``matrix``) into a :class:`pandas.io.formats.style.Styler`
built only with the Styler's own machinery (``format``, ``apply``,
``set_properties``, ``set_table_styles``, ``background_gradient``), so it
renders in Jupyter and exports with ``.to_html()`` and ``.to_latex()``.

The text formatting lives in plain functions (:func:`column_formatters`,
:func:`format_pvalue`) that the command line reuses for its tables.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_fraction, check_positive_int
from pdcompare.inputs.attrs import pdcompare_attrs

#: Columns that hold p-values: tiny values print as ``<0.001``.
PVALUE_COLUMNS = ("pvalue", "pvalue_adj")
#: Columns that hold posterior probabilities.
PROBABILITY_COLUMNS = ("prob_better", "prob_rope", "prob_worse")
#: Columns that hold model names (left-aligned, never formatted as numbers).
NAME_COLUMNS = ("model_1", "model_2", "decision")

_HIGHLIGHT = "background-color: #fff2b3; font-weight: bold"
_RIGHT = "text-align: right"


def _is_missing(value: Any) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _is_true(values: pd.Series) -> np.ndarray:
    """True where ``values`` is True; missing (NaN, NA) counts as False.

    ``eq`` rather than ``fillna``: no object-dtype downcasting (deprecated in pandas 2.2).
    """
    return values.eq(True).to_numpy(dtype=bool, na_value=False)


def format_pvalue(value: Any, precision: int = 3) -> str:
    """A p-value as text: ``precision`` decimals, ``<0.001`` below the last decimal.

    Parameters
    ----------
    value : float
        The p-value (NaN prints as ``nan``).
    precision : int, default 3
        Number of decimals.

    Returns
    -------
    str
        The formatted p-value.

    Examples
    --------
    >>> format_pvalue(0.04567), format_pvalue(2e-8), format_pvalue(0.0), format_pvalue(1.0)
    ('0.046', '<0.001', '<0.001', '1.000')
    >>> format_pvalue(0.00042, precision=4)
    '0.0004'
    """
    if _is_missing(value):
        return "nan"
    value = float(value)
    floor = 10.0**-precision
    # Anything that would round to 0.000 reads as "zero", which a p-value never is.
    if value < floor / 2:
        return f"<{floor:.{precision}f}"
    return f"{value:.{precision}f}"


def _format_number(value: Any, precision: int) -> str:
    if _is_missing(value):
        return "nan"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if value.is_integer() and abs(value) < 1e15:
            # Degrees of freedom, counts: 99.0 reads better as 99.
            return f"{value:.0f}"
        return f"{value:.{precision}f}"
    return str(value)


def column_formatters(frame: pd.DataFrame, precision: int = 3) -> dict[Any, Callable]:
    """One text formatter per column of a result frame.

    p-values get :func:`format_pvalue`, booleans (``reject``) print as
    ``yes``/``no``, other numbers with ``precision`` decimals (whole numbers
    such as degrees of freedom without decimals), names unchanged.

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
    """
    precision = check_positive_int("precision", precision, minimum=0)
    formatters: dict[Any, Callable] = {}
    for column in frame.columns:
        if column in PVALUE_COLUMNS:
            formatters[column] = lambda v, p=precision: format_pvalue(v, p)
        elif column in NAME_COLUMNS or not (
            pd.api.types.is_numeric_dtype(frame[column])
            or pd.api.types.is_bool_dtype(frame[column])
        ):
            formatters[column] = lambda v: "nan" if _is_missing(v) else str(v)
        else:
            formatters[column] = lambda v, p=precision: _format_number(v, p)
    return formatters


def highlighted_rows(frame: pd.DataFrame, alpha: float | None = None) -> np.ndarray:
    """Which rows state a conclusion: a rejected hypothesis, a decision, the best model.

    - a ``reject`` column: the rows where it is True;
    - a ``decision`` column (bayes): the rows decided, that is not ``"undecided"``;
    - a ``pvalue_adj`` or ``pvalue`` column without ``reject`` (cochrans_q):
      the rows at or below ``alpha`` (from the call, else the result's
      metadata, else 0.05);
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
    if "decision" in frame.columns:
        return (frame["decision"].astype(str) != "undecided").to_numpy()
    for column in ("pvalue_adj", "pvalue"):
        if column in frame.columns:
            if alpha is None:
                alpha = pdcompare_attrs(frame).get("alpha", 0.05)
            pvalues = frame[column].to_numpy(dtype=float, na_value=np.nan)
            with np.errstate(invalid="ignore"):
                return pvalues <= alpha
    if "rank" in frame.columns:
        return (frame["rank"] == frame["rank"].min()).to_numpy()
    return np.zeros(len(frame), dtype=bool)


def style(
    frame: pd.DataFrame,
    *,
    precision: int = 3,
    highlight: str | None = _HIGHLIGHT,
    gradient: bool = False,
    alpha: float | None = None,
    cmap: str = "Greens",
):
    r"""A pandas ``Styler`` of a result frame, for notebooks, HTML and LaTeX.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result frame (or any frame of numbers: a ``matrix``, a scores frame).
    precision : int, default 3
        Decimals of numbers and p-values (p-values below ``10**-precision``
        print as ``<0.001``).
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

    Returns
    -------
    pandas.io.formats.style.Styler
        Numbers right-aligned, model names left-aligned; a frame whose index is
        just row numbers hides it.

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
    model\_1 & model\_2 & mean\_diff & pvalue & reject \\
    rbf & linear & 0.010 & 0.227 & no \\
    {\cellcolor[HTML]{FFF2B3}} \bfseries rbf & {\cellcolor[HTML]{FFF2B3}} \bfseries 2\_poly &
    {\cellcolor[HTML]{FFF2B3}} \bfseries 0.255 &
    {\cellcolor[HTML]{FFF2B3}} \bfseries \textless{}0.001 &
    {\cellcolor[HTML]{FFF2B3}} \bfseries yes \\
    \end{tabular}
    <BLANKLINE>
    """
    precision = check_positive_int("precision", precision, minimum=0)
    if alpha is not None:
        alpha = check_fraction("alpha", alpha)
    if highlight is not None and not isinstance(highlight, str):
        msg = (
            "`highlight` must be a CSS string such as 'font-weight: bold', or None; "
            f"got {highlight!r}."
        )
        raise TypeError(msg)
    styler = _result_styler_class()(frame)
    # Kept so that `to_latex` can switch the escaping from HTML to LaTeX.
    styler._pdcompare_formatters = column_formatters(frame, precision)
    styler._escape("html")
    numeric = [
        c
        for c in frame.columns
        if c not in NAME_COLUMNS and pd.api.types.is_numeric_dtype(frame[c])
    ]
    text = [c for c in frame.columns if c not in numeric]
    if numeric:
        styler = styler.set_properties(subset=numeric, **{"text-align": "right"})
    if text:
        styler = styler.set_properties(subset=text, **{"text-align": "left"})
    styler = styler.set_table_styles(
        [
            {"selector": "th", "props": "text-align: center; padding: 2px 8px;"},
            {"selector": "td", "props": "padding: 2px 8px;"},
        ]
    )
    if isinstance(frame.index, pd.RangeIndex):
        # Row numbers of a tidy result carry no information; the model names are columns.
        styler = styler.hide(axis="index")
    if gradient:
        styler = _gradient(styler, frame, cmap)
    if highlight:
        mask = highlighted_rows(frame, alpha)
        # Only the LaTeX-convertible part of the CSS (bold) shows in `.to_latex()`;
        # colours need `to_latex(convert_css=True)`.
        styler = styler.apply(_row_css, axis=None, mask=mask, css=highlight)
    return styler


def _result_styler_class():
    """``Styler`` whose ``to_latex`` converts the CSS (bold, cell colour) by default.

    Built on first use so that ``import pdcompare`` does not import jinja2.
    """
    global _RESULT_STYLER
    if _RESULT_STYLER is None:
        from pandas.io.formats.style import Styler

        class ResultStyler(Styler):
            """A pandas ``Styler``; ``to_latex`` defaults to ``convert_css=True``."""

            def to_latex(self, buf=None, *, convert_css: bool = True, **kwargs: Any):
                r"""LaTeX of the table; highlighted rows become ``\bfseries`` and ``\cellcolor``.

                Same as :meth:`pandas.io.formats.style.Styler.to_latex` except that
                ``convert_css`` defaults to True (the cell colour needs
                ``\usepackage[table]{xcolor}`` in the document) and that cells and
                labels are LaTeX-escaped (``model\_1``) rather than HTML-escaped.
                """
                formatters = getattr(self, "_pdcompare_formatters", None)
                if formatters is None:
                    return super().to_latex(buf, convert_css=convert_css, **kwargs)
                # The HTML table styles (padding, header alignment) would be read as
                # LaTeX commands: leave them out of the LaTeX.
                table_styles, self.table_styles = self.table_styles, None
                self._escape("latex")
                try:
                    return super().to_latex(buf, convert_css=convert_css, **kwargs)
                finally:
                    self._escape("html")
                    self.table_styles = table_styles

            def _escape(self, escape: str) -> None:
                self.format(_escaped(self._pdcompare_formatters, escape))
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
