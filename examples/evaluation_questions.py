"""Comparing models on evaluation questions
=========================================

Language models and agents are compared on the same questions: every model
answers every question of an evaluation suite, often several times, and the
questions come in groups (several on one passage, several tasks from one
repository). Is the model with the best score really better, or lucky on
these questions?

The bundled data set (``pdcompare.datasets.load_eval_items``) has five models,
300 questions on 60 passages, and five sampled answers per question. The
example compares the two best models four ways:

- unpaired (as if the two models had answered different questions);
- paired over questions, ignoring the passages;
- paired over questions, clustered by passage (the right analysis);
- with every sampled answer taken as a question of its own (wrong: the five
  answers to one question are not five questions);

then tests every pair with Holm's correction (and says it in words), asks how many questions a
3-point difference would need, and what more samples per question would
change. The picture of the four analyses is saved to the folder given on
the command line (a new temporary folder by default). Runs headless
in a few seconds.

Run: ``python examples/evaluation_questions.py [FOLDER]``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

import pdcompare
from pdcompare.datasets import load_eval_items

BEST, SECOND = "large_tuned", "large"


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    # One row per model, question and sampled answer: the shape evaluation logs have.
    answers = load_eval_items()
    print(answers.head())

    # The items frame: one row per model, one column per question, each cell the
    # mean of the five samples; the passages are the clusters.
    items = pdcompare.from_items(
        answers, item="question", score="correct", sample="sample", cluster="passage"
    )
    summary = items.cmp.summary()
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(summary.round(4))

    # The two best models, four ways. Unpaired: the two means and their own
    # standard errors, as if the models had answered different questions.
    a, b = items.loc[BEST].to_numpy(), items.loc[SECOND].to_numpy()
    unpaired = stats.ttest_ind(a, b, equal_var=False)
    # Paired over questions, the passages ignored: an items frame without clusters.
    unclustered = pdcompare.from_items(answers, item="question", score="correct", sample="sample")
    paired = unclustered.cmp.ttest(BEST, SECOND)
    # Paired and clustered by passage.
    clustered = items.cmp.ttest(BEST, SECOND)
    # Every sampled answer taken as a question of its own: 1,500 "questions".
    as_questions = answers.assign(
        question=answers["question"] + "/" + answers["sample"].astype(str)
    )
    inflated = pdcompare.from_items(as_questions, item="question", score="correct")
    samples = inflated.cmp.ttest(BEST, SECOND)
    ways = pd.DataFrame(
        {
            "mean_diff": [
                a.mean() - b.mean(),
                paired["mean_diff"].iloc[0],
                clustered["mean_diff"].iloc[0],
                samples["mean_diff"].iloc[0],
            ],
            "se": [
                np.hypot(stats.sem(a), stats.sem(b)),
                paired["se"].iloc[0],
                clustered["se"].iloc[0],
                samples["se"].iloc[0],
            ],
            "pvalue": [
                unpaired.pvalue,
                paired["pvalue"].iloc[0],
                clustered["pvalue"].iloc[0],
                samples["pvalue"].iloc[0],
            ],
        },
        index=[
            "unpaired (300 questions)",
            "paired (300 questions)",
            "paired, clustered (60 passages)",
            "samples as questions (1,500)",
        ],
    )
    print(ways.round(4))

    # Every pair of the five models, clustered, with Holm's correction.
    pairs = items.cmp.pairwise(test="ttest", correction="holm")
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(pairs.round(4))

    # Could these 300 questions find a 3-point difference between the two best
    # models, how many questions (and passages) would it need for 80 % power,
    # and what would ten samples per question instead of five change?
    power = items.cmp.power(BEST, SECOND, delta=0.03)
    power_10 = items.cmp.power(BEST, SECOND, delta=0.03, n_samples=10)
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(power.round(4))
        print(power_10.round(4))

    # The conclusion in words: the report names the unit (questions in passages, samples
    # per question) and what the questions could have detected.
    report = items.cmp.report()
    print(report)

    # The picture: the two best models' difference with its 95 % interval, four ways.
    # Only the clustered interval is the one to report; the last one is far too narrow.
    df = [np.inf, 299, 59, 1499]  # unpaired: normal, as Welch's df is near 600 here
    half = [
        (stats.norm.ppf(0.975) if np.isinf(k) else stats.t.ppf(0.975, k)) * se
        for k, se in zip(df, ways["se"], strict=True)
    ]
    fig, ax = plt.subplots(figsize=(6.4, 2.6))
    positions = np.arange(len(ways))[::-1]
    colours = ["grey", "grey", "tab:blue", "tab:red"]  # blue: the analysis to report
    for position, mean, width, colour in zip(
        positions, ways["mean_diff"], half, colours, strict=True
    ):
        ax.errorbar(mean, position, xerr=width, fmt="o", color=colour, capsize=3)
    ax.axvline(0.0, color="grey", linewidth=1, linestyle="--")
    ax.set_yticks(positions, labels=ways.index)
    ax.set_xlabel(f"{BEST} − {SECOND}: difference in accuracy, 95% CI")
    ax.set_title("One difference, four analyses", fontsize=10)
    figure = folder / "evaluation_questions.png"
    fig.savefig(figure, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return {
        "answers": answers,
        "items": items,
        "summary": summary,
        "ways": ways,
        "paired": paired,
        "clustered": clustered,
        "samples": samples,
        "pairs": pairs,
        "power": power,
        "power_10": power_10,
        "report": report,
        "figure": figure,
    }


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
