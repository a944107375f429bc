"""The listing reader's shortcuts give what its general reading gives, on real pages and made-up text.

A block whose lines cannot hold byline names is read as a citation first
(``blocks._without_byline_names``), its structured reading skipped when the citation reads: the
structured reading gives way to the citation whenever it finds no authors, and the test that it
finds none (``authors.never_names``, ``common.byline_without_names``) must never say so wrongly.
A name whose family ends in a lower-case letter is not read as family and initials
(``authors._family_initials``) without the full rule being asked. ``looks_like_names`` takes a piece
of capitalised ASCII words as a name without the word-by-word tests, counts title words only in text
that holds one in any case, and looks for a piece too long only where a word is.
An authors row of a two-row table is asked whether it looks like a paper only while the count of a
kind's papers is short (``generic._enough``): it stays beside its title row whatever the answer.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bibconv
from bibconv.errors import ParseError
from bibconv.formats.listing import authors, blocks, generic
from bibconv.formats.listing.authors import _INITIALS, _family_initials, looks_like_names, never_names
from bibconv.formats.listing.common import byline_without_names, parse_byline
from bibconv.formats.listing.dom import line_links, parse
from bibconv.model import Name
from tests.formats.listing.test_rows import PAGES as TWO_ROW_PAGES
from tests.golden import FIXTURES
from tests.tools import shared_root


def _pages() -> list[Path]:
    pages = sorted((FIXTURES / "html").rglob("*.html"))
    root = shared_root()
    if root is not None:
        pages += sorted((root / "corpus").glob("html-*/*.html"))
    return pages


def _records(path: Path | bytes) -> list[bibconv.Record]:
    try:
        return bibconv.read(path, "html")
    except ParseError:  # a page that holds no paper
        return []


@pytest.mark.parametrize("path", _pages(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_citations_read_first_give_the_same_records(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shortcut = _records(path)
    monkeypatch.setattr(blocks, "_without_byline_names", lambda *_: False)
    assert shortcut == _records(path)


def _every_row_asked(count: int, authors_rows: Any, least: float) -> bool:
    total = count + sum(1 for row in authors_rows if generic._paper_like(row))
    return total > 0 and total >= least


def _name(page: Path | str) -> str:
    return f"{page.parent.name}/{page.name}" if isinstance(page, Path) else page


@pytest.mark.parametrize("page", [*_pages(), *sorted(TWO_ROW_PAGES)], ids=_name)
def test_authors_rows_asked_while_short_give_the_same_records(
    page: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = page if isinstance(page, Path) else TWO_ROW_PAGES[page].encode()
    shortcut = _records(data)
    monkeypatch.setattr(generic, "_enough", _every_row_asked)
    assert shortcut == _records(data)


def _lines(path: Path) -> list[str]:
    tree = parse(path.read_text(encoding="utf-8", errors="replace"))
    lines: set[str] = set()
    for node in tree.css("li, p, div, tr, td, dd, dt, article, section"):
        lines.update(text for text, _ in line_links(node) if text)
    return sorted(lines)


@pytest.mark.parametrize("path", _pages(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_byline_names_where_none_are_said(path: Path) -> None:
    for text in _lines(path):
        byline = parse_byline(text) if byline_without_names(text) else None
        assert byline is None or not byline.authors, text


_WORDS = st.sampled_from(
    ["Ann", "Lee", "B.", "Ray", "van", "der", "and", "et", "a", "d'a", "l'et", "of", "Deep", "Learning",
     "(MIT)", "(Univ.", "Oxford)", "(", ")", ",", ";", "&", "Authors:", "by", "2019", "May", "12", "—",
     "Müller", "Zoë", "and-or", "R&D", "Proc.", "In:"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(head=st.lists(_WORDS, max_size=14), tail=st.lists(_WORDS, max_size=8))
def test_never_names_is_never_wrong(head: list[str], tail: list[str]) -> None:
    text = " ".join(head + tail)
    if never_names(" ".join(head) + " "):
        assert not looks_like_names(text), text
    if byline_without_names(text):
        byline = parse_byline(text)
        assert byline is None or not byline.authors, text


def test_never_names_knows_titles_not_names() -> None:
    assert never_names("Ann Lee and Bob Ray. A study of things in the world of ")
    assert not never_names("Ann Lee, Bob Ray, Carl Day, Dan Fry, Eve Gold, Fay Hill, Gus Ivy ")
    assert looks_like_names("Authors : Ann Lee Bob Ray Carl Day")  # the label is not a name
    assert not never_names("Authors : Ann Lee Bob Ray Carl Day ")
    assert not never_names("Ann Lee (University of the North in the far cold land of ")  # may close
    assert not never_names("Ann Lee. A study of things in the {world} of many ")  # TeX: not known
    assert byline_without_names("Ann Lee. A study of things in the world of cats. Nature 12(3), 2019")
    assert not byline_without_names("Ann Lee, Bob Ray · 20 May 2019")


def _family_initials_in_full(name: Name) -> Name:
    """authors._family_initials without its shortcut for a family ending in a lower-case letter."""
    if not name.family or not name.given or name.non_dropping_particle or name.literal:
        return name
    words = f"{name.given} {name.family}".split()
    initials = words[1:]
    dotted = len(initials) == 1 or all(w.endswith(".") for w in initials)
    if len(words) >= 2 and dotted and not _INITIALS.match(words[0]) and all(map(_INITIALS.match, initials)):
        return replace(name, family=words[0], given=" ".join(words[1:]))
    return name


_NAME_WORDS = st.sampled_from(
    ["Fedon", "C.", "Le", "P.", "T.", "JR", "A-", "B.-C.", "ab", "Igel", "é", "ß", "Ng", "x.", "", " "]
)


@settings(max_examples=500, deadline=None)
@given(given_words=st.lists(_NAME_WORDS, max_size=4), family_words=st.lists(_NAME_WORDS, max_size=3))
def test_family_initials_shortcut_is_the_full_rule(given_words: list[str], family_words: list[str]) -> None:
    name = Name(given=" ".join(given_words) or None, family=" ".join(family_words) or None)
    assert _family_initials(name) == _family_initials_in_full(name)


def _names_shortcuts_hold(text: str) -> None:
    """Each shortcut of looks_like_names gives what its full test gives on ``text``."""
    assert authors._long_piece(text) == any(
        "and" not in (run := m.group()) or not authors._AND.search(run)
        for m in authors._UNBROKEN.finditer(text)
    ), text
    words = text.split()
    capitalised = {w.lower().strip(",;:") for w in words if w[:1].isupper()}
    assert authors._two_title_words(text, words) == (len(capitalised & authors._TITLE_WORDS) >= 2), text
    for piece in authors._NAME_BREAK.split(text):
        if authors._CAPITALISED.fullmatch(piece.strip()):
            assert authors._reads_as_name(piece.strip()), piece


@pytest.mark.parametrize("path", _pages(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_names_shortcuts_on_real_lines(path: Path) -> None:
    for text in _lines(path):
        _names_shortcuts_hold(text)


_PIECE_WORDS = st.sampled_from(
    ["Ann", "Lee", "B.", "O'Neil", "Dürr", "McGrath", "De", "van", "Of", "Learning", "Deep", "and", ",", ";",
     ":", "Model,", "X" * 61, "ab" * 31, "DE", "Jean-Luc", "-Smith", "Øst", "A\u0301", "\t", "ſ"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(words=st.lists(_PIECE_WORDS, max_size=12), joiner=st.sampled_from([" ", "  ", ", ", " and "]))
def test_names_shortcuts_on_made_up_text(words: list[str], joiner: str) -> None:
    _names_shortcuts_hold(joiner.join(words))
