"""A release gate on battles: the candidate's Bradley–Terry rating against the baseline's.

``pdcompare gate --battles`` asks it. The rating difference candidate −
baseline (rating points, Elo's scale: 400 points multiply the odds of
winning by 10) and its standard error from the inverse Fisher information
(``battles_pairwise``'s z test) give the two one-sided normal bounds at
1 − alpha; the outcome follows from them as in :func:`pdcompare.gate`, the
margin in rating points.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import OptionError, check_fraction
from pdcompare.compare.battles import battles_pairwise
from pdcompare.compare.margin import check_margin, gate_outcome
from pdcompare.inputs.battles import battles_data
from pdcompare.results import result_meta
from pdcompare.stats import _special as special  # scipy.special on first use


def battles_gate(
    frame: pd.DataFrame,
    candidate: Any,
    baseline: Any,
    *,
    margin: float,
    alpha: float = 0.05,
    ties: str = "half",
) -> pd.DataFrame:
    """Gate ``candidate`` against ``baseline`` on a battles frame, in rating points.

    Parameters
    ----------
    frame : pandas.DataFrame
        A battles frame (``from_battles``).
    candidate, baseline : label
        The model to release and the model it replaces.
    margin : float
        How many rating points worse the candidate may be (≥ 0).
    alpha : float, default 0.05
        Both bounds are one-sided at 1 − alpha.
    ties : {"half", "davidson"}, default "half"
        How ties count (``bradley_terry``).

    Returns
    -------
    pandas.DataFrame
        One row, the columns of :func:`pdcompare.gate`; ``test`` is
        ``"bradley_terry_z"``.

    Examples
    --------
    >>> import pandas as pd
    >>> wins = pd.DataFrame([[0, 60], [40, 0]], index=["new", "old"], columns=["new", "old"])
    >>> res = battles_gate(wins, "new", "old", margin=20)
    >>> res["outcome"].iloc[0], round(float(res["mean_diff"].iloc[0]), 2)  # 400 log10(60/40)
    ('non-inferior', 70.44)
    """
    alpha = check_fraction("alpha", alpha)
    margin = check_margin(margin, "better")
    data = battles_data(frame)
    for keyword, model in (("candidate", candidate), ("baseline", baseline)):
        if model not in data.names:
            msg = f"`{keyword}`: unknown model {model!r}; the models are {list(data.names)!r}."
            raise OptionError(msg, keyword=keyword)
    if candidate == baseline:
        msg = "`candidate` and `baseline` are the same model; name two different models."
        raise OptionError(msg, keyword="candidate")
    pairs = battles_pairwise(frame, ties=ties, correction=None, alpha=alpha)
    first, second = pairs["model_1"].to_numpy(), pairs["model_2"].to_numpy()
    row = np.flatnonzero(
        ((first == candidate) & (second == baseline))
        | ((first == baseline) & (second == candidate))
    )[0]
    sign = 1.0 if first[row] == candidate else -1.0
    diff = sign * float(pairs["rating_diff"].iloc[row])
    se = float(pairs["se"].iloc[row])
    z = special.ndtri(1 - alpha)
    low, high = diff - z * se, diff + z * se
    with np.errstate(divide="ignore", invalid="ignore"):
        p_inferior = float(special.ndtr(-(diff + margin) / se))
        p_worse = float(special.ndtr(diff / se))
    battles = data.n_battles
    where = [data.names.get_loc(model) for model in (candidate, baseline)]
    result = pd.DataFrame(
        {
            "candidate": [candidate],
            "baseline": [baseline],
            "test": ["bradley_terry_z"],
            "mean_diff": [diff],
            "margin": [margin],
            "ci_low": [low],
            "ci_high": [high],
            "pvalue": [p_inferior],
            "pvalue_worse": [p_worse],
            "outcome": [gate_outcome(low, high, margin, True)],
        }
    )
    result.attrs["pdcompare"] = result_meta(
        "gate",
        gate_test="bradley_terry_z",
        alpha=alpha,
        margin=margin,
        greater_is_better=True,
        models=[candidate, baseline],
        unit="battle",
        n=[round(float(battles[k])) for k in where],
        n_models=len(data.names),
        ties=ties,
    )
    return result
