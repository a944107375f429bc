"""External programs the tests compare against (bibutils, …)."""

from __future__ import annotations

import os
import shutil

import pytest

_PACKAGES = {
    "ris2xml": "bibutils",
    "xml2ris": "bibutils",
    "bib2xml": "bibutils",
    "xml2bib": "bibutils",
    "bibtex": "texlive-binaries texlive-base",
    "biber": "biber",
    "pdflatex": "texlive-latex-base",
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
