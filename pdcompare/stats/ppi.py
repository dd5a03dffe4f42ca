"""Prediction-powered comparisons of models graded by a judge (DESIGN section 31), pure numpy.

A judge (a language model) scores every item; people label ``n`` of them.
For the paired difference ``d`` of two models on an item (human) and ``d̂``
(judge), PPI (Angelopoulos et al., Science 2023) and PPI++ (Angelopoulos,
Duchi & Zrnic 2024) estimate the mean difference by

    θ̂ = λ · mean(d̂ over the N unlabelled items) + mean(d − λ d̂ over the n labelled)

with ``Var θ̂ = λ² Var(d̂_u)/N + Var(d − λ d̂)/n`` (the two means are
independent) and the power-tuned ``λ̂ = Cov(d, d̂)/((1 + n/N) Var(d̂_u))``
clipped to [0, 1]. Every quantity of every pair comes from the models'
covariance matrices: ``Var(d_ij) = S_ii + S_jj − S_ij − S_ji``, so all
pairs cost a few matrix products. With strata (labels drawn at known rates
per stratum) each stratum is weighted by its share of the items and one λ
is tuned for the whole stratified estimate; with clusters each item's
influence is summed per cluster (CR1). For class-balanced labels of binary
scores, :func:`rogan_gladen` corrects each model's judged pass rate with
the judge's true positive and true negative rates, its intervals by a
bootstrap of the labelled and the unlabelled items apart.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats.items import cluster_sums

__all__ = ["ppi_contrasts", "ppi_covariance", "rogan_gladen", "rogan_gladen_draws"]


def _cross(x: np.ndarray, y: np.ndarray, ddof: int = 1) -> np.ndarray:
    """The models' cross-covariance matrix over items (rows are models), ddof 1."""
    n = x.shape[1]
    if n - ddof <= 0:
        return np.zeros((x.shape[0], y.shape[0]))
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    return xc @ yc.T / (n - ddof)


def _quad(s: np.ndarray, i: np.ndarray, j: np.ndarray | None) -> np.ndarray:
    """``Cov(x_i − x_j, y_i − y_j)`` from the cross-covariance ``s``; ``s_ii`` without ``j``."""
    if j is None:
        return s[i, i]
    return s[i, i] + s[j, j] - s[i, j] - s[j, i]


def _lin(v: np.ndarray, i: np.ndarray, j: np.ndarray | None) -> np.ndarray:
    return v[i] if j is None else v[i] - v[j]


def _strata_terms(human, judge_l, judge_u, stratum_l, stratum_u, weights, i, j):
    """Per stratum: its weight, counts, the contrasts' means and (co)variances."""
    terms = []
    for s, w in enumerate(weights):
        yl, hl = human[:, stratum_l == s], judge_l[:, stratum_l == s]
        hu = judge_u[:, stratum_u == s]
        n_s, big_n = yl.shape[1], hu.shape[1]
        terms.append(
            {
                "w": w,
                "n": n_s,
                "N": big_n,
                "my": _lin(yl.mean(axis=1), i, j),
                "mh": _lin(hl.mean(axis=1), i, j),
                "mu": _lin(hu.mean(axis=1), i, j) if big_n else 0.0,
                "vd": _quad(_cross(yl, yl), i, j),
                "c": _quad(_cross(yl, hl), i, j),
                "vl": _quad(_cross(hl, hl), i, j),
                "vu": _quad(_cross(hu, hu), i, j) if big_n > 1 else 0.0,
            }
        )
    return terms


