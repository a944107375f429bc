"""NeurIPS proceedings pages (proceedings.neurips.cc, papers.nips.cc): a year's papers.

Current pages list ``li`` items of ``ul.paper-list``: the title link (to the paper's
``…-Abstract….html`` page) and ``span.paper-authors``; the item's class names the track
(``conference``, ``datasets_and_benchmarks``). Older pages put the authors in ``<i>``
after the link, or (papers.nips.cc before 2020) one ``a.author`` link each. The page title
``Advances in Neural Information Processing Systems 36 (NeurIPS 2023)`` gives the
proceedings' title, volume and year.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry, authors_from_text
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, person, site
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["NeurIPS"]

_BOOK = "Advances in Neural Information Processing Systems"
_TITLE = lazy(_BOOK + r"\s*(?P<volume>\d+)?\s*(?:\((?:NeurIPS|NIPS)\s*(?P<year>\d{4})\))?")
_URL_YEAR = lazy(r"/paper(?:_files/paper)?/((?:19|20)\d\d)/")
_TRACKS = {"datasets_and_benchmarks": "Datasets and Benchmarks Track"}
_PAPER_LINK = lazy(r"/paper(?:_files/paper)?/\d{4}/hash/|/paper/\d+-")


def _paper_link(node: Any) -> Any | None:
    """The item's link to a paper page (not to a year or an author)."""
    return next((a for a in node.css("a[href]") if _PAPER_LINK.search(a.attributes.get("href") or "")), None)


def _paper(node: Any, base: str | None, volume: str | None, year: Date | None) -> Item | None:
    link = _paper_link(node)
    if link is None or not text_of(link):
        return None
    entry = Entry(title=rich_of(link), title_is_rich=True, record_type="paper-conference")
    entry.url = absolute(link.attributes.get("href"), base)
    names = node.css_first(".paper-authors") or node.css_first("i")
    if names is not None:
        entry.authors = authors_from_text(text_of(names))
    else:
        entry.authors = tuple(n for a in node.css("a[href*='/author/']") if (n := person(text_of(a))))
    entry.fields["container-title"] = _BOOK
    if volume:
        entry.fields["volume"] = volume
    found = _URL_YEAR.search(link.attributes.get("href") or "")
    entry.issued = Date(parts=((int(found.group(1)),),)) if found else year
    track = next((t for c, t in _TRACKS.items() if c in (node.attributes.get("class") or "")), None)
    if track:
        entry.fields["section"] = track
    return Item(entry, node)


@site
class NeurIPS:
    """Reads the NeurIPS proceedings' paper lists."""

    name: ClassVar[str] = "neurips"

    def claims(self, page: Page) -> bool:
        title = text_of(page.tree.css_first("title"))
        if not (page.on("proceedings.neurips.cc", "papers.nips.cc", "papers.neurips.cc") or _BOOK in title):
            return False
        return any(_paper_link(li) is not None for li in page.tree.css("ul li"))

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        match = _TITLE.search(text_of(page.tree.css_first("title")))
        volume = match.group("volume") if match else None
        year = Date(parts=((int(match.group("year")),),)) if match and match.group("year") else None
        items: list[Item] = []
        for node in page.tree.css("ul li"):
            item = _paper(node, page.base, volume, year)
            if item is not None:
                items.append(item)
        return items
