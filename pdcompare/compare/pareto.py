"""Trade-offs: the Pareto front of score against cost, with the uncertainty of the scores.

A model is worth its cost when no model that costs no more is better. On point
estimates a model measured on a few folds can "dominate" a better-measured one
by luck; here a domination is a claim of the frame's own one-sided test
(``alternative="better"``): the corrected t-test on a scores frame, Welch's on a
runs frame, the paired test over questions on an items frame, DeLong's on
predicted scores, the paired permutation test of accuracy on predicted labels.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_call_keywords, check_correction, check_fraction
from pdcompare.compare.auc import auc_ci, delong
from pdcompare.compare.bootstrap import accuracy_ci
from pdcompare.compare.calls import comparison
from pdcompare.compare.paired import corrected_ttest, ttest
from pdcompare.compare.permutation import permutation_test
from pdcompare.compare.summary import summary
from pdcompare.compare.unpaired import welch_ttest
from pdcompare.inputs.attrs import pdcompare_attrs, stored_attr, with_attrs
from pdcompare.inputs.cv_results import cv_results_candidates
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.scores import ALL_PAIRS, SEARCH_KEYWORDS, converted_search
from pdcompare.stats.multitest import adjust_pvalues

#: The statuses, in the order a picture's legend lists them.
STATUSES = ("front", "ambiguous", "dominated")

#: The columns of a ``pareto`` result, after its model index.
COLUMNS = ("score", "cost", "status", "dominated_by", "pvalue", "ci_low", "ci_high")


def _frame_test(frame: pd.DataFrame, y: Any) -> tuple[str, Any, str]:
    """The frame's own one-sided test of "better": (name, function, kind of frame)."""
    if frame_kind(frame).has_datasets:
        msg = (
            "`pareto` weighs the score of one evaluation against its cost; this is a benchmark "
            "frame (several data sets). Run it on the scores of one data set, or on a frame "
            "of per-data-set means with `set_design(paired=False)`."
        )
        raise ValueError(msg)
    design = stored_attr(frame, "design") or {}
    if frame.columns.nlevels == 1 and y in frame.columns:
        values = frame.drop(columns=[y])
        numeric = all(pd.api.types.is_float_dtype(values[c]) for c in values.columns)
        return (
            ("delong", delong, "predictions")
            if numeric
            else ("permutation_test", permutation_test, "predictions")
        )
    if design.get("items"):
        return "ttest", ttest, "items"
    if design.get("paired") is False:
        return "welch_ttest", welch_ttest, "runs"
    return "corrected_ttest", corrected_ttest, "scores"


def _cost_values(
    frame: pd.DataFrame, cost: Any, models: pd.Index, search: dict[str, Any], kind: str
) -> tuple[np.ndarray, np.ndarray | None]:
    """Each model's (mean) cost and, for per-split costs, the (models, splits) array of them."""
    if isinstance(cost, str):
        if frame_kind(frame) is not FrameKind.CV_RESULTS:
            msg = (
                f"`cost`: a column name ({cost!r}) is read from a cv_results_ frame only; "
                "on this frame pass a Series of one cost per model, or a frame of per-split "
                "costs with the frame's split columns."
            )
            raise ValueError(msg)
        if cost not in frame.columns:
            times = [c for c in frame.columns if str(c).endswith("_time")]
            msg = f"`cost`: no column {cost!r} in this cv_results_ frame; its times: {times}."
            raise ValueError(msg)
        found = cv_results_candidates(frame, **search)
        values = pd.to_numeric(frame[cost].iloc[found.rows], errors="coerce").to_numpy(float)
        # The candidates in the frame's order; the result's models best first.
        by_model = pd.Series(values, index=found.names).loc[models].to_numpy(dtype=float)
        return _checked(by_model, models, cost), None
    if isinstance(cost, pd.DataFrame):
        if kind == "predictions":
            msg = "`cost`: per-split costs need a frame of splits; give one cost per model."
            raise ValueError(msg)
        _same_models(cost.index, models, "costs", "its costs")
        columns = frame.columns
        if list(cost.columns) != list(columns):
            msg = (
                "`cost`: per-split costs need the frame's split columns, in its order "
                f"({list(columns)[:5]}...); got {list(cost.columns)[:5]}...."
            )
            raise ValueError(msg)
        table = cost.loc[models].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        if np.isnan(table).any():
            bad = list(models[np.isnan(table).any(axis=1)])
            msg = f"`cost` has missing or non-numeric costs (NaN) for {bad}: fill them in."
            raise ValueError(msg)
        return table.mean(axis=1), table
    if isinstance(cost, dict):
        cost = pd.Series(cost)
    if not isinstance(cost, pd.Series):
        msg = (
            "`cost` must be a Series of one cost per model, a frame of per-split costs, or "
            f"on a cv_results_ frame the name of a column; got {type(cost).__name__}."
        )
        raise TypeError(msg)
    _same_models(cost.index, models, "cost", "one")
    values = pd.to_numeric(cost.loc[models], errors="coerce").to_numpy(dtype=float)
    return _checked(values, models, "cost"), None


