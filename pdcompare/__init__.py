"""Tell whether the best model of a cross-validation is really better, or just lucky.

``import pdcompare`` registers the ``DataFrame.cmp`` accessor. Every statistical
comparison of models is then one method call away from a frame of fold scores
(models as rows, CV splits as columns), a scikit-learn ``cv_results_`` frame or
a frame of predictions.

Examples
--------
>>> import pandas as pd
>>> import pdcompare
>>> scores = pd.DataFrame(
...     [[0.91, 0.88, 0.93, 0.90], [0.85, 0.86, 0.88, 0.84]],
...     index=["forest", "tree"],
... )
>>> scores.cmp.summary(cv=4)["mean"].round(4).tolist()
[0.905, 0.8575]

Every method is also a function of the frame:

>>> pdcompare.summary(scores, cv=4)["mean"].round(4).tolist()
[0.905, 0.8575]
"""

from pdcompare import accessor as _accessor  # noqa: F401  (registers DataFrame.cmp)
from pdcompare._validation import PdcompareWarning
from pdcompare._version import __version__ as __version__
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
from pdcompare.compare.hierarchical import hierarchical, shrinkage
from pdcompare.compare.monitor import Monitor
from pdcompare.compare.paired import corrected_ttest, sign_test, ttest, wilcoxon
from pdcompare.compare.pairwise import matrix, pairwise
from pdcompare.compare.pareto import pareto
from pdcompare.compare.per_dataset import per_dataset
from pdcompare.compare.permutation import permutation_test
from pdcompare.compare.power import power
from pdcompare.compare.predictions import cochrans_q, mcnemar, proportions_ztest
from pdcompare.compare.published import rank_sets
from pdcompare.compare.random_effects import random_effects
from pdcompare.compare.rank_sets import ranks, top_set
from pdcompare.compare.ranks import friedman
from pdcompare.compare.select import refit_rule, select
from pdcompare.compare.sequential import sequential, trajectory
from pdcompare.compare.summary import scores, set_design, summary
from pdcompare.compare.unpaired import aso, mannwhitney, welch_ttest
from pdcompare.inputs.battles import from_battles
from pdcompare.inputs.benchmark import from_long, means
from pdcompare.inputs.eee import from_eee
from pdcompare.inputs.experiments import cv_predictions, cv_scores
from pdcompare.inputs.helm import from_helm
from pdcompare.inputs.inspect_logs import from_inspect
from pdcompare.inputs.items import from_items
from pdcompare.inputs.items_concat import concat_items
from pdcompare.inputs.lighteval import from_lighteval
from pdcompare.inputs.lm_eval import from_lm_eval
from pdcompare.inputs.mlflow_runs import from_mlflow
from pdcompare.inputs.predictions_long import from_predictions
from pdcompare.inputs.promptfoo import from_promptfoo
from pdcompare.inputs.rliable import from_rliable, to_rliable
from pdcompare.inputs.search import from_search
from pdcompare.inputs.sources import costs
from pdcompare.inputs.swebench import from_swebench
from pdcompare.presentation.plotting import plot
from pdcompare.presentation.report import report
from pdcompare.presentation.styling import style

__all__ = [
    "Monitor",
    "PdcompareWarning",
    "RaceRandomizedSearchCV",
    "RaceSearchCV",
    "accuracy_ci",
    "aggregate",
    "aso",
    "auc_ci",
    "bayes",
    "bootstrap",
    "bootstrap_diff",
    "bradley_terry",
    "cochrans_q",
    "concat_items",
    "confidence_set",
    "corrected_ttest",
    "costs",
    "cv_predictions",
    "cv_scores",
    "datasets",
    "delong",
    "diebold_mariano",
    "effect_size",
    "equivalence",
    "friedman",
    "from_battles",
    "from_eee",
    "from_helm",
    "from_inspect",
    "from_items",
    "from_lighteval",
    "from_lm_eval",
    "from_long",
    "from_mlflow",
    "from_predictions",
    "from_promptfoo",
    "from_rliable",
    "from_search",
    "from_swebench",
    "ftest_5x2cv",
    "gate",
    "hierarchical",
    "judge_agreement",
    "mannwhitney",
    "matrix",
    "mcnemar",
    "means",
    "pairwise",
    "pareto",
    "per_dataset",
    "performance_profile",
    "permutation_test",
    "plot",
    "posterior",
    "power",
    "prob_improvement",
    "proportions_ztest",
    "random_effects",
    "rank_sets",
    "ranks",
    "refit_rule",
    "report",
    "scores",
    "select",
    "sequential",
    "set_design",
    "shrinkage",
    "sign_test",
    "style",
    "summary",
    "to_rliable",
    "top_set",
    "trajectory",
    "ttest",
    "ttest_5x2cv",
    "welch_ttest",
    "wilcoxon",
    "win_probability",
]


def __getattr__(name):
    # `pdcompare.datasets` is imported on first use so that `import pdcompare` stays light.
    if name == "datasets":
        import importlib

        return importlib.import_module("pdcompare.datasets")
    # The race searches subclass scikit-learn's BaseSearchCV: imported (with scikit-learn) on use.
    if name in ("RaceSearchCV", "RaceRandomizedSearchCV"):
        import importlib

        return getattr(importlib.import_module("pdcompare.scale"), name)
    msg = f"module 'pdcompare' has no attribute {name!r}"
    raise AttributeError(msg)
