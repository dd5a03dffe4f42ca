"""One registry of tests: what every comparison is, which frames it takes, how it is named.

Each public comparison has one row here: its name, the function that runs it,
the frame kinds it takes, its family, the leading columns of its result, its
names in captions and in the report's sentences, its default multiple-testing
correction and the keyword that carries it, and whether ``pairwise(test=...)``,
the report and the command line may run it. ``pairwise``, the report's
analysis, the command line's choices, the captions of tables and pictures and
the "which test when" page of the documentation all read this table, so a new
test is one row here and one module of its own.

Frame kinds: ``"scores"`` (models x CV splits), ``"benchmark"`` (models x data
sets), ``"runs"`` (independent runs, ``paired=False``), ``"predictions"`` (one
row per test sample, a truth column), ``"forecasts"`` (predictions in time
order), ``"items"`` (models x questions of an evaluation, DESIGN section 21) and
``"battles"`` (square counts of wins, ``from_battles``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pdcompare._validation import OptionError, check_call_keywords, check_option
from pdcompare.compare import (
    aggregates,
    auc,
    battles,
    bayes,
    bootstrap,
    dietterich,
    effect_size,
    equivalence,
    forecast,
    gate,
    hierarchical,
    mcm,
    paired,
    pareto,
    permutation,
    power,
    predictions,
    random_effects,
    rank_sets,
    ranks,
    sequential,
    unpaired,
)
from pdcompare.inputs.scores import ALL_PAIRS

#: Every frame kind a comparison can take.
FRAME_KINDS = (
    "scores", "benchmark", "runs", "predictions", "forecasts", "items", "battles", "task_runs",
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
    function : callable
        The function that runs it on a frame.
    kinds : tuple of str
        The frame kinds it takes (``FRAME_KINDS``).
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
    pairwise : tuple of str
        The frame kinds on which ``pairwise(test=...)`` runs it.
    report : tuple of str
        The frame kinds on which the report and the command line may rest their
        frequentist paragraph on it (``test=``, ``--test``).
    needs : tuple of str
        Keywords it cannot run without (``rope`` for equivalence).
    """

    name: str
    function: Callable[..., Any]
    kinds: tuple[str, ...]
    family: str
    columns: tuple[str, ...]
    label: str
    words: str | None = None
    words_across: str | None = None
    correction: str | None = "holm"
    correction_keyword: str | None = "correction"
    takes_alpha: bool = True
    scoped: bool = True
    pairwise: tuple[str, ...] = ()
    report: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()

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


_PAIRED = ("scores", "benchmark")
_SCORES_LIKE = ("scores", "benchmark", "runs")
_PREDICTIONS = ("predictions", "forecasts")
_ITEMS_PAIRED = (*_PAIRED, "items")

