"""Error spending over planned looks: Lan–DeMets spending functions and their critical values.

A test read at ``K`` planned looks spends its ``alpha`` over them. Lan & DeMets
(1983) give each look the part ``alpha(t_k) − alpha(t_{k−1})`` of a spending
function of the information fraction ``t``; the critical value of look ``k`` is
the one at which a standard Brownian motion observed at ``t_1 < … < t_k``
first crosses, at look ``k``, with that probability. The probabilities are
computed by the recursive numerical integration of Armitage, McPherson & Rowe
(1969), on a grid (no lookup table).

The designs are two-sided and symmetric: each side spends ``alpha / 2`` by the
one-sided function (the convention of gsDesign and ldbounds):

- ``"pocock"``: Pocock-type, ``(alpha/2) · ln(1 + (e − 1) t)`` a side;
- ``"obf"``: O'Brien–Fleming-type, ``2 − 2 Φ(z_{alpha/4} / √t)`` a side;
- ``"bonferroni"``: ``alpha / K`` at every look (no recursion: the bound is
  ``z_{alpha / (2K)}``).

Pure numpy and scipy's normal distribution.
"""

from __future__ import annotations

import numpy as np

#: The spending rules offered.
SPENDING = ("pocock", "obf", "bonferroni")

# Grid of the integration: points per unit of the score's standard deviation.
_POINTS_PER_SD = 60


def upper_tail(z: np.ndarray | float) -> np.ndarray:
    """1 − Φ(z), accurate in the upper tail.

    Examples
    --------
    >>> round(float(upper_tail(1.959963984540054)), 6)
    0.025
    """
    from scipy import special  # on use: `import pdcompare` loads no scipy

    return 0.5 * special.erfc(np.asarray(z, dtype=float) / np.sqrt(2.0))


def _z_upper(p: float) -> float:
    """The upper-``p`` quantile of the standard normal."""
    from scipy import special  # on use: `import pdcompare` loads no scipy

    return float(-special.ndtri(p))


def spent(
    rule: str, t: np.ndarray | float, alpha: float, n_looks: int | None = None
) -> np.ndarray:
    """The two-sided error spent up to information fraction ``t`` (both sides together).

    Parameters
    ----------
    rule : {"pocock", "obf", "bonferroni"}
        The spending function.
    t : array_like
        Information fractions in (0, 1].
    alpha : float
        The two-sided level spent by ``t = 1``.
    n_looks : int, optional
        For ``"bonferroni"``: the number of planned looks (``alpha · k / K``
        after the ``k``-th, ``t = k / K``).

    Examples
    --------
    >>> np.round(spent("pocock", [0.2, 1.0], 0.05), 6).tolist()
    [0.01477, 0.05]
    >>> np.round(spent("obf", [0.2, 1.0], 0.05), 6).tolist()
    [1e-06, 0.05]
    """
    t = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
    if rule == "pocock":
        return alpha * np.log1p((np.e - 1.0) * t)
    if rule == "obf":
        with np.errstate(divide="ignore"):
            side = 2.0 * upper_tail(_z_upper(alpha / 4.0) / np.sqrt(t))
        return 2.0 * side
    if rule == "bonferroni":
        looks = 1 if n_looks is None else int(n_looks)
        return alpha * np.round(t * looks) / looks
    msg = f"`spending` must be one of {', '.join(map(repr, SPENDING))}; got {rule!r}."
    raise ValueError(msg)


def _cross_probability(density: np.ndarray, grid: np.ndarray, weights, sd: float, bound: float):
    """P(|S_k| ≥ bound and no earlier crossing), S_k = S_{k−1} + N(0, sd²)."""
    upper = upper_tail((bound - grid) / sd)
    lower = upper_tail((bound + grid) / sd)
    return float(np.sum(weights * density * (upper + lower)))


def _excess(c: float, density, grid, weights, sd: float, root_t: float, share: float) -> float:
    """The crossing probability at bound ``c`` (z scale) less the look's share of alpha."""
    return _cross_probability(density, grid, weights, sd, c * root_t) - share


