"""Every regular expression bibconv builds, found from its source: where it is built, how it is used.

A *site* is a call ``re.compile(…)``, ``re.search(…)``, ``re.sub(…)`` … or ``lazy(…)`` (a pattern
compiled when first used, :func:`bibconv.patterns.lazy`) in a bibconv module. Sites
outside functions are evaluated by running the statement that holds them again (in the module's
namespace, each site's call recorded); sites inside functions by evaluating the pattern and flags
they pass in the module's namespace, with the locals given in ``LOCALS`` where they need any, or
by calling the builder given in ``BUILT``. A site that none of these reaches is reported, so a
pattern added anywhere is either tested or makes the test fail.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import bibconv

PACKAGE = Path(bibconv.__file__).resolve().parent
METHODS = ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer")
Pattern = re.Pattern[str] | re.Pattern[bytes]
_TOKEN = "zqbcdfghjklm"
_ARXIV = [{"arxiv_id": "2101.00001"}, {"arxiv_id": "hep-th/9901001"}]


def _conferences() -> list[dict[str, Any]]:
    from bibconv.formats.listing.sites import mlconf

    return [{"n": n} for n in mlconf._CONFERENCES.values()]


def _ieee_kinds() -> list[dict[str, Any]]:
    from bibconv.formats.listing.sites import ieee

    return [{"k": k} for k in ieee._KINDS]


# Where a site's pattern is made of a function's locals: the values they take.
LOCALS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "bibconv.formats.csljson.split._guess_json_array": lambda: [{"indent": i} for i in (b"", b"  ", b"\t")],
    "bibconv.formats.atom.frames.Frames.__init__": lambda: [
        {"self": SimpleNamespace(_name=name)} for name in (b"entry", b"item")
    ],
    "bibconv.formats.listing.sites.ieee._result": _ieee_kinds,
    "bibconv.formats.listing.arxiv_pages._version_from_links": lambda: _ARXIV,
    "bibconv.formats.listing.arxiv_pages.search_entries": lambda: _ARXIV,
    "bibconv.formats.listing.sites.mlconf._conference": _conferences,
    "bibconv.parallel.parent._Parent._report": lambda: [{"self": SimpleNamespace(token=_TOKEN)}],
    "bibconv.parallel.worker._write": lambda: [{"token": _TOKEN.encode("ascii")}],
    "bibconv.formats.listing.text_split._line_patterns": lambda: [
        {"marks": marks, "indent": indent}
        for marks in (rb"[0-9]{1,4}\.", b"\xe2\x80\xa2", b"-")
        for indent in (0, 3)
    ],
}


def _commands() -> list[Pattern]:
    from bibconv.formats.bibtex import commands

    return [commands._uses_re(commands.SORT_HINTS), commands._uses_re({"a": (1, "#1"), "ab": (0, "")})]


def _name_scanners() -> list[Pattern]:
    from bibconv.formats.bibtex import names

    return [names._scanner(names._AND_RE), names._scanner(names._COMMA_RE)]


def _led() -> list[Pattern]:
    from bibconv import _names_natural, dates
    from bibconv.formats.listing import authors, citation

    led = [citation._END, citation._DOI, citation._ARXIV, citation._YEAR, citation._VENUE_STOP]
    led += [citation._ET_AL_END, citation._THESIS, authors._CONJUNCTIONS, dates._AMBIGUOUS]
    return [*led, _names_natural._ET_AL_RE, _names_natural._LIST_SPLIT_RE, _names_natural._AND_SPLIT_RE]


# Functions that return a pattern built from their arguments: what they are called with.
BUILT: dict[str, Callable[[], list[Pattern]]] = {
    "bibconv.formats.bibtex.commands._uses_re": _commands,
    "bibconv.formats.bibtex.names._scanner": _name_scanners,
    "bibconv.patterns.led_by": _led,
    # compiles what lazy() was given: its patterns are found at each lazy() site, led_by's through it
    "bibconv.patterns._Lazy.__getattr__": _led,
}


@dataclass
class Site:
    """One place that builds a pattern."""

    module: str
    line: int
    scope: str  # the qualified name of the function it is in, or "" at module or class level
    call: ast.Call
    uses: set[str] = field(default_factory=set)  # the methods it is used with, where known
    found: list[Pattern] = field(default_factory=list)
    problem: str = ""

    @property
    def name(self) -> str:
        return f"{self.module}:{self.line}"


def _is_re_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name):
        return node.func.id == "lazy"
    return (
        isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
        and node.func.attr in ("compile", *METHODS)
    )


def _method(call: ast.Call) -> str:
    """The ``re`` function a site calls (``compile`` for ``lazy``)."""
    return call.func.attr if isinstance(call.func, ast.Attribute) else "compile"


def _compiled(result: object) -> Pattern:
    """A site's result as a compiled pattern (a lazy one compiled, as its first use would)."""
    if isinstance(result, (str, bytes)):
        return re.compile(result)
    if isinstance(result, re.Pattern):
        return result
    return re.compile(result.pattern, result.flags)  # type: ignore[attr-defined]


