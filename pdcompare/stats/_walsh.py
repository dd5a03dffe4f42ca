"""The median of the Walsh averages of many rows of sorted differences, by selection.

The Hodges–Lehmann estimate of a pair is the median of the ``N = n (n + 1) / 2``
Walsh sums ``o[a] + o[b]`` (``a <= b``) of its sorted differences ``o``,
halved. Computing and partitioning all of them costs ``O(n**2)`` per pair;
this module finds the one or two middle sums from ``O(n)`` work per pair and
round, vectorised over the rows (pairs), in the spirit of Monahan's (1984)
and Johnson and Mizoguchi's (1978) selection in the sorted matrix
``S[a, b] = o[a] + o[b]``:

1. Pivots. The Walsh sums of every eighth order statistic (about ``N / 64``
   of them) give two values just below and above the middle.
2. Staircases. For a pivot ``t`` the sums ``<= t`` of row ``a`` of ``S`` are
   its first ``P[a]`` columns, ``P[a] = #{b : o[b] <= t - o[a]}``: one merge
   of ``o`` with ``t - o`` per row (a sort of 32-bit keys). The positions
   left of the staircase count the sums below the pivot.
3. A second pair of pivots, interpolated between the first two at the middle
   rank minus and plus a margin, brackets the middle sums by a band of about
   ``n`` sums per row between their staircases.
4. The sums of the band are formed and the middle ones selected among them.

The staircases are computed on float32 keys, so they are approximate; the
result does not depend on them. Whatever the band, the positions left of it
are counted exactly, and the selected value ``v`` is the middle sum if every
sum left of the band is ``<= v`` and every sum right of it ``>= v`` (each
row of ``S`` is sorted, so one sum per row and side is checked, in float64
exactly as the brute force forms them). A row that fails the check (the
middle outside the band, or a band edge misplaced by the float32 rounding)
is computed by the brute force. The numbers are therefore those of forming
all ``N`` sums and partitioning them: rounding ``o[a] + o[b]`` is monotone,
so the middle of the rounded sums is the rounded sum selected here.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats._moments import chunks

#: Fewer differences than this: all Walsh sums are formed (cheap, and no pivots to estimate).
_BRUTE_MAX_N = 64

#: Every ``_THIN``-th order statistic gives the first pivots.
_THIN = 8

#: First pivots: this many Walsh sums of the thinned sample (or a quarter of its size)
#: below and above its middle.
_THIN_MARGIN = 6

_LOW_BITS = np.int32(-2)  # clears the lowest bit of an int32 key
_MAGNITUDE = np.int32(0x7FFFFFFF)


def walsh_median(ordered: np.ndarray) -> np.ndarray:
    """Median of the Walsh averages ``(o[a] + o[b]) / 2``, ``a <= b``, of each row.

    ``ordered`` holds one row of sorted differences per pair, no NaN. The
    result equals ``np.median`` of all the row's Walsh averages bit for bit
    (the two middle sums averaged, then halved).
    """
    n_rows, n = ordered.shape
    out = np.empty(n_rows)
    if n < _BRUTE_MAX_N:
        out[:] = brute_walsh_median(ordered)
        return out
    finite = np.isfinite(ordered).all(axis=1)
    fast = np.flatnonzero(finite)
    value, ok = _selected(ordered[fast]) if fast.size else (np.empty(0), np.empty(0, bool))
    out[fast] = value
    slow = np.concatenate([np.flatnonzero(~finite), fast[~ok]])
    if slow.size:
        out[slow] = brute_walsh_median(ordered[slow])
    return out


def brute_walsh_median(ordered: np.ndarray) -> np.ndarray:
    """All ``n (n + 1) / 2`` Walsh sums of each row, partitioned at their middle."""
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


def _selected(ordered):
    """The Walsh median of each row by selection, and whether the row's check passed."""
    n = ordered.shape[1]
    n_sums = n * (n + 1) // 2
    k1, k2 = (n_sums - 1) // 2, n_sums // 2
    columns = np.arange(n)
    high_keys = _keys(ordered, 1)  # differences after equal queries: staircase of "<="
    low_keys = _keys(ordered, 0)  # ... before them: staircase of "<"

    lo, hi = _thinned_pivots(ordered, k1)
    left_1 = np.maximum(_staircase(high_keys, ordered, lo, strict=True), columns)
    right_1 = np.maximum(_staircase(low_keys, ordered, hi, strict=False), left_1)
    count_lo = (left_1 - columns).sum(axis=1)
    count_hi = (right_1 - columns).sum(axis=1)
    ok = (count_lo <= k1) & (count_hi > k2)

    # Second pivots: interpolated in the bracket at the middle ranks -+ a margin.
    margin = max(n // 4, 32)
    span = np.maximum(count_hi - count_lo, 1)
    width = hi - lo
    lo2 = lo + np.clip((k1 - margin - count_lo) / span, 0.0, 1.0) * width
    hi2 = lo + np.clip((k2 + margin - count_lo) / span, 0.0, 1.0) * width
    left = np.clip(_staircase(high_keys, ordered, lo2, strict=True), left_1, right_1)
    right = np.clip(_staircase(low_keys, ordered, hi2, strict=False), left, right_1)
    value, inside = _band_median(ordered, left, right, k1, k2)
    # Where the interpolation missed the middle (ties: the count jumps), the first band.
    again = np.flatnonzero(ok & ~inside)
    if again.size:
        value[again], inside[again] = _band_median(
            ordered[again], left_1[again], right_1[again], k1, k2
        )
    return value, ok & inside


def _band_median(ordered, left, right, k1, k2):
    """The Walsh median of each row from the band between staircases, and whether it is exact.

    ``left`` and ``right`` (at least ``a`` in column ``a``, ``left <= right``)
    delimit the band ``S[a, left[a]:right[a]]`` of each row ``a`` of the Walsh
    sums ``S``; the sums of rank ``k1`` and ``k2`` are selected among the
    band's. The result is exact where the ranks fall in the band, every sum
    left of it is ``<= v1`` and every sum right of it ``>= v2``.
    """
    n = ordered.shape[1]
    columns = np.arange(n)
    before = (left - columns).sum(axis=1)
    size = (right - left).sum(axis=1)
    ok = (before <= k1) & (before + size > k2)
    v1, v2 = _band_ranks(ordered, left, right, before, size, k1, k2, ok)
    # Row a of S is sorted: its last sum left of the band and first right of it suffice.
    last_left = np.take_along_axis(ordered, np.maximum(left - 1, 0), axis=1) + ordered
    first_right = np.take_along_axis(ordered, np.minimum(right, n - 1), axis=1) + ordered
    ok &= np.where(left > columns, last_left, -np.inf).max(axis=1) <= v1
    ok &= np.where(right < n, first_right, np.inf).min(axis=1) >= v2
    value = (v1 + v2) / 2 / 2 if k1 != k2 else v1 / 2  # as brute_walsh_median's mean, halved
    return value, ok


def _band_ranks(ordered, left, right, before, size, k1, k2, ok):
    """The sums of rank ``k1`` and ``k2`` of each row, from the band between two staircases.

    Row ``a`` of the band holds the sums ``S[a, left[a]:right[a]]``; ``before``
    sums lie left of it. The band's sums go into one row each of a matrix,
    after ``-inf`` pads that put every row's wanted rank in the same column,
    and one partition selects them.
    """
    n_rows, n = ordered.shape
    lengths = (right - left).ravel()
    total = int(lengths.sum())
    ends = np.cumsum(lengths)
    segment = _segment_of_each(lengths, total)
    # Element e of segment s = (row, a) is S[a, left[a] + e - start(s)]: flat position
    # s + (left[a] - a) - start(s) + e of the second term.
    second = (left - np.arange(n)).ravel() - (ends - lengths) + np.arange(lengths.size)
    position = np.arange(total)
    flat = ordered.ravel()
    sums = flat[segment] + flat[second[segment] + position]
    wanted = np.where(ok, k1 - before, 0)
    column_of_rank = int(wanted.max()) if n_rows else 0
    pad = np.where(ok, column_of_rank - wanted, 0)
    row_start = np.cumsum(size) - size
    row = segment // n
    n_columns = int((pad + size).max()) + 2 if n_rows else 2
    band = np.full((n_rows, n_columns), np.inf)
    band[np.arange(n_columns) < pad[:, None]] = -np.inf
    band.ravel()[row * n_columns + (pad - row_start)[row] + position] = sums
    kth = [column_of_rank] if k1 == k2 else [column_of_rank, column_of_rank + 1]
    band.partition(kth, axis=1)
    v1 = band[:, column_of_rank]
    v2 = band[:, column_of_rank + 1] if k1 != k2 else v1
    return v1, v2


def _segment_of_each(lengths, total):
    """``np.repeat(np.arange(lengths.size), lengths)`` from one cumulative sum (faster)."""
    filled = np.flatnonzero(lengths)
    steps = np.zeros(total, dtype=np.intp)
    if filled.size:
        starts = (np.cumsum(lengths) - lengths)[filled]
        steps[starts[1:]] = np.diff(filled)
        steps[0] = filled[0]
    return np.cumsum(steps)


def _thinned_pivots(ordered, k1):
    """Sums just below and above the middle of the Walsh sums of every eighth order statistic."""
    n_rows, n = ordered.shape
    m = n // _THIN
    first = (n - 1 - _THIN * (m - 1)) // 2  # centred: the thinned sample is as symmetric as o
    thinned = ordered[:, first : first + _THIN * (m - 1) + 1 : _THIN]
    n_thinned = m * (m + 1) // 2
    sums = np.empty((n_rows, n_thinned))
    start = 0
    for a in range(m):
        np.add(thinned[:, a : a + 1], thinned[:, a:], out=sums[:, start : start + m - a])
        start += m - a
    n_sums = n * (n + 1) // 2
    middle = round(k1 * (n_thinned - 1) / (n_sums - 1))
    margin = max(_THIN_MARGIN, m // 4)
    below = max(middle - margin, 0)
    above = min(middle + margin, n_thinned - 1)
    sums.partition([below, above], axis=1)
    return sums[:, below], sums[:, above]


def _keys(x, low_bit):
    """Order-preserving int32 keys of ``float32(x)``, the lowest bit set to ``low_bit``."""
    keys = np.ascontiguousarray(x, dtype=np.float32).view(np.int32)
    keys ^= (keys >> 31) & _MAGNITUDE  # negative floats: reverse their order
    keys &= _LOW_BITS
    if low_bit:
        keys |= np.int32(1)
    return keys


def _staircase(difference_keys, ordered, pivot, *, strict):
    """About ``#{b : o[b] <= t - o[a]}`` (``<`` when ``strict``) for each row and ``a``.

    ``difference_keys`` are :func:`_keys` of ``ordered`` with lowest bit 1
    when ``strict`` (a query ``t - o[a]`` equal to a difference sorts before
    it) and 0 otherwise. The queries of a row ascend as ``a`` descends; after
    one sort of each row of differences and queries, the ``j``-th query from
    the left has ``position - j`` differences before it.
    """
    n_rows, n = ordered.shape
    queries = _keys(pivot[:, None] - ordered[:, ::-1], 0 if strict else 1)
    merged = np.concatenate([difference_keys, queries], axis=1)
    merged.sort(axis=1)
    is_query = (merged & np.int32(1)) == (0 if strict else 1)
    found = np.flatnonzero(is_query.ravel()).reshape(n_rows, n)
    position = found - (np.arange(n_rows) * (2 * n))[:, None]
    return (position - np.arange(n))[:, ::-1]
