"""Reading promptfoo's ``--output results.json`` (version 3) as an items frame.

``promptfoo eval --output results.json`` writes ``{"evalId", "results":
{"version": 3, "timestamp", "prompts", "results": [...], "stats"}, "config",
"shareableUrl"}`` (``EvaluateSummaryV3`` in promptfoo's ``src/types/index.ts``).
Each element of ``results.results`` is an ``EvaluateResult``: the
``provider`` (``id``, ``label``), ``promptIdx``, ``testIdx``, ``success``,
``score``, ``namedScores``, ``latencyMs``, ``cost`` and ``tokenUsage``. The
provider is the model, the test the item.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.inputs.items import from_items
from pdcompare.inputs.sources import cost_means, number, read_json, with_source

__all__ = ["from_promptfoo"]

_TOOL = "promptfoo"
_COSTS = ("latency_ms", "cost", "total_tokens", "prompt_tokens", "completion_tokens")


def _summary(path: Path, data: Any) -> dict[str, Any]:
    """The ``EvaluateSummaryV3`` of an output file (or the file itself when it is one)."""
    summary = data.get("results") if isinstance(data, dict) else None
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        summary = data
    if not isinstance(summary, dict) or not isinstance(summary.get("results"), list):
        msg = (
            f"cannot read {str(path)!r}: it has no `results.results` list, so it is not the "
            "output of `promptfoo eval --output results.json` (or one of another tool)."
        )
        raise ValueError(msg)
    version = summary.get("version")
    if version != 3:
        msg = (
            f"cannot read {str(path)!r}: its results are version {version!r}; this reader knows "
            "promptfoo's version 3: export it again with "
            "a recent promptfoo (`promptfoo export <evalId>`)."
        )
        raise ValueError(msg)
    return summary


def _model(result: dict[str, Any], prompts: list[Any], several: bool) -> str:
    provider = result.get("provider") or {}
    if isinstance(provider, str):
        name = provider
    else:
        name = provider.get("label") or provider.get("id") or "provider"
    if not several:
        return str(name)
    index = result.get("promptIdx", 0)
    prompt = prompts[index] if isinstance(index, int) and index < len(prompts) else {}
    label = prompt.get("label") if isinstance(prompt, dict) else None
    return f"{name} / {label or f'prompt {index}'}"


def _score(path: Path, result: dict[str, Any], score: str) -> float:
    if score == "score":
        return number(result.get("score"))
    if score == "success":
        return number(bool(result.get("success")))
    named = result.get("namedScores") or {}
    if score not in named:
        msg = (
            f"`score` {score!r} is not 'score', 'success' nor a named score of {str(path)!r} "
            f"(test {result.get('testIdx')!r} has {', '.join(map(repr, named)) or 'none'})."
        )
        raise ValueError(msg)
    return number(named[score])


def from_promptfoo(path: str | Path, *, score: str = "score") -> pd.DataFrame:
    r"""Read a promptfoo output file (``--output results.json``, version 3) as an items frame.

    Parameters
    ----------
    path : str or pathlib.Path
        The JSON file ``promptfoo eval --output`` wrote.
    score : str, default "score"
        ``"score"`` (the test's score, 0 to 1), ``"success"`` (pass as 1,
        fail as 0) or the name of one of the ``namedScores``.

    Returns
    -------
    pandas.DataFrame
        Items frame (see :func:`pdcompare.from_items`): one row per provider
        (its ``label``, else its ``id``; with several prompts, per provider
        and prompt, "provider / prompt label"), one column per test
        (``testIdx``); a test run several times (``--repeat``) for one
        provider gives samples of the item. The mean ``latency_ms``,
        ``cost``, ``total_tokens``, ``prompt_tokens`` and
        ``completion_tokens`` of each model are kept for
        :func:`pdcompare.costs`.

    Raises
    ------
    ValueError
        A file that is not promptfoo's output, or of a version other than 3,
        named with the reason.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import pdcompare
    >>> rows = [{"provider": {"id": p}, "promptIdx": 0, "testIdx": t, "success": s > 0.5,
    ...          "score": s, "latencyMs": ms, "cost": 0.001}
    ...         for p, scores, ms in [("openai:gpt-4o-mini", [1.0, 0.0, 1.0], 300),
    ...                               ("openai:gpt-4o", [1.0, 1.0, 1.0], 900)]
    ...         for t, s in enumerate(scores)]
    >>> output = {"evalId": "eval-1", "results": {"version": 3, "results": rows}}
    >>> file = Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = file.write_text(json.dumps(output))
    >>> frame = pdcompare.from_promptfoo(file)
    >>> frame
    test                  0    1    2
    model
    openai:gpt-4o-mini  1.0  0.0  1.0
    openai:gpt-4o       1.0  1.0  1.0
    >>> pdcompare.costs(frame, "latency_ms").tolist()
    [300.0, 900.0]
    """
    if not isinstance(path, (str, Path)):
        msg = f"`path` must be the path of a promptfoo output file; got {type(path).__name__}."
        raise TypeError(msg)
    if not isinstance(score, str):
        msg = f"`score` must be 'score', 'success' or a named score; got {type(score).__name__}."
        raise TypeError(msg)
    path = Path(path)
    if not path.is_file():
        msg = f"cannot read {str(path)!r}: no such file."
        raise FileNotFoundError(msg)
    data = read_json(path, _TOOL)
    summary = _summary(path, data)
    results = [r for r in summary["results"] if isinstance(r, dict)]
    if not results:
        msg = f"cannot read {str(path)!r}: it holds no test results."
        raise ValueError(msg)
    prompts = summary.get("prompts") or []
    several = len({r.get("promptIdx", 0) for r in results}) > 1
    rows = []
    for result in results:
        usage = result.get("tokenUsage") or (result.get("response") or {}).get("tokenUsage") or {}
        rows.append(
            {
                "model": _model(result, prompts, several),
                "test": result.get("testIdx"),
                "score": _score(path, result, score),
                "latency_ms": number(result.get("latencyMs")),
                "cost": number(result.get("cost")),
                "total_tokens": number(usage.get("total")),
                "prompt_tokens": number(usage.get("prompt")),
                "completion_tokens": number(usage.get("completion")),
            }
        )
    table = pd.DataFrame(rows)
    table["repeat"] = table.groupby(["model", "test"]).cumcount()
    repeated = bool((table["repeat"] > 0).any())
    frame = from_items(
        table, model="model", item="test", score="score", sample="repeat" if repeated else None
    )
    source = {
        "format": "promptfoo",
        "files": [str(path)],
        "model": "provider.label or provider.id" + (" / prompt label" if several else ""),
        "item": "testIdx",
        "sample": "repeated tests" if repeated else None,
        "metric": score,
        "eval_id": data.get("evalId"),
    }
    return with_source(frame, source, cost_means(table, "model", _COSTS))
