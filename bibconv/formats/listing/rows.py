"""Tables of several rows per paper: an authors row above each title row, the two joined into one.

A row is ``names`` when its cells hold only names (and numbers), ``title`` when it has a title
(:func:`~bibconv.formats.listing.blocks.title_node`). Where such pairs make most of a table's rows,
each pair is read as one row of the two rows' cells, where they stand
(:func:`~bibconv.formats.listing.pagememory.joined`); what was found about the two rows' texts
serves the row they make (their item memories).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from bibconv.formats.listing.blocks import remember_title, title_node
from bibconv.formats.listing.common import looks_like_names
from bibconv.formats.listing.dom import joined, remember_as, remembered, text_of
from bibconv.formats.listing.memo import item_memory, one_item
from bibconv.formats.listing.pagememory import select

__all__ = ["joined_rows", "row_kind"]

_TITLE_QUERIES = ("h1, h2, h3, h4, h5, h6", "[class]", "a[href]", "b, strong")  # as ``title_node`` asks


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
    read: list[tuple[Any, Any]] = []
    index = 0
    while index < len(rows):
        if kinds[index] == "names" and index + 1 < len(rows) and kinds[index + 1] == "title":
            read.append((_pair(rows[index], rows[index + 1]), rows[index]))
            index += 2
        else:
            read.append((rows[index], rows[index]))
            index += 1
    return read


def _pair(names: Any, title: Any) -> Any:
    """The two rows read as one row of their cells, where they stand; what was read of them serves it.

    The pair's title is the title row's when the authors row holds no element the title search
    looks at before the cells (a heading, an element with a class, a link, bold text) and the title
    row's title is not the row itself (the pair has no attributes): the search would find it there,
    and the authors row's cells (names, numbers) are never a title cell."""
    row = joined([names, title])
    remember_as(row, item_memory, {**remembered(names, item_memory), **remembered(title, item_memory)})
    found = title_node(title)
    if (found[0] is None or found[0].mem_id != title.mem_id) and not any(
        element.mem_id != names.mem_id for query in _TITLE_QUERIES for element in select(names, query)
    ):
        remember_title(row, found)
    return row