def _same_models(given: pd.Index, models: pd.Index, noun: str, needs: str) -> None:
    """Refuse costs of models the frame lacks, or a model without its cost."""
    unknown = [m for m in given if m not in models]
    if unknown:
        msg = f"`cost` names models the frame does not have: {unknown}."
        raise ValueError(msg)
    missing = [m for m in models if m not in given]
    if missing:
        msg = f"`cost` has no {noun} for the models {missing}: every model needs {needs}."
        raise ValueError(msg)


def _checked(values: np.ndarray, models: pd.Index, what: str) -> np.ndarray:
    if np.isnan(values).any():
        bad = list(models[np.isnan(values)])
        msg = f"`cost` ({what}) is missing or not a number (NaN) for {bad}: every model needs one."
        raise ValueError(msg)
    return values


def _better_matrix(
    result: pd.DataFrame, models: pd.Index, reverse: pd.DataFrame | None
) -> np.ndarray:
    """P[k, m]: the one-sided p-value of "k is better than m", for every ordered pair."""
    first = models.get_indexer(result["model_1"])
    second = models.get_indexer(result["model_2"])
    p = np.full((len(models), len(models)), np.nan)
    p[first, second] = result["pvalue"].to_numpy(dtype=float)
    if reverse is None:
        # A t or z statistic is continuous: the other direction's p-value is 1 - p, but for
        # identical models (p = 1 either way: they do not differ).
        forward = p[first, second]
        difference = result["auc_diff" if "auc_diff" in result else "mean_diff"]
        same = (forward == 1.0) & (difference.to_numpy(dtype=float) == 0.0)
        p[second, first] = np.where(same, 1.0, 1.0 - forward)
    else:
        p[second, first] = reverse["pvalue"].to_numpy(dtype=float)
    return p


def _one_sided(frame, function, test, alpha, y, design):
    """Every ordered pair's one-sided p-value of "model_1 better than model_2", one call a side."""
    options: dict[str, Any] = {"alpha": alpha, "correction": None, **design}
    if test in ("delong", "permutation_test"):
        options["y"] = y
    if test == "permutation_test":
        options.update(score="accuracy", random_state=0)
    check_call_keywords(function, options, f"`pareto` (resting on `{test}`)")
    better = function(frame, ALL_PAIRS, alternative="better", **options)
    reverse = None
    if test == "permutation_test":  # discrete: the other direction is its own test
        reverse = function(frame, ALL_PAIRS, alternative="worse", **options)
    return better, reverse


def _adjusted_rows(p: np.ndarray, member: np.ndarray, correction: str | None) -> np.ndarray:
    """Each row's p-values of its members corrected over its members (NaN elsewhere)."""
    out = np.full(p.shape, np.nan)
    for m in np.flatnonzero(member.any(axis=1)):
        columns = np.flatnonzero(member[m])
        out[m, columns] = adjust_pvalues(p[m, columns], correction)
    return out


