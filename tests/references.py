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
