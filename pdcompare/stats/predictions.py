"""Tests on the predictions of models on one test set: McNemar, Cochran's Q, two-proportion z.

The input is the correctness of every model on every sample, a boolean array
of shape ``(samples, models)``, with a mask of the entries that are usable
(truth and prediction present). Pairwise counts come from one matrix product
for all pairs at once. The sign convention is scipy's: statistics are about
``model_1 − model_2``.
"""

from __future__ import annotations

import numpy as np

from pdcompare._validation import check_option
from pdcompare.stats import _special as special
from pdcompare.stats._common import ALTERNATIVES

#: Below this many discordant samples, ``exact=None`` picks McNemar's exact binomial test.
EXACT_BELOW = 25


def correctness(y_true, y_pred, missing) -> tuple[np.ndarray, np.ndarray]:
    """Which predictions are right, and which entries are usable.

    Parameters
    ----------
    y_true : array_like, shape (samples,)
        True labels, any dtype.
    y_pred : array_like, shape (samples, models)
        Predicted labels.
    missing : array_like of bool, shape (samples, models + 1)
        Missing truth (column 0) or prediction (columns 1...).

    Returns
    -------
    correct, valid : numpy.ndarray of bool, shape (samples, models)
        ``correct`` is False where ``valid`` is False.

    Examples
    --------
    >>> correct, valid = correctness(np.array(["a", "b"]), np.array([["a", "a"], ["a", "b"]]),
    ...                              np.zeros((2, 3), dtype=bool))
    >>> correct.tolist()
    [[True, True], [False, True]]
    """
    missing = np.asarray(missing, dtype=bool)
    valid = ~missing[:, 1:] & ~missing[:, [0]]
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if not _numpy_compares_like_python(y_true, y_pred):
        # Comparing as Python objects matches labels of any dtype (1 == 1.0, strings, ...).
        y_true = y_true.astype(object)
        y_pred = y_pred.astype(object)
    correct = np.asarray(y_pred == y_true[:, None], dtype=bool)
    correct &= valid
    return correct, valid


def _numpy_compares_like_python(y_true: np.ndarray, y_pred: np.ndarray) -> bool:
    """Whether numpy's ``==`` on these arrays gives what Python's ``==`` on the labels would.

    Numbers with numbers (bool, int, float; integers against floats only below
    2**53, where the float conversion is exact) and text with text of one kind.
    """
    kinds = {y_true.dtype.kind, y_pred.dtype.kind}
    if kinds <= set("US"):
        return len(kinds) == 1
    if not kinds <= set("biuf"):
        return False
    if "f" not in kinds or not kinds & set("iu"):
        return True
    return all(
        values.dtype.kind not in "iu"
        or not values.size
        or max(-int(values.min()), int(values.max())) < 2**53
        for values in (y_true, y_pred)
    )


#: Set bits of every byte, for counting without ``np.bitwise_count`` (numpy < 2).
_BITS = np.array([bin(value).count("1") for value in range(256)], dtype=np.uint8)


def _set_bits(packed: np.ndarray) -> np.ndarray:
    """Number of set bits along the last axis of a packed uint8 array, as int64."""
    counts = np.bitwise_count(packed) if hasattr(np, "bitwise_count") else _BITS[packed]
    return counts.sum(axis=-1, dtype=np.int64)


