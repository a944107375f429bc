"""The documentation is true: the package's doctests and the README's examples run, every public
function and type shows an example, and every command has help with an example."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

import bibconv
from bibconv.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(bibconv.__path__, "bibconv.")
    if not info.name.endswith("__main__")  # importing it runs the command line
)
# Names in __all__ that are not functions or classes, so carry no docstring of their own.
NOT_DOCUMENTABLE = {"__version__", "Source"}


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples name files under fixtures/, relative to the repository's root."""
    monkeypatch.chdir(ROOT)


@pytest.mark.usefixtures("at_root")
@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


@pytest.mark.usefixtures("at_root")
def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20
    assert result.failed == 0


def test_readme_names_the_whole_public_surface() -> None:
    library = README.read_text(encoding="utf-8").split("## Library", 1)[1]
    for name in bibconv.__all__:
        if name not in ("__version__", "list_formats") and not name.endswith("Error"):
            assert f"`{name}" in library, name
    assert "`BibconvError`" in library


@pytest.mark.parametrize("name", sorted(set(bibconv.__all__) - NOT_DOCUMENTABLE))
def test_public_names_have_a_docstring_with_an_example(name: str) -> None:
    obj = getattr(bibconv, name)
    assert inspect.isclass(obj) or inspect.isfunction(obj), name
    doc = inspect.getdoc(obj) or ""
    assert doc.strip(), f"{name} has no docstring"
    assert ">>>" in doc, f"{name}'s docstring has no example"


def _commands() -> list[str]:
    return sorted(main.commands)


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^\s+Examples?:$", result.output, re.M), f"{command} --help shows no example"
    assert re.search(rf"^\s+bibconv {command}\b", result.output, re.M)


@pytest.mark.parametrize("command", _commands())
def test_every_command_is_in_the_readme(command: str) -> None:
    assert f"bibconv {command} " in README.read_text(encoding="utf-8")


def test_every_module_is_documented() -> None:
    for name in MODULES:
        module: ModuleType = importlib.import_module(name)
        assert (module.__doc__ or "").strip(), f"{name} has no module docstring"
