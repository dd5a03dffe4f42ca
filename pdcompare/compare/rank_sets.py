"""Who may be the best: confidence sets for every model's rank, on every frame kind.

Each frame kind gives the models' estimates and the covariance Σ̂ of them that
its own tests use (one small function per kind in ``COVARIANCES``); the core
``stats/rank_sets.py`` turns them into rank confidence sets by csranks'
step-down (Mogstad, Romano, Shaikh & Wilhelm 2024).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    OptionError,
    PdcompareWarning,
    check_fraction,
    check_positive_int,
    warn,
)
from pdcompare.compare._common import scores_meta, seed_of
from pdcompare.compare.battles import rating_covariance
from pdcompare.compare.calls import comparison, frame_function
from pdcompare.compare.items import SE_WORDS, se_meta, standard_error
from pdcompare.compare.items import frame_data as items_frame_data
from pdcompare.compare.judges import judged, judged_covariance
from pdcompare.inputs.battles import battles_data
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.predictions import predictions_data
from pdcompare.stats.cr2 import cluster_scales
from pdcompare.stats.holes import available_case_covariance
from pdcompare.stats.items import cluster_sums, clustered_df
from pdcompare.stats.predictions import correctness
from pdcompare.stats.rank_sets import rank_confidence_sets

K = FrameKind


@dataclass(frozen=True)
class Estimates:
    """The models' estimates and their covariance, as one frame kind defines them.

    Attributes
    ----------
    kind : str
        The frame kind, a key of ``COVARIANCES``.
    names : pandas.Index
        Model names, in frame order.
    estimate : numpy.ndarray
        One estimate per model (mean score, accuracy, rating).
    covariance : numpy.ndarray
        Σ̂, the covariance of ``estimate`` (models x models).
    greater_is_better : bool
        Whether a higher estimate is better.
    meta : dict
        What the result records about the frame (design, unit, ...).
    df : float or None
        The degrees of freedom of ``covariance`` when it is a sample
        covariance of few units (``DEGREES_OF_FREEDOM``): the rank sets'
        draws are then studentised. None: normal draws.
    """

    kind: str
    names: pd.Index
    estimate: np.ndarray
    covariance: np.ndarray
    greater_is_better: bool
    meta: dict[str, Any] = field(default_factory=dict)
    df: float | None = None


def _complete_splits(data: Any, what: str) -> np.ndarray:
    """The columns on which every model has a score (a covariance needs them), with a warning."""
    values = data.values
    complete = ~np.isnan(values).any(axis=0)
    if complete.sum() < 2:
        msg = (
            f"Rank sets need a covariance of the models' {what}, which needs at least 2 "
            f"{what} on which every model has a score; {int(complete.sum())} of "
            f"{values.shape[1]} are complete. Drop the models with missing scores."
        )
        raise ValueError(msg)
    if not complete.all():
        warn(
            f"{int((~complete).sum())} of {values.shape[1]} {what} have a missing score "
            f"(NaN) for some model; the rank sets use the {int(complete.sum())} complete ones."
        )
    return values[:, complete]


def _complete_count(data: Any) -> int:
    """How many splits (data sets) every model has a score on."""
    return int((~np.isnan(np.asarray(data.values, dtype=float)).any(axis=0)).sum())


def covariance_df(kind: str, data: Any) -> float | None:
    """The degrees of freedom of a frame kind's Σ̂, by ``DEGREES_OF_FREEDOM``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> covariance_df("scores", SimpleNamespace(values=np.ones((3, 10))))
    9.0
    >>> covariance_df("items", SimpleNamespace(clustered=True, n_clusters=12))
    11.0
    >>> covariance_df("runs", None) is None
    True
    """
    rule = DEGREES_OF_FREEDOM.get(kind)
    return None if rule is None else float(rule(data))


#: Frame kind -> the degrees of freedom of its Σ̂, a sample covariance of few units: the
#: rank sets' draws are studentised on them (Wishart draws, DESIGN section 35). Kinds
#: left out keep normal draws: a runs frame's diagonal of each model's own s²/n (one
#: df per model, not one Wishart), predictions (thousands of rows) and battles (the
#: inverse Fisher information, no sample covariance).
DEGREES_OF_FREEDOM: dict[str, Callable[[Any], float]] = {
    "scores": lambda data: _complete_count(data) - 1,  # k splits
    "benchmark": lambda data: _benchmark_df(data),  # N data sets (each model's own, holes)
    "items": lambda data: (
        data.n_clusters - 1 if data.clustered else np.asarray(data.values).shape[1] - 1
    ),  # C clusters, else n items
}


def scores_covariance(data: Any) -> tuple[np.ndarray, np.ndarray]:
    """Mean scores over the splits and their Nadeau–Bengio corrected covariance.

    Σ̂ = S · (1/k + n_test/n_train), S the sample covariance (ddof 1) of the
    models' scores across the k splits.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from pdcompare.inputs.design import resolve_design
    >>> data = SimpleNamespace(values=np.array([[1.0, 2.0, 4.0], [2.0, 2.0, 5.0]]),
    ...                        design=resolve_design(None, cv=3))
    >>> estimate, cov = scores_covariance(data)
    >>> bool(np.allclose(cov, np.cov(data.values) * (1 / 3 + 1 / 2)))
    True
    """
    ratio = require_ratio(data.design, "ranks")
    values = _complete_splits(data, "splits")
    k = values.shape[1]
    return values.mean(axis=1), np.cov(values) * (1.0 / k + ratio)


def benchmark_covariance(data: Any) -> tuple[np.ndarray, np.ndarray]:
    """Mean of per-data-set means and their covariance across the N data sets, over N.

    With holes (models that did not run on every data set) each model's mean
    is over its own data sets and the covariance of two means comes from the
    data sets both ran on (:func:`pdcompare.stats.holes.available_case_covariance`).
    """
    values = np.asarray(data.values, dtype=float)
    if not np.isnan(values).any():
        return values.mean(axis=1), np.cov(values) / values.shape[1]
    _check_holes(data)
    mean, cov, _ = available_case_covariance(values)
    return mean, cov


def _check_holes(data: Any) -> None:
    """Refuse a model on fewer than 2 data sets, or sharing none with the other models."""
    present = ~np.isnan(np.asarray(data.values, dtype=float))
    count = present.sum(axis=1)
    few = np.flatnonzero(count < 2)
    if few.size:
        names = [str(data.names[k]) for k in few]
        msg = (
            f"Model(s) {names} have a score on fewer than 2 data sets, so their rank sets "
            "have no variance to stand on: drop them (`df.drop(index=...)`) or add their "
            "scores on more data sets."
        )
        raise ValueError(msg)
    shared = present.astype(np.int64) @ present.T.astype(np.int64)
    np.fill_diagonal(shared, 0)
    alone = np.flatnonzero(shared.max(axis=1) == 0)
    if alone.size:
        names = [str(data.names[k]) for k in alone]
        msg = (
            f"Model(s) {names} share no data set with any other model, so nothing ties "
            "their scores to the others': drop them or add scores on data sets the others "
            "ran."
        )
        raise ValueError(msg)


def _benchmark_df(data: Any) -> float:
    """N − 1 on complete data; with holes the median of the models' data-set counts, minus 1.

    The fewest of any model (minus 1) made the sets cover 99.6–100 % at 95 %
    in the validity study (docs/validity_table_holes.md), the median less
    wide for the same coverage: the holes' covariance is not one Wishart.
    """
    present = ~np.isnan(np.asarray(data.values, dtype=float))
    return float(np.median(present.sum(axis=1)) - 1)


def runs_covariance(data: Any) -> tuple[np.ndarray, np.ndarray]:
    """Mean over each model's own runs, and a diagonal of s²/n (independent runs)."""
    values = data.values
    n = (~np.isnan(values)).sum(axis=1)
    if np.any(n < 2):
        short = [str(data.names[k]) for k in np.flatnonzero(n < 2)]
        msg = f"Rank sets on a runs frame need at least 2 runs per model; {short} have fewer."
        raise ValueError(msg)
    mean = np.nanmean(values, axis=1)
    return mean, np.diag(np.nanvar(values, axis=1, ddof=1) / n)