class PackedCorrectness:
    """Correctness and usability of every model, one bit per sample, for counting pairs.

    Every count a pair needs is the number of samples where two such bit
    rows are both set: one ``&`` and a bit count over ``samples / 8`` bytes
    per pair, for only the pairs asked for (m − 1 for one model against the
    rest), instead of the m × m matrix products of all pairs.

    Parameters
    ----------
    correct, valid : array_like of bool, shape (samples, models)
        As returned by :func:`correctness`.
    """

    def __init__(self, correct, valid) -> None:
        correct = np.asarray(correct, dtype=bool)
        valid = np.asarray(valid, dtype=bool)
        # Without missing entries every pair has every sample: no valid bits needed.
        self._set(
            correct.shape[0],
            np.packbits(np.ascontiguousarray(correct.T), axis=1),
            None if valid.all() else np.packbits(np.ascontiguousarray(valid.T), axis=1),
        )

    @classmethod
    def from_bits(cls, n_samples: int, correct, valid=None) -> PackedCorrectness:
        """From bits packed already, one row per model (as :class:`CorrectnessBits` fills them).

        Parameters
        ----------
        n_samples : int
            Number of samples (bits per row; the last byte's padding bits are 0).
        correct : numpy.ndarray of uint8, shape (models, ceil(samples / 8))
            ``np.packbits(correct.T, axis=1)`` of the boolean correctness.
        valid : numpy.ndarray of uint8 or None
            The same for usability; None when every entry is usable.

        Examples
        --------
        >>> correct = np.array([[1, 0], [1, 1], [0, 1]], dtype=bool)
        >>> bits = PackedCorrectness.from_bits(3, np.packbits(correct.T, axis=1))
        >>> bits.accuracies().round(3).tolist()
        [0.667, 0.667]
        """
        out = cls.__new__(cls)
        out._set(int(n_samples), correct, valid)
        return out

    def _set(self, n_samples: int, correct: np.ndarray, valid: np.ndarray | None) -> None:
        self.n_samples = n_samples
        self.correct = correct
        self.n_correct = _set_bits(correct)
        self.valid = valid
        self.n_valid = (
            np.full(correct.shape[0], n_samples, dtype=np.int64)
            if valid is None
            else _set_bits(valid)
        )

    def accuracies(self) -> np.ndarray:
        """Accuracy of each model on the samples where it and the truth are present."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.n_correct / self.n_valid

    def pair_counts(self, i, j) -> dict[str, np.ndarray]:
        """The counts of :func:`pair_counts` for the pairs ``(i, j)``, as float64."""
        i = np.asarray(i, dtype=np.intp)
        j = np.asarray(j, dtype=np.intp)
        both_right = self._both(self.correct, i, self.correct, j)
        if self.valid is None:
            n = np.full(i.size, self.n_samples, dtype=np.int64)
            correct_1, correct_2 = self.n_correct[i], self.n_correct[j]
        else:
            n = self._both(self.valid, i, self.valid, j)
            # Model_1 right where model_2 is usable (model_1 right implies it is usable).
            correct_1 = self._both(self.correct, i, self.valid, j)
            correct_2 = self._both(self.correct, j, self.valid, i)
        return {
            "n": n.astype(float),
            "correct_1": correct_1.astype(float),
            "correct_2": correct_2.astype(float),
            "only_1": (correct_1 - both_right).astype(float),
            "only_2": (correct_2 - both_right).astype(float),
        }

    def _both(self, first: np.ndarray, i: np.ndarray, second: np.ndarray, j: np.ndarray):
        """Samples where both ``first[i]`` and ``second[j]`` hold, pair by pair, memory bounded."""
        out = np.empty(i.size, dtype=np.int64)
        step = max(1, (1 << 24) // max(first.shape[1], 1))
        for start in range(0, i.size, step):
            part = slice(start, start + step)
            out[part] = self._count(first[i[part]] & second[j[part]])
        return out

    @staticmethod
    def _count(rows: np.ndarray) -> np.ndarray:
        """The samples of each row of packed bits: its set bits."""
        return _set_bits(rows)


class CorrectnessBits:
    """Correctness and usability packed into bits block by block of models, as they are read.

    Each block of models adds its boolean ``(samples, block)`` arrays; only
    their bits are kept, one row of ``ceil(samples / 8)`` bytes per model,
    so the ``samples × models`` boolean matrices never exist. Usability bits
    are made only once some entry is missing.

    Parameters
    ----------
    n_samples, n_models : int
        Shape of the whole correctness matrix.

    Examples
    --------
    >>> correct = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=bool)
    >>> valid = np.array([[1, 1, 1], [1, 1, 1], [1, 0, 1]], dtype=bool)
    >>> bits = CorrectnessBits(3, 3)
    >>> bits.add(slice(0, 2), correct[:, :2], valid[:, :2])
    >>> bits.add(slice(2, 3), correct[:, 2:], valid[:, 2:])
    >>> packed = bits.packed()
    >>> bool((packed.correct == np.packbits(correct.T, axis=1)).all())
    True
    >>> packed.accuracies().tolist() == PackedCorrectness(correct, valid).accuracies().tolist()
    True
    """

    def __init__(self, n_samples: int, n_models: int) -> None:
        self.n_samples = int(n_samples)
        width = -(-self.n_samples // 8)
        self.correct = np.empty((n_models, width), dtype=np.uint8)
        self.valid = None
        self._done = np.zeros(n_models, dtype=bool)

    def add(self, columns: slice, correct, valid) -> None:
        """The bits of the models ``columns`` from their boolean ``(samples, block)`` arrays."""
        # packbits along the samples of a (samples, block) array gives (bytes, block):
        # the transposed rows of np.packbits(correct.T, axis=1), without a transposed copy.
        self.correct[columns] = np.packbits(correct, axis=0).T
        if self.valid is None and not np.all(valid):
            # Models added before had every entry usable: every sample's bit set.
            self.valid = np.empty_like(self.correct)
            self.valid[self._done] = self._all_set()
        if self.valid is not None:
            self.valid[columns] = np.packbits(valid, axis=0).T
        self._done[columns] = True

    def _all_set(self) -> np.ndarray:
        """One model's usability bits when every sample is usable (padding bits 0)."""
        return np.packbits(np.ones(self.n_samples, dtype=bool))

    def packed(self) -> PackedCorrectness:
        """The :class:`PackedCorrectness` of every model added."""
        return PackedCorrectness.from_bits(self.n_samples, self.correct, self.valid)


