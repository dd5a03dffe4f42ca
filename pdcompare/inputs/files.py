"""Reading saved frames: CSV with exactly rounded floats on every pandas version."""

from __future__ import annotations

from typing import Any

import pandas as pd


def read_csv(source: Any, **kwargs: Any) -> pd.DataFrame:
    """``pd.read_csv`` with correctly rounded floats on every pandas version.

    pandas 2's default C parser can be one bit off ("0.9600000000000001" read
    as 0.96), which changes tied ranks in the Wilcoxon and sign tests; its
    ``float_precision="round_trip"`` is exact. pandas 3 parses exactly by
    default and deprecates that keyword.
    """
    if int(pd.__version__.split(".", 1)[0]) < 3:
        kwargs.setdefault("float_precision", "round_trip")
    return pd.read_csv(source, **kwargs)
