"""DBLP person, venue (its index of volumes, and a volume's table of contents) and search pages.

Each ``li.entry`` of a ``ul.publ-list`` is one publication; its class says the kind
(``article``, ``inproceedings``, ``informal``, ``editor``, ``book``, ``incollection``,
``phdthesis``, ``reference``, ``data``). The schema.org microdata DBLP writes gives the
names (``itemprop=author``/``editor``; DBLP's disambiguation number ``0001`` is dropped),
the title (``span.title``; DBLP closes every title with a period, which is dropped), the
venue, volume, issue, pages and year. ``li.year`` headings give the year of the entries
below them when an entry shows none; on a venue page the year in its heading does, and the
volume the page opens with (an editorship) is the venue of the papers after it, or, where a
table of contents does not open with it, the venue its title names; a venue's index
(``body.index-page``) lists its volumes, none the venue of another. A series number is the
``volumeNumber`` or the number after the series' link. A book's ``pp. 1-310`` is its page
count, a thesis's school the text between title and year. The electronic-edition links give
the DOI, the arXiv id (also from arXiv's own DOI) and the URL.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, person, site, without_final_period
from bibconv.model import Arxiv, Date, Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Dblp"]

_HOSTS = ("dblp.org", "dblp.uni-trier.de", "dblp.dagstuhl.de", "dblp2.uni-trier.de", "dblp.l3s.de")
_KINDS = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "informal": "article",
    "editor": "book",
    "book": "book",
    "incollection": "chapter",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "reference": "entry-encyclopedia",
    "data": "dataset",
}
_NUMBER = lazy(r"(?<!\s)\s++\d{4}$")  # spaces from their start: linear under search
_DOI_LINK = lazy(r"^https?://(?:dx\.)?doi\.(?:org|acm\.org)/(10\.\S+)$", re.IGNORECASE)
_YEAR = lazy(r"\b(1[89]\d\d|20\d\d)\b")
_ARXIV_DOI = lazy(r"^10\.48550/arXiv\.(\d{4}\.\d{4,5})$", re.IGNORECASE)
_WHOLE_BOOK = lazy(r"^(?:pp\.\s*)?1\s*-\s*(\d+)$")
_THESES = frozenset({"phdthesis", "mastersthesis"})
_SERIES_NUMBER = lazy(r"\s*(\d+),")


def _name(node: Any) -> Name | None:
    """One DBLP name, without its disambiguation number."""
    inner = node.css_first("[itemprop=name]") or node
    return person(_NUMBER.sub("", clean_space(inner.attributes.get("title") or text_of(inner))))


def _names(data: Any, role: str) -> tuple[Name, ...]:
    found = (_name(n) for n in data.css(f"[itemprop={role}]"))
    return tuple(n for n in found if n is not None)


def _classes(node: Any) -> list[str]:
    return (node.attributes.get("class") or "").split()


def _kind(node: Any) -> str:
    return next((c for c in _classes(node) if c in _KINDS), "informal")


def _first(data: Any, selector: str) -> str | None:
    node = data.css_first(selector)
    return (node.attributes.get("content") or text_of(node) or None) if node is not None else None


def _venue(data: Any, entry: Entry) -> None:
    """Venue, volume, issue and pages from the microdata after the title."""
    venue = data.css_first("[itemprop=isPartOf][itemtype$=Periodical] > [itemprop=name]") or data.css_first(
        "[itemprop=isPartOf][itemtype$=Series] > [itemprop=name], [itemprop=isPartOf] > [itemprop=name]"
    )
    if venue is not None and text_of(venue):
        entry.fields["container-title"] = text_of(venue)
    for selector, key in (
        ("[itemprop=volumeNumber]", "volume"),
        ("[itemprop=issueNumber]", "issue"),
        ("[itemprop=pagination]", "page"),
        ("[itemprop=publisher]", "publisher"),
        ("[itemprop=isbn]", "ISBN"),
    ):
        value = _first(data, selector)
        if value:
            entry.fields[key] = value


def _links(node: Any, entry: Entry, base: str | None) -> None:
    """DOI, arXiv id and URL from the electronic-edition links (``itemprop=url`` in ``nav.publ``)."""
    from bibconv.arxiv import parse_arxiv_id

    nav = node.css_first("nav.publ")
    if nav is None:
        return
    view = nav.css_first("li.drop-down")
    anchors = nav.css("li.ee a[href]") or (view.css("a[itemprop=url]") if view is not None else [])
    links = [a.attributes.get("href") for a in anchors]
    for href in (absolute(h, base) for h in links):
        if href is None:
            continue
        doi = _DOI_LINK.match(href)
        found = parse_arxiv_id(href, bare=False) if "arxiv.org/" in href else None
        arxiv_doi = _ARXIV_DOI.match(doi.group(1)) if doi else None
        if arxiv_doi and entry.arxiv is None:
            entry.arxiv = Arxiv(id=arxiv_doi.group(1))
        elif doi and entry.doi is None:
            entry.doi = doi.group(1)
        elif found and entry.arxiv is None:
            entry.arxiv = Arxiv(id=found[0], version=found[1])
        elif entry.url is None and not doi and not found:
            entry.url = href


def _kind_fields(kind: str, data: Any, title: Any, entry: Entry) -> None:
    """A book's series and page count, a thesis's school and kind (the text between title and year)."""
    if kind in ("editor", "book") and "container-title" in entry.fields:
        series = entry.fields["collection-title"] = entry.fields.pop("container-title")
        if "volume" in entry.fields:
            entry.fields["collection-number"] = entry.fields.pop("volume")
        else:  # ``CEUR Workshop Proceedings 3087``: the number as text after the series' link
            text = text_of(data)
            at = text.find(series)
            number = _SERIES_NUMBER.match(text, at + len(series)) if at >= 0 else None
            if number:
                entry.fields["collection-number"] = number.group(1)
    whole = _WHOLE_BOOK.match(entry.fields.get("page", ""))
    if kind == "book" and whole:
        entry.fields["number-of-pages"] = whole.group(1)
        del entry.fields["page"]
    if kind in _THESES:
        text = text_of(data)
        rest = text[text.find(text_of(title)) + len(text_of(title)) :]
        school = re.sub(r"(?:,|(?<!\s))\s*+(?:1[89]|20)\d\d\s*$", "", rest).strip(" ,.")
        if school:
            entry.fields["publisher"] = school
        entry.fields["genre"] = "PhD thesis" if kind == "phdthesis" else "Master's thesis"


def _entry(node: Any, base: str | None, year: Date | None) -> Item | None:
    data = node.css_first(".data") or node.css_first("cite")
    title = data.css_first("span.title") if data is not None else None
    if data is None or title is None:
        return None
    kind = _kind(node)
    entry = Entry(title=without_final_period(rich_of(title)), title_is_rich=True, record_type=_KINDS[kind])
    names = {"editor": _names(data, "editor")}
    authors = _names(data, "author")
    if kind == "editor" and not names["editor"]:
        names["editor"], authors = authors, ()
    entry.authors = authors
    published = _first(data, "[itemprop=datePublished]")
    entry.issued = (parse_date(published) if published else None) or year
    _venue(data, entry)
    _kind_fields(kind, data, title, entry)
    _links(node, entry, base)
    key = node.attributes.get("data-key") or node.attributes.get("id")
    if key and "/" in key:
        entry.extra["dblp:key"] = key
    return Item(entry, node, names={k: v for k, v in names.items() if v})


def _body_is(tree: Any, kind: str) -> bool:
    """Whether the page's body has the class DBLP gives the kind of page (``toc-page``, ``index-page``)."""
    body = tree.css_first("body")
    return body is not None and kind in _classes(body)


