"""Listings in markup never seen before: find the repeated blocks, then read each one.

A listing is a run of sibling elements of the same kind (same tag and classes: cards,
``article``, ``li``, ``tr``, ``dt``…) most of which look like a paper: a title (a heading,
an element whose class says title, or a link or bold text of a few words) and some text
around it. The best such run wins, together with runs of the same kind elsewhere on the
page (one list per section). ``<br>``-separated text — entries of lines split by an empty
line — is read like a plain-text listing. Navigation, page headers and footers, asides
and ads are removed first and never become records.

In a block: the title; authors from an element whose class says author, an "Authors:"
label, or the first line that reads as a name list (``authors · date`` included); the
date from ``<time>``, an element whose class says date, a labelled line or the byline;
the abstract from an element whose class says abstract/summary, a label, or the longest
remaining line. A link to arXiv (abs or pdf) gives the arXiv id; a DOI link the DOI; the
title's link the URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from bibconv.dates import parse_date, search_date
from bibconv.formats.listing import labels as _labels
from bibconv.formats.listing.common import (
    Entry,
    authors_from_text,
    clean_space,
    looks_like_names,
    parse_byline,
)
from bibconv.formats.listing.dom import absolute, line_links, rich_of, text_of
from bibconv.model import Arxiv, Date

__all__ = ["listing_entries", "remove_chrome"]

_CHROME = (
    "nav, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], "
    "[role=search], [role=dialog], [role=alert]"
)
_AD_WORDS = frozenset(
    {"ad", "ads", "advert", "adverts", "advertisement", "advertising", "sponsor", "sponsored", "promo",
     "cookie", "cookies", "consent", "gdpr", "newsletter", "share", "social", "breadcrumb", "breadcrumbs",
     "pagination", "pager", "navbar", "menu", "sidebar", "skip"}
)  # fmt: skip
_ITEM_TAGS = frozenset({"article", "li", "div", "tr", "section", "dt", "dd", "p", "tbody", "blockquote"})
_ZEBRA = frozenset({"odd", "even", "alt", "active", "first", "last", "selected", "new", "highlight"})
_AUX_LINK = re.compile(
    r"^\W*(?:arxiv:\s*\S+|\d{4}\.\d{4,5}(?:v\d+)?|pdf|html|abs|abstract|doi|link|code|bib(?:tex)?|other|ps|"
    r"v\d+|\[\d+\]|\d+|more|read more|lire la suite|weiterlesen|leer más|続きを読む)\W*$",
    re.IGNORECASE,
)
_LINK_LINE = re.compile(r"^\W*(?:arxiv:\s*\S+|doi:\s*\S+|https?://\S+|10\.\d{4,9}/\S+)\W*$", re.IGNORECASE)
_NUMBERING = re.compile(r"^\s*(?:\[\d+\]|\(\d+\)|\d+[.)])\s*")
_EMPTY_BRACKETS = re.compile(r"\[\s*\]|\(\s*\)")
_CLASS_ROLE = {
    "title": re.compile(r"(?:^|[-_\s])(?:title|titre|titel|heading|headline)(?:$|[-_\s])", re.IGNORECASE),
    "authors": re.compile(r"author|creator|byline|contributor|auteur|autor", re.IGNORECASE),
    "date": re.compile(
        r"date|(?:^|[-_\s])time(?:$|[-_\s])|published|posted|submitted|datum|fecha", re.IGNORECASE
    ),
    "abstract": re.compile(
        r"abstract|summary|description|snippet|excerpt|teaser|resume|résumé", re.IGNORECASE
    ),
}


def _classes(node: Any) -> list[str]:
    return (node.attributes.get("class") or "").split()


def remove_chrome(tree: Any) -> None:
    """Drop navigation, page header and footer, asides, and ads."""
    root = tree.root
    if root is None:
        return
    for node in root.css(_CHROME):
        node.decompose()
    for node in root.css("header, footer"):
        parent = node.parent
        while parent is not None and parent.tag not in ("article", "li", "section", "td", "dd"):
            parent = parent.parent
        if parent is None:
            node.decompose()
    for node in root.css("[class], [id]"):
        words = {
            w.lower()
            for c in (*_classes(node), node.attributes.get("id") or "")
            for w in re.split(r"[-_]", c)
        }
        if words & _AD_WORDS and node.tag not in ("body", "html", "main"):
            node.decompose()


def _signature(node: Any) -> tuple[str, frozenset[str]]:
    classes = frozenset(re.sub(r"\d+", "", c) for c in _classes(node) if c.lower() not in _ZEBRA)
    return node.tag, classes if node.tag != "tr" else frozenset()


def _words(text: str) -> int:
    return (
        len(text.split())
        if " " in text.strip()
        else (len(text) // 4 if any(ord(c) > 0x2E80 for c in text) else 1)
    )


def _title_node(block: Any) -> tuple[Any | None, str]:
    """The element holding the block's title and how it was found."""
    heading = block.css_first("h1, h2, h3, h4, h5, h6")
    if heading is not None and _words(text_of(heading)) >= 2:
        return heading, "heading"
    for node in block.css("[class]"):
        if _CLASS_ROLE["title"].search(" ".join(_classes(node))) and _words(text_of(node)) >= 2:
            return node, "class"
    links = [a for a in block.css("a[href]") if _words(text_of(a)) >= 3 and not looks_like_names(text_of(a))]
    if links:
        return max(links, key=lambda a: len(text_of(a))), "link"
    for node in block.css("b, strong"):
        if _words(text_of(node)) >= 3 and not _labels.AUTHORS.match(text_of(node)):
            return node, "bold"
    if block.tag == "tr":  # a row without headings: the first cell of a few words that is not names or a date
        for cell in block.css("td"):
            text = text_of(cell)
            if _words(text) >= 3 and not looks_like_names(text) and parse_date(text) is None:
                return cell, "cell"
    return None, ""


