"""fixtures/ holds bibconv's own files only, no copy of a real-world sample from the shared folder, laid
out as fixtures/README.md says."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.golden import FIXTURES, KINDS, SHARED_FOLDERS, is_golden, own_inputs, shared_folder
from tests.tools import require_shared


def _digests(root: Path) -> dict[str, Path]:
    """SHA-1 of every non-empty file below ``root`` → one file with it."""
    return {
        hashlib.sha1(path.read_bytes()).hexdigest(): path
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.stat().st_size > 0
    }


def test_no_fixture_is_a_copy_of_a_shared_file() -> None:
    shared = _digests(require_shared())
    copies = {
        str(path.relative_to(FIXTURES.parent)): str(shared[digest])
        for digest, path in _digests(FIXTURES).items()
        if digest in shared
    }
    assert not copies, f"read these from the shared folder instead of keeping copies: {copies}"


def _misplaced(path: Path) -> str | None:
    """Why ``path`` (a file of fixtures/) is not where fixtures/README.md says, or None."""
    parts = path.relative_to(FIXTURES).parts
    if len(parts) == 1:
        return None if parts[0] in ("README.md", "SOURCES.md") else "a file at the top of fixtures/"
    if parts[0] in OUTSIDE_THE_CONVENTION or "/".join(parts) in OUTSIDE_THE_CONVENTION:
        return None
    if len(parts) < 3 or parts[1] not in KINDS:
        return "not in <format>/read, write or invalid"
    folder = "/".join((parts[0], *parts[2:-1]))
    kind = parts[1]
    if kind == "write" or is_golden(path):
        inputs = {p.name for p in own_inputs(folder)}
        if folder in SHARED_FOLDERS and shared_folder(folder).is_dir():
            inputs |= {p.name for p in shared_folder(folder).iterdir()}
        elif folder in SHARED_FOLDERS:
            return None  # its inputs cannot be checked without the shared folder
        if not any(path.name.startswith(f"{name}.") for name in inputs):
            return "a golden named after no input of its folder"
    return None


OUTSIDE_THE_CONVENTION = frozenset({"matrix", "styles", "arxiv-jsonl/build_sample.py"})
"""The conversion matrix, a CSL style the consumer tests use, and the script that builds a sample."""


def test_every_fixture_follows_the_convention() -> None:
    files = sorted(p for p in FIXTURES.rglob("*") if p.is_file())
    wrong = {str(p.relative_to(FIXTURES)): why for p in files if (why := _misplaced(p)) is not None}
    assert not wrong, f"see fixtures/README.md: {wrong}"
