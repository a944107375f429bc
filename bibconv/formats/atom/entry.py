r"""arXiv feed entries → canonical records: the field mapping of :mod:`bibconv.formats.atom`.

One :class:`RawEntry` collects what an Atom ``<entry>``, an RSS 2.0 ``<item>`` or an RSS 1.0 (RDF)
``<item>`` says; :func:`to_record` maps it. The decisions, field by field:

* **id** → ``Arxiv.id`` without version and ``Arxiv.version``, from the Atom ``id`` (abs URL), the
  ``oai:arXiv.org:<id>vN`` guid, the ``arXiv:<id>vN Announce Type: …`` description line, or the RDF
  title's ``(arXiv:<id>vN [class])`` suffix.
* **title**, **abstract** → ``fields["title"]``, ``fields["abstract"]``: hard line wraps collapsed; a
  line that starts indented (arXiv's paragraph mark) or a ``<p>`` (RDF) starts a new paragraph, kept
  as ``\n``. TeX is decoded to rich text with :func:`bibconv.latex.decode`, math kept; a ``~`` after a
  space or at the start (``~5x``, ``~= 0.2``) means "about" in arXiv abstracts, not a tie, and is kept.
* **authors** → ``names["author"]`` in order, with ``arxiv:affiliation`` as ``Name.affiliation``.
  RSS ``dc:creator`` is arXiv's ``Given Family (Affiliation, …), …`` list: it is split on commas
  outside parentheses and each name read with :func:`bibconv.names.parse_name` (not
  :func:`~bibconv.names.split_name_list`, whose family-first guess would pair ``Xu, Wang`` into one
  name). Names are plain Unicode, TeX decoded.
* **dates**: Atom ``published`` → ``Arxiv.submitted`` (v1), ``updated`` → ``Arxiv.updated`` (this
  version). Announcement feeds carry no submission date: the announcement date (RSS ``pubDate``, the
  RDF channel's ``dc:date``, Atom ``published``/``updated``) becomes ``Arxiv.updated`` and the month of
  the identifier (``2204.13805`` → 2022-04, ``hep-th/9901001`` → 1999-01; the month v1 was announced)
  ``Arxiv.submitted``. ``issued`` is the v1 date, or the version date with the read option
  ``arxiv_date="version"``; the other one stands in when the chosen one is missing.
* **categories**: ``arxiv:primary_category`` → ``primary_class`` (RSS: the first ``category``, as
  arXiv lists the primary first; RDF: the class in the title); every arXiv subject class →
  ``categories``. Category terms that are not arXiv classes — MSC or ACM codes old API answers put
  there (``14C20, 14M99``) — are kept verbatim, in order, in ``extra["atom:category"]``.
* ``arxiv:comment`` → ``Arxiv.comment``; ``arxiv:journal_ref`` / ``arxiv:journal_reference`` →
  ``Arxiv.journal_ref`` only (free text, so it does not become ``container-title``).
* ``arxiv:doi`` / ``arxiv:DOI`` (the journal's DOI) → ``fields["DOI"]``; arXiv's own DOI is derived
  (``Arxiv.doi``). Further DOIs of a space-separated list go to ``extra["atom:doi"]``.
* Links: the abs, pdf and DOI links are derived (``Arxiv.abs_url``, ``Arxiv.pdf_url``, the DOI);
  any other link is kept in ``extra["atom:link"]``. Announcement feeds add
  ``extra["atom:announce_type"]`` (new, cross, replace, replace-cross), ``extra["atom:rights"]``
  (the licence URL) and, for RDF titles flagged ``UPDATED``, ``extra["atom:status"]``.
* The record type is ``article`` (CSL has no preprint type); CSL ``number``, ``publisher``, ``URL``
  and the arXiv DOI follow from the arXiv block (:func:`bibconv.arxiv.implied_fields`).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field, replace
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any

from bibconv.arxiv import parse_arxiv_id
from bibconv.formats.atom.links import extra_links
from bibconv.latex import decode, has_tex
from bibconv.model import Arxiv, Date, Name, Record, SourceSpan
from bibconv.patterns import lazy
from bibconv.spans import without_spans

__all__ = ["RawEntry", "arxiv_id_of", "is_error_entry", "split_creators", "to_record"]

_PARAGRAPH_RE = lazy(r"\r?\n[ \t]+(?=\S)")
_INDENT_RE = lazy(r"\n[ \t]")  # what a paragraph mark needs (a regex: one pass, not two)
_ABOUT_TILDE_RE = lazy(r"(?<![^\s(\[])~")
_MATH_RE = lazy(r"(\$\$.+?\$\$|\$[^$]+\$)", re.DOTALL)
_HTML_P_RE = lazy(r"</?p\b[^>]*>", re.IGNORECASE)
_ANNOUNCE_RE = lazy(
    r"^\s*arXiv:(?P<id>\S+)\s+Announce Type:\s*(?P<type>[\w-]+)\s*(?:Abstract:\s?(?P<abstract>.*))?$",
    re.DOTALL,
)
_RDF_TITLE_RE = lazy(
    r"^(?P<title>.*?)(?:\.|(?<!\s))\s*+\(arXiv:(?P<id>[^\s\[\]()]+)(?:\s*\[(?P<cls>[^\]]+)\])?(?:\s+(?P<flag>[A-Z]+))?\)\s*$",
    re.DOTALL,
)
_OAI_RE = lazy(r"^\s*oai:arXiv\.org:", re.IGNORECASE)
_ARXIV_CLASS_RE = lazy(r"^[a-z]+(?:-[a-z]+)*(?:\.[A-Za-z]+(?:-[A-Za-z]+)*)?$")
_NO_NAME = Name()
_SPACES_RE = lazy("  +")
_PLAIN_ID_RE = lazy(r"(?:https?://arxiv\.org/abs/)?(\d{4}\.\d{4,5})(?:v(\d+))?")
"""The API's usual id (an abs URL) or a bare new-style id, with its version perhaps."""
_TIMESTAMP_RE = lazy(
    r"\s*([0-9]{4})-([0-9]{2})-([0-9]{2})"
    r"(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?\s*"
)