def _title(node: Any) -> str:
    """Rich title: the main link's text when it is most of the heading, else the heading less aux links."""
    whole = text_of(node)
    links = node.css("a[href]") if node.tag != "a" else []
    main = [a for a in links if len(text_of(a)) >= 0.5 * len(whole) and _words(text_of(a)) >= 2]
    if main:
        return rich_of(main[0])
    skip = frozenset(a.mem_id for a in node.css("a") if _AUX_LINK.match(text_of(a)) or not text_of(a).strip())
    text = _EMPTY_BRACKETS.sub("", rich_of(node, skip))
    return clean_space(_NUMBERING.sub("", text))


def _role_nodes(block: Any, role: str) -> list[Any]:
    return [n for n in block.css("[class]") if _CLASS_ROLE[role].search(" ".join(_classes(n)))]


def block_entry(
    block: Any, base: str | None, lang: str | None, columns: dict[int, str] | None = None
) -> Entry | None:
    """Read one block of a listing; ``None`` when it has no title."""
    from bibconv.arxiv import parse_arxiv_id

    cells = block.css("td, th") if block.tag == "tr" else []
    by_role = {role: cells[i] for i, role in (columns or {}).items() if i < len(cells)}
    title_node, how = (by_role["title"], "column") if "title" in by_role else _title_node(block)
    if title_node is None:
        return None
    entry = Entry(title=_title(title_node), title_is_rich=True)
    if not entry.title:
        return None
    title_plain = text_of(title_node)
    lines = [(t, links) for t, links in line_links(block) if t and t != title_plain and t not in title_plain]
    used: set[str] = set()
    # Authors: a column or an element that says so, a label, or the first line that reads as names.
    for node in ([by_role["authors"]] if "authors" in by_role else []) + _role_nodes(block, "authors"):
        names = [text_of(a) for a in node.css("a")]
        if names and all(looks_like_names(n) or len(n.split()) in (2, 3) for n in names):
            entry.authors = tuple(n for name in names for n in authors_from_text(name))
        else:
            text = _labels.strip_label(_labels.AUTHORS, text_of(node)) or text_of(node)
            byline = parse_byline(text, lang)
            if byline is not None:
                entry.authors, entry.issued = byline.authors, byline.date
            elif len(text) < 3000:  # the page says these are the authors
                entry.authors = authors_from_text(text)
        if entry.authors:
            used.add(text_of(node))
            break
    for text, _ in lines:
        if entry.authors and entry.issued:
            break
        labelled = _labels.strip_label(_labels.AUTHORS, text)
        byline = parse_byline(labelled if labelled is not None else text, lang)
        if byline is None and labelled and not entry.authors:
            entry.authors = authors_from_text(labelled)
            used.add(text)
        elif byline is not None and (byline.authors or not entry.issued):
            entry.authors = entry.authors or byline.authors
            entry.issued = entry.issued or byline.date
            used.add(text)
    _date(entry, block, by_role, lines, used, lang)
    _abstract(entry, block, by_role, lines, used)
    _links(entry, title_node, block, base, parse_arxiv_id)
    if how == "bold" and not (entry.authors or entry.issued or entry.arxiv):
        return None
    return entry


