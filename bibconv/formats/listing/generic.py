"""Listings in markup never seen before: find the list a person sees, then read each item.

A listing is a run of elements of the same kind (same tag and classes under parents of the
same kind: cards, ``article``, ``li``, ``tr``, ``dt``, ``p``…) most of which look like a
paper: a title (a heading, an element whose class says title, a link or bold text) or a
free-text citation ("A. Author. Title. Venue, 2019."). The best such kind wins, with all its
runs on the page (one list per section, a lone paper under its own heading included); a page
that repeats nothing may show one paper (:mod:`bibconv.formats.listing.lone`).
Table rows come in two shapes: one row per paper (its columns named by a header row, when
the table has one) or several rows per paper (an authors row above each title row), which
are joined. Rows that are headings (a session name, a year) are not papers: a year heading
gives its year to the papers under it that show none, and a type or venue heading ("Theses",
"NeurIPS 2019") its type or venue (:mod:`bibconv.formats.listing.headings`).
``<br>``-separated text — entries of lines split by an empty line — is read like a plain-text
listing. Navigation, page headers
and footers, asides, ads, pagers and search forms are removed first and never become
records. Blocks are read by :mod:`bibconv.formats.listing.blocks`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from bibconv.dates import day_first_in
from bibconv.formats.listing import labels as _labels
from bibconv.formats.listing.blocks import Hints, block_entry, classes, title_node
from bibconv.formats.listing.citation import parse_citation
from bibconv.formats.listing.common import Entry, clean_space, innermost, parse_byline
from bibconv.formats.listing.dom import (
    absolute,
    line_links,
    remembered,
    remembered_texts,
    text_of,
)
from bibconv.formats.listing.headings import Outline, apply_outline, outlines
from bibconv.formats.listing.lone import chunk_entry, lone_block
from bibconv.formats.listing.memo import item_memory, one_item
from bibconv.formats.listing.pagememory import page_memory, select, select_first
from bibconv.formats.listing.rows import joined_rows, row_kind
from bibconv.model import Arxiv, Date
from bibconv.patterns import lazy

__all__ = ["Hints", "block_entry", "listing_entries", "remove_chrome"]

_CHROME = (
    "nav, aside, form, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], "
    "[role=search], [role=dialog], [role=alert]"
)
_AD_WORDS = frozenset(
    {"ad", "ads", "advert", "adverts", "advertisement", "advertising", "sponsor", "sponsored", "promo",
     "cookie", "cookies", "consent", "gdpr", "newsletter", "share", "social", "breadcrumb", "breadcrumbs",
     "pagination", "pager", "navbar", "menu", "sidebar", "sidenav", "skip", "facet", "facets", "masthead"}
)  # fmt: skip
_ITEM_TAGS = frozenset({"article", "li", "div", "tr", "section", "dt", "dd", "p", "tbody", "blockquote"})
_ZEBRA = frozenset({"odd", "even", "alt", "active", "first", "last", "selected", "new", "highlight"})
_DIGITS = lazy(r"\d+")
# Possessive where nothing given back could match (each alternative starts with a word character,
# and a run of \S+ is followed by \W): linear on long runs of punctuation.
_YEAR_HEADING = lazy(r"^\W*+((?:1[5-9]|20)\d\d)\W*+$")
_LINK_LINE = lazy(r"^\W*+(?:arxiv:\s*+\S++|doi:\s*+\S++|https?://\S++|10\.\d{4,9}/\S++)\W*+$", re.IGNORECASE)
_NUMBERING = lazy(r"^\s*(?:\[\d+\]|\(\d+\)|\d+[.)])\s*")
_CITATION_START = lazy(r"^\W{0,3}(?:\[?\w{1,8}[\].)]\s+)?[^\W\d_][\w'’.-]*[\s,]")  # a name's first word


def remove_chrome(tree: Any) -> None:
    """Drop navigation, page header and footer, asides, forms, pagers and ads."""
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
            w.lower() for c in (*classes(node), node.attributes.get("id") or "") for w in re.split(r"[-_]", c)
        }
        if words & _AD_WORDS and node.tag not in ("body", "html", "main"):
            node.decompose()


def _signature(node: Any) -> tuple[str, frozenset[str]]:
    return remembered(node, _kind_signature)


def _kind_signature(node: Any) -> tuple[str, frozenset[str]]:
    names = frozenset(_DIGITS.sub("", c) for c in classes(node) if c.lower() not in _ZEBRA)
    return node.tag, names if node.tag != "tr" else frozenset()


def _heading_row(node: Any) -> bool:
    """A table row that names a section (a session, a year) rather than a paper."""
    return node.tag == "tr" and remembered(node, _names_section)


def _names_section(node: Any) -> bool:
    cells = select(node, "td, th")
    if all(c.tag == "th" for c in cells):
        return True
    if len(cells) != 1 or len(text_of(node).split()) > 8:
        return False
    words = " ".join(classes(node)).lower()
    return "title" in words or "head" in words or "section" in words


def _authors_row(node: Any) -> bool:
    """A table row of names alone, read with the title row under it (:mod:`~bibconv.formats.listing.rows`)."""
    return node.tag == "tr" and not _heading_row(node) and row_kind(node) == "names"


def _in_page_links_only(node: Any, text: str) -> bool:
    """A table of contents entry: all its text is links to places on the same page."""
    links = select(node, "a[href]")
    return (
        bool(links)
        and all((a.attributes.get("href") or "").startswith("#") for a in links)
        and (sum(len(text_of(a)) for a in links) >= 0.9 * len(text))
    )


def _paper_like(node: Any) -> bool:
    return remembered(node, _looks_like_paper)


def _looks_like_paper(node: Any) -> bool:
    with one_item(remembered(node, item_memory)):
        return _reads_as_paper(node)


def _reads_as_paper(node: Any) -> bool:
    text = text_of(node)
    if len(text) < 12 or _heading_row(node) or _labels.CHROME.match(text) or _in_page_links_only(node, text):
        return False
    title, _ = title_node(node)
    if title is None:
        cited = len(text) >= 30 and _CITATION_START.match(text) is not None
        return cited and parse_citation(text) is not None
    links = select(node, "a")  # the links' text is summed only when the block is short and has several
    return len(text) >= 120 or len(links) == 1 or sum(len(text_of(a)) for a in links) < 0.95 * len(text)


def _enough(count: int, authors_rows: Iterable[Any], least: float) -> bool:
    """Whether ``count`` papers and the authors rows that look like papers are one and ``least`` at
    least: the rows are asked only while the count is short (they stay beside their title rows anyway)."""
    for row in authors_rows:
        if count and count >= least:
            break
        count += _paper_like(row)
    return bool(count) and count >= least


def _groups(root: Any) -> Iterator[tuple[tuple[Any, ...], list[Any]]]:
    """Children of every element, by kind: ``(grandparent, parent, child)`` signatures."""
    memory = page_memory()
    elements = memory.elements(root) if memory is not None else None
    for parent in root.css("*") if elements is None else elements:
        by_signature: dict[tuple[Any, ...], list[Any]] = {}
        for child in parent.iter():
            if child.tag in _ITEM_TAGS:
                by_signature.setdefault(_signature(child), []).append(child)
        if not by_signature:  # most elements hold no item (inline text): nothing to ask about them
            continue
        grand = _signature(parent.parent) if parent.parent is not None else None
        for signature, members in by_signature.items():
            yield (grand, _signature(parent), signature), members


def _table_of(row: Any) -> Any | None:
    table = row.parent
    while table is not None and table.tag != "table":
        table = table.parent
    return table


def _columns(rows: list[Any]) -> dict[int, str]:
    """Column roles from the header row of the rows' table: the first row naming a title column."""
    table = _table_of(rows[0])
    if table is None:
        return {}
    for row in (node for node in table.traverse() if node.tag == "tr"):  # lazily: the rows above the first
        if row.mem_id == rows[0].mem_id:
            break
        cells = select(row, "th, td")
        roles = {i: r for i, cell in enumerate(cells) if (r := _labels.column_role(text_of(cell)))}
        if "title" in roles.values() and select_first(row, "th") is not None:
            return roles
    return {}


