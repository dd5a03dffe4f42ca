"""The Bayesian signed-rank test across data sets (Benavoli et al. 2014), for ``bayes``.

On a benchmark frame ``bayes`` compares models on their per-data-set mean
scores with a Dirichlet process posterior, as ``baycomp.SignedRankTest``;
every pair in one vectorised pass from shared Dirichlet draws
(:mod:`pdcompare.stats.signed_rank_bayes`). A one-pair result keeps its
per-data-set differences and seed, from which :func:`simplex_samples` draws
the samples its simplex picture shows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_positive_int, check_random_state
from pdcompare.compare._common import decision_column, scores_meta, seed_of
from pdcompare.inputs.attrs import pdcompare_attrs
from pdcompare.stats.signed_rank_bayes import signed_rank_pairs, signed_rank_samples


def signed_rank_bayes(
    data: Any,
    a: Any,
    b: Any,
    rope: tuple[float, float],
    alpha: float,
    nan_policy: str,
    prior: float | None,
    n_samples: int | None,
    random_state: Any,
) -> pd.DataFrame:
    """The Bayesian signed-rank test of :func:`pdcompare.bayes` on a benchmark frame's data.

    ``data`` is the validated benchmark frame; the other arguments are those
    of ``bayes``, checked here (the rope must be symmetric, ``prior`` positive).
    """
    low, high = rope
    if low != -high:
        msg = (
            f"`rope` must be symmetric for the signed-rank test across data sets (a "
            f"half-width r, or (-r, r)); got ({low:g}, {high:g})."
        )
        raise ValueError(msg)
    prior = 0.5 if prior is None else prior
    if isinstance(prior, bool) or not isinstance(prior, int | float) or not prior > 0:
        msg = (
            "`prior` must be a positive number (the weight of the pseudo-observation); "
            f"got {prior!r}."
        )
        raise ValueError(msg)
    n_samples = check_positive_int(
        "n_samples", 50000 if n_samples is None else n_samples, minimum=100
    )
    rng = check_random_state(random_state)
    i, j, scope = data.pairs(a, b)
    data.nan_pairs(i, j, nan_policy)
    out = signed_rank_pairs(
        data.values,
        i,
        j,
        rope=high,
        prior=float(prior),
        n_samples=n_samples,
        alpha=alpha,
        greater_is_better=data.design.greater_is_better,
        random_state=rng,
        omit=nan_policy == "omit",
    )
    columns = {name: out[name] for name in ("mean_diff", "prob_better", "prob_rope", "prob_worse")}
    columns["decision"] = decision_column(data.names, i, j, out["decision"])
    fields = {}
    if scope == "pair":  # what the simplex plot of this one pair redraws its posterior from
        differences = data.values[i[0]] - data.values[j[0]]
        fields["differences"] = [None if np.isnan(d) else float(d) for d in differences]
    meta = scores_meta(
        "bayes",
        data,
        scope,
        method="signed_rank",
        rope=(low, high),
        alpha=alpha,
        prior=float(prior),
        n_samples=n_samples,
        random_state=seed_of(random_state),
        nan_policy=nan_policy,
        **fields,
    )
    return results.pair_result(data.names, i, j, columns, meta)


def simplex_samples(result: pd.DataFrame, n_points: int = 3000) -> np.ndarray:
    """Posterior samples of a one-pair Bayesian signed-rank result, for its simplex picture.

    The result keeps its per-data-set differences and its seed, so the
    samples are drawn again, the same on every call: ``n_points`` samples of
    the masses (model_1 better, practically equivalent, model_2 better).

    Parameters
    ----------
    result : pandas.DataFrame
        A one-pair result of ``bayes`` on a benchmark frame.
    n_points : int, default 3000
        Number of samples.

    Returns
    -------
    numpy.ndarray, shape (n_points, 3)

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> result = load_benchmark().cmp.bayes("svc_rbf", "forest", rope=0.01, random_state=0)
    >>> samples = simplex_samples(result, 100)
    >>> samples.shape, bool(np.allclose(samples.sum(axis=1), 1.0))
    ((100, 3), True)
    """
    meta = pdcompare_attrs(result)
    if meta.get("method") != "signed_rank" or len(result) != 1 or "differences" not in meta:
        msg = (
            "The simplex shows one pair of a Bayesian signed-rank result: "
            "bench.cmp.bayes(a, b, rope=...) on a benchmark frame, or "
            'bench.cmp.plot("simplex", a=..., b=..., rope=...).'
        )
        raise ValueError(msg)
    differences = np.array([np.nan if d is None else d for d in meta["differences"]], dtype=float)
    z = -differences if meta.get("greater_is_better", True) else differences
    return signed_rank_samples(
        z[None, :],
        rope=float(meta["rope"][1]),
        prior=meta.get("prior", 0.5),
        n_samples=n_points,
        random_state=check_random_state(meta.get("random_state")),
    )[:, 0, :]