def items_covariance(data: Any, se_type: str = "cr1") -> tuple[np.ndarray, np.ndarray]:
    """Mean score over the items and its clustered covariance (DESIGN section 22).

    ``C/(C−1) · U Uᵀ / n²`` with ``U_jc`` the sum over cluster ``c``'s items of
    ``x_ji − x̄_j`` (the CR1 covariance of the paired t over questions); without
    clusters the sample covariance over the ``n`` items divided by ``n``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> values = np.array([[1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]])
    >>> data = SimpleNamespace(values=values, cluster=np.array([0, 0, 1, 1]), n_clusters=2,
    ...                        clustered=True)
    >>> mean, cov = items_covariance(data)
    >>> u = np.array([[1 - 1.5, 2 - 1.5], [0 - 1.0, 2 - 1.0]])  # cluster sums minus size x mean
    >>> bool(np.allclose(cov, 2 / 1 * u @ u.T / 16))
    True
    """
    values = np.asarray(data.values, dtype=float)
    n = values.shape[1]
    mean = values.mean(axis=1)
    if not data.clustered:
        return mean, np.cov(values) / n
    c = data.n_clusters
    sums, sizes = cluster_sums(values, data.cluster, c)
    centred = sums - mean[:, None] * sizes[None, :]
    if se_type == "cr2":  # Bell–McCaffrey: each cluster's sum over sqrt(1 − n_c/n)
        centred = centred * np.sqrt(cluster_scales(sizes, n, "cr2")[0])
        return mean, (centred @ centred.T) / n**2
    return mean, c / (c - 1) * (centred @ centred.T) / n**2