class WeightedCorrectness(PackedCorrectness):
    """The counts of :class:`PackedCorrectness` for rows that each stand for several samples.

    ``weights[r]`` samples share row ``r`` (the distinct rows of a large
    predictions frame and their counts): every count is a weighted sum, in
    exact integers, so it equals the count on the expanded rows.

    Examples
    --------
    >>> correct = np.array([[1, 0], [1, 1], [0, 1]], dtype=bool)
    >>> weighted = WeightedCorrectness(correct, np.ones_like(correct), [2, 1, 1])
    >>> expanded = PackedCorrectness(np.repeat(correct, [2, 1, 1], axis=0),
    ...                              np.ones((4, 2), dtype=bool))
    >>> def counts(c):
    ...     return {k: v.tolist() for k, v in c.pair_counts([0], [1]).items()}
    >>> counts(weighted) == counts(expanded), counts(weighted)["only_1"]
    (True, [2.0])
    """

    def __init__(self, correct, valid, weights) -> None:
        self.weights = np.asarray(weights, dtype=np.int64)
        self.n_samples = int(self.weights.sum())
        self.correct = np.ascontiguousarray(np.asarray(correct, dtype=bool).T)
        self.valid = np.ascontiguousarray(np.asarray(valid, dtype=bool).T)
        self.n_correct = self.correct @ self.weights
        self.n_valid = self.valid @ self.weights

    def _count(self, rows: np.ndarray) -> np.ndarray:
        """The samples of each row of booleans: the weights of its True entries."""
        return rows @ self.weights


def pair_counts(correct, valid, i, j) -> dict[str, np.ndarray]:
    """Counts of each pair ``(i, j)`` of models on the samples usable for both.

    Returns ``n`` (samples where both predictions and the truth are present),
    ``correct_1`` and ``correct_2`` (right answers of each model on them),
    ``only_1`` (model_1 right, model_2 wrong) and ``only_2``.

    Examples
    --------
    >>> correct = np.array([[1, 0], [1, 1], [0, 1], [1, 0]], dtype=bool)
    >>> out = pair_counts(correct, np.ones_like(correct), np.array([0]), np.array([1]))
    >>> {k: v.tolist() for k, v in out.items()}
    {'n': [4.0], 'correct_1': [3.0], 'correct_2': [2.0], 'only_1': [2.0], 'only_2': [1.0]}
    """
    return PackedCorrectness(correct, valid).pair_counts(i, j)


