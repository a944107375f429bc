r"""What a record keeps through BibTeX and biblatex (:func:`project`), from the rows of
:mod:`bibconv.formats.bibtex.table`: each variable's kind says what survives.

Every variable is kept (those without a field of their own in ``csl-<variable>`` fields), names (a
particle BibTeX cannot read as ``von`` joins the family in classic BibTeX, a dropping particle becomes
BibTeX's ``von``, a family alone that needs braces a literal), affiliations (``<field>affiliations``),
the arXiv block (``eprint``… and ``arxiv*`` fields; a URL to the preprint is the block's own), dates
(EDTF seasons ``2017-23``; a season beside a month or day is dropped, so is circa on a range), keywords
(split at commas and semicolons), paragraphs of abstracts and notes only (other white space is TeX's),
``bibtex:*`` extras. Text is TeX: a ``nocase`` span protects only capitals. The record type is what the
entry type reads back as (classic BibTeX writes many types as ``@misc``); the key is
:func:`table.safe_key`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bibconv import facts, latex
from bibconv.arxiv import parse_arxiv_id
from bibconv.formats.bibtex import bibstrings
from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.fields import publisher_from
from bibconv.formats.bibtex.names import family_alone_is_literal, particle_is_von
from bibconv.formats.bibtex.read_values import subtitle_text, unbrace, unprotect
from bibconv.formats.bibtex.write_types import entry_type_for, read_type
from bibconv.languages import babel_name, to_bcp47
from bibconv.latex.charset import needs_chars
from bibconv.model import Date, Name, Record
from bibconv.patterns import lazy
from bibconv.projection import arxiv_kept, edtf, names_kept, squash
from bibconv.subtitles import kept_parts, take_off

__all__ = ["project"]

_TEX_RE = lazy(r"[$\\^_]")  # math, or a superscript group
_MATH_WORK_RE = lazy(r"[^\x00-\x7f]|[&%#]")
_NOCASE = lazy(r'<span class="nocase">((?:(?!<span)[^<]|<(?!/?span)[^>]*>)*?)</span>')


def project(record: Record, dialect: str) -> Record:
    """``record`` as ``dialect`` (``bibtex`` or ``biblatex``) holds it: what reading back what its
    writer wrote gives."""
    from bibconv.keys import make_key
    from bibconv.writing import writable

    record = writable(record)
    if record.id is None:
        record = record.replace(id=make_key(record))
    written = entry_type_for(record, dialect)
    entry = written.lower()
    record_type = read_type(record, entry)
    preprint = record.arxiv is not None and record_type == "article"
    ascii = dialect == "bibtex"  # the dialects' defaults: TeX escapes for 8-bit bibtex, UTF-8 for biber
    fields = _fields(record, dialect, entry)
    if record_type in ("thesis", "report") and "genre" not in fields and entry in m.IMPLIED_GENRES:
        fields["genre"] = m.IMPLIED_GENRES[entry]  # @phdthesis says "PhD thesis"
    if preprint and str(fields.get("status", "")).lower() in ("prepublished", "preprint"):
        del fields["status"]  # pubstate = {prepublished} only says "preprint"
    arxiv = record.arxiv
    found = parse_arxiv_id(fields.get("URL", ""), bare=False) if arxiv is not None else None
    if arxiv is not None and found and found[0] == arxiv.id and found[1] in (None, arxiv.version or found[1]):
        arxiv = replace(arxiv, version=arxiv.version or found[1])  # a link to it may name its version
    extra = _extra(record)
    _parts(record, fields, extra, dialect, entry)
    _kept_langid(fields, extra)
    if isinstance(record.extra.get(m.TEX_KEPT), dict):
        extra[m.TEX_KEPT] = record.extra[m.TEX_KEPT]  # read again from the fields written as they were
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
        names=names_kept(record, record.names, lambda n: _bibtex_name(n, dialect)),
        dates=_bibtex_dates(record),
        keywords=tuple(k for kw in record.keywords for w in re.split(r"[,;]", kw) if (k := _tex(w, ascii))),
        arxiv=arxiv_kept(arxiv, lambda text: _plain(text, ascii)),
        extra=extra,
    )


def _fields(record: Record, dialect: str, entry: str) -> dict[str, str]:
    """Each variable as its row's kind reads it back (every variable has a field, ``csl-<var>`` at least)."""
    rows = m.writes_for(dialect, entry)
    ascii = dialect == "bibtex"
    fields: dict[str, str] = {}
    for var, value in record.fields.items():
        row = None if var in m.NUMBER_VARIABLES else rows.get(var)
        kind = row.kind if row is not None else m.own_kind(var)
        if var == "language" and babel_name(value):  # written as babel's name in langid
            fields[var] = to_bcp47(babel_name(value) or "") or value
        elif kind == "verbatim":  # braces around all of it are TeX's, not the identifier's
            fields[var] = unbrace(value.strip())
        elif kind == "plain":
            fields[var] = _plain(value, ascii) or ""
        elif kind == "title":  # a one-word nocase the writer's case protection adds anyway
            fields[var] = unprotect(_tex(value, ascii))
        elif kind == "paragraphs":  # paragraphs are kept (``\par``)
            fields[var] = "\n".join(p for p in (_tex(part, ascii) for part in value.split("\n")) if p)
        else:
            fields[var] = _tex(value, ascii)
        fields[var] = bibstrings.words(var, entry, fields[var])  # biblatex's keys read as its words
        if not fields[var]:
            del fields[var]
    return fields


