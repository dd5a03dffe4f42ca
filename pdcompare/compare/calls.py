"""Where every public call begins: the shared keywords checked, the frame's kind decided once.

Each public function of a frame is declared with :func:`comparison` (a test of
the registry) or :func:`frame_function` (the frame's summary, selection and
the like). Before the function runs, its call is checked in one order, the
same for every kind of frame: the frame is a DataFrame; the keywords every
family shares (``nan_policy``, ``alternative``, ``alpha``, the correction,
``random_state``, ``ci``) hold allowed values; the frame's kind
(:func:`~pdcompare.inputs.kinds.frame_kind`) is one the function takes, or
the call is refused with one sentence naming what to use. The kind is
decided once: inside the call ``frame_kind(frame)`` reads it back.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pdcompare._validation import (
    NAN_POLICIES,
    OptionError,
    check_correction,
    check_fraction,
    check_nan_policy,
    check_option,
    check_random_state,
)
from pdcompare.compare._common import ALTERNATIVES
from pdcompare.compare.registry import BY_NAME, TESTS
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.kinds import FrameKind, accepts, deciding
from pdcompare.inputs.labels import ESTIMATORS
from pdcompare.inputs.predictions import WeightedPredictions
from pdcompare.inputs.scores import check_scores_labels, predictions_frame_message
from pdcompare.stats.cr2 import SE_TYPES

F = TypeVar("F", bound=Callable[..., Any])
K = FrameKind

#: The kinds of frames of scores, whose labels are checked before their kind is refused.
_SCORES_KINDS = (K.SCORES, K.BENCHMARK, K.RUNS, K.TASK_RUNS)

#: The keywords whose values every family checks alike, before it looks at the frame.
SHARED_KEYWORDS = ("nan_policy", "alternative", "alpha", "correction", "random_state", "ci")


def check_shared_keywords(
    keywords: Mapping[str, Any],
    *,
    correction_keyword: str | None = "correction",
    corrections: Sequence[str | None] | None = None,
    nan_policies: Sequence[str] = NAN_POLICIES,
    none_allowed: frozenset[str] = frozenset(),
) -> None:
    """Refuse a shared keyword's value by name, the same way for every function and frame.

    Only the keywords present in ``keywords`` are checked (a default is
    valid by construction); ``none_allowed`` names those whose default is
    None, for which None is a valid value.

    Examples
    --------
    >>> check_shared_keywords({"alpha": 0.05, "nan_policy": "omit"})
    >>> check_shared_keywords({"alternative": "sideways"})
    Traceback (most recent call last):
    ...
    pdcompare._validation.OptionError: `alternative` must be one of 'two-sided', ...
    """
    if "nan_policy" in keywords:
        check_nan_policy(keywords["nan_policy"], nan_policies)
    if "alternative" in keywords:
        check_option("alternative", keywords["alternative"], ALTERNATIVES)
    for name in ("alpha", "ci"):
        if name in keywords and not (keywords[name] is None and name in none_allowed):
            check_fraction(name, keywords[name])
    if correction_keyword is not None and correction_keyword in keywords:
        value = keywords[correction_keyword]
        if corrections is not None:
            check_option(correction_keyword, value, tuple(corrections))
        elif not (isinstance(value, str) and value == "default"):
            check_correction(value, correction_keyword)
    if keywords.get("random_state") is not None:
        check_random_state(keywords["random_state"])
    if keywords.get("estimator") is not None:  # a labelled items frame's (inputs/labels.py)
        check_option("estimator", keywords["estimator"], ESTIMATORS)
    if keywords.get("se") is not None:  # the clustered standard error of items tests
        check_option("se", keywords["se"], SE_TYPES)


def _what_to_use(kind: FrameKind) -> str:
    """The registry's tests of this kind, for a refusal: "`ttest`, `wilcoxon` or `sign_test`"."""
    names = [test.name for test in TESTS if kind in test.pairwise][:4]
    if not names:
        names = [test.name for test in TESTS if test.accepts(kind)][:4]
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _kinds_words(kinds: Sequence[FrameKind]) -> str:
    words = [kind.words for kind in kinds]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def refusal(
    name: str, kind: FrameKind, kinds: Sequence[FrameKind], frame: Any = None, y: Any = "y"
) -> str:
    """One sentence: why ``name`` does not take a frame of ``kind``, and what to use instead.

    Examples
    --------
    >>> import pandas as pd
    >>> print(refusal("mcm", FrameKind.ITEMS, (FrameKind.BENCHMARK,), None, "y"))
    ... # doctest: +NORMALIZE_WHITESPACE
    `mcm` compares models across data sets and needs a benchmark frame with (dataset, split)
    columns (a MultiIndex whose first level is named 'dataset') or one column per data set
    (an Index named 'dataset'); this is an items frame (models x questions of an evaluation).
    Build one with `pdcompare.from_long(...)` or `table.rename_axis(columns='dataset')`; on
    this frame use `ttest`, `wilcoxon`, `sign_test` or `equivalence`.
    """
    what = f"`{name}`"
    if kind is K.BATTLES:
        return (
            "This is a battles frame (wins of row over column, from `from_battles`), not "
            "scores: rate it with `bradley_terry()`, `win_probability()` or `pairwise()`."
        )
    if kind is K.RESULT:
        return (
            f"{what} compares the models of a frame of scores, and this is {kind.words}: run "
            "it on the frame the result came from; show a result with `.cmp.style()`, "
            "`.cmp.plot()` or `.cmp.matrix()`."
        )
    if tuple(kinds) == (K.ITEMS,):
        return (
            f"{what} reads an items frame (models x questions of an evaluation, in the order "
            f"they were scored); this is {kind.words}. Build one with "
            "`pdcompare.from_items(table)` or `df.cmp.set_design(items=True)`."
        )
    if tuple(kinds) == (K.BATTLES,):
        return (
            f"{what} rates the models of a battles frame, which is square with the same "
            "models, in the same order, as its index and its columns (row i, column j: wins "
            f"of i over j); this is {kind.words}, with {frame.shape[0]} rows and "
            f"{frame.shape[1]} columns. Build one with `pdcompare.from_battles(table)` from "
            f"one row per battle; on this frame use {_what_to_use(kind)}."
        )
    if kind in (K.RUNS, K.TASK_RUNS) and (K.SCORES in kinds or K.BENCHMARK in kinds):
        unpaired = ", ".join(f"`{test.name}`" for test in TESTS if test.unpaired)
        return (
            f"{what} is a paired test: it compares two models split by split, but this is a "
            "runs frame (its design says paired=False: run k of one model has nothing to do "
            f"with run k of another). Use the unpaired tests {unpaired}, for example "
            "`df.cmp.pairwise(test='welch_ttest')`; or `set_design(paired=True)` if the "
            "columns are CV splits shared by every model."
        )
    if kind in (K.PREDICTIONS, K.FORECASTS):
        return predictions_frame_message(frame, y, what)
    if K.PREDICTIONS in kinds and not any(taken in _SCORES_KINDS for taken in kinds):
        shown = ", ".join(repr(column) for column in list(frame.columns)[:10])
        return (
            f"`y`: the predictions frame has no truth column {y!r}; its columns are {shown}. "
            f"Pass `y=` with the name of the column of true labels ({what} compares "
            f"predictions with the truth); on {kind.words} use {_what_to_use(kind)}."
        )
    if kind is K.ITEMS and K.SCORES in kinds:
        return (
            f"{what} corrects for CV splits that share training data, but this is an items "
            "frame (its columns are questions scored for every model, sharing no training "
            "data). Use `ttest` (paired over items, clustered when the frame has clusters)."
        )
    if kind is K.BENCHMARK and K.SCORES in kinds:
        if K.PREDICTIONS in kinds:  # a gate or a trade-off: one evaluation, not its folds
            return (
                f"{what} weighs models on one evaluation; this is a benchmark frame (several "
                "data sets). Run it on one data set's scores (`df[name]`), or compare across "
                f"data sets with {_what_to_use(kind)}."
            )
        return (
            f"{what} compares models on the folds of one data set; this is a benchmark "
            "frame (several data sets). Use `per_dataset(test=...)` to run it within every "
            "data set, or `random_effects()` to pool the data sets' corrected differences; "
            "across data sets use `wilcoxon`, `sign_test`, `friedman` or "
            "`pairwise(test='nemenyi')`."
        )
    if tuple(kinds) == (K.TASK_RUNS,):
        if kind is K.BENCHMARK:
            return (
                f"{what} resamples runs within tasks, and this benchmark frame is paired (its "
                "columns are CV splits shared by the models). If its columns are independent "
                "runs (seeds), mark them with `frame.cmp.set_design(paired=False)`, or build "
                "the frame with `from_long(..., paired=False)`."
            )
        return (
            f"{what} compares runs over tasks: a benchmark frame with columns `(dataset, "
            "split)` (task, run) whose design says `paired=False`; this is "
            f"{kind.words}. Build one with `pdcompare.from_long(table, model=..., "
            "dataset='task', split='seed', score=..., paired=False)`, "
            "`pdcompare.from_rliable(score_dict)`, or `frame.cmp.set_design(paired=False)` on "
            "a `(dataset, split)` frame."
        )
    if K.BENCHMARK in kinds and set(kinds) <= {K.BENCHMARK, K.TASK_RUNS}:
        if name in BY_NAME and BY_NAME[name].folds:
            return (
                f"{what} models the folds of every data set: it needs a benchmark frame with "
                "(dataset, split) columns (a MultiIndex whose first level is named "
                f"'dataset'); this is {kind.words}. Build one with "
                "`pdcompare.from_long(table, split=...)` or `pd.concat({name: scores, ...}, "
                "axis=1, names=['dataset', 'split'])`."
            )
        return (
            f"{what} compares models across data sets and needs a benchmark frame with "
            "(dataset, split) columns (a MultiIndex whose first level is named 'dataset') "
            f"or one column per data set (an Index named 'dataset'); this is {kind.words}. "
            "Build one with `pdcompare.from_long(...)` or "
            f"`table.rename_axis(columns='dataset')`; on this frame use {_what_to_use(kind)}."
        )
    return (
        f"{what} takes {_kinds_words(kinds)}; this is {kind.words}: on it use "
        f"{_what_to_use(kind)}."
    )


