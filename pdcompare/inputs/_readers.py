"""What the evaluation-log readers share: every model must have scored the same items.

``from_items`` refuses missing items too, but names its own ``nan_policy``; a
reader names the file or log that lacks them, which is what a user can fix.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping


def check_same_items(
    items: Mapping[tuple[str, str], tuple[str, set[Hashable]]], unit: str, hint: str
) -> None:
    """Refuse logs that do not cover the same items of a task.

    Parameters
    ----------
    items : mapping
        ``(model, task) -> (source, set of item ids)``: what each file or log holds.
    unit : str
        What an item is called in these logs ("documents", "samples").
    hint : str
        How such a gap usually comes about, and its fix.
    """
    tasks: dict[str, set[Hashable]] = {}
    models = {model for model, _ in items}
    for (_, task), (_, ids) in items.items():
        tasks.setdefault(task, set()).update(ids)
    for task, every in tasks.items():
        for model in sorted(models):
            source, ids = items.get((model, task), (None, set()))
            if len(ids) == len(every):
                continue
            where = f" ({source!r})" if source is not None else ""
            msg = (
                f"the logs do not cover the same {unit}: model {model!r}{where} lacks "
                f"{len(every) - len(ids)} of the {len(every)} {unit} of task {task!r} that "
                f"other models have; a paired comparison needs every model on the same "
                f"{unit}. {hint}"
            )
            raise ValueError(msg)
