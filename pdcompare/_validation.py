"""Argument checks shared by the accessor, the input adapters and the CLI.

Messages name the parameter in backticks, state the rule and echo the value,
as scipy and seaborn do. ``ValueError`` for bad values, ``TypeError`` for bad
types; never ``assert``.
"""

from __future__ import annotations

import contextlib
import difflib
import inspect
import numbers
import os
import sys
import warnings
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class PdcompareWarning(UserWarning):
    """Warning issued by pdcompare about the data (degenerate or missing scores).

    Like ``OptionError``, a warning about one keyword carries it as data:
    ``keyword`` names it and ``cli_message``, when set, is the same warning in
    the words of the command line (which has options, not keywords).
    """

    keyword: str | None = None
    cli_message: str | None = None


class OptionError(ValueError):
    """A ``ValueError`` about one keyword of a call, which it carries as data.

    ``keyword`` names the keyword at fault (``"cv"``, ``"test"``), so that the
    command line names its own option (``--cv``, ``--test``) by this field;
    ``cli_message``, when the advice differs on the command line (options it
    has instead of keywords, advice it cannot follow), is the message in its
    words, written where the error is raised: nothing rewrites sentences.

    Examples
    --------
    >>> error = OptionError("`alpha` must be below 0.5; got 0.6.", keyword="alpha")
    >>> error.keyword, isinstance(error, ValueError), error.cli_message
    ('alpha', True, None)
    """

    def __init__(
        self, message: str, *, keyword: str | None = None, cli_message: str | None = None
    ) -> None:
        super().__init__(message)
        self.keyword = keyword
        self.cli_message = cli_message


def _caller_stacklevel() -> int:
    """Return the stacklevel of the first frame outside the pdcompare package."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and (
        os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR)
        or frame.f_code.co_filename == contextlib.__file__  # warnings_once's `with`
    ):
        frame = frame.f_back
        level += 1
    return level


def warn(
    message: str,
    category: type[Warning] = PdcompareWarning,
    *,
    keyword: str | None = None,
    cli_message: str | None = None,
) -> None:
    """Warn, pointing at the user's code rather than at pdcompare's internals.

    ``keyword`` and ``cli_message`` (see :class:`PdcompareWarning`) travel with
    the warning, for the command line.
    """
    warning = category(message)
    if keyword is not None or cli_message is not None:
        warning.keyword, warning.cli_message = keyword, cli_message
    # `_caller_stacklevel` counts from `warn` itself, which is inside the package.
    warnings.warn(warning, stacklevel=_caller_stacklevel())


@contextlib.contextmanager
def warnings_once() -> Iterator[None]:
    """Collect the warnings of several calls and issue each distinct one once.

    A report or a command that runs several tests on one frame would otherwise
    say the same thing about the frame (its missing scores, say) once per test.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    distinct = {(w.category, str(w.message)): w.message for w in caught}
    for warning in distinct.values():
        warnings.warn(warning, stacklevel=_caller_stacklevel())


def _format_options(options: Iterable[Any]) -> str:
    return ", ".join(repr(option) for option in options)


def check_option(name: str, value: Any, options: Sequence[Any]) -> Any:
    """Return ``value`` if it is one of ``options``, else raise a ValueError naming them.

    Examples
    --------
    >>> check_option("alternative", "less", ("two-sided", "less", "greater"))
    'less'
    """
    if isinstance(value, Hashable) and value in options:
        return value
    msg = f"`{name}` must be one of {_format_options(options)}; got {value!r}."
    raise OptionError(msg, keyword=name)


