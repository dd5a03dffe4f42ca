"""The hierarchical Bayesian correlated t-test across data sets (Corani et al. 2017)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    OptionError,
    check_fraction,
    check_positive_int,
    check_random_state,
    check_rope,
    warn,
)
from pdcompare.compare._common import (
    pair_list,
    per_dataset_fields,
    scores_meta,
    seed_of,
    warn_pairs,
)
from pdcompare.compare.bayes import decision_column
from pdcompare.compare.calls import comparison
from pdcompare.inputs.attrs import pdcompare_attrs, shared
from pdcompare.inputs.benchmark import BenchmarkData
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio
from pdcompare.stats import bayes as bayes_core
from pdcompare.stats.hierarchical import hierarchical_pairs, region_masses

#: The largest split R-hat of δ0 a pair may have before a warning names it.
RHAT_LIMIT = 1.01

#: Posterior draws a one-pair result keeps for its simplex picture (``simplex_samples``).
SIMPLEX_DRAWS = 3000


def _check_bounds(low_name: str, low: Any, high_name: str, high: Any) -> tuple[float, float]:
    """``(low, high)`` as floats with ``0 < low < high < inf``, or a ValueError naming them."""
    for name, value in ((low_name, low), (high_name, high)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            msg = f"`{name}` must be a positive number; got {value!r}."
            raise TypeError(msg)
    low, high = float(low), float(high)
    if not (0.0 < low < high < np.inf):
        msg = (
            f"`{low_name}` and `{high_name}` bound a uniform prior: they must satisfy "
            f"0 < {low_name} < {high_name} < inf; got {low!r} and {high!r}."
        )
        raise ValueError(msg)
    return low, high


def _benchmark_folds(data: Any) -> None:
    """Raise unless ``data`` is a benchmark frame with the folds of at least two data sets."""
    if not isinstance(data, BenchmarkData) or data.folds is None:
        msg = (
            "`hierarchical` models the folds of every data set: it needs a benchmark frame "
            "with (dataset, split) columns, such as pdcompare.from_long(table, split=...) or "
            "pd.concat({name: scores, ...}, axis=1, names=['dataset', 'split']). A table of "
            "one score per data set has no folds: use bayes, wilcoxon or sign_test across "
            "data sets."
        )
        cli = (
            "the hierarchical test models the folds of every data set: it needs a long file "
            "with one row per fold (--long with --split-col). A file of one score per data "
            "set has no folds: leave out --hierarchical (--rope alone gives the Bayesian "
            "signed-rank test across data sets)."
        )
        raise OptionError(msg, cli_message=cli)
    if len(data.splits) < 2:
        msg = (
            f"`hierarchical` compares models across data sets; this frame has one data set "
            f"({data.splits[0]!r}). On the folds of one data set use `corrected_ttest` or "
            "`bayes`, or `per_dataset(...)`."
        )
        raise ValueError(msg)


@comparison("hierarchical")
def hierarchical(
    scores: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    rope: float | tuple[float, float] = 0.0,
    n_samples: int = 10000,
    chains: int = 4,
    alpha: float = 0.05,
    lower_alpha: float = 1,
    upper_alpha: float = 2,
    lower_beta: float = 0.01,
    upper_beta: float = 0.1,
    upper_sigma: float = 1000,
    random_state: Any = None,
    nan_policy: str = "propagate",
    **design: Any,
) -> pd.DataFrame:
    """Hierarchical Bayesian comparison across data sets that keeps every data set's folds.

    The hierarchical Bayesian correlated t-test (Corani, Benavoli, Demšar,
    Mangili & Zaffalon 2017): each data set's fold differences, with the
    correlation of folds that share training data, inform that data set's
    own difference ``δ_i``; the ``δ_i`` are drawn from a Student t around
    the mean difference ``δ0``, so each is shrunk towards the others, and
    the t gives the difference to expect on the next data set. The model,
    priors, defaults and data scaling are those of
    ``baycomp.HierarchicalTest``; the posterior is sampled by pdcompare's
    own Gibbs sampler in numpy (no Stan, no compiler), every pair and chain
    at once.

    Parameters
    ----------
    scores : pandas.DataFrame
        A benchmark frame with ``(dataset, split)`` columns: the fold scores
        of every model on every data set.
    a, b : model name, optional
        The pair, one model against the others, or (neither) the best model
        by mean rank against the others.
    rope : float or (float, float), default 0.0
        Region of practical equivalence of ``model_1 - model_2`` on a new
        data set, in score units: a half-width or a ``(low, high)`` pair.
    n_samples : int, default 10000
        Posterior draws kept, split evenly across the chains; a warm-up of a
        quarter as many sweeps per chain (200 to 1000) is discarded first.
    chains : int, default 4
        Independent chains, started apart, for the R-hat of ``δ0``.
    alpha : float, default 0.05
        A decision needs a posterior probability of at least ``1 - alpha``.
    lower_alpha, upper_alpha : float, default 1, 2
        Bounds of the uniform prior of the shape of the Gamma prior of ``ν − 1``.
    lower_beta, upper_beta : float, default 0.01, 0.1
        Bounds of the uniform prior of its rate.
    upper_sigma : float, default 1000
        ``σ_i`` and ``σ0`` are uniform from 0 to ``upper_sigma`` times the
        within-data-set and among-data-set standard deviations.
    random_state : None, int or numpy.random.Generator
        Seed of every draw; None gives fresh draws on every call.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        A model without scores on a data set: "propagate" gives its pairs
        NaN (with a warning), "omit" uses, per pair, the folds both models
        have (data sets with fewer than 2 left out), "raise" raises.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (one
        design for every data set; needed unless stored), and
        ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, mean_diff`` (posterior mean of
        ``δ0``, in score units), ``prob_better, prob_rope, prob_worse,
        decision`` (as in :func:`bayes`: model_1's or model_2's name,
        "equivalent" or "undecided" at probability ``1 - alpha``), ``rhat``
        (split R-hat of ``δ0`` over the chains) and ``ess`` (its bulk
        effective sample size). ``attrs["pdcompare"]`` holds the test
        ("hierarchical"), ``rope``, ``alpha``, ``rho``, ``n_samples``,
        ``chains``, the priors, the seed, the design, and what
        :func:`pdcompare.shrinkage` reads, as JSON-able lists (the result survives
        ``to_parquet``): every data set's mean fold difference and the
        posterior mean of its ``δ_i``, in score units, per pair.
        ``pdcompare.shrinkage(result)`` gives them as a frame. A one-pair
        result also keeps ``draws``: 3000 posterior draws of ``δ0``, ``σ0``
        (score units) and ``ν``, evenly spaced over the chains, from which
        ``simplex_samples`` and ``result.cmp.plot()`` draw its posterior in
        the triangle (``kind="shrinkage"`` draws the data sets). Two results
        concatenate with ``pd.concat`` (pandas keeps the attrs when they are
        equal).

    Raises
    ------
    ValueError
        Without the CV design (pass ``cv=`` or ``test_size=``: the fold
        correlation depends on it; 1/n_splits is never guessed), on a frame
        without folds or with one data set, or for bad prior bounds.

    Warns
    -----
    PdcompareWarning
        When a pair's R-hat of ``δ0`` exceeds 1.01 (run more samples); when a
        data set's differences are the same on every fold (see Notes); when
        two models have identical scores everywhere (``prob_rope = 1`` for a
        ROPE that holds 0), or differences constant within every data set
        (NaN results); when missing scores make results NaN.

    Notes
    -----
    With ``x_ij = model_1 − model_2`` on fold ``j`` of data set ``i``,
    divided (as baycomp does) by the mean over data sets of their standard
    deviation (numpy's, ddof 0)::

        x_i ~ N(δ_i 1, σ_i² ((1 − ρ) I + ρ J)),   δ_i ~ t(ν, δ0, σ0),
        δ0 ~ U(−max|x|, max|x|),  σ_i ~ U(0, upper_sigma · s_w),
        σ0 ~ U(0, upper_sigma · s_a),  ν − 1 ~ Gamma(α, β),
        α ~ U(lower_alpha, upper_alpha),  β ~ U(lower_beta, upper_beta),

    ``s_w`` the mean within-data-set standard deviation (1 after scaling),
    ``s_a`` the standard deviation of the data-set means, and ``ρ = n_test /
    (n_test + n_train)`` from the design (baycomp uses ``1/k`` for k-fold
    CV, the same number, and ``1/n_splits`` when it is not told the
    design, which understates the correlation of repeated CV; here the
    design is required). The covariance has eigenvalue ``σ²(1 + (n − 1)ρ)``
    along the vector of ones and ``σ²(1 − ρ)`` across it, so the likelihood
    factorises into ``m_i ~ N(δ_i, σ_i² (1 + (n − 1)ρ)/n)`` for the fold mean
    and a factor ``σ_i^-(n−1) exp(−S_i / (2σ_i²(1 − ρ)))`` for the within
    sum of squares ``S_i``: the sampler works on ``(n_i, m_i, S_i)``, so
    its cost does not grow with the folds.

    For every posterior draw the Student t ``(ν, δ0, σ0)`` is the difference
    on a new data set; ``prob_better`` is the share of draws in which its
    mass beyond the ROPE in model_1's favour is the largest of the three
    regions, ``prob_rope`` the share in which the mass inside is, and
    ``prob_worse`` the rest, as ``baycomp.HierarchicalTest`` computes them
    (its ``(p_left, p_rope, p_right)`` for ``x = model_1`` are
    ``(prob_better, prob_rope, prob_worse)``). With ``greater_is_better=False``
    "better" means a negative difference; ``mean_diff`` stays ``model_1 −
    model_2``.

    A data set whose differences are the same on every fold has no
    within-data-set spread, and the posterior of its ``σ_i`` would pile up
    at 0 without bound; it is given the pair's smallest positive spread on
    another data set (a warning names it). baycomp instead replaces its
    folds by random numbers in the ROPE.

    The sampler (:mod:`pdcompare.stats.hierarchical`) is a Gibbs sampler
    with the t as a scale mixture of normals: conjugate normal and Gamma
    draws for ``δ_i``, ``δ0``, the mixing weights and ``σ_i``, slice steps
    for ``δ0`` (on the t density, the weights integrated out), ``σ0`` (the
    ``δ_i`` integrated out), ``ν``, ``α`` and ``β``. It costs about 1.6 s of
    CPU time for one pair at the default sizes and 8 s for the 45 pairs of
    10 models on 20 data sets, whatever the number of folds; the 10 pairs of
    baycomp's UCI example (5 classifiers, 54 data sets, 100 folds) take
    5.3 s (``benchmarks/bench_hierarchical.py``).

    References
    ----------
    .. [1] G. Corani, A. Benavoli, J. Demšar, F. Mangili and M. Zaffalon,
       "Statistical comparison of classifiers through Bayesian hierarchical
       modelling", Machine Learning 106, 1817-1837, 2017.
    .. [2] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", JMLR 18(77), 1-36, 2017.
    .. [3] R. Neal, "Slice sampling", Annals of Statistics 31, 705-767, 2003.
    .. [4] A. Vehtari, A. Gelman, D. Simpson, B. Carpenter and P.-C. Bürkner,
       "Rank-normalization, folding, and localization: an improved R-hat",
       Bayesian Analysis 16, 667-718, 2021.

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> bench = load_benchmark()  # 7 models x 22 data sets x 10 folds, design attached
    >>> res = bench.cmp.hierarchical("svc_rbf", "forest", rope=0.01, n_samples=2000,
    ...                              random_state=0)
    >>> res[["mean_diff", "prob_better", "prob_rope", "prob_worse"]].round(3)
       mean_diff  prob_better  prob_rope  prob_worse
    0      0.005        0.068       0.93       0.002
    >>> res.loc[0, "decision"], bool(res.loc[0, "rhat"] < 1.01)
    ('undecided', True)

    Compare with the pooled difference of the random-effects meta-analysis
    (normal rather than t between data sets, so outlying data sets weigh more):

    >>> round(float(bench.cmp.random_effects("svc_rbf", "forest").loc[0, "mean_diff"]), 3)
    0.008
    """
    low, high = check_rope(rope)
    alpha = check_fraction("alpha", alpha)
    priors = _check_sampler(
        n_samples, chains, lower_alpha, upper_alpha, lower_beta, upper_beta, upper_sigma
    )
    rng = check_random_state(random_state)
    data = scores_data(scores, **design)
    _benchmark_folds(data)
    ratio = require_ratio(data.design, "hierarchical")
    rho = ratio / (1.0 + ratio)  # n_test / (n_test + n_train)
    i, j, scope = data.pairs(a, b)
    incomplete = data.nan_pairs(i, j, nan_policy)
    run = np.ones(len(i), dtype=bool) if nan_policy == "omit" else ~incomplete
    out = hierarchical_pairs(
        data.folds,
        i[run],
        j[run],
        rho=rho,
        rope=(low, high),
        alpha=alpha,
        **priors,
        greater_is_better=data.design.greater_is_better,
        random_state=rng,
        keep_draws=SIMPLEX_DRAWS if len(i) == 1 else 0,
    )
    columns, fields = _columns(data, i, j, run, out)
    meta = scores_meta(
        "hierarchical",
        data,
        scope,
        rope=(low, high),
        alpha=alpha,
        rho=rho,
        **priors,
        random_state=seed_of(random_state),
        nan_policy=nan_policy,
        **fields,
    )
    return results.pair_result(data.names, i, j, columns, meta)


def _check_sampler(
    n_samples: Any,
    chains: Any,
    lower_alpha: Any,
    upper_alpha: Any,
    lower_beta: Any,
    upper_beta: Any,
    upper_sigma: Any,
) -> dict[str, Any]:
    """The sampler's sizes and prior bounds, checked: keywords of ``hierarchical_pairs``."""
    chains = check_positive_int("chains", chains)
    n_samples = check_positive_int("n_samples", n_samples, minimum=100)
    if n_samples // chains < 50:
        msg = (
            f"`n_samples` is split across the chains and each chain needs at least 50 draws: "
            f"got n_samples={n_samples} for chains={chains}; pass at least {50 * chains}."
        )
        raise ValueError(msg)
    alpha_bounds = _check_bounds("lower_alpha", lower_alpha, "upper_alpha", upper_alpha)
    beta_bounds = _check_bounds("lower_beta", lower_beta, "upper_beta", upper_beta)
    if (
        isinstance(upper_sigma, bool)
        or not isinstance(upper_sigma, numbers.Real)
        or not 0 < upper_sigma < np.inf
    ):
        msg = f"`upper_sigma` must be a positive finite number; got {upper_sigma!r}."
        raise ValueError(msg)
    return {
        "n_samples": n_samples,
        "chains": chains,
        "lower_alpha": alpha_bounds[0],
        "upper_alpha": alpha_bounds[1],
        "lower_beta": beta_bounds[0],
        "upper_beta": beta_bounds[1],
        "upper_sigma": float(upper_sigma),
    }


def _columns(
    data: Any, i: np.ndarray, j: np.ndarray, run: np.ndarray, out: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The result's columns (NaN for the pairs not run) and its per-data-set metadata.

    The metadata holds, as JSON-able lists, every pair, the data sets, each
    pair's mean fold difference and posterior mean of ``δ_i`` per data set
    (None where missing; read by :func:`pdcompare.shrinkage`), and for one pair its
    kept posterior draws (read by :func:`simplex_samples`).
    """
    names = ("mean_diff", "prob_better", "prob_rope", "prob_worse", "rhat", "ess")
    values: dict[str, Any] = {}
    for name in names:
        values[name] = np.full(len(i), np.nan)
        values[name][run] = out[name]
    codes = np.full(len(i), bayes_core.DECISION_MISSING)
    codes[run] = out["decision"]
    tables = {}
    for name in ("differences", "shrunk"):
        tables[name] = np.full((len(i), len(data.splits)), np.nan)
        tables[name][run] = out[name]
    flags = {}
    for name in ("identical", "no_spread", "too_few"):
        flags[name] = np.zeros(len(i), dtype=bool)
        flags[name][run] = out[name]
    _warn(data, i, j, run, out, flags, values["rhat"])
    fields = per_dataset_fields(data.names, i, j, data.splits, **tables)
    if len(i) == 1:  # the posterior draws of the one pair, for its simplex picture
        draws = out["draws"][0] if run[0] else np.full((3, 0), np.nan)
        # shared by pandas' copies of the result: 9000 numbers, not deep-copied per column read
        fields["draws"] = shared({"delta0": draws[0], "sigma0": draws[1], "nu": draws[2]})
    columns = {name: values[name] for name in names[:4]}
    columns["decision"] = decision_column(data.names, i, j, codes)
    columns["rhat"] = values["rhat"]
    columns["ess"] = values["ess"]
    return columns, fields


def simplex_samples(result: pd.DataFrame, n_points: int = 3000) -> np.ndarray:
    """Posterior samples of a one-pair hierarchical result's masses, for its simplex picture.

    A one-pair result of :func:`hierarchical` keeps 3000 of its posterior
    draws of ``(δ0, σ0, ν)``; for each, the Student t ``(ν, δ0, σ0)`` of the
    next data set's difference gives the mass of the three regions, as each
    sample of ``baycomp.HierarchicalTest.sample``. Nothing is sampled here.

    Parameters
    ----------
    result : pandas.DataFrame
        A one-pair result of :func:`hierarchical`.
    n_points : int, default 3000
        At most this many samples, evenly spaced over the kept draws.

    Returns
    -------
    numpy.ndarray, shape (n_points, 3)
        The masses (model_1 better, practically equivalent, model_2
        better) of every sample; each row sums to 1.

    Raises
    ------
    ValueError
        On any other frame, or when the pair has no posterior (NaN results).

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> res = load_benchmark().cmp.hierarchical("svc_rbf", "forest", rope=0.01,
    ...                                         n_samples=1000, random_state=0)
    >>> samples = simplex_samples(res, 500)
    >>> samples.shape, bool(np.allclose(samples.sum(axis=1), 1.0))
    ((500, 3), True)

    The share of samples in which each region is the largest is the result's
    probabilities, from the draws kept:

    >>> shares = np.bincount(samples.argmax(axis=1), minlength=3) / len(samples)
    >>> bool(abs(shares[1] - res.loc[0, "prob_rope"]) < 0.05)
    True
    """
    meta = pdcompare_attrs(result)
    if meta.get("test") != "hierarchical" or len(result) != 1 or "draws" not in meta:
        msg = (
            "The simplex shows one pair of a hierarchical result: "
            "bench.cmp.hierarchical(a, b, rope=...) on a benchmark frame with folds, or "
            'bench.cmp.plot("simplex", test="hierarchical", a=..., b=..., rope=...).'
        )
        raise ValueError(msg)
    n_points = check_positive_int("n_points", n_points)
    row = result.iloc[0]
    probs = np.array([row["prob_better"], row["prob_rope"], row["prob_worse"]], dtype=float)
    if np.isnan(probs).any():
        msg = (
            f"{row['model_1']} vs {row['model_2']} has no posterior (its results are NaN): "
            "there is no simplex to draw."
        )
        raise ValueError(msg)
    draws = meta["draws"]
    delta0, sigma0, nu = (np.asarray(draws[k], dtype=float) for k in ("delta0", "sigma0", "nu"))
    if delta0.size == 0 or not np.isfinite(delta0).all():  # identical models: a point mass
        return np.tile(probs, (n_points, 1))
    at = np.round(np.linspace(0, delta0.size - 1, min(n_points, delta0.size))).astype(int)
    low, high = meta["rope"]
    below, inside, above = region_masses(delta0[at], sigma0[at], nu[at], low, high)
    if meta.get("greater_is_better", True):
        return np.column_stack([above, inside, below])
    return np.column_stack([below, inside, above])


def shrinkage(result: pd.DataFrame) -> pd.DataFrame:
    """Every data set's difference before and after pooling, per pair of a result.

    Of a :func:`hierarchical` result: ``before`` is a data set's mean fold
    difference ``model_1 - model_2`` and ``after`` the posterior mean of its
    ``δ_i``, shrunk towards the mean difference by the model. Of a
    :func:`random_effects` result: ``before`` is the same mean fold
    difference, ``se`` its corrected standard error (what the forest plot
    draws), and ``after`` its empirical Bayes estimate under the
    random-effects model, ``mean_diff + tau2 / (tau2 + se²) (before −
    mean_diff)`` (Raudenbush & Bryk 1985; metafor's ``blup``).

    Parameters
    ----------
    result : pandas.DataFrame
        A result of :func:`hierarchical` or :func:`random_effects` (or
        ``pairwise(test=...)`` with either), also after a save: it reads the
        lists the result stores in ``attrs["pdcompare"]``.

    Returns
    -------
    pandas.DataFrame
        One row per pair and data set, the result's pairs in its row order
        and the data sets in the frame's order: ``model_1, model_2, dataset,
        before, after`` (and ``se`` for a random-effects result), in score
        units; NaN where a model has no scores on a data set (or the pair no
        result).

    Raises
    ------
    ValueError
        On any other frame, or a row whose pair the metadata does not hold.

    References
    ----------
    .. [1] S. Raudenbush and A. Bryk, "Empirical Bayes meta-analysis",
       Journal of Educational Statistics 10, 75-98, 1985.

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> bench = load_benchmark()
    >>> res = bench.cmp.hierarchical("svc_rbf", "forest", n_samples=1000, random_state=0)
    >>> table = shrinkage(res)
    >>> table.columns.tolist(), len(table)
    (['model_1', 'model_2', 'dataset', 'before', 'after'], 22)

    The shrunk differences lie closer together than the data sets' own:

    >>> bool(table["after"].std() < table["before"].std())
    True
    """
    info = results.result_info(result)
    keys = {"hierarchical": "shrunk", "random_effects": "differences_se"}
    key = keys.get(info.test)
    if key is None or not {"pairs", "datasets", "differences", key} <= info.stated:
        msg = (
            "`shrinkage` reads a result of `hierarchical` or `random_effects` (its attrs hold "
            "every data set's difference); got a frame without them. Run "
            "bench.cmp.hierarchical(...) or bench.cmp.random_effects(...) on a benchmark frame "
            "with folds, and pass the result it returns."
        )
        raise ValueError(msg)
    rows = _stored_rows(result, info.get("pairs"))
    datasets = list(info.get("datasets"))
    before = np.array(info.differences, dtype=float).reshape(-1, len(datasets))[rows]
    table = np.array(info.get(key), dtype=float).reshape(-1, len(datasets))[rows]
    columns: dict[str, Any] = {
        "model_1": np.repeat(results.column_values(result, "model_1"), len(datasets)),
        "model_2": np.repeat(results.column_values(result, "model_2"), len(datasets)),
        "dataset": np.tile(np.array(datasets, dtype=object), len(rows)),
        "before": before.ravel(),
    }
    if info.test == "hierarchical":
        columns["after"] = table.ravel()
        return pd.DataFrame(columns)
    mean = np.asarray(results.column_values(result, "mean_diff"), dtype=float)[:, None]
    tau2 = np.asarray(results.column_values(result, "tau2"), dtype=float)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        weight = np.where(tau2 > 0, tau2 / (tau2 + table**2), 0.0)
    columns["after"] = (mean + weight * (before - mean)).ravel()
    columns["se"] = table.ravel()
    return pd.DataFrame(columns)


def _stored_rows(result: pd.DataFrame, pairs: Any) -> np.ndarray:
    """Position in the stored ``pairs`` of every row's ``(model_1, model_2)``."""
    position = {tuple(pair): k for k, pair in enumerate(pairs)}
    rows = []
    for first, second in zip(
        results.column_values(result, "model_1"),
        results.column_values(result, "model_2"),
        strict=True,
    ):
        if (first, second) not in position:
            msg = (
                f"The result's row {first} vs {second} is not among the pairs its attrs hold "
                "(rows added to the result after the test): pass the result the test returned."
            )
            raise ValueError(msg)
        rows.append(position[first, second])
    return np.asarray(rows, dtype=np.intp)


def _warn(data, i, j, run, out, flags, rhat) -> None:
    """The warnings of :func:`hierarchical`: degenerate pairs, constant data sets, R-hat."""
    warn_pairs(
        data.names,
        i,
        j,
        [
            (
                flags["identical"],
                " have identical scores on every fold: the posterior is a point mass at 0 "
                "(prob_rope = 1 when the ROPE contains 0)",
            ),
            (
                flags["no_spread"],
                " differ by the same amount on every fold of each data set: without any "
                "within-data-set spread the model has no posterior; their results are NaN",
            ),
            (
                flags["too_few"],
                " have fewer than 2 data sets with at least 2 folds scored by both: their "
                "results are NaN",
            ),
        ],
    )
    floored = out["floored"]
    if floored.any():
        rows, cols = np.nonzero(floored)
        ii, jj = i[run], j[run]
        shown = [
            f"{data.names[ii[r]]} vs {data.names[jj[r]]} on {data.splits[c]}"
            for r, c in zip(rows, cols, strict=True)
        ]
        more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
        warn(
            f"The fold differences are the same on every fold for {'; '.join(shown[:5])}"
            f"{more}: with no spread that data set's sigma would run to 0. It is given the "
            "pair's smallest positive spread on another data set instead."
        )
    with np.errstate(invalid="ignore"):
        unconverged = rhat > RHAT_LIMIT
    if unconverged.any():
        warn(
            f"The chains disagree on the mean difference (R-hat of delta0 above {RHAT_LIMIT}) "
            f"for {pair_list(data.names, i, j, unconverged)}: pass a larger `n_samples` "
            "(and check `rhat` and `ess`)."
        )
