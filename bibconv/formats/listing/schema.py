"""schema.org works in a page: JSON-LD blocks (``ScholarlyArticle``, ``ItemList`` of them,
``@graph``, ``mainEntity``) and microdata (``itemscope``/``itemprop``), read the same way:
microdata items are turned into JSON-LD-like objects first.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from typing import Any

from bibconv.formats.listing.common import Entry, clean_space, plain_name
from bibconv.formats.listing.dom import absolute, fragment_text, text_of
from bibconv.formats.listing.structured import doi_in, first_date, links_into, name_parts, pages, set_field
from bibconv.jsonnumbers import loads as json_loads
from bibconv.model import Name

__all__ = ["json_ld", "microdata"]

_SCHOLARLY = {
    "scholarlyarticle": "article-journal",
    "medicalscholarlyarticle": "article-journal",
    "article": "article",
    "techarticle": "article",
    "report": "report",
    "thesis": "thesis",
    "book": "book",
    "chapter": "chapter",
    "dataset": "dataset",
    "newsarticle": "article-newspaper",
    "blogposting": "post-weblog",
    "creativework": "document",
    "presentationdigitaldocument": "speech",
}


def _ld_text(value: Any) -> str:
    if isinstance(value, list):
        value = next((v for v in value if v), "")
    if isinstance(value, Mapping):
        value = value.get("name") or value.get("@value") or value.get("value") or ""
    return clean_space(str(value)) if value not in (None, "") else ""


def _ld_types(item: Mapping[str, Any]) -> list[str]:
    kind = item.get("@type") or item.get("type") or []
    kinds = kind if isinstance(kind, list) else [kind]
    return [str(k).rsplit("/", 1)[-1].lower() for k in kinds]


def _ld_person(value: Any) -> Name | None:
    from bibconv.names import parse_name

    if isinstance(value, str):
        return parse_name(plain_name(value)) if value.strip() else None
    if not isinstance(value, Mapping):
        return None
    affiliations = value.get("affiliation") or []
    affiliations = affiliations if isinstance(affiliations, list) else [affiliations]
    affiliation = tuple(a for a in (_ld_text(x) for x in affiliations) if a)
    if "organization" in _ld_types(value):
        return (
            Name(literal=_ld_text(value.get("name")), affiliation=affiliation) if value.get("name") else None
        )
    family, given = _ld_text(value.get("familyName")), _ld_text(value.get("givenName"))
    if family:
        return Name(family=plain_name(family), given=plain_name(given) or None, affiliation=affiliation)
    name = _ld_text(value.get("name"))
    if not name:
        return None
    parsed = parse_name(plain_name(name))
    return Name(**{**name_parts(parsed), "affiliation": affiliation})


def _containers(entry: Entry, value: Any, depth: int = 0) -> None:
    """Volume, issue, ISSN and journal name up the ``isPartOf`` chain (issue → volume → periodical)."""
    for part in value if isinstance(value, list) else [value]:
        if not isinstance(part, Mapping) or depth > 4:
            continue
        set_field(entry, "volume", _ld_text(part.get("volumeNumber")))
        set_field(entry, "issue", _ld_text(part.get("issueNumber")))
        set_field(entry, "ISSN", _ld_text(part.get("issn")))
        kinds = _ld_types(part)
        if not kinds or any(k in ("periodical", "book", "bookseries", "newspaper") for k in kinds):
            set_field(entry, "container-title", _ld_text(part.get("name")))
        _containers(entry, part.get("isPartOf"), depth + 1)
        set_field(entry, "container-title", _ld_text(part.get("name")))


def _ld_entry(item: Mapping[str, Any], base: str | None) -> Entry | None:
    kinds = [k for k in _ld_types(item) if k in _SCHOLARLY]
    title = fragment_text(_ld_text(item.get("headline") or item.get("name")))
    if not kinds or not title:
        return None
    authors = item.get("author") or item.get("creator") or []
    people = [p for p in (_ld_person(a) for a in (authors if isinstance(authors, list) else [authors])) if p]
    entry = Entry(title=title, authors=tuple(people), record_type=_SCHOLARLY[kinds[0]])
    entry.abstract = fragment_text(_ld_text(item.get("abstract") or item.get("description")))
    entry.issued = first_date(_ld_text(item.get("datePublished")), _ld_text(item.get("dateCreated")))
    links = [_ld_text(item.get(k)) for k in ("url", "@id", "sameAs", "mainEntityOfPage")]
    identifiers = item.get("identifier") or []
    for ident in identifiers if isinstance(identifiers, list) else [identifiers]:
        links.append(_ld_text(ident.get("value") if isinstance(ident, Mapping) else ident))
    entry.doi = next((d for d in (doi_in(x) for x in links) if d), None)
    links_into(entry, links, base)
    _containers(entry, item.get("isPartOf"))
    if entry.record_type == "article" and "container-title" in entry.fields:
        entry.record_type = "article-journal"
    elif entry.record_type == "article-journal" and "container-title" not in entry.fields:
        entry.record_type = "article"
    set_field(entry, "page", pages(_ld_text(item.get("pageStart")), _ld_text(item.get("pageEnd"))))
    set_field(entry, "page", _ld_text(item.get("pagination")))
    set_field(entry, "publisher", _ld_text(item.get("publisher")))
    set_field(entry, "language", _ld_text(item.get("inLanguage")))
    keywords = item.get("keywords") or []
    if isinstance(keywords, str):
        keywords = re.split(r"(?:(?<!\s)\s++)?[,;]\s*", keywords)
    elif not isinstance(keywords, list):
        keywords = [keywords]
    entry.keywords.extend(_ld_text(k) for k in keywords if _ld_text(k))
    return entry


def _ld_items(data: Any, depth: int = 0) -> Iterator[Mapping[str, Any]]:
    """Every object that may be a work: top level, ``@graph``, ``mainEntity``, ``ItemList`` elements."""
    if depth > 6:
        return
    if isinstance(data, list):
        for value in data:
            yield from _ld_items(value, depth + 1)
        return
    if not isinstance(data, Mapping):
        return
    yield data
    for key in ("@graph", "mainEntity", "itemListElement", "item", "hasPart"):
        if key in data:
            yield from _ld_items(data[key], depth + 1)


def _unescaped(value: Any) -> Any:
    """JSON-LD strings with HTML entities undone: pages often write ``&amp;`` inside the script
    (a URL ``?a=1&amp;b=2``, a title ``A &amp; B``), where the entity is not decoded by HTML."""
    if isinstance(value, str):
        return html.unescape(value) if "&" in value else value
    if isinstance(value, list):
        return [_unescaped(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _unescaped(v) for k, v in value.items()}
    return value


def json_ld(scripts: list[str], base: str | None, warn: Any) -> list[Entry]:
    """Works described by ``<script type="application/ld+json">`` blocks."""
    entries: list[Entry] = []
    for number, text in enumerate(scripts, 1):
        try:
            data = _unescaped(json_loads(text))
        except ValueError as exc:
            warn(f"JSON-LD block {number} is not valid JSON ({exc}); it was skipped")
            continue
        for item in _ld_items(data):
            try:
                entry = _ld_entry(item, base)
            except (TypeError, ValueError, AttributeError) as exc:
                warn(f"JSON-LD block {number} holds a work that cannot be read ({exc}); it was skipped")
                continue
            if entry is not None:
                entries.append(entry)
    return entries


def _microdata_value(node: Any, base: str | None) -> Any:
    if "itemscope" in node.attributes:
        return _microdata_object(node, base)
    attrs = node.attributes
    for attr in ("content", "datetime"):
        if attrs.get(attr):
            return attrs[attr]
    if node.tag in ("a", "link", "area"):
        return absolute(attrs.get("href"), base) or text_of(node)
    if node.tag in ("img", "audio", "video", "source"):
        return absolute(attrs.get("src"), base) or ""
    return text_of(node)


def _microdata_object(scope: Any, base: str | None) -> dict[str, Any]:
    """A microdata item as a JSON-LD-like object (properties of nested items stay with them)."""
    item: dict[str, Any] = {
        "@type": [t.rsplit("/", 1)[-1] for t in (scope.attributes.get("itemtype") or "").split()]
    }
    for node in scope.css("[itemprop]"):
        owner = node.parent
        while owner is not None and "itemscope" not in owner.attributes:
            owner = owner.parent
        if owner is None or owner.mem_id != scope.mem_id:
            continue
        value = _microdata_value(node, base)
        for prop in (node.attributes.get("itemprop") or "").split():
            item.setdefault(prop, []).append(value)
    return {
        k: (v[0] if isinstance(v, list) and len(v) == 1 and k != "author" else v) for k, v in item.items()
    }


def microdata(tree: Any, base: str | None) -> list[Entry]:
    """Top-level microdata items of scholarly types."""
    entries: list[Entry] = []
    for scope in tree.css("[itemscope][itemtype]"):
        parent = scope.parent
        while parent is not None and "itemscope" not in (parent.attributes or {}):
            parent = parent.parent
        if parent is not None:
            continue
        for item in _ld_items(_microdata_object(scope, base)):
            entry = _ld_entry(item, base)
            if entry:
                entries.append(entry)
    return entries
