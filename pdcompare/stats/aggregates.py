"""Runs over tasks: rliable's aggregates with stratified bootstrap intervals (pure numpy).

The scores of one model are a cube ``(tasks, runs)``; the models together a
cube ``x`` of shape ``(models, tasks, runs)``, NaN-padded where a model has
fewer runs on a task, the runs of each ``(model, task)`` first. A resample of
the **stratified bootstrap** (Agarwal et al. 2021) draws, for every model and
task on its own, as many runs as it has, uniformly with replacement among its
own runs. A resample is then a cube of **counts** ``w`` of the same shape:
how many times each run was drawn. Every statistic here is a function of the
counts, so a whole block of resamples is one array expression:

- ``mean``: the mean over tasks of the run means, ``sum_r w x / sum_r w``;
- ``median``: the median over tasks of the run means;
- ``optimality_gap``: ``gamma - sum w min(x, gamma) / sum w`` (every run
  weighs the same, as rliable's ``gamma - mean(minimum(scores, gamma))``);
- ``iqm``: ``scipy.stats.trim_mean(all runs, 0.25)``: with each model's runs
  sorted once, the trimmed sum is the overlap of every run's block of
  cumulative counts with the kept positions ``[floor(N/4), N - floor(N/4))``,
  no sort per resample;
- the probability of improvement of a pair: per task
  ``sum_rs w1_r w2_s k_rs / (n1 n2)`` with ``k = [x1 > x2] + [x1 = x2] / 2``,
  averaged over tasks;
- the performance profile: the share of runs above each threshold, per task,
  averaged over tasks.

The uniform draws are taken once per call for all models, metrics and pairs,
block by block (a block of resamples is a slice of the same stream, so the
block size never changes a result): the same ``random_state`` gives the same
interval for a metric asked alone or in a list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from pdcompare.stats import _special as special

#: The aggregate metrics, in rliable's names.
METRICS = ("mean", "median", "iqm", "optimality_gap")

#: Interval methods of ``aggregate``.
INTERVAL_METHODS = ("percentile", "bca")

# Elements of the count cube per block of resamples: bounds memory whatever n_resamples is.
_BLOCK_ELEMENTS = 2**21


def compact_runs(cube: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The runs of every ``(model, task)`` moved first (NaN padding last), and their counts.

    Parameters
    ----------
    cube : numpy.ndarray
        Scores, shape (models, tasks, runs), NaN for an absent run.

    Returns
    -------
    x : numpy.ndarray
        The same scores with each cell's runs first, in their order.
    n_runs : numpy.ndarray
        Number of runs of each (model, task), shape (models, tasks).

    Examples
    --------
    >>> x, n = compact_runs(np.array([[[np.nan, 1.0, 2.0]]]))
    >>> x.tolist(), n.tolist()
    ([[[1.0, 2.0, nan]]], [[2]])
    """
    cube = np.asarray(cube, dtype=float)
    missing = np.isnan(cube)
    order = np.argsort(missing, axis=-1, kind="stable")
    return np.take_along_axis(cube, order, axis=-1), (~missing).sum(axis=-1)


