"""The package type-checks under ``mypy --strict`` (mypy is in the test extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "bibconv"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
