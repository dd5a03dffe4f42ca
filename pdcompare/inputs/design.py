"""The cross-validation design: the test/train size ratio that corrected tests need.

The Nadeau–Bengio correction and the correlated Bayesian t-test need the ratio
``n_test / n_train`` of the splits the scores come from. It is resolved, first
match wins, from the keywords of a call (``cv=``, ``test_size=``, ``n_train=``
with ``n_test=``), then from ``df.attrs["pdcompare"]["design"]``. pdcompare
never guesses it: a test that needs it and cannot find it raises a
``ValueError`` naming the keyword to pass.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from pdcompare._validation import OptionError, check_fraction

#: The keywords that describe a CV design, accepted by every test that needs one.
DESIGN_KEYWORDS = ("cv", "test_size", "n_train", "n_test")

_KFOLD_SPLITTERS = ("KFold", "StratifiedKFold", "GroupKFold", "StratifiedGroupKFold")
_REPEATED_SPLITTERS = ("RepeatedKFold", "RepeatedStratifiedKFold")
_SHUFFLE_SPLITTERS = ("ShuffleSplit", "StratifiedShuffleSplit")


@dataclass(frozen=True)
class Design:
    """What pdcompare knows about how the scores were obtained.

    Attributes
    ----------
    test_train_ratio : float or None
        ``n_test / n_train`` of each split; None when unknown.
    n_train, n_test : float or None
        Training and test set sizes, when known (means over the splits).
    source : str
        Where the design came from, for reports (``"cv=10"``, ``"test_size=0.2"``).
    greater_is_better : bool
        Whether a higher score is better.
    n_repeats : int or None
        How many times the splits reuse the same data: 1 for a single k-fold
        (every sample tested once), the number of repeats of a repeated
        k-fold, the number of splits of a shuffle splitter (every split a new
        draw), None when unknown. Above 1, splits overlap and the plain
        paired tests are invalid.
    paired : bool
        Whether column ``k`` of every model comes from the same split (CV
        splits, True) or the columns are independent runs such as random
        seeds (False: a runs frame, compared by the unpaired tests only).
    time_ordered : bool
        Whether the splits are expanding or sliding windows over time
        (``TimeSeriesSplit``): the training sets grow, so no single
        test/train ratio describes them and the Nadeau–Bengio correction does
        not apply.
    n_folds : int or None
        The k of a k-fold design (repeated or not), so that ``power`` counts
        repeats of it; None for shuffle splits, explicit splits and sizes.
    items : bool
        Whether the columns are items (questions of an evaluation scored for
        every model, DESIGN section 21) rather than CV splits: an items frame,
        built by ``from_items`` or ``set_design(items=True)``.
    """

    test_train_ratio: float | None = None
    n_train: float | None = None
    n_test: float | None = None
    source: str = "unknown"
    greater_is_better: bool = True
    n_repeats: int | None = None
    paired: bool = True
    time_ordered: bool = False
    n_folds: int | None = None
    items: bool = False

    @property
    def repeated(self) -> bool:
        """Whether the splits are known to test some sample more than once."""
        return self.n_repeats is not None and self.n_repeats > 1

    @property
    def known(self) -> bool:
        """Whether the test/train ratio is known."""
        return self.test_train_ratio is not None

    def to_attrs(self) -> dict[str, Any]:
        """Plain dict for ``DataFrame.attrs`` (no objects that pandas would deep-copy).

        Every field is a scalar (or None): the fields read one by one, which is
        ``dataclasses.asdict`` without its recursive copy (a tenth of its time).

        Examples
        --------
        >>> from dataclasses import asdict
        >>> design = Design(test_train_ratio=0.25, source="cv=5", n_folds=5)
        >>> design.to_attrs() == asdict(design)
        True
        """
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_attrs(cls, attrs: dict[str, Any] | None) -> Design:
        """Read a design stored by :meth:`to_attrs`; an absent one is unknown."""
        if not attrs:
            return cls()
        fields = {k: attrs[k] for k in cls.__dataclass_fields__ if k in attrs}
        return cls(**fields)


def _kfold_design(n_splits: int, source: str, n_repeats: int = 1) -> Design:
    if n_splits < 2:
        msg = f"`cv`: k-fold cross-validation needs at least 2 folds; got {n_splits}."
        raise ValueError(msg)
    # Each fold tests on 1/k of the data and trains on the other (k-1)/k.
    return Design(
        test_train_ratio=1.0 / (n_splits - 1),
        source=source,
        n_repeats=n_repeats,
        n_folds=n_splits,
    )


def _shuffle_design(splitter: Any, source: str) -> Design:
    test_size, train_size = splitter.test_size, splitter.train_size
    if test_size is None and train_size is None:
        test_size = 0.1  # scikit-learn's default for ShuffleSplit
    for name, size in (("test_size", test_size), ("train_size", train_size)):
        if size is not None and not isinstance(size, numbers.Real | np.floating):
            msg = f"`cv`: cannot read {name}={size!r} of {source}."
            raise ValueError(msg)
        if isinstance(size, numbers.Integral):
            msg = (
                f"`cv`: {source} gives {name} as a number of samples, so the test/train "
                "ratio depends on the data set size; pass `n_train=` and `n_test=` instead."
            )
            raise ValueError(msg)
    test = float(test_size) if test_size is not None else 1.0 - float(train_size)
    train = float(train_size) if train_size is not None else 1.0 - test
    # Every split is a new random draw: the test sets overlap, as in repeated k-fold.
    n_splits = int(getattr(splitter, "n_splits", 10))
    return Design(test_train_ratio=test / train, source=source, n_repeats=n_splits)


def explicit_splits_design(splits: list, source: str) -> Design:
    """Design measured on explicit ``(train, test)`` index arrays (mean sizes)."""
    try:
        n_train = np.array([len(train) for train, _ in splits], dtype=float)
        n_test = np.array([len(test) for _, test in splits], dtype=float)
    except (TypeError, ValueError):
        msg = (
            "`cv` must be an int, a scikit-learn splitter or a list of (train, test) "
            f"index arrays; got {source}."
        )
        raise TypeError(msg) from None
    if len(splits) == 0 or (n_train == 0).any():
        msg = "`cv`: every split needs a non-empty training set."
        raise ValueError(msg)
    # How often the most-tested sample is tested: 1 when the splits partition the data once.
    try:
        tested = np.concatenate([np.asarray(test).ravel() for _, test in splits])
        n_repeats = int(np.unique(tested, return_counts=True)[1].max()) if tested.size else None
    except (TypeError, ValueError):
        n_repeats = None
    return Design(
        test_train_ratio=float(np.mean(n_test / n_train)),
        n_train=float(n_train.mean()),
        n_test=float(n_test.mean()),
        source=source,
        n_repeats=n_repeats,
    )


def design_from_cv(cv: Any, n_samples: int | None = None) -> Design:
    """Design of a scikit-learn ``cv`` argument (duck-typed; scikit-learn is not imported).

    Supports an int ``k`` (k-fold), KFold, StratifiedKFold, GroupKFold,
    StratifiedGroupKFold, RepeatedKFold, RepeatedStratifiedKFold, ShuffleSplit,
    StratifiedShuffleSplit (fractional sizes), and an explicit list of
    ``(train, test)`` index arrays; and the splitters whose ratio is not fixed:
    ``TimeSeriesSplit`` (a time-ordered design, ratio unknown: its windows
    grow), ``LeaveOneOut`` (ratio ``1/(n − 1)`` when ``n_samples`` is given,
    else unknown) and ``PredefinedSplit`` (sizes measured on its
    ``test_fold``). Anything else raises ``ValueError`` pointing to
    ``test_size=``.

    Examples
    --------
    >>> design_from_cv(10).test_train_ratio == 1 / 9
    True
    >>> from sklearn.model_selection import LeaveOneOut, TimeSeriesSplit
    >>> design_from_cv(TimeSeriesSplit(5)).time_ordered
    True
    >>> design_from_cv(LeaveOneOut(), n_samples=41).test_train_ratio
    0.025
    """
    if isinstance(cv, bool):
        msg = f"`cv` must be an int, a scikit-learn splitter or a list of splits; got {cv!r}."
        raise TypeError(msg)
    if isinstance(cv, numbers.Integral):
        return _kfold_design(int(cv), f"cv={int(cv)}")
    kind = type(cv).__name__
    if kind in _KFOLD_SPLITTERS:
        return _kfold_design(int(cv.n_splits), f"cv={kind}(n_splits={cv.n_splits})")
    if kind in _REPEATED_SPLITTERS:
        n_splits = int(cv.cvargs["n_splits"])
        source = f"cv={kind}(n_splits={n_splits}, n_repeats={cv.n_repeats})"
        return _kfold_design(n_splits, source, n_repeats=int(cv.n_repeats))
    if kind in _SHUFFLE_SPLITTERS:
        return _shuffle_design(cv, f"cv={kind}(test_size={cv.test_size!r})")
    if isinstance(cv, list | tuple):
        return explicit_splits_design(list(cv), f"cv=<{len(cv)} explicit splits>")
    if kind == "TimeSeriesSplit":
        source = f"cv=TimeSeriesSplit(n_splits={cv.n_splits})"
        return Design(source=source, n_repeats=1, time_ordered=True)
    if kind == "LeaveOneOut":
        if n_samples is None:
            return Design(source="cv=LeaveOneOut()", n_repeats=1)
        if n_samples < 3:
            msg = f"`cv`: LeaveOneOut on {n_samples} samples leaves too few to train on."
            raise ValueError(msg)
        return Design(
            test_train_ratio=1.0 / (n_samples - 1),
            n_train=float(n_samples - 1),
            n_test=1.0,
            source=f"cv=LeaveOneOut() on {n_samples} samples",
            n_repeats=1,
        )
    if kind == "PredefinedSplit":
        splits = list(cv.split())
        return explicit_splits_design(splits, f"cv=PredefinedSplit(<{len(splits)} folds>)")
    msg = (
        f"`cv`: cannot tell the test/train size ratio of {kind}. Pass `test_size=` "
        "(the fraction of the data in each test split) or `n_train=` and `n_test=` instead."
    )
    raise ValueError(msg)


def splitter_design(
    cv: Any,
    *,
    n_samples: int | None = None,
    test_size: float | None = None,
    n_train: int | None = None,
    n_test: int | None = None,
) -> Design:
    """Design of the splitter of a search or an experiment, with the ratio given by keywords.

    ``test_size=`` or ``n_train=``/``n_test=`` supply the ratio (they win over
    what the splitter says, and let an unsupported splitter through); the
    splitter still says whether the design is time-ordered and repeated.
    """
    given = design_from_keywords(test_size=test_size, n_train=n_train, n_test=n_test)
    try:
        design = design_from_cv(cv, n_samples=n_samples)
    except ValueError:
        if given is None:
            raise
        return given
    if given is None:
        return design
    return replace(
        given,
        source=f"{design.source}, {given.source}",
        n_repeats=design.n_repeats,
        time_ordered=design.time_ordered,
    )


def design_from_keywords(
    *,
    cv: Any = None,
    test_size: float | None = None,
    n_train: int | None = None,
    n_test: int | None = None,
) -> Design | None:
    """Design given by keywords of a call, or None when none was given."""
    given = [
        name
        for name, value in (("cv", cv), ("test_size", test_size), ("n_train/n_test", n_train))
        if value is not None
    ]
    if n_test is not None and n_train is None:
        given.append("n_train/n_test")
    if len(given) > 1:
        msg = (
            f"Conflicting design keywords: {', '.join(f'`{g}`' for g in given)}. "
            "Pass only one of `cv=`, `test_size=`, or `n_train=` with `n_test=`."
        )
        raise ValueError(msg)
    if cv is not None:
        return design_from_cv(cv)
    if test_size is not None:
        test_size = check_fraction("test_size", test_size)
        return Design(
            test_train_ratio=test_size / (1.0 - test_size), source=f"test_size={test_size:g}"
        )
    if n_train is not None or n_test is not None:
        if n_train is None or n_test is None:
            msg = "`n_train` and `n_test` go together; pass both."
            raise ValueError(msg)
        for name, value in (("n_train", n_train), ("n_test", n_test)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                msg = f"`{name}` must be a positive integer; got {value!r}."
                raise ValueError(msg)
        return Design(
            test_train_ratio=n_test / n_train,
            n_train=float(n_train),
            n_test=float(n_test),
            source=f"n_train={n_train}, n_test={n_test}",
        )
    return None


def resolve_design(stored: dict[str, Any] | None = None, **keywords: Any) -> Design:
    """Design from the call's keywords, else from the frame's attrs, else unknown.

    ``greater_is_better`` and ``paired`` always come from the stored design
    (default True) unless given.
    """
    greater_is_better = keywords.pop("greater_is_better", None)
    paired = keywords.pop("paired", None)
    unknown = set(keywords) - set(DESIGN_KEYWORDS)
    if unknown:
        name = sorted(unknown)[0]
        msg = f"Unexpected keyword argument `{name}`."
        raise TypeError(msg)
    stored_design = Design.from_attrs(stored)
    design = design_from_keywords(**keywords) or stored_design
    gib = stored_design.greater_is_better if greater_is_better is None else greater_is_better
    if not isinstance(gib, bool | np.bool_):
        msg = f"`greater_is_better` must be True or False; got {gib!r}."
        raise TypeError(msg)
    paired = stored_design.paired if paired is None else paired
    if not isinstance(paired, bool | np.bool_):
        msg = f"`paired` must be True or False; got {paired!r}."
        raise TypeError(msg)
    return replace(design, greater_is_better=bool(gib), paired=bool(paired))


def overlapping_splits(design: Design, splits: Any) -> str | None:
    """Why the splits overlap (test some sample more than once), or None when they need not.

    The one rule for every test that assumes independent splits: the splits
    overlap when the design has repeats (a repeated k-fold, shuffle splits),
    when the split columns are a ``(repeat, fold)`` MultiIndex with more than
    one repeat, or when each split tests a fraction ``f`` of the data
    (``1/k`` for ``cv=k``, ``test_size``, ``n_test/(n_train + n_test)``) and
    ``f`` times the number of splits exceeds 1, so that some sample is
    tested twice (``cv=10`` with 100 splits, ``test_size=0.1`` with 100).

    Examples
    --------
    >>> overlapping_splits(design_from_cv(10), range(100))
    'cv=10 tests 1/10 of the data in each of 100 splits, every sample about 10 times'
    >>> overlapping_splits(design_from_cv(10), range(10)) is None
    True
    """
    if design.repeated:
        return design.source
    n_splits = len(splits)
    if getattr(splits, "nlevels", 1) == 2:
        repeats = splits.get_level_values(0).nunique()
        if repeats > 1:
            return f"the split columns are a (repeat, fold) MultiIndex with {repeats} repeats"
    if design.n_test is not None and design.n_train is not None:
        fraction = design.n_test / (design.n_train + design.n_test)
    elif design.test_train_ratio is not None:
        fraction = design.test_train_ratio / (1.0 + design.test_train_ratio)
    else:
        return None
    times = fraction * n_splits
    if times > 1.0 + 1e-9:
        share = f"1/{design.n_folds}" if design.n_folds else f"{fraction:.3g}"
        return (
            f"{design.source} tests {share} of the data in each of {n_splits} splits, "
            f"every sample about {times:.3g} times"
        )
    return None


def require_ratio(design: Design, method: str, n_columns: int | None = None) -> float:
    """The design's test/train ratio, or a ValueError saying which keyword to pass.

    A time-ordered design is refused whatever its ratio: expanding windows
    have no Nadeau–Bengio correction. An items frame has no ratio (its
    columns share no training data): refused naming ``ttest``. When the
    design is unknown and the frame has more than 100 columns
    (``n_columns``), the message names ``set_design(items=True)`` too:
    such columns are more often the questions of an evaluation than splits.
    """
    if design.items:
        msg = (
            f"`{method}` corrects for CV splits that share training data, but this is an "
            "items frame (its columns are questions scored for every model). Use `ttest` "
            "(paired over items, clustered when the frame has clusters)."
        )
        raise ValueError(msg)
    if design.time_ordered:
        msg = (
            f"`{method}` corrects for training sets that overlap by a fixed share "
            f"(Nadeau-Bengio), but these scores come from time-ordered splits "
            f"({design.source}): expanding windows train on ever more data, so there is "
            "no such correction and the fold scores are not exchangeable. Compare the "
            "forecasts instead: `pdcompare.cv_predictions(models, X, y, cv=...)` gives the "
            "out-of-sample predictions of the test windows, in time order, and "
            "`preds.cmp.diebold_mariano()` (or `preds.cmp.confidence_set()`) tests them."
        )
        raise ValueError(msg)
    if design.test_train_ratio is None:
        problem = (
            f"`{method}` needs the cross-validation design to correct for overlapping "
            "training sets, and none is known."
        )
        msg = (
            f"{problem} Pass `cv=` (the k of k-fold, or the "
            "scikit-learn splitter), `test_size=` (fraction of the data in each test "
            "split) or `n_train=` with `n_test=`; or store it once with "
            "`df.cmp.set_design(...)`."
        )
        cli = f"{problem} Pass --cv or --test-size."
        if n_columns is not None and n_columns > 100:
            items = (
                f" With {n_columns} columns, are they items (questions of an evaluation scored "
                "for every model) rather than CV splits? Then mark the frame with "
                "`df.cmp.set_design(items=True)` (or build it with `pdcompare.from_items`) and "
                "compare with `ttest`."
            )
            msg += items
            cli += " If the columns are items (questions), pass --items."
        raise OptionError(msg, keyword="cv", cli_message=cli)
    return design.test_train_ratio