def _parts(
    record: Record, fields: dict[str, str], extra: dict[str, object], dialect: str, entry: str
) -> None:
    """The fields written apart (:mod:`bibconv.subtitles`): a subtitle or addon the title holds is
    written in it (classic BibTeX, or biblatex where the title no longer ends with it); a kept
    ``organization`` or ``howpublished`` is read back as the publisher it is, or of an entry without one."""
    journal = entry in m.JOURNAL_TYPES
    if dialect == "biblatex":
        joined = take_off(dict(record.fields), record.extra, journal, subtitle_text)
    else:
        joined = kept_parts(record.fields, record.extra, journal)
    for key in joined:
        extra.pop(key, None)
    found, kept = publisher_from(extra, entry), publisher_from(record.extra, entry)
    publisher = record.fields.get("publisher")
    if found is not None and (publisher is None or (kept is not None and publisher == kept[1])):
        fields["publisher"] = found[1]


def _kept_langid(fields: dict[str, str], extra: dict[str, object]) -> None:
    """A kept ``langid`` field naming a language is read back as the language when the record's own is
    not written to ``langid`` (it is then written to ``language``, which is kept)."""
    langid = extra.get("bibtex:langid")
    tag = to_bcp47(latex.decode(str(langid), markup=False)) if langid is not None else None
    if tag is None:
        return
    del extra["bibtex:langid"]
    language = fields.get("language")
    if language is not None and babel_name(language):
        return  # the record's language is the langid written
    if language is not None:
        extra["bibtex:language"] = language
    fields["language"] = tag


def _extra(record: Record) -> dict[str, object]:
    """The ``bibtex:*`` extras the writers write back as fields (white space as TeX reads it), and
    bibconv's notes (``bibconv-note``)."""
    kept: dict[str, object] = {
        k: squash(str(v))
        for k, v in record.extra.items()
        if k.startswith("bibtex:")
        and k not in m.RESERVED_EXTRAS
        and m.extra_field_ok(k[7:])
        and isinstance(v, (str, int, float))
        and k[7:] not in m.ARXIV_FIELDS
    }
    note = record.extra.get(facts.NOTE_KEY)
    if isinstance(note, str) and squash(note):
        kept[facts.NOTE_KEY] = squash(note)
    return kept