def _simpson(lo: float, hi: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Points and weights of Simpson's rule on [lo, hi] with ``n`` (odd) points."""
    grid = np.linspace(lo, hi, n)
    w = np.ones(n)
    w[1:-1:2], w[2:-1:2] = 4.0, 2.0
    return grid, w * (hi - lo) / (3.0 * (n - 1))


def critical_values(
    fractions: np.ndarray | list[float], alpha: float = 0.05, rule: str = "obf"
) -> np.ndarray:
    """Two-sided critical values (z scale) of the planned looks, by error spending.

    Parameters
    ----------
    fractions : array_like
        The information fractions ``0 < t_1 < … < t_K ≤ 1`` of the looks.
    alpha : float
        The two-sided level spent over the looks (each side ``alpha / 2``).
    rule : {"pocock", "obf", "bonferroni"}
        The spending function (see the module's docstring).

    Returns
    -------
    ndarray of shape (K,)
        ``c_k``: reject at look ``k`` when ``|Z_k| ≥ c_k``. A look whose share
        of alpha is (numerically) nil gets ``inf``.

    Notes
    -----
    The score ``S_k = Z_k √t_k`` has independent normal increments of variance
    ``t_k − t_{k−1}``. Its density on the continuation region is carried from
    look to look on a Simpson grid (Armitage, McPherson & Rowe 1969; Jennison &
    Turnbull 2000, ch. 19), and ``c_k`` solves
    ``P(no crossing before k, |Z_k| ≥ c_k) = α(t_k) − α(t_{k−1})`` by Brent's
    method.

    Examples
    --------
    >>> np.round(critical_values([0.2, 0.4, 0.6, 0.8, 1.0], 0.05, "pocock"), 3).tolist()
    [2.438, 2.427, 2.41, 2.397, 2.386]
    >>> np.round(critical_values([0.2, 0.4, 0.6, 0.8, 1.0], 0.05, "obf"), 3).tolist()
    [4.877, 3.357, 2.68, 2.29, 2.031]
    """
    from scipy import optimize  # on use: `import pdcompare` stays light

    t = np.asarray(fractions, dtype=float)
    if t.ndim != 1 or t.size == 0 or (np.diff(t) <= 0).any() or t[0] <= 0 or t[-1] > 1:
        msg = "`fractions` must increase strictly within (0, 1]."
        raise ValueError(msg)
    if rule == "bonferroni":
        return np.full(t.size, _z_upper(alpha / (2.0 * t.size)))
    cumulative = spent(rule, t, alpha)
    shares = np.diff(cumulative, prepend=0.0)
    bounds = np.empty(t.size)
    grid, weights = np.zeros(1), np.ones(1)
    density = np.ones(1)  # a point mass at S_0 = 0
    previous = 0.0
    for k, (tk, share) in enumerate(zip(t, shares, strict=True)):
        sd = np.sqrt(tk - previous)
        if share <= 1e-15:
            bounds[k] = np.inf
        else:
            bounds[k] = optimize.brentq(
                _excess,
                0.0,
                40.0,
                args=(density, grid, weights, sd, np.sqrt(tk), share),
                xtol=1e-10,
            )
        if k + 1 < t.size:
            edge = min(bounds[k], 12.0) * np.sqrt(tk)
            n = 2 * int(np.ceil(_POINTS_PER_SD * edge / min(sd, 1.0))) + 1
            new_grid, new_weights = _simpson(-edge, edge, max(n, 21))
            z = (new_grid[:, None] - grid[None, :]) / sd
            kernel = np.exp(-0.5 * z * z) / (sd * np.sqrt(2.0 * np.pi))
            density = kernel @ (weights * density)
            grid, weights = new_grid, new_weights
        previous = tk
    return bounds


def look_levels(n_looks: int, alpha: float = 0.05, rule: str = "obf") -> np.ndarray:
    """The two-sided nominal level of each of ``n_looks`` equally spaced looks.

    ``2 (1 − Φ(c_k))`` of :func:`critical_values` at ``t_k = k / K``: the level a
    p-value is compared with at look ``k`` (with the t statistics of few
    splits, the normal bound's tail probability read on the t's p-value).

    Examples
    --------
    >>> np.round(look_levels(3, 0.05, "bonferroni"), 6).tolist()
    [0.016667, 0.016667, 0.016667]
    >>> np.round(look_levels(1, 0.05, "pocock"), 6).tolist()
    [0.05]
    """
    fractions = np.arange(1, int(n_looks) + 1) / int(n_looks)
    return 2.0 * upper_tail(critical_values(fractions, alpha, rule))
