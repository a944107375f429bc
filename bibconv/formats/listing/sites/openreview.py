"""OpenReview venue and search pages as a browser saves them (openreview.net/group?id=…).

Each submission is a ``div.note`` (``li.note`` in the 2018 design): the title link (``h4 a``
to ``/forum?id=…``), the ``.note-authors`` links (``Anonymous`` for a blind submission: no
names), the ``.note-meta-info`` line (``Published: 01 Feb 2023, Last Modified: …`` and the
venue, ``ICLR 2023 poster``, the record's container; in 2018 a ``span.date`` and
``ICLR 2018 Conference Blind Submission``, a submission's status, not a venue) and the collapsed fields
(``Abstract:``, ``Keywords:``, ``TL;DR:``). Pages saved before the list was drawn hold it,
when at all, in the ``__NEXT_DATA__`` JSON (``notes`` with ``content.title`` …), which is
read instead.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, person, site
from bibconv.jsonnumbers import loads as json_loads
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["OpenReview"]

_BASE = "https://openreview.net/"
_PUBLISHED = lazy(r"(?:Published|Submitted|Posted)\s*:\s*([^,]+,?\s*\d{4})", re.IGNORECASE)
_YEAR = lazy(r"\b((?:19|20)\d\d)\b")
_ANONYMOUS = lazy(r"^anonymous(?:\s+authors?)?$", re.IGNORECASE)
_NOTES = "div.note, li.note"
_NOT_VENUE = lazy(r"^(?:Readers|Writers|Signatures)\s*:|^\d+\s+Repl(?:y|ies)$|Last Modified", re.IGNORECASE)
_SUBMITTED = lazy(r"\bsubmi(?:tted|ssion)\b", re.IGNORECASE)


def _venue(entry: Entry, text: str) -> None:
    """``ICLR 2023 poster`` is where the paper appeared; ``Submitted to ICLR 2023`` and ``… Blind
    Submission`` say it is a submission (its status, not a venue)."""
    if _SUBMITTED.search(text):
        entry.fields["status"] = text
    elif text:
        entry.fields["container-title"] = text


def _meta_venue(node: Any) -> str:
    """The venue among a note's meta items (not its dates, readers or replies)."""
    for item in node.css(".note-meta-info > span"):
        text, dated = text_of(item), "date" in (item.attributes.get("class") or "").split()
        if text and not dated and not _PUBLISHED.search(text) and not _NOT_VENUE.search(text):
            return text
    return ""


def _fields(node: Any) -> dict[str, str]:
    """``Abstract:`` → text, from the note's collapsed content fields."""
    found: dict[str, str] = {}
    for label in node.css(".note-content-field"):
        value = label.next
        while value is not None and value.tag == "-text" and not value.text().strip():
            value = value.next
        if value is not None:
            found[text_of(label).rstrip(":").strip().lower()] = text_of(value)
    return found


def _note(node: Any, base: str) -> Item | None:
    link = node.css_first("h4 a[href*='forum?id='], .note_content_title a[href*='forum?id=']")
    if link is None or not text_of(link):
        return None
    entry = Entry(title=rich_of(link), title_is_rich=True, record_type="paper-conference")
    entry.url = absolute(link.attributes.get("href"), base)
    authors = node.css_first(".note-authors, .signatures")
    if authors is not None:
        names = [text_of(a) for a in authors.css("a")] or clean_space(text_of(authors)).split(", ")
        entry.authors = tuple(n for n in (person(x) for x in names if not _ANONYMOUS.match(x)) if n)
    meta = text_of(node.css_first(".note-meta-info"))
    published = _PUBLISHED.search(meta)
    dated = node.css_first(".note-meta-info .date")
    entry.issued = parse_date(published.group(1) if published else text_of(dated))
    venue = _meta_venue(node)
    _venue(entry, venue)
    if entry.issued is None and (year := _YEAR.search(venue)):
        entry.issued = Date(parts=((int(year.group(1)),),))
    fields = _fields(node)
    entry.abstract = fields.get("abstract", "")
    entry.keywords = [k.strip() for k in fields.get("keywords", "").split(",") if k.strip()]
    pdf = node.css_first("a[href*='/pdf?id=']")
    if pdf is not None and (pdf_url := absolute(pdf.attributes.get("href"), base)):
        entry.extra["html:pdf_url"] = pdf_url
    return Item(entry, node)


def _value(content: dict[str, Any], key: str) -> Any:
    """A note field in either API's shape (``{"value": …}`` or the bare value)."""
    value = content.get(key)
    return value.get("value") if isinstance(value, dict) else value


def _stamp_date(stamp: Any) -> Date | None:
    """The day of an OpenReview time stamp (milliseconds since 1970), or ``None``."""
    from datetime import datetime, timezone

    if not isinstance(stamp, int) or isinstance(stamp, bool):
        return None
    try:
        day = datetime.fromtimestamp(stamp / 1000, timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
    return Date(parts=((day.year, day.month, day.day),))


def _json_notes(page: Page) -> list[Item]:
    script = next((t for a, t in page.scripts if a.get("id") == "__NEXT_DATA__"), None)
    try:
        data = json_loads(script) if script else None
    except ValueError:
        return []
    props = data.get("props") if isinstance(data, dict) else None
    props = props.get("pageProps") if isinstance(props, dict) else None
    notes = props.get("notes") if isinstance(props, dict) else None
    items: list[Item] = []
    for index, note in enumerate(notes if isinstance(notes, list) else []):
        content = note.get("content") if isinstance(note, dict) else None
        title = _value(content, "title") if isinstance(content, dict) else None
        if not isinstance(title, str) or not title.strip() or not isinstance(content, dict):
            continue
        entry = Entry(title=title, record_type="paper-conference")
        names = _value(content, "authors")
        names = names if isinstance(names, list) else []
        entry.authors = tuple(n for n in (person(x) for x in names if isinstance(x, str)) if n)
        abstract, venue = _value(content, "abstract"), _value(content, "venue")
        entry.abstract = abstract if isinstance(abstract, str) else ""
        if isinstance(venue, str):
            _venue(entry, venue)
        if isinstance(note.get("id"), str):
            entry.url = f"{_BASE}forum?id={note['id']}"
        entry.issued = _stamp_date(note.get("pdate") or note.get("cdate"))
        items.append(Item(entry, None, f"script#__NEXT_DATA__ notes[{index}]"))
    return items


@site
class OpenReview:
    """Reads OpenReview lists of submissions."""

    name: ClassVar[str] = "openreview"

    def claims(self, page: Page) -> bool:
        title = text_of(page.tree.css_first("title"))
        if not (page.on("openreview.net") or title.endswith("OpenReview")) or page.about_one_work:
            return False  # a forum page is one paper, read from its citation_* tags
        listed = page.tree.css_first(", ".join(f"{n} a[href*='forum?id=']" for n in _NOTES.split(", ")))
        return listed is not None or bool(_json_notes(page))

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_note(n, page.base or _BASE) for n in page.tree.css(_NOTES))
        return [item for item in found if item is not None] or _json_notes(page)
