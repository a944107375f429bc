"""Papers with Code lists (paperswithcode.com: trending, latest, a task's or a method's papers).

Each paper is a ``div.paper-card``: the title (``h1 a`` to ``/paper/…``), the authors
(``span.author-span``), the date (``span.item-date-pub``), the conference or journal
(``.item-conference-link``) and the abstract's opening (``p.item-strip-abstract``, cut by
the site, so the record says so).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bibconv import facts
from bibconv.dates import parse_date
from bibconv.formats.listing.common import TRUNCATED_NOTE, Entry
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, claimed_by, person, site
from bibconv.registry import ReadContext

__all__ = ["PapersWithCode"]

_BASE = "https://paperswithcode.com/"


def _card(node: Any, base: str) -> Item | None:
    link = node.css_first("h1 a[href*='/paper/'], h2 a[href*='/paper/']")
    if link is None or not text_of(link):
        return None
    entry = Entry(title=rich_of(link), title_is_rich=True)
    entry.url = absolute(link.attributes.get("href"), base)
    names = [text_of(n) for n in node.css(".author-span")]
    entry.authors = tuple(n for n in (person(x) for x in names) if n)
    date = node.css_first(".item-date-pub")
    entry.issued = parse_date(text_of(date)) if date is not None else None
    venue = node.css_first(".item-conference-link")
    if venue is not None and text_of(venue):
        entry.fields["container-title"] = text_of(venue)
        entry.record_type = "paper-conference"
    abstract = node.css_first(".item-strip-abstract")
    entry.abstract = text_of(abstract)
    if entry.abstract:  # the card shows the abstract's opening only
        facts.add(entry.extra, TRUNCATED_NOTE)
    code = node.css_first(".item-github-link a[href], a[href*='github.com']")
    if code is not None and (code_url := absolute(code.attributes.get("href"), base)):
        entry.extra["html:code_url"] = code_url
    return Item(entry, node)


@site
class PapersWithCode:
    """Reads Papers with Code paper lists."""

    name: ClassVar[str] = "paperswithcode"

    def claims(self, page: Page) -> bool:
        titled = ("Papers With Code", "Papers with Code")
        own = "div.paper-card .item-strip-abstract, div.paper-card .item-date-pub"  # a list saved headless
        return claimed_by(page, "div.paper-card a[href*='/paper/']", ("paperswithcode.com",), titled, own)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_card(n, page.base or _BASE) for n in page.tree.css("div.paper-card"))
        return [item for item in found if item is not None]
