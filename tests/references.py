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


# --- Paired proportions (DESIGN section 33): written from the papers, one table at a time ---


def tango_interval_brentq(b, c, n, confidence=0.95):
    """Tango's score interval of (b − c)/n for one table, by scipy's brentq.

    From T. Tango, Statistics in Medicine 17 (1998) 891–908, eqs. (2)–(5): the
    score statistic Z(δ) = (b − c − nδ) / sqrt(n (2 q(δ) + δ(1 − δ))), with q(δ)
    the restricted maximum-likelihood estimate of the probability of the c cell,
    the positive root of 2n q² + (−b − c + (2n − b + c) δ) q − c δ (1 − δ) = 0.
    The limits solve Z(δ) = ±z (z the normal quantile). One table, Python floats.
    """
    from scipy import optimize, stats

    z = stats.norm.ppf(0.5 + confidence / 2)

    def score(delta):
        big_a = 2.0 * n
        big_b = -b - c + (2.0 * n - b + c) * delta
        big_c = -c * delta * (1.0 - delta)
        q = (np.sqrt(max(big_b**2 - 4.0 * big_a * big_c, 0.0)) - big_b) / (2.0 * big_a)
        if b - c - n * delta == 0:
            return 0.0  # at the estimate (also where the variance is 0 there: no discordant items)
        return (b - c - n * delta) / np.sqrt(n * (2.0 * q + delta * (1.0 - delta)))

    estimate = (b - c) / n
    eps = 1e-13
    low = (
        -1.0
        if estimate <= -1.0
        else optimize.brentq(lambda x: score(x) - z, -1.0 + eps, estimate, xtol=1e-13)
    )
    high = (
        1.0
        if estimate >= 1.0
        else optimize.brentq(lambda x: score(x) + z, estimate, 1.0 - eps, xtol=1e-13)
    )
    return low, high


def wilson_limits(x, n, confidence=0.95):
    """Wilson's score interval of x/n (E. B. Wilson, JASA 22 (1927) 209–212), written out."""
    from scipy import stats

    z = stats.norm.ppf(0.5 + confidence / 2)
    p = x / n
    centre = 2 * n * p + z**2
    spread = z * np.sqrt(z**2 + 4 * n * p * (1 - p))
    return (centre - spread) / (2 * (n + z**2)), (centre + spread) / (2 * (n + z**2))


def newcombe_interval_formula(a, b, c, d, confidence=0.95):
    """Newcombe's method 10 (Statistics in Medicine 17 (1998) 2635–2650), one table.

    Square-and-add of the Wilson limits of p1 = (a + b)/n and p2 = (a + c)/n
    with the correlation φ of the pair, corrected as Newcombe does: with
    A = ad − bc, φ uses A − n/2 when A > n/2, 0 when 0 ≤ A ≤ n/2, A when A < 0
    (the form of Fagerland, Lydersen & Laake 2017, section 8.5.5).
    """
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson_limits(a + b, n, confidence)
    l2, u2 = wilson_limits(a + c, n, confidence)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    if cross > n / 2:
        cross -= n / 2
    elif cross >= 0:
        cross = 0.0
    phi = cross / np.sqrt(margins) if margins > 0 else 0.0
    delta = np.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    epsilon = np.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
    return p1 - p2 - delta, p1 - p2 + epsilon


def midp_mcnemar_sum(b, c):
    """Mid-p McNemar p-value as the binomial sum: 2 (Σ_{x<k} P(x) + P(k)/2), at most 1."""
    from math import comb

    total, k = b + c, min(b, c)
    if total == 0:
        return 1.0
    probability = [comb(total, x) / 2**total for x in range(total + 1)]
    return min(1.0, 2 * (sum(probability[:k]) + probability[k] / 2))


def ci_wilson_clustered(values, clusters, level=0.95):
    """inspect_ai's ``ci_wilson(cluster=)``, written out from its source.

    inspect_ai 0.3.285, ``src/inspect_ai/scorer/_metrics/std.py`` (``ci_wilson``
    and ``_clustered_stderr``): p̂ the mean; v the CR1 clustered variance of the
    mean, C/(C − 1) · Σ_c (Σ_{i∈c}(x_i − p̂))² / n²; the Korn–Graubard effective
    size n_eff = min(p̂(1 − p̂)/v, n) (n where p̂(1 − p̂) or v is 0); the critical
    value Student's t with C − 1 degrees of freedom; then Wilson's formula with
    n_eff and that critical value, clamped to [0, 1].
    """
    from scipy import stats

    values = np.asarray(values, dtype=float)
    clusters = np.asarray(clusters)
    n = len(values)
    p = values.mean()
    labels = list(dict.fromkeys(clusters.tolist()))
    big_c = len(labels)
    sums = [float((values[clusters == label] - p).sum()) for label in labels]
    variance = big_c / (big_c - 1) * sum(s * s for s in sums) / n**2
    numerator = p * (1 - p)
    n_eff = min(numerator / variance, n) if numerator > 0 and variance > 0 else n
    k = stats.t.ppf(0.5 + level / 2, big_c - 1)
    denominator = 1 + k * k / n_eff
    centre = (p + k * k / (2 * n_eff)) / denominator
    half = k * np.sqrt(p * (1 - p) / n_eff + k * k / (4 * n_eff * n_eff)) / denominator
    return max(centre - half, 0.0), min(centre + half, 1.0)



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
