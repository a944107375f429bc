"""The entry writer: one record as a BibTeX or biblatex entry, field by field, in the layout and with
the rules :mod:`bibconv.formats.bibtex.write` describes. Values are encoded by
:mod:`~bibconv.formats.bibtex.write_values`, names by :mod:`~bibconv.formats.bibtex.write_names`."""

from __future__ import annotations

from collections.abc import Mapping

from bibconv import facts
from bibconv.formats.bibtex import bibstrings
from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.commands import CITE_COMMANDS, SORT_HINTS
from bibconv.formats.bibtex.faithful import as_read
from bibconv.formats.bibtex.fields import publisher_from
from bibconv.formats.bibtex.inherit import ALIASES
from bibconv.formats.bibtex.read_values import subtitle_text
from bibconv.formats.bibtex.safety import NEWLINES_RE, blocks, braces_ok, defined_by_blocks, safe
from bibconv.formats.bibtex.write_names import affiliations_tex, names_tex
from bibconv.formats.bibtex.write_types import entry_type_for, number_field, number_order, read_type
from bibconv.formats.bibtex.write_values import encode, kind_tex, plain, raw_value
from bibconv.languages import babel_name
from bibconv.latex.allow import tex_allowed
from bibconv.latex.case import PROTECT_MODES
from bibconv.model import Date, Record
from bibconv.registry import WriteContext
from bibconv.subtitles import HELD, kept_parts, take_off

__all__ = ["EntryBuilder", "entry_text"]

_DISPLAY = {"archiveprefix": "archivePrefix", "primaryclass": "primaryClass"}
_NUMBERS = m.NUMBER_VARIABLES
_HINTS = frozenset(SORT_HINTS) | CITE_COMMANDS  # the document defines them (LaTeX, natbib, biblatex)
# The genres biblatex prints from a key of its own, in the document's language (its key is mathesis).
_GENRE_KEYS = {genre: key for key, genre in m.TYPE_KEYS.items() if key != "mastersthesis"}
_OWN_TEX = frozenset({"title", "plain", "pages"})  # kinds written as TeX of their own (kind_tex)
_NOT_CONTENT = frozenset({"ris:TY", "csl:type", facts.NOTE_KEY})  # the type the source named, notes
_LAYOUTS = 64  # entry types whose layout a writer keeps (a file may name any number of types)


class _Ranks(dict[str, tuple[int, str]]):
    """Where a field goes: in :data:`~bibconv.formats.bibtex.table.FIELD_ORDER`, then alphabetically
    (a sort key looked up without a call of Python's for the fields of that order)."""

    def __missing__(self, name: str) -> tuple[int, str]:
        return (len(m.FIELD_ORDER), name)


_RANKS = _Ranks({name: (i, name) for i, name in enumerate(m.FIELD_ORDER)})


