"""Bibliographic data pages state for machines: Highwire ``citation_*`` and Dublin Core meta
tags and COinS spans (OpenURL ContextObjects, ``span.Z3988``); schema.org JSON-LD and
microdata are read in :mod:`bibconv.formats.listing.schema`.

Each source gives :class:`~bibconv.formats.listing.common.Entry` objects; the reader merges the ones
that describe the same work (:func:`merge`, first source wins field by field).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl

from bibconv.dates import parse_date
from bibconv.formats.listing.common import Entry, clean_space, plain_name, unique
from bibconv.formats.listing.dom import absolute, fragment_text
from bibconv.model import Arxiv, Name
from bibconv.patterns import lazy

__all__ = [
    "coins",
    "doi_in",
    "dublin_core",
    "first_date",
    "highwire",
    "links_into",
    "merge",
    "metas",
    "name_parts",
    "pages",
    "same_work",
    "set_field",
]

_DOI = lazy(r"\b(10\.\d{4,9}/[^\s\"<>]+)")
_COINS_GENRES = {
    "article": "article-journal",
    "proceeding": "paper-conference",
    "conference": "paper-conference",
    "book": "book",
    "bookitem": "chapter",
    "report": "report",
    "preprint": "article",
    "dissertation": "thesis",
    "blogpost": "post-weblog",
    "webpage": "webpage",
}


def metas(tree: Any) -> list[tuple[str, str]]:
    """``(name, content)`` of every ``<meta name|property>`` in order; names lower-cased."""
    out: list[tuple[str, str]] = []
    for node in tree.css("meta[content]"):
        attrs = node.attributes
        key = (attrs.get("name") or attrs.get("property") or attrs.get("itemprop") or "").strip().lower()
        value = clean_space(attrs.get("content") or "")
        if key and value:
            out.append((key, value))
    return out


def doi_in(text: str | None) -> str | None:
    """The first DOI in ``text``."""
    match = _DOI.search(text or "")
    return match.group(1).rstrip(".,;") if match else None


def pages(first: str | None, last: str | None) -> str | None:
    """``first-last`` (or the one that is there)."""
    if first and last and "-" not in first:
        return f"{first}-{last}"
    return first or last or None


def set_field(entry: Entry, key: str, value: str | None) -> None:
    """Set a field unless it is set or ``value`` is empty."""
    if value and key not in entry.fields:
        entry.fields[key] = value


def first_date(*values: str | None) -> Any:
    for value in values:
        found = parse_date(value) if value else None
        if found is not None:
            return found
    return None


def highwire(pairs: list[tuple[str, str]], base: str | None) -> Entry | None:
    """The Highwire Press ``citation_*`` tags Google Scholar reads; ``None`` without a title."""
    values, authors = _highwire_tags(pairs)
    title = _one(values, "title")
    if not title:
        return None
    entry = Entry(
        title=fragment_text(title),
        authors=tuple(authors),
        abstract=fragment_text(_one(values, "abstract") or ""),
    )
    _highwire_fields(entry, values, base)
    online = _highwire_dates(entry, values)
    for keywords in values.get("keywords", []):
        entry.keywords.extend(k.strip() for k in re.split(r"[;,]", keywords) if k.strip())
    if _one(values, "arxiv_id"):
        from bibconv.arxiv import parse_arxiv_id

        found = parse_arxiv_id(_one(values, "arxiv_id") or "")
        if found:
            submitted = first_date(_one(values, "date"))
            entry.arxiv = Arxiv(id=found[0], version=found[1], submitted=submitted, updated=online)
            entry.issued = None
            entry.extra.pop("html:online_date", None)
    entry.record_type = _highwire_type(values)
    return entry


def _highwire_tags(pairs: list[tuple[str, str]]) -> tuple[dict[str, list[str]], list[Name]]:
    """The ``citation_*`` values by name (``citation_`` left off), and the authors with their
    institutions (a ``citation_author_institution`` belongs to the author before it)."""
    from bibconv.formats.ris.names import parse_ris_name
    from bibconv.names import parse_name

    values: dict[str, list[str]] = {}
    authors: list[Name] = []
    for key, value in pairs:
        if not key.startswith("citation_"):
            continue
        name = key[len("citation_") :]
        values.setdefault(name, []).append(value)
        if name == "author":
            shown = plain_name(value)
            authors.append(parse_ris_name(shown) if "," in shown else parse_name(shown))
        elif name == "authors":
            authors.extend(parse_name(a) for a in re.split(r"(?:(?<!\s)\s++)?;\s*", plain_name(value)) if a)
        elif name == "author_institution" and authors:
            last = authors[-1]
            authors[-1] = Name(**{**name_parts(last), "affiliation": (*last.affiliation, value)})
    return values, authors


def _one(values: dict[str, list[str]], *names: str) -> str | None:
    """The first value of the first of ``names`` the page gives."""
    for name in names:
        if values.get(name):
            return values[name][0]
    return None


def _highwire_fields(entry: Entry, values: dict[str, list[str]], base: str | None) -> None:
    """The venue, numbers, pages, publisher, DOI and links."""
    container = _one(values, "journal_title", "conference_title", "inbook_title", "book_title")
    set_field(entry, "container-title", container)
    set_field(entry, "container-title-short", _one(values, "journal_abbrev"))
    for key, csl_key in (("volume", "volume"), ("issue", "issue"), ("publisher", "publisher"),
                         ("issn", "ISSN"), ("isbn", "ISBN"), ("language", "language"), ("pmid", "PMID"),
                         ("series_title", "collection-title"), ("edition", "edition")):  # fmt: skip
        set_field(entry, csl_key, _one(values, key))
    set_field(entry, "page", pages(_one(values, "firstpage"), _one(values, "lastpage")))
    set_field(entry, "publisher", _one(values, "technical_report_institution", "dissertation_institution"))
    set_field(entry, "number", _one(values, "technical_report_number"))
    entry.doi = doi_in(_one(values, "doi"))
    entry.url = absolute(_one(values, "public_url", "abstract_html_url", "fulltext_html_url"), base)
    pdf = absolute(_one(values, "pdf_url"), base)
    if pdf:
        entry.extra["html:pdf_url"] = pdf


def _highwire_dates(entry: Entry, values: dict[str, list[str]]) -> Any:
    """The date of publication (the online date when there is none, else kept in ``extra``);
    returns the online date."""
    one = _one
    entry.issued = first_date(
        one(values, "publication_date"), one(values, "date"), one(values, "cover_date"), one(values, "year")
    )
    online = first_date(one(values, "online_date"))
    if entry.issued is None:
        entry.issued = online
    elif online and online != entry.issued:
        entry.extra["html:online_date"] = online.to_edtf()
    return online


def _highwire_type(values: dict[str, list[str]]) -> str:
    """The CSL type the tags say: a conference, a journal, a book's chapter, a report, a thesis."""
    return (
        "paper-conference" if _one(values, "conference_title")
        else "article-journal" if _one(values, "journal_title")
        else "chapter" if _one(values, "inbook_title", "book_title")
        else "report" if _one(values, "technical_report_institution", "technical_report_number")
        else "thesis" if _one(values, "dissertation_institution")
        else "article"
    )  # fmt: skip


def name_parts(name: Name) -> dict[str, Any]:
    """The name's parts as keyword arguments (to rebuild it with another affiliation)."""
    return {
        "family": name.family,
        "given": name.given,
        "non_dropping_particle": name.non_dropping_particle,
        "dropping_particle": name.dropping_particle,
        "suffix": name.suffix,
        "literal": name.literal,
    }


def dublin_core(pairs: list[tuple[str, str]]) -> Entry | None:
    """Dublin Core (``DC.*``, ``dcterms.*``) and PRISM tags; ``None`` without a title."""
    from bibconv.formats.ris.names import parse_ris_name
    from bibconv.names import parse_name

    values: dict[str, list[str]] = {}
    for key, value in pairs:
        for prefix in ("dc.", "dcterms.", "prism."):
            if key.startswith(prefix):
                values.setdefault(key[len(prefix) :], []).append(value)

    def one(*names: str) -> str | None:
        return next((values[n][0] for n in names if values.get(n)), None)

    title = one("title")
    if not title:
        return None
    # pages that name no creator list their authors as contributors (eLife)
    creators = [plain_name(c) for c in values.get("creator") or values.get("contributor", [])]
    entry = Entry(
        title=fragment_text(title),
        authors=tuple(parse_ris_name(c) if "," in c else parse_name(c) for c in creators),
        abstract=one("description", "abstract") or "",
    )
    entry.issued = first_date(one("issued"), one("date"), one("publicationdate"))
    entry.doi = next(
        (d for d in (doi_in(v) for v in values.get("identifier", []) + values.get("doi", [])) if d), None
    )
    entry.url = next(
        (v for v in values.get("identifier", []) + values.get("url", []) if v.startswith("http")), None
    )
    set_field(entry, "container-title", one("publicationname", "relation.ispartof"))
    set_field(entry, "publisher", one("publisher"))
    set_field(entry, "language", one("language"))
    set_field(entry, "volume", one("volume", "citation.volume"))
    set_field(entry, "issue", one("number", "citation.issue"))
    set_field(entry, "ISSN", one("issn"))
    set_field(
        entry, "page", pages(one("startingpage", "citation.spage"), one("endingpage", "citation.epage"))
    )
    entry.record_type = "article-journal" if "container-title" in entry.fields else "article"
    return entry


