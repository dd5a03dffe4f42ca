"""Ratings from battles: Bradley–Terry ratings, win probabilities and pairwise z tests."""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    OptionError,
    check_correction,
    check_fraction,
    check_option,
    check_random_state,
    warn,
)
from pdcompare.compare._common import seed_of
from pdcompare.compare.calls import comparison
from pdcompare.inputs.battles import BattlesData, battles_data
from pdcompare.stats import _special as special
from pdcompare.stats import bradley_terry as bt
from pdcompare.stats.rank_sets import rank_confidence_sets

TIES = ("half", "davidson")


@dataclass(frozen=True)
class _Fit:
    data: BattlesData
    rating: np.ndarray  # in the frame's model order
    covariance: np.ndarray  # of the ratings
    draws: np.ndarray  # (n_resamples, m) resampled ratings, NaN where left out
    nu: float | None
    order: np.ndarray  # best first
    meta: dict[str, Any]


def _shown(names) -> str:
    names = [str(n) for n in names]
    return ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")


def _refuse_infinite(data: BattlesData) -> None:
    """A ValueError naming the models (or pieces) without a finite maximum-likelihood rating."""
    names = data.names
    beats = data.wins + data.ties
    weak, strong = bt.components(beats)
    if weak.max() > 0:
        pieces = ["{" + _shown(names[weak == k]) + "}" for k in range(weak.max() + 1)]
        msg = (
            f"The battles fall into {len(pieces)} pieces that never meet: "
            f"{'; '.join(pieces[:6])}. "
            "Ratings in different pieces cannot be compared; add battles between the pieces, "
            "or rate each piece on its own."
        )
        raise ValueError(msg)
    if strong.max() == 0:
        return
    k = strong.max() + 1
    outside = strong[:, None] != strong[None, :]
    loses = np.zeros(k, dtype=bool)
    wins = np.zeros(k, dtype=bool)
    np.logical_or.at(loses, strong, (beats.T * outside).sum(axis=1) > 0)
    np.logical_or.at(wins, strong, (beats * outside).sum(axis=1) > 0)
    parts = []
    for group in range(k):
        inside = strong == group
        members = _shown(names[inside])
        against = round(float((beats + beats.T)[inside][:, ~inside].sum()))
        count = f"all {against:,} of {'its' if inside.sum() == 1 else 'their'} battles with them"
        if not loses[group]:
            parts.append(f"{{{members}}} only won against the others ({count})")
        elif not wins[group]:
            parts.append(f"{{{members}}} only lost against the others ({count})")
    msg = (
        f"No finite Bradley–Terry rating: {'; '.join(parts)}, so their ratings would run to "
        "infinity. Add battles they lost (won), or leave them out of the table."
    )
    raise ValueError(msg)


def _refuse_davidson(data: BattlesData) -> None:
    """The OptionError for battles whose Davidson fit runs to infinity (ties bound no rating)."""
    names = data.names
    if data.wins.sum() == 0:
        reason = "every battle is a tie, so the rate of ties ν would be infinite"
    else:
        never_lost = names[(data.wins.sum(axis=0) == 0) & (data.wins.sum(axis=1) > 0)]
        never_won = names[(data.wins.sum(axis=1) == 0) & (data.wins.sum(axis=0) > 0)]
        one_sided = [f"{_shown(never_lost)} never lost"] if len(never_lost) else []
        one_sided += [f"{_shown(never_won)} never won"] if len(never_won) else []
        reason = (
            f"{' and '.join(one_sided) or 'no cycle of wins outweighs the ties'}; Davidson's "
            "ties do not bound the ratings (with two models π_A/π_B = wins/losses), so ν and "
            "the ratings would run to infinity"
        )
    msg = f"`ties='davidson'` has no finite fit for these battles: {reason}. Use `ties='half'`."
    raise OptionError(msg, keyword="ties")


def _check_options(ties, scale, base, init, anchor, names) -> tuple[float, float, float]:
    check_option("ties", ties, TIES)
    numbers_ = {"scale": scale, "base": base, "init": init}
    for key, value in numbers_.items():
        if (
            not isinstance(value, numbers.Real)
            or isinstance(value, bool)
            or not np.isfinite(value)
        ):
            msg = f"`{key}` must be a finite number; got {value!r}."
            raise (
                TypeError(msg)
                if not isinstance(value, numbers.Real)
                else OptionError(msg, keyword=key)
            )
    if scale <= 0:
        msg_0 = f"`scale` must be positive (400 on the Elo scale); got {scale!r}."
        raise OptionError(msg_0, keyword="scale")
    if base <= 0 or base == 1:
        msg_0 = f"`base` must be positive and not 1 (10 on the Elo scale); got {base!r}."
        raise OptionError(msg_0, keyword="base")
    if anchor is not None:
        if not isinstance(anchor, tuple | list) or len(anchor) != 2:
            msg = f"`anchor` must be a pair (model, rating), such as ('a', 1000); got {anchor!r}."
            raise TypeError(msg)
        if anchor[0] not in names:
            msg = f"`anchor`: model {anchor[0]!r} is not in the battles; models: {_shown(names)}."
            raise OptionError(msg, keyword="anchor")
        if not isinstance(anchor[1], numbers.Real) or not np.isfinite(anchor[1]):
            msg = f"`anchor`: the rating must be a finite number; got {anchor[1]!r}."
            raise OptionError(msg, keyword="anchor")
    return float(scale), float(base), float(init)


