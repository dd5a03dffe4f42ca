"""The words and number formats that every output shares: test names, p-values, lists of names.

The presentation modules (``styling.py``, ``plotting/``, ``report.py``,
``cli.py``) sit above this module and never import each other for a word or a
format: a p-value reads the same in a table, a picture and a sentence because
all of them format it here. The tests' names come from the registry of tests
(``compare/registry.py``); nothing here imports pandas or matplotlib.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import numbers
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pdcompare.compare import registry

if TYPE_CHECKING:
    from pdcompare.results import ResultInfo

#: Each test's name in captions and legends (the registry's labels).
TEST_LABELS = registry.labels()

#: Each test's name in the report's sentences, when its unit is the split.
REPORT_TEST_NAMES = registry.report_words(across_datasets=False)

#: ... and when its unit is the data set.
BENCHMARK_REPORT_TEST_NAMES = registry.report_words(across_datasets=True)


@dataclass(frozen=True)
class Spelling:
    """How an output names what its reader can pass: keywords of a call, or command-line options.

    The report is read both in Python (``report()``) and on the command line
    (``pdcompare FILE``); the few sentences that tell the reader what to pass
    ask the current spelling (:func:`spelling`) for its words, so that neither
    rewrites the other's sentences.

    Examples
    --------
    >>> PYTHON.design_source("cv=10"), COMMAND_LINE.design_source("cv=10")
    ('cv=10', '--cv 10')
    >>> COMMAND_LINE.design_source("cv=KFold(n_splits=5)"), COMMAND_LINE.test_call("nemenyi")
    ('KFold(n_splits=5)', '--test nemenyi')
    """

    command_line: bool = False

    def design_keywords(self) -> str:
        """The keywords (or options) that give the CV design."""
        if self.command_line:
            return "--cv or --test-size"
        return "cv=, test_size=, or n_train= with n_test="

    def design_source(self, source: Any) -> str:
        """Where the design came from: ``cv=10`` in a call is ``--cv 10`` on the command line."""
        text = str(source)
        if not self.command_line:
            return text
        for keyword, option in (("cv=", "--cv "), ("test_size=", "--test-size ")):
            if text.startswith(keyword):
                value = text[len(keyword) :]
                # A splitter's repr (cv=KFold(...)) is named as it is: no option gives it.
                return value if value[:1].isalpha() else option + value
        return text

    def keyword(self, name: str) -> str:
        """A keyword of a call (``block_size``), or the option that gives it (``--block-size``).

        Examples
        --------
        >>> PYTHON.keyword("block_size"), COMMAND_LINE.keyword("block_size")
        ('block_size', '--block-size')
        """
        return "--" + name.replace("_", "-") if self.command_line else name

    def test_name(self, test: str) -> str:
        """A test the reader can run: ```corrected_ttest``` or ``--test corrected_ttest``."""
        return f"--test {test}" if self.command_line else f"`{test}`"

    def test_call(self, test: str) -> str:
        """Every pair with a test: ```pairwise(test='nemenyi')``` or ``--test nemenyi``."""
        return f"--test {test}" if self.command_line else f"`pairwise(test={test!r})`"

    def list_all(self, call: str) -> str:
        """How to list every pair a report leaves out."""
        return "--top 0 lists them all" if self.command_line else f"{call} gives them all"

    def missing_scores(self) -> str:
        """What to do about missing scores."""
        if self.command_line:
            return "fill in or remove them in the file"
        return "see the warning, or pass nan_policy='omit'"


#: The words of a call (``report()``) and of the command line (``pdcompare FILE``).
PYTHON = Spelling()
COMMAND_LINE = Spelling(command_line=True)

_SPELLING: contextvars.ContextVar[Spelling] = contextvars.ContextVar("spelling", default=PYTHON)


def spelling() -> Spelling:
    """The spelling of the output being written: a call's, unless :func:`spoken` says."""
    return _SPELLING.get()


@contextlib.contextmanager
def spoken(how: Spelling) -> Iterator[None]:
    """Write the outputs inside the block in the words of ``how``."""
    token = _SPELLING.set(how)
    try:
        yield
    finally:
        _SPELLING.reset(token)


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


