"""CSL-JSON, read and written completely.

Reading accepts an array of items, a single item object, or one item per line
(JSON lines); arrays are streamed item by item. Names, dates with string or number
parts, ``raw`` and ``literal`` dates are understood. Keys the schema does not know
(Zotero's ``license``, ``file``…) are kept in ``extra`` as ``csl:<key>`` and written
back under ``custom``, so the output validates against the official schema and
nothing is lost. Record data with no CSL variable travels under ``custom`` too:
``bibconv:arxiv`` (the whole arXiv block), ``bibconv:affiliations``, and ``extra``
entries of other formats under their own keys (``bibtex:howpublished``; BibTeX's ``subtitle`` and
``organization``, for which CSL has no variable, travel so). What the writer keeps, as code, is
:func:`bibconv.projection.project`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import IO, TYPE_CHECKING, Any, ClassVar

from bibconv import csl
from bibconv.arxiv import implied_fields, parse_arxiv_id, without_implied
from bibconv.errors import ParseError, ReadError
from bibconv.formats.csljson.layout import dumps_indented
from bibconv.model import Arxiv, Date, Name, Record
from bibconv.registry import EntryWriter, ReadContext, WriteContext, register
from bibconv.textio import JSON_SURROGATE, open_text

if TYPE_CHECKING:
    from bibconv.parallel.pieces import Piece

__all__ = ["CslJsonReader", "CslJsonWriter", "record_from_csl", "record_to_csl"]

_ARXIV_KEY = "bibconv:arxiv"
_AFFILIATIONS_KEY = "bibconv:affiliations"
_CSL_ID_KEY = "csl:id"
_KNOWN_KEYS = (
    csl.TEXT_VARS | csl.NUMBER_VARS | set(csl.NAME_VARS) | set(csl.DATE_VARS) | {"type", "id", "custom"}
)


# CSL rich text: these tags are markup; every other ``&``, ``<``, ``>`` is literal text.
_CSL_TAG = re.compile(
    r'(</?(?:i|b|sup|sub)>|<span class="nocase">|<span style="font-variant:\s*small-caps;?">|</span>)'
)
_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|#38|#60|#62);")
_JSON_SYNTAX = re.compile(r'\\.|["{}\[\],]')
_CHUNK = 1 << 16
_JSON_SPACE = re.compile(r"[ \t\r\n]*")
_NEXT_ITEM = re.compile(r"\}\s*,\s*(?=\{)")
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
_CORE_KEYS = frozenset(
    {"title", "container-title", "abstract", "DOI", "URL", "ISBN", "ISSN", "page", "volume", "publisher"}
    | set(csl.NAME_VARS)
    | set(csl.DATE_VARS)
)
"""Besides ``id`` and a CSL ``type``, the keys that make a JSON object a CSL item."""
_KEY = re.compile(r'"([A-Za-z][A-Za-z-]*)"\s*:\s*("[^"]*")?')
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#38;": "&", "&#60;": "<", "&#62;": ">"}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def rich_from_csl(text: str) -> str:
    """CSL-JSON text → record rich text (literal ``&``, ``<``, ``>`` escaped, tags kept)."""
    if "&" not in text and "<" not in text and ">" not in text:
        return text
    parts = _CSL_TAG.split(text)
    for i in range(0, len(parts), 2):
        plain = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], parts[i])
        parts[i] = plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "".join(parts)


def rich_to_csl(text: str) -> str:
    """Record rich text → CSL-JSON text (entities for ``&``, ``<``, ``>`` written as characters)."""
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
    return Name.from_csl(value) if isinstance(value, Mapping) else Name(literal=str(value))


@lru_cache(maxsize=16384)
def _plain_name(family: str | None, given: str | None) -> Name:
    """A name of a family and a given name (names repeat across a file: one shared, immutable object)."""
    return Name(family=family, given=given)


def is_csl_item(item: Mapping[str, Any]) -> bool:
    """Whether ``item`` is a CSL item: it has an ``id``, a CSL ``type``, a title, names or dates.

    >>> is_csl_item({"title": "T"}), is_csl_item({"name": "left-pad", "version": "1.3.0"})
    (True, False)
    """
    return "id" in item or item.get("type") in csl.TYPES or not _CORE_KEYS.isdisjoint(item)


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


def record_from_csl(
    item: Mapping[str, Any], ctx: ReadContext | None = None, index: int | None = None, line: int | None = None
) -> Record:
    """Build a record from one CSL-JSON item (item ``index``, at ``line``); ``ValueError`` if malformed
    or not a CSL item (:func:`is_csl_item`)."""
    if not isinstance(item, Mapping):
        raise ValueError("an item must be a JSON object")
    if not is_csl_item(item):
        raise ValueError(_not_an_item(item))
    notes: list[str] = []
    fields: dict[str, str] = {}
    names: dict[str, tuple[Name, ...]] = {}
    dates: dict[str, Date] = {}
    extra: dict[str, Any] = {}
    keywords: tuple[str, ...] = ()
    for key, value in item.items():
        if value is None:
            continue
        kind = _KINDS.get(key)
        if kind == "text":
            fields[key] = rich_from_csl(_text(value))
        elif kind == "name":
            if not isinstance(value, list):
                raise ValueError(f"{key!r} must be a list of name objects")
            names[key] = tuple(map(_name_from_csl, value))
        elif kind == "date":
            if not isinstance(value, (Mapping, str, int)):
                raise ValueError(f"{key!r} must be a date object")
            date = Date.from_csl(value if not isinstance(value, int) else str(value))
            if not date.parts and isinstance(value, Mapping) and value.get("date-parts"):
                notes.append(_bad_date_note(key, value, date))
            dates[key] = date
        elif kind == "skip":
            continue
        elif kind == "keyword":
            keywords = tuple(rich_from_csl(k.strip()) for k in _text(value).split(",") if k.strip())
        elif kind == "number":
            fields[key] = _number_text(value)
        elif kind == "verbatim":  # a key is never rich text
            fields[key] = _text(value)
        else:
            extra[f"csl:{key}"] = value
    custom = item.get("custom") or {}
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
                if var in names:
                    padded = list(per_name) + [[]] * len(names[var])
                    names[var] = tuple(
                        replace(n, affiliation=tuple(a)) if a else n
                        for n, a in zip(names[var], padded, strict=False)
                    )
        else:
            extra[key if ":" in key else f"csl:{key}"] = value
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
        for note in notes:
            ctx.warn(note, line, key, index=index)
    return Record(
        type=record_type,
        id=key,
        fields=fields,
        names=names,
        dates=dates,
        keywords=keywords,
        arxiv=arxiv,
        extra=extra,
        origin=span,
    )


def record_to_csl(record: Record, key: str | None = None) -> dict[str, Any]:
    """One CSL-JSON item for ``record``, valid against the official schema."""
    key = key or record.id
    item: dict[str, Any] = {"id": record.extra.get(_CSL_ID_KEY) or key or "", "type": record.type}
    if key:
        item["citation-key"] = key
    custom: dict[str, Any] = {}
    fields = dict(record.fields)
    if record.arxiv is not None:
        implied = implied_fields(record.arxiv, record.type)
        if "DOI" in fields:  # a journal DOI wins the DOI slot; arXiv's stays derivable
            implied.pop("DOI")
        for name, value in implied.items():
            fields.setdefault(name, value)
        custom[_ARXIV_KEY] = _arxiv_to_custom(record.arxiv)
    for name, value in fields.items():
        if name in csl.VERBATIM_VARS:
            item[name] = value
        elif csl.is_field(name):
            item[name] = rich_to_csl(value)
        else:
            custom[f"bibconv:field:{name}"] = value
    affiliations: dict[str, list[list[str]]] = {}
    for var, people in record.names.items():
        item[var] = [n.to_csl() for n in people]
        if any(n.affiliation for n in people):
            affiliations[var] = [list(n.affiliation) for n in people]
    if affiliations:
        custom[_AFFILIATIONS_KEY] = affiliations
    for var, date in record.dates.items():
        item[var] = date.to_csl()
    if record.keywords:
        item["keyword"] = ", ".join(rich_to_csl(k) for k in record.keywords)
    for name, value in record.extra.items():
        if name == _CSL_ID_KEY:
            continue
        custom[name[4:] if name.startswith("csl:") else name] = value
    if custom:
        item["custom"] = custom
    return item


def _skip_value(buffer: str, start: int) -> int | None:
    """Where a broken item that starts at ``buffer[start]`` ends: the index of the ``,`` or ``]``
    after it at the array's level (strings and nesting respected), or ``None`` if not in ``buffer``."""
    depth = 0
    in_string = False
    i = start
    for match in _JSON_SYNTAX.finditer(buffer, start):
        char = match.group(0)
        i = match.start()
        if in_string:
            if char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            if depth == 0 and char == "]":
                return i
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            return i
    return None