def _unclustered(human, judge_l, judge_u, stratum_l, stratum_u, weights, i, j, lam):
    """Estimate, variance, λ and labels-only variance of every contrast, stratified or not."""
    terms = _strata_terms(human, judge_l, judge_u, stratum_l, stratum_u, weights, i, j)
    if lam is None:  # one λ for the whole (stratified) estimate, the power-tuned one
        num = sum(t["w"] ** 2 * t["c"] / t["n"] for t in terms if t["N"])
        den = sum(t["w"] ** 2 * t["vu"] * (1 / t["N"] + 1 / t["n"]) for t in terms if t["N"])
        with np.errstate(invalid="ignore", divide="ignore"):
            lam = np.where(np.asarray(den) > 0, np.asarray(num) / np.asarray(den), 0.0)
        lam = np.clip(np.nan_to_num(lam), 0.0, 1.0)
    lam = np.broadcast_to(np.asarray(lam, dtype=float), np.shape(terms[0]["my"]))
    estimate = variance = labels = 0.0
    parts = [0.0, 0.0]  # the imputed and the rectifier parts of the variance
    for t in terms:
        lam_s = lam if t["N"] else 0.0  # a stratum labelled whole: its labels alone
        estimate = estimate + t["w"] * (t["my"] + lam_s * (t["mu"] - t["mh"]))
        rectifier = (t["vd"] - 2 * lam_s * t["c"] + lam_s**2 * t["vl"]) / t["n"]
        imputed = lam_s**2 * t["vu"] / t["N"] if t["N"] else 0.0
        variance = variance + t["w"] ** 2 * (rectifier + imputed)
        parts = [parts[0] + t["w"] ** 2 * imputed, parts[1] + t["w"] ** 2 * rectifier]
        labels = labels + t["w"] ** 2 * t["vd"] / t["n"]
    return estimate, (variance, *parts), np.array(lam, dtype=float), labels


def _cluster_sums(x: np.ndarray, codes: np.ndarray, n_clusters: int) -> np.ndarray:
    """Sums of each model's values per cluster (models x clusters; stats.items' reduction)."""
    out = np.zeros((x.shape[0], n_clusters))
    if x.shape[1]:  # the clusters these items are in (a subset of them may have none)
        present, inverse = np.unique(codes, return_inverse=True)
        out[:, present] = cluster_sums(x, inverse, len(present))[0]
    return out


def _clustered(human, judge_l, judge_u, cluster_l, cluster_u, n_clusters, i, j, lam):
    """Clustered PPI: each item's influence summed per cluster, CR1 (section 21's clustered t)."""
    n, big_n = human.shape[1], judge_u.shape[1]
    my, mh = human.mean(axis=1), judge_l.mean(axis=1)
    a = _cluster_sums((human - my[:, None]) / n, cluster_l, n_clusters)
    g = _cluster_sums((judge_l - mh[:, None]) / n, cluster_l, n_clusters)
    mu = judge_u.mean(axis=1) if big_n else mh
    if big_n:
        g = g - _cluster_sums((judge_u - mu[:, None]) / big_n, cluster_u, n_clusters)
    present = np.unique(np.concatenate([cluster_l, cluster_u])).size
    labelled = np.unique(cluster_l).size
    k, k_labels = present / max(present - 1, 1), labelled / max(labelled - 1, 1)
    vaa, vag, vgg = (_quad(x @ y.T, i, j) for x, y in ((a, a), (a, g), (g, g)))
    if lam is None:
        with np.errstate(invalid="ignore", divide="ignore"):
            lam = np.clip(np.nan_to_num(np.where(vgg > 0, vag / vgg, 0.0)), 0.0, 1.0)
    lam = np.broadcast_to(np.asarray(lam, dtype=float), np.shape(vaa))
    if not big_n:
        lam = np.zeros_like(vaa)
    estimate = _lin(my, i, j) + lam * (_lin(mu, i, j) - _lin(mh, i, j))
    labels = k_labels * vaa
    variance = np.where(lam == 0, labels, k * (vaa - 2 * lam * vag + lam**2 * vgg))
    return estimate, (variance, np.nan, np.nan), np.array(lam, dtype=float), labels


