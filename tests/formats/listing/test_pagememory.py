"""The page memory's answers are lexbor's: its queries of tags and attributes, on real pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from bibconv.formats.listing.dom import clean, parse, remember_tree, remembered_texts
from bibconv.formats.listing.pagememory import _SIMPLE, page_memory, select, select_first
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
    joined = parse(
        "<table><tr><td><a href='#x' class='t'>A <b>title</b></a></td><th>Ann Lee</th></tr></table>"
    )
    with remembered_texts(tree.body):
        memory = page_memory()
        assert memory is not None
        elements = memory.elements(tree.body) or []
        assert len(elements) > 20
        for query in sorted(_SIMPLE):
            for element in elements:
                assert _ids(select(element, query)) == _ids(list(element.css(query))), (query, element.tag)
        remember_tree(joined)  # a tree walked after the page's queries were answered
        for element in [*elements[:50], *joined.root.traverse()]:
            for query in sorted(_SIMPLE):
                assert _ids(select(element, query)) == _ids(list(element.css(query))), (query, element.tag)
                first = select_first(element, query)
                expected = element.css_first(query)
                assert (first and first.mem_id) == (expected and expected.mem_id)