def mcnemar(
    only_1, only_2, *, exact: bool | None = None, correction: bool = True
) -> dict[str, np.ndarray]:
    """McNemar's test on the discordant counts of pairs of models, vectorised.

    Parameters
    ----------
    only_1, only_2 : array_like
        Samples that only model_1 (only model_2) classifies correctly.
    exact : bool or None, default None
        True: the exact binomial test; False: the chi-square approximation;
        None: exact where ``only_1 + only_2 < 25``, chi-square elsewhere.
    correction : bool, default True
        Continuity correction of the chi-square statistic (ignored when exact).

    Returns
    -------
    dict of numpy.ndarray
        ``statistic``, ``pvalue``, ``exact`` (which version each pair got) and
        ``no_discordant`` (pairs whose chi-square statistic would be 0/0; they
        get statistic 0 and p-value 1).

    Notes
    -----
    The semantics are those of ``statsmodels.stats.contingency_tables.mcnemar``
    with ``b = only_1`` and ``c = only_2``. Exact: the statistic is
    ``min(b, c)`` and ``p = min(1, 2 · BinomCDF(min(b, c); b + c, 1/2))``.
    Chi-square: ``(|b − c| − k)² / (b + c)`` with ``k = 1`` with the continuity
    correction (Edwards) and 0 without, p from chi-square with 1 degree of
    freedom. Both are two-sided. The samples that both models get right or
    both get wrong carry no information about which is better (McNemar 1947;
    Dietterich 1998 recommends the test when models can be trained only once).

    Examples
    --------
    >>> out = mcnemar(np.array([10, 3]), np.array([25, 4]))
    >>> out["exact"].tolist(), out["statistic"].round(4).tolist(), out["pvalue"].round(4).tolist()
    ([False, True], [5.6, 3.0], [0.018, 1.0])

    Compare with statsmodels:

    >>> from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
    >>> round(float(sm_mcnemar([[0, 10], [25, 0]], exact=False).pvalue), 4)
    0.018
    """
    b = np.asarray(only_1, dtype=float)
    c = np.asarray(only_2, dtype=float)
    total = b + c
    use_exact = total < EXACT_BELOW if exact is None else np.full(np.shape(total), bool(exact))
    # Exact binomial test, as statsmodels: twice the lower tail at min(b, c), capped at 1.
    smaller = np.minimum(b, c)
    exact_p = np.full(np.shape(total), np.nan)
    needed = use_exact & ~np.isnan(total)
    if needed.any():  # scipy.stats (a slow first import) only when some pair needs it
        from scipy import stats

        exact_p[needed] = np.minimum(
            2.0 * stats.binom.cdf(smaller[needed], total[needed], 0.5), 1.0
        )
    # Chi-square approximation; no discordant sample makes it 0/0, which means "no evidence".
    no_discordant = (total == 0) & ~use_exact
    with np.errstate(invalid="ignore", divide="ignore"):
        chi_square = (np.abs(b - c) - float(bool(correction))) ** 2 / total
    chi_square = np.where(total == 0, 0.0, chi_square)
    chi_p = special.chdtrc(1.0, chi_square)
    return {
        "statistic": np.where(use_exact, smaller, chi_square),
        "pvalue": np.where(use_exact, exact_p, chi_p),
        "exact": np.asarray(use_exact, dtype=bool),
        "no_discordant": no_discordant,
    }


def cochrans_q(correct, weights=None) -> dict[str, float | bool]:
    """Cochran's Q test of equal accuracy of several models on the same samples.

    Parameters
    ----------
    correct : array_like of bool, shape (samples, models)
        Whether each model classifies each sample correctly (complete rows only).
    weights : array_like of int, shape (samples,), optional
        How many samples each row stands for (distinct rows and their counts);
        the sums are then weighted, in exact integers.

    Returns
    -------
    dict
        ``n_models``, ``statistic``, ``df`` (models − 1), ``pvalue`` and
        ``degenerate`` (True when every sample is right for all models or
        wrong for all: Q is 0/0, reported as statistic 0 and p-value 1).

    Notes
    -----
    With ``k`` models, ``G_j`` the number of samples model ``j`` gets right and
    ``L_i`` the number of models right on sample ``i``,

    ``Q = (k − 1) (k Σ_j G_j² − (Σ_j G_j)²) / (k Σ_i L_i − Σ_i L_i²)``,

    chi-square with ``k − 1`` degrees of freedom under the null hypothesis that
    all models have the same accuracy (Cochran 1950). With two models it is
    McNemar's chi-square without continuity correction. Same formula as
    ``statsmodels.stats.contingency_tables.cochrans_q`` and
    ``mlxtend.evaluate.cochrans_q``.

    Examples
    --------
    >>> correct = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 1, 0], [1, 1, 0]], dtype=bool)
    >>> out = cochrans_q(correct)
    >>> out["statistic"], round(out["pvalue"], 4)
    (4.5, 0.1054)

    Compare with statsmodels:

    >>> from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q
    >>> round(float(sm_cochrans_q(correct.astype(int)).pvalue), 4)
    0.1054
    """
    correct = np.asarray(correct, dtype=bool)
    k = correct.shape[1]
    # Counts as floats (exact integers) for the sums of squares below.
    per_sample = correct.sum(axis=1, dtype=np.int64)
    if weights is None:
        per_model = np.count_nonzero(correct, axis=0).astype(float)
        squares = np.sum(per_sample.astype(float) ** 2)
    else:
        weights = np.asarray(weights, dtype=np.int64)
        per_model = (weights @ correct).astype(float)
        squares = float(weights @ per_sample**2)
    total = per_model.sum()
    numerator = (k - 1) * (k * np.sum(per_model**2) - total**2)
    denominator = k * total - squares
    degenerate = bool(denominator == 0)
    # The denominator is 0 only when every sample is all-right or all-wrong, and then the
    # per-model counts are equal, so the numerator is 0 too.
    statistic = 0.0 if degenerate else float(numerator / denominator)
    return {
        "n_models": k,
        "statistic": statistic,
        "df": k - 1,
        "pvalue": float(special.chdtrc(k - 1, statistic)),
        "degenerate": degenerate,
    }


