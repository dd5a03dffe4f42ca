"""Effect sizes of model_1 against model_2, vectorised over every pair (and bootstrap sample).

Every function takes the matrix ``values`` (models x units: CV splits, data
sets or runs, float, NaN for a missing value) and the positions ``i``, ``j``
of the pairs; ``x = values[i]`` is model_1's sample and ``y = values[j]``
model_2's. Two kinds of data:

* **paired** (``paired=True``, scores and benchmark frames): unit ``k`` of
  ``x`` goes with unit ``k`` of ``y``. Under ``nan_policy="propagate"`` a
  pair with a missing value gets NaN; under ``"omit"`` it is computed on the
  units where both models have a value.
* **unpaired** (``paired=False``, runs of stochastic learners): the two rows
  are independent samples, possibly of different sizes; NaN means an absent
  run and is dropped from that model's sample (``nan_policy`` does not
  apply). Only the two-sample measures are defined (:func:`check_measure`).

Signs follow the design's direction: with ``greater_is_better=False``
(losses) the differences are negated, so a positive effect (or one above ½
for the probabilities) always means model_1 is better.

No loop over pairs in Python: location and spread come from one pass over
the models' rows and are gathered per pair; Cliff's delta counts, for every
value of ``x``, the values of ``y`` below and above it with one
``searchsorted`` of the dense ranks of all values into the models' sorted
rows laid end to end; a bootstrap stacks its resamples as more rows, so all
pairs and resamples are one call.
"""

from __future__ import annotations

import numbers

import numpy as np

from pdcompare._validation import check_option, check_random_state
from pdcompare.stats import _special as special
from pdcompare.stats._moments import chunks, pair_moments
from pdcompare.stats.aggregates import _quantile_sorted, bca_levels

__all__ = [
    "MAGNITUDES",
    "MEASURES",
    "PAIRED_MEASURES",
    "THRESHOLDS",
    "bootstrap_interval",
    "check_measure",
    "cohen_dz_interval",
    "effect_sizes",
    "magnitude",
]

#: Every measure, in the order of the documentation.
MEASURES = (
    "cohen_dz",
    "cohen_d",
    "akinshin_gamma",
    "cliff_delta",
    "vargha_delaney",
    "prob_superiority",
)

#: The measures of paired units (differences unit by unit): refused on unpaired runs.
PAIRED_MEASURES = ("cohen_dz", "prob_superiority")

#: Measures that are probabilities: their magnitude is that of ``|A - 1/2|``.
PROBABILITY_MEASURES = ("vargha_delaney", "prob_superiority")

#: Cut points (small, medium, large) on ``|effect|`` (``|A - 1/2|`` for probabilities).
#: Conventions, not laws: Cohen (1988) for d, Romano et al. (2006) for Cliff's delta,
#: Vargha and Delaney (2000) for A; the same as autorank's ``_effect_level``.
THRESHOLDS = {
    "cohen_dz": (0.2, 0.5, 0.8),
    "cohen_d": (0.2, 0.5, 0.8),
    "akinshin_gamma": (0.2, 0.5, 0.8),
    "cliff_delta": (0.147, 0.33, 0.474),
    "vargha_delaney": (0.06, 0.14, 0.21),
    "prob_superiority": (0.06, 0.14, 0.21),
}

#: Magnitude labels, smallest first.
MAGNITUDES = ("negligible", "small", "medium", "large")

#: Spread, in ulps of the largest value, below which a row is constant (as ``_moments``).
_NOISE_ULPS = 16.0

#: Elements of the count tables of Cliff's delta held in memory at once.
_BLOCK_ELEMENTS = 1 << 22

#: Stand-in for an infinite resampled effect in the bootstrap's quantiles.
_HUGE = 1e300

#: Scale that makes the median absolute deviation estimate a normal standard deviation.
MAD_SCALE = 1.4826


