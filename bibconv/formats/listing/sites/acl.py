"""ACL Anthology author, volume and event pages, and a paper's own page.

Each paper is a ``.d-sm-flex`` row: the title link (``strong > a`` to ``/ID/``), the
author links (``/people/…``), the volume link (the venue) and buttons for the PDF, the
BibTeX and the abstract, which is the collapsed card the ``abs`` button opens. ``h4``
headings give the year (author pages) or the volume (event pages); a volume page's own
title and details (year, month, address, publisher) apply to its rows, and its first row,
the front matter, is the volume itself (a book, its people the editors). Words the
Anthology protects from case changes (``span.acl-fixed-case``) stay protected. The
Anthology id gives the year when nothing else does (``2022.acl-long.1``, ``P19-1001``).
The 2019 design (aclweb.org/anthology) has one ``p`` per paper under each volume's ``div``:
buttons (the ``pdf`` badge), the title in ``strong``, the id, then the author links apart by
``|``. A journal issue's name ("Computational Linguistics, Volume 26, Number 1, March 2000")
gives its papers' journal, volume, number and date. A paper's own page (``h2#title`` and the
``.acl-paper-details`` list) is that one paper, its details (volume, month and year, address,
publisher, pages, URL, DOI, the volume's editors), its abstract, and its authors' whole names
from the meta tags.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, claimed_by, person, site
from bibconv.model import Date, Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["AclAnthology"]

_BASE = "https://aclanthology.org/"
_ROW = "div.d-sm-flex, p.d-sm-flex, #main div[id] > p:not(.d-sm-flex)"  # the last: the 2019 design's rows
_OLD_TITLE = "#main div[id] > p > strong > a[href*='/papers/']"
_NEW_ID = lazy(r"^(\d{4})\.[\w-]+\.\d+$")
_OLD_ID = lazy(r"^[A-Z](\d\d)-\d{4}$")
_YEAR = lazy(r"^\s*((?:19|20)\d\d)\s*$")
_MARKUP = {"i": "i", "em": "i", "b": "b", "strong": "b", "sup": "sup", "sub": "sub"}
_JOURNAL_ID = lazy(r"^[JQ]\d\d-|^\d{4}\.(?:tacl|cl)-", re.IGNORECASE)  # CL and TACL
_ISSUE = lazy(
    r"^(?P<journal>[^,]+), Volume (?P<volume>\d+)(?:, Number (?P<issue>[\w-]+))?"
    r"(?:, (?P<month>[A-Za-z]+) (?P<year>(?:19|20)\d\d))?$"
)  # a journal issue as the Anthology names it: "Computational Linguistics, Volume 26, Number 1, March 2000"


def _rich_title(node: Any) -> str:
    """The title as rich text, ``span.acl-fixed-case`` words marked ``nocase``."""
    from bibconv import latex

    parts: list[str] = []
    for child in node.iter(include_text=True):
        if child.tag == "-text":
            parts.append(latex.escape_markup(child.text(deep=False)))
        elif "acl-fixed-case" in (child.attributes.get("class") or ""):
            parts.append(f'<span class="nocase">{rich_of(child)}</span>')
        elif child.tag in _MARKUP:
            parts.append(f"<{_MARKUP[child.tag]}>{_rich_title(child)}</{_MARKUP[child.tag]}>")
        else:
            parts.append(" " if child.tag == "br" else _rich_title(child))
    return clean_space("".join(parts))


def _id_year(anthology_id: str) -> Date | None:
    new, old = _NEW_ID.match(anthology_id), _OLD_ID.match(anthology_id)
    if new:
        return Date(parts=((int(new.group(1)),),))
    if old:
        two = int(old.group(1))
        return Date(parts=((1900 + two if two >= 50 else 2000 + two,),))
    return None


_MONTHS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"), 1)}  # fmt: skip


def _detail_nodes(tree: Any) -> dict[str, Any]:
    """A page's details list: each label (``anthology id``, ``month``…) and its ``dd``."""
    nodes: dict[str, Any] = {}
    for label in tree.css("dl dt"):
        value = label.next
        while value is not None and value.tag != "dd":
            value = value.next
        if value is not None:
            nodes.setdefault(text_of(label).rstrip(":").strip().lower(), value)
    return nodes


