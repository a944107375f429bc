"""Redalyc article search results (``redalyc.org``, ``og:site_name`` ``Redalyc.org``), as a browser
saves them after drawing them.

Each ``div.contentcard`` is one article: the title (``span.title``) linked to the article
(``articulo.oa?id=…``, or its JATS reader page), the journal (``a.nomRevista-hover``, closed by a
comma), then the issue link: the year and the volume (``2011,19``, ``2017,`` when there is none)
and the number in parentheses (``(1-2)``). The share link holds the article's absolute address.
The text under the title is a full-text excerpt around the search words (names, affiliations,
headings run together): it is not the abstract, and the names in it are not read as authors.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, text_of
from bibconv.formats.listing.sites import Item, Page, site
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Redalyc"]

_CARDS = "div.contentcard"
_YEAR_VOLUME = lazy(r"^((?:1[5-9]|20)\d\d)\s*,\s*(\S*)$")


def _address(card: Any, base: str | None) -> str | None:
    """The article's address: the title link when absolute, else the one the share link gives."""
    link = card.css_first("span.title")
    link = link.parent if link is not None else None
    href = link.attributes.get("href") if link is not None and link.tag == "a" else None
    if href and absolute(href, None):
        return absolute(href, None)
    share = card.css_first("a[href*='facebook.com/sharer.php']")
    if share is not None:
        shared = parse_qs(urlsplit(share.attributes.get("href") or "").query).get("u")
        if shared and absolute(shared[0], None):
            return shared[0]
    return absolute(href, base)


def _record(card: Any, base: str | None) -> Item | None:
    title = clean_space(text_of(card.css_first("span.title")))
    if not title:
        return None
    entry = Entry(title=title, record_type="article-journal")
    journal = clean_space(text_of(card.css_first("a.nomRevista-hover"))).rstrip(" ,")
    if journal:
        entry.fields["container-title"] = journal
    issue_link = card.css_first("a.articulo-hover")
    spans = issue_link.css("span") if issue_link is not None else []
    year_volume = _YEAR_VOLUME.match(clean_space(text_of(spans[0]))) if spans else None
    if year_volume:
        entry.issued = Date(parts=((int(year_volume.group(1)),),))
        if year_volume.group(2):
            entry.fields["volume"] = year_volume.group(2)
    number = clean_space(text_of(spans[1])).strip("()") if len(spans) > 1 else ""
    if number:
        entry.fields["issue"] = number
    entry.url = _address(card, base)
    return Item(entry, card)


@site
class Redalyc:
    """Redalyc search result cards."""

    name: ClassVar[str] = "redalyc"

    def claims(self, page: Page) -> bool:
        if page.tree.css_first(f"{_CARDS} span.title") is None:
            return False
        return page.meta("og:site_name") == "Redalyc.org" or page.on("redalyc.org")

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_record(card, page.base) for card in page.tree.css(_CARDS))
        return [item for item in found if item is not None]