def check_measure(measure: str | None, *, paired: bool = True) -> str:
    """The measure to compute: ``measure``, or the default for paired or unpaired data.

    Parameters
    ----------
    measure : str or None
        One of :data:`MEASURES`, or None for the default: ``"cohen_dz"`` on
        paired units (fold scores, data sets), ``"cliff_delta"`` on unpaired
        ones (the runs of a runs frame).
    paired : bool, default True
        Whether the units of the two models are paired. The paired measures
        (``"cohen_dz"``, ``"prob_superiority"``) need pairs and are refused
        on unpaired data.

    Returns
    -------
    str
        The measure's name.

    Examples
    --------
    >>> check_measure(None), check_measure(None, paired=False)
    ('cohen_dz', 'cliff_delta')
    >>> check_measure("cohen_dz", paired=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: `measure`='cohen_dz' compares paired units, but these runs are unpaired ...
    """
    if measure is None:
        return "cohen_dz" if paired else "cliff_delta"
    check_option("measure", measure, MEASURES)
    if not paired and measure in PAIRED_MEASURES:
        msg = (
            f"`measure`={measure!r} compares paired units, but these runs are unpaired "
            "(run k of one model has nothing to do with run k of another); use 'cohen_d' "
            "or 'cliff_delta' (the default), or 'akinshin_gamma' or 'vargha_delaney'."
        )
        raise ValueError(msg)
    return measure


def magnitude(effect, measure: str) -> np.ndarray:
    """Magnitude code of each effect: 0 negligible, 1 small, 2 medium, 3 large, -1 for NaN.

    The cut points are :data:`THRESHOLDS`: a value below the first is
    negligible, at or above the last large. Probabilities
    (``"vargha_delaney"``, ``"prob_superiority"``) are judged by ``|A - 1/2|``.

    Examples
    --------
    >>> magnitude(np.array([0.1, -0.3, 0.5, 1.2, np.nan]), "cohen_d").tolist()
    [0, 1, 2, 3, -1]
    >>> magnitude(np.array([0.5, 0.3, 0.95]), "vargha_delaney").tolist()
    [0, 2, 3]
    """
    effect = np.asarray(effect, dtype=float)
    size = np.abs(effect - 0.5) if measure in PROBABILITY_MEASURES else np.abs(effect)
    # A tolerance of a few ulps: |A - 1/2| = 0.14 exactly on paper may round below 0.14.
    cuts = np.asarray(THRESHOLDS[measure]) * (1.0 - 8 * np.finfo(float).eps)
    codes = np.searchsorted(cuts, size, side="right").astype(np.int64)
    codes[np.isnan(size)] = -1
    return codes


def _oriented(effect, measure: str, greater_is_better: bool) -> np.ndarray:
    """``effect`` of the raw x over y, turned so that positive means model_1 better."""
    if greater_is_better:
        return effect
    return 1.0 - effect if measure in PROBABILITY_MEASURES else -effect


def _ratio(numerator, denominator) -> np.ndarray:
    """``numerator / denominator``, 0 where both are 0 (identical samples), ±inf for x/0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out = numerator / denominator
    out[(numerator == 0) & (denominator == 0)] = 0.0
    return out


# --------------------------------------------------------------------------- two samples


def _row_location_spread(rows, measure):
    """Per row (NaN = absent): count, location and squared spread for d or gamma."""
    present = ~np.isnan(rows)
    count = present.sum(axis=1).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        if measure == "cohen_d":
            if present.all():
                location = rows.mean(axis=1)
                spread = (
                    rows.var(axis=1, ddof=1) if rows.shape[1] > 1 else np.full(len(rows), np.nan)
                )
            else:
                filled = np.where(present, rows, 0.0)
                location = filled.sum(axis=1) / count
                centred = np.where(present, rows - location[:, None], 0.0)
                spread = np.einsum("ij,ij->i", centred, centred) / (count - 1)
        else:  # akinshin_gamma: median and the MAD scaled to a normal standard deviation
            location = _row_median(rows, present)
            deviation = np.abs(rows - location[:, None])
            spread = (MAD_SCALE * _row_median(deviation, present)) ** 2
    # A constant row computed in floating point varies by a few ulps: its spread is 0.
    scale = np.abs(np.where(present, rows, 0.0)).max(axis=1, initial=0.0)
    spread = np.where(spread <= (_NOISE_ULPS * np.finfo(float).eps * scale) ** 2, 0.0, spread)
    spread = np.where(count > 1, spread, np.nan)
    location = np.where(count > 0, location, np.nan)
    return count, location, spread


def _row_median(rows, present):
    """Median of each row over its present values (NaN where none)."""
    if present.all():
        return np.median(rows, axis=1)
    out = np.full(len(rows), np.nan)
    some = present.any(axis=1)
    if some.any():
        out[some] = np.nanmedian(rows[some], axis=1)
    return out


def _location_effect(rows, i, j, measure):
    """(location x - location y) / pooled spread, rows with NaN as absent values."""
    count, location, spread = _row_location_spread(rows, measure)
    nx, ny = count[i], count[j]
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = np.sqrt(((nx - 1) * spread[i] + (ny - 1) * spread[j]) / (nx + ny - 2))
    return _ratio(location[i] - location[j], pooled)


def _dense_ranks(rows):
    """Dense integer ranks of all present values (ties share one); ``top`` for absent ones.

    Returns ``(ranks, top)`` with ``ranks`` of the shape of ``rows`` and
    ``top`` the number of distinct present values, above every rank.
    """
    flat = rows.ravel()
    present = ~np.isnan(flat)
    distinct, inverse = np.unique(flat[present], return_inverse=True)
    top = distinct.size
    ranks = np.full(flat.shape, top, dtype=np.int64)
    ranks[present] = inverse.ravel()
    return ranks.reshape(rows.shape), top


def _cliff_from_ranks(ranks, top, i, j):
    """Cliff's delta of rows ``i`` over rows ``j`` from dense ranks (``top`` = absent).

    ``#(y < x_k)`` and ``#(y <= x_k)`` for every value of every pair come
    from ``searchsorted`` into the sorted rows laid end to end, each row
    offset by its position times ``top + 1`` (so the whole is sorted).
    """
    n_rows, n = ranks.shape
    stride = top + 1
    present = ranks < top
    count = present.sum(axis=1).astype(float)
    keys = (np.sort(ranks, axis=1) + (np.arange(n_rows, dtype=np.int64) * stride)[:, None]).ravel()
    delta = np.full(i.size, np.nan)
    for part in chunks(i.size, 2 * n):
        pi, pj = i[part], j[part]
        query = ranks[pi] + (pj * stride)[:, None]
        start = (pj * n)[:, None]
        below = np.searchsorted(keys, query, side="left") - start  # y < x_k
        at_or_below = np.searchsorted(keys, query, side="right") - start  # y <= x_k
        mine = present[pi]
        ny = count[pj]
        wins = np.where(mine, below, 0).sum(axis=1)
        losses = np.where(mine, ny[:, None] - at_or_below, 0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            delta[part] = (wins - losses) / (count[pi] * ny)
    return delta


def _cliff_by_model(rows, i, j):
    """Cliff's delta of rows ``i`` over rows ``j`` when the pairs cover most model pairs.

    With dense ranks ``r`` of all values, ``H[r, m]`` the number of values of
    model m at rank r and ``L[r, m]`` the number below it, the balance
    ``#(x > y) - #(y > x)`` of a pair is ``sum over x of (2 L + H)[r_x, m_y]
    - n_x n_y``: one cumulative sum per block of second models and one
    gather of the first models' ranks give every (first, second) combination.
    """
    ranks, top = _dense_ranks(rows)
    present = ranks < top
    count = present.sum(axis=1)
    firsts, at_first = np.unique(i, return_inverse=True)
    seconds, at_second = np.unique(j, return_inverse=True)
    mine = present[firsts]
    keys = ranks[firsts][mine]  # row by row: the values of each first model together
    ends = np.cumsum(mine.sum(axis=1))
    starts = ends - mine.sum(axis=1)
    balance = np.empty((firsts.size, seconds.size))
    # The running sums stay below keys.size * 2 * max(count): int32 when that fits.
    dtype = np.int32 if keys.size * 2 * (int(count.max(initial=0)) + 1) < 2**31 else np.int64
    width = max(1, _BLOCK_ELEMENTS // max(top + 1, keys.size, 1))
    for start in range(0, seconds.size, width):
        block = seconds[start : start + width]
        theirs = ranks[block]
        column = np.broadcast_to(np.arange(block.size)[:, None], theirs.shape)
        kept = theirs < top
        counts = np.bincount(
            column[kept] * (top + 1) + theirs[kept], minlength=(top + 1) * block.size
        ).reshape(block.size, top + 1)
        below = np.cumsum(counts, axis=1)
        below -= counts
        weight = (2 * below + counts).astype(dtype)  # #(y < x) + #(y <= x) at each rank
        total = np.zeros((block.size, keys.size + 1), dtype=dtype)
        np.cumsum(weight[:, keys], axis=1, out=total[:, 1:])
        balance[:, start : start + block.size] = (total[:, ends] - total[:, starts]).T
    nx, ny = count[i].astype(float), count[j].astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (balance[at_first.ravel(), at_second.ravel()] - nx * ny) / (nx * ny)


def _two_sample(rows, i, j, measure):
    """A two-sample measure (d, gamma, delta, A) of rows ``i`` over rows ``j``, NaN absent."""
    if measure in ("cohen_d", "akinshin_gamma"):
        return _location_effect(rows, i, j, measure)
    if np.unique(i).size * np.unique(j).size <= 4 * i.size:  # most model pairs: by model
        delta = _cliff_by_model(rows, i, j)
    else:  # few pairs among many rows (bootstrap resamples): by pair
        ranks, top = _dense_ranks(rows)
        delta = _cliff_from_ranks(ranks, top, i, j)
    return delta if measure == "cliff_delta" else (delta + 1.0) / 2.0


# --------------------------------------------------------------------------- paired measures


def _prob_superiority(values, i, j, nan_policy):
    """Share of units where x > y, ties counted 1/2, per pair."""
    n_units = values.shape[1]
    out = np.full(i.size, np.nan)
    complete = not np.isnan(values).any()
    for part in chunks(i.size, n_units):
        diff = values[i[part]] - values[j[part]]
        score = np.count_nonzero(diff > 0, axis=1) + 0.5 * np.count_nonzero(diff == 0, axis=1)
        if complete:  # the usual case: no mask to build
            out[part] = score / n_units
            continue
        count = n_units - np.count_nonzero(np.isnan(diff), axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = score / count
        keep = count > 0 if nan_policy == "omit" else count == n_units
        out[part] = np.where(keep, share, np.nan)
    return out


def _paired_two_sample(values, i, j, measure, nan_policy):
    """A two-sample measure on paired units: NaN pairs propagated or their units dropped."""
    row_has_nan = np.isnan(values).any(axis=1)
    ragged = row_has_nan[i] | row_has_nan[j]
    out = np.full(i.size, np.nan)
    whole = np.flatnonzero(~ragged)
    if whole.size:
        out[whole] = _two_sample(values, i[whole], j[whole], measure)
    if nan_policy == "omit" and ragged.any():
        where = np.flatnonzero(ragged)
        for part in chunks(where.size, 2 * values.shape[1]):
            rows = where[part]
            x, y = values[i[rows]], values[j[rows]]
            missing = np.isnan(x) | np.isnan(y)
            stacked = np.where(np.concatenate([missing, missing]), np.nan, np.concatenate([x, y]))
            k = np.arange(rows.size)
            out[rows] = _two_sample(stacked, k, k + rows.size, measure)
    return out


def _check_inputs(values, i, j, nan_policy):
    values = np.asarray(values, dtype=float)
    if values.ndim != 2:
        msg = f"`values` must be a 2-D array (models x units); got {values.ndim} dimension(s)."
        raise ValueError(msg)
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    if i.shape != j.shape:
        msg = f"`i` and `j` must have the same length; got {i.size} and {j.size}."
        raise ValueError(msg)
    check_option("nan_policy", nan_policy, ("propagate", "omit"))
    return values, i, j


def _raw_effect(values, i, j, measure, paired, nan_policy):
    """The measure of x over y (no direction), and the mask of infinite (zero-spread) ones."""
    if measure == "cohen_dz":
        count, mean, variance, _, _ = pair_moments(values, i, j, nan_policy)
        effect = _ratio(mean, np.sqrt(variance))
        effect[count < 2] = np.nan
        return effect
    if measure == "prob_superiority":
        return _prob_superiority(values, i, j, nan_policy)
    if paired:
        return _paired_two_sample(values, i, j, measure, nan_policy)
    return _two_sample(values, i, j, measure)


def _mean_diff(values, i, j, paired, nan_policy):
    """Raw mean of model_1 minus mean of model_2 (paired: the mean of the differences).

    Rows without a missing value give it as the difference of their means; a
    paired pair with a missing value under "omit" as the mean of the
    differences on the units both have (``pair_moments``), under
    "propagate" NaN.
    """
    present = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(present, values, 0.0).sum(axis=1) / present.sum(axis=1)
    out = means[i] - means[j]
    if paired:
        row_has_nan = ~present.all(axis=1)
        ragged = row_has_nan[i] | row_has_nan[j]
        if ragged.any():
            if nan_policy == "omit":
                out[ragged] = pair_moments(values, i[ragged], j[ragged], "omit")[1]
            else:
                out[ragged] = np.nan
    return out


def effect_sizes(
    values,
    i,
    j,
    *,
    measure: str = "cohen_dz",
    paired: bool = True,
    greater_is_better: bool = True,
    nan_policy: str = "propagate",
) -> dict[str, np.ndarray]:
    """Effect size of model_1 (``values[i]``) against model_2 (``values[j]``) for every pair.

    Parameters
    ----------
    values : array_like, shape (models, units)
        Scores; NaN for a missing one (paired) or an absent run (unpaired).
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    measure : str, default "cohen_dz"
        One of :data:`MEASURES` (see Notes).
    paired : bool, default True
        Whether unit ``k`` of one model goes with unit ``k`` of the other
        (CV splits, data sets). False for unpaired runs: rows are then
        independent samples of any sizes (NaN-padded) and the paired
        measures are refused.
    greater_is_better : bool, default True
        False for losses: the effect is turned so that a positive value
        (above ½ for the probabilities) means model_1 is better.
    nan_policy : {"propagate", "omit"}, default "propagate"
        Paired data: NaN for a pair with a missing value, or the measure on
        the units both models have. Ignored when unpaired.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_diff`` (raw mean of model_1 minus mean of model_2, the mean
        of the paired differences when paired), ``effect_size`` (in the
        design's direction) and ``magnitude`` (codes of :func:`magnitude`).

    Notes
    -----
    With ``x`` and ``y`` the two samples and ``d = x - y`` (paired):

    * ``cohen_dz`` = mean(d) / std(d, ddof=1) (Cohen 1988; Lakens 2013);
    * ``cohen_d`` = (mean x - mean y) / s_p with
      ``s_p² = ((n_x - 1) s_x² + (n_y - 1) s_y²) / (n_x + n_y - 2)``, as
      autorank's ``_cohen_d``;
    * ``akinshin_gamma`` = (median x - median y) / the same pooling of the
      MADs scaled by 1.4826, as autorank's ``_akinshin_gamma``;
    * ``cliff_delta`` = P(x > y) - P(x < y) over all (x_a, y_b) (Cliff
      1993), as autorank's ``_cliffs_delta``;
    * ``vargha_delaney`` A = P(x > y) + ½ P(x = y) = (delta + 1) / 2
      (Vargha and Delaney 2000);
    * ``prob_superiority`` = share of paired units with x > y, ties ½.

    Two identical samples give 0 (½ for the probabilities); a zero spread
    with different locations gives ±inf.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, 0.85, 0.95, 0.7], [0.8, 0.75, 0.8, 0.85, 0.72]])
    >>> out = effect_sizes(x, [0], [1], measure="cohen_dz")
    >>> round(float(out["effect_size"][0]), 4)
    1.136

    Compare with the formula and with autorank's Cliff's delta:

    >>> d = x[0] - x[1]
    >>> round(float(d.mean() / d.std(ddof=1)), 4)
    1.136
    >>> from autorank._util import _cliffs_delta
    >>> out = effect_sizes(x, [0], [1], measure="cliff_delta")
    >>> float(out["effect_size"][0]), _cliffs_delta(x[0], x[1])
    (0.4, 0.4)
    """
    measure = check_measure(measure, paired=paired)
    values, i, j = _check_inputs(values, i, j, nan_policy)
    raw = _raw_effect(values, i, j, measure, paired, nan_policy)
    effect = _oriented(raw, measure, greater_is_better)
    return {
        "mean_diff": _mean_diff(values, i, j, paired, nan_policy),
        "effect_size": effect,
        "magnitude": magnitude(effect, measure),
    }


# --------------------------------------------------------------------------- intervals


def cohen_dz_interval(
    effect,
    n,
    confidence: float = 0.95,
    *,
    test_train_ratio: float | None = None,
    design_effect=None,
    df=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Confidence interval of d_z = δ/σ by inverting the noncentral t distribution.

    Parameters
    ----------
    effect : array_like
        The observed d_z = mean(d) / std(d, ddof=1) of each pair.
    n : array_like
        The number of paired differences of each pair.
    confidence : float, default 0.95
        Level of the two-sided, equal-tailed interval.
    test_train_ratio : float, optional
        ``n_test / n_train`` of correlated CV splits: the Nadeau–Bengio
        statistic is used. None: independent units (the plain paired t).
    design_effect, df : array_like, optional
        Clustered units (items in clusters): the clustered variance of the
        mean difference over the unclustered one, and the degrees of
        freedom (clusters − 1) of the clustered t.

    Returns
    -------
    tuple of numpy.ndarray
        ``(low, high)`` for every pair.

    Notes
    -----
    With ``c = sqrt(1/n + r)`` (``r`` the test/train ratio, 0 for
    independent units) the observed statistic is ``t = d_z / c`` and follows
    a noncentral t with ``n - 1`` degrees of freedom and noncentrality
    ``λ = (δ/σ) / c``. The bounds are the λ at which ``t`` is the upper and
    the lower ``(1 - confidence)/2`` quantile (``scipy.special.nctdtrinc``),
    times ``c``. With ``r = 0`` this is the interval of Cumming and Finch
    (2001) that JASP and SPSS report for a paired d_z. With clustered units
    ``c = sqrt(deff / n)`` (``deff`` the design effect: the clustered t is
    ``d̄ / (sd · c)``) and the degrees of freedom are the clustered t's
    (clusters − 1). An infinite d_z (a constant non-zero difference) gives
    an interval from or to ±inf.

    Examples
    --------
    Cholesterol before and after (effsize issue 58); JASP and SPSS give
    d_z = 0.999, 95% CI (0.115, 1.839):

    >>> before = np.array([201, 231, 221, 228, 284, 267, 232, 215])
    >>> after = np.array([200, 236, 216, 219, 260, 255, 221, 203])
    >>> d = before - after
    >>> low, high = cohen_dz_interval(d.mean() / d.std(ddof=1), 8)
    >>> round(float(low), 3), round(float(high), 3)
    (0.115, 1.839)
    """
    effect = np.asarray(effect, dtype=float)
    n = np.asarray(n, dtype=float)
    ratio = 0.0 if test_train_ratio is None else float(test_train_ratio)
    with np.errstate(invalid="ignore", divide="ignore"):
        if design_effect is None:
            scale = np.sqrt(1.0 / n + ratio)
        else:
            scale = np.sqrt(np.asarray(design_effect, dtype=float) / n)
        statistic = effect / scale
    df = n - 1.0 if df is None else np.asarray(df, dtype=float)
    tail = (1.0 - confidence) / 2.0
    finite = np.isfinite(statistic) & (df > 0)
    low = np.full(np.broadcast(effect, n).shape, np.nan)
    high = np.full_like(low, np.nan)
    if finite.any():
        t, f = (
            np.broadcast_to(statistic, low.shape)[finite],
            np.broadcast_to(df, low.shape)[finite],
        )
        s = np.broadcast_to(scale, low.shape)[finite]
        low[finite] = special.nctdtrinc(f, 1.0 - tail, t) * s
        high[finite] = special.nctdtrinc(f, tail, t) * s
    infinite = np.isinf(np.broadcast_to(statistic, low.shape)) & (
        np.broadcast_to(df, low.shape) > 0
    )
    sign = np.sign(np.broadcast_to(statistic, low.shape))
    low[infinite & (sign > 0)], high[infinite & (sign > 0)] = np.inf, np.inf
    low[infinite & (sign < 0)], high[infinite & (sign < 0)] = -np.inf, -np.inf
    return low, high


