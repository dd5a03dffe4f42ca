"""Paired permutation (randomisation) tests: swaps of two models' predictions, sign flips.

Under the null hypothesis that two models are exchangeable, each test unit's
two values may be swapped (``scipy.stats.permutation_test(...,
permutation_type="samples")``): a row of predictions, or the sign of a
per-split or per-data-set difference. Units where the two values are equal
cannot change the statistic, so the test is exact (every swap pattern) when
``2**n <= n_resamples``, ``n`` being the number of units where they differ,
and randomised otherwise with ``p = (b + 1) / (n_resamples + 1)``.

Every pair of models is tested at once. Scores that depend on confusion
counts only are computed from the distinct (truth, predictions) patterns of
the rows: a pair's null distribution depends only on how many rows of each
(truth, prediction 1, prediction 2) triple with differing predictions are
swapped, a binomial count per triple, so a resample of a pair costs at most
``K²(K − 1)`` binomial draws, not what the rows or the patterns cost. The
swaps of different pairs are drawn independently (each pair's own null
distribution is what its p-value needs); sign flips are shared by all pairs.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats.bootstrap import _cell_matrix, label_patterns
from pdcompare.stats.metrics import Metric

# Bytes of temporary arrays per chunk of resamples.
_CHUNK_BYTES = 2**25
# scipy's relative tolerance for null statistics equal to the observed one.
_EPS = np.finfo(float).eps * 100


class _Tails:
    """Counts of null statistics at or below / at or above the observed ones, as in scipy."""

    def __init__(self, observed: np.ndarray) -> None:
        self.observed = observed
        self.gamma = np.abs(_EPS * observed)
        self.less = np.zeros(observed.shape, dtype=np.int64)
        self.greater = np.zeros(observed.shape, dtype=np.int64)

    def add(self, null: np.ndarray) -> None:
        """Count a block of null statistics ``(resamples, pairs)``."""
        self.less += np.sum(null <= self.observed + self.gamma, axis=0)
        self.greater += np.sum(null >= self.observed - self.gamma, axis=0)

    def pvalues(self, total: int | np.ndarray, alternative: str, exact: np.ndarray) -> np.ndarray:
        """Scipy's p-values: ``count / total`` when exact, ``(count + 1) / (total + 1)`` else."""
        adjustment = np.where(exact, 0, 1)
        total = np.asarray(total, dtype=float) + adjustment
        less = (self.less + adjustment) / total
        greater = (self.greater + adjustment) / total
        if alternative == "less":
            out = less
        elif alternative == "greater":
            out = greater
        else:
            out = 2.0 * np.minimum(less, greater)
        return np.clip(out, 0.0, 1.0)


def _all_masks(n: int) -> np.ndarray:
    """Every swap pattern of ``n`` units: ``(2**n, n)`` of 0/1."""
    return ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(float)


def _chunks(n_resamples: int, width: int):
    """Sizes of blocks of resamples whose temporaries of ``width`` floats fit the budget."""
    chunk = max(1, _CHUNK_BYTES // (8 * max(width, 1)))
    for start in range(0, n_resamples, chunk):
        yield min(chunk, n_resamples - start)


def _compact(values: np.ndarray, keep: np.ndarray, width: int) -> np.ndarray:
    """Each row's kept entries first (their order kept), cut to ``width`` columns; 0 after."""
    order = np.argsort(~keep, axis=1, kind="stable")[:, :width]
    return np.where(
        np.take_along_axis(keep, order, axis=1), np.take_along_axis(values, order, axis=1), 0.0
    )


def sign_flip_test(
    differences: np.ndarray,
    *,
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    random_state: np.random.Generator,
    n_units: np.ndarray | None = None,
) -> dict:
    """Paired permutation test of the mean difference of every row of ``differences``.

    Parameters
    ----------
    differences : ndarray, shape (pairs, n)
        Per-unit differences ``x − y`` of each pair; 0 where a unit is absent.
    n_resamples : int
        Resamples of the randomised test; the test of a pair is exact when
        ``2**k <= n_resamples``, ``k`` its number of non-zero differences.
    alternative : {"two-sided", "greater", "less"}
        About the mean difference, as in scipy.
    random_state : numpy.random.Generator
    n_units : ndarray, shape (pairs,), optional
        The divisor of each pair's mean (its number of units present);
        ``n`` when None.

    Returns
    -------
    dict
        ``statistic`` (the mean difference), ``pvalue`` and ``exact`` per pair.

    Examples
    --------
    Fisher's Zea mays data (Darwin's 15 pairs of plants), exact over 2**15 sign flips:

    >>> d = np.array([[49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48]])
    >>> out = sign_flip_test(d, n_resamples=2**15, alternative="greater",
    ...                      random_state=np.random.default_rng(0))
    >>> float(out["pvalue"][0] * 2**15), bool(out["exact"][0])
    (863.0, True)
    """
    d = np.asarray(differences, dtype=float)
    n_pairs, n = d.shape
    divisor = np.full(n_pairs, float(n)) if n_units is None else np.asarray(n_units, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = d.sum(axis=1) / divisor
    nonzero = d != 0
    count = nonzero.sum(axis=1)
    exact = count <= np.log2(n_resamples)
    pvalue = np.full(n_pairs, np.nan)
    if exact.any():
        rows = np.flatnonzero(exact)
        width = int(count[rows].max())
        compact = _compact(d[rows], nonzero[rows], width)
        signs = 1.0 - 2.0 * _all_masks(width)
        sub = _Tails(observed[rows])
        sub.add(signs @ compact.T / divisor[rows])
        pvalue[rows] = sub.pvalues(2**width, alternative, np.ones(rows.size, bool))
    if not exact.all():
        rows = np.flatnonzero(~exact)
        sub = _Tails(observed[rows])
        block = d[rows].T
        for size in _chunks(n_resamples, n + rows.size):
            signs = 1.0 - 2.0 * random_state.integers(0, 2, size=(size, n))
            sub.add(signs @ block / divisor[rows])
        pvalue[rows] = sub.pvalues(n_resamples, alternative, np.zeros(rows.size, bool))
    pvalue[np.isnan(observed)] = np.nan
    return {"statistic": observed, "pvalue": pvalue, "exact": exact}


def _confusion(cell_t: np.ndarray, weights: np.ndarray, n_models: int, k: int) -> np.ndarray:
    """Every model's confusion counts ``(..., m, K, K)`` from pattern weights ``(..., p)``."""
    flat = (cell_t @ np.atleast_2d(weights).T).T
    return flat.reshape(*flat.shape[:-1], n_models, k, k)


def count_permutation_test(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    metric: Metric,
    i: np.ndarray,
    j: np.ndarray,
    *,
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    random_state: np.random.Generator,
    weights: np.ndarray | None = None,
) -> dict:
    """Paired permutation test of ``score_i − score_j`` for a score of confusion counts.

    Rows are summarised by their distinct (truth, predictions of every
    model) patterns with counts ``c``, and those of each pair by its
    (truth, prediction_i, prediction_j) triples; swapping each row's two
    predictions with probability ½ draws ``Binomial(c_t, ½)`` swapped rows
    of triple ``t``, so a resample of a pair costs O(K³) whatever the number
    of rows. Exact pairs (``2**n <= n_resamples``, ``n`` rows where the two
    predictions differ) enumerate every swap of those rows.

    Returns
    -------
    dict
        ``score_1, score_2, mean_diff, pvalue, exact, n_differ`` per pair.

    Examples
    --------
    >>> from pdcompare.stats.metrics import get_metric
    >>> y = np.array([0, 1, 1, 0, 1, 1, 0, 1])
    >>> preds = np.array([[0, 1, 1, 0, 1, 0, 0, 1], [1, 1, 1, 0, 0, 0, 0, 1]]).T
    >>> out = count_permutation_test(y, preds, get_metric("accuracy"), np.array([0]),
    ...                              np.array([1]), random_state=np.random.default_rng(0))
    >>> out["mean_diff"].tolist(), out["pvalue"].tolist(), out["n_differ"].tolist()
    ([0.25], [0.5], [2])
    """
    patterns, counts, k = label_patterns(y_true, y_pred, weights)
    n_models = patterns.shape[1] - 1
    i, j = np.asarray(i, dtype=int), np.asarray(j, dtype=int)
    cell_t = _cell_matrix(patterns, k).T.tocsr()
    full = _confusion(cell_t, counts.astype(float), n_models, k)[0]
    score = metric.from_counts(full)
    observed = score[i] - score[j]
    differ = patterns[:, 1 + i] != patterns[:, 1 + j]  # (patterns, pairs)
    n_differ = counts @ differ
    exact = n_differ <= np.log2(n_resamples)
    pvalue = np.full(i.size, np.nan)
    if exact.any():
        rows = np.flatnonzero(exact)
        pvalue[rows] = _exact_counts(
            patterns, counts, k, full, metric, i[rows], j[rows], differ[:, rows],
            observed[rows], alternative,
        )  # fmt: skip
    if not exact.all():
        rows = np.flatnonzero(~exact)
        pvalue[rows] = _randomised_counts(
            patterns, counts, k, full, metric, i[rows], j[rows], observed[rows],
            n_resamples, alternative, random_state,
        )  # fmt: skip
    return {
        "score_1": score[i],
        "score_2": score[j],
        "mean_diff": observed,
        "pvalue": pvalue,
        "exact": exact,
        "n_differ": n_differ,
    }


def _randomised_counts(
    patterns, counts, k, full, metric, i, j, observed, n_resamples, alternative, random_state
):
    """Randomised p-values from each pair's (truth, prediction 1, prediction 2) triples.

    Only the rows where the pair's two predictions differ can move its
    scores, and a swapped row of triple ``(a, b, c)`` moves one count of
    model 1 from cell ``(a, b)`` to ``(a, c)`` and one of model 2 back. The
    rows of a triple are swapped independently with probability ½, so the
    number swapped is ``Binomial(count, ½)``: a resample of a pair costs its
    at most ``K²(K − 1)`` triples, whatever the number of rows or of
    patterns of the other models.
    """
    n_pairs = i.size
    first, second = patterns[:, 1 + i], patterns[:, 1 + j]  # (patterns, pairs)
    row, pair = np.nonzero(first != second)  # the patterns where a pair's predictions differ
    code = (patterns[row, 0] * k + first[row, pair]) * k + second[row, pair]
    used, column = np.unique(code, return_inverse=True)  # the triples that occur, any pair
    triples = np.zeros((n_pairs, used.size), dtype=np.int64)
    np.add.at(triples, (pair, column), counts[row])
    truth, first_label, second_label = used // (k * k), used // k % k, used % k
    shift = np.zeros((used.size, k * k))  # model 1's change of counts per swapped row
    shift[np.arange(used.size), truth * k + second_label] += 1.0
    shift[np.arange(used.size), truth * k + first_label] -= 1.0
    tails = _Tails(observed)
    for size in _chunks(n_resamples, n_pairs * (used.size + 4 * k * k)):
        swapped = random_state.binomial(triples, 0.5, size=(size, n_pairs, used.size))
        moved = (swapped @ shift).reshape(size, n_pairs, k, k)
        tails.add(metric.from_counts(full[i] + moved) - metric.from_counts(full[j] - moved))
    return tails.pvalues(n_resamples, alternative, np.zeros(n_pairs, bool))


def _exact_counts(patterns, counts, k, full, metric, i, j, differ, observed, alternative):
    """Exact p-values of the pairs with few differing rows: every swap of those rows."""
    n_patterns = patterns.shape[0]
    weights = differ.T * counts  # (pairs, patterns): the differing rows of each pair
    n_differ = weights.sum(axis=1)
    width = int(n_differ.max())
    # Each pair's differing rows as pattern ids, padded with -1 to `width` slots.
    flat = weights.ravel()
    ids = np.repeat(np.tile(np.arange(n_patterns), i.size), flat)
    pair_of = np.repeat(np.repeat(np.arange(i.size), n_patterns), flat)
    starts = np.cumsum(n_differ) - n_differ
    slots = np.full((i.size, width), -1, dtype=np.int64)
    slots[pair_of, np.arange(ids.size) - starts[pair_of]] = ids
    used = slots >= 0
    safe = np.where(used, slots, 0)
    truth = patterns[safe, 0]
    cell_1 = truth * k + patterns[safe, 1 + i[:, None]]
    cell_2 = truth * k + patterns[safe, 1 + j[:, None]]
    delta = np.zeros((i.size, width, k * k))
    pair_index, slot_index = np.nonzero(used)
    np.add.at(delta, (pair_index, slot_index, cell_2[used]), 1.0)
    np.add.at(delta, (pair_index, slot_index, cell_1[used]), -1.0)
    masks = _all_masks(width)
    shift = np.einsum("rs,psc->rpc", masks, delta).reshape(masks.shape[0], i.size, k, k)
    first = full[i] + shift
    second = full[j] - shift
    tails = _Tails(observed)
    tails.add(metric.from_counts(first) - metric.from_counts(second))
    return tails.pvalues(2**width, alternative, np.ones(i.size, bool))


def row_permutation_test(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    score_columns,
    i: np.ndarray,
    j: np.ndarray,
    *,
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    random_state: np.random.Generator,
    swaps=None,
) -> dict:
    """Paired permutation test of any score, by swapping rows of predictions.

    ``score_columns(y_true, predictions)`` scores each column of a
    ``(n, c)`` array of predictions. The swaps of a block of resamples are
    one ``(n, block)`` mask per pair, scored in one call. ``swaps(x, z)``,
    when given, returns a function of such a mask giving the differences of
    the scores directly (the same numbers, faster; for the ROC AUC
    :func:`pdcompare.stats.auc.auc_swaps`).

    Returns
    -------
    dict
        ``score_1, score_2, mean_diff, pvalue, exact, n_differ`` per pair.

    Examples
    --------
    >>> mse = lambda y, p: ((p - y[:, None]) ** 2).mean(axis=0)
    >>> y = np.array([1.0, 2.0, 3.0, 4.0])
    >>> preds = np.array([[1.1, 2.0, 2.9, 4.2], [1.5, 2.5, 3.0, 3.0]]).T
    >>> out = row_permutation_test(y, preds, mse, np.array([0]), np.array([1]),
    ...                            random_state=np.random.default_rng(0))
    >>> out["pvalue"].tolist(), out["exact"].tolist()
    ([0.25], [True])
    """
    i, j = np.asarray(i, dtype=int), np.asarray(j, dtype=int)
    score = np.asarray(score_columns(y_true, y_pred), dtype=float)
    observed = score[i] - score[j]
    n_rows = y_true.shape[0]
    pvalue = np.empty(i.size)
    exact = np.empty(i.size, dtype=bool)
    n_differ = np.empty(i.size, dtype=np.int64)
    for p in range(i.size):  # any score needs the swapped columns themselves
        x, z = y_pred[:, i[p]], y_pred[:, j[p]]
        differ = np.flatnonzero(x != z)
        n_differ[p] = differ.size
        tails = _Tails(observed[p : p + 1])
        if differ.size <= np.log2(n_resamples):
            exact[p] = True
            masks = _all_masks(differ.size).astype(bool)
            first = np.repeat(x[:, None], masks.shape[0], axis=1)
            second = np.repeat(z[:, None], masks.shape[0], axis=1)
            first[differ] = np.where(masks.T, z[differ, None], x[differ, None])
            second[differ] = np.where(masks.T, x[differ, None], z[differ, None])
            tails.add(_difference(score_columns, y_true, first, second)[:, None])
            pvalue[p] = tails.pvalues(masks.shape[0], alternative, np.ones(1, bool))[0]
            continue
        exact[p] = False
        swapped = swaps(x, z) if swaps is not None else None
        for size in _chunks(n_resamples, 3 * n_rows):
            swap = random_state.integers(0, 2, size=(n_rows, size)).astype(bool)
            if swapped is not None:
                tails.add(swapped(swap)[:, None])
                continue
            first = np.where(swap, z[:, None], x[:, None])
            second = np.where(swap, x[:, None], z[:, None])
            tails.add(_difference(score_columns, y_true, first, second)[:, None])
        pvalue[p] = tails.pvalues(n_resamples, alternative, np.zeros(1, bool))[0]
    return {
        "score_1": score[i],
        "score_2": score[j],
        "mean_diff": observed,
        "pvalue": pvalue,
        "exact": exact,
        "n_differ": n_differ,
    }


def _difference(score_columns, y_true, first, second) -> np.ndarray:
    return np.asarray(score_columns(y_true, first), float) - np.asarray(
        score_columns(y_true, second), float
    )
