"""What each writer keeps: :func:`project` says, as code, what a record becomes in a target format.

``read(write(record, F), F) == project(record, F)`` for every writable format ``F``: the projection
removes or normalises what ``F`` cannot hold, and nothing else is lost. The writers' docstrings point
here; the README's table "What each format keeps" says the same in words.

* **csljson** keeps everything (``custom`` carries the arXiv block, affiliations and ``extra``). Text
  is CSL rich text, so literal text that spells a CSL tag or an HTML entity becomes one; keywords are
  one comma-separated ``keyword`` string.
* **bibtex**, **biblatex** keep every variable (those without a field of their own in
  ``csl-<variable>`` fields), names (a particle that is not lowercase joins the family in classic
  BibTeX, a dropping particle becomes BibTeX's ``von``), affiliations (``<field>affiliations``), the
  arXiv block (``eprint``… and ``arxiv*`` fields; a URL to the preprint is the block's own), dates
  (EDTF seasons ``2017-23``; a season beside a month or day is dropped, so is circa on a range),
  keywords (split at commas and semicolons), paragraphs of abstracts and notes only (other white
  space is TeX's), ``bibtex:*`` extras. Text is TeX: a ``nocase`` span protects only capitals. The
  record type is what the entry type reads back as (classic BibTeX writes many types as ``@misc``).
* **ris** keeps the tags of :mod:`bibconv.formats.ris.table`: no markup (plain text), one line per
  value (abstract paragraphs and note lines apart), names ``Last, First, Suffix`` (a dropping
  particle joins the given names, a capitalised one the family), affiliations only as untied ``AD``
  lines (``extra["ris:AD"]``), ``issued`` without range end or circa, ``accessed``, page ranges as
  ``start-end``, the arXiv block in ``N1`` notes, ``ris:*`` extras; the type is what its ``TY``
  reads back as.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from bibconv.arxiv import parse_arxiv_id, without_implied
from bibconv.model import Arxiv, Date, Name, Record

__all__ = ["FORMATS", "project"]

FORMATS = ("csljson", "bibtex", "biblatex", "ris")
"""The formats bibconv writes, in the order the chains of conversions go through them."""

_SPACES = re.compile(r"[ \t\r\n\f\v]+")
_BREAKS = re.compile(r"\s*[\r\n\u2028\u2029\x85\x0b\x0c]+\s*")
_RIS_PAGES = re.compile(r"\s*([^\s,–—-]+)\s*(?:-{1,3}|[–—])\s*([^\s,–—-]+)\s*")
_NOCASE = re.compile(r'<span class="nocase">((?:(?!<span)[^<]|<(?!/?span)[^>]*>)*?)</span>')
_RIS_TAG = re.compile(r"[A-Z][A-Z0-9]")
_RIS_PREPRINT = {"UNPB", "GEN", "JOUR", "EJOUR"}


def project(record: Record, format: str) -> Record:
    """``record`` as ``format`` holds it: what reading back what the ``format`` writer wrote gives."""
    from bibconv.keys import make_key

    if record.id is None and format != "ris":  # RIS records need no key
        record = record.replace(id=make_key(record))
    if format == "csljson":
        return _implied(_csljson(record))
    if format in ("bibtex", "biblatex"):
        return _implied(_bibtex(record, format))
    if format == "ris":
        return _implied(_ris(record))
    raise ValueError(f"no projection for {format!r}; formats: {', '.join(FORMATS)}")


def _implied(record: Record) -> Record:
    """Fields that only repeat the arXiv block (its DOI, abs URL, ``arXiv:<id>`` number) are dropped."""
    if record.arxiv is None:
        return record
    return record.replace(fields=without_implied(dict(record.fields), record.arxiv, record.type))


def _squash(text: str) -> str:
    """White space as TeX reads it: runs become one space, the ends are trimmed."""
    return _SPACES.sub(" ", text).strip(" ")


def _one_line(text: str) -> str:
    return _BREAKS.sub(" ", text).strip()


def _names(record: Record, keep: Iterable[str], name: Callable[[Name], Name | None]) -> dict[str, Any]:
    out: dict[str, tuple[Name, ...]] = {}
    for var, people in record.names.items():
        if var in keep:
            kept = tuple(n for n in map(name, people) if n is not None and n != Name())
            if kept:
                out[var] = kept
    return out


# --- CSL-JSON ---------------------------------------------------------------------------------


def _csljson(record: Record) -> Record:
    from bibconv.csl import VERBATIM_VARS
    from bibconv.formats.csljson import rich_from_csl, rich_to_csl

    def rich(text: str) -> str:
        return rich_from_csl(rich_to_csl(text))

    fields = {k: v if k in VERBATIM_VARS else rich(v) for k, v in record.fields.items() if v != ""}
    keywords = [k.strip() for kw in record.keywords for k in rich_to_csl(kw).split(",")]
    extra = {k[4:] if k.startswith("csl:") else k: v for k, v in record.extra.items() if k != "csl:id"}
    extra = {k if ":" in k else f"csl:{k}": v for k, v in extra.items()}
    if "csl:id" in record.extra:
        extra["csl:id"] = record.extra["csl:id"]
    return record.replace(
        fields=fields,
        names={var: tuple(map(_csl_name, people)) for var, people in record.names.items()},
        keywords=tuple(rich_from_csl(k) for k in keywords if k),
        extra=extra,
    )


def _csl_name(name: Name) -> Name:
    return replace(Name.from_csl(name.to_csl()), affiliation=name.affiliation)


# --- BibTeX and biblatex -----------------------------------------------------------------------


def _bibtex(record: Record, dialect: str) -> Record:
    from bibconv.formats.bibtex import table as m
    from bibconv.formats.bibtex.fields import unprotect
    from bibconv.formats.bibtex.write import entry_type_for, read_type

    written = entry_type_for(record, dialect)
    entry = written.lower()
    record_type = read_type(record, entry)
    preprint = record.arxiv is not None and record_type == "article"
    rows = m.writes_for(dialect, entry)
    fields: dict[str, str] = {}
    for var, value in record.fields.items():  # every variable has a field (``csl-<variable>`` at least)
        row = None if var in m.NUMBER_VARIABLES else rows.get(var)
        kind = row.kind if row is not None else m.own_kind(var)
        if kind == "verbatim":
            fields[var] = value.strip()
        elif kind == "plain":
            fields[var] = _squash(value)
        elif kind == "title":  # a one-word nocase the writer's case protection adds anyway
            fields[var] = unprotect(_tex(value))
        elif kind == "paragraphs":  # paragraphs are kept (``\par``)
            fields[var] = "\n".join(p for p in map(_tex, value.split("\n")) if p)
        else:
            fields[var] = _tex(value)
        if not fields[var]:
            del fields[var]
    if preprint and str(fields.get("status", "")).lower() in ("prepublished", "preprint"):
        del fields["status"]  # pubstate = {prepublished} only says "preprint"
    arxiv = record.arxiv
    found = parse_arxiv_id(fields.get("URL", ""), bare=False) if arxiv is not None else None
    if arxiv is not None and found and found[0] == arxiv.id and found[1] in (None, arxiv.version or found[1]):
        del fields["URL"]  # a link to the preprint (abs page or PDF) is the block's own
        arxiv = replace(arxiv, version=arxiv.version or found[1])  # and may name its version
    extra = {
        k: _squash(str(v))
        for k, v in record.extra.items()
        if k.startswith("bibtex:")
        and k not in m.RESERVED_EXTRAS
        and m.extra_field_ok(k[7:])
        and isinstance(v, (str, int, float))
        and k[7:] not in m.ARXIV_FIELDS
    }
    if not preprint and written not in (
        m.entry_type(record_type, "bibtex"),
        m.entry_type(record_type, "biblatex"),
    ):
        extra["bibtex:entrytype"] = (
            written  # as written (``@Article``): the reader keeps what it would not write
        )
    return record.replace(
        type=record_type,
        id=m.safe_key(record.id or ""),
        fields=fields,
        names=_names(record, record.names, lambda n: _bibtex_name(n, dialect)),
        dates=_bibtex_dates(record),
        keywords=tuple(k for kw in record.keywords for k in map(_tex, re.split(r"[,;]", kw)) if k),
        arxiv=_arxiv_kept(arxiv, _plain),
        extra=extra,
    )


def _tex(text: str) -> str:
    """Rich text through TeX: white space squashed, ``nocase`` only where there are capitals to keep
    (a brace group around lowercase text protects nothing, so it reads back as plain text)."""
    text = _squash(text)
    while True:
        changed = _NOCASE.sub(lambda m: m[0] if any(c.isupper() for c in m[1]) else m[1], text)
        if changed == text:
            return text
        text = changed


def _plain(text: str | None) -> str | None:
    return _squash(text) or None if text is not None else None


def _bibtex_name(name: Name, dialect: str) -> Name:
    affiliation = tuple(a for a in map(_plain, name.affiliation) if a)
    if name.literal is not None:
        return Name(literal=_plain(name.literal), affiliation=affiliation)
    particle = name.non_dropping_particle or name.dropping_particle
    lowercase = bool(particle) and all(w[:1].isalpha() and w[:1].islower() for w in (particle or "").split())
    if dialect == "biblatex" and (name.dropping_particle or (particle and not lowercase)):
        return replace(name, affiliation=affiliation)  # biblatex's extended name form holds it all
    if particle and not lowercase:
        name = replace(name, family=f"{particle} {name.family or ''}".strip(), non_dropping_particle=None)
    elif particle:
        name = replace(name, non_dropping_particle=particle)
    return replace(name, dropping_particle=None, affiliation=affiliation)


def _edtf(date: Date) -> Date:
    """A date written as EDTF and read back: no season but in the parts, no literal beside the parts."""
    text = date.to_edtf() or date.literal
    return Date.from_edtf(text) if text else Date()


def _bibtex_dates(record: Record) -> dict[str, Date]:
    """``issued`` as ``year``/``month``/``day`` or ``date`` (a literal in ``year``), the others as EDTF
    (``urldate``… or ``csl-<variable>``); seasons in the parts only (a year's season goes there), no
    circa on a range."""
    dates: dict[str, Date] = {}
    for var, date in record.dates.items():
        date = date.with_season_in_parts()
        if var != "issued":
            dates[var] = _edtf(date)
            continue
        if date.parts:
            dates[var] = Date(parts=date.parts, circa=date.circa and len(date.parts) == 1)
        elif date.literal:  # a literal ``issued`` goes to ``year``; digits alone read back as a year
            dates[var] = Date.from_edtf(_squash(date.literal))
            if dates[var].literal is not None:
                dates[var] = Date(literal=_squash(date.literal))
    return {var: date for var, date in dates.items() if date != Date()}


def _arxiv_kept(arxiv: Arxiv | None, text: Callable[[str | None], str | None]) -> Arxiv | None:
    """The arXiv block as BibTeX and RIS keep it: one category a word, EDTF dates, ``text`` for notes."""
    if arxiv is None:
        return None
    return replace(
        arxiv,
        categories=tuple(c for cat in arxiv.categories for c in re.split(r"[\s,]+", cat) if c),
        submitted=_edtf(arxiv.submitted) if arxiv.submitted else None,
        updated=_edtf(arxiv.updated) if arxiv.updated else None,
        comment=text(arxiv.comment),
        journal_ref=text(arxiv.journal_ref),
    )


# --- RIS ---------------------------------------------------------------------------------------


def _ris(record: Record) -> Record:
    from bibconv.formats.ris.table import (
        CSL_TO_TY,
        DATE_TAGS,
        FIELD_TAGS,
        NAME_TAGS,
        TY_TO_CSL,
        VERBATIM_FIELDS,
    )
    from bibconv.latex import escape_markup, strip_markup

    code = _ris_type(record)
    record_type = TY_TO_CSL[code]
    fields: dict[str, str] = {}
    extra: dict[str, list[str]] = {}
    for var, value in record.fields.items():
        if var not in FIELD_TAGS and var not in ("page", "note"):
            continue
        text = value if var in VERBATIM_FIELDS else strip_markup(value)
        if var in ("note", "abstract"):  # note lines, abstract paragraphs
            text = "\n".join(_one_line(line) for line in text.splitlines() if line.strip())
        else:
            text = _one_line(text)
        if var == "page" and (pages := _RIS_PAGES.fullmatch(text)):
            text = f"{pages[1]}-{pages[2]}"
        if var in ("ISSN", "ISBN"):  # both are SN: the reader tells them apart by their shape
            var = _sn_slot(text, record_type)
            if var in fields:
                extra.setdefault("ris:SN", []).append(text)
                continue
        if text:
            fields[var] = text if var in VERBATIM_FIELDS else escape_markup(text)
    if record.arxiv is not None and (
        record_type == "document" or (code == "JOUR" and "container-title" not in fields)
    ):
        record_type = "article"  # a generic record or a journal article without journal: a preprint
    people = [n for var in NAME_TAGS for n in record.names.get(var, ())]
    addresses = list(dict.fromkeys(a for n in people for a in map(_one_line, n.affiliation) if a))
    if addresses:
        extra["ris:AD"] = addresses  # AD lines, tied to no one
    for key, value in record.extra.items():  # tags without a slot, written back after the others
        if key.startswith("ris:") and _RIS_TAG.fullmatch(key[4:]) and key not in ("ris:TY", "ris:ER"):
            for item in value if isinstance(value, list) else [value]:
                text = _one_line(str(item))
                if text and not (key == "ris:AD" and text in addresses):
                    extra.setdefault(key, []).append(text)
    kept: dict[str, Any] = {key: v[0] if len(v) == 1 else v for key, v in extra.items()}
    if CSL_TO_TY[record_type] != code:
        kept["ris:TY"] = code
    info = record.extra.get("ris:date-info")
    dates: dict[str, Date] = {}
    for var, date in record.dates.items():
        if var == "issued" or var in DATE_TAGS:
            other = info.get(var) if isinstance(info, dict) else None
            dates[var], other = _ris_date(date, other)
            if other:
                kept.setdefault("ris:date-info", {})[var] = other
    return record.replace(
        type=record_type,
        id=_one_line(record.id or "") or None,
        fields=fields,
        names=_names(record, NAME_TAGS, _ris_name),
        dates={var: date for var, date in dates.items() if date != Date()},
        keywords=tuple(escape_markup(k) for k in (_one_line(strip_markup(k)) for k in record.keywords) if k),
        arxiv=_arxiv_kept(record.arxiv, _ris_text),
        extra=kept,
    )


def _ris_type(record: Record) -> str:
    """The ``TY`` written: the one read (``extra["ris:TY"]``) while it fits the type, ``UNPB`` for a
    preprint, else the type's own."""
    from bibconv.formats.ris.table import CSL_TO_TY, SPEC_TYPES, TY_TO_CSL

    kept = record.extra.get("ris:TY")
    preprint = record.arxiv is not None and record.type == "article"
    if kept in SPEC_TYPES and (TY_TO_CSL[kept] == record.type or (preprint and kept in _RIS_PREPRINT)):
        return str(kept)
    return "UNPB" if preprint else CSL_TO_TY[record.type]


def _sn_slot(value: str, record_type: str) -> str:
    from bibconv.formats.ris.read import _BOOKISH, _ISBN_BODY, _ISBN_CHARS, _ISSN

    if _ISSN.match(value):
        return "ISSN"
    if _ISBN_BODY.match(_ISBN_CHARS.sub("", value)):
        return "ISBN"
    return "ISBN" if record_type in _BOOKISH else "ISSN"


def _ris_name(name: Name) -> Name | None:
    """``Last, First, Suffix`` read back: a dropping particle joins the given names, a particle that
    is not lowercase the family; a literal holding a comma reads as a personal name."""
    from bibconv.names import format_ris_name, parse_ris_name

    text = _one_line(format_ris_name(name))
    return parse_ris_name(text if name.literal is not None or "," in text else text + ",")


def _ris_date(date: Date, info: str | None) -> tuple[Date, str | None]:
    """``YYYY/MM/DD/other`` read back: the first date of a range; a season, else other text, in
    ``other``; a literal date as ``///text``."""
    from bibconv.formats.ris.table import format_date, parse_date

    if len(date.parts) > 1:
        date = Date(parts=date.parts[:1], season=date.season)
    year, full = format_date(date, info)
    found = [parse_date(_one_line(text)) for text in (year, full) if text]
    if not found:
        return Date(), None
    best, other = found[-1]
    return (Date(parts=best.parts, season=best.season) if best.parts else best), other


def _ris_text(text: str | None) -> str | None:
    return (_one_line(text) or None) if text else None
