"""Draw docs/judges_ppi.png: each model's pass rate by the judge alone, the labels alone, PPI++.

The picture of the guide page "Models graded by a judge" (docs/guide/judges.md),
on the bundled judged data set (``pdcompare.datasets.load_judged_items``): for
each model the 95 % interval of its pass rate from the judge's grades of all
2,000 questions (narrow but biased), from the 300 people's labels alone (right
but wide), and from both by PPI++ (centred like the labels, narrower). Run:
python scripts/make_judges_figure.py [--models N] [--out FILE.png]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib as mpl

mpl.use("Agg")
import matplotlib.pyplot as plt

import pdcompare
from pdcompare.datasets import load_judged_items

OUT = Path(__file__).resolve().parents[1] / "docs" / "judges_ppi.png"
READINGS = (
    ("judge", "judge alone (uncorrected)", "#c44e52"),
    ("labels", "the 300 labels alone", "#8c8c8c"),
    ("ppi++", "PPI++ (judge + labels)", "#4c72b0"),
)


def draw(items, out: Path) -> None:
    order = items.cmp.summary().index  # best first by PPI++
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(order) + 1.4))
    for k, (estimator, label, color) in enumerate(READINGS):
        summary = items.cmp.summary(estimator=estimator).reindex(order)
        y = [row + (k - 1) * 0.22 for row in range(len(order))]
        ax.errorbar(
            summary["mean"], y,
            xerr=[summary["mean"] - summary["ci_low"], summary["ci_high"] - summary["mean"]],
            fmt="o", color=color, label=label, capsize=2, markersize=4,
        )  # fmt: skip
    ax.set_yticks(range(len(order)), [str(name) for name in order])
    ax.invert_yaxis()
    ax.set_xlabel("pass rate (95% interval)")
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--models", type=int, default=None, help="more models (a test)")
    args = parser.parse_args()
    graded = load_judged_items()
    items = pdcompare.from_items(graded, item="question", score="judge", human="human")
    if args.models:
        items = items.iloc[: args.models]
    draw(items, args.out)


if __name__ == "__main__":
    main()
