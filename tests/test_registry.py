"""The registry's table of built-in formats agrees with what their modules register, and finding
a format by its extension imports only that format's module."""

from __future__ import annotations

import json
import subprocess
import sys

from bibconv import registry


def test_builtin_table_agrees_with_the_registered_classes() -> None:
    found = {
        name: (info.extensions, info.reader is not None, info.writer is not None)
        for name, info in registry.formats().items()
        if name in registry._BUILTIN_MODULES
    }
    assert found == registry._BUILTIN_INFO
    assert set(registry._BUILTIN_INFO) == set(registry._BUILTIN_MODULES)


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
