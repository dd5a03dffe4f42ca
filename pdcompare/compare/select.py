"""Choosing a model on evidence: the simplest model the data cannot tell from the best."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_fraction, check_option, check_rope
from pdcompare.compare._common import refuse_benchmark
from pdcompare.compare.calls import frame_function, refusal
from pdcompare.inputs.attrs import stored_attr
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.design import require_ratio, resolve_design
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.scores import converted_search, scores_frame
from pdcompare.stats import bayes as core
from pdcompare.stats.paired import paired_ttest
from pdcompare.stats.summary import summarize

K = FrameKind

#: The rules of ``select`` and ``refit_rule``.
RULES = ("best", "one_se", "not_worse", "equivalent")


def _parameters(frame: pd.DataFrame, converted: pd.DataFrame) -> dict[Hashable, dict] | None:
    """Each model's parameter dict, as ``scores``/``from_search`` keep it in attrs."""
    return stored_attr(converted, "params") or stored_attr(frame, "params")


def _complexity(by: Any, names: pd.Index, params: dict | None) -> np.ndarray:
    """Complexity of every model from ``by`` (larger = more complex unless ``ascending=False``)."""
    if isinstance(by, str) or callable(by):
        if params is None:
            msg = (
                f"`by`={by!r} needs each model's parameters, and this frame has none: pass a "
                "cv_results_ frame or a frame from `pdcompare.from_search`, or give `by` as a "
                "list of model names (simplest first) or a mapping model -> complexity."
            )
            raise ValueError(msg)
        values = []
        for name in names:
            model_params = params.get(name, {})
            # "C" names the parameter of a pipeline step too ("logisticregression__C").
            keys = (
                [by]
                if by in model_params
                else [
                    k for k in model_params if isinstance(k, str) and k.rsplit("__", 1)[-1] == by
                ]
            )
            if callable(by):
                values.append(by(dict(model_params)))
            elif len(keys) == 1:
                values.append(model_params[keys[0]])
            else:
                known = sorted({k for p in params.values() for k in p})
                what = "several parameters named" if keys else "no parameter"
                msg = (
                    f"`by`: model {name!r} has {what} {by!r}; the parameters are "
                    f"{', '.join(map(repr, known))}."
                )
                raise ValueError(msg)
        complexity = pd.Series(values, index=names)
    elif isinstance(by, Mapping | pd.Series):
        complexity = pd.Series(by)
        missing = [name for name in names if name not in complexity.index]
        if missing:
            msg = f"`by` gives no complexity for model(s) {missing[:10]!r}; give every model one."
            raise ValueError(msg)
        complexity = complexity.reindex(names)
    elif isinstance(by, Sequence) and not isinstance(by, bytes):
        order = list(by)
        position = {name: k for k, name in enumerate(order)}
        if len(position) < len(order):
            msg = "`by`: a list of models, simplest first, names each model once."
            raise ValueError(msg)
        missing = [name for name in names if name not in position]
        unknown = [name for name in order if name not in set(names)]
        if missing or unknown:
            msg = (
                "`by` must list every model of the frame once, simplest first; "
                f"missing: {missing[:10]!r}, unknown: {unknown[:10]!r}."
            )
            raise ValueError(msg)
        complexity = pd.Series([position[name] for name in names], index=names)
    else:
        msg = (
            "`by` must be a parameter name, a list of model names (simplest first), a mapping "
            f"or Series model -> complexity, or a callable of the parameter dict; got {by!r}."
        )
        raise TypeError(msg)
    try:
        return complexity.to_numpy(dtype=float)
    except (TypeError, ValueError):
        msg = (
            f"`by`: the complexities must be numbers; got {complexity.tolist()[:5]!r}. "
            "Give a list of model names simplest first, or a callable returning numbers."
        )
        raise TypeError(msg) from None


