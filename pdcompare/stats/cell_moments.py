"""Count, mean and variance of every cell of a grid, accumulated batch by batch.

For rows that arrive in batches (a lazy table streamed by its engine) and
fall into cells (model x item): each batch is reduced to the count, mean
and sum of squared deviations of the cells it touches, two passes over the
batch (accurate whatever the scale of the scores), and merged into dense
running arrays by Chan, Golub & LeVeque's pairwise update (1979). The
arrays hold 24 bytes a cell, whatever the number of rows (16 while every
score is 0 or 1: a cell of 0/1 scores has ``m2 = n * mean * (1 - mean)``,
so the sums of squares are kept only from the first other score on); no
loop over cells or rows in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: A batch whose cells spread over more than this many slots per row is reduced
#: over its distinct cells (a sort) instead of over the range of its cells.
_SPREAD = 4


@dataclass(frozen=True)
class BatchMoments:
    """The moments of one batch's cells.

    ``slots`` are the cells (a ``slice`` of consecutive cells, or their
    sorted positions); ``count``, ``mean`` and ``m2`` (sum of squared
    deviations from the mean) hold one entry per slot (count 0 and mean NaN
    where a slot of the range has no score); ``m2`` is None when every score
    of the batch is 0 or 1 (it is then ``count * mean * (1 - mean)``);
    ``missing`` the rows whose score is NaN, per slot (None when the batch
    has none).
    """

    slots: slice | np.ndarray
    count: np.ndarray
    mean: np.ndarray
    m2: np.ndarray | None
    missing: np.ndarray | None

    def sums_of_squares(self) -> np.ndarray:
        """``m2``, from the binomial identity where the batch's scores were 0/1."""
        return self.m2 if self.m2 is not None else _binomial_m2(self.count, self.mean)


def _binomial_m2(count: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """Sum of squared deviations of ``count`` scores of 0/1 with this mean (0 where none)."""
    with np.errstate(invalid="ignore"):
        return np.where(count > 0, count * mean * (1.0 - mean), 0.0)


def batch_moments(cells: np.ndarray, values: np.ndarray) -> BatchMoments:
    """Count, mean and sum of squared deviations of each cell of one batch of rows.

    Parameters
    ----------
    cells : numpy.ndarray of int
        The cell of each row (non-negative).
    values : numpy.ndarray of float
        The score of each row; NaN is a missing score, counted in ``missing``.

    Examples
    --------
    >>> m = batch_moments(np.array([3, 3, 5]), np.array([1.0, 0.0, 2.0]))
    >>> m.slots, m.count.tolist(), m.mean.tolist(), m.m2.tolist()
    (slice(3, 6, None), [2.0, 0.0, 1.0], [0.5, nan, 2.0], [0.5, 0.0, 0.0])
    >>> batch_moments(np.array([3, 3]), np.array([1.0, 0.0])).m2 is None  # 0/1 scores
    True
    """
    low, high = int(cells.min()), int(cells.max())
    if high - low + 1 <= _SPREAD * cells.size + 64:  # the rows' cells close together
        slots: slice | np.ndarray = slice(low, high + 1)
        local = cells - low
        width = high - low + 1
    else:  # scattered: number the distinct cells (sorted)
        slots, local = np.unique(cells, return_inverse=True)
        width = slots.size
    total = np.bincount(local, weights=values, minlength=width)
    missing = None
    if np.isnan(total).any():  # missing scores: counted apart, left out of the moments
        absent = np.isnan(values)
        missing = np.bincount(local[absent], minlength=width).astype(float)
        local, values = local[~absent], values[~absent]
        total = np.bincount(local, weights=values, minlength=width)
    count = np.bincount(local, minlength=width).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / count
    m2 = None
    if np.count_nonzero(values * (1.0 - values)):  # a score other than 0 and 1: two passes
        deviation = values - mean[local]
        m2 = np.bincount(local, weights=deviation * deviation, minlength=width)
    return BatchMoments(slots, count, mean, m2, missing)


class CellMoments:
    """Running count, mean and sum of squared deviations of ``n_cells`` cells.

    Examples
    --------
    >>> running = CellMoments(3)
    >>> running.add(np.array([0, 0, 2]), np.array([1.0, 3.0, 5.0]))
    >>> running.add(np.array([0, 2]), np.array([2.0, np.nan]))
    >>> running.count.tolist(), running.mean.tolist(), running.variance().tolist()
    ([3.0, 0.0, 1.0], [2.0, 0.0, 5.0], [1.0, nan, nan])
    >>> running.missing.tolist(), running.binary
    ([0.0, 0.0, 1.0], False)
    """

    def __init__(self, n_cells: int) -> None:
        self.count = np.zeros(n_cells)
        self.mean = np.zeros(n_cells)
        #: Sums of squared deviations; None while every score has been 0 or 1.
        self.m2: np.ndarray | None = None
        #: Rows whose score was missing, per cell (None until a batch has one).
        self.missing: np.ndarray | None = None

    @property
    def binary(self) -> bool:
        """Whether every score merged so far was 0 or 1 (the variances follow from the means)."""
        return self.m2 is None

    def add(self, cells: np.ndarray, values: np.ndarray) -> None:
        """Merge one batch of rows (their cells, their scores; NaN missing)."""
        if cells.size:
            self.merge(batch_moments(cells, values))

    def merge(self, batch: BatchMoments) -> None:
        """Merge a batch's moments into the running ones."""
        slots = batch.slots
        if batch.missing is not None:
            if self.missing is None:
                self.missing = np.zeros_like(self.count)
            self.missing[slots] += batch.missing
        if batch.m2 is not None and self.m2 is None:  # the first score other than 0 and 1
            self.m2 = _binomial_m2(self.count, self.mean)
        count, mean = batch.count, batch.mean
        m2 = None if self.m2 is None else batch.sums_of_squares()
        hit = count > 0
        if not hit.all():  # slots of a range that no scored row fell into: left as they are
            slots = _positions(slots)[hit]
            count, mean = count[hit], mean[hit]
            m2 = None if m2 is None else m2[hit]
        before = self.count[slots]
        together = before + count
        share = count / together
        delta = mean - self.mean[slots]
        self.mean[slots] += delta * share
        if m2 is not None:
            self.m2[slots] += m2 + delta * delta * before * share
        self.count[slots] = together

    def empty_as_nan(self) -> None:
        """Set the mean of every cell without a score to NaN (in place, a chunk at a time)."""
        for part in _chunks(self.count.size):
            self.mean[part][self.count[part] == 0] = np.nan

    def variance(self, out: np.ndarray | None = None) -> np.ndarray:
        """Variance (ddof 1) of each cell, NaN where it has fewer than 2 scores.

        ``out=self.m2`` computes it in place (the running sums are then spent).
        """
        out = np.empty_like(self.count) if out is None else out
        for part in _chunks(self.count.size):
            count = self.count[part]
            m2 = _binomial_m2(count, self.mean[part]) if self.m2 is None else self.m2[part]
            with np.errstate(invalid="ignore", divide="ignore"):
                out[part] = np.where(count > 1, m2 / (count - 1), np.nan)
        return out


def _positions(slots: slice | np.ndarray) -> np.ndarray:
    return np.arange(slots.start, slots.stop) if isinstance(slots, slice) else slots


def _chunks(size: int, step: int = 1 << 20):
    """Slices of at most ``step`` cells: bounded temporaries over arrays of any size."""
    for start in range(0, size, step):
        yield slice(start, min(start + step, size))