#: The registry: one row per public comparison, in the order the outputs list them.
TESTS: tuple[Comparison, ...] = (
    Comparison(
        "corrected_ttest", paired.corrected_ttest, ("scores",), "t-test", T_COLUMNS,
        label="corrected t-test (Nadeau–Bengio)",
        words="Nadeau–Bengio corrected resampled t-test",
        pairwise=("scores",), report=("scores",),
    ),
    Comparison(
        "ttest", paired.ttest, _ITEMS_PAIRED, "t-test", T_COLUMNS,
        label="paired t-test (uncorrected)",
        words="plain paired t-test, uncorrected for CV",
        words_across="paired t-test across data sets",
        pairwise=_ITEMS_PAIRED, report=_PAIRED,
    ),
    Comparison(
        "wilcoxon", paired.wilcoxon, _ITEMS_PAIRED, "rank test", RANK_COLUMNS,
        label="Wilcoxon signed-rank test",
        words="Wilcoxon signed-rank test",
        words_across="Wilcoxon signed-rank test across data sets",
        pairwise=_ITEMS_PAIRED, report=_PAIRED,
    ),
    Comparison(
        "sign_test", paired.sign_test, _ITEMS_PAIRED, "rank test", RANK_COLUMNS,
        label="sign test", words="sign test", words_across="sign test across data sets",
        pairwise=_ITEMS_PAIRED, report=_PAIRED,
    ),
    Comparison(
        "nemenyi", functools.partial(ranks.rank_test, test="nemenyi"), ("benchmark",),
        "mean-rank test", MEAN_RANK_COLUMNS,
        label="Nemenyi test", words="Nemenyi test of mean ranks",
        words_across="Nemenyi test of mean ranks",
        # Its p-values are family-wise already (the studentized range).
        correction=None, scoped=False, pairwise=("benchmark",), report=("benchmark",),
    ),
    Comparison(
        "conover", functools.partial(ranks.rank_test, test="conover"), ("benchmark",),
        "mean-rank test", MEAN_RANK_COLUMNS,
        label="Conover test", words="Conover test of mean ranks",
        words_across="Conover test of mean ranks",
        scoped=False, pairwise=("benchmark",), report=("benchmark",),
    ),
    Comparison(
        "bayes", bayes.bayes, _PAIRED, "Bayesian", BAYES_COLUMNS,
        label="Bayesian correlated t-test",
        # Posterior probabilities: it decides at probability 1 - alpha, with no correction.
        correction=None, correction_keyword=None, pairwise=_PAIRED,
    ),
    Comparison(
        "hierarchical", hierarchical.hierarchical, ("benchmark",), "Bayesian", BAYES_COLUMNS,
        label="hierarchical Bayesian correlated t-test",
        correction=None, correction_keyword=None, pairwise=("benchmark",),
    ),
    Comparison(
        "ttest_5x2cv", dietterich.ttest_5x2cv, ("scores",), "5x2cv test", RANK_COLUMNS,
        label="5x2cv paired t-test", pairwise=("scores",),
    ),
    Comparison(
        "ftest_5x2cv", dietterich.ftest_5x2cv, ("scores",), "5x2cv test", RANK_COLUMNS,
        label="5x2cv combined F-test", pairwise=("scores",),
    ),
    Comparison(
        "equivalence", equivalence.equivalence, (*_SCORES_LIKE, "items"), "equivalence",
        ("model_1", "model_2", "mean_diff", "statistic_low", "pvalue_low", "statistic_high",
         "pvalue_high", "pvalue", "pvalue_adj", "reject", "ci_low", "ci_high"),
        label="equivalence test (TOST)", pairwise=(*_SCORES_LIKE, "items"), needs=("rope",),
    ),
    Comparison(
        "effect_size", effect_size.effect_size, _SCORES_LIKE, "effect size",
        ("model_1", "model_2", "mean_diff", "effect_size", "magnitude"),
        label="effect size",
        # It tests nothing: no p-value, no correction, no alpha.
        correction=None, correction_keyword=None, takes_alpha=False, pairwise=_SCORES_LIKE,
    ),
    Comparison(
        "welch_ttest", unpaired.welch_ttest, _SCORES_LIKE, "unpaired test", T_COLUMNS,
        label="Welch's t-test",
        words="Welch's unequal-variance t-test of independent runs",
        words_across="Welch's unequal-variance t-test of independent runs",
        pairwise=_SCORES_LIKE, report=("runs",),
    ),
    Comparison(
        "mannwhitney", unpaired.mannwhitney, _SCORES_LIKE, "unpaired test", RANK_COLUMNS,
        label="Mann–Whitney U test",
        words="Mann–Whitney U test of independent runs",
        words_across="Mann–Whitney U test of independent runs",
        pairwise=_SCORES_LIKE, report=("runs",),
    ),
    Comparison(
        "aso", unpaired.aso, _SCORES_LIKE, "unpaired test",
        ("model_1", "model_2", "mean_diff", "violation_ratio", "eps_min", "reject"),
        label="almost stochastic order",
        # The bound keeps its Bonferroni-adjusted level; `tau` and the level decide, not alpha.
        correction="bonferroni", takes_alpha=False, pairwise=_SCORES_LIKE,
    ),
    Comparison(
        "gate", gate.gate, ("scores", "runs", "predictions"), "gate",
        ("candidate", "baseline", "test", "mean_diff", "margin", "ci_low", "ci_high", "pvalue",
         "pvalue_worse", "outcome"),
        # One candidate against one baseline, by two one-sided tests: no family to correct.
        label="release gate (non-inferiority)", correction=None, correction_keyword=None,
        scoped=False, needs=("margin",),
    ),
    Comparison(
        "pareto", pareto.pareto, ("scores", "runs", "predictions", "items"), "trade-off",
        ("score", "cost", "status", "dominated_by", "pvalue"),
        # Holm over the models that cost no more than the one decided, each decision at alpha.
        label="Pareto front of score against cost", scoped=False,
    ),
    Comparison(
        "bradley_terry", battles.bradley_terry, ("battles",), "ratings",
        ("rating", "ci_low", "ci_high", "rank", "rank_low", "rank_high", "n_battles",
         "n_rounds"),
        label="Bradley–Terry ratings", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "bradley_terry_z", battles.battles_pairwise, ("battles",), "z-test",
        ("model_1", "model_2", "rating_diff", "se", "statistic", "pvalue", "pvalue_adj",
         "reject"),
        # What pairwise() runs on a battles frame (compare/pairwise.py dispatches on the kind).
        label="z test of Bradley–Terry ratings", scoped=False,
    ),
    Comparison(
        "win_probability", battles.win_probability, ("battles",), "ratings",
        ("model_1", "model_2", "prob", "ci_low", "ci_high"),
        label="Bradley–Terry win probability", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "mcnemar", predictions.mcnemar, ("predictions", "items"), "contingency test",
        ("model_1", "model_2", "only_1_correct", "only_2_correct", "statistic", "pvalue",
         "pvalue_adj", "reject"),
        # Its `correction` is the continuity correction; the multiple-testing one is p_adjust.
        label="McNemar's test", correction_keyword="p_adjust",
        pairwise=("predictions", "items"),
    ),
    Comparison(
        "cochrans_q", predictions.cochrans_q, ("predictions",), "contingency test",
        ("n_models", "statistic", "df", "pvalue"),
        label="Cochran's Q test", correction=None, correction_keyword=None, takes_alpha=False,
        scoped=False,
    ),
    Comparison(
        "proportions_ztest", predictions.proportions_ztest, ("predictions",), "z-test",
        ("model_1", "model_2", "accuracy_1", "accuracy_2", "statistic", "pvalue", "pvalue_adj",
         "reject"),
        label="two-proportion z-test", pairwise=("predictions",),
    ),
    Comparison(
        "bootstrap_diff", bootstrap.bootstrap_diff, ("predictions", "items"), "bootstrap",
        ("model_1", "model_2", "mean_diff", "ci_low", "ci_high", "pvalue"),
        label="paired bootstrap", pairwise=("predictions", "items"),
    ),
    Comparison(
        "bootstrap", bootstrap.bootstrap, ("predictions",), "bootstrap",
        ("estimate", "se", "ci_low", "ci_high"),
        label="bootstrap interval", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "accuracy_ci", bootstrap.accuracy_ci, ("predictions",), "interval",
        ("accuracy", "n", "ci_low", "ci_high"),
        label="accuracy interval", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "auc_ci", auc.auc_ci, ("predictions",), "AUC",
        ("auc", "se", "ci_low", "ci_high", "n_pos", "n_neg"),
        label="ROC AUC interval (DeLong)", correction=None, correction_keyword=None,
        takes_alpha=False, scoped=False,
    ),
    Comparison(
        "delong", auc.delong, ("predictions",), "AUC",
        ("model_1", "model_2", "auc_1", "auc_2", "auc_diff", "se", "statistic", "pvalue",
         "pvalue_adj", "reject", "ci_low", "ci_high"),
        label="DeLong test", pairwise=("predictions",),
    ),
    Comparison(
        "permutation_test", permutation.permutation_test,
        ("predictions", "scores", "benchmark", "items"), "permutation test",
        ("model_1", "model_2", "score_1", "score_2", "mean_diff", "pvalue", "pvalue_adj",
         "reject"),
        label="paired permutation test", pairwise=("predictions", "items"),
    ),
    Comparison(
        "diebold_mariano", forecast.diebold_mariano, _PREDICTIONS, "forecast test",
        ("model_1", "model_2", "mean_loss_diff", "statistic", "df", "pvalue", "pvalue_adj",
         "reject"),
        label="Diebold–Mariano test", pairwise=_PREDICTIONS,
    ),
    Comparison(
        "confidence_set", forecast.confidence_set, _PREDICTIONS, "forecast test",
        ("mean_loss", "pvalue", "in_set", "eliminated_at"),
        label="model confidence set", correction=None, correction_keyword=None,
        takes_alpha=True, scoped=False,
    ),
    Comparison(
        "friedman", ranks.friedman, ("benchmark",), "mean-rank test",
        ("n_models", "n_datasets", "statistic", "df", "pvalue", "f_statistic", "f_df1",
         "f_df2", "f_pvalue"),
        label="Friedman test", correction=None, correction_keyword=None, takes_alpha=False,
        scoped=False,
    ),
    Comparison(
        "random_effects", random_effects.random_effects, ("benchmark",), "meta-analysis",
        ("model_1", "model_2", "mean_diff", "se", "statistic", "pvalue", "pvalue_adj", "reject",
         "ci_low", "ci_high", "tau2", "i2", "pi_low", "pi_high"),
        label="random-effects meta-analysis",
    ),
    Comparison(
        "power", power.power, _ITEMS_PAIRED, "power",
        ("model_1", "model_2", "sd_diff"),
        label="power of the corrected t-test", correction=None, correction_keyword=None,
    ),
    Comparison(
        "mcm", mcm.comparison_matrix, ("benchmark",), "comparison matrix",
        ("model_1", "model_2", "mean_diff", "wins", "ties", "losses", "pvalue"),
        label="Multiple Comparison Matrix", correction=None, scoped=False,
    ),
    Comparison(
        "ranks", rank_sets.ranks, ("scores", "benchmark", "runs", "predictions", "items"),
        "rank sets",
        ("estimate", "rank", "rank_low", "rank_high"),
        label="rank confidence sets (Mogstad et al.)", correction=None,
        correction_keyword=None, takes_alpha=False, scoped=False,
    ),
    # Runs over tasks (a benchmark frame with paired=False): rliable's estimates.
    Comparison(
        "aggregate", aggregates.aggregate, ("task_runs",), "runs over tasks",
        ("estimate", "ci_low", "ci_high"),
        label="aggregate with stratified bootstrap intervals", correction=None,
        correction_keyword=None, takes_alpha=False, scoped=False,
    ),
    Comparison(
        "prob_improvement", aggregates.prob_improvement, ("task_runs",), "runs over tasks",
        ("model_1", "model_2", "prob_improvement", "ci_low", "ci_high"),
        label="probability of improvement", correction=None, correction_keyword=None,
        takes_alpha=False, pairwise=("task_runs",),
    ),
    Comparison(
        "performance_profile", aggregates.performance_profile, ("task_runs",),
        "runs over tasks", (), label="performance profile", correction=None,
        correction_keyword=None, takes_alpha=False, scoped=False,
    ),
    # Items read in order: a confidence sequence per pair, valid at every look (section 30).
    Comparison(
        "sequential", sequential.sequential, ("items",), "anytime-valid", sequential.COLUMNS,
        label="confidence sequence (anytime-valid)", correction="bonferroni",
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
    return tuple(test.name for test in TESTS if kind in test.pairwise)


def report_tests(kind: str) -> tuple[str, ...]:
    """The tests a report (and the command line) may rest on for a frame of this kind.

    Examples
    --------
    >>> report_tests("scores")
    ('corrected_ttest', 'ttest', 'wilcoxon', 'sign_test')
    """
    return tuple(test.name for test in TESTS if kind in test.report)


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
    return {kind: tuple(t.name for t in TESTS if kind in t.kinds) for kind in FRAME_KINDS}