def ppi_contrasts(
    human: np.ndarray,
    judge_labelled: np.ndarray,
    judge_unlabelled: np.ndarray,
    i: np.ndarray,
    j: np.ndarray | None = None,
    *,
    lam: float | None = None,
    stratum_labelled: np.ndarray | None = None,
    stratum_unlabelled: np.ndarray | None = None,
    weights: np.ndarray | None = None,
    cluster_labelled: np.ndarray | None = None,
    cluster_unlabelled: np.ndarray | None = None,
    n_clusters: int | None = None,
) -> dict[str, np.ndarray]:
    """PPI / PPI++ estimates of model means (``j`` None) or pair differences, all at once.

    Parameters
    ----------
    human : ndarray, shape (m, n)
        The human labels of the ``n`` labelled items, one row per model.
    judge_labelled, judge_unlabelled : ndarray, shapes (m, n) and (m, N)
        The judge's scores of the labelled and of the unlabelled items.
    i, j : ndarray of int
        The contrasts: model ``i[k]`` minus model ``j[k]`` (the model alone without ``j``).
    lam : float, optional
        The weight of the judge: 1 is PPI, 0 the labels alone; None tunes
        it per contrast (PPI++), clipped to [0, 1].
    stratum_labelled, stratum_unlabelled, weights : ndarray, optional
        Stratum codes of the items and each stratum's weight (its share of
        all items): the stratified estimator, one λ for the whole estimate.
    cluster_labelled, cluster_unlabelled, n_clusters : optional
        Cluster codes of the items: influences summed per cluster, CR1.

    Returns
    -------
    dict of ndarray
        ``estimate, se, lam, se_labels`` (the labels-only standard error,
        for ``width_ratio`` and ``effective_n``) and, without clusters,
        ``var_imputed`` and ``var_rectifier``, the two parts of ``se²``
        (``λ² Var(d̂_u)/N`` and ``Var(d − λ d̂)/n``, ddof 1).

    Examples
    --------
    With λ = 0 the estimate is the mean of the labels and its standard
    error the paired t-test's:

    >>> rng = np.random.default_rng(0)
    >>> y = rng.normal(size=(2, 50))
    >>> h, u = y + rng.normal(size=(2, 50)), rng.normal(size=(2, 500))
    >>> out = ppi_contrasts(y, h, u, np.array([0]), np.array([1]), lam=0.0)
    >>> d = y[0] - y[1]
    >>> bool(np.isclose(out["se"][0], d.std(ddof=1) / np.sqrt(50)))
    True
    """
    i = np.asarray(i, dtype=np.int64)
    j = None if j is None else np.asarray(j, dtype=np.int64)
    human, judge_l = np.asarray(human, float), np.asarray(judge_labelled, float)
    judge_u = np.asarray(judge_unlabelled, float)
    if cluster_labelled is not None:
        if stratum_labelled is not None:
            msg = "stratified labels with clusters are not supported"
            raise ValueError(msg)
        estimate, variance, lam_, labels = _clustered(
            human, judge_l, judge_u, cluster_labelled, cluster_unlabelled, n_clusters, i, j, lam
        )
    else:
        if stratum_labelled is None:
            stratum_labelled = np.zeros(human.shape[1], dtype=np.int64)
            stratum_unlabelled = np.zeros(judge_u.shape[1], dtype=np.int64)
            weights = np.ones(1)
        estimate, variance, lam_, labels = _unclustered(
            human, judge_l, judge_u, stratum_labelled, stratum_unlabelled, weights, i, j, lam
        )
    variance, imputed, rectifier = variance
    return {
        "estimate": np.asarray(estimate, dtype=float) + np.zeros(len(i)),
        "se": np.sqrt(np.maximum(variance, 0.0)) + np.zeros(len(i)),
        "var_imputed": imputed + np.zeros(len(i)),
        "var_rectifier": rectifier + np.zeros(len(i)),
        "lam": lam_ + np.zeros(len(i)),
        "se_labels": np.sqrt(np.maximum(labels, 0.0)) + np.zeros(len(i)),
    }


