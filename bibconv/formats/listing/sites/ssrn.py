"""SSRN (papers.ssrn.com): search results, an author's papers (``AbsByAuth.cfm``) and a
journal's or network's lists.

Each paper is a ``div.description``: the title linked to the paper's page
(``papers.cfm?abstract_id=2460551``, its abstract id), the authors (``.authors-list``, one
link each), then ``.note-list``: where the paper is published (``Journal of Portfolio
Management, 40 (5), pp. 94-107. 2014``, kept as the record's note), ``Number of pages: 22``,
``Posted: 21 Jul 2014`` (the record's date) and ``Last Revised: …``. A paper is written as
SSRN's working papers are cited: a report, ``SSRN Scholarly Paper``, numbered by its abstract
id, from the Social Science Research Network.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import parse_qs

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, authors_from_text, clean_space
from bibconv.formats.listing.dom import text_of, url_parts
from bibconv.formats.listing.sites import Item, Page, claimed_by, person, site, without_final_period
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Ssrn"]

_PAPER = "https://papers.ssrn.com/sol3/papers.cfm?abstract_id="
_LABELED = lazy(r"^(Number of pages|Posted|Last Revised|Date Written|Downloads|Citations)\s*:?\s*(.*)$")


def _abstract_id(href: str) -> str | None:
    parts = url_parts(href)
    query = parse_qs(parts.query) if parts is not None else {}
    values = query.get("abstract_id") or query.get("abstractid")
    return values[0] if values and values[0].isdigit() else None


def _notes(entry: Entry, node: Any) -> None:
    for span in node.css(".note-list > span, .note-list > div"):
        text = clean_space(text_of(span))
        labeled = _LABELED.match(text)
        if labeled is None:
            if text:
                entry.fields["note"] = text
        elif labeled.group(1) == "Number of pages" and labeled.group(2).isdigit():
            entry.fields["number-of-pages"] = labeled.group(2)
        elif labeled.group(1) in ("Posted", "Date Written"):
            entry.issued = entry.issued or parse_date(labeled.group(2), "en")


def _paper(node: Any, page: Page) -> Item | None:
    link = next((a for a in node.css("a[href]") if _abstract_id(a.attributes.get("href") or "")), None)
    if link is None or not text_of(link):
        return None
    abstract_id = _abstract_id(link.attributes.get("href") or "")
    entry = Entry(title=without_final_period(text_of(link)), record_type="report")
    entry.url = f"{_PAPER}{abstract_id}"
    entry.fields.update(
        {
            "genre": "SSRN Scholarly Paper",
            "number": str(abstract_id),
            "publisher": "Social Science Research Network",
            "publisher-place": "Rochester, NY",
        }
    )
    authors = node.css_first(".authors-list")
    if authors is not None:
        linked = [n for n in (person(text_of(a)) for a in authors.css("a")) if n]
        entry.authors = tuple(linked) or authors_from_text(text_of(authors))
    _notes(entry, node)
    return Item(entry, node)


@site
class Ssrn:
    """Reads SSRN's lists of papers."""

    name: ClassVar[str] = "ssrn"

    def claims(self, page: Page) -> bool:
        own = "a[href*='papers.ssrn.com/sol3/papers.cfm?abstract_id=']"
        listing = ".description a[href*='abstract_id=']"
        return not page.about_one_work and claimed_by(page, listing, ("ssrn.com",), ("SSRN",), own)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_paper(n, page) for n in page.tree.css("div.description"))
        return [item for item in found if item is not None]
