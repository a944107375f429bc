"""Tables of contents of Atypon Literatum sites: the ACM Digital Library, Taylor & Francis, ASHA…

Literatum pages carry a ``pbContext`` meta tag (or ``class="pb-page"`` on the root). Each
paper of a table of contents is a ``div.issue-item`` (the current design) or a
``div.tocArticleEntry`` (the classic one): the title link (``.issue-item__title a``,
``.art_title a``, to ``/doi/10.…``), the authors (``ul.loa``, one ``li`` per name, ``, and``
between them; ``.articleEntryAuthorsLinks``), the DOI (``.issue-item__doi``, or the link's
path), the date and pages (``pp 1–12``, ``Pages: 456-479``, ``Published online: 24 Apr
2014``), and a preview of the abstract, cut by the site (kept as shown and noted). The
section heading above a paper (``Clinical Focus``, ``Research Articles``) is its ``section``.
The page's title names the journal, volume and issue (``Am J Audiol | Vol 27, No 1``); a
proceedings title makes the papers conference papers.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bibconv.dates import parse_date, search_date
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, rich_of, text_of
from bibconv.formats.listing.sites import Item, Page, claimed_by, person, site
from bibconv.model import Date
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["Atypon"]

_HOSTS = ("dl.acm.org", "tandfonline.com", "pubs.asha.org", "ascelibrary.org", "journals.sagepub.com")
_DOI_PATH = lazy(r"/doi/(?:abs/|full/|pdf/|epdf/|book/)?(10\.\d{4,9}/[^?#\s]+)")
_ISSUE = lazy(
    r"^(?P<venue>.+?)(?:(?<!\s)|(?<=^\s))\s*+[|:,]\s*Vol(?:ume)?\.?\s*(?P<volume>[\w.-]+)(?:,?\s*(?:No|Issue)\.?\s*(?P<issue>[\w.-]+))?"
)
_PAGES = lazy(r"(?:\bpp?\.?|\bPages?:)\s*(\d+\s*[–-]\s*\d+|\d+)")
_ITEMS = "div.issue-item, div.tocArticleEntry"
_TITLES = ("div.issue-item .issue-item__title", "div.tocArticleEntry .art_title")
_HEADINGS = "h4.titled_issues__title, .toc__heading, .toc__section .section__title, div.tocHeading"
_JOINERS = lazy(r"^[\s,]*(?:and\s+)?|[\s,]*(?:,\s*)?(?:and)?[\s,]*$")


def _issue(page: Page) -> dict[str, str]:
    """The venue, volume and issue the page's title (or its issue details) names."""
    facts: dict[str, str] = {}
    match = _ISSUE.match(page.title)
    if match is not None:
        facts["container-title"] = match.group("venue").strip()
        facts["volume"] = match.group("volume")
        if match.group("issue"):
            facts["issue"] = match.group("issue")
    elif page.title:
        facts["container-title"] = clean_space(page.title.split(" | ")[0])
    for span in page.tree.css(".current-issue__specifics span"):
        label, _, value = text_of(span).partition(" ")
        if label.lower() in ("volume", "issue") and value:
            facts.setdefault(label.lower(), value)
    return facts


def _date(node: Any, fallback: Date | None) -> Date | None:
    for span in node.css(".issue-item__header span, .bookPubDate, .issue-item__detail span, .tocEPubDate"):
        found = search_date(text_of(span))
        if found is not None:
            return found[0]
    return fallback


def _authors(node: Any) -> list[str]:
    names = [text_of(a) for a in node.css(".articleEntryAuthorsLinks a")]
    for li in node.css("ul.loa > li"):
        link = li.css_first("a")
        text = text_of(link) if link is not None else text_of(li)
        names.append(_JOINERS.sub("", text))
    return [n for n in names if n]


def _item(node: Any, page: Page, section: str, facts: dict[str, str], issued: Date | None) -> Item | None:
    link = node.css_first(".issue-item__title a[href], .art_title a[href]")  # the _TITLES of an item
    if link is None or not text_of(link):
        return None
    href = link.attributes.get("href") or ""
    proceedings = "proceedings" in facts.get("container-title", "").lower()
    kind = "paper-conference" if proceedings else "article-journal"
    entry = Entry(title=rich_of(link), title_is_rich=True, record_type=kind)
    entry.url = absolute(href, page.base)
    doi_link = node.css_first(".issue-item__doi a[href], a.issue-item__doi[href]")
    found = _DOI_PATH.search(href) or (
        re.search(r"(10\.\d{4,9}/\S+)", doi_link.attributes.get("href") or "")
        if doi_link is not None
        else None
    )
    entry.doi = found.group(1) if found else None
    entry.authors = tuple(n for n in (person(t) for t in _authors(node)) if n)
    entry.issued = _date(node, issued)
    entry.fields.update(facts)
    if section:
        entry.fields["section"] = section
    pages = _PAGES.search(text_of(node.css_first(".issue-item__detail, .tocPageRange")))
    if pages is not None:
        entry.fields["page"] = re.sub(r"\s+", "", pages.group(1)).replace("–", "-")
    preview = node.css_first(".accordion__content, .issue-item__abstract")
    entry.abstract = text_of(preview) if preview is not None else ""
    return Item(entry, node)


@site
class Atypon:
    """Reads the tables of contents of Atypon Literatum sites (ACM DL and others)."""

    name: ClassVar[str] = "atypon"

    def claims(self, page: Page) -> bool:
        if page.about_one_work:
            return False
        literatum = "meta[name=pbContext], html.pb-page"
        listing = ", ".join(f"{item} a[href*='/doi/']" for item in _TITLES)
        return claimed_by(page, listing, _HOSTS, (), literatum)

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        facts = _issue(page)
        specifics = page.tree.css(".current-issue__specifics span")
        issued = next((d for s in specifics if (d := parse_date(text_of(s))) is not None), None)
        section = ""
        items: list[Item] = []
        for node in page.tree.css(f"{_HEADINGS}, {_ITEMS}"):
            classes = (node.attributes.get("class") or "").split()
            if "issue-item" not in classes and "tocArticleEntry" not in classes:
                section = text_of(node)
                continue
            item = _item(node, page, section, facts, issued)
            if item is not None:
                items.append(item)
        return items
