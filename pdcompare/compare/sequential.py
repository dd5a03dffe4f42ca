"""Watching an evaluation while it runs: anytime-valid comparisons of items (DESIGN section 30).

``sequential`` reads an items frame's units (items, or clusters in order of
first appearance) one after the other and gives every pair a confidence
sequence of its mean paired difference: valid at every look at once, so it may
be read after every item and the reading stopped whenever the answer is clear.
``trajectory`` gives the path of a result, one row per pair and look. The
reading itself (:class:`Engine`) is shared with :class:`pdcompare.Monitor`,
which takes the rows as they come.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import OptionError, check_fraction, check_positive_int
from pdcompare.compare._common import integer_counts, scores_meta
from pdcompare.compare.calls import comparison
from pdcompare.inputs.attrs import ATTRS_KEY
from pdcompare.inputs.items import ItemsData, items_data
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.stats import sequential as core

#: The multiple-testing corrections over pairs, by boundary.
CORRECTIONS = ("bonferroni", None)
EVALUE_CORRECTIONS = ("bonferroni", "e-bh", None)
#: The words of the decision codes.
DECISIONS = np.array(["continue", "better", "worse", "equivalent"], dtype=object)
#: About this many (pair, look) points of a result's path are kept (20 looks a pair at least).
PATH_POINTS = 20_000
#: The result's columns (``evalue`` is added with ``boundary="evalue"``).
COLUMNS = (
    "model_1", "model_2", "n_items", "n_clusters", "mean_diff", "cs_low", "cs_high",
    "decision", "decided_at",
)  # fmt: skip


@dataclass
class Engine:
    """How the units of a stream are read: the boundary, its level and the decision rule.

    ``alpha`` is the level of each pair (after Bonferroni over pairs); with
    ``correction="e-bh"`` it is the family's level of e-BH.
    """

    boundary: str
    alpha: float
    rho: float | None
    margin: float | None
    min_n: int
    greater_is_better: bool
    correction: str | None
    n_pairs: int
    planned_n: int | None = None

    def read(self, one, two, sizes, carry: dict, columns):
        """Read new units of pairs: ``one``, ``two`` the unit sums of model_1 and model_2.

        Returns the paths (the difference model_1 − model_2) at ``columns`` of
        the new looks, the decision codes of every new look (or, for the
        normal mixture without clusters and margin, a function of the first
        look that returns the first decision and its look), and for
        ``evalue`` the e-values at ``columns`` (else None). ``carry`` holds the
        running sums of the units read before (updated).
        """
        if self.boundary == "normal_mixture":
            run = core.running_sums(one - two, sizes, carry)
            if sizes is None and self.margin is None:

                def code(start: int) -> tuple[np.ndarray, np.ndarray]:
                    return core.first_mixture_decision(
                        run, start, self.alpha, self.rho, self.greater_is_better
                    )
            else:
                every = core.mixture_paths_at(run, slice(None), self.alpha, self.rho)
                code = core.interval_codes(every, self.margin, self.greater_is_better)
            return core.mixture_paths_at(run, columns, self.alpha, self.rho), code, None
        evalue = None
        if self.boundary == "betting":
            diff = (one - two) if sizes is None else (one - two) / sizes
            m = core.betting_paths(
                (diff + 1.0) / 2.0, self.alpha, carry=carry, planned_n=self.planned_n
            )
            paths = core.Paths(*(2.0 * part - 1.0 for part in m))
        else:
            paths, evalue = self._evalues(one, two, carry)
        code = core.interval_codes(paths, self.margin, self.greater_is_better)
        if evalue is not None:
            code = self._evalue_codes(paths, evalue, code)
            evalue = evalue[..., columns]
        return core.Paths(*(part[..., columns] for part in paths)), code, evalue

    def _evalues(self, one: np.ndarray, two: np.ndarray, carry: dict):
        t = core._units(carry, one.shape)
        b = core._running(one * (1.0 - two), carry, "b")
        c = core._running(two * (1.0 - one), carry, "c")
        paths = core.evalue_paths(b, c, t, self.alpha / self._family())
        return paths, core.discordant_evalue(b, c)

    def _family(self) -> int:
        return self.n_pairs if self.correction == "bonferroni" else 1

    def _evalue_codes(self, paths: core.Paths, evalue: np.ndarray, interval: np.ndarray):
        if self.correction == "e-bh":
            reject = core.ebh(evalue.T, self.alpha).T
        else:
            reject = evalue >= self._family() / self.alpha
        up = paths.mean > 0
        if not self.greater_is_better:
            up = ~up
        code = np.where(reject, np.where(up, core.BETTER, core.WORSE), core.CONTINUE)
        equivalent = (interval == core.EQUIVALENT) & (code == core.CONTINUE)
        return np.where(equivalent, core.EQUIVALENT, code)

    def decide(self, code, before: int, n_new: int, state: dict) -> None:
        """Keep each undecided pair's first decision among the new looks (``before`` read)."""
        start = max(0, self.min_n - before - 1)
        if start >= n_new:
            return
        if callable(code):  # the shortcut of the normal mixture: no interval at every look
            new, at = code(start)
        else:
            new, at = core.first_decision(code[..., start:], start)
        fresh = (state["code"] == core.CONTINUE) & (new != core.CONTINUE)
        state["code"] = np.where(fresh, new, state["code"])
        state["at"] = np.where(fresh, at + before, state["at"])


