"""arXiv's own pages: listings (``/list/…``), search results (``/search/…``) and abstract pages.

Every field a page shows is read (docs/decisions.md#arxiv-pages-and-feeds): the id and version, title, authors
(the author links; their search query ``Family, I`` tells where the family name starts),
comments, journal reference, DOI, subjects with the primary one first, the abstract,
and the dates the page prints. Listings show no submission date; the id's ``YYMM`` is the
month of the first version, which arXiv assigns at submission, so it becomes the date.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs

from bibconv.dates import parse_date, search_date
from bibconv.formats.listing.common import Entry, clean_space, plain_name
from bibconv.formats.listing.dom import absolute, rich_of, text_of, url_parts
from bibconv.model import Arxiv, Date, Name
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["abs_entry", "arxiv_names", "finish", "is_list", "is_search", "list_entries", "search_entries"]

BASE = "https://arxiv.org/"
_CATEGORY = lazy(r"\(([a-z][a-z\-]*(?:\.[A-Za-z][A-Za-z\-]*)?)\)")
_VERSION = lazy(r"v(\d+)\b")
_HISTORY = lazy(r"\[v(\d+)\]\s*(?P<date>[^()\[\]]+?)\s*(?:\(|$)")
_DATELINE_V1 = lazy(r"Submitted on\s+(?P<date>[^(\]]+)")
_DATELINE_REV = lazy(r"last revised\s+(?P<date>[^(\]]+)\(this version, v(?P<v>\d+)\)")
_LABEL = lazy(r"^\s*([A-Za-z][A-Za-z -]*?)\s*:\s*")


def is_list(tree: Any) -> bool:
    return tree.css_first("dl#articles, dt a[title='Abstract']") is not None


def is_search(tree: Any) -> bool:
    return tree.css_first("li.arxiv-result") is not None


def _id_from(node: Any) -> tuple[str, int | None] | None:
    from bibconv.arxiv import parse_arxiv_id

    for link in node.css("a[href]"):
        href = link.attributes.get("href") or ""
        if "/abs/" in href:
            found = parse_arxiv_id(href.strip(), bare=False) or parse_arxiv_id(text_of(link), bare=False)
            if found:
                return found
    return None


def _version_from_links(node: Any, arxiv_id: str) -> int | None:
    for link in node.css("a[href]"):
        href = link.attributes.get("href") or ""
        if arxiv_id in href and (match := re.search(re.escape(arxiv_id) + r"v(\d+)", href)):
            return int(match.group(1))
    return None


def arxiv_names(links: list[Any]) -> tuple[Name, ...]:
    """Author links → names; the link's ``query=Family,+I`` settles multi-word family names."""
    from unidecode import unidecode

    from bibconv.formats.ris.names import parse_ris_name
    from bibconv.names import parse_name

    names: list[Name] = []
    for link in links:
        shown = plain_name(text_of(link))
        if not shown:
            continue
        name = parse_name(shown)
        parts = url_parts(link.attributes.get("href") or "")
        query = parse_qs(parts.query).get("query", [""])[0] if parts is not None else ""
        family = query.split(",")[0].strip() if "," in query else ""
        folded, family_folded = unidecode(shown).lower(), unidecode(family).lower()
        if (
            family
            and folded.endswith(" " + family_folded)
            and family_folded != unidecode(name.family_full()).lower().strip()
        ):
            cut = len(shown) - len(family)
            name = parse_ris_name(f"{shown[cut:].strip()}, {shown[:cut].strip()}")
        names.append(name)
    return tuple(names)


def _categories(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_CATEGORY.findall(text)))


def _id_month(arxiv_id: str) -> Date | None:
    match = re.search(r"(\d{2})(\d{2})[.\d]", arxiv_id.split("/")[-1])
    if not match:
        return None
    year, month = int(match.group(1)), int(match.group(2))
    year += 1900 if year >= 91 else 2000
    return Date(parts=((year, month),)) if 1 <= month <= 12 else None


def finish(entry: Entry, arxiv: Arxiv, ctx: ReadContext) -> Entry:
    """Set the arXiv block, the record type and ``issued`` (v1 or this version, per ``arxiv_date``)."""
    entry.arxiv = arxiv
    entry.record_type = "article"
    wanted = arxiv.updated if ctx.option("arxiv_date", "v1") == "version" else arxiv.submitted
    entry.issued = wanted or arxiv.submitted or arxiv.updated or entry.issued or _id_month(arxiv.id)
    return entry


def _descriptor_free(node: Any) -> str:
    skip = frozenset(d.mem_id for d in node.css("span.descriptor"))
    return rich_of(node, skip)


def list_entries(tree: Any, ctx: ReadContext) -> Iterator[Entry]:
    """Items of a ``/list/`` page: ``dt`` (id, links) and the ``dd`` after it (metadata)."""
    for dt in tree.css("dt"):
        found = _id_from(dt)
        dd = dt.next
        while dd is not None and dd.tag != "dd":
            dd = dd.next if dd.tag in ("-text", "-comment") else None
        if found is None or dd is None:
            continue
        arxiv_id, version = found
        version = version or _version_from_links(dt, arxiv_id)
        entry = Entry(title=_descriptor_free(dd.css_first(".list-title") or dd), title_is_rich=True)
        authors = dd.css_first(".list-authors")
        entry.authors = arxiv_names(authors.css("a")) if authors else ()
        abstract = dd.css_first("p.mathjax") or dd.css_first("p")
        entry.abstract = text_of(abstract)
        subjects = text_of(dd.css_first(".list-subjects"))
        primary = _categories(text_of(dd.css_first(".primary-subject")))
        comment = dd.css_first(".list-comments")
        journal = dd.css_first(".list-journal-ref")
        arxiv = Arxiv(
            id=arxiv_id,
            version=version,
            primary_class=primary[0] if primary else None,
            categories=tuple(dict.fromkeys(primary + _categories(subjects))),
            comment=_after_label(comment),
            journal_ref=_after_label(journal),
        )
        yield finish(entry, arxiv, ctx)


