"""BIREME's iAH result lists (``iAH powered by WWWISIS``), the search interface of the ISIS
catalogues of SciELO, LILACS and other Latin American health and science libraries.

Each hit is a citation in ISO 690 (``font.isoref``): the authors as ``Family, Given`` apart by
commas with ``and`` before the last (``et al.`` when the list is cut, a closing period after a
single name), the title in ``font.negrito`` with a closing period, the journal in ``<i>``, then the date
(``Aug 2019``, ``Set 2018``), ``vol.``, ``no.``, ``p.`` and ``ISSN``. The links under it lead
to the abstract and the full text (``script=sci_arttext&pid=S…``).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, text_of
from bibconv.formats.listing.sites import Item, Page, person, site, without_final_period
from bibconv.model import Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["IAH"]

_CITATION = "font.isoref"
_TITLE = "font.negrito"
_MORE = lazy(r"(?<!\S)et\s++al\.?$")
_CLOSING = lazy(r"(?<=\w\w)\.$")
"""A period closing the list, after a word of two letters or more (``Fraga, Mari.``, not ``A.``)."""
_FIELDS = (
    ("volume", lazy(r"\bvol\.\s*([^,\s]+)")),
    ("issue", lazy(r"\bno\.\s*([^,\s]+)")),
    ("page", lazy(r"\bp\.\s*([\w-]+)")),
    ("ISSN", lazy(r"\bISSN\s+(\d{4}-\d{3}[\dXx])")),
)


def _names(text: str) -> tuple[tuple[Name, ...], bool]:
    """ISO 690 names (``Beskow, Murilo and Sand, Cezar``) and whether ``et al.`` cuts the list."""
    text = clean_space(text)
    more = _MORE.search(text)
    if more:
        text = text[: more.start()].rstrip()
    text = _CLOSING.sub("", text).strip(" ,")
    parts = [p.strip() for p in re.split(r", | and ", text) if p.strip()]
    if not parts:
        return (), bool(more)
    if len(parts) % 2:  # not Family, Given pairs: the list as shown
        name = person(text)
        return ((name,) if name is not None else ()), bool(more)
    return tuple(Name(family=f, given=g) for f, g in zip(parts[::2], parts[1::2], strict=True)), bool(more)


def _record(node: Any, base: str | None) -> Item | None:
    title_node = node.css_first(_TITLE)
    if title_node is None:
        return None
    before: list[str] = []
    for child in node.iter(include_text=True):
        if child.mem_id == title_node.mem_id:
            break
        before.append(child.text(deep=True))
    title = without_final_period(text_of(title_node))
    if not title:
        return None
    entry = Entry(title=title, record_type="article-journal")
    entry.authors, entry.more_authors = _names(" ".join(before))
    journal = node.css_first("i")
    rest = ""
    if journal is not None:
        entry.fields["container-title"] = text_of(journal)
        after = text_of(node).partition(text_of(journal))[2]
        rest = clean_space(after).strip(" ,")
    date_text = rest.split(",", 1)[0].strip(" .")
    issued = parse_date(date_text) if date_text else None
    if issued is not None:
        entry.issued = issued
    for field, pattern in _FIELDS:
        found = pattern.search(rest)
        if found:
            entry.fields[field] = found.group(1).rstrip(".")
    links = node.parent.css("a[href*='script=sci_arttext']") if node.parent is not None else []
    if links:
        entry.url = absolute(links[0].attributes.get("href"), base)
    return Item(entry, node)


@site
class IAH:
    """iAH (WWWISIS) result lists."""

    name: ClassVar[str] = "iah"

    def claims(self, page: Page) -> bool:
        if page.tree.css_first(f"{_CITATION} {_TITLE}") is None:
            return False
        vendor = page.tree.css_first("a[href*='bireme.br/isis']")
        return page.title.startswith("iAH ") or vendor is not None

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_record(node, page.base) for node in page.tree.css(_CITATION))
        return [item for item in found if item is not None]
