"""The ``DataFrame.cmp`` accessor: each method is one call of a public function of the frame.

pandas builds a new accessor object on every ``df.cmp`` access (pandas 3), so
the accessor keeps no state of its own: metadata lives in
``df.attrs["pdcompare"]``. ``__init__`` only stores the frame; data-dependent
checks are ``ValueError``s raised by the functions. ``df.cmp.name(...)`` is
``pdcompare.name(df, ...)``, with the same docstring (less the frame's own
parameter) and the same options.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import pandas as pd

from pdcompare.compare.aggregates import aggregate, performance_profile, prob_improvement
from pdcompare.compare.agreement import judge_agreement
from pdcompare.compare.auc import auc_ci, delong
from pdcompare.compare.battles import bradley_terry, win_probability
from pdcompare.compare.bayes import bayes, posterior
from pdcompare.compare.bootstrap import accuracy_ci, bootstrap, bootstrap_diff
from pdcompare.compare.dietterich import ftest_5x2cv, ttest_5x2cv
from pdcompare.compare.effect_size import effect_size
from pdcompare.compare.equivalence import equivalence
from pdcompare.compare.forecast import confidence_set, diebold_mariano
from pdcompare.compare.gate import gate
from pdcompare.compare.hierarchical import hierarchical
from pdcompare.compare.paired import corrected_ttest, sign_test, ttest, wilcoxon
from pdcompare.compare.pairwise import matrix, pairwise
from pdcompare.compare.pareto import pareto
from pdcompare.compare.per_dataset import per_dataset
from pdcompare.compare.permutation import permutation_test
from pdcompare.compare.power import power
from pdcompare.compare.predictions import cochrans_q, mcnemar, proportions_ztest
from pdcompare.compare.random_effects import random_effects
from pdcompare.compare.rank_sets import ranks, top_set
from pdcompare.compare.ranks import friedman
from pdcompare.compare.select import select
from pdcompare.compare.sequential import sequential
from pdcompare.compare.summary import scores, set_design, summary
from pdcompare.compare.unpaired import aso, mannwhitney, welch_ttest
from pdcompare.inputs.benchmark import means
from pdcompare.inputs.rliable import to_rliable
from pdcompare.presentation.plotting import plot
from pdcompare.presentation.report import report
from pdcompare.presentation.styling import style

# The first entry of "Parameters": the frame, which the accessor supplies.
_FRAME_PARAMETER = re.compile(r"(Parameters\n\s*-+\n)(\s*)\w+ : pandas\.DataFrame\n(?:\2 .*\n)*")


def _method(function: Callable[..., Any]) -> Callable[..., Any]:
    """The accessor method that calls ``function`` on the frame.

    It keeps the function's name, module, docstring and signature, less the
    frame parameter, so ``help(df.cmp.name)`` reads like ``help(pdcompare.name)``
    and doctest collects the examples once, in the function's own module.
    """

    def method(self, *args: Any, **kwargs: Any) -> Any:
        return function(self._obj, *args, **kwargs)

    signature = inspect.signature(function)
    parameters = list(signature.parameters.values())
    self_parameter = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__signature__ = signature.replace(parameters=[self_parameter, *parameters[1:]])
    method.__name__ = function.__name__
    method.__qualname__ = f"CompareAccessor.{function.__name__}"
    method.__module__ = function.__module__
    method.__doc__ = _FRAME_PARAMETER.sub(r"\1", function.__doc__ or "", count=1)
    return method


@pd.api.extensions.register_dataframe_accessor("cmp")
class CompareAccessor:
    """Statistical comparison of models, on frames of fold scores, cv_results_ or predictions.

    Every method is the public function of the same name applied to the frame:
    ``df.cmp.corrected_ttest(...)`` is ``pdcompare.corrected_ttest(df, ...)``.

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

    # scores frames: the frame, its design and its summary
    scores = _method(scores)
    set_design = _method(set_design)
    summary = _method(summary)

    # benchmark frames (models x data sets)
    means = _method(means)
    friedman = _method(friedman)
    per_dataset = _method(per_dataset)
    random_effects = _method(random_effects)
    hierarchical = _method(hierarchical)
    power = _method(power)

    # tests on a scores frame
    corrected_ttest = _method(corrected_ttest)
    ttest = _method(ttest)
    wilcoxon = _method(wilcoxon)
    sign_test = _method(sign_test)
    bayes = _method(bayes)
    posterior = _method(posterior)
    ttest_5x2cv = _method(ttest_5x2cv)
    ftest_5x2cv = _method(ftest_5x2cv)
    pairwise = _method(pairwise)
    matrix = _method(matrix)

    # how large, and whether equal
    effect_size = _method(effect_size)
    equivalence = _method(equivalence)

    # gating a release: non-inferiority by a margin
    gate = _method(gate)

    # trade-offs: the Pareto front of score against cost
    pareto = _method(pareto)

    # choosing a model
    select = _method(select)

    # who may be the best: rank confidence sets (every frame kind)
    ranks = _method(ranks)
    top_set = _method(top_set)

    # runs frames (independent runs over random seeds): unpaired tests
    welch_ttest = _method(welch_ttest)
    mannwhitney = _method(mannwhitney)
    aso = _method(aso)

    # runs over tasks (rliable's aggregates)
    aggregate = _method(aggregate)
    prob_improvement = _method(prob_improvement)
    performance_profile = _method(performance_profile)
    to_rliable = _method(to_rliable)

    # tests on a predictions frame
    mcnemar = _method(mcnemar)
    cochrans_q = _method(cochrans_q)
    proportions_ztest = _method(proportions_ztest)
    bootstrap = _method(bootstrap)
    accuracy_ci = _method(accuracy_ci)
    bootstrap_diff = _method(bootstrap_diff)
    auc_ci = _method(auc_ci)
    delong = _method(delong)
    permutation_test = _method(permutation_test)

    # forecasts on a time-ordered predictions frame
    diebold_mariano = _method(diebold_mariano)
    confidence_set = _method(confidence_set)

    # battles frames (from_battles)
    bradley_terry = _method(bradley_terry)
    win_probability = _method(win_probability)

    # presentation
    plot = _method(plot)
    style = _method(style)
    report = _method(report)

    # watching an evaluation while it runs (items frames)
    sequential = _method(sequential)
    judge_agreement = _method(judge_agreement)
