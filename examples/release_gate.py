"""Gating a release: is the cheaper model not worse than the one in production?
============================================================================

A team wants to replace its production model by a cheaper one (here a
logistic regression on the 10 "mean" features of the breast-cancer data
instead of all 30). It may lose a little accuracy, but no more than a
*margin* the team fixes beforehand: 0.01 of ROC AUC. The question is one of
**non-inferiority**: is the candidate shown to be at most 0.01 worse? "Not
significantly worse" would not do: a small evaluation is never significantly
anything, and would let any regression through.

Both models are cross-validated on the same 5 x 4 repeated stratified splits
(``pdcompare.cv_scores``), and

- ``pdcompare.gate`` gives the outcome ("non-inferior", "worse" or
  "inconclusive") with the one-sided bounds of the difference, from the
  Nadeau–Bengio corrected t-test (the design is known);
- the same scores, saved as CSV, go through ``pdcompare gate`` on the
  command line, as a CI job would run it: its exit status is 0 to pass,
  1 when the candidate is significantly worse, 2 when the evaluation cannot
  tell, 3 when it cannot run. ``--markdown`` writes the paragraph for a
  pull-request comment.

Run: ``python examples/release_gate.py [FOLDER]`` (a new temporary folder by
default). Runs headless in a few seconds.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

import pdcompare

MARGIN = 0.01


def models() -> dict:
    """The production model (all 30 features) and the candidate (the 10 "mean" features)."""
    first_ten = FunctionTransformer(lambda X: X[:, :10])
    return {
        "production": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "candidate": make_pipeline(first_ten, StandardScaler(), LogisticRegression(max_iter=2000)),
    }


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)
    X, y = load_breast_cancer(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=4, random_state=0)
    scores = pdcompare.cv_scores(models(), X, y, cv=cv, scoring="roc_auc")

    # In Python: the outcome and its numbers.
    result = scores.cmp.gate("candidate", "production", margin=MARGIN)
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(result.round(4))
    print()
    print(pdcompare.report(scores, baseline="production", margin=MARGIN))

    # On the command line, as a CI step: the scores as CSV, the design by --test-size.
    path = folder / "scores.csv"
    scores.to_csv(path)
    markdown = folder / "gate.md"
    command = [
        sys.executable, "-m", "pdcompare", "gate", str(path),
        "--candidate", "candidate", "--baseline", "production",
        "--margin", str(MARGIN), "--test-size", "0.2", "--markdown", str(markdown),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    print(f"$ pdcompare gate {path.name} --candidate candidate --baseline production "
          f"--margin {MARGIN} --test-size 0.2 --markdown gate.md")  # fmt: skip
    print(done.stdout, end="")
    print(f"exit status {done.returncode}")
    return {
        "scores": scores,
        "result": result,
        "exit_status": done.returncode,
        "stdout": done.stdout,
        "markdown": markdown,
    }


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
