"""Reading saved frames: CSV (comma, tab or semicolon) and parquet files of scores.

CSV floats are read exactly rounded on every pandas version. The command
line reads its files here (``read_frame``, ``read_table``).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pandas as pd


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
    """Whether the first cell is "dataset": a wide benchmark CSV written by ``to_csv``.

    Its first line holds the ``(dataset, split)`` column level names and labels
    ("dataset,iris,iris,...", then "split,split0,split1,...").
    """
    with path.open("rb") as handle:
        first = handle.readline().decode("utf-8", errors="replace").strip()
    return first.split(separator, 1)[0].strip().strip('"') == "dataset"


def read_table(path: str | Path, benchmark_levels: bool = False) -> pd.DataFrame:
    """Read a CSV (comma, tab or semicolon) or parquet file as it is, without an index.

    With ``benchmark_levels``, a CSV whose first cell is "dataset" is read with
    its two header rows as ``(dataset, split)`` columns and the models as
    index (without, the data sets would be read as text columns). Raises the
    errors :func:`read_frame` documents.
    """
    path = Path(path)
    if path.is_dir():
        msg = f"{str(path)!r} is a directory; give the path of a CSV or parquet file in it"
        raise IsADirectoryError(msg)
    if not path.is_file():
        msg = f"no such file: {str(path)!r}"
        raise FileNotFoundError(msg)
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
        return read_csv(path, **options)
    except pd.errors.EmptyDataError:
        msg = f"{path.name} is empty; expected a CSV of fold scores"
        raise ValueError(msg) from None
    except (pd.errors.ParserError, UnicodeDecodeError) as error:
        detail = " ".join(str(error).split())
        msg = f"{path.name} is not a readable CSV file ({detail})"
        raise ValueError(msg) from None


def read_frame(path: str | Path) -> pd.DataFrame:
    """Read a scores file (CSV or parquet), a benchmark file or a saved ``cv_results_`` table.

    Parameters
    ----------
    path : str or pathlib.Path
        A ``.csv`` file (anything not ``.parquet``/``.pq`` is read as text;
        commas, tabs and semicolons separate columns) or a parquet file (needs
        pyarrow or fastparquet).

    Returns
    -------
    pandas.DataFrame
        A scores frame indexed by model name (the first column); a benchmark
        frame with ``(dataset, split)`` columns when the file is one written by
        ``to_csv`` (its first two lines start with the level names "dataset"
        and the split level's name) or by ``to_parquet``; or the
        ``cv_results_`` frame as saved (its ``params`` text is never parsed:
        the parameters are read from the ``param_*`` columns).

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    IsADirectoryError
        The path is a directory.
    ImportError
        A parquet file without pyarrow or fastparquet installed.
    ValueError
        The file is not a readable table.
    """
    frame = read_table(path, benchmark_levels=True)
    if "params" in frame.columns:
        return frame  # a saved cv_results_: its parameters are read from the param_* columns
    if isinstance(frame.index, pd.RangeIndex) and frame.shape[1] > 0:
        frame = frame.set_index(frame.columns[0])
    frame.index = frame.index.astype(str)
    frame.index.name = "model"
    return frame
