"""HAL (hal.science, hal.archives-ouvertes.fr and its portals): search results and the
publication lists of its collections and authors' pages.

Each result is a ``div.media-body``: the link to the document named by its HAL id
(``a.ref-halid``, ``tel-01409950<small>v1</small>``, to ``/tel-01409950v1``), the document
type's label (``Journal articles``, ``Theses``), the authors (``.ref-authors``, one link each,
``et al.`` when the list is cut), the title linked in ``<strong>``, then HAL's reference line
after it (in ``.ref-biblio`` on some portals): by document type, ``<i>Journal</i>,
Publisher, 2011, 12 (3), pp.2825-2830``, ``Conference, Dec 2013, Lake Tahoe, United States.
pp.2292-2300`` or ``Speciality. University, 2019. Language``, and the identifiers HAL puts in
angle brackets (``⟨10.1051/…⟩`` a DOI, ``⟨hal-00911712v2⟩``, ``⟨NNT : 2019SACLS123⟩``,
``⟨PMID : 123⟩``). Beside each result a COinS span (``span.Z3988``, Dublin Core) holds the
document's address, its date and all its authors (``rft.creator=Boike, J``): the authors an
``et al.`` cuts from the list are taken from it.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import parse_qsl

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, text_of
from bibconv.formats.listing.sites import Item, Page, claimed_by, person, site, without_final_period
from bibconv.model import Date, Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Hal"]

_KINDS = (
    (lazy(r"journal article|article dans une revue|article", re.IGNORECASE), "article-journal"),
    (lazy(r"conference|communication|poster|congrès", re.IGNORECASE), "paper-conference"),
    (lazy(r"book section|chapitre", re.IGNORECASE), "chapter"),
    (lazy(r"\bbooks?\b|ouvrage", re.IGNORECASE), "book"),
    (lazy(r"thes[ei]s|thèse|habilitation|hdr", re.IGNORECASE), "thesis"),
    (lazy(r"report|rapport", re.IGNORECASE), "report"),
    (lazy(r"preprint|pré-publication|working paper|document de travail", re.IGNORECASE), "article"),
)
_HAL_ID = lazy(r"^([a-z][a-z0-9]*-\d{8})(v\d+)?$")
# spaces from their start: linear; "pp.523 - 546" as well as "pp.2825-2830"
_PAGES = lazy(r"(?:[.,]\s*+|(?<!\s)\s++|)pp?\.\s*+(\w+(?: ?+- ?+\w+)?+)")
_JOURNAL = lazy(
    r"^(?P<journal>.+?), (?P<year>(?:1[5-9]|20)\d\d)(?:, (?P<volume>[^,(]+?))?(?:\s*\((?P<issue>[^)]+)\))?$"
)
_AFTER_JOURNAL = lazy(
    r",?\s(?P<year>(?:1[5-9]|20)\d\d)(?:, (?P<volume>[^,(]+?))?(?:\s*\((?P<issue>[^)]+)\))?$"
)
_EVENT = lazy(r"^(?P<event>.+?), (?P<date>(?:\w{3,9}\.? )?(?:1[5-9]|20)\d\d)(?:, (?P<place>.+))?$")
_YEAR = lazy(r"(?<!\d)((?:1[5-9]|20)\d\d)(?!\d)")


def _bracketed(text: str) -> list[tuple[int, int, str]]:
    """Where each ``⟨…⟩`` of ``text`` is, with the spaces and the ``.`` or ``,`` before it, and what
    it holds: ``(start, end, value)``. One pass (a pattern would scan on from every ``⟨`` that
    none closes)."""
    found: list[tuple[int, int, str]] = []
    done = 0
    while (opening := text.find("⟨", done)) >= 0 and (closing := text.find("⟩", opening + 1)) >= 0:
        start = opening
        while start > done and text[start - 1].isspace():
            start -= 1
        if start > done and text[start - 1] in ".,":
            start -= 1
        found.append((start, closing + 1, text[opening + 1 : closing]))
        done = closing + 1
    return found


def _identifiers(entry: Entry, text: str) -> str:
    """Take the identifiers HAL writes in angle brackets out of ``text``."""
    found = _bracketed(text)
    for _, _, value in found:
        value = value.strip()
        key, colon, rest = value.partition(" : ")
        hal = _HAL_ID.match(value)
        if value.startswith("10."):
            entry.doi = value
        elif hal is not None:
            entry.extra.setdefault("hal:id", hal.group(1))
        elif colon and key in ("NNT", "PMID", "PMCID", "OATAO"):
            if key.startswith("PM"):
                entry.fields[key] = rest.strip()
            else:
                entry.extra[f"hal:{key.lower()}"] = rest.strip()
    kept, done = [], 0
    for start, end, _ in found:
        kept.append(text[done:start])
        done = end
    return ("".join(kept) + text[done:]).strip(" .,")


def _reference(entry: Entry, text: str, journal: str | None = None) -> None:
    """Read HAL's reference line (after its identifiers are taken out); ``journal`` is the name
    the line starts with in ``<i>``, when it does."""
    text = _identifiers(entry, clean_space(text))
    pages = _PAGES.search(text)
    if pages is not None:
        entry.fields["page"] = pages.group(1).replace(" ", "")
        text = (text[: pages.start()] + text[pages.end() :]).strip(" .,")
    head = text.split(". ")[0]
    if journal and head.startswith(journal) and _journal(entry, journal, head[len(journal) :]):
        return
    journal_line, event = _JOURNAL.match(head), _EVENT.match(head)
    if entry.record_type in ("article-journal", "article") and journal_line is not None:
        entry.record_type = "article-journal"
        entry.fields["container-title"] = journal_line.group("journal")
        entry.issued = Date(parts=((int(journal_line.group("year")),),))
        for group in ("volume", "issue"):
            if journal_line.group(group):
                entry.fields[group] = journal_line.group(group).strip()
    elif entry.record_type == "paper-conference" and event is not None:
        entry.fields["container-title"] = event.group("event")
        entry.issued = parse_date(event.group("date").replace(".", ""), "en") or _year(text)
        if event.group("place"):
            entry.fields["event-place"] = event.group("place")
    else:
        entry.issued = _year(text)
        if entry.record_type == "thesis" and ". " in text:
            entry.fields["publisher"] = re.sub(r",\s*(?:1[5-9]|20)\d\d$", "", text.split(". ")[1])


def _journal(entry: Entry, journal: str, rest: str) -> bool:
    """Read what follows the journal's name: ``, Publisher, 2018, 12 (9)``."""
    found = _AFTER_JOURNAL.search(rest)
    if found is None or entry.record_type not in ("article-journal", "article"):
        return False
    entry.record_type = "article-journal"
    entry.fields["container-title"] = journal
    publisher = rest[: found.start()].strip(" ,")
    if publisher:
        entry.fields["publisher"] = publisher
    entry.issued = Date(parts=((int(found.group("year")),),))
    for group in ("volume", "issue"):
        if found.group(group):
            entry.fields[group] = found.group(group).strip()
    return True


