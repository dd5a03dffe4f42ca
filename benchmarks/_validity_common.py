"""The CV machinery shared by the validity studies (``validity.py``, ``validity_gate.py``).

Two learners are equal by construction: the same learning algorithm on two
exchangeable views of one data set (see ``validity.py``). This module holds
the populations, the data, the stratified folds and the two learners (LDA and
1-NN, batched over splits), so that the studies import it and not each other.
"""

from __future__ import annotations

import math

import numpy as np

N = 200
K_FOLDS = 10
N_REPEATS = 10

# Population parameters. `noise_alt` is view 2's noise scale in the power scenario.
POPULATIONS = {
    "linear": {"learner": "LDA", "delta": 2.4, "noise": 1.0, "noise_alt": 1.4},
    "ring": {"learner": "1-NN", "noise": 0.35, "noise_alt": 0.45},
}

# --- data ------------------------------------------------------------------------------------


def make_data(population: str, rng: np.random.Generator) -> dict:
    """One data set: labels, the latent signal and the two views' noise (unscaled)."""
    if population == "linear":
        p = 4
        y = rng.integers(0, 2, N)
        shift = POPULATIONS["linear"]["delta"] / math.sqrt(p)
        z = rng.standard_normal((N, p)) + shift * y[:, None]
    else:
        z = rng.standard_normal((N, 2))
        y = ((z**2).sum(axis=1) > 2 * math.log(2)).astype(int)
        z = np.hstack([z, np.zeros((N, 2))])  # two features carry noise only
    noise = rng.standard_normal((2, *z.shape))
    return {"y": y, "z": z, "noise": noise}


def views(data: dict, population: str, noise_2: float) -> tuple[np.ndarray, np.ndarray]:
    """The two views; view 2's noise scale is `noise_2` (equal to view 1's under the null)."""
    noise_1 = POPULATIONS[population]["noise"]
    return data["z"] + noise_1 * data["noise"][0], data["z"] + noise_2 * data["noise"][1]


def stratified_folds(y: np.ndarray, k: int, n_repeats: int, rng) -> np.ndarray:
    """Fold of every row in every repeat, shape (n_repeats, n): stratified k-fold."""
    folds = np.empty((n_repeats, len(y)), dtype=int)
    for r in range(n_repeats):
        # Rows of class 0 then of class 1, each in random order, dealt round-robin.
        order = np.concatenate([rng.permutation(np.flatnonzero(y == c)) for c in (0, 1)])
        folds[r, order] = np.arange(len(y)) % k
    return folds


# --- learners, batched over splits ---------------------------------------------------------------


def lda_fit(X: np.ndarray, y: np.ndarray, weights: np.ndarray):
    """LDA fitted on the rows of each weight vector (shape (B, n)): coef (B, p), intercept (B,)."""
    w1, w0 = weights * y, weights * (1 - y)
    n1, n0 = w1.sum(axis=1), w0.sum(axis=1)
    m1, m0 = (w1 @ X) / n1[:, None], (w0 @ X) / n0[:, None]
    scatter = (
        np.einsum("bn,ni,nj->bij", weights, X, X)
        - n1[:, None, None] * m1[:, :, None] * m1[:, None, :]
        - n0[:, None, None] * m0[:, :, None] * m0[:, None, :]
    )
    cov = scatter / (n1 + n0 - 2)[:, None, None]
    coef = np.linalg.solve(cov, (m1 - m0)[:, :, None])[:, :, 0]
    intercept = -0.5 * np.einsum("bp,bp->b", coef, m1 + m0) + np.log(n1 / n0)
    return coef, intercept


def nn_predict(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray) -> np.ndarray:
    """1-nearest-neighbour predictions (Euclidean)."""
    d = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
    return y_train[d.argmin(axis=1)]


def cv_accuracy(learner: str, X: np.ndarray, y: np.ndarray, folds: np.ndarray) -> np.ndarray:
    """Test accuracy of every split of the fold assignment `folds` (n_repeats, n): (R, k)."""
    n_repeats, n = folds.shape
    k = folds.max() + 1
    if learner == "LDA":
        # Split (r, f) trains on the rows outside fold f of repeat r.
        train = folds[:, None, :] != np.arange(k)[None, :, None]  # (R, k, n)
        coef, intercept = lda_fit(X, y, train.reshape(n_repeats * k, n).astype(float))
        coef, intercept = coef.reshape(n_repeats, k, -1), intercept.reshape(n_repeats, k)
        # Every row is predicted by the model of its own fold.
        own = np.take_along_axis(coef, folds[:, :, None], axis=1)  # (R, n, p)
        decision = np.einsum("rnp,np->rn", own, X) + np.take_along_axis(intercept, folds, 1)
        predicted = (decision > 0).astype(int)
    else:
        # 1-NN: distances to rows of other folds only.
        d = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
        same_fold = folds[:, :, None] == folds[:, None, :]  # (R, n, n)
        predicted = y[np.where(same_fold, np.inf, d[None]).argmin(axis=2)]
    correct = (predicted == y).astype(float)
    hits = np.zeros((n_repeats, k))
    for r in range(n_repeats):
        hits[r] = np.bincount(folds[r], weights=correct[r], minlength=k)
    counts = np.stack([np.bincount(f, minlength=k) for f in folds])
    return hits / counts


def fit_predict(learner: str, X_train, y_train, X_tests) -> list[np.ndarray]:
    """Fit once on (X_train, y_train), predict each array of `X_tests`."""
    if learner == "LDA":
        coef, intercept = lda_fit(X_train, y_train, np.ones((1, len(y_train))))
        return [(X @ coef[0] + intercept[0] > 0).astype(int) for X in X_tests]
    return [nn_predict(X_train, y_train, X) for X in X_tests]