def predictions_covariance(correct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Accuracy of each model and the covariance of correctness across rows, over n.

    Examples
    --------
    >>> right = np.array([[1, 1], [1, 0], [0, 0], [1, 1]], dtype=bool)
    >>> accuracy, cov = predictions_covariance(right)
    >>> accuracy.tolist(), bool(np.allclose(cov, np.cov(right.T.astype(float)) / 4))
    ([0.75, 0.5], True)
    """
    values = np.asarray(correct, dtype=float)
    return values.mean(axis=0), np.cov(values.T) / values.shape[0]


def _from_scores(frame: pd.DataFrame, y: Any, design: dict[str, Any]) -> Estimates:
    if frame_kind(frame) is FrameKind.BATTLES:
        battles = battles_data(frame)
        estimate, cov = COVARIANCES["battles"][1](battles)
        return Estimates("battles", battles.names, estimate, cov, True, {"unit": "battles"})
    if frame_kind(frame) is FrameKind.ITEMS:
        estimator, se = design.pop("estimator", None), design.pop("se", None)
        data = items_frame_data(frame, design, "ranks")  # cv= refused as by summary
        judge = judged(frame, data, estimator, "ranks")  # a labelled frame: compare/judges.py
        meta = {**data.meta(), "design": data.design.to_attrs()}
        if judge is None:
            se_type = standard_error(data, se)
            estimate, cov = items_covariance(data, se_type)
            meta.update(se_meta(data, se_type))
            df = covariance_df("items", data)
            if data.clustered:  # CR2's Satterthwaite df, or C − 1
                df = clustered_df(data.cluster, data.n_clusters, se_type)
        else:  # clustered PPI is CR1's (DESIGN section 31)
            estimate, cov, df = judged_covariance(judge)
            df = None if np.isinf(df) else df
            meta.update(judge.meta())
        return Estimates(
            "items", data.names, estimate, cov, data.design.greater_is_better, meta, df
        )
    data = scores_data(frame, **design)
    if isinstance(data, BenchmarkData):
        kind = "benchmark"
    else:
        kind = "scores" if data.design.paired else "runs"
    estimate, cov = COVARIANCES[kind][1](data)
    meta = scores_meta("ranks", data, "all")
    for key in ("test", "kind", "scope", "models", "greater_is_better"):
        meta.pop(key)
    if kind == "benchmark" and meta.get("n_missing"):
        meta["n_datasets"] = int(np.asarray(data.values).shape[1])
        meta["covariance"] = HOLES_COVARIANCE
    df = covariance_df(kind, data)
    return Estimates(kind, data.names, estimate, cov, data.design.greater_is_better, meta, df)


def _from_predictions(frame: pd.DataFrame, y: Any, design: dict[str, Any]) -> Estimates:
    if design:
        msg = (
            f"{sorted(design)} do not apply to a predictions frame (truth column {y!r}): its "
            "covariance is that of the rows' correctness."
        )
        raise ValueError(msg)
    data = predictions_data(frame, y, as_codes=True, labels_for="ranks")
    right, usable = correctness(data.y_true, data.y_pred, data.missing)
    rows = usable.all(axis=1)
    if not rows.all():
        warn(f"{int((~rows).sum())} rows with a missing truth or prediction are left out.")
    estimate, cov = COVARIANCES["predictions"][1](right[rows])
    meta = {"unit": "sample", "n_samples": int(rows.sum()), "y": y}
    return Estimates("predictions", data.names, estimate, cov, True, meta)


#: Frame kind -> (the covariance's name, its function). A new kind is one line here.
COVARIANCES: dict[str, tuple[str, Callable[..., tuple[np.ndarray, np.ndarray]]]] = {
    "scores": ("Nadeau–Bengio corrected", scores_covariance),
    "benchmark": ("across data sets", benchmark_covariance),
    "runs": ("diagonal (independent runs)", runs_covariance),
    "predictions": ("per-row correctness", predictions_covariance),
    "items": ("clustered (CR1)", items_covariance),
    "battles": ("inverse Fisher information", rating_covariance),
}


#: The covariance's name on a benchmark with holes (each model's mean over its data sets).
HOLES_COVARIANCE = "across data sets, each pair over the data sets both ran on"


def _covariance_name(found: Estimates) -> str:
    """The covariance's name: "clustered (CR2)" where an items frame's is CR2."""
    if found.meta.get("se_type") == SE_WORDS["cr2"]:
        return "clustered (CR2)"
    return COVARIANCES[found.kind][0]


def _truth_column(frame: pd.DataFrame, y: Any) -> Hashable | None:
    if y is not None:
        if y not in frame.columns:
            msg = f"`y`: no column {y!r} in the frame; columns are {list(frame.columns)[:10]}."
            raise ValueError(msg)
        return y
    if frame.columns.nlevels == 1 and "y" in frame.columns:
        return "y"
    return None


def estimates_of(frame: pd.DataFrame, y: Any = None, **design: Any) -> Estimates:
    """The estimates and covariance a frame's own tests use, by its kind."""
    check_frame(frame)
    truth = _truth_column(frame, y)
    if truth is not None:
        return _from_predictions(frame, truth, design)
    return _from_scores(frame, y, design)


def _check_options(coverage: Any, n_draws: Any) -> float:
    coverage = check_fraction("coverage", coverage)
    check_positive_int("n_draws", n_draws, minimum=100)
    return coverage


def _check_models(names: pd.Index) -> None:
    if len(names) < 2:
        msg = (
            f"Rank sets need at least 2 models; the frame has {len(names)} "
            f"({list(names)}). Add the models to rank."
        )
        raise ValueError(msg)


@comparison("ranks")
def ranks(
    frame: pd.DataFrame,
    *,
    coverage: float = 0.95,
    simultaneous: bool = True,
    n_draws: int = 10000,
    random_state: Any = None,
    y: Any = None,
    **design: Any,
) -> pd.DataFrame:
    """Confidence sets for every model's rank: which ranks the data allow.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame (models x CV splits, the design known), a benchmark
        frame (columns named "dataset"), a runs frame
        (``set_design(paired=False)``) or a predictions frame (a truth column).
    coverage : float, default 0.95
        Probability that the sets cover the true ranks.
    simultaneous : bool, default True
        True: the sets hold jointly for all models; False: each model's set
        holds for that model alone (narrower).
    n_draws : int, default 10000
        Normal draws for the quantile of the maximum (at least 100).
    random_state : None, int or numpy.random.Generator
        Seed of the draws; the same seed gives the same sets.
    y : column name, optional
        The truth column of a predictions frame (default: a column named "y").
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
        ``greater_is_better=``; see :func:`set_design`.
        On a labelled items frame (``from_items(..., human=)``) also
        ``estimator=``: "ppi++" (the default: the judge's scores corrected
        by the human labels, λ tuned), "ppi" (λ = 1), "labels" (the labelled
        items alone), "judge" (the judge alone, uncorrected) or
        "rogan_gladen" (class-balanced binary labels; DESIGN section 31).
        On an items frame with clusters, ``se="cr2"`` or ``"cr1"`` chooses
        the clustered covariance (default CR2 below 50 clusters, as
        :func:`ttest`).

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best first: ``estimate, rank, rank_low, rank_high``.
        Model j's rank lies in ``rank_low .. rank_high`` (1 = best).
        ``attrs["pdcompare"]`` holds ``test="ranks"``, ``coverage``,
        ``simultaneous``, ``n_draws``, ``covariance`` (its name) and the frame's
        unit and design.

    Notes
    -----
    Mogstad, Romano, Shaikh & Wilhelm (2024), "Inference for ranks", Review of
    Economic Studies (R package csranks): every ordered difference θ_j − θ_k
    is tested one-sided, simultaneously, against the ``coverage`` quantile
    of max (Z_j − Z_k)/σ_jk over the undecided pairs, Z ~ N(0, Σ̂), stepping
    down; rank_low = 1 + the models significantly better, rank_high = m −
    the models significantly worse. Σ̂ is the covariance the frame's own test
    uses (every covariance has ddof 1):

    - scores frame: Nadeau–Bengio corrected, S · (1/k + n_test/n_train), the
      estimate the mean over k splits (the design is needed: ``cv=``);
    - benchmark frame: the covariance of the per-data-set means across the N
      data sets over N, the estimate the mean of per-data-set means (not the
      mean rank);
    - runs frame: diagonal, s²/n of each model's own runs;
    - predictions frame: the covariance of the rows' correctness over n, the
      estimate the accuracy.

    Splits (rows) where some model has no score are left out, with a
    warning. A benchmark with holes (models that did not run on every data
    set) keeps every data set: each model's estimate is its mean over its
    own data sets, and the covariance of two estimates comes from the data
    sets both ran on (n_jk / (n_j n_k) times their pairwise covariance,
    :func:`pdcompare.stats.holes.available_case_covariance`), studentised on
    the median data-set count minus one; ``attrs["pdcompare"]["n_missing"]``
    counts the holes. A model on fewer than 2 data sets, or sharing none
    with another model, is refused by name. A set [1, 3] does not say the model is worse than the
    first; it says the data cannot place it more precisely.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> scores = pd.DataFrame(rng.normal([[0.90], [0.89], [0.70]], 0.02, (3, 10)),
    ...                       index=["a", "b", "c"])
    >>> scores.cmp.ranks(cv=10, random_state=0).round(3)
           estimate  rank  rank_low  rank_high
    model
    a         0.902     1         1          2
    b         0.881     2         1          2
    c         0.700     3         3          3
    >>> scores.cmp.ranks(cv=10, random_state=0).attrs["pdcompare"]["covariance"]
    'Nadeau–Bengio corrected'
    """
    coverage = _check_options(coverage, n_draws)
    found = estimates_of(frame, y, **design)
    _check_models(found.names)
    return _rank_table(found, coverage, bool(simultaneous), int(n_draws), random_state)


def _rank_table(
    found: Estimates, coverage: float, simultaneous: bool, n_draws: int, random_state: Any
) -> pd.DataFrame:
    rank, low, high = rank_confidence_sets(
        found.estimate,
        found.covariance,
        coverage=coverage,
        simultaneous=simultaneous,
        n_draws=n_draws,
        random_state=random_state,
        higher_is_better=found.greater_is_better,
        df=found.df,
    )
    extra = dict(found.meta)
    covariance = extra.pop("covariance", _covariance_name(found))
    key = found.estimate if found.greater_is_better else -found.estimate
    order = np.lexsort((np.arange(key.size), -key))
    names = np.asarray(found.names, dtype=object)[order]
    meta = results.result_meta(
        "ranks",
        scope="all",
        coverage=coverage,
        simultaneous=simultaneous,
        n_draws=n_draws,
        random_state=seed_of(random_state),
        covariance=covariance,
        draws_df=found.df,
        frame_kind=found.kind,
        models=names.tolist(),
        **extra,
        greater_is_better=found.greater_is_better,
    )
    columns = {
        "estimate": found.estimate[order],
        "rank": rank[order],
        "rank_low": low[order],
        "rank_high": high[order],
    }
    return results.model_result(pd.Index(names, name="model"), columns, meta)


#: The report states which models may be the best up to this many models (the rank
#: sets' cost grows with the square of the models: beyond, ``ranks()`` on request).
REPORT_RANKS_UP_TO = 200

#: The report's draws: 10,000 up to 50 models, 2,000 beyond (a report stays quick).
REPORT_DRAWS = ((50, 10000), (REPORT_RANKS_UP_TO, 2000))


def report_rank_sets(frame: pd.DataFrame, *, random_state: Any = 0, **design: Any):
    """The simultaneous 95% rank sets a report states ("may be the best"), or None.

    None when the frame's covariance is unknown (a scores frame without its CV
    design, a runs frame with a single run of some model, fewer than 2
    complete splits) or when it has more than ``REPORT_RANKS_UP_TO`` models.
    Splits with a missing score are left out without the warning of
    :func:`ranks` (the report's other lines speak of them).

    Examples
    --------
    >>> import pdcompare
    >>> found = report_rank_sets(pdcompare.datasets.load_grid_search_scores())
    >>> found.index[found["rank_low"] == 1].tolist()
    ['rbf', 'linear', '3_poly']
    >>> import pandas as pd
    >>> report_rank_sets(pd.DataFrame([[0.9, 0.8], [0.7, 0.6]])) is None  # no CV design
    True
    """
    m = len(frame)
    if m < 2 or m > REPORT_RANKS_UP_TO:
        return None
    n_draws = next(draws for up_to, draws in REPORT_DRAWS if m <= up_to)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdcompareWarning)
        try:
            return ranks(frame, n_draws=n_draws, random_state=random_state, **design)
        except OptionError:
            return None  # the CV design unknown: the report says to pass it
        except ValueError as error:
            if "Rank sets" in str(error):
                return None  # too few complete splits or runs for a covariance
            raise


