"""fixtures/ holds bibconv's own files only: no copy of a real-world sample from the shared folder."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.golden import FIXTURES
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
