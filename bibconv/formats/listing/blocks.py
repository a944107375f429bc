"""One block of a listing (a card, a list item, a table row, a citation) read into an entry.

In a block: the title (a heading, an element whose class says title, a table column
headed "Title", the main link, bold text, or the first cell of a row that is not names or a
date); authors from an element whose class says author, a column, an "Authors:" label, or
the first line that reads as a name list (``authors · date`` included); the date from
``<time>``, an element whose class says date, a column, a labelled line or the byline; the
abstract from an element whose class says abstract/summary, a label, or the longest
remaining line. A block that is a free-text citation ("A. Author and B. Author. Title. In
Venue, 2019.") is read by :mod:`bibconv.formats.listing.citation`, the page's own link or
bold text telling where its title is. A link to arXiv gives the arXiv id, a DOI link the
DOI, the title's link the URL. Pager, result-count and download text is never a title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bibconv import facts
from bibconv.dates import parse_date, search_date
from bibconv.formats.listing import labels as _labels
from bibconv.formats.listing.citation import citation_entry
from bibconv.formats.listing.common import (
    Entry,
    author_list,
    byline_without_names,
    clean_space,
    looks_like_names,
    parse_byline,
)
from bibconv.formats.listing.dom import (
    absolute,
    line_links,
    lines_of,
    remember_as,
    remembered,
    rich_of,
    text_of,
)
from bibconv.formats.listing.memo import item_memory, one_item
from bibconv.formats.listing.pagememory import select, select_first
from bibconv.model import Arxiv, Date
from bibconv.patterns import lazy

__all__ = ["Hints", "block_entry", "classes", "remember_title", "title_node"]

"""The ``note`` of a record whose title the listing shows cut short (``…``)."""

# Possessive where nothing given back could match (each alternative starts with a word character,
# ``[12]`` is matched by ``\d+``): linear on long runs of punctuation.
_AUX_LINK = lazy(
    r"^\W*+(?:arxiv:\s*+\S++|\d{4}\.\d{4,5}(?:v\d+)?|pdf|html|abs|abstract|doi|link|code|bib(?:tex)?|other|ps|"
    r"v\d+|\[\d+\]|\d+|more|read more|lire la suite|weiterlesen|leer más|続きを読む)\W*$",
    re.IGNORECASE,
)
_NUMBERING = lazy(r"^\s*(?:\[\d+\]|\(\d+\)|\d+[.)])\s*")
_EMPTY_BRACKETS = lazy(r"\[\s*\]|\(\s*\)")
_CLASS_ROLE = {
    "title": lazy(r"(?:^|[-_\s])(?:title|titre|titel|heading|headline)(?:$|[-_\s])", re.IGNORECASE),
    "authors": lazy(r"author|creator|byline|contributor|auteur|autor", re.IGNORECASE),
    "date": lazy(r"date|(?:^|[-_\s])time(?:$|[-_\s])|published|posted|submitted|datum|fecha", re.IGNORECASE),
    "abstract": lazy(r"abstract|summary|description|snippet|excerpt|teaser|resume|résumé", re.IGNORECASE),
}


@dataclass(frozen=True)
class Hints:
    """What the page says about all its blocks: its address, language and order of numeric dates."""

    base: str | None = None
    lang: str | None = None
    day_first: bool | None = None


def classes(node: Any) -> list[str]:
    return (node.attributes.get("class") or "").split()


_WIDE = lazy("[\u2e81-\U0010ffff]")  # CJK and later scripts, whose words are not spaced


def _words(text: str) -> int:
    return len(text.split()) if " " in text.strip() else (len(text) // 4 if _WIDE.search(text) else 1)


def _titled(text: str, least: int) -> bool:
    return _words(text) >= least and len(text) >= 2 and not _labels.CHROME.match(text)


def _person_card(node: Any) -> bool:
    """A link whose first line is a person's name, then an affiliation (a committee member)."""
    lines = lines_of(node)
    return len(lines) > 1 and looks_like_names(lines[0])


def title_node(block: Any) -> tuple[Any | None, str]:
    """The element holding the block's title and how it was found."""
    return remembered(block, _find_title)


def remember_title(block: Any, found: tuple[Any | None, str]) -> None:
    """:func:`title_node` of ``block`` is ``found`` (known another way)."""
    remember_as(block, _find_title, found)