def _fit(frame, *, ties, scale, base, init, anchor, ci, n_resamples, random_state) -> _Fit:
    data = battles_data(frame)
    scale, base, init = _check_options(ties, scale, base, init, anchor, data.names)
    ci = check_fraction("ci", ci)
    if (
        not isinstance(n_resamples, numbers.Integral)
        or isinstance(n_resamples, bool)
        or (n_resamples < 1)
    ):
        msg = f"`n_resamples` must be a positive int; got {n_resamples!r}."
        raise OptionError(msg, keyword="n_resamples")
    rng = check_random_state(random_state)
    davidson = ties == "davidson"
    if davidson and data.ties.sum() == 0:
        msg = (
            "`ties='davidson'` fits the rate of ties, but these battles have no tie; "
            "use `ties='half'`."
        )
        raise OptionError(msg, keyword="ties")
    _refuse_infinite(data)
    if davidson and not bt.davidson_finite(data.wins, data.ties):
        _refuse_davidson(data)
    m = len(data.names)
    params, info, ok = bt.newton(data.wins[None], data.ties[None], davidson=davidson)
    if not ok[0]:
        msg = "The Bradley–Terry fit did not converge; please report these battles."
        raise RuntimeError(msg)
    unit = scale / np.log(base)
    theta = params[0, :m]
    shift = init
    if anchor is not None:
        shift = float(anchor[1]) - unit * theta[data.names.get_loc(anchor[0])]
    rating = shift + unit * theta
    cov = unit**2 * bt.covariance(info[0], m)
    draws = bt.resampled_fits(
        data.wins,
        data.ties,
        params[0],
        info[0],
        n_rounds=int(n_resamples),
        rng=rng,
        davidson=davidson,
    )
    if anchor is None:
        draws = init + unit * draws
    else:
        k = data.names.get_loc(anchor[0])
        draws = float(anchor[1]) + unit * (draws - draws[:, k : k + 1])
    order = np.lexsort((np.arange(m), -rating))
    nu = float(np.exp(params[0, m])) if davidson else None
    meta = results.result_meta(
        "bradley_terry",
        ties=ties,
        scale=scale,
        base=base,
        init=init,
        anchor=None if anchor is None else [anchor[0], float(anchor[1])],
        ci=ci,
        n_resamples=int(n_resamples),
        random_state=seed_of(random_state),
        nu=nu,
        covariance="inverse Fisher information",
        unit="battles",
        higher_is_better=True,
        greater_is_better=True,
        models=list(data.names[order]),
    )
    return _Fit(data, rating, cov, draws, nu, order, meta)


