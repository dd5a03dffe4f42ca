"""Whether two models are equal, frequentist: two one-sided tests (TOST) against a ROPE."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import OptionError, check_rope
from pdcompare.compare._common import (
    check_test_options,
    refuse_one_dataset,
    scores_meta,
    warn_pairs,
)
from pdcompare.compare.calls import comparison
from pdcompare.compare.items import frame_data, se_meta, standard_error
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.stats import equivalence as core
from pdcompare.stats import items as items_core
from pdcompare.stats.equivalence import _tost


def check_equivalence_rope(rope: Any) -> tuple[float, float]:
    """The ROPE of an equivalence test as ``(low, high)``; it must have a width.

    Examples
    --------
    >>> check_equivalence_rope(0.01)
    (-0.01, 0.01)
    >>> check_equivalence_rope(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: `rope` must have a width for an equivalence test (...); got 0. ...
    """
    low, high = check_rope(rope)
    if not low < high:
        msg = (
            "`rope` must have a width for an equivalence test (a half-width > 0, or (low, "
            f"high) with low < high); got {rope!r}. No difference can be shown to lie "
            "inside an empty region."
        )
        raise ValueError(msg)
    return low, high


@comparison("equivalence")
def equivalence(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    rope: float | tuple[float, float],
    alpha: float = 0.05,
    correction: str | None = "holm",
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Equivalence test (TOST): whether the difference of two models lies inside the ROPE.

    "Not significant" does not mean "equal": a test that cannot reject may
    simply have too little data. Two one-sided tests (Schuirmann 1987) turn
    the question around: H0 is that the mean difference lies *outside* the
    region of practical equivalence, and rejecting it (``reject`` True)
    says the two models are equivalent.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame (models x CV splits; or a ``cv_results_`` frame,
        converted first) or a benchmark frame (models x data sets).
    a, b : model name, optional
        ``a`` and ``b``: that pair (model_1 = a). ``a`` alone: ``a`` against
        every other model. Neither: the best model against every other, in
        rank order.
    rope : float or (float, float)
        Region of practical equivalence of the mean difference model_1 −
        model_2, in score units: a half-width ``r`` means ``(-r, r)``; a
        ``(low, high)`` pair may be asymmetric and bounds the raw difference
        model_1 − model_2 (whatever the direction of the scores).
    alpha : float, default 0.05
        Level of each one-sided test; ``reject`` (equivalent) when the
        corrected TOST p-value is at most ``alpha``; the interval has level
        1 − 2·alpha.
    correction : str or None, default "holm"
        Multiple-testing correction over the rows: any method of
        ``statsmodels.stats.multitest.multipletests``, or None.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A pair with a missing score: NaN results left out of the correction
        (with a warning), computed on the units both models have, or an error.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (required
        on a scores frame unless stored with :func:`set_design`), and
        ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, mean_diff, statistic_low,
        pvalue_low, statistic_high, pvalue_high, pvalue, pvalue_adj, reject,
        ci_low, ci_high``. ``pvalue`` is the larger one-sided p-value;
        ``reject`` True means *equivalent*; ``ci_*`` is the 1 − 2·alpha
        interval of the mean difference (inside the ROPE exactly when both
        one-sided tests reject at ``alpha``). ``attrs["pdcompare"]`` holds
        ``test="equivalence"``, ``rope`` as ``(low, high)``, ``method``,
        ``reject_means="equivalent"`` (what a rejection says, for tables
        and reports), alpha, correction, design and models.

    Notes
    -----
    With ``d̄`` the mean difference, ``se`` its standard error and ``df``
    the degrees of freedom, ``t_low = (d̄ − low)/se`` tests H0 ``mu <= low``
    (``pvalue_low = P(T > t_low)``), ``t_high = (d̄ − high)/se`` tests H0
    ``mu >= high`` (``pvalue_high = P(T < t_high)``), and
    ``pvalue = max(pvalue_low, pvalue_high)``.

    * Scores frame: ``se = s · sqrt(1/n + n_test/n_train)``, the
      Nadeau–Bengio corrected standard error of :func:`corrected_ttest`,
      ``df = n − 1``; so it needs the design. ``pvalue_low`` is then the
      Bayesian correlated t-test's ``prob_worse`` for the same ROPE
      (:func:`bayes`): 0.068 for rbf vs linear on the gallery data, rope 0.01.
    * Benchmark frame: the plain paired t of the per-data-set means,
      ``se = s / sqrt(n)``, ``df = n − 1``, equal to statsmodels
      ``ttost_paired``.
    * Runs frame (independent runs, DESIGN section 17): Welch's t,
      equal to statsmodels ``ttost_ind(usevar="unequal")``.
    * Items frame: the paired t over items, clustered with clusters:
      ``se="cr2"`` (Satterthwaite df, the default below 50 clusters) or
      ``"cr1"`` (``C − 1`` df), as :func:`ttest`.

    A zero standard error (a difference that is the same on every unit)
    gives p-values 0 or 1 by where the difference lies, with a warning.

    References
    ----------
    D. J. Schuirmann, "A comparison of the two one-sided tests procedure and
    the power approach for assessing the equivalence of average
    bioavailability", J. Pharmacokinet. Biopharm. 15, 1987. D. Lakens,
    "Equivalence tests: a practical primer for t tests, correlations, and
    meta-analyses", Soc. Psychol. Personal. Sci. 8, 2017. C. Nadeau and
    Y. Bengio, "Inference for the generalization error", Machine Learning
    52, 2003.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()  # 10x10 CV, design attached
    >>> res = scores.cmp.equivalence("rbf", "linear", rope=0.01)
    >>> res[["mean_diff", "pvalue_low", "pvalue_high", "pvalue", "reject"]].round(3)
       mean_diff  pvalue_low  pvalue_high  pvalue  reject
    0       0.01       0.068          0.5     0.5   False

    ``pvalue_low`` is the posterior probability ``prob_worse`` of :func:`bayes`:

    >>> float(scores.cmp.bayes("rbf", "linear", rope=0.01)["prob_worse"].round(3).iloc[0])
    0.068
    """
    if frame_kind(frame) is FrameKind.ITEMS:
        rope = check_equivalence_rope(rope)
        return _items_equivalence(
            frame, a, b, rope=rope, alpha=alpha, correction=correction, **design
        )

    low, high = check_equivalence_rope(rope)
    alpha, correction = check_test_options(alpha=alpha, correction=correction)
    if alpha >= 0.5:
        msg = (
            f"`alpha` of `equivalence` must be below 0.5 (its interval has level "
            f"1 - 2*alpha, empty or inverted from 0.5 on); got {alpha!r}. Use 0.05."
        )
        raise OptionError(msg, keyword="alpha")
    data = scores_data(frame, **design)
    refuse_one_dataset(data, "equivalence")
    paired = data.design.paired
    benchmark = isinstance(data, BenchmarkData)
    ratio = None
    if paired and not benchmark:
        ratio = require_ratio(data.design, "equivalence", len(data.splits))
    i, j, scope = data.pairs(a, b)
    if paired:  # an absent run (NaN) of a runs frame is no pairing problem
        data.nan_pairs(i, j, nan_policy)
    policy = "omit" if nan_policy == "omit" else "propagate"
    if paired:
        out = core.tost_paired(
            data.values,
            i,
            j,
            low=low,
            high=high,
            test_train_ratio=ratio,
            alpha=alpha,
            nan_policy=policy,
        )
        method = "paired_t" if ratio is None else "nadeau_bengio"
        point = out["identical"] | out["constant"]
    else:
        out = core.tost_welch(data.values, i, j, low=low, high=high, alpha=alpha)
        method = "welch"
        point = np.zeros(i.size, dtype=bool)
    warn_pairs(
        data.names,
        i,
        j,
        [(point, " have a difference that is the same on every unit (p-values 0 or 1)")],
        prefix="`equivalence` is degenerate where ",
    )
    names = (
        "mean_diff",
        "statistic_low",
        "pvalue_low",
        "statistic_high",
        "pvalue_high",
        "pvalue",
        "ci_low",
        "ci_high",
    )
    meta = scores_meta(
        "equivalence",
        data,
        scope,
        rope=(low, high),
        method=method,
        reject_means="equivalent",
        alpha=alpha,
        correction=correction,
        nan_policy=nan_policy,
    )
    columns = {name: out[name] for name in names}
    return results.pair_result(data.names, i, j, columns, meta, correction=correction, alpha=alpha)


def _items_equivalence(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    rope: Any,
    alpha: float = 0.05,
    correction: str | None = "holm",
    se: str | None = None,
    **design: Any,
) -> pd.DataFrame:
    """TOST over items with the clustered standard error and its degrees of freedom.

    ``se``: ``"cr2"`` (Satterthwaite df; the default below 50 clusters) or
    ``"cr1"`` (``C − 1`` df), as :func:`pdcompare.ttest` on items.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> x = rng.integers(0, 2, 400)
    >>> framed = pd.DataFrame([x, x], index=["a", "b"]).cmp.set_design(items=True)
    >>> equivalence(framed.iloc[:, :-1], "a", "b", rope=0.05)["mean_diff"].tolist()
    [0.0]
    """
    low, high = check_rope(rope)  # given with a width by ``pdcompare.equivalence``
    if not low < high:
        msg = f"`rope` must have a width for an equivalence test; got {rope!r}."
        raise OptionError(msg, keyword="rope")
    alpha, correction = check_test_options(alpha=alpha, correction=correction)
    design.pop("nan_policy", None)
    data = frame_data(frame, design, "equivalence")
    se_type = standard_error(data, se)
    i, j, scope = data.pairs(a, b)
    out = items_core.clustered_paired_ttest(
        data.values, data.cluster, data.n_clusters, i, j, clustered=data.clustered,
        se_type=se_type,
    )
    found = _tost(out["mean_diff"], out["se"], out["df"], low, high, alpha)
    meta = scores_meta(
        "equivalence",
        data,
        scope,
        rope=(low, high),
        method="clustered_t" if data.clustered else "paired_t",
        reject_means="equivalent",
        alpha=alpha,
        correction=correction,
        **se_meta(data, se_type),
    )
    columns = {
        name: found[name]
        for name in (
            "mean_diff",
            "statistic_low",
            "pvalue_low",
            "statistic_high",
            "pvalue_high",
            "pvalue",
        )
    }
    frame_out = results.pair_result(
        data.names, i, j, columns, meta, correction=correction, alpha=alpha
    )
    return frame_out.assign(ci_low=found["ci_low"], ci_high=found["ci_high"])
