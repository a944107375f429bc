"""The RIS writer: each record as tag lines, ``TY`` first and ``ER`` last, CRLF (the rules, and what
RIS cannot hold, are in :mod:`bibconv.formats.ris`'s docstring); :class:`Projector` makes a record's
``(tag, value)`` lines and reports once per kind what RIS cannot hold.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import ClassVar, cast

from bibconv import facts
from bibconv.arxiv import implied_fields
from bibconv.csl import VERBATIM_VARS
from bibconv.errors import WriteError
from bibconv.formats.ris.names import format_ris_name
from bibconv.formats.ris.table import (
    CSL_TO_TY,
    DATE_INFO_KEY,
    DATE_TAGS,
    FIELD_TAGS,
    LOSSY_TYPES,
    NAME_TAGS,
    PAGE_RANGE,
    PREPRINT_TYPES,
    SPEC_TYPES,
    TAG_ORDER,
    TY_KEY,
    TY_TO_CSL,
    extra_tag,
    format_date,
    one_line,
    read_back_as,
    write_tag,
)
from bibconv.latex import strip_markup
from bibconv.memo import ROOM
from bibconv.model import Date, Name, Record
from bibconv.patterns import lazy
from bibconv.registry import EntryWriter, WriteContext, register
from bibconv.subtitles import HELD

__all__ = ["Projector", "RisWriter"]

_TAG_RANK = {tag: rank for rank, tag in enumerate(TAG_ORDER)}


_FORMATTING = lazy(r"<(?:i|b|sup|sub|sc)>|<span style=")
"""CSL markup that shows (italics, bold, super- and subscripts, small caps), not a ``nocase`` span."""
_CONTINUATION = "\r\n  "  # a line break inside a value (an abstract's paragraphs): the next line continues it


@lru_cache(maxsize=ROOM)
def _name_text(name: Name) -> str:
    """An ``AU`` value; a person's name keeps a comma ("Plato," is a family name, "Plato" a literal)."""
    text = one_line(format_ris_name(name))
    return text + "," if name.literal is None and "," not in text else text