@frame_function("select", (K.SCORES, K.RUNS, K.ITEMS))
def select(
    scores: pd.DataFrame,
    rule: str = "one_se",
    *,
    by: Any,
    ascending: bool = True,
    alpha: float = 0.05,
    rope: float | None = None,
    metric: str | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Choose the simplest model that the evidence cannot tell from the best one.

    A grid search keeps the model with the best mean, even when a simpler
    one is statistically indistinguishable from it. ``select`` orders the
    models by complexity and picks the simplest one that ``rule`` accepts.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores frame: one row per model, one column per CV split (or a
        ``cv_results_`` frame, converted first).
    rule : {"one_se", "not_worse", "equivalent", "best"}, default "one_se"
        - "best": the best mean (scikit-learn's default refit);
        - "one_se": the simplest model whose mean is within one corrected
          standard error of the best mean, ``sd · sqrt(1/n + n_test/n_train)``
          with ``sd`` the standard deviation (ddof=1) of the best model's
          fold scores and ``n`` the number of splits (Breiman's rule, made
          honest for CV);
        - "not_worse": the simplest model that the one-sided corrected
          t-test against the best does not find worse at ``alpha``;
        - "equivalent": the simplest model that the correlated Bayesian
          t-test finds practically equivalent to the best or better:
          ``P(best − model < rope) >= 1 − alpha`` (needs ``rope``).
    by : str, list, mapping, Series or callable
        The models' complexity: a parameter name (``"C"``: its values, from
        the parameters stored by ``from_search``/``scores()`` or a
        ``cv_results_`` frame), a list of model names simplest first, a
        mapping or Series model -> complexity, or a callable of the
        parameter dict.
    ascending : bool, default True
        Whether smaller values of ``by`` are simpler (False: larger are
        simpler, as for a regularisation strength like ``alpha``).
    alpha : float, default 0.05
        Level of the "not_worse" test; probability threshold ``1 − alpha``
        of "equivalent".
    rope : float, optional
        Half-width of the region of practical equivalence (score units),
        for "equivalent".
    metric : str, optional
        The metric of a multi-metric ``cv_results_`` frame.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=`` (needed by
        every rule but "best" unless stored), and ``greater_is_better=``.

    Returns
    -------
    pandas.DataFrame
        Indexed by model, simplest first (ties in complexity broken by the
        better mean): ``mean``, ``diff_to_best`` (how far the mean is behind
        the best's, >= 0 in either direction), ``eligible`` (accepted by the
        rule), ``selected`` (exactly one True), then ``complexity``,
        ``ci_low`` and ``ci_high`` (the corrected interval of the mean;
        the plain t interval for "best" without a design).
        ``attrs["pdcompare"]`` holds the rule, the best and the selected
        model, the threshold, a sentence saying why (``reason``) and the
        kind of ``interval`` ("nadeau-bengio" or "t").

    Notes
    -----
    The standard error of "one_se" is the Nadeau–Bengio corrected one: the
    plain ``sd / sqrt(n)`` that scikit-learn's gallery example uses ignores
    that CV folds share training data and makes the rule too strict (it
    keeps models that are not distinguishable from the best out).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> scores = pd.DataFrame(
    ...     [[0.80, 0.84, 0.82, 0.78, 0.81], [0.86, 0.84, 0.85, 0.83, 0.87],
    ...      [0.90, 0.84, 0.88, 0.83, 0.85]],
    ...     index=["C=0.01", "C=1", "C=100"])
    >>> out = pdcompare.select(scores, "one_se", by=["C=0.01", "C=1", "C=100"], cv=5)
    >>> out[["mean", "diff_to_best", "eligible", "selected"]].round(3)
            mean  diff_to_best  eligible  selected
    model
    C=0.01  0.81          0.05     False     False
    C=1     0.85          0.01      True      True
    C=100   0.86          0.00      True     False
    >>> print(out.attrs["pdcompare"]["reason"])
    C=1 is the simplest model within one corrected standard error (0.0196) of the best, C=100.

    Compare with the rule written out: the best's standard deviation times
    ``sqrt(1/n + n_test/n_train)``, with 5-fold CV's ratio 1/4:

    >>> round(float(scores.loc["C=100"].std() * (1 / 5 + 1 / 4) ** 0.5), 4)
    0.0196
    """
    check_option("rule", rule, RULES)
    alpha = check_fraction("alpha", alpha)
    if not isinstance(ascending, bool | np.bool_):
        msg = f"`ascending` must be True or False; got {ascending!r}."
        raise TypeError(msg)
    if rule == "equivalent" and rope is None:
        msg = "`rope` is needed by the 'equivalent' rule: the half-width of practical equivalence."
        raise ValueError(msg)
    converted, _ = converted_search(scores, {"metric": metric})
    if rule != "best" and frame_kind(converted) is FrameKind.RUNS:
        raise ValueError(refusal(f"select(rule={rule!r})", FrameKind.RUNS, (FrameKind.SCORES,)))
    data = scores_data(converted, **design)
    refuse_benchmark(data, "select")
    # "best" needs no design, but its interval is the corrected one whenever it is known.
    if rule == "best":
        ratio = data.design.test_train_ratio
    else:
        ratio = require_ratio(data.design, f"select(rule={rule!r})")
    names = data.names
    complexity = _complexity(by, names, _parameters(scores, converted))
    gib = data.design.greater_is_better
    table = summarize(
        data.values, test_train_ratio=ratio, greater_is_better=gib, confidence=1 - alpha
    )
    mean = table["mean"]
    best = int(data.order[0])
    behind = (mean[best] - mean) if gib else (mean - mean[best])
    threshold: float | None = None
    if rule == "best":
        eligible = behind == 0.0
        why = "has the best mean"
    elif rule == "one_se":
        values = data.values[best]
        present = values[~np.isnan(values)]
        threshold = float(np.std(present, ddof=1) * np.sqrt(1.0 / present.size + ratio))
        eligible = behind <= threshold
        why = f"within one corrected standard error ({threshold:.3g}) of the best"
    elif rule == "not_worse":
        eligible = _not_worse(data, best, ratio, alpha)
        why = f"not significantly worse than the best (one-sided corrected t-test, alpha {alpha})"
    else:
        eligible = _equivalent(data, best, ratio, rope, alpha)
        threshold = float(rope)
        why = (
            f"practically equivalent to the best (P(difference < {rope:g}) >= {1 - alpha:g}, "
            "correlated Bayesian t-test)"
        )
    eligible = np.asarray(eligible, dtype=bool)
    eligible[best] = True
    key = complexity if ascending else -complexity
    order = np.lexsort((np.where(np.isnan(behind), np.inf, behind), key))
    chosen = next(k for k in order if eligible[k])
    selected = np.zeros(len(names), dtype=bool)
    selected[chosen] = True
    if chosen == best:
        reason = f"{names[best]} is the best model and the simplest one the rule accepts."
    else:
        reason = f"{names[chosen]} is the simplest model {why}, {names[best]}."
    columns = {
        "mean": mean,
        "diff_to_best": behind,
        "eligible": eligible,
        "selected": selected,
        "complexity": complexity,
        "ci_low": table["ci_low"],
        "ci_high": table["ci_high"],
    }
    meta = results.result_meta(
        "select",
        rule=rule,
        by=by if isinstance(by, str) else None,
        ascending=bool(ascending),
        alpha=alpha,
        rope=rope,
        threshold=threshold,
        best=names[best],
        selected=names[chosen],
        reason=reason,
        interval="t" if ratio is None else "nadeau-bengio",
        design=data.design.to_attrs(),
        greater_is_better=gib,
        models=names[order].tolist(),
    )
    return results.model_result(names, columns, meta).iloc[order]


def _not_worse(data: Any, best: int, ratio: float, alpha: float) -> np.ndarray:
    """Whether the one-sided corrected t-test of best − model fails to reject at ``alpha``."""
    others = np.array([k for k in range(len(data.names)) if k != best], dtype=np.intp)
    out = paired_ttest(
        data.values,
        np.full(others.size, best),
        others,
        test_train_ratio=ratio,
        alternative="greater" if data.design.greater_is_better else "less",
        confidence=1 - alpha,
        nan_policy="omit",
    )
    eligible = np.ones(len(data.names), dtype=bool)
    eligible[others] = ~(out["pvalue"] <= alpha)
    return eligible


def _equivalent(data: Any, best: int, ratio: float, rope: float, alpha: float) -> np.ndarray:
    """Whether ``P(best − model < rope) >= 1 − alpha`` (better-direction), per model."""
    low, high = check_rope(rope)
    others = np.array([k for k in range(len(data.names)) if k != best], dtype=np.intp)
    out = core.bayes_pairs(
        data.values,
        np.full(others.size, best),
        others,
        test_train_ratio=ratio,
        rope=(low, high),
        confidence=0.95,
        alpha=alpha,
        greater_is_better=data.design.greater_is_better,
        nan_policy="omit",
    )
    eligible = np.ones(len(data.names), dtype=bool)
    # prob_better is P(best better than the model by more than the rope).
    eligible[others] = (1.0 - out["prob_better"]) >= 1.0 - alpha
    return eligible


def refit_rule(
    rule: str = "one_se",
    *,
    by: Any,
    ascending: bool = True,
    cv: Any = None,
    test_size: float | None = None,
    n_train: int | None = None,
    n_test: int | None = None,
    metric: str | None = None,
    alpha: float = 0.05,
    rope: float | None = None,
) -> Callable[[dict], int]:
    """A ``refit=`` callable for scikit-learn searches that chooses as :func:`select` does.

    ``GridSearchCV(..., refit=pdcompare.refit_rule("one_se", by="C", cv=10))``
    makes ``best_index_`` and ``best_estimator_`` the model ``select`` would
    choose on the search's ``cv_results_`` with that design.

    Parameters
    ----------
    rule : {"one_se", "not_worse", "equivalent", "best"}, default "one_se"
        See :func:`select`.
    by, ascending, alpha, rope
        See :func:`select`.
    cv, test_size, n_train, n_test
        The design of the search's cross-validation (the callable cannot see
        ``search.cv``): the same ``cv`` you give the search, or the sizes.
        Needed by every rule but "best".
    metric : str, optional
        The metric to choose by in a multi-metric search (the key of its
        ``scoring`` dict), as a ``refit`` string would name it.

    Returns
    -------
    callable
        ``cv_results_ dict -> int``, the index of the chosen candidate.

    Raises
    ------
    ValueError
        When ``rule`` is not "best" and no design is given, or ``rope`` is
        missing for "equivalent" (at once, not when the search is fitted).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> import pdcompare
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression())
    >>> grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1, 10]}
    >>> search = GridSearchCV(model, grid, cv=5, refit=pdcompare.refit_rule(
    ...     "one_se", by="C", cv=5)).fit(X, y)
    >>> search.best_params_
    {'logisticregression__C': 0.1}
    """
    check_option("rule", rule, RULES)
    alpha = check_fraction("alpha", alpha)
    design = {
        key: value
        for key, value in {
            "cv": cv,
            "test_size": test_size,
            "n_train": n_train,
            "n_test": n_test,
        }.items()
        if value is not None
    }
    if rule != "best" and not design:
        msg = (
            f"`refit_rule({rule!r})` needs the design of the search's cross-validation: pass "
            "`cv=` (the same cv as the search), `test_size=`, or `n_train=` with `n_test=`."
        )
        raise ValueError(msg)
    if rule == "equivalent" and rope is None:
        msg = "`rope` is needed by the 'equivalent' rule: the half-width of practical equivalence."
        raise ValueError(msg)
    if design:
        resolve_design(None, **design)  # a bad design fails now, not inside fit

    def choose(cv_results: dict) -> int:
        frame = pd.DataFrame(cv_results)
        chosen = select(
            frame,
            rule,
            by=by,
            ascending=ascending,
            alpha=alpha,
            rope=rope,
            metric=metric,
            **design,
        )
        converted = scores_frame(frame, metric=metric)
        position = int(converted.index.get_loc(chosen.attrs["pdcompare"]["selected"]))
        # The cv_results_ row of each model, where the frame keeps a subset of the rows
        # (the last iteration of a successive-halving search).
        rows = stored_attr(converted, "rows")
        return position if rows is None else int(rows[position])

    return choose
