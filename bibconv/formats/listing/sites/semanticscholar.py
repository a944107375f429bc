"""Semantic Scholar search and author pages as a browser saves them (www.semanticscholar.org).

Each paper is a ``div.cl-paper-row``: the title (``.cl-paper-title``, linking to
``/paper/…``), the authors (``.cl-paper-authors`` links, or their text split by commas),
the venue (``.cl-paper-venue``), the date (``.cl-paper-pubdates``) and the TLDR or abstract
(``.cl-paper-abstract``, ``.tldr-abstract-replacement``). DOI and arXiv links in the row
give the identifiers.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, authors_from_text
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, person, site
from bibconv.model import Arxiv, Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["SemanticScholar"]

_BASE = "https://www.semanticscholar.org/"
_DOI = lazy(r"doi\.org/(10\.\d{4,9}/\S+)$", re.IGNORECASE)


def _authors(node: Any, page: Page) -> tuple[tuple[Any, ...], bool]:
    """The names shown, and whether the row says more authors are hidden (``+ 3 authors``)."""
    block = node.css_first(".cl-paper-authors")
    if block is None:
        return (), False
    cut = any(n.mem_id in page.cut_author_lists for n in (block, *block.css("*")))
    shown = [text_of(a) for a in block.css("a")]
    if not shown:
        return authors_from_text(text_of(block)), cut
    return tuple(n for n in (person(s) for s in shown) if n), cut


def _row(node: Any, page: Page) -> Item | None:
    from bibconv.arxiv import parse_arxiv_id

    title = node.css_first(".cl-paper-title")
    if title is None or not text_of(title):
        return None
    entry = Entry(title=rich_of(title), title_is_rich=True)
    link = node.css_first("a[href*='/paper/']")
    base = page.base or _BASE
    entry.url = absolute(link.attributes.get("href"), base) if link is not None else None
    entry.authors, entry.more_authors = _authors(node, page)
    venue = text_of(node.css_first(".cl-paper-venue"))
    if venue:
        entry.fields["container-title"] = venue
    stamp = text_of(node.css_first(".cl-paper-pubdates"))
    entry.issued = parse_date(stamp) if stamp else None
    if entry.issued is None and re.fullmatch(r"(?:19|20)\d\d", stamp):
        entry.issued = Date(parts=((int(stamp),),))
    abstract = node.css_first(".cl-paper-abstract, .tldr-abstract-replacement")
    entry.abstract = re.sub(r"^TLDR\s*", "", text_of(abstract)) if abstract is not None else ""
    for anchor in node.css("a[href]"):
        href = absolute(anchor.attributes.get("href"), base) or ""
        doi = _DOI.search(href)
        found = parse_arxiv_id(href, bare=False) if "arxiv.org/" in href else None
        if doi and entry.doi is None:
            entry.doi = doi.group(1)
        elif found and entry.arxiv is None:
            entry.arxiv = Arxiv(id=found[0], version=found[1])
    return Item(entry, node)


@site
class SemanticScholar:
    """Reads Semantic Scholar result and author paper lists."""

    name: ClassVar[str] = "semantic-scholar"

    def claims(self, page: Page) -> bool:
        title = text_of(page.tree.css_first("title"))
        if not (page.on("semanticscholar.org") or "Semantic Scholar" in title):
            return False
        return page.tree.css_first("div.cl-paper-row .cl-paper-title") is not None

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_row(n, page) for n in page.tree.css("div.cl-paper-row"))
        return [item for item in found if item is not None]
