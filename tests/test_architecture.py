"""The package's import graph keeps DESIGN section 7's layers (read with ``ast``).

Every import counts, those inside functions too: no import cycle anywhere, no
import from a lower layer to a higher one, ``styling.py`` and ``plotting/``
never import each other, and no presentation module calls the accessor
(``.cmp.``) to run a test behind the back of the layers below it.
"""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pdcompare"

#: Layer of each module (by prefix), bottom first; a module imports from its layer or below.
LAYERS = [
    ("pdcompare._validation", 0),
    ("pdcompare._version", 0),
    ("pdcompare.stats", 1),
    ("pdcompare.inputs", 2),
    ("pdcompare.datasets", 2),
    ("pdcompare.results", 3),
    ("pdcompare.compare", 4),
    ("pdcompare.presentation.labels", 5),
    ("pdcompare.presentation.shown", 5),
    ("pdcompare.presentation.styling", 6),
    ("pdcompare.presentation.plotting", 6),
    ("pdcompare.presentation.report", 7),
    ("pdcompare.presentation", 7),  # the package's __init__ (a docstring)
    ("pdcompare.cli", 8),
    ("pdcompare.__main__", 9),
    ("pdcompare.accessor", 9),
    ("pdcompare.dask", 9),
    ("pdcompare.scale", 9),  # RaceSearchCV: scikit-learn searches that race
    ("pdcompare.optuna", 9),  # CorrectedPruner
    ("pdcompare", 10),  # the package's __init__: registers the accessor, exports
]
STYLING = "pdcompare.presentation.styling"
PLOTTING = "pdcompare.presentation.plotting"
PRESENTATION = ("pdcompare.presentation", "pdcompare.cli")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer(module: str) -> int:
    for prefix, level in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return level
    msg = f"{module} has no layer in LAYERS: add it"
    raise AssertionError(msg)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The pdcompare modules ``path`` imports, at any depth of its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("pdcompare"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pdcompare"):
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                found.add(candidate if candidate in known else node.module)
    return {name for name in found if name in known}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    known = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, known) - {module_name(path)} for path in paths}


def test_no_import_cycle(graph):
    # Depth-first search for a back edge.
    edges = graph
    state: dict[str, int] = {}
    cycles = []

    def visit(module, path):
        state[module] = 1
        for target in edges[module]:
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in edges:
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_no_module_imports_the_package_root(graph):
    # The root imports everything it exports; a submodule reads what it needs below it
    # (the version from `pdcompare._version`, not `from pdcompare import __version__`).
    importers = [module for module, targets in graph.items() if "pdcompare" in targets]
    assert importers == []


def test_no_import_up_a_layer(graph):
    upward = [
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if layer(target) > layer(module)
    ]
    assert upward == []


def test_styling_and_plotting_do_not_import_each_other(graph):
    crossing = [
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if (module.startswith(STYLING) and target.startswith(PLOTTING))
        or (module.startswith(PLOTTING) and target.startswith(STYLING))
    ]
    assert crossing == []


def test_presentation_runs_no_test_through_the_accessor():
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if not module_name(path).startswith(PRESENTATION):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # Code only: docstrings and messages may show users `df.cmp.plot(...)`.
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "cmp"
            ):
                calls.append(f"{path.name}:{node.lineno}")
    assert calls == []


def test_presentation_reads_metadata_through_result_info():
    """Presentation reads ``attrs["pdcompare"]`` only as the typed ``ResultInfo`` (DESIGN 28)."""
    reads = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if not module_name(path).startswith(PRESENTATION):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        written = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del)
        }
        for node in ast.walk(tree):
            raw_call = (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name | ast.Attribute)
                and getattr(node.func, "id", getattr(node.func, "attr", None))
                in ("pdcompare_attrs", "stored_attr")
            )
            raw_attrs = (
                isinstance(node, ast.Attribute)
                and node.attr == "attrs"
                and isinstance(node.ctx, ast.Load)
                and id(node) not in written
            )
            if raw_call or raw_attrs:
                reads.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert reads == []


def test_the_layer_table_names_every_module(graph):
    for module in graph:
        assert re.fullmatch(r"pdcompare(\.\w+)*", module)
        layer(module)


#: Presentation modules: they live in pdcompare/presentation/, never at the package root.
PRESENTATION_NAMES = ("report", "document", "styling", "labels", "shown", "plotting")


def test_the_package_root_keeps_the_faces_only():
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= 8, root
    stray = [
        path.name
        for path in PACKAGE.iterdir()
        if path.name.removesuffix(".py").startswith(PRESENTATION_NAMES)
    ]
    assert stray == []
    assert (PACKAGE / "presentation" / "__init__.py").exists()


def test_architecture_page_names_every_module():
    page = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        relative = path.relative_to(PACKAGE).as_posix()
        # Named by its whole path below pdcompare/ (`inputs/items.py`, not `items`): a
        # path is not a piece of a longer one (`report/items.py` of `presentation/...`).
        if not re.search(rf"(?<![\w./]){re.escape(relative)}(?![\w])", page):
            missing.append(relative)
    assert missing == []


#: The kinds of frame whose predicates (``is_items``, ``is_battles``, ...) were asked all over
#: the package before the kind was decided in one place (DESIGN section 34).
FRAME_KIND_WORDS = (
    "items", "battles", "runs", "runs_over_tasks", "predictions", "forecasts", "benchmark",
    "task_runs_frame", "forecast_frame", "runs_frame", "predictions_frame", "items_frame",
    "battles_frame", "paired", "scores", "result", "result_frame", "cv_results", "labelled",
)  # fmt: skip


def test_the_frame_kind_is_asked_in_one_module():
    # Everywhere else reads frame_kind(frame) (inputs/kinds.py), decided once per call.
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).as_posix() == "inputs/kinds.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name and name.startswith("is_") and name[3:] in FRAME_KIND_WORDS:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}")
    assert found == []


def _code_lines(function: ast.AST) -> int:
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring does not count
    lines = {n.lineno for statement in body for n in ast.walk(statement) if hasattr(n, "lineno")}
    return len(lines)


def test_no_function_has_more_than_80_lines_of_code():
    # The registry's table is one long literal, not a function.
    long = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({_code_lines(node)})"
        for path in PACKAGE.rglob("*.py")
        if path.name != "registry.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _code_lines(node) > 80
    ]
    assert long == []
