"""VuFind catalogue and discovery results (the Bootstrap themes, as the BDTD and many
libraries run them).

Each ``div.result`` is one record: the title link (class ``title``, to ``/Record/…``), the
authors as links to ``/Author/Home?author=…`` (one catalogue heading each), the year after
"Published" (or its translation) and the format label.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, site
from bibconv.formats.listing.sites.catalogue import catalogue_name, material_type
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["VuFind"]

_PUBLISHED = lazy(
    r"\b(?:published|publicado|publié|erschienen|veröffentlicht|pubblicato|publicación|gepubliceerd)\s+"
    r"(?:in\s+)?(?:\D{0,40}?)((?:1[5-9]|20)\d\d)\b",
    re.IGNORECASE,
)
_TITLE = "a.title, a.getFull, .result-title a, h2 a[href*='/Record/']"


def _record(node: Any, page: Page) -> Item | None:
    title = node.css_first(_TITLE)
    if title is None or not text_of(title):
        return None
    entry = Entry(title=rich_of(title), title_is_rich=True)
    authors = list({a.mem_id: a for a in node.css("a[href*='/Author/Home'], a[href*='author=']")}.values())
    entry.authors = tuple(n for a in authors if (n := catalogue_name(text_of(a))) is not None)
    year = _PUBLISHED.search(text_of(node))
    if year:
        entry.issued = Date(parts=((int(year.group(1)),),))
    material_type(entry, node.css_first(".iconlabel, .format span, .format"), "genre")
    entry.url = absolute(title.attributes.get("href"), page.base)
    return Item(entry, node)


@site
class VuFind:
    """VuFind result lists."""

    name: ClassVar[str] = "vufind"

    def claims(self, page: Page) -> bool:
        generator = (page.meta("generator") or "").lower()
        if "vufind" in generator:
            return True
        return any(
            (a.attributes.get("href") or "").find("/Record/") >= 0
            for a in page.tree.css("div.result a.title[href], div.result a.getFull[href]")
        )

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_record(n, page) for n in page.tree.css("div.result"))
        return [item for item in found if item is not None]
