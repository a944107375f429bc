"""What a record keeps through RIS (:func:`project`), from the rows of :mod:`bibconv.formats.ris.table`.

RIS keeps the slots of the table's written rows: no markup (plain text), one line per value
(abstract paragraphs and note lines apart), names ``Last, First, Suffix`` (a dropping particle
joins the given names, a capitalised one the family), affiliations only as untied ``AD`` lines
(``extra["ris:AD"]``), ``issued`` without range end or circa, ``accessed``, page ranges as
``start-end``, the arXiv block in ``N1`` notes, ``ris:*`` extras; the type is what its ``TY``
reads back as. A ``BOOK``'s container-title without a series comes back as the series (``T2``),
an archive without a source as the source (``DB``): :func:`~bibconv.formats.ris.table.read_back_as`.
"""

from __future__ import annotations

from typing import Any

from bibconv import facts
from bibconv.csl import VERBATIM_VARS
from bibconv.formats.ris.table import (
    CSL_TO_TY,
    DATE_INFO_KEY,
    DATE_TAGS,
    FIELD_TAGS,
    NAME_TAGS,
    PAGE_RANGE,
    PREPRINT_TYPES,
    SPEC_TYPES,
    TY_KEY,
    TY_TO_CSL,
    extra_tag,
    format_date,
    one_line,
    parse_date,
    read_back_as,
    sn_slot,
)
from bibconv.formats.ris.types import reads_as_preprint
from bibconv.latex import escape_markup, strip_markup
from bibconv.model import Date, Name, Record
from bibconv.projection import arxiv_kept, names_kept
from bibconv.writing import writable

__all__ = ["project"]


def project(record: Record) -> Record:
    """``record`` as RIS holds it: what reading back what the RIS writer wrote gives."""
    record = writable(record)
    code = _ris_type(record)
    record_type = TY_TO_CSL[code]
    extra: dict[str, list[str]] = {}
    fields = _fields(record, record_type, extra)
    for name, read_as in read_back_as(fields, code).items():  # a tag that means another slot here
        fields[read_as] = fields.pop(name)
    if record.arxiv is not None and reads_as_preprint(record_type, code, fields):
        record_type = "article"  # a generic record or a journal article without journal: a preprint
    people = [n for var in NAME_TAGS for n in record.names.get(var, ())]
    addresses = list(dict.fromkeys(a for n in people for a in map(one_line, n.affiliation) if a))
    if addresses:
        extra["ris:AD"] = addresses  # AD lines, tied to no one
    for key, value in record.extra.items():  # tags without a slot, written back after the others
        if extra_tag(key) is not None:
            for item in value if isinstance(value, list) else [value]:
                text = one_line(str(item))
                if text and not (key == "ris:AD" and text in addresses):
                    extra.setdefault(key, []).append(text)
    kept: dict[str, Any] = {key: v[0] if len(v) == 1 else v for key, v in extra.items()}
    for note in facts.notes(record.extra):  # N1 lines starting with "bibconv:"
        if one_line(note):
            facts.add(kept, one_line(note))
    if CSL_TO_TY[record_type] != code:
        kept[TY_KEY] = code
    return record.replace(
        type=record_type,
        id=one_line(record.id or "") or None,
        fields=fields,
        names=names_kept(record, NAME_TAGS, _ris_name),
        dates=_dates(record, kept),
        keywords=tuple(escape_markup(k) for k in (one_line(strip_markup(k)) for k in record.keywords) if k),
        arxiv=arxiv_kept(record.arxiv, _ris_text),
        extra=kept,
    )


def _fields(record: Record, record_type: str, extra: dict[str, list[str]]) -> dict[str, str]:
    """The fields with a tag, as plain text on one line (a second ``SN`` value goes to ``extra``)."""
    fields: dict[str, str] = {}
    for var, value in record.fields.items():
        if var not in FIELD_TAGS and var not in ("page", "note"):
            continue
        text = value if var in VERBATIM_VARS else strip_markup(value)
        if var in ("note", "abstract"):  # note lines, abstract paragraphs
            text = "\n".join(one_line(line) for line in text.splitlines() if line.strip())
        else:
            text = one_line(text)
        if var == "page" and (pages := PAGE_RANGE.fullmatch(text)):
            text = f"{pages[1]}-{pages[2]}"
        if var in ("ISSN", "ISBN"):  # both are SN: the reader tells them apart by their shape
            var = sn_slot(text, record_type)
            if var in fields:
                extra.setdefault("ris:SN", []).append(text)
                continue
        if text:
            fields[var] = text if var in VERBATIM_VARS else escape_markup(text)
    return fields


def _dates(record: Record, kept: dict[str, Any]) -> dict[str, Date]:
    """``issued`` and the dates with a tag, as their tags read back (other text in ``kept``)."""
    info = record.extra.get(DATE_INFO_KEY)
    dates: dict[str, Date] = {}
    for var, date in record.dates.items():
        if var == "issued" or var in DATE_TAGS:
            other = info.get(var) if isinstance(info, dict) else None
            dates[var], other = _ris_date(date, other)
            if other:
                kept.setdefault(DATE_INFO_KEY, {})[var] = other
    return {var: date for var, date in dates.items() if date != Date()}


def _ris_type(record: Record) -> str:
    """The ``TY`` written: the one read (``extra["ris:TY"]``) while it fits the type, ``UNPB`` for a
    preprint, else the type's own."""
    kept = record.extra.get(TY_KEY)
    preprint = record.arxiv is not None and record.type == "article"
    if kept in SPEC_TYPES and (TY_TO_CSL[kept] == record.type or (preprint and kept in PREPRINT_TYPES)):
        return str(kept)
    return "UNPB" if preprint else CSL_TO_TY[record.type]


def _ris_name(name: Name) -> Name | None:
    """``Last, First, Suffix`` read back: a dropping particle joins the given names, a particle that
    is not lowercase the family; a literal holding a comma reads as a personal name."""
    from bibconv.formats.ris.names import format_ris_name, parse_ris_name

    text = one_line(format_ris_name(name))
    return parse_ris_name(text if name.literal is not None or "," in text else text + ",")


def _ris_date(date: Date, info: str | None) -> tuple[Date, str | None]:
    """``YYYY/MM/DD/other`` read back: the first date of a range; a season, else other text, in
    ``other``; a literal date as ``///text``."""
    if len(date.parts) > 1:
        date = Date(parts=date.parts[:1], season=date.season)
    year, full = format_date(date, info)
    found = [parse_date(one_line(text)) for text in (year, full) if text]
    if not found:
        return Date(), None
    best, other = found[-1]
    return (Date(parts=best.parts, season=best.season) if best.parts else best), other


def _ris_text(text: str | None) -> str | None:
    return (one_line(text) or None) if text else None
