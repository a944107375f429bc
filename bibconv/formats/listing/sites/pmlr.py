"""PMLR volume pages (proceedings.mlr.press/vNNN/): Proceedings of Machine Learning Research.

Each paper is a ``div.paper``: ``p.title``, then ``span.authors`` (names split by commas)
and ``span.info`` (``Proceedings of the 40th International Conference on Machine Learning,
PMLR 202:1-26``: the proceedings' title, the volume and the pages), then the links (the
abstract page, the PDF, supplementary material, OpenReview). The volume heading gives the
conference dates, hence the year.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry, authors_from_text
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, site
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Pmlr"]

_SERIES = "Proceedings of Machine Learning Research"
# The venue ends where ", PMLR" starts: at the comma, else at the first space before PMLR (spaces
# taken from their start only: linear).
_INFO = lazy(
    r"^(?P<venue>.*?)(?:,\s*+|(?<!\s)\s++|)PMLR\s++(?P<volume>\d+)(?::(?P<pages>[\w-]+))?", re.IGNORECASE
)
_YEAR = lazy(r"\b((?:19|20)\d\d)\b")


def _heading_date(tree: Any) -> Date | None:
    """The conference dates of the volume heading (``Volume 202: …, 23-29 July 2023, Honolulu``)."""
    heading = text_of(tree.css_first("h1"))
    year = _YEAR.search(heading)
    return Date(parts=((int(year.group(1)),),)) if year else None


def _paper(node: Any, base: str | None, year: Date | None) -> Item | None:
    title = node.css_first(".title")
    if title is None or not text_of(title):
        return None
    entry = Entry(title=rich_of(title), title_is_rich=True, record_type="paper-conference", issued=year)
    authors = node.css_first(".authors")
    if authors is not None:
        entry.authors = authors_from_text(text_of(authors))
    info = _INFO.match(text_of(node.css_first(".info")))
    if info:
        entry.fields["container-title"] = info.group("venue").strip()
        entry.fields["collection-title"] = _SERIES
        entry.fields["volume"] = info.group("volume")
        if info.group("pages"):
            entry.fields["page"] = info.group("pages")
    for link in node.css(".links a[href]"):
        href = absolute(link.attributes.get("href"), base)
        label = text_of(link).lower()
        if href is None:
            continue
        if label == "abs" and entry.url is None:
            entry.url = href
        elif "pdf" in label and "supplementary" not in label:
            entry.extra["html:pdf_url"] = href
        elif "supplementary" in label:
            entry.extra["html:supplement_url"] = href
        elif "openreview.net" in href:
            entry.extra["html:openreview_url"] = href
    return Item(entry, node)


@site
class Pmlr:
    """Reads PMLR volume pages."""

    name: ClassVar[str] = "pmlr"

    def claims(self, page: Page) -> bool:
        tree = page.tree
        if tree.css_first("div.paper .title") is None or tree.css_first("div.paper .authors") is None:
            return False
        info = text_of(tree.css_first("div.paper .info"))
        title = text_of(tree.css_first("title"))
        return page.on("proceedings.mlr.press", "mlr.press") or "PMLR" in info or _SERIES in title

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        year = _heading_date(page.tree)
        found = (_paper(n, page.base, year) for n in page.tree.css("div.paper"))
        return [item for item in found if item is not None]
