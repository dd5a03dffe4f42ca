"""How large a difference is: effect sizes, their magnitudes and their intervals."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    check_fraction,
    check_positive_int,
    warn,
)
from pdcompare.compare import items as _items
from pdcompare.compare._common import refuse_one_dataset, scores_meta, seed_of, warn_pairs
from pdcompare.compare.calls import comparison
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.stats import effect_size as core
from pdcompare.stats.effect_size import MAGNITUDES, check_measure, cohen_dz_interval, effect_sizes
from pdcompare.stats.items import clustered_paired_ttest

#: How reports write each measure beside its value ("large effect (d_z = 1.59)").
SYMBOLS = {
    "cohen_dz": "d_z",
    "cohen_d": "d",
    "akinshin_gamma": "γ",
    "cliff_delta": "δ",
    "vargha_delaney": "A",
    "prob_superiority": "PS",
}


def thresholds(measure: str) -> dict[str, Any]:
    """The magnitude cut points of ``measure`` as stored in ``attrs["pdcompare"]["thresholds"]``.

    Each magnitude's lower bound on the judged size (``|effect_size|``, or
    ``|effect_size - 0.5|`` for the probabilities); below "small" is
    "negligible".

    Examples
    --------
    >>> thresholds("cliff_delta")
    {'small': 0.147, 'medium': 0.33, 'large': 0.474, 'of': '|effect_size|'}
    """
    small, medium, large = core.THRESHOLDS[measure]
    of = "|effect_size - 0.5|" if measure in core.PROBABILITY_MEASURES else "|effect_size|"
    return {"small": small, "medium": medium, "large": large, "of": of}


def magnitude_column(codes: np.ndarray) -> pd.Categorical:
    """Magnitude codes (-1 missing) as an ordered categorical, negligible < ... < large."""
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int64), dtype=_magnitude_dtype())


@functools.cache
def _magnitude_dtype() -> pd.CategoricalDtype:
    """The magnitudes' dtype, made once: pandas checks new categories by hashing (70 us)."""
    return pd.CategoricalDtype(list(MAGNITUDES), ordered=True)


def pair_effects(
    data: Any,
    i: np.ndarray,
    j: np.ndarray,
    measure: str,
    *,
    nan_policy: str = "propagate",
) -> dict[str, np.ndarray]:
    """The core's effect sizes of the pairs ``(i, j)`` of a validated frame, with warnings."""
    policy = "omit" if nan_policy == "omit" else "propagate"
    out = effect_sizes(
        data.values,
        i,
        j,
        measure=measure,
        paired=data.design.paired,
        greater_is_better=data.design.greater_is_better,
        nan_policy=policy,
    )
    warn_pairs(
        data.names,
        i,
        j,
        [(np.isinf(out["effect_size"]), " have no spread and different values")],
        prefix=f"`{measure}` is infinite where ",
    )
    return out


