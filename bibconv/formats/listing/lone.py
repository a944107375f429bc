"""A page whose listing is a single paper: a search with one hit, a list of one thesis.

The generic reader finds a listing by its repeated items (:mod:`~bibconv.formats.listing.generic`);
a page that shows one paper repeats nothing. Its paper is read only when the page holds exactly
one whole paper: a block with a title, an author line and a date (:func:`whole`), either an
element (:func:`lone_block`) or the lines of ``<br>``-separated text between empty lines
(:func:`chunk_entry`): an author line (a linked name before its institution, or names), the
title line (wholly a link's text) and a line holding the year, the kind of work before it
(``Ph.D. thesis, 2016``); a year heading that opens the lines gives its year. Navigation,
chrome and a site's own headings show no title with both names and a date, and never become
a record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bibconv.dates import parse_date, search_date
from bibconv.formats.listing import labels as _labels
from bibconv.formats.listing.blocks import Hints
from bibconv.formats.listing.common import (
    Entry,
    author_list,
    clean_space,
    innermost,
    looks_like_names,
    parse_byline,
)
from bibconv.formats.listing.dom import absolute, lines_of, remembered, text_of
from bibconv.formats.listing.pagememory import select
from bibconv.model import Date
from bibconv.patterns import lazy

__all__ = ["chunk_entry", "lone_block", "whole"]

_BLOCKS = "li, tr, article, section, div, p, dd, blockquote"
_LONGEST = 1500  # characters of one paper's block: longer elements hold more than a paper
_MOST_LINES = 8
_YEAR_HEADING = lazy(r"^\W*+((?:1[5-9]|20)\d\d)\W*+$")
_YEAR = lazy(r"(?<![\d.])((?:1[5-9]|20)\d\d)(?![\d.])")
_SEPARATORS = " ,;:·|—–-("


def whole(entry: Entry | None) -> bool:
    """Whether ``entry`` is a whole paper: authors, a date and a title of two words or more that is
    neither names nor a date (a citation misread, ``2004`` or ``Tasso J. Kaper``, is none)."""
    if entry is None or not (entry.authors and entry.issued) or len(entry.title.split()) < 2:
        return False
    return not looks_like_names(entry.title) and parse_date(entry.title) is None


def _one_block(node: Any) -> bool:
    """Whether ``node`` is the size of one paper's block: a few lines of one paragraph."""
    if not 30 <= len(text_of(node)) <= _LONGEST:
        return False
    lines = lines_of(node)
    return len(lines) <= _MOST_LINES and "" not in lines


def lone_block(root: Any, read: Callable[[Any], Entry | None]) -> list[Any]:
    """The one element under ``root`` that ``read`` reads as a whole paper and that holds no other
    one, in a list; empty when there are none or several (a page of several is no page of one)."""
    inner = innermost([n for n in root.css(_BLOCKS) if _one_block(n) and whole(read(n))])
    return inner if len(inner) == 1 else []


def _link_texts(node: Any) -> dict[str, str]:
    texts: dict[str, str] = {}
    for link in select(node, "a[href]"):
        texts.setdefault(link.attributes.get("href") or "", text_of(link))
    return texts


def _title_line(text: str, links: list[str], linked: dict[str, str]) -> bool:
    return (
        len(text.split()) >= 3
        and any(linked.get(href) == text for href in links)
        and not looks_like_names(text)
        and not _labels.CHROME.match(text)
    )


def _names(entry: Entry, text: str, links: list[str], linked: dict[str, str]) -> str | None:
    """Authors from an author line; the institution after a linked name, if any."""
    for href in links:
        name = linked.get(href, "")
        if name and text.startswith(name) and looks_like_names(name):
            entry.authors, entry.more_authors = author_list(name)
            return clean_space(text[len(name) :].strip(_SEPARATORS)) or None
    byline = parse_byline(text)
    if byline is not None and byline.authors and byline.date is None:
        entry.authors = byline.authors
    return None


def _dated(entry: Entry, text: str, hints: Hints) -> None:
    """The date of a line holding one, and the kind of work it names before it."""
    from bibconv.formats.listing.sites.catalogue import kind_of

    found = search_date(text, hints.lang, day_first=hints.day_first)
    year = _YEAR.search(text) if found is None else None
    if found is None and year is None:
        return
    entry.issued = found[0] if found else Date(parts=((int(year.group(1)),),)) if year else None
    before = clean_space(text[: found[1] if found else year.start() if year else 0].rstrip(_SEPARATORS))
    kind = kind_of(before) if before and len(before.split()) <= 6 else None
    if kind is not None:
        entry.fields["genre"], entry.record_type = before, kind


def chunk_entry(chunk: list[tuple[str, list[str]]], node: Any, hints: Hints) -> Entry | None:
    """The paper of lines of ``node``'s ``<br>``-separated text laid out as an author line, the
    title line and a dated line (in any order); ``None`` unless it is a whole paper."""
    year = None
    while chunk and (heading := _YEAR_HEADING.match(chunk[0][0])):
        year, chunk = int(heading.group(1)), chunk[1:]
    linked = remembered(node, _link_texts)
    titles = [i for i, (text, links) in enumerate(chunk) if _title_line(text, links, linked)]
    if len(titles) != 1:
        return None
    text, links = chunk[titles[0]]
    entry = Entry(title=text, url=absolute(links[0], hints.base))
    institution = None
    for text, links in chunk[: titles[0]] + chunk[titles[0] + 1 :]:
        if not entry.authors:
            institution = _names(entry, text, links, linked)
            if entry.authors:
                continue
        if entry.issued is None:
            _dated(entry, text, hints)
        for href in links:
            if linked.get(href, "").strip().lower() == "pdf" and (pdf := absolute(href, hints.base)):
                entry.extra.setdefault("html:pdf_url", pdf)
    entry.issued = entry.issued or (Date(parts=((year,),)) if year else None)
    if institution and entry.record_type == "thesis":
        entry.fields["publisher"] = institution
    elif institution:
        entry.authors = tuple(replace(n, affiliation=(institution,)) for n in entry.authors)
    return entry if whole(entry) else None
