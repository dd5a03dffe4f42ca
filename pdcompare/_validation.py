"""Argument checks shared by the accessor, the input adapters and the CLI.

Messages name the parameter in backticks, state the rule and echo the value,
as scipy and seaborn do. ``ValueError`` for bad values, ``TypeError`` for bad
types; never ``assert``.
"""

from __future__ import annotations

import contextlib
import difflib
import numbers
import os
import sys
import warnings
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class PdcompareWarning(UserWarning):
    """Warning issued by pdcompare about the data (degenerate or missing scores)."""


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


def warn(message: str, category: type[Warning] = PdcompareWarning) -> None:
    """Warn, pointing at the user's code rather than at pdcompare's internals."""
    # `_caller_stacklevel` counts from `warn` itself, which is inside the package.
    warnings.warn(message, category, stacklevel=_caller_stacklevel())


@contextlib.contextmanager
def warnings_once() -> Iterator[None]:
    """Collect the warnings of several calls and issue each distinct one once.

    A report or a command that runs several tests on one frame would otherwise
    say the same thing about the frame (its missing scores, say) once per test.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for category, message in dict.fromkeys((w.category, str(w.message)) for w in caught):
        warn(message, category)


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
    raise ValueError(msg)


def check_fraction(name: str, value: Any) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (``alpha``, ``ci``, ``test_size``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        msg = f"`{name}` must be a number strictly between 0 and 1; got {value!r}."
        raise TypeError(msg)
    value = float(value)
    if not 0.0 < value < 1.0:
        msg = f"`{name}` must be strictly between 0 and 1; got {value!r}."
        raise ValueError(msg)
    return value


def check_positive_int(name: str, value: Any, *, minimum: int = 1) -> int:
    """Return ``value`` as an int of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        msg = f"`{name}` must be a positive integer; got {value!r}."
        raise TypeError(msg)
    if value < minimum:
        msg = f"`{name}` must be an integer of at least {minimum}; got {value!r}."
        raise ValueError(msg)
    return int(value)


def unknown_name_error(what: str, name: Any, known: Iterable[Any], keyword: str) -> ValueError:
    """Build the error for a name that is not among ``known``, suggesting close matches."""
    known = list(known)
    as_text = {str(k): k for k in known}
    close = difflib.get_close_matches(str(name), list(as_text), n=3, cutoff=0.6)
    if close:
        hint = f" Did you mean {_format_options(as_text[c] for c in close)}?"
    else:
        shown = known if len(known) <= 10 else [*known[:10], "..."]
        hint = f" Known {what}s: {_format_options(shown)}."
    return ValueError(f"`{keyword}`: unknown {what} {name!r}.{hint}")


def check_unique_labels(index: Any, hint: str, what: str = "Model names") -> None:
    """Raise a ValueError naming the labels (model names, split labels) that appear twice."""
    if not index.is_unique:
        duplicated = list(dict.fromkeys(index[index.duplicated()]))
        msg = f"{what} must be unique; {duplicated!r} appear more than once ({hint})."
        raise ValueError(msg)


#: The ``nan_policy`` values every comparison accepts (scipy's meaning).
NAN_POLICIES = ("propagate", "omit", "raise")


def apply_nan_policy(nan_policy: str, problem: str, *, omit: str, propagate: str) -> None:
    """Raise or warn about missing values as ``nan_policy`` says; the one place that does.

    ``problem`` says what is missing where ("Model(s) ['a'] have missing scores
    (NaN)"); ``omit`` and ``propagate`` say what each policy would do ("drop the
    missing splits pair by pair", "give those pairs NaN results"). "raise"
    raises a ValueError offering both; "propagate" warns, offering "omit";
    "omit" is silent (the caller drops the missing values).
    """
    check_option("nan_policy", nan_policy, NAN_POLICIES)
    if nan_policy == "raise":
        msg = (
            f"{problem}. Pass `nan_policy='omit'` to {omit}, or `nan_policy='propagate'` "
            f"to {propagate}."
        )
        raise ValueError(msg)
    if nan_policy == "propagate":
        warn(
            f"{problem}: the comparisons involving them are NaN and left out of any "
            f"correction. Pass `nan_policy='omit'` to {omit} instead."
        )
