"""Validity of rank confidence sets on simulated leaderboards with ties and near ties.

A leaderboard: m = 10 models answer the same n = 1,000 questions. Question i
has a difficulty d_i ~ N(0, 1) shared by the models (so their correctness is
correlated, as on a real benchmark); model j answers it correctly when
a_j − d_i − e_ij > 0, e_ij ~ N(0, 1), so its true accuracy is exactly
θ_j = Φ(a_j / √2). The true accuracies

    0.80 0.80 0.80 0.79 0.77 0.77 0.74 0.70 0.70 0.60

have a three-way tie for the best, a near tie behind it, and two more ties.
Model j's true rank is every rank from 1 + #{θ_k > θ_j} to m − #{θ_k < θ_j}:
a set covers it when it holds all of them (no false "better" or "worse").

Measured on each leaderboard, through the public API on the predictions frame
(``ranks`` with the per-row covariance of correctness):

* simultaneous sets (``ranks()``): joint coverage, all ten models at once;
* marginal sets (``ranks(simultaneous=False)``): each model's coverage (the
  lowest over the models, and the mean);
* ``top_set()`` (τ = 1): whether it holds all three truly best models;
* the field's chained-anchor "tie group" (SWE-bench PR #60): the observed
  leader, then every model in order of accuracy while McNemar's test against
  the leader (uncorrected, alpha 0.05) does not reject; the group fails when a
  truly best model is left out.

The same seed also draws a leaderboard of cross-validation scores: the ten
models scored on the 10 splits of 10-fold CV, x_jk = θ_j + f_k + σ (√ρ u_j +
√(1 − ρ) e_jk), f_k a split effect shared by the models (sd 0.02), u_j and e_jk
standard normal, σ = 0.02 and ρ = 0.1 = n_test / n, the correlation between
a model's splits that Nadeau and Bengio's correction assumes (n_test/n_train
= 1/9): the corrected t of a pair is then exactly Student's t on 9 degrees of
freedom. Measured: the joint coverage of ``scores.cmp.ranks(cv=10)`` (the
studentised draws, Wishart on 9 degrees of freedom) beside the same sets from
normal draws (Σ̂ taken as known, as before), on the leaderboard with ties
(θ above) and on one where all ten models are equal (θ_j = 0.80), where the
sets are tight and no method with 10 splits is exactly at 95 %.

And a leaderboard of an evaluation (an items frame): the ten models answer 200
questions in 20 passages, 0/1, question i of passage c right when a_j − p_c −
q_i − e_ji > 0 (p_c, q_i ~ N(0, 1/2), e_ji ~ N(0, 1), so θ_j = Φ(a_j/√2) as
above); ``from_items(cluster="passage")`` and ``ranks()`` with the frame's
default clustered covariance (CR2 below 50 clusters) and studentised draws on
19 degrees of freedom; with ties (θ above) and all ten equal (θ_j = 0.80).

Monte Carlo standard errors are √(p (1 − p) / reps). Every leaderboard has its
own seed (``numpy.random.SeedSequence(seed).spawn``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import special

import pdcompare
from pdcompare.compare.rank_sets import estimates_of
from pdcompare.stats.rank_sets import rank_confidence_sets

THETA = np.array([0.80, 0.80, 0.80, 0.79, 0.77, 0.77, 0.74, 0.70, 0.70, 0.60])
N_QUESTIONS = 1000
COVERAGE = 0.95
# The CV leaderboards: 10-fold CV, noise sd and the correlation of a model's splits.
N_SPLITS = 10
SIGMA = 0.02
RHO = 1 / N_SPLITS
# The items leaderboards: passages (clusters) of questions, below CR2's 50 clusters.
N_PASSAGES = 20
PER_PASSAGE = 10


def true_rank_bounds(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every rank a model may truly hold: 1 + #{better} .. m − #{worse}."""
    better = (theta[None, :] > theta[:, None]).sum(axis=1)
    worse = (theta[None, :] < theta[:, None]).sum(axis=1)
    return 1 + better, len(theta) - worse


def leaderboard(seed: np.random.SeedSequence) -> pd.DataFrame:
    """A predictions frame: truth 1 for every question, a model's prediction 1 when right."""
    rng = np.random.default_rng(seed)
    a = special.ndtri(THETA) * np.sqrt(2.0)
    difficulty = rng.standard_normal((N_QUESTIONS, 1))
    right = a[None, :] - difficulty - rng.standard_normal((N_QUESTIONS, THETA.size)) > 0
    frame = pd.DataFrame(right.astype(np.int8), columns=[f"M{j}" for j in range(THETA.size)])
    frame.insert(0, "y", np.ones(N_QUESTIONS, dtype=np.int8))
    return frame