class EntryBuilder:
    """Writes the entries of one file for a dialect and context.

    Of the output: ``indent`` (the ``indent`` option as the text before each field) and the
    options an entry is written as read with (:func:`~bibconv.formats.bibtex.faithful.as_read`).
    The entry being written: ``values`` (field → complete value expression, ``{…}`` or a macro),
    ``rid`` (its key, for warnings), ``where`` (the variable being written, named in warnings) and
    ``known`` (the commands the file's kept ``@preamble`` blocks define, collected in ``defined``).
    """

    __slots__ = (
        "as_read_options",
        "ascii",
        "ctx",
        "defined",
        "dialect",
        "extended",
        "indent",
        "joined",
        "known",
        "layouts",
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
        self.as_read_options = (bool(ctx.option("normalize")), bool(chosen))
        indent = ctx.option("indent", 2)
        self.indent = " " * indent if isinstance(indent, int) else str(indent or "")
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
        self.layouts: dict[str, tuple[str, dict[str, m.Row], str]] = {}

    def warn(self, message: str) -> None:
        if not self.quiet:
            self.ctx.warn(f"{self.where}: {message}" if self.where else message, self.rid)

    def plain(self, text: str) -> str:
        """Plain text as TeX on one line (a name part, an affiliation, a call number)."""
        return plain(text, self.ascii, self.known, self.warn)

    def taken(self, name: str) -> bool:
        if name in self.values:
            self.warn(f"field {name!r} already written; the other value is dropped")
            return True
        return False

    def put_text(self, name: str, value: str) -> None:
        """Add a field of rich text (encoded)."""
        if not self.taken(name):
            self.values[name] = "{" + safe(encode(value, self.ascii, self.known, self.warn)) + "}"

    def put_tex(self, name: str, tex: str) -> None:
        """Add a field of TeX (made one line)."""
        if not self.taken(name):
            self.values[name] = "{" + safe(tex) + "}"

    def put_raw(self, name: str, value: str) -> None:
        """Add a field kept as TeX, as it is when it is plain or balanced and safe, else encoded."""
        if not self.taken(name):
            self.values[name] = raw_value(name, value, self.ascii, self.known, self.warn)

    def put_macro(self, name: str, macro: str) -> None:
        if not self.taken(name):
            self.values[name] = macro

    def put_variable(self, var: str, value: str, rows: dict[str, m.Row], reads_as: str) -> None:
        """A CSL variable in the field its row names, else in ``csl-<var>``."""
        row = None if var in _NUMBERS else rows.get(var)
        own = row.field if row is not None else number_field(var, reads_as) if var in _NUMBERS else None
        name = own if own is not None and own not in self.values else m.CSL_PREFIX + var  # none, or taken
        kind = row.kind if row is not None else m.own_kind(var)
        if kind in _OWN_TEX or (kind == "paragraphs" and "\n" in value):
            self.put_tex(name, kind_tex(kind, value, self.ascii, self.known, self.protect_mode, self.warn))
        elif kind == "verbatim" and braces_ok(value):  # identifiers are kept as they are, not as rich text
            if self.ctx.option("identifiers_as_is") and not self.taken(name):
                self.values[name] = "{" + value.strip() + "}"  # for formatting, which links them raw
            else:
                self.put_raw(name, value)
        else:
            self.put_text(name, value)

    def put_names(self, record: Record, entry: str) -> None:
        for var, people in record.names.items():
            self.where = var
            row = m.write_row(var, self.dialect, entry)
            name = row.field if row is not None else m.CSL_PREFIX + var
            self.put_tex(name, names_tex(people, self.ascii, self.extended, self.warn))
            groups = affiliations_tex(people, self.ascii, self.known, self.warn)
            if groups is not None:
                self.put_tex(f"{name}affiliations", groups)

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

    def without_parts(self, record: Record, entry: str) -> Mapping[str, str]:
        """The record's fields without what is written in fields of its own (:mod:`bibconv.subtitles`):
        for biblatex each title without the kept subtitle or addon it ends with (classic BibTeX, with no
        such fields, keeps them in the title); a publisher that a kept ``organization`` or
        ``howpublished`` reads back as is left to that field."""
        if HELD.keys().isdisjoint(record.extra):  # no part or publisher kept in a field of its own
            self.joined = set()
            return record.fields
        fields = dict(record.fields)
        journal = entry in m.JOURNAL_TYPES
        if self.extended:
            self.joined = take_off(fields, record.extra, journal, subtitle_text)
        else:
            self.joined = kept_parts(fields, record.extra, journal)
        found = publisher_from(record.extra, entry)
        if found is not None and fields.get("publisher") == found[1]:
            del fields["publisher"]
        return fields

    def put_extras(self, record: Record) -> None:
        note = record.extra.get(facts.NOTE_KEY)
        if isinstance(note, str) and note.strip():  # bibconv's own notes, in a field no style prints
            self.put_tex(facts.NOTE_FIELD, self.plain(note))
        for key, value in record.extra.items():
            if not key.startswith("bibtex:") and key not in _NOT_CONTENT:  # another format's field
                self.ctx.warn_once(f"extra:{key}", f"{self.dialect} cannot hold {key!r}; dropped", self.rid)
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

    def text(self, record: Record, indent: str, key: str | None = None) -> str:
        """One entry (with the ``@preamble``/``@comment`` blocks kept around it) as BibTeX text, keyed
        ``key`` (else the record's id): as read while its record is unchanged
        (:mod:`bibconv.formats.bibtex.faithful`), else from the record's fields."""
        key = record.id if key is None else key
        self.rid, self.values = key, {}
        blocked = "bibtex:before" in record.extra or "bibtex:after" in record.extra
        if blocked or len(self.known) != len(self.defined):  # (what is defined only grows)
            self.known = defined_by_blocks(record, self.defined)
        kept = None
        if record.source is not None:  # read from BibTeX: perhaps written as read
            kept = as_read(record, self.dialect, self.as_read_options, self.known, self.warn)
        if kept is not None:
            entry, body = kept[0], ",\n".join(indent + line for line in kept[1])
        else:
            entry = entry_type_for(record, self.dialect)
            body = self.body(record, entry, indent)
        key = key or ""
        written = m.safe_key(key)
        if written != key:
            why = "BibTeX keys cannot hold spaces, commas, braces or quotes"
            self.warn(f"key {key!r} written as {written!r} ({why})")
        text = f"@{entry}{{{written},\n{body}\n}}\n" if body else f"@{entry}{{{written},\n}}\n"
        if not blocked:
            return text
        out = [*blocks(record, "bibtex:before", self.warn), text, *blocks(record, "bibtex:after", self.warn)]
        return "\n".join(out)

    def body(self, record: Record, entry: str, indent: str) -> str:
        """The ``name = value`` lines of an entry of type ``entry`` written from ``record``'s fields."""
        self.put_all(record, entry)
        if record.source is not None:
            self.drop_inherited(record, entry)
        tex = record.extra.get(m.TEX_KEPT) if record.extra else None
        if isinstance(tex, dict) and not self.ctx.option("expand_commands"):
            self.put_kept_tex(tex, entry)
        values = self.values
        names = sorted(values, key=_RANKS.__getitem__) if len(values) > 1 else values
        return ",\n".join([f"{indent}{_DISPLAY.get(name, name)} = {values[name]}" for name in names])

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

    def layout(self, entry: str) -> tuple[str, dict[str, m.Row], str]:
        """An entry type in lower case, the rows the dialect writes for it, and the CSL type it reads
        back as (a preprint's: :func:`read_type`); kept for the first types of an output."""
        low = entry.lower()
        found = (low, m.writes_for(self.dialect, low), m.csl_type(low))
        if len(self.layouts) < _LAYOUTS:
            self.layouts[entry] = found
        return found

    def put_all(self, record: Record, entry: str) -> None:
        """Every field of ``record`` for an entry of type ``entry``."""
        low, rows, reads_as = self.layouts.get(entry) or self.layout(entry)
        if record.arxiv is not None:
            reads_as = read_type(record, entry)
        if record.names:
            self.put_names(record, low)
        fields = self.without_parts(record, low)
        implied = m.IMPLIED_GENRES.get(low) if reads_as in ("thesis", "report") else None
        for var in number_order(record, reads_as):
            value = fields.get(var)
            if value is None or (var == "genre" and value == implied):
                continue  # written in a field of its own (without_parts), or the entry type says it
            self.where = var
            if var == "genre" and self.extended and value in _GENRE_KEYS:
                self.put_raw("type", _GENRE_KEYS[value])
                continue
            if var == "language" and babel_name(value):  # a tag: babel's name in langid
                self.put_raw("langid", babel_name(value) or "")
                continue
            if self.extended and var in bibstrings.VARIABLES:
                value = bibstrings.keys(var, low, value)
            self.put_variable(var, value, rows, reads_as)
        self.where = None
        if record.dates:
            self.put_dates(record, low)
        if record.keywords:
            self.put_text("keywords", ", ".join(record.keywords))
        if record.arxiv is not None:
            self.put_arxiv(record)
        if record.extra:
            self.put_extras(record)


def entry_text(
    record: Record, dialect: str, ctx: WriteContext, indent: str = "  ", defined: set[str] | None = None
) -> str:
    """One entry (with the ``@preamble``/``@comment`` blocks kept around it) as BibTeX text.

    ``defined`` collects the commands the kept ``@preamble`` blocks written so far define (fields
    may use them); pass the same set for every entry of a file.
    """
    return EntryBuilder(dialect, ctx, defined).text(record, indent)