def proportions_ztest(
    correct_1, correct_2, n, *, alternative: str = "two-sided"
) -> dict[str, np.ndarray]:
    """Two-proportion z-test of the accuracies of pairs of models (pooled variance).

    Parameters
    ----------
    correct_1, correct_2 : array_like
        Correct predictions of model_1 and model_2 on the ``n`` samples.
    n : array_like
        Number of test samples of each pair.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater" tests whether model_1 is more accurate.

    Returns
    -------
    dict of numpy.ndarray
        ``accuracy_1``, ``accuracy_2``, ``statistic``, ``pvalue`` and
        ``degenerate`` (both accuracies 0 or both 1: z is 0/0, reported as
        statistic 0 and p-value 1).

    Notes
    -----
    ``z = (p_1 − p_2) / sqrt(2 p (1 − p) / n)`` with ``p = (p_1 + p_2) / 2``, the
    pooled proportion; standard normal under the null hypothesis. Same as
    ``statsmodels.stats.proportion.proportions_ztest`` with both counts and
    ``nobs=[n, n]``. The test assumes two independent samples; the
    accuracies of two models on one test set are not independent, which is
    why Dietterich (1998) found its type I error elevated.

    Examples
    --------
    >>> out = proportions_ztest(np.array([80]), np.array([70]), np.array([100]))
    >>> round(float(out["statistic"][0]), 4), round(float(out["pvalue"][0]), 4)
    (1.633, 0.1025)

    Compare with statsmodels:

    >>> from statsmodels.stats.proportion import proportions_ztest as sm_ztest
    >>> [round(float(x), 4) for x in sm_ztest([80, 70], [100, 100])]
    [1.633, 0.1025]
    """
    check_option("alternative", alternative, ALTERNATIVES)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy_1 = np.asarray(correct_1, dtype=float) / n
        accuracy_2 = np.asarray(correct_2, dtype=float) / n
        pooled = (accuracy_1 + accuracy_2) / 2.0
        standard_error = np.sqrt(pooled * (1.0 - pooled) * 2.0 / n)
        difference = accuracy_1 - accuracy_2
        # Pooled accuracy 0 or 1 means p_1 = p_2: no difference, z = 0/0 read as 0.
        degenerate = standard_error == 0.0
        statistic = np.where(degenerate, 0.0, difference / standard_error)
    if alternative == "greater":
        pvalue = special.ndtr(-statistic)
    elif alternative == "less":
        pvalue = special.ndtr(statistic)
    else:
        pvalue = np.minimum(2.0 * special.ndtr(-np.abs(statistic)), 1.0)
    # Degenerate pairs have no evidence either way, whatever the alternative.
    pvalue = np.where(degenerate, 1.0, pvalue)
    return {
        "accuracy_1": accuracy_1,
        "accuracy_2": accuracy_2,
        "statistic": statistic,
        "pvalue": pvalue,
        "degenerate": degenerate,
    }


def accuracies(correct, valid) -> np.ndarray:
    """Accuracy of each model on the samples where its prediction and the truth are present.

    Examples
    --------
    >>> correct = np.array([[1, 0], [1, 1], [0, 0]], dtype=bool)
    >>> accuracies(correct, np.array([[1, 1], [1, 1], [1, 0]], dtype=bool)).round(3).tolist()
    [0.667, 0.5]
    """
    return PackedCorrectness(correct, valid).accuracies()
