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
    "text": (),
}
"""Folder of fixtures/ → the shared folder holding the real-world inputs its goldens are for."""


def shared_folder(folder: str) -> Path:
    """The shared folder holding the real-world inputs of the fixtures folder ``folder``."""
    return shared_location().joinpath(*SHARED_FOLDERS[folder])


def sample(relative: str) -> Path:
    """The input ``folder/name`` ("bibtex/xampl.bib"): bibconv's own file in fixtures/ when there is
    one, else the real-world sample of that name in the shared folder (which may be absent: a test
    given such a path as a parameter is skipped then, see conftest.py)."""
    own = FIXTURES / relative
    if own.exists():
        return own
    folder, _, name = relative.rpartition("/")
    return shared_folder(folder) / name


def need(relative: str) -> Path:
    """:func:`sample`, skipping the test (with the reason) when it is a shared sample that is absent."""
    path = sample(relative)
    if not path.exists():
        pytest.skip(SHARED_MISSING if shared_root() is None else f"real-world sample {path} is absent")
    return path


def samples(folder: str, *suffixes: str) -> list[Path]:
    """bibconv's own inputs in fixtures/``folder`` and the real-world ones of the shared folder
    (:func:`shared_samples`), sorted by name, whose names end with one of ``suffixes``."""
    own = [p for p in (FIXTURES / folder).iterdir() if p.is_file() and p.name.endswith(suffixes)]
    return sorted(own + shared_samples(folder, *suffixes), key=lambda p: p.name)


def shared_samples(folder: str, *suffixes: str) -> list[Path]:
    """The real-world inputs the goldens of fixtures/``folder`` are for, whose names end with one of
    ``suffixes``. Without the shared folder the list holds its location instead, so that the tests
    over it are reported as skipped, with the reason (see conftest.py)."""
    shared = shared_folder(folder)
    if not shared.is_dir():
        return [shared]
    return [p for p in shared.iterdir() if p.is_file() and p.name.endswith(suffixes)]


def shared_samples_below(folder: str, *suffixes: str) -> list[Path]:
    """:func:`shared_samples` of ``folder`` and of the fixtures folders below it ("html": html/other…)."""
    return [
        path
        for name in SHARED_FOLDERS
        if name == folder or name.startswith(f"{folder}/")
        for path in sorted(shared_samples(name, *suffixes))
    ]


def is_shared(path: Path) -> bool:
    """Whether ``path`` lies in the shared folder (or where it is looked for)."""
    return path.is_relative_to(shared_location())


def golden_base(path: Path) -> Path:
    """Where bibconv's own files for the input ``path`` are named after it: ``path`` itself for an input
    in fixtures/, the same name in the fixtures folder its goldens are in for a shared sample."""
    if not is_shared(path):
        return path
    for folder in SHARED_FOLDERS:
        if shared_folder(folder) == path.parent:
            return FIXTURES / folder / path.name
        if shared_folder(folder) == path:  # the stand-in of an absent shared folder
            return FIXTURES / folder
    raise ValueError(f"{path} is in no shared folder fixtures/ keeps goldens for")


@functools.cache
def csl_schema() -> dict[str, Any]:
    """The CSL-JSON schema (csl-data.json), read from the shared folder; the test is skipped without it."""
    path = require_shared(*SHARED_FOLDERS["schema"], "csl-data.json")
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema
