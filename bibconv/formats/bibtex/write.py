r"""The ``bibtex`` and ``biblatex`` writers.

Layout: one field per line, in a fixed order (:data:`~bibconv.formats.bibtex.table.FIELD_ORDER`, then
the rest alphabetically), ``key = {value}``, indented by the ``indent`` option (2 spaces; a number or
a string such as ``"\t"``), a blank line between entries. Keys come from :class:`bibconv.keys.KeyAssigner`
(existing keys are kept, repeats get a suffix). Values go through :func:`bibconv.latex.encoder`
(``ascii`` option: pure ASCII for classic ``bibtex``), titles also through :func:`latex.protect_case`,
names through :func:`bibconv.names.format_bibtex_name`; identifiers (URL, DOI…) are written as they are.

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

**Affiliations** of a name list go to ``<field>affiliations`` (``authoraffiliations = {{Apple}{MIT}
and {} and {CNRS}}``: one entry per person, ``and`` between, one brace group per affiliation).

**Everything else has a field.** A CSL variable without a BibTeX field of its own, or whose field
already holds another variable (an article's ``number`` holds its issue), goes to ``csl-<variable>``
(``csl-medium``, ``csl-number``, ``csl-director`` names, ``csl-submitted`` or a literal ``accessed``
date); BibTeX and biber ignore such fields and the reader reads them back.

Dates: ``year``, ``month = apr`` (a macro), ``day`` in BibTeX (plus ``date`` for ranges with months);
``date`` (EDTF, ranges) in biblatex.

**Projection.** What these writers cannot hold (so what a record keeps through BibTeX) is written down
as code in :func:`bibconv.projection.project`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import ClassVar, TextIO

from bibconv import csl, latex
from bibconv.formats.bibtex import table as m
from bibconv.formats.bibtex.fields import PREPRINT_TYPES
from bibconv.latex.allow import disallowed, preamble_commands, tex_allowed
from bibconv.model import Date, Name, Record
from bibconv.registry import WriteContext, register

__all__ = [
    "BiblatexWriter",
    "BibtexWriter",
    "entry_text",
    "entry_type_for",
    "number_field",
    "number_order",
    "read_type",
]

_RESERVED = frozenset({"bibtex:entrytype", "bibtex:before", "bibtex:after"})
_VERBATIM_VARS = {
    "URL": "url",
    "DOI": "doi",
    "ISBN": "isbn",
    "ISSN": "issn",
    "PMID": "pmid",
    "PMCID": "pmcid",
}
_DATE_VARS = {"accessed": "urldate", "event-date": "eventdate", "original-date": "origdate"}
_NAME_VARS = {var: field for field, var in m.NAME_FIELDS.items()}
_DISPLAY = {"archiveprefix": "archivePrefix", "primaryclass": "primaryClass"}
_RANKS = {name: (i, name) for i, name in enumerate(m.FIELD_ORDER)}


def _rank(name: str) -> tuple[int, str]:
    """Where a field goes: in :data:`~bibconv.formats.bibtex.table.FIELD_ORDER`, then alphabetically."""
    return _RANKS.get(name) or (len(_RANKS), name)


_NEWLINES_RE = re.compile(r"\s*[\r\n]+\s*")
_BAD_KEY_RE = re.compile(r"[\s,{}()\"#%=\\'^]")  # ^^5c is TeX's spelling of a backslash
_FIELD_NAME_RE = re.compile(r"^[A-Za-z_][\w.:+-]*$")
_PIECES_RE = re.compile(r"(\s+)")
_TEX_RE = re.compile(r"[{}\\^]")
_EN_DASH_RE = re.compile(r"(?<![-–])–(?![-–])")
_DOLLAR_RE = re.compile(r"(?<!\\)\$")
_GROUP_RE = re.compile(r"\{(?!\\)")
_SPECIAL_BLOCK_RE = re.compile(r"^@(?:preamble|comment)\s*[{(]", re.I)
_PREAMBLE_RE = re.compile(r"\s*@preamble", re.I)


def _braces_ok(text: str) -> bool:
    """Balanced for BibTeX (every brace counts) and for bibtexparser (``\\{`` does not)."""
    if "{" not in text and "}" not in text:
        return not text.endswith("\\")
    literal = escaped = 0
    prev = ""
    for ch in text:
        if ch in "{}":
            step = 1 if ch == "{" else -1
            literal += step
            if prev != "\\":
                escaped += step
            if literal < 0 or escaped < 0:
                return False
        prev = ch if not (prev == "\\" and ch == "\\") else ""
    return literal == 0 and escaped == 0 and not text.endswith("\\")


def _safe(body: str) -> str:
    """An encoded value on one line (:func:`latex.encode` balances braces both ways)."""
    if "\n" in body or "\r" in body:
        body = _NEWLINES_RE.sub(" ", body)
    return body


def _protect(tex: str) -> str:
    """:func:`latex.protect_case`, leaving words that hold a brace group of their own as they are."""
    protected = latex.protect_case(tex)
    if protected == tex or ("{" not in tex and "\\$" not in tex):
        # No brace group of its own, and no backslash before a dollar (``\\$``), which the two count apart.
        return protected
    return _protect_pieces(tex, protected)


def _protect_pieces(tex: str, protected: str) -> str:
    """Each word of ``protected``, or of ``tex`` where it holds a group of its own or is inside math."""
    before, after = _PIECES_RE.split(tex), _PIECES_RE.split(protected)
    if len(before) != len(after):
        return protected
    out = []
    in_math = False
    for b, a in zip(before, after, strict=True):
        dollars = len(_DOLLAR_RE.findall(b)) if "$" in b else 0
        if b == a:  # unchanged: what _keep would choose either way
            out.append(b)
            in_math = in_math != (dollars % 2 == 1)
            continue
        spans_math = in_math or dollars % 2 == 1  # math across words (``$a b$``) is left alone
        out.append(b if spans_math or _keep(b, a) else a)
        in_math = in_math != (dollars % 2 == 1)
    return "".join(out)


def _keep(before: str, after: str) -> bool:
    """Keep a word as it was: it holds a brace group of its own, or protection changed more than braces."""
    if _GROUP_RE.search(before) and before.count("{") == before.count("}"):
        return True
    return after.replace("{", "").replace("}", "") != before.replace("{", "").replace("}", "")


def _block_ok(raw: object) -> bool:
    """Whether a kept ``@preamble``/``@comment`` block is exactly one such block."""
    if not isinstance(raw, str) or not _SPECIAL_BLOCK_RE.match(raw.lstrip()):
        return False
    from bibtexparser.model import ExplicitComment, Preamble
    from bibtexparser.splitter import Splitter

    blocks = Splitter(raw).split().blocks
    return len(blocks) == 1 and isinstance(blocks[0], (Preamble, ExplicitComment))


class _Fields:
    """The fields of one entry, as complete value expressions (``{…}`` or a macro)."""

    def __init__(
        self, encode: Callable[[str], str], warn: Callable[[str], None], defined: frozenset[str]
    ) -> None:
        self.values: dict[str, str] = {}
        self.encode = encode
        self.warn = warn
        self.defined = defined  # commands a kept @preamble defines

    def put(
        self, name: str, value: str, *, raw: bool = False, tex: bool = False, macro: bool = False
    ) -> None:
        """Add a field: record text (encoded), ``tex`` (made safe), ``raw`` kept TeX, or a ``macro``."""
        if name in self.values:
            self.warn(f"field {name!r} already written; the other value is dropped")
            return
        if macro:
            self.values[name] = value
        elif tex:
            self.values[name] = "{" + _safe(value) + "}"
        elif raw:
            body = value.strip()
            if "\n" in body or "\r" in body:
                body = _NEWLINES_RE.sub(" ", body)
            kept = not _TEX_RE.search(body) or (_braces_ok(body) and tex_allowed(body, self.defined))
            if not kept and _braces_ok(body):
                commands = ", ".join(disallowed(body, self.defined))
                self.warn(f"field {name!r}: TeX {commands} is not allowed in output; written as text")
            self.values[name] = "{" + (body if kept else _safe(self.encode(body))) + "}"
        else:
            self.values[name] = "{" + _safe(self.encode(value)) + "}"

    def text(self, indent: str) -> str:
        values = self.values
        return ",\n".join(
            [indent + _DISPLAY.get(n, n) + " = " + values[n] for n in sorted(values, key=_rank)]
        )


def entry_type_for(record: Record, dialect: str) -> str:
    """The entry type a dialect writes ``record`` as (a kept source type when it still fits)."""
    if record.arxiv is not None and record.type == "article":
        return "online" if dialect == "biblatex" else "misc"
    kept = record.extra.get("bibtex:entrytype")
    if isinstance(kept, str) and re.fullmatch(r"\w+", kept) and m.csl_type(kept) == record.type:
        low = kept.lower()
        known = m.BIBLATEX_TYPES if dialect == "biblatex" else m.BIBTEX_TYPES
        if low in known or (low not in m.BIBTEX_TYPES and low not in m.BIBLATEX_TYPES):
            return kept
    if record.type == "thesis" and dialect == "bibtex" and "master" in record.fields.get("genre", "").lower():
        return "mastersthesis"
    if record.type in ("report", "thesis") and dialect == "biblatex" and "genre" not in record.fields:
        return "techreport" if record.type == "report" else "phdthesis"  # biblatex's aliases with a type
    return m.entry_type(record.type, dialect)


def read_type(record: Record, entry: str) -> str:
    """The CSL type the reader gives an entry of type ``entry`` written for ``record``."""
    low = entry.lower()
    if record.arxiv is not None and (
        low in PREPRINT_TYPES or (low == "article" and "container-title" not in record.fields)
    ):
        return "article"
    return m.csl_type(low)


_NUMBERS = ("number", "issue", "collection-number")


def number_order(record: Record, record_type: str) -> list[str]:
    """The record's fields, the one ``number`` reads back as first (it wins the ``number`` field),
    then the others in a fixed order, so that equal records give equal entries."""
    natural = m.NUMBER_BY_TYPE.get(record_type, "number")

    def rank(var: str) -> tuple[bool, int]:
        return (var in _NUMBERS and var != natural, _NUMBERS.index(var) if var in _NUMBERS else 0)

    return sorted(record.fields, key=rank)


def number_field(var: str, record_type: str) -> str | None:
    """``number`` holds the issue of an article, the series number of a book, else the number;
    ``issue`` another issue; the other number variables have no field (``csl-<variable>``)."""
    if var == m.NUMBER_BY_TYPE.get(record_type, "number"):
        return "number"
    return "issue" if var == "issue" else None


def _dates(record: Record, fields: _Fields, dialect: str, warn: Callable[[str], None]) -> None:
    issued = record.dates.get("issued")
    if issued is not None:
        issued = issued.with_season_in_parts()  # EDTF holds the season of a year (2017-23)
        if issued.season:
            warn(f"season {issued.season!r} of the date is not written")
        if not issued.parts:
            fields.put("year", issued.literal or "")
        elif dialect == "biblatex":
            fields.put("date", issued.to_edtf() or "", raw=True)
        else:
            _bibtex_date(issued, fields)
    for var, date in record.dates.items():
        if var == "issued":
            continue
        date = date.with_season_in_parts()
        name = _DATE_VARS.get(var) if date.parts else None  # biblatex reads EDTF dates only
        text = date.to_edtf() or date.literal
        if text:
            fields.put(name or m.CSL_PREFIX + var, text, raw=True)


def _bibtex_date(issued: Date, fields: _Fields) -> None:
    """``year``, ``month`` and ``day``; ranges, circa and seasons also in EDTF ``date`` (biblatex's)."""
    first = issued.parts[0]
    end = issued.parts[-1]
    if len(issued.parts) == 2 and len(first) == 1 and len(end) == 1 and end[0] and not issued.circa:
        fields.put("year", f"{first[0]}--{issued.parts[1][0]}", raw=True)
        return
    fields.put("year", str(first[0]), raw=True)
    if issued.month is not None:
        fields.put("month", m.MONTHS[issued.month - 1], macro=True)
    if len(first) > 2:
        fields.put("day", str(first[2]), raw=True)
    if len(issued.parts) == 2 or issued.circa or issued.season_number:
        fields.put("date", issued.to_edtf() or "", raw=True)


def _arxiv_fields(record: Record, fields: _Fields, dialect: str, plain: Callable[[str], str]) -> None:
    arxiv = record.arxiv
    assert arxiv is not None
    fields.put("eprint", arxiv.id, raw=True)
    biblatex = dialect == "biblatex"
    fields.put("eprinttype" if biblatex else "archiveprefix", "arXiv", raw=True)
    cls_field = "eprintclass" if biblatex else "primaryclass"
    kept = record.extra.get("bibtex:primaryclass")
    if isinstance(kept, str) and arxiv.primary_class and kept.split(",")[0].strip() == arxiv.primary_class:
        fields.put(cls_field, kept, raw=True)
    elif arxiv.primary_class:
        fields.put(cls_field, arxiv.primary_class, raw=True)
    if arxiv.version:
        fields.put("arxivversion", str(arxiv.version), raw=True)
    if arxiv.categories:
        fields.put("arxivcategories", ", ".join(arxiv.categories), raw=True)
    for name, date in (("arxivsubmitted", arxiv.submitted), ("arxivupdated", arxiv.updated)):
        text = date and (date.to_edtf() or date.literal)
        if text:
            fields.put(name, text, raw=True)
    if arxiv.comment:
        fields.put("arxivcomment", plain(arxiv.comment), tex=True)
    if arxiv.journal_ref:
        fields.put("arxivjournalref", plain(arxiv.journal_ref), tex=True)
    if "DOI" not in record.fields:
        fields.put("doi", arxiv.doi, raw=True)
    if "URL" not in record.fields:
        fields.put("url", arxiv.abs_url, raw=True)
    if biblatex and record.type == "article" and "status" not in record.fields:
        fields.put("pubstate", "prepublished", raw=True)


_SHORT = 200
"""Values up to this long (journals, publishers, notes, name parts) repeat across a file: cached."""


@lru_cache(maxsize=8192)
def _encode_short(text: str, ascii_only: bool, defined: frozenset[str]) -> tuple[str, tuple[str, ...]]:
    """:func:`latex.encode` of a short value, with the warnings it gave (replayed at each use)."""
    warnings: list[str] = []
    return latex.encode(text, ascii=ascii_only, warn=warnings.append, allowed=defined), tuple(warnings)


@lru_cache(maxsize=8192)
def _name_tex(name: Name, ascii_only: bool, extended: bool) -> tuple[str, tuple[str, ...]]:
    """A name in BibTeX form, with the warnings encoding it gave (names repeat across a file)."""
    from bibconv.names import format_bibtex_name

    warnings: list[str] = []

    def encode_plain(text: str) -> str:  # a name part: balanced on its own, as BibTeX splits names
        return _safe(latex.encode(latex.escape_markup(text), ascii=ascii_only, warn=warnings.append))

    return format_bibtex_name(name, encode_plain, extended=extended), tuple(warnings)


def entry_text(
    record: Record, dialect: str, ctx: WriteContext, indent: str = "  ", defined: set[str] | None = None
) -> str:
    """One entry (with the ``@preamble``/``@comment`` blocks kept around it) as BibTeX text.

    ``defined`` collects the commands the kept ``@preamble`` blocks written so far define (fields
    may use them); pass the same set for every entry of a file.
    """
    ascii_only = bool(ctx.option("ascii"))
    known = _defined_by_blocks(record, set() if defined is None else defined)
    extended = dialect == "biblatex"

    where: list[str] = []  # the field being written, named in warnings

    def warn(message: str) -> None:
        ctx.warn(f"{where[0]}: {message}" if where else message, record.id)

    def replay(found: tuple[str, tuple[str, ...]]) -> str:
        for message in found[1]:
            warn(message)
        return found[0]

    def encode(text: str) -> str:
        if len(text) > _SHORT:
            return latex.encode(text, ascii=ascii_only, warn=warn, allowed=known)
        return replay(_encode_short(text, ascii_only, known))

    def encode_plain(text: str) -> str:  # a name part: balanced on its own, as BibTeX splits names
        return _safe(encode(latex.escape_markup(text)))

    entry = entry_type_for(record, dialect)
    low = entry.lower()
    fields = _Fields(encode, warn, known)
    for var, people in record.names.items():
        where[:] = [var]
        name = _NAME_VARS.get(var) or m.CSL_PREFIX + var
        listed = [replay(_name_tex(p, ascii_only, extended)) for p in people]
        fields.put(name, " and ".join(listed), tex=True)
        if any(p.affiliation for p in people):
            groups = ("".join("{" + encode_plain(a) + "}" for a in p.affiliation) or "{}" for p in people)
            fields.put(f"{name}affiliations", " and ".join(groups), tex=True)
    reads_as = read_type(record, entry)
    for var in number_order(record, reads_as):
        where[:] = [var]
        value = record.fields[var]
        if var in ("title", "title-short"):
            name = "title" if var == "title" else "shorttitle"
            # titles rarely repeat: not cached
            tex = latex.encode(value, ascii=ascii_only, warn=warn, allowed=known)
            fields.put(name, _protect(_safe(tex)), tex=True)
        elif var in _VERBATIM_VARS:  # identifiers are kept as they are, not as rich text
            fields.put(_VERBATIM_VARS[var], value, raw=_braces_ok(value))
        else:
            own = number_field(var, reads_as) if var in _NUMBERS else m.field_for(var, dialect, low)
            name = own if own and own not in fields.values else m.CSL_PREFIX + var  # none, or taken
            if var in csl.VERBATIM_VARS:  # call-number, language, archive_location: plain text
                fields.put(name, encode_plain(value), tex=True)
            elif var == "page":
                fields.put(name, _EN_DASH_RE.sub("--", _safe(encode(value))), tex=True)
            elif var in ("abstract", "note") and "\n" in value:  # paragraphs, as Better BibTeX writes them
                paragraphs = (_safe(encode(p)) for p in value.split("\n") if p.strip())
                fields.put(name, " \\par ".join(paragraphs), tex=True)
            else:
                fields.put(name, value)
    where.clear()
    _dates(record, fields, dialect, warn)
    if record.keywords:
        fields.put("keywords", ", ".join(record.keywords))
    if record.arxiv is not None:
        _arxiv_fields(record, fields, dialect, encode_plain)
    for key, value in record.extra.items():
        if not key.startswith("bibtex:") or key in _RESERVED:
            continue
        name = key[7:]
        if name in fields.values or (name == "primaryclass" and record.arxiv is not None):
            continue
        if not _FIELD_NAME_RE.match(name) or not isinstance(value, (str, int, float)):
            warn(f"extra {key!r} is not a BibTeX field; not written")
            continue
        fields.put(name, str(value), raw=True)
    key = record.id or ""
    if _BAD_KEY_RE.search(key):
        safe = _BAD_KEY_RE.sub("_", key)
        warn(f"key {key!r} written as {safe!r} (BibTeX keys cannot hold spaces, commas, braces or quotes)")
        key = safe
    out = [*_blocks(record, "bibtex:before", warn)]
    body = fields.text(indent)
    out.append(f"@{entry}{{{key},\n{body}\n}}\n" if body else f"@{entry}{{{key}\n}}\n")
    out.extend(_blocks(record, "bibtex:after", warn))
    return "\n".join(out)


def _defined_by_blocks(record: Record, defined: set[str]) -> frozenset[str]:
    """``defined`` with the commands this record's kept ``@preamble`` blocks define added."""
    for key in ("bibtex:before", "bibtex:after"):
        blocks = record.extra.get(key) or []
        for raw in blocks if isinstance(blocks, list) else [blocks]:
            if isinstance(raw, str) and _PREAMBLE_RE.match(raw) and _block_ok(raw):
                defined.update(preamble_commands(raw) or ())
    return frozenset(defined)


def _blocks(record: Record, key: str, warn: Callable[[str], None]) -> Iterable[str]:
    blocks = record.extra.get(key) or []
    for raw in blocks if isinstance(blocks, list) else [blocks]:
        if not _block_ok(raw):
            warn(f"a kept {key[7:]} block is not a single @preamble or @comment; not written")
        elif _PREAMBLE_RE.match(raw) and preamble_commands(raw) is None:
            commands = ", ".join(disallowed(raw)) or "a redefinition"
            warn(f"a kept @preamble holds TeX that is not allowed in output ({commands}); not written")
        else:
            yield raw.strip() + "\n"


class _Writer:
    name: ClassVar[str]
    extensions: ClassVar[tuple[str, ...]]
    description: ClassVar[str]
    dialect: ClassVar[str]

    def write(self, records: Iterable[Record], stream: TextIO, ctx: WriteContext) -> None:
        from bibconv.keys import KeyAssigner

        keys = KeyAssigner(ctx.option("key_format") or "authyeartitle", warn=ctx.warn)
        indent = ctx.option("indent", 2)
        pad = " " * indent if isinstance(indent, int) else str(indent or "")
        first = True
        defined: set[str] = set()
        for record in records:
            text = entry_text(keys.assign(record), self.dialect, ctx, pad, defined)
            stream.write(text if first else "\n" + text)
            first = False


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
