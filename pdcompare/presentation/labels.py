"""The words and number formats that every output shares: test names, p-values, lists of names.

The presentation modules (``styling.py``, ``plotting/``, ``report.py``,
``cli.py``) sit above this module and never import each other for a word or a
format: a p-value reads the same in a table, a picture and a sentence because
all of them format it here. Nothing here imports pandas, matplotlib or any
other pdcompare module.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping
from typing import Any

#: Each test's name in captions and legends.
TEST_LABELS = {
    "corrected_ttest": "corrected t-test (Nadeau–Bengio)",
    "ttest": "paired t-test (uncorrected)",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign_test": "sign test",
    "ttest_5x2cv": "5x2cv paired t-test",
    "ftest_5x2cv": "5x2cv combined F-test",
    "mcnemar": "McNemar's test",
    "proportions_ztest": "two-proportion z-test",
    "bootstrap_diff": "paired bootstrap",
    "bayes": "Bayesian correlated t-test",
    "nemenyi": "Nemenyi test",
    "conover": "Conover test",
    "welch_ttest": "Welch's t-test",
    "mannwhitney": "Mann–Whitney U test",
    "aso": "almost stochastic order",
    "equivalence": "equivalence test (TOST)",
    "effect_size": "effect size",
    "delong": "DeLong test",
    "auc_ci": "ROC AUC interval (DeLong)",
    "permutation_test": "paired permutation test",
    "diebold_mariano": "Diebold–Mariano test",
    "confidence_set": "model confidence set",
    "hierarchical": "hierarchical Bayesian correlated t-test",
    "power": "power of the corrected t-test",
    "mcm": "Multiple Comparison Matrix",
}

#: Each test's name in the report's sentences, when its unit is the split.
REPORT_TEST_NAMES = {
    "corrected_ttest": "Nadeau–Bengio corrected resampled t-test",
    "ttest": "plain paired t-test, uncorrected for CV",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign_test": "sign test",
    "nemenyi": "Nemenyi test of mean ranks",
    "conover": "Conover test of mean ranks",
    "welch_ttest": "Welch's unequal-variance t-test of independent runs",
    "mannwhitney": "Mann–Whitney U test of independent runs",
}

#: ... and when its unit is the data set.
BENCHMARK_REPORT_TEST_NAMES = {
    **REPORT_TEST_NAMES,
    "ttest": "paired t-test across data sets",
    "wilcoxon": "Wilcoxon signed-rank test across data sets",
    "sign_test": "sign test across data sets",
}


def is_missing(value: Any) -> bool:
    """Whether ``value`` is None, NaN or pandas' NA."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return True
    # pandas.NA without importing pandas: its type is named NAType.
    return type(value).__name__ == "NAType"


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
    if is_missing(value):
        return "nan"
    value = float(value)
    floor = 10.0**-precision
    # Anything that would round to 0.000 reads as "zero", which a p-value never is.
    if value < floor / 2:
        return f"<{floor:.{precision}f}"
    return f"{value:.{precision}f}"


def p_equals(value: float) -> str:
    """``= 0.455`` or ``< 0.001``, to follow "p" (or any name of a p-value).

    Examples
    --------
    >>> "p " + p_equals(0.4551), "p " + p_equals(1e-9)
    ('p = 0.455', 'p < 0.001')
    """
    text = format_pvalue(value, 3)
    return f"< {text[1:]}" if text.startswith("<") else f"= {text}"


def p_text(name: str, value: float) -> str:
    """``p_adj = 0.455`` or ``p_adj < 0.001``.

    Examples
    --------
    >>> p_text("p_adj", 0.0001)
    'p_adj < 0.001'
    """
    return f"{name} {p_equals(value)}"


def format_number(value: Any, digits: int = 4) -> str:
    """``value`` with ``digits`` decimals; ``nan`` when missing.

    Examples
    --------
    >>> format_number(0.94), format_number(float("nan"))
    ('0.9400', 'nan')
    """
    if is_missing(value):
        return "nan"
    return f"{value:.{digits}f}"


def format_signed(value: float, digits: int = 4) -> str:
    """``value`` with its sign and ``digits`` decimals; ``nan`` when missing.

    Examples
    --------
    >>> format_signed(0.01), format_signed(-0.25, 2)
    ('+0.0100', '-0.25')
    """
    if is_missing(value):
        return "nan"
    return f"{value:+.{digits}f}"


def rope_text(rope: Any) -> str:
    """A region of practical equivalence: ``±0.01``, or ``[-0.01, 0.02]`` when asymmetric.

    Examples
    --------
    >>> rope_text(0.01), rope_text((-0.01, 0.01)), rope_text((-0.01, 0.02))
    ('±0.01', '±0.01', '[-0.01, 0.02]')
    """
    if isinstance(rope, numbers.Real):
        return f"±{float(rope):g}"
    low, high = (float(x) for x in rope)
    if low == -high:
        return f"±{high:g}"
    return f"[{low:g}, {high:g}]"


def join_names(names: Iterable[Any], sentence: bool = False) -> str:
    """Model names as one list, separated by "; " so that names with commas stay readable.

    With ``sentence=True`` the list reads as part of a sentence, "and" before
    the last name: "a, b and c", or "a, x; b; and c" when a name has a comma
    (so that the names can still be told apart).

    Examples
    --------
    >>> join_names(["svc(C=1, gamma=0.1)", "tree"])
    'svc(C=1, gamma=0.1); tree'
    >>> join_names(["rbf", "linear", "tree"], sentence=True)
    'rbf, linear and tree'
    >>> join_names(["svc(C=1, gamma=0.1)", "tree"], sentence=True)
    'svc(C=1, gamma=0.1); and tree'
    """
    names = [str(name) for name in names]
    if not sentence or len(names) < 2:
        return "; ".join(names)
    if any("," in name for name in names):
        return "; ".join(names[:-1]) + f"; and {names[-1]}"
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def plural(count: int, one: str, many: str) -> str:
    """``1 pair`` or ``3 pairs``.

    Examples
    --------
    >>> plural(1, "pair", "pairs"), plural(3, "pair", "pairs")
    ('1 pair', '3 pairs')
    """
    return f"{count} {one if count == 1 else many}"


def method_label(meta: Mapping[str, Any], capital: bool = False) -> str:
    """The name of the test that made a result, from its metadata.

    Examples
    --------
    >>> method_label({"test": "corrected_ttest"}, capital=True)
    'Corrected t-test (Nadeau–Bengio)'
    """
    label = TEST_LABELS.get(meta.get("test"), str(meta.get("test")))
    return label[:1].upper() + label[1:] if capital else label


def value_label(value: str, meta: Mapping[str, Any]) -> str:
    """The name of a result column in a colour bar or an axis label.

    Examples
    --------
    >>> value_label("pvalue_adj", {"correction": "holm"}), value_label("mean_diff", {})
    ('p-value, holm-adjusted', 'mean diff')
    """
    if value == "pvalue_adj":
        correction = meta.get("correction")
        return f"p-value, {correction}-adjusted" if correction else "p-value (no correction)"
    return value.replace("_", " ")


def alpha_label(meta: Mapping[str, Any]) -> str:
    """``alpha = 0.05`` (or ``alpha`` when the result has none).

    Examples
    --------
    >>> alpha_label({"alpha": 0.05})
    'alpha = 0.05'
    """
    alpha = meta.get("alpha")
    return f"alpha = {alpha:g}" if alpha is not None else "alpha"
