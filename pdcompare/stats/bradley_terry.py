"""Bradley–Terry fits on m × m win matrices: Newton, ties as halves or Davidson's, batched.

Everything works on stacks of matrices, shape ``(B, m, m)``: the observed
battles are one stack of one, the resampled battles a stack of ``B``. ``W[b, i, j]``
counts the wins of model i over model j, ``T[b, i, j] = T[b, j, i]`` the ties
between them. Strengths θ are natural-log odds (P(i beats j) = σ(θ_i − θ_j)
without ties) summing to zero over the models a fit includes.
"""

from __future__ import annotations

import contextlib

import numpy as np

#: Newton steps allowed before a fit counts as not converged.
MAX_ITER = 100
#: A Newton step longer than this (in log odds) is shortened to it (damped Newton).
MAX_STEP = 2.0
#: Largest step (log odds) of a converged fit.
TOL = 1e-10
#: Largest step of a converged resampled fit: 1e-6 log odds (under 2e-4 rating points);
#: the chord steps shrink about 20-fold each, so the fit is then within about 1e-7.
RESAMPLED_TOL = 1e-6


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out = np.negative(x)
    np.exp(out, out=out)
    out += 1.0
    return np.reciprocal(out, out=out)


def _half_terms(theta, wins, total, include):
    """Gradient and (negative) Hessian of the log-likelihood, ties counted as halves."""
    diff = theta[:, :, None] - theta[:, None, :]
    p = _sigmoid(diff)
    grad = wins.sum(axis=2) - np.einsum("bij,bij->bi", total, p)
    weight = total * p * (1.0 - p)
    info = -weight
    idx = np.arange(theta.shape[1])
    info[:, idx, idx] += weight.sum(axis=2)
    return grad * include, info


def _davidson_pieces(diff, log_nu):
    nu = np.exp(log_nu)[:, None, None]
    c, s = np.cosh(0.5 * diff), np.sinh(0.5 * diff)
    den = 2.0 * c + nu
    return nu, c, s, den


def _davidson_terms(params, wins, ties, include):
    """Gradient and (negative) Hessian of Davidson's log-likelihood in (θ, ln ν)."""
    theta, log_nu = params[:, :-1], params[:, -1]
    b, m = theta.shape
    diff = theta[:, :, None] - theta[:, None, :]
    total = wins + np.swapaxes(wins, 1, 2) + ties
    nu, c, s, den = _davidson_pieces(diff, log_nu)
    grad = np.empty((b, m + 1))
    grad[:, :m] = 0.5 * (wins - np.swapaxes(wins, 1, 2)).sum(axis=2) - (total * s / den).sum(
        axis=2
    )
    grad[:, m] = 0.5 * (ties - total * nu / den).sum(axis=(1, 2))
    info = np.zeros((b, m + 1, m + 1))
    weight = total * (1.0 + 0.5 * nu * c) / den**2
    idx = np.arange(m)
    info[:, :m, :m] = -weight
    info[:, idx, idx] += weight.sum(axis=2)
    cross = -(total * s * nu / den**2).sum(axis=2)
    info[:, :m, m] = cross
    info[:, m, :m] = cross
    info[:, m, m] = 0.5 * (total * 2.0 * c * nu / den**2).sum(axis=(1, 2))
    grad[:, :m] *= include
    return grad, info


def _constrained(info, include):
    """The information with excluded models pinned and Σ θ = 0 over the included ones."""
    m = include.shape[1]
    out = info.copy()
    out[:, :m, :m] *= include[:, :, None] * include[:, None, :]
    k = np.maximum(include.sum(axis=1), 1.0)
    out[:, :m, :m] += include[:, :, None] * include[:, None, :] / k[:, None, None]
    idx = np.arange(m)
    out[:, idx, idx] += 1.0 - include
    if out.shape[1] > m:
        out[:, :m, m] *= include
        out[:, m, :m] *= include
    return out


