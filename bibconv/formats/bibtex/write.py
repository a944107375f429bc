r"""The ``bibtex`` and ``biblatex`` writers.

Layout: one field per line, in a fixed order (:data:`~bibconv.formats.bibtex.table.FIELD_ORDER`, then
the rest alphabetically), ``key = {value}``, indented by the ``indent`` option (2 spaces; a number or
a string such as ``"\t"``), a blank line between entries. Keys come from ``ctx.keys``, a
:class:`bibconv.keys.KeyAssigner` (existing keys are kept, repeats get a suffix). Values go through
:func:`bibconv.latex.encoder` (``ascii`` option: every non-ASCII character as TeX; by default for
classic ``bibtex`` only, whose 8-bit sorting and labels need it; in both dialects a character pdflatex
cannot set with T1 fonts is TeX, see :mod:`bibconv.latex.charset`), titles also through
:func:`latex.protect_case`, names through :func:`.names.format_bibtex_name`; identifiers (URL,
DOI…) are written as they are.

**Safe values.** Every value is written on one line between braces that BibTeX and bibtexparser both
see balanced: :func:`latex.encode` writes a lone brace ``{\textbraceleft}``/``{\textbraceright}``
(BibTeX counts ``\{`` as a brace), a kept raw value that is not balanced both ways is written encoded
instead, and line breaks become spaces, so no value can close its field, start an entry (``@`` at a line
start) or inject a macro.

**arXiv.** A preprint (type ``article`` with an arXiv block) is written as arXiv's own export does:
``@misc`` with ``eprint`` (no version), ``archivePrefix = {arXiv}``, ``primaryClass``, ``doi`` and
``url`` (the abs page, without version); biblatex gets ``@online`` with
``eprint``/``eprinttype``/``eprintclass`` and ``pubstate = {prepublished}``. A published paper keeps its
type and gains the eprint fields. The rest of the block goes to bibconv's own fields, which BibTeX and
biber ignore and the reader reads back: ``arxivversion``, ``arxivcategories`` (comma-separated),
``arxivsubmitted`` and ``arxivupdated`` (EDTF), ``arxivcomment``, ``arxivjournalref``.

**bibconv's notes** on a record (a listing's abstract was cut: :mod:`bibconv.facts`) go to
``bibconv-note``, which no style prints, never to ``note``.

**Affiliations** of a name list go to ``<field>affiliations`` (``authoraffiliations = {{Apple}{MIT}
and {} and {CNRS}}``: one entry per person, ``and`` between, one brace group per affiliation).

**Everything else has a field.** A CSL variable without a BibTeX field of its own, or whose field
already holds another variable (an article's ``number`` holds its issue), goes to ``csl-<variable>``
(``csl-medium``, ``csl-number``, ``csl-director`` names, ``csl-submitted`` or a literal ``accessed``
date); BibTeX and biber ignore such fields and the reader reads them back.

Dates: ``year``, ``month = apr`` (a macro), ``day`` in BibTeX (plus ``date`` for ranges with months);
``date`` (EDTF, ranges) in biblatex.

**Fields** come from :data:`bibconv.formats.bibtex.table.ROWS`: the row a dialect writes a variable to
for the entry type, and the row's kind says how the value is encoded.

**Projection.** What these writers cannot hold (so what a record keeps through BibTeX) is written down
as code in :func:`bibconv.projection.project`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import ClassVar, cast

from bibconv import facts, latex
from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.commands import SORT_HINTS
from bibconv.formats.bibtex.faithful import as_read
from bibconv.formats.bibtex.fields import PREPRINT_TYPES, subtitle_text
from bibconv.formats.bibtex.inherit import ALIASES
from bibconv.formats.bibtex.safety import NEWLINES_RE, blocks, braces_ok, defined_by_blocks, protect, safe
from bibconv.languages import babel_name
from bibconv.latex.allow import disallowed, tex_allowed
from bibconv.latex.case import PROTECT_MODES
from bibconv.model import Date, Name, Record
from bibconv.registry import EntryWriter, WriteContext, register
from bibconv.subtitles import SUBTITLES, split_off

__all__ = [
    "BiblatexWriter",
    "BibtexWriter",
    "entry_text",
    "entry_type_for",
    "number_field",
    "number_order",
    "read_type",
]

_EN_DASH_RE = re.compile(r"(?<![-–])–(?![-–])")
_DISPLAY = {"archiveprefix": "archivePrefix", "primaryclass": "primaryClass"}
_RANKS = {name: (i, name) for i, name in enumerate(m.FIELD_ORDER)}


def _rank(name: str) -> tuple[int, str]:
    """Where a field goes: in :data:`~bibconv.formats.bibtex.table.FIELD_ORDER`, then alphabetically."""
    return _RANKS.get(name) or (len(_RANKS), name)


def entry_type_for(record: Record, dialect: str) -> str:
    """The entry type a dialect writes ``record`` as (a kept source type when it still fits).

    A CSL ``article`` (a preprint, a working paper: an article of no journal) with no venue is
    ``@misc`` in BibTeX, ``@online`` in biblatex when it has an eprint or a URL (else ``@misc``), so
    that no style asks for the journal it has not."""
    if record.type == "article" and (record.arxiv is not None or "container-title" not in record.fields):
        online = record.arxiv is not None or "URL" in record.fields
        return "online" if dialect == "biblatex" and online else "misc"
    kept = record.extra.get("bibtex:entrytype")
    genre = record.fields.get("genre", "").casefold()
    wanted = _genre_type(record.type, genre) if dialect != "biblatex" else None  # biblatex: type = {mathesis}
    if isinstance(kept, str) and re.fullmatch(r"\w+", kept) and m.csl_type(kept) == record.type:
        low = kept.lower()
        known = m.BIBLATEX_TYPES if dialect == "biblatex" else m.BIBTEX_TYPES
        fits = low in known or (low not in m.BIBTEX_TYPES and low not in m.BIBLATEX_TYPES)
        if fits and wanted in (None, low):
            return kept
    return wanted or m.entry_type(record.type, dialect)


def _genre_type(record_type: str, genre: str) -> str | None:
    """The entry type that says a thesis's or report's genre (``@mastersthesis``), if one does."""
    if record_type == "thesis" and "master" in genre:
        return "mastersthesis"
    if record_type == "thesis" and genre in ("phd thesis", "ph.d. thesis", "phdthesis"):
        return "phdthesis"
    if record_type == "report" and genre == "technical report":
        return "techreport"
    return None


def read_type(record: Record, entry: str) -> str:
    """The CSL type the reader gives an entry of type ``entry`` written for ``record``."""
    low = entry.lower()
    if record.arxiv is not None and (
        low in PREPRINT_TYPES or (low == "article" and "container-title" not in record.fields)
    ):
        return "article"
    return m.csl_type(low)


_NUMBERS = m.NUMBER_VARIABLES
_HINTS = frozenset(SORT_HINTS)  # a file that uses a sorting hint has a document that defines it
# The genres biblatex prints from a key of its own, in the document's language (its key is mathesis).
_GENRE_KEYS = {genre: key for key, genre in m.TYPE_KEYS.items() if key != "mastersthesis"}


def number_order(record: Record, record_type: str) -> list[str]:
    """The record's fields, the one ``number`` reads back as first (it wins the ``number`` field),
    then the others in a fixed order, so that equal records give equal entries."""
    fields = record.fields
    if "number" not in fields and "issue" not in fields and "collection-number" not in fields:
        return list(fields)
    natural = m.NUMBER_BY_TYPE.get(record_type, "number")
    head = [var for var in fields if var not in _NUMBERS or var == natural == "number"]
    if natural != "number" and natural in fields:
        head.append(natural)
    return head + [var for var in _NUMBERS if var in fields and var != natural]


def number_field(var: str, record_type: str) -> str | None:
    """``number`` holds the issue of an article, the series number of a book, else the number;
    ``issue`` another issue; the other number variables have no field (``csl-<variable>``)."""
    if var == m.NUMBER_BY_TYPE.get(record_type, "number"):
        return "number"
    return "issue" if var == "issue" else None


_SHORT = 200
"""Values up to this long (journals, publishers, notes, name parts) repeat across a file: cached."""
_CACHE = 1 << 15
"""Entries of each cache: room for the distinct short values and the names of a 100k-record file."""


@lru_cache(maxsize=_CACHE)
def _encode_short(text: str, ascii_only: bool, defined: frozenset[str]) -> tuple[str, tuple[str, ...]]:
    """:func:`latex.encode` of a short value, with the warnings it gave (replayed at each use)."""
    warnings: list[str] = []
    return latex.encode(text, ascii=ascii_only, warn=warnings.append, allowed=defined), tuple(warnings)


def _encode_name_part(text: str, ascii_only: bool, warnings: list[str]) -> str:
    """A name part: plain text, balanced on its own (BibTeX splits names before it reads braces)."""
    return safe(latex.encode(latex.escape_markup(text), ascii=ascii_only, warn=warnings.append))


@lru_cache(maxsize=_CACHE)
def _name_tex(name: Name, ascii_only: bool, extended: bool) -> tuple[str, tuple[str, ...]]:
    """A name in BibTeX form, with the warnings encoding it gave (names repeat across a file)."""
    from bibconv.formats.bibtex.names import biber_refuses, format_bibtex_name

    warnings: list[str] = []
    text = format_bibtex_name(
        name, lambda part: _encode_name_part(part, ascii_only, warnings), extended=extended
    )
    if not extended and biber_refuses(text):
        warnings.append(f"name {text!r} holds commas in its parts: bibtex reads it, biber skips the entry")
    return text, tuple(warnings)


class _EntryWriter:
    """Writes the entries of one file for a dialect and context.

    The entry being written: ``values`` (field → complete value expression, ``{…}`` or a macro),
    ``rid`` (its key, for warnings), ``where`` (the variable being written, named in warnings) and
    ``known`` (the commands the file's kept ``@preamble`` blocks define, collected in ``defined``).
    """

    __slots__ = (
        "ascii",
        "ascii_asked",
        "ctx",
        "defined",
        "dialect",
        "extended",
        "joined",
        "known",
        "protect_mode",
        "quiet",
        "rid",
        "values",
        "where",
    )

    def __init__(self, dialect: str, ctx: WriteContext, defined: set[str] | None = None) -> None:
        self.dialect, self.ctx = dialect, ctx
        chosen = ctx.option("ascii")  # by default TeX escapes for 8-bit bibtex, UTF-8 for biblatex
        self.ascii = dialect == "bibtex" if chosen is None else bool(chosen)
        self.ascii_asked = bool(chosen)
        self.protect_mode = str(ctx.option("protect_case") or "acronyms")
        if self.protect_mode not in PROTECT_MODES:
            raise ValueError(f"protect_case must be one of {', '.join(PROTECT_MODES)}")
        self.extended = dialect == "biblatex"
        self.defined: set[str] = set() if defined is None else defined
        self.known: frozenset[str] = frozenset()
        self.rid: str | None = None
        self.where: str | None = None
        self.values: dict[str, str] = {}
        self.joined: set[str] = set()
        self.quiet = False

    def warn(self, message: str) -> None:
        if not self.quiet:
            self.ctx.warn(f"{self.where}: {message}" if self.where else message, self.rid)

    def replay(self, found: tuple[str, tuple[str, ...]]) -> str:
        for message in found[1]:
            self.warn(message)
        return found[0]

    def encode(self, text: str) -> str:
        """Rich text as TeX (short values cached)."""
        if len(text) > _SHORT:
            return latex.encode(text, ascii=self.ascii, warn=self.warn, allowed=self.known)
        return self.replay(_encode_short(text, self.ascii, self.known))

    def plain(self, text: str) -> str:
        """Plain text as TeX on one line (a name part, an affiliation, a call number)."""
        return safe(self.encode(latex.escape_markup(text)))

    def taken(self, name: str) -> bool:
        if name in self.values:
            self.warn(f"field {name!r} already written; the other value is dropped")
            return True
        return False

    def put_text(self, name: str, value: str) -> None:
        """Add a field of rich text (encoded)."""
        if not self.taken(name):
            self.values[name] = "{" + safe(self.encode(value)) + "}"

    def put_tex(self, name: str, tex: str) -> None:
        """Add a field of TeX (made one line)."""
        if not self.taken(name):
            self.values[name] = "{" + safe(tex) + "}"

    def put_raw(self, name: str, value: str) -> None:
        """Add a field kept as TeX, as it is when it is plain or balanced and safe, else encoded."""
        if self.taken(name):
            return
        body = value.strip()
        if "\n" in body or "\r" in body:
            body = NEWLINES_RE.sub(" ", body)
        plain = "{" not in body and "}" not in body and "\\" not in body and "^" not in body
        kept = plain or (braces_ok(body) and tex_allowed(body, self.known))
        if not kept and braces_ok(body):
            commands = ", ".join(disallowed(body, self.known))
            self.warn(f"field {name!r}: TeX {commands} is not allowed in output; written as text")
        self.values[name] = "{" + (body if kept else safe(self.encode(body))) + "}"

    def put_macro(self, name: str, macro: str) -> None:
        if not self.taken(name):
            self.values[name] = macro

    def put_variable(self, var: str, value: str, rows: dict[str, m.Row], reads_as: str) -> None:
        """A CSL variable in the field its row names, else in ``csl-<var>``."""
        row = None if var in _NUMBERS else rows.get(var)
        own = row.field if row is not None else number_field(var, reads_as) if var in _NUMBERS else None
        name = own if own is not None and own not in self.values else m.CSL_PREFIX + var  # none, or taken
        kind = row.kind if row is not None else m.own_kind(var)
        if kind == "verbatim":  # identifiers are kept as they are, not as rich text
            if braces_ok(value):
                self.put_raw(name, value)
            else:
                self.put_text(name, value)
        elif kind == "title":
            tex = latex.encode(value, ascii=self.ascii, warn=self.warn, allowed=self.known)  # not cached
            self.put_tex(name, protect(safe(tex), self.protect_mode))
        elif kind == "plain":
            self.put_tex(name, self.plain(value))
        elif kind == "pages":
            self.put_tex(name, _EN_DASH_RE.sub("--", safe(self.encode(value))))
        elif kind == "paragraphs" and "\n" in value:  # paragraphs, as Better BibTeX writes them
            self.put_tex(name, " \\par ".join(safe(self.encode(p)) for p in value.split("\n") if p.strip()))
        else:
            self.put_text(name, value)

    def put_names(self, record: Record, entry: str) -> None:
        for var, people in record.names.items():
            self.where = var
            row = m.write_row(var, self.dialect, entry)
            name = row.field if row is not None else m.CSL_PREFIX + var
            listed = [self.replay(_name_tex(p, self.ascii, self.extended)) for p in people]
            self.put_tex(name, " and ".join(listed))
            if any(p.affiliation for p in people):
                groups = ("".join("{" + self.plain(a) + "}" for a in p.affiliation) or "{}" for p in people)
                self.put_tex(f"{name}affiliations", " and ".join(groups))

    def put_dates(self, record: Record, entry: str) -> None:
        issued = record.dates.get("issued")
        if issued is not None:
            issued = issued.with_season_in_parts()  # EDTF holds the season of a year (2017-23)
            if issued.season:
                self.warn(f"season {issued.season!r} of the date is not written")
            if not issued.parts:
                self.put_text("year", issued.literal or "")
            elif self.extended:
                self.put_raw("date", issued.to_edtf() or "")
            else:
                self.put_bibtex_date(issued)
        for var, date in record.dates.items():
            if var == "issued":
                continue
            date = date.with_season_in_parts()
            row = m.write_row(var, self.dialect, entry) if date.parts else None  # biblatex reads EDTF only
            text = date.to_edtf() or date.literal
            if text:
                self.put_raw(row.field if row is not None else m.CSL_PREFIX + var, text)

    def put_bibtex_date(self, issued: Date) -> None:
        """``year``, ``month`` and ``day``; ranges, circa and seasons also in EDTF ``date`` (biblatex's)."""
        first = issued.parts[0]
        end = issued.parts[-1]
        if len(issued.parts) == 2 and len(first) == 1 and len(end) == 1 and end[0] and not issued.circa:
            self.put_raw("year", f"{first[0]}--{issued.parts[1][0]}")
            return
        self.put_raw("year", str(first[0]))
        if issued.month is not None:
            self.put_macro("month", m.MONTHS[issued.month - 1])
        if len(first) > 2:
            self.put_raw("day", str(first[2]))
        if len(issued.parts) == 2 or issued.circa or issued.season_number:
            self.put_raw("date", issued.to_edtf() or "")

    def put_arxiv(self, record: Record) -> None:
        arxiv = record.arxiv
        assert arxiv is not None
        self.put_raw("eprint", arxiv.id)
        self.put_raw("eprinttype" if self.extended else "archiveprefix", "arXiv")
        cls_field = "eprintclass" if self.extended else "primaryclass"
        kept = record.extra.get("bibtex:primaryclass")
        if (
            isinstance(kept, str)
            and arxiv.primary_class
            and kept.split(",")[0].strip() == arxiv.primary_class
        ):
            self.put_raw(cls_field, kept)
        elif arxiv.primary_class:
            self.put_raw(cls_field, arxiv.primary_class)
        if arxiv.version:
            self.put_raw("arxivversion", str(arxiv.version))
        if arxiv.categories:
            self.put_raw("arxivcategories", ", ".join(arxiv.categories))
        for name, date in (("arxivsubmitted", arxiv.submitted), ("arxivupdated", arxiv.updated)):
            text = date and (date.to_edtf() or date.literal)
            if text:
                self.put_raw(name, text)
        if arxiv.comment:
            self.put_tex("arxivcomment", self.plain(arxiv.comment))
        if arxiv.journal_ref:
            self.put_tex("arxivjournalref", self.plain(arxiv.journal_ref))
        if "DOI" not in record.fields:
            self.put_raw("doi", arxiv.doi)
        if "URL" not in record.fields:
            self.put_raw("url", arxiv.abs_url)
        journal_doi = record.fields.get("DOI", "").lower() not in ("", arxiv.doi.lower())
        if self.extended and record.type == "article" and "status" not in record.fields and not journal_doi:
            self.put_raw("pubstate", "prepublished")  # not for a paper a journal DOI says is out

    def without_subtitles(self, record: Record) -> dict[str, str]:
        """The record's fields, for biblatex each title that ends with its kept subtitle field without
        it (the field is written as kept); classic BibTeX has no subtitle field: the title keeps it."""
        fields = dict(record.fields)
        self.joined = set()
        for key, var in SUBTITLES.items():
            raw = record.extra.get(key)
            if not isinstance(raw, str) or var not in fields:
                continue
            head = split_off(fields[var], subtitle_text(raw)) if self.extended else None
            if head is None:
                self.joined.add(key)  # in the title only (or changed with it)
            else:
                fields[var] = head
        return fields

    def put_extras(self, record: Record) -> None:
        note = record.extra.get(facts.NOTE_KEY)
        if isinstance(note, str) and note.strip():  # bibconv's own notes, in a field no style prints
            self.put_tex(facts.NOTE_FIELD, self.plain(note))
        for key, value in record.extra.items():
            if not key.startswith("bibtex:") or key in m.RESERVED_EXTRAS or key in self.joined:
                continue
            name = key[7:]
            if name in self.values or (name == "primaryclass" and record.arxiv is not None):
                continue
            if not m.extra_field_ok(name) or not isinstance(value, (str, int, float)):
                self.warn(f"extra {key!r} is not a BibTeX field; not written")
                continue
            self.put_raw(name, str(value))

    def put_kept_tex(self, tex: dict[str, object], entry: str) -> None:
        """Each field kept as written (``extra["bibtex:tex"]``: ``@preamble`` commands, sorting hints)
        instead of the value written from the record, while both read the same."""
        from bibconv.formats.bibtex.fields import build_record
        from bibconv.registry import ReadContext

        quiet = ReadContext(None, strict=False)

        def reads(name: str, raw: str) -> tuple[object, ...]:
            got = build_record(entry, "k", {name: raw}, 0, quiet)
            return got.type, got.fields, got.names, got.dates

        for name, kept in tex.items():
            written = self.values.get(name, "")
            if not (isinstance(kept, list) and len(kept) == 2 and all(isinstance(k, str) for k in kept)):
                continue
            raw, expanded = kept
            if not (written.startswith("{") and braces_ok(raw) and tex_allowed(raw, self.known | _HINTS)):
                continue
            if reads(name, expanded) == reads(name, written[1:-1]):
                self.values[name] = "{" + NEWLINES_RE.sub(" ", raw.strip()) + "}"

    def text(self, record: Record, indent: str) -> str:
        """One entry (with the ``@preamble``/``@comment`` blocks kept around it) as BibTeX text:
        as read while its record is unchanged (:mod:`bibconv.formats.bibtex.faithful`), else from
        the record's fields."""
        self.rid, self.values = record.id, {}
        self.known = defined_by_blocks(record, self.defined)
        options = (bool(self.ctx.option("normalize")), self.ascii_asked)
        kept = as_read(record, self.dialect, options, self.known, self.warn)
        if kept is not None:
            entry, body = kept[0], ",\n".join(indent + line for line in kept[1])
        else:
            entry = entry_type_for(record, self.dialect)
            self.put_all(record, entry)
            self.drop_inherited(record, entry)
            tex = record.extra.get(m.TEX_KEPT)
            if isinstance(tex, dict) and not self.ctx.option("expand_commands"):
                self.put_kept_tex(tex, entry)
            values = self.values
            body = ",\n".join(
                [indent + _DISPLAY.get(n, n) + " = " + values[n] for n in sorted(values, key=_rank)]
            )
        key = record.id or ""
        safe = m.safe_key(key)
        if safe != key:
            self.warn(
                f"key {key!r} written as {safe!r} (BibTeX keys cannot hold spaces, commas, braces or quotes)"
            )
        out = [*blocks(record, "bibtex:before", self.warn)]
        out.append(f"@{entry}{{{safe},\n{body}\n}}\n" if body else f"@{entry}{{{safe}\n}}\n")
        out.extend(blocks(record, "bibtex:after", self.warn))
        return "\n".join(out)

    def drop_inherited(self, record: Record, entry: str) -> None:
        """Leave out what a ``crossref`` child took from its parent, which bibtex and biber take again
        (a parent's ``file``, ``abstract`` or ``keywords`` are not the child's): the fields the entry as
        read did not have whose values are still those read. Classic BibTeX keeps what ``xdata``
        gave, as it has no ``xdata``."""
        source = record.source
        if source is None or source.format != "bibtex" or "bibtex:crossref" not in record.extra:
            return
        if self.ctx.option("keep_inherited"):  # for consumers that do not look parents up (formatting)
            return
        if self.dialect == "bibtex" and "bibtex:xdata" in record.extra:
            return
        own = {ALIASES.get(name.lower(), name.lower()) for name, _ in source.fields}
        values, joined, self.values, self.quiet = self.values, self.joined, {}, True
        try:
            self.put_all(source.read, entry)
            as_read = self.values
        finally:
            self.values, self.joined, self.quiet = values, joined, False
        for name in [n for n in values if ALIASES.get(n, n) not in own and as_read.get(n) == values[n]]:
            del values[name]

    def put_all(self, record: Record, entry: str) -> None:
        """Every field of ``record`` for an entry of type ``entry``."""
        low = entry.lower()
        if record.names:
            self.put_names(record, low)
        reads_as = read_type(record, entry)
        rows = m.writes_for(self.dialect, low)
        fields = self.without_subtitles(record)
        implied = m.IMPLIED_GENRES.get(low) if reads_as in ("thesis", "report") else None
        for var in number_order(record, reads_as):
            if var == "genre" and fields[var] == implied:
                continue  # the entry type says it
            self.where = var
            if var == "genre" and self.extended and fields[var] in _GENRE_KEYS:
                self.put_raw("type", _GENRE_KEYS[fields[var]])
                continue
            if var == "language" and babel_name(fields[var]):  # a tag: babel's name in langid
                self.put_raw("langid", babel_name(fields[var]) or "")
                continue
            self.put_variable(var, fields[var], rows, reads_as)
        self.where = None
        self.put_dates(record, low)
        if record.keywords:
            self.put_text("keywords", ", ".join(record.keywords))
        if record.arxiv is not None:
            self.put_arxiv(record)
        self.put_extras(record)


def entry_text(
    record: Record, dialect: str, ctx: WriteContext, indent: str = "  ", defined: set[str] | None = None
) -> str:
    """One entry (with the ``@preamble``/``@comment`` blocks kept around it) as BibTeX text.

    ``defined`` collects the commands the kept ``@preamble`` blocks written so far define (fields
    may use them); pass the same set for every entry of a file.
    """
    return _EntryWriter(dialect, ctx, defined).text(record, indent)


class _Writer(EntryWriter):
    dialect: ClassVar[str]
    separator: ClassVar[str] = "\n"

    def _entries(self, ctx: WriteContext) -> _EntryWriter:
        """The entry writer of this output: it keeps what the kept ``@preamble`` blocks define."""
        key = f"{self.dialect}:entries"
        entries = ctx.state.get(key)
        if entries is None:
            entries = ctx.state[key] = _EntryWriter(self.dialect, ctx)
        return cast(_EntryWriter, entries)

    def entry(self, record: Record, ctx: WriteContext) -> str:
        indent = ctx.option("indent", 2)
        pad = " " * indent if isinstance(indent, int) else str(indent or "")
        return self._entries(ctx).text(ctx.keys.assign(record), pad)

    def carry(self, ctx: WriteContext) -> frozenset[str] | None:
        """The commands the ``@preamble`` blocks written so far define (they may be used after)."""
        return frozenset(self._entries(ctx).defined) or None

    def continue_from(self, ctx: WriteContext, carried: frozenset[str]) -> None:
        self._entries(ctx).defined.update(carried)

    def project(self, record: Record) -> Record:
        """What ``record`` reads back as from this output (:mod:`~bibconv.formats.bibtex.project`)."""
        from bibconv.formats.bibtex.project import project

        return project(record, self.dialect)


@register
class BibtexWriter(_Writer):
    """Writes BibTeX for classic ``.bst`` styles (``journal``, ``address``, ``month = apr``)."""

    name: ClassVar[str] = "bibtex"
    extensions: ClassVar[tuple[str, ...]] = (".bib", ".bibtex")
    description: ClassVar[str] = "BibTeX (.bib), also reads biblatex"
    dialect: ClassVar[str] = "bibtex"


@register
class BiblatexWriter(_Writer):
    """Writes biblatex (``journaltitle``, ``location``, ``date``, ``@online`` for preprints)."""

    name: ClassVar[str] = "biblatex"
    extensions: ClassVar[tuple[str, ...]] = (".biblatex",)
    description: ClassVar[str] = "biblatex (.bib); read like BibTeX"
    dialect: ClassVar[str] = "biblatex"