def _after_label(node: Any | None) -> str | None:
    if node is None:
        return None
    text = _LABEL.sub("", text_of(node), count=1)
    return text or None


def _labelled(item: Any) -> dict[str, str]:
    """``Comments:``, ``Journal ref:``, ``Submitted``… → text up to the next label."""
    out: dict[str, str] = {}
    for paragraph in item.css("p.comments, p.is-size-7"):
        label: str | None = None
        parts: list[str] = []
        for child in paragraph.iter(include_text=True):
            classes = (child.attributes.get("class") or "") if child.tag != "-text" else ""
            if child.tag == "span" and "has-text-weight-semibold" in classes:
                if label:
                    out[label] = clean_space(" ".join(parts)).strip(" ;.")
                label, parts = text_of(child).rstrip(":").strip().lower(), []
            else:
                parts.append(child.text(deep=True) if child.tag != "-text" else child.text(deep=False))
        if label:
            out[label] = clean_space(" ".join(parts)).strip(" ;")
    return out


def search_entries(tree: Any, ctx: ReadContext) -> Iterator[Entry]:
    """Results of an arXiv search page (``li.arxiv-result``)."""
    for item in tree.css("li.arxiv-result"):
        found = _id_from(item.css_first(".list-title") or item)
        if found is None:
            continue
        arxiv_id, version = found
        short = item.css_first(".abstract-short")
        full = item.css_first(".abstract-full")
        if version is None and (short or full) is not None:
            match = re.match(re.escape(arxiv_id) + r"v(\d+)", (full or short).attributes.get("id") or "")
            version = int(match.group(1)) if match else None
        entry = Entry(title=rich_of(item.css_first("p.title") or item), title_is_rich=True)
        entry.authors = arxiv_names(item.css("p.authors a"))
        entry.abstract = text_of(full if full is not None else short)
        for link in item.css(".tags a[href*='doi.org/10.']"):
            entry.doi = text_of(link) or None
        tags = item.css(".tags span.tag[data-tooltip]")
        categories = tuple(text_of(t) for t in tags if text_of(t))
        labels = _labelled(item)
        updated = parse_date(labels.get("submitted", "").split(";")[0].strip(), "en")
        submitted = parse_date(labels.get("v1", "").replace("submitted", "").strip(), "en")
        if submitted is None and version in (None, 1):
            submitted = updated
        for key, name in (
            ("acm class", "acm_class"),
            ("msc class", "msc_class"),
            ("report number", "report"),
        ):
            if labels.get(key):
                entry.extra[f"html:arxiv_{name}"] = labels[key]
        arxiv = Arxiv(
            id=arxiv_id,
            version=version,
            primary_class=categories[0] if categories else None,
            categories=categories,
            submitted=submitted,
            updated=updated if version not in (None, 1) else None,
            comment=labels.get("comments") or None,
            journal_ref=labels.get("journal ref") or None,
        )
        yield finish(entry, arxiv, ctx)


def abs_entry(tree: Any, base: str | None) -> tuple[Entry, Arxiv] | None:
    """What an abstract page shows in its body (``div#abs``); ``None`` when it has no body."""
    page = tree.css_first("#abs")
    if page is None:
        return None
    found = _id_from(page.css_first(".arxividv") or page) or _id_from(tree.root)
    if found is None:
        return None
    arxiv_id, version = found
    entry = Entry(title=_descriptor_free(page.css_first("h1.title") or page), title_is_rich=True)
    authors = page.css_first(".authors")
    entry.authors = arxiv_names(authors.css("a")) if authors else ()
    abstract = page.css_first("blockquote.abstract")
    if abstract is not None:
        entry.abstract = re.sub(r"^\s*Abstract:\s*", "", text_of(abstract))
    dateline = text_of(tree.css_first(".dateline"))
    submitted = updated = None
    if match := _DATELINE_V1.search(dateline):
        submitted = parse_date(match.group("date").strip(), "en")
    if match := _DATELINE_REV.search(dateline):
        updated = parse_date(match.group("date").strip(), "en")
        version = version or int(match.group("v"))
    history = text_of(tree.css_first(".submission-history"))
    dates = {int(m.group(1)): m.group("date") for m in _HISTORY.finditer(history)}
    if dates:
        found_v1 = search_date(dates.get(1, ""), "en")
        submitted = submitted or (found_v1[0] if found_v1 else None)
        latest = max(dates)
        version = version or latest
        found_latest = search_date(dates[latest], "en")
        if latest > 1 and found_latest:
            updated = updated or found_latest[0]
    subjects = text_of(page.css_first(".subjects"))
    primary = _categories(text_of(page.css_first(".primary-subject")))
    doi = page.css_first("td.doi a, .msc-classes a[href*='doi.org']")
    if doi is not None:
        entry.doi = text_of(doi)
    arxiv = Arxiv(
        id=arxiv_id,
        version=version,
        primary_class=primary[0] if primary else None,
        categories=tuple(dict.fromkeys(primary + _categories(subjects))),
        submitted=submitted,
        updated=updated,
        comment=text_of(page.css_first("td.comments")) or None,
        journal_ref=text_of(page.css_first("td.jref")) or None,
    )
    entry.url = absolute(f"/abs/{arxiv_id}", base or BASE)
    return entry, arxiv