def _toc_venue(tree: Any) -> str | None:
    """The venue a table of contents shows in its title (``dblp: Agreement Technologies 2012``)."""
    if not _body_is(tree, "toc-page"):
        return None
    title = re.sub(r"^\s*dblp\s*:\s*", "", text_of(tree.css_first("title")), flags=re.IGNORECASE)
    return title or None


def _page_year(tree: Any) -> Date | None:
    """The year a venue page's heading shows (``AAAI 2015``), for entries that show none."""
    heading = tree.css_first("#headline h1, header h1, h1")
    match = _YEAR.search(text_of(heading)) if heading is not None else None
    return Date(parts=((int(match.group(1)),),)) if match else None


@site
class Dblp:
    """Reads DBLP's publication lists (person, venue, search pages)."""

    name: ClassVar[str] = "dblp"

    def claims(self, page: Page) -> bool:
        if page.tree.css_first("ul.publ-list li.entry") is None:
            return False
        markers = (page.meta("og:site_name") or "") + " " + text_of(page.tree.css_first("title"))
        return page.on(*_HOSTS) or "dblp" in markers.lower()

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        items = self._items(page)
        # a person page and a venue's index (its volumes by year) list works none of which holds another
        lists_works = page.tree.css_first(".this-person") is not None or _body_is(page.tree, "index-page")
        proceedings = items[0] if items and _kind(items[0].node) == "editor" and not lists_works else None
        # a table of contents: its papers are in the volume it opens with, else in the venue its title names
        venue = proceedings.entry.title if proceedings is not None else None
        if venue is None and not lists_works:
            venue = _toc_venue(page.tree)
        if venue is not None:
            for item in items:
                if item is not proceedings and "container-title" not in item.entry.fields:
                    item.entry.fields["container-title"] = venue
        return items

    def _items(self, page: Page) -> list[Item]:
        items: list[Item] = []
        page_year = _page_year(page.tree)
        for publ_list in page.tree.css("ul.publ-list"):
            year: Date | None = page_year
            for node in publ_list.iter():
                classes = _classes(node)
                if "year" in classes:
                    found = _YEAR.search(text_of(node))
                    year = Date(parts=((int(found.group(1)),),)) if found else page_year
                elif "entry" in classes:
                    item = _entry(node, page.base, year)
                    if item is not None:
                        items.append(item)
        return items
