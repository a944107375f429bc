"""External programs the tests compare against (bibutils, …)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

_PACKAGES = {
    "ris2xml": "bibutils",
    "xml2ris": "bibutils",
    "bib2xml": "bibutils",
    "xml2bib": "bibutils",
    "bibtex": "texlive-binaries texlive-base",
    "biber": "biber",
    "pdflatex": "texlive-latex-base",
    "lualatex": "texlive-luatex",
    "pandoc": "pandoc",
}


def require_tool(name: str) -> str:
    """The path of the program ``name``; fail the test when it is missing.

    With ``BIBCONV_ALLOW_MISSING_TOOLS=1`` in the environment a missing program skips the
    test instead (for machines where the program cannot be installed; CI installs them).
    """
    path = shutil.which(name)
    if path is not None:
        return path
    package = _PACKAGES.get(name, name)
    message = (
        f"the program {name!r} is needed by this test but is not installed (Debian/Ubuntu: "
        f"apt-get install {package}); set BIBCONV_ALLOW_MISSING_TOOLS=1 to skip such tests"
    )
    if os.environ.get("BIBCONV_ALLOW_MISSING_TOOLS") == "1":
        pytest.skip(message)
    pytest.fail(message)


SHARED_ENV = "BIBCONV_SHARED"


def shared_root() -> Path | None:
    """The folder of shared real-world material (corpus, peer suites), or None when absent.

    ``$BIBCONV_SHARED`` names it; otherwise it is ``../shared`` beside the repository.
    """
    root = shared_location()
    return root if root.is_dir() else None


def shared_location() -> Path:
    """Where the shared folder is looked for (``$BIBCONV_SHARED``, else ``../shared``), present or not."""
    named = os.environ.get(SHARED_ENV)
    return Path(named) if named else Path(__file__).resolve().parents[2] / "shared"


SHARED_MISSING = f"real-world material not found: set ${SHARED_ENV} or place it at ../shared"


def require_shared(*parts: str) -> Path:
    """The path ``parts`` below the shared folder; skip the test with the reason when it is absent."""
    root = shared_root()
    if root is None:
        pytest.skip(SHARED_MISSING)
    path = root.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real-world sample {path} is absent")
    return path
