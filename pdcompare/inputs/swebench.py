"""Reading SWE-bench results (``results.json`` per submission) as an items frame.

The SWE-bench experiments repository (github.com/SWE-bench/experiments) keeps
each leaderboard submission as ``evaluation/<split>/<date>_<system>/`` with
``results/results.json``: lists of instance ids, ``resolved`` (and
``no_generation``, ``no_logs``; older submissions also ``generated``,
``applied``, ``install_fail``, ...). An instance is resolved (1) or not
(0); the unresolved ones are implicit, the complement of ``resolved`` in the
split's instances (500 for SWE-bench Verified, 300 for Lite). The harness's
own report (``python -m swebench.harness.run_evaluation`` writes
``<model>.<run_id>.json``, with ``resolved_ids``, ``completed_ids`` and
``incomplete_ids``) is read too.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import warn
from pdcompare.inputs.items import from_items
from pdcompare.inputs.sources import expand, path_list, read_json, with_source

__all__ = ["from_swebench"]

_TOOL = "SWE-bench"


def _submission(path: Path, record: Any) -> tuple[str, set[str], set[str]]:
    """(model, resolved ids, every id the file lists) of one results file."""
    if isinstance(record, dict) and isinstance(record.get("resolved"), list):
        resolved = record["resolved"]
        folder = path.parent.parent if path.parent.name == "results" else path.parent
        model = folder.name
    elif isinstance(record, dict) and isinstance(record.get("resolved_ids"), list):
        resolved = record["resolved_ids"]
        model = path.stem.rsplit(".", 1)[0] if "." in path.stem else path.stem
    else:
        msg = (
            f"cannot read {str(path)!r}: it has no list `resolved` (a SWE-bench experiments "
            "results.json) nor `resolved_ids` (a harness report), so it is not a SWE-bench "
            "results file (or one of another tool)."
        )
        raise ValueError(msg)
    listed = {str(i) for value in record.values() if isinstance(value, list) for i in value}
    return model, {str(i) for i in resolved}, listed


def from_swebench(
    paths: str | Path | Iterable[str | Path],
    *,
    instances: Iterable[str] | None = None,
) -> pd.DataFrame:
    r"""Read SWE-bench submissions' ``results.json`` as an items frame of resolved instances.

    Parameters
    ----------
    paths : str, pathlib.Path or list of them
        ``results.json`` files (or harness reports), or folders searched
        (recursively) for ``results.json``: one per submission, as the
        experiments repository keeps them under ``evaluation/<split>/``.
    instances : iterable of str, optional
        The instance ids of the split (the ``instance_id`` column of
        ``princeton-nlp/SWE-bench_Verified``, say). A results file lists the
        resolved instances and a few others, not the unresolved ones:
        without ``instances`` the items are every id some file lists, with a
        warning, and an instance no submission mentions is missing.

    Returns
    -------
    pandas.DataFrame
        Items frame (see :func:`pdcompare.from_items`): one row per
        submission (its folder's name), one column per instance, 1 where it
        is resolved and 0 elsewhere.

    Raises
    ------
    ValueError
        A file without ``resolved`` (not a SWE-bench results file), named;
        two files of one submission; a resolved id not among ``instances``.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import pdcompare
    >>> root = Path(tempfile.mkdtemp())
    >>> submissions = [("20250101_agent_a", ["x-1", "x-2"]), ("20250102_agent_b", ["x-2"])]
    >>> for name, resolved in submissions:
    ...     (root / name / "results").mkdir(parents=True)
    ...     results = {"no_generation": [], "no_logs": [], "resolved": resolved}
    ...     _ = (root / name / "results" / "results.json").write_text(json.dumps(results))
    >>> pdcompare.from_swebench(root, instances=["x-1", "x-2", "x-3"])
    instance_id       x-1  x-2  x-3
    model
    20250101_agent_a  1.0  1.0  0.0
    20250102_agent_b  0.0  1.0  0.0
    """
    files = expand(
        path_list(paths, "paths", "SWE-bench results files"),
        ("results.json",),
        "SWE-bench results file",
    )
    read: dict[str, tuple[str, set[str], set[str]]] = {}
    for path in files:
        model, resolved, listed = _submission(path, read_json(path, _TOOL))
        if model in read:
            msg = (
                f"two results files for submission {model!r}: {read[model][0]!r} and "
                f"{str(path)!r}; pass one of them."
            )
            raise ValueError(msg)
        read[model] = (str(path), resolved, listed)
    if instances is None:
        ids = sorted(set().union(*(listed for _, _, listed in read.values())))
        warn(
            f"`instances` not given: the items are the {len(ids)} instance ids the results "
            "files list; the split's other instances (unresolved by every submission) are "
            "missing, so the means are over these only. Pass `instances=` with the split's "
            "instance ids."
        )
    else:
        if isinstance(instances, str):
            msg = "`instances` must be a list of instance ids, not one string."
            raise TypeError(msg)
        ids = list(dict.fromkeys(str(i) for i in instances))
        for path, resolved, _ in read.values():
            unknown = sorted(resolved - set(ids))
            if unknown:
                msg = (
                    f"{path!r} resolves {len(unknown)} instance(s) not in `instances` "
                    f"({unknown[0]!r} first): `instances` must hold the split of these results."
                )
                raise ValueError(msg)
    models = list(read)
    values = np.array(
        [[1.0 if i in read[model][1] else 0.0 for i in ids] for model in models], dtype=float
    )
    long = pd.DataFrame(
        {
            "model": np.repeat(models, len(ids)),
            "instance_id": np.tile(np.asarray(ids, dtype=object), len(models)),
            "resolved": values.ravel(),
        }
    )
    frame = from_items(long, model="model", item="instance_id", score="resolved")
    source = {
        "format": "swebench",
        "files": [path for path, _, _ in read.values()],
        "model": "submission folder",
        "item": "instance_id",
        "metric": "resolved",
        "instances": "given" if instances is not None else "listed in the files",
    }
    return with_source(frame, source)