@dataclass
class RawEntry:
    """What one feed entry or item says, before mapping (text as the XML gave it)."""

    kind: str
    """``"atom"``, ``"rss2"`` or ``"rdf"``."""
    line: int | None = None
    id: str | None = None
    title: str | None = None
    summary: str | None = None
    published: str | None = None
    updated: str | None = None
    pub_date: str | None = None
    authors: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    creators: str | None = None
    categories: list[str] = field(default_factory=list)
    primary: str | None = None
    comment: str | None = None
    journal_ref: str | None = None
    doi: str | None = None
    links: list[dict[str, str]] = field(default_factory=list)
    announce_type: str | None = None
    rights: str | None = None
    guid: str | None = None
    link: str | None = None
    about: str | None = None


def _collapse(text: str | None) -> str:
    """Runs of whitespace → one space, none at the ends (``\\s+``, as ``str.split`` sees it)."""
    if not text:
        return ""
    flat = text.replace("\n", " ")
    if flat.isprintable():  # every whitespace character but the space is unprintable: only spaces left
        if "  " in flat:
            flat = _SPACES_RE.sub(" ", flat)
        return flat.strip(" ")
    return " ".join(text.split())


def _rich(text: str) -> str:
    """One paragraph of arXiv TeX-ish text → record rich text."""
    text = _collapse(text)
    if "~" in text:
        parts = _MATH_RE.split(text)
        for i in range(0, len(parts), 2):  # outside math only
            parts[i] = _ABOUT_TILDE_RE.sub(r"\\~{}", parts[i])
        text = "".join(parts)
    return decode(text, markup=True)


def _paragraphs(text: str) -> str:
    """An abstract: wraps collapsed, indented lines start paragraphs (joined with ``\\n``)."""
    text = text.strip()
    if not text:  # no abstract (a feed's entries often have none)
        return ""
    parts = _PARAGRAPH_RE.split(text) if _INDENT_RE.search(text) else [text]
    return "\n".join(p for p in (_rich(part) for part in parts) if p)


def _html_paragraphs(text: str) -> str:
    """An RDF description: escaped HTML ``<p>`` paragraphs → abstract paragraphs."""
    chunks = [html.unescape(without_spans(c, "<", ">")) for c in _HTML_P_RE.split(text)]
    return "\n".join(p for p in (_paragraphs(c) for c in chunks if c.strip()) if p)


def _plain(text: str) -> str:
    text = _collapse(text)
    return decode(text, markup=False) if has_tex(text) else text


def arxiv_id_of(raw: RawEntry) -> tuple[str, int | None] | None:
    """``(id, version)`` of an entry, from the most precise place that holds it."""
    if raw.kind != "rdf" and raw.id:
        plain = _PLAIN_ID_RE.fullmatch(raw.id)  # what :func:`searched_id` gives, at once
        if plain:
            return plain[1], int(plain[2]) if plain[2] else None
    return searched_id(raw)


