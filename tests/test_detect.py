"""Format detection on every input fixture: by file name and extension, and by content alone."""

from __future__ import annotations

from pathlib import Path

import pytest

import bibconv
from bibconv.errors import FormatError
from tests.golden import FIXTURES, is_golden, is_shared, shared_samples_below
from tests.tools import shared_location

# fixture directory -> (format its inputs are in, extensions of its inputs)
INPUT_DIRS = {
    "atom": ("atom", (".xml", ".atom")),
    "rss": ("atom", (".xml",)),
    "ris": ("ris", (".ris",)),
    "bibtex": ("bibtex", (".bib", ".bibtex", ".biblatex")),
    "html": ("html", (".html",)),
    "text": ("text", (".txt",)),
    "arxiv-jsonl": ("arxiv-jsonl", (".jsonl",)),
    "csljson": ("csljson", (".json",)),
}
NOT_A_FORMAT = {"not_a_listing.txt"}  # on purpose: nothing bibliographic in it


def inputs() -> list[tuple[str, Path]]:
    found = []
    for directory, (fmt, extensions) in INPUT_DIRS.items():
        own = [
            path
            for kind in ("read", "invalid")
            for path in sorted((FIXTURES / directory / kind).rglob("*"))
            if path.suffix in extensions and not is_golden(path)
        ]
        for path in own + shared_samples_below(directory, *extensions):
            if path.name not in NOT_A_FORMAT:
                found.append((fmt, path))
    return found


CASES = inputs()


def case_id(path: Path) -> str:
    """The input's place in fixtures/, or in the shared folder."""
    return str(path.relative_to(shared_location() if is_shared(path) else FIXTURES))


@pytest.mark.shared
def test_every_input_directory_has_cases() -> None:
    assert {fmt for fmt, _ in CASES} == {fmt for fmt, _ in INPUT_DIRS.values()}
    assert len(CASES) > 150


@pytest.mark.parametrize(("fmt", "path"), CASES, ids=[case_id(p) for _, p in CASES])
def test_detected_by_name_and_by_content(fmt: str, path: Path) -> None:
    by_name = bibconv.detect(path)
    assert by_name == ("biblatex" if path.suffix == ".biblatex" else fmt)
    assert bibconv.detect(path.read_bytes()) == fmt


def test_text_that_is_no_listing_asks_for_from() -> None:
    path = FIXTURES / "text" / "invalid" / "not_a_listing.txt"
    with pytest.raises(FormatError, match="pass --from FORMAT"):
        bibconv.detect(path)