def links_into(entry: Entry, links: Iterable[str], base: str | None) -> None:
    """arXiv id and URL from links (DOI links are left to :func:`doi_in`)."""
    from bibconv.arxiv import parse_arxiv_id

    for link in links:
        found = parse_arxiv_id(link, bare=False) if link else None
        if found and entry.arxiv is None:
            entry.arxiv = Arxiv(id=found[0], version=found[1])
        elif link and not doi_in(link) and entry.url is None:
            entry.url = absolute(link, base)


def coins(tree: Any) -> list[Entry]:
    """COinS spans: OpenURL KEV in the ``title`` of ``span.Z3988``."""
    from bibconv.names import parse_name

    entries: list[Entry] = []
    for span in tree.css("span.Z3988[title], span.z3988[title]"):
        pairs = parse_qsl(span.attributes.get("title") or "", keep_blank_values=False)
        values: dict[str, list[str]] = {}
        for key, value in pairs:
            values.setdefault(key.removeprefix("rft."), []).append(clean_space(value))

        def one(*names: str, source: dict[str, list[str]] = values) -> str | None:
            return next((source[n][0] for n in names if source.get(n)), None)

        title = one("atitle", "title", "btitle")
        if not title:
            continue
        people = [parse_name(plain_name(a)) for a in values.get("au", [])]
        first = Name(family=one("aulast"), given=one("aufirst", "auinit")) if one("aulast") else None
        if first is not None and (not people or people[0].family != first.family):
            people.insert(0, first)
        elif first is not None:
            people[0] = first
        fmt = (one("rft_val_fmt") or "").rsplit(":", 1)[-1]
        genre = (one("genre", "type") or "").lower()
        kind = _COINS_GENRES.get(genre) or (
            "article-journal" if fmt == "journal" else "book" if fmt == "book" else "document"
        )
        entry = Entry(title=fragment_text(title), authors=tuple(people), record_type=kind)
        entry.issued = first_date(one("date"))
        if one("atitle"):
            set_field(entry, "container-title", one("jtitle", "title", "btitle"))
        set_field(entry, "container-title-short", one("stitle"))
        for key, csl_key in (("volume", "volume"), ("issue", "issue"), ("issn", "ISSN"), ("isbn", "ISBN"),
                             ("pub", "publisher"), ("publisher", "publisher"), ("place", "publisher-place"),
                             ("language", "language")):  # fmt: skip
            set_field(entry, csl_key, one(key))
        set_field(entry, "page", one("pages") or pages(one("spage"), one("epage")) or one("artnum"))
        entry.abstract = one("description") or ""
        entry.keywords.extend(values.get("subject", []))
        ids = values.get("rft_id", []) + values.get("identifier", [])
        entry.doi = next((d for d in (doi_in(i) for i in ids if "doi" in i.lower()) if d), None)
        links = [f"arXiv:{i[len('info:arxiv/') :]}" if i.startswith("info:arxiv/") else i for i in ids]
        links_into(entry, [i for i in links if i.startswith(("http", "arXiv:"))], None)
        entries.append(entry)
    return entries


def _key(title: str) -> str:
    return re.sub(r"\W+", "", title.casefold())


def same_work(a: Entry, b: Entry) -> bool:
    """Whether two entries describe the same work (DOI, arXiv id, or the same title)."""
    if a.doi and b.doi:
        return a.doi.lower() == b.doi.lower()
    if a.arxiv and b.arxiv:
        return a.arxiv.id == b.arxiv.id
    return bool(a.title) and _key(a.title) == _key(b.title)


def merge(primary: Entry, other: Entry) -> Entry:
    """Fill what ``primary`` lacks from ``other`` (names only when ``primary`` has none)."""
    primary.title = primary.title or other.title
    primary.authors = primary.authors or other.authors
    primary.issued = primary.issued or other.issued
    primary.abstract = primary.abstract or other.abstract
    primary.url = primary.url or other.url
    primary.doi = primary.doi or other.doi
    primary.arxiv = primary.arxiv or other.arxiv
    for key, value in other.fields.items():
        primary.fields.setdefault(key, value)
    primary.keywords = unique([*primary.keywords, *other.keywords])
    for key, value in other.extra.items():
        primary.extra.setdefault(key, value)
    if primary.record_type in ("article", "document") and other.record_type not in ("article", "document"):
        primary.record_type = other.record_type
    return primary
