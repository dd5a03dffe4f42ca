"""Every pair at once, and the square model x model table of a pairwise result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_keywords, check_option
from pdcompare.compare import registry
from pdcompare.compare.calls import frame_function
from pdcompare.compare.mcm import comparison_matrix
from pdcompare.compare.registry import pairwise_tests
from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.stats.effect_size import PROBABILITY_MEASURES

#: The columns of an equivalence result whose mirrored cell is the other one-sided test's.
#: Every kind of frame whose models ``pairwise`` compares.
_PAIRWISE_KINDS = tuple(kind for kind in FrameKind if kind is not FrameKind.RESULT)

EQUIVALENCE_PARTNERS = {
    "statistic_low": "statistic_high",
    "statistic_high": "statistic_low",
    "pvalue_low": "pvalue_high",
    "pvalue_high": "pvalue_low",
}


@frame_function("pairwise", _PAIRWISE_KINDS, correction_keyword="correction")
def pairwise(
    scores: pd.DataFrame,
    test: str | None = None,
    *,
    correction: str | None = "default",
    alpha: float = 0.05,
    **options: Any,
) -> pd.DataFrame:
    """Compare every pair of models with one test, best first, corrected over all pairs.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    test : str, optional
        The method that compares each pair: "corrected_ttest" (the default
        on a scores frame; "welch_ttest" on a runs frame), "ttest",
        "wilcoxon" (the default on a benchmark
        frame), "sign_test", "bayes", "ttest_5x2cv", "ftest_5x2cv" (the last
        two on 5x2cv scores only), "equivalence" (needs ``rope=``),
        "effect_size" (every pair's effect size, no p-value and no
        correction), and on a benchmark frame the mean-rank tests "nemenyi"
        and "conover" and the hierarchical Bayesian test "hierarchical"
        (which, like "bayes", takes no correction). "conover" is the more
        powerful mean-rank test but does not hold its level when one model
        dominates: in pdcompare's validity study (alpha 0.05, one model
        first on almost every data set, the others equal) it declared two
        equal models different in 9.6–20.0 % of benchmarks of 3 models,
        9.2–13.0 % of 5 and 4.0–7.0 % of 10, against 0–1.0 % for
        "nemenyi" and 0–5.6 % for "wilcoxon" with Holm; use one of those
        where one model may dominate. The unpaired tests
        "welch_ttest", "mannwhitney" and "aso" compare runs frames (and any
        other frame). On a predictions frame (a truth column ``y``) there is
        no default: "mcnemar", "proportions_ztest", "bootstrap_diff",
        "delong", "permutation_test", or on a time-ordered one
        "diebold_mariano" (best = lowest mean loss). On a battles frame
        (:func:`pdcompare.from_battles`) the only test is the z test on the
        Bradley–Terry ratings (``bradley_terry``; options ``ties=``, ``scale=``, ``base=``).
    correction : str or None, default "default"
        Multiple-testing correction over all pairs: a statsmodels
        ``multipletests`` method or alias, "shaffer", or None. "default" is
        "holm" for every test but "nemenyi", whose p-values are family-wise
        already (None), and "aso", whose bound keeps its Bonferroni-adjusted
        level ("bonferroni" or None only). It does not apply to "bayes", which
        reports posterior probabilities and decides at probability 1 − alpha
        instead, nor to "effect_size", which tests nothing.
    alpha : float, default 0.05
        Significance level (frequentist tests) or decision threshold 1 − alpha
        (``bayes``).
    **options
        Passed to the test method: ``alternative=``, ``nan_policy=``, ``rope=``
        (bayes, equivalence), ``measure=`` and ``ci=`` (effect_size), and the
        design keywords ``cv=``, ``test_size=``,
        ``n_train=``, ``n_test=``, ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        The test's result frame with one row per pair: model_1 is the
        higher-ranked model, rows in rank order (all pairs of the best
        model first), so ``mean_diff >= 0`` when higher is better.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()
    >>> res = scores.cmp.pairwise(alternative="greater", correction="bonferroni")
    >>> res[["model_1", "model_2", "statistic", "pvalue_adj"]].round(3)
      model_1 model_2  statistic  pvalue_adj
    0     rbf  linear      0.750       1.000
    1     rbf  3_poly      1.657       0.302
    2     rbf  2_poly      4.565       0.000
    3  linear  3_poly      1.111       0.807
    4  linear  2_poly      4.276       0.000
    5  3_poly  2_poly      3.851       0.001
    """
    kind = frame_kind(scores, options.get("y", "y"))
    if kind is FrameKind.BATTLES:
        if test not in (None, "bradley_terry", "bradley_terry_z"):
            msg = (
                f"`test={test!r}`: a battles frame is compared by the z test on its "
                "Bradley–Terry ratings; leave `test` out (or pass 'bradley_terry')."
            )
            raise ValueError(msg)
        check_keywords(options, ("ties", "scale", "base"), "`pairwise` of a battles frame")
        test = None
    if test is None:
        test = registry.default_test(kind)
    if test is None:  # predictions: labels or scores decide the test, so the caller does
        msg = (
            f"This frame has a truth column {options.get('y', 'y')!r}: it is a predictions "
            "frame (one row per test sample, one column per model). Pass `test=`, one of "
            f"{', '.join(map(repr, pairwise_tests('predictions')))} ('delong' for "
            "scores such as probabilities, 'mcnemar' for predicted labels)."
        )
        raise ValueError(msg)
    allowed = pairwise_tests(kind)
    if kind in _SCORES_KINDS:
        # The tests of every frame of scores are named here, and those that do not apply
        # say why themselves (the corrected t-test on a benchmark frame points to
        # per_dataset; the mean-rank tests on a scores frame say that they need data sets).
        allowed = tuple(dict.fromkeys((*allowed, *_scores_tests())))
    spec = registry.check_pairwise_test(test, allowed)
    return _run_all_pairs(spec, scores, correction, alpha, options)


#: The kinds of frames of scores (models x splits, runs or data sets).
_SCORES_KINDS = (
    FrameKind.SCORES, FrameKind.CV_RESULTS, FrameKind.BENCHMARK, FrameKind.RUNS,
    FrameKind.TASK_RUNS,
)  # fmt: skip


def _scores_tests() -> tuple[str, ...]:
    return (*pairwise_tests("scores"), *pairwise_tests("benchmark"))


def _run_all_pairs(spec: Any, frame: pd.DataFrame, correction: Any, alpha: float, options: dict):
    """Run a registry row's test on every pair, its scope and needed options checked first."""
    _refuse_scope(spec.name, options)
    if "rope" in spec.needs and "rope" not in options:
        msg = (
            f"`pairwise(test={spec.name!r})` needs `rope=`: the half-width (or (low, high)) of "
            "the region of practical equivalence, in score units, such as `rope=0.01`."
        )
        raise TypeError(msg)
    correction = registry.default_correction(spec.name, correction)
    return spec.run_all_pairs(frame, correction=correction, alpha=alpha, options=options)