def _estimator_refusal(estimator: Any, kind: FrameKind) -> OptionError:
    """``estimator=`` on a frame that is not an items frame: it needs human labels (DESIGN 31)."""
    msg = (
        f"`estimator={estimator!r}` corrects a judge's item scores with human labels, but this "
        f"is {kind.words}: build a labelled items frame with `from_items(..., human=)` or "
        "`set_design(items=True, human=...)`, or leave out `estimator`."
    )
    return OptionError(msg, keyword="estimator")


def _se_refusal(se: Any, kind: FrameKind) -> OptionError:
    """``se=`` on a frame that is not an items frame: it chooses a clustered error (DESIGN 33)."""
    msg = (
        f"`se={se!r}` chooses the clustered standard error of an items frame (CR2 or CR1 over "
        f"its clusters of items), but this is {kind.words}, which has no clusters: leave out "
        "`se`, or build an items frame with `from_items(..., cluster=)`."
    )
    return OptionError(msg, keyword="se")


def checked_call(function: F, name: str, kinds: Sequence[FrameKind], **checks: Any) -> F:
    """``function`` with the shared keywords and the frame's kind checked first, as one call.

    ``checks`` are :func:`check_shared_keywords`'s options. The frame is the
    first positional argument (or the keyword of the function's first parameter).
    """
    parameters = inspect.signature(function).parameters
    first = next(iter(parameters))
    none_allowed = frozenset(
        key for key in ("alpha", "ci") if key in parameters and parameters[key].default is None
    )
    kinds = tuple(kinds)

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        frame = args[0] if args else kwargs.get(first)
        if not isinstance(frame, WeightedPredictions):
            check_frame(frame)
        check_shared_keywords(kwargs, none_allowed=none_allowed, **checks)
        truth = kwargs.get("y")
        truth = "y" if truth is None else truth
        with deciding(frame, truth) as kind:
            if not accepts(kinds, kind):
                if kind in _SCORES_KINDS:  # a frame built the wrong way round is told so first
                    check_scores_labels(frame)
                raise ValueError(refusal(name, kind, kinds, frame, truth))
            if kwargs.get("estimator") is not None and kind is not FrameKind.ITEMS:
                raise _estimator_refusal(kwargs["estimator"], kind)
            if kwargs.get("se") is not None and kind is not FrameKind.ITEMS:
                raise _se_refusal(kwargs["se"], kind)
            return function(*args, **kwargs)

    call.kinds = kinds  # type: ignore[attr-defined]
    return call  # type: ignore[return-value]


