"""Golden-file comparison shared by the tests."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from tests.tools import SHARED_MISSING, require_shared, shared_location, shared_root

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def check_golden(path: Path, actual: str, update: bool) -> None:
    """Compare ``actual`` with the golden file ``path`` exactly, or rewrite it when updating."""
    if update or not path.exists():
        if not update:
            pytest.fail(f"missing golden file {path}; run pytest --update-golden and review it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8", newline="")
        return
    expected = path.read_bytes().decode("utf-8")  # exact bytes: no newline translation
    assert actual == expected, f"output differs from golden {path.relative_to(FIXTURES.parent)}"


KINDS = ("read", "write", "invalid")
"""fixtures/<format>/<kind>/: what reading an input gives (records as CSL-JSON, warnings), what the writers
make of it, and inputs that are errors with the errors they give (see fixtures/README.md)."""
GOLDEN_SUFFIXES = (".csl.json", ".warnings.txt", ".errors.txt")
"""Endings of the goldens kept beside the inputs in read/ and invalid/."""

SHARED_FOLDERS = {
    "atom": ("corpus", "atom-api"),
    "bibtex": ("corpus", "bibtex"),
    "csljson": ("corpus", "csljson"),
    "ris": ("corpus", "ris"),
    "rss": ("corpus", "rss"),
    "schema": ("corpus", "schema"),
    "html/arxiv-abs": ("corpus", "html-arxiv-abs"),
    "html/arxiv-list": ("corpus", "html-arxiv-list"),
    "html/arxiv-search": ("corpus", "html-arxiv-search"),
    "html/other": ("corpus", "html-other"),
    "html/wild": ("corpus", "html-wild"),
    "text": (),
}
"""A format's folder in fixtures/ (with the group below its kind: "html/other" is fixtures/html/read/other/)
→ the shared folder holding the real-world inputs its goldens are for."""
NAMED_BY_TESTS = frozenset({"html/wild"})
"""Shared folders whose pages the tests name one by one with what each holds
(tests/formats/listing/test_sites.py and test_pages.py), left out of :func:`shared_samples_below`."""


def fixtures_folder(folder: str, kind: str) -> Path:
    """fixtures/<format>/<kind>/[<group>/] for the folder "<format>[/<group>]" ("html/other")."""
    fmt, _, group = folder.partition("/")
    return FIXTURES / fmt / kind / group if group else FIXTURES / fmt / kind


def is_golden(path: Path) -> bool:
    """Whether a file of read/ or invalid/ is a golden rather than an input: its name is an input's
    name (which has an extension) and a golden ending: ``x.bib.csl.json``, not ``x.csl.json``."""
    suffix = next((s for s in GOLDEN_SUFFIXES if path.name.endswith(s)), None)
    return suffix is not None and "." in path.name.removesuffix(suffix)


def own_inputs(folder: str) -> list[Path]:
    """bibconv's own inputs of ``folder``: the files of its read/ and invalid/ that are not goldens."""
    found = []
    for kind in ("read", "invalid"):
        where = fixtures_folder(folder, kind)
        if where.is_dir():
            found += [p for p in where.iterdir() if p.is_file() and not is_golden(p)]
    return sorted(found)


def shared_folder(folder: str) -> Path:
    """The shared folder holding the real-world inputs of the fixtures folder ``folder``."""
    return shared_location().joinpath(*SHARED_FOLDERS[folder])


def sample(relative: str) -> Path:
    """The input ``folder/name`` ("bibtex/xampl.bib"): bibconv's own file in the folder's read/ or
    invalid/ when there is one, else the real-world sample of that name in the shared folder (which may
    be absent: a test given such a path as a parameter is skipped then, see conftest.py)."""
    folder, _, name = relative.rpartition("/")
    for kind in ("read", "invalid"):
        own = fixtures_folder(folder, kind) / name
        if own.exists():
            return own
    return shared_folder(folder) / name


def need(relative: str) -> Path:
    """:func:`sample`, skipping the test (with the reason) when it is a shared sample that is absent."""
    path = sample(relative)
    if not path.exists():
        pytest.skip(SHARED_MISSING if shared_root() is None else f"real-world sample {path} is absent")
    return path


