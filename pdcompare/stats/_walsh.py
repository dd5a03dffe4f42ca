"""The median of the Walsh averages of many rows of differences, by selection.

The Hodges–Lehmann estimate of a pair is the median of the ``N = n (n + 1) / 2``
Walsh sums ``o[a] + o[b]`` (``a <= b``) of its sorted differences ``o``,
halved. Computing and partitioning all of them costs ``O(n**2)`` per pair;
this module finds the one or two middle sums from ``O(n log n)`` work per
pair, vectorised over the rows (pairs), in the spirit of Monahan's (1984)
selection in the sorted matrix ``S[a, b] = o[a] + o[b]`` (each row of ``S``
ascends):

1. A pivot. The 253 Walsh sums of 22 evenly spaced order statistics (of
   every eighth below 176 differences) give a value near the middle and
   the density of the sums there.
2. One Newton step. The sums ``<= t`` of row ``a`` of ``S`` are its first
   columns up to a "staircase", found for every row at once by merging ``o``
   with ``t - o`` (a sort of 32-bit keys, the differences below every
   query left out); their count at the pivot, against the middle rank,
   moves the pivot by (rank error) / density, to within a few dozen ranks
   of the middle.
3. A band. The staircase at the moved pivot is found, and the three sums of
   each row of ``S`` next to it (right of it when fewer than the middle rank
   lie left of it, left of it otherwise) are formed, about ``3 n / 2`` sums
   per pair; the middle ones are selected among them by a sort of their
   float32 roundings, the float64 sums recovered from it.

The staircases are approximate (float32 keys); the result does not depend on
them. Whatever the band, the sums left of it are counted exactly, and the
selected values ``v1 <= v2`` are the middle sums if the wanted ranks fall in
the band, every sum left of it is ``<= v1`` and every sum right of it
``>= v2`` (each row of ``S`` ascends, so one sum per row and side is checked,
in float64 exactly as the brute force forms them). The float32 sort decides
the ranks only where the neighbours of the selected roundings round
differently (rounding is monotone, so their order is then the order of the
sums; a row with tied differences, whose sums tie, skips it). A row that
fails goes through a band of eight sums per row of ``S`` selected in
float64, and then, if it fails again, through the brute force.
The numbers are therefore those of forming all ``N`` sums and partitioning
them.

Rows with few distinct differences (at most a quarter of ``n``: fold
accuracies on small test sets, scores on a coarse grid) have few distinct
Walsh sums; those are formed with their multiplicities and the middle found
by their cumulative counts. Each chunk of rows is sorted and selected on
one of two threads, in chunks small enough to stay in a core's cache.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from pdcompare.stats._moments import chunks

#: Fewer differences than this: all Walsh sums are formed (cheap, and no pivots to estimate).
_BRUTE_MAX_N = 96

#: The pivot comes from this many order statistics, evenly spaced (or every eighth, if
#: fewer): their 253 Walsh sums sort in one pass of the fastest float32 sort.
_THINNED = 22
_THIN = 8

#: The density of the thinned sums is read over this fraction of them around their middle.
_DENSITY_REACH = 1 / 14

#: Sums per row of ``S`` in the band, first and second attempt.
_LAYERS = 3
_WIDE_LAYERS = 8

#: Rows with at most ``n // _FEW_DISTINCT`` distinct differences take the tied path.
_FEW_DISTINCT = 4

#: Differences in a chunk of rows: its arrays (a few times this many 8-byte numbers) stay
#: in a core's 2 MB cache, which halves the time against chunks four times larger.
_CHUNK_DIFFERENCES = 1 << 17

_LOW_BYTE = 0 if sys.byteorder == "little" else 3  # the lowest byte of an int32
_LOW_BITS = np.int32(-2)  # clears the lowest bit of an int32 key
_MAGNITUDE = np.int32(0x7FFFFFFF)


def walsh_median(differences: np.ndarray) -> np.ndarray:
    """Median of the Walsh averages ``(d[a] + d[b]) / 2``, ``a <= b``, of each row.

    ``differences`` holds one row of differences per pair, in any order, no
    NaN. The result equals ``np.median`` of all the row's Walsh averages bit
    for bit (the two middle sums averaged, then halved).
    """
    n_rows, n = differences.shape
    if n < _BRUTE_MAX_N:
        return brute_walsh_median(differences)
    out = np.empty(n_rows)

    def select(part):
        out[part] = _chunk_median(differences[part])

    parts = list(chunks(n_rows, n, _CHUNK_DIFFERENCES))
    if len(parts) > 1 and (os.cpu_count() or 1) > 1:
        # numpy's sorts, gathers and arithmetic release the GIL: two chunks at a time.
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(select, parts))
    else:
        for part in parts:
            select(part)
    return out


def _chunk_median(differences):
    """The Walsh median of each row of a chunk: tied rows, selection, then the brute force."""
    n_rows, n = differences.shape
    ordered = np.sort(differences, axis=1)
    finite = np.isfinite(ordered[:, 0]) & np.isfinite(ordered[:, -1])
    steps = np.count_nonzero(ordered[:, 1:] != ordered[:, :-1], axis=1)  # distinct values - 1
    tied = finite & (steps < n // _FEW_DISTINCT)
    fast = np.flatnonzero(finite & ~tied)
    if fast.size == n_rows:
        out, ok = _selected(ordered, steps == n - 1)
    else:
        out = np.empty(n_rows)
        ok = tied.copy()
        if tied.any():
            out[tied] = _tied_walsh_median(ordered[tied], steps[tied] + 1)
        if fast.size:
            out[fast], ok[fast] = _selected(ordered[fast], steps[fast] == n - 1)
    slow = np.flatnonzero(~ok)
    if slow.size:
        out[slow] = brute_walsh_median(ordered[slow])
    return out


def brute_walsh_median(ordered: np.ndarray) -> np.ndarray:
    """All ``n (n + 1) / 2`` Walsh sums of each row (in any order), partitioned at their middle."""
    n_rows, n = ordered.shape
    n_averages = n * (n + 1) // 2
    middle = (n_averages - 1) // 2
    kth = [middle] if n_averages % 2 else [middle, middle + 1]
    out = np.empty(n_rows)
    for part in chunks(n_rows, n_averages):
        rows = ordered[part]
        sums = np.empty((rows.shape[0], n_averages))
        start = 0
        for a in range(n):
            np.add(rows[:, a : a + 1], rows[:, a:], out=sums[:, start : start + n - a])
            start += n - a
        sums.partition(kth, axis=1)
        # Halving is exact, so the median of the sums halved is the median of the averages.
        out[part] = sums[:, kth].mean(axis=1) / 2
    return out


def _selected(ordered, distinct=None):
    """The Walsh median of each row by selection, and whether the row's check passed.

    ``distinct`` tells the rows whose differences are all distinct (found
    when not given).
    """
    n_rows, n = ordered.shape
    n_sums = n * (n + 1) // 2
    k1, k2 = (n_sums - 1) // 2, n_sums // 2
    singles = ordered.astype(np.float32)
    keys = singles.view(np.int32).copy()
    _order_preserving(keys, 0)  # a query equal to a difference sorts after it: "<="
    pivot, density = _thinned_pivot(singles, k1)
    # Rows a of S with o[a] + o[a] > t hold no sum <= t: no query for them.
    queried = _rows_below(ordered, pivot)
    below = _count_left(*_staircase(keys, singles, pivot, queried))
    step = (k1 + 0.5 - below) / density
    step[~np.isfinite(step)] = 0.0  # ties: no density to step by
    pivot = np.clip(pivot + step, 2 * ordered[:, 0], 2 * ordered[:, -1])
    # Four more rows of S than the moved pivot reaches: the band may run past it.
    queried = min(_rows_below(ordered, pivot) + 4, n)
    column = _columns(*_staircase(keys, singles, pivot, queried), queried)
    value = np.full(n_rows, np.nan)
    ok = np.zeros(n_rows, dtype=bool)
    # Tied differences make tied sums, which the float32 sort cannot tell apart.
    if distinct is None:
        distinct = (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
    distinct = np.flatnonzero(distinct)
    if distinct.size == n_rows:
        value, ok = _band_median(ordered, column, k1, k2, _LAYERS, exact=False)
    elif distinct.size:
        value[distinct], ok[distinct] = _band_median(
            ordered[distinct], column[distinct], k1, k2, _LAYERS, exact=False
        )
    again = np.flatnonzero(~ok)
    if again.size:
        value[again], ok[again] = _band_median(
            ordered[again], column[again], k1, k2, _WIDE_LAYERS, exact=True
        )
    return value, ok


def _rows_below(ordered, pivot):
    """Rows of S that hold a sum ``<= pivot`` in any row of the chunk (an upper bound)."""
    return min(
        int(np.count_nonzero(ordered <= (pivot / 2)[:, None], axis=1).max()) + 1, ordered.shape[1]
    )


def _thinned_pivot(singles, k1):
    """The middle Walsh sum of evenly spaced order statistics, and the density of the sums."""
    n_rows, n = singles.shape
    m = min(n // _THIN, _THINNED)
    step = n // m
    first = (n - 1 - step * (m - 1)) // 2  # centred: the thinned sample is as symmetric as o
    thinned = np.ascontiguousarray(singles[:, first : first + step * (m - 1) + 1 : step])
    n_thinned = m * (m + 1) // 2
    sums = np.empty((n_rows, n_thinned), dtype=np.float32)
    start = 0
    for a in range(m):
        np.add(thinned[:, a : a + 1], thinned[:, a:], out=sums[:, start : start + m - a])
        start += m - a
    sums.sort(axis=1)
    n_sums = n * (n + 1) // 2
    middle = round(k1 * (n_thinned - 1) / (n_sums - 1))
    reach = max(min(round(n_thinned * _DENSITY_REACH), middle, n_thinned - 1 - middle), 1)
    spread = sums[:, middle + reach].astype(np.float64) - sums[:, middle - reach]
    with np.errstate(divide="ignore"):
        density = (2 * reach * n_sums / n_thinned) / spread  # sums per unit of value
    return sums[:, middle].astype(np.float64), density


def _order_preserving(keys, low_bit):
    """Turn float32 bits (viewed as int32) into keys that sort like the floats, in place."""
    keys ^= (keys >> 31) & _MAGNITUDE  # negative floats: reverse their order
    if low_bit:
        keys |= np.int32(1)
    else:
        keys &= _LOW_BITS


def _staircase(difference_keys, singles, pivot, n_queries):
    """Where the queries ``t - o[a]``, ``a < n_queries``, fall among each row's differences.

    ``difference_keys`` are the order-preserving keys of ``float32(o)`` with
    the lowest bit 0, the queries' lowest bit is 1: a query sorts after a
    difference with the same key, and is told from it. Returns the boolean
    mask of the queries' places in the sorted union and the position
    ``start`` past which a query has sums left of it. The queries ascend as
    ``a`` descends, so the ``j``-th query from the left, ``a = n_queries - 1 - j``,
    has ``P[a] = position - j`` differences ``<= t - o[a]`` before it, and
    row ``a`` of S has ``max(P[a] - a, 0) = max(position - start, 0)`` sums
    ``<= t``. The differences below every query of the chunk are counted and
    left out of the merge (the sort of 32-bit rows is fastest up to 256).
    """
    n_rows, n = singles.shape
    queries = np.subtract(pivot.astype(np.float32)[:, None], singles[:, n_queries - 1 :: -1])
    queries = queries.view(np.int32)
    _order_preserving(queries, 1)
    skipped = int(np.count_nonzero(difference_keys < queries[:, :1], axis=1).min())
    merged = np.empty((n_rows, n - skipped + n_queries), dtype=np.int32)
    merged[:, : n - skipped] = difference_keys[:, skipped:]
    merged[:, n - skipped :] = queries
    merged.sort(axis=1)
    is_query = (merged.view(np.uint8)[:, _LOW_BYTE::4] & np.uint8(1)).view(np.bool_)
    return is_query, n_queries - 1 - skipped


def _count_left(is_query, start):
    """Number of Walsh sums left of the staircase of each row (a weighted sum over the queries)."""
    weight = np.maximum(np.arange(is_query.shape[1]) - start, 0)
    return np.einsum("ij,j->i", is_query.view(np.int8), weight)


def _columns(is_query, start, n_queries):
    """Each row ``a < n_queries`` of S's first column right of the staircase, ``max(P[a], a)``."""
    n_rows, width = is_query.shape
    # The j-th query from the left is row a = n_queries - 1 - j's.
    found = np.flatnonzero(is_query).reshape(n_rows, n_queries)
    found -= (np.arange(n_rows) * width + start)[:, None]
    np.maximum(found, 0, out=found)
    return np.add(found[:, ::-1], np.arange(n_queries))


def _band_median(ordered, column, k1, k2, width, *, exact):
    """The Walsh median of each row from ``width`` sums per row of S next to a staircase.

    Row ``a`` of S (``a < column.shape[1]``; the rows below hold no sum left
    of the staircase) contributes the sums right of its staircase column
    where at most ``k1`` sums lie left of the staircase, left of it where
    more than ``k2`` do, and around it otherwise. Returns the value and
    whether it is exact: the wanted ranks in the band, every sum left of the
    band ``<= v1``, every sum right of it ``>= v2`` (and, with ``exact=False``,
    the float32 sort telling the selected sums from their neighbours).
    """
    n_rows, n = ordered.shape
    n_queried = column.shape[1]
    a = np.arange(n_queried)
    left_of_staircase = column.sum(axis=1) - n_queried * (n_queried - 1) // 2
    shift = np.where(
        left_of_staircase <= k1, 0, np.where(left_of_staircase > k2, width, width // 2)
    )
    begin = column - shift[:, None]
    np.maximum(begin, a, out=begin)
    before = begin.sum(axis=1) - n_queried * (n_queried - 1) // 2
    # Differences padded with +inf: sums past the end of a row of S are +inf, and every
    # gather below stays inside the array.
    stride = n + width + 1
    padded = np.full((n_rows, stride), np.inf)
    padded[:, :n] = ordered
    flat = padded.ravel()
    first = begin + (np.arange(n_rows) * stride)[:, None]
    head = ordered[:, :n_queried]
    band = np.empty((n_rows, width, n_queried))
    for e in range(width):
        np.add(flat[first + e], head, out=band[:, e])
    band = band.reshape(n_rows, -1)
    size = band.shape[1]
    rank1, rank2 = k1 - before, k2 - before
    ok = (rank1 >= 0) & (rank2 < size)
    np.clip(rank1, 0, size - 1, out=rank1)
    np.clip(rank2, 0, size - 1, out=rank2)
    if exact:
        band.sort(axis=1)
        rows = np.arange(n_rows)
        v1, v2 = band[rows, rank1], band[rows, rank2]
    else:
        v1, v2 = _float32_ranks(band, rank1, rank2, ok)
    # Rows of S ascend: the last sum left of the band and the first right of it suffice.
    first -= 1
    last_left = flat[first]
    last_left += head
    last_left[begin == a] = -np.inf  # nothing left of the band in that row
    first += width + 1
    first_right = flat[first]
    first_right += head
    ok &= last_left.max(axis=1) <= v1
    ok &= first_right.min(axis=1) >= v2
    if n_queried < n:  # the rows of S below the queried ones lie right of the band
        ok &= ordered[:, n_queried] + ordered[:, n_queried] >= v2
    value = (v1 + v2) / 2 / 2 if k1 != k2 else v1 / 2  # as brute_walsh_median's mean, halved
    return value, ok


def _float32_ranks(band, rank1, rank2, ok):
    """The sums of rank ``rank1`` and ``rank2`` of each row of the band, from float32 roundings.

    Rounding to float32 is monotone, so the sorted roundings are the
    roundings of the sorted sums. Where the roundings ``u1 <= u2`` at the
    wanted ranks differ from their outer neighbours, the sums rounding into
    ``[u1, u2]`` are exactly those of the wanted ranks (one or two): the
    first sum rounding to ``u1`` and the last rounding to ``u2``, ordered.
    ``ok`` loses the rows where that fails.
    """
    n_rows, size = band.shape
    band32 = band.astype(np.float32)
    sorted32 = np.sort(band32, axis=1)
    rows = np.arange(n_rows)
    u1, u2 = sorted32[rows, rank1], sorted32[rows, rank2]
    ok &= np.isfinite(u2)
    ok &= (rank1 == 0) | (sorted32[rows, np.maximum(rank1 - 1, 0)] < u1)
    ok &= (rank2 == size - 1) | (sorted32[rows, np.minimum(rank2 + 1, size - 1)] > u2)
    first = np.argmax(band32 == u1[:, None], axis=1)
    last = size - 1 - np.argmax(band32[:, ::-1] == u2[:, None], axis=1)
    one, other = band[rows, first], band[rows, last]
    return np.minimum(one, other), np.maximum(one, other)


def _tied_walsh_median(ordered, n_distinct):
    """The Walsh median of rows with few distinct differences, from their distinct sums.

    With distinct values ``u`` and counts ``w``, the Walsh sums are
    ``u[i] + u[j]`` (``i <= j``, the same float64 additions as the brute
    force's), ``w[i] w[j]`` times for ``i < j`` and ``w[i] (w[i] + 1) / 2``
    times for ``i = j``; the middle is read from their cumulative counts.
    """
    n_rows, n = ordered.shape
    n_sums = n * (n + 1) // 2
    k1, k2 = (n_sums - 1) // 2, n_sums // 2
    out = np.empty(n_rows)
    # Rows padded to the largest count of distinct values in their group (powers of two).
    group = np.ceil(np.log2(n_distinct)).astype(int)
    for level in np.unique(group):
        rows = np.flatnonzero(group == level)
        size = int(n_distinct[rows].max())
        i, j = np.triu_indices(size)
        for part in chunks(rows.size, i.size):
            out[rows[part]] = _tied_rows(ordered[rows[part]], size, i, j, k1, k2)
    return out


def _tied_rows(ordered, size, i, j, k1, k2):
    n_rows, n = ordered.shape
    # Run number of each difference; runs beyond a row's own count stay empty (+inf, count 0).
    run = np.zeros((n_rows, n), dtype=np.intp)
    np.cumsum(ordered[:, 1:] != ordered[:, :-1], axis=1, out=run[:, 1:])
    run += (np.arange(n_rows) * size)[:, None]
    values = np.full(n_rows * size, np.inf)
    values[run.ravel()] = ordered.ravel()
    counts = np.bincount(run.ravel(), minlength=n_rows * size).reshape(n_rows, size)
    values = values.reshape(n_rows, size)
    sums = values[:, i] + values[:, j]
    weights = counts[:, i] * counts[:, j]
    diagonal = i == j
    weights[:, diagonal] = counts * (counts + 1) // 2
    order = np.argsort(sums, axis=1, kind="stable")
    rows = np.arange(n_rows)[:, None]
    cumulative = np.cumsum(weights[rows, order], axis=1)
    ordered_sums = sums[rows, order]
    at1 = np.count_nonzero(cumulative <= k1, axis=1)
    at2 = np.count_nonzero(cumulative <= k2, axis=1)
    v1 = ordered_sums[np.arange(n_rows), at1]
    v2 = ordered_sums[np.arange(n_rows), at2]
    return (v1 + v2) / 2 / 2 if k1 != k2 else v1 / 2
