"""The groups of a critical-difference diagram, from mean ranks and the test's verdicts.

A bar of the diagram joins the models whose mean ranks lie in an interval,
and it is drawn only when no pair among them is rejected by the test. So a
bar never spans a rejected pair, whatever test made the verdicts (Nemenyi,
Conover, Wilcoxon, ...). When non-significance is not transitive (A ~ B,
B ~ C, A != C), the groups are {A, B} and {B, C}, never {A, B, C}.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cd_groups", "rejected_matrix"]


def rejected_matrix(n_models: int, i, j, reject) -> np.ndarray:
    """Symmetric boolean ``n_models`` x ``n_models`` matrix, True where a pair is rejected.

    Pairs not listed (and NaN verdicts) count as not rejected.

    Examples
    --------
    >>> rejected_matrix(3, [0, 0], [1, 2], [False, True]).astype(int)
    array([[0, 0, 1],
           [0, 0, 0],
           [1, 0, 0]])
    """
    i = np.asarray(i, dtype=np.intp).ravel()
    j = np.asarray(j, dtype=np.intp).ravel()
    reject = np.asarray(reject)
    if reject.dtype == object or reject.dtype.kind == "f":
        reject = np.asarray(reject == True, dtype=bool)  # noqa: E712 (NaN and None: False)
    reject = reject.astype(bool).ravel()
    if not i.size == j.size == reject.size:
        msg = (
            f"`i`, `j` and `reject` must have the same length; got {i.size}, {j.size} "
            f"and {reject.size}."
        )
        raise ValueError(msg)
    out = np.zeros((n_models, n_models), dtype=bool)
    out[i[reject], j[reject]] = True
    return out | out.T


def cd_groups(mean_ranks, rejected) -> list[np.ndarray]:
    """Maximal groups of models contiguous in mean rank with no rejected pair among them.

    Parameters
    ----------
    mean_ranks : array_like, shape (models,)
        Mean rank of every model.
    rejected : array_like of bool, shape (models, models)
        True where the pair (row, column) is significantly different (either
        triangle, or both, may be filled: the matrix is symmetrised).

    Returns
    -------
    list of numpy.ndarray
        One array of model positions per group, ordered by mean rank (ties in
        their input order); groups in order of their lowest mean rank. Groups
        contained in another one and single models are left out.

    Notes
    -----
    A group is the set of *all* models whose mean rank lies in an interval
    ``[low, high]`` (so models tied in mean rank are in or out together, as
    they sit at one point of the diagram), such that no pair in it is
    rejected. With the distinct mean ranks ``u_0 < ... < u_(P-1)`` and
    ``first[a]`` the first position ``b >= a`` whose models have a rejected
    pair with those at ``a``, the longest valid interval starting at ``s``
    ends at ``e(s) = min(first[s] - 1, e(s + 1))``, a reverse running
    minimum; ``e`` never decreases, so the maximal intervals are those whose
    end differs from the previous start's.

    Examples
    --------
    A ~ B, B ~ C, A != C: two groups, never one bar from A to C.

    >>> rejected = rejected_matrix(3, [0], [2], [True])
    >>> [g.tolist() for g in cd_groups([1.2, 2.0, 2.8], rejected)]
    [[0, 1], [1, 2]]
    """
    mean_ranks = np.asarray(mean_ranks, dtype=float).ravel()
    k = mean_ranks.size
    rejected = np.asarray(rejected, dtype=bool)
    if rejected.shape != (k, k):
        msg = f"`rejected` must be a {k} x {k} boolean matrix; got shape {rejected.shape}."
        raise ValueError(msg)
    if np.isnan(mean_ranks).any():
        msg = "`mean_ranks` must not contain NaN."
        raise ValueError(msg)
    if k < 2:
        return []
    rejected = rejected | rejected.T
    order = np.argsort(mean_ranks, kind="stable")
    values, position = np.unique(mean_ranks, return_inverse=True)
    n_positions = values.size
    # Rejections between positions (a position holds the models tied at one mean rank).
    by_position = np.zeros((n_positions, n_positions), dtype=bool)
    rows, cols = np.nonzero(rejected)
    by_position[position[rows], position[cols]] = True
    upper = np.triu(by_position)  # the diagonal: a rejected pair among tied models
    first = np.where(upper.any(axis=1), upper.argmax(axis=1), n_positions)
    end = np.minimum.accumulate((first - 1)[::-1])[::-1]
    start = np.arange(n_positions)
    previous_end = np.concatenate(([-1], end[:-1]))
    maximal = (end >= start) & (previous_end < end)
    counts = np.bincount(position, minlength=n_positions)
    cumulative = np.concatenate(([0], np.cumsum(counts)))
    sorted_position = position[order]
    groups = []
    for s, e in zip(start[maximal], end[maximal], strict=True):
        if cumulative[e + 1] - cumulative[s] < 2:
            continue
        members = order[(sorted_position >= s) & (sorted_position <= e)]
        groups.append(members)
    return groups