def _tex(text: str, ascii: bool) -> str:
    """Rich text through TeX: white space squashed, characters as :func:`_chars` reads them back,
    ``nocase`` only where there are capitals to keep (a brace group around lowercase text protects
    nothing, so it reads back as plain text)."""
    text = _chars(squash(text), ascii)
    while True:
        changed = _NOCASE.sub(lambda m: m[0] if any(c.isupper() for c in m[1]) else m[1], text)
        if changed == text:
            return text
        text = changed


def _chars(text: str, ascii: bool, markup: bool = True) -> str:
    r"""Text as the writers' TeX reads back where :mod:`bibconv.latex.charset` changes its characters:
    control characters and noncharacters dropped, rare spaces as ``\,``, symbols in math as their
    commands (``$ω$`` → ``$\omega$``), ``& % #`` in math escaped. Math is read back as written, so its
    characters are as in UTF-8 output (biblatex's default) or in TeX escapes (classic BibTeX's)."""
    if needs_chars(text, False) or (_TEX_RE.search(text) and _MATH_WORK_RE.search(text)):
        return latex.decode(latex.encode(text, ascii=ascii, markup=markup), markup=markup)
    return text


def _plain(text: str | None, ascii: bool) -> str | None:
    return _chars(squash(text), ascii, markup=False) or None if text is not None else None


def _bibtex_name(name: Name, dialect: str) -> Name:
    ascii = dialect == "bibtex"
    affiliation = tuple(a for a in (_plain(text, ascii) for text in name.affiliation) if a)
    if name.literal is not None:
        return Name(literal=_plain(name.literal, ascii), affiliation=affiliation)
    name = _name_chars(name, ascii)
    particle = name.non_dropping_particle or name.dropping_particle
    lowercase = bool(particle) and all(w[:1].isalpha() and w[:1].islower() for w in (particle or "").split())
    if dialect == "biblatex" and (name.dropping_particle or (particle and not lowercase)):
        return replace(name, affiliation=affiliation)  # biblatex's extended name form holds it all
    if dialect == "biblatex" and family_alone_is_literal(name):
        return replace(name, affiliation=affiliation)  # the extended form: family={Ben Arous}
    if family_alone_is_literal(name):  # wholly braced: {Ben Arous}
        return Name(literal=_plain(f"{particle or ''} {name.family or ''}", ascii), affiliation=affiliation)
    if particle and not particle_is_von(particle):
        name = replace(name, family=f"{particle} {name.family or ''}".strip(), non_dropping_particle=None)
    elif particle:
        name = replace(name, non_dropping_particle=particle)
    return replace(name, dropping_particle=None, affiliation=affiliation)


def _name_chars(name: Name, ascii: bool) -> Name:
    """The name with each part's characters as TeX reads them back (:func:`_chars`)."""

    def part(text: str | None) -> str | None:
        return _chars(text, ascii, markup=False) or None if text else text

    return replace(
        name,
        family=part(name.family),
        given=part(name.given),
        suffix=part(name.suffix),
        non_dropping_particle=part(name.non_dropping_particle),
        dropping_particle=part(name.dropping_particle),
    )


def _bibtex_dates(record: Record) -> dict[str, Date]:
    """``issued`` as ``year``/``month``/``day`` or ``date`` (a literal in ``year``), the others as EDTF
    (``urldate``… or ``csl-<variable>``); seasons in the parts only (a year's season goes there), no
    circa on a range."""
    dates: dict[str, Date] = {}
    for var, date in record.dates.items():
        date = date.with_season_in_parts()
        if var != "issued":
            dates[var] = edtf(date)
            continue
        if date.parts:
            dates[var] = Date(parts=date.parts, circa=date.circa and len(date.parts) == 1)
        elif date.literal:  # a literal ``issued`` goes to ``year``; digits alone read back as a year
            dates[var] = Date.from_edtf(squash(date.literal))
            if dates[var].literal is not None:
                dates[var] = Date(literal=squash(date.literal))
    return {var: date for var, date in dates.items() if date != Date()}
