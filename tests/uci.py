"""baycomp's UCI accuracies (tests/data/README.md) as a pdcompare benchmark frame."""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

import pdcompare  # noqa: F401  (registers the .cmp accessor)

PATH = Path(__file__).parent / "data" / "baycomp_accuracies.txt.gz"


@cache
def _read() -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray]:
    """Classifier names, data set names and the (classifier, data set, fold) array."""
    classifiers: list[str] = []
    datasets: list[list[str]] = []
    scores: list[list[list[float]]] = []
    with gzip.open(PATH, "rt", encoding="ascii") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) == 1:
                classifiers.append(fields[0])
                datasets.append([])
                scores.append([])
            elif fields:
                datasets[-1].append(fields[0])
                scores[-1].append([float(x) for x in fields[1:]])
    if any(names != datasets[0] for names in datasets):
        msg = f"{PATH.name}: the classifiers list different data sets"
        raise ValueError(msg)
    names = list(datasets[0])
    for k, name in enumerate(names):  # `credit` is listed twice: keep both, as baycomp does
        if name in names[:k]:
            names[k] = f"{name} ({names[:k].count(name) + 1})"
    return tuple(classifiers), tuple(names), np.array(scores)


def uci_array(classifier: str) -> np.ndarray:
    """54 x 100 accuracies (percent) of one classifier, as baycomp's ``get_data`` gives."""
    classifiers, _, scores = _read()
    return scores[classifiers.index(classifier)].copy()


def load_uci(classifiers=None) -> pd.DataFrame:
    """Classifiers x (dataset, split) accuracies in percent, design 10-fold CV attached.

    The 100 splits of a data set are 10 runs of 10-fold cross-validation, so
    the correlation of the folds is 1/10 (baycomp's ``runs=10``).
    """
    names, datasets, scores = _read()
    keep = list(names) if classifiers is None else list(classifiers)
    rows = np.stack([scores[names.index(c)] for c in keep]).reshape(len(keep), -1)
    columns = pd.MultiIndex.from_product(
        [list(datasets), range(scores.shape[2])], names=["dataset", "split"]
    )
    frame = pd.DataFrame(rows, index=pd.Index(keep, name="model"), columns=columns)
    return frame.cmp.set_design(cv=10)
