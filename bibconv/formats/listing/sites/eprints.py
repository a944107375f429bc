"""EPrints repositories: browse pages (``/view/year/2019.html``, ``/view/creators/…``,
``/view/subjects/…``) and search results.

A browse page's ``div.ep_view_page`` holds one ``<p>`` per item, under ``<h2>`` headings of
the grouping (an item type, a year, a name); a search page's ``tr.ep_search_result`` rows
hold the same citation in a cell. EPrints' citation: the authors (``<span
class="person_name">Turing, Alan M.</span>``, ``Family, Given``), the year in parentheses
(or ``In Press``), the title linked to the item's page (``/2051/``, its EPrints id) in
``<em>`` with a closing period, then by item type: the journal, volume and number, ``pp.``
and ``ISSN``; ``In:`` the editors ``(eds.)``, the book, its series, publisher and place; ``In:``
the event, its dates and place; ``PhD thesis, <school>``; ``Technical Report. <publisher>``.
A heading that names an item type types the items under it.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.formats.listing import structured
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, text_of
from bibconv.formats.listing.sites import Item, Page, site, without_final_period
from bibconv.formats.listing.sites.catalogue import catalogue_name
from bibconv.model import Date, Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["EPrints"]

_TYPES = {
    "article": "article-journal",
    "book section": "chapter",
    "book": "book",
    "conference or workshop item": "paper-conference",
    "conference item": "paper-conference",
    "monograph": "report",
    "thesis": "thesis",
    "patent": "patent",
    "dataset": "dataset",
}
_EDITOR = "\x00"
_YEAR = lazy(r"\(\s*((?:1[5-9]|20)\d\d)\s*\)")
_STATUS = lazy(r"\(\s*(In Press|Submitted|Unpublished|Accepted)\s*\)", re.IGNORECASE)
_EDITED = lazy(rf"^In:\s*(?:{_EDITOR}[\s,]*(?:and\s+)?)+\(eds?\.\)\s*")
_NUMBERS = lazy(r"\b(ISSN|ISBN)\s+([\dXx-]{8,17})")
_PAGES = lazy(r"\bpp\.\s*([\w-]+)")
_THESIS = lazy(r"^((?:PhD|Doctoral|Masters|MPhil|MSc|MA|MRes|EngD|Undergraduate) thesis),\s*(.+)$")
_REPORT = lazy(r"^((?:Technical|Project|Research) Report|(?:Working|Discussion) Paper|Other)\.\s*(.*)$")
_VOLUME_ISSUE = lazy(r",\s*+(?P<volume>[^\s(,]++)\s*+(?:\((?P<issue>[^)]+)\))?$")
_EVENT_YEAR = lazy(r"(?<!\()\b(?:1[5-9]|20)\d\d\b(?!\))")  # a year not in parentheses
_EPRINT_ID = lazy(r"/(\d+)/?$")


def _person(text: str) -> Name | None:
    """``Turing, Alan M.`` (EPrints writes a name's parts as they were entered: nothing is cut)."""
    family, comma, given = clean_space(text).partition(", ")
    if comma and family and given:
        return Name(family=family, given=given)
    return catalogue_name(text)


def _parts(node: Any) -> tuple[list[Name], Any, list[Name], str, str]:
    """The citation's authors, its title link, its editors, the text before and after the title."""
    authors: list[Name] = []
    editors: list[Name] = []
    title: Any = None
    before: list[str] = []
    after: list[str] = []
    for child in node.iter(include_text=True):
        if child.tag == "span" and "person_name" in (child.attributes.get("class") or ""):
            name = _person(text_of(child))
            if name is not None:
                (authors if title is None else editors).append(name)
            (before if title is None else after).append(_EDITOR)
        elif title is None and child.tag == "a" and child.css_first("em") is not None:
            title = child
        elif child.tag != "a" or title is None:
            (before if title is None else after).append(child.text(deep=True))
    return authors, title, editors, clean_space(" ".join(before)), clean_space(" ".join(after))


def _book(entry: Entry, text: str) -> None:
    """``Neural Networks. Lecture Notes in Computer Science, 7700 . Springer, Berlin, .`` → book,
    series and number, publisher and place."""
    pieces = [p.strip(" ,.") for p in re.split(r"(?<!\s)\s++\.\s*+|\.\s++", text) if p.strip(" ,.")]
    if pieces:
        entry.fields["container-title"] = pieces[0]
    if len(pieces) == 3:
        series, _, number = pieces[1].rpartition(",")
        entry.fields["collection-title"] = series.strip() if series else pieces[1]
        if series and number.strip():
            entry.fields["collection-number"] = number.strip()
    if len(pieces) >= 2:
        publisher, _, place = pieces[-1].partition(",")
        entry.fields["publisher"] = publisher.strip()
        if place.strip():
            entry.fields["publisher-place"] = place.strip()


def _journal(text: str) -> tuple[str, str | None, str | None] | None:
    """``Nature, 12 (3)`` → ``("Nature", "12", "3")``: a journal without a comma, then a volume after
    a comma and an issue in parentheses, either or both left out (as the pattern
    ``^([^,]+?)(?:,\\s*([^\\s(,]+))?\\s*(?:\\(([^)]+)\\))?$`` matches, found from the end in one pass:
    the pattern tries every ``(`` for the issue's and scans on from each)."""
    comma = text.find(",")
    closing = len(text) - (2 if text.endswith(")\n") else 1)
    if closing > 0 and text[closing] == ")":  # the issue's "(" is the first after the ")" before
        opening = text.find("(", max(text.rfind(")", 0, closing) + 1, 1), closing - 1)
        start = opening
        while start > 1 and text[start - 1].isspace():
            start -= 1
        if opening > 0 and (comma < 0 or start < comma):
            return text[:start], None, text[opening + 1 : closing]
    if comma < 0:
        return (text[: max(len(text.rstrip()), 1)], None, None) if text else None
    found = _VOLUME_ISSUE.match(text, comma) if comma else None
    return (text[:comma], found["volume"], found["issue"]) if found else None


def _event(entry: Entry, text: str) -> None:
    """``Seventh WWW Conference (WWW 1998), 14-18 April 1998, Brisbane, Australia.``"""
    pieces = [p.strip() for p in text.rstrip(" .").split(", ")]
    dated = next((i for i, p in enumerate(pieces) if _EVENT_YEAR.search(p)), None)
    if dated is None or dated == 0:
        entry.fields["container-title"] = ", ".join(pieces)
        return
    entry.fields["container-title"] = ", ".join(pieces[:dated])
    entry.fields["event-date"] = pieces[dated]
    if pieces[dated + 1 :]:
        entry.fields["event-place"] = ", ".join(pieces[dated + 1 :])


def _venue(entry: Entry, text: str, edited: bool) -> None:
    """What follows the title: the journal, the book, the event, the school or the publisher."""
    for kind, number in _NUMBERS.findall(text):
        entry.fields[kind] = number
    pages = _PAGES.search(text)
    if pages is not None:
        entry.fields["page"] = pages.group(1)
    text = _PAGES.sub("", _NUMBERS.sub("", text)).strip(" ,.")
    text = re.sub(r"(?<!\s)\s*+,\s*+(?=\.|$)", "", text).strip(" ,.")
    thesis, report = _THESIS.match(text), _REPORT.match(text)
    if thesis is not None:
        entry.record_type, entry.fields["genre"], entry.fields["publisher"] = "thesis", *thesis.groups()
    elif report is not None:
        entry.record_type, entry.fields["genre"] = "report", report.group(1)
        if report.group(2).strip(" ."):
            entry.fields["publisher"] = report.group(2).strip(" .")
    elif edited:
        entry.record_type = "chapter"
        _book(entry, _EDITED.sub("", text))
    elif text.startswith("In:"):
        entry.record_type = "paper-conference"
        _event(entry, text[3:].strip())
    elif (journal := _journal(text)) is not None:
        entry.record_type = "article-journal"
        for value, key in zip(journal, ("container-title", "volume", "issue"), strict=True):
            if value:
                entry.fields[key] = value.strip()
    elif text:
        entry.fields["publisher"] = text


def _item(node: Any, page: Page, kind: str | None) -> Item | None:
    authors, title, editors, before, after = _parts(node)
    if title is None or not text_of(title):
        return None
    entry = Entry(title=without_final_period(text_of(title)), authors=tuple(authors))
    year, status = _YEAR.search(before), _STATUS.search(before)
    entry.issued = Date(parts=((int(year.group(1)),),)) if year else None
    if status is not None:
        entry.fields["status"] = status.group(1)
    _venue(entry, after, bool(editors) and _EDITED.match(after) is not None)
    entry.record_type = kind or entry.record_type
    href = title.attributes.get("href")
    entry.url = absolute(href, page.base)
    eprint_id = _EPRINT_ID.search(href or "")
    if eprint_id is not None:
        entry.extra["eprints:id"] = eprint_id.group(1)
    links = (a.attributes.get("href") or "" for a in node.css("a[href]"))
    entry.doi = next((d for d in map(structured.doi_in, links) if d), None)
    return Item(entry, node, names={"editor": tuple(editors)} if editors else {})


def _citations(page: Page) -> list[tuple[Any, str | None]]:
    """Each citation on the page, with the item type its group heading names."""
    found: list[tuple[Any, str | None]] = []
    for view in page.tree.css("div.ep_view_page"):
        kind: str | None = None
        for child in view.iter():
            if child.tag in ("h2", "h3"):
                kind = _TYPES.get(text_of(child).lower())
            elif child.tag == "p" and child.css_first("a[href] em") is not None:
                found.append((child, kind))
    for row in page.tree.css(".ep_search_result"):
        cells = [c for c in row.css("td") if c.css_first("a[href] em") is not None]
        found.append((cells[0] if cells else row, None))
    return found


@site
class EPrints:
    """Reads EPrints browse pages and search results."""

    name: ClassVar[str] = "eprints"

    def claims(self, page: Page) -> bool:
        if page.about_one_work:
            return False
        listed = page.tree.css_first(".ep_view_page p a[href] em, .ep_search_result a[href] em") is not None
        generator = (page.meta("generator") or "").lower()
        return listed and ("eprints" in generator or page.tree.css_first("span.person_name") is not None)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_item(node, page, kind) for node, kind in _citations(page))
        return [item for item in found if item is not None]
