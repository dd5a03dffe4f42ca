"""Which kind of frame this is, from its labels alone (no validation of its values).

Checked before a frame is read, by the readers of every kind, so it sits below them.
"""

from __future__ import annotations

import pandas as pd

from pdcompare.inputs.frames import check_frame

#: Name of the column level (or flat column index) that marks a benchmark frame.
DATASET = "dataset"


def is_benchmark(frame: pd.DataFrame) -> bool:
    """Whether ``frame`` is a benchmark frame: its columns, or their first level, named "dataset".

    Examples
    --------
    >>> import pandas as pd

    from pdcompare.inputs.frames import check_frame
    >>> table = pd.DataFrame([[0.9, 0.8], [0.7, 0.75]], index=["a", "b"],
    ...                      columns=pd.Index(["iris", "wine"], name="dataset"))
    >>> is_benchmark(table), is_benchmark(table.rename_axis(columns=None))
    (True, False)
    """
    check_frame(frame)
    return frame.columns.names[0] == DATASET
