r"""One BibTeX entry (resolved TeX field values) → one canonical record.

Each field is read through its row of :data:`~bibconv.formats.bibtex.table.ROWS`. Names are split on the
raw TeX, then decoded (:mod:`bibconv.formats.bibtex.names`); other values are read by their row's kind
(:mod:`~bibconv.formats.bibtex.read_values`: rich text, plain text, identifiers taken verbatim, titles);
the dates from ``date`` or ``year``/``month``/``day``. The arXiv block is filled from every spelling real
files use (:mod:`~bibconv.formats.bibtex.read_arxiv`); the fields that only repeat it (``archivePrefix``,
``journal = {arXiv preprint arXiv:…}``, the arXiv DOI and abs URL, ``publisher = {arXiv}``) are
consumed, so they are not kept twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from bibconv import csl, facts, latex
from bibconv.arxiv import without_implied
from bibconv.formats.bibtex import bibstrings
from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.names import split_bibtex_names
from bibconv.formats.bibtex.read_arxiv import PREPRINT_TYPES, arxiv_block, may_be_arxiv
from bibconv.formats.bibtex.read_values import (
    affiliations,
    decode,
    plain,
    subtitle_text,
    unbrace,
    unprotect,
    unread_commands,
    value,
    verbatim,
)
from bibconv.formats.bibtex.spellings import standard_fields
from bibconv.formats.bibtex.syntax import NEWLINES_RE
from bibconv.model import Date, Name, Record
from bibconv.patterns import lazy
from bibconv.registry import ReadContext
from bibconv.subtitles import Part, join, publisher_fields, title_parts

__all__ = [
    "PREPRINT_TYPES",
    "build_record",
    "decode",
    "publisher_from",
    "subtitle_text",
    "unbrace",
    "unprotect",
    "verbatim",
]


_YEAR_RE = lazy(r"^\s*(-?\d{1,4})\s*$")
_YEAR_RANGE_RE = lazy(r"^\s*(\d{4})\s*(?:--?|–|/)\s*(\d{4})\s*$")
_MONTH_WORD_RE = lazy(r"[A-Za-z]+")
_DAY_RE = lazy(r"\b(\d{1,2})\b")
_KEYWORD_SPLIT_RE = lazy(r"(?:(?<!\s)\s++)?[,;]\s*")  # spaces taken from their start only
# bibconv's own ``csl-<variable>`` fields: lower-case name (as fields are read) → CSL variable.
_CSL_VARS = {v.lower(): v for v in (*csl.TEXT_VARS, *csl.NUMBER_VARS, *csl.NAME_VARS, *csl.DATE_VARS)}
_WEB = ("http://", "https://", "ftp://", "www.")


def _month(text: str) -> tuple[int | None, int | None]:
    """(month, day) from a month value: ``4``, ``apr``, ``April``, ``10~January``."""
    plain = latex.decode(text, markup=False).strip().lower() if latex.has_tex(text) else text.strip().lower()
    if plain.isdigit():
        number = int(plain)
        return (number, None) if 1 <= number <= 12 else (None, None)
    words = [w for w in _MONTH_WORD_RE.findall(plain) if w[:3] in m.MONTHS]
    if len(words) != 1:
        return None, None
    day = _DAY_RE.search(plain)
    return m.MONTHS.index(words[0][:3]) + 1, int(day[1]) if day else None


def _issued(fields: dict[str, str], used: set[str], extra: dict[str, object]) -> Date | None:
    if "date" in fields:
        used.add("date")
        date = Date.from_edtf(verbatim(fields["date"]))
        for name, value in (("year", date.year), ("month", date.month), ("day", date.day)):
            if name in fields:
                used.add(name)
                text = fields[name].strip()
                found = _month(text)[0] if name == "month" else int(text) if _YEAR_RE.match(text) else None
                if found is None or found != value:
                    extra[f"bibtex:{name}"] = fields[name]
        return date
    if "year" not in fields:
        for name in ("month", "day"):
            if name in fields:
                used.add(name)
                extra[f"bibtex:{name}"] = fields[name]
        return None
    used.update(f for f in ("year", "month", "day") if f in fields)
    year = fields["year"]
    text = plain(year) if "{" in year or "\\" in year else year  # ``{}1973``, left by a sorting hint
    single = _YEAR_RE.match(text)
    span = _YEAR_RANGE_RE.match(text)
    if span:
        return Date(parts=((int(span[1]),), (int(span[2]),)))
    if not single:
        return Date(literal=latex.strip_markup(latex.decode(year)))
    parts = [int(single[1])]
    month, day = _month(fields["month"]) if "month" in fields else (None, None)
    if "day" in fields and fields["day"].strip().isdigit():
        day = int(fields["day"])
    elif "day" in fields:
        extra["bibtex:day"] = fields["day"]
    if "month" in fields and month is None:
        extra["bibtex:month"] = fields["month"]
    if month is not None:
        parts.append(month)
        if day is not None and 1 <= day <= 31:
            parts.append(day)
        elif "day" in fields and "bibtex:day" not in extra:
            extra["bibtex:day"] = fields["day"]
    elif "day" in fields and "bibtex:day" not in extra:
        extra["bibtex:day"] = fields["day"]
    return Date(parts=(tuple(parts),))


class _TypeFacts(NamedTuple):
    """What an entry type (as written) decides for every entry of that type."""

    entry: str  # lower case
    record_type: str
    known: bool
    plan: m.ReadPlan
    number_var: str
    kept_type: bool  # the type as written is not one a writer writes for its record type: kept
    title_parts: tuple[Part, ...]
    publishers: tuple[str, ...]


@lru_cache(maxsize=256)
def _type_facts(entry_type: str) -> _TypeFacts:
    entry = entry_type.strip().lower()
    record_type = m.csl_type(entry)
    written = (m.entry_type(record_type, "bibtex"), m.entry_type(record_type, "biblatex"))
    return _TypeFacts(
        entry,
        record_type,
        entry in m.TYPE_TO_CSL,
        m.read_plan(entry),
        m.NUMBER_BY_TYPE.get(record_type, "number"),
        entry_type not in written,
        title_parts(entry in m.JOURNAL_TYPES),
        publisher_fields(entry),
    )


def build_record(entry_type: str, key: str, fields: dict[str, str], line: int, ctx: ReadContext) -> Record:
    """The record for one entry; ``fields`` maps lower-case names to resolved TeX values."""
    of_type = _type_facts(entry_type)
    entry, record_type = of_type.entry, of_type.record_type
    fields = standard_fields(fields, entry)
    if not of_type.known:
        ctx.warn(f"unknown entry type @{entry_type} read as {record_type!r}", line, key or None)
    arxiv, used, preprint, classes = (
        arxiv_block(fields, entry) if may_be_arxiv(fields) else (None, set(), False, None)
    )
    number_var = of_type.number_var
    if preprint:
        record_type = "article"
        number_var = m.NUMBER_BY_TYPE.get(record_type, "number")
    got = _Read(ctx, line, key or None, {"bibtex:primaryclass": classes} if classes else {})
    if "date" in fields or "year" in fields or "month" in fields or "day" in fields:
        issued = _issued(fields, used, got.extra)
        if issued is not None:
            got.dates["issued"] = issued
    got.read_fields(fields, used, of_type.plan, number_var)
    _genre(got.fields, entry, record_type)
    for var in ("collection-title", "publisher-place"):  # biblatex's keys as the words it prints
        if var in got.fields:
            got.fields[var] = bibstrings.words(var, entry, got.fields[var])
    if got.extra:  # subtitles and publishers are kept there
        _join_subtitles(got.fields, got.extra, of_type.title_parts)
        if "publisher" not in got.fields:
            _publisher(got.fields, got.extra, of_type.publishers)
    out = without_implied(got.fields, arxiv, record_type) if arxiv is not None else got.fields
    if not preprint and of_type.kept_type:
        got.extra["bibtex:entrytype"] = entry_type
    return Record(
        type=record_type,
        id=key or None,
        fields=out,
        names=got.names,
        dates=got.dates,
        keywords=got.keywords,
        arxiv=arxiv,
        extra=got.extra,
        origin=ctx.span(line),
    )


def _genre(fields: dict[str, str], entry: str, record_type: str) -> None:
    """A thesis's or a report's genre: its ``type`` (a biblatex key such as ``mathesis`` as the words it
    prints), else what the entry type says (``@phdthesis``: "PhD thesis")."""
    genre = fields.get("genre")
    if genre is not None:
        fields["genre"] = m.TYPE_KEYS.get(genre.strip().lower(), genre)
    elif record_type in ("thesis", "report") and entry in m.IMPLIED_GENRES:
        fields["genre"] = m.IMPLIED_GENRES[entry]


def _join_subtitles(fields: dict[str, str], extra: dict[str, object], parts: tuple[Part, ...]) -> None:
    """``title`` (and a book's or journal's ``container-title``) with its subtitle and addon:
    ``Title: Subtitle. Addon`` (:mod:`bibconv.subtitles`, the ``parts`` of the entry's type); the
    fields stay in ``extra`` for the biblatex writer."""
    for part in parts:
        raw = extra.get(part.key)
        if isinstance(raw, str) and part.variable in fields:
            fields[part.variable] = join(fields[part.variable], subtitle_text(raw), part.punct)


def _publisher(fields: dict[str, str], extra: dict[str, object], keys: tuple[str, ...]) -> None:
    """An entry without a publisher is published by its ``organization`` or ``howpublished``
    (:func:`publisher_from`; ``keys``: the fields that may be, for the entry's type); the field stays in
    ``extra`` for the writers."""
    found = _publisher_in(extra, keys)
    if found is not None:
        fields["publisher"] = found[1]


def publisher_from(extra: Mapping[str, object], entry: str) -> tuple[str, str] | None:
    r"""The kept field that is the publisher of an entry (lower-case type) without one, first present
    first (:data:`bibconv.subtitles.PUBLISHERS`; a text that opens with a URL, ``\href{…}{https://…}``
    too, is not a publisher): its ``extra`` key and text."""
    return _publisher_in(extra, publisher_fields(entry))


def _publisher_in(extra: Mapping[str, object], keys: tuple[str, ...]) -> tuple[str, str] | None:
    for key in keys:
        raw = extra.get(key)
        if not isinstance(raw, str) or m.is_url(raw) or plain(raw).lstrip().lower().startswith(_WEB):
            continue
        if text := decode(raw):
            return key, text
    return None


class _Read:
    """What an entry's fields read as: variables, names, dates, keywords, and what is kept in extra."""

    __slots__ = ("ctx", "dates", "extra", "fields", "keywords", "line", "names", "rid")

    def __init__(self, ctx: ReadContext, line: int, rid: str | None, extra: dict[str, object]) -> None:
        self.ctx, self.line, self.rid, self.extra = ctx, line, rid, extra
        self.fields: dict[str, str] = {}
        self.names: dict[str, tuple[Name, ...]] = {}
        self.dates: dict[str, Date] = {}
        self.keywords: tuple[str, ...] = ()

    def warn(self, message: str) -> None:
        self.ctx.warn(message, self.line, self.rid)

    def read_fields(self, fields: dict[str, str], used: set[str], plan: m.ReadPlan, number_var: str) -> None:
        """Each field not ``used`` by its row (the first present of several wins), else kept in extra."""
        winners = plan.winners(fields) if plan.contested else {}
        affiliations: dict[str, str] = {}
        for name, raw in fields.items():
            if name in used:
                continue
            if name.endswith("affiliations") and name[:-12] in fields and _name_var(name[:-12]):
                affiliations[name] = raw
            elif name == "keywords":
                self.keywords = tuple(k for k in _KEYWORD_SPLIT_RE.split(decode(raw)) if k)
            elif name == facts.NOTE_FIELD:  # bibconv's own notes on the record
                self.extra[facts.NOTE_KEY] = plain(raw)
            elif not self.read_field(name, raw, plan.fields.get(name), winners, number_var):
                self.extra[f"bibtex:{name}"] = NEWLINES_RE.sub(" ", raw).strip() if "\n" in raw else raw
        for name, raw in affiliations.items():
            self.affiliate(name, raw)

    def read_field(
        self, name: str, raw: str, row: m.Row | None, winners: Mapping[str, str | None], number_var: str
    ) -> bool:
        """Read one field through its row (or as bibconv's ``csl-<variable>``); False: keep it in extra."""
        if row is None:
            own = _CSL_VARS.get(name[len(m.CSL_PREFIX) :]) if name.startswith(m.CSL_PREFIX) else None
            if own is None:
                return False
            kind: str = (
                "names" if own in csl.NAME_VARS else "date" if own in csl.DATE_VARS else m.own_kind(own)
            )
            if kind not in ("names", "date") and not csl.is_field(own):
                return False
            variable = own
        else:
            if row.variable in winners and winners[row.variable] != name:
                return False
            kind, variable = row.kind, number_var if row.variable == "number" else row.variable
        if kind == "names":
            if variable in self.names:
                return False
            self.names[variable] = tuple(split_bibtex_names(raw, warn=self.warn))
        elif kind == "date":
            if variable in self.dates:
                return False
            self.dates[variable] = Date.from_edtf(verbatim(raw))
        elif variable in self.fields:
            return False
        else:
            text = self.fields[variable] = value(kind, raw)
            if "\\" in text and kind != "verbatim":
                self.warn_unread(name, text)
        return True

    def warn_unread(self, name: str, text: str) -> None:
        """Say which commands of field ``name`` were read as text (they print as written elsewhere)."""
        for command in unread_commands(text):
            self.warn(f"{name}: {command} is not a command bibconv knows; read as text")

    def affiliate(self, name: str, raw: str) -> None:
        """``<name field>affiliations``: each person's affiliations, when the counts agree."""
        var = _name_var(name[:-12]) or ""
        people = self.names.get(var, ())
        per_person = affiliations(raw)
        if len(per_person) != len(people):
            self.warn(f"{name} lists {len(per_person)} persons, {var} {len(people)}; kept as bibtex:{name}")
            self.extra[f"bibtex:{name}"] = raw
            return
        self.names[var] = tuple(
            replace(p, affiliation=a) if a else p for p, a in zip(people, per_person, strict=True)
        )


def _name_var(field: str) -> str | None:
    """The CSL name variable a field holds: ``author`` → author, ``csl-director`` → director."""
    row = m.read_plan("").fields.get(field)
    if row is not None and row.kind == "names":
        return row.variable
    own = _CSL_VARS.get(field[len(m.CSL_PREFIX) :]) if field.startswith(m.CSL_PREFIX) else None
    return own if own in csl.NAME_VARS else None