def _resample_rows(values, draws, paired):
    """Rows of ``values`` resampled by ``draws`` (uniforms of shape (B, models, units)).

    Paired: the units (columns) are resampled, the same for every model (the
    first model's draws are used). Unpaired: each model's present values are
    resampled among themselves; absent runs stay absent (NaN) at the end.
    """
    n_units = values.shape[1]
    if paired:
        idx = (draws[:, 0, :] * n_units).astype(np.intp)  # (B, units)
        return values[:, idx].transpose(1, 0, 2)  # (B, models, units)
    present = ~np.isnan(values)
    count = present.sum(axis=1)
    order = np.argsort(~present, axis=1, kind="stable")  # present values first
    packed = np.take_along_axis(values, order, axis=1)
    idx = (draws * count[None, :, None]).astype(np.intp)
    idx = np.minimum(idx, np.maximum(count - 1, 0)[None, :, None])
    out = np.take_along_axis(np.broadcast_to(packed, draws.shape), idx, axis=2)
    absent = np.arange(n_units)[None, :] >= count[:, None]
    out[:, absent] = np.nan  # keep the sizes: NaN where the model has no run
    return out


def bootstrap_interval(
    values,
    i,
    j,
    *,
    measure: str,
    paired: bool = True,
    greater_is_better: bool = True,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    random_state=None,
    nan_policy: str = "propagate",
    count_undefined: bool = False,
    method: str = "percentile",
) -> tuple[np.ndarray, ...]:
    """Percentile bootstrap interval of an effect size, every pair and resample at once.

    Parameters
    ----------
    values : array_like, shape (models, units)
        As in :func:`effect_sizes`; the units must be independent (data sets,
        runs), never correlated CV splits.
    i, j : array_like of int
        Positions of model_1 and model_2 of each pair.
    measure : str
        One of :data:`MEASURES`.
    paired : bool, default True
        Paired units are resampled together (the same units for every
        model, so pairs stay pairs); unpaired runs are resampled model by
        model, each among its own runs.
    greater_is_better : bool, default True
        Direction, as in :func:`effect_sizes`.
    confidence : float, default 0.95
        Level of the equal-tailed percentile interval.
    n_resamples : int, default 10000
        Number of bootstrap resamples.
    random_state : None, int or numpy.random.Generator
        Seed of the resampling.
    nan_policy : {"propagate", "omit"}, default "propagate"
        As in :func:`effect_sizes`.
    count_undefined : bool, default False
        Also return, for each pair, how many resamples gave an infinite or
        undefined (NaN) effect, such as γ of a resample whose MADs are both
        zero, for the caller to warn with the count.
    method : {"percentile", "bca"}, default "percentile"
        The equal-tailed percentile interval, or the bias-corrected and
        accelerated one (Efron 1987; ``stats.aggregates.bca_levels``, its
        acceleration from the leave-one-unit-out jackknife), on paired units
        only. A pair with an undefined or infinite resample keeps the
        percentile interval.

    Returns
    -------
    tuple of numpy.ndarray
        ``(low, high)``: the ``(1 - confidence)/2`` and ``(1 + confidence)/2``
        quantiles of the resampled effect sizes of each pair (NaN resamples,
        such as a resample of identical values for a ratio measure, left out);
        ``(low, high, n_undefined)`` with ``count_undefined=True``.

    Notes
    -----
    The resamples of the models a pair involves are stacked as rows of one
    matrix, so :func:`effect_sizes` computes every pair in every resample
    in one call (in chunks of resamples that bound the memory).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(2, 30)) + np.array([[0.8], [0.0]])
    >>> low, high = bootstrap_interval(x, [0], [1], measure="cliff_delta",
    ...                                n_resamples=2000, random_state=0)
    >>> bool(low[0] < effect_sizes(x, [0], [1], measure="cliff_delta")["effect_size"][0] < high[0])
    True
    """
    measure = check_measure(measure, paired=paired)
    values, i, j = _check_inputs(values, i, j, nan_policy)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, numbers.Integral):
        msg = f"`n_resamples` must be a positive integer; got {n_resamples!r}."
        raise TypeError(msg)
    rng = check_random_state(random_state)
    state = rng.bit_generator.state  # every chunk of pairs replays the same draws
    low = np.full(i.size, np.nan)
    high = np.full(i.size, np.nan)
    undefined = np.zeros(i.size, dtype=np.int64)
    tail = (1.0 - confidence) / 2.0
    check_option("method", method, ("percentile", "bca"))
    if method == "bca" and not paired:
        msg = "`method`='bca' needs paired units (data sets); these runs are unpaired."
        raise ValueError(msg)
    for part in chunks(i.size, n_resamples):  # bounds the resampled effects held at once
        replay = np.random.Generator(type(rng.bit_generator)())
        replay.bit_generator.state = state
        samples = _resampled_effects(
            values,
            i[part],
            j[part],
            measure,
            paired,
            greater_is_better,
            nan_policy,
            n_resamples,
            replay,
        )
        undefined[part] = np.count_nonzero(~np.isfinite(samples), axis=0)
        some = ~np.all(np.isnan(samples), axis=0)
        if some.any():
            rows = np.flatnonzero(some) + part.start
            # An infinite resample (γ of a resample whose MADs are zero) would make the
            # quantile's interpolation inf - inf = NaN: stand in a huge finite value and
            # read a quantile that reaches it as infinite.
            kept = np.clip(samples[:, some], -_HUGE, _HUGE)
            with np.errstate(invalid="ignore", over="ignore"):
                found = np.nanquantile(kept, [tail, 1.0 - tail], axis=0)
            found[np.abs(found) > _HUGE * 1e-100] *= np.inf
            low[rows], high[rows] = found
        finite = np.isfinite(samples).all(axis=0)
        if method == "bca" and finite.any():
            pairs = np.arange(part.start, part.stop)[finite]
            low[pairs], high[pairs] = _bca_interval(
                values, i[pairs], j[pairs], samples[:, finite], measure, greater_is_better,
                nan_policy, confidence,
            )  # fmt: skip
        rng.bit_generator.state = replay.bit_generator.state  # as if drawn once
    return (low, high, undefined) if count_undefined else (low, high)


