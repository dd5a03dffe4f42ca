"""Anytime-valid comparisons of paired streams: confidence sequences and e-processes.

Each pair's stream is the sequence of its unit differences (an item, or a
cluster of items: its summed difference and its size). After every unit the
interval is valid simultaneously over all looks:

- ``normal_mixture``: the asymptotic confidence sequence of Waudby-Smith,
  Arbour, Sinha, Kennedy & Ramdas (2024, "Time-uniform central limit theory and
  asymptotic confidence sequences", Ann. Statist.), half-width
  ``σ̂_t √(2(tρ² + 1)/(t²ρ²) · ln(√(tρ² + 1)/α))`` on ``t`` units, ``ρ``
  minimising it at the planned number of units. With clusters, ``σ̂_t`` is the
  standard deviation of the linearised ratio residuals ``s_c − m_t n_c`` (the
  CR-type variance of the item mean) and the half-width is divided by the mean
  cluster size.
- ``betting``: the hedged-capital confidence sequence of Waudby-Smith & Ramdas
  (2024, "Estimating means of bounded random variables by betting", JRSS B)
  for observations in [0, 1] (differences mapped by ``(d + 1) / 2``), on a
  grid of candidate means, with predictable plug-in bets: tuned to the planned
  number of units ``n`` when one is given (``λ_t = √(2 ln(2/α)/(σ̂²_{t−1} n))``,
  their fixed-n choice; any predictable bet keeps the sequence valid at every
  look, and this one is tightest near ``n``), else to every ``t`` (their eq. 26,
  ``√(2 ln(2/α)/(σ̂²_{t−1} t ln(1 + t)))``); bets capped at ¾ of what keeps the
  capital positive (their ``c``).
- ``evalue``: on binary items, the discordant-pair e-process
  ``E = 2^(b+c) B(b + ½, c + ½) / B(½, ½)`` (the Jeffreys mixture of the
  likelihood ratio against ``p = ½`` among discordant items).

All pairs at once: running sums along the units in chunks of pairs (no loop
per pair or per look). Pure numpy and scipy's special functions.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

#: The boundaries offered.
BOUNDARIES = ("normal_mixture", "betting", "evalue")

#: Decision codes: continue, model_1 better, model_1 worse, equivalent (within the margin).
CONTINUE, BETTER, WORSE, EQUIVALENT = 0, 1, 2, 3

# Elements (pairs x units, times the grid for betting) computed at once.
_CHUNK = 1 << 19
# Points of the grid of candidate means of the betting sequence and the e-value's interval.
_GRID = 401
# The largest bet (Waudby-Smith & Ramdas's c, who suggest 1/2 or 3/4): at 1/2 the cap binds
# on low-variance streams (cluster means): with the planned-n bets the width at planned_n is
# 1.86x the fixed-n interval's at 1/2 and 1.56x at 3/4 (benchmarks/validity_sequential.py).
_MAX_BET = 0.75


def _mixture_factor(t: np.ndarray, rho2: float, alpha: float) -> np.ndarray:
    """√(2(tρ² + 1)/(t²ρ²) · ln(√(tρ² + 1)/α)): the half-width over σ̂."""
    t = np.asarray(t, dtype=float)
    a = t * rho2 + 1.0
    return np.sqrt(2.0 * a / (t * t * rho2) * (0.5 * np.log(a) - np.log(alpha)))


def mixture_rho(planned_n: int, alpha: float = 0.05) -> float:
    """The ρ whose normal-mixture boundary is tightest after ``planned_n`` units.

    Found by minimising the half-width numerically (on ln ρ), not by the
    paper's closed-form approximation.

    Examples
    --------
    >>> round(mixture_rho(500, 0.05), 5)
    0.12816
    """
    from scipy import optimize  # on use: `import pdcompare` stays light

    n = float(planned_n)

    def width(log_rho: float) -> float:
        return float(_mixture_factor(np.array([n]), np.exp(2.0 * log_rho), alpha)[0])

    found = optimize.minimize_scalar(width, bounds=(-20.0, 10.0), method="bounded",
                                     options={"xatol": 1e-10})  # fmt: skip
    return float(np.exp(found.x))


def mixture_half_width(t: np.ndarray, sigma: np.ndarray, rho: float, alpha: float) -> np.ndarray:
    """The normal-mixture half-width after ``t`` units, ``σ̂_t`` times the boundary factor.

    Examples
    --------
    >>> t = np.array([100.0])
    >>> rho = mixture_rho(100, 0.05)
    >>> expected = np.sqrt(2 * (t * rho**2 + 1) / (t**2 * rho**2)
    ...                    * np.log(np.sqrt(t * rho**2 + 1) / 0.05))
    >>> bool(np.allclose(mixture_half_width(t, 1.0, rho, 0.05), expected))
    True
    """
    return np.asarray(sigma, dtype=float) * _mixture_factor(t, rho * rho, alpha)


def discordant_evalue(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The discordant-pair e-process ``2^(b+c) B(b+½, c+½)/B(½, ½)``.

    Examples
    --------
    >>> discordant_evalue(np.array([9, 20]), np.array([1, 5])).round(8).tolist()
    [9.49609375, 19.48528075]
    """
    return np.exp(_log_evalue(np.asarray(b, float), np.asarray(c, float)))