@comparison("pareto")
def pareto(
    frame: pd.DataFrame,
    cost: Any,
    *,
    lower_cost_is_better: bool = True,
    alpha: float = 0.05,
    correction: str | None = "holm",
    y: Any = "y",
    **design: Any,
) -> pd.DataFrame:
    """The Pareto front of score against cost, each domination decided by the frame's test.

    Models are decided in order of cost, cheapest first. A model is
    ``"dominated"`` when some model that costs no more is significantly
    better on the score (the frame's one-sided test, ``alternative="better"``,
    corrected over the models that cost no more than it); ``"front"`` when no
    model is better on the point estimates at no more cost and it is
    significantly better than every cheaper model on the point front (front
    or ambiguous; ``correction`` over them), so that a dearer model truly no
    better than a cheaper one is "front" at most ``alpha`` of the time;
    ``"ambiguous"`` otherwise: dominated on the point estimates but not
    significantly, or on the point front but not significantly better than a
    cheaper model on it (its extra cost buys nothing the data can show). "Not dominated" is not
    "as good": an ambiguous model may be worse, undetectably so.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame (models x CV splits; needs the CV design, section 3),
        a ``cv_results_`` frame, a runs frame, an items frame, or a
        predictions frame (truth column ``y``).
    cost : pandas.Series, pandas.DataFrame or str
        One cost per model (a Series indexed by model name), per-split costs
        (a frame with the frame's split columns: paired with the scores, a
        model costs no more than another when its cost is significantly lower
        by the same one-sided paired test, uncorrected), or on a
        ``cv_results_`` frame the name of one of its columns
        (``"mean_fit_time"``, ``"mean_score_time"``).
    lower_cost_is_better : bool, default True
        False for costs that are gains (a larger value is better).
    alpha : float, default 0.05
        Level of every decision.
    correction : str or None, default "holm"
        Correction over the models that cost no more than the one decided,
        and over the cheaper models on the point front a "front" model must
        beat.
    y : str, default "y"
        The truth column of a predictions frame.
    **design
        ``cv=``, ``test_size=``, ``n_train=``, ``n_test=``,
        ``greater_is_better=``; on a ``cv_results_`` frame ``metric=``,
        ``names=``, ``iteration=``.

    Returns
    -------
    pandas.DataFrame
        Indexed by model, best score first: ``score`` (the mean score, or the
        AUC or accuracy of predictions), ``cost`` (the mean for per-split
        costs), ``status``, ``dominated_by`` (the dominating models, joined by
        "; "), ``pvalue`` (the smallest corrected p-value among the models that
        cost no more; NaN when none does), then ``ci_low, ci_high``: the score's
        interval at 1 - alpha (the frame's ``summary``, ``auc_ci`` or
        ``accuracy_ci``). ``attrs["pdcompare"]`` names the test, the
        correction and alpha.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> folds = rng.normal(0, 0.01, 20)
    >>> scores = pd.DataFrame(
    ...     [0.90 + folds + rng.normal(0, 0.005, 20), 0.89 + folds + rng.normal(0, 0.005, 20),
    ...      0.85 + folds + rng.normal(0, 0.005, 20)], index=["A", "B", "C"])
    >>> cost = pd.Series({"A": 10.0, "B": 1.0, "C": 2.0})
    >>> res = scores.cmp.pareto(cost, cv=5)
    >>> res[["cost", "status", "dominated_by"]]
           cost     status dominated_by
    model
    A      10.0      front
    B       1.0      front
    C       2.0  dominated            B
    """
    check_frame(frame)
    alpha = check_fraction("alpha", alpha)
    correction = check_correction(correction)
    search = {key: design[key] for key in SEARCH_KEYWORDS if key in design}
    original = frame
    scores, design = converted_search(frame, design)
    test, function, kind = _frame_test(scores, y)
    better, reverse = _one_sided(scores, function, test, alpha, y, design)
    meta = pdcompare_attrs(better)
    models = pd.Index(meta["models"])
    if kind == "predictions":
        score_column = "auc_1" if test == "delong" else "score_1"
        first = better.drop_duplicates("model_1").set_index("model_1")[score_column]
        second = better.drop_duplicates("model_2").set_index("model_2")
        score = first.combine_first(second[score_column[:-1] + "2"])
        score = score.loc[models].to_numpy(dtype=float)
    else:
        score = scores.loc[models].mean(axis=1).to_numpy(dtype=float)
    low, high = _score_intervals(scores, models, test, kind, alpha, y, design)
    mean_cost, per_split = _cost_values(original, cost, models, search, kind)
    p = _better_matrix(better, models, reverse)
    sign = 1.0 if lower_cost_is_better else -1.0
    if per_split is None:
        ranked_cost = sign * mean_cost
        no_more = ranked_cost[:, None] <= ranked_cost[None, :]  # [k, m]: k costs no more than m
        cheaper = ranked_cost[:, None] < ranked_cost[None, :]
    else:
        lower = _cost_is_lower(per_split * sign, models, scores, alpha, design, kind)
        no_more = cheaper = lower
    np.fill_diagonal(no_more, False)
    np.fill_diagonal(cheaper, False)
    direction = bool(meta.get("greater_is_better", True))
    scored = score if direction else -score
    # [m, k]: the test of k better than m, over the models k that cost no more than m.
    adjusted = _adjusted_rows(p.T, no_more.T, correction)
    rejected = adjusted < alpha
    order = np.argsort(sign * mean_cost, kind="stable")
    status = _statuses(order, rejected, no_more, cheaper, scored, p, alpha, correction)
    names = [str(name) for name in models]  # one pass over the (Arrow) names
    dominated_by = [
        "; ".join(names[k] for k in np.flatnonzero(rejected[m])) for m in range(len(models))
    ]
    smallest = np.min(np.where(no_more.T, np.nan_to_num(adjusted, nan=np.inf), np.inf), axis=1)
    pvalue = np.where(no_more.T.any(axis=1), smallest, np.nan)
    out = pd.DataFrame(
        {
            "score": score,
            "cost": mean_cost,
            "status": pd.Categorical(status, categories=STATUSES),
            "dominated_by": dominated_by,
            "pvalue": pvalue,
            "ci_low": low,
            "ci_high": high,
        },
        index=pd.Index(models, name="model"),
    )
    best_first = np.argsort(-scored, kind="stable")
    out = out.iloc[best_first]
    info = {
        "kind": "result",
        "test": "pareto",
        "score_test": test,
        "alpha": alpha,
        "correction": correction,
        "alternative": "better",
        "lower_cost_is_better": bool(lower_cost_is_better),
        "per_split_costs": per_split is not None,
        "greater_is_better": direction,
        "models": [str(name) for name in out.index],
        "design": meta.get("design", {}),
        "unit": meta.get("unit"),
    }
    for key in ("clustered", "cluster_name", "n_clusters", "n_items"):  # an items frame's words
        if key in meta:
            info[key] = meta[key]
    return with_attrs(out, info)