def _containers(candidates: dict[tuple[Any, ...], list[Any]]) -> dict[tuple[Any, ...], int]:
    """For each kind, how many items of the other kinds its members hold (a list holds its items)."""
    kind_of = {m.mem_id: key for key, members in candidates.items() for m in members}
    held: dict[tuple[Any, ...], int] = {}
    for key, members in candidates.items():
        for member in members:
            ancestor = member.parent
            while ancestor is not None:
                outer = kind_of.get(ancestor.mem_id)
                if outer is not None and outer != key:
                    held[outer] = held.get(outer, 0) + 1
                ancestor = ancestor.parent
    return held


def _best(root: Any) -> list[Any]:
    """The members of the page's main listing, in page order."""
    candidates: dict[tuple[Any, ...], list[Any]] = {}
    repeated: set[tuple[Any, ...]] = set()  # kinds seen as a run of two or more: a lone one elsewhere counts
    groups = list(_groups(root))
    runs = {key for key, members in groups if len(members) >= 2}
    for key, members in groups:
        if key not in runs:  # a kind that never repeats under one parent is not a listing
            continue
        authors = {m.mem_id for m in members if _authors_row(m)}  # they stay beside their title rows
        others = [m for m in members if m.mem_id not in authors]
        papers = [m for m in others if _paper_like(m)]
        items = [m for m in others if not _heading_row(m)]
        if not _enough(len(papers), (m for m in members if m.mem_id in authors), 0.5 * len(items)):
            continue
        if authors:
            ids = authors | {m.mem_id for m in papers}
            papers = [m for m in members if m.mem_id in ids]
        candidates.setdefault(key, []).extend(papers)
        if len(papers) >= 2:
            repeated.add(key)
    holders = _containers(candidates)
    best: tuple[float, tuple[Any, ...]] | None = None
    for key, papers in candidates.items():
        if key not in repeated or holders.get(key, 0) >= 2 * len(papers):
            continue
        length = sum(min(len(text_of(m)), 600) for m in papers) / len(papers)
        score = len(papers) * length
        if best is None or score > best[0]:
            best = (score, key)
    if best is None:
        return []
    return innermost(candidates[best[1]])  # a member holding others (a layout row around a table) is none