def comparison(name: str) -> Callable[[F], F]:
    """Declare ``function`` the registry's comparison ``name``: its row's kinds and checks apply.

    The row (:data:`~pdcompare.compare.registry.BY_NAME`) says which frame
    kinds the comparison takes, which keyword carries its correction and
    which ``nan_policy`` values it knows; the checked function becomes the
    row's ``function``, so ``pairwise``, the report and the command line run
    the same call as ``pdcompare.<name>``.
    """
    row = BY_NAME[name]

    def register(function: F) -> F:
        checked = checked_call(
            function,
            name,
            row.kinds,
            correction_keyword=row.correction_keyword,
            corrections=row.corrections,
            nan_policies=row.nan_policies,
        )
        # The row is frozen for every reader; its function is set once, here, where it is made.
        object.__setattr__(row, "function", checked)
        return checked

    return register


def frame_function(
    name: str,
    kinds: Sequence[FrameKind],
    *,
    correction_keyword: str | None = None,
    nan_policies: Sequence[str] = NAN_POLICIES,
) -> Callable[[F], F]:
    """Declare a public function of a frame that is not a test: its kinds and shared keywords.

    Examples
    --------
    >>> import pandas as pd
    >>> @frame_function("means_only", (FrameKind.BENCHMARK,))
    ... def means_only(frame):
    ...     return frame
    >>> means_only(pd.DataFrame({"s0": [0.9, 0.8]}, index=["a", "b"]))
    Traceback (most recent call last):
    ...
    ValueError: `means_only` compares models across data sets and needs a benchmark frame ...
    """

    def register(function: F) -> F:
        return checked_call(
            function, name, kinds, correction_keyword=correction_keyword, nan_policies=nan_policies
        )

    return register