@frame_function("top_set", (K.SCORES, K.BENCHMARK, K.RUNS, K.PREDICTIONS, K.ITEMS, K.BATTLES))
def top_set(
    frame: pd.DataFrame,
    tau: int = 1,
    *,
    coverage: float = 0.95,
    n_draws: int = 10000,
    random_state: Any = None,
    y: Any = None,
    **design: Any,
) -> list:
    """The models that may be among the best ``tau``: a confidence set for the τ-best.

    Parameters
    ----------
    frame : pandas.DataFrame
        Any frame :func:`ranks` takes.
    tau : int, default 1
        1 asks which models may be the best; 3 which may be among the best three.
    coverage : float, default 0.95
        Probability that the set holds every model truly among the best ``tau``.
    n_draws, random_state, y, **design
        As :func:`ranks`.

    Returns
    -------
    list
        Model names, best first, whose simultaneous ``rank_low`` ≤ ``tau``
        (csranks' ``cstaubest``): the principled "tied with the best".

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> scores = pd.DataFrame(rng.normal([[0.90], [0.89], [0.70]], 0.02, (3, 10)),
    ...                       index=["a", "b", "c"])
    >>> scores.cmp.top_set(cv=10, random_state=0)
    ['a', 'b']
    """
    if isinstance(tau, bool) or not isinstance(tau, (int, np.integer)):
        msg = f"`tau` must be an integer from 1 to the number of models; got {tau!r}."
        raise TypeError(msg)
    coverage = _check_options(coverage, n_draws)
    found = estimates_of(frame, y, **design)
    _check_models(found.names)
    m = len(found.names)
    if not 1 <= tau <= m:
        msg = f"`tau` must be from 1 to the number of models ({m}); got {tau!r}."
        raise ValueError(msg)
    result = _rank_table(found, coverage, True, int(n_draws), random_state)
    return result.index[result["rank_low"].to_numpy() <= tau].tolist()
