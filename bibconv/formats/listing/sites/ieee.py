"""IEEE Xplore (ieeexplore.ieee.org): tables of contents and search results as a browser saves
them, and article pages as they are fetched.

Xplore draws its pages in the browser. A table of contents or a search page fetched as it is
served holds no list (only the application's shell): nothing to read. Saved by a browser after
it is drawn, each paper is a ``div.List-results-items`` (its id the Xplore document number):
the title linked to ``/document/8372616/``, the authors (``xpl-authors-name-list``, one link
each), then ``Year: 2020 | Volume: 42, Issue: 2 | Journal Article | Publisher: IEEE`` and
``Page(s): 386 - 397``; a search result also links its publication, a table of contents names
it in its heading, with the issue's date (``Feb. 2020``). An article page, fetched or saved,
carries the paper's metadata as JSON in a script (``xplGlobal.document.metadata={…};``):
title, authors with affiliations, publication, DOI, pages, volume, issue, dates, ISSN/ISBN,
keywords and the abstract.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import text_of
from bibconv.formats.listing.sites import Item, Page, person, site, without_final_period
from bibconv.model import Date, Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["IeeeXplore"]

_DOCUMENT = "https://ieeexplore.ieee.org/document/"
_ASSIGNED = lazy(r"xplGlobal\.document\.metadata\s*=\s*")
_KINDS = {
    "journal": "article-journal",
    "journals": "article-journal",
    "periodicals": "article-journal",
    "magazine": "article-magazine",
    "magazines": "article-magazine",
    "conference": "paper-conference",
    "conferences": "paper-conference",
    "book": "chapter",
    "books": "chapter",
    "standard": "standard",
    "standards": "standard",
    "early access": "article-journal",
}
_YEAR = lazy(r"Year:\s*((?:1[89]|20)\d\d)")
_VOLUME = lazy(r"Volume:\s*([^,|]+?)\s*(?:,|\||$)")
_ISSUE = lazy(r"Issue:\s*([^,|]+?)\s*(?:,|\||$)")
_PAGES = lazy(r"Page\(s\):\s*([\w]+)\s*-\s*([\w]+)")
_PUBLISHER = lazy(r"Publisher:\s*([^|]+?)\s*(?:\||$)")


def _metadata(page: Page) -> dict[str, Any] | None:
    """The article's metadata a script assigns to ``xplGlobal.document.metadata``."""
    for _, text in page.scripts:
        found = _ASSIGNED.search(text)
        if found is None:
            continue
        try:
            value, _ = json.JSONDecoder().raw_decode(text, found.end())
        except ValueError:
            return None
        return value if isinstance(value, dict) and isinstance(value.get("title"), str) else None
    return None


def _text(value: Any) -> str:
    return clean_space(value) if isinstance(value, str) else ""


def _author(value: Any) -> Name | None:
    if not isinstance(value, dict):
        return None
    family, given = _text(value.get("lastName")), _text(value.get("firstName"))
    places = value.get("affiliation")
    affiliation = tuple(_text(a) for a in places if _text(a)) if isinstance(places, list) else ()
    name = Name(family=family, given=given or None) if family else person(_text(value.get("name")))
    return replace(name, affiliation=affiliation) if name is not None and affiliation else name


def _numbers(entry: Entry, metadata: dict[str, Any]) -> None:
    for key, field in (("issn", "ISSN"), ("isbn", "ISBN")):
        values = [_text(v.get("value")) for v in metadata.get(key) or [] if isinstance(v, dict)]
        if any(values):
            entry.fields[field] = next(v for v in values if v)