class _Finder(ast.NodeVisitor):
    """The sites of one module, each with the statement outside any function that holds it."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.scope: list[str] = []
        self.functions = 0
        self.statement: ast.stmt | None = None
        self.sites: list[tuple[Site, ast.stmt | None, str]] = []  # site, statement, class path

    def _nested(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        function = not isinstance(node, ast.ClassDef)
        self.scope.append(node.name)
        self.functions += function
        self.generic_visit(node)
        self.functions -= function
        self.scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._nested(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._nested(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._nested(node)

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt) and not self.functions and not isinstance(node, ast.ClassDef):
            self.statement = node
        if _is_re_call(node):
            assert isinstance(node, ast.Call)
            scope = ".".join(self.scope) if self.functions else ""
            site = Site(self.module, node.lineno, scope, node)
            self.sites.append((site, None if self.functions else self.statement, ".".join(self.scope)))
        super().generic_visit(node)


@cache
def _modules() -> list[tuple[str, Path, ast.Module]]:
    """Each module of bibconv: its name, file and syntax tree."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__main__.py":  # runs the command line when imported; it builds no pattern
            assert not any(map(_is_re_call, ast.walk(ast.parse(path.read_text(encoding="utf-8")))))
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, path, ast.parse(path.read_text(encoding="utf-8"))))
    return found


class _Recorder(ast.NodeTransformer):
    """Wraps each site's call as ``__site__(line, call)``."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not _is_re_call(node):
            return node
        wrapped = ast.Call(ast.Name("__site__", ast.Load()), [ast.Constant(node.lineno), node], [])
        return ast.copy_location(wrapped, node)


def _namespace(module: Any, classes: str) -> dict[str, Any]:
    namespace = dict(vars(module))
    owner = module
    for name in filter(None, classes.split(".")):
        owner = getattr(owner, name)
        namespace.update(vars(owner))
    return namespace


def _run_statement(statement: ast.stmt, namespace: dict[str, Any], path: Path) -> dict[int, list[Pattern]]:
    """The patterns each site in ``statement`` builds, by line, the statement's value evaluated again."""
    value = getattr(statement, "value", None)
    assert isinstance(value, ast.expr), f"{path}:{statement.lineno}: a pattern outside an assignment"
    built: dict[int, list[Pattern]] = {}

    def record(line: int, result: object) -> object:
        built.setdefault(line, []).append(_compiled(result))
        return result

    tree = ast.fix_missing_locations(_Recorder().visit(ast.Expression(value)))
    eval(compile(tree, str(path), "eval"), {**namespace, "__site__": record})
    return built


def _flags(call: ast.Call) -> ast.expr:
    named = [k.value for k in call.keywords if k.arg == "flags"]
    position = {"compile": 1, "sub": 4, "subn": 4, "split": 3}.get(_method(call), 2)
    return named[0] if named else call.args[position] if len(call.args) > position else ast.Constant(0)


def _evaluate(site: Site, namespace: dict[str, Any], path: Path) -> list[Pattern]:
    """The pattern a site in a function builds, from its own pattern and flags expressions."""
    where = f"{site.module}.{site.scope}"
    if where in BUILT:
        return BUILT[where]()
    expression = ast.Expression(ast.Tuple([site.call.args[0], _flags(site.call)], ast.Load()))
    code = compile(ast.fix_missing_locations(expression), str(path), "eval")
    found: list[Pattern] = []
    for local in LOCALS[where]() if where in LOCALS else [{}]:
        try:
            pattern, flags = eval(code, namespace, local)
        except NameError as error:
            site.problem = f"{site.name} ({where}) builds its pattern from {error.name}: give it in LOCALS"
            return []
        found.append(pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, flags))
    return found


