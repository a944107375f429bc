"""PubMed search results (pubmed.ncbi.nlm.nih.gov, the 2020 interface).

Each result is an ``article.full-docsum``: the title link (``a.docsum-title``, to
``/PMID/``, search words in ``<b>``), the authors as NLM writes them (``Lightbourne A,
Foley S, Brito LGO.``: the family name, then the initials; a group's name as it is), the
journal citation (``Qual Health Res. 2023 Nov 21;33(5):1-9. doi: 10.1177/…. Online ahead
of print.``: the journal's abbreviation, the date, volume, issue, pages, DOI, status), the
PMID and a snippet of the abstract, cut by the site (kept as shown and noted).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, clean_space
from bibconv.formats.listing.dom import absolute, text_of
from bibconv.formats.listing.sites import Item, Page, claimed_by, site, without_final_period
from bibconv.model import Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["PubMed", "nlm_authors", "nlm_citation"]

_BASE = "https://pubmed.ncbi.nlm.nih.gov/"
_INITIALS = lazy(r"^[A-Z]{1,4}(?:-[A-Z]{1,2})?$")
_SUFFIX = lazy(r"^(?:Jr|Sr|II|III|IV|2nd|3rd)$")
_CITATION = lazy(
    r"^(?P<journal>.+?)\.\s+(?P<date>(?:1[5-9]|20)\d\d(?:\s+[A-Z][a-z]{2}(?:-[A-Z][a-z]{2})?(?:\s+\d{1,2})?"
    r"|\s+(?:Spring|Summer|Fall|Autumn|Winter))?)"
    r"(?:;(?P<volume>[^(:;.]+)?(?:\((?P<issue>[^)]+)\))?)?(?::(?P<pages>[^.;\s]+))?\.?"
)
_DOI = lazy(r"\bdoi:\s*(10\.\S+?)\.?(?=\s|$)")
_STATUS = ("Online ahead of print", "Epub ahead of print")


def nlm_authors(text: str) -> tuple[Name, ...]:
    """``Lightbourne A, Foley S, Brito LGO, Smith JA Jr.`` → names; a piece without initials is a
    group's name."""
    names: list[Name] = []
    for piece in clean_space(text).rstrip(".").split(", "):
        words = piece.split()
        suffix = words.pop() if len(words) > 2 and _SUFFIX.match(words[-1]) else None
        if len(words) >= 2 and _INITIALS.match(words[-1]):
            names.append(Name(family=" ".join(words[:-1]), given=words[-1], suffix=suffix))
        elif piece.strip():
            names.append(Name(literal=piece.strip()))
    return tuple(names)


def nlm_citation(entry: Entry, text: str) -> None:
    """Set the journal, date, volume, issue, pages, DOI and status from an NLM journal citation."""
    text = clean_space(text)
    match = _CITATION.match(text)
    if match is not None:
        entry.fields["container-title"] = match.group("journal")
        entry.issued = parse_date(match.group("date").split("-")[0].strip())
        for group, key in (("volume", "volume"), ("issue", "issue"), ("pages", "page")):
            if match.group(group):  # pages without a volume: the article number of one ahead of print
                entry.fields[key] = match.group(group).strip()
    doi = _DOI.search(text)
    if doi is not None:
        entry.doi = doi.group(1)
    status = next((s for s in _STATUS if s in text), None)
    if status:
        entry.fields["status"] = status


def _result(node: Any, base: str) -> Item | None:
    link = node.css_first("a.docsum-title")
    if link is None or not text_of(link):
        return None
    entry = Entry(title=without_final_period(text_of(link)), record_type="article-journal")
    pmid = text_of(node.css_first(".docsum-pmid")) or link.attributes.get("data-article-id") or ""
    entry.url = absolute(link.attributes.get("href"), base)
    if pmid.isdigit():
        entry.fields["PMID"] = pmid
    authors = node.css_first(".docsum-authors.full-authors") or node.css_first(".docsum-authors")
    entry.authors = nlm_authors(text_of(authors)) if authors is not None else ()
    citation = node.css_first(".docsum-journal-citation.full-journal-citation") or node.css_first(
        ".docsum-journal-citation"
    )
    if citation is not None:
        nlm_citation(entry, text_of(citation))
    snippet = node.css_first(".full-view-snippet") or node.css_first(".docsum-snippet")
    entry.abstract = text_of(snippet) if snippet is not None else ""
    return Item(entry, node)


@site
class PubMed:
    """Reads PubMed search result lists."""

    name: ClassVar[str] = "pubmed"

    def claims(self, page: Page) -> bool:
        if page.about_one_work:
            return False
        own = "a.docsum-title[data-article-id], .docsum-pmid"  # a list saved without its page head
        return claimed_by(
            page, ".docsum-content a.docsum-title", ("pubmed.ncbi.nlm.nih.gov",), ("PubMed",), own
        )

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        tree = page.tree
        results = tree.css("article.full-docsum") or tree.css("div.docsum-wrap")
        found = (_result(n, page.base or _BASE) for n in results)
        return [item for item in found if item is not None]
