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

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from pdcompare.stats._moments import chunks

#: Fewer differences than this: all Walsh sums are formed (cheap, and no pivots to estimate).
_BRUTE_MAX_N = 96

#: Every ``_THIN``-th order statistic gives the first pivots.
_THIN = 8

#: First pivots: this many Walsh sums of the thinned sample (or a quarter of its size)
#: below and above its middle.
_THIN_MARGIN = 6

#: The interpolated pivots aim this many ranks (``n // _BAND_DIVISOR``, at least
#: ``_BAND_MIN``) below and above the middle: the band holds about twice as many sums.
_BAND_DIVISOR = 4
_BAND_MIN = 32

#: Rows of a chunk: the chunk of differences divided by this (the selection's arrays
#: take about 16 times the bytes of the differences, and two chunks run at once).
_CHUNK_FACTOR = 8

#: Rounds of interpolated pivots at most (one is usually enough without ties).
_ROUNDS = 3

_LOW_BYTE = 0 if sys.byteorder == "little" else 3  # the lowest byte of an int32
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
    ok = np.zeros(fast.size, dtype=bool)

    def select(part):
        out[fast[part]], ok[part] = _selected(ordered[fast[part]])

    parts = list(chunks(fast.size, n * _CHUNK_FACTOR))
    if len(parts) > 1 and (os.cpu_count() or 1) > 1:
        # numpy's sorts, gathers and arithmetic release the GIL: two chunks at a time.
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(select, parts))
    else:
        for part in parts:
            select(part)
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
    n_rows, n = ordered.shape
    n_sums = n * (n + 1) // 2
    k1, k2 = (n_sums - 1) // 2, n_sums // 2
    singles = ordered.astype(np.float32)
    below_keys = _keys(singles, 1)  # a query equal to a difference sorts before it: "<"
    above_keys = below_keys & _LOW_BITS  # ... after it: "<="

    # The bracket of each row: sums left of the staircase of lo (< lo), count_lo <= k1, and
    # of hi (<= hi or < hi), count_hi > k2. Its first pivots come from the thinned sample.
    lo, hi = _thinned_pivots(ordered, k1)
    mask_lo = _queries(below_keys, singles, lo, strict=True)
    mask_hi = _queries(above_keys, singles, hi, strict=False)
    count_lo, count_hi = _count_left(mask_lo), _count_left(mask_hi)
    ok = (count_lo <= k1) & (count_hi > k2)
    # Then pivots interpolated in the bracket at the middle ranks -+ a margin: the band
    # between them holds the middle, or one of them narrows the bracket (ties make the
    # count jump, and the interpolation miss).
    margin = max(n // _BAND_DIVISOR, _BAND_MIN)
    active = np.flatnonzero(ok)
    for _ in range(_ROUNDS):
        if not active.size:
            break
        c_lo, c_hi = count_lo[active], count_hi[active]
        t_lo, t_hi = lo[active], hi[active]
        span = np.maximum(c_hi - c_lo, 1)
        lo2 = t_lo + np.clip((k1 - margin - c_lo) / span, 0.0, 1.0) * (t_hi - t_lo)
        hi2 = t_lo + np.clip((k2 + margin - c_lo) / span, 0.0, 1.0) * (t_hi - t_lo)
        if active.size == n_rows:  # no copies of the whole chunk
            rows, below, above = singles, below_keys, above_keys
        else:
            rows, below, above = singles[active], below_keys[active], above_keys[active]
        new_lo = _queries(below, rows, lo2, strict=True)
        new_hi = _queries(above, rows, hi2, strict=False)
        c_lo2, c_hi2 = _count_left(new_lo), _count_left(new_hi)
        # Each pivot that keeps its side of the middle becomes the bracket's end.
        take_lo = c_lo2 <= k1
        take_hi = c_hi2 > k2
        at = active[take_lo]
        lo[at], count_lo[at], mask_lo[at] = lo2[take_lo], c_lo2[take_lo], new_lo[take_lo]
        at = active[take_hi]
        hi[at], count_hi[at], mask_hi[at] = hi2[take_hi], c_hi2[take_hi], new_hi[take_hi]
        # A low pivot past the middle: the middle is below it; a high pivot short of it.
        past = ~take_lo
        at = active[past]
        hi[at], count_hi[at], mask_hi[at] = lo2[past], c_lo2[past], new_lo[past]
        short = ~take_hi
        at = active[short]
        lo[at], count_lo[at], mask_lo[at] = hi2[short], c_hi2[short], new_hi[short]
        active = active[~(take_lo & take_hi)]
    # The band of each row between its bracket's staircases; wide bands on their own.
    value = np.full(n_rows, np.nan)
    wide = count_hi - count_lo > 8 * margin
    for rows in (np.flatnonzero(ok & ~wide), np.flatnonzero(ok & wide)):
        if rows.size:
            left, right = _offsets(mask_lo[rows]), _offsets(mask_hi[rows])
            value[rows], ok[rows] = _band_median(ordered[rows], left, right, k1, k2)
    return value, ok


def _band_median(ordered, left, right, k1, k2):
    """The Walsh median of each row from the band between staircases, and whether it is exact.

    Row ``a`` of the band holds the sums ``S[a, a + left[a] : a + right[a]]``
    (``0 <= left <= right``) of the Walsh sums ``S``; the sums of rank ``k1``
    and ``k2`` are selected among the band's. The result is exact where the
    ranks fall in the band, every sum left of it is ``<= v1`` and every sum
    right of it ``>= v2``.
    """
    before = left.sum(axis=1)
    size = right.sum(axis=1) - before
    ok = (before <= k1) & (before + size > k2)
    v1, v2 = _band_ranks(ordered, left, right, before, size, k1, k2, ok)
    # Row a of S is sorted: its last sum left of the band and first right of it suffice
    # (gathered by flat position: faster than take_along_axis).
    flat = ordered.ravel()
    at = np.arange(ordered.size).reshape(ordered.shape)
    before_band = at + left
    before_band -= 1  # where left = 0, an unrelated sum (or index -1): discarded below
    last_left = flat[before_band]
    last_left += ordered
    last_left[left == 0] = -np.inf
    row_end = at[:, -1:]
    beyond = at + right
    past_end = beyond > row_end
    np.minimum(beyond, row_end, out=beyond)
    first_right = flat[beyond]
    first_right += ordered
    first_right[past_end] = np.inf
    ok &= last_left.max(axis=1) <= v1
    ok &= first_right.min(axis=1) >= v2
    value = (v1 + v2) / 2 / 2 if k1 != k2 else v1 / 2  # as brute_walsh_median's mean, halved
    return value, ok


def _band_ranks(ordered, left, right, before, size, k1, k2, ok):
    """The sums of rank ``k1`` and ``k2`` of each row, from the band between two staircases.

    Row ``a`` of the band holds the sums ``S[a, a + left[a] : a + right[a]]``;
    ``before`` sums lie left of it. The band's sums go into one row each of a matrix,
    after ``-inf`` pads that put every row's wanted rank in the same column,
    and one partition selects them.
    """
    n_rows, n = ordered.shape
    lengths = (right - left).ravel()
    # Only the (row, a) with a non-empty segment: flat position s = r * n + a.
    filled = np.flatnonzero(lengths)
    counts = lengths[filled]
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts  # of each segment among all the band's sums
    wanted = np.where(ok, k1 - before, 0)
    column_of_rank = int(wanted.max()) if n_rows else 0
    pad = np.where(ok, column_of_rank - wanted, 0)
    n_columns = int((pad + size).max()) + 2 if n_rows else 2
    # Element e of segment s, at position p = starts + e of all the band's sums, is
    # o[r, a] + o[r, a + left + e]: flat positions s and s + left - starts + p; it goes
    # to column pad[r] + p - (the band's sums of the rows before r).
    position = np.arange(total)
    first = np.repeat(filled, counts)
    second = np.repeat(filled + left.ravel()[filled] - starts, counts)
    second += position
    row_shift = np.arange(n_rows) * n_columns + pad - (np.cumsum(size) - size)
    destination = row_shift[first // n]
    destination += position
    flat = ordered.ravel()
    sums = flat[first]
    sums += flat[second]
    band = np.full((n_rows, n_columns), np.inf)
    band[np.arange(n_columns) < pad[:, None]] = -np.inf
    band.ravel()[destination] = sums
    kth = [column_of_rank] if k1 == k2 else [column_of_rank, column_of_rank + 1]
    band.partition(kth, axis=1)
    v1 = band[:, column_of_rank]
    v2 = band[:, column_of_rank + 1] if k1 != k2 else v1
    return v1, v2


def _thinned_pivots(ordered, k1):
    """Sums just below and above the middle of the Walsh sums of every eighth order statistic."""
    n_rows, n = ordered.shape
    m = n // _THIN
    first = (n - 1 - _THIN * (m - 1)) // 2  # centred: the thinned sample is as symmetric as o
    thinned = np.ascontiguousarray(ordered[:, first : first + _THIN * (m - 1) + 1 : _THIN])
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
    keys = np.array(x, dtype=np.float32).view(np.int32)  # a copy: x is left alone
    _order_preserving(keys, low_bit)
    return keys


def _order_preserving(keys, low_bit):
    """Turn float32 bits (viewed as int32) into keys that sort like the floats, in place."""
    keys ^= (keys >> 31) & _MAGNITUDE  # negative floats: reverse their order
    if low_bit:
        keys |= np.int32(1)
    else:
        keys &= _LOW_BITS


def _queries(difference_keys, singles, pivot, *, strict):
    """Where the queries ``t - o[a]`` fall among the sorted differences of each row.

    ``difference_keys`` are :func:`_keys` of the sorted differences ``o``,
    lowest bit 1 when ``strict`` (a query equal to a difference sorts before
    it: a staircase of ``<``) and 0 otherwise (``<=``); ``singles`` is ``o``
    in float32. Returns the boolean rows x 2n mask of the queries' places in
    the sorted union. The queries ascend as ``a`` descends, so the ``j``-th
    query from the left, ``a = n - 1 - j``, has ``P[a] = position - j``
    differences before it, and row ``a`` of the Walsh sums has
    ``max(P[a] - a, 0) = max(position - (n - 1), 0)`` sums ``o[a] + o[b] <= t``
    with ``b >= a``.
    """
    n_rows, n = singles.shape
    merged = np.empty((n_rows, 2 * n), dtype=np.int32)
    merged[:, :n] = difference_keys
    queries = merged[:, n:]
    np.subtract(pivot.astype(np.float32)[:, None], singles[:, ::-1], out=queries.view(np.float32))
    _order_preserving(queries, 0 if strict else 1)
    merged.sort(axis=1)
    low_bit = merged.view(np.uint8)[:, _LOW_BYTE::4] & np.uint8(1)
    return low_bit == 0 if strict else low_bit.view(np.bool_)


def _count_left(is_query):
    """Number of Walsh sums left of the staircase of each row (sum over the queries)."""
    n = is_query.shape[1] // 2
    weight = np.maximum(np.arange(2 * n) - (n - 1), 0)
    return np.einsum("ij,j->i", is_query.view(np.int8), weight)


def _offsets(is_query):
    """``max(P[a] - a, 0)`` for each row and ``a``: row ``a``'s columns left of the staircase."""
    n_rows, width = is_query.shape
    n = width // 2
    # The k-th query from the right is a = k's, at position width - 1 - p of the reversed
    # mask's p: max(position - (n - 1), 0) = max(n - p, 0), in the order of a.
    found = np.flatnonzero(is_query[:, ::-1]).reshape(n_rows, n)
    np.subtract((np.arange(n_rows) * width + n)[:, None], found, out=found)
    np.maximum(found, 0, out=found)
    return found