def listing_entries(tree: Any, base: str | None, lang: str | None) -> list[tuple[Entry, str]]:
    """The entries of the page's listing with where each was, in page order; empty when it has none."""
    with remembered_texts(tree.body or tree.root):
        return _listing_entries(tree, base, lang)


def _listing_entries(tree: Any, base: str | None, lang: str | None) -> list[tuple[Entry, str]]:
    root = tree.body or tree.root
    if root is None:
        return []
    hints = Hints(base, lang, day_first_in(text_of(root), lang))
    members = _best(root)
    br = _br_entries(root, hints)
    if not members and not br:  # a page of one paper (:mod:`~bibconv.formats.listing.lone`)
        members = lone_block(root, lambda node: _lone_entry(node, hints))
        br = [] if members else _lone_chunk(root, hints)
    if not members or len(br) > 1.5 * len(members):
        return br
    headings = outlines(root, members, _heading_row)
    rows = joined_rows(members) if members[0].tag == "tr" else [(m, m) for m in members]
    columns = _columns(members) if members[0].tag == "tr" else None
    from bibconv.formats.listing.sites import Item, Locator

    locate = Locator()
    found: list[tuple[Entry, str]] = []
    for row, shown in rows:
        entry = block_entry(row, hints, columns)
        if entry is None:
            continue
        outline = headings.get(shown.mem_id, Outline())
        year = _YEAR_HEADING.match(outline.last)
        if entry.issued is None and year:
            entry.issued = Date(parts=((int(year.group(1)),),))
        apply_outline(entry, outline)
        found.append((entry, locate(Item(entry, shown))))
    return found


