"""Every citation of docs/decisions.md in the code, the tests and the README names a section that exists,
and nothing cites a document that is not in the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECISIONS = ROOT / "docs" / "decisions.md"
CITATION_RE = re.compile(r"decisions\.md#([A-Za-z0-9_-]+)")
# A section number of an outside document ("§2.10", "§ 5.1"), or the name of the notes once cited.
OUTSIDE_RE = re.compile(r"§\s?\d+\.\d+|\bANCHORS\b")


def _slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _sections() -> set[str]:
    text = DECISIONS.read_text(encoding="utf-8")
    return {_slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def _sources() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "fixtures" / "README.md", DECISIONS]
    for folder in ("bibconv", "tests", "benchmarks"):
        found += sorted((ROOT / folder).rglob("*.py"))
    return [p for p in found if p != Path(__file__).resolve()]


def test_every_citation_names_a_section() -> None:
    sections = _sections()
    cited = {
        (str(path.relative_to(ROOT)), anchor)
        for path in _sources()
        for anchor in CITATION_RE.findall(path.read_text(encoding="utf-8"))
    }
    assert cited, "no citation found: is the pattern right?"
    missing = sorted((where, anchor) for where, anchor in cited if anchor not in sections)
    assert not missing, f"citations of sections docs/decisions.md does not have: {missing}"


def test_nothing_cites_a_document_outside_the_repository() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE_RE.search(line)
    ]
    assert not outside, outside


def test_the_slugs_are_github_s() -> None:
    assert _slug(" arXiv pages and feeds") == "arxiv-pages-and-feeds"
    assert _slug(" TeX decoding") == "tex-decoding"
