"""The shape of bibconv's imports: no cycle between its modules, and the core knows no format's insides.

The imports are read from the source (``ast``), not by importing: every ``import bibconv…`` and
``from bibconv… import …`` of every module, at module level and inside functions (those keep start-up
fast and are imports all the same), leaving out only the ``if TYPE_CHECKING:`` blocks that never run.
A module's implicit import of its own package (``bibconv.latex.case`` loads ``bibconv.latex``) is not
counted: Python makes it for every module, and it is no dependency the code chose.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import bibconv

PACKAGE = Path(bibconv.__file__).parent

# Function-level imports that close a cycle, each deliberate. An import made at module level may
# never close one (the test below leaves none out); one made inside a function is waited for until
# the function runs, when both modules are loaded. Each entry says why the cycle is there; a
# new one needs a line here and a reason, an entry whose import is gone must be deleted.
CYCLES_ALLOWED = {
    ("bibconv.model.record", "bibconv.csl.items"): "Record.to_csl/from_csl, the public shorthand for the"
    " conversion in bibconv.csl.items, which builds the model's classes",
    ("bibconv.model.date", "bibconv.csl.dates"): "Date.from_csl parses CSL's date forms with"
    " bibconv.csl.dates, which builds Dates",
    ("bibconv.model.record", "bibconv.record_changes"): "Record's CSL variables by keyword"
    " (record.replace(title=…)) are sorted into its slots by bibconv.record_changes, which builds Names"
    " and Dates",
    ("bibconv.latex.charset", "bibconv.latex"): "a character's TeX form from pylatexenc's table is kept"
    " only when latex.decode reads it back as that character",
    ("bibconv.parallel.plan", "bibconv.api"): "a piece is read with the serial reader's source handling",
    ("bibconv.conversion", "bibconv.api"): "each input of convert_files is read by the public iter_records",
}

# Core modules (outside bibconv/formats/) may use a format's package (bibconv.formats.<fmt>: its public
# surface) and the lazy table (bibconv.formats); a module below bibconv.formats.<fmt>. is that format's
# business. Deliberate exceptions, with the reason:
CORE_MAY_IMPORT: dict[tuple[str, str], str] = {}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _module_of(name: str) -> str | None:
    """The bibconv module that importing ``name`` (a module, or a module's attribute) loads."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imported(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    for alias in node.names:  # ``from bibconv.formats import csljson`` imports a module
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base


def _walk(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for child in ast.iter_child_nodes(node):
        if (
            isinstance(child, ast.If)
            and isinstance(child.test, ast.Name)
            and child.test.id == "TYPE_CHECKING"
        ):
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function
        yield from _walk(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))


@cache
def imports() -> dict[str, dict[str, bool]]:
    """module → {bibconv module it imports → whether only inside functions}."""
    graph: dict[str, dict[str, bool]] = {}
    for module, path in MODULES.items():
        edges: dict[str, bool] = {}
        for node, in_function in _walk(ast.parse(path.read_text(encoding="utf-8")), False):
            for name in _imported(module, node):
                target = _module_of(name) if name.split(".")[0] == "bibconv" else None
                if target and target != module:
                    edges[target] = edges.get(target, True) and in_function
        graph[module] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_walk_sees_module_level_and_function_level_imports() -> None:
    graph = imports()
    assert graph["bibconv.model.record"]["bibconv.csl.items"] is True  # inside Record.to_csl
    assert graph["bibconv.csl.items"]["bibconv.model"] is False
    assert "bibconv.registry" in graph["bibconv.formats.csljson"]
    assert len(graph) > 80


def test_no_import_cycle_inside_bibconv() -> None:
    graph = {module: set(edges) for module, edges in imports().items()}
    for source, target in CYCLES_ALLOWED:
        graph[source].discard(target)
    assert _cycles(graph) == []


def test_every_allowed_cycle_is_a_function_level_import_that_still_closes_one() -> None:
    graph = {module: set(edges) for module, edges in imports().items()}
    for source, target in CYCLES_ALLOWED:
        assert imports()[source].get(target) is True, f"{source} no longer imports {target} in a function"
        assert any(source in group and target in group for group in _cycles(graph)), (
            f"{source} -> {target} closes no cycle now: delete it from CYCLES_ALLOWED"
        )


def test_module_level_imports_alone_form_no_cycle() -> None:
    graph = {m: {t for t, in_function in edges.items() if not in_function} for m, edges in imports().items()}
    assert _cycles(graph) == []


def _format_internal(module: str) -> bool:
    """Whether ``module`` lies below a format's package: bibconv.formats.<fmt>.<something>."""
    return module.startswith("bibconv.formats.") and len(module.split(".")) > 3


def test_the_core_imports_no_format_internals() -> None:
    found = {
        (source, target)
        for source, edges in imports().items()
        if not source.startswith("bibconv.formats")
        for target in edges
        if _format_internal(target)
    }
    assert found == set(CORE_MAY_IMPORT), sorted(found - set(CORE_MAY_IMPORT))
