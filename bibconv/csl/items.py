"""CSL-JSON items ⇄ records: the CSL vocabulary (:mod:`bibconv.csl`) applied to one item.

A record is CSL-JSON's vocabulary already, so an item maps onto it key by key: text variables
become rich text (CSL's ``<i>``, ``<b>``, ``<sup>``, ``<sub>`` and ``nocase`` span kept, other ``&``
``<`` ``>`` literal), number variables text, names :class:`~bibconv.model.Name`, dates
:class:`~bibconv.model.Date`. Keys the schema does not know are kept in ``extra`` as ``csl:<key>``
and written back under ``custom``; record data with no CSL variable travels under ``custom`` too
(``bibconv:arxiv``, ``bibconv:affiliations``, other formats' ``extra`` under their own keys).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bibconv import csl
from bibconv.arxiv import implied_fields, parse_arxiv_id, without_implied
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.patterns import lazy

if TYPE_CHECKING:
    from bibconv.registry import ReadContext

__all__ = ["CORE_KEYS", "is_csl_item", "record_from_csl", "record_to_csl", "rich_from_csl", "rich_to_csl"]

_ARXIV_KEY = "bibconv:arxiv"
_AFFILIATIONS_KEY = "bibconv:affiliations"
_CSL_ID_KEY = "csl:id"
_CATEGORIES_KEY = "csl:categories"


# CSL rich text: these tags are markup; every other ``&``, ``<``, ``>`` is literal text.
_CSL_TAG = lazy(
    r'(</?(?:i|b|sup|sub)>|<span class="nocase">|<span style="font-variant:\s*small-caps;?">|</span>)'
)
# A dollar pair is math by pandoc's rule (no space inside either dollar, no digit after the closing
# one); CSL-JSON writes it in a nocase span, so that no style changes the case of its TeX.
_MATH = lazy(r"\$\$[^$]+\$\$|(?<![\\$])\$(?=[^\s$])(?:[^$\\]|\\.)*?(?<=[^\s\\])\$(?!\d)")
_NOCASE_MATH = lazy(rf'<span class="nocase">({_MATH.pattern})</span>')  # what rich_to_csl wraps
_ENTITY = lazy(r"&(?:amp|lt|gt|quot|#38|#60|#62);")
_PLAIN_NAME_KEYS = frozenset({"family", "given"})
# What record_from_csl does with an item's key (the later kinds win, as its first matching test would).
_KINDS: dict[str, str] = {
    **dict.fromkeys(csl.TEXT_VARS, "text"),
    **dict.fromkeys(csl.VERBATIM_VARS, "verbatim"),
    "citation-key": "verbatim",
    **dict.fromkeys(csl.NUMBER_VARS, "number"),
    "keyword": "keyword",
    **dict.fromkeys(csl.DATE_VARS, "date"),
    **dict.fromkeys(csl.NAME_VARS, "name"),
    **dict.fromkeys(("id", "type", "custom"), "skip"),
}
CORE_KEYS = frozenset(
    {"title", "container-title", "abstract", "DOI", "URL", "ISBN", "ISSN", "page", "volume", "publisher"}
    | set(csl.NAME_VARS)
    | set(csl.DATE_VARS)
)
"""Besides ``id`` and a CSL ``type``, the keys that make a JSON object a CSL item."""
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#38;": "&", "&#60;": "<", "&#62;": ">"}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def rich_from_csl(text: str) -> str:
    """CSL-JSON text → record rich text (literal ``&``, ``<``, ``>`` escaped, tags kept; the nocase
    span :func:`rich_to_csl` puts around math taken off)."""
    if "&" not in text and "<" not in text and ">" not in text:
        return text
    if "$" in text:
        text = _NOCASE_MATH.sub(r"\1", text)
    parts = _CSL_TAG.split(text)
    for i in range(0, len(parts), 2):
        plain = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], parts[i])
        parts[i] = plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "".join(parts)


def rich_to_csl(text: str, *, nocase_math: bool = True) -> str:
    """Record rich text → CSL-JSON text (entities for ``&``, ``<``, ``>`` written as characters, math
    in a nocase span unless ``nocase_math`` is false: number variables are read back as they are)."""
    if nocase_math and "$" in text:
        text = _MATH.sub(lambda m: f'<span class="nocase">{m.group(0)}</span>', text)
    if "&" not in text:
        return text
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _number_text(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError(f"expected a string or number, got {json.dumps(value)}")
    return str(value)


def _arxiv_from_custom(data: Mapping[str, Any]) -> Arxiv:
    def date(key: str) -> Date | None:
        return Date.from_csl(data[key]) if data.get(key) else None

    return Arxiv(
        id=str(data["id"]),
        version=int(data["version"]) if data.get("version") else None,
        primary_class=data.get("primary_class"),
        categories=tuple(data.get("categories") or ()),
        submitted=date("submitted"),
        updated=date("updated"),
        comment=data.get("comment"),
        journal_ref=data.get("journal_ref"),
    )


def _arxiv_to_custom(arxiv: Arxiv) -> dict[str, Any]:
    out: dict[str, Any] = {"id": arxiv.id}
    if arxiv.version:
        out["version"] = arxiv.version
    for key in ("primary_class", "comment", "journal_ref"):
        if getattr(arxiv, key):
            out[key] = getattr(arxiv, key)
    if arxiv.categories:
        out["categories"] = list(arxiv.categories)
    for key in ("submitted", "updated"):
        value: Date | None = getattr(arxiv, key)
        if value:
            out[key] = value.to_csl()
    return out


def _arxiv_from_fields(fields: Mapping[str, str]) -> Arxiv | None:
    """An arXiv block for items that only say "arXiv" in their generic fields (Zotero's export)."""
    number = fields.get("number", "")
    publisher = fields.get("publisher", "").lower()
    found = parse_arxiv_id(number, bare=False) if number else None
    if found is None and publisher == "arxiv":
        found = parse_arxiv_id(fields.get("URL", ""), bare=False)
    if found is None and fields.get("DOI", "").lower().startswith("10.48550/arxiv."):
        found = parse_arxiv_id(fields["DOI"])
    return Arxiv(id=found[0], version=found[1]) if found else None


def _name_from_csl(value: Any) -> Name:
    """:meth:`Name.from_csl`, quicker for the usual name of a family and a given name (a string a name)."""
    if type(value) is dict and value.keys() <= _PLAIN_NAME_KEYS:
        family, given = value.get("family"), value.get("given")
        if (family is None or type(family) is str) and (given is None or type(given) is str):
            return _plain_name(family or None, given or None)
    if not isinstance(value, Mapping):
        return Name(literal=str(value))
    family = value.get("family")
    if value.get("isInstitution") and family and not value.get("given") and not value.get("literal"):
        return Name(literal=str(family))  # Juris-M's institution: a name not to be split
    return Name.from_csl(value)


_NAME_KEYS = frozenset({"family", "given", "dropping-particle", "non-dropping-particle", "suffix", "literal"})
"""The keys of a CSL name that :class:`~bibconv.model.Name` holds (``isInstitution`` makes a literal)."""


def _dropped_name_keys(names: list[Any]) -> list[str]:
    """The keys of CSL names that a :class:`~bibconv.model.Name` cannot hold and that say something:
    the schema's ``comma-suffix``, ``static-ordering``, ``parse-names``, Juris-M's ``multi``."""
    dropped: dict[str, None] = {}
    for name in names:
        if type(name) is dict and name.keys() <= _PLAIN_NAME_KEYS:
            continue
        for key, value in name.items() if isinstance(name, Mapping) else ():
            if key in _NAME_KEYS or key == "isInstitution" or value is None or value in ("", {}):
                continue
            if key == "multi" and isinstance(value, Mapping) and not any(value.values()):
                continue  # Juris-M's empty {"_key": {}}
            dropped[key] = None
    return list(dropped)


@lru_cache(maxsize=16384)
def _plain_name(family: str | None, given: str | None) -> Name:
    """A name of a family and a given name (names repeat across a file: one shared, immutable object)."""
    return Name(family=family, given=given)


def is_csl_item(item: Mapping[str, Any]) -> bool:
    """Whether ``item`` is a CSL item: it has an ``id``, a CSL ``type``, a title, names or dates.

    >>> is_csl_item({"title": "T"}), is_csl_item({"name": "left-pad", "version": "1.3.0"})
    (True, False)
    """
    return "id" in item or item.get("type") in csl.TYPES or not CORE_KEYS.isdisjoint(item)


def _not_an_item(item: Mapping[str, Any]) -> str:
    keys = ", ".join(repr(k) for k in list(item)[:5]) + (", …" if len(item) > 5 else "")
    return (
        "not a CSL-JSON item: expected an object with an 'id', a CSL 'type' or CSL variables"
        f" ('title', 'author', 'issued'…); found {keys or 'an empty object'}"
    )


def _bad_date_note(var: str, value: Mapping[str, Any], date: Date) -> str:
    parts = json.dumps(value.get("date-parts"))
    kept = f"kept as the literal {date.literal!r}" if date.literal else "dropped"
    return (
        f"{var!r}: date-parts {parts} are not a date (months 1-12, seasons 13-16 or 21-24, days 1-31); {kept}"
    )


@dataclass
class _Variables:
    """What an item's CSL variables give a record, and the notes on what could not be read."""

    fields: dict[str, str] = field(default_factory=dict)
    names: dict[str, tuple[Name, ...]] = field(default_factory=dict)
    dates: dict[str, Date] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    keywords: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


def _variables(item: Mapping[str, Any]) -> _Variables:
    """An item's keys, each by its kind (:data:`_KINDS`); unknown keys go to ``extra``."""
    got = _Variables()
    for key, value in item.items():
        if value is None:
            continue
        kind = _KINDS.get(key)
        if kind == "text":
            got.fields[key] = rich_from_csl(_text(value))
        elif kind == "name":
            if not isinstance(value, list):
                raise ValueError(f"{key!r} must be a list of name objects")
            got.names[key] = tuple(map(_name_from_csl, value))
            if dropped := _dropped_name_keys(value):
                kept = ", ".join(map(repr, dropped))
                got.notes.append(f"{key!r}: the name keys {kept} have no place in a bibconv name; dropped")
        elif kind == "date":
            if not isinstance(value, (Mapping, str, int)):
                raise ValueError(f"{key!r} must be a date object")
            date = Date.from_csl(value if not isinstance(value, int) else str(value))
            if not date.parts and isinstance(value, Mapping) and value.get("date-parts"):
                got.notes.append(_bad_date_note(key, value, date))
            got.dates[key] = date
        elif kind == "skip":
            continue
        elif kind == "keyword":
            got.keywords = tuple(rich_from_csl(k.strip()) for k in _text(value).split(",") if k.strip())
        elif kind == "number":
            got.fields[key] = _number_text(value)
        elif kind == "verbatim":  # a key is never rich text
            got.fields[key] = _text(value)
        else:
            got.extra[f"csl:{key}"] = value
    return got


def _custom(custom: Any, got: _Variables) -> Arxiv | None:
    """Read an item's ``custom`` object into ``got``; the arXiv block it holds, if any."""
    if not isinstance(custom, Mapping):
        raise ValueError("'custom' must be an object")
    arxiv = None
    for key, value in custom.items():
        if key in (_ARXIV_KEY, _AFFILIATIONS_KEY) and not isinstance(value, Mapping):
            raise ValueError(f"custom {key!r} must be an object")
        if key == _ARXIV_KEY:
            arxiv = _arxiv_from_custom(value)
        elif key == _AFFILIATIONS_KEY:
            for var, per_name in value.items():
                if var in got.names:
                    padded = list(per_name) + [[]] * len(got.names[var])
                    got.names[var] = tuple(
                        replace(n, affiliation=tuple(a)) if a else n
                        for n, a in zip(got.names[var], padded, strict=False)
                    )
        else:
            got.extra[key if ":" in key else f"csl:{key}"] = value
    return arxiv


def record_from_csl(
    item: Mapping[str, Any], ctx: ReadContext | None = None, index: int | None = None, line: int | None = None
) -> Record:
    """Build a record from one CSL-JSON item (item ``index``, at ``line``); ``ValueError`` if malformed
    or not a CSL item (:func:`is_csl_item`)."""
    if not isinstance(item, Mapping):
        raise ValueError("an item must be a JSON object")
    if not is_csl_item(item):
        raise ValueError(_not_an_item(item))
    got = _variables(item)
    arxiv = _custom(item.get("custom") or {}, got)
    fields, extra = got.fields, got.extra
    record_type = str(item.get("type") or "document")
    if record_type not in csl.TYPES:
        extra["csl:type"] = record_type
        if ctx is not None:
            ctx.warn(f"unknown CSL type {record_type!r}, read as 'document'", index=index)
        record_type = "document"
    arxiv = arxiv or _arxiv_from_fields(fields)
    if arxiv is not None:
        fields = without_implied(fields, arxiv, record_type)
    key = fields.pop("citation-key", None)  # type: ignore[arg-type,unused-ignore]
    raw_id = item.get("id")
    if key is None:
        key = None if raw_id in (None, "") else str(raw_id)
    elif raw_id not in (None, "") and str(raw_id) != key:
        extra[_CSL_ID_KEY] = str(raw_id)
    span = ctx.span(line, index=index) if ctx else None
    if ctx is not None:
        for note in got.notes:
            ctx.warn(note, line, key, index=index)
    return Record(
        type=record_type,
        id=key,
        fields=fields,
        names=got.names,
        dates=got.dates,
        keywords=got.keywords,
        arxiv=arxiv,
        extra=extra,
        origin=span,
    )


_RICH_VARS = (csl.TEXT_VARS | csl.NUMBER_VARS) - csl.VERBATIM_VARS
"""The fields :func:`record_to_csl` writes as CSL rich text (:func:`rich_to_csl`)."""


def record_to_csl(record: Record, key: str | None = None) -> dict[str, Any]:
    """One CSL-JSON item for ``record``, valid against the official schema."""
    key = key or record.id
    extra = record.extra
    item: dict[str, Any] = {"id": (extra and extra.get(_CSL_ID_KEY)) or key or "", "type": record.type}
    if key:
        item["citation-key"] = key
    custom: dict[str, Any] = {}
    fields: Mapping[str, str] = record.fields
    if record.arxiv is not None:
        merged = dict(fields)
        implied = implied_fields(record.arxiv, record.type)
        if "DOI" in merged:  # a journal DOI wins the DOI slot; arXiv's stays derivable
            implied.pop("DOI")
        for name, value in implied.items():
            merged.setdefault(name, value)
        fields = merged
        custom[_ARXIV_KEY] = _arxiv_to_custom(record.arxiv)
    for name, value in fields.items():
        if name not in _RICH_VARS:
            if name in csl.VERBATIM_VARS:
                item[name] = value
            else:
                custom[f"bibconv:field:{name}"] = value
        elif "$" in value or "&" in value:  # else rich_to_csl gives it as it is
            item[name] = rich_to_csl(value, nocase_math=name not in csl.NUMBER_VARS)
        else:
            item[name] = value
    if record.names:
        _names_to_csl(record.names, item, custom)
    for var, date in record.dates.items() if record.dates else ():
        item[var] = date.to_csl()
    if record.keywords:
        item["keyword"] = ", ".join(rich_to_csl(k) for k in record.keywords)
    for name, value in extra.items() if extra else ():
        if name == _CSL_ID_KEY:
            continue
        if name == _CATEGORIES_KEY and isinstance(value, list) and all(isinstance(c, str) for c in value):
            item["categories"] = value  # a schema key (strings), though no variable styles use
            continue
        custom[name[4:] if name.startswith("csl:") else name] = value
    if custom:
        item["custom"] = custom
    return item


def _names_to_csl(
    names: Mapping[str, tuple[Name, ...]], item: dict[str, Any], custom: dict[str, Any]
) -> None:
    """Each role's names into ``item``, their affiliations (if any) into ``custom``."""
    affiliations: dict[str, list[list[str]]] = {}
    for var, people in names.items():
        item[var] = [n.to_csl() for n in people]
        if any(n.affiliation for n in people):
            affiliations[var] = [list(n.affiliation) for n in people]
    if affiliations:
        custom[_AFFILIATIONS_KEY] = affiliations