def _lone_entry(node: Any, hints: Hints) -> Entry | None:
    """``node`` read as a block of a listing (a row with the columns its table's header names), if
    it looks like a paper."""
    if not _paper_like(node):
        return None
    return block_entry(node, hints, _columns([node]) if node.tag == "tr" else None)


def _br_nodes(root: Any) -> Iterator[tuple[Any, list[list[tuple[str, list[str]]]]]]:
    """The elements holding ``<br>``-separated text, each with its chunks of lines split by an empty line."""
    for node in root.css("p, div, td, section, article, body"):
        if len([c for c in node.iter() if c.tag == "br"]) < 3:
            continue
        chunks: list[list[tuple[str, list[str]]]] = [[]]
        for text, links in line_links(node):
            if text:
                chunks[-1].append((text, links))
            elif chunks[-1]:
                chunks.append([])
        yield node, chunks


def _br_entries(root: Any, hints: Hints) -> list[tuple[Entry, str]]:
    """Entries of ``<br>``-separated text: chunks of lines split by an empty line."""
    from bibconv.formats.listing.sites import Item, Locator

    best: list[tuple[Entry, str]] = []
    for node, chunks in _br_nodes(root):
        entries = [e for e in (_one_chunk_entry(c, hints) for c in chunks if len(c) >= 2) if e]
        if len(entries) >= 2 and len(entries) > len(best):
            best = [(e, Locator()(Item(e, node, f"paragraph {i}"))) for i, e in enumerate(entries, 1)]
    return best


def _lone_chunk(root: Any, hints: Hints) -> list[tuple[Entry, str]]:
    """The one chunk of ``<br>``-separated text on the page that is a whole paper (the innermost
    element's, where elements inside each other hold it), in a list; empty if none or several."""
    from bibconv.formats.listing.sites import Item, Locator

    found: list[tuple[Entry, Any, int]] = []
    for node, chunks in _br_nodes(root):
        for index, chunk in enumerate(chunks, 1):
            with one_item():
                entry = chunk_entry(chunk, node, hints)
            if entry is not None:
                found.append((entry, node, index))
    if len({entry.title for entry, _, _ in found}) != 1:
        return []
    entry, node, index = found[-1]
    return [(entry, Locator()(Item(entry, node, f"paragraph {index}")))]


def _one_chunk_entry(chunk: list[tuple[str, list[str]]], hints: Hints) -> Entry | None:
    with one_item():
        return _chunk_entry(chunk, hints)


def _chunk_entry(chunk: list[tuple[str, list[str]]], hints: Hints) -> Entry | None:
    from bibconv.arxiv import parse_arxiv_id

    second = _labels.strip_label(_labels.AUTHORS, chunk[1][0]) or chunk[1][0]
    byline = parse_byline(second, hints.lang, hints.day_first)
    if byline is None:
        return None
    entry = Entry(
        title=clean_space(_NUMBERING.sub("", chunk[0][0])), authors=byline.authors, issued=byline.date
    )
    rest = [t for t, links in chunk[2:] if not (links and _LINK_LINE.match(t))]
    entry.abstract = " ".join(_labels.strip_label(_labels.ABSTRACT, t) or t for t in rest)
    for index, (_, links) in enumerate(chunk):
        for href in links:
            url = absolute(href, hints.base) or ""
            found = parse_arxiv_id(url, bare=False) if "arxiv.org/" in url else None
            if found and entry.arxiv is None:
                entry.arxiv = Arxiv(id=found[0], version=found[1])
            elif index == 0 and url and entry.url is None:
                entry.url = url
    return entry
