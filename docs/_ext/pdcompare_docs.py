"""Build-time helpers of the pdcompare documentation (imported by conf.py).

- the API reference page, written from one list of names (``API_SECTIONS``);
- the command-line help and demo output, captured by running ``pdcompare``;
- sphinx-gallery hooks: each example gets a folder for its figures on its
  command line (``reset_argv``), and ``png_scraper`` shows the PNG files the
  example wrote there (the examples save and close their figures, so the
  default matplotlib scraper would find none).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
GENERATED = DOCS / "_generated"
FIGURES = DOCS / "_build" / "gallery_figures"

# The API reference: (section title, intro, [names]), the one list to extend. A name
# is a public function of the package: ``pdcompare.NAME``. Names of functions that
# are also methods of the DataFrame.cmp accessor (``df.cmp.NAME(...)`` is
# ``pdcompare.NAME(df, ...)``) are listed again, as methods, in the last section;
# the accessor's members are read from the class, so nothing else needs listing.
API_SECTIONS = [
    (
        "Building a frame",
        "Scores frames (models x splits) from a fitted search, from estimators run on the "
        "same splits, or from any frame; benchmark frames (models x data sets) and "
        "predictions frames (the truth and one column per model) from a long table; items "
        "frames (models x questions) from inspect_ai logs and lm-evaluation-harness samples "
        "files; the bundled data sets.",
        [
            "from_search", "cv_scores", "scores", "set_design", "from_long", "from_items", "means",
            "from_predictions",
            "datasets",
            "datasets.load_benchmark",
            "from_inspect", "from_lm_eval", "concat_items", "datasets.load_eval_items",
            "datasets.load_judged_items",
        ],
    ),
    (
        "Reading evaluation results",
        "The files other tools write, as the frame kind their data has (Every Eval Ever, "
        "HELM, lighteval, SWE-bench, promptfoo, MLflow; long tables from pandas, polars, "
        "pyarrow or DuckDB), the costs they keep, and rank sets of published numbers.",
        [
            "from_eee", "from_helm", "from_lighteval", "from_swebench", "from_promptfoo",
            "from_mlflow", "costs", "rank_sets",
        ],
    ),
    (
        "Watching an evaluation while it runs",
        "Confidence sequences of an items frame read in order, valid at every look, their "
        "paths, and a monitor fed rows as they come.",
        ["sequential", "trajectory", "Monitor"],
    ),
    (
        "Experiments at scale",
        "Every (model, split) fit as one joblib.Parallel, out-of-fold predictions, and "
        "``import pdcompare.dask``: the prediction tests on dask frames larger than memory.",
        ["cv_predictions", "dask.DaskCompareAccessor", "dask.distinct_rows"],
    ),
    (
        "Racing inside a search",
        "scikit-learn searches that drop the candidates the corrected t-test finds worse, "
        "split by split, with an error rate over the whole race (``pdcompare[sklearn]``), "
        "and the same rule as an Optuna pruner (``import pdcompare.optuna``).",
        ["RaceSearchCV", "RaceRandomizedSearchCV", "optuna.CorrectedPruner"],
    ),
    (
        "Tests on a scores frame",
        "Models as rows, CV splits as columns; on a benchmark frame the same names compare "
        "across data sets (see the user guide).",
        [
            "summary",
            "corrected_ttest",
            "ttest",
            "wilcoxon",
            "sign_test",
            "bayes",
            "posterior",
            "pairwise",
            "ttest_5x2cv",
            "ftest_5x2cv",
            "friedman",
            "per_dataset",
            "random_effects",
            "hierarchical",
            "shrinkage",
            "power",
        ],
    ),
    (
        "How large, and whether equal",
        "Effect sizes with their magnitudes and intervals; the equivalence test (TOST) "
        "against a region of practical equivalence.",
        ["effect_size", "equivalence"],
    ),
    (
        "Gating a release",
        "Is a candidate not worse than its baseline by more than a margin: non-inferiority "
        "(``margin=`` of the t-tests and ``delong``) and the gate's three outcomes.",
        ["gate"],
    ),
    (
        "Trade-offs",
        "Which models are worth their cost: the Pareto front of score against cost, each "
        "domination decided by the frame's one-sided test.",
        ["pareto"],
    ),
    (
        "Choosing a model",
        "The simplest model the evidence allows, in a frame or as GridSearchCV's refit.",
        ["select", "refit_rule"],
    ),
    (
        "Who may be the best",
        "Confidence sets for every model's rank and the models that may be the best "
        "(Mogstad, Romano, Shaikh & Wilhelm 2024), on every frame kind.",
        ["ranks", "top_set"],
    ),
    (
        "Training runs",
        "Runs over random seeds (a runs frame, ``set_design(paired=False)``): unpaired "
        "tests and almost stochastic order.",
        ["welch_ttest", "mannwhitney", "aso"],
    ),
    (
        "Ratings from preferences",
        "Battles (model A against model B, won by one or tied) as a square frame of wins: "
        "Bradley–Terry ratings with bootstrap intervals and rank sets, win probabilities; "
        "``pairwise`` on a battles frame runs the z test of every pair of ratings.",
        ["from_battles", "bradley_terry", "win_probability", "datasets.load_battles"],
    ),
    (
        "Runs over many tasks",
        "Runs over seeds on many tasks (a runs-over-tasks frame: ``(dataset, split)`` columns, "
        "``paired=False``): rliable's aggregates with stratified bootstrap intervals, the "
        "probability of improvement, performance profiles, and rliable's dictionaries.",
        [
            "aggregate", "prob_improvement", "performance_profile", "from_rliable",
            "to_rliable", "datasets.load_rl_runs",
        ],
    ),
    (
        "Tests on a predictions frame",
        "One row per test sample: the truth column and one column of predictions per model "
        "(labels, or scores of a binary problem for ``delong``, ``auc_ci`` and the scores "
        "of probabilities).",
        [
            "mcnemar",
            "cochrans_q",
            "proportions_ztest",
            "bootstrap",
            "bootstrap_diff",
            "accuracy_ci",
            "auc_ci",
            "delong",
            "permutation_test",
        ],
    ),
    (
        "Forecasts",
        "A predictions frame in time order (forecasts of a series, the out-of-sample "
        "predictions of TimeSeriesSplit windows): tests of equal predictive accuracy.",
        ["diebold_mariano", "confidence_set"],
    ),
    (
        "Models graded by a judge",
        "How well each judge (a language model grading answers) agrees with the human labels: "
        "accuracy, Cohen's κ and Krippendorff's α with cluster-bootstrap intervals, TPR and TNR, "
        "the effective number of judges.",
        ["judge_agreement"],
    ),
    (
        "Presentation",
        "Pictures, styled tables, matrices and the report in plain words.",
        ["plot", "style", "matrix", "report"],
    ),
    (
        "Warnings",
        "Every warning pdcompare gives derives from one class.",
        ["PdcompareWarning"],
    ),
]


def _target(name: str) -> tuple[str, str]:
    """(object for autosummary, template) of one name of ``API_SECTIONS``."""
    # Relative to ``.. currentmodule:: pdcompare`` of the page.
    if name == "datasets":
        return "datasets.load_grid_search_scores", "function.rst"
    if name.rsplit(".", 1)[-1][:1].isupper():
        return name, "class.rst"
    return name, "function.rst"


def _autosummary(targets: list[str], template: str) -> list[str]:
    return [
        ".. autosummary::",
        "   :toctree: generated",
        f"   :template: autosummary/{template}",
        "",
        *(f"   {target}" for target in targets),
        "",
    ]


def write_api_page() -> Path:
    """Write ``api.rst`` (git-ignored) from ``API_SECTIONS``; return its path."""
    from pdcompare.accessor import CompareAccessor

    lines = [
        ".. This file is written by docs/_ext/pdcompare_docs.py from API_SECTIONS; edit there.",
        "",
        "API reference",
        "=============",
        "",
        "Every comparison is a function of a frame, ``pdcompare.corrected_ttest(scores)``,",
        "and, once ``import pdcompare`` has registered the accessor, a method of the frame,",
        "``scores.cmp.corrected_ttest()``: the same call, the same docstring. Each page",
        "gives the parameters, the result columns, the formula, references and a",
        "runnable example.",
        "",
        ".. currentmodule:: pdcompare",
        "",
    ]
    methods = []
    for title, intro, names in API_SECTIONS:
        lines += [title, "-" * len(title), "", intro, ""]
        by_template: dict[str, list[str]] = {}
        for name in names:
            target, template = _target(name)
            by_template.setdefault(template, []).append(target)
            if callable(getattr(CompareAccessor, name, None)):
                methods.append(name)
        for template, targets in by_template.items():
            lines += _autosummary(targets, template)
    title = "The DataFrame.cmp accessor"
    lines += [
        title,
        "-" * len(title),
        "",
        "``df.cmp.NAME(...)`` is ``pdcompare.NAME(df, ...)``.",
        "",
        ".. currentmodule:: pdcompare.accessor",
        "",
        *_autosummary([f"CompareAccessor.{m}" for m in methods], "accessor_method.rst"),
    ]
    missing = sorted(
        name
        for name, member in vars(CompareAccessor).items()
        if callable(member) and not name.startswith("_") and name not in methods
    )
    if missing:
        msg = f"API_SECTIONS in docs/_ext/pdcompare_docs.py misses accessor methods: {missing}"
        raise RuntimeError(msg)
    path = DOCS / "api.rst"
    text = "\n".join(lines)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def _run_cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pdcompare", *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "88", "MPLBACKEND": "Agg"},
    )
    return done.stdout


def write_cli_output() -> None:
    """Capture ``pdcompare --help`` and ``pdcompare demo --rope 0.01`` for the guide."""
    GENERATED.mkdir(exist_ok=True)
    (GENERATED / "cli_help.txt").write_text(_run_cli("--help"), encoding="utf-8")
    (GENERATED / "cli_demo.txt").write_text(_run_cli("demo", "--rope", "0.01"), encoding="utf-8")


def write_registry_table() -> None:
    """The "which test when" page's table of every comparison, from the registry of tests."""
    from pdcompare.compare.registry import FRAME_KINDS, TESTS

    def names(kinds):
        return ", ".join(kinds) if kinds else "—"

    lines = [
        "| Comparison | Family | Frame kinds | In `pairwise(test=...)` on | Default correction |",
        "| --- | --- | --- | --- | --- |",
    ]
    for test in TESTS:
        correction = test.correction if test.correction_keyword else "—"
        lines.append(
            f"| `{test.name}` ({test.label}) | {test.family} | {names(test.kinds)} | "
            f"{names(test.pairwise)} | {correction or 'none'} |"
        )
    lines += ["", f"Frame kinds: {', '.join(FRAME_KINDS)}."]
    GENERATED.mkdir(exist_ok=True)
    (GENERATED / "registry_table.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- sphinx-gallery hooks ------------------------------------------------------------


def _figure_folder(src_file) -> Path:
    return FIGURES / Path(src_file).stem


def reset_argv(gallery_conf, script_vars) -> list[str]:
    """Command line of an example: a fresh folder for its figures."""
    folder = _figure_folder(script_vars["src_file"])
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return [str(folder)]


def refuse_blank(png: Path) -> None:
    """Stop the build on a PNG that is white (or transparent) everywhere: an empty figure."""
    import matplotlib.image
    import numpy as np

    pixels = matplotlib.image.imread(png)  # floats in [0, 1], RGB or RGBA
    opaque = pixels[..., 3] > 0 if pixels.shape[-1] == 4 else np.ones(pixels.shape[:2], bool)
    if not np.any(opaque & np.any(pixels[..., :3] < 250 / 255, axis=-1)):
        msg = f"{png} is an all-white figure: the example drew nothing on it"
        raise RuntimeError(msg)


def png_scraper(block, block_vars, gallery_conf, **kwargs) -> str:
    """Show the PNG files an example wrote to its folder since the last code block."""
    from sphinx_gallery.scrapers import figure_rst

    folder = _figure_folder(block_vars["src_file"])
    shown = block_vars.setdefault("pdcompare_shown", set())
    new = sorted(
        (p for p in folder.glob("*.png") if p.name not in shown),
        key=lambda p: (p.stat().st_mtime_ns, p.name),
    )
    image_names = []
    for png, target in zip(new, block_vars["image_path_iterator"], strict=False):
        refuse_blank(png)
        shutil.copyfile(png, target)
        shown.add(png.name)
        image_names.append(target)
    # One figure per row (figure_rst would put several side by side, too small to read).
    return "".join(figure_rst([name], gallery_conf["src_dir"]) for name in image_names)


# --- code of the guide, run at build time -------------------------------------------------------

SNIPPETS = DOCS / "guide" / "snippets"


def write_snippet_outputs() -> None:
    """Run every ``guide/snippets/*.py`` and keep what it prints in ``_generated/``.

    The guide shows each snippet with ``literalinclude`` and its output beside
    it, so the printed tables are the ones this version of pdcompare computes.
    """
    import contextlib
    import io
    import warnings

    import pandas as pd

    GENERATED.mkdir(exist_ok=True)
    for path in sorted(SNIPPETS.glob("*.py")):
        printed = io.StringIO()
        with (
            pd.option_context("display.width", 100, "display.max_columns", 12),
            contextlib.redirect_stdout(printed),
            warnings.catch_warnings(),
        ):
            # A snippet that warns shows the warning in its output, as a user sees it.
            warnings.simplefilter("always")
            with warnings.catch_warnings(record=True) as caught:
                exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), {})
            for warning in caught:
                print(f"{warning.category.__name__}: {warning.message}")
        (GENERATED / f"{path.stem}.txt").write_text(printed.getvalue(), encoding="utf-8")