def samples(folder: str, *suffixes: str) -> list[Path]:
    """bibconv's own inputs of ``folder`` (:func:`own_inputs`) and the real-world ones of the shared
    folder (:func:`shared_samples`), sorted by name, whose names end with one of ``suffixes``."""
    own = [p for p in own_inputs(folder) if p.name.endswith(suffixes)]
    return sorted(own + shared_samples(folder, *suffixes), key=lambda p: p.name)


def written(folder: str, *suffixes: str) -> list[Path]:
    """bibconv's goldens in fixtures/``folder``/write/ whose names end with one of ``suffixes``: what
    the writers made of its inputs, good inputs in their turn."""
    where = fixtures_folder(folder, "write")
    return sorted(p for p in where.iterdir() if p.is_file() and p.name.endswith(suffixes))


def shared_samples(folder: str, *suffixes: str) -> list[Path]:
    """The real-world inputs the goldens of fixtures/``folder`` are for, whose names end with one of
    ``suffixes``. Without the shared folder the list holds its location instead, so that the tests
    over it are reported as skipped, with the reason (see conftest.py)."""
    shared = shared_folder(folder)
    if not shared.is_dir():
        return [shared]
    return [p for p in shared.iterdir() if p.is_file() and p.name.endswith(suffixes)]


def shared_samples_below(folder: str, *suffixes: str) -> list[Path]:
    """:func:`shared_samples` of ``folder`` and of its groups ("html": html/other…), but for the
    folders the tests name page by page (:data:`NAMED_BY_TESTS`)."""
    return [
        path
        for name in SHARED_FOLDERS
        if (name == folder or name.startswith(f"{folder}/")) and name not in NAMED_BY_TESTS
        for path in sorted(shared_samples(name, *suffixes))
    ]


def is_shared(path: Path) -> bool:
    """Whether ``path`` lies in the shared folder (or where it is looked for)."""
    return path.is_relative_to(shared_location())


def folder_of(path: Path) -> str:
    """The fixtures folder ("bibtex", "html/other") of an input: bibconv's own, or a shared sample."""
    if not is_shared(path):
        fmt, _kind, *group = path.relative_to(FIXTURES).parts[:-1]
        return "/".join((fmt, *group))
    for folder in SHARED_FOLDERS:
        if shared_folder(folder) in (path.parent, path):  # path itself: the stand-in of an absent folder
            return folder
    raise ValueError(f"{path} is in no shared folder fixtures/ keeps goldens for")


def golden(path: Path, kind: str, suffix: str) -> Path:
    """bibconv's file of ``kind`` for the input ``path``, named after it:
    fixtures/<format>/<kind>/[<group>/]<input name><suffix> ("bibtex/read/xampl.bib.csl.json")."""
    return fixtures_folder(folder_of(path), kind) / (path.name + suffix)


def input_kind(path: Path) -> str:
    """Where the reading goldens of an input are: invalid/ for an own input that is an error, else read/."""
    return "invalid" if not is_shared(path) and path.parent.name == "invalid" else "read"


def cases(folder: str, kind: str, suffix: str) -> list[Path]:
    """The inputs of ``folder`` with a golden of ``kind`` ending in ``suffix``, found from the goldens
    (``bibtex/write/xampl.bib.bib`` makes ``xampl.bib`` a case of ("bibtex", "write", ".bib")), and for
    reading every input of bibconv's own in read/, so that a new one without its golden fails."""
    where = fixtures_folder(folder, kind)
    names = {p.name.removesuffix(suffix) for p in where.iterdir() if p.name.endswith(suffix)}
    if kind == "read":
        names |= {p.name for p in own_inputs(folder) if p.parent == where}
    return [sample(f"{folder}/{name}") for name in sorted(names) if "." in name]


@functools.cache
def csl_schema() -> dict[str, Any]:
    """The CSL-JSON schema (csl-data.json), read from the shared folder; the test is skipped without it."""
    path = require_shared(*SHARED_FOLDERS["schema"], "csl-data.json")
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema
