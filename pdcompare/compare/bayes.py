"""The Bayesian correlated t-test on a scores frame, and its posterior.

``bayes`` on a benchmark frame hands the data to the Bayesian signed-rank test
across data sets (:mod:`pdcompare.compare.signed_rank_bayes`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_fraction, check_rope
from pdcompare.compare._common import (
    CONSTANT_DIFFERENCE,
    IDENTICAL_SCORES,
    decision_column,
    refuse_benchmark,
    refuse_one_dataset,
    scores_meta,
    warn_pairs,
)
from pdcompare.compare.calls import comparison, frame_function
from pdcompare.compare.signed_rank_bayes import signed_rank_bayes
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.inputs.kinds import FrameKind
from pdcompare.stats import bayes as core

K = FrameKind


@comparison("bayes")
def bayes(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    rope: float | tuple[float, float] = 0.0,
    ci: float | None = None,
    alpha: float = 0.05,
    nan_policy: str = "propagate",
    prior: float | None = None,
    n_samples: int | None = None,
    random_state: Any = None,
    **design: Any,
) -> pd.DataFrame:
    """Bayesian comparison: the probability that one model is better than another.

    On a scores frame, the Bayesian correlated t-test over the CV splits; on
    a benchmark frame (several data sets), the Bayesian signed-rank test over
    the data sets (see Notes).

    For each pair, the posterior of the mean score difference
    ``mu = model_1 - model_2`` over the CV splits gives the probability that
    model_1 is better by more than the region of practical equivalence
    (ROPE), that the two are practically equivalent, and that model_2 is
    better.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name, optional
        ``a`` and ``b``: compare that pair (model_1 = ``a``). ``a`` alone:
        compare ``a`` with every other model. Neither: compare the best
        model (by mean) with every other model, in rank order.
    rope : float or (float, float), default 0.0
        Region of practical equivalence for ``mu``: a half-width ``r``
        means ``[-r, r]``; a ``(low, high)`` pair may be asymmetric. In the
        units of the scores (0.01 = one point of accuracy).
    ci : float, default 0.95
        Level of the equal-tailed credible interval of ``mu`` (scores frames).
    alpha : float, default 0.05
        A decision needs a posterior probability of at least ``1 - alpha``.
    prior, n_samples, random_state
        Benchmark frames only: the weight of the pseudo-observation at 0
        (default 0.5), the number of posterior samples (default 50000) and
        the seed (an int or a ``numpy.random.Generator``) of the Dirichlet
        draws of the Bayesian signed-rank test.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        "propagate": a pair with a missing score gets NaN results (with a
        warning); "omit": the splits missing for either model are dropped
        pair by pair; "raise": missing scores are an error.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
        ``greater_is_better=``; needed unless stored with
        :func:`set_design`.

    Returns
    -------
    pandas.DataFrame
        One row per pair with columns ``model_1, model_2, mean_diff,
        prob_better, prob_rope, prob_worse, ci_low, ci_high, decision``
        (no interval on a benchmark frame).
        ``decision`` is model_1's name when ``prob_better >= 1 - alpha``,
        model_2's when ``prob_worse >= 1 - alpha``, ``"equivalent"`` when
        ``prob_rope >= 1 - alpha``, else ``"undecided"`` (missing for a NaN
        pair). ``attrs["pdcompare"]`` holds ``test="bayes"``, ``scope``,
        ``rope`` as ``(low, high)``, ``ci``, ``alpha``, ``design``,
        ``greater_is_better`` and ``models`` (best first).

    Warns
    -----
    PdcompareWarning
        When two models have identical scores, or a constant difference on
        every split: their posterior is a point mass (identical models give
        ``prob_rope = 1`` for a ROPE that contains 0; a constant difference
        gives probability 1 to the region it falls in). Also when missing
        scores make results NaN under "propagate".

    Notes
    -----
    With the ``n`` paired differences ``d = model_1 - model_2``, their mean
    ``d̄`` and variance ``s²`` (ddof=1), the posterior of ``mu`` is Student t
    with ``n - 1`` degrees of freedom, location ``d̄`` and scale
    ``sqrt((1/n + n_test/n_train) · s²)`` (Corani and Benavoli 2015;
    Benavoli et al. 2017). The ``n_test/n_train`` term (Nadeau and Bengio
    2003) accounts for the correlation of splits that share training data;
    it is why the design is required. Then ``prob_better = P(mu > high)``,
    ``prob_worse = P(mu < low)`` and ``prob_rope = P(low <= mu <= high)``.
    With ``greater_is_better=False`` (losses), "better" means lower scores:
    ``prob_better = P(mu < low)`` and ``prob_worse = P(mu > high)``, while
    ``mean_diff`` and the interval stay about ``model_1 - model_2``.

    On a benchmark frame the unit is the data set: the test is the Bayesian
    signed-rank test (Benavoli et al. 2014) on the per-data-set mean
    differences, with a Dirichlet process prior whose pseudo-observation at
    0 weighs ``prior``, as ``baycomp.SignedRankTest``: each probability is
    the share of posterior samples in which that region (better, rope,
    worse) has the largest mass, and ``mean_diff`` is the mean of the
    per-data-set differences. Every pair is computed in one vectorised pass
    from shared Dirichlet draws; the design is not needed.

    There is no multiple-testing correction, on purpose: posterior
    probabilities are not error rates controlled over a family of tests,
    and each pair's posterior is the same whether one pair or all of them
    are examined. ``pairwise(test="bayes")`` reports the same numbers as
    the pair-by-pair calls. Read as a test, a decision is therefore no
    family-wise guarantee: across data sets with ``rope=0``, where a
    decision at 0.95 acts like a two-sided test at about 10 % per pair,
    pdcompare's validity study (``benchmarks/validity.py --part datasets``)
    found some pair of *equal* models decided in 24–33 % of benchmarks of 3
    models and 92–93 % of 10 (N = 10–50 data sets). A rope of practical
    size, not 0, is what makes "decided" mean "practically different".

    ``baycomp.CorrelatedTTest(x, y, rope, runs)`` computes the same
    posterior for ``y - x`` with ``n_test/n_train = 1/(k - 1)``, ``k`` the
    folds per run: its ``(p_left, p_rope, p_right)`` for ``x = model_1``
    are ``(prob_better, prob_rope, prob_worse)`` here.

    References
    ----------
    .. [1] G. Corani and A. Benavoli, "A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets", Machine Learning
       100, 285-304, 2015.
    .. [2] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", JMLR 18(77), 1-36, 2017.
    .. [3] C. Nadeau and Y. Bengio, "Inference for the generalization
       error", Machine Learning 52, 239-281, 2003.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()  # 10x10 CV, design attached
    >>> result = scores.cmp.bayes("rbf", "linear", rope=0.01)
    >>> result[["prob_better", "prob_rope", "prob_worse"]].round(3)
       prob_better  prob_rope  prob_worse
    0          0.5      0.432       0.068
    >>> result.loc[0, "decision"]
    'undecided'

    Compare with the posterior's ``scipy.stats.t`` distribution:

    >>> post = scores.cmp.posterior("rbf", "linear")
    >>> round(float(post.sf(0.01)), 3)
    0.5
    """
    low, high = check_rope(rope)
    alpha = check_fraction("alpha", alpha)
    data = scores_data(scores, **design)
    if isinstance(data, BenchmarkData):
        refuse_one_dataset(data, "bayes")
        if ci is not None:
            msg = (
                "`ci` applies to the correlated t-test of a scores frame; the signed-rank "
                "test across data sets gives probabilities, not an interval."
            )
            raise TypeError(msg)

        return signed_rank_bayes(
            data, a, b, (low, high), alpha, nan_policy, prior, n_samples, random_state
        )
    for keyword, value in (
        ("prior", prior),
        ("n_samples", n_samples),
        ("random_state", random_state),
    ):
        if value is not None:
            msg = (
                f"`{keyword}` applies to the Bayesian signed-rank test of a benchmark frame "
                "(several data sets); the correlated t-test of a scores frame is exact and "
                "draws no samples."
            )
            raise TypeError(msg)
    ci = check_fraction("ci", 0.95 if ci is None else ci)
    ratio = require_ratio(data.design, "bayes", len(data.splits))
    i, j, scope = data.pairs(a, b)
    data.nan_pairs(i, j, nan_policy)
    out = core.bayes_pairs(
        data.values,
        i,
        j,
        test_train_ratio=ratio,
        rope=(low, high),
        confidence=ci,
        alpha=alpha,
        greater_is_better=data.design.greater_is_better,
        nan_policy=nan_policy,
    )
    _warn_point_masses(data.names, i, j, out["mean_diff"], out["scale"])
    decision = decision_column(data.names, i, j, out["decision"])
    columns = {
        name: out[name]
        for name in (
            "mean_diff",
            "prob_better",
            "prob_rope",
            "prob_worse",
            "ci_low",
            "ci_high",
        )
    }
    columns["decision"] = decision
    meta = scores_meta(
        "bayes", data, scope, rope=(low, high), ci=ci, alpha=alpha, nan_policy=nan_policy
    )
    return results.pair_result(data.names, i, j, columns, meta)


@frame_function("posterior", (K.SCORES,), nan_policies=("raise", "omit"))
def posterior(
    scores: pd.DataFrame, a: Any, b: Any, *, nan_policy: str = "raise", **design: Any
) -> Any:
    """The posterior of the mean difference ``a - b`` as a frozen ``scipy.stats.t``.

    The distribution behind :func:`bayes`, for ``.cdf``, ``.sf``,
    ``.interval``, ``.ppf``, ``.rvs`` or a plot of your own.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    a, b : model name
        The two models; the distribution is that of ``mu = mean(a - b)``.
    nan_policy : {"raise", "omit"}, default "raise"
        With "omit", splits where either model's score is missing are
        dropped; with "raise", missing scores are an error (a posterior
        with NaN parameters would be meaningless).
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``; needed
        unless stored with :func:`set_design`.

    Returns
    -------
    scipy.stats.rv_continuous_frozen
        ``scipy.stats.t(df=n - 1, loc=d̄, scale=sqrt((1/n + n_test/n_train) · s²))``.

    Warns
    -----
    PdcompareWarning
        When the difference is the same on every split. scipy rejects a
        zero scale, so the point mass at ``d̄`` is returned as a t
        distribution of scale ``tiny · max(1, |d̄|)`` (``tiny`` the
        smallest positive normal float): its ``cdf`` jumps from 0 to 1 at
        ``d̄`` and ``interval(level)`` is ``(d̄, d̄)`` to machine precision.

    Notes
    -----
    See :func:`bayes` for the model and the references. The distribution
    is about ``a - b`` whether or not higher scores are better.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> post = load_grid_search_scores().cmp.posterior("rbf", "linear")
    >>> [round(float(x), 6) for x in post.interval(0.5)]
    [0.000977, 0.019023]
    >>> round(float(post.sf(0.0)), 3)  # P(rbf better), no ROPE
    0.773
    """
    data = scores_data(scores, **design)
    refuse_benchmark(data, "posterior")
    ratio = require_ratio(data.design, "posterior", len(data.splits))
    i, j, _ = data.pairs(a, b)
    data.nan_pairs(i, j, nan_policy)
    df, loc, scale = core.posterior_parameters(
        data.values, i, j, test_train_ratio=ratio, nan_policy=nan_policy
    )
    if np.isnan(df[0]):
        msg = (
            f"Models {a!r} and {b!r} have fewer than 2 splits with both scores "
            "present; a posterior needs at least 2."
        )
        raise ValueError(msg)
    _warn_point_masses(data.names, i, j, loc, scale)
    return core.frozen_posterior(float(df[0]), float(loc[0]), float(scale[0]))


def _warn_point_masses(names, i, j, mean_diff, scale) -> None:
    """Warn about the pairs whose posterior is a point mass (zero-variance differences)."""
    point = scale == 0.0
    warn_pairs(
        names,
        i,
        j,
        [
            (point & (mean_diff == 0.0), *IDENTICAL_SCORES),
            (point & (mean_diff != 0.0), *CONSTANT_DIFFERENCE),
        ],
    )
