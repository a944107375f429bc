"""Tables of several rows per paper: an authors row above each title row, the two joined into one.

A row is ``names`` when its cells hold only names (and numbers), ``title`` when it has a title
(:func:`~bibconv.formats.listing.blocks.title_node`). Where such pairs make most of a table's rows,
each pair's cells become one row of a table parsed once for all, which is read like any row; what
was found about the two rows' texts serves the row they make (their item memories).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from bibconv.formats.listing.blocks import title_node
from bibconv.formats.listing.common import looks_like_names
from bibconv.formats.listing.dom import parse, remember_as, remember_tree, remembered, text_of
from bibconv.formats.listing.memo import item_memory, one_item
from bibconv.formats.listing.pagememory import select

__all__ = ["joined_rows", "row_kind"]


def row_kind(row: Any) -> str:
    """``names`` for a row of only names (and numbers), ``title`` for one with a title, else ``other``."""
    return remembered(row, _kind_of_row)


def _kind_of_row(row: Any) -> str:
    with one_item(remembered(row, item_memory)):
        return _classify_row(row)


def _classify_row(row: Any) -> str:
    texts = [t for t in (text_of(c) for c in select(row, "td, th")) if t and not t.isdigit()]
    if texts and all(looks_like_names(t) for t in texts):
        return "names"
    return "title" if title_node(row)[0] is not None else "other"


def joined_rows(rows: list[Any]) -> list[tuple[Any, Any]]:
    """``(row to read, row on the page)``: where an authors row precedes each title row, the two are
    joined into one row per paper."""
    kinds = [row_kind(r) for r in rows]
    pairs = sum(1 for a, b in pairwise(kinds) if (a, b) == ("names", "title"))
    if pairs < 2 or pairs < 0.4 * len(rows):
        return [(r, r) for r in rows]
    joined: list[tuple[Any, Any, bool]] = []  # (row to read, row on the page, to be joined)
    index = 0
    while index < len(rows):
        if kinds[index] == "names" and index + 1 < len(rows) and kinds[index + 1] == "title":
            joined.append((rows[index + 1], rows[index], True))
            index += 2
        else:
            joined.append((rows[index], rows[index], False))
            index += 1
    return _with_joined_rows(joined)


def _with_joined_rows(joined: list[tuple[Any, Any, bool]]) -> list[tuple[Any, Any]]:
    """Each authors row's and title row's cells made one row, all in one table parsed once (and
    walked once with the page); what was read of the two rows serves the row they make."""
    pairs = [(shown, title) for title, shown, join in joined if join]
    made = _made_rows([f"{_cells(names)}{_cells(title)}" for names, title in pairs])
    for row, (names, title) in zip(made, pairs, strict=True):
        if row is not None:
            read = {**remembered(names, item_memory), **remembered(title, item_memory)}
            remember_as(row, item_memory, read)
    rows = iter(made)
    return [((next(rows) or row) if join else row, shown) for row, shown, join in joined]


def _made_rows(cells: list[str]) -> list[Any | None]:
    """A row for each run of cells: one parse for all of them, else one each (``None`` where none)."""
    if not cells:
        return []
    tree = parse("<table>" + "".join(f"<tr>{c}</tr>" for c in cells) + "</table>")
    rows: list[Any | None] = list(tree.css("table > tbody > tr"))
    if len(rows) != len(cells):  # markup the parse did not give back row for row
        trees = [parse(f"<table><tr>{c}</tr></table>") for c in cells]
        rows = [t.css_first("tr") for t in trees]
        for each in trees:
            remember_tree(each)
    else:
        remember_tree(tree)
    return rows


def _cells(row: Any) -> str:
    return "".join(c.html or "" for c in select(row, "td, th"))