def _find_title(block: Any) -> tuple[Any | None, str]:
    heading = select_first(block, "h1, h2, h3, h4, h5, h6")
    if heading is not None and _titled(text_of(heading), 1):
        return heading, "heading"
    for node in select(block, "[class]"):
        if _CLASS_ROLE["title"].search(" ".join(classes(node))) and _titled(text_of(node), 1):
            return node, "class"
    links = [
        (len(text), a)
        for a in select(block, "a[href]")
        if not (a.attributes.get("href") or "#").startswith(("#", "javascript:"))
        and _titled(text := text_of(a), 1)
        and not _AUX_LINK.match(text)
        and not looks_like_names(text)
        and not _person_card(a)
    ]
    if links:
        return max(links, key=lambda link: link[0])[1], "link"
    for node in select(block, "b, strong"):
        label = text_of(node).rstrip().endswith(":")  # "Paper submission deadline:" labels what follows
        if _titled(text_of(node), 3) and not label and not _labels.AUTHORS.match(text_of(node)):
            return node, "bold"
    if block.tag == "tr":  # a row without headings: the first cell of a few words that is not names or a date
        for cell in select(block, "td, th"):
            text = text_of(cell)
            if _titled(text, 3) and not looks_like_names(text) and parse_date(text) is None:
                return cell, "cell"
    return None, ""


def _title(node: Any) -> str:
    """Rich title: the main link's text when it is most of the heading, else the heading less aux links."""
    whole = text_of(node)
    links = select(node, "a[href]") if node.tag != "a" else []
    main = [a for a in links if len(text_of(a)) >= 0.5 * len(whole) and _words(text_of(a)) >= 1]
    if main:
        return _unwrapped(rich_of(main[0]))
    skip = frozenset(
        a.mem_id for a in select(node, "a") if _AUX_LINK.match(text_of(a)) or not text_of(a).strip()
    )
    text = _EMPTY_BRACKETS.sub("", rich_of(node, skip))
    return _unwrapped(clean_space(_NUMBERING.sub("", text)))


_WRAPPED = lazy(r"^<(?P<tag>[ib])>(?P<inner>(?:(?!</?[ib]>).)*)</(?P=tag)>$")


def _unwrapped(title: str) -> str:
    """A title set wholly in italics or bold is the page's style, not part of the title."""
    match = _WRAPPED.match(title)
    return clean_space(match.group("inner")) if match else title


_CLOSING_PERIOD = lazy(r"(?<![.\s][A-Z])(?<!\.)\.$")


def _closing_period(title: str) -> str:
    """A title without the period a listing closes it with (``...`` and an initial's period stay)."""
    return _CLOSING_PERIOD.sub("", title).rstrip() if title.endswith((".", ".\n")) else title.rstrip()


def _role_nodes(block: Any, role: str) -> list[Any]:
    return [n for n in select(block, "[class]") if _CLASS_ROLE[role].search(" ".join(classes(n)))]


def _as_citation(block: Any, title: Any | None, how: str, hints: Hints) -> Entry | None:
    """The block read as a free-text citation, when it is one."""
    text = text_of(block)
    if len(text) < 30 or _role_nodes(block, "authors"):
        return None
    hint = text_of(title) if title is not None and how in ("link", "bold", "class", "heading") else None
    italic = select_first(block, "em, i, cite")
    entry = citation_entry(text, hint, text_of(italic) if italic is not None else None, hints.lang)
    if entry is None:
        return None
    if hint and entry.title == hint and title is not None:
        entry.title, entry.title_is_rich = _title(title), True
    return entry


def block_entry(block: Any, hints: Hints, columns: dict[int, str] | None = None) -> Entry | None:
    """Read one block of a listing; ``None`` when it has no title."""
    with one_item(remembered(block, item_memory)):
        return _block_entry(block, hints, columns)


def _block_entry(block: Any, hints: Hints, columns: dict[int, str] | None) -> Entry | None:
    cells = select(block, "td, th") if block.tag == "tr" else []
    by_role = {role: cells[i] for i, role in (columns or {}).items() if i < len(cells)}
    node, how = (by_role["title"], "column") if "title" in by_role else title_node(block)
    if node is not None and how == "heading" and _labels.SECTION.match(text_of(node)):
        return None  # a site's "Steering Committee" section, not a paper
    # A block whose lines hold no byline names is read as a citation first: its structured reading,
    # which gives way to the citation when it finds no authors, is then needed only if that fails.
    lines = _other_lines(block, node, by_role) if node is not None else []  # asked by both readings
    cited_first = not by_role and node is not None and _without_byline_names(lines)
    entry = _as_citation(block, node, how, hints) if cited_first else None
    if entry is None:
        entry = _structured(block, node, by_role, lines, hints) if node is not None else None
        if not by_role and not cited_first and (entry is None or not entry.authors):
            entry = _as_citation(block, node, how, hints) or entry
    if entry is None or (how == "bold" and not (entry.authors or entry.issued or entry.arxiv)):
        return None
    _links(entry, node, block, hints.base)
    return entry


