"""``scipy.special``, loaded on its first use.

Importing scipy.special costs about 100 ms (scipy 1.17 clones numpy's
namespace, which loads ``numpy.f2py`` and ``numpy.testing``): a quarter of
``import pandas``, and more than ``import pdcompare`` and a first
``summary()`` need. The modules of the core import this module as
``special`` and call ``special.stdtr(...)`` as they would scipy's; the
first attribute read imports scipy.special and keeps the function here, so
later reads cost a plain lookup.

Examples
--------
>>> from pdcompare.stats import _special as special
>>> float(special.ndtr(0.0))
0.5
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    from scipy import special

    value = getattr(special, name)
    globals()[name] = value
    return value
