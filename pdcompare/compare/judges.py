"""The comparisons of a labelled items frame: a judge's scores corrected by human labels.

DESIGN section 31. On an items frame with human labels (``from_items(...,
human=)``) ``ttest``, ``summary``, ``ranks``, ``top_set``, ``power``,
``gate`` and ``report()`` estimate each model's mean and each pair's
difference with ``estimator=``: ``"ppi++"`` (the default: PPI with the
power-tuned λ), ``"ppi"`` (λ = 1), ``"labels"`` (λ = 0, the labelled items
alone), ``"judge"`` (the judge alone, biased, only when asked) or
``"rogan_gladen"`` (class-balanced labels of binary scores; the default on
such a frame). The arithmetic is :mod:`pdcompare.stats.ppi`'s; here the
frame's arrays are split into labelled and unlabelled items and the
results gain ``n_labelled, n_unlabelled, lam, effective_n, width_ratio``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import OptionError, check_random_state
from pdcompare.inputs.items import ItemsData
from pdcompare.inputs.labels import JudgedArrays, judged_arrays
from pdcompare.inputs.scores import rank_order, select_pairs
from pdcompare.stats import items as items_core
from pdcompare.stats import ppi
from pdcompare.stats._common import margin_shift, t_confidence_interval, t_pvalue

#: The columns a labelled items frame's results gain, in order.
JUDGED_COLUMNS = ("n_labelled", "n_unlabelled", "lam", "effective_n", "width_ratio")

#: What the result and the report say of the judge alone.
JUDGE_ONLY = "judge only, uncorrected"

#: Bootstrap resamples of the Rogan–Gladen intervals.
N_RESAMPLES = 2000


@dataclass(frozen=True)
class Judged:
    """A labelled items frame split for the estimators, and the estimator asked."""

    estimator: str
    labels: JudgedArrays
    human: np.ndarray
    judge_l: np.ndarray
    judge_u: np.ndarray
    data: ItemsData

    def words(self) -> str:
        """The estimator in the words of a result: which, and how many labels."""
        if self.estimator == "judge":
            return JUDGE_ONLY
        if self.estimator == "labels":
            return f"the {self.labels.n_labelled} human labels alone"
        name = {"ppi++": "PPI++", "ppi": "PPI", "rogan_gladen": "Rogan–Gladen"}[self.estimator]
        return f"{name}, corrected with {self.labels.n_labelled} human labels"

    def meta(self, effective_n: Any = None) -> dict[str, Any]:
        """What the result records: the estimator, its words, the label design and counts.

        ``effective_n`` (a result's column) gives ``effective_n``, its median,
        for the report's sentence.
        """
        effective = None
        if effective_n is not None and np.isfinite(np.asarray(effective_n, float)).any():
            effective = round(float(np.nanmedian(np.asarray(effective_n, float))))
        return {
            "estimator": self.estimator,
            "estimator_words": self.words(),
            "label_design": self.labels.label_design,
            "n_labelled": self.labels.n_labelled,
            "n_unlabelled": self.labels.n_unlabelled,
            "effective_n": effective,
        }


def _refuse(estimator: str, label_design: str, binary: bool, clustered: bool) -> None:
    if label_design == "class_balanced" and estimator in ("ppi++", "ppi", "labels"):
        msg = (
            f"`estimator={estimator!r}` needs labels drawn at random (or by strata), but these "
            "were drawn to balance human pass and fail (`label_design='class_balanced'`), so "
            "their mean is not the population's: read them with the Rogan–Gladen correction, "
            "`estimator='rogan_gladen'` (the default on such a frame)."
        )
        raise OptionError(msg, keyword="estimator")
    if estimator == "rogan_gladen" and not binary:
        msg = (
            "`estimator='rogan_gladen'` corrects a pass rate and needs binary (0/1) judge "
            "scores and labels; with graded scores use `estimator='ppi++'`."
        )
        raise OptionError(msg, keyword="estimator")
    if estimator == "rogan_gladen" and clustered:
        msg = (
            "`estimator='rogan_gladen'` resamples single items, but these come in clusters: "
            "draw the labels at random and use `estimator='ppi++'` (clustered), or leave out "
            "`cluster=`."
        )
        raise OptionError(msg, keyword="estimator")


def judged(frame: pd.DataFrame, data: ItemsData, estimator: str | None, test: str):
    """The frame's labels split for the estimators (None: no labels and no ``estimator``)."""
    labels = judged_arrays(frame, estimator, test)
    if labels is None:
        return None
    if estimator is None:
        estimator = "rogan_gladen" if labels.label_design == "class_balanced" else "ppi++"
    values = data.values
    binary = bool(np.isin(values, (0.0, 1.0)).all() and np.isin(labels.human, (0.0, 1.0)).all())
    _refuse(estimator, labels.label_design, binary, data.clustered)
    if labels.stratum is not None and data.clustered and estimator != "judge":
        msg = (
            "Stratified labels with clusters: the stratified estimator treats items as "
            "independent; leave out `cluster=` or draw the labels at random "
            "(`label_design='random'`)."
        )
        raise OptionError(msg, keyword="estimator")
    mask = labels.labelled
    return Judged(estimator, labels, labels.human, values[:, mask], values[:, ~mask], data)


def _design_keys(j: Judged) -> tuple[float | None, dict[str, Any], float]:
    """The fixed λ (None: tuned), the clusters or strata of the items, the degrees of freedom."""
    data, mask, labels = j.data, j.labels.labelled, j.labels
    lam = {"ppi": 1.0, "labels": 0.0}.get(j.estimator)
    keys: dict[str, Any] = {}
    df = labels.n_labelled - 1.0
    if data.clustered:
        codes = data.cluster
        keys = {"cluster_labelled": codes[mask], "cluster_unlabelled": codes[~mask]}
        keys["n_clusters"] = data.n_clusters
        df = np.unique(codes[mask]).size - 1.0
    elif labels.stratum is not None:
        weights = np.bincount(labels.stratum) / labels.stratum.size
        keys = {"stratum_labelled": labels.stratum[mask]}
        keys.update(stratum_unlabelled=labels.stratum[~mask], weights=weights)
    return lam, keys, df


def judged_covariance(j: Judged, random_state: Any = 0) -> tuple[np.ndarray, np.ndarray, float]:
    """Every model's estimate, their joint covariance and its degrees of freedom (ranks).

    PPI's share one λ (:func:`pdcompare.stats.ppi.ppi_covariance`);
    Rogan–Gladen's covariance is that of its bootstrap draws; the judge
    alone has the items' clustered covariance.
    """
    lam, keys, df = _design_keys(j)
    data = j.data
    if j.estimator == "judge":
        values = data.values
        models = np.arange(values.shape[0])
        mean = values.mean(axis=1)
        se = items_core.clustered_se(values, data.cluster, data.n_clusters)
        first, second = np.triu_indices(len(models), 1)
        pair = items_core.clustered_paired_ttest(
            values, data.cluster, data.n_clusters, first, second, clustered=data.clustered
        )["se"]
        cov = np.diag(se**2)
        cov[first, second] = cov[second, first] = (se[first] ** 2 + se[second] ** 2 - pair**2) / 2
        return mean, cov, data.n_clusters - 1.0
    if j.estimator == "rogan_gladen":
        rng = check_random_state(random_state)
        theta = ppi.rogan_gladen(j.human, j.judge_l, j.judge_u)
        draws = ppi.rogan_gladen_draws(j.human, j.judge_l, j.judge_u, N_RESAMPLES, rng)
        draws = draws[np.isfinite(draws).all(axis=1)]
        return theta, np.cov(draws.T).reshape(len(theta), len(theta)), np.inf
    mean, cov, _ = ppi.ppi_covariance(j.human, j.judge_l, j.judge_u, lam=lam, **keys)
    return mean, cov, df


def _estimate(j: Judged, first: np.ndarray, second: np.ndarray | None, seed: Any):
    """Estimate, se, df, λ and the labels-only se of every contrast of ``first`` − ``second``."""
    data = j.data
    lam, keys, df = _design_keys(j)
    out = ppi.ppi_contrasts(j.human, j.judge_l, j.judge_u, first, second, lam=lam, **keys)
    estimate, se, lam_out = out["estimate"], out["se"], out["lam"]
    if j.estimator == "rogan_gladen":
        rng = check_random_state(seed)
        theta = ppi.rogan_gladen(j.human, j.judge_l, j.judge_u)
        draws = ppi.rogan_gladen_draws(j.human, j.judge_l, j.judge_u, N_RESAMPLES, rng)
        if second is None:
            estimate, spread = theta[first], draws[:, first]
        else:
            estimate, spread = theta[first] - theta[second], draws[:, first] - draws[:, second]
        spread = np.where(np.isfinite(spread), spread, np.nan)  # a resample with no fail
        with np.errstate(invalid="ignore", divide="ignore"):
            se = np.nanstd(spread, axis=0, ddof=1)  # a normal interval on the bootstrap se
        df, lam_out = np.inf, np.full(len(first), np.nan)
    elif j.estimator == "judge":
        values = data.values
        if second is None:
            estimate = values[first].mean(axis=1)
            se = items_core.clustered_se(values, data.cluster, data.n_clusters)[first]
        else:
            core = items_core.clustered_paired_ttest(
                values, data.cluster, data.n_clusters, first, second, clustered=data.clustered
            )
            estimate, se = core["mean_diff"], core["se"]
        df, lam_out = data.n_clusters - 1.0, np.full(len(first), np.nan)
    df = np.broadcast_to(df, estimate.shape).astype(float)
    return estimate, se, df, lam_out, out["se_labels"]


def _columns(j: Judged, se: np.ndarray, lam: np.ndarray, se_labels: np.ndarray) -> dict:
    """``n_labelled, n_unlabelled, lam, effective_n, width_ratio`` of every row."""
    size = len(se)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = se / se_labels
        effective = j.labels.n_labelled / ratio**2
    if j.estimator == "judge":
        effective = np.full(size, np.nan)
    return {
        "n_labelled": np.full(size, j.labels.n_labelled),
        "n_unlabelled": np.full(size, j.labels.n_unlabelled),
        "lam": lam,
        "effective_n": effective,
        "width_ratio": ratio,
    }


def judged_ttest(
    j: Judged,
    i: np.ndarray,
    k: np.ndarray,
    *,
    alternative: str,
    confidence: float,
    margin: float | None = None,
    random_state: Any = 0,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """``ttest``'s columns of every pair ``(i, k)`` by the estimator, and the judged columns."""
    estimate, se, df, lam, se_labels = _estimate(j, np.asarray(i), np.asarray(k), random_state)
    identical = (se == 0) & (estimate == 0)
    constant = (se == 0) & ~identical
    shifted, tail, null = margin_shift(estimate, identical, margin, alternative)
    with np.errstate(invalid="ignore", divide="ignore"):
        statistic = np.where(null, 0.0, shifted / se)
    low, high = t_confidence_interval(estimate, se, _finite(df), confidence, alternative)
    values = j.data.values
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = np.array([np.nan] * len(estimate)) if values.shape[1] < 2 else _corr(values, i, k)
    out = {
        "mean_diff": estimate,
        "statistic": statistic,
        "df": df,
        "pvalue": t_pvalue(statistic, _finite(df), tail),
        "ci_low": low,
        "ci_high": high,
        "se": se,
        "design_effect": np.full(len(estimate), np.nan),
        "corr": corr,
        "identical": identical,
        "constant": constant,
    }
    return out, _columns(j, se, lam, se_labels)


def _finite(df: np.ndarray) -> np.ndarray:
    """Degrees of freedom for the t functions: the normal (Rogan–Gladen's inf) as 10⁹."""
    return np.where(np.isinf(df), 1e9, df)


def _corr(values: np.ndarray, i: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The correlation of the two models' judge scores over all items."""
    centred = values - values.mean(axis=1, keepdims=True)
    gram = centred @ centred.T
    diag = np.diag(gram)
    return gram[i, k] / np.sqrt(diag[i] * diag[k])


def judged_pairs(j: Judged, a: Any, b: Any) -> tuple[np.ndarray, np.ndarray, str]:
    """The pairs asked, as ``data.pairs`` gives them, but "best" by the estimator's means."""
    models = np.arange(j.data.values.shape[0])
    if j.estimator == "judge":
        means = j.data.values.mean(axis=1)
    elif j.estimator == "rogan_gladen":
        means = ppi.rogan_gladen(j.human, j.judge_l, j.judge_u)
    else:
        lam, keys, _ = _design_keys(j)
        means = ppi.ppi_contrasts(j.human, j.judge_l, j.judge_u, models, lam=lam, **keys)
        means = means["estimate"]
    order = rank_order(means, j.data.design.greater_is_better)
    return select_pairs(j.data.names, None, a, b, order=order)


def judged_means(j: Judged, confidence: float, random_state: Any = 0) -> dict[str, np.ndarray]:
    """``summary``'s columns of every model by the estimator, and the judged columns."""
    models = np.arange(j.data.values.shape[0])
    estimate, se, df, lam, se_labels = _estimate(j, models, None, random_state)
    low, high = t_confidence_interval(estimate, se, _finite(df), confidence, "two-sided")
    return {
        "mean": estimate,
        "se": se,
        "ci_low": low,
        "ci_high": high,
        **_columns(j, se, lam, se_labels),
    }


def judged_power(
    j: Judged,
    i: np.ndarray,
    k: np.ndarray,
    delta: float,
    *,
    alpha: float,
    tail: str,
    target: float,
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The estimator's standard error of each pair, and the human labels a target power needs.

    ``n_labels_needed`` keeps the unlabelled items and their judge: the
    labels ``n′`` at which ``λ² Var(d̂_u)/N + Var(d − λ d̂)/n′`` reaches
    ``(|delta| / (z_{1−alpha/tails} + z_target))²`` at this λ (with clusters,
    ``se² · n/n′``); infinite when the unlabelled part alone is wider; NaN
    for the judge alone and for Rogan–Gladen.
    """
    from scipy import stats

    i, k = np.asarray(i), np.asarray(k)
    _, se, _, lam, se_labels = _estimate(j, i, k, 0)
    n = j.labels.n_labelled
    if j.data.clustered:
        imputed, rectifier = np.zeros_like(se), se**2 * n
    else:
        _, keys, _ = _design_keys(j)
        parts = ppi.ppi_contrasts(j.human, j.judge_l, j.judge_u, i, k, lam=lam, **keys)
        imputed, rectifier = parts["var_imputed"], parts["var_rectifier"] * n
    tails = 2 if tail == "two-sided" else 1
    wanted = (abs(delta) / (stats.norm.ppf(1 - alpha / tails) + stats.norm.ppf(target))) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        needed = np.where(wanted > imputed, np.ceil(rectifier / (wanted - imputed)), np.inf)
    if j.estimator in ("judge", "rogan_gladen"):
        needed = np.full(len(se), np.nan)
    return se, {"n_labels_needed": needed, **_columns(j, se, lam, se_labels)}
