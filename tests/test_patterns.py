"""Patterns led by the characters their matches start with (``bibconv.patterns.led_by``) find exactly
what their plain forms find, and the patterns anchored at the text's end match only text that ends
as :func:`bibconv.patterns.may_end` is told: on the text of real pages and on made-up text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bibconv
from bibconv import _names_natural, dates
from bibconv.formats.listing import authors, citation
from bibconv.formats.listing.dom import parse, text_of
from bibconv.patterns import lazy, may_end
from tests.golden import FIXTURES
from tests.tools import shared_root

LED = {
    "_names_natural._ET_AL_RE": _names_natural._ET_AL_RE,
    "_names_natural._LIST_SPLIT_RE": _names_natural._LIST_SPLIT_RE,
    "_names_natural._AND_SPLIT_RE": _names_natural._AND_SPLIT_RE,
    "dates._AMBIGUOUS": dates._AMBIGUOUS,
    "authors._CONJUNCTIONS": authors._CONJUNCTIONS,
    "citation._END": citation._END,
    "citation._DOI": citation._DOI,
    "citation._ARXIV": citation._ARXIV,
    "citation._YEAR": citation._YEAR,
    "citation._VENUE_STOP": citation._VENUE_STOP,
    "citation._ET_AL_END": citation._ET_AL_END,
    "citation._THESIS": citation._THESIS,
    "citation._PAGES": citation._PAGES,
    "citation._VOLUME_WORD": citation._VOLUME_WORD,
    "citation._CONFERENCE": citation._CONFERENCE,
    "citation._JOURNAL": citation._JOURNAL,
}
# Each pattern anchored at the end that is tried only where may_end says so, with its endings.
ENDED = {
    "_names_natural._ET_AL_RE": (_names_natural._ET_AL_RE, _names_natural._ET_AL_ENDINGS),
    "authors._ET_AL": (authors._ET_AL, authors._ET_AL_ENDINGS),
    "citation._ET_AL_END": (citation._ET_AL_END, citation._ET_AL_END_ENDINGS),
}
_LEAD = re.compile(r"^\(\?=(\[(?:\\.|[^\]\\])*\]|\\.|[^\[\\])\)\(\?:(?P<plain>.*)\)$", re.DOTALL)


def _plain(pattern: re.Pattern[str]) -> re.Pattern[str]:
    match = _LEAD.match(pattern.pattern)
    assert match, pattern.pattern
    return re.compile(match.group("plain"), pattern.flags)


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


def _texts() -> list[str]:
    pages = sorted((FIXTURES / "html" / "read").rglob("*.html"))
    root = shared_root()
    if root is not None:
        pages += sorted((root / "corpus").glob("html-*/*.html"))
    texts: list[str] = []
    for page in pages:
        tree = parse(page.read_text(encoding="utf-8", errors="replace"))
        texts.append(text_of(tree.body))
        texts.extend(text_of(node) for node in tree.css("li, p, tr, dd, dt, td"))
    return texts


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


@pytest.mark.parametrize("name", sorted(LED))
def test_led_patterns_find_what_plain_ones_find_on_real_text(name: str, texts: list[str]) -> None:
    led, plain = LED[name], _plain(LED[name])
    for text in texts:
        assert _found(led, text) == _found(plain, text), text[:200]
        assert led.split(text) == plain.split(text)


_CHARS = st.sampled_from(
    [*" \t\n,;&.:-/()[]\"'’”“?!aAeEuUdDhHtTiNn12090x", "and ", "AND ", "et al.", "eds.", "and others",
     "et autres", "u. a.", "10.1234/", "https://doi.org/", "arXiv:", "arxiv.org/abs/", "doi:", "2019", "1999",
     "12/03/2016", "(2019)", "vol.", "pp.", "thesis", "Dissertation", "tesi", "thèse", "Doktorarbeit",
     "ET AL", "Eds", "(eds)", "y otros", "OTHERS", "ſ", "\u2003", "AL.\n"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_CHARS, max_size=40))
def test_led_patterns_find_what_plain_ones_find_on_made_up_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    for led in LED.values():
        assert _found(led, text) == _found(_plain(led), text), text


@pytest.mark.parametrize("name", sorted(ENDED))
def test_patterns_anchored_at_the_end_match_only_what_may_end_lets_through(
    name: str, texts: list[str]
) -> None:
    pattern, endings = ENDED[name]
    for text in texts:
        for tail in (text, text[-40:], text[-12:]):
            assert may_end(tail, endings) or pattern.search(tail) is None, tail


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_CHARS, max_size=40))
def test_patterns_anchored_at_the_end_match_only_what_may_end_lets_through_made_up(pieces: list[str]) -> None:
    text = "".join(pieces)
    for pattern, endings in ENDED.values():
        assert may_end(text, endings) or pattern.search(text) is None, text


def test_every_led_pattern_is_compared() -> None:
    """Each pattern bibconv builds with led_by is in LED."""
    package = Path(bibconv.__file__).resolve().parent
    lines = [line for path in package.rglob("*.py") for line in path.read_text(encoding="utf-8").splitlines()]
    assert len([line for line in lines if "= led_by(" in line]) == len(LED)


def test_a_lazy_pattern_answers_as_its_compiled_form() -> None:
    text = "Ann Lee, Bob Ray; CARL DAY"
    for pattern, flags in ((r"(?P<given>\w+) (\w+)", 0), (r"[,;]\s*", 0), (r"day$", re.I)):
        made, compiled = lazy(pattern, flags), re.compile(pattern, flags)
        assert (made.pattern, made.flags, made.groups, made.groupindex) == (
            compiled.pattern,
            compiled.flags,
            compiled.groups,
            compiled.groupindex,
        )
        assert [m.span() for m in made.finditer(text)] == [m.span() for m in compiled.finditer(text)]
        assert made.split(text) == compiled.split(text)
        assert made.sub("-", text) == compiled.sub("-", text)
        assert made.search(text) is not None
        assert made.findall(text) == compiled.findall(text)
    assert lazy(rb"\d+").findall(b"a 12 b 3") == [b"12", b"3"]