def chained_tie_group(frame: pd.DataFrame, alpha: float = 0.05) -> list:
    """The observed leader and the models after it until McNemar against it rejects."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        versus = pdcompare.mcnemar(frame, p_adjust=None)  # the leader against every other
    group = [versus["model_1"].iloc[0]]
    for other, pvalue in zip(versus["model_2"], versus["pvalue"], strict=True):
        if pvalue <= alpha:
            break
        group.append(other)
    return group


def cv_leaderboard(rng: np.random.Generator, theta: np.ndarray) -> pd.DataFrame:
    """Scores of 10-fold CV with the split correlation the corrected t-test assumes."""
    m = theta.size
    split = rng.normal(0.0, 0.02, N_SPLITS)
    shared = np.sqrt(RHO) * rng.standard_normal((m, 1))
    own = np.sqrt(1.0 - RHO) * rng.standard_normal((m, N_SPLITS))
    values = theta[:, None] + split[None, :] + SIGMA * (shared + own)
    return pd.DataFrame(values, index=[f"M{j}" for j in range(m)])


def cv_coverage(
    seed: np.random.SeedSequence, theta: np.ndarray, n_draws: int
) -> tuple[float, float]:
    """Joint coverage of one CV leaderboard: studentised (``ranks``) and normal draws."""
    rng = np.random.default_rng(seed.spawn(1)[0])
    frame = cv_leaderboard(rng, theta)
    low_true, high_true = true_rank_bounds(theta)
    state = int(seed.generate_state(2)[1])
    names = list(frame.index)
    studentised = frame.cmp.ranks(cv=N_SPLITS, n_draws=n_draws, random_state=state).loc[names]
    found = estimates_of(frame, cv=N_SPLITS)
    _, low, high = rank_confidence_sets(
        found.estimate, found.covariance, n_draws=n_draws, random_state=state
    )
    covers = bool(
        np.all(studentised["rank_low"].to_numpy() <= low_true)
        & np.all(studentised["rank_high"].to_numpy() >= high_true)
    )
    return float(covers), float(np.all(low <= low_true) & np.all(high >= high_true))


def items_leaderboard(rng: np.random.Generator, theta: np.ndarray) -> pd.DataFrame:
    """An items frame: 0/1 answers to questions in passages, clustered by passage.

    Model j answers question i of passage c right when a_j − p_c − q_i − e_ji > 0,
    p_c ~ N(0, 1/2), q_i ~ N(0, 1/2), e_ji ~ N(0, 1): its true accuracy is Φ(a_j / √2).
    """
    m, n = theta.size, N_PASSAGES * PER_PASSAGE
    a = special.ndtri(theta) * np.sqrt(2.0)
    passage = np.repeat(np.arange(N_PASSAGES), PER_PASSAGE)
    difficulty = np.sqrt(0.5) * (rng.standard_normal(N_PASSAGES)[passage] + rng.standard_normal(n))
    right = a[:, None] - difficulty[None, :] - rng.standard_normal((m, n)) > 0
    long = pd.DataFrame(
        {
            "model": np.repeat([f"M{j}" for j in range(m)], n),
            "item": np.tile(np.arange(n), m),
            "passage": np.tile(passage, m),
            "score": right.ravel().astype(float),
        }
    )
    return pdcompare.from_items(long, cluster="passage")


def items_coverage(
    seed: np.random.SeedSequence, theta: np.ndarray, n_draws: int, stream: int
) -> float:
    """Joint coverage of ``ranks()`` on one clustered items leaderboard (CR2, C − 1 df).

    Its random numbers come from the leaderboard's own seed (``generate_state``),
    whatever was spawned from it before, so these columns join the others' run.
    """
    state = seed.generate_state(6)  # [0], [1]: the other columns'; stream 0 or 1 here
    rng = np.random.default_rng(int(state[2 + stream]))
    frame = items_leaderboard(rng, theta)
    low_true, high_true = true_rank_bounds(theta)
    names = [f"M{j}" for j in range(theta.size)]
    sets = frame.cmp.ranks(n_draws=n_draws, random_state=int(state[4 + stream])).loc[names]
    return float(
        np.all(sets["rank_low"].to_numpy() <= low_true)
        & np.all(sets["rank_high"].to_numpy() >= high_true)
    )


def items_replicate(seed: np.random.SeedSequence, n_draws: int) -> dict[str, float]:
    """One leaderboard's clustered items columns (with ties; all ten equal)."""
    return {
        "items_ties": items_coverage(seed, THETA, n_draws, 0),
        "items_equal": items_coverage(seed, np.full(THETA.size, 0.80), n_draws, 1),
    }


def replicate(seed: np.random.SeedSequence, n_draws: int) -> dict[str, float]:
    """One leaderboard: which sets covered."""
    frame = leaderboard(seed)
    low_true, high_true = true_rank_bounds(THETA)
    names = [f"M{j}" for j in range(THETA.size)]
    best = {name for name, theta in zip(names, THETA, strict=True) if theta == THETA.max()}
    state = int(seed.generate_state(1)[0])
    simultaneous = pdcompare.ranks(frame, n_draws=n_draws, random_state=state).loc[names]
    marginal = pdcompare.ranks(frame, simultaneous=False, n_draws=n_draws, random_state=state).loc[
        names
    ]
    joint = bool(
        np.all(simultaneous["rank_low"].to_numpy() <= low_true)
        & np.all(simultaneous["rank_high"].to_numpy() >= high_true)
    )
    each = (marginal["rank_low"].to_numpy() <= low_true) & (
        marginal["rank_high"].to_numpy() >= high_true
    )
    top = set(simultaneous.index[simultaneous["rank_low"] <= 1])
    chain = set(chained_tie_group(frame))
    cv_ties = cv_coverage(seed, THETA, n_draws)
    cv_equal = cv_coverage(seed, np.full(THETA.size, 0.80), n_draws)
    return {
        "cv_ties_studentised": cv_ties[0],
        "cv_ties_normal": cv_ties[1],
        "cv_equal_studentised": cv_equal[0],
        "cv_equal_normal": cv_equal[1],
        "joint": float(joint),
        **{f"marginal_{name}": float(c) for name, c in zip(names, each, strict=True)},
        "top_set": float(best <= top),
        "top_set_size": float(len(top)),
        "chain": float(best <= chain),
        "chain_size": float(len(chain)),
        "width_simultaneous": float((simultaneous["rank_high"] - simultaneous["rank_low"]).mean()),
        "width_marginal": float((marginal["rank_high"] - marginal["rank_low"]).mean()),
        **items_replicate(seed, n_draws),
    }


def run_ranks_study(reps: int, seed: int = 2024, n_draws: int = 10000) -> pd.DataFrame:
    """One row per leaderboard (see ``replicate``)."""
    seeds = np.random.SeedSequence(seed).spawn(reps)
    return pd.DataFrame([replicate(s, n_draws) for s in seeds])


def ranks_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """The Markdown table of the docs' validity page."""
    reps = len(table)

    def rate(p: float) -> str:
        return f"{100 * p:.1f} % (± {100 * np.sqrt(p * (1 - p) / reps):.1f})"

    marginal = table[[c for c in table.columns if c.startswith("marginal_")]].mean()
    lines = [
        f"Rank sets on {reps} simulated leaderboards (10 models, {N_QUESTIONS} questions, "
        f"true accuracies {' '.join(f'{t:.2f}' for t in THETA)}; coverage {COVARIANCE_WORD}, "
        f"seed {seed}, {seconds:.0f} s):",
        "",
        "| method | covers (± MC s.e.) | error rate | mean size |",
        "| --- | --- | --- | --- |",
        f"| simultaneous rank sets, all 10 models jointly | {rate(table['joint'].mean())} | "
        f"{100 * (1 - table['joint'].mean()):.1f} % | width "
        f"{table['width_simultaneous'].mean():.2f} ranks |",
        f"| marginal rank sets, each model (lowest of the 10) | {rate(marginal.min())} | "
        f"{100 * (1 - marginal.min()):.1f} % | width {table['width_marginal'].mean():.2f} ranks |",
        f"| marginal rank sets, each model (mean of the 10) | {rate(marginal.mean())} | "
        f"{100 * (1 - marginal.mean()):.1f} % | |",
        f"| `top_set()` holds the 3 truly best | {rate(table['top_set'].mean())} | "
        f"{100 * (1 - table['top_set'].mean()):.1f} % | {table['top_set_size'].mean():.2f} "
        "models |",
        f"| chained McNemar tie group (uncorrected) holds the 3 truly best | "
        f"{rate(table['chain'].mean())} | {100 * (1 - table['chain'].mean()):.1f} % | "
        f"{table['chain_size'].mean():.2f} models |",
        "",
        f"Joint coverage of the simultaneous sets on {reps} leaderboards of 10 models x "
        f"{N_SPLITS}-fold CV (scores frames, the Nadeau–Bengio covariance on "
        f"{N_SPLITS - 1} degrees of freedom):",
        "",
        "| draws | ties and near ties | all ten equal |",
        "| --- | --- | --- |",
        f"| studentised (Wishart, {N_SPLITS - 1} df), `ranks(cv=10)` | "
        f"{rate(table['cv_ties_studentised'].mean())} | "
        f"{rate(table['cv_equal_studentised'].mean())} |",
        f"| normal (Σ̂ taken as known) | {rate(table['cv_ties_normal'].mean())} | "
        f"{rate(table['cv_equal_normal'].mean())} |",
        "",
        f"Joint coverage of `ranks()` on {reps} items leaderboards of 10 models x "
        f"{N_PASSAGES * PER_PASSAGE} questions in {N_PASSAGES} passages (clustered, CR2, "
        f"studentised draws on {N_PASSAGES - 1} degrees of freedom):",
        "",
        "| items frame | ties and near ties | all ten equal |",
        "| --- | --- | --- |",
        f"| `from_items(cluster=)`, `ranks()` | {rate(table['items_ties'].mean())} | "
        f"{rate(table['items_equal'].mean())} |",
    ]
    return "\n".join(lines) + "\n"


COVARIANCE_WORD = f"{COVERAGE:.0%}"