def _date(
    entry: Entry, block: Any, by_role: dict[str, Any], lines: list[Any], used: set[str], lang: str | None
) -> None:
    if entry.issued:
        return
    for node in block.css("time"):
        found = parse_date(node.attributes.get("datetime") or "", lang) or parse_date(text_of(node), lang)
        if found:
            entry.issued = found
            return
    for node in ([by_role["date"]] if "date" in by_role else []) + _role_nodes(block, "date"):
        text = text_of(node)
        found = parse_date(_labels.strip_label(_labels.DATE, text) or text, lang) or _first(
            search_date(text, lang)
        )
        if found:
            entry.issued = found
            used.add(text)
            return
    for text, _ in lines:
        rest = _labels.strip_label(_labels.DATE, text)
        found = parse_date(text, lang)
        if found is None and rest is not None:
            found = parse_date(rest, lang) or _first(search_date(rest, lang))
        if found:
            entry.issued = found
            used.add(text)
            return


def _first(found: tuple[Date, int, int] | None) -> Date | None:
    return found[0] if found else None


def _abstract(entry: Entry, block: Any, by_role: dict[str, Any], lines: list[Any], used: set[str]) -> None:
    nodes = ([by_role["abstract"]] if "abstract" in by_role else []) + _role_nodes(block, "abstract")
    nodes = [n for n in nodes if len(text_of(n)) >= 40]
    if nodes:
        full = [n for n in nodes if "full" in " ".join(_classes(n)).lower()]
        text = text_of((full or nodes)[0])
        entry.abstract = _labels.strip_label(_labels.ABSTRACT, text) or text
        return
    for text, _ in lines:
        rest = _labels.strip_label(_labels.ABSTRACT, text)
        if rest:
            entry.abstract = rest
            return
    rest_lines = [t for t, _ in lines if t not in used and len(t) >= 80 and not _labels.AUTHORS.match(t)]
    if rest_lines:
        entry.abstract = max(rest_lines, key=len)


def _links(entry: Entry, title_node: Any, block: Any, base: str | None, parse_arxiv_id: Any) -> None:
    title_links = [title_node] if title_node.tag == "a" else title_node.css("a[href]")
    for link in [*title_links, *block.css("a[href]")]:
        href = absolute(link.attributes.get("href"), base) or ""
        found = parse_arxiv_id(href, bare=False) if "arxiv.org/" in href else None
        if found and entry.arxiv is None:
            entry.arxiv = Arxiv(id=found[0], version=found[1])
        elif "doi.org/10." in href and entry.doi is None:
            entry.doi = href.split("doi.org/", 1)[1]
        elif href and entry.url is None and link in title_links:
            entry.url = href