def rogan_gladen(
    human: np.ndarray, judge_labelled: np.ndarray, judge_unlabelled: np.ndarray
) -> np.ndarray:
    """Rogan–Gladen corrected pass rate of each model from class-balanced labels (binary).

    ``θ = (p_judge + TNR − 1)/(TPR + TNR − 1)``: ``p_judge`` the judge's
    pass rate over the unlabelled items, TPR and TNR the judge's rates on
    the labelled items the humans passed and failed (Rogan & Gladen 1978).
    Each is a rate within its human class, so a label set balanced between
    pass and fail estimates them without bias where PPI's mean would not.

    Examples
    --------
    DESIGN 31's reference: 120 labelled items (human fail 40 = judge fail 30
    + judge pass 10; human pass 80 = judge fail 2 + judge pass 78) and 400
    unlabelled items of which 320 judged pass:

    >>> human = np.array([[0] * 40 + [1] * 80])
    >>> judge = np.array([[0] * 30 + [1] * 10 + [0] * 2 + [1] * 78])
    >>> unlabelled = np.array([[1] * 320 + [0] * 80])
    >>> round(float(rogan_gladen(human, judge, unlabelled)[0]), 4)
    0.7586
    """
    human, judge_l = np.asarray(human, float), np.asarray(judge_labelled, float)
    p = np.asarray(judge_unlabelled, float).mean(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = (human * judge_l).sum(axis=1) / human.sum(axis=1)
        tnr = ((1 - human) * (1 - judge_l)).sum(axis=1) / (1 - human).sum(axis=1)
        return (p + tnr - 1) / (tpr + tnr - 1)


def rogan_gladen_draws(
    human: np.ndarray,
    judge_labelled: np.ndarray,
    judge_unlabelled: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
    *,
    batch: int = 250,
) -> np.ndarray:
    """Bootstrap draws (resamples x models) of :func:`rogan_gladen`, items resampled apart.

    The labelled and the unlabelled items are resampled separately (each a
    multinomial count per item), every model on the same resampled items,
    so differences of columns are the paired draws of the pairs; a batch
    of resamples is a few matrix products.
    """
    human, judge_l = np.asarray(human, float), np.asarray(judge_labelled, float)
    judge_u = np.asarray(judge_unlabelled, float)
    n, big_n = human.shape[1], judge_u.shape[1]
    tp, pos = (human * judge_l).T, human.T
    tn, neg = ((1 - human) * (1 - judge_l)).T, (1 - human).T
    out = np.empty((n_resamples, human.shape[0]))
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        wl = rng.multinomial(n, np.full(n, 1.0 / n), size=size).astype(float)
        wu = rng.multinomial(big_n, np.full(big_n, 1.0 / big_n), size=size).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            tpr = (wl @ tp) / (wl @ pos)
            tnr = (wl @ tn) / (wl @ neg)
            p = (wu @ judge_u.T) / big_n
            out[start : start + size] = (p + tnr - 1) / (tpr + tnr - 1)
    return out


def _pairs_total(s: np.ndarray) -> float:
    """``Σ_{i<j} (s_ii + s_jj − s_ij − s_ji)``: a quadratic form summed over every pair."""
    return float(s.shape[0] * np.trace(s) - s.sum())


def ppi_covariance(
    human: np.ndarray,
    judge_labelled: np.ndarray,
    judge_unlabelled: np.ndarray,
    *,
    lam: float | None = None,
    stratum_labelled: np.ndarray | None = None,
    stratum_unlabelled: np.ndarray | None = None,
    weights: np.ndarray | None = None,
    cluster_labelled: np.ndarray | None = None,
    cluster_unlabelled: np.ndarray | None = None,
    n_clusters: int | None = None,
) -> tuple[np.ndarray, np.ndarray, float]:
    """The models' PPI estimates, their joint covariance and the one λ they share.

    For the readers that need every model's estimate at once (ranks, top
    sets): one λ for all models, the power-tuned one for the sum of the
    variances of every pair's difference (ppi_py's ``lam_optim_mode=
    "overall"`` over the pairs), so the covariance of any two estimates is
    that of the same λ. ``lam`` fixes it (1 PPI, 0 the labels alone).

    Examples
    --------
    The variance of a pair's difference from the covariance equals
    :func:`ppi_contrasts` at the same λ:

    >>> rng = np.random.default_rng(1)
    >>> y = rng.normal(size=(3, 40))
    >>> h, u = y + rng.normal(size=(3, 40)), rng.normal(size=(3, 300))
    >>> mean, cov, lam = ppi_covariance(y, h, u)
    >>> pair = ppi_contrasts(y, h, u, [0], [1], lam=lam)
    >>> bool(np.isclose(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], pair["se"][0] ** 2))
    True
    """
    human, judge_l = np.asarray(human, float), np.asarray(judge_labelled, float)
    judge_u = np.asarray(judge_unlabelled, float)
    n, big_n = human.shape[1], judge_u.shape[1]
    my, mh = human.mean(axis=1), judge_l.mean(axis=1)
    mu = judge_u.mean(axis=1) if big_n else mh
    if cluster_labelled is not None:
        a = _cluster_sums((human - my[:, None]) / n, cluster_labelled, n_clusters)
        g = _cluster_sums((judge_l - mh[:, None]) / n, cluster_labelled, n_clusters)
        if big_n:
            g = g - _cluster_sums((judge_u - mu[:, None]) / big_n, cluster_unlabelled, n_clusters)
        present = np.unique(np.concatenate([cluster_labelled, cluster_unlabelled])).size
        k = present / max(present - 1, 1)
        if lam is None:
            den = _pairs_total(g @ g.T)
            lam = float(np.clip(_pairs_total(a @ g.T) / den, 0, 1)) if den > 0 else 0.0
        lam = lam if big_n else 0.0
        r = a - lam * g
        return my + lam * (mu - mh), k * (r @ r.T), float(lam)
    if stratum_labelled is None:
        stratum_labelled, stratum_unlabelled = np.zeros(n, np.int64), np.zeros(big_n, np.int64)
        weights = np.ones(1)
    parts = []
    for s, w in enumerate(weights):
        yl, hl = human[:, stratum_labelled == s], judge_l[:, stratum_labelled == s]
        hu = judge_u[:, stratum_unlabelled == s]
        parts.append(
            (w, yl, hl, hu, _cross(yl, yl), _cross(yl, hl), _cross(hl, hl), _cross(hu, hu))
        )
    if lam is None:
        num = sum(w**2 * _pairs_total(syh) / yl.shape[1] for w, yl, _, hu, _, syh, _, _ in parts
                  if hu.shape[1])  # fmt: skip
        den = sum(w**2 * _pairs_total(suu) * (1 / hu.shape[1] + 1 / yl.shape[1])
                  for w, yl, _, hu, _, _, _, suu in parts if hu.shape[1])  # fmt: skip
        lam = float(np.clip(num / den, 0, 1)) if den > 0 else 0.0
    estimate, cov = 0.0, 0.0
    for w, yl, hl, hu, syy, syh, shh, suu in parts:
        lam_s = lam if hu.shape[1] else 0.0
        mean_u = hu.mean(axis=1) if hu.shape[1] else 0.0
        estimate = estimate + w * (yl.mean(axis=1) + lam_s * (mean_u - hl.mean(axis=1)))
        rect = (syy - lam_s * (syh + syh.T) + lam_s**2 * shh) / yl.shape[1]
        cov = cov + w**2 * (rect + (lam_s**2 * suu / hu.shape[1] if hu.shape[1] else 0.0))
    return np.asarray(estimate), np.asarray(cov), float(lam)
