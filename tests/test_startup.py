"""Start-up stays short: ``bibconv --version`` and a one-record conversion import only what they use."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import bibconv

HEAVY = ("lxml", "pylatexenc", "bibtexparser", "pybtex", "unidecode", "babel")

_MODULES = """
import json, sys
from bibconv.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules_after(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _MODULES, *args], capture_output=True, text=True, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_version_imports_no_format_and_no_heavy_library() -> None:
    loaded = modules_after("--version")
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    assert not {m for m in loaded if m.startswith("bibconv.formats.")}
    assert "multiprocessing" not in loaded


def _best_cpu(*args: str) -> float:
    """The least CPU time (user + system) of seven runs of ``python *args``."""
    best = float("inf")
    for _ in range(7):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, *args], capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return best


def test_version_answers_within_150_ms() -> None:
    # CPU time rather than wall time, so that a busy test machine does not decide the result;
    # bibconv's own share (beyond a bare interpreter, ~20 ms) stays under 120 ms. The package is
    # byte-compiled first, as an install does (with PYTHONDONTWRITEBYTECODE every run would compile it).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(bibconv.__file__).parent)], check=True)
    bare = _best_cpu("-c", "pass")
    version = _best_cpu("-m", "bibconv", "--version")
    assert version - bare < 0.12, (
        f"bibconv --version took {version * 1000:.0f} ms, bare Python {bare * 1000:.0f} ms"
    )


def test_one_record_conversion_loads_no_parser_it_does_not_need(tmp_path: Path) -> None:
    source = tmp_path / "one.json"
    source.write_text('[{"id": "knuth84", "type": "article-journal", "title": "Literate Programming"}]')
    loaded = modules_after("convert", str(source), "-t", "ris", "-o", str(tmp_path / "one.ris"))
    assert (tmp_path / "one.ris").read_text().startswith("TY  - JOUR")
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    # A small input is converted in this process: no worker pool is started.
    assert "concurrent.futures.process" not in loaded


def test_importing_bibconv_compiles_no_pattern() -> None:
    """Every module's patterns wait for their first use (``lazy``): a run compiles only those it uses."""
    script = (
        "import importlib, pkgutil, re, sys, bibconv\n"
        "compiled, plain = [], re._compile\n"
        "def spy(pattern, flags):\n"
        "    caller = sys._getframe(1)\n"
        "    while caller.f_code.co_filename.endswith(('re/__init__.py', 'patterns.py')):\n"
        "        caller = caller.f_back\n"
        "    ours = caller.f_code.co_filename.startswith(bibconv.__path__[0])\n"
        "    if ours and not isinstance(pattern, re.Pattern):\n"
        "        compiled.append(pattern)\n"
        "    return plain(pattern, flags)\n"
        "re._compile = spy\n"
        "for m in pkgutil.walk_packages(bibconv.__path__, 'bibconv.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "print(repr(compiled))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
