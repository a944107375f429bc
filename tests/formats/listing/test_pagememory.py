"""The page memory's answers are lexbor's: its queries of tags and attributes, on real pages; an
element's text is its events' text, white space collapsed, however it was found."""

from __future__ import annotations

from pathlib import Path

import pytest

from bibconv.formats.listing.dom import clean, parse, remembered_texts, text_of
from bibconv.formats.listing.pagememory import _SIMPLE, page_memory, select, select_first
from bibconv.formats.listing.values import clean_space
from tests.golden import FIXTURES

PAGES = [
    FIXTURES / "html" / "read" / "own" / "table_es.html",
    FIXTURES / "html" / "read" / "own" / "cards_fr.html",
    FIXTURES / "html" / "read" / "sites" / "own_dblp_person_modern.html",
    FIXTURES / "html" / "read" / "sites" / "goscholar_search_citation_corr_2016_trimmed.html",
]


def _ids(nodes: list[object]) -> list[int]:
    return [node.mem_id for node in nodes]  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_select_is_lexbor_css(path: Path) -> None:
    tree = parse(path.read_text(encoding="utf-8"))
    clean(tree)
    with remembered_texts(tree.body):
        memory = page_memory()
        assert memory is not None
        elements = memory.elements(tree.body) or []
        assert len(elements) > 20
        for query in sorted(_SIMPLE):
            for element in elements:
                assert _ids(select(element, query)) == _ids(list(element.css(query))), (query, element.tag)
                first = select_first(element, query)
                expected = element.css_first(query)
                assert (first and first.mem_id) == (expected and expected.mem_id)


def _wrapped_page() -> str:
    """Items inside wrappers of every kind: blocks alone or beside a little text, an inline one, and
    one holding two large blocks."""
    items = "".join(f"<li>Item <b>{i}</b>, a paper\n by Ann Lee<br>2021</li>" for i in range(800))
    return (
        "<html><body> Top <div id=a><table><tr><td><section> Intro <ul>" + items + "</ul> outro</section>"
        "</td></tr></table><span><div>" + items + "</div></span> tail <div>" + items + "</div>"
        "<div><p>x</p>" + items + "</div></div></body></html>"
    )


@pytest.mark.parametrize("path", [*PAGES, None], ids=lambda p: p.name if p else "wrappers")
def test_text_is_the_events_text(path: Path | None) -> None:
    tree = parse(path.read_text(encoding="utf-8") if path else _wrapped_page())
    clean(tree)
    with remembered_texts(tree.body):
        memory = page_memory()
        assert memory is not None
        elements = memory.elements(tree.body) or []
        for element in reversed(elements) if path else elements:  # a wrapper asked before or after its blocks
            start, end = memory.span(element) or (0, 0)
            assert text_of(element) == clean_space("".join(memory.pieces[start:end])), element.tag
