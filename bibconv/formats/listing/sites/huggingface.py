"""Hugging Face papers pages (huggingface.co/papers: daily, weekly, trending, a user's papers).

The page's list is in the JSON of a ``data-props`` attribute (the props of the
``DailyPapers`` and other paper-list components): each item has a ``paper`` object (or
is one) with the arXiv id (``id``), ``title``, ``summary`` (the abstract), ``authors``
(``name``) and ``publishedAt``. The JSON is read, not the cards drawn from it; the
record's URL is the paper's page on Hugging Face.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry
from bibconv.formats.listing.dom import text_of
from bibconv.formats.listing.sites import Item, Page, person, site
from bibconv.jsonnumbers import loads as json_loads
from bibconv.model import Arxiv
from bibconv.registry import ReadContext

__all__ = ["HuggingFacePapers"]

_LIST_KEYS = ("dailyPapers", "papers", "trendingPapers", "userPapers", "items")


def _papers(props: Any) -> list[dict[str, Any]]:
    """The paper objects of a component's props, in order."""
    if not isinstance(props, dict):
        return []
    for key in _LIST_KEYS:
        value = props.get(key)
        if isinstance(value, list):
            found = [item.get("paper", item) for item in value if isinstance(item, dict)]
            return [p for p in found if isinstance(p, dict) and p.get("title")]
    return []


def _entry(paper: dict[str, Any]) -> Entry | None:
    from bibconv.arxiv import parse_arxiv_id

    title = paper.get("title")
    if not isinstance(title, str) or not title.strip():
        return None
    entry = Entry(title=title, record_type="article")
    authors = paper.get("authors")
    names = [a.get("name") for a in authors if isinstance(a, dict)] if isinstance(authors, list) else []
    entry.authors = tuple(n for n in (person(x) for x in names if isinstance(x, str)) if n)
    summary = paper.get("summary")
    entry.abstract = summary if isinstance(summary, str) else ""
    published = paper.get("publishedAt")
    entry.issued = parse_date(published[:10]) if isinstance(published, str) else None
    paper_id = paper.get("id")
    found = parse_arxiv_id(paper_id) if isinstance(paper_id, str) else None
    if found:
        entry.arxiv = Arxiv(id=found[0], version=found[1])
        entry.extra["html:huggingface_url"] = f"https://huggingface.co/papers/{found[0]}"
    return entry


@site
class HuggingFacePapers:
    """Reads the paper lists Hugging Face pages carry as JSON."""

    name: ClassVar[str] = "huggingface-papers"

    def claims(self, page: Page) -> bool:
        title = text_of(page.tree.css_first("title"))
        if not (
            page.on("huggingface.co")
            or "Hugging Face" in title
            or page.meta("og:site_name") == "Hugging Face"
        ):
            return False
        return any(_papers(_props(n)) for n in page.tree.css("[data-props]"))

    def read(self, page: Page, ctx: ReadContext) -> list[Item]:
        items: list[Item] = []
        for node in page.tree.css("[data-props]"):
            component = node.attributes.get("data-target") or "data-props"
            for index, paper in enumerate(_papers(_props(node))):
                entry = _entry(paper)
                if entry is not None:
                    items.append(Item(entry, node, f"{component} paper {index}"))
        return items


def _props(node: Any) -> Any:
    try:
        return json_loads(node.attributes.get("data-props") or "null")
    except ValueError:
        return None