def _refuse_scope(test: str, options: dict[str, Any]) -> None:
    """``pairwise`` compares every pair: ``a`` and ``b`` belong to the test's own function."""
    for keyword in ("a", "b"):
        if keyword in options:
            msg = (
                f"`pairwise` compares every pair and takes no `{keyword}`; call "
                f"`df.cmp.{test}({keyword}=...)` to compare chosen models."
            )
            raise TypeError(msg)


def matrix(
    result: pd.DataFrame,
    value: str = "pvalue_adj",
    *,
    kind: str | None = None,
    correction: str | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Square model x model table of one column of a pairwise result frame.

    Turns ``pairwise`` (or any result with ``model_1`` and ``model_2``
    columns) into the textbook tables: t-statistic, p-value, advantage
    (``mean_diff``), significance (``reject``) in one line each.

    Parameters
    ----------
    result : pandas.DataFrame
        A pairwise result frame (columns ``model_1`` and ``model_2``).
    value : str, default "pvalue_adj"
        The result column to tabulate.
    kind : {None, "mcm"}, optional
        ``"mcm"`` on a benchmark frame: the Multiple Comparison Matrix
        (``pdcompare.compare.mcm.comparison_matrix``), one row per
        ordered pair with ``mean_diff, wins, ties, losses, pvalue``; cells
        that depend on their two models alone.
    correction : str, optional
        With ``kind="mcm"``: a correction over the matrix's unique pairs.
    **design
        With ``kind="mcm"``: ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        Rows and columns are the models, in the result's rank order
        (``attrs["pdcompare"]["models"]``, else order of appearance). Cell
        (r, c) is the value of the comparison r − c. A result row gives
        cell (model_1, model_2); the mirrored cell (model_2, model_1) is

        - the same value for p-values, ``reject``, ``prob_rope``,
          ``decision``, ``df`` and other unsigned values (the p-value of
          the test run on that pair, as run, also for one-sided tests);
        - the negated value for ``mean_diff``, ``effect_size`` (1 − value
          for the probabilities A and PS) and signed statistics (t-tests,
          z-tests); a two-sided Wilcoxon, F or chi-squared
          statistic is symmetric; a one-sided Wilcoxon statistic leaves
          the mirrored cell NaN (the other rank sum is not in the result);
        - the partner column for ``prob_better`` / ``prob_worse``,
          ``wins`` / ``losses`` (and the sign test's statistic),
          ``only_1_correct`` / ``only_2_correct`` (McNemar),
          ``pvalue_low`` / ``pvalue_high`` and the negated
          ``statistic_high`` / ``statistic_low`` (equivalence: the mirrored
          pair tested against the mirrored ROPE) and
          ``<name>_1`` / ``<name>_2``;
        - ``(-ci_high, -ci_low)`` for ``ci_low`` / ``ci_high``.

        The diagonal is NaN (False for boolean columns such as ``reject``:
        a model does not differ from itself). Pairs absent from the result
        stay NaN (NA for booleans).

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> res = load_grid_search_scores().cmp.pairwise(correction="bonferroni")
    >>> res.cmp.matrix("mean_diff").round(3)
               rbf  linear  3_poly  2_poly
    rbf        NaN   0.010   0.036   0.255
    linear  -0.010     NaN   0.026   0.245
    3_poly  -0.036  -0.026     NaN   0.219
    2_poly  -0.255  -0.245  -0.219     NaN
    >>> res.cmp.matrix("reject")
              rbf  linear  3_poly  2_poly
    rbf     False   False   False    True
    linear  False   False   False    True
    3_poly  False   False   False    True
    2_poly   True    True    True   False
    """
    check_frame(result)
    if kind is not None:
        check_option("kind", kind, ("mcm",))

        return comparison_matrix(result, correction=correction, **design)
    if correction is not None or design:
        given = ", ".join(f"`{k}`" for k in ["correction"] * (correction is not None) + [*design])
        msg = f"{given} apply to `matrix(kind='mcm')` on a benchmark frame only."
        raise TypeError(msg)
    frame = result
    if not {"model_1", "model_2"} <= set(frame.columns):
        msg = (
            "`matrix` needs a pairwise result frame with `model_1` and `model_2` "
            "columns, such as the result of `df.cmp.pairwise()`."
        )
        raise ValueError(msg)
    valid = [c for c in frame.columns if c not in ("model_1", "model_2")]
    if value not in valid:
        shown = ", ".join(repr(c) for c in valid)
        msg = f"`value` must be a column of the result: one of {shown}; got {value!r}."
        raise ValueError(msg)
    meta = pdcompare_attrs(frame)
    first = frame["model_1"].to_numpy(dtype=object)
    second = frame["model_2"].to_numpy(dtype=object)
    # One hashing pass over the names; the ordering works on the few distinct ones.
    codes, appearing = pd.factorize(np.concatenate([first, second]))
    present = set(appearing)
    ranked = [m for m in meta.get("models") or [] if m in present]
    known = set(ranked)
    models = pd.Index(ranked + [m for m in appearing if m not in known])
    position = models.get_indexer(appearing)
    rows, cols = position[codes[: len(frame)]], position[codes[len(frame) :]]
    if (rows == cols).any():
        msg = "`matrix`: a row compares a model with itself; the result is not pairwise."
        raise ValueError(msg)
    if meta.get("scope") == "all_ordered_pairs":
        # every ordered pair has its own row (win_probability): each cell is its row's value
        table = np.full((len(models), len(models)), np.nan)
        table[rows, cols] = frame[value].to_numpy(dtype=float)
        out = pd.DataFrame(table, index=models.copy(), columns=models.copy())
        return with_attrs(out, {**meta, "value": value})
    lower_key = np.minimum(rows, cols) * len(models) + np.maximum(rows, cols)
    if pd.Index(lower_key).has_duplicates:
        msg = "`matrix`: the result compares some pair twice; keep one row per pair."
        raise ValueError(msg)
    upper = frame[value].to_numpy()
    mirrored = _mirrored(frame, value, meta)
    boolean = pd.api.types.is_bool_dtype(frame[value].dtype)
    table = pair_matrix(len(models), rows, cols, upper, mirrored, boolean=boolean)
    out = pd.DataFrame(table, index=models.copy(), columns=models.copy())
    if boolean and out.isna().to_numpy().any():
        out = out.astype("boolean")
    elif boolean:
        out = out.astype(bool)
    return with_attrs(out, {**meta, "value": value})


def _mirrored(frame: pd.DataFrame, value: str, meta: dict[str, Any]) -> Any:
    """Values of column ``value`` for the mirrored comparisons model_2 − model_1."""
    partners = {
        "prob_better": "prob_worse",
        "wins": "losses",
        "only_1_correct": "only_2_correct",
    }
    partners.update({v: k for k, v in partners.items()})
    test = meta.get("test")
    column = frame[value].to_numpy()
    if value == "statistic":
        if test == "sign_test" and "losses" in frame.columns:
            return frame["losses"].to_numpy()
        if test == "wilcoxon":
            if meta.get("alternative", "two-sided") == "two-sided":
                return column
            return np.full(len(frame), np.nan)
        if test in ("ftest_5x2cv", "mcnemar", "cochrans_q"):
            return column
        return -column.astype(float)
    if value in ("mean_diff", "mean_loss_diff"):
        return -column.astype(float)
    if value == "effect_size":  # model_2 against model_1: the sign turns (1 - A for probabilities)
        if meta.get("measure") in PROBABILITY_MEASURES:
            return 1.0 - column.astype(float)
        return -column.astype(float)
    if test == "equivalence" and value in EQUIVALENCE_PARTNERS:
        # model_2 - model_1 against (-high, -low): the lower test is the upper one turned.
        partner = frame[EQUIVALENCE_PARTNERS[value]].to_numpy(dtype=float)
        return -partner if value.startswith("statistic") else partner
    if value in ("ci_low", "ci_high"):
        other = "ci_high" if value == "ci_low" else "ci_low"
        if other in frame.columns:
            return -frame[other].to_numpy(dtype=float)
        return np.full(len(frame), np.nan)
    if value in partners and partners[value] in frame.columns:
        return frame[partners[value]].to_numpy()
    for mine, theirs in (("_1", "_2"), ("_2", "_1")):
        if value.endswith(mine) and value[: -len(mine)] + theirs in frame.columns:
            return frame[value[: -len(mine)] + theirs].to_numpy()
    return column


def pair_matrix(n_models: int, rows, cols, upper, lower, *, boolean: bool = False) -> np.ndarray:
    """Square ``n_models`` x ``n_models`` array with ``upper`` at (rows, cols), ``lower`` mirrored.

    Cell ``(rows[k], cols[k])`` gets ``upper[k]`` and ``(cols[k], rows[k])``
    gets ``lower[k]``; the other cells are NaN, except the diagonal, which is
    False when ``boolean`` (a model does not differ from itself). The array is
    of object dtype when ``upper`` is not numeric (names in ``decision``).

    Examples
    --------
    >>> pair_matrix(3, [0, 0], [1, 2], np.array([0.5, 2.0]), np.array([-0.5, -2.0]))
    array([[ nan,  0.5,  2. ],
           [-0.5,  nan,  nan],
           [-2. ,  nan,  nan]])
    """
    upper = np.asarray(upper)
    lower = np.asarray(lower)
    numeric = upper.dtype.kind in "fiu" and lower.dtype.kind in "fiu" and not boolean
    table = np.full((n_models, n_models), np.nan, dtype=float if numeric else object)
    table[rows, cols] = upper
    table[cols, rows] = lower
    if boolean:
        np.fill_diagonal(table, False)
    return table
