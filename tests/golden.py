"""Golden-file comparison shared by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

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
