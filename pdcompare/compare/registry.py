"""One registry of tests: what every comparison is, which frames it takes, how it is named.

Each public comparison has one row here: its name, the frame kinds it takes,
its family, the leading columns of its result, its names in captions and in
the report's sentences, its default multiple-testing correction and the
keyword that carries it, and whether ``pairwise(test=...)``, the report and
the command line may run it. ``pairwise``, the report's analysis, the command
line's choices, the captions of tables and pictures and the "which test when"
page of the documentation all read this table, so a new test is one row here
and one module of its own, whose public function is declared with
:func:`pdcompare.compare.calls.comparison` (which sets the row's ``function``
and checks every call against the row). The table imports no family, so every
family may read it.

Frame kinds: ``"scores"`` (models x CV splits), ``"benchmark"`` (models x data
sets), ``"runs"`` (independent runs, ``paired=False``), ``"predictions"`` (one
row per test sample, a truth column), ``"forecasts"`` (predictions in time
order), ``"items"`` (models x questions of an evaluation, DESIGN section 21) and
``"battles"`` (square counts of wins, ``from_battles``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pdcompare._validation import NAN_POLICIES, OptionError, check_call_keywords, check_option
from pdcompare.inputs.kinds import FrameKind, accepts
from pdcompare.inputs.scores import ALL_PAIRS

K = FrameKind

#: Every frame kind a comparison can take.
FRAME_KINDS = tuple(
    kind.value
    for kind in (
        K.SCORES, K.BENCHMARK, K.RUNS, K.PREDICTIONS, K.FORECASTS, K.ITEMS, K.BATTLES, K.TASK_RUNS,
    )
)  # fmt: skip

#: The leading columns of a t-test's result (section 4 of the design).
T_COLUMNS = (
    "model_1", "model_2", "mean_diff", "statistic", "df", "pvalue", "pvalue_adj", "reject",
    "ci_low", "ci_high",
)  # fmt: skip
#: The leading columns of a rank or sign test's result.
RANK_COLUMNS = ("model_1", "model_2", "mean_diff", "statistic", "pvalue", "pvalue_adj", "reject")
#: The leading columns of a mean-rank post-hoc test's result.
MEAN_RANK_COLUMNS = (
    "model_1", "model_2", "rank_diff", "statistic", "pvalue", "pvalue_adj", "reject",
)  # fmt: skip
#: The leading columns of a Bayesian comparison's result.
BAYES_COLUMNS = (
    "model_1", "model_2", "mean_diff", "prob_better", "prob_rope", "prob_worse",
)  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    """One row of the registry: a comparison and everything the outputs say about it.

    Attributes
    ----------
    name : str
        The comparison's name: its public function, its ``pairwise(test=...)`` value,
        its command-line ``--test`` value and ``attrs["pdcompare"]["test"]``.
    kinds : tuple of FrameKind
        The frame kinds it takes (``FRAME_KINDS``); every other kind is refused
        by :func:`comparison` before the function runs, with a sentence naming
        what to use instead.
    family : str
        The family it belongs to ("t-test", "rank test", "Bayesian", ...).
    columns : tuple of str
        The leading columns of its result frame, in order.
    label : str
        Its name in captions, legends and titles.
    words : str or None
        Its name in the report's sentences when the unit is the split (or the run).
    words_across : str or None
        ... and when the unit is the data set.
    correction : str or None
        The multiple-testing correction ``correction="default"`` stands for.
    correction_keyword : str or None
        The keyword of its function that takes the correction (None: it takes none).
    takes_alpha : bool
        Whether its function takes ``alpha``.
    scoped : bool
        Whether its function takes the scope (``a``, ``b``) after the frame.
    pairwise : tuple of FrameKind
        The frame kinds on which ``pairwise(test=...)`` runs it.
    report : tuple of FrameKind
        The frame kinds on which the report and the command line may rest their
        frequentist paragraph on it (``test=``, ``--test``).
    needs : tuple of str
        Keywords it cannot run without (``rope`` for equivalence).
    unpaired : bool
        Whether it compares independent samples (runs): the tests named when a
        paired test meets a runs frame.
    overlap_sensitive : bool
        Whether it assumes independent splits, so that it warns on overlapping ones
        (repeated CV) and names ``corrected_ttest``.
    gates : bool
        Whether a release gate (``gate(test=...)``, ``pdcompare gate --test``) may use it.
    own_picture : bool
        Whether an all-pairs result of it on a benchmark frame draws its own picture
        rather than the critical-difference diagram.
    cli : tuple of FrameKind
        The kinds of file (predictions, forecasts) on which the command line's
        ``--test`` may name it; scores files take the ``report`` kinds.
    default_on : tuple of FrameKind
        The frame kinds on which it is ``pairwise()``'s test when none is named.
    corrections : tuple or None
        The corrections it takes, when not every multiple-testing correction of
        statsmodels (None: any of them).
    folds : bool
        Whether it needs the fold scores of every data set (``(dataset, split)``
        columns), not one score per data set.
    nan_policies : tuple of str
        The ``nan_policy`` values it takes.
    function : callable
        The public function that runs it on a frame; set by :func:`comparison`
        where the function is defined.
    """

    name: str
    kinds: tuple[FrameKind, ...]
    family: str
    columns: tuple[str, ...]
    label: str
    words: str | None = None
    words_across: str | None = None
    correction: str | None = "holm"
    correction_keyword: str | None = "correction"
    takes_alpha: bool = True
    scoped: bool = True
    pairwise: tuple[FrameKind, ...] = ()
    report: tuple[FrameKind, ...] = ()
    needs: tuple[str, ...] = ()
    unpaired: bool = False
    overlap_sensitive: bool = False
    gates: bool = False
    own_picture: bool = False
    cli: tuple[FrameKind, ...] = ()
    default_on: tuple[FrameKind, ...] = ()
    folds: bool = False
    corrections: tuple[str | None, ...] | None = None
    nan_policies: tuple[str, ...] = NAN_POLICIES
    function: Callable[..., Any] | None = None

    def accepts(self, kind: FrameKind) -> bool:
        """Whether the comparison takes a frame of ``kind``.

        Examples
        --------
        >>> BY_NAME["corrected_ttest"].accepts(FrameKind.CV_RESULTS)
        True
        >>> BY_NAME["corrected_ttest"].accepts(FrameKind.ITEMS)
        False
        """
        return accepts(self.kinds, kind)

    def run_all_pairs(
        self, frame: Any, *, correction: str | None, alpha: float, options: Mapping[str, Any]
    ) -> Any:
        """Run the comparison on every pair of ``frame``, best first.

        A keyword the comparison does not take is refused by name (a
        comparison without ``**design`` takes no CV design, for one).
        """
        keywords = dict(options)
        check_call_keywords(self.function, keywords, f"`pairwise(test={self.name!r})`")
        if self.correction_keyword is not None:
            keywords[self.correction_keyword] = correction
        if self.takes_alpha:
            keywords["alpha"] = alpha
        if self.scoped:
            return self.function(frame, ALL_PAIRS, **keywords)
        return self.function(frame, **keywords)


_PAIRED = (K.SCORES, K.BENCHMARK)
_SCORES_LIKE = (K.SCORES, K.BENCHMARK, K.RUNS)
_PREDICTIONS = (K.PREDICTIONS, K.FORECASTS)
_ITEMS_PAIRED = (*_PAIRED, K.ITEMS)
_ALL_SCORES = (*_SCORES_LIKE, K.ITEMS)

#: The registry: one row per public comparison, in the order the outputs list them.
TESTS: tuple[Comparison, ...] = (
    Comparison(
        "corrected_ttest", (K.SCORES,), "t-test", T_COLUMNS,
        label="corrected t-test (Nadeau–Bengio)",
        words="Nadeau–Bengio corrected resampled t-test",
        pairwise=(K.SCORES,), report=(K.SCORES,), gates=True, default_on=(K.SCORES,),
    ),
    Comparison(
        "ttest", _ITEMS_PAIRED, "t-test", T_COLUMNS,
        label="paired t-test (uncorrected)",
        words="plain paired t-test, uncorrected for CV",
        words_across="paired t-test across data sets",
        pairwise=_ITEMS_PAIRED, report=_ITEMS_PAIRED, overlap_sensitive=True, gates=True,
        default_on=(K.ITEMS,),
    ),
    Comparison(
        "wilcoxon", _ITEMS_PAIRED, "rank test", RANK_COLUMNS,
        label="Wilcoxon signed-rank test",
        words="Wilcoxon signed-rank test",
        words_across="Wilcoxon signed-rank test across data sets",
        pairwise=_ITEMS_PAIRED, report=_ITEMS_PAIRED, overlap_sensitive=True,
        default_on=(K.BENCHMARK,),
    ),
    Comparison(
        "sign_test", _ITEMS_PAIRED, "rank test", RANK_COLUMNS,
        label="sign test", words="sign test", words_across="sign test across data sets",
        pairwise=_ITEMS_PAIRED, report=_ITEMS_PAIRED, overlap_sensitive=True,
    ),
    Comparison(
        "nemenyi", (K.BENCHMARK,), "mean-rank test", MEAN_RANK_COLUMNS,
        label="Nemenyi test", words="Nemenyi test of mean ranks",
        words_across="Nemenyi test of mean ranks",
        # Its p-values are family-wise already (the studentized range).
        correction=None, scoped=False, pairwise=(K.BENCHMARK,), report=(K.BENCHMARK,),
    ),
    Comparison(
        "conover", (K.BENCHMARK,), "mean-rank test", MEAN_RANK_COLUMNS,
        label="Conover test", words="Conover test of mean ranks",
        words_across="Conover test of mean ranks",
        scoped=False, pairwise=(K.BENCHMARK,), report=(K.BENCHMARK,),
    ),
    Comparison(
        "bayes", _PAIRED, "Bayesian", BAYES_COLUMNS,
        label="Bayesian correlated t-test",
        # Posterior probabilities: it decides at probability 1 - alpha, with no correction.
        correction=None, correction_keyword=None, pairwise=_PAIRED, own_picture=True,
    ),
    Comparison(
        "hierarchical", (K.BENCHMARK,), "Bayesian", BAYES_COLUMNS,
        label="hierarchical Bayesian correlated t-test",
        correction=None, correction_keyword=None, pairwise=(K.BENCHMARK,), own_picture=True,
        folds=True,
    ),
    Comparison(
        "ttest_5x2cv", (K.SCORES,), "5x2cv test", RANK_COLUMNS,
        label="5x2cv paired t-test", pairwise=(K.SCORES,),
    ),
    Comparison(
        "ftest_5x2cv", (K.SCORES,), "5x2cv test", RANK_COLUMNS,
        label="5x2cv combined F-test", pairwise=(K.SCORES,),
    ),
    Comparison(
        "equivalence", _ALL_SCORES, "equivalence",
        ("model_1", "model_2", "mean_diff", "statistic_low", "pvalue_low", "statistic_high",
         "pvalue_high", "pvalue", "pvalue_adj", "reject", "ci_low", "ci_high"),
        label="equivalence test (TOST)", pairwise=_ALL_SCORES, needs=("rope",),
        own_picture=True,
    ),
    Comparison(
        "effect_size", _ALL_SCORES, "effect size",
        ("model_1", "model_2", "mean_diff", "effect_size", "magnitude"),
        label="effect size",
        # It tests nothing: no p-value, no correction, no alpha.
        correction=None, correction_keyword=None, takes_alpha=False, pairwise=_SCORES_LIKE,
        own_picture=True,
    ),
    Comparison(
        "welch_ttest", _ALL_SCORES, "unpaired test", T_COLUMNS,
        label="Welch's t-test",
        words="Welch's unequal-variance t-test of independent runs",
        words_across="Welch's unequal-variance t-test of independent runs",
        pairwise=_SCORES_LIKE, report=(K.RUNS,), unpaired=True, overlap_sensitive=True,
        gates=True, default_on=(K.RUNS,),
    ),
    Comparison(
        "mannwhitney", _ALL_SCORES, "unpaired test", RANK_COLUMNS,
        label="Mann–Whitney U test",
        words="Mann–Whitney U test of independent runs",
        words_across="Mann–Whitney U test of independent runs",
        pairwise=_SCORES_LIKE, report=(K.RUNS,), unpaired=True, overlap_sensitive=True,
    ),
    Comparison(
        "aso", _ALL_SCORES, "unpaired test",
        ("model_1", "model_2", "mean_diff", "violation_ratio", "eps_min", "reject"),
        label="almost stochastic order",
        # The bound keeps its Bonferroni-adjusted level; `tau` and the level decide, not alpha.
        correction="bonferroni", takes_alpha=False, pairwise=_SCORES_LIKE, unpaired=True,
        overlap_sensitive=True, own_picture=True,
    ),
    Comparison(
        "gate", (K.SCORES, K.RUNS, K.PREDICTIONS, K.ITEMS, K.BATTLES), "gate",
        ("candidate", "baseline", "test", "mean_diff", "margin", "ci_low", "ci_high", "pvalue",
         "pvalue_worse", "outcome"),
        # One candidate against one baseline, by two one-sided tests: no family to correct.
        label="release gate (non-inferiority)", correction=None, correction_keyword=None,
        scoped=False, needs=("margin",),
    ),
    Comparison(
        "pareto", (K.SCORES, K.RUNS, K.PREDICTIONS, K.ITEMS), "trade-off",
        ("score", "cost", "status", "dominated_by", "pvalue"),
        # Holm over the models that cost no more than the one decided, each decision at alpha.
        label="Pareto front of score against cost", scoped=False,
    ),
    Comparison(
        "bradley_terry", (K.BATTLES,), "ratings",
        ("rating", "ci_low", "ci_high", "rank", "rank_low", "rank_high", "n_battles",
         "n_rounds", "interval"),
        label="Bradley–Terry ratings", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "bradley_terry_z", (K.BATTLES,), "z-test",
        ("model_1", "model_2", "rating_diff", "se", "statistic", "pvalue", "pvalue_adj",
         "reject"),
        # What pairwise() runs on a battles frame.
        label="z test of Bradley–Terry ratings", scoped=False, pairwise=(K.BATTLES,),
        default_on=(K.BATTLES,),
    ),
    Comparison(
        "win_probability", (K.BATTLES,), "ratings",
        ("model_1", "model_2", "prob", "ci_low", "ci_high"),
        label="Bradley–Terry win probability", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "mcnemar", (K.PREDICTIONS, K.ITEMS), "contingency test",
        ("model_1", "model_2", "only_1_correct", "only_2_correct", "mean_diff", "ci_low",
         "ci_high", "statistic", "pvalue", "pvalue_adj", "reject"),
        # Its `correction` is the continuity correction; the multiple-testing one is p_adjust.
        label="McNemar's test", correction_keyword="p_adjust",
        pairwise=(K.PREDICTIONS, K.ITEMS), cli=(K.PREDICTIONS,),
    ),
    Comparison(
        "cochrans_q", (K.PREDICTIONS, K.ITEMS), "contingency test",
        ("n_models", "statistic", "df", "pvalue"),
        label="Cochran's Q test", correction=None, correction_keyword=None, takes_alpha=False,
        scoped=False,
    ),
    Comparison(
        "proportions_ztest", (K.PREDICTIONS,), "z-test",
        ("model_1", "model_2", "accuracy_1", "accuracy_2", "statistic", "pvalue", "pvalue_adj",
         "reject"),
        label="two-proportion z-test", pairwise=(K.PREDICTIONS,),
    ),
    Comparison(
        "bootstrap_diff", (K.PREDICTIONS, K.ITEMS), "bootstrap",
        ("model_1", "model_2", "mean_diff", "ci_low", "ci_high", "pvalue"),
        label="paired bootstrap", pairwise=(K.PREDICTIONS, K.ITEMS),
    ),
    Comparison(
        "bootstrap", (K.PREDICTIONS,), "bootstrap",
        ("estimate", "se", "ci_low", "ci_high"),
        label="bootstrap interval", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "accuracy_ci", (K.PREDICTIONS,), "interval",
        ("accuracy", "n", "ci_low", "ci_high"),
        label="accuracy interval", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "auc_ci", (K.PREDICTIONS,), "AUC",
        ("auc", "se", "ci_low", "ci_high", "n_pos", "n_neg"),
        label="ROC AUC interval (DeLong)", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "delong", (K.PREDICTIONS,), "AUC",
        ("model_1", "model_2", "auc_1", "auc_2", "auc_diff", "se", "statistic", "pvalue",
         "pvalue_adj", "reject", "ci_low", "ci_high"),
        label="DeLong test", pairwise=(K.PREDICTIONS,), gates=True, cli=(K.PREDICTIONS,),
    ),
    Comparison(
        "permutation_test", (K.PREDICTIONS, K.SCORES, K.BENCHMARK, K.ITEMS), "permutation test",
        ("model_1", "model_2", "score_1", "score_2", "mean_diff", "pvalue", "pvalue_adj",
         "reject"),
        label="paired permutation test", pairwise=(K.PREDICTIONS, K.ITEMS),
        overlap_sensitive=True, cli=(K.PREDICTIONS,),
    ),
    Comparison(
        "diebold_mariano", _PREDICTIONS, "forecast test",
        ("model_1", "model_2", "mean_loss_diff", "statistic", "df", "pvalue", "pvalue_adj",
         "reject"),
        label="Diebold–Mariano test", pairwise=_PREDICTIONS, cli=(K.FORECASTS,),
    ),
    Comparison(
        "confidence_set", _PREDICTIONS, "forecast test",
        ("mean_loss", "pvalue", "in_set", "eliminated_at"),
        label="model confidence set", correction=None, correction_keyword=None,
        takes_alpha=True, scoped=False, cli=(K.FORECASTS,),
    ),
    Comparison(
        "friedman", (K.BENCHMARK, K.TASK_RUNS), "mean-rank test",
        ("n_models", "n_datasets", "statistic", "df", "pvalue", "f_statistic", "f_df1",
         "f_df2", "f_pvalue"),
        label="Friedman test", correction=None, correction_keyword=None, takes_alpha=False,
        scoped=False, nan_policies=(*NAN_POLICIES, "skillings_mack", "durbin"),
    ),
    Comparison(
        "random_effects", (K.BENCHMARK,), "meta-analysis",
        ("model_1", "model_2", "mean_diff", "se", "statistic", "pvalue", "pvalue_adj", "reject",
         "ci_low", "ci_high", "tau2", "i2", "pi_low", "pi_high"),
        label="random-effects meta-analysis", own_picture=True, folds=True,
    ),
    Comparison(
        "power", (*_ALL_SCORES,), "power",
        ("model_1", "model_2", "sd_diff"),
        label="power of the corrected t-test", correction=None, correction_keyword=None,
        own_picture=True,
    ),
    Comparison(
        "mcm", (K.BENCHMARK,), "comparison matrix",
        ("model_1", "model_2", "mean_diff", "wins", "ties", "losses", "pvalue"),
        label="Multiple Comparison Matrix", correction=None, scoped=False, own_picture=True,
    ),
    Comparison(
        "ranks", (K.SCORES, K.BENCHMARK, K.RUNS, K.PREDICTIONS, K.ITEMS, K.BATTLES),
        "rank sets",
        ("estimate", "rank", "rank_low", "rank_high"),
        label="rank confidence sets (Mogstad et al.)", correction=None,
        correction_keyword=None, takes_alpha=False, scoped=False,
    ),
    # Runs over tasks (a benchmark frame with paired=False): rliable's estimates.
    Comparison(
        "aggregate", (K.TASK_RUNS,), "runs over tasks",
        ("estimate", "ci_low", "ci_high"),
        label="aggregate with stratified bootstrap intervals", correction=None,
        correction_keyword=None, takes_alpha=False, scoped=False,
    ),
    Comparison(
        "prob_improvement", (K.TASK_RUNS,), "runs over tasks",
        ("model_1", "model_2", "prob_improvement", "ci_low", "ci_high"),
        label="probability of improvement", correction=None, correction_keyword=None,
        takes_alpha=False, pairwise=(K.TASK_RUNS,), default_on=(K.TASK_RUNS,),
    ),
    Comparison(
        "performance_profile", (K.TASK_RUNS,),
        "runs over tasks", (), label="performance profile", correction=None,
        correction_keyword=None, takes_alpha=False, scoped=False,
    ),
    # Items read in order: a confidence sequence per pair, valid at every look (section 30).
    Comparison(
        "sequential", (K.ITEMS,), "anytime-valid",
        ("model_1", "model_2", "n_items", "n_clusters", "mean_diff", "cs_low", "cs_high",
         "decision", "decided_at"),
        label="confidence sequence (anytime-valid)", correction="bonferroni",
        corrections=("bonferroni", "e-bh", None),
    ),
)  # fmt: skip

#: Each test by name.
BY_NAME: dict[str, Comparison] = {test.name: test for test in TESTS}


def comparison_named(name: str) -> Comparison:
    """The registry's row of the comparison ``name``.

    Examples
    --------
    >>> comparison_named("wilcoxon").label
    'Wilcoxon signed-rank test'
    """
    return BY_NAME[check_option("test", name, tuple(BY_NAME))]


def pairwise_tests(kind: str) -> tuple[str, ...]:
    """The tests ``pairwise(test=...)`` runs on a frame of this kind, in the registry's order.

    Examples
    --------
    >>> pairwise_tests("predictions")[:4]
    ('mcnemar', 'proportions_ztest', 'bootstrap_diff', 'delong')
    """
    return tuple(test.name for test in TESTS if accepts(test.pairwise, FrameKind(kind)))


def report_tests(kind: str) -> tuple[str, ...]:
    """The tests a report (and the command line) may rest on for a frame of this kind.

    Examples
    --------
    >>> report_tests("scores")
    ('corrected_ttest', 'ttest', 'wilcoxon', 'sign_test')
    """
    return tuple(test.name for test in TESTS if accepts(test.report, FrameKind(kind)))


def default_test(kind: str) -> str | None:
    """The test ``pairwise()`` runs on a frame of this kind when none is named (None: no default).

    Examples
    --------
    >>> default_test("scores"), default_test("cv_results"), default_test("predictions")
    ('corrected_ttest', 'corrected_ttest', None)
    """
    found = [test.name for test in TESTS if accepts(test.default_on, FrameKind(kind))]
    return found[0] if found else None


def gate_tests() -> tuple[str, ...]:
    """The tests a release gate may use (``gate(test=...)``, ``pdcompare gate --test``)."""
    return tuple(test.name for test in TESTS if test.gates)


def cli_tests(kind: str) -> tuple[str, ...]:
    """The tests the command line's ``--test`` may name on a predictions or forecasts file."""
    return tuple(test.name for test in TESTS if FrameKind(kind) in test.cli)