def _percentiles(draws: np.ndarray, ci: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Percentile interval of each column over its finite rounds, and how many there are."""
    finite = np.isfinite(draws)
    n = finite.sum(axis=0)
    low = np.full(draws.shape[1], np.nan)
    high = np.full(draws.shape[1], np.nan)
    cols = np.flatnonzero(n > 0)
    if cols.size:
        q = np.nanquantile(draws[:, cols], [(1 - ci) / 2, (1 + ci) / 2], axis=0)
        low[cols], high[cols] = q
    return low, high, n


@comparison("bradley_terry")
def bradley_terry(
    frame: pd.DataFrame,
    *,
    ties: str = "half",
    scale: float = 400,
    base: float = 10,
    init: float = 1000,
    anchor: tuple[Any, float] | None = None,
    ci: float = 0.95,
    n_resamples: int = 1000,
    random_state: Any = None,
) -> pd.DataFrame:
    """Maximum-likelihood Bradley–Terry ratings of a battles frame, with intervals and rank sets.

    rating = init + scale · θ / ln(base), with P(i beats j) = 1 / (1 + base^((R_j − R_i)/scale))
    and θ summing to zero over the models (or the ratings shifted so that
    ``anchor=(model, rating)`` holds). The fit is Newton's method on the m × m
    win matrix, so its cost does not grow with the number of battles.

    Parameters
    ----------
    frame : pandas.DataFrame
        A battles frame (:func:`pdcompare.from_battles`).
    ties : {"half", "davidson"}, default "half"
        "half" counts a tie as half a win for each model (the Chatbot Arena
        convention); "davidson" fits Davidson's tie parameter ν
        (``attrs["pdcompare"]["nu"]``).
    scale, base, init : float, default 400, 10, 1000
        The Elo scale.
    anchor : (model, rating), optional
        Pin one model's rating instead of centring on ``init``.
    ci : float, default 0.95
        Level of the intervals and the coverage of the rank sets.
    n_resamples : int, default 1000
        Bootstrap rounds: every pair's battles drawn again (one multinomial
        draw of its number of battles over i wins, j wins, tie) and refitted,
        all rounds at once.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best first: ``rating, ci_low, ci_high`` (percentile
        bootstrap interval), ``rank, rank_low, rank_high`` (simultaneous rank
        confidence sets from the inverse Fisher information, DESIGN 22),
        ``n_battles`` (ties included) and ``n_rounds``: the bootstrap rounds
        the interval rests on (a round in which a model only won or only lost
        has no finite rating for it and leaves it out); ``interval``:
        ``"bootstrap"``, or ``"fisher"`` for a model whose pairs are all
        unanimous (or of one battle each): resampling redraws its battles
        unchanged, so its interval is the normal one, rating ± z·se from the
        inverse Fisher information, and a warning names it.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wins = pd.DataFrame([[0, 6, 7], [4, 0, 6], [3, 4, 0]], index=list("ABC"),
    ...                     columns=list("ABC"))
    >>> pdcompare.bradley_terry(wins, random_state=0)["rating"].round(3).tolist()
    [1072.449, 1000.0, 927.551]
    """
    fit = _fit(
        frame,
        ties=ties,
        scale=scale,
        base=base,
        init=init,
        anchor=anchor,
        ci=ci,
        n_resamples=n_resamples,
        random_state=random_state,
    )
    ci = fit.meta["ci"]
    low, high, n_rounds = _percentiles(fit.draws, ci)
    fisher = bt.unanimous_models(fit.data.wins, fit.data.ties)
    if fisher.any():
        low, high = _fisher_intervals(fit, fisher, low, high, anchor)
    rank, rank_low, rank_high = rank_confidence_sets(
        fit.rating,
        fit.covariance,
        coverage=ci,
        random_state=check_random_state(random_state) if random_state is not None else None,
    )
    columns = {
        "rating": fit.rating,
        "ci_low": low,
        "ci_high": high,
        "rank": rank.astype(np.int64),
        "rank_low": rank_low.astype(np.int64),
        "rank_high": rank_high.astype(np.int64),
        "n_battles": fit.data.n_battles.round().astype(np.int64),
        "n_rounds": n_rounds.astype(np.int64),
        "interval": np.where(fisher, "fisher", "bootstrap"),
    }
    return results.model_result(fit.data.names, columns, fit.meta).iloc[fit.order]


def _fisher_intervals(fit: _Fit, fisher, low, high, anchor) -> tuple[np.ndarray, np.ndarray]:
    """Normal intervals (rating ± z·se, inverse Fisher information) for the models ``fisher``.

    Their pairs are all unanimous, so every bootstrap round redraws the same
    battles for them and the percentile interval has no width. Warns naming them.
    """
    cov = fit.covariance
    variance = np.diag(cov).copy()
    if anchor is not None:  # the variance of R_i − R_anchor
        k = fit.data.names.get_loc(anchor[0])
        variance = variance + cov[k, k] - 2 * cov[:, k]
    half = special.ndtri((1 + fit.meta["ci"]) / 2) * np.sqrt(np.maximum(variance, 0.0))
    low = np.where(fisher, fit.rating - half, low)
    high = np.where(fisher, fit.rating + half, high)
    names = _shown(fit.data.names[fisher])
    warn(
        f"Every pair of {names} is unanimous or of one battle, so resampling cannot vary "
        "their battles: their intervals are normal ones from the Fisher information "
        "(column `interval`)."
    )
    return low, high


@comparison("win_probability")
def win_probability(
    frame: pd.DataFrame,
    *,
    ties: str = "half",
    scale: float = 400,
    base: float = 10,
    ci: float = 0.95,
    n_resamples: int = 1000,
    random_state: Any = None,
) -> pd.DataFrame:
    """Probability that model_1 beats model_2, for every ordered pair, with bootstrap intervals.

    prob = 1 / (1 + base^((R_2 − R_1)/scale)) from the Bradley–Terry ratings
    (:func:`bradley_terry`); the interval is the percentile interval of that
    probability over the bootstrap rounds in which both models have a rating.
    ``.cmp.matrix("prob")`` gives the square form.

    Parameters
    ----------
    frame : pandas.DataFrame
        A battles frame (:func:`pdcompare.from_battles`).
    ties, scale, base, ci, n_resamples, random_state
        As in :func:`bradley_terry`.

    Returns
    -------
    pandas.DataFrame
        ``model_1, model_2, prob, ci_low, ci_high``, one row per ordered pair, best first.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wins = pd.DataFrame([[0, 3], [1, 0]], index=["A", "B"], columns=["A", "B"])
    >>> pdcompare.win_probability(wins, random_state=0)[["model_1", "model_2", "prob"]]
      model_1 model_2  prob
    0       A       B  0.75
    1       B       A  0.25
    """
    fit = _fit(
        frame,
        ties=ties,
        scale=scale,
        base=base,
        init=1000.0,
        anchor=None,
        ci=ci,
        n_resamples=n_resamples,
        random_state=random_state,
    )
    m = len(fit.order)
    a, b = np.meshgrid(fit.order, fit.order, indexing="ij")
    off = a != b
    i, j = a[off], b[off]
    prob = 1.0 / (1.0 + base ** ((fit.rating[j] - fit.rating[i]) / scale))
    draws = 1.0 / (1.0 + base ** ((fit.draws[:, j] - fit.draws[:, i]) / scale))
    low, high, _ = _percentiles(draws, fit.meta["ci"])
    meta = {**fit.meta, "test": "win_probability", "scope": "all_ordered_pairs"}
    del m
    return results.pair_result(
        fit.data.names, i, j, {"prob": prob, "ci_low": low, "ci_high": high}, meta
    )


@comparison("bradley_terry_z")
def battles_pairwise(
    frame: pd.DataFrame,
    *,
    ties: str = "half",
    correction: str | None = "holm",
    alpha: float = 0.05,
    scale: float = 400,
    base: float = 10,
) -> pd.DataFrame:
    """Every pair of a battles frame, best first: a normal z test on the rating difference.

    rating_diff = R_1 − R_2 (rating units), se from the inverse Fisher
    information, statistic = rating_diff / se, a two-sided normal p-value,
    corrected over all pairs (``correction``, section 4). This is what
    ``pairwise()`` runs on a battles frame.

    Examples
    --------
    >>> import pandas as pd
    >>> wins = pd.DataFrame([[0, 30], [10, 0]], index=["A", "B"], columns=["A", "B"])
    >>> res = battles_pairwise(wins)
    >>> round(float(res["statistic"][0]), 4)   # ln 3 / sqrt(1/30 + 1/10)
    3.0087
    """
    alpha = check_fraction("alpha", alpha)
    correction = check_correction("holm" if correction == "default" else correction)
    fit = _fit(
        frame,
        ties=ties,
        scale=scale,
        base=base,
        init=1000.0,
        anchor=None,
        ci=0.95,
        n_resamples=1,
        random_state=0,
    )
    order = fit.order
    r, c = np.triu_indices(len(order), 1)
    i, j = order[r], order[c]
    diff = fit.rating[i] - fit.rating[j]
    cov = fit.covariance
    se = np.sqrt(np.maximum(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = diff / se
    pvalue = 2 * special.ndtr(-np.abs(z))
    meta = {
        **fit.meta,
        "test": "bradley_terry_z",
        "scope": "all_pairs",
        "alpha": alpha,
        "correction": correction,
        "alternative": "two-sided",
    }
    for key in ("ci", "n_resamples", "random_state"):
        meta.pop(key)
    columns = {"rating_diff": diff, "se": se, "statistic": z, "pvalue": pvalue}
    return results.pair_result(
        fit.data.names, i, j, columns, meta, correction=correction, alpha=alpha
    )


def rating_covariance(data: BattlesData) -> tuple[np.ndarray, np.ndarray]:
    """Bradley–Terry ratings (ties as halves, Elo scale) and their inverse-Fisher covariance.

    What ``ranks()`` and ``top_set()`` rest on for a battles frame (DESIGN section 22).

    Examples
    --------
    >>> import pandas as pd
    >>> from pdcompare.inputs.battles import battles_data
    >>> wins = pd.DataFrame([[0, 30], [10, 0]], index=["A", "B"], columns=["A", "B"])
    >>> rating, cov = rating_covariance(battles_data(wins))
    >>> variance = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]   # (400 / ln 10)² (1/30 + 1/10)
    >>> round(float(rating[0] - rating[1]), 4), round(float(variance), 1)
    (190.8485, 4023.7)
    """
    _refuse_infinite(data)
    m = len(data.names)
    params, info, _ = bt.newton(data.wins[None], data.ties[None])
    unit = 400 / np.log(10)
    return 1000 + unit * params[0], unit**2 * bt.covariance(info[0], m)