def _paper_like(node: Any) -> bool:
    text = text_of(node)
    if len(text) < 25:
        return False
    title, _ = _title_node(node)
    if title is None:
        return False
    link_text = sum(len(text_of(a)) for a in node.css("a"))
    return link_text < 0.95 * len(text) or len(text) >= 120


def _groups(root: Any) -> Iterator[tuple[tuple[Any, ...], list[Any]]]:
    for parent in root.css("*"):
        by_signature: dict[tuple[Any, ...], list[Any]] = {}
        for child in parent.iter():
            if child.tag in _ITEM_TAGS:
                by_signature.setdefault(_signature(child), []).append(child)
        for signature, members in by_signature.items():
            if len(members) >= 2:
                yield (_signature(parent), signature), members


def _columns(rows: list[Any]) -> dict[int, str]:
    for row in rows[:1]:
        table = row.parent
        while table is not None and table.tag != "table":
            table = table.parent
        header = table.css_first("tr") if table is not None else None
        if header is not None and header.css_first("th") is not None:
            return {
                i: r
                for i, cell in enumerate(header.css("th, td"))
                if (r := _labels.column_role(text_of(cell)))
            }
    return {}


def _br_entries(root: Any, base: str | None, lang: str | None) -> list[Entry]:
    """Entries of ``<br>``-separated text: chunks of lines split by an empty line."""
    best: list[Entry] = []
    for node in root.css("p, div, td, section, article, body"):
        if len([c for c in node.iter() if c.tag == "br"]) < 3:
            continue
        chunks: list[list[tuple[str, list[str]]]] = [[]]
        for text, links in line_links(node):
            if text:
                chunks[-1].append((text, links))
            elif chunks[-1]:
                chunks.append([])
        entries = [e for e in (_chunk_entry(c, base, lang) for c in chunks if len(c) >= 2) if e]
        if len(entries) >= 2 and len(entries) > len(best):
            best = entries
    return best


def _chunk_entry(chunk: list[tuple[str, list[str]]], base: str | None, lang: str | None) -> Entry | None:
    from bibconv.arxiv import parse_arxiv_id

    byline = parse_byline(_labels.strip_label(_labels.AUTHORS, chunk[1][0]) or chunk[1][0], lang)
    if byline is None:
        return None
    entry = Entry(
        title=clean_space(_NUMBERING.sub("", chunk[0][0])), authors=byline.authors, issued=byline.date
    )
    rest = [t for t, links in chunk[2:] if not (links and _LINK_LINE.match(t))]
    entry.abstract = " ".join(_labels.strip_label(_labels.ABSTRACT, t) or t for t in rest)
    for index, (_, links) in enumerate(chunk):
        for href in links:
            url = absolute(href, base) or ""
            found = parse_arxiv_id(url, bare=False) if "arxiv.org/" in url else None
            if found and entry.arxiv is None:
                entry.arxiv = Arxiv(id=found[0], version=found[1])
            elif index == 0 and url and entry.url is None:
                entry.url = url
    return entry


def listing_entries(tree: Any, base: str | None, lang: str | None) -> list[Entry]:
    """The entries of the page's listing, in page order; empty when it has none."""
    root = tree.body or tree.root
    if root is None:
        return []
    best: tuple[float, tuple[Any, ...]] | None = None
    candidates: dict[tuple[Any, ...], list[Any]] = {}
    for key, members in _groups(root):
        papers = [m for m in members if _paper_like(m)]
        if len(papers) < 2 or len(papers) < 0.5 * len(members):
            continue
        candidates.setdefault(key, []).extend(papers)
        length = sum(min(len(text_of(m)), 600) for m in papers) / len(papers)
        score = len(candidates[key]) * length
        if best is None or score > best[0]:
            best = (score, key)
    br = _br_entries(root, base, lang)
    if best is None or len(br) > 1.5 * len(candidates[best[1]]):
        return br
    members = candidates[best[1]]
    columns = _columns(members) if members[0].tag == "tr" else None
    return [e for e in (block_entry(m, base, lang, columns) for m in members) if e]
