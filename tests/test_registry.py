"""The registry's table of built-in formats agrees with what their modules register, and finding
a format by its extension imports only that format's module."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import bibconv
from bibconv import registry
from bibconv.errors import FormatError
from bibconv.formats import BUILTINS


def test_builtin_table_agrees_with_the_registered_classes() -> None:
    found = {
        name: (info.extensions, info.reader is not None, info.writer is not None)
        for name, info in registry.formats().items()
        if name in BUILTINS
    }
    assert found == {name: (b.extensions, b.reads, b.writes) for name, b in BUILTINS.items()}
    for name, builtin in BUILTINS.items():
        module = importlib.import_module(builtin.module)
        classes = [c for c in vars(module).values() if getattr(c, "name", None) == name]
        assert classes, f"{builtin.module} defines no class of the format {name!r}"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("bibtex", "bibtex"),
        ("BibTeX", "bibtex"),
        ("bib", "bibtex"),
        ("BIB", "bibtex"),
        ("biblatex", "biblatex"),
        ("BibLaTeX", "biblatex"),
        ("csljson", "csljson"),
        ("json", "csljson"),
        ("csl", "csljson"),
        ("csl-json", "csljson"),
        ("CSL-JSON", "csljson"),
        ("ris", "ris"),
        ("RIS", "ris"),
        ("Atom", "atom"),
        ("arXiv-JSONL", "arxiv-jsonl"),
    ],
)
def test_format_names_ignore_case_and_take_the_usual_aliases(typed: str, meant: str) -> None:
    assert registry.format_name(typed) == meant
    assert type(registry.get_reader(typed)) is type(registry.get_reader(meant))


def test_aliases_read_and_write_like_the_format() -> None:
    text = '[{"id": "k", "type": "book", "title": "T"}]'
    assert bibconv.convert(text, "bib", "json") == bibconv.convert(text, "bibtex", "csljson")
    assert bibconv.convert(text, "BibTeX", "CSL-JSON") == bibconv.convert(text, "bibtex", "csljson")


def test_aliases_are_listed_and_unknown_names_still_fail() -> None:
    assert registry.formats()["bibtex"].aliases == ("bib",)
    assert registry.formats()["csljson"].aliases == ("json", "csl", "csl-json")
    every = [a for info in registry.formats().values() for a in info.aliases]
    assert len(every) == len(set(every))
    assert not set(every) & set(registry.formats())
    with pytest.raises(FormatError, match="unknown format 'bibtext'"):
        registry.get_reader("bibtext")


def test_extension_lookup_imports_only_the_format_found() -> None:
    code = (
        "import json, sys\n"
        "from bibconv.registry import format_for_extension\n"
        "found = [format_for_extension(n) for n in ('a.ris', 'b.BIB', 'c.csl.json', 'd.json', 'e.txt')]\n"
        "found.append(format_for_extension('f.bib', writing=True))\n"
        "print(json.dumps([found, sorted(m for m in sys.modules if m.startswith('bibconv.formats.'))]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found, modules = json.loads(done.stdout)
    assert found == ["ris", "bibtex", "csljson", None, None, "bibtex"]
    assert modules == []