def _structured(
    block: Any, node: Any, by_role: dict[str, Any], lines: list[tuple[str, list[str]]], hints: Hints
) -> Entry | None:
    entry = Entry(title=_closing_period(_title(node)), title_is_rich=True)
    if not entry.title or _labels.CHROME.match(text_of(node)) or _labels.SECTION.match(text_of(node)):
        return None
    title_plain = text_of(node)
    used: set[str] = set()
    _authors(entry, block, by_role, used, hints)
    for text, _ in lines:
        if entry.authors and entry.issued:
            break
        labelled = _labels.strip_label(_labels.AUTHORS, text)
        byline = parse_byline(labelled if labelled is not None else text, hints.lang, hints.day_first)
        if byline is None and labelled and not entry.authors:
            entry.authors, entry.more_authors = author_list(labelled)
            used.add(text)
        elif byline is not None and (byline.authors or not entry.issued) and not _labels.CHROME.match(text):
            entry.authors = entry.authors or byline.authors
            entry.issued = entry.issued or byline.date
            used.add(text)
    _date(entry, block, by_role, lines, used, hints)
    _abstract(entry, block, by_role, lines, used)
    for role, field in (("publisher", "publisher"), ("genre", "genre")):
        if role in by_role and (value := text_of(by_role[role])):
            entry.fields[field] = value
    if "genre" in entry.fields:
        from bibconv.formats.listing.sites.catalogue import kind_of

        entry.record_type = kind_of(entry.fields["genre"]) or entry.record_type
    if title_plain.endswith(("...", "…")) and len(title_plain) > 40:
        facts.add(entry.extra, facts.TITLE_CUT_NOTE)
    return entry


def _other_lines(block: Any, node: Any, by_role: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The block's lines but its title's and the skipped columns', each with its links."""
    title_plain = text_of(node)
    skipped = {text_of(cell) for role, cell in by_role.items() if role == "skip"}
    return [
        (t, links)
        for t, links in line_links(block)
        if t and t != title_plain and t not in title_plain and t not in skipped
    ]


def _without_byline_names(lines: list[tuple[str, list[str]]]) -> bool:
    """Whether no line of the block (:func:`_other_lines`) gives :func:`_structured` authors (no
    authors label, no byline names)."""
    return all(
        _labels.strip_label(_labels.AUTHORS, text) is None and byline_without_names(text) for text, _ in lines
    )


def _authors(entry: Entry, block: Any, by_role: dict[str, Any], used: set[str], hints: Hints) -> None:
    """Authors from a column or an element whose class says so."""
    for node in ([by_role["authors"]] if "authors" in by_role else []) + _role_nodes(block, "authors"):
        names = [text_of(a) for a in select(node, "a") if not _labels.CHROME.match(text_of(a))]
        if names and all(looks_like_names(n) or len(n.split()) in (2, 3) for n in names):
            entry.authors = tuple(n for name in names for n in author_list(name)[0])
            entry.more_authors = author_list(text_of(node))[1]
        else:
            text = _labels.strip_label(_labels.AUTHORS, text_of(node)) or text_of(node)
            byline = parse_byline(text, hints.lang, hints.day_first)
            if byline is not None and byline.date is not None:
                entry.authors, entry.issued = byline.authors, byline.date
            elif len(text) < 3000 and not _labels.CHROME.match(text):  # the page says these are the authors
                entry.authors, entry.more_authors = author_list(text)
        if entry.authors:
            used.add(text_of(node))
            return


def _date(
    entry: Entry, block: Any, by_role: dict[str, Any], lines: list[Any], used: set[str], hints: Hints
) -> None:
    if entry.issued:
        return
    lang, day_first = hints.lang, hints.day_first
    for node in select(block, "time"):
        found = parse_date(node.attributes.get("datetime") or "", lang) or parse_date(
            text_of(node), lang, day_first=day_first
        )
        if found:
            entry.issued = found
            return
    for node in ([by_role["date"]] if "date" in by_role else []) + _role_nodes(block, "date"):
        text = text_of(node)
        found = parse_date(_labels.strip_label(_labels.DATE, text) or text, lang, day_first=day_first)
        found = found or _first(search_date(text, lang, day_first=day_first))
        if found:
            entry.issued = found
            used.add(text)
            return
    for text, _ in lines:
        rest = _labels.strip_label(_labels.DATE, text)
        found = parse_date(text, lang, day_first=day_first)
        if found is None and rest is not None:
            found = parse_date(rest, lang, day_first=day_first) or _first(
                search_date(rest, lang, day_first=day_first)
            )
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
        full = [n for n in nodes if "full" in " ".join(classes(n)).lower()]
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


def _links(entry: Entry, title: Any | None, block: Any, base: str | None) -> None:
    from bibconv.arxiv import parse_arxiv_id

    title_links = [] if title is None else [title] if title.tag == "a" else select(title, "a[href]")
    for link in [*title_links, *select(block, "a[href]")]:
        href = absolute(link.attributes.get("href"), base) or ""
        found = parse_arxiv_id(href, bare=False) if "arxiv.org/" in href else None
        if found and entry.arxiv is None:
            entry.arxiv = Arxiv(id=found[0], version=found[1])
        elif "doi.org/10." in href and entry.doi is None:
            entry.doi = href.split("doi.org/", 1)[1]
        elif href and entry.url is None and link in title_links:
            entry.url = href
