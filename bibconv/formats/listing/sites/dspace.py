"""DSpace repositories: browse and search result lists (XMLUI, the Mirage and Mirage2 themes).

Each ``li.ds-artifact-item`` of a ``ul.ds-artifact-list`` is one item: the title link in
``.artifact-title``, then ``.artifact-info`` with the authors (``Family, Given``, one
element each), the publisher and the date in parentheses and the item type in brackets,
then ``.artifact-abstract`` (cut short by DSpace: kept as shown and noted). A page saved
without its address gives the item's handle (``/handle/1721.1/99280``, or the one its COinS
span names) as its ``hdl.handle.net`` URL; what the COinS span says of the same work and
the item does not show (DOI, ISSN, journal) is added.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import parse_qsl

from bibconv.formats.listing import structured
from bibconv.formats.listing.common import Entry
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, site
from bibconv.formats.listing.sites.catalogue import catalogue_name, material_type, year_or_date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["DSpace"]


_HANDLE = lazy(r"/handle/(\d+(?:\.\d+)*/\d+)/?$")


def _handle(node: Any, href: str | None) -> str | None:
    """The item's handle address: from its COinS span, else from its ``/handle/…`` link."""
    span = node.css_first("span.Z3988[title]")
    for key, value in parse_qsl(span.attributes.get("title") or "") if span is not None else []:
        if key == "rft_id" and "hdl.handle.net/" in value:
            return "https://hdl.handle.net/" + str(value).partition("hdl.handle.net/")[2]
    match = _HANDLE.search(href or "")
    return f"https://hdl.handle.net/{match.group(1)}" if match else None


def _item(node: Any, page: Page) -> Item | None:
    title = node.css_first(".artifact-title a[href]") or node.css_first(".artifact-title")
    if title is None or not text_of(title):
        return None
    entry = Entry(title=rich_of(title), title_is_rich=True)
    info = node.css_first(".artifact-info") or node
    authors = info.css(".author > span, .author small > span") or info.css(".author")
    entry.authors = tuple(n for a in authors if (n := catalogue_name(text_of(a))) is not None)
    date = info.css_first(".date")
    entry.issued = year_or_date(text_of(date), page.lang) if date is not None else None
    publisher = info.css_first(".publisher")
    if publisher is not None and text_of(publisher):
        entry.fields["publisher"] = text_of(publisher)
    material_type(entry, info.css_first(".type"), "genre")
    abstract = node.css_first(".artifact-abstract")
    entry.abstract = text_of(abstract) if abstract is not None else ""
    href = title.attributes.get("href")
    entry.url = absolute(href, page.base) or _handle(node, href)
    for coins in structured.coins(node):  # what the item's COinS span says and the item does not show
        if structured.same_work(entry, coins):
            structured.merge(entry, coins)
    return Item(entry, node)


@site
class DSpace:
    """DSpace browse and search result lists."""

    name: ClassVar[str] = "dspace"

    def claims(self, page: Page) -> bool:
        generator = (page.meta("generator") or "").lower()
        listed = page.tree.css_first("ul.ds-artifact-list li.ds-artifact-item") is not None
        return listed and ("dspace" in generator or page.tree.css_first(".artifact-title") is not None)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_item(n, page) for n in page.tree.css("ul.ds-artifact-list li.ds-artifact-item"))
        return [item for item in found if item is not None]
