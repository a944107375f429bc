"""Tables of an authors row above each title row: the two rows read as one where they stand
(``pagememory.joined``) give what the row made of their cells gives: its text, lines, the elements
of each query, its title and its entry."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from bibconv.formats.listing.blocks import Hints, block_entry, title_node
from bibconv.formats.listing.dom import clean, joined, line_links, parse, remembered_texts, text_of
from bibconv.formats.listing.pagememory import _SIMPLE, select
from tests.tools import require_shared

_NAMES = ["Ann Lee and Bob Ray", "Chen Wu, Dana Scott and Eve Moss", "Farid Haddad"]
_TITLES = [
    "A study of the many ways of reading tables",
    "Joining rows of a conference table into one",
    "What an authors row above a title row means",
]


def _table(names_cells: str, title_cells: str, title_row: str = "<tr>") -> str:
    """A page of three papers, each an authors row (``{n}``: the names) above a title row (``{t}``)."""
    body = "".join(
        f"<tr>{names_cells.format(n=n, i=i)}</tr>\n{title_row}{title_cells.format(t=t, i=i)}</tr>\n"
        for i, (n, t) in enumerate(zip(_NAMES, _TITLES, strict=True), 1)
    )
    return f"<html><body><h1>Accepted papers</h1><table>\n{body}</table></body></html>"


PAGES = {
    "plain cells": _table("<td>{i}</td><td>{n}</td>", "<td>&nbsp;</td><td><i> {t}</i></td>"),
    "title link": _table("<td>{n}</td>", '<td><a href="https://x.org/{i}">{t}</a> (pdf)</td>'),
    "title heading": _table("<td>{n}</td>", "<td><h4>{t}</h4></td>"),
    "empty heading in the names row": _table("<td><h4></h4>{n}</td>", "<td><h4>{t}</h4></td>"),
    "title class": _table("<td>{n}</td>", '<td class="paper-title">{t}</td>'),
    "title class on the row": _table("<td>{n}</td>", "<td>{t}</td>", '<tr class="title">'),
    "bold names": _table("<td><b>{n}</b></td>", "<td>{t}</td>"),
    "linked names": _table('<td><a href="/p/{i}">{n}</a></td>', "<td><b>{t}</b></td>"),
    "nested table": _table("<td>{n}</td>", "<td><table><tr><td>{t}</td></tr></table></td>"),
    "spaces between cells": _table("\n  <td>{n}</td>\n  ", "\n  <td>{t}</td>\n  <td>Oral</td>\n"),
    "header cells and a date": _table("<th>{i}</th><td>{n}</td>", "<td>{t}</td><td>12 May 2021</td>"),
}
REAL = ("corpus", "html-wild", "recomb2013_accepted.html")


def _page(name: str) -> str:
    return require_shared(*REAL).read_text(encoding="utf-8") if name == "real" else PAGES[name]


def _cells_row(rows: tuple[Any, Any]) -> Any:
    """The row made of the two rows' cells, parsed apart from the page."""
    cells = "".join(cell.html or "" for row in rows for cell in row.iter() if cell.tag in ("td", "th"))
    return parse(f"<table><tr>{cells}</tr></table>").css_first("tr")


def _answers(row: Any) -> tuple[object, ...]:
    """What the reading of a listing asks of a row: its text, its lines, the elements of each query
    (their tags and texts), its title and its entry."""
    queries = [(query, [(e.tag, text_of(e)) for e in select(row, query)]) for query in sorted(_SIMPLE)]
    title, how = title_node(row)
    return (
        text_of(row),
        line_links(row),
        queries,
        (title and title.tag, text_of(title), how),
        block_entry(row, Hints()),
    )


@pytest.mark.parametrize("name", [*sorted(PAGES), "real"])
def test_rows_joined_where_they_stand_read_as_the_row_of_their_cells(name: str) -> None:
    tree = parse(_page(name))
    clean(tree)
    pairs = list(pairwise(tree.css("tr")))
    expected = [_answers(_cells_row(pair)) for pair in pairs]  # read without the page's memory
    with remembered_texts(tree.body):
        for query in ("a[href]", "td, th"):  # some queries answered before the rows are joined, some after
            select(tree.body, query)
        made = [joined(list(pair)) for pair in pairs]
        assert [_answers(row) for row in made] == expected
