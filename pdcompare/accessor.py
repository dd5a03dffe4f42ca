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
        # statsmodels' Holm runs gc.collect() on every call, which costs more than the
        # test: the default correction is computed here, with the same numbers.
        fast_holm = correction == "holm"
        frame = results.pair_result(
            data.names.to_numpy(dtype=object),  # a plain array: `take` is much faster
            i,
            j,
            columns,
            meta,
            correction=None if fast_holm else correction,
            alpha=alpha,
        )
        if fast_holm:
            adjusted = paired.holm(out["pvalue"])
            frame["pvalue_adj"] = adjusted
            with np.errstate(invalid="ignore"):
                frame["reject"] = adjusted <= alpha
        return frame

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
        test : {"corrected_ttest", "ttest", "wilcoxon", "sign_test", "bayes"}
            The method that compares each pair.
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

        check_option("test", test, ("corrected_ttest", "ttest", "wilcoxon", "sign_test", "bayes"))
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
              ``wins`` / ``losses`` (and the sign test's statistic), and
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

        partners = {"prob_better": "prob_worse", "wins": "losses"}
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

    # ============================================================ 5x2cv and predictions (issue 5)

    # ============================================================ bootstrap on predictions (6)

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