def newton(
    wins: np.ndarray,
    ties: np.ndarray,
    *,
    davidson: bool = False,
    include: np.ndarray | None = None,
    start: np.ndarray | None = None,
    max_iter: int = MAX_ITER,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Maximum-likelihood strengths of a stack of win matrices by damped Newton steps.

    Parameters
    ----------
    wins, ties : numpy.ndarray, shape (B, m, m)
        Wins of row over column; ties (symmetric).
    davidson : bool, default False
        False counts a tie as half a win for each model; True fits Davidson's
        tie parameter ν (P(tie) = ν√(π_iπ_j) / (π_i + π_j + ν√(π_iπ_j))).
    include : numpy.ndarray of bool, shape (B, m), optional
        The models each fit includes (the others get NaN); all by default.
    start : numpy.ndarray, shape (B, m) or (B, m + 1), optional
        Starting strengths (and ln ν); zeros by default.

    Returns
    -------
    params : numpy.ndarray, shape (B, m) or (B, m + 1)
        θ summing to zero over the included models (then ln ν with Davidson).
    info : numpy.ndarray, shape (B, m, m) or (B, m + 1, m + 1)
        The observed information at ``params`` (excluded models' rows are zero).
    converged : numpy.ndarray of bool, shape (B,)

    Examples
    --------
    A beats B three times and loses once: θ_A − θ_B = ln 3.

    >>> wins = np.array([[[0.0, 3.0], [1.0, 0.0]]])
    >>> theta, info, ok = newton(wins, np.zeros_like(wins))
    >>> round(float(theta[0, 0] - theta[0, 1]), 6), round(float(np.log(3)), 6), bool(ok[0])
    (1.098612, 1.098612, True)
    """
    wins = np.asarray(wins, dtype=float)
    ties = np.asarray(ties, dtype=float)
    b, m, _ = wins.shape
    include = np.ones((b, m)) if include is None else np.asarray(include, dtype=float)
    keep = include[:, :, None] * include[:, None, :]
    wins, ties = wins * keep, ties * keep
    size = m + 1 if davidson else m
    params = np.zeros((b, size)) if start is None else np.array(start, dtype=float)
    params[:, :m] *= include
    terms = _terms(davidson, wins, ties, include)
    active = np.ones(b, dtype=bool)
    converged = np.zeros(b, dtype=bool)
    for _ in range(max_iter):
        rows = np.flatnonzero(active)
        if rows.size == 0:
            break
        grad, info = terms(params[rows], rows)
        step = _solve(_constrained(info, include[rows]), grad)
        longest = np.abs(step).max(axis=1)
        finite = np.isfinite(longest)
        step *= np.minimum(1.0, MAX_STEP / np.maximum(longest, 1e-300))[:, None]
        params[rows[finite]] += step[finite]
        done = finite & (longest < TOL)
        converged[rows[done]] = True
        active[rows[done | ~finite]] = False
    _, info = terms(params, np.arange(b))
    theta = params[:, :m]
    theta -= (theta * include).sum(axis=1, keepdims=True) / np.maximum(
        include.sum(axis=1, keepdims=True), 1.0
    )
    theta[include == 0] = np.nan
    return params, info, converged


def _solve(matrices: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """``matrices⁻¹ vectors`` for a stack; NaN for a singular matrix (its fit then stops)."""
    try:
        return np.linalg.solve(matrices, vectors[..., None])[..., 0]
    except np.linalg.LinAlgError:
        out = np.full(vectors.shape, np.nan)
        for k in range(len(matrices)):  # only when some matrix is singular: find which
            with contextlib.suppress(np.linalg.LinAlgError):
                out[k] = np.linalg.solve(matrices[k], vectors[k])
        return out


def _terms(davidson, wins, ties, include):
    """Gradient and information of the fits ``rows`` at their parameters ``x``."""

    def terms(x, rows):
        w, t, inc = wins[rows], ties[rows], include[rows]
        if davidson:
            return _davidson_terms(x, w, t, inc)
        half = w + 0.5 * t
        return _half_terms(x, half, half + np.swapaxes(half, 1, 2), inc)

    return terms


def covariance(info: np.ndarray, m: int) -> np.ndarray:
    """Covariance of θ (Σ θ = 0) from one fit's observed information: its constrained inverse.

    ``info`` has shape (m, m), or (m + 1, m + 1) with Davidson's ln ν last.

    Examples
    --------
    Two models, n battles split evenly: var(θ_A − θ_B) = 1 / (n · ¼) = 4/n.

    >>> info = np.array([[25.0, -25.0], [-25.0, 25.0]])   # n = 100, p(1 − p) = 1/4
    >>> cov = covariance(info, 2)
    >>> float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    0.04
    """
    full = _constrained(info[None], np.ones((1, m)))[0]
    return np.linalg.inv(full)[:m, :m] - 1.0 / m


def unanimous_models(wins: np.ndarray, ties: np.ndarray) -> np.ndarray:
    """Models every pair of which is unanimous (one outcome only, or one battle).

    Resampling a pair's battles redraws them from the pair's observed shares,
    so a unanimous pair comes back the same in every round: a model whose
    pairs are all unanimous has a bootstrap interval of no width.

    Examples
    --------
    >>> wins = np.array([[0, 5, 0], [0, 0, 5], [5, 2, 0.0]])
    >>> unanimous_models(wins, np.zeros((3, 3))).tolist()
    [True, False, False]
    """
    total = wins + wins.T + ties
    top = np.maximum(np.maximum(wins, wins.T), ties)
    return ((top == total) | (total == 0)).all(axis=1)


def components(beats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weak and strong components of the graph with an edge i → j when i beat j.

    A finite maximum-likelihood fit needs one strong component (every model
    beaten, through a chain, by every other); one weak component is a
    connected comparison graph.

    Examples
    --------
    >>> weak, strong = components(np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]]))
    >>> weak.tolist(), len(set(strong.tolist()))
    ([0, 0, 1], 3)
    """
    from scipy.sparse.csgraph import connected_components

    graph = np.asarray(beats) > 0
    _, weak = connected_components(graph, directed=True, connection="weak")
    _, strong = connected_components(graph, directed=True, connection="strong")
    return weak, strong


def _finite_rounds(wins: np.ndarray, ties: np.ndarray) -> np.ndarray:
    """Models of each round with a finite strength by the simple rule: some wins and some losses.

    Dropping a model can leave another without wins or losses, so the rule
    is applied until nothing changes (at most m times, all rounds at once).
    """
    half = wins + 0.5 * ties
    b, m, _ = wins.shape
    include = np.ones((b, m), dtype=bool)
    for _ in range(m):
        keep = include[:, :, None] & include[:, None, :]
        won = (half * keep).sum(axis=2) > 0
        lost = (half * keep).sum(axis=1) > 0
        new = include & won & lost
        if (new == include).all():
            break
        include = new
    return include


class _Resampler:
    """One multinomial draw per pair of the pair's battles, for many rounds at once.

    The draw is i's wins ~ Binomial(n, w_ij / n), then the ties among the rest
    ~ Binomial(n − i's wins, t / (w_ji + t)), j's wins the remainder. The first
    binomial, the costly one (its probability is near ½), is drawn by inverting
    its exact CDF, tabulated once for every pair, with a guide table (Chen &
    Asau 1974): pair k's CDF has n_k + 1 entries and n_k + 1 buckets of the
    unit interval; bucket g holds the smallest count whose CDF reaches
    g / (n_k + 1), so a uniform starts at its bucket's count and steps up
    while the CDF is below it (about one step on average; all draws at once).
    The second has a small probability, where numpy's sampler is fast.

    With ``half`` (ties counted as halves, all the fit needs) one draw per
    pair: 2 · i's wins + ties, from 0 to 2n, by the same guide table over its
    distribution (:func:`_half_cdf`); no binomial for the ties. Draws are
    pairs × rounds, so that each pair's draws read one stretch of the table.
    """

    def __init__(self, wins: np.ndarray, ties: np.ndarray, *, half: bool = False):
        self.m = wins.shape[0]
        i, j = np.triu_indices(self.m, 1)
        counts = np.stack([wins[i, j], wins[j, i], ties[i, j]], axis=1)
        n = counts.sum(axis=1)
        played = n > 0
        self.i, self.j, counts = i[played], j[played], counts[played]
        self.n = n[played].astype(np.int64)
        self.half = half
        self.has_ties = bool(counts[:, 2].any()) and not half
        rest = counts[:, 1] + counts[:, 2]
        self.tie_share = np.divide(counts[:, 2], rest, out=np.zeros(rest.size), where=rest > 0)
        # the largest value of each pair's draw: i's wins (n), or 2 · wins + ties (2n)
        self.top = 2 * self.n if half else self.n
        self.start = np.concatenate([[0], np.cumsum(self.top + 1)[:-1]])
        pair = np.repeat(np.arange(self.n.size), self.top + 1)
        value = np.arange(pair.size) - self.start[pair]
        if half:
            cdf = _half_cdf(self.n, counts / self.n[:, None], self.start)
        else:
            from scipy import stats

            cdf = stats.binom.cdf(value, self.n[pair], counts[pair, 0] / self.n[pair])
        cdf[self.start[1:] - 1] = 1.0  # each pair's last entry exactly 1
        cdf[-1] = 1.0
        self.cdf = cdf
        # guide[start_k + g]: the smallest value x of pair k with cdf_k(x) >= g / (top_k + 1)
        bucket = value / (self.top[pair] + 1.0)
        self.guide = np.searchsorted(cdf + 2.0 * pair, bucket + 2.0 * pair, side="left")
        self.buckets = (self.top + 1).astype(np.float64)
        models = np.arange(self.m)
        self.row_start = np.searchsorted(self.i, models, side="left")
        self.row_end = np.searchsorted(self.i, models, side="right")
        self.by_column = np.argsort(self.j, kind="stable")
        column = self.j[self.by_column]
        self.column_start = np.searchsorted(column, models, side="left")
        self.column_end = np.searchsorted(column, models, side="right")

    def _first(self, u: np.ndarray) -> np.ndarray:
        """The table positions of the smallest values whose CDF reaches ``u`` (pairs × rounds).

        Pair-major: each pair's draws of all rounds read its own stretch of the table.
        """
        bucket = (u * self.buckets[:, None]).astype(np.int64)
        np.minimum(bucket, self.top[:, None], out=bucket)  # u (top + 1) can round up
        bucket += self.start[:, None]
        position = self.guide[bucket].ravel()
        flat_u = u.ravel()
        below = np.flatnonzero(self.cdf[position] < flat_u)
        while below.size:
            position[below] += 1
            below = below[self.cdf[position[below]] < flat_u[below]]
        return position.reshape(u.shape)

    def counts(
        self, n_rounds: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every played pair's (i < j) battles in each round: i's wins, j's wins, ties.

        Arrays of pairs × rounds. With ``half``, i's and j's wins plus half
        their ties, and no ties apart (zeros).
        """
        u = rng.random((self.n.size, n_rounds))
        first = self._first(u) - self.start[:, None]
        n = self.n[:, None]
        if self.half:  # 2 · wins + ties: the half-wins of i and of j, no ties apart
            first = 0.5 * first
            return first, n - first, np.zeros_like(first)
        rest = n - first
        tied = (
            rng.binomial(rest, self.tie_share[:, None]) if self.has_ties else np.zeros_like(rest)
        )
        return first, rest - tied, tied

    def dense(self, first, second, tied) -> tuple[np.ndarray, np.ndarray]:
        """The rounds' win and tie matrices from their pairs' counts (pairs × rounds)."""
        n_rounds, m, i, j = first.shape[1], self.m, self.i, self.j
        new_wins = np.zeros((n_rounds, m, m))
        new_ties = np.zeros((n_rounds, m, m))
        new_wins[:, i, j] = first.T
        new_wins[:, j, i] = second.T
        new_ties[:, i, j] = tied.T
        new_ties[:, j, i] = tied.T
        return new_wins, new_ties

    def per_model(self, first, second, tied) -> tuple[np.ndarray, np.ndarray]:
        """Each round's wins and ties of every model (rounds × m), without the matrices."""
        won = self._by_row(first) + self._by_column(second)
        if not self.has_ties:
            return won, np.zeros_like(won)
        return won, self._by_row(tied) + self._by_column(tied)

    def _by_row(self, values: np.ndarray) -> np.ndarray:
        # the pairs are in row-major order (sorted by i): sums of runs
        return _run_sums(values, self.row_start, self.row_end)

    def _by_column(self, values: np.ndarray) -> np.ndarray:
        return _run_sums(values[self.by_column], self.column_start, self.column_end)

    def draw(self, n_rounds: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        return self.dense(*self.counts(n_rounds, rng))


def _run_sums(values: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Sums of ``values[start[k]:end[k]]`` (pairs × rounds) for every k: k × rounds, transposed."""
    if values.shape[0] == 0:
        return np.zeros((values.shape[1], start.size))
    sums = np.add.reduceat(values, np.minimum(start, values.shape[0] - 1), axis=0)
    sums[start == end] = 0
    return sums.T.astype(float)


def _multinomial_rounds(wins, ties, n_rounds, rng, *, half=False):
    """Resampled win and tie matrices: one multinomial draw per pair of the pair's battles.

    ``half``: wins plus half the ties (the ties matrices zero), as ``resampled_fits``
    draws them for ties counted as halves.
    """
    return _Resampler(wins, ties, half=half).draw(n_rounds, rng)


def _half_cdf(n: np.ndarray, shares: np.ndarray, start: np.ndarray) -> np.ndarray:
    """CDFs of Y = 2 · wins + ties of each pair (i's half-wins doubled), flattened from ``start``.

    Y is the sum of n independent values 2, 1, 0 (i wins, tie, j wins) with
    the pair's observed shares (``shares[:, 0:3]``: i's wins, j's wins, ties),
    so its probabilities are the coefficients of (p_j + p_t z + p_i z²)^n:
    read by the discrete Fourier transform on 2n + 1 points (exact up to
    rounding: 1e-16 at ten battles, 1e-12 at 5,000), all pairs with the same n at once.

    Examples
    --------
    One battle won by i, one tie, two lost: Y of 4 battles from 0 to 8.

    >>> cdf = _half_cdf(np.array([4]), np.array([[0.25, 0.5, 0.25]]), np.array([0]))
    >>> from scipy import stats
    >>> pmf = [sum(stats.multinomial.pmf([a, 4 - a - (y - 2 * a), y - 2 * a], 4,
    ...                                  [0.25, 0.5, 0.25])
    ...            for a in range(0, y // 2 + 1) if 0 <= y - 2 * a <= 4 - a) for y in range(9)]
    >>> bool(np.allclose(cdf, np.cumsum(pmf), atol=1e-15))
    True
    """
    cdf = np.empty(int((2 * n + 1).sum()))
    for size in np.unique(n):
        rows = np.flatnonzero(n == size)
        points = 2 * int(size) + 1
        z = np.exp(-2j * np.pi * np.arange(points) / points)
        p_i, p_j, p_t = shares[rows, 0:1], shares[rows, 1:2], shares[rows, 2:3]
        pmf = np.fft.ifft((p_j + p_t * z + p_i * z * z) ** int(size), axis=1).real
        np.maximum(pmf, 0.0, out=pmf)
        pmf /= pmf.sum(axis=1, keepdims=True)
        cdf[start[rows, None] + np.arange(points)] = np.cumsum(pmf, axis=1)
    return cdf


def resampled_fits(
    wins: np.ndarray,
    ties: np.ndarray,
    params: np.ndarray,
    info: np.ndarray,
    *,
    n_rounds: int,
    rng: np.random.Generator,
    davidson: bool = False,
    chunk: int = 100,
    max_chord: int = 30,
) -> np.ndarray:
    """θ of ``n_rounds`` fits on battles resampled pair by pair (NaN: no finite θ that round).

    Each round draws every pair's battles again, as one multinomial draw of
    the pair's number of battles over (i beats j, j beats i, tie) with the
    observed proportions. All rounds are fitted at once: chord steps with the
    observed fit's information (``params``, ``info``) from the observed
    strengths, then full Newton steps for the rounds that did not settle or
    that leave models out. A model with only wins or only losses in a round
    is left out of that round (NaN); a round whose fit does not converge is
    NaN for every model. Each round's θ is shifted so that its included
    models have the observed fit's mean over them.

    Examples
    --------
    >>> wins = np.array([[0.0, 30.0], [10.0, 0.0]])
    >>> params, info, _ = newton(wins[None], np.zeros((1, 2, 2)))
    >>> draws = resampled_fits(wins, np.zeros((2, 2)), params[0], info[0], n_rounds=200,
    ...                        rng=np.random.default_rng(0))
    >>> w, _ = _multinomial_rounds(wins, np.zeros((2, 2)), 200, np.random.default_rng(0),
    ...                            half=True)
    >>> bool(np.allclose(draws[:, 0] - draws[:, 1], np.log(w[:, 0, 1] / w[:, 1, 0])))
    True
    """
    m = wins.shape[0]
    inverse = np.linalg.inv(_constrained(info[None], np.ones((1, m)))[0])
    resampler = _Resampler(wins, ties, half=not davidson)
    # a pair's number of battles is the same in every round: so is each model's
    played = np.asarray(wins + wins.T + ties, dtype=float).sum(axis=1)
    gradient = _PairGradient(resampler, inverse, davidson)
    out = np.full((n_rounds, m), np.nan)
    # rounds per chunk: at most about 4 million cells per (rounds, m, m) array (32 MB)
    chunk = max(1, min(chunk, 4_000_000 // (m * m)))
    for first in range(0, n_rounds, chunk):
        count = min(chunk, n_rounds - first)
        pairs = resampler.counts(count, rng)
        won, tied = resampler.per_model(*pairs)
        # a round with every model's wins and losses positive includes every model
        # (the first pass of _finite_rounds); only the others need their matrices
        half_won = won + 0.5 * tied
        full = ((half_won > 0) & (played - half_won > 0)).all(axis=1)
        if davidson:  # ν̂ is 0 without ties and infinite without decided battles: _refit
            full &= (tied.sum(axis=1) > 0) & (won.sum(axis=1) > 0)
        include = np.ones((count, m), dtype=bool)
        partial = np.flatnonzero(~full)
        if partial.size:
            include[partial] = _finite_rounds(*resampler.dense(*(c[:, partial] for c in pairs)))
        x = np.repeat(params[None], count, axis=0)
        settled = np.zeros(count, dtype=bool)
        rows = np.flatnonzero(full)
        if rows.size:
            chosen = pairs if rows.size == count else [c[:, rows] for c in pairs]
            x[rows], settled[rows] = gradient.chord(x[rows], chosen, max_chord)
        rest = np.flatnonzero(~settled)
        converged = settled.copy()
        if rest.size:
            w, t = resampler.dense(*(c[:, rest] for c in pairs))
            x[rest], converged[rest] = _refit(w, t, include[rest], params, davidson)
        theta = x[:, :m].copy()
        theta[~include] = np.nan
        theta[~converged] = np.nan
        kept = np.isfinite(theta)
        n_kept = np.maximum(kept.sum(axis=1, keepdims=True), 1)
        target = np.where(kept, params[None, :m], 0.0).sum(axis=1, keepdims=True) / n_kept
        theta += target - np.where(kept, theta, 0.0).sum(axis=1, keepdims=True) / n_kept
        out[first : first + count] = theta
    return out


def davidson_finite(wins: np.ndarray, ties: np.ndarray) -> bool:
    """Whether Davidson's fit of one win matrix with ties is finite in ln ν (given finite θ).

    Along a direction (δθ, δλ = δ ln ν) the log-likelihood never falls iff
    every pair's observed outcomes stay likeliest: wins of i over j need
    δλ ≤ (δθ_i − δθ_j)/2, ties need δλ ≥ |δθ_i − δθ_j|/2. A tie forces δλ ≥ 0;
    with δλ = 0 the fit is finite exactly when Bradley–Terry's with ties as
    halves is (:func:`components`); δλ = 1 is feasible, and ν̂ infinite with
    strengths running apart, unless the difference constraints have a
    negative cycle: a cycle of more wins (winner to loser) than ties. Wins
    both ways between two models make one; two models with wins and ties but
    no loss do not (π_A/π_B = wins/losses = ∞).

    Examples
    --------
    A beats B three times and ties twice: no finite fit; one loss more makes it finite.

    >>> ties = np.array([[0, 2.0], [2, 0]])
    >>> davidson_finite(np.array([[0, 3.0], [0, 0]]), ties)
    False
    >>> davidson_finite(np.array([[0, 3.0], [1, 0]]), ties)
    True
    """
    from scipy.sparse.csgraph import NegativeCycleError, bellman_ford

    if not (ties > 0).any():
        return False
    m = wins.shape[0]
    graph = np.zeros((m + 1, m + 1))  # 0: no edge
    graph[:m, :m] = np.where(wins > 0, -1.0, np.where((ties + ties.T) > 0, 1.0, 0.0))
    graph[m, :m] = 1.0  # a source reaching every model, on no cycle
    try:
        bellman_ford(graph, directed=True, indices=m)
    except NegativeCycleError:
        return True
    return False


def _refit(wins, ties, include, params, davidson) -> tuple[np.ndarray, np.ndarray]:
    """Newton fits of resampled rounds from the observed fit ``params``; and which converged.

    With Davidson's ties, a round without a tie among its models has ν̂ = 0:
    its fit is Bradley–Terry's without ties (two models: π_A/π_B = wins/losses);
    a round of ties only has ν̂ = ∞ and equal strengths (a tie is likeliest
    between equals). Neither has a finite (θ, ln ν), so neither goes to
    Davidson's Newton steps.
    """
    b, m = include.shape
    start = np.repeat(params[None], b, axis=0)
    if not davidson:
        fitted, _, ok = newton(wins, ties, include=include, start=start)
        return fitted, ok
    keep = include[:, :, None] & include[:, None, :]
    tied = (ties * keep).sum(axis=(1, 2)) > 0
    decided = (wins * keep).sum(axis=(1, 2)) > 0
    out = np.zeros((b, m + 1))  # rounds of ties only: θ = 0
    ok = np.ones(b, dtype=bool)
    both = tied & decided
    won = wins * keep > 0
    cycle = (won & np.swapaxes(won, 1, 2)).any(axis=(1, 2))  # wins both ways: finite (below)
    for k in np.flatnonzero(both & ~cycle):  # rare rounds (few battles): a graph search each
        ok[k] = both[k] = davidson_finite(wins[k] * keep[k], ties[k] * keep[k])
    both = np.flatnonzero(both)
    if both.size:
        out[both], _, ok[both] = newton(
            wins[both], ties[both], davidson=True, include=include[both], start=start[both]
        )
    plain = np.flatnonzero(decided & ~tied)
    if plain.size:
        out[plain, :m], _, ok[plain] = newton(
            wins[plain], ties[plain], include=include[plain], start=start[plain, :m]
        )
    return out, ok


class _PairGradient:
    """Chord steps of many fits with every model included, computed pair by pair.

    The rounds are the columns (strengths ``X`` of shape (m, rounds), or
    (m + 1, rounds) with ln ν last); a pair k of models i < j with n_k
    battles adds r_k to i's gradient and −r_k to j's: the incidence matrix
    (+1 at i, −1 at j) times the residuals. Ties as halves: r_k = i's
    half-wins − n_k σ(θ_i − θ_j). Davidson: r_k = (wins − losses)/2 −
    n_k sinh(d/2)/(2 cosh(d/2) + ν), and ln ν's gradient Σ_k (ties_k − n_k
    ν/(2 cosh(d/2) + ν)). Each step is the observed fit's inverse information
    times the gradient.
    """

    def __init__(self, resampler: _Resampler, inverse: np.ndarray, davidson: bool):
        from scipy import sparse

        i, j, k = resampler.i, resampler.j, resampler.i.size
        self.i, self.j, self.m = i, j, resampler.m
        self.n = resampler.n.astype(float)[:, None]
        pairs = np.arange(k)
        self.incidence = sparse.csr_matrix(
            (np.r_[np.ones(k), -np.ones(k)], (np.r_[i, j], np.r_[pairs, pairs])),
            shape=(self.m, k),
        )
        self.inverse, self.davidson = inverse, davidson

    def __call__(self, x: np.ndarray, target: np.ndarray, ties: np.ndarray | None):
        m = self.m
        d = x[self.i]
        d -= x[self.j]
        if not self.davidson:
            np.negative(d, out=d)
            np.exp(d, out=d)
            d += 1.0
            np.divide(self.n, d, out=d)  # n σ(θ_i − θ_j)
            np.subtract(target, d, out=d)
            return self.incidence @ d
        nu = np.exp(x[m])
        d *= 0.5
        den = 2.0 * np.cosh(d) + nu
        grad = np.empty_like(x)
        grad[:m] = self.incidence @ (target - self.n * np.sinh(d) / den)
        grad[m] = ties - (self.n * nu / den).sum(axis=0)
        return grad

    def chord(self, x: np.ndarray, pairs, max_chord: int) -> tuple[np.ndarray, np.ndarray]:
        """The rounds' fits from ``x`` (rounds × size) and their pairs' counts; which settled."""
        first, second, tied = pairs  # pairs × rounds
        if self.davidson:
            target, ties = 0.5 * (first - second), tied.sum(axis=0)
        else:
            target, ties = first, None
        x = np.ascontiguousarray(x.T)
        moving = np.ones(x.shape[1], dtype=bool)
        settled = np.zeros(x.shape[1], dtype=bool)
        last = np.full(x.shape[1], np.nan)  # no rate before the second step
        for _ in range(max_chord):
            # every round steps until all settle (a settled round's step is zeroed)
            step = self.inverse @ self(x, target, ties)
            step[:, ~moving] = 0.0
            x += step
            longest = np.abs(step).max(axis=0)
            # settled: this step, or the next one foreseen at this step's rate of shrinking
            with np.errstate(divide="ignore", invalid="ignore"):
                small = (longest < RESAMPLED_TOL) | (longest * (longest / last) < RESAMPLED_TOL)
            last = longest
            moving &= ~small & np.isfinite(step).all(axis=0)
            settled |= small & np.isfinite(x).all(axis=0)
            if not moving.any():
                break
        return x.T, settled