def _details(tree: Any) -> dict[str, str]:
    """A volume page's details (``Anthology ID:``, ``Month:``, ``Year:``, ``Address:``, ``Publisher:``)."""
    return {label: text_of(value) for label, value in _detail_nodes(tree).items()}


def _page_facts(tree: Any) -> tuple[str | None, Date | None, dict[str, str]]:
    """A volume page's title, the page's year (volume details, or an event page's heading), the details."""
    facts = _details(tree)
    heading = text_of(tree.css_first("h2#title"))
    volume = heading if "anthology id" in facts and heading else None
    year = _YEAR.match(facts.get("year", "")) or (
        re.search(r"\(((?:19|20)\d\d)\)", heading) if heading else None
    )
    month = _MONTHS.get(facts.get("month", "").lower())
    if year is None:
        return volume, None, facts
    parts = (int(year.group(1)), month) if month and volume else (int(year.group(1)),)
    return volume, Date(parts=(parts,)), facts


def _journal_issue(entry: Entry, venue: str | None) -> Date | None:
    """A journal issue's name split into the journal, volume and number; its month and year."""
    match = _ISSUE.match(venue or "")
    if match is None:
        if venue:
            entry.fields["container-title"] = venue
        return None
    entry.fields["container-title"] = match["journal"]
    entry.fields["volume"] = match["volume"]
    if match["issue"]:
        entry.fields["issue"] = match["issue"]
    if not match["year"]:
        return None
    month = _MONTHS.get(match["month"].lower())
    return Date(parts=((int(match["year"]), month) if month else (int(match["year"]),),))


def _badge(row: Any, label: str) -> Any:
    """The row's button link whose text is ``label`` (the 2019 design's ``pdf`` badge)."""
    return next((a for a in row.css("a.badge[href]") if text_of(a).lower() == label), None)


def _abstract(tree: Any, row: Any) -> str:
    button = row.css_first("a[href^='#abstract-']")
    if button is None:
        return ""
    card = tree.css_first(f"[id='{button.attributes['href'][1:]}']")
    return text_of(card) if card is not None else ""


def _row(
    tree: Any, row: Any, base: str, heading: tuple[Date | None, str | None], facts: dict[str, str]
) -> Item | None:
    title_link = row.css_first("strong > a[href]")
    if title_link is None:
        return None
    entry = Entry(title=_rich_title(title_link), title_is_rich=True, record_type="paper-conference")
    href = title_link.attributes.get("href") or ""
    anthology_id = href.strip("/").rpartition("/")[2]
    entry.url = absolute(href, base)
    if href.startswith("/anthology/papers/") and (_NEW_ID.match(anthology_id) or _OLD_ID.match(anthology_id)):
        entry.url = f"{_BASE}{anthology_id}/"  # the 2019 design's address of a paper, now its id
    names = tuple(n for n in (person(text_of(a)) for a in row.css("a[href*='/people/']")) if n)
    venue_link = row.css_first("a[href*='/volumes/']")
    year, volume = heading
    venue = text_of(venue_link) if venue_link is not None else volume
    roles: dict[str, tuple[Name, ...]] = {}
    if venue and text_of(title_link) == venue:  # the front matter: the volume itself
        entry.record_type = "book"
        roles["editor"] = names
    else:
        entry.authors = names
        if _JOURNAL_ID.match(anthology_id):
            entry.record_type = "article-journal"
            year = _journal_issue(entry, venue) or year
        elif venue:
            entry.fields["container-title"] = venue
    entry.issued = year or _id_year(anthology_id)
    for key, field in (("publisher", "publisher"), ("address", "publisher-place")):
        if key in facts:
            entry.fields[field] = facts[key]
    pdf = row.css_first("a[href$='.pdf']") or _badge(row, "pdf")
    if pdf is not None and (pdf_url := absolute(pdf.attributes.get("href"), base)):
        entry.extra["html:pdf_url"] = pdf_url
    if anthology_id:
        entry.extra["acl:anthology_id"] = anthology_id
    entry.abstract = _abstract(tree, row)
    return Item(entry, row, names=roles)


