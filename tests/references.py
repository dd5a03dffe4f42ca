"""Reference computations shared by the tests: the textbook definitions, written out once.

Each is the slow, obvious form of what pdcompare computes fast, so a test can
compare the two. They import nothing from pdcompare.
"""

import numpy as np


def slow_delong(scores, positive):
    """DeLong, DeLong & Clarke-Pearson (1988) written out: O(n_pos * n_neg) comparisons.

    psi(X, Y) = 1 if Y < X, 1/2 if Y = X, 0 if Y > X; V10(X_i) = mean_j psi(X_i, Y_j),
    V01(Y_j) = mean_i psi(X_i, Y_j); theta = mean V10; S10, S01 the covariance
    matrices (divisor n - 1) of the structural components; S = S10/m + S01/n.
    Returns (theta, S): the AUC of every column of ``scores`` and their covariance.
    """
    scores = np.asarray(scores, dtype=float)
    positive = np.asarray(positive, dtype=bool)
    x, yneg = scores[positive], scores[~positive]
    m, n = len(x), len(yneg)
    psi = (x[:, None, :] > yneg[None, :, :]) + 0.5 * (x[:, None, :] == yneg[None, :, :])
    v10 = psi.mean(axis=1)  # (m, k)
    v01 = psi.mean(axis=0)  # (n, k)
    theta = v10.mean(axis=0)
    s10 = (v10 - theta).T @ (v10 - theta) / (m - 1)
    s01 = (v01 - theta).T @ (v01 - theta) / (n - 1)
    return theta, s10 / m + s01 / n


def slow_skillings_mack(values):
    """Skillings & Mack (1981) written out block by block, with a generalized inverse.

    ``values``: models x blocks, NaN for a hole. In each block with k_i >= 2
    present models: ranks r_ij (``scipy.stats.rankdata``, ties averaged),
    A_j += sqrt(12 / (k_i + 1)) (r_ij - (k_i + 1) / 2); the block's covariance
    of those terms under the null (every order of its ranks equally likely)
    is w_i² v_i (1 - 1/k_i) on the diagonal and -w_i² v_i / k_i off it, with
    v_i = Σ_j (r_ij - (k_i + 1)/2)² / (k_i - 1); without ties w_i² v_i = k_i,
    the paper's Σ₀ (k_i - 1 on the diagonal, -1 off it). T = Aᵀ Σ⁺ A
    (Moore–Penrose inverse, as R's Skillings.Mack with MASS::ginv), chi-square
    on k - 1 degrees of freedom. Returns (T, p-value).
    """
    from scipy import stats

    values = np.asarray(values, dtype=float)
    k, n = values.shape
    a = np.zeros(k)
    sigma = np.zeros((k, k))
    for i in range(n):
        rows = [j for j in range(k) if not np.isnan(values[j, i])]
        k_i = len(rows)
        if k_i < 2:
            continue
        ranks = stats.rankdata([-values[j, i] for j in rows])
        centred = ranks - (k_i + 1) / 2
        w2 = 12.0 / (k_i + 1)
        v = sum(c * c for c in centred) / (k_i - 1)
        for p, j in enumerate(rows):
            a[j] += np.sqrt(w2) * centred[p]
            for q, other in enumerate(rows):
                sigma[j, other] += w2 * v * ((1.0 if p == q else 0.0) - 1.0 / k_i)
    t = float(a @ np.linalg.pinv(sigma) @ a)
    return t, float(stats.chi2.sf(t, k - 1))


def slow_durbin(values):
    """Durbin's test as Conover (1999, section 5.9) writes it: T1 and T2 with A and C.

    ``values``: t models x b blocks of k present models each (a balanced
    incomplete block design), NaN for a hole. R_j the rank sums, A = Σ r²,
    C = b k (k + 1)² / 4, r the replications:
    T1 = (t - 1) Σ_j (R_j - r (k + 1)/2)² / (A - C) on chi-square(t - 1);
    T2 = (T1 / (t - 1)) / ((b (k - 1) - T1) / (b k - b - t + 1)) on
    F(t - 1, b k - b - t + 1). Returns (T1, p1, T2, p2).
    """
    from scipy import stats

    values = np.asarray(values, dtype=float)
    t, b = values.shape
    rank_sums = np.zeros(t)
    a_total = 0.0
    k = r = 0
    for i in range(b):
        rows = [j for j in range(t) if not np.isnan(values[j, i])]
        k = len(rows)
        ranks = stats.rankdata([-values[j, i] for j in rows])
        for p, j in enumerate(rows):
            rank_sums[j] += ranks[p]
            a_total += ranks[p] ** 2
    r = int(np.sum(~np.isnan(values[0])))
    c = b * k * (k + 1) ** 2 / 4
    t1 = (t - 1) * np.sum((rank_sums - r * (k + 1) / 2) ** 2) / (a_total - c)
    df2 = b * k - b - t + 1
    t2 = (t1 / (t - 1)) / ((b * (k - 1) - t1) / df2)
    return float(t1), float(stats.chi2.sf(t1, t - 1)), float(t2), float(stats.f.sf(t2, t - 1, df2))
