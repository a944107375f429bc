"""search_date skips the stretches of text a word stops from being a date: it finds what parsing
every stretch around every year finds, on the text of real pages and on made-up text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bibconv import dates
from bibconv.dates import search_date
from bibconv.formats.listing.dom import parse, text_of
from tests.golden import FIXTURES
from tests.tools import shared_root


def _every_stretch(text: str, lang: str | None) -> tuple[object, int, int] | None:
    """search_date without its shortcuts: each stretch around each year parsed, widest first."""
    tokens = list(dates._SEARCH_TOKEN.finditer(text))
    for index, token in enumerate(tokens):
        if len(token[0]) != 4 or not token[0].isdigit():
            continue
        for start, end in dates._windows(len(tokens), index, 4, 6):
            if start == end:
                continue
            begin, finish = tokens[start].start(), tokens[end].end()
            found = dates._parse(text[begin:finish], lang, None, words=True)
            if found is not None and found.month is not None:
                return found, begin, finish
    return None


def _texts() -> list[str]:
    pages = sorted((FIXTURES / "html" / "read").rglob("*.html"))
    root = shared_root()
    if root is not None:
        pages += sorted((root / "corpus").glob("html-*/*.html"))
    texts: set[str] = set()
    for page in pages:
        tree = parse(page.read_text(encoding="utf-8", errors="replace"))
        for node in tree.css("li, p, tr, dd, dt, td, span, time, em, i"):
            text = text_of(node)
            if re.search(r"\d{4}", text) and len(text) < 400:
                texts.add(text)
    return sorted(texts)


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


@pytest.mark.parametrize("lang", [None, "en", "fr", "ja"])
def test_search_date_finds_what_every_stretch_finds_on_real_text(texts: list[str], lang: str | None) -> None:
    assert len(texts) > 1000
    for text in texts:
        assert search_date(text, lang) == _every_stretch(text, lang), text


_PIECES = st.sampled_from(
    [" ", ", ", ".", ":", "-", "/", "(", ")", "T", "t", "Data", "Proc.", "May", "mai", "Mar.", "Spring",
     "Tue", "th", "am", "UTC", "gmt", "CEST", "e", "12", "3", "08", "435", "2019", "2026", "13:435",
     "10:00", "12:30:45", "+02:00", "-05", "2019-05-03", "2019-05-03T10:00", "年", "月", "日", "2020年"]
)  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=16), lang=st.sampled_from([None, "en", "de"]))
def test_search_date_finds_what_every_stretch_finds_on_made_up_text(
    pieces: list[str], lang: str | None
) -> None:
    text = "".join(pieces)
    assert search_date(text, lang) == _every_stretch(text, lang), text