def _bca_interval(values, i, j, samples, measure, greater_is_better, nan_policy, confidence):
    """BCa interval of paired units from the resampled effects (B, pairs), every pair at once."""
    used, where = np.unique(np.concatenate([i, j]), return_inverse=True)
    pi, pj = where[: i.size], where[i.size :]
    rows = values[used]
    n_models, n_units = rows.shape
    raw = _raw_effect(rows, pi, pj, measure, True, nan_policy)
    estimate = _oriented(raw, measure, greater_is_better)
    # The jackknife: unit l left out of every model, (units, models, units - 1) at once.
    keep = ~np.eye(n_units, dtype=bool)
    kept = np.nonzero(keep)[1].reshape(n_units, n_units - 1)  # row l: the other units
    left_out = rows[:, kept].transpose(1, 0, 2)
    stacked = left_out.reshape(n_units * n_models, n_units - 1)
    offset = (np.arange(n_units) * n_models)[:, None]
    bi, bj = (offset + pi).ravel(), (offset + pj).ravel()
    jackknifed = _raw_effect(stacked, bi, bj, measure, True, nan_policy).reshape(n_units, i.size)
    jackknifed = _oriented(jackknifed, measure, greater_is_better)
    q_low, q_high = bca_levels(samples, estimate, jackknifed, confidence)
    ordered = np.sort(samples, axis=0)
    return _quantile_sorted(ordered, q_low), _quantile_sorted(ordered, q_high)


def _resampled_effects(
    values, i, j, measure, paired, greater_is_better, nan_policy, n_resamples, rng
):
    """The effect of every pair in every resample, shape (n_resamples, pairs)."""
    used, where = np.unique(np.concatenate([i, j]), return_inverse=True)
    pi, pj = where[: i.size], where[i.size :]
    rows = values[used]
    n_models, n_units = rows.shape
    samples = np.empty((n_resamples, i.size))
    per_chunk = max(1, _BLOCK_ELEMENTS // max(1, n_models * n_units))
    for start in range(0, n_resamples, per_chunk):
        size = min(per_chunk, n_resamples - start)
        shape = (size, 1 if paired else n_models, n_units)
        draws = rng.random(shape)
        stacked = _resample_rows(rows, draws, paired).reshape(size * n_models, n_units)
        offset = (np.arange(size) * n_models)[:, None]
        bi, bj = (offset + pi).ravel(), (offset + pj).ravel()
        raw = _raw_effect(stacked, bi, bj, measure, paired, nan_policy)
        samples[start : start + size] = _oriented(raw, measure, greater_is_better).reshape(
            size, i.size
        )
    return samples