def _iter_json_values(text: IO[str], ctx: ReadContext) -> Iterator[tuple[int, int, Any]]:
    """``(index, line, value)`` for each item of a top-level array, object, or JSON-lines stream.

    The text is read in chunks (64 K characters, or longer for a longer item) and walked
    with an offset, so a whole file on one line (minified JSON) takes linear time and the
    buffer holds about one chunk. A broken item fails through ``ctx.fail``; in
    lenient mode the reader goes on after it (at the next ``,`` at the array's level), so
    every other item still comes through.
    """
    decoder = json.JSONDecoder()
    buffer = ""
    pos = 0  # the next unread character of buffer
    line = 1  # line and column of buffer[pos]
    column = 1
    eof = False
    in_array = None  # unknown until the first significant character
    index = 0

    def more() -> bool:
        nonlocal buffer, pos, eof
        # 64 K characters, or as many as are pending: an item longer than a chunk is read
        # in doubling chunks (linear time), and the buffer stays near the longest item.
        chunk = text.read(max(_CHUNK, len(buffer) - pos))
        if not chunk:
            eof = True
            return False
        tail = buffer[-5:]  # an escape may be cut between chunks
        if "\\u" in chunk or "\\" in tail:
            ctx.escapes += len(JSON_SURROGATE.findall(tail + chunk))
        buffer = buffer[pos:] + chunk
        pos = 0
        return True

    def advance(to: int) -> None:
        nonlocal pos, line, column
        newlines = buffer.count("\n", pos, to)
        if newlines:
            line += newlines
            column = to - buffer.rfind("\n", pos, to)
        else:
            column += to - pos
        pos = to

    def skip() -> None:
        while True:
            advance(_JSON_SPACE.match(buffer, pos).end())  # type: ignore[union-attr]
            if pos < len(buffer) or eof or not more():
                return

    def error(message: str, at: int | None = None) -> ParseError:
        at = pos if at is None else at
        newlines = buffer.count("\n", pos, at)
        col = at - buffer.rfind("\n", pos, at) if newlines else column + at - pos
        return ParseError(message, ctx.span(line + newlines, col))

    def resync(problem: ParseError) -> bool:
        """Fail the item at ``pos``; True when reading can go on after it."""
        ctx.fail(problem)  # raises in strict mode
        while (end := _skip_value(buffer, pos)) is None:
            if eof or not more():
                # A string left open swallows what follows: go on at the next "},{" instead.
                found = _NEXT_ITEM.search(buffer, pos)
                if found is None:
                    return False
                end = found.start() + 1
                break
        advance(end)
        return True

    skip()
    if pos >= len(buffer):
        return
    if buffer[pos] == "[":
        in_array = True
        advance(pos + 1)
    while True:
        skip()
        if in_array and buffer.startswith("]", pos):
            advance(pos + 1)
            skip()
            if pos < len(buffer):
                ctx.fail(error("unexpected text after the end of the array"))
            return
        if pos >= len(buffer):
            if in_array:
                ctx.fail(error("the array is not closed (missing ']'); the file may be truncated"))
            return
        end: int | None = None
        while True:
            try:
                value, end = decoder.raw_decode(buffer, pos)
                break
            except json.JSONDecodeError as exc:
                if not eof and more():
                    continue
                problem = error(
                    f"invalid JSON: {exc.msg.removesuffix(' at').removesuffix(' starting')}", exc.pos
                )
            except RecursionError:
                problem = error("invalid JSON: arrays or objects nested too deeply")
            if not in_array:
                ctx.fail(problem)
                return
            if not resync(problem):
                return
            break
        if end is not None:
            yield index, line, value
            advance(end)
        index += 1
        skip()
        if in_array:
            if buffer.startswith(",", pos):
                advance(pos + 1)
            elif not buffer.startswith("]", pos):
                problem = error("expected ',' or ']' between items")
                if not resync(problem):
                    return
                if buffer.startswith(",", pos):
                    advance(pos + 1)