def check_options(
    alpha: Any, margin: Any, boundary: Any, planned_n: Any, correction: Any, min_n: Any
) -> tuple[float, float | None, str, int | None, str | None, int]:
    """The options of :func:`sequential` and :class:`~pdcompare.Monitor`, checked."""
    alpha = check_fraction("alpha", alpha)
    if not (isinstance(boundary, str) and boundary in core.BOUNDARIES):
        msg = (
            "`boundary` must be 'normal_mixture' (asymptotic, any scores) or 'betting' "
            f"(scores in [0, 1], valid at every n), or 'evalue' (binary items); got {boundary!r}."
        )
        raise OptionError(msg, keyword="boundary")
    if margin is not None:
        if isinstance(margin, bool) or not isinstance(margin, numbers.Real) or margin < 0:
            msg = f"`margin` must be a number ≥ 0 in the score's units, or None; got {margin!r}."
            raise OptionError(msg, keyword="margin")
        margin = float(margin)
    if planned_n is not None:
        planned_n = check_positive_int("planned_n", planned_n)
    allowed = EVALUE_CORRECTIONS if boundary == "evalue" else CORRECTIONS
    if correction not in allowed:
        extra = "" if boundary == "evalue" else " ('e-bh' goes with boundary='evalue')"
        names = ", ".join(map(repr, allowed))
        msg = f"`correction` must be one of {names}{extra}; got {correction!r}."
        raise OptionError(msg, keyword="correction")
    min_n = check_positive_int("min_n", min_n, minimum=2)
    return alpha, margin, boundary, planned_n, correction, min_n


def check_scores(values: np.ndarray, boundary: str, clustered: bool) -> None:
    """Refuse scores the boundary cannot read, naming the keyword and the way out."""
    if boundary == "betting" and (values.min() < 0 or values.max() > 1):
        msg = (
            "`boundary='betting'` bets on scores in [0, 1]; these run from "
            f"{values.min():g} to {values.max():g}: rescale them to [0, 1] or use "
            "`boundary='normal_mixture'`."
        )
        raise OptionError(msg, keyword="boundary")
    if boundary == "evalue" and (clustered or not np.isin(values, (0.0, 1.0)).all()):
        what = "clustered items" if clustered else "graded scores"
        msg = (
            f"`boundary='evalue'` counts discordant pairs of binary items without clusters; "
            f"these are {what}: use `boundary='normal_mixture'` (or 'betting' for [0, 1])."
        )
        raise OptionError(msg, keyword="boundary")


