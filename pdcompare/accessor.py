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
