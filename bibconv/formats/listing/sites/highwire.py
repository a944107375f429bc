"""bioRxiv and medRxiv result lists (search results, recent articles, subject collections), and
the tables of contents other HighWire (Drupal) journal sites draw with the same markup.

Each paper is a ``div.highwire-cite``: the title link ``a.highwire-cite-linked-title`` (to
``/content/10.1101/2020.01.22.914952v2``), the authors as ``span.highwire-citation-author``
elements in order (``nlm-given-names`` and ``nlm-surname``, a group's name in
``nlm-collab``), then ``div.highwire-cite-metadata``: the server or journal
(``highwire-cite-metadata-journal``, ``bioRxiv``), the paper's id where a journal puts its
pages (``2020.01.22.914952;``), the DOI, and on journals' pages the date, volume, issue and
pages. A preprint's date is the date heading it is listed under (``h3.highwire-list-title``,
``March 9, 2020``), else the day its ``data-apath`` (``/biorxiv/early/2020/01/23/…``) says it
was posted, else the date in its id (the server gives the id the day the preprint is
submitted); the version (``v2``) is in its link and ``data-pisa``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing import structured
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, text_of
from bibconv.formats.listing.sites import Item, Page, claimed_by, site, without_final_period
from bibconv.model import Date, Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["HighWire"]

_SERVERS = {"biorxiv": "bioRxiv", "medrxiv": "medRxiv"}
_ID_DATE = lazy(r"^((?:20)\d\d)\.(\d\d)\.(\d\d)\.\d+$")
_POSTED = lazy(r"/early/((?:20)\d\d)/(\d\d)/(\d\d)/")
_VERSION = lazy(r"\d(v\d+)$")
_PAGES = lazy(r"^(?:pp?\.\s*)?(\d[\w-]*)$")


def _name(node: Any) -> Name | None:
    collab = node.css_first(".nlm-collab")
    if collab is not None:
        return Name(literal=text_of(collab)) if text_of(collab) else None
    given, family = text_of(node.css_first(".nlm-given-names")), text_of(node.css_first(".nlm-surname"))
    if family:
        return Name(family=family, given=given or None)
    text = text_of(node).strip(" ,")
    return Name(literal=text) if text else None


def _metadata(node: Any, key: str) -> str:
    """The text of ``highwire-cite-metadata-<key>``, without the separators around it."""
    return clean_space(text_of(node.css_first(f".highwire-cite-metadata-{key}"))).strip(" ;,.")


def _preprint(entry: Entry, server: str, paper_id: str, posted: str, heading: Date | None) -> None:
    entry.record_type = "article"
    entry.fields["publisher"] = server
    entry.extra[f"{server.lower()}:id"] = paper_id
    dated = _POSTED.search(posted) or _ID_DATE.match(paper_id)
    entry.issued = heading or (
        Date(parts=((int(dated.group(1)), int(dated.group(2)), int(dated.group(3))),)) if dated else None
    )


def _journal(entry: Entry, node: Any, journal: str, lang: str | None) -> None:
    entry.record_type = "article-journal"
    if journal:
        entry.fields["container-title"] = journal
    for key, field in (("volume", "volume"), ("issue", "issue")):
        value = _metadata(node, key).removeprefix("Vol ").removeprefix("Issue ").strip(" ()")
        if value:
            entry.fields[field] = value
    pages = _PAGES.match(_metadata(node, "pages"))
    if pages is not None:
        entry.fields["page"] = pages.group(1)
    date = _metadata(node, "date")
    entry.issued = parse_date(date, lang) if date else None


def _paper(node: Any, page: Page, heading: Date | None) -> Item | None:
    link = node.css_first("a.highwire-cite-linked-title")
    if link is None or not text_of(link):
        return None
    entry = Entry(title=without_final_period(text_of(link)))
    entry.url = absolute(link.attributes.get("href"), page.base)
    authors = node.css(".highwire-citation-authors .highwire-citation-author")
    entry.authors = tuple(n for n in map(_name, authors) if n is not None)
    entry.doi = structured.doi_in(_metadata(node, "doi"))
    cited = node.parent
    attributes = cited.attributes if cited is not None else {}
    pisa = attributes.get("data-pisa") or ""
    journal = _metadata(node, "journal")
    server = _SERVERS.get(journal.lower())
    if server is not None:
        _preprint(entry, server, _metadata(node, "pages"), attributes.get("data-apath") or "", heading)
    else:
        _journal(entry, node, journal, page.lang)
    version = _VERSION.search(pisa) or _VERSION.search(entry.url or "")
    if server is not None and version is not None:
        entry.fields["version"] = version.group(1)
    return Item(entry, cited if cited is not None and pisa else node)


def _heading_dates(page: Page) -> dict[int, Date]:
    """The date heading each paper is listed under (``h3.highwire-list-title`` before its list)."""
    dates: dict[int, Date] = {}
    for wrapper in page.tree.css(".highwire-list-wrapper"):
        current: Date | None = None
        for child in wrapper.iter():
            if "highwire-list-title" in (child.attributes.get("class") or ""):
                current = parse_date(text_of(child), page.lang)
            elif current is not None:
                for cite in child.css("div.highwire-cite"):
                    dates[cite.mem_id] = current
    return dates


@site
class HighWire:
    """Reads bioRxiv and medRxiv result lists and HighWire journals' tables of contents."""

    name: ClassVar[str] = "highwire"

    def claims(self, page: Page) -> bool:
        listing = "div.highwire-cite a.highwire-cite-linked-title"
        servers = ("biorxiv.org", "medrxiv.org")
        titled = ("bioRxiv", "medRxiv", "HighWire")
        authors = ".highwire-citation-authors .highwire-citation-author"
        return not page.about_one_work and claimed_by(page, listing, servers, titled, authors)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        headings = _heading_dates(page)
        found = (_paper(n, page, headings.get(n.mem_id)) for n in page.tree.css("div.highwire-cite"))
        return [item for item in found if item is not None]