def _columns_in_order(data: ItemsData, order: Sequence | None) -> np.ndarray:
    if order is None:
        return np.arange(data.n_items)
    labels = list(order) if not isinstance(order, str) else [order]
    positions = data.splits.get_indexer_for(labels)
    if len(labels) != data.n_items or (positions < 0).any() or len(set(positions)) != len(labels):
        msg = (
            f"`order` must list every item of the frame once ({data.n_items} items); got "
            f"{len(labels)} labels: pass `list(df.columns)` reordered."
        )
        raise OptionError(msg, keyword="order")
    return positions


def unit_sums(data: ItemsData, order: Sequence | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Each model's sum over each unit (models x units) and the units' sizes (None: items).

    With clusters the unit is the cluster, in the order of its first item.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 0, 1, 1], [0, 0, 1, 0]], index=["a", "b"])
    >>> framed = wide.cmp.set_design(items=True, cluster={0: "y", 1: "x", 2: "y", 3: "x"})
    >>> sums, sizes = unit_sums(items_data(framed), None)
    >>> sums.tolist(), sizes.tolist()
    ([[2.0, 1.0], [1.0, 0.0]], [2.0, 2.0])
    """
    columns = _columns_in_order(data, order)
    values = data.values[:, columns]
    if not data.clustered:
        return values, None
    cluster = data.cluster[columns]
    _, first = np.unique(cluster, return_index=True)
    rank = np.empty(first.size, dtype=np.intp)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    unit = rank[np.unique(cluster, return_inverse=True)[1]]
    sort = np.argsort(unit, kind="stable")
    starts = np.flatnonzero(np.diff(unit[sort], prepend=-1))
    sums = np.add.reduceat(values[:, sort], starts, axis=1)
    return sums, np.bincount(unit).astype(float)


def _path_looks(n_units: int, n_pairs: int, min_n: int) -> np.ndarray:
    """The looks (unit counts) whose values a result keeps for ``trajectory``."""
    first = min(min_n, n_units)
    every = np.arange(first, n_units + 1)
    budget = max(20, PATH_POINTS // max(n_pairs, 1))
    if every.size <= budget:
        return every
    return np.unique(np.round(np.linspace(first, n_units, budget)).astype(int))


def _read_all(engine: Engine, sums, sizes, i, j, looks) -> dict[str, np.ndarray]:
    """Every look of every pair, in blocks (of pairs; of units for e-BH); the last and the path."""
    n_pairs, n_units = len(i), sums.shape[1]
    state = {"code": np.zeros(n_pairs, int), "at": np.zeros(n_pairs, int)}
    path = np.full((3, n_pairs, looks.size), np.nan)
    last = np.full((3, n_pairs), np.nan)
    evalue = np.full(n_pairs, np.nan)
    grid = core._GRID if engine.boundary == "betting" else 1
    if engine.correction == "e-bh":  # all pairs at each look: blocks of units
        pair_blocks = [slice(0, n_pairs)]
        step = core.chunk_rows(n_units, max(n_pairs, 1))
        unit_blocks = [slice(s, min(s + step, n_units)) for s in range(0, n_units, step)]
    else:
        step = core.chunk_rows(n_pairs, n_units, grid)
        pair_blocks = [slice(s, min(s + step, n_pairs)) for s in range(0, n_pairs, step)]
        unit_blocks = [slice(0, n_units)]
    for rows in pair_blocks:
        carry: dict = {}
        sub = {"code": state["code"][rows], "at": state["at"][rows]}
        for units in unit_blocks:
            before = units.start
            keep = (looks > before) & (looks <= units.stop)
            columns = np.append(looks[keep] - before - 1, units.stop - before - 1)
            one, two = (
                (sums[i[rows]], sums[j[rows]])
                if len(unit_blocks) == 1
                else (sums[i[rows], units], sums[j[rows], units])
            )
            paths, code, e = engine.read(
                one, two,
                None if sizes is None else sizes[units], carry, columns,
            )  # fmt: skip
            engine.decide(code, before, units.stop - before, sub)
            for k, part in enumerate(paths):
                path[k, rows][:, keep] = part[:, :-1]
                last[k, rows] = part[:, -1]
            if e is not None:
                evalue[rows] = e[:, -1]
        state["code"][rows], state["at"][rows] = sub["code"], sub["at"]
    return {"code": state["code"], "at": state["at"], "last": last, "path": path, "e": evalue}


def make_engine(
    boundary: str, alpha: float, margin, planned_n: int, correction, min_n: int,
    greater_is_better: bool, n_pairs: int,
) -> Engine:  # fmt: skip
    """The engine of a comparison of ``n_pairs`` pairs (Bonferroni's share of alpha each)."""
    each = alpha / n_pairs if correction == "bonferroni" and boundary != "evalue" else alpha
    rho = core.mixture_rho(planned_n, each) if boundary == "normal_mixture" else None
    return Engine(
        boundary, each, rho, margin, min_n, greater_is_better, correction, n_pairs, planned_n
    )


def result_frame(
    names: pd.Index, i: np.ndarray, j: np.ndarray, read: dict, counts: tuple[int, int],
    n_units: int, engine: Engine, meta: dict,
) -> pd.DataFrame:  # fmt: skip
    """The tidy result: one row per pair (DESIGN section 30's columns)."""
    n_items, n_clusters = counts
    enough = n_units >= engine.min_n
    last = read["last"] if enough else np.full_like(read["last"], np.nan)
    columns: dict[str, Any] = {
        "n_items": np.full(len(i), n_items),
        "n_clusters": np.full(len(i), n_clusters),
        "mean_diff": read["last"][0],
        "cs_low": last[1],
        "cs_high": last[2],
        "decision": DECISIONS[read["code"]],
        "decided_at": integer_counts(np.where(read["code"] > 0, read["at"], np.nan)),
    }
    if engine.boundary == "evalue":
        columns["evalue"] = read["e"]
    return results.pair_result(names, i, j, columns, meta)


@comparison("sequential")
def sequential(
    frame: pd.DataFrame,
    a: Any = None,
    b: Any = None,
    *,
    alpha: float = 0.05,
    margin: float | None = None,
    boundary: str = "normal_mixture",
    planned_n: int | None = None,
    order: Sequence | None = None,
    correction: str | None = "bonferroni",
    min_n: int = 30,
) -> pd.DataFrame:
    """Anytime-valid comparison of models on items read in order: a confidence sequence per pair.

    Parameters
    ----------
    frame : pandas.DataFrame
        An items frame (``from_items`` or ``set_design(items=True)``), its
        columns in the order the items were scored.
    a, b : model name, optional
        One pair (``a`` and ``b``), or ``a`` against every other model; by
        default every pair, best first (a monitor watches them all).
    alpha : float
        P(the true mean difference ever leaves the interval) ≤ ``alpha``, per
        pair before the correction over pairs.
    margin : float, optional
        With a margin, a pair whose interval lies inside ±``margin`` is
        decided "equivalent".
    boundary : {"normal_mixture", "betting", "evalue"}
        ``"normal_mixture"``: the asymptotic confidence sequence of
        Waudby-Smith et al. (2024); ``"betting"``: the hedged-capital sequence
        of Waudby-Smith & Ramdas (2024) for scores in [0, 1] (valid at every
        n; with clusters it reads cluster means); ``"evalue"``: the
        discordant-pair e-process of binary items without clusters (the
        ``evalue`` column; decided when it reaches 1/alpha).
    planned_n : int, optional
        The number of units at which the boundary is tightest (the normal
        mixture's ρ, the betting sequence's bets; default: the units of the
        frame). Either stays valid at every look before and after it.
    order : sequence, optional
        The items in the order they were scored (default: the frame's).
    correction : {"bonferroni", None, "e-bh"}
        Over pairs: alpha divided by the number of pairs, or none; ``"e-bh"``
        (e-BH over the pairs' e-values) with ``boundary="evalue"``.
    min_n : int
        The first look: after this many units (a plug-in standard deviation
        read from the second unit on rejects a true null 14 % of the time).

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``model_1, model_2, n_items, n_clusters, mean_diff,
        cs_low, cs_high, decision, decided_at`` (and ``evalue``). The interval
        is the one after the last unit; ``decision`` is "better" or "worse"
        (model_1 against model_2, in the design's direction), "equivalent" or
        "continue", kept from the look it was reached (``decided_at``, in
        units: clusters when the frame has them). :func:`pdcompare.trajectory` gives
        every look.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> wide = pd.DataFrame((rng.random((2, 400)) < [[0.8], [0.6]]).astype(float),
    ...                     index=["a", "b"])
    >>> res = wide.cmp.set_design(items=True).cmp.sequential()
    >>> res[["model_1", "model_2", "decision", "decided_at"]]
      model_1 model_2 decision  decided_at
    0       a       b   better          64
    """
    alpha, margin, boundary, planned_n, correction, min_n = check_options(
        alpha, margin, boundary, planned_n, correction, min_n
    )
    data = items_data(frame)  # the registry's check took items frames only
    check_scores(data.values, boundary, data.clustered)
    sums, sizes = unit_sums(data, order)
    i, j, scope = data.pairs(ALL_PAIRS if a is None and b is None else a, b)
    n_units = sums.shape[1]
    engine = make_engine(
        boundary, alpha, margin, planned_n or n_units, correction, min_n,
        data.design.greater_is_better, len(i),
    )  # fmt: skip
    looks = _path_looks(n_units, len(i), min_n)
    read = _read_all(engine, sums, sizes, i, j, looks)
    path = {
        "n": looks.tolist(),
        **{
            key: read["path"][k].tolist()
            for k, key in enumerate(("mean_diff", "cs_low", "cs_high"))
        },
    }
    meta = scores_meta(
        "sequential", data, scope, alpha=alpha, correction=correction, boundary=boundary,
        planned_n=planned_n or n_units, min_n=min_n, margin=margin, rho=engine.rho,
        look_unit="cluster" if data.clustered else "item", path=path,
    )  # fmt: skip
    return result_frame(data.names, i, j, read, (data.n_items, n_units), n_units, engine, meta)


def trajectory(result: pd.DataFrame) -> pd.DataFrame:
    """The path of a :func:`sequential` result: one row per pair and look.

    Columns ``model_1, model_2, n, mean_diff, cs_low, cs_high``: after ``n``
    units, the running mean difference and its confidence sequence. Every look
    from ``min_n`` on is kept when pairs × looks ≤ 20,000; beyond, evenly
    spaced looks (the last always among them).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 0, 1, 1] * 20, [0, 0, 1, 0] * 20], index=["a", "b"])
    >>> res = wide.cmp.set_design(items=True).cmp.sequential(min_n=78)
    >>> trajectory(res)[["model_1", "n", "mean_diff"]]
      model_1   n  mean_diff
    0       a  78   0.500000
    1       a  79   0.493671
    2       a  80   0.500000
    """
    stored = result.attrs.get(ATTRS_KEY) if isinstance(result, pd.DataFrame) else None
    path = stored.get("path") if isinstance(stored, dict) else None
    if not (isinstance(path, dict) and stored.get("test") == "sequential"):
        msg = (
            "`trajectory` reads the result of `sequential` (its path is kept in "
            "`attrs['pdcompare']['path']`); run `items.cmp.sequential()` first."
        )
        raise ValueError(msg)
    n = np.asarray(path["n"], dtype=int)
    pairs = len(result)
    frame = pd.DataFrame(
        {
            "model_1": np.repeat(np.asarray(result["model_1"], dtype=object), n.size),
            "model_2": np.repeat(np.asarray(result["model_2"], dtype=object), n.size),
            "n": np.tile(n, pairs),
            **{
                key: np.asarray(path[key], dtype=float).reshape(pairs * n.size)
                for key in ("mean_diff", "cs_low", "cs_high")
            },
        }
    )
    frame.attrs[ATTRS_KEY] = results.result_meta(
        "trajectory", alpha=stored.get("alpha"), boundary=stored.get("boundary"),
        greater_is_better=stored.get("greater_is_better"), models=list(stored.get("models", [])),
    )  # fmt: skip
    return frame
