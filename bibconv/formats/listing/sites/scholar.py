"""Google Scholar result pages (``div.gs_r``) and profile pages (``tr.gsc_a_tr``).

A result: the title (``h3.gs_rt``) without Scholar's ``[PDF]``/``[HTML]``/``[CITATION]``/``[C]``/
``[BOOK]`` labels (a book label makes the record a book) and without the query's bold; the
grey line ``authors - venue, year - host`` split into authors, venue and year; the snippet
as an abstract (Scholar cuts it, so the record says so); the title link as the URL and the
side ``[PDF]`` link as the PDF's; DOI and arXiv id from either. A profile row: the title,
the authors line, the venue line ``Journal 12 (3), 45-67, 2002`` split into venue, volume,
issue and pages, and the year column. A trailing ``…`` on an author line means Scholar
shows only the first authors: those are kept and a note says more exist
(:data:`~bibconv.formats.listing.common.MORE_AUTHORS_NOTE`).
Citation counts are kept apart (``scholar:cited_by``), never read as a date.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv import facts
from bibconv.formats.listing.common import Entry, author_list, clean_space
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, site
from bibconv.model import Arxiv, Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Scholar"]

_BASE = "https://scholar.google.com/"
_MORE = lazy(r"(?:(?<!\s)\s++)?(?:…|\.\.\.)\s*$")  # spaces from their start: linear
_YEAR = lazy(r"(?:^|,\s*)((?:1[5-9]|20)\d\d)\s*$")
_PAGES = lazy(r"^[A-Za-z]?\d+(?:\s*-\s*[A-Za-z]?\d+)?$")
# The venue ends at a run of spaces' first space, or its second after a digit (never later: linear).
_VOLUME = lazy(r"^(?P<venue>.*?\D)(?<!\s\s)\s++(?P<volume>\d++)(?:\s*+\((?P<issue>[^()]++)\))?$")
_PATENT = lazy(r"^(?P<venue>US Patent(?: App\.)?)\s+(?P<number>[\d,/]+)$")
_DOI = lazy(r"doi\.org/(10\.\d{4,9}/\S+)$", re.IGNORECASE)


def _year(text: str) -> tuple[str, Date | None]:
    """``"Terra Antartica, 2002"`` → ``("Terra Antartica", 2002)``; a year 0 or none → no date."""
    match = _YEAR.search(text)
    if match is None:
        return text, None
    return text[: match.start()].strip(" ,"), Date(parts=((int(match.group(1)),),))


def _authors(entry: Entry, text: str) -> None:
    """Authors of a grey line; a trailing ellipsis keeps the shown ones and the record says more exist."""
    entry.authors, entry.more_authors = author_list(_MORE.sub(", …", clean_space(text)))


def _venue(entry: Entry, text: str) -> None:
    """``ACM SIGIR Forum 49 (1), 10-15`` → venue, volume, issue, pages (or a patent number)."""
    text = clean_space(text)
    if not text:
        return
    patent = _PATENT.match(text)
    if patent:
        entry.record_type = "patent"
        entry.fields["number"] = patent.group("number")
        entry.fields["authority"] = "United States"
        return
    head, _, last = text.rpartition(", ")
    if head and _PAGES.match(last):
        entry.fields["page"] = last.replace(" ", "")
        text = head
    volume = _VOLUME.match(text)
    if volume and not (len(volume.group("volume")) == 4 and volume.group("issue") is None):
        text = volume.group("venue").strip()
        entry.fields["volume"] = volume.group("volume")
        if volume.group("issue"):
            entry.fields["issue"] = volume.group("issue")
    entry.fields["container-title"] = text


def _identifiers(entry: Entry, hrefs: list[str]) -> None:
    from bibconv.arxiv import parse_arxiv_id

    for href in hrefs:
        doi = _DOI.search(href)
        found = parse_arxiv_id(href, bare=False) if "arxiv.org/" in href else None
        if doi and entry.doi is None:
            entry.doi = doi.group(1)
        elif found and entry.arxiv is None:
            entry.arxiv = Arxiv(id=found[0], version=found[1])


def _result(node: Any, base: str) -> Item | None:
    heading = node.css_first("h3.gs_rt")
    if heading is None:
        return None
    label_nodes = heading.css(".gs_ctu, .gs_ctc, .gs_ctg")
    labels = " ".join(text_of(n) for n in label_nodes)
    title = rich_of(heading, frozenset(n.mem_id for n in label_nodes))
    entry = Entry(title=clean_space(re.sub(r"</?b>", "", title)), title_is_rich=True)
    if not entry.title:
        return None
    if entry.title.startswith("…") or _MORE.search(entry.title):
        facts.add(entry.extra, facts.TITLE_CUT_NOTE)
    if "[BOOK]" in labels or "[B]" in labels:
        entry.record_type = "book"
    link = heading.css_first("a[href]")
    entry.url = absolute(link.attributes.get("href"), base) if link is not None else None
    side = node.css_first(".gs_ggs a[href], .gs_or_ggsm a[href]")  # "[PDF] from x.org", "[HTML] from …"
    pdf_url = absolute(side.attributes.get("href"), base) if side is not None else None
    if pdf_url:
        kind = (
            "html:pdf_url"
            if "[PDF]" in text_of(side) or pdf_url.lower().endswith(".pdf")
            else "html:fulltext_url"
        )
        entry.extra[kind] = pdf_url
    _identifiers(entry, [u for u in (entry.url, pdf_url) if u])
    parts = [p.strip() for p in text_of(node.css_first(".gs_a")).split(" - ")]
    if parts and parts[0]:
        _authors(entry, parts[0])
    if len(parts) >= 3 or (len(parts) == 2 and _YEAR.search(parts[1])):  # else the second is the host
        venue, entry.issued = _year(parts[1])
        if venue and not _arxiv_venue(entry, venue):
            entry.fields["container-title"] = venue
    snippet = text_of(node.css_first(".gs_rs"))
    entry.abstract = re.sub(r"^Abstract\s+", "", snippet)
    _cited_by(entry, node.css("div.gs_fl a[href*='cites=']"))
    cluster = node.attributes.get("data-cid")
    if cluster:
        entry.extra["scholar:cluster"] = cluster
    return Item(entry, node)


def _cited_by(entry: Entry, links: list[Any]) -> None:
    for link in links:
        count = re.search(r"(\d[\d,]*)\*?\s*$", text_of(link))
        if count:
            entry.extra["scholar:cited_by"] = count.group(1).replace(",", "")
            return


def _row(node: Any, base: str) -> Item | None:
    link = node.css_first("a.gsc_a_at") or node.css_first("td.gsc_a_t a")
    if link is None or not text_of(link):
        return None
    entry = Entry(title=text_of(link), url=absolute(link.attributes.get("href"), base))
    grey = node.css("td.gsc_a_t .gs_gray")
    if grey:
        _authors(entry, text_of(grey[0]))
    year_text = text_of(node.css_first("td.gsc_a_y"))
    if re.fullmatch(r"(?:1[5-9]|20)\d\d", year_text):
        entry.issued = Date(parts=((int(year_text),),))
    if len(grey) > 1:
        venue, year = _year(text_of(grey[1]))
        entry.issued = entry.issued or year
        if not _arxiv_venue(entry, venue):
            _venue(entry, venue)
    _cited_by(entry, node.css("td.gsc_a_c a"))
    return Item(entry, node)


_ARXIV_VENUE = lazy(r"^(?:arXiv preprint\s+(?:arXiv:)?|(?P<corr>CoRR),?\s+abs/)(?P<id>\S+)$", re.IGNORECASE)


def _arxiv_venue(entry: Entry, venue: str) -> bool:
    """``arXiv preprint arXiv:1502.03167`` gives the arXiv id (and no venue); so does DBLP's
    ``CoRR, abs/1206.5538`` (kept as venue and volume, as DBLP writes it)."""
    from bibconv.arxiv import parse_arxiv_id

    match = _ARXIV_VENUE.match(venue)
    found = parse_arxiv_id(match.group("id")) if match else None
    if match is None or found is None:
        return False
    entry.arxiv = Arxiv(id=found[0], version=found[1])
    if match.group("corr"):
        entry.fields["container-title"] = match.group("corr")
        entry.fields["volume"] = f"abs/{match.group('id')}"
    return True


@site
class Scholar:
    """Reads Google Scholar search results and profile publication lists."""

    name: ClassVar[str] = "google-scholar"

    def claims(self, page: Page) -> bool:
        tree = page.tree
        return (
            tree.css_first("tr.gsc_a_tr td.gsc_a_t") is not None
            or tree.css_first("div.gs_r div.gs_ri h3.gs_rt, div.gs_r h3.gs_rt") is not None
        )

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        base = page.base or _BASE
        items: list[Item] = []
        for node in page.tree.css("tr.gsc_a_tr, div.gs_r"):
            item = _row(node, base) if node.tag == "tr" else _result(node, base)
            if item is not None:
                items.append(item)
        return items
