"""CVF open access pages (openaccess.thecvf.com): a day of a conference, or all of it.

Each paper is a ``dt.ptitle`` (the title, linking to the paper's page) and the ``dd``
elements after it: the authors (one search form each), then the links (``pdf``, ``supp``,
``arXiv``) and the BibTeX the page shows (``div.bibref``). The BibTeX is read with
bibconv's BibTeX reader: it gives the names as ``Family, Given``, the booktitle, month,
year and pages. A paper the saved page cuts short (no BibTeX) keeps what the page shows:
the title and the authors listed, with the page's conference (the booktitle its other papers'
BibTeX names, else the conference the page's title names: ``CVPR 2020``) and year.
"""

from __future__ import annotations

import io
import re
from typing import Any, ClassVar

from bibconv.formats.listing.common import Entry
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, claimed_by, person, site
from bibconv.model import Arxiv, Date, Record
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["CvfOpenAccess"]

_BASE = "https://openaccess.thecvf.com/"
_YEAR = lazy(r"\b((?:19|20)\d\d)\b")


def _bibtex(node: Any, ctx: ReadContext) -> Record | None:
    """The record of the BibTeX a ``div.bibref`` shows, or ``None``."""
    from bibconv.registry import get_reader

    text = text_of(node)
    if not text.startswith("@"):
        return None
    inner = ReadContext(ctx.filename, strict=False)
    records = list(get_reader("bibtex").read(io.BytesIO(text.encode("utf-8")), inner))
    return records[0] if len(records) == 1 else None


def _links(entry: Entry, dds: list[Any], base: str) -> None:
    from bibconv.arxiv import parse_arxiv_id

    for dd in dds:
        for link in dd.css("a[href]"):
            href = absolute(link.attributes.get("href"), base)
            label = text_of(link).lower()
            if href is None:
                continue
            found = parse_arxiv_id(href, bare=False) if "arxiv.org/" in href else None
            if found and entry.arxiv is None:
                entry.arxiv = Arxiv(id=found[0], version=found[1])
            elif label == "pdf":
                entry.extra["html:pdf_url"] = href
            elif label == "supp":
                entry.extra["html:supplement_url"] = href


def _paper(dt: Any, dds: list[Any], base: str, year: Date | None, ctx: ReadContext) -> Item | None:
    link = dt.css_first("a[href]")
    title = rich_of(link or dt)
    if not title:
        return None
    entry = Entry(title=title, title_is_rich=True, record_type="paper-conference", issued=year)
    entry.url = absolute(link.attributes.get("href"), base) if link is not None else None
    shown = [text_of(a) for dd in dds[:1] for a in dd.css("form.authsearch a, a")]
    entry.authors = tuple(n for n in (person(t) for t in shown) if n)
    bib = next((r for dd in dds for n in dd.css("div.bibref") if (r := _bibtex(n, ctx))), None)
    if bib is not None:
        entry.authors = bib.names.get("author", entry.authors)
        entry.issued = bib.dates.get("issued", entry.issued)
        for key in ("container-title", "page", "publisher", "DOI"):
            if key in bib.fields:
                entry.fields[key] = bib.fields[key]
        entry.extra.update({k: v for k, v in bib.extra.items() if k == "bibtex:key"})
    _links(entry, dds, base)
    return Item(entry, dt)


@site
class CvfOpenAccess:
    """Reads the paper lists of the CVF open access repository (CVPR, ICCV, WACV…)."""

    name: ClassVar[str] = "cvf"

    def claims(self, page: Page) -> bool:
        foundation = "a[href*='cv-foundation.org'], a[href*='thecvf.com']"
        hosts = ("thecvf.com", "cv-foundation.org")
        return claimed_by(page, "dl dt.ptitle", hosts, ("Open Access Repository",), foundation)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        base = page.base or _BASE
        found = _YEAR.search(page.title)
        year = Date(parts=((int(found.group(1)),),)) if found else None
        items: list[Item] = []
        for dt in page.tree.css("dl dt.ptitle"):
            dds: list[Any] = []
            node = dt.next
            while node is not None and node.tag != "dt":
                if node.tag == "dd":
                    dds.append(node)
                node = node.next
            item = _paper(dt, dds, base, year, ctx)
            if item is not None:
                items.append(item)
        _page_venue(items, page.title)
        return items


def _page_venue(items: list[Item], title: str) -> None:
    """The page's conference for the papers that name none: the one its papers' BibTeX names (when
    they all name one), else the one the page's title names (``CVPR 2020 Open Access Repository``)."""
    named = {i.entry.fields["container-title"] for i in items if "container-title" in i.entry.fields}
    heading = re.sub(r"(?<!\s)\s*+Open Access Repository\s*$", "", title).strip()
    venue = next(iter(named)) if len(named) == 1 else (heading if heading != title.strip() else "")
    for item in items:
        if venue and "container-title" not in item.entry.fields:
            item.entry.fields["container-title"] = venue