def _year(text: str) -> Date | None:
    years = _YEAR.findall(text)
    return Date(parts=((int(years[-1]),),)) if years else None


def _kind(node: Any) -> str | None:
    row = node.parent
    while row is not None and row.tag not in ("tr", "li", "body"):
        row = row.parent
    label = text_of(row.css_first(".label")) if row is not None and row.tag != "body" else ""
    return next((kind for pattern, kind in _KINDS if pattern.search(label)), None)


def _after(node: Any) -> tuple[str, str | None]:
    """The text after ``node`` in its parent (HAL's reference line after the title), and the
    journal's name when the line starts with it in ``<i>``."""
    parts: list[str] = []
    journal = None
    sibling = node.next
    while sibling is not None:
        text = sibling.text(deep=True)
        if sibling.tag == "i" and journal is None and not "".join(parts).strip():
            journal = clean_space(text)
        parts.append(text)
        sibling = sibling.next
    return clean_space("".join(parts)), journal


def _coins(node: Any) -> dict[str, list[str]]:
    """What the COinS span of the result's row says (``creator``, ``date``, ``identifier``)."""
    row = node.parent
    while row is not None and row.tag not in ("tr", "li", "body"):
        row = row.parent
    span = row.css_first("span.Z3988[title]") if row is not None and row.tag != "body" else None
    values: dict[str, list[str]] = {}
    for key, value in parse_qsl(span.attributes.get("title") or "") if span is not None else []:
        values.setdefault(key.removeprefix("rft."), []).append(clean_space(value))
    return values


def _creator(text: str) -> Name | None:
    family, _, given = text.partition(",")
    if family.strip() and given.strip() and "," not in given:
        return Name(family=family.strip(), given=given.strip())
    return person(text)


def _from_coins(entry: Entry, coins: dict[str, list[str]]) -> None:
    """The authors an ``et al.`` cut, the full date and the address, from the row's COinS span."""
    creators = [n for n in (_creator(c) for c in coins.get("creator", [])) if n is not None]
    shown = [n.family for n in entry.authors]
    cut = entry.more_authors and len(creators) > len(shown)
    if cut and [n.family for n in creators[: len(shown)]] == shown:
        entry.authors = (*entry.authors, *creators[len(shown) :])
        entry.more_authors = False
    date = parse_date(coins["date"][0]) if coins.get("date") else None
    shown_year = entry.issued.parts[0][0] if entry.issued is not None and entry.issued.parts else None
    if date is not None and date.parts and shown_year in (None, date.parts[0][0]):
        entry.issued = date
    entry.url = entry.url or next((i for i in coins.get("identifier", []) if i.startswith("http")), None)


def _hal_id(*links: Any) -> str | None:
    for link in links:
        href = (link.attributes.get("href") or "") if link is not None else ""
        hal = _HAL_ID.match(href.rstrip("/").rpartition("/")[2])
        if hal is not None:
            return hal.group(1)
    return None


def _result(node: Any, page: Page) -> Item | None:
    link = node.css_first("strong a[href]")
    link = link if link is not None and text_of(link) else node.css_first("a.ref-halid")
    if link is None or not text_of(link) or _HAL_ID.match(text_of(link)):  # an id is no title
        return None
    entry = Entry(title=without_final_period(text_of(link)), record_type=_kind(node) or "article")
    entry.url = absolute(link.attributes.get("href"), page.base)
    hal = _hal_id(node.css_first("a.ref-halid"), link)
    if hal is not None:
        entry.extra["hal:id"] = hal
    authors = node.css_first(".ref-authors")
    if authors is not None:
        entry.authors = tuple(n for n in (person(text_of(a)) for a in authors.css("a")) if n)
        entry.more_authors = "et al" in text_of(authors)
    reference = node.css_first(".ref-biblio")
    if reference is not None:
        _reference(entry, text_of(reference))
    elif (title := link.parent) is not None and title.tag == "strong":
        _reference(entry, *_after(title))
    _from_coins(entry, _coins(node))
    return Item(entry, node)


@site
class Hal:
    """Reads HAL's search results and publication lists."""

    name: ClassVar[str] = "hal"

    def claims(self, page: Page) -> bool:
        hosts = ("hal.science", "archives-ouvertes.fr")
        return not page.about_one_work and claimed_by(page, ".media-body a.ref-halid", hosts, ("HAL",))

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        found = (_result(n, page) for n in page.tree.css("div.media-body"))
        return [item for item in found if item is not None]