def _statuses(order, rejected, no_more, cheaper, scored, p, alpha, correction) -> np.ndarray:
    """Each model's status, deciding in order of cost, cheapest first (DESIGN 25 and 35).

    "front" needs no model better on the point estimates at no more cost, and the
    model significantly better than every cheaper model on the point front (front
    or ambiguous, not dominated), ``correction`` (Holm) over them: a dearer model
    truly no better than a cheaper ambiguous one is then "front" at most alpha of
    the time.
    """
    status = np.empty(scored.size, dtype=object)
    point_front = np.zeros(scored.size, dtype=bool)
    for m in order:
        ahead = no_more[:, m] & ((scored > scored[m]) | ((scored == scored[m]) & cheaper[:, m]))
        point_front[m] = not ahead.any()
        if rejected[m].any():
            status[m] = "dominated"
            continue
        rivals = np.flatnonzero(cheaper[:, m] & point_front & (status != "dominated"))
        beats_all = rivals.size == 0 or bool(
            np.all(adjust_pvalues(p[m, rivals], correction) < alpha)
        )
        status[m] = "front" if point_front[m] and beats_all else "ambiguous"
    return status


def _score_intervals(scores, models, test, kind, alpha, y, design):
    """Each model's score interval at 1 - alpha, as its picture draws it."""
    if kind == "predictions":
        if test == "delong":
            table = auc_ci(scores, y=y, ci=1 - alpha)
        else:
            table = accuracy_ci(scores, y=y, ci=1 - alpha)
    else:
        table = summary(scores, ci=1 - alpha, **design)
    table = table.loc[models]
    return table["ci_low"].to_numpy(dtype=float), table["ci_high"].to_numpy(dtype=float)


def _cost_is_lower(
    costs: np.ndarray,
    models: pd.Index,
    scores: pd.DataFrame,
    alpha: float,
    design: dict,
    kind: str,
) -> np.ndarray:
    """[k, m]: the per-split costs of k are significantly lower than m's (one-sided, paired).

    The costs share the scores' splits, so they are tested with the scores frame's
    design (stored or given): its CV design for the corrected t, its items.
    """
    frame = pd.DataFrame(-costs, index=models, columns=scores.columns)  # lower cost: "greater"
    meta = pdcompare_attrs(scores)
    if "design" in meta:
        meta["design"] = {**meta["design"], "greater_is_better": True}
        frame = with_attrs(frame, meta)
    function = corrected_ttest if kind == "scores" else ttest
    options = {key: value for key, value in design.items() if key != "greater_is_better"}
    result = function(frame, ALL_PAIRS, alternative="greater", correction=None, **options)
    p = _better_matrix(result, models, None)
    return p < alpha
