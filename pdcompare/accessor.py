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