def searched_id(raw: RawEntry) -> tuple[str, int | None] | None:
    """:func:`arxiv_id_of` by the general way: each place that may hold the id, read by
    :func:`~bibconv.arxiv.parse_arxiv_id`."""
    candidates: list[str | None] = []
    if raw.kind == "rdf":
        match = _RDF_TITLE_RE.match(raw.title or "")
        candidates.append(match["id"] if match else None)
    announce = _ANNOUNCE_RE.match(raw.summary or "")
    candidates += [raw.id, raw.guid, announce["id"] if announce else None, raw.link, raw.about]
    for text in candidates:
        if not text:
            continue
        found = parse_arxiv_id(_OAI_RE.sub("", text.strip()))
        if found:
            return found
    return None


def is_error_entry(raw: RawEntry) -> bool:
    """arXiv's error answer: one entry whose id is under ``/api/errors``."""
    return raw.kind == "atom" and "/api/errors" in (raw.id or "")


def split_creators(text: str) -> list[Name]:
    """arXiv's ``dc:creator`` list (``Given Family (Aff, …), …``; RDF: HTML links) → names."""
    from bibconv.names import parse_name

    if "<" in text:
        text = without_spans(text, "<", ">")
    text = html.unescape(text)
    names: list[Name] = []
    for piece in _split_outside_parens(text):
        name_text, affiliations = _affiliations(piece)
        name = parse_name(name_text)
        if name != _NO_NAME:
            names.append(replace(name, affiliation=affiliations))
    return names


def _split_outside_parens(text: str) -> list[str]:
    pieces: list[str] = []
    depth = 0
    start = 0
    for pos, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif ch == "," and depth == 0:
            pieces.append(text[start:pos])
            start = pos + 1
    pieces.append(text[start:])
    return [p for p in (_collapse(p) for p in pieces) if p]