def _paper_page(page: Page) -> Item | None:
    """An Anthology paper's own page: its title heading, its details list (``Anthology ID:``,
    ``Volume:``, ``Month:``, ``Year:``, ``Address:``, ``Publisher:``, ``Pages:``, ``URL:``,
    ``DOI:``, ``PDF:``), the authors' whole names in its ``citation_author`` tags (the page
    shows them with initials), its abstract card and the volume's editors."""
    tree = page.tree
    heading = tree.css_first("h2#title")
    if heading is None or tree.css_first(".acl-paper-details") is None:
        return None
    nodes = _detail_nodes(tree)
    facts = {label: text_of(value) for label, value in nodes.items()}
    entry = Entry(title=_rich_title(heading), title_is_rich=True, record_type="paper-conference")
    names = [v for k, v in page.metas if k == "citation_author"] or [
        text_of(a) for a in tree.css("p.lead a[href*='/people/']")
    ]
    entry.authors = tuple(n for n in (person(x) for x in names) if n)
    anthology_id = facts.get("anthology id", "")
    venue = facts.get("volume") or None
    year = _YEAR.match(facts.get("year", ""))
    month = _MONTHS.get(facts.get("month", "").partition(" ")[0].lower())
    if year:
        entry.issued = Date(parts=((int(year.group(1)), month) if month else (int(year.group(1)),),))
    if _JOURNAL_ID.match(anthology_id):
        entry.record_type = "article-journal"
        entry.issued = _journal_issue(entry, venue) or entry.issued
    elif venue:
        entry.fields["container-title"] = venue
    entry.issued = entry.issued or _id_year(anthology_id)
    for key, field in (("publisher", "publisher"), ("address", "publisher-place")):
        if facts.get(key):
            entry.fields[field] = facts[key]
    if facts.get("pages"):  # ``1–8``
        entry.fields["page"] = facts["pages"].replace("\u2013", "-")
    entry.url = facts.get("url") or None
    entry.doi = facts.get("doi") or None
    if facts.get("pdf"):
        entry.extra["html:pdf_url"] = facts["pdf"]
    if anthology_id:
        entry.extra["acl:anthology_id"] = anthology_id
    abstract = tree.css_first(".acl-abstract > span")
    entry.abstract = text_of(abstract) if abstract is not None else ""
    editors = nodes["editors"].css("a[href*='/people/']") if "editors" in nodes else []
    roles = {"editor": tuple(n for n in (person(text_of(a)) for a in editors) if n)}
    return Item(entry, heading, names={k: v for k, v in roles.items() if v})


@site
class AclAnthology:
    """Reads the paper lists of the ACL Anthology."""

    name: ClassVar[str] = "acl-anthology"

    def claims(self, page: Page) -> bool:
        brand = "a.navbar-brand[href*='aclanthology.org'], a.navbar-brand[href*='aclweb.org']"
        rows = f".d-sm-flex strong > a[href], {_OLD_TITLE}, #main .acl-paper-details"
        return claimed_by(page, rows, ("aclanthology.org", "aclweb.org"), ("ACL Anthology",), brand)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        tree = page.tree
        base = page.base or _BASE
        volume, volume_year, facts = _page_facts(tree)
        heading: tuple[Date | None, str | None] = (volume_year, volume)
        items: list[Item] = []
        for node in tree.css(f"h4, {_ROW}"):
            if node.tag == "h4":
                match = _YEAR.match(text_of(node))
                link = node.css_first("a[href*='/volumes/']")
                name = text_of(link) if link is not None else text_of(node)
                heading = (Date(parts=((int(match.group(1)),),)), volume) if match else (volume_year, name)
                continue
            item = _row(tree, node, base, heading, facts if volume else {})
            if item is not None:
                items.append(item)
        paper = _paper_page(page) if not items else None
        return [paper] if paper is not None else items
