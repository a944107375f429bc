"""What the listing readers (``html``, ``text``) share: text values, author lines, bylines, records.

Listings show text as people read it: titles and abstracts copied from arXiv may still hold
raw TeX (``Pau Rodr\\'iguez``, ``$\\alpha$-entmax``), other pages hold plain text. Values
become record rich text here: TeX commands are decoded (math stays verbatim), anything
else is only escaped. An abstract cut short by the listing (ending in ``…`` or ``...``)
is kept exactly as shown and the record says so in bibconv's own note (:mod:`bibconv.facts`), which
every output format keeps where no style prints it, so that nobody takes it for the whole abstract.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bibconv import facts
from bibconv.arxiv import as_published, without_implied
from bibconv.dates import parse_date, search_date
from bibconv.facts import MORE_AUTHORS_NOTE, TRUNCATED_NOTE
from bibconv.formats.listing.authors import author_list, authors_from_text, looks_like_names, never_names
from bibconv.formats.listing.memo import per_item
from bibconv.formats.listing.values import clean_space, plain_name, rich_text, tex_ligatures
from bibconv.languages import to_bcp47
from bibconv.model import Arxiv, Date, FrozenDict, Name, Record, SourceSpan
from bibconv.model.frozen import EMPTY
from bibconv.model.record import final_record
from bibconv.patterns import lazy

__all__ = [
    "MORE_AUTHORS_NOTE",
    "TRUNCATED_NOTE",
    "Byline",
    "Entry",
    "author_list",
    "authors_from_text",
    "byline_without_names",
    "clean_space",
    "innermost",
    "looks_like_names",
    "parse_byline",
    "plain_name",
    "rich_text",
    "title_record",
]


_TRUNCATED = lazy(r"(?:…|\.\.\.)\s*$")
_BYLINE_SEPARATORS = " \t·•|—–-,;:("
_FOUR_DIGITS = lazy(r"\d{4}")
_YEAR = lazy(r"1[5-9]\d\d|2\d\d\d")
_BEFORE_YEAR = lazy(r"[\s(\[·•|—–,-]")
_WORD_CHAR = lazy(r"\w")


@dataclass(frozen=True)
class Byline:
    """An ``authors · date`` line taken apart."""

    authors: tuple[Name, ...]
    date: Date | None


def _year_at_end(text: str) -> tuple[str, int, bool] | None:
    """A year that ends ``text`` (but for closing brackets, dots and blanks): the text before it
    without the separators between (``·``, ``—``, ``(``, ``,``…), the year, and whether there were any."""
    end = len(text)
    while end and (text[end - 1] in ")]." or text[end - 1].isspace()):
        end -= 1
    body = text[:end]
    start = len(body) - 4
    if start < 0 or not _YEAR.fullmatch(body, start) or (start and _WORD_CHAR.match(body, start - 1)):
        return None
    before = body[:start]
    end = len(before)
    while end and _BEFORE_YEAR.match(before, end - 1):
        end -= 1
    if "\n" in before[:end]:  # a line of its own
        return None
    return before[:end], int(body[start:]), end < start


@per_item
def parse_byline(text: str, lang: str | None = None, day_first: bool | None = None) -> Byline | None:
    """Read ``authors · date``, ``authors — date``, ``authors (date)``, a lone date or a lone author list.

    >>> b = parse_byline("Ada Lovelace, Alan Turing · 20 avril 2026")
    >>> [n.family for n in b.authors], b.date.parts
    (['Lovelace', 'Turing'], ((2026, 4, 20),))
    """
    text = clean_space(text)
    if not text:
        return None
    before: str | None = None
    date: Date | None = None
    year_like = _FOUR_DIGITS.search(text) is not None  # what a found date and a year at the end both need
    found = search_date(text, lang, day_first=day_first) if year_like else None
    if found is not None and not text[found[2] :].strip(" .)]"):
        date, before = found[0], text[: found[1]]
    elif year_like and (found_year := _year_at_end(text)):
        prefix, year, separated = found_year
        if separated or not prefix:
            date, before = Date(parts=((year,),)), prefix
    if date is None:
        if (alone := parse_date(text, lang, day_first=day_first)) is not None:
            return Byline((), alone)
        return Byline(authors_from_text(text), None) if looks_like_names(text) else None
    authors_text = (before or "").rstrip(_BYLINE_SEPARATORS).strip()
    if not authors_text:
        return Byline((), date)
    if not looks_like_names(authors_text):
        return None
    return Byline(authors_from_text(authors_text), date)


def byline_without_names(text: str) -> bool:
    """Whether :func:`parse_byline` surely reads no authors in ``text`` (``False``: it may). The names it
    would take are the text before a date or year that ends the text; that date is found around a
    four-digit number and starts at most four words before the first one, so the text up to there
    is in any of them, and :func:`~bibconv.formats.listing.authors.never_names` tells whether that
    start can read as names."""
    text = clean_space(text)
    year = _FOUR_DIGITS.search(text)
    words = text.split(" ")
    before = len(words) if year is None else text.count(" ", 0, year.start()) - 4
    return before > 0 and never_names(" ".join(words[:before]) + " ")


@dataclass
class Entry:
    """One listing item as read, before it becomes a :class:`Record`."""

    title: str = ""
    authors: tuple[Name, ...] = ()
    issued: Date | None = None
    abstract: str = ""
    url: str | None = None
    doi: str | None = None
    arxiv: Arxiv | None = None
    record_type: str = "article"
    fields: dict[str, str] = field(default_factory=dict)
    keywords: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    title_is_rich: bool = False
    more_authors: bool = False

    def to_record(self, origin: SourceSpan | None) -> Record:
        """The canonical record; a cut abstract is kept as shown and noted (:mod:`bibconv.facts`)."""
        fields: dict[str, str] = dict(self.fields)
        arxiv = self.arxiv is not None
        title = self.title if self.title_is_rich else rich_text(self.title, tex=arxiv)
        title = tex_ligatures(title) if arxiv else title
        if title:
            fields["title"] = title
        abstract = clean_space(self.abstract) if self.abstract else ""
        extra = dict(self.extra)
        if abstract:
            fields["abstract"] = rich_text(abstract, tex=arxiv)
            if _TRUNCATED.search(abstract):
                facts.add(extra, TRUNCATED_NOTE)
        authors = tuple(n for n in self.authors if n.literal != "others") if self.authors else ()
        if self.more_authors or len(authors) < len(self.authors):  # "et al." is said in a note
            facts.add(extra, MORE_AUTHORS_NOTE)
        if (
            "language" in fields
        ):  # a page's language code in BCP 47 form (``eng``, ``en_US``: ``en``, ``en-US``)
            fields["language"] = to_bcp47(fields["language"]) or fields["language"]
        if self.url:
            fields.setdefault("URL", self.url)
        if self.doi:
            fields.setdefault("DOI", self.doi)
        if self.arxiv is not None:
            fields = without_implied(fields, self.arxiv, self.record_type, any_link=True)
        record = final_record(
            _typed_by_venue(self.record_type, fields),
            None,
            FrozenDict(fields) if fields else EMPTY,
            FrozenDict(author=authors) if authors else EMPTY,
            FrozenDict(issued=self.issued) if self.issued else EMPTY,
            tuple(dict.fromkeys(k for k in self.keywords if k)) if self.keywords else (),
            self.arxiv,
            FrozenDict(extra) if extra else EMPTY,
            origin,
        )
        return record if self.arxiv is None else as_published(record)


def title_record(title: str, origin: SourceSpan | None) -> Record:
    """The record of an entry that is a title alone, as ``Entry(title=title).to_record(origin)``
    makes it, built directly: a listing of bare titles makes one per line."""
    rich = rich_text(title)
    return final_record(
        "article", None, FrozenDict(title=rich) if rich else EMPTY, EMPTY, EMPTY, (), None, EMPTY, origin
    )


_VENUE_TYPES = frozenset({"article-journal", "article-magazine", "article-newspaper", "paper-conference"})
"""CSL types of a part of a periodical or proceedings: a listing that names no venue has no such part."""


def _typed_by_venue(record_type: str, fields: dict[str, str]) -> str:
    """The type a listing item has: a journal article or conference paper whose venue the listing
    does not name is an ``article`` (CSL's type for a work outside a periodical), which BibTeX writes
    as ``@misc`` and RIS as ``UNPB``, never a journal article without its journal."""
    return "article" if record_type in _VENUE_TYPES and "container-title" not in fields else record_type


def unique(values: Iterable[str]) -> list[str]:
    """``values`` without repeats, in order, empty ones dropped."""
    return list(dict.fromkeys(v for v in values if v))


def innermost(nodes: list[Any]) -> list[Any]:
    """The ``nodes`` that hold no other of them, in their order (a layout element around the items is
    not an item)."""
    ids = {n.mem_id for n in nodes}
    outer: set[int] = set()
    for node in nodes:
        ancestor = node.parent
        while ancestor is not None:
            if ancestor.mem_id in ids:
                outer.add(ancestor.mem_id)
            ancestor = ancestor.parent
    return [n for n in nodes if n.mem_id not in outer]