@register
class CslJsonReader:
    """Reads CSL-JSON: an array of items, one item, or JSON lines."""

    name: ClassVar[str] = "csljson"
    extensions: ClassVar[tuple[str, ...]] = (".json", ".csl.json", ".csljson")
    description: ClassVar[str] = "CSL-JSON (citeproc, pandoc, Zotero)"

    @staticmethod
    def sniff(head: str) -> float:
        """JSON whose head holds CSL items' keys (``id``, a CSL ``type``, ``title``, ``author``…);
        an empty array; JSON without them is not CSL-JSON."""
        text = head.lstrip()
        if not text.startswith(("[", "{")):
            return 0.0
        keys = {m.group(1): m.group(2) for m in _KEY.finditer(text)}
        csl_type = (keys.get("type") or '""')[1:-1] in csl.TYPES
        if csl_type and ("id" in keys or "title" in keys):
            return 0.9
        if "id" in keys or csl_type or not _CORE_KEYS.isdisjoint(keys):
            return 0.3 if text.startswith("[") else 0.2
        return 0.3 if text[1:].lstrip().startswith("]") else 0.0

    @staticmethod
    def split(stream: IO[bytes], size: int) -> Iterator[Piece] | None:
        """Cut the input between array items or lines into pieces of about ``size`` bytes (for ``--jobs``)."""
        from bibconv.formats.csljson.split import split

        return split(stream, size)

    @staticmethod
    def resume(stream: IO[bytes], size: int, at: Piece) -> Iterator[Piece]:
        """The pieces from the guessed piece ``at`` on, each item parsed (a guess was wrong)."""
        from bibconv.formats.csljson.split import resume

        return resume(stream, size, at)

    def read(self, stream: IO[bytes], ctx: ReadContext) -> Iterator[Record]:
        text = open_text(stream, ctx)
        for index, line, value in _iter_json_values(text, ctx):
            if isinstance(value, list):  # JSON lines holding arrays
                items: Iterable[Any] = value
            else:
                items = (value,)
            for item in items:
                try:
                    record = record_from_csl(item, ctx, index, line)
                except (ValueError, TypeError, KeyError) as exc:
                    key = item.get("id") if isinstance(item, Mapping) else None
                    ctx.fail(ReadError(str(exc), ctx.span(line, index=index), str(key) if key else None))
                    continue
                yield record