def check_fraction(name: str, value: Any) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (``alpha``, ``ci``, ``test_size``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        msg = f"`{name}` must be a number strictly between 0 and 1; got {value!r}."
        raise TypeError(msg)
    value = float(value)
    if not 0.0 < value < 1.0:
        msg = f"`{name}` must be strictly between 0 and 1; got {value!r}."
        raise OptionError(msg, keyword=name)
    return value


def check_positive_int(name: str, value: Any, *, minimum: int = 1) -> int:
    """Return ``value`` as an int of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        msg = f"`{name}` must be a positive integer; got {value!r}."
        raise TypeError(msg)
    if value < minimum:
        msg = f"`{name}` must be an integer of at least {minimum}; got {value!r}."
        raise OptionError(msg, keyword=name)
    return int(value)


def unknown_name_error(
    what: str, name: Any, known: Iterable[Any], keyword: str
) -> OptionError:
    """Build the error for a name that is not among ``known``, suggesting close matches."""
    known = list(known)
    as_text = {str(k): k for k in known}
    close = difflib.get_close_matches(str(name), list(as_text), n=3, cutoff=0.6)
    if close:
        hint = f" Did you mean {_format_options(as_text[c] for c in close)}?"
    else:
        shown = known if len(known) <= 10 else [*known[:10], "..."]
        hint = f" Known {what}s: {_format_options(shown)}."
    return OptionError(f"`{keyword}`: unknown {what} {name!r}.{hint}", keyword=keyword)


def check_keywords(keywords: Iterable[Any], taken: Iterable[Any], what: str) -> None:
    """Refuse the first keyword not in ``taken``, by name, before any work is done.

    ``what`` says whose keywords these are ("`pairwise(test='aso')`"); the
    message names the keyword and the ones it takes, so a stray ``cv=`` or a
    misspelling never reaches a function as a raw ``TypeError``.

    Examples
    --------
    >>> check_keywords(["ties"], ("ties", "scale"), "battles")
    >>> check_keywords(["cv"], ("ties", "scale"), "battles")
    Traceback (most recent call last):
    ...
    pdcompare._validation.OptionError: `cv`: battles takes `ties` and `scale` only; leave it out.
    """
    taken = tuple(taken)
    for keyword in keywords:
        if keyword not in taken:
            listed = ", ".join(f"`{name}`" for name in taken[:-1])
            listed = f"{listed} and `{taken[-1]}`" if len(taken) > 1 else f"`{taken[0]}`"
            msg = f"`{keyword}`: {what} takes {listed} only; leave it out."
            raise OptionError(msg, keyword=str(keyword))


def check_call_keywords(function: Any, keywords: Iterable[Any], what: str) -> None:
    """:func:`check_keywords` against what ``function`` takes (all, if it takes ``**kwargs``).

    Examples
    --------
    >>> def test(frame, a=None, b=None, *, alpha=0.05): ...
    >>> check_call_keywords(test, ["alpha"], "`test`")
    >>> check_call_keywords(test, ["cv"], "`test`")
    Traceback (most recent call last):
    ...
    pdcompare._validation.OptionError: `cv`: `test` takes `alpha` only; leave it out.
    """
    parameters = inspect.signature(function).parameters
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return
    check_keywords(keywords, [n for n in list(parameters)[1:] if n not in ("a", "b")], what)


def check_unique_labels(index: Any, hint: str, what: str = "Model names") -> None:
    """Raise a ValueError naming the labels (model names, split labels) that appear twice."""
    if not index.is_unique:
        duplicated = list(dict.fromkeys(index[index.duplicated()]))
        msg = f"{what} must be unique; {duplicated!r} appear more than once ({hint})."
        raise ValueError(msg)


#: What the command line says instead of offering ``nan_policy`` (it keeps every split).
COMPLETE_FILES = (
    "The command line compares complete files only: fill in or remove the missing scores"
)

#: The ``nan_policy`` values every comparison accepts (scipy's meaning).
NAN_POLICIES = ("propagate", "omit", "raise")


def check_nan_policy(nan_policy: Any, allowed: Sequence[str] = NAN_POLICIES) -> str:
    """Return ``nan_policy`` if it is one of ``allowed``: checked once, where a call begins.

    Examples
    --------
    >>> check_nan_policy("omit")
    'omit'
    """
    return check_option("nan_policy", nan_policy, allowed)


def apply_nan_policy(nan_policy: str, problem: str, *, omit: str, propagate: str) -> None:
    """Raise or warn about missing values as ``nan_policy`` says; the one place that does.

    ``problem`` says what is missing where ("Model(s) ['a'] have missing scores
    (NaN)"); ``omit`` and ``propagate`` say what each policy would do ("drop the
    missing splits pair by pair", "give those pairs NaN results"). "raise"
    raises a ValueError offering both; "propagate" warns, offering "omit";
    "omit" is silent (the caller drops the missing values). ``nan_policy`` was
    checked where the call began (:func:`check_nan_policy`).
    """
    if nan_policy == "raise":
        msg = (
            f"{problem}. Pass `nan_policy='omit'` to {omit}, or `nan_policy='propagate'` "
            f"to {propagate}."
        )
        raise OptionError(msg, keyword="nan_policy", cli_message=f"{problem}. {COMPLETE_FILES}.")
    if nan_policy == "propagate":
        said = f"{problem}: the comparisons involving them are NaN and left out of any correction"
        warn(
            f"{said}. Pass `nan_policy='omit'` to {omit} instead.",
            keyword="nan_policy",
            cli_message=f"{said}. {COMPLETE_FILES}.",
        )


#: Every method name of ``statsmodels.stats.multitest.multipletests`` (statsmodels 0.14).
CORRECTIONS = (
    "bonferroni",
    "sidak",
    "holm-sidak",
    "holm",
    "simes-hochberg",
    "hommel",
    "fdr_bh",
    "fdr_by",
    "fdr_tsbh",
    "fdr_tsbky",
)

#: statsmodels' short codes whose canonical name here is the long one.
_LONG_NAMES = {
    "b": "bonferroni",
    "s": "sidak",
    "h": "holm",
    "hs": "holm-sidak",
    "sh": "simes-hochberg",
    "ho": "hommel",
}

#: Canonical names that need no statsmodels lookup (no import at check time).
_KNOWN = frozenset((*CORRECTIONS, "shaffer"))


def _statsmodels_names() -> dict[str, str]:
    """Every name ``multipletests`` accepts (lower case) -> its canonical name here."""
    from statsmodels.stats.multitest import multitest_alias

    return {alias.lower(): _LONG_NAMES.get(code, code) for alias, code in multitest_alias.items()}


def correction_names() -> tuple[str, ...]:
    """Canonical names of every correction: statsmodels' methods, then "shaffer".

    Examples
    --------
    >>> names = correction_names()
    >>> names[:4], names[-1]
    (('bonferroni', 'sidak', 'holm-sidak', 'holm'), 'shaffer')
    """
    found = dict.fromkeys(CORRECTIONS)
    found.update(dict.fromkeys(_statsmodels_names().values()))
    return (*found, "shaffer")


def check_correction(method: str | None, keyword: str = "correction") -> str | None:
    """Return the canonical name of the correction ``method``, None for no correction.

    Accepted: every method name and alias of the installed statsmodels'
    ``multipletests`` (as it does, in any letter case: ``"b"``, ``"bonf"``,
    ``"fdr_i"``, ``"fdr_gbs"``, ...), ``"shaffer"``, and None or ``"none"``.
    The canonical name is statsmodels' long name (``"b"`` -> ``"bonferroni"``,
    ``"fdr_i"`` -> ``"fdr_bh"``). Anything else raises a ValueError naming
    the valid options (``keyword`` names the parameter in the message).

    Examples
    --------
    >>> check_correction("holm"), check_correction("b"), check_correction("none")
    ('holm', 'bonferroni', None)
    """
    if method is None:
        return None
    if isinstance(method, str):
        lowered = method.lower()
        if lowered == "none":
            return None
        if lowered in _KNOWN:
            return lowered
        names = _statsmodels_names()
        if lowered in names:
            return names[lowered]
    else:
        names = _statsmodels_names()
    canonical = correction_names()
    aliases = sorted(set(names) - set(canonical))
    valid = ", ".join(repr(name) for name in (*canonical, "none"))
    msg = (
        f"`{keyword}` must be one of {valid} or None, or a statsmodels alias "
        f"({', '.join(repr(name) for name in aliases)}); got {method!r}."
    )
    raise OptionError(msg, keyword=keyword)


def check_rope(rope) -> tuple[float, float]:
    """The ROPE as ``(low, high)``: a half-width ``r`` gives ``(-r, r)``.

    A half-width must be a finite number ``>= 0``; a pair must be two finite
    numbers with ``low <= high`` (asymmetric ROPEs are allowed).

    Examples
    --------
    >>> check_rope(0.01)
    (-0.01, 0.01)
    >>> check_rope((-0.02, 0.01))
    (-0.02, 0.01)
    """
    if isinstance(rope, bool | str):
        msg = f"`rope` must be a half-width (a number >= 0) or a (low, high) pair; got {rope!r}."
        raise TypeError(msg)
    if isinstance(rope, numbers.Real):
        half = float(rope)
        if not np.isfinite(half) or half < 0:
            msg = (
                f"`rope` as a half-width must be a finite number >= 0; got {rope!r}. "
                "Pass a (low, high) pair for a ROPE that is not centred on 0."
            )
            raise OptionError(msg, keyword="rope")
        return (-half, half) if half > 0 else (0.0, 0.0)
    try:
        low, high = rope
    except (TypeError, ValueError):
        msg = f"`rope` must be a half-width (a number >= 0) or a (low, high) pair; got {rope!r}."
        raise TypeError(msg) from None
    for end in (low, high):
        if isinstance(end, bool) or not isinstance(end, numbers.Real):
            msg = f"`rope` ends must be numbers; got {rope!r}."
            raise TypeError(msg)
    low, high = float(low), float(high)
    if not (np.isfinite(low) and np.isfinite(high)):
        msg = f"`rope` ends must be finite; got {rope!r}."
        raise OptionError(msg, keyword="rope")
    if low > high:
        msg = f"`rope` must be (low, high) with low <= high; got {rope!r}."
        raise OptionError(msg, keyword="rope")
    return low, high


def check_random_state(random_state) -> np.random.Generator:
    """A ``numpy.random.Generator`` from None, an int seed or a Generator (used as it is).

    Examples
    --------
    >>> float(check_random_state(0).random()) == float(np.random.default_rng(0).random())
    True
    """
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            msg = f"`random_state` must be a non-negative int; got {random_state!r}."
            raise OptionError(msg, keyword="random_state")
        return np.random.default_rng(int(random_state))
    msg = (
        "`random_state` must be None, an int or a numpy.random.Generator "
        f"(np.random.default_rng(seed)); got {type(random_state).__name__}."
    )
    raise TypeError(msg)


# --------------------------------------------------------------------------- labels and patterns