@cache
def sites() -> list[Site]:
    """Every site in bibconv, each with the patterns it builds."""
    found: list[Site] = []
    for name, path, tree in _modules():
        finder = _Finder(name)
        finder.visit(tree)
        module = importlib.import_module(name)
        statements: dict[int, dict[int, list[Pattern]]] = {}
        for site, statement, classes in finder.sites:
            namespace = _namespace(module, classes if statement is not None else "")
            if statement is None:
                site.found = _evaluate(site, namespace, path)
            else:
                if id(statement) not in statements:
                    statements[id(statement)] = _run_statement(statement, namespace, path)
                site.found = statements[id(statement)].get(site.line, [])
            site.uses = {_method(site.call)} - {"compile"}
            found.append(site)
    _add_uses(found)
    return found


def _refs(node: ast.AST) -> tuple[str, bool] | None:
    """The name ``node`` refers to a pattern (or container of patterns) by, and whether through a
    module (``m.X``) rather than a bare ``X``, seen through ``X[k]``, ``X.values()``, ``X.items()``."""
    while isinstance(node, ast.Subscript) or (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("values", "items")
    ):
        node = node.value if isinstance(node, ast.Subscript) else node.func.value  # type: ignore[attr-defined]
    if isinstance(node, ast.Name):
        return node.id, False
    return (node.attr, True) if isinstance(node, ast.Attribute) else None


@cache
def _method_uses() -> dict[tuple[str, str], set[str]]:
    """The methods each name is called with, by (module or "" for ``m.X``, name): ``X.search(…)``,
    ``for p in X: p.match(…)`` (as ``@p``); a name imported from a module counts as that module's."""
    uses: dict[tuple[str, str], set[str]] = {}
    for module, _, tree in _modules():
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported = {a.asname or a.name for n in imports for a in n.names}
        for node in ast.walk(tree):
            func = getattr(node, "func", None) if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr in METHODS and (ref := _refs(func.value)):
                uses.setdefault(_key(module, imported, ref), set()).add(func.attr)
            loops = [node] if isinstance(node, ast.For) else getattr(node, "generators", [])
            for loop in loops:
                targets = [f"@{module}.{t.id}" for t in ast.walk(loop.target) if isinstance(t, ast.Name)]
                if (ref := _refs(loop.iter)) is not None:
                    uses.setdefault(_key(module, imported, ref), set()).update(targets)
    return uses


def _key(module: str, imported: set[str], ref: tuple[str, bool]) -> tuple[str, str]:
    name, through_module = ref
    return ("", name) if through_module or name in imported else (module, name)


def _add_uses(found: list[Site]) -> None:
    """Each site's uses: how the name it is bound to is called, or ``search`` where that is not known."""
    by_call = {id(s.call): s for s in found}
    for module, _, tree in _modules():
        for node in ast.walk(tree):
            targets = [t for t in getattr(node, "targets", [getattr(node, "target", None)]) if t is not None]
            value = getattr(node, "value", None)
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or value is None:
                continue
            names = {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
            methods = {m for n in names for m in _expand(module, n, set())}
            for inner in ast.walk(value):
                site = by_call.get(id(inner))
                if site is not None and _method(site.call) == "compile":
                    site.uses |= methods
    for site in found:
        site.uses = site.uses or {"search"}


def _expand(module: str, name: str, seen: set[str]) -> set[str]:
    """The methods ``name`` (of ``module``) is used with, through the loop variables over it."""
    seen.add(f"{module}.{name}")
    methods = set()
    for use in _method_uses().get((module, name), set()) | _method_uses().get(("", name), set()):
        if not use.startswith("@"):
            methods.add(use)
        elif use[1:] not in seen:
            loop_module, loop_name = use[1:].rsplit(".", 1)
            methods |= _expand(loop_module, loop_name, seen)
    return methods