def format_significant(value: Any, digits: int = 3) -> str:
    """``value`` with ``digits`` significant digits in fixed notation, trailing zeros kept.

    The report's rule for estimated sizes ("could detect about ..."): every
    number of that kind in one report shows the same number of significant
    digits, never in scientific notation (which would stand beside the fixed
    decimals of the differences), and keeps its trailing zeros so that 0.120
    and 0.0670 read at the same precision as 0.0621. Digits left of the
    decimal point are never rounded away (1453 stays 1453).

    Examples
    --------
    >>> format_significant(0.12), format_significant(0.067), format_significant(0.06213)
    ('0.120', '0.0670', '0.0621')
    >>> format_significant(1453.2), format_significant(12.345), format_significant(float("nan"))
    ('1453', '12.3', 'nan')
    """
    if is_missing(value):
        return "nan"
    value = float(value)
    if not math.isfinite(value) or value == 0.0:
        return f"{value:.{max(digits - 1, 0)}f}" if value == 0.0 else str(value)
    # The decimals that leave `digits` significant ones, after rounding (0.0999 -> 0.100).
    decimals = max(digits - 1 - math.floor(math.log10(abs(value))), 0)
    rounded = round(value, decimals)
    if rounded != 0.0 and math.floor(math.log10(abs(rounded))) > math.floor(
        math.log10(abs(value))
    ):
        decimals = max(decimals - 1, 0)
    return f"{value:.{decimals}f}"


def format_effect(value: Any, cuts: Iterable[float], digits: int = 2, center: float = 0.0) -> str:
    """An effect size with ``digits`` decimals, or more where rounding would cross a cut point.

    A magnitude word ("medium") is decided on the unrounded value; the value
    shown beside it must not read as reaching a cut point it is below (0.797
    shown as 0.80 beside a cut point at 0.8), nor fall below one it reaches
    (0.4740 as 0.47 beside 0.474): decimals are added until the shown value
    falls in the same magnitude as the unrounded one. ``center`` is 0.5 for
    the probabilities, whose magnitude is that of ``|A - 1/2|``.

    Examples
    --------
    >>> format_effect(0.7968, (0.2, 0.5, 0.8)), format_effect(0.81, (0.2, 0.5, 0.8))
    ('0.797', '0.81')
    >>> format_effect(-0.4999, (0.2, 0.5, 0.8)), format_effect(0.4741, (0.147, 0.33, 0.474))
    ('-0.4999', '0.474')
    """
    if is_missing(value):
        return "nan"
    value = float(value)
    bounds = sorted(float(cut) for cut in cuts)

    def level(x: float) -> int:
        # The same few ulps of tolerance as stats.effect_size.magnitude.
        size = abs(x - center)
        return sum(size >= cut * (1.0 - 8 * 2.0**-52) for cut in bounds)

    if not math.isfinite(value):
        return f"{value:.{digits}f}"
    for decimals in range(digits, digits + 6):
        if level(float(f"{value:.{decimals}f}")) == level(value):
            return f"{value:.{decimals}f}"
    return f"{value:.{digits + 6}f}"


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


def listed_name(name: Any) -> str:
    """A model name as it appears in a list of names: in single quotes when it contains ", ".

    Examples
    --------
    >>> listed_name("svc(C=1, gamma=0.1)"), listed_name("tree")
    ("'svc(C=1, gamma=0.1)'", 'tree')
    """
    text = str(name)
    return f"'{text}'" if ", " in text else text


def join_names(names: Iterable[Any], sentence: bool = False) -> str:
    """Model names as one list, separated by "; "; a name containing ", " in single quotes.

    With ``sentence=True`` the list reads as part of a sentence, "and" before
    the last name: "a, b and c"; a name with ", " is quoted
    (:func:`listed_name`) so that the names can still be told apart.

    Examples
    --------
    >>> join_names(["svc(C=1, gamma=0.1)", "tree"])
    "'svc(C=1, gamma=0.1)'; tree"
    >>> join_names(["rbf", "linear", "tree"], sentence=True)
    'rbf, linear and tree'
    >>> join_names(["svc(C=1, gamma=0.1)", "tree"], sentence=True)
    "'svc(C=1, gamma=0.1)' and tree"
    """
    names = [listed_name(name) for name in names]
    if not sentence or len(names) < 2:
        return "; ".join(names)
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def plural(count: int, one: str, many: str) -> str:
    """``1 pair`` or ``3 pairs``.

    Examples
    --------
    >>> plural(1, "pair", "pairs"), plural(3, "pair", "pairs")
    ('1 pair', '3 pairs')
    """
    return f"{count} {one if count == 1 else many}"


def score_noun(info: ResultInfo, default: str = "mean score") -> str:
    """What a model's number is: "pass@5" on a pass@k items frame, else ``default``.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> score_noun(info_from_meta({"estimand_label": "pass@5"})), score_noun(info_from_meta({}))
    ('pass@5', 'mean score')
    """
    return info.get("estimand_label") or default


