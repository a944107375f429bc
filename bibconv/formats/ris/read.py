"""RIS tag lines → canonical record: the reading half of :mod:`bibconv.formats.ris`.

:func:`build_record` turns the ``[tag, value, line]`` entries of one record into a
:class:`~bibconv.model.Record`, through the tables of :mod:`bibconv.formats.ris.table`; the
decisions (arXiv tags, synonyms, repeated tags) are described in :mod:`bibconv.formats.ris`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, NamedTuple

from bibconv import facts
from bibconv.arxiv import parse_arxiv_id, without_implied
from bibconv.csl import VERBATIM_VARS
from bibconv.formats.ris.names import parse_ris_name
from bibconv.formats.ris.table import (
    CONTEXT_TAGS,
    CSL_TO_TY,
    DATE_INFO_KEY,
    ENDNOTE_TYPES,
    EXTRA_TAGS,
    FREE_TEXT_TAGS,
    SPEC_TYPES,
    TAGS,
    TY_KEY,
    TY_TO_CSL,
    parse_date,
    read_targets,
    sn_slot,
)
from bibconv.formats.ris.types import reads_as_preprint
from bibconv.latex import escape_markup
from bibconv.model import Arxiv, Date, FrozenDict, Name, Record, SourceSpan
from bibconv.patterns import lazy
from bibconv.registry import ReadContext

__all__ = ["DATE_INFO_KEY", "TY_KEY", "build_record", "continue_value"]

_NO_NAME = Name()
_NONE: FrozenDict[str, Any] = FrozenDict()  # shared by the records that have no dates, no extra

_LIST_TAGS = frozenset({"KW", "UR", "L1", "L2", "L3", "L4"})
_SPACE = lazy(r"\s+")
_DOI_PREFIX = lazy(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_URL_SPLIT = lazy(r"(?:(?<!\s)\s++)?;\s*(?=(?:https?|ftp)://)")  # spaces from their start
_ARXIV_ID_NOTE = lazy(r"arXiv:\s*(\S+?)(?:\s*\[([^\]\s]+)\])?\s*", re.IGNORECASE)
_ARXIV_LABEL = lazy(
    r"(?:arXiv (categories|submitted|updated|comment|journal reference)|(Comment)):\s*(.*)",
    re.IGNORECASE | re.DOTALL,
)
_DATE_PRECEDENCE = {"DA": 0, "PY": 1, "Y1": 2}  # the 2011 full date first, then the old spec's Y1


def continue_value(entry: list[Any], text: str, line: int, ctx: ReadContext) -> None:
    """Append a wrapped line to the value of ``entry`` (``[tag, value, line]``)."""
    tag = entry[0]
    if tag in FREE_TEXT_TAGS or tag in _LIST_TAGS:
        entry[1] = f"{entry[1]}\n{text}" if entry[1] else text
        if tag in _LIST_TAGS:
            ctx.warn(f"line continues the {tag} line above; read as another {tag} value", line)
        return
    entry[1] = f"{entry[1]} {text}" if entry[1] else text
    ctx.warn(f"line continues the {tag} value above (wrapped line): {text[:40]!r}", line)


def _same(a: str, b: str) -> bool:
    return _SPACE.sub(" ", a).strip() == _SPACE.sub(" ", b).strip()


def _read_type(value: str | None, ctx: ReadContext, line: int, rid: str | None) -> tuple[str, str | None]:
    """``(CSL type, TY code)`` for a ``TY`` value; unknown codes read as ``document``."""
    if value is None:
        return "document", None
    code = value.strip().upper()
    if code in SPEC_TYPES:
        return TY_TO_CSL[code], code
    if code in ENDNOTE_TYPES:
        ctx.warn(f"TY {value!r} is EndNote's name for {ENDNOTE_TYPES[code]}; read as such", line, rid)
        return TY_TO_CSL[ENDNOTE_TYPES[code]], ENDNOTE_TYPES[code]
    ctx.warn(f"unknown TY {value!r} read as a generic document (kept as {TY_KEY})", line, rid)
    return "document", value.strip() or None


class _Builder:
    """Collects the tags of one record into canonical slots."""

    __slots__ = (
        "code", "ctx", "dates", "entries", "extra", "fields", "keywords", "names", "notes", "pages",
        "rid", "type", "urls", "warnings",
    )  # fmt: skip

    def __init__(self, ctx: ReadContext, csl_type: str, code: str | None, entries: list[list[Any]]) -> None:
        self.ctx, self.type, self.code = ctx, csl_type, code  # some tags depend on the TY
        self.entries = entries  # and some on the other tags given
        self.rid: str | None = None  # the first ID
        self.fields: dict[str, str] = {}
        self.names: dict[str, list[Name]] = {}
        self.dates: dict[str, list[tuple[str, str, int]]] = {}
        self.keywords: list[str] = []
        self.notes: list[str] = []
        self.urls: list[str] = []
        self.pages: dict[str, tuple[str, int]] = {}
        self.extra: dict[str, Any] = {}
        self.warnings: list[tuple[int, str]] = []

    def warn(self, message: str, line: int) -> None:
        self.warnings.append((line, message))

    def flush_warnings(self) -> None:
        for line, message in sorted(self.warnings, key=lambda w: w[0]):
            self.ctx.warn(message, line, self.rid)

    def keep(self, tag: str, value: str) -> None:
        key = f"ris:{tag}"
        old = self.extra.get(key)
        self.extra[key] = value if old is None else [*old, value] if isinstance(old, list) else [old, value]

    def repeated(self, tag: str, value: str, line: int, slot: str) -> None:
        self.warn(f"{tag} {value[:40]!r}: {slot} is already set; value kept as ris:{tag}", line)
        self.keep(tag, value)

    def put(self, tag: str, targets: tuple[str, ...], value: str, line: int) -> None:
        for target in targets:
            text = value if target in VERBATIM_VARS else escape_markup(value)
            old = self.fields.get(target)
            if old is None:
                self.fields[target] = text
                return
            if _same(old, text):
                return
        self.repeated(tag, value, line, targets[-1])

    def add(self, tag: str, value: str, line: int) -> None:
        spec = TAGS.get(tag)
        if spec is None or spec.kind == "extra":
            if spec is None and tag not in EXTRA_TAGS:
                self.warn(f"unknown tag {tag} kept as ris:{tag}", line)
            self.keep(tag, value)
        elif spec.kind == "field":
            targets = (
                read_targets(tag, self.code, _given(self.entries)) if tag in CONTEXT_TAGS else spec.targets
            )
            self.put(tag, targets, value, line)
        elif spec.kind == "booktitle":
            self.put(tag, ("title",) if self.type == "book" else spec.targets, value, line)
        elif spec.kind == "name":
            self.names.setdefault(spec.target, []).append(parse_ris_name(value))
        elif spec.kind in ("date", "year"):
            self.dates.setdefault(spec.target, []).append((tag, value, line))
        elif spec.kind == "keyword":
            self.keywords.extend(escape_markup(k.strip()) for k in value.split("\n") if k.strip())
        elif spec.kind == "note":
            self.notes.append(value)
        elif spec.kind == "url":
            self.urls.extend(u for part in value.split("\n") for u in _URL_SPLIT.split(part.strip()) if u)
        elif spec.kind == "doi":
            self.put(tag, spec.targets, _DOI_PREFIX.sub("", value).strip(), line)
        elif spec.kind == "sn":
            self.put(tag, (sn_slot(value, self.type),), value, line)
        elif spec.kind == "id":
            if self.rid is None:
                self.rid = value
            else:
                self.repeated(tag, value, line, "the record id")
        elif tag in self.pages:
            self.repeated(tag, value, line, "the page range")
        else:
            self.pages[tag] = (value, line)

    def finish_pages(self) -> None:
        start, end = self.pages.get("SP"), self.pages.get("EP")
        if start and end and not re.search(r"[-–—]", start[0]):
            self.fields.setdefault("page", f"{start[0]}-{end[0]}")
        elif start:
            self.fields.setdefault("page", start[0])
            if end:
                self.keep("EP", end[0])
        elif end:
            self.keep("EP", end[0])

    def finish_dates(self) -> dict[str, Date]:
        """One date per variable from its tags; readings that disagree are kept in ``extra``."""
        dates: dict[str, Date] = {}
        info: dict[str, str] = {}
        for var, items in self.dates.items():
            best: _Reading | None = None
            left: list[_Reading] = []
            for tag, value, line in sorted(items, key=lambda item: _DATE_PRECEDENCE.get(item[0], 9)):
                date, other = parse_date(value)
                if date.literal is not None:
                    self.warn(f"{tag} {value!r} is not a date bibconv can read; kept as text", line)
                reading = _Reading(date, other, tag, value, line)
                if not date.parts and date.literal is None:
                    continue
                if best is None:
                    best = reading
                elif _compatible(best, reading):
                    parts = max(best.date.parts, date.parts, key=lambda p: len(p[0]))
                    merged = Date(parts=parts, season=best.date.season or date.season)
                    best = reading._replace(date=merged, info=best.info or other)
                elif best.date.literal is not None and date.parts:
                    left.append(best)
                    best = reading
                else:
                    left.append(reading)
            for reading in sorted(left, key=lambda r: r.line):
                self.repeated(reading.tag, reading.value, reading.line, var)
            if best is not None:
                dates[var] = best.date
                if best.info:
                    info[var] = best.info
        if info:
            self.extra[DATE_INFO_KEY] = info
        return dates


class _Reading(NamedTuple):
    """One date tag, read."""

    date: Date
    info: str | None
    tag: str
    value: str
    line: int


def _compatible(a: _Reading, b: _Reading) -> bool:
    """Whether two readings of one date agree (one is a less precise form of the other)."""
    if not a.date.parts or not b.date.parts:
        return False
    pa, pb = a.date.parts[0], b.date.parts[0]
    n = min(len(pa), len(pb))
    if pa[:n] != pb[:n]:
        return False
    sa, sb = a.date.season, b.date.season
    if sa and sb and sa.casefold() != sb.casefold():
        return False
    return not (a.info and b.info and a.info != b.info)


def _arxiv_from_notes(notes: list[str]) -> tuple[Arxiv | None, list[str]]:
    """The arXiv block of ``N1`` notes (``arXiv:<id>v<n> [<primary>]`` and labelled lines), and the rest."""
    arxiv: Arxiv | None = None
    rest: list[str] = []
    for note in notes:
        match = _ARXIV_ID_NOTE.fullmatch(note) if arxiv is None else None
        parsed = parse_arxiv_id(match[1]) if match else None
        if match and parsed and match[1].lower() in (parsed[0].lower(), f"{parsed[0]}v{parsed[1]}".lower()):
            arxiv = Arxiv(id=parsed[0], version=parsed[1], primary_class=match[2])
        else:
            rest.append(note)
    return arxiv, rest


def _arxiv_labels(arxiv: Arxiv, notes: list[str]) -> tuple[Arxiv, list[str]]:
    """Fill ``arxiv`` from labelled notes (``arXiv categories: …``, Zotero's ``Comment: …``)."""
    changes: dict[str, Any] = {}
    rest: list[str] = []
    for note in notes:
        match = _ARXIV_LABEL.fullmatch(note)
        label = (match[1] or match[2]).lower() if match else ""
        key = _LABELS.get(label)
        if match is None or key is None or key in changes:
            rest.append(note)
            continue
        value = match[3].strip()
        if key == "categories":
            changes[key] = tuple(c for c in re.split(r"[\s,]+", value) if c)
        elif key in ("submitted", "updated"):
            changes[key] = Date.from_edtf(value)
        else:
            changes[key] = value
    return replace(arxiv, **changes), rest


_LABELS = {
    "categories": "categories",
    "submitted": "submitted",
    "updated": "updated",
    "comment": "comment",
    "journal reference": "journal_ref",
}


def _own_note(note: str) -> bool:
    """Whether an ``N1`` note is one bibconv wrote (:data:`bibconv.facts.OWN_NOTES`), not the user's."""
    return note.startswith(facts.RIS_PREFIX) and note[len(facts.RIS_PREFIX) :].strip() in facts.OWN_NOTES


_ARXIV_PLACES = frozenset(
    {"archive_location", "archive", "source", "DOI", "URL", "container-title", "number"}
)
"""The fields :func:`_find_arxiv` looks into for an arXiv id, besides the notes."""


def _find_arxiv(fields: dict[str, str], notes: list[str]) -> tuple[Arxiv | None, list[str]]:
    """The record's arXiv block: from notes, an ``AN``, an arXiv DOI, an abs URL or a journal title."""
    arxiv, notes = _arxiv_from_notes(notes)
    location = fields.get("archive_location", "")
    in_arxiv = "arxiv" in (fields.get("archive", "").casefold(), fields.get("source", "").casefold())
    candidates = (  # (text, whether a bare id counts)
        (location, in_arxiv),
        (fields.get("DOI", ""), False),
        (fields.get("URL", ""), False),
        (fields.get("container-title", ""), False),
        (fields.get("number", ""), False),
    )
    for text, bare in candidates:
        if arxiv is not None:
            break
        parsed = parse_arxiv_id(text, bare=bare) if "arxiv" in text.lower() or bare else None
        if parsed:
            arxiv = Arxiv(id=parsed[0], version=parsed[1])
    if arxiv is None:
        return None, notes
    arxiv, notes = _arxiv_labels(arxiv, notes)
    return arxiv, notes


def _given(entries: list[list[Any]]) -> frozenset[str]:
    """The tags given a value."""
    return frozenset(tag for tag, value, _ in entries if value)


def build_record(entries: list[list[Any]], ctx: ReadContext, origin: SourceSpan | None = None) -> Record:
    """The canonical record for the ``[tag, value, line]`` entries of one RIS record, read at ``origin``.

    The values are stripped (as the reader gives them); an empty one counts as absent.
    """
    first = entries[0] if entries and entries[0][0] == "TY" else None
    code = first[1] if first is not None else None
    csl_type = TY_TO_CSL.get(code) if code else None  # a TY of the specification, as written
    if csl_type is None:
        rid = next((value for tag, value, _ in entries if tag == "ID" and value), None)
        csl_type, code = _read_type(code, ctx, first[2] if first is not None else 0, rid)
    builder = _Builder(ctx, csl_type, code, entries)
    for tag, value, line in entries:
        if value and tag != "TY":
            builder.add(tag, value, line)
    if builder.pages:
        builder.finish_pages()
    dates = builder.finish_dates() if builder.dates else _NONE
    if builder.warnings:
        builder.flush_warnings()
    fields = builder.fields
    if builder.urls:
        fields.setdefault("URL", builder.urls[0])
        for url in builder.urls[1:]:
            builder.keep("UR", url)
    arxiv, notes = None, builder.notes
    if notes or not fields.keys().isdisjoint(_ARXIV_PLACES):  # somewhere an arXiv id may be
        arxiv, notes = _find_arxiv(fields, notes)
    extra = builder.extra
    if notes:
        own = [note for note in notes if _own_note(note)]
        notes = [note for note in notes if not _own_note(note)]
        if notes:
            fields["note"] = escape_markup("\n".join(notes))
        for note in own:  # bibconv's own notes on the record
            facts.add(extra, note[len(facts.RIS_PREFIX) :].strip())
    if arxiv is not None:
        if reads_as_preprint(csl_type, code, fields):
            csl_type = "article"
        fields = without_implied(fields, arxiv, csl_type)
    if code is not None and CSL_TO_TY.get(csl_type) != code:
        extra = {TY_KEY: code, **extra}
    names = {var: tuple(n for n in people if n != _NO_NAME) for var, people in builder.names.items()}
    return Record(
        type=csl_type,
        id=builder.rid,
        fields=fields,
        names=names,
        dates=dates,
        keywords=builder.keywords,
        arxiv=arxiv,
        extra=extra or _NONE,
        origin=origin,
    )