def _article(metadata: dict[str, Any]) -> Entry:
    kind = _KINDS.get(_text(metadata.get("contentType")).lower(), "article-journal")
    entry = Entry(title=without_final_period(_text(metadata.get("title"))), record_type=kind)
    entry.authors = tuple(n for n in map(_author, metadata.get("authors") or []) if n is not None)
    entry.abstract = _text(metadata.get("abstract"))
    entry.doi = _text(metadata.get("doi")) or None
    number = _text(metadata.get("articleNumber"))
    entry.url = f"{_DOCUMENT}{number}" if number else None
    container = _text(metadata.get("displayPublicationTitle")) or _text(metadata.get("publicationTitle"))
    pages = "-".join(p for p in (_text(metadata.get("startPage")), _text(metadata.get("endPage"))) if p)
    for key, value in (("container-title", container), ("volume", _text(metadata.get("volume"))),
                       ("issue", _text(metadata.get("issue"))), ("page", pages),
                       ("publisher", _text(metadata.get("publisher"))),
                       ("event-place", _text(metadata.get("confLoc")))):  # fmt: skip
        if value:
            entry.fields[key] = value
    _numbers(entry, metadata)
    year = _text(metadata.get("publicationYear"))
    entry.issued = Date(parts=((int(year),),)) if year.isdigit() else None
    for group in metadata.get("keywords") or []:
        if isinstance(group, dict) and isinstance(group.get("kwd"), list):
            entry.keywords.extend(_text(k) for k in group["kwd"])
    entry.extra["ieee:document"] = number
    return entry


def _venue(page: Page) -> str:
    tree = page.tree
    return text_of(tree.css_first("h1.publication-title") or tree.css_first("h1 a[href*='RecentIssue.jsp']"))


def _issue_date(page: Page) -> Date | None:
    """The date of the issue a table of contents heads (``Volume 42, Issue 2 • Feb. 2020``)."""
    details = text_of(page.tree.css_first(".publication-header .issue-details"))
    dated = re.search(r"([A-Z][a-z]{2,8})\.?\s+((?:19|20)\d\d)\s*$", details)
    return parse_date(f"{dated.group(1)[:3]} {dated.group(2)}", "en") if dated else None


def _result(node: Any, venue: str, issue: Date | None) -> Item | None:
    link = node.css_first("h2 a[href*='/document/'], h3 a[href*='/document/']")
    if link is None or not text_of(link):
        return None
    number = re.search(r"/document/(\d+)", link.attributes.get("href") or "")
    entry = Entry(title=without_final_period(text_of(link)), record_type="article-journal")
    names = node.css("xpl-authors-name-list a[href*='/author/']") or node.css("p.author a")
    entry.authors = tuple(n for n in (person(text_of(a)) for a in names) if n)
    description = node.css_first(".description")
    info = text_of(description)
    published = description.css_first("a[href*='/xpl/']") if description is not None else None
    entry.fields["container-title"] = text_of(published) or venue
    kind = next((k for k in _KINDS if re.search(rf"\|\s*{k}\b", info, re.IGNORECASE)), None)
    entry.record_type = _KINDS[kind] if kind else entry.record_type
    facts = text_of(node.css_first(".publisher-info-container")) or info
    for pattern, key in ((_VOLUME, "volume"), (_ISSUE, "issue"), (_PUBLISHER, "publisher")):
        found = pattern.search(facts)
        if found is not None:
            entry.fields[key] = found.group(1)
    pages = _PAGES.search(info)
    if pages is not None:
        entry.fields["page"] = f"{pages.group(1)}-{pages.group(2)}"
    year = _YEAR.search(info)
    entry.issued = parse_date(year.group(1)) if year else None
    if issue is not None and entry.issued is not None and issue.parts[0][0] == entry.issued.parts[0][0]:
        entry.issued = issue
    if number is not None:
        entry.url = f"{_DOCUMENT}{number.group(1)}"
        entry.extra["ieee:document"] = number.group(1)
    return Item(entry, node)


@site
class IeeeXplore:
    """Reads IEEE Xplore's drawn lists and the metadata its article pages carry."""

    name: ClassVar[str] = "ieee-xplore"

    def claims(self, page: Page) -> bool:
        xplore = "IEEE Xplore"
        if not (page.on("ieee.org") or xplore in page.title or page.meta("og:site_name") == xplore):
            return False
        return page.tree.css_first("div.List-results-items a[href*='/document/']") is not None or (
            _metadata(page) is not None
        )

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        venue, issue = _venue(page), _issue_date(page)
        found = [_result(n, venue, issue) for n in page.tree.css("div.List-results-items")]
        items = [item for item in found if item is not None]
        metadata = _metadata(page) if not items else None
        if metadata is not None:
            items.append(Item(_article(metadata), None, "xplGlobal.document.metadata"))
        return items