def default_correction(test: str, correction: str | None = "default") -> str | None:
    """The correction that ``correction="default"`` means for ``test``; any other value as given.

    This is the one place where "default" is resolved: Holm for every test but
    those whose p-values are family-wise already (Nemenyi) or that adjust their
    own level (almost stochastic order: Bonferroni), and none for comparisons
    that report no p-value.

    Examples
    --------
    >>> default_correction("wilcoxon"), default_correction("nemenyi"), default_correction("aso")
    ('holm', None, 'bonferroni')
    >>> default_correction("wilcoxon", "bonferroni")
    'bonferroni'
    """
    if isinstance(correction, str) and correction == "default":
        return BY_NAME[test].correction if test in BY_NAME else "holm"
    return correction


def labels() -> dict[str, str]:
    """Each comparison's name in captions and legends, by test name."""
    return {test.name: test.label for test in TESTS}


def report_words(across_datasets: bool) -> dict[str, str]:
    """Each report test's name in the report's sentences (data sets or splits as the unit)."""
    if across_datasets:
        return {t.name: t.words_across or t.words for t in TESTS if t.words_across or t.words}
    return {t.name: t.words for t in TESTS if t.words}


def check_pairwise_test(test: str, allowed: tuple[str, ...]) -> Comparison:
    """The row of ``test`` if it is one of the ``allowed`` names, else an error listing them."""
    if isinstance(test, str) and test in allowed:
        return BY_NAME[test]
    msg = f"`test` must be one of {', '.join(map(repr, allowed))}; got {test!r}."
    raise OptionError(msg, keyword="test")


def rows_by_kind() -> Mapping[str, tuple[str, ...]]:
    """For the documentation: the comparisons of each frame kind, in the registry's order."""
    return {
        kind: tuple(t.name for t in TESTS if accepts(t.kinds, FrameKind(kind)))
        for kind in FRAME_KINDS
    }