def _log_evalue(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    from scipy import special  # on use: `import pdcompare` loads no scipy

    return (b + c) * np.log(2.0) + special.betaln(b + 0.5, c + 0.5) - special.betaln(0.5, 0.5)


def ebh(evalues: np.ndarray, alpha: float) -> np.ndarray:
    """e-BH (Wang & Ramdas 2022) along the last axis: which hypotheses are rejected.

    The ``k*`` largest e-values are rejected, ``k*`` the largest ``k`` with
    ``e_(k) ≥ P / (α k)`` (``P`` hypotheses, ``e_(k)`` the k-th largest).

    Examples
    --------
    >>> ebh(np.array([50.0, 30.0, 1.0, 25.0]), 0.1).tolist()
    [True, True, False, True]
    """
    e = np.asarray(evalues, dtype=float)
    p = e.shape[-1]
    ranked = -np.sort(-e, axis=-1)
    k = np.arange(1, p + 1)
    passes = ranked * alpha * k >= p
    count = np.where(passes.any(axis=-1), p - np.argmax(passes[..., ::-1], axis=-1), 0)
    threshold = np.take_along_axis(ranked, np.maximum(count - 1, 0)[..., None], axis=-1)
    return (e >= threshold) & (count[..., None] > 0)


class Paths(NamedTuple):
    """Every look of a chunk of pairs: running mean and interval (shape pairs x units)."""

    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray


def _running(values: np.ndarray, carry: dict, key: str) -> np.ndarray:
    """Running sums of ``values`` along the units, continuing ``carry[key]``; carry updated."""
    out = np.cumsum(values, axis=-1)
    if key in carry:
        out += carry[key][..., None]
    carry[key] = out[..., -1].copy()
    return out


def _units(carry: dict, shape: tuple[int, ...]) -> np.ndarray:
    """The unit counts ``t`` of the new looks, after the ``carry["t"]`` units already read."""
    before = int(carry.get("t", 0))
    carry["t"] = before + shape[-1]
    return np.arange(before + 1, before + shape[-1] + 1, dtype=float)


class Running(NamedTuple):
    """Running sums of a chunk of pair streams: ``t`` (units), ``s1``, ``s2`` (pairs x units).

    With clusters also ``n1``, ``n2`` (running sums of the sizes and their
    squares, per unit) and ``sn`` (of sum x size, pairs x units); else None.
    """

    t: np.ndarray
    s1: np.ndarray
    s2: np.ndarray
    n1: np.ndarray | None = None
    n2: np.ndarray | None = None
    sn: np.ndarray | None = None


def running_sums(sums: np.ndarray, sizes: np.ndarray | None, carry: dict | None = None) -> Running:
    """The running sums the normal-mixture sequence reads, continuing ``carry`` (updated)."""
    carry = {} if carry is None else carry
    sums = np.asarray(sums, dtype=float)
    t = _units(carry, sums.shape)
    s1 = _running(sums, carry, "s1")
    s2 = _running(sums * sums, carry, "s2")
    if sizes is None:
        return Running(t, s1, s2)
    sizes = np.asarray(sizes, dtype=float)
    n1 = _running(sizes, carry, "n1")
    n2 = _running(sizes * sizes, carry, "n2")
    return Running(t, s1, s2, n1, n2, _running(sums * sizes, carry, "sn"))


def mixture_paths_at(run: Running, columns, alpha: float, rho: float) -> Paths:
    """The normal-mixture interval at the ``columns`` (an index or slice) of the running sums."""
    t = run.t[columns]
    s1, s2 = run.s1[..., columns], run.s2[..., columns]
    if run.n1 is None:
        n1 = t
        mean = s1 / t
        residual = np.maximum(s2 - mean * s1, 0.0)
    else:
        n1 = run.n1[columns]
        mean = s1 / n1
        sn = run.sn[..., columns]
        residual = np.maximum(s2 - 2.0 * mean * sn + mean * mean * run.n2[columns], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma = np.sqrt(residual / (t - 1.0))
        half = mixture_half_width(t, sigma, rho, alpha) * (t / n1)
    half = np.where(t > 1, half, np.nan)
    return Paths(mean, mean - half, mean + half)


def first_mixture_decision(
    run: Running, start: int, alpha: float, rho: float, greater_is_better: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The first look from ``start`` (0-based, ≥ 1) at which the interval excludes 0.

    Without clusters or margin the test needs no interval: ``|mean| > half``
    is ``s1² > g(t) s2`` with ``g = (f²/(t−1)) / (1/t² + f²/(t(t−1)))``, ``f``
    the boundary factor, which saves most of the arithmetic on all pairs.
    Returns the codes and looks as :func:`first_decision`.

    Examples
    --------
    >>> d = np.array([[1.0, 1.0, 0.0] * 40, [1.0, -1.0, 0.0] * 40])
    >>> run = running_sums(d, None)
    >>> code, at = first_mixture_decision(run, 1, 0.05, mixture_rho(120), True)
    >>> p = normal_mixture_paths(d, None, 0.05, mixture_rho(120))
    >>> expected = first_decision(interval_codes(p, None, True)[:, 1:], 1)
    >>> code.tolist() == expected[0].tolist(), at.tolist() == expected[1].tolist()
    (True, True)
    """
    t = run.t[start:]
    f2 = _mixture_factor(t, rho * rho, alpha) ** 2
    g = (f2 / (t - 1.0)) / (1.0 / (t * t) + f2 / (t * (t - 1.0)))
    s1 = run.s1[..., start:]
    decided = s1 * s1 > g * run.s2[..., start:]
    first = np.argmax(decided, axis=-1)[..., None]
    reached = np.take_along_axis(decided, first, axis=-1)[..., 0]
    up = np.take_along_axis(s1, first, axis=-1)[..., 0] > 0
    if not greater_is_better:
        up = ~up
    code = np.where(reached, np.where(up, BETTER, WORSE), CONTINUE)
    return code, np.where(reached, first[..., 0] + start + 1, 0)


def normal_mixture_paths(
    sums: np.ndarray, sizes: np.ndarray | None, alpha: float, rho: float, carry: dict | None = None
) -> Paths:
    """The normal-mixture sequence of each row of unit sums ``sums`` (pairs x units).

    ``sizes`` are the units' item counts (None: one item each). The mean is
    the running item mean ``Σ s / Σ n``; before the second unit the interval
    is NaN. ``carry`` (a dict, updated in place) holds the running sums of
    the units read before, so a stream can be read in pieces.

    Examples
    --------
    >>> d = np.array([[1.0, 0.0, 1.0, 1.0, 0.0, 1.0]])
    >>> p = normal_mixture_paths(d, None, 0.05, mixture_rho(6))
    >>> round(float(p.mean[0, -1]), 6), bool(p.low[0, -1] < p.mean[0, -1] < p.high[0, -1])
    (0.666667, True)
    """
    return mixture_paths_at(running_sums(sums, sizes, carry), slice(None), alpha, rho)


def _bets(
    x: np.ndarray, alpha: float, carry: dict, planned_n: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The predictable bets λ_t of Waudby-Smith & Ramdas (2024), and the running mean.

    Tuned to ``planned_n`` units when given (their fixed-n bets), else to every
    ``t`` (eq. 26).
    """
    t = _units(carry, x.shape)
    total = _running(x, carry, "sum")
    mu = (0.5 + total) / (t + 1.0)
    var = (0.25 + _running((x - mu) ** 2, carry, "squares")) / (t + 1.0)
    first = carry.get("var", np.full(x.shape[:-1], 0.25))
    previous = np.concatenate([np.asarray(first)[..., None], var[..., :-1]], axis=-1)
    carry["var"] = var[..., -1].copy()
    horizon = t * np.log1p(t) if planned_n is None else float(planned_n)
    lam = np.sqrt(2.0 * np.log(2.0 / alpha) / (previous * horizon))
    return lam, total / t


def betting_paths(
    x: np.ndarray,
    alpha: float,
    grid: int = _GRID,
    carry: dict | None = None,
    planned_n: int | None = None,
) -> Paths:
    """The hedged-capital confidence sequence of each row of ``x`` (pairs x units, in [0, 1]).

    A candidate mean ``m`` of a ``grid``-point grid is excluded after ``t``
    units when ``max(½K⁺_t(m), ½K⁻_t(m)) ≥ 1/α``; the interval runs from the
    excluded grid point below the lowest kept one to the one above the
    highest (conservative by one grid step). Returned on the scale of ``x``;
    ``carry`` as in :func:`normal_mixture_paths` (it holds the capitals);
    ``planned_n`` tunes the bets to be tightest after that many units.

    Examples
    --------
    >>> x = np.tile([1.0, 0.0, 1.0, 1.0], 50)[None, :]
    >>> p = betting_paths(x, 0.05)
    >>> bool(p.low[0, -1] < 0.75 < p.high[0, -1]), bool(p.high[0, -1] - p.low[0, -1] < 0.4)
    (True, True)
    """
    carry = {} if carry is None else carry
    x = np.asarray(x, dtype=float)
    m = np.linspace(0.0, 1.0, grid)[1:-1]
    lam, mean = _bets(x, alpha, carry, planned_n)
    lam = np.minimum(lam, _MAX_BET)[..., None, :]
    delta = x[..., None, :] - m[:, None]
    up = np.minimum(lam, _MAX_BET / m[:, None])
    down = np.minimum(lam, _MAX_BET / (1.0 - m[:, None]))
    log_up = _running(np.log1p(up * delta), carry, "up")
    log_down = _running(np.log1p(-down * delta), carry, "down")
    kept = np.maximum(log_up, log_down) - np.log(2.0) < -np.log(alpha)  # (pairs, grid, units)
    any_kept = kept.any(axis=-2)
    first = np.argmax(kept, axis=-2)
    last = kept.shape[-2] - 1 - np.argmax(kept[..., ::-1, :], axis=-2)
    points = np.concatenate([[0.0], m, [1.0]])
    # An empty set (numerically): the running mean alone.
    low = np.where(any_kept, points[first], mean)
    high = np.where(any_kept, points[last + 2], mean)
    return Paths(mean, low, high)


def evalue_paths(
    b: np.ndarray, c: np.ndarray, n: np.ndarray, alpha: float, grid: int = _GRID
) -> Paths:
    """Running mean ``(b − c)/n`` and the Jeffreys-mixture interval of the discordant split.

    ``b``, ``c`` are the running discordant counts and ``n`` the units read.
    The interval is the set of ``p`` (the chance a discordant item favours
    model_1) whose mixture likelihood ratio stays below ``1/α``, mapped to the
    difference by ``(2p − 1)(b + c)/n`` at the observed discordant share.

    Examples
    --------
    >>> p = evalue_paths(np.array([[9.0]]), np.array([[1.0]]), np.array([10.0]), 0.05)
    >>> round(float(p.mean[0, 0]), 3), bool(p.low[0, 0] < 0.8 < p.high[0, 0])
    (0.8, True)
    """
    from scipy import special  # on use: `import pdcompare` loads no scipy

    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    n = np.asarray(n, dtype=float)
    q = np.linspace(0.0, 1.0, grid)[1:-1][:, None]
    mixture = special.betaln(b + 0.5, c + 0.5) - special.betaln(0.5, 0.5)
    log_ratio = (
        mixture[..., None, :] - b[..., None, :] * np.log(q) - c[..., None, :] * np.log1p(-q)
    )
    kept = log_ratio < -np.log(alpha)
    first = np.argmax(kept, axis=-2)
    last = kept.shape[-2] - 1 - np.argmax(kept[..., ::-1, :], axis=-2)
    points = np.concatenate([[0.0], q[:, 0], [1.0]])
    share = (b + c) / n
    low = (2.0 * points[first] - 1.0) * share
    high = (2.0 * points[last + 2] - 1.0) * share
    return Paths((b - c) / n, low, high)


def decisions(
    paths: Paths, start: int, margin: float | None, greater_is_better: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The first decision of each row from look ``start`` (0-based) on, and its look.

    Better/worse (the interval excludes 0, in the design's direction) come
    before "equivalent" (the interval inside ±margin). Returns the codes
    (``CONTINUE``, ``BETTER``, ``WORSE``, ``EQUIVALENT``) and the 1-based unit
    count of the decision (0 for none).

    Examples
    --------
    >>> p = Paths(np.zeros((2, 3)), np.array([[-1, 0.1, -1], [-1, -1, -1.0]]),
    ...           np.array([[1, 0.5, 1], [1, 1, 1.0]]))
    >>> decisions(p, 0, None, True)
    (array([1, 0]), array([2, 0]))
    """
    sliced = Paths(paths.mean[..., start:], paths.low[..., start:], paths.high[..., start:])
    return first_decision(interval_codes(sliced, margin, greater_is_better), start)


def interval_codes(paths: Paths, margin: float | None, greater_is_better: bool) -> np.ndarray:
    """The decision each interval reads: model_1 better, worse, equivalent, or continue.

    Examples
    --------
    >>> p = Paths(np.zeros(3), np.array([0.1, -0.2, -0.05]), np.array([0.3, -0.1, 0.04]))
    >>> interval_codes(p, 0.1, True).tolist(), interval_codes(p, None, False).tolist()
    ([1, 2, 3], [2, 1, 0])
    """
    up, down = paths.low > 0, paths.high < 0
    if not greater_is_better:
        up, down = down, up
    code = np.where(up, BETTER, np.where(down, WORSE, CONTINUE))
    if margin is not None:
        inside = (paths.low > -margin) & (paths.high < margin)
        code = np.where((code == CONTINUE) & inside, EQUIVALENT, code)
    return code


def first_decision(code: np.ndarray, start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The first non-``CONTINUE`` code of each row and its 1-based look (``start`` looks skipped).

    Examples
    --------
    >>> first_decision(np.array([[0, 2, 1], [0, 0, 0]]), 4)
    (array([2, 0]), array([6, 0]))
    """
    decided = code != CONTINUE
    first = np.argmax(decided, axis=-1)
    reached = decided.any(axis=-1)
    chosen = np.take_along_axis(code, first[..., None], axis=-1)[..., 0]
    return np.where(reached, chosen, CONTINUE), np.where(reached, first + start + 1, 0)


def chunk_rows(n_rows: int, n_cols: int, factor: int = 1) -> int:
    """How many rows of ``n_cols`` (times ``factor``) to compute at once."""
    return max(1, _CHUNK // max(1, n_cols * factor))
