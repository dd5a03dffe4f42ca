"""Agreement of judges with human labels: Cohen's κ, Krippendorff's α, bootstrap intervals.

Every statistic here is a function of **sums over units** (items, or answers
of a model to an item) of a few per-unit numbers:

- Cohen's κ of a judge: the confusion table, the sum of each unit's one-hot
  ``(human, judge)`` cell;
- Krippendorff's α in the coincidence-matrix form (Krippendorff 2011,
  "Computing Krippendorff's alpha-reliability"; as the ``krippendorff``
  package computes it): with ``m_u`` values in unit ``u`` (only units with
  ``m_u >= 2`` are pairable) the coincidences are
  ``o_ck = sum_u (n_uc n_uk - [c = k] n_uc) / (m_u - 1)``, ``n_c = sum_k o_ck``,
  ``n = sum_c n_c``, and ``α = 1 - (n - 1) sum_ck o_ck δ²_ck / sum_ck n_c n_k δ²_ck``.
  Nominal (``δ² = [c ≠ k]``) needs the per-unit counts and
  ``(m_u² - sum_c n_uc²) / (m_u - 1)``; interval (``δ² = (c - k)²``) the
  per-unit ``m_u``, sum, sum of squares and
  ``(2 m_u S2_u - 2 S1_u²) / (m_u - 1)``; ordinal
  (``δ²_ck = (sum_{g=c..k} n_g - (n_c + n_k)/2)²``, which depends on the
  marginals) the whole per-unit coincidence matrix.

So the **cluster bootstrap** (clusters resampled whole, with replacement) is
a matrix product: the per-unit numbers summed per cluster (``G x K``), a block
of resamples as counts of each cluster (``B x G``), their product the sums of
every resample at once, and the statistics read from those sums, for every
judge together. No Python loop runs per resample.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from pdcompare._validation import check_random_state

#: Krippendorff's levels of measurement.
LEVELS = ("nominal", "ordinal", "interval")

#: At most this many distinct values (human and judges together) are categories: κ, accuracy.
MAX_CATEGORIES = 20

#: Elements of the resample-count block (resamples x clusters, or x sums): bounds memory.
_BLOCK_ELEMENTS = 2**21


def category_codes(values: np.ndarray, domain: np.ndarray) -> np.ndarray:
    """Each value's position in the sorted ``domain``; -1 where the value is NaN.

    Examples
    --------
    >>> category_codes(np.array([1.0, np.nan, 0.0]), np.array([0.0, 1.0]))
    array([ 1, -1,  0])
    """
    values = np.asarray(values, dtype=float)
    codes = np.searchsorted(domain, np.where(np.isnan(values), domain[0], values))
    return np.where(np.isnan(values), -1, codes)


def _one_hot(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """``codes`` (any shape, -1 missing) as one-hot float rows over the last new axis."""
    return (codes[..., None] == np.arange(n_categories)).astype(float)


def cohen_kappa(table: np.ndarray) -> np.ndarray:
    """Cohen's κ of confusion tables ``(..., V, V)`` (rows: one rater, columns: the other).

    ``κ = (p_o - p_e) / (1 - p_e)`` with ``p_o`` the share on the diagonal and
    ``p_e = sum_c row_c col_c / n²`` (Cohen 1960); NaN where ``p_e = 1``.

    Examples
    --------
    >>> print(round(float(cohen_kappa(np.array([[30.0, 10.0], [2.0, 78.0]]))), 4))
    0.7632
    """
    table = np.asarray(table, dtype=float)
    n = table.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.trace(table, axis1=-2, axis2=-1) / n
        expected = (table.sum(axis=-1) * table.sum(axis=-2)).sum(axis=-1) / n**2
        return (observed - expected) / (1.0 - expected)


def confusion_units(human: np.ndarray, judges: np.ndarray, n_categories: int) -> np.ndarray:
    """Each unit's one-hot ``(human, judge)`` cell for every judge: ``(N, J, V * V)``.

    ``human`` holds codes ``(N,)``, ``judges`` codes ``(J, N)`` (-1 missing);
    a unit missing either label is all zeros. Summed over units: the tables.
    """
    v = n_categories
    cell = np.where((human >= 0) & (judges >= 0), human * v + judges, -1)  # (J, N)
    return _one_hot(cell.T, v * v)


def alpha_units(data: np.ndarray, level: str, n_categories: int = 0) -> np.ndarray:
    """Krippendorff's per-unit numbers of rater sets ``data (P, R, N)``: ``(N, P, K)``.

    For ``"nominal"`` and ``"ordinal"`` ``data`` holds category codes (-1
    missing) and ``n_categories`` their count; for ``"interval"`` the values
    (NaN missing). Units with fewer than two values contribute zeros. Summed
    over units, :func:`alpha_from_sums` reads α from them.
    """
    if level == "interval":
        values = np.asarray(data, dtype=float)
        present = ~np.isnan(values)
        m = present.sum(axis=1).astype(float)  # (P, N)
        x = np.where(present, values, 0.0)
        s1, s2 = x.sum(axis=1), (x * x).sum(axis=1)
        pairable = m >= 2
        with np.errstate(divide="ignore", invalid="ignore"):
            disagreement = np.where(pairable, (2.0 * m * s2 - 2.0 * s1**2) / (m - 1.0), 0.0)
        stats = [np.where(pairable, part, 0.0) for part in (m, s1, s2)] + [disagreement]
        return np.stack(stats, axis=-1).transpose(1, 0, 2)
    counts = _one_hot(np.asarray(data), n_categories).sum(axis=1)  # (P, N, V)
    m = counts.sum(axis=-1)
    pairable = m >= 2
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(pairable, 1.0 / (m - 1.0), 0.0)[..., None]
    if level == "nominal":
        off = (m**2 - (counts**2).sum(axis=-1))[..., None] * share
        stats = np.concatenate([counts * pairable[..., None], off], axis=-1)
    else:  # ordinal: the unit's coincidence matrix
        outer = counts[..., :, None] * counts[..., None, :]
        outer -= counts[..., :, None] * np.eye(n_categories)
        stats = (outer * share[..., None]).reshape(*counts.shape[:2], -1)
    return stats.transpose(1, 0, 2)


def _ordinal_distances(n_v: np.ndarray) -> np.ndarray:
    """Ordinal ``δ²_ck = (sum_{g=c..k} n_g - (n_c + n_k)/2)²`` of marginals ``(..., V)``."""
    v = n_v.shape[-1]
    cumulative = np.cumsum(n_v, axis=-1)
    before = cumulative - n_v
    grid = np.arange(v)
    high, low = np.maximum.outer(grid, grid), np.minimum.outer(grid, grid)
    between = cumulative[..., high] - before[..., low]
    return (between - (n_v[..., :, None] + n_v[..., None, :]) / 2.0) ** 2


def alpha_from_sums(sums: np.ndarray, level: str, domain: np.ndarray | None = None) -> np.ndarray:
    """Krippendorff's α from per-unit numbers summed over units: ``(..., K)`` -> ``(...)``.

    NaN where the pairable values do not vary (no expected disagreement).
    """
    sums = np.asarray(sums, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if level == "interval":
            n, t1, t2, observed = np.moveaxis(sums, -1, 0)
            expected = 2.0 * n * t2 - 2.0 * t1**2
        elif level == "nominal":
            n_v, observed = sums[..., :-1], sums[..., -1]
            n = n_v.sum(axis=-1)
            expected = n**2 - (n_v**2).sum(axis=-1)
        else:
            v = math.isqrt(sums.shape[-1])
            o = sums.reshape(*sums.shape[:-1], v, v)
            n_v = o.sum(axis=-1)
            n = n_v.sum(axis=-1)
            distances = _ordinal_distances(n_v)
            observed = (o * distances).sum(axis=(-2, -1))
            expected = np.einsum("...c,...ck,...k->...", n_v, distances, n_v)
        alpha = 1.0 - (n - 1.0) * observed / expected
    # a near-zero expected disagreement is rounding (every pairable value equal): NaN
    return np.where(np.abs(expected) > 1e-12 * np.maximum(n, 1.0) ** 2, alpha, np.nan)


def krippendorff_alpha(reliability_data: np.ndarray, level: str = "interval") -> float:
    """Krippendorff's α of a raters x units array (NaN missing), as the ``krippendorff`` package.

    Parameters
    ----------
    reliability_data : array-like, shape (raters, units)
        Numeric ratings; NaN where a rater did not rate a unit.
    level : {"nominal", "ordinal", "interval"}
        Level of measurement; ordinal and nominal categories are the distinct
        values.

    Returns
    -------
    float
        α (NaN when no two pairable values differ).

    Examples
    --------
    The ``krippendorff`` package's README example (compare with
    ``krippendorff.alpha(data, level_of_measurement=...)``: 0.691358 and 0.810845):

    >>> nan = np.nan
    >>> data = [[nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
    ...         [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
    ...         [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4]]
    >>> round(krippendorff_alpha(data, "nominal"), 6), round(krippendorff_alpha(data), 6)
    (0.691358, 0.810845)
    """
    data = np.asarray(reliability_data, dtype=float)
    if level == "interval":
        units = alpha_units(data[None], level)
    else:
        domain = np.unique(data[~np.isnan(data)])
        units = alpha_units(category_codes(data, domain)[None], level, domain.size)
    return float(alpha_from_sums(units.sum(axis=0)[0], level))


def resample_counts(n_clusters: int, n_resamples: int, rng: np.random.Generator, block: int):
    """Blocks of cluster-bootstrap counts ``(b, G)``: how often each cluster is drawn.

    Each resample draws ``G`` clusters uniformly with replacement.
    """
    for start in range(0, n_resamples, block):
        b = min(block, n_resamples - start)
        drawn = rng.integers(0, n_clusters, size=(b, n_clusters))
        offsets = (np.arange(b) * n_clusters)[:, None]
        counts = np.bincount((drawn + offsets).ravel(), minlength=b * n_clusters)
        yield counts.reshape(b, n_clusters).astype(float)


def bootstrap_sums(
    cluster_sums: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> Iterator[np.ndarray]:
    """The sums ``(b, K)`` of blocks of cluster-bootstrap resamples: counts @ cluster sums."""
    g, k = cluster_sums.shape
    block = max(1, min(n_resamples, _BLOCK_ELEMENTS // max(g, k, 1)))
    for counts in resample_counts(g, n_resamples, rng, block):
        yield counts @ cluster_sums


def percentile_interval(draws: np.ndarray, ci: float) -> tuple[np.ndarray, np.ndarray]:
    """The ``(1 - ci)/2`` and ``(1 + ci)/2`` quantiles of ``draws`` over axis 0, NaN ignored."""
    with warnings.catch_warnings():  # an all-NaN column (a degenerate κ) gives NaN quietly
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanquantile(draws, [(1 - ci) / 2, (1 + ci) / 2], axis=0)
    return low, high


def error_correlations(errors: np.ndarray) -> np.ndarray:
    """Pearson correlations of every pair of rows of ``errors (J, N)`` over their common units.

    NaN marks a missing error; a pair's correlation uses the units both rows
    have (pairwise complete), NaN when either is constant there.
    """
    present = ~np.isnan(errors)
    e = np.where(present, errors, 0.0)
    p = present.astype(float)
    n = p @ p.T
    sx = e @ p.T  # sx[i, j]: sum of row i's errors over the units i and j share
    sxx = (e * e) @ p.T
    sxy = e @ e.T
    with np.errstate(divide="ignore", invalid="ignore"):
        var_i = n * sxx - sx**2
        r = (n * sxy - sx * sx.T) / np.sqrt(var_i * var_i.T)
    tiny = 1e-12 * np.maximum(n, 1.0) ** 2  # a constant error on the shared units: no correlation
    return np.where((var_i > tiny) & (tiny < var_i.T), r, np.nan)


def effective_judges(errors: np.ndarray) -> tuple[float, float]:
    """``k / (1 + (k - 1) ρ̄)``, ρ̄ the mean pairwise correlation of the judges' errors.

    Parameters
    ----------
    errors : numpy.ndarray, shape (k, N)
        Each judge's error (judge − human) on each unit, NaN where missing.

    Returns
    -------
    effective : float
        As many independent judges as the ``k`` are worth for averaging their
        errors away (the design effect of equicorrelated errors; Kish 1965).
        NaN with fewer than two judges or no defined correlation.
    rho : float
        ρ̄, over the pairs whose correlation is defined.

    Examples
    --------
    >>> errors = np.array([[1.0, 0, 0, -1, 0, 1], [1.0, 0, 0, -1, 1, 0], [0.0, 1, 0, -1, 0, 1]])
    >>> effective, rho = effective_judges(errors)
    >>> round(rho, 4), round(effective, 4)
    (0.5294, 1.4571)
    """
    k = errors.shape[0]
    if k < 2:
        return float("nan"), float("nan")
    r = error_correlations(np.asarray(errors, dtype=float))
    upper = r[np.triu_indices(k, 1)]
    upper = upper[~np.isnan(upper)]
    if upper.size == 0:
        return float("nan"), float("nan")
    rho = float(upper.mean())
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(k / (1.0 + (k - 1.0) * rho)), rho


@dataclass(frozen=True)
class Agreement:
    """Every judge's agreement with the human labels (arrays, one entry per judge)."""

    n_labelled: np.ndarray
    accuracy: np.ndarray
    kappa: np.ndarray
    kappa_low: np.ndarray
    kappa_high: np.ndarray
    tpr: np.ndarray
    tnr: np.ndarray
    alpha: np.ndarray
    alpha_low: np.ndarray
    alpha_high: np.ndarray
    #: α over the human and all judges together, and its interval.
    alpha_all: tuple[float, float, float]
    effective_judges: float
    mean_error_correlation: float


def _unit_numbers(
    human: np.ndarray, judges: np.ndarray, level: str, domain: np.ndarray, categorical: bool
) -> tuple[np.ndarray, list]:
    """Every unit's numbers ``(N, K)`` and how to read each statistic from their sums.

    Each reader is ``(name, start, stop, function of the block (b, stop - start))``.
    """
    j, n = judges.shape
    v = domain.size
    parts, readers, start = [], [], 0

    def add(name: str, numbers: np.ndarray, read) -> None:
        nonlocal start
        parts.append(numbers.reshape(n, -1))
        readers.append((name, start, start + parts[-1].shape[1], read))
        start += parts[-1].shape[1]

    if categorical:
        human_codes, judge_codes = category_codes(human, domain), category_codes(judges, domain)
        tables = confusion_units(human_codes, judge_codes, v)
        add("kappa", tables, lambda s: cohen_kappa(s.reshape(len(s), j, v, v)))
        diagonal = np.arange(v) * (v + 1)
        readers.append(("accuracy", 0, j * v * v, lambda s: _accuracy(s, j, v, diagonal)))
    if level == "interval":
        human_rows, judge_rows = np.broadcast_to(human, (j, n)), judges
    else:
        human_rows, judge_rows = np.broadcast_to(human_codes, (j, n)), judge_codes
    pairs = alpha_units(np.stack([human_rows, judge_rows], axis=1), level, v)  # (N, J, K)
    k = pairs.shape[-1]
    add("alpha", pairs, lambda s: alpha_from_sums(s.reshape(len(s), j, k), level))
    raters = np.concatenate([human_rows[:1], judge_rows])[None]
    add("alpha_all", alpha_units(raters, level, v)[:, 0], lambda s: alpha_from_sums(s, level))
    return np.concatenate(parts, axis=1), readers


def _accuracy(sums: np.ndarray, j: int, v: int, diagonal: np.ndarray) -> np.ndarray:
    tables = sums.reshape(len(sums), j, v * v)
    with np.errstate(divide="ignore", invalid="ignore"):
        return tables[..., diagonal].sum(axis=-1) / tables.sum(axis=-1)


def _statistics(sums: np.ndarray, readers: list) -> dict[str, np.ndarray]:
    """Each statistic of a block of summed unit numbers ``(b, K)``."""
    return {name: read(sums[:, start:stop]) for name, start, stop, read in readers}


def _binary_rates(human: np.ndarray, judges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TPR (judge 1 among human 1) and TNR (judge 0 among human 0) of scores of 0 and 1."""
    present = ~np.isnan(judges)
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = ((judges == 1) & (human == 1)).sum(axis=1) / (present & (human == 1)).sum(axis=1)
        tnr = ((judges == 0) & (human == 0)).sum(axis=1) / (present & (human == 0)).sum(axis=1)
    return tpr, tnr


def agreement(
    human: np.ndarray,
    judges: np.ndarray,
    *,
    clusters: np.ndarray | None = None,
    level: str = "nominal",
    ci: float = 0.95,
    n_resamples: int = 2000,
    random_state=None,
) -> Agreement:
    """Every judge's agreement with the human labels, with cluster-bootstrap intervals.

    Parameters
    ----------
    human : numpy.ndarray, shape (N,)
        Human labels, NaN where a unit is unlabelled (unlabelled units are left out).
    judges : numpy.ndarray, shape (J, N)
        Each judge's scores, NaN where missing.
    clusters : numpy.ndarray, shape (N,), optional
        Integer cluster of each unit (resampled whole); by default every unit
        is its own cluster.
    level : {"nominal", "ordinal", "interval"}
        Krippendorff's level of measurement. κ, the accuracy and TPR/TNR need
        categories: under ``"interval"`` they are computed only when the
        values are at most :data:`MAX_CATEGORIES` distinct ones (else NaN).
    ci : float
        Coverage of the percentile bootstrap intervals.
    n_resamples : int
        Cluster-bootstrap resamples.
    random_state : None, int or numpy.random.Generator
        Seed of the resamples.

    Returns
    -------
    Agreement
        One entry per judge; α over the human and all judges in ``alpha_all``.

    Examples
    --------
    >>> human = np.array([0.0, 0, 1, 1, 1, 0, 1, np.nan])
    >>> judges = np.array([[0.0, 1, 1, 1, 1, 0, 1, 1], [0.0, 0, 1, 0, 1, 0, 1, 0]])
    >>> result = agreement(human, judges, n_resamples=200, random_state=0)
    >>> result.n_labelled.tolist(), result.accuracy.round(4).tolist()
    ([7, 7], [0.8571, 0.8571])
    >>> result.kappa.round(4).tolist()  # sklearn.metrics.cohen_kappa_score agrees
    [0.6957, 0.72]
    """
    labelled = ~np.isnan(human)
    human, judges = human[labelled], judges[:, labelled]
    if clusters is None:
        cluster_codes, n_clusters = np.arange(human.size), human.size
    else:
        _, cluster_codes = np.unique(clusters[labelled], return_inverse=True)
        n_clusters = int(cluster_codes.max()) + 1 if cluster_codes.size else 0
    everything = np.concatenate([human, judges.ravel()])
    domain = np.unique(everything[~np.isnan(everything)])
    categorical = level != "interval" or domain.size <= MAX_CATEGORIES
    units, readers = _unit_numbers(human, judges, level, domain, categorical)
    point = _statistics(units.sum(axis=0)[None], readers)
    sums = np.zeros((n_clusters, units.shape[1]))
    np.add.at(sums, cluster_codes, units)
    rng = check_random_state(random_state)
    draws = [_statistics(block, readers) for block in bootstrap_sums(sums, n_resamples, rng)]
    low, high = {}, {}
    for name in point:
        low[name], high[name] = percentile_interval(np.concatenate([d[name] for d in draws]), ci)
    j = judges.shape[0]
    nan = np.full(j, np.nan)
    binary = categorical and bool(np.isin(domain, (0.0, 1.0)).all())
    tpr, tnr = _binary_rates(human, judges) if binary else (nan, nan)
    effective, rho = effective_judges(judges - human)
    kappa = point["kappa"][0] if categorical else nan
    return Agreement(
        n_labelled=(~np.isnan(judges)).sum(axis=1),
        accuracy=point["accuracy"][0] if categorical else nan,
        kappa=kappa,
        kappa_low=low["kappa"] if categorical else nan,
        kappa_high=high["kappa"] if categorical else nan,
        tpr=tpr,
        tnr=tnr,
        alpha=point["alpha"][0],
        alpha_low=low["alpha"],
        alpha_high=high["alpha"],
        alpha_all=tuple(
            float(x) for x in (point["alpha_all"][0], low["alpha_all"], high["alpha_all"])
        ),
        effective_judges=effective,
        mean_error_correlation=rho,
    )
