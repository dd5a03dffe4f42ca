"""Loading and running the scripts of ``examples/`` in the tests, headless."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path
from types import ModuleType
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load_example(name: str) -> ModuleType:
    """The module of ``examples/NAME.py``, executed (its ``main`` not yet called)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_example(name: str, *args: Any) -> tuple[Any, str]:
    """``main(*args)`` of ``examples/NAME.py``: what it returns and what it printed."""
    module = load_example(name)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        out = module.main(*args)
    return out, printed.getvalue()
