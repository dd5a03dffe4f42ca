"""The comparisons a picture of a scores or benchmark frame rests on.

``presentation/plotting`` draws what these return and runs no comparison of its
own: the posterior of one pair, the matrix of p-values, the result behind a
critical-difference diagram or the simplex of a Bayesian test across data sets,
the intervals of the means and the cells of the Multiple Comparison Matrix.
(The comparisons a report rests on are :mod:`pdcompare.compare.analysis`'s.)
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare._validation import (
    COMPLETE_FILES,
    OptionError,
    PdcompareWarning,
    check_nan_policy,
    check_option,
)
from pdcompare.compare import bayes as bayes_module
from pdcompare.compare.hierarchical import hierarchical
from pdcompare.compare.mcm import comparison_matrix
from pdcompare.compare.pairwise import matrix, pairwise
from pdcompare.compare.pareto import pareto
from pdcompare.compare.rank_sets import ranks
from pdcompare.compare.summary import items_summary, summary_table
from pdcompare.inputs.data import validated_once
from pdcompare.inputs.kinds import FrameKind, frame_kind


def posterior_inputs(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    rope: float | tuple[float, float] = 0.0,
    nan_policy: str = "propagate",
    **design: Any,
) -> tuple[pd.DataFrame, Any]:
    """The one-pair ``bayes`` result and its frozen posterior, for ``plot("posterior")``.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> result, posterior = posterior_inputs(load_grid_search_scores(), "rbf", "linear")
    >>> round(float(posterior.mean()), 4) == round(float(result["mean_diff"].iloc[0]), 4)
    True
    """
    import warnings

    import numpy as np

    check_nan_policy(nan_policy)
    with validated_once():
        result = bayes_module.bayes(frame, a, b, rope=rope, nan_policy=nan_policy, **design)
        row = result.iloc[0]
        model_1, model_2 = row["model_1"], row["model_2"]
        if np.isnan(float(row["mean_diff"])):
            said = (
                f"The posterior of {model_1!r} − {model_2!r} is undefined: some of their "
                f"scores are missing and `nan_policy` is {nan_policy!r}."
            )
            msg = f"{said} Pass nan_policy='omit' to leave those splits out."
            raise OptionError(
                msg,
                keyword="nan_policy",
                cli_message=f"{said} {COMPLETE_FILES}.",
            )
        with warnings.catch_warnings():
            # bayes has already warned about a point mass.
            warnings.simplefilter("ignore", PdcompareWarning)
            posterior = bayes_module.posterior(
                frame,
                model_1,
                model_2,
                nan_policy="omit" if nan_policy == "omit" else "raise",
                **design,
            )
    return result, posterior


def pvalue_inputs(
    frame: pd.DataFrame,
    *,
    test: str = "corrected_ttest",
    value: str = "pvalue_adj",
    **options: Any,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None]:
    """``pairwise(test)``, its ``matrix(value)`` and its matrix of ``reject``, for ``"pvalues"``.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> result, table, reject = pvalue_inputs(load_grid_search_scores())
    >>> table.shape, reject.shape
    ((4, 4), (4, 4))
    """
    result = pairwise(frame, test=test, **options)
    reject = matrix(result, "reject") if "reject" in result.columns else None
    return result, matrix(result, value), reject


def cd_inputs(
    frame: pd.DataFrame,
    *,
    test: str = "nemenyi",
    alpha: float = 0.05,
    correction: str | None = "default",
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """The all-pairs result whose verdicts the bars of a critical-difference diagram follow."""
    return pairwise(frame, test, alpha=alpha, correction=correction, nan_policy=nan_policy)


def simplex_inputs(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    rope: float = 0.0,
    test: str = "signed_rank",
    prior: float | None = None,
    n_samples: int | None = None,
    random_state: Any = 0,
    nan_policy: str = "propagate",
) -> pd.DataFrame:
    """The one-pair Bayesian result of a benchmark frame whose posterior ``"simplex"`` draws.

    ``test="signed_rank"``: the Bayesian signed-rank test of ``bayes``;
    ``test="hierarchical"``: the hierarchical test of ``hierarchical`` (the
    folds of a ``(dataset, split)`` frame and the CV design needed; ``prior``
    does not apply). Without ``b``, ``a`` against the best other model;
    without either, the best model against the runner-up (by mean rank).
    """
    check_option("test", test, ("signed_rank", "hierarchical"))
    if not frame_kind(frame).has_datasets:
        msg = (
            'plot("simplex") draws a Bayesian test across data sets: it needs a benchmark '
            'frame; for the folds of one data set use plot("posterior").'
        )
        raise ValueError(msg)
    if test == "hierarchical" and prior is not None:
        msg = (
            "`prior` is the signed-rank test's pseudo-observation; the hierarchical test has "
            "its own priors (see `hierarchical`): leave `prior` out with test='hierarchical'."
        )
        raise ValueError(msg)
    options = {"rope": rope, "random_state": random_state, "nan_policy": nan_policy}
    with validated_once():
        if b is None:
            first = bayes_module.bayes(frame, a, **{**options, "n_samples": 200}).iloc[0]
            a, b = first["model_1"], first["model_2"]
        if test == "hierarchical":
            extra = {} if n_samples is None else {"n_samples": n_samples}
            return hierarchical(frame, a, b, **options, **extra)
        return bayes_module.bayes(frame, a, b, prior=prior, n_samples=n_samples, **options)


def intervals_inputs(frame: pd.DataFrame, *, ci: float = 0.95, **design: Any) -> pd.DataFrame:
    """The ``summary`` whose intervals ``plot("intervals")`` draws (clustered on items)."""
    if frame_kind(frame) is FrameKind.ITEMS:
        return items_summary(frame, ci=ci, **design)
    return summary_table(frame, ci=ci, **design)


def mcm_inputs(
    frame: pd.DataFrame, *, correction: str | None = None, alpha: float = 0.05, **design: Any
) -> pd.DataFrame:
    """The cells of the Multiple Comparison Matrix of a benchmark frame, for ``"mcm"``."""
    return comparison_matrix(frame, correction=correction, alpha=alpha, **design)


def pareto_inputs(frame: pd.DataFrame, cost: Any, **options: Any) -> pd.DataFrame:
    """The ``pareto`` result that ``plot("pareto", cost=...)`` draws (the frame as given).

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> cost = pd.Series({"linear": 1.0, "2_poly": 2.0, "3_poly": 3.0, "rbf": 4.0})
    >>> pareto_inputs(load_grid_search_scores(), cost).loc["2_poly", "status"]
    'dominated'
    """
    return pareto(frame, cost, **options)


def ranks_inputs(
    frame: pd.DataFrame,
    *,
    coverage: float = 0.95,
    simultaneous: bool = True,
    n_draws: int = 10000,
    random_state: Any = 0,
    **design: Any,
) -> pd.DataFrame:
    """The rank confidence sets that ``plot("ranks")`` draws (seeded: the same picture twice)."""
    return ranks(
        frame,
        coverage=coverage,
        simultaneous=simultaneous,
        n_draws=n_draws,
        random_state=random_state,
        **design,
    )
