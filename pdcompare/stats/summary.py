"""Per-model summary of a scores matrix: mean, spread, rank and interval."""

from __future__ import annotations

import numpy as np

from pdcompare.stats._common import nadeau_bengio_variance, t_confidence_interval


def summarize(
    values: np.ndarray,
    *,
    confidence: float = 0.95,
    test_train_ratio: float | None = None,
    greater_is_better: bool = True,
) -> dict[str, np.ndarray]:
    """Mean, std (ddof=1), count, rank and confidence interval of each row's mean.

    Missing scores (NaN) are left out row by row. The interval is the t interval
    ``mean ± t_{n-1} · sqrt(v)`` with ``v = s² (1/n + n_test/n_train)`` (Nadeau and
    Bengio's corrected variance) when ``test_train_ratio`` is given, and the
    plain ``v = s²/n`` otherwise, which is too narrow for overlapping CV splits.
    Rank 1 is the best mean (ties share the lowest rank).

    Examples
    --------
    >>> out = summarize(np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]]), test_train_ratio=0.5)
    >>> out["mean"].tolist(), out["rank"].tolist()
    ([2.0, 2.0], [1, 1])
    >>> round(float(out["ci_high"][0]), 4)  # 2 + t(0.975, 2) * sqrt(1 * (1/3 + 1/2))
    5.9278
    """
    values = np.asarray(values, dtype=float)
    if values.shape[1] > 1 and not np.isnan(values).any():
        # Every score present (the usual case): numpy's own mean and variance, a third
        # of the time of the NaN-aware sums below.
        n = np.full(values.shape[0], values.shape[1])
        safe_n = n
        mean = values.mean(axis=1)
        variance = values.var(axis=1, ddof=1)
    else:
        n = np.sum(~np.isnan(values), axis=1)
        safe_n = np.maximum(n, 1)
        mean = np.where(n > 0, np.nansum(values, axis=1) / safe_n, np.nan)
        with np.errstate(invalid="ignore", divide="ignore"):
            squares = np.nansum((values - mean[:, None]) ** 2, axis=1)
            variance = np.where(n > 1, squares / np.maximum(n - 1, 1), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        if test_train_ratio is None:
            mean_variance = variance / safe_n
        else:
            mean_variance = nadeau_bengio_variance(variance, safe_n, test_train_ratio)
        ci_low, ci_high = t_confidence_interval(
            mean, np.sqrt(mean_variance), n - 1, confidence, "two-sided"
        )
    key = -mean if greater_is_better else mean
    rank = min_rank(np.where(np.isnan(key), np.inf, key))
    return {
        "mean": mean,
        "std": np.sqrt(variance),
        "n_splits": n,
        "rank": rank,
        "ci_low": ci_low,
        "ci_high": ci_high,
    }


def min_rank(key: np.ndarray) -> np.ndarray:
    """Rank 1 for the smallest ``key``; ties share the lowest rank ("min" ranking).

    One sort and a binary search, without importing ``scipy.stats`` (whose
    import would dominate the first call).

    Examples
    --------
    >>> min_rank(np.array([0.3, 0.1, 0.3, np.inf, np.inf])).tolist()
    [2, 1, 2, 4, 4]

    Compare with scipy:

    >>> from scipy import stats
    >>> stats.rankdata([0.3, 0.1, 0.3, np.inf, np.inf], method="min").tolist()
    [2, 1, 2, 4, 4]
    """
    key = np.asarray(key, dtype=float)
    return np.searchsorted(np.sort(key), key, side="left").astype(int) + 1
