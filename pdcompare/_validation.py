"""Argument checks shared by the accessor, the input adapters and the CLI.

Messages name the parameter in backticks, state the rule and echo the value,
as scipy and seaborn do. ``ValueError`` for bad values, ``TypeError`` for bad
types; never ``assert``.
"""

from __future__ import annotations

import difflib
import numbers
import os
import sys
import warnings
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class PdcompareWarning(UserWarning):
    """Warning issued by pdcompare about the data (degenerate or missing scores)."""


def _caller_stacklevel() -> int:
    """Return the stacklevel of the first frame outside the pdcompare package."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        _PACKAGE_DIR
    ):
        frame = frame.f_back
        level += 1
    return level


def warn(message: str, category: type[Warning] = PdcompareWarning) -> None:
    """Warn, pointing at the user's code rather than at pdcompare's internals."""
    # `_caller_stacklevel` counts from `warn` itself, which is inside the package.
    warnings.warn(message, category, stacklevel=_caller_stacklevel())


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
