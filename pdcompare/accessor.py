"""The ``DataFrame.cmp`` accessor: validation and conversion, then one call into the core.

pandas builds a new accessor object on every ``df.cmp`` access (pandas 3), so
the accessor keeps no state of its own: metadata lives in
``df.attrs["pdcompare"]``. ``__init__`` only stores the frame; data-dependent
checks are ``ValueError``s raised by the methods. No method modifies the frame
it is called on, nor its ``attrs``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from pdcompare import results
from pdcompare._validation import check_fraction
from pdcompare.design import resolve_design
from pdcompare.frames import (
    is_cv_results,
    pdcompare_attrs,
    scores_data,
    scores_frame,
    validate_scores,
    with_attrs,
)

#: The tests ``pairwise(test=...)`` runs on every pair of a scores frame.
PAIRWISE_TESTS = (
    "corrected_ttest",
    "ttest",
    "wilcoxon",
    "sign_test",
    "bayes",
    "ttest_5x2cv",
    "ftest_5x2cv",
)


@pd.api.extensions.register_dataframe_accessor("cmp")
class CompareAccessor:
    """Statistical comparison of models, on frames of fold scores, cv_results_ or predictions.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> scores = pd.DataFrame({"s0": [0.9, 0.8], "s1": [0.85, 0.8], "s2": [0.95, 0.7]},
    ...                       index=["a", "b"])
    >>> scores.cmp.set_design(cv=3).cmp.summary()[["mean", "rank"]]
               mean  rank
    model
    a      0.900000     1
    b      0.766667     2
    """

    def __init__(self, pandas_obj: pd.DataFrame) -> None:
        self._obj = pandas_obj

    # ============================================================ inputs, design, summary

    def _scores(self, **keywords: Any):
        """The frame as validated arrays (:class:`pdcompare.frames.ScoresData`)."""
        return scores_data(self._obj, **keywords)

    def scores(
        self,
        metric: str | None = None,
        names: Callable[[dict], str] | Sequence[str] | None = None,
    ) -> pd.DataFrame:
        """The scores frame: models as rows, CV splits as columns.

        A ``cv_results_`` frame is converted (``metric`` chooses the metric of a
        multi-metric search; ``names`` names the candidates, as a callable of
        the parameter dict or a list); a scores frame is returned as a copy.

        Parameters
        ----------
        metric : str, optional
            Metric of a multi-metric ``cv_results_`` frame.
        names : callable or list of str, optional
            Model names for the candidates of a ``cv_results_`` frame.

        Returns
        -------
        pandas.DataFrame
            A new frame; the caller's frame is unchanged.

        Examples
        --------
        >>> import pandas as pd
        >>> cv_results = pd.DataFrame({
        ...     "params": [{"C": 1}, {"C": 10}],
        ...     "split0_test_score": [0.8, 0.9], "split1_test_score": [0.7, 0.95],
        ... })
        >>> cv_results.cmp.scores()
        split  split0  split1
        model
        C=1       0.8    0.70
        C=10      0.9    0.95
        """
        scores = scores_frame(self._obj, metric=metric, names=names)
        validate_scores(scores)
        return scores

    def set_design(
        self,
        cv: Any = None,
        *,
        test_size: float | None = None,
        n_train: int | None = None,
        n_test: int | None = None,
        greater_is_better: bool | None = None,
    ) -> pd.DataFrame:
        """Return a copy of the frame with the CV design stored in its ``attrs``.

        Tests that need the test/train size ratio (``corrected_ttest``, ``bayes``,
        ``posterior``, ``summary``'s corrected interval) read it from there, so a
        chain sets it once. Keywords given to a test still take precedence.

        Parameters
        ----------
        cv : int, scikit-learn splitter or list of (train, test) splits, optional
            The cross-validation the scores come from; an int ``k`` is k-fold.
        test_size : float, optional
            Fraction of the data in each test split, in (0, 1).
        n_train, n_test : int, optional
            Training and test set sizes of each split (together).
        greater_is_better : bool, optional
            False for losses (lower scores are better). Default: keep the stored
            value, True when none is stored.

        Returns
        -------
        pandas.DataFrame
            A copy of the frame; the caller's frame and its ``attrs`` are unchanged.

        Examples
        --------
        >>> import pandas as pd
        >>> scores = pd.DataFrame([[0.8, 0.9], [0.7, 0.6]], index=["a", "b"])
        >>> designed = scores.cmp.set_design(cv=10)
        >>> round(designed.attrs["pdcompare"]["design"]["test_train_ratio"], 4)
        0.1111
        >>> scores.attrs
        {}
        """
        meta = pdcompare_attrs(self._obj)
        design = resolve_design(
            meta.get("design"),
            cv=cv,
            test_size=test_size,
            n_train=n_train,
            n_test=n_test,
            greater_is_better=greater_is_better,
        )
        return with_attrs(self._obj.copy(), {**meta, "design": design.to_attrs()})

    def summary(self, ci: float = 0.95, **design: Any) -> pd.DataFrame:
        """Per model: mean, std, number of splits, rank and a confidence interval of the mean.

        Parameters
        ----------
        ci : float, default 0.95
            Confidence level of the interval.
        **design
            ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
            ``greater_is_better=``; see :meth:`set_design`.

        Returns
        -------
        pandas.DataFrame
            Indexed by model, best first, with columns ``mean, std, n_splits,
            rank, ci_low, ci_high``. ``attrs["pdcompare"]["interval"]`` says
            which interval was computed.

        Notes
        -----
        The interval is ``mean ± t_{n-1} · s · sqrt(1/n + n_test/n_train)``, the
        Nadeau–Bengio corrected interval, when the design is known; otherwise
        the plain t interval ``mean ± t_{n-1} · s / sqrt(n)``, which is too
        narrow because CV splits share training data. Missing scores are left
        out model by model (``n_splits`` counts the rest). ``std`` has ddof=1.

        Examples
        --------
        >>> import pandas as pd
        >>> scores = pd.DataFrame([[0.8, 0.9, 0.85], [0.7, 0.6, 0.65]], index=["a", "b"])
        >>> scores.cmp.summary(cv=3).round(3)
               mean   std  n_splits  rank  ci_low  ci_high
        model
        a      0.85  0.05         3     1   0.654    1.046
        b      0.65  0.05         3     2   0.454    0.846

        Compare with the plain interval (``scipy.stats.t.interval``):

        >>> from scipy import stats
        >>> [round(float(x), 3) for x in stats.t.interval(0.95, 2, 0.85, 0.05 / 3 ** 0.5)]
        [0.726, 0.974]
        >>> scores.cmp.summary().loc["a", ["ci_low", "ci_high"]].round(3).tolist()
        [0.726, 0.974]
        """
        from pdcompare.stats.summary import summarize

        ci = check_fraction("ci", ci)
        data = self._scores(**design)
        table = summarize(
            data.values,
            confidence=ci,
            test_train_ratio=data.design.test_train_ratio,
            greater_is_better=data.design.greater_is_better,
        )
        meta = results.result_meta(
            "summary",
            ci=ci,
            interval="nadeau-bengio" if data.design.known else "t",
            design=data.design.to_attrs(),
        )
        frame = results.model_result(data.names, table, meta)
        return frame.iloc[data.order]

    # ============================================================ frequentist tests (issue 7)

    def _paired_test(
        self,
        test: str,
        a: Any,
        b: Any,
        *,
        alternative: str,
        alpha: float,
        correction: str | None,
        nan_policy: str,
        design: dict[str, Any],
    ) -> pd.DataFrame:
        """Validate, select the pairs, run one core test of ``stats.paired``, wrap the result."""
        import numpy as np

        from pdcompare._validation import check_option, warn
        from pdcompare.design import require_ratio
        from pdcompare.frames import NAN_POLICIES
        from pdcompare.stats import paired
        from pdcompare.stats._common import ALTERNATIVES
        from pdcompare.stats.multitest import check_correction

        check_option("alternative", alternative, ALTERNATIVES)
        alpha = check_fraction("alpha", alpha)
        correction = check_correction(correction)
        check_option("nan_policy", nan_policy, NAN_POLICIES)
        data = self._scores(**design)
        ratio = require_ratio(data.design, test) if test == "corrected_ttest" else None
        i, j, scope = data.pairs(a, b)
        data.nan_pairs(i, j, nan_policy)  # raises for "raise", warns for "propagate"
        policy = "omit" if nan_policy == "omit" else "propagate"
        if test in ("corrected_ttest", "ttest"):
            out = paired.paired_ttest(
                data.values,
                i,
                j,
                test_train_ratio=ratio,
                alternative=alternative,
                confidence=1.0 - alpha,
                nan_policy=policy,
            )
            names = ("mean_diff", "statistic", "df", "pvalue", "ci_low", "ci_high")
        elif test == "wilcoxon":
            out = paired.wilcoxon(data.values, i, j, alternative=alternative, nan_policy=policy)
            names = ("mean_diff", "statistic", "pvalue")
        else:
            out = paired.sign_test(data.values, i, j, alternative=alternative, nan_policy=policy)
            names = ("mean_diff", "statistic", "pvalue", "wins", "losses", "ties")
        found = []
        for mask, what in (
            (out["identical"], "identical scores (statistic 0, p-value 1)"),
            (out["constant"], "a constant difference (infinite statistic, p-value 0 or 1)"),
        ):
            if mask.any():
                where = np.flatnonzero(mask)
                shown = ", ".join(
                    f"{data.names[i[k]]!r} vs {data.names[j[k]]!r}" for k in where[:5]
                )
                more = f" and {where.size - 5} more" if where.size > 5 else ""
                found.append(f"{shown}{more} have {what}")
        if found:
            warn(f"`{test}` is degenerate where {'; '.join(found)}.")
        meta = results.result_meta(
            test,
            scope=scope,
            alternative=alternative,
            alpha=alpha,
            correction=correction,
            nan_policy=nan_policy,
            design=data.design.to_attrs(),
            greater_is_better=data.design.greater_is_better,
            models=list(data.names[data.order]),
        )
        columns = {name: out[name] for name in names}
        return results.pair_result(
            data.names, i, j, columns, meta, correction=correction, alpha=alpha
        )

    def corrected_ttest(
        self,
        a: Any = None,
        b: Any = None,
        *,
        alternative: str = "two-sided",
        alpha: float = 0.05,
        correction: str | None = "holm",
        nan_policy: str = "propagate",
        **design: Any,
    ) -> pd.DataFrame:
        """Nadeau–Bengio corrected resampled t-test of model_1 − model_2.

        CV splits share most of their training data, so the scores of one
        model are correlated across splits and the plain paired t-test is far
        too confident. The corrected test widens the variance of the mean
        difference by the test/train size ratio of the splits.

        Parameters
        ----------
        a, b : model name, optional
            ``a`` and ``b``: that pair (model_1 = a). ``a`` alone: ``a`` against
            every other model, in rank order. Neither: the best model (highest
            mean; lowest when ``greater_is_better=False``) against every other.
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            About the mean of model_1 − model_2, as in scipy.
        alpha : float, default 0.05
            Significance level of ``reject``; the interval has level 1 − alpha.
        correction : str or None, default "holm"
            Multiple-testing correction over the rows of the result: any method
            of ``statsmodels.stats.multitest.multipletests``, or None.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            A pair with a missing score: NaN results left out of the correction
            (with a warning), computed on the splits both models have, or an error.
        **design
            ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (required
            unless stored with :meth:`set_design`), and ``greater_is_better=``.

        Returns
        -------
        pandas.DataFrame
            One row per pair: ``model_1, model_2, mean_diff, statistic, df,
            pvalue, pvalue_adj, reject, ci_low, ci_high``, best first when
            comparing against the best or all pairs (then ``mean_diff >= 0``
            when higher is better). ``attrs["pdcompare"]`` holds the test,
            scope, alternative, alpha, correction, design and the models best first.

        Notes
        -----
        With ``d`` the ``n`` differences of a pair over the splits, ``d̄`` their
        mean and ``s²`` their variance (ddof=1),

        ``t = d̄ / sqrt(s² (1/n + n_test/n_train))`` on ``n − 1`` degrees of freedom

        (Nadeau and Bengio 2003; Bouckaert and Frank 2004). The interval is
        ``d̄ ± t_q · sqrt(s² (1/n + n_test/n_train))``, one-sided like scipy's
        when ``alternative`` is. Identical score vectors give t = 0, p = 1; a
        constant non-zero difference t = ±inf, p = 0 (both warn).

        References
        ----------
        C. Nadeau and Y. Bengio, "Inference for the generalization error",
        Machine Learning 52(3), 2003. R. R. Bouckaert and E. Frank, "Evaluating
        the replicability of significance tests for comparing learning
        algorithms", PAKDD 2004.

        Examples
        --------
        >>> from pdcompare.datasets import load_grid_search_scores
        >>> scores = load_grid_search_scores()  # 10x10 CV, n_train 90, n_test 10
        >>> res = scores.cmp.corrected_ttest("rbf", "linear", alternative="greater")
        >>> res[["model_1", "model_2", "statistic", "pvalue"]].round(3)
          model_1 model_2  statistic  pvalue
        0     rbf  linear       0.75   0.227

        The best model against the others, Holm-corrected:

        >>> scores.cmp.corrected_ttest()[["model_2", "mean_diff", "pvalue_adj"]].round(3)
          model_2  mean_diff  pvalue_adj
        0  linear      0.010       0.455
        1  3_poly      0.036       0.201
        2  2_poly      0.255       0.000
        """
        return self._paired_test(
            "corrected_ttest",
            a,
            b,
            alternative=alternative,
            alpha=alpha,
            correction=correction,
            nan_policy=nan_policy,
            design=design,
        )

    def ttest(
        self,
        a: Any = None,
        b: Any = None,
        *,
        alternative: str = "two-sided",
        alpha: float = 0.05,
        correction: str | None = "holm",
        nan_policy: str = "propagate",
        **design: Any,
    ) -> pd.DataFrame:
        """Plain paired t-test of model_1 − model_2 over the splits (``scipy.stats.ttest_rel``).

        For comparison and for the textbook tables: it treats CV splits as
        independent, which they are not, so its p-values are too small. Use
        :meth:`corrected_ttest` to decide.

        Parameters
        ----------
        a, b : model name, optional
            The pair, one model against the others, or the best against the
            others (see :meth:`corrected_ttest`).
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            About the mean of model_1 − model_2, as in scipy.
        alpha : float, default 0.05
            Significance level of ``reject``; the interval has level 1 − alpha.
        correction : str or None, default "holm"
            Multiple-testing correction over the rows (``multipletests`` methods).
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            As in :meth:`corrected_ttest`.
        **design
            Only ``greater_is_better=`` matters here (which model is best and
            the rank order); ``cv=`` and the other design keywords are accepted
            so that ``pairwise(test=..., cv=10)`` works for every test.

        Returns
        -------
        pandas.DataFrame
            ``model_1, model_2, mean_diff, statistic, df, pvalue, pvalue_adj,
            reject, ci_low, ci_high``, one row per pair.

        Notes
        -----
        ``t = d̄ / (s / sqrt(n))`` on ``n − 1`` degrees of freedom, with ``d̄``
        and ``s`` the mean and standard deviation (ddof=1) of the differences;
        the interval is ``d̄ ± t_q s / sqrt(n)``, as ``scipy.stats.ttest_rel``
        and its ``confidence_interval``.

        Examples
        --------
        >>> from pdcompare.datasets import load_grid_search_scores
        >>> scores = load_grid_search_scores()
        >>> res = scores.cmp.ttest("rbf", "linear", alternative="greater")
        >>> res[["statistic", "df", "pvalue"]].round(3)
           statistic    df  pvalue
        0      2.611  99.0   0.005

        Compare with scipy:

        >>> from scipy import stats
        >>> r = stats.ttest_rel(scores.loc["rbf"], scores.loc["linear"], alternative="greater")
        >>> round(float(r.statistic), 3), round(float(r.pvalue), 3)
        (2.611, 0.005)
        """
        return self._paired_test(
            "ttest",
            a,
            b,
            alternative=alternative,
            alpha=alpha,
            correction=correction,
            nan_policy=nan_policy,
            design=design,
        )

    def wilcoxon(
        self,
        a: Any = None,
        b: Any = None,
        *,
        alternative: str = "two-sided",
        alpha: float = 0.05,
        correction: str | None = "holm",
        nan_policy: str = "propagate",
        **design: Any,
    ) -> pd.DataFrame:
        """Wilcoxon signed-rank test on the paired differences (``scipy.stats.wilcoxon``).

        Parameters
        ----------
        a, b : model name, optional
            The pair, one model against the others, or the best against the
            others (see :meth:`corrected_ttest`).
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            About the location of model_1 − model_2, as in scipy.
        alpha : float, default 0.05
            Significance level of ``reject``.
        correction : str or None, default "holm"
            Multiple-testing correction over the rows (``multipletests`` methods).
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            As in :meth:`corrected_ttest`.
        **design
            Only ``greater_is_better=`` matters here (which model is best and
            the rank order); the other design keywords are accepted and unused.

        Returns
        -------
        pandas.DataFrame
            ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
            reject``, one row per pair.

        Notes
        -----
        scipy's defaults: zero differences are dropped (``zero_method="wilcox"``),
        the exact distribution for small samples, the normal approximation
        otherwise (``method="auto"``). The statistic is scipy's: the smaller
        rank sum when two-sided, the rank sum of the positive differences
        otherwise. The test ignores the correlation of CV splits, like
        :meth:`ttest`; Demšar (2006) recommends it across data sets. Identical
        models give statistic 0 and p-value 1, with a warning.

        Ties are exact floating-point ties, as in scipy: differences that are
        equal on paper (0.96 − 0.92 and 0.76 − 0.72) can differ in the last
        bit and then rank apart, which changes the statistic a little on
        scores that are ratios of small counts (accuracy or AUC on few samples).

        Examples
        --------
        >>> import pandas as pd
        >>> scores = pd.DataFrame(
        ...     [[0.91, 0.88, 0.93, 0.90, 0.87, 0.92, 0.89, 0.94],
        ...      [0.85, 0.87, 0.90, 0.83, 0.89, 0.87, 0.80, 0.90]],
        ...     index=["forest", "tree"],
        ... )
        >>> scores.cmp.wilcoxon("forest", "tree")[["mean_diff", "statistic", "pvalue"]].round(3)
           mean_diff  statistic  pvalue
        0      0.041        2.0   0.023

        Compare with scipy:

        >>> from scipy import stats
        >>> res = stats.wilcoxon(scores.loc["forest"], scores.loc["tree"])
        >>> float(res.statistic), round(float(res.pvalue), 4)
        (2.0, 0.0234)
        """
        return self._paired_test(
            "wilcoxon",
            a,
            b,
            alternative=alternative,
            alpha=alpha,
            correction=correction,
            nan_policy=nan_policy,
            design=design,
        )

    def sign_test(
        self,
        a: Any = None,
        b: Any = None,
        *,
        alternative: str = "two-sided",
        alpha: float = 0.05,
        correction: str | None = "holm",
        nan_policy: str = "propagate",
        **design: Any,
    ) -> pd.DataFrame:
        """Sign test: binomial test on the number of splits each model wins, ties dropped.

        Parameters
        ----------
        a, b : model name, optional
            The pair, one model against the others, or the best against the
            others (see :meth:`corrected_ttest`).
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            "greater": model_1 wins more often than model_2.
        alpha : float, default 0.05
            Significance level of ``reject``.
        correction : str or None, default "holm"
            Multiple-testing correction over the rows (``multipletests`` methods).
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            As in :meth:`corrected_ttest`.
        **design
            Only ``greater_is_better=`` matters here (which model is best and
            the rank order); the other design keywords are accepted and unused.

        Returns
        -------
        pandas.DataFrame
            ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
            reject``, then ``wins, losses, ties`` (splits where model_1 scores
            higher, lower, the same). ``statistic`` is the number of wins.

        Notes
        -----
        With ``k`` wins out of ``n`` untied splits, the p-value is that of
        ``scipy.stats.binomtest(k, n, 0.5, alternative=...)``; two-sided,
        ``min(1, 2 min(P(X <= k), P(X >= k)))`` for ``X ~ Binomial(n, 1/2)``.
        "Wins" compare raw scores, whatever ``greater_is_better`` says. The
        test ignores the correlation of CV splits. See Demšar (2006), section 3.1.3.

        Examples
        --------
        >>> from pdcompare.datasets import load_grid_search_scores
        >>> scores = load_grid_search_scores()
        >>> res = scores.cmp.sign_test("rbf", "linear")
        >>> res[["statistic", "wins", "losses", "ties"]]
           statistic  wins  losses  ties
        0       34.0  34.0    14.0  52.0
        >>> round(float(res["pvalue"].iloc[0]), 4)
        0.0055

        Compare with scipy:

        >>> from scipy import stats
        >>> round(float(stats.binomtest(34, 34 + 14).pvalue), 4)
        0.0055
        """
        return self._paired_test(
            "sign_test",
            a,
            b,
            alternative=alternative,
            alpha=alpha,
            correction=correction,
            nan_policy=nan_policy,
            design=design,
        )

    def pairwise(
        self,
        test: str = "corrected_ttest",
        *,
        correction: str | None = "holm",
        alpha: float = 0.05,
        **options: Any,
    ) -> pd.DataFrame:
        """Compare every pair of models with one test, best first, corrected over all pairs.

        Parameters
        ----------
        test : str, default "corrected_ttest"
            The method that compares each pair: one of ``PAIRWISE_TESTS``,
            "corrected_ttest", "ttest", "wilcoxon", "sign_test", "bayes",
            "ttest_5x2cv", "ftest_5x2cv" (the last two on 5x2cv scores only).
        correction : str or None, default "holm"
            Multiple-testing correction over all pairs (``multipletests``
            methods). It does not apply to "bayes", which reports posterior
            probabilities and decides at probability 1 − alpha instead.
        alpha : float, default 0.05
            Significance level (frequentist tests) or decision threshold 1 − alpha
            (``bayes``).
        **options
            Passed to the test method: ``alternative=``, ``nan_policy=``, ``rope=``
            (bayes), and the design keywords ``cv=``, ``test_size=``,
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
        from pdcompare._validation import check_option
        from pdcompare.frames import ALL_PAIRS

        check_option("test", test, PAIRWISE_TESTS)
        for keyword in ("a", "b"):
            if keyword in options:
                msg = (
                    f"`pairwise` compares every pair and takes no `{keyword}`; call "
                    f"`df.cmp.{test}({keyword}=...)` to compare chosen models."
                )
                raise TypeError(msg)
        if test == "bayes":
            return self.bayes(ALL_PAIRS, alpha=alpha, **options)
        method = getattr(self, test)
        return method(ALL_PAIRS, correction=correction, alpha=alpha, **options)

    def matrix(self, value: str = "pvalue_adj") -> pd.DataFrame:
        """Square model x model table of one column of a pairwise result frame.

        Turns ``pairwise`` (or any result with ``model_1`` and ``model_2``
        columns) into the textbook tables: t-statistic, p-value, advantage
        (``mean_diff``), significance (``reject``) in one line each.

        Parameters
        ----------
        value : str, default "pvalue_adj"
            The result column to tabulate.

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
            - the negated value for ``mean_diff`` and signed statistics
              (t-tests, z-tests); a two-sided Wilcoxon, F or chi-squared
              statistic is symmetric; a one-sided Wilcoxon statistic leaves
              the mirrored cell NaN (the other rank sum is not in the result);
            - the partner column for ``prob_better`` / ``prob_worse``,
              ``wins`` / ``losses`` (and the sign test's statistic),
              ``only_1_correct`` / ``only_2_correct`` (McNemar) and
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
        import numpy as np

        from pdcompare.stats.paired import pair_matrix

        frame = self._obj
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
        lower_key = np.minimum(rows, cols) * len(models) + np.maximum(rows, cols)
        if pd.Index(lower_key).has_duplicates:
            msg = "`matrix`: the result compares some pair twice; keep one row per pair."
            raise ValueError(msg)
        upper = frame[value].to_numpy()
        mirrored = self._mirrored(frame, value, meta)
        boolean = pd.api.types.is_bool_dtype(frame[value].dtype)
        table = pair_matrix(len(models), rows, cols, upper, mirrored, boolean=boolean)
        out = pd.DataFrame(table, index=models.copy(), columns=models.copy())
        if boolean and out.isna().to_numpy().any():
            out = out.astype("boolean")
        elif boolean:
            out = out.astype(bool)
        return out

    @staticmethod
    def _mirrored(frame: pd.DataFrame, value: str, meta: dict[str, Any]) -> Any:
        """Values of column ``value`` for the mirrored comparisons model_2 − model_1."""
        import numpy as np

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
        if value == "mean_diff":
            return -column.astype(float)
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

    # ============================================================ Bayesian comparison (issue 3)

    def bayes(
        self,
        a: Any = None,
        b: Any = None,
        *,
        rope: float | tuple[float, float] = 0.0,
        ci: float = 0.95,
        alpha: float = 0.05,
        nan_policy: str = "propagate",
        **design: Any,
    ) -> pd.DataFrame:
        """Bayesian correlated t-test: the probability that one model is better than another.

        For each pair, the posterior of the mean score difference
        ``mu = model_1 - model_2`` over the CV splits gives the probability that
        model_1 is better by more than the region of practical equivalence
        (ROPE), that the two are practically equivalent, and that model_2 is
        better.

        Parameters
        ----------
        a, b : model name, optional
            ``a`` and ``b``: compare that pair (model_1 = ``a``). ``a`` alone:
            compare ``a`` with every other model. Neither: compare the best
            model (by mean) with every other model, in rank order.
        rope : float or (float, float), default 0.0
            Region of practical equivalence for ``mu``: a half-width ``r``
            means ``[-r, r]``; a ``(low, high)`` pair may be asymmetric. In the
            units of the scores (0.01 = one point of accuracy).
        ci : float, default 0.95
            Level of the equal-tailed credible interval of ``mu``.
        alpha : float, default 0.05
            A decision needs a posterior probability of at least ``1 - alpha``.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            "propagate": a pair with a missing score gets NaN results (with a
            warning); "omit": the splits missing for either model are dropped
            pair by pair; "raise": missing scores are an error.
        **design
            ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
            ``greater_is_better=``; needed unless stored with
            :meth:`set_design`.

        Returns
        -------
        pandas.DataFrame
            One row per pair with columns ``model_1, model_2, mean_diff,
            prob_better, prob_rope, prob_worse, ci_low, ci_high, decision``.
            ``decision`` is model_1's name when ``prob_better >= 1 - alpha``,
            model_2's when ``prob_worse >= 1 - alpha``, ``"equivalent"`` when
            ``prob_rope >= 1 - alpha``, else ``"undecided"`` (missing for a NaN
            pair). ``attrs["pdcompare"]`` holds ``test="bayes"``, ``scope``,
            ``rope`` as ``(low, high)``, ``ci``, ``alpha``, ``design``,
            ``greater_is_better`` and ``models`` (best first).

        Warns
        -----
        PdcompareWarning
            When two models have identical scores, or a constant difference on
            every split: their posterior is a point mass (identical models give
            ``prob_rope = 1`` for a ROPE that contains 0; a constant difference
            gives probability 1 to the region it falls in). Also when missing
            scores make results NaN under "propagate".

        Notes
        -----
        With the ``n`` paired differences ``d = model_1 - model_2``, their mean
        ``d̄`` and variance ``s²`` (ddof=1), the posterior of ``mu`` is Student t
        with ``n - 1`` degrees of freedom, location ``d̄`` and scale
        ``sqrt((1/n + n_test/n_train) · s²)`` (Corani and Benavoli 2015;
        Benavoli et al. 2017). The ``n_test/n_train`` term (Nadeau and Bengio
        2003) accounts for the correlation of splits that share training data;
        it is why the design is required. Then ``prob_better = P(mu > high)``,
        ``prob_worse = P(mu < low)`` and ``prob_rope = P(low <= mu <= high)``.
        With ``greater_is_better=False`` (losses), "better" means lower scores:
        ``prob_better = P(mu < low)`` and ``prob_worse = P(mu > high)``, while
        ``mean_diff`` and the interval stay about ``model_1 - model_2``.

        There is no multiple-testing correction, on purpose: posterior
        probabilities are not error rates controlled over a family of tests,
        and each pair's posterior is the same whether one pair or all of them
        are examined. ``pairwise(test="bayes")`` reports the same numbers as
        the pair-by-pair calls.

        ``baycomp.CorrelatedTTest(x, y, rope, runs)`` computes the same
        posterior for ``y - x`` with ``n_test/n_train = 1/(k - 1)``, ``k`` the
        folds per run: its ``(p_left, p_rope, p_right)`` for ``x = model_1``
        are ``(prob_better, prob_rope, prob_worse)`` here.

        References
        ----------
        .. [1] G. Corani and A. Benavoli, "A Bayesian approach for comparing
           cross-validated algorithms on multiple data sets", Machine Learning
           100, 285-304, 2015.
        .. [2] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a
           change: a tutorial for comparing multiple classifiers through
           Bayesian analysis", JMLR 18(77), 1-36, 2017.
        .. [3] C. Nadeau and Y. Bengio, "Inference for the generalization
           error", Machine Learning 52, 239-281, 2003.

        Examples
        --------
        >>> from pdcompare.datasets import load_grid_search_scores
        >>> scores = load_grid_search_scores()  # 10x10 CV, design attached
        >>> result = scores.cmp.bayes("rbf", "linear", rope=0.01)
        >>> result[["prob_better", "prob_rope", "prob_worse"]].round(3)
           prob_better  prob_rope  prob_worse
        0          0.5      0.432       0.068
        >>> result.loc[0, "decision"]
        'undecided'

        Compare with the posterior's ``scipy.stats.t`` distribution:

        >>> post = scores.cmp.posterior("rbf", "linear")
        >>> round(float(post.sf(0.01)), 3)
        0.5
        """
        import numpy as np

        from pdcompare.design import require_ratio
        from pdcompare.stats import bayes as core

        low, high = core.check_rope(rope)
        ci = check_fraction("ci", ci)
        alpha = check_fraction("alpha", alpha)
        data = self._scores(**design)
        ratio = require_ratio(data.design, "bayes")
        i, j, scope = data.pairs(a, b)
        data.nan_pairs(i, j, nan_policy)
        out = core.bayes_pairs(
            data.values,
            i,
            j,
            test_train_ratio=ratio,
            rope=(low, high),
            confidence=ci,
            alpha=alpha,
            greater_is_better=data.design.greater_is_better,
            nan_policy=nan_policy,
        )
        model_1 = np.asarray(data.names[i], dtype=object)
        model_2 = np.asarray(data.names[j], dtype=object)
        core.warn_point_masses(model_1, model_2, out["mean_diff"], out["scale"])
        code = out["decision"]
        labels = np.array([None, "undecided", "equivalent"], dtype=object)
        decision = labels[np.minimum(code, core.DECISION_EQUIVALENT) - core.DECISION_MISSING]
        first = code == core.DECISION_MODEL_1
        second = code == core.DECISION_MODEL_2
        decision[first] = model_1[first]
        decision[second] = model_2[second]
        columns = {
            name: out[name]
            for name in (
                "mean_diff",
                "prob_better",
                "prob_rope",
                "prob_worse",
                "ci_low",
                "ci_high",
            )
        }
        columns["decision"] = decision
        meta = results.result_meta(
            "bayes",
            scope=scope,
            rope=(low, high),
            ci=ci,
            alpha=alpha,
            nan_policy=nan_policy,
            design=data.design.to_attrs(),
            greater_is_better=data.design.greater_is_better,
            models=data.names[data.order].tolist(),
        )
        return results.pair_result(data.names, i, j, columns, meta)

    def posterior(self, a: Any, b: Any, *, nan_policy: str = "raise", **design: Any) -> Any:
        """The posterior of the mean difference ``a - b`` as a frozen ``scipy.stats.t``.

        The distribution behind :meth:`bayes`, for ``.cdf``, ``.sf``,
        ``.interval``, ``.ppf``, ``.rvs`` or a plot of your own.

        Parameters
        ----------
        a, b : model name
            The two models; the distribution is that of ``mu = mean(a - b)``.
        nan_policy : {"raise", "omit"}, default "raise"
            With "omit", splits where either model's score is missing are
            dropped; with "raise", missing scores are an error (a posterior
            with NaN parameters would be meaningless).
        **design
            ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``; needed
            unless stored with :meth:`set_design`.

        Returns
        -------
        scipy.stats.rv_continuous_frozen
            ``scipy.stats.t(df=n - 1, loc=d̄, scale=sqrt((1/n + n_test/n_train) · s²))``.

        Warns
        -----
        PdcompareWarning
            When the difference is the same on every split. scipy rejects a
            zero scale, so the point mass at ``d̄`` is returned as a t
            distribution of scale ``tiny · max(1, |d̄|)`` (``tiny`` the
            smallest positive normal float): its ``cdf`` jumps from 0 to 1 at
            ``d̄`` and ``interval(level)`` is ``(d̄, d̄)`` to machine precision.

        Notes
        -----
        See :meth:`bayes` for the model and the references. The distribution
        is about ``a - b`` whether or not higher scores are better.

        Examples
        --------
        >>> from pdcompare.datasets import load_grid_search_scores
        >>> post = load_grid_search_scores().cmp.posterior("rbf", "linear")
        >>> [round(float(x), 6) for x in post.interval(0.5)]
        [0.000977, 0.019023]
        >>> round(float(post.sf(0.0)), 3)  # P(rbf better), no ROPE
        0.773
        """
        import numpy as np

        from pdcompare._validation import check_option
        from pdcompare.design import require_ratio
        from pdcompare.stats import bayes as core

        check_option("nan_policy", nan_policy, ("raise", "omit"))
        data = self._scores(**design)
        ratio = require_ratio(data.design, "posterior")
        i, j, _ = data.pairs(a, b)
        data.nan_pairs(i, j, nan_policy)
        df, loc, scale = core.posterior_parameters(
            data.values, i, j, test_train_ratio=ratio, nan_policy=nan_policy
        )
        if np.isnan(df[0]):
            msg = (
                f"Models {a!r} and {b!r} have fewer than 2 splits with both scores "
                "present; a posterior needs at least 2."
            )
            raise ValueError(msg)
        model_1 = np.asarray(data.names[i], dtype=object)
        model_2 = np.asarray(data.names[j], dtype=object)
        core.warn_point_masses(model_1, model_2, loc, scale)
        return core.frozen_posterior(float(df[0]), float(loc[0]), float(scale[0]))

    # ============================================================ 5x2cv and predictions (issue 5)

    @staticmethod
    def _five_by_two_order(splits: pd.Index, method: str):
        """Positions of the 10 split columns in repeat-major order (r1f1, r1f2, r2f1, ...)."""
        import numpy as np

        expected = (
            f"`{method}` needs the scores of 5 repetitions of 2-fold cross-validation: "
            "exactly 10 split columns in repeat-major order (r1f1, r1f2, r2f1, ..., r5f2), "
            "or a (repeat, fold) column MultiIndex of 5 repeats x 2 folds, as "
            "`pdcompare.cv_scores(..., cv=RepeatedKFold(n_splits=2, n_repeats=5))` gives"
        )
        if isinstance(splits, pd.MultiIndex):
            if splits.nlevels != 2:
                msg = f"{expected}; the columns are a MultiIndex of {splits.nlevels} levels."
                raise ValueError(msg)
            repeats, folds = (splits.get_level_values(k) for k in (0, 1))
            repeat_codes, repeat_labels = pd.factorize(repeats, sort=True)
            fold_codes, fold_labels = pd.factorize(folds, sort=True)
            cells = set(zip(repeat_codes.tolist(), fold_codes.tolist(), strict=True))
            shape_ok = (len(repeat_labels), len(fold_labels)) == (5, 2)
            if not shape_ok or len(splits) != 10 or len(cells) != 10:
                msg = (
                    f"{expected}; the columns have {len(repeat_labels)} repeat(s) x "
                    f"{len(fold_labels)} fold(s) in {len(splits)} column(s)."
                )
                raise ValueError(msg)
            return np.lexsort((fold_codes, repeat_codes))
        if len(splits) != 10:
            msg = f"{expected}; the frame has {len(splits)} split columns."
            raise ValueError(msg)
        return np.arange(10)

    def _five_by_two(self, method: str, a: Any, b: Any, nan_policy: str, design: dict):
        """Scores data, pairs and their differences as an array (pairs, 5 repeats, 2 folds)."""
        import numpy as np

        data = self._scores(**design)
        order = self._five_by_two_order(data.splits, method)
        ratio = data.design.test_train_ratio
        # 2-fold splits test on half the data; a known design far from that is not 5x2cv
        # (10-fold scores have 10 columns too). Odd sample counts give ratios near 1.
        if ratio is not None and not 0.8 <= ratio <= 1.25:
            msg = (
                f"`{method}` needs scores of 2-fold cross-validation (test/train size ratio "
                f"1), but the frame's design ({data.design.source}) has ratio {ratio:.3g}. "
                "Use `RepeatedKFold(n_splits=2, n_repeats=5)` or `RepeatedStratifiedKFold`."
            )
            raise ValueError(msg)
        i, j, scope = data.pairs(a, b)
        propagate = data.nan_pairs(i, j, nan_policy) & (nan_policy == "propagate")
        values = np.take(data.values, order, axis=1).reshape(len(data.names), 5, 2)
        differences = values[i] - values[j]
        # "propagate": a missing score makes the whole pair NaN; "omit": the core skips the
        # repeats with a missing score.
        differences[propagate] = np.nan
        return data, i, j, scope, differences

    @staticmethod
    def _warn_pairs(names: pd.Index, i, j, mask, message: str) -> None:
        """Warn about the pairs in ``mask`` (a PdcompareWarning naming them)."""
        import numpy as np

        from pdcompare._validation import warn

        where = np.flatnonzero(mask)
        if where.size:
            shown = ", ".join(f"{names[i[k]]!r} vs {names[j[k]]!r}" for k in where[:5])
            more = f" and {where.size - 5} more pairs" if where.size > 5 else ""
            warn(f"{shown}{more}: {message}")

    def _five_by_two_meta(self, test: str, data, scope: str, **fields: Any) -> dict:
        return results.result_meta(
            test,
            scope=scope,
            **fields,
            design=data.design.to_attrs(),
            greater_is_better=data.design.greater_is_better,
            models=list(data.names[data.order]),
        )

    def ttest_5x2cv(
        self,
        a: Any = None,
        b: Any = None,
        *,
        alternative: str = "two-sided",
        alpha: float = 0.05,
        correction: str | None = "holm",
        nan_policy: str = "propagate",
        **design: Any,
    ) -> pd.DataFrame:
        """Dietterich's 5x2cv paired t-test on a frame of 5 x 2-fold cross-validation scores.

        Parameters
        ----------
        a, b : model name, optional
            ``(a, b)`` compares one pair (statistic about a − b); ``a`` alone
            compares it with every other model; neither compares the best model
            (highest mean) with every other.
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            About model_1 − model_2, as in scipy.
        alpha : float, default 0.05
            Significance level of ``reject``.
        correction : str or None, default "holm"
            Multiple-testing method of ``statsmodels.stats.multitest.multipletests``
            applied over the rows, or None.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            A pair with a missing score gets NaN ("propagate", with a warning),
            is computed on its complete repeats ("omit") or raises ("raise").
        **design
            ``greater_is_better=False`` for losses (decides which model is best).
            Other design keywords are accepted and unused: the test needs no
            test/train ratio.

        Returns
        -------
        pandas.DataFrame
            Columns ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
            reject``; ``mean_diff`` is the mean of the ten differences. The test's
            settings are in ``attrs["pdcompare"]``.

        Notes
        -----
        The frame must hold exactly 10 splits: five repetitions of 2-fold
        cross-validation, in repeat-major order (r1f1, r1f2, r2f1, ...) or with a
        ``(repeat, fold)`` column MultiIndex (sorted by repeat, then fold).
        With ``d_ij`` the difference on fold ``j`` of repeat ``i`` and
        ``s_i² = (d_i1 − d̄_i)² + (d_i2 − d̄_i)²``,
        ``t = d_11 / sqrt((1/5) Σ_i s_i²)`` with 5 degrees of freedom
        (Dietterich 1998), as ``mlxtend.evaluate.paired_ttest_5x2cv``. With
        ``nan_policy="omit"``, repeats with a missing score are skipped and the
        degrees of freedom are the complete repeats. Differences equal within
        every repeat give a zero denominator: statistic 0 and p-value 1 when
        ``d_11 = 0``, else an infinite statistic, with a warning.

        Dietterich's other tests on scores are :meth:`ttest` on the matching
        frame: the *resampled paired t-test* is ``ttest`` on the scores of
        repeated holdouts (``ShuffleSplit``), the *k-fold cross-validated paired
        t-test* is ``ttest`` on k-fold scores. Both have an elevated type I error
        because the training sets overlap; ``corrected_ttest`` (Nadeau and
        Bengio 2003) fixes that on the same frames, and the 5x2cv tests are
        Dietterich's and Alpaydin's answer when only 2-fold splits are used.

        References
        ----------
        T. G. Dietterich, "Approximate statistical tests for comparing supervised
        classification learning algorithms", Neural Computation 10(7), 1998.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdcompare
        >>> columns = pd.MultiIndex.from_product([range(5), range(2)], names=["repeat", "fold"])
        >>> scores = pd.DataFrame([[0.92, 0.90, 0.93, 0.89, 0.91, 0.92, 0.92, 0.91, 0.90, 0.93],
        ...                        [0.90, 0.89, 0.90, 0.89, 0.90, 0.90, 0.90, 0.89, 0.90, 0.90]],
        ...                       index=["forest", "knn"], columns=columns)
        >>> scores.cmp.ttest_5x2cv().round(4)
          model_1 model_2  mean_diff  statistic  pvalue  pvalue_adj  reject
        0  forest     knn      0.016     1.4142  0.2164      0.2164   False

        Compare with the formula and ``scipy.stats.t`` (see also mlxtend):

        >>> import numpy as np
        >>> from scipy import stats
        >>> d = (scores.loc["forest"] - scores.loc["knn"]).to_numpy().reshape(5, 2)
        >>> t = d[0, 0] / np.sqrt(((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1).mean())
        >>> round(float(t), 4), round(float(2 * stats.t.sf(abs(t), 5)), 4)
        (1.4142, 0.2164)
        """
        from pdcompare._validation import check_option
        from pdcompare.stats._common import ALTERNATIVES
        from pdcompare.stats.dietterich import paired_ttest_5x2cv
        from pdcompare.stats.multitest import check_correction

        check_option("alternative", alternative, ALTERNATIVES)
        alpha = check_fraction("alpha", alpha)
        check_correction(correction)
        data, i, j, scope, differences = self._five_by_two(
            "ttest_5x2cv", a, b, nan_policy, design
        )
        out = paired_ttest_5x2cv(differences, alternative=alternative)
        self._warn_pairs(
            data.names, i, j, out["zero_variance"],
            "the score differences are equal on both folds of every repeat, so the 5x2cv "
            "t-test's variance is 0 (statistic 0 and p-value 1 when the first difference is "
            "0, else an infinite statistic).",
        )
        columns = {k: out[k] for k in ("mean_diff", "statistic", "pvalue")}
        meta = self._five_by_two_meta(
            "ttest_5x2cv", data, scope, alternative=alternative, alpha=alpha,
            correction=correction, nan_policy=nan_policy,
        )
        return results.pair_result(
            data.names, i, j, columns, meta, correction=correction, alpha=alpha
        )

    def ftest_5x2cv(
        self,
        a: Any = None,
        b: Any = None,
        *,
        alpha: float = 0.05,
        correction: str | None = "holm",
        nan_policy: str = "propagate",
        **design: Any,
    ) -> pd.DataFrame:
        """Alpaydin's combined 5x2cv F-test on a frame of 5 x 2-fold cross-validation scores.

        Parameters
        ----------
        a, b : model name, optional
            ``(a, b)`` compares one pair; ``a`` alone compares it with every other
            model; neither compares the best model (highest mean) with every other.
        alpha : float, default 0.05
            Significance level of ``reject``.
        correction : str or None, default "holm"
            Multiple-testing method of ``statsmodels.stats.multitest.multipletests``
            applied over the rows, or None.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            A pair with a missing score gets NaN ("propagate", with a warning),
            is computed on its complete repeats ("omit") or raises ("raise").
        **design
            ``greater_is_better=False`` for losses (decides which model is best).

        Returns
        -------
        pandas.DataFrame
            Columns ``model_1, model_2, mean_diff, statistic, pvalue, pvalue_adj,
            reject``; ``mean_diff`` is the mean of the ten differences a − b.

        Notes
        -----
        The frame layout is that of :meth:`ttest_5x2cv` (exactly 10 splits).
        ``f = Σ_i Σ_j d_ij² / (2 Σ_i s_i²)`` with (10, 5) degrees of freedom
        (Alpaydin 1999), as ``mlxtend.evaluate.combined_ftest_5x2cv``. It uses
        all ten differences instead of Dietterich's single ``d_11``, which makes
        it more powerful at a lower type I error. The test is inherently
        two-sided (the differences enter squared), so there is no
        ``alternative``; ``mean_diff`` tells the direction. With
        ``nan_policy="omit"`` and ``r`` complete repeats the degrees of freedom
        are ``(2r, r)``. A zero denominator (differences equal within every
        repeat) gives statistic 0 and p-value 1 when all differences are 0,
        else an infinite statistic, with a warning.

        As for the 5x2cv t-test, Dietterich's resampled and k-fold paired
        t-tests are :meth:`ttest` on the matching scores frames, and
        ``corrected_ttest`` is their corrected version.

        References
        ----------
        E. Alpaydin, "Combined 5x2 cv F test for comparing supervised
        classification learning algorithms", Neural Computation 11(8), 1999.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdcompare
        >>> scores = pd.DataFrame([[0.92, 0.90, 0.93, 0.89, 0.91, 0.92, 0.92, 0.91, 0.90, 0.93],
        ...                        [0.90, 0.89, 0.90, 0.89, 0.90, 0.90, 0.90, 0.89, 0.90, 0.90]],
        ...                       index=["forest", "knn"])
        >>> scores.cmp.ftest_5x2cv().round(4)
          model_1 model_2  mean_diff  statistic  pvalue  pvalue_adj  reject
        0  forest     knn      0.016        1.8  0.2681      0.2681   False

        Compare with the formula and ``scipy.stats.f``:

        >>> import numpy as np
        >>> from scipy import stats
        >>> d = (scores.loc["forest"] - scores.loc["knn"]).to_numpy().reshape(5, 2)
        >>> f = (d**2).sum() / (2 * ((d - d.mean(axis=1, keepdims=True)) ** 2).sum())
        >>> round(float(f), 4), round(float(stats.f.sf(f, 10, 5)), 4)
        (1.8, 0.2681)
        """
        from pdcompare.stats.dietterich import combined_ftest_5x2cv
        from pdcompare.stats.multitest import check_correction

        alpha = check_fraction("alpha", alpha)
        check_correction(correction)
        data, i, j, scope, differences = self._five_by_two(
            "ftest_5x2cv", a, b, nan_policy, design
        )
        out = combined_ftest_5x2cv(differences)
        self._warn_pairs(
            data.names, i, j, out["zero_variance"],
            "the score differences are equal on both folds of every repeat, so the 5x2cv "
            "F-test's denominator is 0 (statistic 0 and p-value 1 when all differences are "
            "0, else an infinite statistic).",
        )
        columns = {k: out[k] for k in ("mean_diff", "statistic", "pvalue")}
        meta = self._five_by_two_meta(
            "ftest_5x2cv", data, scope, alternative="two-sided", alpha=alpha,
            correction=correction, nan_policy=nan_policy,
        )
        return results.pair_result(
            data.names, i, j, columns, meta, correction=correction, alpha=alpha
        )

    def _predictions(self, y: Any, models: Any, nan_policy: str):
        """The predictions frame as arrays, with correctness and the models with missing values.

        Returns ``(data, correct, valid, incomplete)``: ``incomplete`` marks the
        models whose results are NaN under "propagate" (all of them when the
        truth has a missing value); it is all False under "omit".
        """
        import numpy as np

        from pdcompare._validation import check_option, warn
        from pdcompare.frames import NAN_POLICIES, predictions_data
        from pdcompare.stats.predictions import correctness

        check_option("nan_policy", nan_policy, NAN_POLICIES)
        data = predictions_data(self._obj, y=y, models=models)
        correct, valid = correctness(data.y_true, data.y_pred, data.missing)
        truth_missing = bool(data.missing[:, 0].any())
        model_missing = data.missing[:, 1:].any(axis=0)
        columns = ([y] if truth_missing else []) + list(data.names[model_missing])
        incomplete = np.zeros(len(data.names), dtype=bool)
        if columns and nan_policy == "raise":
            msg = (
                f"Column(s) {columns} of the predictions frame have missing values. Pass "
                "`nan_policy='omit'` to drop those rows (pair by pair), or "
                "`nan_policy='propagate'` to give the comparisons involving them NaN results."
            )
            raise ValueError(msg)
        if columns and nan_policy == "propagate":
            incomplete = model_missing | truth_missing
            warn(
                f"Column(s) {columns} of the predictions frame have missing values: the "
                "comparisons involving them are NaN and left out of the correction. Pass "
                "`nan_policy='omit'` to drop those rows instead."
            )
        return data, correct, valid, incomplete

    def _prediction_pairs(self, a: Any, b: Any, y: Any, nan_policy: str):
        """Pairs of models (best = highest accuracy) and their counts on common samples."""
        import numpy as np

        from pdcompare.frames import select_pairs
        from pdcompare.stats.predictions import accuracies, pair_counts

        data, correct, valid, incomplete = self._predictions(y, None, nan_policy)
        accuracy = accuracies(correct, valid)
        i, j, scope = select_pairs(data.names, accuracy, a, b)
        counts = pair_counts(correct, valid, i, j)
        nan_rows = incomplete[i] | incomplete[j]
        counts = {k: np.where(nan_rows, np.nan, v) for k, v in counts.items()}
        order = np.argsort(-np.where(np.isnan(accuracy), -np.inf, accuracy), kind="stable")
        return data, i, j, scope, counts, list(data.names[order])

    @staticmethod
    def _counts_column(counts):
        """Counts as int64, or float64 when some are NaN (pairs with missing predictions)."""
        import numpy as np

        return counts if np.isnan(counts).any() else counts.astype(np.int64)

    def mcnemar(
        self,
        a: Any = None,
        b: Any = None,
        *,
        y: Any = "y",
        exact: bool | None = None,
        correction: bool = True,
        alpha: float = 0.05,
        p_adjust: str | None = "holm",
        nan_policy: str = "propagate",
    ) -> pd.DataFrame:
        """McNemar's test of two classifiers on the same test samples.

        Called on a predictions frame: one row per test sample, the truth in
        column ``y`` and one column of predicted labels per model (labels of any
        dtype: strings, integers, categoricals).

        Parameters
        ----------
        a, b : column name, optional
            ``(a, b)`` compares one pair; ``a`` alone compares it with every other
            model; neither compares the most accurate model with every other.
        y : column name, default "y"
            The column of true labels.
        exact : bool or None, default None
            True: exact binomial test on the discordant counts; False: chi-square
            approximation; None: exact when ``only_1_correct + only_2_correct < 25``.
        correction : bool, default True
            McNemar's continuity correction of the chi-square statistic, as in
            statsmodels (not used by the exact test).
        alpha : float, default 0.05
            Significance level of ``reject``.
        p_adjust : str or None, default "holm"
            Multiple-testing method (``statsmodels.stats.multitest.multipletests``)
            over the rows, or None. Every other test calls it ``correction``;
            here that name is McNemar's continuity correction, as in statsmodels.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            Rows with a missing truth or prediction: the comparisons involving
            them are NaN ("propagate", with a warning), the rows are dropped pair
            by pair ("omit"), or a ValueError names the columns ("raise").

        Returns
        -------
        pandas.DataFrame
            Columns ``model_1, model_2, only_1_correct, only_2_correct, statistic,
            pvalue, pvalue_adj, reject``. ``attrs["pdcompare"]["exact_rows"]``
            says which rows used the exact test.

        Notes
        -----
        With ``b = only_1_correct`` (samples only model_1 gets right) and
        ``c = only_2_correct``, the test asks whether ``b`` and ``c`` differ more
        than chance allows; samples both models get right or wrong carry no
        information. Exact: statistic ``min(b, c)`` and
        ``p = min(1, 2 · P(Binom(b + c, 1/2) <= min(b, c)))``; chi-square:
        ``(|b − c| − 1)² / (b + c)`` (without the ``− 1`` when
        ``correction=False``) with 1 degree of freedom: the semantics of
        ``statsmodels.stats.contingency_tables.mcnemar``. The test is
        two-sided. A chi-square test without discordant samples (``b + c = 0``)
        gives statistic 0 and p-value 1 with a warning, where statsmodels gives
        NaN. Dietterich (1998) recommends McNemar's test when the models can be
        trained only once: it has a low type I error.

        References
        ----------
        Q. McNemar, "Note on the sampling error of the difference between
        correlated proportions or percentages", Psychometrika 12(2), 1947.
        T. G. Dietterich, Neural Computation 10(7), 1998.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdcompare
        >>> truth = ["cat"] * 30 + ["dog"] * 30
        >>> preds = pd.DataFrame({"y": truth, "forest": truth[:52] + ["cat"] * 8,
        ...                       "knn": ["dog"] * 9 + truth[9:]})
        >>> print(preds.cmp.mcnemar().round(4).to_string())
          model_1 model_2  only_1_correct  only_2_correct  statistic  pvalue  pvalue_adj  reject
        0  forest     knn               9               8        8.0     1.0         1.0   False

        Compare with statsmodels:

        >>> from statsmodels.stats.contingency_tables import mcnemar
        >>> float(mcnemar([[0, 9], [8, 0]], exact=True).pvalue)
        1.0
        """
        import numpy as np

        from pdcompare._validation import check_option
        from pdcompare.stats.multitest import CORRECTIONS
        from pdcompare.stats.predictions import mcnemar

        if exact is not None and not isinstance(exact, bool | np.bool_):
            msg = f"`exact` must be True, False or None; got {exact!r}."
            raise TypeError(msg)
        if not isinstance(correction, bool | np.bool_):
            msg = (
                "`correction` of `mcnemar` is McNemar's continuity correction and must be "
                f"True or False; got {correction!r}. The multiple-testing method is "
                "`p_adjust=`."
            )
            raise TypeError(msg)
        check_option("p_adjust", p_adjust, (*CORRECTIONS, None))
        alpha = check_fraction("alpha", alpha)
        data, i, j, scope, counts, models = self._prediction_pairs(a, b, y, nan_policy)
        out = mcnemar(counts["only_1"], counts["only_2"], exact=exact, correction=correction)
        self._warn_pairs(
            data.names, i, j, out["no_discordant"],
            "no sample is classified correctly by only one of the two models, so McNemar's "
            "chi-square statistic is 0/0; reported as statistic 0 and p-value 1.",
        )
        columns = {
            "only_1_correct": self._counts_column(counts["only_1"]),
            "only_2_correct": self._counts_column(counts["only_2"]),
            "statistic": out["statistic"],
            "pvalue": out["pvalue"],
        }
        meta = results.result_meta(
            "mcnemar", scope=scope, alpha=alpha, correction=p_adjust, exact=exact,
            continuity_correction=bool(correction), exact_rows=out["exact"].tolist(),
            nan_policy=nan_policy, y=y, models=models,
        )
        return results.pair_result(
            data.names, i, j, columns, meta, correction=p_adjust, alpha=alpha
        )

    def cochrans_q(
        self,
        models: Sequence[Any] | None = None,
        *,
        y: Any = "y",
        nan_policy: str = "propagate",
    ) -> pd.DataFrame:
        """Cochran's Q test of equal accuracy of several classifiers on the same samples.

        Called on a predictions frame (truth in column ``y``, one column of
        predicted labels per model, labels of any dtype).

        Parameters
        ----------
        models : list of column names, optional
            The models to compare (at least 2); default every column but ``y``.
        y : column name, default "y"
            The column of true labels.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            Rows with a missing truth or prediction (among ``models``): the
            result is NaN ("propagate", with a warning), the rows are dropped
            ("omit"), or a ValueError names the columns ("raise").

        Returns
        -------
        pandas.DataFrame
            One row with columns ``n_models, statistic, df, pvalue``;
            ``attrs["pdcompare"]`` holds the models and the number of samples.

        Notes
        -----
        With ``k`` models, ``G_j`` the number of samples model ``j`` classifies
        correctly and ``L_i`` the number of models right on sample ``i``,
        ``Q = (k − 1) (k Σ_j G_j² − (Σ_j G_j)²) / (k Σ_i L_i − Σ_i L_i²)``,
        chi-square with ``k − 1`` degrees of freedom under the null hypothesis of
        equal accuracies (Cochran 1950), as statsmodels' and mlxtend's
        ``cochrans_q``. It generalises McNemar's test (uncorrected chi-square)
        to more than two models; after a rejection, compare pairs with
        :meth:`mcnemar`. When every sample is right for all models or wrong for
        all, Q is 0/0: reported as statistic 0 and p-value 1 with a warning.

        References
        ----------
        W. G. Cochran, "The comparison of percentages in matched samples",
        Biometrika 37(3/4), 1950.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdcompare
        >>> preds = pd.DataFrame({"y": [1, 1, 0, 0, 1, 0, 1, 1],
        ...                       "a": [1, 1, 0, 0, 1, 0, 1, 1],
        ...                       "b": [1, 0, 0, 1, 1, 0, 1, 0],
        ...                       "c": [0, 0, 1, 1, 1, 0, 0, 1]})
        >>> preds.cmp.cochrans_q().round(4)
           n_models  statistic  df  pvalue
        0         3     6.3333   2  0.0421

        Compare with statsmodels on the correctness matrix:

        >>> from statsmodels.stats.contingency_tables import cochrans_q
        >>> right = preds[["a", "b", "c"]].eq(preds["y"], axis=0).astype(int)
        >>> round(float(cochrans_q(right).pvalue), 4)
        0.0421
        """
        import numpy as np

        from pdcompare.frames import with_attrs
        from pdcompare.stats.predictions import cochrans_q

        if models is not None and (isinstance(models, str) or not np.iterable(models)):
            msg = f"`models` must be a list of column names; got {models!r}."
            raise TypeError(msg)
        data, correct, valid, incomplete = self._predictions(y, models, nan_policy)
        if len(data.names) < 2:
            msg = f"`models`: Cochran's Q compares at least 2 models; got {list(data.names)}."
            raise ValueError(msg)
        complete = valid.all(axis=1)
        out = cochrans_q(correct[complete])
        if incomplete.any():
            out = {**out, "statistic": np.nan, "pvalue": np.nan, "degenerate": False}
        if out["degenerate"]:
            from pdcompare._validation import warn

            warn(
                f"Models {list(data.names)} are all right or all wrong on every sample, so "
                "Cochran's Q is 0/0; reported as statistic 0 and p-value 1."
            )
        frame = pd.DataFrame({k: [out[k]] for k in ("n_models", "statistic", "df", "pvalue")})
        meta = results.result_meta(
            "cochrans_q", models=list(data.names), n_samples=int(complete.sum()),
            nan_policy=nan_policy, y=y,
        )
        return with_attrs(frame, meta)

    def proportions_ztest(
        self,
        a: Any = None,
        b: Any = None,
        *,
        y: Any = "y",
        alternative: str = "two-sided",
        alpha: float = 0.05,
        correction: str | None = "holm",
        nan_policy: str = "propagate",
    ) -> pd.DataFrame:
        """Two-proportion z-test on the accuracies of classifiers: the test Dietterich warns about.

        Called on a predictions frame (truth in column ``y``, one column of
        predicted labels per model, labels of any dtype). Prefer
        :meth:`mcnemar` on the same frame; this test is here for comparison
        with textbooks and older papers.

        Parameters
        ----------
        a, b : column name, optional
            ``(a, b)`` compares one pair; ``a`` alone compares it with every other
            model; neither compares the most accurate model with every other.
        y : column name, default "y"
            The column of true labels.
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            About accuracy_1 − accuracy_2.
        alpha : float, default 0.05
            Significance level of ``reject``.
        correction : str or None, default "holm"
            Multiple-testing method of ``statsmodels.stats.multitest.multipletests``
            over the rows, or None.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            Rows with a missing truth or prediction: NaN results ("propagate",
            with a warning), dropped pair by pair ("omit"), or a ValueError
            naming the columns ("raise").

        Returns
        -------
        pandas.DataFrame
            Columns ``model_1, model_2, accuracy_1, accuracy_2, statistic, pvalue,
            pvalue_adj, reject``.

        Notes
        -----
        ``z = (p_1 − p_2) / sqrt(2 p̄ (1 − p̄) / n)`` with ``p_1``, ``p_2`` the
        accuracies on the ``n`` common samples and ``p̄ = (p_1 + p_2) / 2``,
        standard normal under the null hypothesis: statsmodels'
        ``proportions_ztest`` with the pooled variance. Both accuracies 0 or
        both 1 give statistic 0 and p-value 1 with a warning.

        **Why Dietterich (1998) advises against it**: the test treats the two
        accuracies as proportions of two independent samples, but both models
        are evaluated on the *same* test set, so the accuracies are correlated;
        and it ignores the variation due to the choice of the training set. In
        Dietterich's simulations its type I error was elevated (it finds
        differences that are not there). :meth:`mcnemar` uses the pairing.

        References
        ----------
        T. G. Dietterich, "Approximate statistical tests for comparing supervised
        classification learning algorithms", Neural Computation 10(7), 1998.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdcompare
        >>> truth = ["cat"] * 50 + ["dog"] * 50
        >>> preds = pd.DataFrame({"y": truth, "forest": truth[:90] + ["cat"] * 10,
        ...                       "knn": ["dog"] * 20 + truth[20:]})
        >>> print(preds.cmp.proportions_ztest().round(4).to_string())
          model_1 model_2  accuracy_1  accuracy_2  statistic  pvalue  pvalue_adj  reject
        0  forest     knn         0.9         0.8     1.9803  0.0477      0.0477    True

        Compare with statsmodels (pooled variance), then with McNemar on the
        same samples:

        >>> from statsmodels.stats.proportion import proportions_ztest
        >>> [round(float(v), 4) for v in proportions_ztest([90, 80], [100, 100])]
        [1.9803, 0.0477]
        >>> round(float(preds.cmp.mcnemar()["pvalue"].iloc[0]), 4)
        0.1003
        """
        from pdcompare._validation import check_option
        from pdcompare.stats._common import ALTERNATIVES
        from pdcompare.stats.multitest import check_correction
        from pdcompare.stats.predictions import proportions_ztest

        check_option("alternative", alternative, ALTERNATIVES)
        alpha = check_fraction("alpha", alpha)
        check_correction(correction)
        data, i, j, scope, counts, models = self._prediction_pairs(a, b, y, nan_policy)
        out = proportions_ztest(
            counts["correct_1"], counts["correct_2"], counts["n"], alternative=alternative
        )
        self._warn_pairs(
            data.names, i, j, out["degenerate"],
            "both models have accuracy 0 or both 1, so the z statistic is 0/0; reported as "
            "statistic 0 and p-value 1.",
        )
        columns = {k: out[k] for k in ("accuracy_1", "accuracy_2", "statistic", "pvalue")}
        meta = results.result_meta(
            "proportions_ztest", scope=scope, alternative=alternative, alpha=alpha,
            correction=correction, nan_policy=nan_policy, y=y, models=models,
        )
        return results.pair_result(
            data.names, i, j, columns, meta, correction=correction, alpha=alpha
        )

    # ============================================================ bootstrap on predictions (6)

    def _prediction_arrays(self, y: Any, nan_policy: str, involved: Any = None):
        """Names, truth, predictions and the models to score, after the missing-value policy.

        ``involved`` (model positions; all models when None) are the columns the
        call compares: "omit" drops the rows with a missing truth or a missing
        prediction of an involved model; "propagate" leaves out (NaN results)
        the involved models with a missing prediction, or all of them when the
        truth is missing, and warns; "raise" raises a ValueError naming them.
        """
        import numpy as np

        from pdcompare._validation import check_option, warn
        from pdcompare.frames import NAN_POLICIES, predictions_data

        check_option("nan_policy", nan_policy, NAN_POLICIES)
        data = predictions_data(self._obj, y=y)
        n_models = len(data.names)
        valid = np.zeros(n_models, dtype=bool)
        valid[np.arange(n_models) if involved is None else np.asarray(involved)] = True
        truth_missing = data.missing[:, 0]
        model_missing = data.missing[:, 1:] & valid
        if not (truth_missing.any() or model_missing.any()):
            return data.names, data.y_true, data.y_pred, valid
        culprits = [f"the truth {y!r}"] if truth_missing.any() else []
        culprits += [repr(data.names[k]) for k in np.flatnonzero(model_missing.any(axis=0))]
        where = ", ".join(culprits)
        if nan_policy == "raise":
            msg = (
                f"Missing values (NaN) in {where}. Pass `nan_policy='omit'` to drop those "
                "rows, or `nan_policy='propagate'` to give the affected models NaN results."
            )
            raise ValueError(msg)
        if nan_policy == "omit":
            keep = ~(truth_missing | model_missing.any(axis=1))
            if not keep.any():
                msg = f"No row is left after dropping the missing values (NaN) in {where}."
                raise ValueError(msg)
            return data.names, data.y_true[keep], data.y_pred[keep], valid
        warn(
            f"Missing values (NaN) in {where}: the affected models get NaN results (and are "
            "left out of any correction). Pass `nan_policy='omit'` to drop those rows instead."
        )
        valid &= ~model_missing.any(axis=0) & ~truth_missing.any()
        return data.names, data.y_true, data.y_pred, valid

    @staticmethod
    def _seed(random_state: Any) -> int | None:
        """What ``attrs`` records of ``random_state``: the int seed, else None."""
        import numbers

        if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
            return int(random_state)
        return None

    def bootstrap(
        self,
        score: str | Callable = "accuracy",
        *,
        y: Any = "y",
        n_resamples: int = 1000,
        ci: float = 0.95,
        method: str = "percentile",
        random_state: Any = None,
        greater_is_better: bool | None = None,
        nan_policy: str = "propagate",
    ) -> pd.DataFrame:
        """Bootstrap confidence interval of every model's score on a predictions frame.

        Every resample draws the rows with replacement and scores every model
        on the same rows (a paired bootstrap, as CompStats does).

        Parameters
        ----------
        score : str or callable, default "accuracy"
            "accuracy", "balanced_accuracy", "recall_macro", "precision_macro",
            "f1_macro", "mean_squared_error", "mean_absolute_error", or any
            ``f(y_true, y_pred) -> float`` (scikit-learn metrics work as they are).
        y : label, default "y"
            The truth column; every other column holds one model's predictions.
        n_resamples : int, default 1000
            Number of bootstrap resamples (at least 2).
        ci : float, default 0.95
            Confidence level.
        method : {"percentile", "normal"}, default "percentile"
            "percentile": the ``(1 - ci)/2`` and ``(1 + ci)/2`` quantiles of the
            resampled scores; "normal": ``estimate ± z·se``, the bootstrap
            standard-error interval.
        random_state : None, int or numpy.random.Generator
            Seed of the resamples; an int makes the result reproducible. A
            Generator is used (and advanced) as it is.
        greater_is_better : bool, optional
            Direction of a callable score (default True). Named scores know theirs.
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            Missing truth or predictions: NaN results for the affected models
            (with a warning), drop the rows with any missing value, or raise.

        Returns
        -------
        pandas.DataFrame
            Indexed by model, best first: ``estimate`` (the score on all rows),
            ``se`` (standard deviation of the resampled scores, ddof=1),
            ``ci_low``, ``ci_high``. ``attrs["pdcompare"]`` holds ``test``,
            ``score``, ``n_resamples``, ``ci``, ``method``, ``random_state`` (the
            int seed, or None), ``greater_is_better`` and ``models``.

        Notes
        -----
        Scores that depend only on the confusion counts (the named
        classification scores) are resampled exactly through multinomial counts
        of the distinct (truth, predictions) patterns, at a cost independent of
        the number of rows; other scores by resampling row indices in chunks.
        Both give the same distribution. Absent classes follow scikit-learn's
        defaults (see :mod:`pdcompare.stats.metrics`).

        References: Efron & Tibshirani (1993), *An Introduction to the
        Bootstrap*, ch. 6 and 13; Nava-Muñoz, Graff Guerrero & Escalante (2024),
        CompStats.

        Examples
        --------
        >>> import pandas as pd
        >>> preds = pd.DataFrame({"y": [0, 1, 1, 0, 1, 1, 0, 1, 0, 1],
        ...                       "forest": [0, 1, 1, 0, 1, 0, 0, 1, 0, 1],
        ...                       "tree": [1, 1, 1, 0, 0, 0, 0, 1, 0, 1]})
        >>> preds.cmp.bootstrap(random_state=0).round(3)
                estimate     se  ci_low  ci_high
        model
        forest       0.9  0.098     0.7    1.000
        tree         0.7  0.145     0.4    0.902

        The estimate is the plain metric (compare with scikit-learn):

        >>> from sklearn.metrics import accuracy_score
        >>> accuracy_score(preds["y"], preds["tree"])
        0.7
        """
        from pdcompare._validation import check_option, check_positive_int
        from pdcompare.frames import rank_order
        from pdcompare.stats.bootstrap import (
            INTERVAL_METHODS,
            check_random_state,
            paired_bootstrap,
        )
        from pdcompare.stats.metrics import get_metric

        metric = get_metric(score, greater_is_better)
        n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
        ci = check_fraction("ci", ci)
        check_option("method", method, INTERVAL_METHODS)
        rng = check_random_state(random_state)
        names, y_true, y_pred, valid = self._prediction_arrays(y, nan_policy)
        distribution = paired_bootstrap(
            y_true, y_pred, metric, n_resamples=n_resamples, random_state=rng, valid=valid
        )
        order = rank_order(distribution.estimate, metric.greater_is_better)
        meta = results.result_meta(
            "bootstrap",
            score=metric.name,
            n_resamples=n_resamples,
            ci=ci,
            method=method,
            random_state=self._seed(random_state),
            greater_is_better=metric.greater_is_better,
            models=[names[k] for k in order],
        )
        frame = results.model_result(names, distribution.intervals(ci, method), meta)
        return frame.iloc[order]

    def accuracy_ci(
        self,
        *,
        y: Any = "y",
        ci: float = 0.95,
        method: str = "wilson",
        nan_policy: str = "propagate",
    ) -> pd.DataFrame:
        """Binomial confidence interval of every model's accuracy, by statsmodels.

        Parameters
        ----------
        y : label, default "y"
            The truth column; every other column holds one model's predictions.
        ci : float, default 0.95
            Confidence level.
        method : {"wilson", "normal", "beta", "agresti_coull", "jeffreys"}
            The method of ``statsmodels.stats.proportion.proportion_confint``:
            "normal" is the textbook Wald interval ``acc ± z·sqrt(acc(1-acc)/n)``
            that can pass 1 on a small, accurate test set (reported unclipped,
            by that formula; statsmodels >= 0.15 clips it); "wilson" (default),
            "beta" (Clopper–Pearson), "agresti_coull" and "jeffreys" stay
            inside [0, 1].
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            Missing truth or predictions: NaN results for the affected models
            (with a warning), drop the rows with any missing value, or raise.

        Returns
        -------
        pandas.DataFrame
            Indexed by model, best first: ``accuracy, n, ci_low, ci_high``.

        Notes
        -----
        The correct predictions of a model on ``n`` independent test rows are
        binomial; the interval is for its true accuracy on that distribution.
        It ignores the variability of training (Dietterich 1998) and is not a
        comparison of models: use :meth:`mcnemar` or :meth:`bootstrap_diff`.
        Reference: Brown, Cai & DasGupta (2001), *Interval Estimation for a
        Binomial Proportion*.

        Examples
        --------
        >>> import pandas as pd
        >>> preds = pd.DataFrame({"y": [0, 1] * 10, "good": [0, 1] * 10,
        ...                       "fair": [0, 1] * 8 + [1, 0] * 2})
        >>> preds.cmp.accuracy_ci(method="normal").round(3)
               accuracy   n  ci_low  ci_high
        model
        good        1.0  20   1.000    1.000
        fair        0.8  20   0.625    0.975

        Compare with statsmodels:

        >>> from statsmodels.stats.proportion import proportion_confint
        >>> [round(x, 3) for x in proportion_confint(16, 20, method="normal")]
        [0.625, 0.975]
        """
        from pdcompare._validation import check_option
        from pdcompare.frames import rank_order
        from pdcompare.stats.bootstrap import PROPORTION_METHODS, accuracy_interval

        ci = check_fraction("ci", ci)
        check_option("method", method, PROPORTION_METHODS)
        names, y_true, y_pred, valid = self._prediction_arrays(y, nan_policy)
        table = accuracy_interval(y_true, y_pred, confidence=ci, method=method, valid=valid)
        order = rank_order(table["accuracy"])
        meta = results.result_meta(
            "accuracy_ci",
            score="accuracy",
            ci=ci,
            method=method,
            greater_is_better=True,
            models=[names[k] for k in order],
        )
        return results.model_result(names, table, meta).iloc[order]

    def bootstrap_diff(
        self,
        a: Any = None,
        b: Any = None,
        *,
        score: str | Callable = "accuracy",
        y: Any = "y",
        alternative: str = "two-sided",
        n_resamples: int = 1000,
        ci: float = 0.95,
        method: str = "percentile",
        alpha: float = 0.05,
        correction: str | None = "holm",
        random_state: Any = None,
        greater_is_better: bool | None = None,
        nan_policy: str = "propagate",
    ) -> pd.DataFrame:
        """Paired bootstrap of the difference of scores between models, with a p-value.

        Parameters
        ----------
        a, b : label, optional
            ``(a, b)`` compares one pair (``model_1 = a``); ``a`` alone compares
            it with every other model; neither compares the best model (best
            score on all rows) with every other.
        score : str or callable, default "accuracy"
            A named score or ``f(y_true, y_pred) -> float``, as in :meth:`bootstrap`.
        y : label, default "y"
            The truth column.
        alternative : {"two-sided", "greater", "less"}, default "two-sided"
            About ``score(model_1) - score(model_2)``, as in scipy.
        n_resamples : int, default 1000
            Number of bootstrap resamples (at least 2).
        ci : float, default 0.95
            Confidence level of the interval of the difference (one-sided when
            ``alternative`` is).
        method : {"percentile", "normal"}, default "percentile"
            Interval from the quantiles of the resampled differences, or
            ``mean_diff ± z·se``.
        alpha : float, default 0.05
            Level of ``reject``.
        correction : str or None, default "holm"
            Multiple-testing correction over the rows (statsmodels' method names).
        random_state : None, int or numpy.random.Generator
            Seed of the resamples.
        greater_is_better : bool, optional
            Direction of a callable score (default True).
        nan_policy : {"propagate", "omit", "raise"}, default "propagate"
            Missing truth or predictions of a compared model: NaN results for
            its pairs (with a warning), drop the rows, or raise.

        Returns
        -------
        pandas.DataFrame
            One row per pair: ``model_1, model_2, mean_diff, ci_low, ci_high,
            pvalue, pvalue_adj, reject``.

        Notes
        -----
        Sign convention: ``mean_diff = score(model_1) - score(model_2)`` on all
        rows, and ``d_r`` the same difference in resample ``r`` (both models
        scored on the same resampled rows). The p-value is the share of
        resamples against the alternative:

        - "greater": ``P(d <= 0)``, CompStats' "share of resamples where the
          difference is below zero";
        - "less": ``P(d >= 0)``;
        - "two-sided": ``min(1, 2·min(P(d <= 0), P(d >= 0)))``.

        A p-value of 0 means below ``1 / n_resamples``. For error scores
        (``mean_squared_error``, ``mean_absolute_error``, or a callable with
        ``greater_is_better=False``) lower is better: the best model comes
        first and ``mean_diff <= 0`` in the default table, and "model_1 is
        better" is ``alternative="less"``.

        Reference: Efron & Tibshirani (1993), *An Introduction to the
        Bootstrap*, ch. 16; Nava-Muñoz, Graff Guerrero & Escalante (2024), CompStats.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> rng = np.random.default_rng(0)
        >>> y = rng.integers(0, 2, 300)
        >>> preds = pd.DataFrame({"y": y,
        ...                       "forest": np.where(rng.random(300) < 0.9, y, 1 - y),
        ...                       "tree": np.where(rng.random(300) < 0.8, y, 1 - y)})
        >>> out = preds.cmp.bootstrap_diff(random_state=0)
        >>> out[["model_1", "model_2", "mean_diff", "pvalue"]].round(3)
          model_1 model_2  mean_diff  pvalue
        0  forest    tree      0.067   0.024
        """
        import numpy as np

        from pdcompare._validation import check_option, check_positive_int
        from pdcompare.frames import ALL_PAIRS, predictions_data, rank_order, select_pairs
        from pdcompare.stats._common import ALTERNATIVES
        from pdcompare.stats.bootstrap import (
            INTERVAL_METHODS,
            check_random_state,
            paired_bootstrap,
        )
        from pdcompare.stats.metrics import get_metric
        from pdcompare.stats.multitest import check_correction

        metric = get_metric(score, greater_is_better)
        check_option("alternative", alternative, ALTERNATIVES)
        n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
        ci = check_fraction("ci", ci)
        alpha = check_fraction("alpha", alpha)
        check_option("method", method, INTERVAL_METHODS)
        check_correction(correction)
        rng = check_random_state(random_state)
        involved = None
        if a is not None and b is not None and a is not ALL_PAIRS:
            names = predictions_data(self._obj, y=y).names
            i, j, _ = select_pairs(names, np.zeros(len(names)), a, b)
            involved = [int(i[0]), int(j[0])]
        names, y_true, y_pred, valid = self._prediction_arrays(y, nan_policy, involved)
        distribution = paired_bootstrap(
            y_true, y_pred, metric, n_resamples=n_resamples, random_state=rng, valid=valid
        )
        i, j, scope = select_pairs(names, distribution.estimate, a, b, metric.greater_is_better)
        columns = distribution.differences(
            i, j, confidence=ci, alternative=alternative, method=method
        )
        order = rank_order(distribution.estimate, metric.greater_is_better)
        meta = results.result_meta(
            "bootstrap_diff",
            scope=scope,
            alternative=alternative,
            alpha=alpha,
            correction=correction,
            ci=ci,
            method=method,
            score=metric.name,
            n_resamples=n_resamples,
            random_state=self._seed(random_state),
            greater_is_better=metric.greater_is_better,
            models=[names[k] for k in order],
        )
        return results.pair_result(
            names, i, j, columns, meta, correction=correction, alpha=alpha
        )

    # ============================================================ presentation (issue 4)

    def plot(self, kind: str | None = None, *, ax: Any = None, **options: Any):
        """Draw a picture of the frame and return the matplotlib ``Axes``.

        Parameters
        ----------
        kind : str, optional
            On a scores frame, the picture to draw (see ``pdcompare.plotting``).
            On a result frame, leave it out: the picture that suits the test.
        ax : matplotlib.axes.Axes, optional
            Where to draw; the current Axes when None.
        **options
            Options of the picture.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn on. ``plt.show()`` is never called.
        """
        from pdcompare.plotting import plot

        frame = self._obj if not is_cv_results(self._obj) else self.scores()
        return plot(frame, kind, ax=ax, **options)

    def style(self, **options: Any):
        r"""A pandas ``Styler`` of a result frame: readable numbers, conclusions highlighted.

        p-values print with 3 decimals (``<0.001`` below), probabilities and
        other numbers with ``precision`` decimals, ``reject`` as yes/no; the
        rows that state a conclusion (a rejected hypothesis, a decided Bayesian
        comparison, the best model of a summary) are highlighted; numbers are
        right-aligned and model names kept. Works on any frame of numbers too.

        Parameters
        ----------
        **options
            ``precision=3``, ``highlight`` (CSS of highlighted rows, or None),
            ``gradient=False`` (shade probabilities or p-values), ``alpha``
            (for frames without ``reject``), ``cmap``; see
            :func:`pdcompare.styling.style`.

        Returns
        -------
        pandas.io.formats.style.Styler
            Renders in Jupyter; ``.to_html()``, ``.to_latex()`` (highlight
            converted to ``\bfseries`` and ``\cellcolor``).

        Examples
        --------
        >>> import pandas as pd
        >>> from pdcompare import results
        >>> result = results.pair_result(
        ...     pd.Index(["rbf", "linear"]), [0], [1],
        ...     {"mean_diff": [0.01], "pvalue": [0.00004]},
        ...     results.result_meta("ttest"), correction="holm", alpha=0.05)
        >>> html = result.cmp.style().to_html()
        >>> "&lt;0.001" in html and "rbf" in html
        True
        """
        from pdcompare.styling import style

        return style(self._obj, **options)

    def report(self, **options: Any) -> str:
        """The conclusion of the comparison in plain words, with the numbers.

        Says which model is best, which differences are significant after
        correction (Nadeau–Bengio corrected t-test when the design is known;
        otherwise the plain t-test, with a warning sentence on what that
        means), and, given ``rope=``, which pairs are practically equivalent
        (Bayesian correlated t-test), each with means, differences, p-values
        or probabilities and the test used.

        Parameters
        ----------
        **options
            ``test``, ``rope``, ``alpha=0.05``, ``correction="holm"``,
            ``alternative="two-sided"``, ``ci=0.95``, ``nan_policy`` and design keywords
            (``cv=``, ``test_size=``, ``n_train=``/``n_test=``,
            ``greater_is_better=``); see :func:`pdcompare.report.report`.

        Returns
        -------
        str
            Plain text, one statement per line.

        Examples
        --------
        >>> from pdcompare.datasets import load_grid_search_scores
        >>> text = load_grid_search_scores().cmp.report(rope=0.01)
        >>> "rbf vs linear" in text
        True
        """
        from pdcompare.report import report

        frame = self._obj if not is_cv_results(self._obj) else self.scores()
        return report(frame, **options)