class _Runs:
    """The cube prepared once, in two layouts of the same runs.

    The task layout ``(models, tasks, runs)`` (``x0``, zero-padded, with the
    ``valid`` mask) serves the probability of improvement; the sorted layout
    (each model's runs of all tasks sorted by score, N the most runs of a
    model) serves the metrics and the profile. Counts in the sorted layout
    are arrays (N, models, resamples), so that sums and cumulative sums over
    the runs run along the first axis: task sums are one sparse product, the
    trimmed sum of the IQM a sum by parts over cumulative counts.
    """

    def __init__(self, x: np.ndarray) -> None:
        x, n_runs = compact_runs(x)
        self.n_models, self.n_tasks, self.width = x.shape
        self.n_runs = n_runs
        self.valid = np.arange(self.width) < n_runs[..., None]
        self.x0 = np.where(self.valid, x, 0.0)
        cells = np.arange(self.x0.size).reshape(self.x0.shape)
        self.starts = cells - np.arange(self.width)  # flat index of each cell's first run
        flat = np.where(self.valid, x, np.inf).reshape(self.n_models, -1)
        self.total = self.valid.reshape(self.n_models, -1).sum(axis=1)
        size = self.size = int(self.total.max())
        perm = np.argsort(flat, axis=1, kind="stable")[:, :size]
        present = np.arange(size) < self.total[:, None]
        values = np.take_along_axis(self.x0.reshape(self.n_models, -1), perm, axis=1)
        last = values[np.arange(self.n_models), self.total - 1]
        # Padding repeats a model's highest run (never drawn: weight 0), so that the
        # differences of neighbours below are 0 there.
        self.sorted = np.where(present, values, last[:, None])
        self.sorted_valid = present
        task = np.where(present, perm // self.width, -1)
        self.task_of = np.maximum(task, 0)  # each sorted run's task (0 for padding)
        self.steps = np.append(self.sorted[:, :-1] - self.sorted[:, 1:], self.sorted[:, -1:], 1)
        # Position of every (model, task, run) slot in the flat sorted layout of one resample.
        rank = np.zeros((self.n_models, self.n_tasks * self.width), dtype=np.intp)
        np.put_along_axis(rank, perm, np.arange(size)[None, :] + 0, axis=1)
        # Counts are laid out (N, models, resamples): bin k * models + m of one resample.
        rank = (rank * self.n_models + np.arange(self.n_models)[:, None]).ravel()
        self.rank = np.append(rank, self.n_models * size)  # the last: a discarded bin
        self.slots = np.where(self.valid, self.starts, rank.size)
        # Task sums as one sparse product: rows (task, model), columns (k, model). scipy.sparse
        # is imported here: loading it costs every `import pdcompare` about 60 ms.
        from scipy import sparse

        k, m = np.nonzero(present.T)
        rows = task.T[k, m] * self.n_models + m
        shape = (self.n_tasks * self.n_models, size * self.n_models)
        columns = k * self.n_models + m
        self.task_counts = sparse.csr_array((np.ones(k.size), (rows, columns)), shape=shape)
        self.task_sums = sparse.csr_array((self.sorted.T[k, m], (rows, columns)), shape=shape)

    def ones(self) -> np.ndarray:
        """The counts of the original sample in the sorted layout (N, models, 1)."""
        return self.sorted_valid.T[..., None].astype(float)

    def ones_by_task(self) -> np.ndarray:
        """The counts of the original sample in the task layout."""
        return self.valid[None].astype(float)


def _metric_values(runs: _Runs, w: np.ndarray, metrics: Sequence[str], gamma: float) -> np.ndarray:
    """Every metric of every model for counts ``w`` (N, models, block) in the sorted layout.

    Returns shape (block, models, metrics). A task without runs in ``w`` (the
    jackknife leaving out the only run of a task) leaves the task-level
    metrics (mean, median) over the other tasks.
    """
    size, n_models, block = w.shape
    out = np.empty((block, n_models, len(metrics)))
    empty = False
    with np.errstate(invalid="ignore", divide="ignore"):
        if "mean" in metrics or "median" in metrics:
            flat = w.reshape(size * n_models, block)
            n = runs.task_counts @ flat
            task_means = (runs.task_sums @ flat) / n  # (tasks x models, block)
            task_means = task_means.reshape(runs.n_tasks, n_models, block).transpose(2, 1, 0)
            empty = bool((n == 0).any())
        for k, metric in enumerate(metrics):
            if metric == "mean":
                out[..., k] = np.nanmean(task_means, axis=-1) if empty else task_means.mean(-1)
            elif metric == "median":
                out[..., k] = (
                    np.nanmedian(task_means, axis=-1) if empty else np.median(task_means, -1)
                )
            elif metric == "optimality_gap":
                clipped = np.minimum(runs.sorted, gamma).T[..., None]
                out[..., k] = (gamma - (w * clipped).sum(axis=0) / w.sum(axis=0)).T
            else:  # iqm: trim_mean(0.25) by parts over the cumulative counts of sorted runs
                kept = np.cumsum(w, axis=0)
                total = kept[-1].copy()
                low = np.floor(0.25 * total)
                width = total - 2 * low
                kept -= low
                np.clip(kept, 0.0, width, out=kept)
                kept *= runs.steps.T[..., None]
                out[..., k] = (kept.sum(axis=0) / width).T
    return out


def _draws(
    runs: _Runs, n_resamples: int, rng: np.random.Generator, per_resample: int
) -> Iterator[np.ndarray]:
    """The stratified bootstrap's draws, block by block: (block, models, tasks, runs).

    One uniform number (float32) per (resample, model, task, run slot): the
    slot draws run ``floor(u * n_runs)`` among its cell's own runs; slots
    beyond the cell's runs draw 0 and are never used. A block is a slice of
    one stream, so the block size never changes a result.
    """
    shape = (runs.n_models, runs.n_tasks, runs.width)
    size = max(1, min(n_resamples, _BLOCK_ELEMENTS // max(per_resample, 1)))
    n_runs = np.where(runs.valid, runs.n_runs[..., None], 0).astype(np.float32)
    for start in range(0, n_resamples, size):
        block = min(size, n_resamples - start)
        u = rng.random((block, *shape), dtype=np.float32)
        u *= n_runs
        yield u.astype(np.intp)  # floor: u >= 0


def _counts(runs: _Runs, drawn: np.ndarray) -> np.ndarray:
    """Counts of a block of draws in the sorted layout (N, models, block): one ``bincount``.

    Slots beyond a cell's runs draw 0 and point to a last, discarded bin.
    """
    block = drawn.shape[0]
    bins = runs.n_models * runs.size + 1
    positions = np.take(runs.rank, runs.slots + drawn)
    positions = positions * block + np.arange(block)[:, None, None, None]
    counts = np.bincount(positions.ravel(), minlength=bins * block)[: (bins - 1) * block]
    return counts.reshape(runs.size, runs.n_models, block).astype(float)


def _counts_by_task(runs: _Runs, drawn: np.ndarray) -> np.ndarray:
    """Counts of a block of draws in the task layout (block, models, tasks, runs)."""
    block = drawn.shape[0]
    cells = runs.n_models * runs.n_tasks * runs.width
    slots = (np.arange(cells).reshape(runs.valid.shape) - np.arange(runs.width))[runs.valid]
    positions = slots + drawn[:, runs.valid] + cells * np.arange(block)[:, None]
    counts = np.bincount(positions.ravel(), minlength=block * cells)
    return counts.reshape(block, *runs.valid.shape).astype(float)


def _blocks(
    runs: _Runs, n_resamples: int, rng: np.random.Generator, per_resample: int
) -> Iterator[np.ndarray]:
    """Count blocks of the stratified bootstrap in the sorted layout."""
    for drawn in _draws(runs, n_resamples, rng, per_resample):
        yield _counts(runs, drawn)


def _quantile_sorted(values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Linear-interpolation quantiles (numpy's default) of presorted ``values`` along axis 0.

    ``q`` broadcasts against ``values.shape[1:]``: a level per column (BCa).
    """
    count = values.shape[0]
    position = np.clip(np.asarray(q, dtype=float), 0.0, 1.0) * (count - 1)
    below = np.floor(position).astype(np.intp)
    above = np.minimum(below + 1, count - 1)
    fraction = position - below
    low = np.take_along_axis(values, below[None], axis=0)[0]
    high = np.take_along_axis(values, above[None], axis=0)[0]
    return low + (high - low) * fraction


def jackknife(runs_or_cube, statistic: Callable[[_Runs, np.ndarray], np.ndarray]) -> np.ndarray:
    """Leave-one-run-out values of ``statistic``: shape (max runs per model, models, ...).

    Row ``l`` of model ``m`` leaves out model ``m``'s ``l``-th run in the
    sorted layout (one run of one task); rows beyond a model's number of runs
    are NaN. ``statistic(runs, w)`` takes counts (N, models, rows) in the
    sorted layout.
    """
    runs = runs_or_cube if isinstance(runs_or_cube, _Runs) else _Runs(runs_or_cube)
    w = np.repeat(runs.ones(), runs.size, axis=2)  # (N, models, rows)
    rows = np.arange(runs.size)
    w[rows, :, rows] = 0.0
    out = statistic(runs, w)
    out[rows[:, None] >= runs.total[None, :]] = np.nan
    return out


def bca_levels(
    distribution: np.ndarray, estimate: np.ndarray, jackknifed: np.ndarray, ci: float
) -> tuple[np.ndarray, np.ndarray]:
    """The BCa interval's lower and upper quantile levels of each column.

    ``z0 = ndtri(share of the bootstrap below the estimate, ties halved)``
    (as ``scipy.stats.bootstrap``), ``a = sum d^3 / (6 (sum d^2)^1.5)`` with
    ``d`` the jackknife values minus their mean (NaN rows left out), and
    level ``ndtr(z0 + (z0 + z) / (1 - a (z0 + z)))`` for ``z`` the normal
    quantiles of ``(1 - ci) / 2`` and ``(1 + ci) / 2`` (Efron 1987).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> low, high = bca_levels(rng.normal(size=(1000, 1)), np.array([0.0]),
    ...                        rng.normal(size=(20, 1)), 0.95)
    >>> bool(0 < low[0] < 0.1 and 0.9 < high[0] < 1)
    True
    """
    count = distribution.shape[0]
    below = (distribution < estimate).sum(axis=0) + (distribution <= estimate).sum(axis=0)
    z0 = special.ndtri(below / (2.0 * count))
    deviation = np.nanmean(jackknifed, axis=0) - jackknifed
    with np.errstate(invalid="ignore", divide="ignore"):
        squares = np.nansum(deviation**2, axis=0)
        accel = np.nansum(deviation**3, axis=0) / (6.0 * squares**1.5)
    accel = np.where(squares > 0, accel, 0.0)
    levels = []
    for tail in ((1 - ci) / 2, (1 + ci) / 2):
        z = special.ndtri(tail)
        with np.errstate(invalid="ignore", divide="ignore"):
            levels.append(special.ndtr(z0 + (z0 + z) / (1 - accel * (z0 + z))))
    return levels[0], levels[1]


def aggregate_estimates(x: np.ndarray, metrics: Sequence[str], gamma: float = 1.0) -> np.ndarray:
    """The point estimates of ``metrics`` for every model: shape (models, metrics).

    Parameters
    ----------
    x : numpy.ndarray
        Scores, shape (models, tasks, runs), NaN for absent runs.
    metrics : sequence of str
        Names from :data:`METRICS`.
    gamma : float, default 1.0
        The threshold of the optimality gap.

    Returns
    -------
    numpy.ndarray
        Shape (models, len(metrics)).

    Examples
    --------
    rliable's test values: runs x tasks ``[[1, 2], [2, 2], [1, 1], [2, 1]]``
    give 1.5 for the mean, the median and the IQM; compare with scipy:

    >>> from scipy import stats
    >>> x = np.array([[1, 2], [2, 2], [1, 1], [2, 1]], dtype=float)
    >>> aggregate_estimates(x.T[None], ["mean", "median", "iqm"]).tolist()
    [[1.5, 1.5, 1.5]]
    >>> float(stats.trim_mean(x, 0.25, axis=None))
    1.5
    """
    runs = _Runs(x)
    return _metric_values(runs, runs.ones(), metrics, gamma)[0]


def aggregate_intervals(
    x: np.ndarray,
    metrics: Sequence[str],
    *,
    gamma: float = 1.0,
    ci: float = 0.95,
    n_resamples: int = 10000,
    method: str = "percentile",
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Estimates and stratified bootstrap intervals of ``metrics``: three (models, metrics) arrays.

    ``method="percentile"`` takes the ``(1 - ci) / 2`` and ``(1 + ci) / 2``
    quantiles of the bootstrap distribution (numpy's linear interpolation, as
    rliable through arch); ``"bca"`` moves the levels by :func:`bca_levels`
    with the jackknife leaving out one run at a time from its task.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(2, 5, 3))
    >>> est, low, high = aggregate_intervals(x, ["mean", "iqm"], n_resamples=200, rng=rng)
    >>> bool((low <= est).all() and (est <= high).all())
    True
    """
    runs = _Runs(x)
    estimate = _metric_values(runs, runs.ones(), metrics, gamma)[0]
    distribution = bootstrap_distribution(
        runs, lambda r, w: _metric_values(r, w, metrics, gamma), n_resamples, rng
    )
    distribution.sort(axis=0)
    if method == "bca":
        jackknifed = jackknife(runs, lambda r, w: _metric_values(r, w, metrics, gamma))
        q_low, q_high = bca_levels(distribution, estimate, jackknifed, ci)
    else:
        q_low = np.full(estimate.shape, (1 - ci) / 2)
        q_high = np.full(estimate.shape, (1 + ci) / 2)
    return estimate, _quantile_sorted(distribution, q_low), _quantile_sorted(distribution, q_high)


def bootstrap_distribution(
    runs_or_cube,
    statistic: Callable[[_Runs, np.ndarray], np.ndarray],
    n_resamples: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """``statistic`` over ``n_resamples`` stratified resamples: shape (n_resamples, ...).

    ``statistic(runs, w)`` maps a block of counts in the sorted layout
    (N, models, block) to an array with the block first.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> x = np.array([[[1.0, 2.0, 3.0]]])
    >>> mean = lambda runs, w: (np.einsum("nmb,mn->bm", w, runs.sorted)
    ...                         / w.sum(axis=0).T)
    >>> bootstrap_distribution(x, mean, 4, rng).shape
    (4, 1)
    """
    runs = runs_or_cube if isinstance(runs_or_cube, _Runs) else _Runs(runs_or_cube)
    per_resample = runs.n_models * (runs.n_tasks * runs.width * 2 + runs.size * 3)
    parts = [statistic(runs, w) for w in _blocks(runs, n_resamples, rng, per_resample)]
    return np.concatenate(parts, axis=0)


def _improvement_kernel(
    runs: _Runs, i: np.ndarray, j: np.ndarray, greater_is_better: bool
) -> np.ndarray:
    """``[x_i > x_j] + [x_i = x_j] / 2`` for every pair, task and two runs (0 for absent runs)."""
    first, second = runs.x0[i][..., :, None], runs.x0[j][..., None, :]
    better = first > second if greater_is_better else first < second
    kernel = better + 0.5 * (first == second)
    both = runs.valid[i][..., :, None] & runs.valid[j][..., None, :]
    return np.where(both, kernel, 0.0)


def _improvement(runs: _Runs, w: np.ndarray, kernel: np.ndarray, i, j) -> np.ndarray:
    """Probability of improvement of each pair for a block of count cubes: (block, pairs)."""
    wi, wj = w[:, i], w[:, j]  # (block, pairs, tasks, runs)
    per_task = np.einsum("bptr,ptrs,bpts->bpt", wi, kernel, wj, optimize=True)
    per_task /= wi.sum(axis=-1) * wj.sum(axis=-1)
    return per_task.mean(axis=-1)


def prob_improvement(
    x: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    *,
    greater_is_better: bool = True,
    ci: float = 0.95,
    n_resamples: int = 10000,
    rng: np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P(model i better than model j), averaged over tasks, with its stratified bootstrap interval.

    Per task, the Mann–Whitney ``U / (n_i n_j)`` of the two models' runs
    (ties count one half; "better" is smaller when ``greater_is_better`` is
    False); the mean over tasks. Each model's runs are resampled within each
    task on their own, from the draws shared by all pairs. ``n_resamples=0``
    gives the estimates only (NaN intervals).

    Examples
    --------
    rliable's test values (P = 1/3); compare with scipy's Mann–Whitney U:

    >>> from scipy import stats
    >>> x = np.array([[1, 2], [2, 2], [1, 1], [2, 1]], dtype=float).T
    >>> y = np.array([[1, 1], [2, 2], [3, 3]], dtype=float).T
    >>> cube = np.full((2, 2, 4), np.nan)
    >>> cube[0], cube[1, :, :3] = x, y
    >>> est, _, _ = prob_improvement(cube, np.array([0]), np.array([1]), n_resamples=0)
    >>> round(float(est[0]), 12), float(stats.mannwhitneyu(x[0], y[0]).statistic / 12)
    (0.333333333333, 0.3333333333333333)
    """
    runs = _Runs(x)
    kernel = _improvement_kernel(runs, i, j, greater_is_better)
    estimate = _improvement(runs, runs.ones_by_task(), kernel, i, j)[0]
    if n_resamples == 0:
        nan = np.full(estimate.shape, np.nan)
        return estimate, nan, nan.copy()
    per_resample = len(i) * runs.n_tasks * runs.width * runs.width * 3
    parts = [
        _improvement(runs, _counts_by_task(runs, drawn), kernel, i, j)
        for drawn in _draws(runs, n_resamples, rng or np.random.default_rng(), per_resample)
    ]
    distribution = np.sort(np.concatenate(parts, axis=0), axis=0)
    low = _quantile_sorted(distribution, np.full(estimate.shape, (1 - ci) / 2))
    high = _quantile_sorted(distribution, np.full(estimate.shape, (1 + ci) / 2))
    return estimate, low, high


def _profile(runs: _Runs, w: np.ndarray, above: np.ndarray) -> np.ndarray:
    """Share of runs above each threshold, per task, averaged over tasks: (block, models, taus).

    ``above[m, tau, k]`` is ``[run k > tau] / (its task's runs x tasks)``, so
    one product per model gives the profile of every resample.
    """
    return np.matmul(above, w.transpose(1, 0, 2)).transpose(2, 0, 1)


def performance_profile(
    x: np.ndarray,
    taus: np.ndarray,
    *,
    ci: float = 0.95,
    n_resamples: int = 0,
    rng: np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The run-score profile ``F(tau)`` of every model, with stratified bootstrap bands.

    ``F(tau)`` is the share of a task's runs scoring strictly above ``tau``,
    averaged over tasks (with equal runs per task, rliable's
    ``np.mean(scores > tau)`` over all runs). Returns three arrays of shape
    (taus, models): the profile and the band's lower and upper edges
    (percentile, pointwise; NaN when ``n_resamples`` is 0).

    Examples
    --------
    rliable's test values for x = ``[[1, 2], [2, 2], [1, 1], [2, 1]]``:

    >>> x = np.array([[1, 2], [2, 2], [1, 1], [2, 1]], dtype=float).T[None]
    >>> performance_profile(x, np.array([0.5, 1, 1.5, 2]))[0][:, 0].tolist()
    [1.0, 0.5, 0.5, 0.0]
    """
    runs = _Runs(x)
    taus = np.asarray(taus, dtype=float)
    per_task = np.take_along_axis(runs.n_runs.astype(float), runs.task_of, axis=1)
    above = (runs.sorted[:, None, :] > taus[:, None]) & runs.sorted_valid[:, None, :]
    above = above / (per_task * runs.n_tasks)[:, None, :]  # (models, taus, N)
    estimate = _profile(runs, runs.ones(), above)[0].T
    if n_resamples == 0:
        nan = np.full(estimate.shape, np.nan)
        return estimate, nan, nan.copy()
    per_resample = runs.n_models * (runs.n_tasks * runs.width * 2 + len(taus))
    parts = [
        _profile(runs, w, above)
        for w in _blocks(runs, n_resamples, rng or np.random.default_rng(), per_resample)
    ]
    distribution = np.sort(np.concatenate(parts, axis=0), axis=0)
    level = np.full(distribution.shape[1:], (1 - ci) / 2)
    low = _quantile_sorted(distribution, level)
    high = _quantile_sorted(distribution, 1 - level)
    return estimate, low.T, high.T