@register
class CslJsonWriter(EntryWriter):
    """Writes a CSL-JSON array, one item at a time, valid against the official schema."""

    name: ClassVar[str] = "csljson"
    extensions: ClassVar[tuple[str, ...]] = (".json", ".csl.json", ".csljson")
    description: ClassVar[str] = "CSL-JSON (citeproc, pandoc, Zotero)"

    separator: ClassVar[str] = ","

    @staticmethod
    def project(record: Record) -> Record:
        """What ``record`` reads back as from this output (:mod:`~bibconv.formats.csljson.project`)."""
        from bibconv.formats.csljson.project import project

        return project(record)

    def header(self, ctx: WriteContext) -> str:
        return "["

    def entry(self, record: Record, ctx: WriteContext) -> str:
        item = record_to_csl(ctx.keys.assign(record))
        indent = ctx.option("indent", 2)
        ascii_only = bool(ctx.option("ascii"))
        if isinstance(indent, int):  # json.dumps(indent=…) is pure Python: the same text, faster
            return "\n" + dumps_indented(item, indent, ensure_ascii=ascii_only, margin=" " * indent)
        body = json.dumps(item, ensure_ascii=ascii_only, indent=indent)
        if indent:
            body = "\n".join(" " * indent + line for line in body.split("\n"))
        return "\n" + body

    def footer(self, ctx: WriteContext) -> str:
        return "\n]\n" if ctx.entries else "]\n"