def _affiliations(piece: str) -> tuple[str, tuple[str, ...]]:
    """``"Name (A, B)"`` → ``("Name", ("A", "B"))``; a name without parentheses has none."""
    if not piece.endswith(")") or "(" not in piece:
        return piece, ()
    depth = 0
    for pos in range(len(piece) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(piece[pos], 0)
        if depth == 0:
            inner = piece[pos + 1 : -1]
            affiliations = tuple(a for a in (_plain(x) for x in _split_outside_parens(inner)) if a)
            return piece[:pos].strip(), affiliations
    return piece, ()


def _month_of_id(arxiv_id: str) -> Date | None:
    """The year and month an identifier was given (``2204.13805`` → 2022-04)."""
    match = re.search(r"(?:^|/)(\d{2})(\d{2})", arxiv_id)
    if not match:
        return None
    yy, mm = int(match[1]), int(match[2])
    if not 1 <= mm <= 12:
        return None
    return Date(parts=((1900 + yy if yy >= 91 else 2000 + yy, mm),))


@lru_cache(maxsize=4096)
def _day(year: str, month: str, day: str) -> Date | None:
    """The day a timestamp's digits give, if it is one (feeds hold few distinct days: cached)."""
    y, m, d = int(year), int(month), int(day)
    return Date(parts=((y, m, d),)) if y > 0 and 1 <= m <= 12 and 1 <= d <= 31 else None


@lru_cache(maxsize=1024)
def _is_class(term: str) -> bool:
    """Whether a category term is an arXiv subject class (``hep-th``, ``cs.LG``), not MSC or ACM."""
    return _ARXIV_CLASS_RE.match(term) is not None


def _date(text: str | None) -> Date | None:
    if not text or not text.strip():
        return None
    found = _TIMESTAMP_RE.fullmatch(text)  # Atom's own form, read as Date.from_edtf reads it
    if found:
        day = _day(*found.group(1, 2, 3))
        if day is not None:
            return day
    date = Date.from_edtf(text)
    if date.parts:
        return date
    try:
        moment = parsedate_to_datetime(text.strip())
    except (TypeError, ValueError, IndexError):
        return date
    return Date(parts=((moment.year, moment.month, moment.day),))


def to_record(
    raw: RawEntry,
    arxiv_id: tuple[str, int | None],
    options: dict[str, Any],
    origin: SourceSpan | None = None,
) -> Record:
    """Map one entry (see the module docstring); ``origin`` is where it was read."""
    ident, version = arxiv_id
    extra: dict[str, Any] = {}
    title, primary = _title(raw, extra)
    abstract, announce_type = _abstract(raw)
    primary, classes, others = _classes(raw.categories, primary)
    submitted, updated = _dates(raw, ident, announcement=announce_type is not None or raw.kind != "atom")
    dois = (raw.doi or "").split()
    doi = dois[0] if dois and not dois[0].lower().startswith("10.48550/arxiv.") else None
    if len(dois) > 1:
        extra["atom:doi"] = dois[1:]
    arxiv = Arxiv(
        id=ident,
        version=version,
        primary_class=primary,
        categories=tuple(dict.fromkeys(classes)),
        submitted=submitted,
        updated=updated,
        comment=_collapse(raw.comment) or None,
        journal_ref=_collapse(raw.journal_ref) or None,
    )
    if others:
        extra["atom:category"] = others
    links = extra_links(raw.links, arxiv, doi) if raw.links else None
    if links:
        extra["atom:link"] = links
    if announce_type:
        extra["atom:announce_type"] = announce_type
    if raw.rights and raw.rights.strip():
        extra["atom:rights"] = raw.rights.strip()
    fields = {"title": _rich(title), "abstract": abstract, "DOI": doi or ""}
    names = _names(raw)
    first, second = (updated, submitted) if options.get("arxiv_date") == "version" else (submitted, updated)
    issued = first or second
    return Record(
        type="article",
        fields={name: value for name, value in fields.items() if value},
        names={"author": tuple(names)} if names else {},
        dates={"issued": issued} if issued else {},
        arxiv=arxiv,
        extra=extra,
        origin=origin,
    )


def _title(raw: RawEntry, extra: dict[str, Any]) -> tuple[str, str | None]:
    """The title and the primary class; an RDF title's ``(arXiv:ID vN [class] FLAG)`` taken off."""
    title = raw.title or ""
    primary = (raw.primary or "").strip() or None
    if raw.kind == "rdf":
        match = _RDF_TITLE_RE.match(title)
        if match:
            title = match["title"]
            primary = primary or (match["cls"] or "").strip() or None
            if match["flag"]:
                extra["atom:status"] = match["flag"]
    return title, primary


def _abstract(raw: RawEntry) -> tuple[str, str | None]:
    """The abstract (an announcement's ``arXiv:ID Announce Type: …`` line taken off) and the
    announcement type."""
    summary = raw.summary or ""
    announce_type = (raw.announce_type or "").strip() or None
    if not summary:  # no abstract (a feed's entries often have none)
        return "", announce_type
    announce = _ANNOUNCE_RE.match(summary)
    if announce:
        summary = announce["abstract"] or ""
        announce_type = announce_type or announce["type"]
    return (_html_paragraphs(summary) if raw.kind == "rdf" else _paragraphs(summary)), announce_type


def _classes(terms: list[str], primary: str | None) -> tuple[str | None, list[str], list[str]]:
    """The primary class, the arXiv classes (the primary first) and the other category terms."""
    classes: list[str] = []
    others: list[str] = []
    for term in terms:
        term = term.strip() if term else ""
        if term:
            (classes if _is_class(term) else others).append(term)
    primary = primary or (classes[0] if classes else None)
    if primary and primary not in classes:
        classes.insert(0, primary)
    return primary, classes, others


def _dates(raw: RawEntry, ident: str, announcement: bool) -> tuple[Date | None, Date | None]:
    """``(submitted, updated)``: an announcement's date and the identifier's month, or the API's dates."""
    if announcement:
        return _month_of_id(ident), _date(raw.pub_date or raw.published or raw.updated)
    return _date(raw.published), _date(raw.updated)


def _names(raw: RawEntry) -> list[Name]:
    """The authors (with their affiliations), or else the RSS ``dc:creator`` list."""
    names: list[Name] = []
    for name_text, affiliations in raw.authors:
        name = _parse(name_text)
        if name.family is not None or name.literal is not None or name != _NO_NAME:
            kept = tuple(a for a in map(_plain, affiliations) if a) if affiliations else ()
            names.append(replace(name, affiliation=kept) if kept or name.affiliation else name)
    if raw.creators and not raw.authors:
        names = split_creators(raw.creators)
    return names


@lru_cache(maxsize=16384)
def _parse(text: str) -> Name:
    """One author name (names recur across a feed: results are cached, as :class:`Name` is immutable)."""
    from bibconv.names import parse_name

    return parse_name(_collapse(text))
