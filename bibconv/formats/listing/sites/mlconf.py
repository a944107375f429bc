"""The conference sites of ICML, ICLR and NeurIPS (icml.cc, iclr.cc, neurips.cc).

Two layouts list the papers: the schedule's cards (``div.maincard``: the type, ``Poster`` or
``Oral``, the title in ``.maincardBody`` and the authors, separated by ``·``, in
``.maincardFooter``), and the virtual site's paper list (links to ``/virtual/2023/poster/…``,
titles only). The conference comes from the site, the year from the links or the page.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, person, site
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["MlConferenceSite"]

_CONFERENCES = {
    "icml.cc": ("ICML", "International Conference on Machine Learning"),
    "iclr.cc": ("ICLR", "International Conference on Learning Representations"),
    "neurips.cc": ("NeurIPS", "Conference on Neural Information Processing Systems"),
    "nips.cc": ("NeurIPS", "Conference on Neural Information Processing Systems"),
}
_VIRTUAL = lazy(r"/virtual/((?:19|20)\d\d)/(?:poster|oral|spotlight|paper)/\d+")
_YEAR = lazy(r"\b((?:19|20)\d\d)\b")
_TYPES = frozenset({"poster", "oral", "spotlight", "talk", "paper"})


def _conference(page: Page) -> tuple[str, str] | None:
    for host, names in _CONFERENCES.items():
        if page.on(host):
            return names
    title = text_of(page.tree.css_first("title"))
    return next((n for n in _CONFERENCES.values() if re.search(rf"\b{n[0]}\b", title)), None)


def _card(node: Any, base: str | None, venue: str, year: Date | None) -> Item | None:
    kind = text_of(node.css_first(".maincardType")).lower()
    body = node.css_first(".maincardBody")
    if body is None or not text_of(body) or (kind and kind not in _TYPES):
        return None
    entry = Entry(title=rich_of(body), title_is_rich=True, record_type="paper-conference", issued=year)
    footer = text_of(node.css_first(".maincardFooter"))
    names = [clean_space(n) for n in re.split(r"(?:(?<!\s)\s++)?[·•]\s*", footer) if clean_space(n)]
    entry.authors = tuple(n for n in (person(x) for x in names) if n)
    entry.fields["container-title"] = venue
    if kind:
        entry.fields["genre"] = kind.capitalize()
    link = node.css_first("a[href]")
    entry.url = absolute(link.attributes.get("href"), base) if link is not None else None
    return Item(entry, node)


def _virtual(link: Any, base: str | None, venue: str) -> Item | None:
    match = _VIRTUAL.search(link.attributes.get("href") or "")
    if match is None or not text_of(link):
        return None
    entry = Entry(title=rich_of(link), title_is_rich=True, record_type="paper-conference")
    entry.issued = Date(parts=((int(match.group(1)),),))
    entry.url = absolute(link.attributes.get("href"), base)
    entry.fields["container-title"] = venue
    return Item(entry, link.parent if link.parent is not None else link)


@site
class MlConferenceSite:
    """Reads the paper lists of the ICML, ICLR and NeurIPS conference sites."""

    name: ClassVar[str] = "ml-conference-site"

    def claims(self, page: Page) -> bool:
        if _conference(page) is None:
            return False
        tree = page.tree
        cards = tree.css_first("div.maincard .maincardBody") is not None
        return cards or any(_VIRTUAL.search(a.attributes.get("href") or "") for a in tree.css("li a[href]"))

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        conference = _conference(page)
        if conference is None:
            return []
        found = _YEAR.search(text_of(page.tree.css_first("title")) + " " + (page.base or ""))
        year = Date(parts=((int(found.group(1)),),)) if found else None
        venue = conference[1]
        items = [_card(n, page.base, venue, year) for n in page.tree.css("div.maincard")]
        if not any(items):
            items = [_virtual(a, page.base, venue) for a in page.tree.css("li a[href]")]
        return [item for item in items if item is not None]