@comparison("effect_size")
def effect_size(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    measure: str | None = None,
    ci: float | None = None,
    n_resamples: int = 10000,
    random_state: Any = None,
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """How large the difference between two models is: an effect size and its magnitude.

    A p-value says whether a difference can be told from luck, not whether
    it matters; an effect size says how large it is in units of its spread
    (or as a probability), and the magnitude puts a conventional word on it.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame (models x CV splits, or a ``cv_results_`` frame), a
        benchmark frame (models x data sets: their per-data-set means are
        compared) or an items frame (models x questions; see Notes).
    a, b : model name, optional
        ``a`` and ``b``: that pair (model_1 = a). ``a`` alone: ``a`` against
        every other model. Neither: the best model against every other, in
        rank order.
    measure : str, optional
        "cohen_dz" (the default), "cohen_d", "akinshin_gamma",
        "cliff_delta", "vargha_delaney" or "prob_superiority" (see Notes).
    ci : float, optional
        Level of a confidence interval (such as 0.95): adds ``ci_low`` and
        ``ci_high``. For "cohen_dz" the noncentral-t interval; for the other
        measures a percentile bootstrap over data sets (bias-corrected and
        accelerated, BCa, for "cohen_d" across data sets), which needs a
        benchmark frame (fold scores are correlated: see Notes).
    n_resamples : int, default 10000
        Bootstrap resamples of the interval (measures other than "cohen_dz").
    random_state : None, int or numpy.random.Generator
        Seed of the bootstrap (None: fresh numbers on each call, as scipy).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A pair with a missing score: NaN (with a warning), computed on the
        units both models have, or an error.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (needed
        for the "cohen_dz" interval on a scores frame, unless stored with
        :func:`set_design`), and ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, mean_diff, effect_size,
        magnitude`` (then ``ci_low, ci_high`` with ``ci``). ``mean_diff`` is
        the raw mean of model_1 − model_2 (as in :func:`corrected_ttest`);
        ``effect_size`` follows the design's direction: positive (above ½
        for the probabilities) means model_1 is better, for losses too.
        ``magnitude`` is an ordered categorical "negligible" < "small" <
        "medium" < "large". ``attrs["pdcompare"]`` holds ``measure``,
        ``symbol`` (how reports write it: "d_z", "δ", ...), ``thresholds``
        (the cut points), ``ci``, ``interval`` (how it was computed) and the
        scope, design and models as every result.

    Raises
    ------
    ValueError
        For an unknown ``measure``, a ``ci`` outside (0, 1), ``ci`` with a
        measure other than "cohen_dz" on a scores frame (the splits are
        correlated), and the "cohen_dz" interval on a scores frame without
        the design.

    Notes
    -----
    With x and y the values of model_1 and model_2 in the comparison's unit
    (fold scores on a scores frame, per-data-set means on a benchmark frame)
    and d = x − y paired:

    * ``cohen_dz`` = mean(d) / std(d, ddof=1); cut points 0.2 / 0.5 / 0.8;
    * ``cohen_d`` = (mean x − mean y) / pooled std (ddof=1); 0.2 / 0.5 / 0.8;
    * ``akinshin_gamma`` = (median x − median y) / pooled MAD × 1.4826;
      0.2 / 0.5 / 0.8;
    * ``cliff_delta`` = P(x > y) − P(x < y) over all (x_a, y_b); 0.147 /
      0.33 / 0.474;
    * ``vargha_delaney`` A = P(x > y) + ½ P(x = y) = (δ + 1) / 2; cut points
      0.06 / 0.14 / 0.21 on ``|A − ½|``;
    * ``prob_superiority``: the share of paired units with x > y, ties ½;
      as ``vargha_delaney``.

    A magnitude is "negligible" below the first cut point, "small", "medium"
    from the next, "large" at or above the last. The cut points are
    conventions (Cohen 1988; Romano et al. 2006; Vargha and Delaney 2000),
    not laws, and the same as autorank's; ``cohen_d``, ``akinshin_gamma``
    and ``cliff_delta`` equal autorank's ``_cohen_d``, ``_akinshin_gamma``
    and ``_cliffs_delta``. With ``greater_is_better=False`` the values are
    those of y over x (A becomes 1 − A), so the sign always says which
    model is better.

    Intervals. "cohen_dz": the noncentral-t inversion (Cumming and Finch
    2001): the bounds of δ/σ at which the observed t statistic is the upper
    and lower ``(1 − ci)/2`` quantile. Across data sets that is the plain
    paired t with n − 1 df, the interval JASP and SPSS report; on fold
    scores the Nadeau–Bengio statistic ``t_c = mean(d) / (std(d) · sqrt(1/n
    + n_test/n_train))``, whose noncentrality is ``(δ/σ) / sqrt(1/n +
    n_test/n_train)``, so it needs the CV design. Other measures: the
    percentile bootstrap over the independent unit, data sets resampled
    together (pairs stay pairs). CV splits are not independent (their
    training sets overlap), so a bootstrap over them would be far too
    narrow: on a scores frame ``ci`` is refused for those measures.

    On an items frame (DESIGN section 21) the unit is the question. Without
    clusters the questions are independent: the plain paired interval of
    d_z, and the bootstrap over questions for the other measures. With
    clusters the "cohen_dz" interval inverts the clustered t of
    :func:`ttest` with its default standard error (CR2 below 50 clusters,
    on Satterthwaite's degrees of freedom; CR1 on clusters − 1 from 50 on),
    noncentral t scaled by ``sqrt(design_effect / n)``; the bootstrap measures are refused (a
    bootstrap over questions would ignore the clusters).

    On a runs frame (independent runs of stochastic learners, DESIGN section
    17) the default measure is "cliff_delta", the paired measures
    ("cohen_dz", "prob_superiority") are refused naming "cohen_d" and
    "cliff_delta", NaN marks an absent run, and the bootstrap resamples
    each model's runs.

    References
    ----------
    J. Cohen, *Statistical Power Analysis for the Behavioral Sciences*,
    1988. N. Cliff, "Dominance statistics", Psychological Bulletin 114,
    1993. A. Vargha and H. Delaney, "A critique and improvement of the CL
    common language effect size", J. Educ. Behav. Stat. 25, 2000. J. Romano
    et al., "Appropriate statistics for ordinal level data", 2006. G.
    Cumming and S. Finch, "A primer on the understanding, use, and
    calculation of confidence intervals that are based on central and
    noncentral distributions", Educ. Psychol. Meas. 61, 2001. D. Lakens,
    "Calculating and reporting effect sizes", Frontiers in Psychology 4, 2013.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()  # 10x10 CV, design attached
    >>> res = scores.cmp.effect_size(ci=0.95)
    >>> res[["model_2", "mean_diff", "effect_size", "magnitude"]].round(3)
      model_2  mean_diff  effect_size magnitude
    0  linear      0.010        0.261     small
    1  3_poly      0.036        0.577    medium
    2  2_poly      0.255        1.589     large
    >>> res[["ci_low", "ci_high"]].round(3)
       ci_low  ci_high
    0  -0.423    0.944
    1  -0.112    1.262
    2   0.868    2.302

    Compare d_z with the formula:

    >>> d = scores.loc["rbf"] - scores.loc["2_poly"]
    >>> round(float(d.mean() / d.std()), 3)
    1.589
    """
    items = frame_kind(frame) is FrameKind.ITEMS
    if items:
        data = _items.frame_data(frame, design, "effect_size")
    else:
        data = scores_data(frame, **design)
    refuse_one_dataset(data, "effect_size")
    paired = data.design.paired
    measure = core.check_measure(measure, paired=paired)
    # independent units: data sets, runs, or items without clusters
    across = isinstance(data, BenchmarkData) or not paired or (items and not data.clustered)
    ratio = None
    if ci is not None:
        ci = check_fraction("ci", ci)
        n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
        if measure != "cohen_dz" and items and not across:
            msg = (
                f"`ci` with `measure`={measure!r} on an items frame with clusters: a bootstrap "
                "over the questions would ignore that the questions of one cluster go together "
                "and give too narrow an interval. Use `measure='cohen_dz'` (its interval uses "
                "the clustered standard error)."
            )
            raise ValueError(msg)
        if measure != "cohen_dz" and not across:
            msg = (
                f"`ci` with `measure`={measure!r} needs independent units, but the CV splits "
                "of a scores frame are correlated (their training sets overlap), so a "
                "bootstrap over them would give far too narrow an interval. Use "
                "`measure='cohen_dz'` (its interval is Nadeau–Bengio corrected), or a "
                "benchmark frame, where the data sets are resampled."
            )
            raise ValueError(msg)
        if measure == "cohen_dz" and not across and not items:
            ratio = require_ratio(data.design, "effect_size", len(data.splits))
    i, j, scope = data.pairs(a, b)
    if paired:  # an absent run (NaN) of a runs frame is no pairing problem
        data.nan_pairs(i, j, nan_policy)
    out = pair_effects(data, i, j, measure, nan_policy=nan_policy)
    columns: dict[str, Any] = {
        "mean_diff": out["mean_diff"],
        "effect_size": out["effect_size"],
        "magnitude": magnitude_column(out["magnitude"]),
    }
    fields: dict[str, Any] = {}
    if ci is not None:
        policy = "omit" if nan_policy == "omit" else "propagate"
        if measure == "cohen_dz" and items and data.clustered:
            se_type = _items.standard_error(data, None)  # the items ttest's default (CR2 below 50)
            clustered = clustered_paired_ttest(
                data.values, data.cluster, data.n_clusters, i, j, se_type=se_type
            )
            fields["se_type"] = _items.SE_WORDS[se_type]
            low, high = cohen_dz_interval(
                out["effect_size"],
                float(data.n_items),
                ci,
                design_effect=clustered["design_effect"],
                df=clustered["df"],
            )
            fields["interval"] = "noncentral_t_clustered"
        elif measure == "cohen_dz":
            low, high = _cohen_dz_interval(data, i, j, out["effect_size"], ci, ratio, policy)
            fields["interval"] = "noncentral_t" if ratio is None else "noncentral_t_nadeau_bengio"
        else:
            low, high, undefined = core.bootstrap_interval(
                data.values,
                i,
                j,
                measure=measure,
                paired=paired,
                greater_is_better=data.design.greater_is_better,
                confidence=ci,
                n_resamples=n_resamples,
                random_state=random_state,
                nan_policy=policy,
                count_undefined=True,
                method=_interval_method(measure, paired),
            )
            _warn_undefined(data.names, i, j, undefined, measure, n_resamples)
            fields.update(
                interval="bootstrap_bca"
                if _interval_method(measure, paired) == "bca"
                else "bootstrap",
                n_resamples=n_resamples,
                random_state=seed_of(random_state),
            )
        columns["ci_low"], columns["ci_high"] = low, high
    meta = scores_meta(
        "effect_size",
        data,
        scope,
        measure=measure,
        symbol=SYMBOLS[measure],
        thresholds=thresholds(measure),
        ci=ci,
        nan_policy=nan_policy,
        **fields,
    )
    return results.pair_result(data.names, i, j, columns, meta)


def _interval_method(measure: str, paired: bool) -> str:
    """BCa for Cohen's d across data sets, whose percentile interval covers too little.

    On 10 to 20 data sets the percentile bootstrap interval of Cohen's d
    covered 0.89-0.90 at 95 % (``benchmarks/validity_effect_ci.py``); the
    BCa interval corrects its bias and skew.
    """
    return "bca" if measure == "cohen_d" and paired else "percentile"


def _warn_undefined(names, i, j, undefined, measure, n_resamples) -> None:
    """Warn once when some bootstrap resamples gave an infinite or undefined effect."""
    where = np.flatnonzero(undefined)
    if not where.size:
        return
    k = where[np.argmax(undefined[where])]
    cause = " (a resample whose MADs are zero)" if measure == "akinshin_gamma" else ""
    if measure == "cohen_d":
        cause = " (a resample whose standard deviations are zero)"
    others = f" and {where.size - 1} other pairs" if where.size > 1 else ""
    warn(
        f"The bootstrap interval of `{measure}`: {int(undefined[k])} of {n_resamples} "
        f"resamples of {names[i[k]]!r} vs {names[j[k]]!r}{others} gave an infinite or "
        f"undefined effect{cause}; the interval leaves the undefined ones out and keeps "
        "the infinite ones in its tails, so read it as rough. `measure='cliff_delta'` is "
        "defined on every resample."
    )


def _cohen_dz_interval(data, i, j, effect, ci, ratio, nan_policy):
    """The noncentral-t interval of d_z (already in the design's direction) of every pair."""
    n_units = data.values.shape[1]
    present = ~np.isnan(data.values)
    if nan_policy == "omit" and not present.all():
        count = (present[i] & present[j]).sum(axis=1).astype(float)
    else:
        count = np.full(i.size, float(n_units))
    return cohen_dz_interval(effect, count, ci, test_train_ratio=ratio)


def effect_against_best(data: Any, measure: str | None) -> tuple[np.ndarray, np.ndarray, str]:
    """Effect size and magnitude codes of the best model against every model, frame order.

    For ``summary()`` of a benchmark frame: the best (as model_1) against the
    row's model on the data sets where every model has a score, NaN on the
    best's own row. Returns ``(effect, codes, measure)``.
    """
    measure = check_measure(measure, paired=data.design.paired)
    n_models = len(data.names)
    best = int(data.order[0])
    others = np.delete(np.arange(n_models), best)
    effect = np.full(n_models, np.nan)
    codes = np.full(n_models, -1, dtype=np.int64)
    complete = data.complete
    if others.size and complete.any():
        out = effect_sizes(
            data.values[:, complete],
            np.full(others.size, best),
            others,
            measure=measure,
            paired=data.design.paired,
            greater_is_better=data.design.greater_is_better,
        )
        effect[others] = out["effect_size"]
        codes[others] = out["magnitude"]
    return effect, codes, measure