class Projector:
    """Turns records into ``(tag, value)`` lines, reporting what RIS cannot hold once per kind."""

    def __init__(self, ctx: WriteContext) -> None:
        self.ctx = ctx
        preprint = str(ctx.option("preprint_type") or "UNPB").upper()
        if preprint not in SPEC_TYPES:
            raise WriteError(f"preprint_type {preprint!r} is not a RIS type (try UNPB, GEN or JOUR)")
        self.preprint_type = preprint

    def _warn(self, key: str, message: str, record: Record) -> None:
        self.ctx.warn_once(key, message, record.id)

    def _type(self, record: Record) -> str:
        kept = record.extra.get(TY_KEY)
        preprint = record.type == "article" and record.arxiv is not None
        if isinstance(kept, str) and kept in SPEC_TYPES:
            if TY_TO_CSL[kept] == record.type or (preprint and kept in PREPRINT_TYPES):
                return kept
        elif isinstance(kept, str):
            self._warn(f"TY:{kept}", f"TY {kept!r} is not a RIS type; written as GEN", record)
        if preprint:
            return self.preprint_type
        if record.type in LOSSY_TYPES:
            ty = CSL_TO_TY[record.type]
            self._warn(f"type:{record.type}", f"RIS has no type for {record.type!r}; written as {ty}", record)
        return CSL_TO_TY.get(record.type, "GEN")

    def lines(self, record: Record) -> list[tuple[str, str]]:
        """The tag lines of ``record`` without the closing ``ER``."""
        out: defaultdict[str, list[str]] = defaultdict(list)
        out["TY"].append(self._type(record))
        if record.id:
            out["ID"].append(one_line(record.id))
        if record.names:  # each part only where the record has some (most have few)
            self._names(record, out)
        if record.dates:
            self._dates(record, out)
        fields = dict(record.fields)
        arxiv_notes = self._arxiv(record, fields, out) if record.arxiv is not None else []
        self._fields(record, fields, out)
        if record.keywords:
            out["KW"].extend(one_line(strip_markup(k)) for k in record.keywords)
        if arxiv_notes:
            out["N1"].extend(arxiv_notes)
        if record.extra and (notes := facts.notes(record.extra)):
            out["N1"].extend(facts.RIS_PREFIX + one_line(note) for note in notes)
        tags = sorted((tag for tag in out if tag in _TAG_RANK), key=_TAG_RANK.__getitem__)  # in TAG_ORDER
        lines = [(tag, value) for tag in tags for value in out[tag] if value]
        if record.extra:
            lines.extend(self._extra(record, set(out.get("AD", ()))))
        return lines

    def _names(self, record: Record, out: dict[str, list[str]]) -> None:
        order = list(NAME_TAGS)  # AD lines follow the AU, A2… order, whatever the record's order
        for var, people in sorted(
            record.names.items(), key=lambda i: order.index(i[0]) if i[0] in order else 9
        ):
            tag = NAME_TAGS.get(var)
            if tag is None:
                self._warn(f"name:{var}", f"RIS has no tag for {var!r} names; dropped", record)
                continue
            for name in people:
                text = _name_text(name)  # names repeat across a file
                if name.literal is not None and "," in text:
                    self._warn(
                        "literal-comma", f"the name {text!r} has a comma; RIS readers split it", record
                    )
                if name.dropping_particle:
                    self._warn(
                        "dropping", "RIS names have no dropping particle; it joins the given name", record
                    )
                out[tag].append(text)
                for place in name.affiliation:
                    if one_line(place) not in out["AD"]:
                        out["AD"].append(one_line(place))
                if name.affiliation:
                    self._warn(
                        "affiliation", "affiliations written as AD lines, not tied to one author", record
                    )

    def _dates(self, record: Record, out: dict[str, list[str]]) -> None:
        info = record.extra.get(DATE_INFO_KEY) or {}
        for var, date in record.dates.items():
            tag = DATE_TAGS.get(var)
            if var != "issued" and tag is None:
                self._warn(f"date:{var}", f"RIS has no tag for the {var!r} date; dropped", record)
                continue
            if len(date.parts) > 1:
                self._warn(
                    f"range:{var}", f"RIS dates cannot be ranges; the end of {var!r} is dropped", record
                )
                date = Date(parts=date.parts[:1], season=date.season)
            year, full = format_date(date, info.get(var) if isinstance(info, dict) else None)
            if tag is not None:
                out[tag].append(one_line(full or year or ""))
            else:
                out["PY"].append(year or "")
                out["DA"].append(one_line(full or ""))

    def _arxiv(self, record: Record, fields: dict[str, str], out: dict[str, list[str]]) -> list[str]:
        arxiv = record.arxiv
        assert arxiv is not None
        for key, value in implied_fields(arxiv, record.type).items():
            if key != "number":
                fields.setdefault(key, value)
        notes = [f"arXiv:{arxiv.versioned_id}" + (f" [{arxiv.primary_class}]" if arxiv.primary_class else "")]
        if arxiv.categories:
            notes.append("arXiv categories: " + " ".join(arxiv.categories))
        for label, date in (("submitted", arxiv.submitted), ("updated", arxiv.updated)):
            if date is not None and (date.to_edtf() or date.literal):
                notes.append(f"arXiv {label}: {date.to_edtf() or date.literal}")
        if arxiv.comment:
            notes.append("arXiv comment: " + one_line(arxiv.comment))  # plain text, not rich text
        if arxiv.journal_ref:
            notes.append("arXiv journal reference: " + one_line(arxiv.journal_ref))
        return notes

    def _fields(self, record: Record, fields: dict[str, str], out: dict[str, list[str]]) -> None:
        code = out["TY"][0]
        for name, read_as in read_back_as(fields, code).items():
            tag = write_tag(name, code, fields)
            message = f"{name!r} is written as {tag}, which RIS reads as {read_as!r}"
            self._warn(f"read-as:{name}", message, record)
        for name, value in fields.items():
            text = value if name in VERBATIM_VARS else strip_markup(value)
            if "<" in value and _FORMATTING.search(value):
                self._warn(
                    f"markup:{name}",
                    f"RIS text is plain: the markup of {name!r} (<i>, <b>, <sup>…) dropped",
                    record,
                )
            if name == "page":
                match = PAGE_RANGE.fullmatch(text)
                out["SP"].append(one_line(match[1] if match else text))
                if match:
                    out["EP"].append(match[2])
            elif name == "note":
                out["N1"].extend(one_line(line) for line in text.splitlines() if line.strip())
            elif name == "abstract":  # paragraphs on continuation lines (see the module docstring)
                out["AB"].append("\n".join(one_line(line) for line in text.splitlines() if line.strip()))
            elif name in FIELD_TAGS:
                out[write_tag(name, code, fields)].append(one_line(text))
            else:
                self._warn(f"field:{name}", f"RIS has no tag for {name!r}; dropped", record)

    def _extra(self, record: Record, addresses: set[str]) -> list[tuple[str, str]]:
        lines: list[tuple[str, str]] = []
        for key, value in record.extra.items():
            if key in (TY_KEY, DATE_INFO_KEY, facts.NOTE_KEY):
                continue
            tag = extra_tag(key)
            if tag is None and HELD.get(key) in record.fields:
                continue  # the title or the publisher holds it
            if tag is None:
                self._warn(f"extra:{key}", f"RIS cannot hold {key!r}; dropped", record)
                continue
            for item in value if isinstance(value, list) else [value]:
                text = one_line(str(item))
                if text and not (tag == "AD" and text in addresses):
                    lines.append((tag, text))
        return lines


@register
class RisWriter(EntryWriter):
    """Writes spec-clean RIS: TY first, ER last, CRLF, UTF-8 (see the module docstring)."""

    name: ClassVar[str] = "ris"
    extensions: ClassVar[tuple[str, ...]] = (".ris",)
    description: ClassVar[str] = "RIS (EndNote, Zotero, Mendeley, RefWorks, publishers)"

    @staticmethod
    def _lines_of(ctx: WriteContext) -> Projector:
        """The projector for ``ctx`` (made once per output: it reads the options)."""
        projector = ctx.state.get("ris:projector")
        if projector is None:
            projector = ctx.state["ris:projector"] = Projector(ctx)
        return cast(Projector, projector)

    def header(self, ctx: WriteContext) -> str:
        self._lines_of(ctx)  # a bad preprint_type is refused before any record
        return ""

    def entry(self, record: Record, ctx: WriteContext) -> str:
        lines = [
            f"{tag}  - " + (value.replace("\n", _CONTINUATION) if "\n" in value else value) + "\r\n"
            for tag, value in self._lines_of(ctx).lines(record)
        ]
        lines.append("ER  - \r\n\r\n")
        return "".join(lines)

    @staticmethod
    def project(record: Record) -> Record:
        """What ``record`` reads back as from this output (:mod:`~bibconv.formats.ris.project`)."""
        from bibconv.formats.ris.project import project

        return project(record)
