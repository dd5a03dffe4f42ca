"""Reading saved frames: CSV (comma, tab or semicolon) and parquet files of scores.

CSV floats are read exactly rounded on every pandas version. The command
line reads its files here (``read_frame``, ``read_table``).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.inputs.benchmark import DATASET

#: ``--format`` of the command line: the readers of evaluation results, by name.
RESULT_FORMATS = ("eee", "helm", "lighteval", "swebench", "promptfoo")


def read_csv(source: Any, **kwargs: Any) -> pd.DataFrame:
    """``pd.read_csv`` with correctly rounded floats on every pandas version.

    pandas 2's default C parser can be one bit off ("0.9600000000000001" read
    as 0.96), which changes tied ranks in the Wilcoxon and sign tests; its
    ``float_precision="round_trip"`` is exact. pandas 3 parses exactly by
    default and deprecates that keyword.
    """
    if int(pd.__version__.split(".", 1)[0]) < 3:
        kwargs.setdefault("float_precision", "round_trip")
    return pd.read_csv(source, **kwargs)


def _separator(path: Path) -> dict[str, str]:
    """``sep`` (and ``decimal``) of a text table: commas, tabs or semicolons.

    A semicolon-separated file written with decimal commas ("0,91") is read as
    such; any other mixture is left to the CSV reader, which then says it
    cannot read the file.
    """
    with path.open("rb") as handle:
        head = handle.read(65536).decode("utf-8", errors="replace")
    lines = head.splitlines()
    header = lines[0] if lines else ""
    if path.suffix.lower() in (".tsv", ".tab") or ("\t" in header and "," not in header):
        return {"sep": "\t"}
    if ";" in header and header.count(";") >= header.count(","):
        body = "\n".join(lines[1:])
        decimal_comma = re.search(r"\d,\d", body) is not None and "." not in body.replace("..", "")
        return {"sep": ";", "decimal": ","} if decimal_comma else {"sep": ";"}
    return {}


def _starts_with_dataset(path: Path, separator: str) -> bool:
    """Whether the first line is the header of a wide ``(dataset, split)`` benchmark CSV.

    ``to_csv`` writes the column level names and labels first
    ("dataset,iris,iris,...", then "split,split0,split1,..."): the first cell
    is "dataset" and each data set is repeated once per split. A first line
    "dataset,a,b" without repeats is a table with data sets as rows
    (``bench.cmp.means().T.to_csv()``).
    """
    with path.open("rb") as handle:
        first = handle.readline().decode("utf-8", errors="replace").strip()
    cells = [cell.strip().strip('"') for cell in first.split(separator)]
    return cells[0] == DATASET and len(set(cells[1:])) < len(cells) - 1


def read_table(path: str | Path, benchmark_levels: bool = False) -> pd.DataFrame:
    """Read a CSV (comma, tab or semicolon) or parquet file as it is, without an index.

    With ``benchmark_levels``, a CSV whose first cell is "dataset" is read with
    its two header rows as ``(dataset, split)`` columns and the models as
    index (without, the data sets would be read as text columns). Raises the
    errors :func:`read_frame` documents.
    """
    path = Path(path)
    if path.is_dir():
        msg = (
            f"{str(path)!r} is a directory; give the path of a CSV or parquet file in it "
            f"(or, for a folder of evaluation results, name its tool with --format: "
            f"{', '.join(RESULT_FORMATS)})"
        )
        raise IsADirectoryError(msg)
    if not path.is_file():
        msg = f"no such file: {str(path)!r}"
        raise FileNotFoundError(msg)
    if path.suffix.lower() in (".json", ".jsonl", ".xlsx", ".xls"):
        msg = (
            f"{path.name} is a {path.suffix.lstrip('.').upper()} file; pdcompare reads CSV "
            "(commas, tabs or semicolons) and parquet files: save the scores as "
            "a CSV file (or parquet) and pass that; a tool's evaluation results are read "
            f"with --format ({', '.join(RESULT_FORMATS)})"
        )
        raise ValueError(msg)
    if path.suffix.lower() in (".parquet", ".pq"):
        if not any(importlib.util.find_spec(m) for m in ("pyarrow", "fastparquet")):
            msg = (
                f"reading {path.name} needs pyarrow (pip install pyarrow); "
                "or save the scores as CSV"
            )
            raise ImportError(msg)
        return pd.read_parquet(path)
    options: dict[str, Any] = dict(_separator(path))
    if benchmark_levels and _starts_with_dataset(path, options.get("sep", ",")):
        options.update(header=[0, 1], index_col=0)
    try:
        table = read_csv(path, **options)
    except pd.errors.EmptyDataError:
        msg = f"{path.name} is empty; expected a CSV of fold scores"
        raise ValueError(msg) from None
    except (pd.errors.ParserError, UnicodeDecodeError) as error:
        detail = " ".join(str(error).split())
        msg = f"{path.name} is not a readable CSV file ({detail})"
        raise ValueError(msg) from None
    if len(table) == 0:
        msg = (
            f"{path.name} holds a header line and no rows of scores; expected one row per "
            "model (or per score of a long table) below the header"
        )
        raise ValueError(msg)
    return table


def read_frame(
    path: str | Path, *, transpose: bool = False, benchmark: bool = False
) -> pd.DataFrame:
    """Read a scores file (CSV or parquet), a benchmark file or a saved ``cv_results_`` table.

    This is the command line's reader: its messages name the command line's
    options (``--transpose``).

    Parameters
    ----------
    path : str or pathlib.Path
        A ``.csv`` file (anything not ``.parquet``/``.pq`` is read as text;
        commas, tabs and semicolons separate columns) or a parquet file (needs
        pyarrow or fastparquet).
    transpose : bool, default False
        The models are the columns (``pd.DataFrame({name: cross_val_score(...)})``
        saved as it is): each column becomes a model. A first column with no
        header (an index written by ``to_csv``) or holding text gives the split
        labels (the data sets, when it is named "dataset").
    benchmark : bool, default False
        The columns are data sets (one score per model and data set, what
        ``bench.cmp.means().to_csv()`` writes): the frame is read as a
        benchmark frame.

    Returns
    -------
    pandas.DataFrame
        A scores frame indexed by model name (the first column); a benchmark
        frame with ``(dataset, split)`` columns when the file is one written by
        ``to_csv`` (its first two lines start with the level names "dataset"
        and the split level's name) or by ``to_parquet``, or with data-set
        columns under ``benchmark``; or the ``cv_results_`` frame as saved (its
        ``params`` text is never parsed: the parameters are read from the
        ``param_*`` columns).

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    IsADirectoryError
        The path is a directory.
    ImportError
        A parquet file without pyarrow or fastparquet installed.
    ValueError
        The file is not a readable table; its first column holds numbers, not
        model names (the models are the columns: ``transpose``); its rows are
        data sets; or ``transpose``/``benchmark`` is given for a
        ``cv_results_`` table or a ``(dataset, split)`` benchmark file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import pandas as pd
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> columns = pd.DataFrame({"ridge": [0.41, 0.52, 0.47], "ols": [0.40, 0.50, 0.49]})
    >>> columns.to_csv(folder / "cols.csv", index=False)
    >>> read_frame(folder / "cols.csv", transpose=True)
              0     1     2
    model
    ridge  0.41  0.52  0.47
    ols    0.40  0.50  0.49
    """
    frame = read_table(path, benchmark_levels=True)
    if "params" in frame.columns:
        if transpose or benchmark:
            msg = (
                "--transpose and --benchmark read tables of scores; this file is a "
                "cv_results_ table (models are its rows already)"
            )
            raise ValueError(msg)
        return frame  # a saved cv_results_: its parameters are read from the param_* columns
    if frame.columns.nlevels > 1 and transpose:
        msg = (
            "this file is a benchmark with (dataset, split) columns and the models as rows; "
            "read it without --transpose"
        )
        raise ValueError(msg)
    if isinstance(frame.index, pd.RangeIndex) and frame.shape[1] > 0:
        if transpose:
            frame = _models_from_columns(frame)
        else:
            _refuse_numeric_first_column(frame)
            frame = frame.set_index(frame.columns[0])
    elif transpose:  # a parquet file saved with its index
        frame = frame.T
    if frame.index.name == DATASET:
        msg = (
            "the rows are data sets (the first column is named 'dataset'), as autorank and "
            "scikit-posthocs take them; models must be the rows: pass --transpose"
        )
        raise ValueError(msg)
    frame.index = frame.index.astype(str)
    frame.index.name = "model"
    if benchmark:
        names = [DATASET, *frame.columns.names[1:]]
        frame.columns = frame.columns.set_names(names)
    return frame


def _is_numbers(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def _refuse_numeric_first_column(frame: pd.DataFrame) -> None:
    """The first column is read as the model names: numbers there mean models as columns."""
    if _is_numbers(frame.iloc[:, 0]):
        msg = (
            "the first column holds numbers, not model names: are the models the columns? "
            "pass --transpose; a file of predictions (one row per test sample) names its "
            "truth column with --y COLUMN"
        )
        raise ValueError(msg)


def _models_from_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """Models as columns turned into rows; a first column of labels gives the split labels.

    The first column labels the splits when it has no header (the index
    ``to_csv`` writes, read as "Unnamed: 0") or holds text ("fold0", a data
    set's name); a named column of numbers is a model like the others.
    """
    first = frame.columns[0]
    unnamed = str(first).startswith("Unnamed: ")
    if unnamed or not _is_numbers(frame[first]):
        frame = frame.set_index(first)
        if unnamed:
            frame.index.name = None
    return frame.T


def result_format(path: str | Path) -> str | None:
    """The evaluation-results format a file or folder is written in, recognised by its shape.

    An Every Eval Ever ``*_samples.jsonl`` or aggregate JSON (``schema_version``
    and ``model_id``/``evaluation_results``), a HELM run folder
    (``per_instance_stats.json``), a lighteval ``details_*.parquet``, a
    SWE-bench ``results.json`` (``resolved``), a promptfoo output
    (``results.version`` 3); None for anything else (a CSV of scores).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = path.write_text(json.dumps({"resolved": ["django__django-11099"]}))
    >>> result_format(path)
    'swebench'
    """
    path = Path(path)
    if path.is_dir():
        if (path / "per_instance_stats.json").is_file() or any(path.rglob("run_spec.json")):
            return "helm"
        if any(path.rglob("details_*.parquet")):
            return "lighteval"
        first = next(iter(sorted(path.rglob("*.json*"))), None)
        return None if first is None else result_format(first)
    if path.suffix == ".parquet" and path.name.startswith("details_"):
        return "lighteval"
    if path.suffix not in (".json", ".jsonl"):
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(1 << 16).decode("utf-8", errors="replace")
        first = head.splitlines()[0] if path.suffix == ".jsonl" and head else head
        record = json.loads(first) if path.suffix == ".jsonl" else json.loads(path.read_text())
    except (OSError, ValueError, IndexError):
        return None
    if not isinstance(record, dict):
        return None
    if "schema_version" in record and ("model_id" in record or "evaluation_results" in record):
        return "eee"
    if isinstance(record.get("resolved"), list) or isinstance(record.get("resolved_ids"), list):
        return "swebench"
    results = record.get("results")
    if isinstance(results, dict) and "version" in results:
        return "promptfoo"
    return None


def instance_ids(path: str | Path) -> list[str]:
    """The instance ids of a SWE-bench split from a file (the command line's ``--instances``).

    A text file of ids (one per line, or separated by spaces), a JSON list of
    ids (or of records with an ``instance_id``), or the ``instance_id`` column
    of a CSV or parquet file (the split as the dataset publishes it).

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "ids.json"
    >>> _ = path.write_text('[{"instance_id": "a__b-1"}, {"instance_id": "a__b-2"}]')
    >>> instance_ids(path)
    ['a__b-1', 'a__b-2']
    """
    path = Path(path)
    if not path.is_file():
        msg = f"--instances: cannot read {str(path)!r}: no such file"
        raise FileNotFoundError(msg)
    suffix = path.suffix.lower()
    if suffix in (".csv", ".parquet", ".pq"):
        table = read_table(path)
        if "instance_id" not in table.columns:
            msg = (
                f"--instances: {str(path)!r} has no column 'instance_id'; its columns are "
                f"{', '.join(map(repr, list(table.columns)[:10]))}"
            )
            raise ValueError(msg)
        return [str(i) for i in table["instance_id"]]
    text = path.read_text(encoding="utf-8")
    if suffix == ".json":
        entries = json.loads(text)
        if not isinstance(entries, list):
            msg = f"--instances: {str(path)!r} is not a JSON list of instance ids"
            raise ValueError(msg)
        return [str(e["instance_id"]) if isinstance(e, dict) else str(e) for e in entries]
    return text.split()


def read_results(
    path: str | Path,
    fmt: str | None,
    *,
    metric: str | None = None,
    instances: str | Path | None = None,
) -> pd.DataFrame:
    """The frame of an evaluation-results file or folder, by ``format`` (or recognised).

    The command line's ``--format`` (with ``--metric``, and ``--instances``
    for SWE-bench: a file of the split's instance ids) ends here: one reader
    per format, called with the path; ``fmt`` None or "auto" recognises it
    (:func:`result_format`).
    """
    from pdcompare.inputs.eee import from_eee
    from pdcompare.inputs.helm import from_helm
    from pdcompare.inputs.lighteval import from_lighteval
    from pdcompare.inputs.promptfoo import from_promptfoo
    from pdcompare.inputs.swebench import from_swebench

    if fmt is None or fmt == "auto":
        fmt = result_format(path)
        if fmt is None:
            msg = (
                f"{str(path)!r} is not a results file this reader recognises; name its "
                f"format with --format ({', '.join(RESULT_FORMATS)})"
            )
            raise ValueError(msg)
    if instances is not None and fmt != "swebench":
        msg = f"--instances applies to --format swebench only; this is --format {fmt}"
        raise ValueError(msg)
    ids = instance_ids(instances) if instances is not None else None
    readers = {
        "eee": lambda p: from_eee(p, metric=metric),
        "helm": lambda p: from_helm(p, metric=metric),
        "lighteval": lambda p: from_lighteval(p, metric=metric),
        "swebench": lambda p: from_swebench(p, instances=ids),
        "promptfoo": lambda p: from_promptfoo(p, score=metric or "score"),
    }
    if fmt not in readers:
        msg = f"--format {fmt}: not one of {', '.join(RESULT_FORMATS)}"
        raise ValueError(msg)
    return readers[fmt](path)


def scan_table(path: str | Path) -> Any:
    """A long table's file: a parquet file as polars' lazy scan when polars is installed.

    The items and long readers then reduce its rows inside polars (only the
    per-cell reduction is collected); otherwise, and for CSV, :func:`read_table`.
    """
    path = Path(path)
    lazy = importlib.util.find_spec("polars") and importlib.util.find_spec("narwhals")
    if path.suffix.lower() in (".parquet", ".pq") and path.is_file() and lazy:
        import polars

        return polars.scan_parquet(path)
    return read_table(path)