def attempts_phrase(info: ResultInfo, items_text: str) -> str:
    """``items_text`` with the estimand and attempts of a pass@k (pass^k) items frame.

    "pass@5 over 500 tasks, 16 attempts each" (DESIGN section 33); the
    text unchanged on frames of mean scores.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> info = info_from_meta({"estimand_label": "pass@5", "attempts_range": [16, 16]})
    >>> attempts_phrase(info, "500 tasks")
    'pass@5 over 500 tasks, 16 attempts each'
    >>> attempts_phrase(info_from_meta({"estimand_label": "pass^2", "attempts_range": [4, 8]}),
    ...                 "30 items")
    'pass^2 over 30 items, 4 to 8 attempts each'
    """
    label = info.get("estimand_label")
    if not label:
        return items_text
    each = attempts_each(info)
    return f"{label} over {items_text}" + (f", {each}" if each else "")


def attempts_each(info: ResultInfo) -> str:
    """"16 attempts each" (or "4 to 8 attempts each") on a pass@k items frame, else ""."""
    low, high = info.get("attempts_range") or (None, None)
    if low is None:
        return ""
    return f"{low} attempts each" if low == high else f"{low} to {high} attempts each"


def method_label(info: ResultInfo, capital: bool = False) -> str:
    """The name of the test that made a result, from its metadata.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> method_label(info_from_meta({"test": "corrected_ttest"}), capital=True)
    'Corrected t-test (Nadeau–Bengio)'
    """
    label = TEST_LABELS.get(info.test, str(info.test))
    if info.unit in ("item", "cluster means") and info.test == "ttest":
        # An items frame: paired over questions, not a t-test uncorrected for CV.
        label = "paired t-test over items" + (", clustered" if info.clustered else "")
    return label[:1].upper() + label[1:] if capital else label


def value_label(value: str, info: ResultInfo) -> str:
    """The name of a result column in a colour bar or an axis label.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> holm = info_from_meta({"correction": "holm"})
    >>> value_label("pvalue_adj", holm), value_label("mean_diff", info_from_meta({}))
    ('p-value, holm-adjusted', 'mean diff')
    """
    if value == "pvalue_adj":
        correction = info.correction
        return f"p-value, {correction}-adjusted" if correction else "p-value (no correction)"
    return value.replace("_", " ")


def alpha_label(info: ResultInfo) -> str:
    """``alpha = 0.05`` (or ``alpha`` when the result has none).

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> alpha_label(info_from_meta({"alpha": 0.05}))
    'alpha = 0.05'
    """
    return f"alpha = {info.alpha:g}" if info.alpha is not None else "alpha"


def agreement_words(info: ResultInfo) -> str:
    """What a ``judge_agreement`` result compared, and α over the human and all its judges.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> print(agreement_words(info_from_meta({
    ...     "test": "judge_agreement", "human": "human", "n_items": 120, "ci": 0.95,
    ...     "level": "nominal", "n_raters": 3, "alpha_all": 0.71, "alpha_all_low": 0.6,
    ...     "alpha_all_high": 0.8, "effective_judges": 1.4})))
    Agreement of each judge with 120 human labels ('human'); 95% bootstrap intervals over the
    labelled rows; Krippendorff's α (nominal) of the human and all 2 judges 0.710 [0.600,
    0.800]; the 2 judges' errors are worth 1.4 independent judges
    """
    clusters = info.n_clusters
    over = f"{clusters} clusters resampled whole" if clusters else "the labelled rows"
    judges = int(info.get("n_raters", 2)) - 1
    parts = [
        f"Agreement of each judge with {info.n_items} human labels "
        f"({info.get('human', 'human')!r})",
        f"{float(info.ci or 0.95):.0%} bootstrap intervals over {over}",
    ]
    alpha = info.get("alpha_all")
    if judges > 1 and alpha is not None:
        low, high = info.get("alpha_all_low"), info.get("alpha_all_high")
        interval = "" if low is None else f" [{low:.3f}, {high:.3f}]"
        parts.append(
            f"Krippendorff's α ({info.get('level', 'nominal')}) of the human and all {judges} "
            f"judges {alpha:.3f}{interval}"
        )
    effective = info.get("effective_judges")
    if effective is not None:
        parts.append(f"the {judges} judges' errors are worth {effective:.1f} independent judges")
    return "; ".join(parts)
