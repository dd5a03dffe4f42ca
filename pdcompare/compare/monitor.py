"""A monitor of an evaluation that runs: long rows in as they come, confidence sequences out.

``Monitor.update(table)`` takes rows with the columns of ``from_items``
(``model``, ``item``, ``score``); an item is a unit once every model has
scored it, in the order items complete. Each update reads only the new units
(running sums per pair, carried between updates: :class:`Engine`), and
``state()`` returns the frame of :func:`pdcompare.sequential` on the units read
so far.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import OptionError
from pdcompare.compare.sequential import (
    check_options,
    check_scores,
    make_engine,
    result_frame,
)
from pdcompare.inputs.scores import rank_order
from pdcompare.stats import sequential as core

#: The columns a monitor reads (those of ``from_items`` without samples, clusters or tasks).
COLUMNS = ("model", "item", "score")
#: Without ``planned_n``, the boundary is tightest after this many items.
DEFAULT_PLANNED_N = 1000


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (for messages)."""
    return value.item() if isinstance(value, np.generic) else value


class Monitor:
    """Watch the comparison of models while their items come in: anytime-valid at every update.

    Parameters
    ----------
    alpha : float
        P(the true difference of a pair ever leaves its interval) ≤ alpha
        over all pairs (Bonferroni over the pairs).
    margin : float, optional
        Pairs whose interval lies inside ±margin are decided "equivalent".
    boundary : {"normal_mixture", "betting", "evalue"}
        As in :func:`pdcompare.sequential`.
    planned_n : int, optional
        The number of items at which the boundary is tightest (the normal
        mixture's ρ, the betting bets; default 1,000).
    greater_is_better : bool
        False for losses.

    Notes
    -----
    The models are those of the first update; the first look is after 30
    items. A monitor reads items without clusters: for clustered items run
    :func:`pdcompare.sequential` on the frame so far. Pickling a monitor keeps
    its state.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> rows = pd.DataFrame({"model": np.tile(["a", "b"], 300),
    ...                      "item": np.repeat(np.arange(300), 2),
    ...                      "score": (rng.random(600) < np.tile([0.8, 0.6], 300)) * 1.0})
    >>> monitor = pdcompare.Monitor(planned_n=300)
    >>> for start in range(0, 600, 100):
    ...     _ = monitor.update(rows.iloc[start:start + 100])
    >>> monitor.state()[["model_1", "model_2", "n_items", "decision", "decided_at"]]
      model_1 model_2  n_items decision  decided_at
    0       a       b      300   better          55
    """

    def __init__(
        self,
        *,
        alpha: float = 0.05,
        margin: float | None = None,
        boundary: str = "normal_mixture",
        planned_n: int | None = None,
        greater_is_better: bool = True,
    ) -> None:
        alpha, margin, boundary, planned_n, _, min_n = check_options(
            alpha, margin, boundary, planned_n, "bonferroni", 30
        )
        if not isinstance(greater_is_better, bool | np.bool_):
            msg = f"`greater_is_better` must be True or False; got {greater_is_better!r}."
            raise OptionError(msg, keyword="greater_is_better")
        self._options = {
            "alpha": alpha, "margin": margin, "boundary": boundary, "min_n": min_n,
            "planned_n": planned_n or DEFAULT_PLANNED_N,
            "greater_is_better": bool(greater_is_better),
        }  # fmt: skip
        self._models: pd.Index | None = None
        self._engine = None
        self._carry: dict = {}
        self._pending_keys: list = []
        self._pending = np.empty((0, 0))
        self._done: set = set()
        self._n = 0

    def _start(self, models: pd.Index) -> None:
        """Fix the models and the pairs at the first update."""
        self._models = models
        self._code_of = {name: k for k, name in enumerate(models)}
        m = len(models)
        if m < 2:
            msg = f"A monitor compares at least 2 models; the first update has {m}."
            raise ValueError(msg)
        self._i, self._j = np.triu_indices(m, k=1)
        o = self._options
        self._engine = make_engine(
            o["boundary"], o["alpha"], o["margin"], o["planned_n"], "bonferroni", o["min_n"],
            o["greater_is_better"], len(self._i),
        )  # fmt: skip
        self._state = {"code": np.zeros(len(self._i), int), "at": np.zeros(len(self._i), int)}
        self._last = np.full((3, len(self._i)), np.nan)
        self._totals = np.zeros(m)
        self._pending = np.empty((0, m))

    def _rows(self, table: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The model codes, item labels and scores of ``table``, checked."""
        if not isinstance(table, pd.DataFrame):
            msg = f"`update` takes a pandas DataFrame of rows; got {type(table).__name__}."
            raise TypeError(msg)
        unknown = [c for c in table.columns if c not in COLUMNS]
        missing = [c for c in COLUMNS if c not in table.columns]
        if unknown or missing:
            what = f"unknown columns {unknown}" if unknown else f"no column {missing}"
            msg = (
                f"`update` reads the columns 'model', 'item' and 'score'; this table has {what}. "
                "Rename or drop them (clustered items: run `pdcompare.sequential` on the frame)."
            )
            raise ValueError(msg)
        scores = pd.to_numeric(table["score"], errors="coerce").to_numpy(dtype=float)
        if np.isnan(scores).any():
            bad = table.iloc[int(np.flatnonzero(np.isnan(scores))[0])]
            msg = (
                f"`update`: model {_plain(bad['model'])!r} on item {_plain(bad['item'])!r} has no "
                "numeric score "
                "(NaN); send a row once its score is known."
            )
            raise ValueError(msg)
        if self._models is None:
            self._start(pd.Index(pd.unique(table["model"]), name="model"))
        # Through the few distinct names: an Arrow-backed column converts slowly row by row.
        local, names = pd.factorize(table["model"])
        known = np.array([self._code_of.get(name, -1) for name in names], dtype=np.intp)
        codes = known[local]
        if (known < 0).any():
            new = _plain(names[int(np.flatnonzero(known < 0)[0])])
            msg = (
                f"`update`: model {new!r} was not in the monitor's first update; a monitor "
                "compares the models it started with: start a new Monitor with every model."
            )
            raise ValueError(msg)
        check_scores(scores, self._options["boundary"], False)
        return codes, table["item"].to_numpy(), scores

    def update(self, table: pd.DataFrame) -> Monitor:
        """Read new rows (``model``, ``item``, ``score``); the items every model has are units.

        Costs O(rows): the items still waiting for some model and the new
        rows are placed in one small matrix, and only the items it completes
        are read (running sums per pair). Returns the monitor.
        """
        codes, items, scores = self._rows(table)
        item_codes, labels = pd.factorize(items)
        keys = list(self._pending_keys)
        known = {key: k for k, key in enumerate(keys)}
        slot = np.empty(len(labels), dtype=np.intp)
        for k, label in enumerate(labels):
            if label in self._done:
                msg = (
                    f"`update`: item {_plain(label)!r} was already complete; send every row once."
                )
                raise ValueError(msg)
            slot[k] = known.setdefault(label, len(keys))
            if slot[k] == len(keys):
                keys.append(label)
        values = np.full((len(keys), len(self._models)), np.nan)
        values[: len(self._pending_keys)] = self._pending
        rows = slot[item_codes]
        if (~np.isnan(values[rows, codes])).any() or len(set(zip(rows, codes, strict=True))) < len(
            rows
        ):
            msg = (
                "`update`: a model scored one item twice; repeated rows are samples: send "
                "their mean."
            )
            raise ValueError(msg)
        values[rows, codes] = scores
        complete = ~np.isnan(values).any(axis=1)
        self._pending_keys = [key for key, c in zip(keys, complete, strict=True) if not c]
        self._pending = values[~complete]
        self._done.update(key for key, c in zip(keys, complete, strict=True) if c)
        if complete.any():
            self._read(values[complete].T)
        return self

    def _read(self, units: np.ndarray) -> None:
        """Read the completed items ``units`` (models x new items)."""
        before = self._n
        paths, code, _ = self._engine.read(
            units[self._i], units[self._j], None, self._carry, np.array([units.shape[1] - 1])
        )
        self._engine.decide(code, before, units.shape[1], self._state)
        self._last = np.stack([part[:, -1] for part in paths])
        self._totals += units.sum(axis=1)
        self._n += units.shape[1]

    def state(self) -> pd.DataFrame:
        """The comparison so far: :func:`pdcompare.sequential`'s frame, every pair best first."""
        if self._models is None:
            msg = "The monitor has read no rows yet: call `update(table)` first."
            raise ValueError(msg)
        o = self._options
        n = self._n
        order = rank_order(self._totals / max(n, 1), o["greater_is_better"])
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        flip = rank[self._i] > rank[self._j]
        i = np.where(flip, self._j, self._i)
        j = np.where(flip, self._i, self._j)
        mean, low, high = self._last
        last = np.stack([np.where(flip, -mean, mean), np.where(flip, -high, low),
                         np.where(flip, -low, high)])  # fmt: skip
        swap = np.array([core.CONTINUE, core.WORSE, core.BETTER, core.EQUIVALENT])
        code = np.where(flip, swap[self._state["code"]], self._state["code"])
        sort = np.lexsort((rank[j], rank[i]))
        read = {"code": code[sort], "at": self._state["at"][sort], "last": last[:, sort],
                "e": np.full(len(sort), np.nan)}  # fmt: skip
        if o["boundary"] == "evalue":
            read["e"] = self._evalues(flip)[sort]
        models = np.asarray(self._models, dtype=object)[order].tolist()
        meta = results.result_meta(
            "sequential", scope="all_pairs", alpha=o["alpha"], correction="bonferroni",
            boundary=o["boundary"], planned_n=o["planned_n"], min_n=o["min_n"],
            margin=o["margin"], rho=self._engine.rho, look_unit="item",
            greater_is_better=o["greater_is_better"], models=models, unit="item",
            n_items=n, n_clusters=n, clustered=False,
        )  # fmt: skip
        return result_frame(self._models, i[sort], j[sort], read, (n, n), n, self._engine, meta)

    def _evalues(self, flip: np.ndarray) -> np.ndarray:
        b = self._carry.get("b", np.zeros(len(flip)))
        c = self._carry.get("c", np.zeros(len(flip)))
        return core.discordant_evalue(np.where(flip, c, b), np.where(flip, b, c))
